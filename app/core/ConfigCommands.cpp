#include "ConfigCommands.h"

#include "AtomicFile.h"
#include "ConfigDiff.h"
#include "CommandLineSupport.h"
#include "ConfigExport.h"
#include "ConfigImporter.h"
#include "ConfigLinter.h"
#include "Plan.h"
#include "Version.h"

#include <QDir>
#include <QFileInfo>

namespace dsw {

namespace {

using oj = nlohmann::ordered_json;

ParsedConfig readConfig(const QString& path)
{
    auto parsed = parseConfigText(readInputFile(path, kMaxConfigBytes));
    if (!parsed)
        throw BadInput{path + ": " + QString::fromStdString(parsed.error())};
    return std::move(parsed).value();
}

} // namespace

int runLint(const QStringList& args, QTextStream& out)
{
    QCommandLineParser p;
    p.addOptions({{"set", "Context a config alone lacks: id=value.", "id=value"},
                  {"format", "text or json.", "FORMAT", "text"}});
    parseOrThrow(p, args, QStringLiteral("CONFIG"));
    const QString format = p.value("format");
    if (format != "text" && format != "json")
        throw BadInput{QStringLiteral("--format: '%1' is not allowed; one of: text, json").arg(format)};
    Answers context;
    applySets(p.values("set"), context);
    const QString path = p.positionalArguments().at(0);
    const ParsedConfig config = readConfig(path);
    const auto findings = lintConfig(config, context);

    bool problems = false;
    oj list = oj::array();
    for (const auto& f : findings) {
        problems = problems || f.level != LintLevel::Info;
        list.push_back(toJson(f));
    }
    if (format == "json") {
        out << QString::fromStdString(oj{{"file", path.toStdString()}, {"findings", list}}.dump(2)) << "\n";
    } else {
        for (const auto& f : findings) {
            out << path << ":" << f.line << ": " << QString::fromStdString(mark(f.level) + " " + toString(f.level)) << " [" << QString::fromStdString(f.code) << "] "
                << QString::fromStdString(f.path.empty() ? std::string("/") : f.path) << ": " << QString::fromStdString(f.message) << "\n";
            if (f.suggestion)
                out << "    suggestion: " << QString::fromStdString(*f.suggestion) << "\n";
        }
        out << findings.size() << " finding(s). " << "Based on DeepSpeed " << QString::fromStdString(knowledgeVersion()) << "'s code and documentation; nothing was run." << "\n";
    }
    return problems ? 1 : 0;
}

int runImport(const QStringList& args, QTextStream& out)
{
    QCommandLineParser p;
    p.addOption({{"o", "output"}, "The project file to write.", "PROJECT.dswiz"});
    parseOrThrow(p, args, QStringLiteral("CONFIG"));
    if (!p.isSet("output"))
        throw BadInput{QStringLiteral("-o PROJECT.dswiz is required")};
    const ImportedProject imported = importConfig(readConfig(p.positionalArguments().at(0)));
    writeOutput(p.value("output"), serializeProject(imported.project), out);
    for (const auto& note : imported.notes)
        out << "note: " << QString::fromStdString(note) << "\n";
    out << "wrote " << p.value("output") << "\n";
    return 0;
}

int runExport(const QStringList& args, QTextStream& out)
{
    QCommandLineParser p;
    addProjectOptions(p);
    p.addOptions({{"to", "deepspeed-json, hf-json, accelerate-yaml, launch or bundle.", "TARGET"},
                  {{"o", "output"}, "The file to write (the folder, for bundle).", "PATH"}});
    parseOrThrow(p, args);
    const auto target = exportTargetFromName(p.value("to").toStdString());
    if (!target)
        throw BadInput{QStringLiteral("--to: '%1' is not allowed; one of: deepspeed-json, hf-json, accelerate-yaml, launch, bundle")
                           .arg(p.value("to"))};
    if (!p.isSet("output"))
        throw BadInput{QStringLiteral("-o PATH is required")};
    const Project project = projectFromOptions(p);
    const auto files = exportFiles(makePlan(project).config, project.answers, *target);
    const QString path = p.value("output");
    if (*target != ExportTarget::Bundle) {
        writeOutput(path, files.front().content, out, files.front().executable);
        for (size_t i = 1; i < files.size(); ++i) // e.g. the hostfile beside launch.sh
            writeOutput(QFileInfo(path).dir().filePath(QString::fromStdString(files[i].name)), files[i].content, out,
                        files[i].executable);
        return 0;
    }
    // A bundle is a folder: check it can hold every file before writing any.
    QFileInfo info(path);
    if (info.exists() && !info.isDir())
        throw BadInput{QStringLiteral("%1: exists and is not a folder").arg(path)};
    if (!QDir().mkpath(path))
        throw BadInput{QStringLiteral("%1: cannot create the folder").arg(path)};
    for (const auto& f : files)
        writeOutput(QDir(path).filePath(QString::fromStdString(f.name)), f.content, out, f.executable);
    out << "wrote " << files.size() << " file(s) to " << path << "\n";
    return 0;
}

int runDiff(const QStringList& args, QTextStream& out)
{
    QCommandLineParser p;
    p.addOption({"format", "text or json.", "FORMAT", "text"});
    parseOrThrow(p, args, QStringLiteral("A.json B.json"));
    const QString format = p.value("format");
    if (format != "text" && format != "json")
        throw BadInput{QStringLiteral("--format: '%1' is not allowed; one of: text, json").arg(format)};
    const QString pathA = p.positionalArguments().at(0), pathB = p.positionalArguments().at(1);
    const ParsedConfig a = readConfig(pathA); // A first, so an error names the first bad file
    const ParsedConfig b = readConfig(pathB);
    const auto differences = diffConfigs(a.json, b.json);
    if (format == "json") {
        oj list = oj::array();
        for (const auto& d : differences)
            list.push_back(oj{{"pointer", d.pointer}, {"a", d.a}, {"b", d.b}, {"a_absent", d.aAbsent},
                              {"b_absent", d.bAbsent}, {"meaning", d.meaning}});
        out << QString::fromStdString(oj{{"a", pathA.toStdString()}, {"b", pathB.toStdString()}, {"differences", list}}.dump(2))
            << "\n";
    } else {
        auto shown = [](const oj& v, bool absent) {
            const QString text = v.is_null() && absent ? QStringLiteral("(absent, no default)") : QString::fromStdString(v.dump());
            return absent && !v.is_null() ? text + QStringLiteral(" (absent: default)") : text;
        };
        for (const auto& d : differences)
            out << QString::fromStdString(d.pointer) << ": " << shown(d.a, d.aAbsent) << " → " << shown(d.b, d.bAbsent)
                << "\n    " << QString::fromStdString(d.meaning) << "\n";
        out << differences.size() << " difference(s) once DeepSpeed " << QString::fromStdString(knowledgeVersion())
            << "'s defaults are applied.\n";
    }
    return differences.empty() ? 0 : 1;
}

} // namespace dsw
