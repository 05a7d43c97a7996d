#include "CommandLineSupport.h"

#include "AtomicFile.h"
#include "project/InputRegistry.h"
#include "project/ModelChecks.h"
#include "util/Count.h"
#include "util/Utf8.h"

#include <QFile>
#include <QFileInfo>
#include <sys/stat.h>

namespace dsw {

namespace {

// "Options:" and what follows in QCommandLineParser's help text (its first paragraph is a usage line built
// from argv[0], which the caller replaces with the command's own).
QString optionsSection(const QCommandLineParser& parser)
{
    const QString text = parser.helpText();
    const qsizetype at = text.indexOf(QStringLiteral("Options:"));
    return at < 0 ? QString() : text.mid(at);
}

// "--set, --format, -h/--help": the option names in the help text's option lines.
QString optionNames(const QCommandLineParser& parser)
{
    QStringList names;
    for (const QString& line : optionsSection(parser).split('\n')) {
        if (!line.startsWith(QStringLiteral("  -")))
            continue;
        QString name = line.trimmed();
        name = name.left(name.indexOf(QStringLiteral("  "))); // before the description
        const qsizetype value = name.indexOf(QStringLiteral(" <"));
        names << (value < 0 ? name : name.left(value)).replace(QStringLiteral(", "), QStringLiteral("/"));
    }
    return names.join(QStringLiteral(", "));
}

} // namespace

void parseOrThrow(QCommandLineParser& parser, const QStringList& args, const QString& positional)
{
    parser.addOption({{"h", "help"}, "Show this command's usage and options."});
    if (!parser.parse(args))
        throw BadInput{QStringLiteral("%1 Allowed: %2 (ds-wizard %3 --help)")
                           .arg(parser.errorText(), optionNames(parser), args.value(0))};
    if (parser.isSet("help"))
        throw HelpRequested{optionsSection(parser)};
    const QStringList extra = parser.positionalArguments();
    const bool oneOrMore = positional.endsWith(QStringLiteral("..."));
    const auto wanted = positional.split(' ', Qt::SkipEmptyParts).size();
    if (extra.size() > wanted && !oneOrMore)
        throw BadInput{QStringLiteral("unexpected argument '%1'").arg(extra.at(wanted))};
    if (extra.size() < wanted)
        throw BadInput{QStringLiteral("missing argument: expected %1").arg(positional)};
}

std::int64_t countOption(const QCommandLineParser& p, const QString& name, bool required, std::int64_t min,
                         std::int64_t max)
{
    if (!p.isSet(name)) {
        if (required)
            throw BadInput{QStringLiteral("--%1 is required").arg(name)};
        return 0;
    }
    const auto n = parseCount(p.value(name).toStdString());
    if (!n || *n < min || *n > max)
        throw BadInput{QStringLiteral("--%1: '%2' is not allowed; a whole number from %3 to %4")
                           .arg(name, p.value(name))
                           .arg(min)
                           .arg(max)};
    return *n;
}

void addProjectOptions(QCommandLineParser& parser)
{
    parser.addOptions(
        {{"project", "Project file to start from.", "FILE"}, {"set", "Set an input: id=value.", "id=value"}});
}

void applySets(const QStringList& assignments, Answers& answers)
{
    for (const QString& assignment : assignments) {
        const int eq = assignment.indexOf('='); // the first '=': pasted values may contain more
        if (eq <= 0)
            throw BadInput{QStringLiteral("--set '%1': expected id=value").arg(assignment)};
        const std::string id = assignment.left(eq).trimmed().toStdString();
        auto value = InputRegistry::instance().parse(id, assignment.mid(eq + 1).toStdString());
        if (!value)
            throw BadInput{QString::fromStdString(value.error())};
        answers.set(id, value.value());
    }
}

Project projectFromOptions(const QCommandLineParser& p)
{
    Project project;
    if (p.isSet("project")) {
        const QString path = p.value("project");
        auto parsed = parseProject(readInputFile(path, kMaxProjectBytes));
        if (!parsed)
            throw BadInput{path + ": " + QString::fromStdString(parsed.error())};
        project = std::move(parsed).value();
    }
    applySets(p.values("set"), project.answers);
    if (auto error = modelShapeError(project.answers)) // answers that contradict each other stop here, exit 2
        throw BadInput{QString::fromStdString(*error)};
    return project;
}

bool isSameFile(const QString& a, const QString& b)
{
    struct stat sa {
    }, sb{};
    return ::stat(QFile::encodeName(a).constData(), &sa) == 0 && ::stat(QFile::encodeName(b).constData(), &sb) == 0
        && sa.st_dev == sb.st_dev && sa.st_ino == sb.st_ino;
}

void checkOutputPath(const QString& path, const QStringList& inputs, bool folder)
{
    if (path.isEmpty())
        throw BadInput{QStringLiteral("-o: the path is empty")};
    const QString kind = nonRegularFileKind(path);
    if (folder && kind.isEmpty() && QFileInfo::exists(path))
        throw BadInput{
            QStringLiteral("-o %1: exists and is not a folder; a bundle is written into a folder (new or existing)")
                .arg(path)};
    if (folder && !kind.isEmpty() && kind != QStringLiteral("a folder"))
        throw BadInput{
            QStringLiteral("-o %1: it is %2; a bundle is written into a folder (new or existing)").arg(path, kind)};
    if (!folder && !kind.isEmpty())
        throw BadInput{QStringLiteral("-o %1: it is %2; -o takes a regular file (new or existing)").arg(path, kind)};
    for (const QString& input : inputs)
        if (isSameFile(path, input))
            throw BadInput{QStringLiteral("-o %1 is the input file %2; write to another file").arg(path, input)};
}

void writeOutput(const QString& path, const std::string& text, QTextStream& out, bool executable)
{
    if (path.isEmpty()) {
        // Valid UTF-8 to a device (standard output) goes as it is: through a QString it took three copies of
        // twice its size (recommend's 88 KB JSON: 0.7 MB of allocations). Anything else, or a stream on a
        // string (the in-process tests), the QString way, which writes U+FFFD for an invalid sequence.
        if (QIODevice* device = out.device(); device && !firstInvalidUtf8(text)) {
            out.flush();
            auto* file = qobject_cast<QFileDevice*>(device); // a file buffers what it is given: flushed, or failed
            if (device->write(text.data(), static_cast<qint64>(text.size())) == static_cast<qint64>(text.size())
                && (!file || file->flush()))
                return;
            throw BadInput{QStringLiteral("cannot write to standard output: %1").arg(device->errorString())};
        }
        out << QString::fromStdString(text);
        return;
    }
    const QString error = writeFileAtomically(path, QByteArray::fromStdString(text), executable);
    if (!error.isEmpty())
        throw BadInput{error};
}

std::string readInputFile(const QString& path, std::size_t maxBytes)
{
    QByteArray bytes;
    if (QString error = readUserFile(path, static_cast<qint64>(maxBytes), bytes); !error.isEmpty())
        throw BadInput{error};
    return bytes.toStdString();
}

} // namespace dsw
