// The one registry of inputs (models/project/InputRegistry.h) and the defaults Answers derives from it:
// counts as people write them, validation messages that name the input and what is allowed,
// case-insensitive GPU ids, the foundation's ids with help and a page, and derived defaults.
#include "TestAnswers.h"
#include "knowledge/GpuCatalog.h"
#include "knowledge/ModelCatalog.h"
#include "project/Answers.h"
#include "project/InputRegistry.h"
#include "util/Count.h"

#include <QTest>

#include <algorithm>
#include <cmath>
#include <set>

using namespace dsw;
using namespace dsw::test;
using json = nlohmann::json;

Q_DECLARE_METATYPE(std::string)

namespace {

const InputRegistry& reg() { return InputRegistry::instance(); }

const std::set<std::string>& workflowIdsFromDesign()
{
    static const std::set<std::string> ids = {"zero", "precision", "pipeline", "memory", "nvme", "onebit", "sparse"};
    return ids;
}

} // namespace

class TestInputRegistry : public QObject {
    Q_OBJECT
private slots:
    // First, while the registry is fresh: model.preset's values (added when it is first looked at) are "none" and
    // the catalog's ids in order, whichever way a caller reaches the spec.
    void presetValuesAreTheCatalog()
    {
        std::vector<std::string> expected = {"none"};
        for (const ModelSpec& model : ModelCatalog::instance().all())
            expected.push_back(model.id);
        QVERIFY(expected.size() > 25);
        const InputSpec* found = reg().find("model.preset");
        QVERIFY(found);
        QCOMPARE(found->values, expected);
        const auto onSetup = reg().onPage("setup");
        const auto it =
            std::find_if(onSetup.begin(), onSetup.end(), [](const InputSpec* s) { return s->id == "model.preset"; });
        QVERIFY(it != onSetup.end());
        QCOMPARE((*it)->values, expected);
        QCOMPARE(reg().all().front().id, std::string("model.preset"));
        QCOMPARE(reg().all().front().values, expected);
        QCOMPARE(
            InputRegistry::allowed(*found), "one of: " + [&] {
                std::string joined;
                for (const auto& v : expected)
                    joined += (joined.empty() ? "" : ", ") + v;
                return joined;
            }());
        QVERIFY(reg().parse("model.preset", "none"));
        QVERIFY(!reg().parse("model.preset", "no-such-model"));
    }

    // ---- counts -------------------------------------------------------------------------------
    void countsAccepted_data()
    {
        QTest::addColumn<QString>("text");
        QTest::addColumn<qint64>("expected");
        QTest::newRow("7B") << "7B" << qint64(7000000000LL);
        QTest::newRow("7b lower case") << "7b" << qint64(7000000000LL);
        QTest::newRow("350M") << "350M" << qint64(350000000LL);
        QTest::newRow("1.3e9") << "1.3e9" << qint64(1300000000LL);
        QTest::newRow("1.3B") << "1.3B" << qint64(1300000000LL);
        QTest::newRow("7000000000") << "7000000000" << qint64(7000000000LL);
        QTest::newRow("7,000,000,000") << "7,000,000,000" << qint64(7000000000LL);
        QTest::newRow("175B") << "175B" << qint64(175000000000LL);
        QTest::newRow("2.7e9 with spaces") << " 2.7e9 " << qint64(2700000000LL);
        QTest::newRow("1T") << "1T" << qint64(1000000000000LL);
    }
    void countsAccepted()
    {
        QFETCH(QString, text);
        QFETCH(qint64, expected);
        const auto direct = parseCount(text.toStdString());
        QVERIFY(direct.has_value());
        QCOMPARE(qint64(*direct), expected);

        const auto viaRegistry = reg().parse("model.params", text.toStdString());
        QVERIFY2(viaRegistry.ok(), viaRegistry.ok() ? "" : viaRegistry.error().c_str());
        QVERIFY(viaRegistry.value().is_number_integer());
        QCOMPARE(qint64(viaRegistry.value().get<std::int64_t>()), expected);

        // A project file may hold the same as a JSON string; it gives the same integer.
        const auto viaValidate = reg().validate("model.params", json(text.toStdString()));
        QVERIFY(viaValidate.ok());
        QCOMPARE(qint64(viaValidate.value().get<std::int64_t>()), expected);
    }

