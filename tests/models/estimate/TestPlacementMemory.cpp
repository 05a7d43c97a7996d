// The ZeRO paper's sizer of model states (models/estimate/PlacementMemory.h), which the out-of-memory plan
// (advise/MemoryPlan.cpp) still uses (the ZeRO workflow reads the step model, estimate/StepModel.h): this test
// holds the plan equal to it over every placement of 840 answer sets, and a few rows computed by hand keep the
// sizer itself honest.
#include "estimate/PlacementMemory.h"

#include "TestAnswers.h"
#include "advise/MemoryPlan.h"

#include <QTest>

using namespace dsw;
using dsw::test::answersFrom;

namespace {

const Placement kAllPlacements[] = {
    {0, "none", "none"}, {1, "none", "none"}, {2, "none", "none"}, {3, "none", "none"}, {1, "cpu", "none"},
    {2, "cpu", "none"},  {3, "cpu", "none"},  {3, "cpu", "cpu"},   {3, "nvme", "cpu"},  {3, "nvme", "nvme"},
};

std::vector<QStringList> answerSets()
{
    std::vector<QStringList> sets;
    for (const char* params : {"125M", "350M", "1.3B", "7B", "13B", "70B", "175B"})
        for (const int largestShare : {100, 20})
            for (const int gpus : {1, 2, 4, 8, 16})
                for (const int nodes : {1, 2, 4, 16})
                    for (const int stages : {1, 2, 4}) {
                        const double p = InputRegistry::instance().parse("model.params", params).value().get<double>();
                        sets.push_back(
                            {QStringLiteral("model.params=%1").arg(params),
                             QStringLiteral("model.largest_layer_params=%1").arg(static_cast<qint64>(p / largestShare)),
                             QStringLiteral("hardware.gpus_per_node=%1").arg(gpus),
                             QStringLiteral("hardware.nodes=%1").arg(nodes),
                             QStringLiteral("pipeline.stages=%1").arg(stages), QStringLiteral("model.layers=32")});
                    }
    return sets;
}

QString describe(const QStringList& answers, const Placement& p)
{
    return answers.join(' ')
        + QStringLiteral(" | stage %1, optimizer %2, param %3")
              .arg(p.stage)
              .arg(QString::fromStdString(p.offloadOptimizer), QString::fromStdString(p.offloadParam));
}

} // namespace

class TestPlacementMemory : public QObject {
    Q_OBJECT
private slots:
    void memoryPlanIsSizedByIt();
    void handComputedRows_data();
    void handComputedRows();
};

void TestPlacementMemory::memoryPlanIsSizedByIt()
{
    int compared = 0;
    for (const QStringList& set : answerSets()) {
        const Answers a = answersFrom(set);
        const ModelShape shape = modelShapeFrom(a);
        const memory::Job job = memory::jobFrom(a, std::nullopt);
        for (const Placement& p : kAllPlacements) {
            memory::Setup s;
            s.stage = p.stage;
            s.offloadOptimizer = p.offloadOptimizer;
            s.offloadParam = p.offloadParam;
            const ModelStatesMemory m = sizeModelStates(p, shape);
            const QString where = describe(set, p);
            QVERIFY2(memory::gpuModelStates(job, s) == m.gpuBytes, qPrintable(where));
            // Without offload, the plan's host figure is what offloading the optimizer states to the CPU needs.
            const Placement offloaded{p.stage, p.offloadOptimizer == "none" ? "cpu" : p.offloadOptimizer,
                                      p.offloadParam};
            QVERIFY2(memory::offloadHostBytes(job, s) == sizeModelStates(offloaded, shape).cpuPerNode,
                     qPrintable(where));
            ++compared;
        }
    }
    QCOMPARE(compared, 8400);
}

void TestPlacementMemory::handComputedRows_data()
{
    QTest::addColumn<int>("stage");
    QTest::addColumn<QString>("optimizer");
    QTest::addColumn<QString>("param");
    QTest::addColumn<qint64>("gpu");
    QTest::addColumn<qint64>("cpu");
    QTest::addColumn<qint64>("nvme");
    // Ψ = 7.5e9 parameters, largest layer 1e8, 8 GPUs per node × 8 nodes (Nd = 64): the ZeRO paper's example.
    QTest::newRow("stage 0: 16Ψ; host 4Ψ·8·1.5")
        << 0 << "none"
        << "none" << qint64(120'000'000'000) << qint64(360'000'000'000) << qint64(0);
    QTest::newRow("stage 2: 2Ψ + 14Ψ/64") << 2 << "none"
                                          << "none" << qint64(16'640'625'000) << qint64(360'000'000'000) << qint64(0);
    QTest::newRow("stage 3: 16Ψ/64 + 4L; host 4L·8·1.5")
        << 3 << "none"
        << "none" << qint64(2'275'000'000) << qint64(4'800'000'000) << qint64(0);
    QTest::newRow("stage 2, cpu: 2Ψ; host Ψ·32·1.5")
        << 2 << "cpu"
        << "none" << qint64(15'000'000'000) << qint64(360'000'000'000) << qint64(0);
    QTest::newRow("stage 3, cpu/cpu: 4L; host 18Ψ/8·1.5")
        << 3 << "cpu"
        << "cpu" << qint64(400'000'000) << qint64(25'312'500'000) << qint64(0);
    QTest::newRow("stage 3, nvme/nvme: 4L; NVMe 18Ψ/8")
        << 3 << "nvme"
        << "nvme" << qint64(400'000'000) << qint64(4'800'000'000) << qint64(16'875'000'000);
}

void TestPlacementMemory::handComputedRows()
{
    QFETCH(int, stage);
    QFETCH(QString, optimizer);
    QFETCH(QString, param);
    QFETCH(qint64, gpu);
    QFETCH(qint64, cpu);
    QFETCH(qint64, nvme);
    const ModelShape shape{7'500'000'000, 100'000'000, 8, 8, 64};
    const ModelStatesMemory m = sizeModelStates({stage, optimizer.toStdString(), param.toStdString()}, shape);
    QCOMPARE(qint64(m.gpuBytes), gpu);
    QCOMPARE(qint64(m.cpuPerNode), cpu);
    QCOMPARE(qint64(m.nvmePerNode), nvme);
}

QTEST_APPLESS_MAIN(TestPlacementMemory)
#include "TestPlacementMemory.moc"
