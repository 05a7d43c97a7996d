// The Memory tab's chart (ui/MemoryChart.h), offscreen: bars stacked by the step model's components, each bar
// adding up to the GPU total the ZeRO page shows, and a bar cut by the axis said to be cut.
#include "MemoryChart.h"

#include "Plan.h"
#include "TestAnswers.h"

#include <QBarCategoryAxis>
#include <QBarSet>
#include <QStackedBarSeries>
#include <QTest>
#include <QValueAxis>

using namespace dsw;
using dsw::test::answersFrom;

namespace {
constexpr double kGiB = 1073741824.0;

QStackedBarSeries* barsOf(MemoryChart& chart)
{
    for (QAbstractSeries* s : chart.chart()->series())
        if (auto* bars = qobject_cast<QStackedBarSeries*>(s))
            return bars;
    return nullptr;
}
} // namespace

class TestMemoryChart : public QObject {
    Q_OBJECT
private slots:
    void barsAddUpToTheGpuTotals()
    {
        const Plan plan = makePlan(answersFrom({"model.preset=llama-2-7b", "hardware.gpu=A100-80GB"}));
        MemoryChart chart;
        chart.showPlan(plan);
        QStackedBarSeries* bars = barsOf(chart);
        QVERIFY(bars);
        QCOMPARE(bars->count(),
                 6); // parameters, gradients, optimizer, buffers, activations, context/NCCL/fragmentation
        const auto& table = plan.find("zero")->details.at("stage_table");
        const auto& rec = plan.find("zero")->details.at("recommended");
        std::vector<double> expected;
        for (const auto& row : table)
            expected.push_back(row.at("gpu_total_bytes").get<double>() / kGiB);
        expected.push_back(rec.at("gpu_total_bytes").get<double>() / kGiB);
        QCOMPARE(bars->barSets().front()->count(), int(expected.size()));
        for (int i = 0; i < int(expected.size()); ++i) {
            double sum = 0;
            for (QBarSet* set : bars->barSets())
                sum += set->at(i);
            QVERIFY2(std::abs(sum - expected[i]) < 1e-6 * expected[i] + 1e-9, qPrintable(QString::number(i)));
        }
    }
    void aBarTallerThanTheAxisIsMarked()
    {
        // 70B on one 80 GB GPU: ZeRO-0 needs far more than four times the capacity the axis stops at.
        const Plan plan =
            makePlan(answersFrom({"model.preset=llama-2-70b", "hardware.gpu=A100-80GB", "hardware.gpus_per_node=1"}));
        MemoryChart chart;
        chart.showPlan(plan);
        QBarCategoryAxis* axis = nullptr;
        for (QAbstractAxis* a : chart.chart()->axes(Qt::Horizontal))
            if (auto* c = qobject_cast<QBarCategoryAxis*>(a))
                axis = c;
        QVERIFY(axis);
        QVERIFY(axis->categories().first().contains(QStringLiteral("clipped")));
        const double top = qobject_cast<QValueAxis*>(chart.chart()->axes(Qt::Vertical).first())->max();
        const double stage0 =
            plan.find("zero")->details.at("stage_table").front().at("gpu_total_bytes").get<double>() / kGiB;
        QVERIFY(stage0 > top);
        QVERIFY(axis->categories().first().contains(QString::number(stage0, 'f', 0)));
    }
};

QTEST_MAIN(TestMemoryChart)
#include "TestMemoryChart.moc"