    void countsRejectedByParser_data()
    {
        QTest::addColumn<QString>("text");
        QTest::newRow("empty") << "";
        QTest::newRow("word") << "seven";
        QTest::newRow("negative") << "-7B";
        QTest::newRow("fraction") << "1.5";
        QTest::newRow("fraction of a count") << "1.2345678905B"; // 1234567890.5
        QTest::newRow("fraction above a million") << "1000000.5";
        QTest::newRow("fraction of a large count") << "70000000000.25";
        QTest::newRow("unknown suffix") << "7X";
        QTest::newRow("suffix only") << "B";
        QTest::newRow("two numbers") << "7 8 9x";
    }
    void countsRejectedByParser()
    {
        QFETCH(QString, text);
        QVERIFY(!parseCount(text.toStdString()).has_value());
    }

    // ---- bad values ---------------------------------------------------------------------------
    // parse(): text as typed in a field or given to --set. Each message must name the id and say
    // what is allowed (checked through a fragment of the allowed text).
    void badTypedValues_data()
    {
        QTest::addColumn<std::string>("id");
        QTest::addColumn<QString>("text");
        QTest::addColumn<QString>("allowedFragment");
        QTest::newRow("params not a number") << std::string("model.params") << "lots"
                                             << "7B";
        QTest::newRow("params too small") << std::string("model.params") << "10"
                                          << "1M";
        QTest::newRow("params negative") << std::string("model.params") << "-7B"
                                         << "7B";
        QTest::newRow("nodes zero") << std::string("hardware.nodes") << "0"
                                    << "1 to 100000";
        QTest::newRow("nodes fraction") << std::string("hardware.nodes") << "1.5"
                                        << "whole number";
        QTest::newRow("nodes with suffix") << std::string("hardware.nodes") << "2k"
                                           << "whole number";
        QTest::newRow("gpus per node too many") << std::string("hardware.gpus_per_node") << "65"
                                                << "1 to 64";
        QTest::newRow("cpu memory not a number") << std::string("hardware.cpu_memory_gib") << "big"
                                                 << "number from 1";
        QTest::newRow("cpu memory zero") << std::string("hardware.cpu_memory_gib") << "0"
                                         << "number from 1";
        QTest::newRow("micro batch zero") << std::string("training.micro_batch_size") << "0"
                                          << "1 to 65536";
        QTest::newRow("unknown GPU") << std::string("hardware.gpu") << "Z100"
                                     << "A100-80GB";
        QTest::newRow("unknown GPU, close name") << std::string("hardware.gpu") << "A100"
                                                 << "H100-80GB";
        QTest::newRow("unknown nvme choice") << std::string("hardware.nvme") << "ssd"
                                             << "one of: none, nvme";
        QTest::newRow("unknown precision") << std::string("training.precision") << "fp4"
                                           << "fp16, bf16, fp8";
        QTest::newRow("unknown launcher") << std::string("software.launcher") << "torchrun"
                                          << "deepspeed, hf-trainer, accelerate";
        QTest::newRow("checkpointing yes") << std::string("training.activation_checkpointing") << "yes"
                                           << "auto, on, off";
        QTest::newRow("stage 4") << std::string("zero.stage") << "4"
                                 << "0, 1, 2, 3";
    }
    void badTypedValues()
    {
        QFETCH(std::string, id);
        QFETCH(QString, text);
        QFETCH(QString, allowedFragment);
        const auto r = reg().parse(id, text.toStdString());
        QVERIFY2(!r.ok(), qPrintable("accepted " + text));
        const QString message = q(r.error());
        QVERIFY2(message.contains(q(id)), qPrintable(message));
        QVERIFY2(message.contains(allowedFragment), qPrintable(message));
        QVERIFY2(text.isEmpty() || message.contains(text), qPrintable(message)); // the rejected value is quoted
    }

