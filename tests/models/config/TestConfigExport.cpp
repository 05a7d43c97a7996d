// Export of a ds_config for the user's launcher (models/config/ConfigExport.h, HfAutoValues.h, LaunchScript.h, YamlWriter.h).
//
// Facts the expectations below come from (read in the sources, not in the program):
//  - Transformers' Trainer fills "auto" at: train_micro_batch_size_per_gpu, gradient_accumulation_steps,
//    train_batch_size, gradient_clipping, optimizer.params.{lr,betas,eps,weight_decay},
//    scheduler.params.{warmup_min_lr (with 0), warmup_max_lr, total_num_steps}; warmup_num_steps too, but with
//    --warmup_steps (0 by default), and DeepSpeed >= 0.19.3 refuses 0, so the export keeps a number there,
//    fp16.enabled, bf16.enabled, zero_optimization.reduce_bucket_size and, at stage 3,
//    stage3_prefetch_bucket_size / stage3_param_persistence_threshold
//    (transformers src/transformers/integrations/deepspeed.py, HfTrainerDeepSpeedConfig).
//  - Accelerate's prepare() fills: the micro-batch (DataLoader), train_batch_size, optimizer lr/weight_decay
//    (DummyOptim), the four scheduler params (DummyScheduler, warmup_min_lr with 0), the three hidden-size keys;
//    its "auto" gradient_clipping is a fixed 1.0, betas/eps are not filled at all, precision comes from the
//    script's mixed_precision (accelerate src/accelerate/accelerator.py, Accelerator._prepare_deepspeed).
//  - Accelerate refuses, next to a deepspeed_config_file, the YAML keys listed in kAccelerateRejects below
//    (accelerate src/accelerate/utils/dataclasses.py, DeepSpeedPlugin._deepspeed_config_checks).
//  - The DeepSpeed launcher: `deepspeed --hostfile=myhostfile <client_entry.py> <client args> --deepspeed
//    --deepspeed_config ds_config.json`, hostfile lines `worker-1 slots=4` (DeepSpeed docs, getting-started);
//    the Trainer takes `--deepspeed ds_config.json` (Transformers docs, deepspeed.md).
#include "TestAnswers.h"
#include "config/ConfigExport.h"
#include "config/HfAutoValues.h"
#include "config/LaunchScript.h"
#include "config/YamlWriter.h"
#include "project/Answers.h"
#include "project/InputRegistry.h"

#include <QDir>
#include <QFile>
#include <QProcess>
#include <QRegularExpression>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QTest>

#include <map>
#include <set>

using namespace dsw;
using namespace dsw::test;
using oj = nlohmann::ordered_json;

Q_DECLARE_METATYPE(std::string)

namespace {

Answers cluster(const QString& launcher, int nodes, int gpusPerNode)
{
    return answersFrom({"software.launcher=" + launcher, QStringLiteral("hardware.nodes=%1").arg(nodes),
                        QStringLiteral("hardware.gpus_per_node=%1").arg(gpusPerNode)});
}

// ZeRO-2, 1 node x 8 GPUs: 64 = 4 micro x 2 accumulation x 8 GPUs.
oj zero2Config()
{
    return oj::parse(R"({
      "train_batch_size": 64, "train_micro_batch_size_per_gpu": 4, "gradient_accumulation_steps": 2,
      "gradient_clipping": 1.0,
      "optimizer": {"type": "AdamW", "params": {"lr": 0.0001, "betas": [0.9, 0.95], "eps": 1e-8, "weight_decay": 0.1}},
      "scheduler": {"type": "WarmupDecayLR",
                    "params": {"warmup_min_lr": 0, "warmup_max_lr": 0.0001, "warmup_num_steps": 100, "total_num_steps": 1000}},
      "bf16": {"enabled": true},
      "zero_optimization": {"stage": 2, "overlap_comm": true, "reduce_bucket_size": 500000000,
                            "allgather_bucket_size": 500000000, "contiguous_gradients": true},
      "steps_per_print": 100})");
}

// ZeRO-3, 2 nodes x 8 GPUs: 256 = 2 micro x 8 accumulation x 16 GPUs; no total_num_steps (WarmupLR).
oj zero3Config()
{
    return oj::parse(R"({
      "train_batch_size": 256, "train_micro_batch_size_per_gpu": 2, "gradient_accumulation_steps": 8,
      "gradient_clipping": 0.5,
      "optimizer": {"type": "AdamW", "params": {"lr": 0.0003, "betas": [0.9, 0.999], "eps": 1e-8, "weight_decay": 0.0}},
      "scheduler": {"type": "WarmupLR", "params": {"warmup_min_lr": 0, "warmup_max_lr": 0.0003, "warmup_num_steps": 500}},
      "fp16": {"enabled": true, "loss_scale": 0, "initial_scale_power": 16},
      "zero_optimization": {"stage": 3, "overlap_comm": true, "reduce_bucket_size": 16777216,
                            "stage3_prefetch_bucket_size": 15099494, "stage3_param_persistence_threshold": 40960,
                            "stage3_max_live_parameters": 1000000000,
                            "stage3_gather_16bit_weights_on_model_save": true,
                            "offload_optimizer": {"device": "cpu", "pin_memory": true}}})");
}

oj configNamed(const QString& name) { return name == "zero3" ? zero3Config() : zero2Config(); }

void collectAuto(const oj& v, const std::string& at, std::set<std::string>& out)
{
    if (v.is_string() && v.get<std::string>() == "auto")
        out.insert(at);
    if (v.is_object())
        for (const auto& [k, child] : v.items())
            collectAuto(child, at + "/" + k, out);
    if (v.is_array())
        for (std::size_t i = 0; i < v.size(); ++i)
            collectAuto(v[i], at + "/" + std::to_string(i), out);
}
std::set<std::string> autoPointers(const oj& v)
{
    std::set<std::string> out;
    collectAuto(v, "", out);
    return out;
}

void collectKeys(const oj& v, std::set<std::string>& out)
{
    if (v.is_object())
        for (const auto& [k, child] : v.items()) {
            out.insert(k);
            collectKeys(child, out);
        }
}

std::string contentOf(const std::vector<ExportFile>& files, const std::string& name)
{
    for (const auto& f : files)
        if (f.name == name)
            return f.content;
    return {};
}

// A YAML reader for what YamlWriter writes: block mappings, 2-space indents, plain or double-quoted scalars,
// full-line and trailing comments. Keys are dotted paths ("deepspeed_config.zero3_init_flag").
struct YamlScalar {
    std::string text;
    bool quoted = false;
};
bool parseYaml(const std::string& text, std::map<std::string, YamlScalar>& out, QString& error)
{
    std::vector<std::string> parents;
    std::size_t pos = 0;
    int lineNo = 0;
    while (pos < text.size()) {
        const std::size_t end = text.find('\n', pos);
        const std::string line = text.substr(pos, end == std::string::npos ? std::string::npos : end - pos);
        pos = end == std::string::npos ? text.size() : end + 1;
        ++lineNo;
        const std::size_t first = line.find_first_not_of(' ');
        if (first == std::string::npos || line[first] == '#')
            continue;
        if (first % 2 != 0 || first / 2 > parents.size()) {
            error = QStringLiteral("line %1: bad indentation").arg(lineNo);
            return false;
        }
        parents.resize(first / 2);
        const std::size_t colon = line.find(':', first);
        if (colon == std::string::npos) {
            error = QStringLiteral("line %1: no colon").arg(lineNo);
            return false;
        }
        const std::string key = line.substr(first, colon - first);
        std::string path;
        for (const auto& p : parents)
            path += p + ".";
        path += key;
        std::string rest = line.substr(colon + 1);
        if (rest.empty()) {
            parents.push_back(key);
            continue;
        }
        if (rest[0] != ' ') {
            error = QStringLiteral("line %1: no space after colon").arg(lineNo);
            return false;
        }
        rest = rest.substr(1);
        YamlScalar value;
        std::string after;
        if (!rest.empty() && rest[0] == '"') {
            value.quoted = true;
            std::size_t i = 1;
            for (; i < rest.size() && rest[i] != '"'; ++i) {
                if (rest[i] != '\\') {
                    value.text += rest[i];
                    continue;
                }
                const char e = rest.at(++i);
                if (e == 'n')
                    value.text += '\n';
                else if (e == 't')
                    value.text += '\t';
                else if (e == 'r')
                    value.text += '\r';
                else if (e == 'x') {
                    value.text += char(std::stoi(rest.substr(i + 1, 2), nullptr, 16));
                    i += 2;
                } else
                    value.text += e;
            }
            if (i >= rest.size()) {
                error = QStringLiteral("line %1: unterminated quote").arg(lineNo);
                return false;
            }
            after = rest.substr(i + 1);
        } else {
            // A plain scalar ends before the first " #" (YAML comments need a space before '#').
            const std::size_t hash = rest.find(" #");
            value.text = rest.substr(0, hash);
            while (!value.text.empty() && value.text.back() == ' ')
                value.text.pop_back();
            after = rest.substr(value.text.size());
        }
        if (!after.empty() && after.rfind("  # ", 0) != 0) {
            error = QStringLiteral("line %1: text after the value: %2").arg(lineNo).arg(q(after));
            return false;
        }
        out[path] = value;
    }
    return true;
}

