// Apply from the plan (issue 12, must-have 2), offscreen: each out-of-memory step and each import suggestion has an
// Apply… button that shows the change (answers, memory and time from the step model) before applying it, and the
// change is one undo step.
#include "ChangePreviewDialog.h"
#include "FindingsView.h"
#include "MainWindow.h"
#include "MemoryStepsView.h"
#include "ProjectDocument.h"
#include "Screenshot.h"
#include "TestSettings.h"

#include <QApplication>
#include <QFile>
#include <QLabel>
#include <QPushButton>
#include <QSettings>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QTest>
#include <QTimer>
#include <QUndoStack>

using namespace dsw;

class TestApplyFromPlan : public QObject {
    Q_OBJECT

private:
    // Answers the next modal preview: its text into `shown`, then Apply (or Cancel).
    static void answerPreview(QString* shown, bool apply)
    {
        QTimer::singleShot(0, [shown, apply] {
            auto* dialog = qobject_cast<ChangePreviewDialog*>(QApplication::activeModalWidget());
            if (!dialog)
                return;
            *shown = dialog->findChild<QLabel*>("changePreviewText")->text();
            if (const QByteArray dir = qgetenv("DSW_SCREENSHOT_DIR"); !dir.isEmpty())
                dialog->grab().save(QString::fromLocal8Bit(dir) + "/apply-preview.png");
            if (apply)
                dialog->findChild<QPushButton*>("applyChangeButton")->click();
            else
                dialog->reject();
        });
    }
    static void withOutOfMemoryMessage(MainWindow& w)
    {
        QFile f(QStringLiteral(DSW_TEST_DATA_DIR "/oom/new_format_a100_rank3_backward.txt"));
        QVERIFY(f.open(QIODevice::ReadOnly));
        ProjectDocument* d = w.document();
        d->setAnswer("memory.ran_stage", "1");
        d->setAnswer("memory.ran_offload_optimizer", "none");
        d->setAnswer("memory.ran_offload_param", "none");
        d->setAnswer("memory.ran_checkpointing", "off");
        d->setAnswer("memory.oom_message", f.readAll().toStdString());
        d->undoStack()->clear();
    }
    static int stepIndex(MainWindow& w, const std::string& id)
    {
        const auto& steps = w.document()->plan().remedies;
        for (std::size_t i = 0; i < steps.size(); ++i)
            if (steps[i].id == id)
                return static_cast<int>(i);
        return -1;
    }

private slots:
    void initTestCase() { dsw::test::useIsolatedSettings("TestApplyFromPlan"); }

    void memoryStepAppliesAfterItsPreviewAsOneUndoStep()
    {
        MainWindow w;
        w.openAtStart(QString());
        w.show();
        withOutOfMemoryMessage(w);
        w.goToStep("memory");
        auto* view = w.findChild<MemoryStepsView*>("remedies");
        QVERIFY(view && view->stepCount() > 0);
        const int stage3 = stepIndex(w, "zero-stage-3");
        QVERIFY(stage3 >= 0);
        auto* button = view->findChild<QPushButton*>(QStringLiteral("applyStep%1").arg(stage3 + 1));
        QVERIFY(button && button->isVisible());
        w.resize(1400, 860);
        QApplication::processEvents(); // the rows' layout
        dsw::test::saveScreenshot(w, "memory-steps");

        const Answers before = w.document()->project().answers;
        const auto configBefore = w.document()->plan().config;
        QString shown;
        answerPreview(&shown, true);
        button->click();
        // The preview named the answers by label and gave memory and time before and after.
        QVERIFY2(shown.contains("ZeRO stage") && shown.contains("→ 3"), qPrintable(shown));
        QVERIFY2(shown.contains("Before:") && shown.contains("After:") && shown.contains("per GPU")
                     && shown.contains("s per step"),
                 qPrintable(shown));
        QVERIFY2(!shown.contains("zero.stage"), qPrintable(shown)); // words, not ids
        // Applied: the config has the step's stage; the failed run is still the one diagnosed.
        QCOMPARE(QString::fromStdString(w.document()->project().answers.text("zero.stage")), QStringLiteral("3"));
        QCOMPARE(w.document()->plan().config["zero_optimization"]["stage"].get<int>(), 3);
        QCOMPARE(QString::fromStdString(w.document()->project().answers.text("training.activation_checkpointing")),
                 QStringLiteral("on"));
        QCOMPARE(w.document()->plan().find("memory")->details["ran_setup"]["stage"].get<int>(), 1);
        // One undo step takes all of it back.
        QCOMPARE(w.document()->undoStack()->count(), 1);
        QVERIFY(w.document()->undoStack()->undoText().startsWith("Apply Steps 1–"));
        w.document()->undoStack()->undo();
        QVERIFY(w.document()->project().answers == before);
        QVERIFY(w.document()->plan().config == configBefore);
        w.document()->undoStack()->redo();
        QCOMPARE(w.document()->plan().config["zero_optimization"]["stage"].get<int>(), 3);
    }