    // validate(): values read from a project file, already JSON.
    void badJsonValues_data()
    {
        QTest::addColumn<std::string>("id");
        QTest::addColumn<QString>("jsonText");
        QTest::addColumn<QString>("allowedFragment");
        QTest::newRow("nodes negative") << std::string("hardware.nodes") << "-3"
                                        << "1 to 100000";
        QTest::newRow("nodes bool") << std::string("hardware.nodes") << "true"
                                    << "1 to 100000";
        QTest::newRow("nodes fraction") << std::string("hardware.nodes") << "2.5"
                                        << "whole number";
        QTest::newRow("nodes object") << std::string("hardware.nodes") << R"({"n":2})"
                                      << "1 to 100000";
        QTest::newRow("params null") << std::string("model.params") << "null"
                                     << "7B";
        QTest::newRow("params array") << std::string("model.params") << "[7000000000]"
                                      << "7B";
        QTest::newRow("gpu as number") << std::string("hardware.gpu") << "100"
                                       << "A100-80GB";
        QTest::newRow("gpu unknown") << std::string("hardware.gpu") << R"("nope")"
                                     << "A100-80GB";
        QTest::newRow("precision as bool") << std::string("training.precision") << "true"
                                           << "bf16";
        QTest::newRow("nvme path as number") << std::string("hardware.nvme_path") << "7"
                                             << "text";
        QTest::newRow("gpu memory too big") << std::string("hardware.gpu_memory_gib") << "100000"
                                            << "number from 1 to 4096";
    }
    void badJsonValues()
    {
        QFETCH(std::string, id);
        QFETCH(QString, jsonText);
        QFETCH(QString, allowedFragment);
        const auto r = reg().validate(id, json::parse(jsonText.toStdString()));
        QVERIFY2(!r.ok(), qPrintable("accepted " + jsonText));
        const QString message = q(r.error());
        QVERIFY2(message.contains(q(id)), qPrintable(message));
        QVERIFY2(message.contains(allowedFragment), qPrintable(message));
    }

    void unknownIdNamed_data()
    {
        QTest::addColumn<std::string>("id");
        QTest::newRow("typo") << std::string("model.parms");
        QTest::newRow("no namespace") << std::string("nodes");
        QTest::newRow("empty") << std::string("");
        QTest::newRow("case differs") << std::string("Hardware.Nodes");
    }
    void unknownIdNamed()
    {
        QFETCH(std::string, id);
        QVERIFY(reg().find(id) == nullptr);
        const auto parsed = reg().parse(id, "2");
        QVERIFY(!parsed.ok());
        QVERIFY2(q(parsed.error()).contains("'" + q(id) + "'"), parsed.error().c_str());
        QVERIFY2(q(parsed.error()).contains("unknown"), parsed.error().c_str());
        const auto validated = reg().validate(id, json(2));
        QVERIFY(!validated.ok());
        QVERIFY2(q(validated.error()).contains("'" + q(id) + "'"), validated.error().c_str());
    }

