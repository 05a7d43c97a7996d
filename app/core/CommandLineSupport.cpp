#include "CommandLineSupport.h"

#include "AtomicFile.h"
#include "Count.h"
#include "InputRegistry.h"

namespace dsw {

void parseOrThrow(QCommandLineParser& parser, const QStringList& args, const QString& positional)
{
    if (!parser.parse(args))
        throw BadInput{parser.errorText()};
    const QStringList extra = parser.positionalArguments();
    const auto wanted = positional.split(' ', Qt::SkipEmptyParts).size();
    if (extra.size() > wanted)
        throw BadInput{QStringLiteral("unexpected argument '%1'").arg(extra.at(wanted))};
    if (extra.size() < wanted)
        throw BadInput{QStringLiteral("missing argument: expected %1").arg(positional)};
}

std::int64_t countOption(const QCommandLineParser& p, const QString& name, bool required, std::int64_t min, std::int64_t max)
{
    if (!p.isSet(name)) {
        if (required)
            throw BadInput{QStringLiteral("--%1 is required").arg(name)};
        return 0;
    }
    const auto n = parseCount(p.value(name).toStdString());
    if (!n || *n < min || *n > max)
        throw BadInput{QStringLiteral("--%1: '%2' is not allowed; a whole number from %3 to %4").arg(name, p.value(name)).arg(min).arg(max)};
    return *n;
}

void addProjectOptions(QCommandLineParser& parser)
{
    parser.addOptions({{"project", "Project file to start from.", "FILE"}, {"set", "Set an input: id=value.", "id=value"}});
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
    return project;
}

void writeOutput(const QString& path, const std::string& text, QTextStream& out, bool executable)
{
    if (path.isEmpty()) {
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
