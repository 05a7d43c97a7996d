// The Memory tab's chart (ui/MemoryChart.h), offscreen: bars stacked by the step model's components, each bar
// adding up to the GPU total the ZeRO page shows, and a bar cut by the axis said to be cut.
#include "MemoryChart.h"

#include "Plan.h"
#include "Screenshot.h"
#include "TestAnswers.h"

#include <QBarCategoryAxis>
#include <QBarSet>
#include <QLabel>
#include <QLegend>
#include <QLineSeries>
#include <QStackedBarSeries>
#include <QTest>
#include <QValueAxis>

#include <algorithm>
#include <cmath>

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
        std::vector<double> expected;
        for (const std::size_t row : plan.zero->stageTable)
            expected.push_back(static_cast<double>(plan.zero->candidates[row].gpu.total) / kGiB);
        expected.push_back(static_cast<double>(plan.zero->plan().gpu.total) / kGiB);
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
        QVERIFY(axis->categories().first().endsWith(QStringLiteral("✂")));
        QVERIFY(chart.legendText().contains(QStringLiteral("clipped")));
        const double top = qobject_cast<QValueAxis*>(chart.chart()->axes(Qt::Vertical).first())->max();
        const double stage0 =
            static_cast<double>(plan.zero->candidates[plan.zero->stageTable.front()].gpu.total) / kGiB;
        QVERIFY(stage0 > top);
        QVERIFY(chart.legendText().contains(QStringLiteral("needs %1 GiB").arg(stage0, 0, 'f', 0)));
    }
    // One chart for the widget's life: a new plan changes the values and labels of the same chart, series and axes,
    // and the clipped mark comes and goes with the plan.
    void aNewPlanUpdatesTheSameChart()
    {
        const Plan fits = makePlan(answersFrom({"model.preset=llama-2-7b", "hardware.gpu=A100-80GB"}));
        const Plan clipped =
            makePlan(answersFrom({"model.preset=llama-2-70b", "hardware.gpu=A100-80GB", "hardware.gpus_per_node=1"}));
        MemoryChart chart;
        chart.showPlan(fits);
        QChart* const shown = chart.chart();
        QStackedBarSeries* const bars = barsOf(chart);
        const QList<QAbstractAxis*> axes = shown->axes();
        for (const Plan* plan : {&clipped, &fits, &clipped}) {
            chart.showPlan(*plan);
            QCOMPARE(chart.chart(), shown);
            QCOMPARE(barsOf(chart), bars);
            QCOMPARE(shown->axes(), axes);
            const std::vector<std::size_t>& table = plan->zero->stageTable;
            QCOMPARE(bars->barSets().front()->count(), int(table.size()) + 1);
            for (int i = 0; i < int(table.size()); ++i) {
                double sum = 0;
                for (QBarSet* set : bars->barSets())
                    sum += set->at(i);
                const double expected =
                    static_cast<double>(plan->zero->candidates[table[std::size_t(i)]].gpu.total) / kGiB;
                QVERIFY2(std::abs(sum - expected) < 1e-6 * expected + 1e-9, qPrintable(QString::number(i)));
            }
            auto* axis = qobject_cast<QBarCategoryAxis*>(chart.chart()->axes(Qt::Horizontal).first());
            QVERIFY(axis);
            QCOMPARE(axis->count(), int(table.size()) + 1);
            QCOMPARE(axis->categories().first().endsWith(QStringLiteral("✂")), plan == &clipped);
            QCOMPARE(chart.legendText().contains(QStringLiteral("clipped")), plan == &clipped);
            QCOMPARE(qobject_cast<QValueAxis*>(chart.chart()->axes(Qt::Vertical).first())->max(),
                     plan == &clipped ? plan->job.gpuCapacityBytes / kGiB * 4
                                      : std::max(plan->job.gpuCapacityBytes / kGiB * 1.2, axisTop(*plan)));
        }
    }
    // Readable in a narrow tab: the legend below the plot wraps with every name in full, the capacity line is dashed
    // in a colour no bar has, the GiB ticks are round, the bar labels short (the notes say what they stand for).
    void theChartIsReadableInANarrowTab()
    {
        const Plan plan =
            makePlan(answersFrom({"model.preset=llama-2-7b", "hardware.gpu=A100-80GB", "zero.offload_optimizer=cpu"}));
        MemoryChart chart;
        chart.resize(420, 500);
        chart.show();
        QVERIFY(QTest::qWaitForWindowExposed(&chart));
        chart.showPlan(plan);
        QVERIFY(!chart.chart()->legend()->isVisible());
        auto* legend = chart.findChild<QLabel*>(QStringLiteral("memoryChart.legend"));
        QVERIFY(legend && legend->isVisible() && legend->wordWrap());
        QVERIFY(legend->geometry().right() < chart.viewport()->width());
        QVERIFY(legend->height() >= legend->heightForWidth(legend->width()));
        QVERIFY(legend->geometry().bottom() < chart.viewport()->height());
        QVERIFY(chart.chart()->margins().bottom() > legend->height()); // the plot leaves it the room
        for (QBarSet* set : barsOf(chart)->barSets()) {
            QVERIFY2(chart.legendText().contains(set->label()), qPrintable(set->label()));
        }
        for (const char* name : {"Parameters", "Gradients", "Optimizer states", "Activations",
                                 "CUDA context, NCCL, allocator reserve", "Usable capacity"})
            QVERIFY2(chart.legendText().contains(QString::fromUtf8(name)), name);

        QLineSeries* capacity = nullptr;
        for (QAbstractSeries* s : chart.chart()->series())
            if (auto* line = qobject_cast<QLineSeries*>(s))
                capacity = line;
        QVERIFY(capacity);
        QCOMPARE(capacity->pen().style(), Qt::DashLine);
        for (QBarSet* set : barsOf(chart)->barSets())
            QVERIFY2(capacity->pen().color() != set->color(), qPrintable(set->label()));
        // A dark palette gives the chart Qt's dark theme, and every component keeps its colour (and the line its
        // difference from them).
        QList<QColor> light;
        for (QBarSet* set : barsOf(chart)->barSets())
            light << set->color();
        QPalette dark = chart.palette();
        dark.setColor(QPalette::Base, QColor(0x20, 0x20, 0x20));
        dark.setColor(QPalette::Window, QColor(0x20, 0x20, 0x20));
        dark.setColor(QPalette::Text, QColor(0xee, 0xee, 0xee));
        chart.setPalette(dark);
        QCOMPARE(chart.chart()->theme(), QChart::ChartThemeDark);
        QList<QColor> inDark;
        for (QBarSet* set : barsOf(chart)->barSets()) {
            inDark << set->color();
            QVERIFY2(capacity->pen().color() != set->color(), qPrintable(set->label()));
        }
        QCOMPARE(inDark, light);
        QList<QRgb> rgbs; // each its own
        for (const QColor& c : light)
            rgbs << c.rgba();
        std::sort(rgbs.begin(), rgbs.end());
        QVERIFY(std::adjacent_find(rgbs.begin(), rgbs.end()) == rgbs.end());
        chart.setPalette(QPalette());

        auto* y = qobject_cast<QValueAxis*>(chart.chart()->axes(Qt::Vertical).first());
        QCOMPARE(y->tickType(), QValueAxis::TicksDynamic);
        QCOMPARE(y->tickAnchor(), 0.0);
        const double step = y->tickInterval();
        const double mantissa = step / std::pow(10.0, std::floor(std::log10(step)));
        QVERIFY2(std::abs(mantissa - 1) < 1e-9 || std::abs(mantissa - 2) < 1e-9 || std::abs(mantissa - 5) < 1e-9,
                 qPrintable(QString::number(step)));
        QVERIFY(y->max() / step >= 3 && y->max() / step <= 10);

        auto* x = qobject_cast<QBarCategoryAxis*>(chart.chart()->axes(Qt::Horizontal).first());
        QVERIFY(x->titleText().size() <= 12);
        for (const QString& category : x->categories())
            QVERIFY2(category.size() <= 6, qPrintable(category)); // fits under a bar in a 420-pixel view
        // An offloading bar's short label is explained under the chart.
        bool offload = false;
        for (const QString& category : x->categories())
            if (category.contains('+')) {
                offload = true;
                QVERIFY2(chart.legendText().contains(category + ": ZeRO-"), qPrintable(chart.legendText()));
            }
        QVERIFY(offload);
        dsw::test::saveScreenshot(chart, "memory-chart-narrow");
    }

private:
    static double axisTop(const Plan& plan)
    {
        double top = 0;
        for (const std::size_t row : plan.zero->stageTable)
            top = std::max(top, static_cast<double>(plan.zero->candidates[row].gpu.total) / kGiB);
        return std::max(top, static_cast<double>(plan.zero->plan().gpu.total) / kGiB);
    }
};

QTEST_MAIN(TestMemoryChart)
#include "TestMemoryChart.moc"