    void goodValuesNormalised_data()
    {
        QTest::addColumn<std::string>("id");
        QTest::addColumn<QString>("text");
        QTest::addColumn<QString>("expectedJson");
        QTest::newRow("nodes") << std::string("hardware.nodes") << "4"
                               << "4";
        QTest::newRow("nodes 1e2") << std::string("hardware.nodes") << "1e2"
                                   << "100";
        QTest::newRow("gpus per node max") << std::string("hardware.gpus_per_node") << "64"
                                           << "64";
        QTest::newRow("cpu memory real") << std::string("hardware.cpu_memory_gib") << "1536.5"
                                         << "1536.5";
        QTest::newRow("choice") << std::string("hardware.nvme") << "nvme"
                                << R"("nvme")";
        QTest::newRow("stage") << std::string("zero.stage") << "3"
                               << R"("3")";
        QTest::newRow("text keeps =") << std::string("hardware.nvme_path") << "/mnt/a=b"
                                      << R"("/mnt/a=b")";
        QTest::newRow("version text") << std::string("software.deepspeed_version") << "0.16.3"
                                      << R"("0.16.3")";
        // Units where they are natural: memory is sized in binary units (a vendor's TB of RAM is 1024 GiB).
        QTest::newRow("host RAM 1TB") << std::string("hardware.cpu_memory_gib") << "1TB"
                                      << "1024.0";
        QTest::newRow("host RAM 1 TiB") << std::string("hardware.cpu_memory_gib") << "1 TiB"
                                        << "1024.0";
        QTest::newRow("host RAM 1024 GiB") << std::string("hardware.cpu_memory_gib") << "1024 GiB"
                                           << "1024.0";
        QTest::newRow("host RAM 512 gb") << std::string("hardware.cpu_memory_gib") << "512 gb"
                                         << "512.0";
        QTest::newRow("GPU memory 80GB") << std::string("hardware.gpu_memory_gib") << "80GB"
                                         << "80.0";
        QTest::newRow("bandwidth 400Gbps") << std::string("hardware.inter_node_gbps") << "400Gbps"
                                           << "400.0";
        QTest::newRow("bandwidth 200 Gb/s") << std::string("hardware.inter_node_gbps") << "200 Gb/s"
                                            << "200.0";
        QTest::newRow("bandwidth 50 GB/s is bytes") << std::string("hardware.inter_node_gbps") << "50 GB/s"
                                                    << "400.0";
        QTest::newRow("bandwidth 1.6 Tbps") << std::string("hardware.inter_node_gbps") << "1.6 Tbps"
                                            << "1600.0";
        QTest::newRow("GPUs with their unit") << std::string("hardware.gpus_per_node") << "8 GPUs"
                                              << "8";
        QTest::newRow("one GPU") << std::string("hardware.gpus_per_node") << "1 gpu"
                                 << "1";
        QTest::newRow("tokens") << std::string("model.seq_len") << "4096 tokens"
                                << "4096";
        QTest::newRow("params 13B still a count") << std::string("model.params") << "13B"
                                                  << "13000000000";
    }
    void anSsdsTerabyteIsDecimal()
    {
        const auto r = reg().parse("hardware.nvme_capacity_gib", "1 TB");
        QVERIFY(r.ok());
        QVERIFY(std::abs(r.value().get<double>() - 1e12 / 1073741824.0) < 1e-9);
        QCOMPARE(reg().parse("hardware.nvme_capacity_gib", "2 TiB").value().get<double>(), 2048.0);
    }
    void aUnitTheInputDoesNotTakeIsRefused_data()
    {
        QTest::addColumn<std::string>("id");
        QTest::addColumn<QString>("text");
        QTest::newRow("bandwidth in a memory field") << std::string("hardware.cpu_memory_gib") << "400 Gbps";
        QTest::newRow("petabytes") << std::string("hardware.cpu_memory_gib") << "1 PB";
        QTest::newRow("half typed") << std::string("hardware.cpu_memory_gib") << "1 T B";
        QTest::newRow("memory in a bandwidth field") << std::string("hardware.inter_node_gbps") << "100 GiB";
        QTest::newRow("tokens for nodes") << std::string("hardware.nodes") << "4 tokens";
    }
    void aUnitTheInputDoesNotTakeIsRefused()
    {
        QFETCH(std::string, id);
        QFETCH(QString, text);
        const auto r = reg().parse(id, text.toStdString());
        QVERIFY2(!r.ok(), qPrintable("accepted " + text));
        QVERIFY2(q(r.error()).contains(q(id)) && q(r.error()).contains(text), r.error().c_str());
    }
    void goodValuesNormalised()
    {
        QFETCH(std::string, id);
        QFETCH(QString, text);
        QFETCH(QString, expectedJson);
        const auto r = reg().parse(id, text.toStdString());
        QVERIFY2(r.ok(), r.ok() ? "" : r.error().c_str());
        JSON_COMPARE(r.value(), json::parse(expectedJson.toStdString()));
    }