// The launcher command of a launch.sh: from the line starting with `launcherWord`, continuation lines joined.
QString commandOf(const std::string& script, const QString& launcherWord)
{
    const QStringList lines = q(script).split('\n');
    QString out;
    bool in = false;
    for (QString line : lines) {
        if (!in && !line.startsWith(launcherWord + " "))
            continue;
        in = true;
        const bool continues = line.endsWith(" \\");
        if (continues)
            line.chop(2);
        out += (out.isEmpty() ? "" : " ") + line.trimmed();
        if (!continues)
            break;
    }
    return out;
}

QString bashPath() { return QStandardPaths::findExecutable("bash"); }

// Runs launch.sh (written into a folder whose name has a space) with fake `deepspeed` and `accelerate` that
// print their working folder and arguments; returns {cwd, args...}.
QStringList runLaunchScript(const std::string& script, const QStringList& env = {})
{
    QTemporaryDir tmp;
    const QString bin = tmp.path() + "/bin";
    const QString exportDir = tmp.path() + "/my export 'dir'";
    QDir().mkpath(bin);
    QDir().mkpath(exportDir);
    const QByteArray fake = "#!/bin/sh\nprintf '%s\\0' \"$(pwd)\"\nfor a in \"$@\"; do printf '%s\\0' \"$a\"; done\n";
    for (const char* name : {"deepspeed", "accelerate"}) {
        QFile f(bin + "/" + name);
        f.open(QIODevice::WriteOnly);
        f.write(fake);
        f.close();
        f.setPermissions(QFileDevice::ReadOwner | QFileDevice::WriteOwner | QFileDevice::ExeOwner);
    }
    QFile s(exportDir + "/launch.sh");
    s.open(QIODevice::WriteOnly);
    s.write(QByteArray::fromStdString(script));
    s.close();
    QProcess p;
    QStringList environment = QProcess::systemEnvironment();
    environment.append("PATH=" + bin + ":" + qEnvironmentVariable("PATH"));
    environment.append(env);
    p.setEnvironment(environment);
    p.setWorkingDirectory(tmp.path()); // not the export folder: the script must find its own
    p.start(bashPath(), {exportDir + "/launch.sh"});
    p.waitForFinished(20000);
    QStringList out;
    for (const QByteArray& part : p.readAllStandardOutput().split('\0'))
        out << QString::fromUtf8(part);
    if (!out.isEmpty() && out.last().isEmpty())
        out.removeLast();
    if (!out.isEmpty() && out.first() == QDir(exportDir).canonicalPath())
        out.first() = "<export folder>";
    return out;
}

// Accelerate rejects these next to a deepspeed_config_file ("When using `deepspeed_config_file`, the following
// accelerate config variables will be ignored: ['gradient_accumulation_steps', 'gradient_clipping', 'zero_stage',
// 'offload_optimizer_device', 'offload_param_device', 'offload_param_nvme_path', 'offload_optimizer_nvme_path',
// 'zero3_save_16bit_model', 'mixed_precision']"); a top-level `fp16: true` is read as mixed_precision fp16
// (config_args.py process_config).
const std::set<std::string> kAccelerateRejects = {"gradient_accumulation_steps",
                                                  "gradient_clipping",
                                                  "zero_stage",
                                                  "offload_optimizer_device",
                                                  "offload_param_device",
                                                  "offload_param_nvme_path",
                                                  "offload_optimizer_nvme_path",
                                                  "zero3_save_16bit_model",
                                                  "mixed_precision",
                                                  "fp16"};

} // namespace

class TestConfigExport : public QObject {
    Q_OBJECT

private slots:
    void targetNames_data()
    {
        QTest::addColumn<QString>("name");
        QTest::addColumn<int>("target"); // -1 = not a target
        QTest::newRow("deepspeed-json") << "deepspeed-json" << int(ExportTarget::DeepSpeedJson);
        QTest::newRow("hf-json") << "hf-json" << int(ExportTarget::HfJson);
        QTest::newRow("accelerate-yaml") << "accelerate-yaml" << int(ExportTarget::AccelerateYaml);
        QTest::newRow("launch") << "launch" << int(ExportTarget::Launch);
        QTest::newRow("bundle") << "bundle" << int(ExportTarget::Bundle);
        QTest::newRow("case matters") << "Bundle" << -1;
        QTest::newRow("json") << "json" << -1;
        QTest::newRow("empty") << "" << -1;
    }
    void targetNames()
    {
        QFETCH(QString, name);
        QFETCH(int, target);
        const auto parsed = exportTargetFromName(name.toStdString());
        QCOMPARE(parsed.has_value(), target >= 0);
        if (parsed) {
            QCOMPARE(int(*parsed), target);
            QCOMPARE(q(exportTargetName(*parsed)), name);
        }
    }

    void fileNames_data()
    {
        QTest::addColumn<QString>("target");
        QTest::addColumn<QString>("launcher");
        QTest::addColumn<int>("nodes");
        QTest::addColumn<QStringList>("names");
        const QStringList launchers = {"deepspeed", "hf-trainer", "accelerate"};
        for (const QString& l : launchers)
            for (int nodes : {1, 3}) {
                const QString tag = l + QStringLiteral(" %1 node(s)").arg(nodes);
                QTest::newRow(qPrintable("deepspeed-json " + tag))
                    << "deepspeed-json" << l << nodes << QStringList{"ds_config.json"};
                QTest::newRow(qPrintable("hf-json " + tag)) << "hf-json" << l << nodes << QStringList{"ds_config.json"};
                // Only an Accelerate bundle reads accelerate_config.yaml: for the others it is refused (exportRefusal).
                QTest::newRow(qPrintable("accelerate-yaml " + tag))
                    << "accelerate-yaml" << l << nodes
                    << (l == "accelerate" ? QStringList{"accelerate_config.yaml"} : QStringList{});
            }
        // launch.sh names a hostfile only for the deepspeed launcher (also under the Trainer) on several nodes.
        QTest::newRow("launch deepspeed 1") << "launch"
                                            << "deepspeed" << 1 << QStringList{"launch.sh"};
        QTest::newRow("launch deepspeed 3") << "launch"
                                            << "deepspeed" << 3 << QStringList{"launch.sh", "hostfile"};
        QTest::newRow("launch hf-trainer 1") << "launch"
                                             << "hf-trainer" << 1 << QStringList{"launch.sh"};
        QTest::newRow("launch hf-trainer 3") << "launch"
                                             << "hf-trainer" << 3 << QStringList{"launch.sh", "hostfile"};
        QTest::newRow("launch accelerate 1") << "launch"
                                             << "accelerate" << 1 << QStringList{"launch.sh"};
        QTest::newRow("launch accelerate 3") << "launch"
                                             << "accelerate" << 3 << QStringList{"launch.sh"};
        QTest::newRow("bundle deepspeed 1") << "bundle"
                                            << "deepspeed" << 1 << QStringList{"ds_config.json", "launch.sh"};
        QTest::newRow("bundle deepspeed 3")
            << "bundle"
            << "deepspeed" << 3 << QStringList{"ds_config.json", "launch.sh", "hostfile"};
        QTest::newRow("bundle hf-trainer 1") << "bundle"
                                             << "hf-trainer" << 1 << QStringList{"ds_config.json", "launch.sh"};
        QTest::newRow("bundle hf-trainer 3")
            << "bundle"
            << "hf-trainer" << 3 << QStringList{"ds_config.json", "launch.sh", "hostfile"};
        QTest::newRow("bundle accelerate 1")
            << "bundle"
            << "accelerate" << 1 << QStringList{"ds_config.json", "accelerate_config.yaml", "launch.sh"};
        QTest::newRow("bundle accelerate 3")
            << "bundle"
            << "accelerate" << 3 << QStringList{"ds_config.json", "accelerate_config.yaml", "launch.sh"};
    }
    void fileNames()
    {
        QFETCH(QString, target);
        QFETCH(QString, launcher);
        QFETCH(int, nodes);
        QFETCH(QStringList, names);
        const auto files =
            exportFiles(zero2Config(), cluster(launcher, nodes, 8), *exportTargetFromName(target.toStdString()));
        QStringList actual;
        for (const auto& f : files) {
            actual << q(f.name);
            QVERIFY2(!f.content.empty() && f.content.back() == '\n',
                     qPrintable(q(f.name) + " must end with a newline"));
            QCOMPARE(f.executable, f.name == "launch.sh");
        }
        QCOMPARE(actual, names);
    }

