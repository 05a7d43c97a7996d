// Benchmarks (not part of ctest): how long one whole-plan recompute takes, which every edit in the
// window triggers. Run: build/tests/bench/BenchPlan  (QBENCHMARK reports per-iteration time).
#include "Plan.h"
#include "config/ConfigImporter.h"

#include <QTest>

using namespace dsw;

class BenchPlan : public QObject {
    Q_OBJECT
private slots:
    void defaultProject()
    {
        Answers answers;
        QBENCHMARK { makePlan(answers); }
    }

    void everyWorkflowActive()
    {
        Answers answers;
        answers.set("model.params", std::int64_t(70000000000));
        answers.set("hardware.nodes", 4);
        answers.set("pipeline.stages", 4);
        answers.set("training.gradient_accumulation_steps", 16);
        answers.set("hardware.nvme", "nvme");
        answers.set("hardware.nvme_path", "/local_nvme");
        answers.set("sparse.pattern", "fixed");
        answers.set("memory.oom_message",
                    "torch.OutOfMemoryError: CUDA out of memory. Tried to allocate 2.00 GiB. GPU 0 "
                    "has a total capacity of 79.15 GiB of which 1.02 GiB is free.");
        QBENCHMARK { makePlan(answers); }
    }

    void importedConfigWithLint()
    {
        auto parsed = parseConfigText(R"({"train_batch_size": 64, "train_micro_batch_size_per_gpu": 4,
            "zero_optimization": {"stage": 3, "offload_optimizer": {"device": "cpu"}}, "bf16": {"enabled": true}})");
        const Project project = importConfig(parsed.value()).project;
        QBENCHMARK { makePlan(project); }
    }
};

QTEST_APPLESS_MAIN(BenchPlan)
#include "BenchPlan.moc"
