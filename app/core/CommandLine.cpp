#include "CommandLine.h"

#include "CommandLineSupport.h"
#include "ConfigCommands.h"
#include "LintCommand.h"
#include "Plan.h"
#include "PlanText.h"
#include "TerminalText.h"
#include "advise/Job.h"
#include "advise/ZeroDecision.h"
#include "estimate/DeepSpeedEstimator.h"
#include "estimate/ZeroPaperMemory.h"
#include "project/InputRegistry.h"
#include "project/ModelChecks.h"
#include "project/ProjectFile.h"
#include "util/Count.h"

#include <QCommandLineParser>
#include <QFile>
#include <QFileInfo>
#include <cmath>

namespace dsw {

namespace {

using oj = nlohmann::ordered_json;

const QString kUsage = QStringLiteral(
    "Usage: ds-wizard [FILE.dswiz]                     open the window\n"
    "       ds-wizard recommend [--project F] [--set id=value]... [--workflow W] [--format json|config|text] [-o OUT]\n"
    "       ds-wizard estimate --params N --gpus-per-node G --nodes K [--largest-layer N] [--buffer-factor F] "
    "[--set id=value]... [--json]\n"
    "       ds-wizard keys [--json]                       every input id with type, range, default and help\n"
    "       ds-wizard lint CONFIG|DIR... [--set id=value]... [--format text|json]   exit 0 clean, 1 findings, 2 "
    "unreadable (the worst of them)\n"
    "       ds-wizard import CONFIG -o PROJECT.dswiz\n"
    "       ds-wizard export [--project F] [--set id=value]... --to "
    "deepspeed-json|hf-json|accelerate-yaml|launch|bundle -o PATH [--force]\n"
    "       ds-wizard diff A.json B.json [--format text|json]   what differs once DeepSpeed's defaults apply (exit 1)\n"
    "       ds-wizard --version | --help\n"
    "Output: -o is written only when every byte is on disk (temporary file, fsync, rename); on failure the old\n"
    "file is unchanged. -o must be a regular file or a new name (a bundle's -o: a folder), never a device, FIFO,\n"
    "socket or an input of the command (no command writes its input's format, so there is no --in-place).\n"
    "export --to launch|bundle writes all its files or none; an existing hostfile that -o does not name is\n"
    "overwritten only with --force.\n");

// Largest module when the user did not say: the token embedding of a model whose depth is hidden/128
// (as in LLaMA-7B and GPT-3 175B), so Ψ ≈ 12·L·h² = 12·h³/128, with a 32000-token vocabulary.
std::int64_t assumedLargestLayer(std::int64_t params)
{
    const double hidden = std::cbrt(static_cast<double>(params) * 128.0 / 12.0);
    return static_cast<std::int64_t>(32000.0 * std::round(hidden));
}

// A count option read as the registry's input `id` reads it: the same range and wording as --set id=value.
std::int64_t registryCountOption(const QCommandLineParser& p, const QString& name, const std::string& id)
{
    if (!p.isSet(name))
        throw BadInput{QStringLiteral("--%1 is required").arg(name)};
    const auto parsed = InputRegistry::instance().parse(id, p.value(name).toStdString());
    if (!parsed) {
        const QString error = QString::fromStdString(parsed.error()); // "model.params: ..."
        const QString prefix = QString::fromStdString(id);
        throw BadInput{"--" + name + error.mid(error.startsWith(prefix) ? prefix.size() : 0)};
    }
    return parsed.value().get<std::int64_t>();
}

QString registryAllowed(const std::string& id)
{
    return QString::fromStdString(InputRegistry::allowed(*InputRegistry::instance().find(id)));
}

int runEstimate(const QStringList& args, QTextStream& out)
{
    QCommandLineParser p;
    p.addOptions({{"params", "Total parameters: " + registryAllowed("model.params") + ".", "N"},
                  {"gpus-per-node", "GPUs per node: " + registryAllowed("hardware.gpus_per_node") + ".", "G"},
                  {"nodes", "Nodes: 1 to 100000.", "K"},
                  {"largest-layer", "Largest module's parameters: 1 to --params (default: an assumed embedding).", "N"},
                  {"buffer-factor", "DeepSpeed's additional_buffer_factor: a number from 1 to 10 (1.5).", "F"},
                  {"set", "Any model, hardware or training input for the step model: id=value.", "id=value"},
                  {"json", "JSON output."}});
    parseOrThrow(p, args);
    // The registry's model.params and hardware.gpus_per_node: the same ranges and wording as --set.
    const auto params = registryCountOption(p, "params", "model.params");
    const int gpus = static_cast<int>(registryCountOption(p, "gpus-per-node", "hardware.gpus_per_node"));
    const int nodes = static_cast<int>(countOption(p, "nodes", true, 1, 100000));
    std::int64_t largest = countOption(p, "largest-layer", false, 1, params);
    double factor = 1.5;
    if (p.isSet("buffer-factor")) {
        bool ok = false;
        factor = p.value("buffer-factor").toDouble(&ok);
        if (!ok || !std::isfinite(factor) || factor < 1 || factor > 10) // toDouble accepts "nan" and "inf"
            throw BadInput{QStringLiteral("--buffer-factor: '%1' is not allowed; a number from 1 to 10")
                               .arg(p.value("buffer-factor"))};
    }
    oj result;
    if (!largest) {
        largest = assumedLargestLayer(params);
        result["assumed"] = {{"largest_layer_params", largest},
                             {"how",
                              "not given (--largest-layer): assumed the token embedding of a 32000-token vocabulary "
                              "with hidden size (Ψ·128/12)^(1/3), i.e. depth = hidden/128 as in LLaMA-7B"}};
    }
    oj rows = oj::array();
    for (const auto& r : deepSpeedEstimatorRows(params, largest, gpus, nodes, factor))
        rows.push_back(oj{{"stage", r.stage},
                          {"offload_optimizer", r.offloadOptimizer},
                          {"offload_param", r.offloadParam},
                          {"zero_init", r.zeroInit ? oj(*r.zeroInit) : oj(nullptr)},
                          {"gpu_bytes", r.gpuBytes},
                          {"cpu_bytes", r.cpuBytes}});
    oj states = oj::array();
    for (int stage = 0; stage <= 3; ++stage) {
        const auto s = zeroPaperModelStates(params, stage, gpus * nodes);
        states.push_back(oj{{"stage", stage},
                            {"params_bytes", s.params},
                            {"grads_bytes", s.grads},
                            {"optimizer_bytes", s.optimizer},
                            {"total_bytes", s.total}});
    }
    result["deepspeed_estimator"] = rows;
    result["model_states"] = states;
    // The step model (estimate/StepModel.h) over every candidate, fastest fitting first, for the same job.
    Answers answers;
    answers.set("model.params", params);
    answers.set("hardware.gpus_per_node", gpus);
    answers.set("hardware.nodes", nodes);
    if (p.isSet("largest-layer"))
        answers.set("model.largest_layer_params", largest);
    applySets(p.values("set"), answers);
    if (const auto error = modelShapeError(answers))
        throw BadInput{QString::fromStdString(*error)};
    // Not even DeepSpeed's rows: for a mixture of experts they would be read as this job's, and the step model's are
    // a dense model's.
    if (const std::int64_t experts = answers.integer("model.experts"); experts > 1)
        throw BadInput{QString::fromStdString(
            "model.experts " + std::to_string(experts)
            + " (estimate sizes dense models, model.experts 1: DeepSpeed's estimator and the ZeRO paper count --params "
              "as one dense model, and --params is not the experts' count); recommend sizes a mixture of experts from "
              "its shape: ds-wizard recommend --set model.preset=mixtral-8x7b-v0.1, or ds-wizard import config.json -o "
              "job.dswiz and then ds-wizard recommend --project job.dswiz")};
    // DeepSpeed's estimator and the ZeRO paper count every parameter as trained: for adapters they would be read as
    // this job's figures, many times too large. recommend sizes the frozen base and the adapters apart.
    if (const std::string method = answers.text("training.method"); method != "full")
        throw BadInput{QString::fromStdString(
            "training.method " + method
            + " (estimate sizes full fine-tunes, training.method full: DeepSpeed's estimator and the ZeRO paper count "
              "every parameter as trained); recommend sizes LoRA and QLoRA: ds-wizard recommend --set "
              "training.method="
            + method + " ...")};
    if (!p.isSet("json")) { // the text prints neither the step model nor the conventions: they are not computed
        out << QStringLiteral("Model with %1 parameters on %2 node(s) × %3 GPU(s); largest layer %4%5\n")
                   .arg(QString::fromStdString(formatCount(params)))
                   .arg(nodes)
                   .arg(gpus)
                   .arg(QString::fromStdString(formatCount(largest)), result.contains("assumed") ? " (assumed)" : "");
        out << "DeepSpeed estimator (per GPU | per node CPU):\n";
        for (const auto& r : rows)
            out << QStringLiteral("  stage %1  offload_optimizer=%2 offload_param=%3 zero_init=%4  %5 | %6\n")
                       .arg(r["stage"].get<int>())
                       .arg(QString::fromStdString(r["offload_optimizer"].get<std::string>()), -4)
                       .arg(QString::fromStdString(r["offload_param"].get<std::string>()), -4)
                       .arg(r["zero_init"].is_null() ? "-" : (r["zero_init"].get<bool>() ? "1" : "0"))
                       .arg(QString::fromStdString(formatGiB(r["gpu_bytes"].get<double>())), 12)
                       .arg(QString::fromStdString(formatGiB(r["cpu_bytes"].get<double>())), 12);
        out << "ZeRO paper model states per GPU (K = 12):\n";
        for (const auto& s : states)
            out << QStringLiteral("  stage %1  %2\n")
                       .arg(s["stage"].get<int>())
                       .arg(QString::fromStdString(formatGiB(s["total_bytes"].get<double>())));
        if (result.contains("assumed"))
            out << "Assumed: largest layer " << QString::fromStdString(result["assumed"]["how"].get<std::string>())
                << "\n";
        return 0;
    }
    const Job job = resolveJob(answers);
    const ZeroDecision decision = decideZero(job, answers);
    oj candidates = oj::array();
    for (const StepPrediction& c : decision.candidates)
        candidates.push_back(candidateJson(c));
    result["step_model"] = {{"activations", activationsJson(*job.step, answers.integer("training.micro_batch_size"))},
                            {"candidates", std::move(candidates)},
                            {"chosen", decision.chosen}};
    result["conventions"] = {
        {"deepspeed_estimator",
         "DeepSpeed 0.19.5 estimate_zero2/3_model_states_mem_needs, reproduced exactly: gpu per GPU, "
         "cpu per node, 18 bytes/parameter with fp16 params, additional_buffer_factor applied to cpu"},
        {"model_states",
         "ZeRO paper (arXiv:1910.02054), mixed-precision Adam K = 12: 16 bytes/parameter at stage 0, per GPU"}};
    out << QString::fromStdString(result.dump(2)) << "\n";
    return 0;
}

int runRecommend(const QStringList& args, QTextStream& out)
{
    QCommandLineParser p;
    addProjectOptions(p);
    p.addOptions({{"workflow",
                   "Limit the output to one workflow: zero, precision, pipeline, memory, nvme, onebit or sparse.", "W"},
                  {"format", "json (default), config (the ds_config alone) or text.", "FORMAT", "json"},
                  {{"o", "output"}, "Write to this file instead of standard output.", "OUT"}});
    parseOrThrow(p, args);
    if (p.isSet("output"))
        checkOutputPath(p.value("output"), p.isSet("project") ? QStringList{p.value("project")} : QStringList{});
    const Project project = projectFromOptions(p);
    const std::string format = p.value("format").toStdString();
    if (format != "json" && format != "config" && format != "text")
        throw BadInput{
            QStringLiteral("--format: '%1' is not allowed; one of: json, config, text").arg(p.value("format"))};
    const std::string workflow = p.value("workflow").toStdString();
    if (!workflow.empty() && std::find(workflowIds().begin(), workflowIds().end(), workflow) == workflowIds().end()) {
        QString known;
        for (const auto& id : workflowIds())
            known += (known.isEmpty() ? "" : ", ") + QString::fromStdString(id);
        throw BadInput{QStringLiteral("--workflow: '%1' is not allowed; one of: %2").arg(p.value("workflow"), known)};
    }
    const Plan plan = makePlan(project);
    // Answers and imported configs are user data: no control character reaches a terminal, or the file.
    std::string text = format == "config" ? jsonTerminalSafe(plan.config.dump(2)) + "\n"
        : format == "text" ? terminalSafeLines(QString::fromStdString(planText(plan, workflow))).toStdString()
                           : jsonTerminalSafe(toJson(plan, workflow).dump(2)) + "\n";
    writeOutput(p.value("output"), text, out);
    return 0;
}

int runKeys(const QStringList& args, QTextStream& out)
{
    QCommandLineParser p;
    p.addOption({"json", "JSON output."});
    parseOrThrow(p, args);
    static const char* types[] = {"count", "integer", "number", "choice", "gpu", "text", "boolean"};
    if (p.isSet("json")) {
        oj all = oj::array();
        for (const auto& s : InputRegistry::instance().all())
            all.push_back(oj{{"id", s.id},
                             {"type", types[static_cast<int>(s.type)]},
                             {"unit", s.unit},
                             {"allowed", InputRegistry::allowed(s)},
                             {"default", s.derivedDefault.empty() ? oj(s.defaultValue) : oj(s.derivedDefault)},
                             {"page", s.page},
                             {"workflows", s.workflows},
                             {"help", s.help}});
        out << QString::fromStdString(all.dump(2)) << "\n";
        return 0;
    }
    // The text is written straight from the registry: no JSON row per input only to read it back.
    std::string text;
    for (const auto& s : InputRegistry::instance().all()) {
        text += s.id + "  (" + types[static_cast<int>(s.type)] + (s.unit.empty() ? "" : ", " + s.unit) + ")\n";
        text += "    " + s.help + "\n";
        text += "    allowed: " + InputRegistry::allowed(s) + "\n";
        const std::string shown = !s.derivedDefault.empty() ? s.derivedDefault
            : s.defaultValue.is_string()                    ? s.defaultValue.get<std::string>()
                                                            : s.defaultValue.dump();
        text += "    default: " + shown + "\n";
    }
    out << QString::fromStdString(text);
    return 0;
}

} // namespace

bool isCommandLineInvocation(const QStringList& arguments)
{
    // The window opens with no argument or with one project file; anything else is a command
    // (an unknown one is answered with exit status 2, not a window).
    if (arguments.size() < 2)
        return false;
    const QString first = arguments.at(1);
    const bool projectFile = arguments.size() == 2 && !first.startsWith('-')
        && (first.endsWith(QStringLiteral(".dswiz")) || QFileInfo(first).isFile());
    return !projectFile;
}

namespace {

const QString kCommands = QStringLiteral("recommend, estimate, keys, lint, import, export, diff");

// The command's line of kUsage ("ds-wizard lint CONFIG|DIR... [...]"): one text for both helps.
QString commandUsage(const QString& command)
{
    const QString start = "ds-wizard " + command + " ";
    const qsizetype at = kUsage.indexOf(start);
    if (at < 0)
        return "ds-wizard " + command;
    return kUsage.mid(at, kUsage.indexOf('\n', at) - at);
}

} // namespace

namespace {

int runCommand(const QStringList& arguments, QTextStream& out, QTextStream& err)
{
    const QString command = arguments.value(1);
    QStringList rest = arguments.mid(1); // QCommandLineParser skips the first entry: the command
    try {
        const bool version = command == "--version" || command == "-v";
        if ((version || command == "--help" || command == "-h") && arguments.size() > 2)
            throw BadInput{QStringLiteral("unexpected argument '%1'; %2 takes none")
                               .arg(QStringList(arguments.mid(2)).join("' '"), command)};
        if (version) {
            out << "ds-wizard " << DSW_VERSION << "\n";
            return 0;
        }
        if (command == "--help" || command == "-h") {
            out << kUsage;
            return 0;
        }
        if (command == "estimate")
            return runEstimate(rest, out);
        if (command == "recommend")
            return runRecommend(rest, out);
        if (command == "keys")
            return runKeys(rest, out);
        if (command == "lint")
            return runLint(rest, out, err);
        if (command == "import")
            return runImport(rest, out);
        if (command == "export")
            return runExport(rest, out);
        if (command == "diff")
            return runDiff(rest, out);

        throw BadInput{
            QStringLiteral("unknown command '%1'; the commands: %2 (ds-wizard --help)").arg(command, kCommands)};
    } catch (const HelpRequested& help) {
        out << "Usage: " << commandUsage(command) << "\n\n" << help.options;
        return 0;
    } catch (const BadInput& bad) {
        err << "ds-wizard " << terminalSafe(command) << ": " << terminalSafe(bad.message)
            << "\n"; // one line, no control characters
        return 2;
    }
}

} // namespace

int runCommandLine(const QStringList& arguments, QTextStream& out, QTextStream& err)
{
    const int code = runCommand(arguments, out, err);
    // What went to standard output must have arrived: a full disk or /dev/full is an error, not a silent exit 0.
    out.flush();
    if (code == 2 || out.status() != QTextStream::WriteFailed) // 2: the failure is already said
        return code;
    const QString reason = out.device() ? out.device()->errorString() : QStringLiteral("the stream failed");
    err << "ds-wizard " << terminalSafe(arguments.value(1))
        << ": cannot write to standard output: " << terminalSafe(reason) << "\n";
    return 2;
}

} // namespace dsw