    // ---- GPUs ---------------------------------------------------------------------------------
    void gpuIdsCaseInsensitive_data()
    {
        QTest::addColumn<QString>("canonical");
        for (const char* id : {"A100-80GB", "A100-40GB", "V100-32GB", "V100-16GB", "H100-80GB", "H200", "RTX-4090",
                               "T4", "L40S", "MI300X"})
            QTest::newRow(id) << QString::fromLatin1(id);
    }
    void gpuIdsCaseInsensitive()
    {
        QFETCH(QString, canonical);
        for (const QString& typed :
             {canonical, canonical.toLower(), canonical.toUpper(), canonical.left(1).toLower() + canonical.mid(1)}) {
            const auto r = reg().parse("hardware.gpu", typed.toStdString());
            QVERIFY2(r.ok(), qPrintable(typed));
            QCOMPARE(q(r.value().get<std::string>()), canonical);
            const auto v = reg().validate("hardware.gpu", json(typed.toStdString()));
            QVERIFY2(v.ok(), qPrintable(typed));
            QCOMPARE(q(v.value().get<std::string>()), canonical);
            const GpuSpec* gpu = GpuCatalog::instance().find(typed.toStdString());
            QVERIFY(gpu);
            QCOMPARE(q(gpu->id), canonical);
        }
    }

    void gpuAllowedListsEveryCatalogId()
    {
        const InputSpec* spec = reg().find("hardware.gpu");
        QVERIFY(spec);
        QCOMPARE(int(spec->type), int(InputType::Gpu));
        const QString allowed = q(InputRegistry::allowed(*spec));
        QVERIFY(GpuCatalog::instance().ids().size() >= 10);
        for (const auto& id : GpuCatalog::instance().ids())
            QVERIFY2(allowed.contains(q(id)), qPrintable(q(id) + " missing from: " + allowed));
    }

    // ---- the foundation's ids ------------------------------------------------------------------
    void foundationIdsExist_data()
    {
        QTest::addColumn<std::string>("id");
        QTest::addColumn<int>("type");
        QTest::addColumn<QStringList>("values"); // for choices: exactly these
        const int count = int(InputType::Count), integer = int(InputType::Integer), number = int(InputType::Number),
                  choice = int(InputType::Choice), gpu = int(InputType::Gpu), text = int(InputType::Text);
        auto row = [](const char* id, int type, QStringList values = {}) {
            QTest::newRow(id) << std::string(id) << type << values;
        };
        row("model.params", count);
        row("model.layers", integer);
        row("model.hidden_size", integer);
        row("model.attention_heads", integer);
        row("model.vocab_size", integer);
        row("model.seq_len", integer);
        row("model.largest_layer_params", count);
        row("hardware.gpu", gpu);
        row("hardware.gpu_memory_gib", number);
        row("hardware.gpus_per_node", integer);
        row("hardware.nodes", integer);
        row("hardware.cpu_memory_gib", number);
        row("hardware.nvme", choice, {"none", "nvme"});
        row("hardware.nvme_path", text);
        row("training.micro_batch_size", integer);
        row("training.global_batch_size", integer);
        row("training.gradient_accumulation_steps", integer);
        row("training.optimizer", choice);
        row("training.precision", choice, {"auto", "fp16", "bf16", "fp8", "fp32"});
        row("training.activation_checkpointing", choice, {"auto", "on", "off"});
        row("software.deepspeed_version", text);
        row("software.torch_version", text);
        row("software.launcher", choice, {"deepspeed", "hf-trainer", "accelerate"});
    }
    void foundationIdsExist()
    {
        QFETCH(std::string, id);
        QFETCH(int, type);
        QFETCH(QStringList, values);
        const InputSpec* spec = reg().find(id);
        QVERIFY2(spec, id.c_str());
        QCOMPARE(spec->id, id);
        QCOMPARE(int(spec->type), type);
        if (!values.isEmpty()) {
            QStringList actual;
            for (const auto& v : spec->values)
                actual << q(v);
            QCOMPARE(actual, values);
        }
    }

