// The readers' contracts (issue 23, part 6): what each reader of an exported bundle fills from "auto", what it
// checks and refuses, written as code here because CI has no Transformers, Accelerate or DeepSpeed to run. Then:
// every export of the wizard's answers (the answer grid, each launcher) is accepted by its reader, or refused by
// the export itself; every real config of the corpus is exported in a form its reader accepts, or its lint says why.
//
// Versions read (the lines cited below are of these):
//  - Transformers src/transformers/integrations/deepspeed.py @3a80c166 (5.x; the filling is the same @02348331, 4.x):
//    HfTrainerDeepSpeedConfig.fill_match (replace "auto", else record a mismatch), trainer_config_process (the
//    TrainingArguments keys), trainer_config_finalize (hidden-size keys, total_num_steps, warmup_num_steps, then
//    "Please correct the following DeepSpeed config values that mismatch TrainingArguments values").
//    training_args.py TrainingArguments.__post_init__: HfTrainerDeepSpeedConfig(...).trainer_config_process(self),
//    then accelerate's DeepSpeedPlugin(hf_ds_config=...). Defaults: per_device_train_batch_size 8, learning_rate 5e-5,
//    adam_beta1/2 0.9/0.999, adam_epsilon 1e-8, weight_decay 0, max_grad_norm 1.0, fp16/bf16 false, warmup_steps 0.
//  - Accelerate @16cb6eb8 (1.15.0.dev0): utils/dataclasses.py DeepSpeedPlugin.__post_init__ L1226-L1237 (plugin
//    defaults: accumulation and clipping "auto", zero_stage 2), L1274-L1277 (accumulation 1 when absent; "Please
//    specify the ZeRO optimization config"), L1279-L1296 (plugin fill, must_match=False), fill_match L1357-L1373
//    ("auto" without a kwarg raises "... not found in kwargs"), set_mixed_precision L1416-L1444 (fp16/bf16.enabled);
//    accelerator.py _prepare_deepspeed L2172-L2195 (micro-batch from the DataLoader), L2198-L2202 (accumulation from
//    the Accelerator, 1 by default), L2216-L2225 (clipping 1.0, gather false, micro, train_batch_size = micro x
//    accumulation x processes), L2294-L2320 (hidden-size keys), L2323-L2345 (DummyOptim lr/weight_decay,
//    DummyScheduler warmup_min_lr 0, warmup_max_lr, warmup_num_steps, total_num_steps), L2346
//    (deepspeed_config_process(must_match=False)); L4040-L4049 (ZeRO-3 get_state_dict without the gather raises).
//  - DeepSpeed 0.19.5 runtime/config.py (_batch_assertion: train_batch_size = micro x accumulation x data-parallel
//    size, the world divided by sequence_parallel_size), runtime/lr_schedules.py (warmup_num_steps a positive int from 0.19.3), launcher/runner.py (hostfile
//    "host slots=N"; --num_nodes takes the first N hosts, --num_gpus G of each).
#include "AnswerGrid.h"
#include "Plan.h"
#include "TestAnswers.h"
#include "config/ConfigExport.h"
#include "config/ConfigImporter.h"
#include "config/ConfigText.h"

#include <QDir>
#include <QFile>
#include <QTest>

#include <functional>
#include <map>
#include <set>

using namespace dsw;
using namespace dsw::test;
using oj = nlohmann::ordered_json;

