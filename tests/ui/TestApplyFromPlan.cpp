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
#include "project/InputLabels.h"

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

    void memoryStepAppliesAloneAfterItsPreviewAsOneUndoStep()
    {
        MainWindow w;
        w.openAtStart(QString());
        w.show();
        withOutOfMemoryMessage(w);
        w.goToStep("memory");
        auto* view = w.findChild<MemoryStepsView*>("remedies");
        QVERIFY(view && view->stepCount() > 0);
        const int micro = stepIndex(w, "micro-batch");
        QVERIFY(micro >= 0 && stepIndex(w, "zero-stage-3") >= 0 && stepIndex(w, "offload-param") >= 0);
        auto* button = view->findChild<QPushButton*>(QStringLiteral("applyStep%1").arg(micro + 1));
        QVERIFY(button && button->isVisible());
        w.resize(1400, 860);
        QApplication::processEvents(); // the rows' layout
        dsw::test::saveScreenshot(w, "memory-steps");

        const Answers before = w.document()->project().answers;
        const auto configBefore = w.document()->plan().config;
        const auto ranBefore = w.document()->plan().find("memory")->details["ran_setup"];
        QStringList stepsBefore;
        for (const auto& s : w.document()->plan().remedies)
            stepsBefore << QString::fromStdString(s.id);
        QString shown;
        answerPreview(&shown, true);
        button->click();
        // The preview named the answers by label and compared the failed run without and with this step.
        QVERIFY2(shown.contains("Micro-batch") && shown.contains("→ 2"), qPrintable(shown));
        QVERIFY2(shown.contains("Failed run:") && shown.contains("With this step alone:") && shown.contains("per GPU")
                     && shown.contains("s per step"),
                 qPrintable(shown));
        QVERIFY2(!shown.contains("training.micro_batch_size"), qPrintable(shown)); // words, not ids
        // Issue 23: only this step is applied, not ZeRO-3 or the offload listed with it.
        const Answers& after = w.document()->project().answers;
        QCOMPARE(after.integer("training.micro_batch_size"), std::int64_t(2));
        QCOMPARE(w.document()->plan().config["zero_optimization"]["stage"].get<int>(), 1);
        QVERIFY(!w.document()->plan().config["zero_optimization"].contains("offload_optimizer"));
        QCOMPARE(QString::fromStdString(after.text("training.activation_checkpointing")), QStringLiteral("off"));
        QVERIFY(w.document()->plan().config["train_batch_size"] == configBefore["train_batch_size"]);
        // The failed run is still the one diagnosed, with the same steps.
        QVERIFY(w.document()->plan().find("memory")->details["ran_setup"] == ranBefore);
        QStringList stepsAfter;
        for (const auto& s : w.document()->plan().remedies)
            stepsAfter << QString::fromStdString(s.id);
        QCOMPARE(stepsAfter, stepsBefore);
        // One undo step takes all of it back.
        QCOMPARE(w.document()->undoStack()->count(), 1);
        QVERIFY(w.document()->undoStack()->undoText().startsWith("Apply Step "));
        w.document()->undoStack()->undo();
        QVERIFY(w.document()->project().answers == before);
        QVERIFY(w.document()->plan().config == configBefore);
        w.document()->undoStack()->redo();
        QCOMPARE(w.document()->plan().config["train_micro_batch_size_per_gpu"].get<int>(), 2);
    }

    void pastedMessageFreezesTheFailedRunFromTheConfig()
    {
        // Issue 23: the run is described from the project's config when the message is pasted (not ZeRO off), and
        // stays: a later change of the config, or a save and reopen, does not re-describe it.
        MainWindow w;
        w.openAtStart(QString());
        ProjectDocument* d = w.document();
        d->setAnswer("model.params", 7000000000LL);
        d->setAnswer("hardware.gpu", "A100-80GB");
        d->setAnswer("hardware.gpus_per_node", 8);
        const int configStage = d->plan().config["zero_optimization"]["stage"].get<int>();
        QVERIFY(configStage > 0);
        QFile f(QStringLiteral(DSW_TEST_DATA_DIR "/oom/new_format_a100_rank3_backward.txt"));
        QVERIFY(f.open(QIODevice::ReadOnly));
        const int undoBefore = d->undoStack()->count();
        d->setAnswer("memory.oom_message", f.readAll().toStdString());
        QCOMPARE(d->undoStack()->count(), undoBefore + 1); // the message and the run, one step
        QCOMPARE(QString::fromStdString(d->project().answers.text("memory.ran_stage")), QString::number(configStage));
        QVERIFY(d->plan().failedRun && d->plan().failedRun->ran.fromConfig.empty());
        const auto ran = d->plan().find("memory")->details["ran_setup"];
        QCOMPARE(ran["stage"].get<int>(), configStage);
        d->setAnswer("zero.stage", configStage == 3 ? "1" : "3");
        QVERIFY(d->plan().find("memory")->details["ran_setup"] == ran);
        QTemporaryDir dir;
        const QString path = dir.filePath("oom.dswiz");
        QVERIFY(d->saveAs(path).isEmpty());
        MainWindow reopened;
        reopened.openAtStart(QString());
        QVERIFY(reopened.document()->load(path).isEmpty());
        QVERIFY(reopened.document()->plan().find("memory")->details["ran_setup"] == ran);
        d->undoStack()->undo(); // the stage
        d->undoStack()->undo(); // the paste: the run's answers go with the message
        QVERIFY(!d->project().answers.has("memory.ran_stage"));
        QVERIFY(!d->project().answers.has("memory.oom_message"));
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

    // An answer set to the value it already has (a default made explicit so the ZeRO page keeps it) is not listed
    // as "4 → 4": the preview names it once among the values kept.
    void unchangedValuesAreNotListedAsChanges()
    {
        Answers answers;
        answers.set("zero.stage", "2");
        ChangePreview p;
        p.title = "a change";
        p.edits = {{"zero.stage", "3"},
                   {"training.gradient_accumulation_steps", answers.value("training.gradient_accumulation_steps")}};
        const QString text = ChangePreviewDialog::describe(p, answers);
        QVERIFY2(text.contains("2 → 3"), qPrintable(text));
        const QString accumulation = QString::fromStdString(inputLabel("training.gradient_accumulation_steps"));
        QVERIFY2(!text.contains("• " + accumulation + ":"), qPrintable(text));
        QVERIFY2(text.contains("Kept at their current values, now as your answers: " + accumulation), qPrintable(text));
    }

    void stepWithoutAnAnswerIsSaidInThePreview()
    {
        MainWindow w;
        w.openAtStart(QString());
        w.show();
        withOutOfMemoryMessage(w);
        const int env = stepIndex(w, "allocator-expandable-segments");
        QVERIFY(env >= 0);
        // The env step is no answer: Apply is disabled, and the preview says to set it by hand.
        const Answers before = w.document()->project().answers;
        QString shown;
        answerPreview(&shown, false);
        QVERIFY(!w.applyMemoryStep(env));
        QVERIFY2(shown.contains("by hand"), qPrintable(shown));
        QVERIFY(w.document()->project().answers == before);
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
