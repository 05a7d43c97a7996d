// The ZeRO paper's sizer of model states (models/estimate/PlacementMemory.h), shown beside the step model
// (estimate/StepModel.h), which the ZeRO workflow and the out-of-memory plan read: a few rows computed by hand
// keep the sizer honest.
#include "estimate/PlacementMemory.h"

#include "TestAnswers.h"

#include <QTest>

using namespace dsw;
using dsw::test::answersFrom;

class TestPlacementMemory : public QObject {
    Q_OBJECT
private slots:
    void handComputedRows_data();
    void handComputedRows();
};

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
