// `recommend --format json` writes the plan straight as text (toJsonText); it must be byte for byte the dump of
// the plan's JSON DOM (toJson), for every workflow, on plans of every kind: defaults, pipelines, offload to NVMe,
// 1-bit Adam, sparse attention, out-of-memory messages, saturated figures, input errors, imported configs with
// suggestions, the example project.
#include "Plan.h"
#include "config/ConfigImporter.h"
#include "config/ConfigText.h"
#include "project/InputRegistry.h"

#include <QFile>
#include <QTest>

using namespace dsw;

namespace {

using Sets = std::vector<std::pair<std::string, std::string>>;

Answers answersFrom(const Sets& sets)
{
    Answers a;
    for (const auto& [id, text] : sets) {
        auto value = InputRegistry::instance().parse(id, text);
        if (value)
            a.set(id, value.value());
        else
            a.set(id, text); // kept as given: the plan reports it among its input errors
    }
    return a;
}

void compareEveryWorkflow(const Project& project)
{
    const Plan plan = makePlan(project);
    QCOMPARE(toJsonText(plan), toJson(plan).dump(2));
    for (const auto& id : workflowIds())
        QCOMPARE(toJsonText(plan, id), toJson(plan, id).dump(2));
}

} // namespace

Q_DECLARE_METATYPE(Sets)

class TestPlanJsonText : public QObject {
    Q_OBJECT

private slots:
    void answersPlans_data()
    {
        QTest::addColumn<Sets>("sets");
        QTest::newRow("defaults") << Sets{};
        QTest::newRow("pipeline 4") << Sets{{"pipeline.stages", "4"}};
        QTest::newRow("pipeline uniform") << Sets{{"pipeline.stages", "2"}, {"pipeline.partition_method", "uniform"}};
        QTest::newRow("nvme 70B") << Sets{
            {"hardware.nvme", "nvme"}, {"hardware.nvme_path", "/local_nvme"}, {"model.params", "70B"}};
        QTest::newRow("onebit 4 nodes") << Sets{{"training.optimizer", "onebit-adam"}, {"hardware.nodes", "4"}};
        QTest::newRow("zero-one ethernet") << Sets{{"training.optimizer", "zero-one-adam"},
                                                   {"hardware.nodes", "8"},
                                                   {"hardware.inter_node_network", "ethernet-25g"}};
        QTest::newRow("sparse auto 16k") << Sets{{"sparse.pattern", "auto"}, {"model.seq_len", "16384"}};
        QTest::newRow("bigbird encoder") << Sets{{"sparse.pattern", "bigbird"}, {"model.architecture", "encoder"}};
        QTest::newRow("llama 70b preset")
            << Sets{{"model.preset", "llama-3.1-70b"}, {"hardware.cpu_memory_gib", "512"}};
        QTest::newRow("oom message") << Sets{
            {"memory.oom_message", "CUDA out of memory. Tried to allocate 2.00 GiB (GPU 0; 79.15 GiB total)"},
            {"memory.phase", "backward"}};
        QTest::newRow("nvme cpu gds") << Sets{{"nvme.tensor_location", "cpu"}, {"nvme.gds", "true"}};
        QTest::newRow("fp16 V100") << Sets{{"training.precision", "fp16"}, {"hardware.gpu", "V100-32GB"}};
        QTest::newRow("hf trainer") << Sets{{"software.launcher", "hf-trainer"}};
        QTest::newRow("1T on 64 nodes") << Sets{{"model.params", "1T"}, {"hardware.nodes", "64"}};
        QTest::newRow("nothing fits") << Sets{{"model.params", "100T"}, {"hardware.gpu", "T4"}};
        QTest::newRow("saturated eager") << Sets{{"model.seq_len", "10000000"},
                                                 {"model.attention_heads", "4096"},
                                                 {"training.micro_batch_size", "65536"},
                                                 {"model.attention_impl", "eager"}};
        QTest::newRow("control characters in a path")
            << Sets{{"hardware.nvme", "nvme"}, {"hardware.nvme_path", "/nvme\x1b[31m\t\"q\"\\ \xe2\x80\xae"}};
        QTest::newRow("input errors") << Sets{{"hardware.nodes", "0"}, {"model.params", "lots"}};
    }
    void answersPlans()
    {
        QFETCH(Sets, sets);
        Project project;
        project.answers = answersFrom(sets);
        compareEveryWorkflow(project);
    }

    void importedConfigs_data()
    {
        QTest::addColumn<QByteArray>("config");
        QTest::newRow("zero3 offload, auto values") << QByteArray(R"({
  "bf16": {"enabled": "auto"}, "train_micro_batch_size_per_gpu": "auto", "train_batch_size": "auto",
  "gradient_accumulation_steps": "auto", "gradient_clipping": "auto",
  "zero_optimization": {"stage": 3, "offload_optimizer": {"device": "cpu", "pin_memory": true},
    "offload_param": {"device": "cpu"}, "overlap_comm": true, "stage3_gather_16bit_weights_on_model_save": true},
  "unknown_key": [1, 2.5, "x"]})");
        QTest::newRow("fp16 zero2 with a scheduler") << QByteArray(R"({
  "fp16": {"enabled": true, "loss_scale": 0, "initial_scale_power": 16},
  "optimizer": {"type": "AdamW", "params": {"lr": 3e-5, "betas": [0.9, 0.999], "eps": 1e-8}},
  "scheduler": {"type": "WarmupLR", "params": {"warmup_num_steps": 100}},
  "zero_optimization": {"stage": 2, "allgather_bucket_size": 5e8, "contiguous_gradients": true},
  "train_batch_size": 64, "train_micro_batch_size_per_gpu": 4, "steps_per_print": 10})");
        QTest::newRow("duplicate keys, pipeline") << QByteArray(R"({"train_batch_size": 8, "train_batch_size": 16,
  "pipeline": {"stages": 2}, "zero_optimization": {"stage": 1}})");
    }
    void importedConfigs()
    {
        QFETCH(QByteArray, config);
        auto parsed = parseConfigText(config.toStdString());
        QVERIFY2(parsed, parsed ? "" : parsed.error().c_str());
        ImportedProject imported = importConfig(parsed.value());
        compareEveryWorkflow(imported.project);
        // With the model and the cluster given, the suggestions are made; accepting them all changes the config.
        imported.project.answers.set("model.params", 7'000'000'000);
        imported.project.answers.set("hardware.gpus_per_node", 8);
        imported.project.answers.set("hardware.nodes", 1);
        const Plan plan = makePlan(imported.project);
        for (const auto& s : plan.suggestions)
            imported.project.acceptedSuggestions.push_back(s.pointer);
        compareEveryWorkflow(imported.project);
    }

    void exampleProject()
    {
        QFile file(DSW_SOURCE_DIR "/resources/examples/llama-7b-8xA100.dswiz");
        QVERIFY(file.open(QIODevice::ReadOnly));
        auto project = parseProject(file.readAll().toStdString());
        QVERIFY(project);
        compareEveryWorkflow(project.value());
    }
};

QTEST_APPLESS_MAIN(TestPlanJsonText)
#include "TestPlanJsonText.moc"
