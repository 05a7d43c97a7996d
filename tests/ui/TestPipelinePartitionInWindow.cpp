// Offscreen: a pipeline partition too large for a frame never runs on the window's thread. The pipeline page
// shows "computing…" with the uniform partition, labelled, and the rest of the plan live; the balanced partition
// arrives from the document's worker, goes into the memo, and the page shows it.
#include "MainWindow.h"
#include "PipelineChart.h"
#include "ProjectDocument.h"
#include "advise/PipelineAdvisor.h"
#include "estimate/PartitionMemo.h"
#include "estimate/PipelinePartition.h"

#include <QLabel>
#include <QStandardPaths>
#include <QTest>

using namespace dsw;

namespace {

QString headline(MainWindow& w)
{
    auto* page = w.findChild<QWidget*>("pipelinePage");
    auto* label = page ? page->findChild<QLabel*>("headline") : nullptr;
    return label ? label->text() : QString();
}

std::vector<int> shownParts(MainWindow& w) { return w.document()->plan().pipeline.parts; }

// 8 stages over the example's layers: small, partitioned on the window's thread within a frame.
void askForAPipeline(ProjectDocument& doc)
{
    doc.setAnswer("hardware.gpus_per_node", 8);
    doc.setAnswer("hardware.nodes", 1);
    doc.setAnswer("pipeline.partition_method", "parameters");
    doc.setAnswer("pipeline.stages", 8);
}

} // namespace

class TestPipelinePartitionInWindow : public QObject {
    Q_OBJECT
private slots:
    void initTestCase() { QStandardPaths::setTestModeEnabled(true); }

    void thePageShowsComputingThenTheResult()
    {
        PartitionMemo::shared().clear();
        MainWindow w;
        w.openAtStart(QString());
        w.show();
        w.goToStep("pipeline");
        ProjectDocument& doc = *w.document();
        askForAPipeline(doc);
        QVERIFY2(!headline(w).contains(QStringLiteral("computing")), qPrintable(headline(w)));
        const std::uint64_t computedBefore = PartitionMemo::shared().computations();
        // 3 002 layers into 8 stages: 7·2995·2996/2 = 31 407 070 candidate splits, 20–60 ms: more than a frame.
        doc.setAnswer("model.layers", 3000);
        QVERIFY(balancedPartitionWork(3002, 8) > kFramePartitionWork);

        // Right after the edit, before the event loop runs: computing, the uniform partition shown.
        QVERIFY2(headline(w).contains(QStringLiteral("computing…")), qPrintable(headline(w)));
        QCOMPARE(shownParts(w), partitionUniform(3002, 8));
        QVERIFY(doc.partitionWorker().busy());
        auto* chart = w.findChild<PipelineChart*>();
        QVERIFY(chart);
        QCOMPARE(chart->barCount(), 8); // the rest of the plan is live: stages, memory, the config
        QVERIFY(!doc.plan().config.empty());

        // The worker's result arrives and the page refreshes with it.
        QTRY_VERIFY_WITH_TIMEOUT(!headline(w).contains(QStringLiteral("computing")), 120'000);
        const auto input = balancedPartitionInput(doc.project().answers);
        QVERIFY(input);
        const std::vector<int> balanced = partitionBalanced(input->weights, input->parts);
        QCOMPARE(shownParts(w), balanced);
        QVERIFY(balanced != partitionUniform(3002, 8)); // the embedding and head make it differ
        QVERIFY(doc.plan().pipeline.state == PartitionState::Computed);
        QVERIFY(!doc.partitionWorker().busy());
        QCOMPARE(PartitionMemo::shared().computations(), computedBefore); // never computed on this thread
        QVERIFY(PartitionMemo::shared().find(*input));

        // Planning the same pipeline again is a memo hit: no job, no "computing…".
        const std::uint64_t jobs = doc.partitionWorker().started();
        doc.setAnswer("training.gradient_accumulation_steps", 16);
        QVERIFY2(!headline(w).contains(QStringLiteral("computing")), qPrintable(headline(w)));
        QCOMPARE(shownParts(w), balanced);
        QCOMPARE(doc.partitionWorker().started(), jobs);
    }

    // An edit while the worker runs replaces its job: the page ends with the partition of the latest answers.
    void aNewerInputReplacesTheRunningJob()
    {
        PartitionMemo::shared().clear();
        MainWindow w;
        w.openAtStart(QString());
        w.show();
        w.goToStep("pipeline");
        ProjectDocument& doc = *w.document();
        askForAPipeline(doc);
        doc.setAnswer("model.layers", 3100);
        const std::uint64_t jobs = doc.partitionWorker().started();
        doc.setAnswer("model.layers", 3200);
        QCOMPARE(doc.partitionWorker().started(), jobs + 1);
        QVERIFY(headline(w).contains(QStringLiteral("computing…")));
        QTRY_VERIFY_WITH_TIMEOUT(!headline(w).contains(QStringLiteral("computing")), 120'000);
        const auto input = balancedPartitionInput(doc.project().answers);
        QVERIFY(input);
        QCOMPARE(input->weights.size(), std::size_t{3202});
        QCOMPARE(shownParts(w), partitionBalanced(input->weights, input->parts));
    }
};

QTEST_MAIN(TestPipelinePartitionInWindow)
#include "TestPipelinePartitionInWindow.moc"