    void foundationDefaults()
    {
        auto def = [](const char* id) { return reg().find(id)->defaultValue; };
        JSON_COMPARE(def("training.activation_checkpointing"), json("auto"));
        JSON_COMPARE(def("hardware.nvme"), json("none"));
        JSON_COMPARE(def("software.launcher"), json("deepspeed"));
        JSON_COMPARE(def("training.precision"), json("auto"));
        // Derived inputs have no fixed default but say how they are derived.
        for (const char* id : {"hardware.gpu_memory_gib", "model.largest_layer_params", "training.global_batch_size",
                               "hardware.nics_per_node"}) {
            QVERIFY2(def(id).is_null(), id);
            QVERIFY2(!reg().find(id)->derivedDefault.empty(), id);
        }
    }

    // The NIC count follows the GPU and the network: one per GPU on DGX/HGX SXM nodes with InfiniBand (or 200G
    // RoCE), else 1; a count given wins.
    void nicsPerNodeFollowsTheGpu_data()
    {
        QTest::addColumn<QStringList>("settings");
        QTest::addColumn<qint64>("nics");
        QTest::newRow("A100 SXM, 8 GPUs") << QStringList{"hardware.gpu=A100-80GB"} << qint64(8);
        QTest::newRow("H100 SXM, 4 GPUs")
            << QStringList{"hardware.gpu=h100-80gb", "hardware.gpus_per_node=4"} << qint64(4);
        QTest::newRow("H200") << QStringList{"hardware.gpu=H200"} << qint64(8);
        QTest::newRow("A100 PCIe") << QStringList{"hardware.gpu=A100-PCIE-80GB"} << qint64(1);
        QTest::newRow("RTX 4090") << QStringList{"hardware.gpu=RTX-4090"} << qint64(1);
        QTest::newRow("A100 SXM, Ethernet")
            << QStringList{"hardware.gpu=A100-80GB", "hardware.inter_node_network=ethernet-100g"} << qint64(1);
        QTest::newRow("H100 SXM, EFA (the instance's rate)")
            << QStringList{"hardware.gpu=H100-80GB", "hardware.inter_node_network=efa"} << qint64(1);
        QTest::newRow("given") << QStringList{"hardware.gpu=H100-80GB", "hardware.nics_per_node=2"} << qint64(2);
    }
    void nicsPerNodeFollowsTheGpu()
    {
        QFETCH(QStringList, settings);
        QFETCH(qint64, nics);
        QCOMPARE(answersFrom(settings).integer("hardware.nics_per_node"), nics);
    }

    void everySpecIsComplete()
    {
        std::set<std::string> ids;
        QVERIFY(reg().all().size() >= 23);
        for (const auto& s : reg().all()) {
            const QByteArray name = QByteArray::fromStdString(s.id);
            QVERIFY2(ids.insert(s.id).second, "duplicate id " + name);
            QVERIFY2(s.id.find('.') != std::string::npos, "not dotted: " + name);
            QVERIFY2(!s.help.empty(), "no help: " + name);
            QVERIFY2(!s.label.empty(), "no label: " + name);
            QVERIFY2(!s.page.empty(), "no page: " + name);
            QVERIFY2(s.page == "setup" || workflowIdsFromDesign().count(s.page), "unknown page for " + name);
            QVERIFY2(!s.workflows.empty(), "used by no workflow: " + name);
            for (const auto& w : s.workflows)
                QVERIFY2(workflowIdsFromDesign().count(w), "unknown workflow for " + name);
            QVERIFY2(!InputRegistry::allowed(s).empty(), "no allowed text: " + name);
            QVERIFY2(reg().onPage(s.page).size() >= 1, name);

            // A fixed default must itself be a valid value (the form starts from it).
            if (!s.defaultValue.is_null()) {
                const auto r = reg().validate(s.id, s.defaultValue);
                QVERIFY2(r.ok(),
                         qPrintable(q(s.id) + ": default " + q(s.defaultValue.dump())
                                    + " invalid: " + (r.ok() ? QString() : q(r.error()))));
            } else {
                QVERIFY2(!s.derivedDefault.empty() || s.required, "no default and not derived or required: " + name);
            }
            if (s.type == InputType::Choice)
                QVERIFY2(s.values.size() >= 2, name);
            if (s.type == InputType::Count || s.type == InputType::Integer || s.type == InputType::Number)
                QVERIFY2(s.min <= s.max && s.max > 0, name);
        }
    }