    void deepSpeedJsonIsTheConfigAsGiven()
    {
        // Keys in the config's order (zero_optimization before bf16, not sorted), a value the wizard would not
        // write ("auto") carried through, 2-space indent, trailing newline.
        const oj config = oj::parse(R"({"train_batch_size": 8, "zero_optimization": {"stage": 1},
                                        "bf16": {"enabled": "auto"}, "custom_key": [1, 2]})");
        const std::string expected =
            "{\n  \"train_batch_size\": 8,\n  \"zero_optimization\": {\n    \"stage\": 1\n  },\n"
            "  \"bf16\": {\n    \"enabled\": \"auto\"\n  },\n  \"custom_key\": [\n    1,\n    2\n  ]\n}\n";
        for (const QString launcher : {"deepspeed", "hf-trainer", "accelerate"}) {
            const auto files = exportFiles(config, cluster(launcher, 1, 8), ExportTarget::DeepSpeedJson);
            QCOMPARE(files.size(), std::size_t(1));
            QCOMPARE(q(files[0].content), q(expected));
        }
    }

    void hfAutoPointers_data()
    {
        QTest::addColumn<QString>("config");
        QTest::addColumn<QString>("launcher");
        QTest::addColumn<QStringList>("expected");
        // Trainer, ZeRO-2: every Trainer key present; not reduce_bucket_size (stage 2 keeps the wizard's 5e8),
        // not fp16 (absent), not the types, overlap_comm, steps_per_print.
        const QStringList trainer2 = {"/train_batch_size",
                                      "/train_micro_batch_size_per_gpu",
                                      "/gradient_accumulation_steps",
                                      "/gradient_clipping",
                                      "/optimizer/params/lr",
                                      "/optimizer/params/betas",
                                      "/optimizer/params/eps",
                                      "/optimizer/params/weight_decay",
                                      "/scheduler/params/warmup_min_lr",
                                      "/scheduler/params/warmup_max_lr",
                                      "/scheduler/params/total_num_steps",
                                      "/bf16/enabled"};
        // Trainer, ZeRO-3: no total_num_steps in this config; fp16 instead of bf16; the three hidden-size keys.
        const QStringList trainer3 = {"/train_batch_size",
                                      "/train_micro_batch_size_per_gpu",
                                      "/gradient_accumulation_steps",
                                      "/gradient_clipping",
                                      "/optimizer/params/lr",
                                      "/optimizer/params/betas",
                                      "/optimizer/params/eps",
                                      "/optimizer/params/weight_decay",
                                      "/scheduler/params/warmup_min_lr",
                                      "/scheduler/params/warmup_max_lr",
                                      "/fp16/enabled",
                                      "/zero_optimization/reduce_bucket_size",
                                      "/zero_optimization/stage3_prefetch_bucket_size",
                                      "/zero_optimization/stage3_param_persistence_threshold"};
        // Accelerate: no gradient accumulation, clipping, betas, eps or precision.
        const QStringList accelerate2 = {"/train_batch_size",
                                         "/train_micro_batch_size_per_gpu",
                                         "/optimizer/params/lr",
                                         "/optimizer/params/weight_decay",
                                         "/scheduler/params/warmup_min_lr",
                                         "/scheduler/params/warmup_max_lr",
                                         "/scheduler/params/total_num_steps"};
        const QStringList accelerate3 = {"/train_batch_size",
                                         "/train_micro_batch_size_per_gpu",
                                         "/optimizer/params/lr",
                                         "/optimizer/params/weight_decay",
                                         "/scheduler/params/warmup_min_lr",
                                         "/scheduler/params/warmup_max_lr",
                                         "/zero_optimization/reduce_bucket_size",
                                         "/zero_optimization/stage3_prefetch_bucket_size",
                                         "/zero_optimization/stage3_param_persistence_threshold"};
        QTest::newRow("zero2 hf-trainer") << "zero2"
                                          << "hf-trainer" << trainer2;
        QTest::newRow("zero2 deepspeed (hf-json asked)") << "zero2"
                                                         << "deepspeed" << trainer2;
        QTest::newRow("zero2 accelerate") << "zero2"
                                          << "accelerate" << accelerate2;
        QTest::newRow("zero3 hf-trainer") << "zero3"
                                          << "hf-trainer" << trainer3;
        QTest::newRow("zero3 accelerate") << "zero3"
                                          << "accelerate" << accelerate3;
    }
    void hfAutoPointers()
    {
        QFETCH(QString, config);
        QFETCH(QString, launcher);
        QFETCH(QStringList, expected);
        const oj original = configNamed(config);
        const auto files = exportFiles(original, cluster(launcher, 1, 8), ExportTarget::HfJson);
        QCOMPARE(files.size(), std::size_t(1));
        QCOMPARE(q(files[0].name), QStringLiteral("ds_config.json"));
        const oj out = oj::parse(files[0].content); // strict JSON
        std::set<std::string> want;
        for (const QString& p : expected)
            want.insert(p.toStdString());
        const auto got = autoPointers(out);
        for (const auto& p : got)
            QVERIFY2(want.count(p), qPrintable("unexpected \"auto\" at " + q(p)));
        for (const auto& p : want)
            QVERIFY2(got.count(p), qPrintable("no \"auto\" at " + q(p)));
        // Everything else unchanged, key order included: put the originals back and compare the text.
        oj restored = out;
        for (const auto& p : want)
            restored.at(oj::json_pointer(p)) = original.at(oj::json_pointer(p));
        QCOMPARE(q(restored.dump(2)), q(original.dump(2)));
    }

    void autoRules_data()
    {
        QTest::addColumn<QString>("config");
        QTest::addColumn<QString>("launcher");
        QTest::addColumn<QStringList>("expected");
        // The Trainer and Accelerate both fill warmup_min_lr with 0: a non-zero one stays.
        QTest::newRow("warmup_min_lr 1e-6 stays") << R"({"scheduler": {"params": {"warmup_min_lr": 1e-6}}})"
                                                  << "hf-trainer" << QStringList{};
        QTest::newRow("warmup_min_lr 0") << R"({"scheduler": {"params": {"warmup_min_lr": 0}}})"
                                         << "accelerate" << QStringList{"/scheduler/params/warmup_min_lr"};
        // Both fill warmup_max_lr with the optimizer's lr: a different peak stays (the Trainer then reports it).
        QTest::newRow("warmup_max_lr != lr")
            << R"({"optimizer": {"params": {"lr": 1e-4}}, "scheduler": {"params": {"warmup_max_lr": 5e-4}}})"
            << "hf-trainer" << QStringList{"/optimizer/params/lr"};
        QTest::newRow("warmup_max_lr, no optimizer") << R"({"scheduler": {"params": {"warmup_max_lr": 5e-4}}})"
                                                     << "hf-trainer" << QStringList{"/scheduler/params/warmup_max_lr"};
        // train_batch_size is computed from the micro-batch, so it needs one (60 = 2 x 8 x m has no whole m, so the
        // export cannot write one; hfFormMeetsItsReader has the case where it can).
        QTest::newRow("train_batch_size without micro-batch")
            << R"({"train_batch_size": 60, "gradient_accumulation_steps": 2})"
            << "hf-trainer" << QStringList{"/gradient_accumulation_steps"};
        QTest::newRow("placeholder micro-batch")
            << R"({"train_batch_size": 64, "train_micro_batch_size_per_gpu": "<mb>",
                                                       "optimizer": {"params": {"lr": "{{lr}}"}}})"
            << "hf-trainer" << QStringList{};
        QTest::newRow("three betas") << R"({"optimizer": {"params": {"betas": [0.9, 0.99, 0.999]}}})"
                                     << "hf-trainer" << QStringList{};
        QTest::newRow("stage as a string") << R"({"zero_optimization": {"stage": "3", "reduce_bucket_size": 100}})"
                                           << "hf-trainer" << QStringList{};
        QTest::newRow("null stays null") << R"({"gradient_clipping": null})"
                                         << "hf-trainer" << QStringList{};
        QTest::newRow("fp16 without enabled") << R"({"fp16": {"loss_scale": 0}})"
                                              << "hf-trainer" << QStringList{};
        QTest::newRow("optimizer as a string") << R"({"optimizer": "AdamW"})"
                                               << "hf-trainer" << QStringList{};
        // An "auto" the user already had where no filler fills it is kept as it was.
        QTest::newRow("foreign auto kept")
            << R"({"zero_optimization": {"stage": 3, "stage3_max_live_parameters": "auto",
                                         "stage3_gather_16bit_weights_on_model_save": true}})"
            << "hf-trainer" << QStringList{"/zero_optimization/stage3_max_live_parameters"};
        QTest::newRow("not an object") << R"([1, 2])"
                                       << "hf-trainer" << QStringList{};
    }
    void autoRules()
    {
        QFETCH(QString, config);
        QFETCH(QString, launcher);
        QFETCH(QStringList, expected);
        const oj original = oj::parse(config.toStdString());
        const oj out = oj::parse(exportFiles(original, cluster(launcher, 1, 8), ExportTarget::HfJson).at(0).content);
        std::set<std::string> want;
        for (const QString& p : expected)
            want.insert(p.toStdString());
        QVERIFY(autoPointers(out) == want);
        oj restored = out;
        for (const auto& p : want)
            restored.at(oj::json_pointer(p)) = original.at(oj::json_pointer(p));
        if (original.is_object() && !original.contains("zero_optimization"))
            restored.erase("zero_optimization"); // what the HF readers need besides (hfFormMeetsItsReader)
        QVERIFY(restored == original);
    }

    void accelerateYaml_data()
    {
        QTest::addColumn<QString>("config");
        QTest::addColumn<int>("nodes");
        QTest::addColumn<int>("gpusPerNode");
        QTest::addColumn<QString>("zero3InitFlag");
        QTest::addColumn<QString>("numProcesses"); // nodes x GPUs per node, by hand
        QTest::newRow("zero2 1x8") << "zero2" << 1 << 8 << "false"
                                   << "8";
        QTest::newRow("zero3 1x4") << "zero3" << 1 << 4 << "true"
                                   << "4";
        QTest::newRow("zero3 2x8") << "zero3" << 2 << 8 << "true"
                                   << "16";
        QTest::newRow("zero2 16x8") << "zero2" << 16 << 8 << "false"
                                    << "128";
    }
    void accelerateYaml()
    {
        QFETCH(QString, config);
        QFETCH(int, nodes);
        QFETCH(int, gpusPerNode);
        QFETCH(QString, zero3InitFlag);
        QFETCH(QString, numProcesses);
        const oj json = configNamed(config);
        const auto files = exportFiles(json, cluster("accelerate", nodes, gpusPerNode), ExportTarget::AccelerateYaml);
        std::map<std::string, YamlScalar> y;
        QString error;
        QVERIFY2(parseYaml(files.at(0).content, y, error), qPrintable(error));
        auto value = [&](const char* key) { return y.count(key) ? q(y.at(key).text) : QStringLiteral("<absent>"); };
        QCOMPARE(value("distributed_type"), QStringLiteral("DEEPSPEED"));
        QCOMPARE(value("compute_environment"), QStringLiteral("LOCAL_MACHINE"));
        QCOMPARE(value("deepspeed_config.deepspeed_config_file"), QStringLiteral("ds_config.json"));
        QCOMPARE(value("deepspeed_config.zero3_init_flag"), zero3InitFlag);
        QCOMPARE(value("num_machines"), QString::number(nodes));
        QCOMPARE(value("num_processes"), numProcesses);
        QCOMPARE(value("machine_rank"), QStringLiteral("0"));
        if (nodes > 1) {
            QVERIFY(value("main_process_ip").contains("FILL_IN"));
            QVERIFY(value("main_process_port").contains("FILL_IN"));
            QCOMPARE(value("rdzv_backend"), QStringLiteral("static"));
            QCOMPARE(value("same_network"), QStringLiteral("true"));
            QCOMPARE(value("deepspeed_config.deepspeed_multinode_launcher"), QStringLiteral("standard"));
        } else {
            for (const char* key : {"main_process_ip", "main_process_port", "rdzv_backend", "same_network",
                                    "deepspeed_config.deepspeed_multinode_launcher"})
                QCOMPARE(value(key), QStringLiteral("<absent>"));
        }
        // Booleans and numbers are unquoted, so YAML reads them as such.
        QVERIFY(!y.at("deepspeed_config.zero3_init_flag").quoted && !y.at("num_processes").quoted);
    }

    // Each setting in one file: nothing Accelerate rejects next to a deepspeed_config_file, and no key of the
    // YAML that is also a key of the JSON, for every config and cluster size.
    void eachSettingInOneFile_data()
    {
        QTest::addColumn<QString>("config");
        QTest::addColumn<int>("nodes");
        for (const char* c : {"zero2", "zero3"})
            for (int nodes : {1, 4})
                QTest::newRow(qPrintable(QStringLiteral("%1 %2 node(s)").arg(c).arg(nodes))) << c << nodes;
    }
    void eachSettingInOneFile()
    {
        QFETCH(QString, config);
        QFETCH(int, nodes);
        const auto files = exportFiles(configNamed(config), cluster("accelerate", nodes, 8), ExportTarget::Bundle);
        std::map<std::string, YamlScalar> y;
        QString error;
        QVERIFY2(parseYaml(contentOf(files, "accelerate_config.yaml"), y, error), qPrintable(error));
        std::set<std::string> jsonKeys;
        collectKeys(oj::parse(contentOf(files, "ds_config.json")), jsonKeys);
        for (const auto& [path, v] : y) {
            const std::string leaf = path.substr(path.rfind('.') == std::string::npos ? 0 : path.rfind('.') + 1);
            QVERIFY2(!kAccelerateRejects.count(leaf), qPrintable("Accelerate rejects " + q(path)));
            QVERIFY2(!jsonKeys.count(leaf), qPrintable(q(leaf) + " is in both files"));
        }
        // The YAML names the JSON of the bundle; launch.sh names the YAML of the bundle.
        QCOMPARE(q(y.at("deepspeed_config.deepspeed_config_file").text), QStringLiteral("ds_config.json"));
        QVERIFY(
            commandOf(contentOf(files, "launch.sh"), "accelerate").contains("--config_file accelerate_config.yaml"));
    }

    void launchCommand_data()
    {
        QTest::addColumn<QString>("config");
        QTest::addColumn<QString>("launcher");
        QTest::addColumn<int>("nodes");
        QTest::addColumn<QString>("command");
        // Plain DeepSpeed script: deepspeed.add_config_arguments() flags, no Trainer flags.
        QTest::newRow("deepspeed 1x8")
            << "zero2"
            << "deepspeed" << 1 << "deepspeed --num_gpus 8 train.py --deepspeed --deepspeed_config ds_config.json";
        QTest::newRow("deepspeed 2x8")
            << "zero3"
            << "deepspeed" << 2
            << "deepspeed --hostfile hostfile --num_nodes 2 --num_gpus 8 train.py --deepspeed "
               "--deepspeed_config ds_config.json";
        // Trainer: one flag per "auto" the Trainer fills from TrainingArguments, with the wizard's values
        // (zero2: micro 4, accumulation 2, clipping 1.0, lr 1e-4, betas 0.9/0.95, eps 1e-8, decay 0.1, warmup 100,
        // 1000 steps, bf16; warmup_max_lr rides on --learning_rate, warmup_min_lr 0 and train_batch_size need none).
        QTest::newRow("hf-trainer 1x8") << "zero2"
                                        << "hf-trainer" << 1
                                        << "deepspeed --num_gpus 8 train.py --per_device_train_batch_size 4 "
                                           "--gradient_accumulation_steps 2 --max_grad_norm 1.0 --learning_rate 0.0001 "
                                           "--adam_beta1 0.9 --adam_beta2 0.95 --adam_epsilon 1e-08 --weight_decay 0.1 "
                                           "--max_steps 1000 --bf16 --warmup_steps 100 --deepspeed ds_config.json";
        // zero3: micro 2, accumulation 8, clipping 0.5, lr 3e-4, betas 0.9/0.999, decay 0.0, warmup 500, fp16.
        QTest::newRow("hf-trainer 2x8")
            << "zero3"
            << "hf-trainer" << 2
            << "deepspeed --hostfile hostfile --num_nodes 2 --num_gpus 8 train.py "
               "--per_device_train_batch_size 2 --gradient_accumulation_steps 8 "
               "--max_grad_norm 0.5 --learning_rate 0.0003 --adam_beta1 0.9 --adam_beta2 0.999 "
               "--adam_epsilon 1e-08 --weight_decay 0.0 --fp16 --warmup_steps 500 "
               "--deepspeed ds_config.json";
        QTest::newRow("accelerate 1x8") << "zero2"
                                        << "accelerate" << 1
                                        << "accelerate launch --config_file accelerate_config.yaml train.py";
        QTest::newRow("accelerate 2x8") << "zero3"
                                        << "accelerate" << 2
                                        << "accelerate launch --config_file accelerate_config.yaml "
                                           "--machine_rank \"${MACHINE_RANK:-0}\" train.py";
    }
    void launchCommand()
    {
        QFETCH(QString, config);
        QFETCH(QString, launcher);
        QFETCH(int, nodes);
        QFETCH(QString, command);
        const auto files = exportFiles(configNamed(config), cluster(launcher, nodes, 8), ExportTarget::Bundle);
        const std::string script = contentOf(files, "launch.sh");
        QVERIFY(script.rfind("#!/usr/bin/env bash\n", 0) == 0);
        QCOMPARE(commandOf(script, command.section(' ', 0, 0)), command);
        QVERIFY(script.find("FILL IN") != std::string::npos);
        // Every file the command names is in the bundle.
        for (const char* name : {"ds_config.json", "hostfile", "accelerate_config.yaml"})
            if (command.contains(QString(" ") + name))
                QVERIFY2(!contentOf(files, name).empty(), name);
        // A TrainingArguments flag carries a value that the JSON leaves to "auto", so it is set in one place only.
        const std::map<QString, std::string> flagPointer = {
            {"--per_device_train_batch_size", "/train_micro_batch_size_per_gpu"},
            {"--gradient_accumulation_steps", "/gradient_accumulation_steps"},
            {"--max_grad_norm", "/gradient_clipping"},
            {"--learning_rate", "/optimizer/params/lr"},
            {"--adam_beta1", "/optimizer/params/betas"},
            {"--adam_beta2", "/optimizer/params/betas"},
            {"--adam_epsilon", "/optimizer/params/eps"},
            {"--weight_decay", "/optimizer/params/weight_decay"},
            {"--max_steps", "/scheduler/params/total_num_steps"},
            {"--fp16", "/fp16/enabled"},
            {"--bf16", "/bf16/enabled"}};
        const oj json = oj::parse(contentOf(files, "ds_config.json"));
        const QStringList words = command.split(' ');
        for (const QString& word : words)
            if (flagPointer.count(word))
                QVERIFY2(json.at(oj::json_pointer(flagPointer.at(word))) == "auto", qPrintable(word));
        // The warmup is a number in the JSON ("auto" would be filled with 0, which DeepSpeed refuses since 0.19.3),
        // and the Trainer's --warmup_steps repeats it (its fill_match refuses a config value that differs).
        const auto warmup = words.indexOf("--warmup_steps");
        if (launcher != "deepspeed")
            QVERIFY(json.at(oj::json_pointer("/scheduler/params/warmup_num_steps"))
                    == oj(config == "zero3" ? 500 : 100));
        if (warmup >= 0)
            QCOMPARE(words.at(warmup + 1).toLongLong(),
                     json.at(oj::json_pointer("/scheduler/params/warmup_num_steps")).get<long long>());
        QCOMPARE(warmup >= 0, launcher == "hf-trainer");
        if (launcher == "deepspeed")
            QVERIFY(autoPointers(json).empty()); // plain DeepSpeed reads "auto" as a value: strict JSON only
    }

    void warmupIsWrittenSoTheConfigStarts_data()
    {
        QTest::addColumn<QString>("warmup"); // the config's scheduler.params.warmup_num_steps
        QTest::addColumn<QString>("launcher");
        QTest::addColumn<QString>("written"); // what the exported ds_config.json holds there
        QTest::addColumn<QString>("flag");    // launch.sh's --warmup_steps value, "" when none
        // "auto" would be filled with 0 (TrainingArguments' warmup_steps / DummyScheduler's default): DeepSpeed's
        // own default 1000 is written instead, marked FILL IN.
        QTest::newRow("auto, trainer") << "\"auto\""
                                       << "hf-trainer"
                                       << "1000"
                                       << "1000";
        QTest::newRow("auto, accelerate") << "\"auto\""
                                          << "accelerate"
                                          << "1000"
                                          << "";
        QTest::newRow("auto, deepspeed asks hf-json") << "\"auto\""
                                                      << "deepspeed"
                                                      << "1000"
                                                      << "";
        QTest::newRow("250, trainer") << "250"
                                      << "hf-trainer"
                                      << "250"
                                      << "250";
        QTest::newRow("250, accelerate") << "250"
                                         << "accelerate"
                                         << "250"
                                         << "";
        // 0 is left as written (the linter reports it): the export does not invent a warmup the user refused.
        QTest::newRow("0, trainer") << "0"
                                    << "hf-trainer"
                                    << "0"
                                    << "";
    }
    void warmupIsWrittenSoTheConfigStarts()
    {
        QFETCH(QString, warmup);
        QFETCH(QString, launcher);
        QFETCH(QString, written);
        QFETCH(QString, flag);
        oj config = zero2Config();
        config["scheduler"]["params"]["warmup_num_steps"] = oj::parse(warmup.toStdString());
        const auto hf = exportFiles(config, cluster(launcher, 1, 8), ExportTarget::HfJson);
        const oj json = oj::parse(contentOf(hf, "ds_config.json"));
        QCOMPARE(json.at(oj::json_pointer("/scheduler/params/warmup_num_steps")).dump(), written.toStdString());
        const std::string script =
            contentOf(exportFiles(config, cluster(launcher, 1, 8), ExportTarget::Launch), "launch.sh");
        const QString command = commandOf(script, launcher == "accelerate" ? "accelerate" : "deepspeed");
        const QStringList words = command.split(' ');
        const auto at = words.indexOf("--warmup_steps");
        QCOMPARE(at >= 0 ? words.at(at + 1) : QString(), flag);
        if (warmup == "\"auto\"" && launcher != "deepspeed")
            QVERIFY(script.find("FILL IN: your config said \"auto\"; 1000 is DeepSpeed's default")
                    != std::string::npos);
        // The strict export is the config as given.
        const oj strict = oj::parse(
            contentOf(exportFiles(config, cluster(launcher, 1, 8), ExportTarget::DeepSpeedJson), "ds_config.json"));
        QVERIFY(strict == config);
    }

    void launchScriptRunsWithQuotedPaths_data()
    {
        QTest::addColumn<QString>("launcher");
        QTest::addColumn<int>("nodes");
        QTest::addColumn<QString>("script");
        QTest::addColumn<QStringList>("env");
        QTest::addColumn<QStringList>("argv"); // after the working folder, which must be the export folder
        const QString spaces = "my scripts/train v2.py";
        const QString nasty = "it's \"odd\" $HOME `id` *.py; rm -x";
        QTest::newRow("deepspeed spaces")
            << "deepspeed" << 1 << spaces << QStringList{}
            << QStringList{"--num_gpus", "8", spaces, "--deepspeed", "--deepspeed_config", "ds_config.json"};
        QTest::newRow("deepspeed 2 nodes, shell characters")
            << "deepspeed" << 2 << nasty << QStringList{}
            << QStringList{"--hostfile",  "hostfile",           "--num_nodes",   "2", "--num_gpus", "8", nasty,
                           "--deepspeed", "--deepspeed_config", "ds_config.json"};
        QTest::newRow("hf-trainer newline in name") << "hf-trainer" << 1 << "two\nlines.py" << QStringList{}
                                                    << QStringList{"--num_gpus",
                                                                   "8",
                                                                   "two\nlines.py",
                                                                   "--per_device_train_batch_size",
                                                                   "4",
                                                                   "--gradient_accumulation_steps",
                                                                   "2",
                                                                   "--max_grad_norm",
                                                                   "1.0",
                                                                   "--learning_rate",
                                                                   "0.0001",
                                                                   "--adam_beta1",
                                                                   "0.9",
                                                                   "--adam_beta2",
                                                                   "0.95",
                                                                   "--adam_epsilon",
                                                                   "1e-08",
                                                                   "--weight_decay",
                                                                   "0.1",
                                                                   "--max_steps",
                                                                   "1000",
                                                                   "--bf16",
                                                                   "--warmup_steps",
                                                                   "100",
                                                                   "--deepspeed",
                                                                   "ds_config.json"};
        QTest::newRow("accelerate spaces") << "accelerate" << 1 << spaces << QStringList{}
                                           << QStringList{"launch", "--config_file", "accelerate_config.yaml", spaces};
        QTest::newRow("accelerate 3 nodes, rank 2")
            << "accelerate" << 3 << spaces << QStringList{"MACHINE_RANK=2"}
            << QStringList{"launch", "--config_file", "accelerate_config.yaml", "--machine_rank", "2", spaces};
        QTest::newRow("accelerate 3 nodes, main node")
            << "accelerate" << 3 << "train.py" << QStringList{}
            << QStringList{"launch", "--config_file", "accelerate_config.yaml", "--machine_rank", "0", "train.py"};
    }
    void launchScriptRunsWithQuotedPaths()
    {
        QFETCH(QString, launcher);
        QFETCH(int, nodes);
        QFETCH(QString, script);
        QFETCH(QStringList, env);
        QFETCH(QStringList, argv);
        if (bashPath().isEmpty())
            QSKIP("bash is not installed");
        ExportOptions options;
        options.trainingScript = script.toStdString();
        const auto files = exportFiles(zero2Config(), cluster(launcher, nodes, 8), ExportTarget::Launch, options);
        const QStringList ran = runLaunchScript(contentOf(files, "launch.sh"), env);
        QCOMPARE(ran.value(0), QStringLiteral("<export folder>"));
        QCOMPARE(ran.mid(1), argv);
    }

    void hfFormGivesTheFillerEveryOptimizerField_data()
    {
        QTest::addColumn<QString>("type");
        QTest::addColumn<QString>("launcher");
        QTest::addColumn<QStringList>("autoKeys"); // optimizer.params keys that are "auto" in the HF form
        QTest::addColumn<QStringList>("flags");    // what launch.sh passes the Trainer for them
        // The wizard writes only lr: the Trainer's --adam_beta1/2, --adam_epsilon and --weight_decay would be ignored
        // without the other three keys; their values are DeepSpeed's Adam defaults (= TrainingArguments' defaults).
        QTest::newRow("AdamW, Trainer") << "AdamW"
                                        << "hf-trainer" << QStringList{"lr", "betas", "eps", "weight_decay"}
                                        << QStringList{"--learning_rate 0.0003", "--adam_beta1 0.9",
                                                       "--adam_beta2 0.999", "--adam_epsilon 1e-08",
                                                       "--weight_decay 0.0"};
        QTest::newRow("Adam, Trainer") << "Adam"
                                       << "hf-trainer" << QStringList{"lr", "betas", "eps", "weight_decay"}
                                       << QStringList{"--weight_decay 0.0"};
        // Accelerate's DummyOptim takes lr and weight_decay only.
        QTest::newRow("AdamW, Accelerate") << "AdamW"
                                           << "accelerate" << QStringList{"lr", "weight_decay"} << QStringList{};
        // Other optimizers' defaults differ (Lion's betas are (0.9, 0.99)): nothing is added for them.
        QTest::newRow("Lion, Trainer") << "Lion"
                                       << "hf-trainer" << QStringList{"lr"} << QStringList{"--learning_rate 0.0003"};
    }
    void hfFormGivesTheFillerEveryOptimizerField()
    {
        QFETCH(QString, type);
        QFETCH(QString, launcher);
        QFETCH(QStringList, autoKeys);
        QFETCH(QStringList, flags);
        const oj config = {{"train_micro_batch_size_per_gpu", 4},
                           {"optimizer", {{"type", type.toStdString()}, {"params", {{"lr", 0.0003}}}}}};
        const Answers answers = cluster(launcher, 1, 8);
        const oj hf = oj::parse(exportFiles(config, answers, ExportTarget::HfJson).front().content);
        QStringList keys;
        for (const auto& [key, value] : hf["optimizer"]["params"].items()) {
            QVERIFY2(value == "auto", key.c_str());
            keys << q(key);
        }
        QCOMPARE(keys, autoKeys);
        QCOMPARE(config["optimizer"]["params"].size(), std::size_t(1)); // the strict config is not changed
        const QString script = q(contentOf(exportFiles(config, answers, ExportTarget::Launch), "launch.sh"));
        for (const QString& flag : flags)
            QVERIFY2(script.contains("  " + flag + " \\\n"), qPrintable(flag + " in\n" + script));
    }

    void launchCarriesWhatThePlanReliesOn_data()
    {
        QTest::addColumn<QString>("launcher");
        QTest::addColumn<int>("checkpointing"); // -1: not known; > 1: only the first N layers
        QTest::addColumn<bool>("fusedLoss");
        QTest::addColumn<QString>("attention");
        QTest::addColumn<QStringList>("present");
        QTest::addColumn<QStringList>("absent");
        const QString flag = QStringLiteral("  --gradient_checkpointing \\\n");
        QTest::newRow("Trainer, checkpointing") << "hf-trainer" << 1 << false << "flash"
                                                << QStringList{flag, "  --bf16 \\\n", "  --deepspeed ds_config.json\n",
                                                               "attn_implementation=\"flash_attention_2\""}
                                                << QStringList{"whether this plan checkpoints"};
        QTest::newRow("Trainer, no checkpointing")
            << "hf-trainer" << 0 << false << "sdpa" << QStringList{"attn_implementation=\"sdpa\""}
            << QStringList{"--gradient_checkpointing", "FILL IN: the plan only"};
        QTest::newRow("Trainer, not known")
            << "hf-trainer" << -1 << false << ""
            << QStringList{"# FILL IN: the wizard does not know whether this plan checkpoints activations; add\n"
                           "# --gradient_checkpointing below",
                           "FILL IN: the wizard does not know the attention kernel"}
            << QStringList{flag};
        QTest::newRow("deepspeed, checkpointing")
            << "deepspeed" << 1 << false << "eager"
            << QStringList{"# FILL IN: the plan only fits with activation checkpointing",
                           "model.gradient_checkpointing_enable()", "attn_implementation=\"eager\""}
            << QStringList{flag};
        // The search's levers (ZeroDecision): the Trainer would turn every layer on again at train(), so selective
        // checkpointing is the script's (no flag); the fused loss is TrainingArguments' use_liger_kernel.
        QTest::newRow("Trainer, first 12 layers, fused loss")
            << "hf-trainer" << 12 << true << "flash"
            << QStringList{"the plan checkpoints only the first 12 layers", "model.model.layers[12:]",
                           "  --use_liger_kernel True \\\n"}
            << QStringList{flag, "AutoLigerKernelForCausalLM"};
        QTest::newRow("deepspeed, fused loss")
            << "deepspeed" << 0 << true << "flash" << QStringList{"AutoLigerKernelForCausalLM"}
            << QStringList{"--use_liger_kernel"};
        QTest::newRow("accelerate, checkpointing")
            << "accelerate" << 1 << false << "sdpa" << QStringList{"# FILL IN: the plan only fits with activation"}
            << QStringList{flag};
    }
    void launchCarriesWhatThePlanReliesOn()
    {
        QFETCH(QString, launcher);
        QFETCH(int, checkpointing);
        QFETCH(bool, fusedLoss);
        QFETCH(QString, attention);
        QFETCH(QStringList, present);
        QFETCH(QStringList, absent);
        ExportOptions options;
        if (checkpointing >= 0)
            options.gradientCheckpointing = checkpointing >= 1;
        options.checkpointLayers = checkpointing > 1 ? checkpointing : 0;
        options.fusedLoss = fusedLoss;
        options.attention = attention.toStdString();
        const oj config = {{"train_micro_batch_size_per_gpu", 4}, {"bf16", {{"enabled", true}}}};
        const QString script =
            q(contentOf(exportFiles(config, cluster(launcher, 1, 8), ExportTarget::Launch, options), "launch.sh"));
        for (const QString& text : present)
            QVERIFY2(script.contains(text), qPrintable(text + " in\n" + script));
        for (const QString& text : absent)
            QVERIFY2(!script.contains(text), qPrintable(text + " not in\n" + script));
    }

    void configFormFollowsTheLauncher_data()
    {
        QTest::addColumn<QString>("launcher");
        QTest::addColumn<bool>("hf");
        QTest::newRow("deepspeed") << "deepspeed" << false;
        QTest::newRow("hf-trainer") << "hf-trainer" << true;
        QTest::newRow("accelerate") << "accelerate" << true;
    }
    void configFormFollowsTheLauncher()
    {
        QFETCH(QString, launcher);
        QFETCH(bool, hf);
        const Answers answers = cluster(launcher, 1, 8);
        QCOMPARE(launcherConfigForm(answers) == ConfigForm::HfAuto, hf);
        const oj config = zero2Config();
        // Each form is exactly what its export writes (the preview and Copy JSON show these texts).
        QCOMPARE(configText(config, answers, ConfigForm::Strict),
                 exportFiles(config, answers, ExportTarget::DeepSpeedJson).front().content);
        QCOMPARE(configText(config, answers, ConfigForm::HfAuto),
                 exportFiles(config, answers, ExportTarget::HfJson).front().content);
        QVERIFY(configInForm(config, answers, ConfigForm::Strict) == config);
        QVERIFY(!autoPointers(configInForm(config, answers, ConfigForm::HfAuto)).empty());
        QVERIFY(autoPointers(configInForm(config, answers, ConfigForm::Strict)).empty());
    }

    // What the Hugging Face readers need beyond "auto" (issue 23): a ZeRO block, weights save_model() can write at
    // ZeRO-3, the batch keys the file implies, the GPU count the file implies, no placeholder as a flag's value.
    void hfFormMeetsItsReader_data()
    {
        QTest::addColumn<QString>("config");
        QTest::addColumn<QString>("launcher");
        QTest::addColumn<QString>("pointer"); // in ds_config.json
        QTest::addColumn<QString>("value");   // JSON; "absent" for none
        QTest::addColumn<QString>("launch");  // a line launch.sh holds ("" for no check)
        // DeepSpeedPlugin: "Please specify the ZeRO optimization config"; stage 0 is DeepSpeed's default.
        QTest::newRow("zero block added") << R"({"train_batch_size": 16, "train_micro_batch_size_per_gpu": 2})"
                                          << "hf-trainer"
                                          << "/zero_optimization"
                                          << R"({"stage": 0})"
                                          << "";
        QTest::newRow("zero block kept, strict") << R"({"train_batch_size": 16})"
                                                 << "deepspeed"
                                                 << "/zero_optimization"
                                                 << "absent"
                                                 << "";
        // Both readers fill an absent or "auto" gather with false: save_model() then writes no weights.
        for (const QString l : {"hf-trainer", "accelerate"}) {
            QTest::newRow(qPrintable("ZeRO-3 gathers, " + l))
                << R"({"zero_optimization": {"stage": 3}})" << l
                << "/zero_optimization/stage3_gather_16bit_weights_on_model_save"
                << "true"
                << "";
            QTest::newRow(qPrintable("ZeRO-3 auto gathers, " + l))
                << R"({"zero_optimization": {"stage": 3, "stage3_gather_16bit_weights_on_model_save": "auto"}})" << l
                << "/zero_optimization/stage3_gather_16bit_weights_on_model_save"
                << "true"
                << "";
        }
        QTest::newRow("ZeRO-3 unprefixed spelling")
            << R"({"zero_optimization": {"stage": 3, "gather_16bit_weights_on_model_save": "auto"}})"
            << "hf-trainer"
            << "/zero_optimization/gather_16bit_weights_on_model_save"
            << "true"
            << "";
        QTest::newRow("ZeRO-3 false kept, and said")
            << R"({"zero_optimization": {"stage": 3, "stage3_gather_16bit_weights_on_model_save": false}})"
            << "hf-trainer"
            << "/zero_optimization/stage3_gather_16bit_weights_on_model_save"
            << "false"
            << "# Save a checkpoint and run zero_to_fp32.py on it (it needs the fp32 weights in host RAM), or set it "
               "true.";
        QTest::newRow("ZeRO-2 no gather") << R"({"zero_optimization": {"stage": 2}})"
                                          << "hf-trainer"
                                          << "/zero_optimization/stage3_gather_16bit_weights_on_model_save"
                                          << "absent"
                                          << "";
        // train_batch_size without a micro-batch: the Trainer would use 8. 64 on 8 GPUs: 8 = 64 / (1 x 8).
        QTest::newRow("micro-batch derived") << R"({"train_batch_size": 64, "zero_optimization": {"stage": 1}})"
                                             << "hf-trainer"
                                             << "/train_micro_batch_size_per_gpu"
                                             << R"("auto")"
                                             << "  --per_device_train_batch_size 8 \\";
        QTest::newRow("accumulation derived")
            << R"({"train_batch_size": 64, "train_micro_batch_size_per_gpu": 2, "zero_optimization": {"stage": 1}})"
            << "hf-trainer"
            << "/gradient_accumulation_steps"
            << R"("auto")"
            << "  --gradient_accumulation_steps 4 \\";
        // The GPU count follows the file: 32 = 4 x 2 x 4 GPUs; 96 = 2 x 3 x 16 GPUs, on 2 nodes of 8.
        QTest::newRow("4 GPUs from the file") << R"({"train_batch_size": 32, "train_micro_batch_size_per_gpu": 4,
                                                   "gradient_accumulation_steps": 2, "zero_optimization": {"stage": 1}})"
                                              << "hf-trainer"
                                              << "/train_batch_size"
                                              << R"("auto")"
                                              << "deepspeed --num_gpus 4 \\";
        QTest::newRow("16 GPUs from the file") << R"({"train_batch_size": 96, "train_micro_batch_size_per_gpu": 2,
                                                    "gradient_accumulation_steps": 3, "zero_optimization": {"stage": 1}})"
                                               << "deepspeed"
                                               << "/train_batch_size"
                                               << "96"
                                               << "deepspeed --hostfile hostfile --num_nodes 2 --num_gpus 8 \\";
        QTest::newRow("1 GPU from the file") << R"({"train_batch_size": 1, "zero_optimization": {"stage": 1}})"
                                             << "hf-trainer"
                                             << "/train_micro_batch_size_per_gpu"
                                             << R"("auto")"
                                             << "deepspeed --num_gpus 1 \\";
        // Placeholders stay in the file (the linter reports them), never reach a flag.
        QTest::newRow("placeholder lr") << R"({"optimizer": {"type": "AdamW", "params": {"lr": "<lr>"}},
                                             "zero_optimization": {"stage": 1}})"
                                        << "hf-trainer"
                                        << "/optimizer/params/lr"
                                        << R"("<lr>")"
                                        << "";
        // "auto" already in the file: launch.sh has no value for the flag, and says so (a re-imported HF export).
        QTest::newRow("auto without a value") << R"({"train_micro_batch_size_per_gpu": "auto",
                                                    "zero_optimization": {"stage": 1}})"
                                              << "hf-trainer"
                                              << "/train_micro_batch_size_per_gpu"
                                              << R"("auto")"
                                              << "#   /train_micro_batch_size_per_gpu <- per_device_train_batch_size "
                                                 "[FILL IN: your config said \"auto\"; the wizard does not know the "
                                                 "value]";
    }
    void hfFormMeetsItsReader()
    {
        QFETCH(QString, config);
        QFETCH(QString, launcher);
        QFETCH(QString, pointer);
        QFETCH(QString, value);
        QFETCH(QString, launch);
        const auto files = exportFiles(oj::parse(config.toStdString()), answersFrom({"software.launcher=" + launcher}),
                                       ExportTarget::Bundle);
        const oj out = oj::parse(contentOf(files, "ds_config.json"));
        const oj::json_pointer p(pointer.toStdString());
        if (value == "absent")
            QVERIFY2(!out.contains(p), out.dump().c_str());
        else
            JSON_COMPARE(out.value(p, oj()), oj::parse(value.toStdString()));
        const QString script = q(contentOf(files, "launch.sh"));
        QVERIFY2(launch.isEmpty() || script.split('\n').contains(launch), qPrintable(script));
        QVERIFY2(!script.contains("<lr>"), qPrintable(script));
    }

    // What the bundle cannot be, and why (exportRefusal): the readers of a pipeline plan, an Accelerate YAML for
    // another launcher.
    void refusals_data()
    {
        QTest::addColumn<QStringList>("answers");
        QTest::addColumn<QString>("target");
        QTest::addColumn<QString>("says"); // "" when exported
        for (const QString t : {"hf-json", "launch", "bundle"}) {
            QTest::newRow(qPrintable("pipeline, Trainer, " + t))
                << QStringList{"software.launcher=hf-trainer", "pipeline.stages=2"} << t << "PipelineModule";
            QTest::newRow(qPrintable("pipeline, Accelerate, " + t))
                << QStringList{"software.launcher=accelerate", "pipeline.stages=4"} << t << "4 times the plan's batch";
            QTest::newRow(qPrintable("pipeline, DeepSpeed, " + t))
                << QStringList{"software.launcher=deepspeed", "pipeline.stages=2"} << t << "";
        }
        QTest::newRow("pipeline, Trainer, strict JSON")
            << QStringList{"software.launcher=hf-trainer", "pipeline.stages=2"} << "deepspeed-json"
            << "";
        QTest::newRow("Trainer, Accelerate YAML") << QStringList{"software.launcher=hf-trainer"} << "accelerate-yaml"
                                                  << "software.launcher = accelerate";
        QTest::newRow("Accelerate, Accelerate YAML") << QStringList{"software.launcher=accelerate"} << "accelerate-yaml"
                                                     << "";
    }
    void refusals()
    {
        QFETCH(QStringList, answers);
        QFETCH(QString, target);
        QFETCH(QString, says);
        const Answers a = answersFrom(answers);
        const ExportTarget t = *exportTargetFromName(target.toStdString());
        const std::string why = exportRefusal(a, t);
        QVERIFY2(says.isEmpty() ? why.empty() : q(why).contains(says), why.c_str());
        QCOMPARE(exportFiles(zero2Config(), a, t).empty(), !says.isEmpty());
    }

    void shellQuoteWords_data()
    {
        QTest::addColumn<QString>("word");
        QTest::addColumn<QString>("quoted"); // by hand: POSIX single quotes, ' as '\''
        QTest::newRow("plain") << "ds_config.json"
                               << "ds_config.json";
        QTest::newRow("path") << "/opt/run-1/train.py"
                              << "/opt/run-1/train.py";
        QTest::newRow("space") << "my train.py"
                               << "'my train.py'";
        QTest::newRow("quote") << "it's.py"
                               << "'it'\\''s.py'";
        QTest::newRow("dollar") << "$HOME"
                                << "'$HOME'";
        QTest::newRow("tilde") << "~/x.py"
                               << "'~/x.py'";
        QTest::newRow("empty") << ""
                               << "''";
    }
    void shellQuoteWords()
    {
        QFETCH(QString, word);
        QFETCH(QString, quoted);
        QCOMPARE(q(shellQuote(word.toStdString())), quoted);
    }

    void hostfile_data()
    {
        QTest::addColumn<int>("nodes");
        QTest::addColumn<int>("gpusPerNode");
        QTest::addColumn<QStringList>("hosts");
        QTest::newRow("2x8") << 2 << 8 << QStringList{"node-1 slots=8", "node-2 slots=8"};
        QTest::newRow("3x4") << 3 << 4 << QStringList{"node-1 slots=4", "node-2 slots=4", "node-3 slots=4"};
    }
    void hostfile()
    {
        QFETCH(int, nodes);
        QFETCH(int, gpusPerNode);
        QFETCH(QStringList, hosts);
        const auto files = exportFiles(zero2Config(), cluster("deepspeed", nodes, gpusPerNode), ExportTarget::Launch);
        QStringList entries;
        // DeepSpeed's parser (launcher/runner.py): '#' lines are comments, the rest must match this.
        const QRegularExpression entry(R"(^(\S+)\s+slots=(\d+))");
        for (const QString& line : q(contentOf(files, "hostfile")).split('\n', Qt::SkipEmptyParts)) {
            if (line.trimmed().startsWith('#'))
                continue;
            QVERIFY2(entry.match(line.trimmed()).hasMatch(), qPrintable(line));
            entries << line;
        }
        QCOMPARE(entries, hosts);
        QVERIFY(q(contentOf(files, "hostfile")).contains("FILL IN"));
    }

    void yamlScalarsReadBack_data()
    {
        QTest::addColumn<QString>("value");
        QTest::addColumn<bool>("plain"); // by hand: a word starting with a letter, not a YAML bool/null
        QTest::newRow("file name") << "ds_config.json" << true;
        QTest::newRow("enum") << "LOCAL_MACHINE" << true;
        QTest::newRow("space") << "my dir/ds config.json" << false;
        QTest::newRow("colon") << "a: b" << false;
        QTest::newRow("hash") << "# not a comment" << false;
        QTest::newRow("true") << "true" << false;
        QTest::newRow("Yes") << "Yes" << false;
        QTest::newRow("off") << "off" << false;
        QTest::newRow("null") << "null" << false;
        QTest::newRow("tilde") << "~" << false;
        QTest::newRow("integer") << "29500" << false;
        QTest::newRow("exponent") << "1e5" << false;
        QTest::newRow("quote and backslash") << "say \"hi\" \\ there" << false;
        QTest::newRow("control") << "tab\there\nnewline\x01" << false;
        QTest::newRow("unicode") << QString::fromUtf8("d\xc3\xa9j\xc3\xa0 vu.json") << false;
        QTest::newRow("indicators") << "*alias &anchor !tag [x] {y} |z >w %v @u `t`" << false;
        QTest::newRow("empty") << "" << false;
    }
    void yamlScalarsReadBack()
    {
        QFETCH(QString, value);
        QFETCH(bool, plain);
        const std::string v = value.toStdString();
        QCOMPARE(YamlWriter::scalar(v) == v, plain);
        YamlWriter w;
        w.beginMap("outer");
        w.text("key", v, "a comment\nthat tries a second line");
        w.endMap();
        std::map<std::string, YamlScalar> y;
        QString error;
        QVERIFY2(parseYaml(w.str(), y, error), qPrintable(error + "\n" + q(w.str())));
        QCOMPARE(y.size(), std::size_t(1));
        QCOMPARE(q(y.at("outer.key").text), value);
        QCOMPARE(y.at("outer.key").quoted, !plain);
    }

    // LoRA and QLoRA: every launcher's bundle carries peft_setup.py with the adapters the plan sized; the Trainer's
    // launch.sh passes them as TRL's ModelConfig arguments (trl/trainer/model_config.py); QLoRA stores its 4-bit
    // weights in the dtype the config trains in (PEFT's DeepSpeed guide); at ZeRO-3 plain DeepSpeed gathers the
    // adapter before saving it and loads the model under zero.Init.
    void adaptersInEveryBundle_data()
    {
        QTest::addColumn<QString>("launcher");
        QTest::addColumn<QString>("method");
        QTest::addColumn<QString>("config");
        for (const QString launcher : {"deepspeed", "hf-trainer", "accelerate"})
            for (const QString method : {"lora", "qlora"})
                for (const QString config : {"zero2", "zero3"})
                    QTest::newRow(qPrintable(launcher + " " + method + " " + config)) << launcher << method << config;
    }
    void adaptersInEveryBundle()
    {
        QFETCH(QString, launcher);
        QFETCH(QString, method);
        QFETCH(QString, config);
        const Answers a =
            answersFrom({"software.launcher=" + launcher, "hardware.nodes=1", "hardware.gpus_per_node=8",
                         "training.method=" + method, "lora.rank=16", "lora.alpha=32", "lora.dropout=0.05",
                         "lora.targets=attention", "lora.modules_to_save=embed_tokens", "model.attention_impl=flash"});
        const auto files = exportFiles(configNamed(config), a, ExportTarget::Bundle);
        const std::string peft = contentOf(files, "peft_setup.py");
        QVERIFY2(!peft.empty(), "the bundle has peft_setup.py");
        const bool qlora = method == "qlora", zero3 = config == "zero3";
        const std::string dtype = zero3 ? "float16" : "bfloat16"; // zero3Config trains in fp16, zero2Config in bf16
        for (const std::string& line :
             {std::string("    r=16,"), std::string("    lora_alpha=32,"), std::string("    lora_dropout=0.05,"),
              std::string("    target_modules=[\"q_proj\", \"k_proj\", \"v_proj\", \"o_proj\"],"),
              std::string("    modules_to_save=[\"embed_tokens\"],"), "DTYPE = torch." + dtype,
              std::string("        attn_implementation=\"flash_attention_2\","),
              std::string("    return get_peft_model(model, peft_config)")})
            QVERIFY2(peft.find(line) != std::string::npos, qPrintable(q(line) + "\n" + q(peft)));
        QCOMPARE(peft.find("bnb_4bit_quant_storage=DTYPE") != std::string::npos, qlora);
        QCOMPARE(peft.find("load_in_4bit=True") != std::string::npos, qlora);
        // Below ZeRO-3 each rank quantizes on its own GPU; at ZeRO-3 the weights are partitioned instead.
        QCOMPARE(peft.find("LOCAL_RANK") != std::string::npos, qlora && !zero3);
        const bool plain = launcher == "deepspeed";
        QCOMPARE(peft.find("deepspeed.zero.GatheredParameters") != std::string::npos, plain && zero3);
        QCOMPARE(peft.find("HfDeepSpeedConfig(config)") != std::string::npos, plain && zero3);
        QCOMPARE(peft.find("deepspeed.initialize(") != std::string::npos, plain);
        QCOMPARE(peft.find("DummyOptim") != std::string::npos, launcher == "accelerate");
        if (!QStandardPaths::findExecutable("python3").isEmpty()) { // Debian 12 has it; the file must parse
            QProcess python;
            python.start("python3", {"-c", "import ast, sys; ast.parse(sys.stdin.read())"});
            python.write(QByteArray::fromStdString(peft));
            python.closeWriteChannel();
            QVERIFY(python.waitForFinished(10000));
            QVERIFY2(python.exitCode() == 0, python.readAllStandardError().constData());
        }
        const std::string script = contentOf(files, "launch.sh");
        QVERIFY(script.find("peft_setup.py") != std::string::npos);
        if (launcher != "hf-trainer" || bashPath().isEmpty())
            return;
        const QStringList ran = runLaunchScript(script);
        auto after = [&](const QString& flag) {
            return ran.indexOf(flag) < 0 ? QString() : ran.value(ran.indexOf(flag) + 1);
        };
        QVERIFY(ran.contains("--use_peft"));
        QCOMPARE(after("--lora_r"), QStringLiteral("16"));
        QCOMPARE(after("--lora_alpha"), QStringLiteral("32"));
        QCOMPARE(after("--lora_dropout"), QStringLiteral("0.05"));
        QCOMPARE(ran.mid(ran.indexOf("--lora_target_modules") + 1, 4),
                 (QStringList{"q_proj", "k_proj", "v_proj", "o_proj"}));
        QCOMPARE(after("--lora_modules_to_save"), QStringLiteral("embed_tokens"));
        QCOMPARE(after("--dtype"), q(dtype));
        QCOMPARE(after("--attn_implementation"), QStringLiteral("flash_attention_2"));
        QCOMPARE(ran.contains("--load_in_4bit"), qlora);
        QCOMPARE(after("--bnb_4bit_quant_storage"), qlora ? q(dtype) : QString());
        QCOMPARE(ran.last(), QStringLiteral("ds_config.json")); // --deepspeed ds_config.json still ends the command
    }
};

QTEST_APPLESS_MAIN(TestConfigExport)
#include "TestConfigExport.moc"
