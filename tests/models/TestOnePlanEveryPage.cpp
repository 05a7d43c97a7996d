// One plan, every page (issue 10, item 5): the ZeRO page and the pipeline page read the same step model
// (estimate/StepModel.h), so for the same placement they give the same per-GPU memory. Over presets × GPUs ×
// nodes × pipeline stages × sequence lengths, with uniform layers that the stages divide evenly (each stage then
// holds exactly the ZeRO page's parameters and layers per stage), the pipeline page's heaviest stage must need
// exactly the bytes the ZeRO page's recommended plan needs, and both pages must agree on the batch and the bubble.
// The stages differ only in activations: 1F1B keeps min(stages − stage, micro-batches) micro-batches in flight,
// so memory falls from the first stage to the one before the last, and the last adds the loss.
#include "Plan.h"
#include "TestAnswers.h"

#include <QTest>

#include <algorithm>

using namespace dsw;
using namespace dsw::test;

class TestOnePlanEveryPage : public QObject {
    Q_OBJECT
private slots:
    void zeroAndPipelinePagesAgree()
    {
        const QStringList presets{"llama-2-7b", "llama-2-13b", "llama-2-70b", "qwen2.5-7b", "qwen2.5-14b"};
        const QStringList gpus{"A100-80GB", "H100-80GB", "A100-40GB"};
        int scenarios = 0, fitting = 0;
        for (const QString& preset : presets)
            for (const QString& gpu : gpus)
                for (const int nodes : {1, 2})
                    for (const int stages : {2, 4})
                        for (const int seq : {2048, 4096}) {
                            QStringList s{"model.preset=" + preset,
                                          "hardware.gpu=" + gpu,
                                          "hardware.gpus_per_node=8",
                                          QStringLiteral("hardware.nodes=%1").arg(nodes),
                                          QStringLiteral("pipeline.stages=%1").arg(stages),
                                          QStringLiteral("model.seq_len=%1").arg(seq),
                                          "pipeline.partition_method=uniform"};
                            // Uniform layers of the preset's size: model.params = layers × per-layer count, so
                            // every stage holds model.params / stages, as the ZeRO page's job assumes.
                            const Answers shape = answersFrom(s);
                            const std::int64_t layers = shape.integer("model.layers");
                            QVERIFY(layers % stages == 0);
                            const std::int64_t perLayer = shape.integer("model.params") / layers;
                            QStringList counts;
                            for (std::int64_t i = 0; i < layers; ++i)
                                counts << QString::number(perLayer);
                            s << "pipeline.layer_params=" + counts.join(',')
                              << QStringLiteral("model.params=%1").arg(perLayer * layers);
                            const Answers a = answersFrom(s);
                            const QString name = QStringLiteral("%1 %2 ×%3 nodes, %4 stages, seq %5")
                                                     .arg(preset, gpu)
                                                     .arg(nodes)
                                                     .arg(stages)
                                                     .arg(seq);

                            const Plan whole = makePlan(a);
                            QVERIFY2(whole.zero, qPrintable(name));
                            const StepPrediction& rec = whole.zero->plan();
                            const Advice& pipe = *whole.find("pipeline");
                            QVERIFY2(rec.candidate.placement.stage <= 1, qPrintable(name)); // the pipeline's limit
                            const PipelineStages& stagesShown = whole.pipeline;
                            QVERIFY2(!stagesShown.memoryPerStage.empty(), qPrintable(name));
                            for (std::size_t st = 0; st + 1 < stagesShown.parts.size(); ++st)
                                QVERIFY2(stagesShown.parts[st + 1] - stagesShown.parts[st] == layers / stages,
                                         qPrintable(name));

                            // The same per-GPU bytes on both pages for the heaviest stage; earlier stages hold
                            // more micro-batches in flight (never less memory than a later one but the last).
                            const std::vector<std::int64_t>& memory = stagesShown.memoryPerStage;
                            const std::int64_t zeroBytes = rec.gpu.total;
                            std::int64_t heaviest = 0;
                            for (std::size_t st = 0; st < memory.size(); ++st) {
                                heaviest = std::max(heaviest, memory[st]);
                                if (st + 2 < memory.size())
                                    QVERIFY2(memory[st] >= memory[st + 1], qPrintable(name));
                            }
                            QVERIFY2(heaviest == zeroBytes,
                                     qPrintable(name + ": pipeline " + QString::number(heaviest) + " B, ZeRO "
                                                + QString::number(zeroBytes) + " B"));
                            QCOMPARE(pipe.details["activations_bytes"].get<std::int64_t>(), rec.gpu.activations);
                            QCOMPARE(pipe.details["zero_stage"].get<int>(), rec.candidate.placement.stage);
                            QCOMPARE(pipe.details["activation_checkpointing"].get<bool>(), rec.candidate.checkpointing);

                            // The same batch, and the bubble the step model times: (p − 1)/(m + p − 1).
                            const auto& batch = pipe.details["batch"];
                            QCOMPARE(batch["micro_batch_size"].get<std::int64_t>(), rec.candidate.microBatch);
                            QCOMPARE(batch["micro_batches"].get<std::int64_t>(), rec.candidate.accumulation);
                            const double m = static_cast<double>(rec.candidate.accumulation);
                            QVERIFY(qFuzzyCompare(pipe.details["plan"]["bubble_fraction"].get<double>(),
                                                  (stages - 1) / (m + stages - 1)));

                            // The fit check compares that figure with the usable memory the step model uses.
                            const auto fit = std::find_if(pipe.checks.begin(), pipe.checks.end(), [](const Check& c) {
                                return c.code == "pipeline-micro-batch-fits";
                            });
                            QVERIFY2(fit != pipe.checks.end(), qPrintable(name));
                            // Up to kTightBand over the capacity fits, tight: a warning, not a failure.
                            const double bytes = static_cast<double>(zeroBytes), cap = stagesShown.usableBytes;
                            const bool fitsGpu = bytes <= cap * (1 + kTightBand);
                            const bool tight = fitsGpu && bytes > cap * (1 - kTightBand);
                            QVERIFY2((fit->level != CheckLevel::Fail) == fitsGpu,
                                     qPrintable(name + ": " + q(fit->message)));
                            QVERIFY2((fit->level == CheckLevel::Warn) == tight,
                                     qPrintable(name + ": " + q(fit->message)));
                            fitting += fitsGpu;
                            ++scenarios;
                        }
        QVERIFY(scenarios >= 100);
        QVERIFY(fitting > 0); // the comparison covers plans that fit, not only ones that do not
        qInfo("%d scenarios, %d of them fit", scenarios, fitting);
    }
};

QTEST_APPLESS_MAIN(TestOnePlanEveryPage)
#include "TestOnePlanEveryPage.moc"