namespace {

// One refusal (or loss) of a reader, tagged by the kind of rule, so that the corpus test can ask lint for it.
struct Refusal {
    std::string tag; // zero-missing | mismatch | auto-not-filled | auto | batch | warmup | not-saved
    std::string what;
};

struct Reading {
    std::vector<Refusal> refusals;
    oj config; // as DeepSpeed finally receives it
    bool refused(const std::string& tag) const
    {
        return std::any_of(refusals.begin(), refusals.end(), [&](const Refusal& r) { return r.tag == tag; });
    }
    std::string text() const
    {
        std::string out;
        for (const Refusal& r : refusals)
            out += "[" + r.tag + "] " + r.what + "; ";
        return out;
    }
};

bool isAuto(const oj& v) { return v.is_string() && v.get<std::string>() == "auto"; }

// Python's ==, as fill_match compares: numbers by value (1 == 1.0, True == 1), lists element by element.
bool pyEqual(const oj& a, const oj& b)
{
    if ((a.is_number() || a.is_boolean()) && (b.is_number() || b.is_boolean()))
        return (a.is_boolean() ? double(a.get<bool>()) : a.get<double>())
            == (b.is_boolean() ? double(b.get<bool>()) : b.get<double>());
    if (a.is_array() && b.is_array()) {
        if (a.size() != b.size())
            return false;
        for (std::size_t i = 0; i < a.size(); ++i)
            if (!pyEqual(a[i], b[i]))
                return false;
        return true;
    }
    return a == b;
}

// find_config_node + fill_match of both readers: "auto" takes `value`; otherwise a must-match value that differs is
// a mismatch. A missing parent or key is left alone (config.get(ds_key) is None).
void fillMatch(oj& config, const std::string& dotted, const oj& value, bool mustMatch, std::vector<std::string>& out)
{
    oj* node = &config;
    std::string key = dotted;
    for (std::size_t dot; (dot = key.find('.')) != std::string::npos; key = key.substr(dot + 1)) {
        const std::string part = key.substr(0, dot);
        if (!node->is_object() || !node->contains(part))
            return;
        node = &(*node)[part];
    }
    if (!node->is_object() || !node->contains(key))
        return;
    oj& v = (*node)[key];
    if (isAuto(v))
        v = value;
    else if (mustMatch && !v.is_null() && !pyEqual(v, value))
        out.push_back(dotted + "=" + v.dump() + " vs " + value.dump());
}

// accelerate's deepspeed_config_process(must_match=False, **kwargs): every "auto" left must be among the kwargs.
void fillFromKwargs(oj& node, const std::string& prefix, const std::map<std::string, oj>& kwargs, Reading& r)
{
    for (auto& [key, v] : node.items()) {
        if (v.is_object())
            fillFromKwargs(v, prefix + key + ".", kwargs, r);
        else if (isAuto(v)) {
            const auto it = kwargs.find(prefix + key);
            if (it == kwargs.end())
                r.refusals.push_back({"auto-not-filled", "`" + prefix + key + "` not found in kwargs"});
            else
                v = it->second;
        }
    }
}

std::optional<double> number(const oj& config, const std::string& pointer)
{
    const oj::json_pointer p(pointer);
    if (!config.contains(p) || !config.at(p).is_number())
        return std::nullopt;
    return config.at(p).get<double>();
}

// DeepSpeed's own start-up (0.19.5), once the launcher has filled what it fills.
// The data-parallel size of the batch identity: the processes divided by sequence_parallel_size (DeepSpeed's
// runtime/config.py#L708-L710 without an mpu; the Trainer's dp_world_size and Accelerate's with a ParallelismConfig).
std::int64_t batchWorld(const oj& config, std::int64_t processes)
{
    const auto sp = number(config, "/sequence_parallel_size");
    return sp && *sp > 1 ? static_cast<std::int64_t>(static_cast<double>(processes) / *sp) : processes;
}

void deepspeedStarts(const oj& config, std::int64_t processes, Reading& r)
{
    const std::int64_t dataParallel = batchWorld(config, processes);
    std::function<void(const oj&, const std::string&)> autos = [&](const oj& v, const std::string& at) {
        if (isAuto(v))
            r.refusals.push_back({"auto", at + " reaches DeepSpeed as \"auto\""});
        if (v.is_object())
            for (const auto& [k, child] : v.items())
                autos(child, at + "/" + k);
    };
    autos(config, "");
    const auto t = number(config, "/train_batch_size"), m = number(config, "/train_micro_batch_size_per_gpu"),
               g = number(config, "/gradient_accumulation_steps");
    if (t && m && g && *t != *m * *g * double(dataParallel))
        r.refusals.push_back(
            {"batch",
             "train_batch_size " + std::to_string(*t) + " != micro x accumulation x " + std::to_string(dataParallel)});
    const oj::json_pointer warmup("/scheduler/params/warmup_num_steps");
    if (config.contains(warmup) && !isAuto(config.at(warmup)) // an "auto" is reported above
        && (!config.at(warmup).is_number_integer() || config.at(warmup).get<std::int64_t>() < 1))
        r.refusals.push_back({"warmup", "warmup_num_steps " + config.at(warmup).dump() + " is not a positive int"});
}

bool zero3(const oj& c) { return c.contains("zero_optimization") && c["zero_optimization"].value("stage", oj()) == 3; }

// save_model() / get_state_dict() at ZeRO-3 need the gather (either spelling: DeepSpeed's pydantic alias).
void savesWeights(const oj& config, Reading& r)
{
    if (!zero3(config))
        return;
    const oj& z = config["zero_optimization"];
    if (z.value("stage3_gather_16bit_weights_on_model_save", false) != true
        && z.value("gather_16bit_weights_on_model_save", false) != true)
        r.refusals.push_back({"not-saved", "ZeRO-3 without stage3_gather_16bit_weights_on_model_save: no weights"});
}

// What launch.sh passes: the launcher command's words, shell-unquoted, and its "#   /pointer <- ... [value]" lines.
struct LaunchWords {
    std::vector<std::string> words;
    std::map<std::string, oj> scriptValues; // Accelerate: what the script is told to give (not "FILL IN")
    std::string flag(const std::string& name) const
    {
        for (std::size_t i = 0; i + 1 < words.size(); ++i)
            if (words[i] == name)
                return words[i + 1];
        return {};
    }
    bool has(const std::string& name) const { return std::find(words.begin(), words.end(), name) != words.end(); }
};

LaunchWords launchWords(const std::string& script)
{
    LaunchWords out;
    std::string command;
    bool in = false;
    for (std::size_t pos = 0; pos < script.size();) {
        const std::size_t end = std::min(script.find('\n', pos), script.size());
        std::string line = script.substr(pos, end - pos);
        pos = end + 1;
        if (line.rfind("#   /", 0) == 0 && line.find(" [") != std::string::npos) // a FILL IN: the user's value
            out.scriptValues[line.substr(4, line.find(' ', 4) - 4)] = line.find("FILL IN") != std::string::npos
                ? oj(1)
                : oj::parse(line.substr(line.rfind(" [") + 2, line.size() - line.rfind(" [") - 3));
        if (!in && line.rfind("deepspeed ", 0) != 0 && line.rfind("accelerate ", 0) != 0)
            continue;
        in = line.size() >= 2 && line.substr(line.size() - 2) == " \\";
        command += (in ? line.substr(0, line.size() - 2) : line) + " ";
        if (!in)
            break;
    }
    std::string word;
    bool inWord = false;
    char quote = 0;
    for (const char c : command) {
        if (quote) {
            if (c == quote)
                quote = 0;
            else
                word += c;
        } else if (c == '\'' || c == '"') {
            quote = c;
            inWord = true;
        } else if (c == ' ') {
            if (inWord)
                out.words.push_back(word);
            word.clear();
            inWord = false;
        } else {
            word += c;
            inWord = true;
        }
    }
    return out;
}

double flagOr(const LaunchWords& l, const std::string& name, double fallback)
{
    const std::string v = l.flag(name);
    return v.empty() ? fallback : std::stod(v);
}

// DeepSpeedPlugin(hf_ds_config=...) (dataclasses.py L1274-L1296): accumulation 1 when absent, then the plugin's kwargs
// (stage 2, offload "none", gather false) matched or filled; false when the file has no zero_optimization (refused).
bool pluginDefaults(oj& config, std::vector<std::string>& mismatches)
{
    if (!config.contains("gradient_accumulation_steps"))
        config["gradient_accumulation_steps"] = 1;
    if (!config.contains("zero_optimization"))
        return false;
    for (const auto& [key, value] :
         std::map<std::string, oj>{{"zero_optimization.stage", 2},
                                   {"zero_optimization.offload_optimizer.device", "none"},
                                   {"zero_optimization.offload_param.device", "none"},
                                   {"zero_optimization.stage3_gather_16bit_weights_on_model_save", false}})
        fillMatch(config, key, value, false, mismatches);
    return true;
}

// The Trainer under the deepspeed launcher: TrainingArguments from launch.sh's flags, world = nodes x GPUs.
Reading trainerReads(oj config, const LaunchWords& l, std::int64_t world)
{
    Reading r;
    std::vector<std::string> mismatches;
    const double micro = flagOr(l, "--per_device_train_batch_size", 8),
                 accumulation = flagOr(l, "--gradient_accumulation_steps", 1);
    const double lr = flagOr(l, "--learning_rate", 5e-5);
    auto m = [&](const std::string& key, const oj& value) { fillMatch(config, key, value, true, mismatches); };
    // trainer_config_process (deepspeed.py @3a80c166, after fill_only = partialmethod(...)).
    m("train_micro_batch_size_per_gpu", micro);
    m("gradient_accumulation_steps", accumulation);
    m("train_batch_size", double(batchWorld(config, world)) * micro * accumulation);
    m("gradient_clipping", flagOr(l, "--max_grad_norm", 1.0));
    m("optimizer.params.lr", lr);
    m("optimizer.params.betas", oj::array({flagOr(l, "--adam_beta1", 0.9), flagOr(l, "--adam_beta2", 0.999)}));
    m("optimizer.params.eps", flagOr(l, "--adam_epsilon", 1e-8));
    m("optimizer.params.weight_decay", flagOr(l, "--weight_decay", 0.0));
    fillMatch(config, "scheduler.params.warmup_min_lr", 0, false, mismatches);
    m("scheduler.params.warmup_max_lr", lr);
    m("fp16.enabled", l.has("--fp16"));
    m("bf16.enabled", l.has("--bf16"));
    // DeepSpeedPlugin(hf_ds_config=...) (dataclasses.py L1274-L1296): then the plugin's own defaults.
    if (!pluginDefaults(config, mismatches))
        return r.refusals.push_back({"zero-missing", "Please specify the ZeRO optimization config"}), r;
    // trainer_config_finalize: the model has a hidden_size (1024 here); the training steps are --max_steps, or a
    // number the dataset decides, which a concrete total_num_steps would have to equal by chance.
    const oj steps = l.has("--max_steps") ? oj(std::stoll(l.flag("--max_steps"))) : oj("steps from the dataset");
    for (const auto& [key, value] :
         std::map<std::string, oj>{{"zero_optimization.reduce_bucket_size", 1 << 20},
                                   {"zero_optimization.stage3_prefetch_bucket_size", 943718},
                                   {"zero_optimization.stage3_param_persistence_threshold", 10240}})
        fillMatch(config, key, value, false, mismatches);
    m("scheduler.params.total_num_steps", steps);
    m("scheduler.params.warmup_num_steps", std::int64_t(flagOr(l, "--warmup_steps", 0))); // get_warmup_steps
    for (const std::string& mismatch : mismatches)
        r.refusals.push_back({"mismatch", mismatch});
    // accelerator.prepare() -> _prepare_deepspeed (L2216-L2346), must_match=False: "auto" left needs a kwarg.
    fillFromKwargs(config, "",
                   {{"gradient_clipping", 1.0},
                    {"zero_optimization.stage3_gather_16bit_weights_on_model_save", false},
                    {"train_micro_batch_size_per_gpu", micro},
                    {"train_batch_size", micro * accumulation * double(batchWorld(config, world))}},
                   r);
    deepspeedStarts(config, world, r);
    savesWeights(config, r);
    r.config = config;
    return r;
}

// A plain Accelerate script under `accelerate launch`, giving what launch.sh lists; mixed_precision "no" (the YAML
// may not set it beside deepspeed_config_file).
Reading accelerateReads(oj config, const LaunchWords& l, std::int64_t processes)
{
    Reading r;
    std::vector<std::string> ignored;
    // What the script gives: what launch.sh lists (FILL IN: the user's value), else nothing (not a kwarg).
    const auto given = [&](const std::string& pointer) {
        const auto it = l.scriptValues.find(pointer);
        return it != l.scriptValues.end() ? it->second : oj();
    };
    if (!pluginDefaults(config, ignored))
        return r.refusals.push_back({"zero-missing", "Please specify the ZeRO optimization config"}), r;
    for (const char* block : {"fp16", "bf16"}) { // set_mixed_precision("no")
        if (!config.contains(block))
            config[block] = {{"enabled", false}};
        fillMatch(config, std::string(block) + ".enabled", false, false, ignored);
    }
    // _prepare_deepspeed: the DataLoader's batch size, the Accelerator's accumulation (1), then the kwargs.
    const oj written = config.value("train_micro_batch_size_per_gpu", oj());
    const oj micro = isAuto(written) ? given("/train_micro_batch_size_per_gpu") : written;
    fillMatch(config, "gradient_accumulation_steps", 1, false, ignored);
    std::map<std::string, oj> kwargs = {{"gradient_clipping", 1.0},
                                        {"zero_optimization.stage3_gather_16bit_weights_on_model_save", false},
                                        {"zero_optimization.reduce_bucket_size", 1 << 20},
                                        {"zero_optimization.stage3_prefetch_bucket_size", 943718},
                                        {"zero_optimization.stage3_param_persistence_threshold", 10240}};
    if (micro.is_number()) {
        kwargs["train_micro_batch_size_per_gpu"] = micro;
        kwargs["train_batch_size"] = micro.get<double>() * config["gradient_accumulation_steps"].get<double>()
            * double(batchWorld(config, processes));
    }
    if (config.contains("optimizer")) { // DummyOptim(lr=..., weight_decay=...)
        kwargs["optimizer.params.lr"] = given("/optimizer/params/lr");
        kwargs["optimizer.params.weight_decay"] = given("/optimizer/params/weight_decay");
    }
    if (config.contains("scheduler")) { // DummyScheduler(warmup_num_steps=0 by default, total_num_steps=...)
        kwargs["scheduler.params.warmup_min_lr"] = 0;
        const oj lr = given("/optimizer/params/lr"); // the optimizer's lr: DummyOptim's, or the script's own
        kwargs["scheduler.params.warmup_max_lr"] = lr.is_null() ? given("/scheduler/params/warmup_max_lr") : lr;
        kwargs["scheduler.params.warmup_num_steps"] = 0;
        kwargs["scheduler.params.total_num_steps"] = given("/scheduler/params/total_num_steps");
    }
    for (auto it = kwargs.begin(); it != kwargs.end();)
        it = it->second.is_null() ? kwargs.erase(it) : std::next(it); // not given: not a kwarg
    fillFromKwargs(config, "", kwargs, r);
    deepspeedStarts(config, processes, r);
    savesWeights(config, r);
    r.config = config;
    return r;
}

std::string fileIn(const std::vector<ExportFile>& files, const std::string& name)
{
    for (const ExportFile& f : files)
        if (f.name == name)
            return f.content;
    return {};
}

// The bundle's reader, run on the bundle: the world from launch.sh (and the hostfile: enough hosts and slots).
Reading readBundle(const std::vector<ExportFile>& files, const std::string& launcher, std::int64_t stages)
{
    const oj config = oj::parse(fileIn(files, kDeepSpeedConfigFileName));
    const LaunchWords l = launchWords(fileIn(files, kLaunchScriptFileName));
    if (launcher == "accelerate") {
        const std::string yaml = fileIn(files, kAccelerateConfigFileName);
        const std::size_t at = yaml.find("\nnum_processes: ");
        return accelerateReads(config, l, std::stoll(yaml.substr(at + 16)));
    }
    const std::int64_t nodes = l.has("--num_nodes") ? std::stoll(l.flag("--num_nodes")) : 1;
    const std::int64_t gpus = std::stoll(l.flag("--num_gpus"));
    Reading r;
    if (nodes > 1) { // runner.py: the first --num_nodes hosts of the hostfile, each with at least --num_gpus slots
        const std::string hostfile = fileIn(files, kHostfileName);
        std::int64_t hosts = 0;
        for (std::size_t at = 0; (at = hostfile.find("\nnode-", at)) != std::string::npos; ++at)
            hosts += std::stoll(hostfile.substr(hostfile.find(" slots=", at) + 7)) >= gpus;
        if (hosts < nodes)
            r.refusals.push_back({"hostfile", "fewer hosts with enough slots than --num_nodes"});
    }
    if (launcher == "hf-trainer")
        return trainerReads(config, l, nodes * gpus);
    deepspeedStarts(config, nodes * gpus / stages, r);
    r.config = config;
    return r;
}

QString corpusDir() { return QDir::cleanPath(QStringLiteral(DSW_SOURCE_DIR) + "/../shared/corpus/ds_configs"); }

// The lint codes that say, for a config as written, why a reader refuses its export (the corpus test's key).
const std::map<std::string, std::set<std::string>>& codesFor()
{
    static const std::map<std::string, std::set<std::string>> codes = {
        {"zero-missing", {"hf-zero-block-missing"}},
        {"auto-not-filled", {"auto-value"}},
        {"auto", {"auto-value", "auto-in-strict-block", "unknown-key-ignored"}},
        {"mismatch", {"unquoted-value", "wrong-type", "number-as-string", "invalid-value"}},
        {"batch",
         {"batch-identity", "batch-inferred", "batch-implied-world-size", "batch-size-missing",
          "sequence-parallel-not-divisor"}},
        {"warmup", {"warmup-steps-invalid", "hf-warmup-auto"}},
        {"not-saved", {"zero3-save-not-gathered"}},
    };
    return codes;
}

} // namespace

