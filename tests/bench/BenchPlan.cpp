// Benchmarks (not part of ctest): how long one whole-plan recompute takes, which every edit in the
// window triggers. Run: build/tests/bench/BenchPlan  (QBENCHMARK reports per-iteration time).
#include "Plan.h"
#include "config/ConfigImporter.h"
#include "project/InputRegistry.h"

#include <QTest>

#include <algorithm>
#include <chrono>
#include <vector>

using namespace dsw;

namespace {

// The case's answers, given as the command line's --set would give them ("id=value").
Answers answersFrom(const QStringList& settings)
{
    Answers answers;
    for (const QString& s : settings) {
        const int eq = s.indexOf('=');
        const std::string id = s.left(eq).toStdString();
        answers.set(id, InputRegistry::instance().parse(id, s.mid(eq + 1).toStdString()).value());
    }
    return answers;
}

} // namespace

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

    // p50 and p99 of one whole recompute (every workflow, the ZeRO plan search with its ~60-160 step-model
    // predictions included), as the window runs it after any edit: 400 runs after 20 warm-up runs.
    void recomputePercentiles_data()
    {
        QTest::addColumn<QStringList>("settings");
        QTest::newRow("default project") << QStringList{};
        QTest::newRow("llama-3.1-70b, 4 nodes, NVMe, GA 16")
            << QStringList{"model.preset=llama-3.1-70b", "hardware.nodes=4", "training.gradient_accumulation_steps=16",
                           "hardware.nvme=nvme", "hardware.nvme_path=/local_nvme"};
        // The long-context search: Ulysses degrees, TiledMLP and checkpoint offload as axes.
        QTest::newRow("llama-3.1-8b, 8 x H100, 1M tokens") << QStringList{
            "model.preset=llama-3.1-8b", "hardware.gpu=H100-80GB", "hardware.gpus_per_node=8", "model.seq_len=1048576"};
    }
    void recomputePercentiles()
    {
        QFETCH(QStringList, settings);
        const Answers answers = answersFrom(settings);
        using clock = std::chrono::steady_clock;
        std::vector<double> ms;
        for (int i = 0; i < 420; ++i) {
            const auto start = clock::now();
            const Plan plan = makePlan(answers);
            const double took = std::chrono::duration<double, std::milli>(clock::now() - start).count();
            QVERIFY(!plan.workflows.empty());
            if (i >= 20)
                ms.push_back(took);
        }
        std::sort(ms.begin(), ms.end());
        qInfo("%s: p50 %.3f ms, p99 %.3f ms (%zu runs)", QTest::currentDataTag(), ms[ms.size() / 2],
              ms[ms.size() * 99 / 100], ms.size());
    }

    // The same with lint on the composed config, as the window runs it (makePlan of a project).
    void recomputeWithLintPercentiles_data() { recomputePercentiles_data(); }
    void recomputeWithLintPercentiles()
    {
        QFETCH(QStringList, settings);
        Project project;
        project.answers = answersFrom(settings);
        using clock = std::chrono::steady_clock;
        std::vector<double> ms;
        for (int i = 0; i < 420; ++i) {
            const auto start = clock::now();
            const Plan plan = makePlan(project);
            const double took = std::chrono::duration<double, std::milli>(clock::now() - start).count();
            QVERIFY(!plan.workflows.empty());
            if (i >= 20)
                ms.push_back(took);
        }
        std::sort(ms.begin(), ms.end());
        qInfo("%s, with lint: p50 %.3f ms, p99 %.3f ms (%zu runs)", QTest::currentDataTag(), ms[ms.size() / 2],
              ms[ms.size() * 99 / 100], ms.size());
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