    // The allowed range is shown to users in messages and `ds-wizard keys`: it must state the real bounds,
    // not a rounded exponent form such as "1.04858e+06" (which is less than the real maximum 1048576).
    void allowedRangesExact_data()
    {
        QTest::addColumn<std::string>("id");
        QTest::addColumn<QString>("expected");
        QTest::newRow("nodes") << std::string("hardware.nodes") << "a whole number from 1 to 100000";
        QTest::newRow("cpu memory") << std::string("hardware.cpu_memory_gib")
                                    << "a number from 1 to 1048576 GiB (GiB, TiB, GB, TB also accepted; GB and TB are "
                                       "read as GiB and TiB, as memory is sized)";
        QTest::newRow("vocab") << std::string("model.vocab_size") << "a whole number from 1 to 10000000";
        QTest::newRow("seq len") << std::string("model.seq_len") << "a whole number from 1 to 100000000";
        QTest::newRow("global batch") << std::string("training.global_batch_size")
                                      << "a whole number from 1 to 1000000000";
        QTest::newRow("gpu memory") << std::string("hardware.gpu_memory_gib")
                                    << "a number from 1 to 4096 GiB (GiB, TiB, GB, TB also accepted; GB and TB are "
                                       "read as GiB and TiB, as memory is sized)";
        QTest::newRow("nvme") << std::string("hardware.nvme") << "one of: none, nvme";
    }
    void allowedRangesExact()
    {
        QFETCH(std::string, id);
        QFETCH(QString, expected);
        const InputSpec* spec = reg().find(id);
        QVERIFY(spec);
        QCOMPARE(q(InputRegistry::allowed(*spec)), expected);
        // The maximum itself is accepted and one more is not (for whole numbers).
        if (spec->type == InputType::Integer) {
            const auto max = static_cast<std::int64_t>(spec->max);
            QVERIFY(reg().parse(id, std::to_string(max)).ok());
            QVERIFY(!reg().parse(id, std::to_string(max + 1)).ok());
        }
    }

    void onPageFindsEachSpecOnce()
    {
        std::size_t total = 0;
        std::set<std::string> pages;
        for (const auto& s : reg().all())
            pages.insert(s.page);
        for (const auto& p : pages)
            total += reg().onPage(p).size();
        QCOMPARE(total, reg().all().size());
        QVERIFY(reg().onPage("no-such-page").empty());
        QVERIFY(pages.count("setup"));
        QVERIFY(pages.count("zero"));
    }

    // ---- derived defaults through Answers::value -----------------------------------------------
    void gpuMemoryFromCatalog_data()
    {
        QTest::addColumn<QString>("gpu");
        QTest::addColumn<double>("gib");
        // The usable capacity of resources/knowledge/gpus.tsv, as PyTorch reports it (calibration.md §5), not the
        // vendor's GB: measured (usable_gib), NVML's where only that was measured, or derived from the closest
        // measured relative.
        QTest::newRow("A100-80GB") << "A100-80GB" << 79.25;
        QTest::newRow("A100-40GB") << "A100-40GB" << 39.50;
        QTest::newRow("H200") << "H200" << 139.81;
        QTest::newRow("MI300X") << "MI300X" << 191.69;
        QTest::newRow("T4") << "T4" << 14.75;
        QTest::newRow("L40S, NVML's total") << "L40S" << 44.99;
        QTest::newRow("V100-16GB, from V100-32GB") << "V100-16GB" << 16 * 31.72 / 32;
        QTest::newRow("GH200, from H100-80GB") << "GH200" << 96 * 79.11 / 80;
    }
    void gpuMemoryFromCatalog()
    {
        QFETCH(QString, gpu);
        QFETCH(double, gib);
        Answers a;
        a.set("hardware.gpu", gpu.toStdString());
        QCOMPARE(a.value("hardware.gpu_memory_gib").get<double>(), gib);
        QCOMPARE(a.number("hardware.gpu_memory_gib"), gib);
        QVERIFY(!a.has("hardware.gpu_memory_gib")); // derived, not stored
        a.set("hardware.gpu_memory_gib", 70.5);     // the user's figure wins
        QCOMPARE(a.number("hardware.gpu_memory_gib"), 70.5);
        a.unset("hardware.gpu_memory_gib");
        QCOMPARE(a.number("hardware.gpu_memory_gib"), gib);
    }