    void cancelledPreviewChangesNothing()
    {
        MainWindow w;
        w.openAtStart(QString());
        w.show();
        withOutOfMemoryMessage(w);
        w.goToStep("memory");
        const Answers before = w.document()->project().answers;
        QString shown;
        answerPreview(&shown, false);
        QVERIFY(!w.applyMemoryStep(0));
        QVERIFY(!shown.isEmpty());
        QVERIFY(w.document()->project().answers == before);
        QCOMPARE(w.document()->undoStack()->count(), 0);
    }

    void stepWithoutAnAnswerIsSaidInThePreview()
    {
        MainWindow w;
        w.openAtStart(QString());
        w.show();
        withOutOfMemoryMessage(w);
        const int env = stepIndex(w, "allocator-expandable-segments");
        QVERIFY(env >= 0);
        // Steps before it are answers; the env step alone is not. Applying it applies those before it, and says
        // the environment variable is to be set by hand.
        QString shown;
        answerPreview(&shown, true);
        w.applyMemoryStep(env);
        QVERIFY2(shown.contains("by hand"), qPrintable(shown));
    }

    void importSuggestionAppliesAfterItsPreviewAndUnapplies()
    {
        QTemporaryDir dir;
        const QString path = dir.filePath("imported.json");
        QFile f(path);
        QVERIFY(f.open(QIODevice::WriteOnly));
        f.write(R"({"train_batch_size": 64, "train_micro_batch_size_per_gpu": 4,
  "zero_optimization": {"stage": 2, "cpu_offload": true}})");
        f.close();
        MainWindow w;
        w.openAtStart(QString());
        w.show();
        QVERIFY(w.importConfig(path));
        // The suggestions wait for the model and the cluster (never from defaults the user did not give).
        w.document()->setAnswer("model.params", 7000000000LL);
        w.document()->setAnswer("hardware.gpu", "A100-80GB");
        w.document()->setAnswer("hardware.gpus_per_node", 8);
        w.document()->setAnswer("hardware.nodes", 1);
        w.document()->undoStack()->clear();
        auto* findings = w.findChild<FindingsView*>("findingsView");
        QVERIFY(findings->suggestionCount() >= 1);
        const auto buttons = findings->findChildren<QPushButton*>("suggestionButton");
        QCOMPARE(buttons.size(), findings->suggestionCount());
        const std::string pointer = buttons.front()->property("pointer").toString().toStdString();
        QCOMPARE(buttons.front()->text(), QStringLiteral("Apply…"));
        const auto configBefore = w.document()->plan().config;
        QString shown;
        answerPreview(&shown, true);
        buttons.front()->click();
        QVERIFY2(shown.contains("Before:") && shown.contains("After:"), qPrintable(shown));
        QVERIFY2(shown.contains(QString::fromStdString(pointer)), qPrintable(shown));
        const auto& list = w.document()->project().acceptedSuggestions;
        QVERIFY(std::find(list.begin(), list.end(), pointer) != list.end());
        QVERIFY(w.document()->plan().config != configBefore);
        QCOMPARE(w.document()->undoStack()->count(), 1);
        // The applied suggestion offers Unapply; undo takes the Apply back whole.
        QApplication::processEvents();
        bool unapply = false;
        for (auto* b : findings->findChildren<QPushButton*>("suggestionButton"))
            if (b->property("pointer").toString().toStdString() == pointer && b->text() == "Unapply")
                unapply = true;
        QVERIFY(unapply);
        w.document()->undoStack()->undo();
        QVERIFY(w.document()->plan().config == configBefore);
        QVERIFY(w.document()->project().acceptedSuggestions.empty());
    }
};

QTEST_MAIN(TestApplyFromPlan)
#include "TestApplyFromPlan.moc"
