#include "ConfigCommands.h"

#include "AtomicFile.h"
#include "CommandLineSupport.h"
#include "ExportWriter.h"
#include "Plan.h"
#include "TerminalText.h"
#include "config/ConfigDiff.h"
#include "config/ConfigExport.h"
#include "config/ConfigImporter.h"
#include "config/HfModelConfig.h"
#include "knowledge/DeepSpeedFacts.h"

namespace dsw {

namespace {

using oj = nlohmann::ordered_json;

QString safe(const std::string& text) { return terminalSafe(QString::fromStdString(text)); }
QString safe(const QString& text) { return terminalSafe(text); }

ParsedConfig readConfig(const QString& path)
{
    auto parsed = parseConfigText(readInputFile(path, kMaxConfigBytes));
    if (!parsed)
        throw BadInput{path + ": " + QString::fromStdString(parsed.error())};
    return std::move(parsed).value();
}

// A DeepSpeed config becomes a project around it; a Hugging Face config.json fills the model answers of a new
// project instead of being linted; anything else is refused, naming the file.
ImportedProject importFile(const QString& path, const ParsedConfig& config)
{
    switch (classifyConfigFile(config.json)) {
    case ConfigFileKind::DeepSpeed: return importConfig(config);
    case ConfigFileKind::HuggingFaceModel: {
        auto model = readHfModelConfig(config.json);
        if (!model)
            throw BadInput{path + ": " + QString::fromStdString(model.error())};
        ImportedProject imported;
        for (const auto& [id, value] : model.value().answers)
            imported.project.answers.set(id, value);
        imported.notes.push_back("a Hugging Face model config.json (" + model.value().modelType
                                 + "): it filled the model answers; it is not a DeepSpeed config");
        for (const auto& note : model.value().notes)
            imported.notes.push_back(note);
        return imported;
    }
    case ConfigFileKind::Neither: break;
    }
    throw BadInput{path
                   + QStringLiteral(": neither a DeepSpeed config (no top-level key DeepSpeed reads) nor a "
                                    "Hugging Face model config.json (no \"model_type\" or \"architectures\")")};
}

} // namespace

int runImport(const QStringList& args, QTextStream& out)
{
    QCommandLineParser p;
    p.addOption({{"o", "output"}, "The project file to write.", "PROJECT.dswiz"});
    parseOrThrow(p, args, QStringLiteral("CONFIG"));
    if (!p.isSet("output"))
        throw BadInput{QStringLiteral("-o PROJECT.dswiz is required")};
    const QString input = p.positionalArguments().at(0);
    checkOutputPath(p.value("output"), {input});
    const ImportedProject imported = importFile(input, readConfig(input));
    const auto project = serializeProjectForFile(imported.project); // what import writes, open reads
    if (!project)
        throw BadInput{p.positionalArguments().at(0) + ": " + QString::fromStdString(project.error())};
    writeOutput(p.value("output"), project.value(), out);
    for (const auto& note : imported.notes)
        out << "note: " << safe(note) << "\n";
    if (imported.project.importedConfig.is_object())
        if (const auto need = suggestionInputsMissing(imported.project.answers); !need.empty()) {
            QStringList ids;
            for (const auto& id : need)
                ids << QString::fromStdString(id);
            out << "note: the wizard's suggestions for this config wait for the model and the cluster; give "
                << ids.join(", ") << " (recommend --project ... --set id=value, or Setup in the window)\n";
        }
    out << "wrote " << safe(p.value("output")) << "\n";
    return 0;
}

int runExport(const QStringList& args, QTextStream& out)
{
    QCommandLineParser p;
    addProjectOptions(p);
    p.addOptions({{"to", "deepspeed-json, hf-json, accelerate-yaml, launch or bundle.", "TARGET"},
                  {{"o", "output"}, "The file to write (the folder, for bundle).", "PATH"},
                  {"force", "Overwrite an existing hostfile that -o does not name."}});
    parseOrThrow(p, args);
    if (!p.isSet("to"))
        throw BadInput{
            QStringLiteral("--to is required (one of: deepspeed-json, hf-json, accelerate-yaml, launch, bundle)")};
    const auto target = exportTargetFromName(p.value("to").toStdString());
    if (!target)
        throw BadInput{
            QStringLiteral(
                "--to: '%1' is not allowed; one of: deepspeed-json, hf-json, accelerate-yaml, launch, bundle")
                .arg(p.value("to"))};
    if (!p.isSet("output"))
        throw BadInput{QStringLiteral("-o PATH is required")};
    const QString path = p.value("output");
    const bool bundle = *target == ExportTarget::Bundle;
    const QStringList inputs = p.isSet("project") ? QStringList{p.value("project")} : QStringList{};
    checkOutputPath(path, inputs, bundle);
    const Project project = projectFromOptions(p);
    if (const std::string refusal = exportRefusal(project.answers, *target); !refusal.empty())
        throw BadInput{QString::fromStdString(refusal)};
    const Plan plan = makePlan(project);
    const ExportPlacement placement =
        placeExport(exportFiles(plan.config, project.answers, *target, exportOptionsFor(plan, project)), path, bundle);
    for (const auto& f : placement.files) // the files beside -o (the hostfile, a bundle's files)
        for (const QString& input : inputs)
            if (isSameFile(f.path, input))
                throw BadInput{
                    QStringLiteral("%1 would be written over the input file %2; write elsewhere").arg(f.path, input)};
    if (const QStringList unnamed = unnamedFilesToOverwrite(placement); !unnamed.isEmpty() && !p.isSet("force"))
        throw BadInput{
            QStringLiteral("%1 exists and -o does not name it; --force overwrites it").arg(unnamed.join(", "))};
    if (const QString error = writeExport(placement); !error.isEmpty())
        throw BadInput{error};
    if (bundle)
        out << "wrote " << placement.files.size() << " file(s) to " << safe(path) << "\n";
    else // as import and a bundle: say what was written (launch also writes the hostfile beside it)
        for (const auto& f : placement.files)
            out << "wrote " << safe(f.path) << "\n";
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
            list.push_back(oj{{"pointer", d.pointer},
                              {"a", d.a},
                              {"b", d.b},
                              {"a_absent", d.aAbsent},
                              {"b_absent", d.bAbsent},
                              {"meaning", d.meaning}});
        out << QString::fromStdString(
            jsonTerminalSafe(oj{{"a", pathA.toStdString()}, {"b", pathB.toStdString()}, {"differences", list}}.dump(2)))
            << "\n";
    } else {
        auto shown = [](const oj& v, bool absent) {
            const QString text = v.is_null() && absent ? QStringLiteral("(absent, no default)") : safe(v.dump());
            return absent && !v.is_null() ? text + QStringLiteral(" (absent: default)") : text;
        };
        for (const auto& d : differences)
            out << safe(d.pointer) << ": " << shown(d.a, d.aAbsent) << " → " << shown(d.b, d.bAbsent) << "\n    "
                << safe(d.meaning) << "\n";
        out << differences.size() << " difference(s) once DeepSpeed " << QString::fromStdString(knowledgeVersion())
            << "'s defaults are applied.\n";
    }
    return differences.empty() ? 0 : 1;
}

} // namespace dsw
