// The pipeline step's stage bars (ui/PipelineChart.h), offscreen: what it holds, not its pixels.
#include "PipelineChart.h"
#include "Plan.h"
#include "advise/PipelineAdvisor.h"
#include "project/Answers.h"

#include <QTest>

using namespace dsw;
using oj = nlohmann::ordered_json;

namespace {

// Pipeline stages written by hand (no layer names: the chart counts layers): the chart only reads them.
PipelineStages planned(const oj& plan, const oj& memory, double usable)
{
    PipelineStages s;
    s.state = PartitionState::Computed;
    s.parts = plan.at("parts").get<std::vector<int>>();
    s.paramsPerStage = plan.at("params_per_stage").get<std::vector<std::int64_t>>();
    for (const auto& m : memory)
        s.memoryPerStage.push_back(static_cast<std::int64_t>(m.get<double>()));
    s.usableBytes = usable;
    return s;
}

constexpr double kGiB = 1073741824.0;

} // namespace

class TestPipelineChart : public QObject {
    Q_OBJECT
private slots:
    void oneBarPerStageWithItsNumbers()
    {
        PipelineChart chart;
        QCOMPARE(chart.objectName(), QStringLiteral("pipelineChart"));
        // parts [0,9,17,25,34]: 9, 8, 8, 9 layers. Memory 2, 1.5, 1.5, 2 GiB; 10 GiB usable.
        chart.showStages(planned(oj{{"stages", 4},
                                    {"parts", {0, 9, 17, 25, 34}},
                                    {"layers_per_stage", {9, 8, 8, 9}},
                                    {"params_per_stage", {1742110720, 1611038720, 1611038720, 1742110720}},
                                    {"bubble_fraction", 0.2}},
                                 oj{2 * kGiB, 1.5 * kGiB, 1.5 * kGiB, 2 * kGiB}, 10 * kGiB),
                         "");
        QCOMPARE(chart.barCount(), 4);
        // formatCount: %.4g with a suffix (1742110720 → 1.742B); formatGiB: two decimals.
        QCOMPARE(chart.barLabels(),
                 (QStringList{QStringLiteral("Stage 0: layers 0–8 (9 layers), 1.742B parameters, 2.00 GiB"),
                              QStringLiteral("Stage 1: layers 9–16 (8 layers), 1.611B parameters, 1.50 GiB"),
                              QStringLiteral("Stage 2: layers 17–24 (8 layers), 1.611B parameters, 1.50 GiB"),
                              QStringLiteral("Stage 3: layers 25–33 (9 layers), 1.742B parameters, 2.00 GiB")}));
        for (int s = 0; s < 4; ++s)
            QVERIFY(!chart.exceedsCapacity(s));
        QVERIFY(chart.placeholderText().isEmpty());
        QVERIFY(chart.accessibleDescription().contains(QStringLiteral("Stage 3: layers 25–33")));
        chart.resize(chart.sizeHint());
        QVERIFY(!chart.grab().isNull()); // paints offscreen without failing
    }

    void singleAndEmptyStages()
    {
        PipelineChart chart;
        // parts [0,1,2,2]: one layer, one layer, none (more stages than layers).
        chart.showStages(planned(oj{{"stages", 3},
                                    {"parts", {0, 1, 2, 2}},
                                    {"layers_per_stage", {1, 1, 0}},
                                    {"params_per_stage", {1000000, 2000000, 0}},
                                    {"bubble_fraction", 0.25}},
                                 oj{kGiB, kGiB, 0.5 * kGiB}, 10 * kGiB),
                         "");
        QCOMPARE(chart.barCount(), 3);
        QCOMPARE(chart.barLabels().at(0), QStringLiteral("Stage 0: layer 0 (1 layer), 1M parameters, 1.00 GiB"));
        QCOMPARE(chart.barLabels().at(2), QStringLiteral("Stage 2: no layers, 0 parameters, 0.50 GiB"));
        QVERIFY(!chart.grab().isNull());
    }

    void marksStagesOverCapacity()
    {
        PipelineChart chart;
        // Usable 1 GiB: stage 1 (1.5 GiB) is over, stage 0 (exactly 1 GiB) is not.
        chart.showStages(planned(oj{{"stages", 2},
                                    {"parts", {0, 5, 10}},
                                    {"layers_per_stage", {5, 5}},
                                    {"params_per_stage", {100, 200}},
                                    {"bubble_fraction", 0.1}},
                                 oj{kGiB, 1.5 * kGiB}, kGiB),
                         "");
        QVERIFY(!chart.exceedsCapacity(0));
        QVERIFY(chart.exceedsCapacity(1));
        QVERIFY(!chart.exceedsCapacity(2)); // no such stage
        QVERIFY(!chart.grab().isNull());
    }

    void placeholderWithoutAPlan()
    {
        PipelineChart chart;

        chart.showStages(planned(oj{{"stages", 2},
                                    {"parts", {0, 1, 2}},
                                    {"layers_per_stage", {1, 1}},
                                    {"params_per_stage", {1, 1}},
                                    {"bubble_fraction", 0.5}},
                                 oj{1.0, 1.0}, kGiB),
                         "");
        QCOMPARE(chart.barCount(), 2);
        chart.showStages({}, "No pipeline: pipeline.stages is 1"); // a later plan without stages clears the bars
        QCOMPARE(chart.barCount(), 0);
        QVERIFY(chart.barLabels().isEmpty());
        QCOMPARE(chart.placeholderText(), QStringLiteral("No pipeline: pipeline.stages is 1"));
        QVERIFY(!chart.grab().isNull());
    }

    void followsTheAdvisor()
    {
        // The advisor's own plan: 8 GPUs, 4 stages, uniform over [embedding, 8 blocks, head] → [0,3,6,8,10].
        Answers a;
        a.set("model.layers", 8);
        a.set("model.hidden_size", 1024);
        a.set("model.vocab_size", 1000);
        a.set("pipeline.stages", 4);
        a.set("pipeline.partition_method", "uniform");
        PipelineChart chart;
        const Plan plan = makePlan(a);
        chart.showStages(plan.pipeline, plan.find("pipeline")->headline);
        QCOMPARE(chart.barCount(), 4);
        // PipelineModule counts the embedding and the head as layers: the ranges say which they hold.
        QVERIFY2(chart.barLabels().at(0).startsWith(QStringLiteral("Stage 0: layers 0–2 (embedding + blocks 0–1), ")),
                 qPrintable(chart.barLabels().at(0)));
        QVERIFY(chart.barLabels().at(1).startsWith(QStringLiteral("Stage 1: layers 3–5 (blocks 2–4), ")));
        QVERIFY2(chart.barLabels().at(3).startsWith(QStringLiteral("Stage 3: layers 8–9 (block 7 + head), ")),
                 qPrintable(chart.barLabels().at(3)));
        QVERIFY(chart.sizeHint().height() > PipelineChart().sizeHint().height()); // taller with four rows
    }
};

QTEST_MAIN(TestPipelineChart)
#include "TestPipelineChart.moc"