    void gpuMemoryFollowsDefaultGpu()
    {
        Answers a; // hardware.gpu defaults to A100-80GB
        QCOMPARE(a.text("hardware.gpu"), std::string("A100-80GB"));
        QCOMPARE(a.number("hardware.gpu_memory_gib"), 79.25);
    }

    void largestLayerDerived_data()
    {
        QTest::addColumn<qint64>("vocab");
        QTest::addColumn<qint64>("hidden");
        QTest::addColumn<qint64>("expected");
        QTest::newRow("defaults 32000 x 4096") << qint64(-1) << qint64(-1) << qint64(131072000);
        QTest::newRow("GPT-2 small 50257 x 768") << qint64(50257) << qint64(768) << qint64(38597376);
        QTest::newRow("LLaMA-2 70B 32000 x 8192") << qint64(32000) << qint64(8192) << qint64(262144000);
        QTest::newRow("GPT-3 175B 50257 x 12288") << qint64(50257) << qint64(12288) << qint64(617558016);
    }
    void largestLayerDerived()
    {
        QFETCH(qint64, vocab);
        QFETCH(qint64, hidden);
        QFETCH(qint64, expected);
        Answers a;
        if (vocab > 0)
            a.set("model.vocab_size", vocab);
        if (hidden > 0)
            a.set("model.hidden_size", hidden);
        QCOMPARE(qint64(a.integer("model.largest_layer_params")), expected);
        a.set("model.largest_layer_params", 123456789);
        QCOMPARE(qint64(a.integer("model.largest_layer_params")), qint64(123456789));
    }

    void globalBatchDerived_data()
    {
        QTest::addColumn<int>("micro");
        QTest::addColumn<int>("accumulation");
        QTest::addColumn<int>("gpusPerNode");
        QTest::addColumn<int>("nodes");
        QTest::addColumn<qint64>("expected");
        QTest::newRow("defaults 4 x 1 x 8 x 1") << 0 << 0 << 0 << 0 << qint64(32);
        QTest::newRow("2 x 8 x 8 x 4") << 2 << 8 << 8 << 4 << qint64(512);
        QTest::newRow("1 x 1 x 1 x 1") << 1 << 1 << 1 << 1 << qint64(1);
        QTest::newRow("3 x 5 x 4 x 3") << 3 << 5 << 4 << 3 << qint64(180);
    }
    void globalBatchDerived()
    {
        QFETCH(int, micro);
        QFETCH(int, accumulation);
        QFETCH(int, gpusPerNode);
        QFETCH(int, nodes);
        QFETCH(qint64, expected);
        Answers a;
        if (micro)
            a.set("training.micro_batch_size", micro);
        if (accumulation)
            a.set("training.gradient_accumulation_steps", accumulation);
        if (gpusPerNode)
            a.set("hardware.gpus_per_node", gpusPerNode);
        if (nodes)
            a.set("hardware.nodes", nodes);
        QCOMPARE(qint64(a.integer("training.global_batch_size")), expected);
        QCOMPARE(qint64(a.dataParallelSize()),
                 qint64(a.integer("hardware.gpus_per_node") * a.integer("hardware.nodes")));
    }

    void plainDefaultsThroughAnswers()
    {
        Answers a;
        QCOMPARE(a.integer("hardware.nodes"), std::int64_t(1));
        QCOMPARE(a.integer("hardware.gpus_per_node"), std::int64_t(8));
        QCOMPARE(a.text("training.activation_checkpointing"), std::string("auto"));
        QCOMPARE(a.text("hardware.nvme"), std::string("none"));
        QVERIFY(a.value("no.such.id").is_null());
        QVERIFY(a.given().empty()); // reading defaults stores nothing
    }
};

QTEST_APPLESS_MAIN(TestInputRegistry)
#include "TestInputRegistry.moc"