class TestReaderContracts : public QObject {
    Q_OBJECT

private slots:
    // The contracts themselves, on configs whose fate the sources above state.
    void contracts_data()
    {
        QTest::addColumn<QString>("launcher");
        QTest::addColumn<QString>("config");
        QTest::addColumn<QString>("launch");
        QTest::addColumn<QString>("refusal"); // the tag expected, or "" for accepted
        const QString trainer = "deepspeed --num_gpus 8 train.py --per_device_train_batch_size 4 --deepspeed ds.json";
        QTest::newRow("Trainer fills auto") << "hf-trainer"
                                            << R"({"train_batch_size": "auto", "train_micro_batch_size_per_gpu": "auto",
                                                  "zero_optimization": {"stage": 2}})"
                                            << trainer << "";
        QTest::newRow("Trainer: micro-batch differs") << "hf-trainer"
                                                      << R"({"train_micro_batch_size_per_gpu": 2,
                                                            "zero_optimization": {"stage": 2}})"
                                                      << trainer << "mismatch";
        QTest::newRow("Trainer: no zero_optimization")
            << "hf-trainer"
            << R"({"train_batch_size": "auto"})" << trainer << "zero-missing";
        QTest::newRow("Trainer: ZeRO-3 without the gather")
            << "hf-trainer"
            << R"({"zero_optimization": {"stage": 3}})" << trainer << "not-saved";
        QTest::newRow("Trainer: warmup 0") << "hf-trainer"
                                           << R"({"zero_optimization": {"stage": 1},
                                                 "scheduler": {"type": "WarmupLR", "params": {"warmup_num_steps": "auto"}}})"
                                           << trainer << "warmup";
        QTest::newRow("Accelerate: betas auto") << "accelerate"
                                                << R"({"zero_optimization": {"stage": 2},
                                                      "optimizer": {"type": "AdamW", "params": {"betas": "auto"}}})"
                                                << "accelerate launch train.py"
                                                << "auto-not-filled";
        QTest::newRow("Accelerate: micro-batch from the DataLoader")
            << "accelerate"
            << R"({"train_micro_batch_size_per_gpu": "auto", "zero_optimization": {"stage": 1}})"
            << "#   /train_micro_batch_size_per_gpu <- DataLoader [4]\naccelerate launch train.py"
            << "";
        QTest::newRow("DeepSpeed: auto is a value") << "deepspeed"
                                                    << R"({"train_batch_size": "auto"})"
                                                    << "deepspeed --num_gpus 8 train.py"
                                                    << "auto";
    }
    void contracts()
    {
        QFETCH(QString, launcher);
        QFETCH(QString, config);
        QFETCH(QString, launch);
        QFETCH(QString, refusal);
        const oj c = oj::parse(config.toStdString());
        const LaunchWords l = launchWords(launch.toStdString());
        const Reading r = launcher == "hf-trainer" ? trainerReads(c, l, 8)
            : launcher == "accelerate"             ? accelerateReads(c, l, 8)
                                                   : [&] {
                                             Reading d;
                                             deepspeedStarts(c, 8, d);
                                             return d;
                                         }();
        if (refusal.isEmpty())
            QVERIFY2(r.refusals.empty(), r.text().c_str());
        else
            QVERIFY2(r.refused(refusal.toStdString()), r.text().c_str());
    }

    // Every plan the wizard can choose, exported for every launcher: refused by the export (a pipeline for a Hugging
    // Face launcher, with the lint finding that says so), or read by its reader with the plan's global batch.
    void wizardExportsAreRead()
    {
        int read = 0, refused = 0;
        for (QStringList s : answerGrid()) {
            s.erase(
                std::remove_if(s.begin(), s.end(), [](const QString& a) { return a.startsWith("software.launcher="); }),
                s.end());
            for (const QString launcher : {"deepspeed", "hf-trainer", "accelerate"}) {
                Project project;
                project.answers = answersFrom(s + QStringList{"software.launcher=" + launcher});
                const Plan plan = makePlan(project);
                const std::string what = (s.join(' ') + " " + launcher).toStdString();
                const auto files =
                    exportFiles(plan.config, project.answers, ExportTarget::Bundle, exportOptionsFor(plan, project));
                const std::int64_t stages = project.answers.integer("pipeline.stages");
                if (!exportRefusal(project.answers, ExportTarget::Bundle).empty()) {
                    QVERIFY2(files.empty() && stages > 1 && launcher != "deepspeed", what.c_str());
                    QVERIFY2(
                        std::any_of(plan.lint.begin(), plan.lint.end(),
                                    [](const LintFinding& f) { return f.code == "pipeline-needs-deepspeed-launcher"; }),
                        what.c_str());
                    ++refused;
                    continue;
                }
                Reading r;
                try {
                    r = readBundle(files, launcher.toStdString(), stages);
                } catch (const std::exception& e) {
                    QFAIL((what + ": " + e.what() + "\n" + fileIn(files, kLaunchScriptFileName)).c_str());
                }
                QVERIFY2(r.refusals.empty(), (what + ": " + r.text()).c_str());
                if (launcher != "accelerate") // Accelerate's batch is the script's DataLoader: it is told the value
                    QVERIFY2(pyEqual(r.config["train_batch_size"], plan.config["train_batch_size"]), what.c_str());
                ++read;
            }
        }
        qInfo("%d bundles read by their reader, %d pipeline bundles refused for a Hugging Face launcher", read,
              refused);
        QVERIFY(read > 1000 && refused > 0);
    }

    // Every real config, imported and exported for each launcher: its reader accepts the bundle, or the config's lint
    // (with that launcher) has the finding that says why not.
    void corpusExportsAreReadOrLintSaysWhy()
    {
        std::map<std::string, int> accepted, explained;
        std::string unexplained; // refusals no lint finding says
        for (const QString& name : QDir(corpusDir()).entryList({"*.json"}, QDir::Files, QDir::Name)) {
            QFile f(corpusDir() + "/" + name);
            QVERIFY(f.open(QIODevice::ReadOnly));
            auto parsed = parseConfigText(f.readAll().toStdString());
            if (!parsed)
                continue; // unreadable: the import refuses it (TestLintCorpus)
            for (const std::string launcher : {"deepspeed", "hf-trainer", "accelerate"}) {
                Project project = importConfig(parsed.value()).project;
                project.answers.set("software.launcher", launcher);
                const Plan plan = makePlan(project);
                const auto files =
                    exportFiles(plan.config, project.answers, ExportTarget::Bundle, exportOptionsFor(plan, project));
                const Reading r = readBundle(files, launcher, 1);
                for (const Refusal& refusal : r.refusals) {
                    const auto& codes = codesFor().at(refusal.tag);
                    if (std::none_of(plan.lint.begin(), plan.lint.end(), [&](const LintFinding& l) {
                            return l.level != LintLevel::Info && codes.count(l.code);
                        }))
                        unexplained +=
                            name.toStdString() + " for " + launcher + ": [" + refusal.tag + "] " + refusal.what + "\n";
                }
                ++(r.refusals.empty() ? accepted : explained)[launcher];
            }
        }
        for (const auto& [launcher, n] : accepted)
            qInfo("%s: %d accepted, %d with a finding that says why not", launcher.c_str(), n, explained[launcher]);
        if (!unexplained.empty())
            qWarning("%s", unexplained.c_str()); // QVERIFY2 cuts its message short
        QVERIFY2(unexplained.empty(), "refusals without a finding (above)");
        QVERIFY(accepted["hf-trainer"] > 0 && accepted["accelerate"] > 0 && accepted["deepspeed"] > 0);
    }
};

QTEST_GUILESS_MAIN(TestReaderContracts)
#include "TestReaderContracts.moc"
