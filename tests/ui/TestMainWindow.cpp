// Offscreen UI tests: drive the window by objectName and assert on what it shows.
#include "ExportDialog.h"
#include "FindingsView.h"
#include "InputForm.h"
#include "JsonPreview.h"
#include "MainWindow.h"
#include "ProjectDocument.h"
#include "RecentFiles.h"
#include "Screenshot.h"
#include "StageTable.h"
#include "StepSidebar.h"
#include "TestSettings.h"
#include "WhyView.h"
#include "project/InputLabels.h"

#include <QApplication>
#include <QClipboard>
#include <QComboBox>
#include <QCompleter>
#include <QDialogButtonBox>
#include <QFileDialog>
#include <QGroupBox>
#include <QLabel>
#include <QLineEdit>
#include <QMenuBar>
#include <QMessageBox>
#include <QMimeData>
#include <QPlainTextEdit>
#include <QPushButton>
#include <QRegularExpression>
#include <QScrollArea>
#include <QScrollBar>
#include <QSettings>
#include <QStandardPaths>
#include <QStatusBar>
#include <QTabWidget>
#include <QTableWidget>
#include <QTemporaryDir>
#include <QTest>
#include <QTextBrowser>
#include <QTextDocumentFragment>
#include <QTimer>
#include <QUndoStack>
#include <QUrl>
#include <algorithm>

using namespace dsw;
using dsw::test::saveScreenshot;

class TestMainWindow : public QObject {
    Q_OBJECT

private:
    // What the preview shows once it is shown (a hidden tab is rebuilt when shown, not before).
    static nlohmann::json previewJson(MainWindow& w)
    {
        auto* preview = w.findChild<JsonPreview*>("jsonPreview");
        w.findChild<QTabWidget*>("previewTabs")->setCurrentWidget(preview);
        return nlohmann::json::parse(preview->toPlainText().toStdString());
    }
    static void typeInto(MainWindow& w, const char* id, const QString& text)
    {
        auto* edit = w.findChild<QLineEdit*>(id);
        QVERIFY2(edit, id);
        edit->selectAll();
        QTest::keyClicks(edit, text);
        QTest::keyClick(edit, Qt::Key_Return); // a one-line field applies what was typed when it is confirmed
    }
    static QString labelText(QWidget* root, const char* name)
    {
        auto* label = root->findChild<QLabel*>(name);
        return label ? label->text() : QString();
    }
    static QString tableText(QTableWidget* table)
    {
        QStringList cells;
        for (int r = 0; r < table->rowCount(); ++r)
            for (int c = 0; c < table->columnCount(); ++c)
                cells << (table->item(r, c) ? table->item(r, c)->text() : QString());
        return cells.join('|');
    }

    // Runs `act` on the next modal dialog of type T once it is shown (a nested event loop is running then).
    template <typename T>
    static QTimer* whenShown(std::function<void(T*)> act)
    {
        auto* timer = new QTimer(qApp);
        QObject::connect(timer, &QTimer::timeout, timer, [timer, act] {
            if (auto* dialog = qobject_cast<T*>(QApplication::activeModalWidget())) {
                timer->deleteLater();
                timer->stop();
                act(dialog);
            }
        });
        timer->start(10);
        return timer;
    }
    static QString writeFile(const QTemporaryDir& dir, const QString& name, const QByteArray& bytes)
    {
        QFile f(dir.filePath(name));
        if (!f.open(QIODevice::WriteOnly) || f.write(bytes) != bytes.size())
            return {};
        return f.fileName();
    }
    // Drags `path` over `target` and drops it there; true when the drag was accepted.
    static bool dropFile(QWidget* target, const QString& path)
    {
        QMimeData mime;
        mime.setUrls({QUrl::fromLocalFile(path)});
        mime.setText(QUrl::fromLocalFile(path).toString()); // what a file manager offers beside the URL
        const QPoint at = target->rect().center();
        QDragEnterEvent enter(at, Qt::CopyAction, &mime, Qt::LeftButton, Qt::NoModifier);
        QApplication::sendEvent(target, &enter);
        if (!enter.isAccepted())
            return false;
        QDropEvent drop(at, Qt::CopyAction, &mime, Qt::LeftButton, Qt::NoModifier);
        QApplication::sendEvent(target, &drop);
        return drop.isAccepted();
    }

private slots:
    void initTestCase() { dsw::test::useIsolatedSettings("TestMainWindow"); }

    void opensOnTheExampleProject()
    {
        MainWindow w;
        w.openAtStart(QString());
        QVERIFY(w.windowTitle().contains("example"));
        QVERIFY(!w.isWindowModified());
        const auto config = previewJson(w);
        QCOMPARE(config["train_micro_batch_size_per_gpu"].get<int>(), 4);
        QCOMPARE(config["gradient_accumulation_steps"].get<int>(), 2);
        QCOMPARE(config["train_batch_size"].get<int>(), 4 * 2 * 8);
        QVERIFY(config["bf16"]["enabled"].get<bool>());
        // Llama 2 7B as published (the catalog's preset), not a GPT block of its size.
        const Answers& answers = w.document()->project().answers;
        QCOMPARE(answers.text("model.preset"), std::string("llama-2-7b"));
        QCOMPARE(answers.text("model.mlp"), std::string("swiglu"));
        QCOMPARE(answers.text("model.norm"), std::string("rmsnorm"));
        QCOMPARE(answers.integer("model.intermediate_size"), 11008LL);
        QCOMPARE(answers.integer("model.params"), 6738415616LL);
        w.resize(1400, 860);
        saveScreenshot(w, "setup");
    }

    void editingAFieldUpdatesThePreviewAndUndoRestoresIt()
    {
        MainWindow w;
        w.openAtStart(QString());
        w.show();
        typeInto(w, "hardware.nodes", "4");
        QCOMPARE(previewJson(w)["train_batch_size"].get<int>(), 4 * 2 * 32);
        QVERIFY(w.isWindowModified());
        QVERIFY(w.findChild<JsonPreview*>("jsonPreview")->changedLineCount() > 0);
        w.document()->undoStack()->undo();
        QCOMPARE(previewJson(w)["train_batch_size"].get<int>(), 4 * 2 * 8);
        QVERIFY(!w.isWindowModified());
        QCOMPARE(w.findChild<QLineEdit*>("hardware.nodes")->text(), QStringLiteral("1"));
    }

    void typingMergesIntoOneUndoStep()
    {
        MainWindow w;
        w.openAtStart(QString());
        w.show();
        typeInto(w, "model.params", "175B");
        QCOMPARE(w.document()->undoStack()->count(), 1);
        QCOMPARE(w.document()->project().answers.integer("model.params"), 175000000000LL);
    }

    void badValueShowsTheErrorAndChangesNothing()
    {
        MainWindow w;
        w.openAtStart(QString());
        w.show();
        const auto before = previewJson(w);
        typeInto(w, "hardware.gpus_per_node", "lots");
        QVERIFY(previewJson(w) == before);
        auto* error = w.findChild<QLabel*>("hardware.gpus_per_node.error");
        QVERIFY(error && error->isVisible());
        QVERIFY2(error->text().contains("“GPUs per node”"), qPrintable(error->text())); // words, not ids
        QVERIFY(!error->text().contains("hardware.gpus_per_node"));
        QVERIFY(error->toolTip().contains("hardware.gpus_per_node")); // the id stays in the tooltip
        QVERIFY2(error->text().contains("the plan keeps 8"), qPrintable(error->text()));
    }

    void gpuChoiceChangesPrecision()
    {
        MainWindow w;
        w.openAtStart(QString());
        auto* gpu = w.findChild<QComboBox*>("hardware.gpu");
        QVERIFY(gpu);
        gpu->setCurrentText("V100-32GB");
        const auto config = previewJson(w);
        QVERIFY(!config.contains("bf16"));
        QVERIFY(config["fp16"]["enabled"].get<bool>());
    }

    // The model preset is searched by any part of its name; picking one fills the shape the user has not typed,
    // shown as placeholders that say where the value comes from.
    void presetIsSearchedAndFillsTheShape()
    {
        MainWindow w;
        w.openAtStart(QString());
        w.document()->reset(Project{}, QString()); // no answers: every model field is open to the preset
        w.show();
        auto* preset = w.findChild<QComboBox*>("model.preset");
        QVERIFY(preset && preset->isEditable());
        preset->completer()->setCompletionPrefix("3.1-8");
        QCOMPARE(preset->completer()->currentCompletion(), QStringLiteral("llama-3.1-8b"));
        preset->lineEdit()->setText("llama-3.1-8b");
        QTest::keyClick(preset->lineEdit(), Qt::Key_Return);
        QCOMPARE(w.document()->project().answers.text("model.preset"), std::string("llama-3.1-8b"));
        auto* hidden = w.findChild<QLineEdit*>("model.hidden_size");
        QVERIFY(hidden->text().isEmpty());
        QVERIFY2(hidden->placeholderText().startsWith("4096") && hidden->placeholderText().contains("Model preset"),
                 qPrintable(hidden->placeholderText()));
        auto* mlp = w.findChild<QComboBox*>("model.mlp");
        QCOMPARE(mlp->currentData().toString(), QStringLiteral("swiglu"));
        QVERIFY2(mlp->currentText().contains("Model preset"), qPrintable(mlp->currentText())); // not given: said
        QCOMPARE(w.document()->undoStack()->count(), 1);
    }

    void zeroStepShowsTableWhyAndMarksDoneOnNext()
    {
        MainWindow w;
        w.openAtStart(QString());
        w.show();
        w.goToStep("zero");
        auto* why = w.findChild<WhyView*>("whyView");
        w.findChild<QTabWidget*>("previewTabs")->setCurrentWidget(why);
        QVERIFY(why->toPlainText().contains("did not run or test"));
        QVERIFY(why->toPlainText().contains("aligns with documented stage capabilities"));
        auto* table = w.findChild<QTableWidget*>("stageTable");
        QCOMPARE(table->rowCount(), 4);
        saveScreenshot(w, "zero");
        auto* tabs = w.findChild<QTabWidget*>();
        tabs->setCurrentIndex(1);
        saveScreenshot(w, "zero-why");
        tabs->setCurrentIndex(2);
        saveScreenshot(w, "zero-memory");
        w.findChild<QTabWidget*>("previewTabs")->setCurrentWidget(why);
        // Every source tag leads to its entry under Sources (title, address, quote); clicking one scrolls there.
        const QString html = why->toHtml();
        const QRegularExpression tag(QStringLiteral("href=\"#(src-[^\"]+)\""));
        int tags = 0;
        for (auto it = tag.globalMatch(html); it.hasNext(); ++tags) {
            const QString anchor = it.next().captured(1);
            QVERIFY2(html.contains("name=\"" + anchor + "\""), qPrintable(anchor));
        }
        QVERIFY(tags > 3);
        why->verticalScrollBar()->setValue(0);
        emit why->anchorClicked(QUrl(QStringLiteral("#src-zero-ds-offload-stages")));
        QVERIFY(why->verticalScrollBar()->value() > 0);
        QVERIFY(!w.isWindowModified());
        w.findChild<QPushButton*>("nextButton")->click();
        QVERIFY(w.document()->project().isHandled("zero"));
        QVERIFY(w.isWindowModified()); // the done mark is saved with the project, so it is an unsaved change
        auto* sidebar = w.findChild<StepSidebar*>("stepSidebar");
        QVERIFY(sidebar->item(1)->text().startsWith(QStringLiteral("✓")));
    }

    // Must-have 1: every state on screen is derived and true.
    void theStageTableIsTrueWhateverIsForced()
    {
        MainWindow w;
        w.openAtStart(QString());
        w.show();
        w.document()->setAnswer("zero.stage", "3");
        w.goToStep("zero");
        auto* table = w.findChild<QTableWidget*>("stageTable");
        const ZeroDecision& zero = *w.document()->plan().zero;
        const std::vector<std::size_t>& rows = zero.stageTable;
        QVERIFY(table->rowCount() >= 4);
        QCOMPARE(table->rowCount(), int(rows.size()));
        for (int r = 0; r < table->rowCount(); ++r) {
            for (int c = StageTable::kGpuTotal; c <= StageTable::kParams; ++c)
                QVERIFY2(table->item(r, c)->text() != QStringLiteral("0.00 GiB"), qPrintable(tableText(table)));
            // The fit column is each row's own verdict.
            QCOMPARE(table->item(r, StageTable::kFits)->text().startsWith(QStringLiteral("✓")),
                     zero.candidates[rows[std::size_t(r)]].fits());
        }
        const QString text = tableText(table);
        // The marks stand in a narrow column of their own, the words in full in its tooltips.
        QStringList marks;
        for (int r = 0; r < table->rowCount(); ++r)
            marks << table->item(r, StageTable::kMark)->toolTip();
        // The forced stage is named as what the user fixed; the plan is the best with it, not "your choice".
        QVERIFY2(marks.join('|').contains("◀ the best with your ZeRO stage 3")
                     && marks.join('|').contains("the wizard's pick"),
                 qPrintable(marks.join('|')));
        QVERIFY2(!marks.join('|').contains("your choice"), qPrintable(marks.join('|')));
        QVERIFY2(text.contains("◀ plan") && text.contains("◀ pick"), qPrintable(text));
        for (int r = 0; r < table->rowCount(); ++r)
            QVERIFY(!table->item(r, StageTable::kPlan)->text().contains(QStringLiteral("◀")));
        // Stages 0–2 of 7B on 8 × A100-80GB fit at their own best micro-batch: no false ✗.
        QVERIFY2(table->item(2, StageTable::kFits)->text().startsWith(QStringLiteral("✓")), qPrintable(text));
        // "Fastest" only on the step model's pick, never over a stage the user forced.
        auto* page = w.findChild<QWidget*>("zeroPage");
        QVERIFY(!labelText(page, "headline").contains("fastest"));
        QVERIFY(!labelText(page, "checks").contains("fastest"));
        w.resize(1400, 860);
        QApplication::processEvents();
        // At 1400 × 860 every column shows: no horizontal scrolling.
        int width = 0;
        for (int c = 0; c < table->columnCount(); ++c)
            width += table->columnWidth(c);
        QVERIFY2(width <= table->viewport()->width(),
                 qPrintable(QStringLiteral("%1 > %2").arg(width).arg(table->viewport()->width())));
        QCOMPARE(table->horizontalScrollBar()->maximum(), 0);
        saveScreenshot(w, "zero-forced");
        // The wizard's own pick (nothing forced, the micro-batch searched) is the fastest.
        w.document()->setAnswer("zero.stage", nullptr);
        w.document()->setAnswer("training.micro_batch_size", nullptr);
        QVERIFY2(labelText(page, "headline").contains("fastest"), qPrintable(labelText(page, "headline")));
    }

    void aDoneMarkTurnsIntoChangedWhenTheAdviceChanges()
    {
        MainWindow w;
        w.openAtStart(QString());
        w.show();
        w.goToStep("zero");
        auto* page = w.findChild<QWidget*>("zeroPage");
        QVERIFY2(!labelText(page, "status").contains("not visited"), qPrintable(labelText(page, "status")));
        w.findChild<QPushButton*>("nextButton")->click();
        auto* sidebar = w.findChild<StepSidebar*>("stepSidebar");
        QVERIFY(sidebar->item(1)->text().startsWith(QStringLiteral("✓")));
        // When it was reviewed, for people: local time as the locale writes it, not the file's UTC ISO text.
        w.goToStep("zero");
        const QString at = QString::fromStdString(w.document()->project().handledEntry("zero")->at);
        const QString shown =
            QLocale().toString(QDateTime::fromString(at, Qt::ISODate).toLocalTime(), QLocale::ShortFormat);
        QVERIFY2(labelText(page, "status").contains("reviewed " + shown) && !labelText(page, "status").contains(at),
                 qPrintable(labelText(page, "status")));
        w.goToStep("precision"); // where Next went
        // Another GPU: the recommendation changes, so the mark no longer says it was reviewed.
        w.document()->setAnswer("hardware.gpu", "V100-32GB");
        QVERIFY2(sidebar->item(1)->text().startsWith(QStringLiteral("↻")), qPrintable(sidebar->item(1)->text()));
        QCOMPARE(sidebar->item(1)->toolTip(), QStringLiteral("changed since you reviewed it"));
        w.goToStep("zero");
        QVERIFY(labelText(page, "status").contains("changed since you reviewed it"));
        w.goToStep("summary");
        QVERIFY(w.findChild<QTextBrowser*>("summaryText")->toPlainText().contains("changed since you reviewed it"));
        w.goToStep("zero");
        w.findChild<QPushButton*>("nextButton")->click(); // reviewed again
        QVERIFY(sidebar->item(1)->text().startsWith(QStringLiteral("✓")));
        // Undo brings the old advice back: not what was reviewed last.
        w.document()->undoStack()->undo();
        QVERIFY(sidebar->item(1)->text().startsWith(QStringLiteral("↻")));
    }

    void theSummaryAndSidebarSayWhatIsTrue()
    {
        MainWindow w;
        w.openAtStart(QString());
        w.show();
        w.goToStep("summary");
        const QString summary = w.findChild<QTextBrowser*>("summaryText")->toPlainText();
        QVERIFY2(
            summary.contains("ZeRO stage and offload\nnot reviewed yet; its recommendation is applied in the config"),
            qPrintable(summary));
        QVERIFY2(summary.contains("recommends against it"), qPrintable(summary)); // 1-bit Adam on one node
        QVERIFY(!summary.contains("already in the config"));
        auto* sidebar = w.findChild<StepSidebar*>("stepSidebar");
        QVERIFY2(!sidebar->item(4)->text().startsWith(QStringLiteral("!")), qPrintable(sidebar->item(4)->text()));
        QCOMPARE(sidebar->item(4)->toolTip(), QStringLiteral("not used"));
        for (const char* step : {"precision", "pipeline", "memory", "nvme", "onebit", "sparse"}) {
            w.goToStep(step);
            const QString status = labelText(w.findChild<QWidget*>(QString(step) + "Page"), "status");
            QVERIFY2(!status.contains("not visited"), qPrintable(status));
        }
        const QString memoryChecks = labelText(w.findChild<QWidget*>("memoryPage"), "checks");
        QVERIFY2(memoryChecks.contains("Optional: give Out-of-memory message"), qPrintable(memoryChecks));
    }

    // The out-of-memory page does not ask for a parameter offload the run could not have had (stage 0–2).
    void theMemoryPageHidesAParameterOffloadBelowStage3()
    {
        MainWindow w;
        w.openAtStart(QString());
        w.show();
        w.goToStep("memory");
        auto* param = w.findChild<QComboBox*>("memory.ran_offload_param");
        QVERIFY(param);
        w.document()->setAnswer("memory.ran_stage", "2");
        QVERIFY(param->isHidden());
        QVERIFY(!w.findChild<QComboBox*>("memory.ran_offload_optimizer")->isHidden());
        w.document()->setAnswer("memory.ran_stage", "3");
        QVERIFY(!param->isHidden());
        QVERIFY(param->isVisible());
    }

    void derivedBatchValuesAreShownAsDerived()
    {
        MainWindow w;
        w.openAtStart(QString());
        w.show();
        w.document()->setAnswer("training.global_batch_size", 64);
        w.document()->setAnswer("training.gradient_accumulation_steps", nullptr);
        QCOMPARE(previewJson(w)["gradient_accumulation_steps"].get<int>(), 2); // 64 / (4 × 8)
        auto* field = w.findChild<QLineEdit*>("training.gradient_accumulation_steps");
        QVERIFY(field->text().isEmpty()); // not typed
        QVERIFY2(field->placeholderText().startsWith("2") && field->placeholderText().contains("derived"),
                 qPrintable(field->placeholderText()));
    }

    void aGlobalBatchThatDropsWithPipelineStagesIsSaid()
    {
        MainWindow w;
        w.openAtStart(QString());
        w.show();
        w.goToStep("pipeline");
        typeInto(w, "pipeline.stages", "4");
        const QString message = w.statusBar()->currentMessage();
        QVERIFY2(message.contains("changed from 64 to 16") && message.contains("“Pipeline stages”"),
                 qPrintable(message));
    }

    // Must-have 6: words, not ids; units; Setup in sections.
    void messagesAndUndoUseLabels()
    {
        MainWindow w;
        w.openAtStart(QString());
        w.show();
        typeInto(w, "hardware.nodes", "2");
        QCOMPARE(w.document()->undoStack()->undoText(), QStringLiteral("Change Nodes"));
        // Nothing fits (70B on one GPU with 64 GiB of host RAM): the suggestions name fields by their labels.
        w.document()->setAnswer("model.params", 70000000000LL);
        w.document()->setAnswer("hardware.gpus_per_node", 1);
        w.document()->setAnswer("hardware.nodes", 1);
        w.document()->setAnswer("hardware.cpu_memory_gib", 64);
        w.goToStep("zero");
        // The words shown (the label is rich text: a field's page is a link, its target the id).
        const QString checks =
            QTextDocumentFragment::fromHtml(labelText(w.findChild<QWidget*>("zeroPage"), "checks")).toPlainText();
        QVERIFY2(checks.contains("“Local NVMe”"), qPrintable(checks));
        QVERIFY2(!checks.contains("hardware.nvme"), qPrintable(checks));
        auto* whyView = w.findChild<WhyView*>("whyView");
        w.findChild<QTabWidget*>("previewTabs")->setCurrentWidget(whyView);
        const QString why = whyView->toPlainText(); // the Why tab too
        QVERIFY(why.contains("“Local NVMe”") && !why.contains("hardware.nvme ="));
        // A field's tooltip names other inputs by their labels; its own id comes last, for --set.
        const QString tip = w.findChild<QLineEdit*>("hardware.nics_per_node")->toolTip();
        QVERIFY2(tip.contains("“Inter-node bandwidth”") && !tip.contains("hardware.inter_node_gbps"), qPrintable(tip));
        QVERIFY2(tip.contains("\nhardware.nics_per_node — allowed: "), qPrintable(tip));
    }

    void fieldsShowUnitsAndSetupHasSections()
    {
        MainWindow w;
        w.openAtStart(QString());
        auto* setup = w.findChild<QWidget*>("setupPage");
        for (const char* section : {"Model", "Cluster", "Training", "Software"})
            QVERIFY2(setup->findChild<QGroupBox*>(QStringLiteral("section.%1").arg(section)), section);
        QVERIFY(setup->findChild<QGroupBox*>("section.Cluster")->findChild<QLineEdit*>("hardware.nodes"));
        QVERIFY(setup->findChild<QGroupBox*>("section.Model")->findChild<QLineEdit*>("model.params"));
        QVERIFY(setup->findChild<QGroupBox*>("section.Software")->findChild<QWidget*>("software.launcher"));
        QStringList labels;
        for (auto* label : setup->findChildren<QLabel*>())
            labels << label->text();
        QVERIFY(labels.contains("Inter-node bandwidth (Gbit/s)"));
        QVERIFY(labels.contains("Sequence length (tokens)"));
        QVERIFY(labels.contains("Gradient accumulation (steps)"));
        w.resize(1400, 1000);
        saveScreenshot(w, "setup-sections");
    }

    // The adapters' fields are asked with the method that reads them (Pages.h inputsNotAsked), in Training.
    void theAdaptersAreAskedWithTheirMethod()
    {
        MainWindow w;
        w.openAtStart(QString());
        w.resize(1400, 1000);
        w.show();
        auto* setup = w.findChild<QWidget*>("setupPage");
        auto* method = setup->findChild<QComboBox*>("training.method");
        auto* rank = setup->findChild<QWidget*>("lora.rank");
        auto* doubleQuant = setup->findChild<QWidget*>("lora.double_quant");
        QVERIFY(method && rank && doubleQuant);
        QVERIFY(setup->findChild<QGroupBox*>("section.Training")->isAncestorOf(rank));
        QVERIFY(!rank->isVisibleTo(setup)); // a full fine-tune has no adapters
        method->setCurrentIndex(method->findData("lora"));
        QTRY_VERIFY(rank->isVisibleTo(setup));
        QVERIFY(!doubleQuant->isVisibleTo(setup));
        method->setCurrentIndex(method->findData("qlora"));
        QTRY_VERIFY(doubleQuant->isVisibleTo(setup));
        if (auto* scroll = setup->findChild<QScrollArea*>())
            scroll->ensureWidgetVisible(doubleQuant);
        saveScreenshot(w, "setup-qlora");
        method->setCurrentIndex(method->findData("full"));
        QTRY_VERIFY(!rank->isVisibleTo(setup));
    }

    // A mixture of experts (issue 25): its config.json asks how DeepSpeed trains the experts on Setup, and the ZeRO
    // step plans with every expert: the stage table names the path, the Why tab gives the counts, the gathered block
    // and the all-to-all.
    void aMixtureOfExpertsIsAskedAndPlanned()
    {
        MainWindow w;
        w.openAtStart(QString());
        w.resize(1400, 860);
        w.show();
        auto* setup = w.findChild<QWidget*>("setupPage");
        auto* mode = setup->findChild<QWidget*>("moe.mode");
        QVERIFY(mode && !mode->isVisibleTo(setup)); // a dense model is not asked
        QVERIFY(w.importConfig(QStringLiteral(DSW_TEST_DATA_DIR "/hf-configs/mixtral-8x7b-v0.1.json")));
        QTRY_VERIFY(mode->isVisibleTo(setup));
        QVERIFY(setup->findChild<QGroupBox*>("section.Training")->isAncestorOf(mode));
        w.goToStep("zero");
        auto* table = w.findChild<QTableWidget*>("stageTable");
        QString rows;
        for (int r = 0; r < table->rowCount(); ++r)
            for (int c = 0; c < table->columnCount(); ++c)
                if (const QTableWidgetItem* item = table->item(r, c))
                    rows += item->text() + " | ";
        saveScreenshot(w, "zero-mixtral");
        auto* why = w.findChild<WhyView*>("whyView");
        w.findChild<QTabWidget*>("previewTabs")->setCurrentWidget(why);
        const QString text = why->toPlainText();
        for (const char* part :
             {"Mixture of experts: 46.7B parameters", "Gathered MoE block per layer", "All-to-all per step"})
            QVERIFY2(text.contains(part), qPrintable(QString(part) + "\n" + text.left(3000)));
        saveScreenshot(w, "zero-mixtral-why");
        QVERIFY2(rows.contains(", EP ") || rows.contains(", leaf"), qPrintable(rows)); // the path, in the cell
    }

    // Issue 26: Llama-3.1-8B at 1M tokens on 8 H100s gets a Ulysses plan on the ZeRO page, with its fields there, and
    // the sparse-attention page points to it.
    void aLongContextJobIsPlannedWithUlysses()
    {
        MainWindow w;
        w.openAtStart(QString());
        w.resize(1400, 860);
        w.show();
        w.document()->setAnswer("model.preset", "llama-3.1-8b");
        w.document()->setAnswer("hardware.gpu", "H100-80GB");
        w.document()->setAnswer("hardware.gpus_per_node", 8);
        w.document()->setAnswer("model.seq_len", 1048576);
        auto* page = w.findChild<QWidget*>("zeroPage");
        // The example project's typed micro-batch 4 × 2 steps cannot fit: the page says so and names the wizard's
        // Ulysses plan; clearing them, as it says, takes it.
        w.goToStep("zero");
        QTRY_VERIFY(labelText(page, "headline").contains("Nothing fits"));
        const QString checks = QTextDocumentFragment::fromHtml(labelText(page, "checks")).toPlainText();
        QVERIFY2(checks.contains("Ulysses SP 8, fused cross-entropy, fits; change or clear those answers"),
                 qPrintable(checks));
        w.document()->setAnswer("training.micro_batch_size", nullptr);
        w.document()->setAnswer("training.gradient_accumulation_steps", nullptr);
        QVERIFY(page->findChild<QWidget*>("parallel.sequence_parallel_size"));
        QTRY_VERIFY2(labelText(page, "headline").contains("Ulysses SP 8"), qPrintable(labelText(page, "headline")));
        QVERIFY2(tableText(w.findChild<QTableWidget*>("stageTable")).contains("SP 8"),
                 qPrintable(tableText(w.findChild<QTableWidget*>("stageTable"))));
        saveScreenshot(w, "zero-long-context");
        auto* why = w.findChild<WhyView*>("whyView");
        w.findChild<QTabWidget*>("previewTabs")->setCurrentWidget(why);
        const QString text = why->toPlainText();
        for (const char* part : {"DeepSpeed-Ulysses over 8 GPUs", "Tokens per GPU", "Ulysses all-to-all per step"})
            QVERIFY2(text.contains(part), qPrintable(QString(part) + "\n" + text.left(3000)));
        saveScreenshot(w, "zero-long-context-why");
        w.goToStep("sparse");
        const QString sparse = labelText(w.findChild<QWidget*>("sparsePage"), "headline");
        QVERIFY2(sparse.contains("Ulysses SP 8"), qPrintable(sparse));
        saveScreenshot(w, "sparse-long-context");
    }

    // Must-have 5: input is applied only when valid; natural units; readable numbers.
    void halfTypedValuesAreNotApplied()
    {
        MainWindow w;
        w.openAtStart(QString());
        w.show();
        w.goToStep("zero");
        auto* ram = w.findChild<QLineEdit*>("hardware.cpu_memory_gib");
        ram->setFocus();
        ram->selectAll();
        QTest::keyClicks(ram, "2");
        // The first keystroke of "2 TB" does not reach the plan.
        QCOMPARE(w.document()->project().answers.number("hardware.cpu_memory_gib"), 1024.0);
        QCOMPARE(w.document()->undoStack()->count(), 0);
        QTest::keyClicks(ram, " TB");
        QTest::keyClick(ram, Qt::Key_Return);
        QCOMPARE(w.document()->project().answers.number("hardware.cpu_memory_gib"), 2048.0);
        QCOMPARE(w.document()->undoStack()->count(), 1);
        // Something invalid keeps the last valid value and says so.
        ram->selectAll();
        QTest::keyClicks(ram, "3 T B");
        QTest::keyClick(ram, Qt::Key_Return);
        QCOMPARE(w.document()->project().answers.number("hardware.cpu_memory_gib"), 2048.0);
        auto* error = w.findChild<QLabel*>("hardware.cpu_memory_gib.error");
        QVERIFY(error->isVisible());
        QVERIFY2(error->text().contains("the plan keeps 2048 GiB"), qPrintable(error->text()));
        // A pause in typing applies a valid value without Enter.
        ram->selectAll();
        QTest::keyClicks(ram, "512 GiB");
        QVERIFY(!error->isVisible()); // the message goes as soon as the text is right
        QTRY_COMPARE_WITH_TIMEOUT(w.document()->project().answers.number("hardware.cpu_memory_gib"), 512.0,
                                  InputForm::kApplyAfterMs * 10);
    }

    void largeNumbersReadBack()
    {
        MainWindow w;
        w.openAtStart(QString());
        w.document()->setAnswer("model.params", 13000000000LL);
        QCOMPARE(w.findChild<QLineEdit*>("model.params")->text(), QStringLiteral("13B"));
        typeInto(w, "hardware.inter_node_gbps", "400Gbps");
        QCOMPARE(w.document()->project().answers.number("hardware.inter_node_gbps"), 400.0);
    }

    void everyWorkflowHasAStepWithItsInputsAndRecommendation()
    {
        MainWindow w;
        w.openAtStart(QString());
        w.show();
        auto* sidebar = w.findChild<StepSidebar*>("stepSidebar");
        QCOMPARE(sidebar->count(), 9); // setup, seven workflows, summary
        w.goToStep("pipeline");
        typeInto(w, "pipeline.stages", "4");
        QCOMPARE(previewJson(w)["train_batch_size"].get<int>(), 4 * 2 * 2); // data-parallel size 8 / 4
        for (const char* step : {"precision", "pipeline", "memory", "nvme", "onebit", "sparse"}) {
            w.goToStep(step);
            auto* page = w.findChild<QWidget*>(QString(step) + "Page");
            QVERIFY2(page && page->isVisible(), step);
            auto* headline = page->findChild<QLabel*>("headline");
            QVERIFY2(headline && !headline->text().isEmpty(), step);
            saveScreenshot(w, QString("step-") + step);
        }
        w.goToStep("summary");
        auto* summary = w.findChild<QTextBrowser*>("summaryText");
        // The optional OOM diagnosis without a message is not used, not "needs input"; its input named by its label.
        // Said once: the state, then the input to give (linked), not the input named twice in one cell.
        QVERIFY2(summary->toPlainText().contains("not used (optional)\nGo to: Out-of-memory message (in "),
                 qPrintable(summary->toPlainText()));
        QCOMPARE(summary->toPlainText().count("Out-of-memory message ("), 1);
        QVERIFY(!summary->toPlainText().contains("memory.oom_message"));
        QVERIFY(summary->toPlainText().contains("not applicable to these answers")); // DeepNVMe without an SSD
        saveScreenshot(w, "step-summary");
        // Inputs shared with Setup are never asked again on a workflow page.
        QVERIFY(!w.findChild<QWidget*>("pipelinePage")->findChild<QLineEdit*>("model.layers"));
        QVERIFY(w.findChild<QWidget*>("pipelinePage")->findChild<QLineEdit*>("pipeline.stages"));
    }

    void pastingAnOutOfMemoryMessageDiagnosesIt()
    {
        MainWindow w;
        w.openAtStart(QString());
        w.show();
        w.goToStep("memory");
        QVERIFY(w.document()->plan().find("memory")->status == AdviceStatus::NeedsInput);
        auto* box = w.findChild<QPlainTextEdit*>("memory.oom_message");
        QVERIFY(box);
        box->setPlainText("torch.OutOfMemoryError: CUDA out of memory. Tried to allocate 2.00 GiB. GPU 0 has a total "
                          "capacity of 79.15 GiB of which 1.02 GiB is free. Including non-PyTorch memory, this process "
                          "has 78.11 GiB memory in use. Of the allocated memory 75.50 GiB is allocated by PyTorch, and "
                          "1.90 GiB is reserved by PyTorch but unallocated.");
        const Advice* memory = w.document()->plan().find("memory");
        QVERIFY(memory->status == AdviceStatus::Complete);
        QVERIFY(memory->details["parsed"]["tried_to_allocate_bytes"] == 2LL * 1024 * 1024 * 1024);
        QVERIFY(!w.findChild<QWidget*>("memoryPage")->findChild<QLabel*>("headline")->text().isEmpty());
        saveScreenshot(w, "step-memory-diagnosed");
    }

    void saveAndReopenKeepsAnswersAndDoneSteps()
    {
        QTemporaryDir dir;
        const QString path = dir.filePath("p.dswiz");
        {
            MainWindow w;
            w.openAtStart(QString());
            w.show();
            typeInto(w, "hardware.nodes", "2");
            w.goToStep("zero");
            w.findChild<QPushButton*>("nextButton")->click();
            QCOMPARE(w.saveProjectAs(path), QString());
            QVERIFY(!w.isWindowModified());
            QVERIFY(w.windowTitle().startsWith("p.dswiz"));
        }
        QSettings settings;
        QCOMPARE(RecentFiles(settings).files().value(0), QFileInfo(path).absoluteFilePath());
        MainWindow w;
        QVERIFY(w.openProject(path));
        QCOMPARE(w.document()->project().answers.integer("hardware.nodes"), 2);
        QVERIFY(w.document()->project().isHandled("zero"));
        QCOMPARE(w.findChild<QLineEdit*>("hardware.nodes")->text(), QStringLiteral("2"));
    }

    void copyPutsTheConfigOnTheClipboard()
    {
        MainWindow w;
        w.openAtStart(QString());
        QApplication::clipboard()->clear();
        w.findChild<QPushButton*>("copyButton")->click();
        QVERIFY(nlohmann::json::parse(QApplication::clipboard()->text().toStdString()) == previewJson(w));
    }

    void previewAndCopyFollowTheLauncher()
    {
        MainWindow w;
        w.openAtStart(QString());
        w.show();
        auto* form = w.findChild<QComboBox*>("configForm");
        QVERIFY(form && form->isVisible());
        auto* preview = w.findChild<JsonPreview*>("jsonPreview");
        auto copied = [&w] {
            QApplication::clipboard()->clear();
            w.findChild<QPushButton*>("copyButton")->click();
            return QApplication::clipboard()->text();
        };
        const auto& doc = *w.document();
        auto text = [&doc](ConfigForm f) {
            return QString::fromStdString(configText(doc.plan().config, doc.project().answers, f));
        };

        w.document()->setAnswer("software.launcher", "deepspeed");
        QCOMPARE(w.configForm(), ConfigForm::Strict);
        QVERIFY(!preview->toPlainText().contains("\"auto\""));
        QCOMPARE(copied(), text(ConfigForm::Strict));

        // An HF launcher: the preview and the clipboard are the "auto" form, what the hf-json export writes.
        w.document()->setAnswer("software.launcher", "hf-trainer");
        QCOMPARE(w.configForm(), ConfigForm::HfAuto);
        QCOMPARE(form->currentData().toInt(), int(ConfigForm::HfAuto));
        QVERIFY(previewJson(w)["optimizer"]["params"]["weight_decay"] == "auto");
        QCOMPARE(preview->toPlainText() + "\n", text(ConfigForm::HfAuto));
        QCOMPARE(copied(), text(ConfigForm::HfAuto));
        QVERIFY(w.statusBar()->currentMessage().contains("auto"));
        // A finding's line (of the strict config) selects its key in the form shown, whose lines differ.
        const int strictLine = parseConfigText(doc.plan().config.dump(2)).value().lineOf("/zero_optimization");
        QVERIFY(strictLine > 0);
        preview->highlightLine(strictLine);
        QVERIFY2(preview->textCursor().selectedText().contains("zero_optimization"),
                 qPrintable(preview->textCursor().selectedText()));

        // The switch: the user's pick holds over edits, until the launcher changes.
        form->setCurrentIndex(form->findData(int(ConfigForm::Strict)));
        emit form->activated(form->currentIndex());
        QCOMPARE(w.configForm(), ConfigForm::Strict);
        QVERIFY(!preview->toPlainText().contains("\"auto\""));
        QCOMPARE(copied(), text(ConfigForm::Strict));
        w.document()->setAnswer("hardware.nodes", 2);
        QCOMPARE(w.configForm(), ConfigForm::Strict);
        w.document()->setAnswer("software.launcher", "accelerate");
        QCOMPARE(w.configForm(), ConfigForm::HfAuto);
        QCOMPARE(copied(), text(ConfigForm::HfAuto));
    }

    void importKeepsTheFilesOwnFindings()
    {
        QTemporaryDir dir;
        const QString path = dir.filePath("hand-edited.json");
        QFile f(path);
        QVERIFY(f.open(QIODevice::WriteOnly));
        f.write("{\n  // tuned by hand\n  \"train_batch_size\": 16,\n  \"train_batch_size\": 32\n}\n");
        f.close();
        MainWindow w;
        w.openAtStart(QString());
        QVERIFY(w.importConfig(path));
        // One short line in the status bar; the notes in full in its tooltip.
        const QString message = w.statusBar()->currentMessage();
        QVERIFY2(message.startsWith("Imported hand-edited.json: ") && message.contains(" note")
                     && !message.contains("is the one kept") && message.size() < 80,
                 qPrintable(message));
        QVERIFY2(w.statusBar()->toolTip().contains("is the one kept"), qPrintable(w.statusBar()->toolTip()));
        w.statusBar()->showMessage("something else");
        QVERIFY(w.statusBar()->toolTip().isEmpty()); // the notes went with their line
        const auto& lint = w.document()->plan().lint;
        for (const char* code : {"duplicate-key", "not-strict-json"})
            QVERIFY2(std::any_of(lint.begin(), lint.end(), [&](const LintFinding& l) { return l.code == code; }), code);
        auto* findings = w.findChild<FindingsView*>("findingsView");
        QStringList shown;
        for (int i = 0; i < findings->count(); ++i)
            shown << findings->item(i)->text();
        QVERIFY2(shown.join('\n').contains("written more than once"), qPrintable(shown.join('\n')));
        QVERIFY(shown.join('\n').contains("not strict JSON"));
        QCOMPARE(previewJson(w)["train_batch_size"].get<int>(), 32);
    }

    void closingWithUnsavedChangesAsks()
    {
        MainWindow w;
        w.openAtStart(QString());
        w.show();
        typeInto(w, "hardware.nodes", "3");
        auto answer = [](QMessageBox::StandardButton button) {
            QTimer::singleShot(0, [button] {
                auto* box = qobject_cast<QMessageBox*>(QApplication::activeModalWidget());
                QVERIFY(box);
                box->button(button)->click();
            });
        };
        answer(QMessageBox::Cancel);
        QVERIFY(!w.close());
        QVERIFY(w.isVisible());
        answer(QMessageBox::Discard);
        QVERIFY(w.close());
    }

    void importShowsFindingsAndAcceptsSuggestions()
    {
        QTemporaryDir dir;
        const QString path = dir.filePath("imported.json");
        QFile f(path);
        QVERIFY(f.open(QIODevice::WriteOnly));
        f.write(R"({"train_batch_size": 64, "train_micro_batch_size_per_gpu": 4,
  "gradient_clipp1ng": 1.0,
  "zero_optimization": {"stage": 2, "cpu_offload": true}})");
        f.close();
        MainWindow w;
        w.openAtStart(QString());
        w.show();
        QVERIFY(w.importConfig(path));
        QVERIFY(w.windowTitle().contains("imported.json"));
        QVERIFY(!w.isWindowModified());
        const auto before = previewJson(w);
        QVERIFY(before.contains("gradient_clipp1ng")); // the config as imported, unknown keys kept
        auto* findings = w.findChild<FindingsView*>("findingsView");
        w.findChild<QTabWidget*>("previewTabs")->setCurrentWidget(findings);
        QVERIFY(findings->findingCount() >= 2); // the typo and the deprecated cpu_offload
        // No suggestion from defaults: the banner asks for the model and the cluster, then they come.
        QCOMPARE(findings->suggestionCount(), 0);
        auto* banner = w.findChild<QLabel*>("suggestionsNeedBanner");
        QVERIFY(banner && banner->isVisible());
        for (const char* id : {"hardware.gpu", "hardware.gpus_per_node", "hardware.nodes"})
            QVERIFY2(banner->text().contains(QString::fromStdString(inputLabel(id))), id);
        // What the banner asks for does not look given: the GPU box says its value is the default.
        w.goToStep("setup");
        auto* gpu = w.findChild<QComboBox*>("hardware.gpu");
        QVERIFY2(gpu->currentText().endsWith("(default)") && gpu->font().italic(), qPrintable(gpu->currentText()));
        w.resize(1400, 860);
        saveScreenshot(w, "import-banner");
        w.document()->setAnswer("model.params", 7e9);
        w.document()->setAnswer("hardware.gpu", "a100-80gb");
        w.document()->setAnswer("hardware.gpus_per_node", 8);
        w.document()->setAnswer("hardware.nodes", 1);
        QVERIFY(!banner->isVisible());
        QVERIFY(!gpu->currentText().contains("(default)") && !gpu->font().italic());
        QVERIFY(findings->suggestionCount() >= 1);
        saveScreenshot(w, "import-findings");

        // Selecting a finding highlights its line in the preview.
        findings->setCurrentRow(1); // the first finding, under its heading
        auto* preview = w.findChild<JsonPreview*>("jsonPreview");
        QVERIFY(preview->textCursor().hasSelection());

        // Accepting a suggestion changes the config; undo takes it back.
        const Suggestion suggestion = w.document()->plan().suggestions.front();
        w.document()->setSuggestionAccepted(suggestion.pointer, true);
        QVERIFY(previewJson(w) != before);
        QVERIFY(w.isWindowModified());
        w.document()->undoStack()->undo();
        QVERIFY(previewJson(w) == before);
    }

    void exportDialogPreviewsEveryFile()
    {
        MainWindow w;
        w.openAtStart(QString());
        Answers answers = w.document()->project().answers;
        answers.set("software.launcher", "accelerate");
        answers.set("hardware.nodes", 2);
        ExportDialog dialog(w.document()->plan().config, answers);
        dialog.setTarget(ExportTarget::Bundle);
        auto* tabs = dialog.findChild<QTabWidget*>();
        QCOMPARE(tabs->count(), int(dialog.files().size()));
        QVERIFY(dialog.findChild<QPlainTextEdit*>("accelerate_config.yaml"));
        dialog.setTarget(ExportTarget::DeepSpeedJson);
        QCOMPARE(tabs->count(), 1);
    }

    // A plan the launcher's reader cannot run: the dialog says why and offers no Save; a Trainer bundle has no
    // Accelerate YAML to offer.
    void exportDialogRefusesWhatTheReaderCannotRun()
    {
        MainWindow w;
        w.openAtStart(QString());
        Answers answers = w.document()->project().answers;
        answers.set("software.launcher", "hf-trainer");
        answers.set("pipeline.stages", 2);
        ExportDialog dialog(w.document()->plan().config, answers);
        auto* target = dialog.findChild<QComboBox*>("exportTarget");
        QCOMPARE(target->findData(int(ExportTarget::AccelerateYaml)), -1);
        dialog.setTarget(ExportTarget::Bundle);
        auto* save = dialog.findChild<QDialogButtonBox*>()->button(QDialogButtonBox::Save);
        QVERIFY(!save->isEnabled());
        QVERIFY(dialog.findChild<QPlainTextEdit*>("exportRefusal")->toPlainText().contains("PipelineModule"));
        dialog.setTarget(ExportTarget::DeepSpeedJson);
        QVERIFY(save->isEnabled());
        QVERIFY(!dialog.findChild<QPlainTextEdit*>("exportRefusal"));
    }

    // A file dropped on a field is the window's to import (or open), never pasted into the field as its URL.
    void aFileDroppedOnAFieldIsImportedNotPasted()
    {
        QTemporaryDir dir;
        const QString config = writeFile(dir, "dropped.json", R"({"train_micro_batch_size_per_gpu": 2})");
        const QString text = writeFile(dir, "notes.txt", "not a config");
        MainWindow w;
        w.openAtStart(QString());
        w.show();
        auto* nodes = w.findChild<QLineEdit*>("hardware.nodes");
        auto* oom = w.findChild<QPlainTextEdit*>("memory.oom_message");
        QVERIFY(nodes && oom);
        const QString before = nodes->text();
        QVERIFY(!dropFile(nodes, text)); // nothing the window opens: refused, not pasted
        QVERIFY(!dropFile(oom->viewport(), text));
        QCOMPARE(nodes->text(), before);
        QVERIFY(oom->toPlainText().isEmpty());
        QVERIFY(dropFile(oom->viewport(), config));
        QTRY_VERIFY(w.windowTitle().contains("dropped.json (imported)"));
        QVERIFY(oom->toPlainText().isEmpty());
        QCOMPARE(previewJson(w)["train_micro_batch_size_per_gpu"].get<int>(), 2);
    }

    // The save question names the project as the title does, and comes only when the import would replace it: a
    // model's config.json fills the model answers of the open project (undoable) and discards nothing.
    void onlyAnImportThatReplacesTheProjectAsksToSave()
    {
        QTemporaryDir dir;
        const QString config = writeFile(dir, "imported.json", R"({"train_micro_batch_size_per_gpu": 2})");
        MainWindow w;
        w.openAtStart(QString());
        w.show();
        QVERIFY(w.importConfig(config));
        typeInto(w, "hardware.nodes", "3");
        QVERIFY(w.isWindowModified());
        bool asked = false;
        QTimer* watch = whenShown<QMessageBox>([&asked](QMessageBox* box) {
            asked = true;
            box->button(QMessageBox::Cancel)->click();
        });
        QVERIFY(w.importOrOpen(QStringLiteral(DSW_TEST_DATA_DIR "/hf-configs/llama-2-7b.json")));
        QVERIFY(!asked);
        delete watch;
        QCOMPARE(w.document()->project().answers.value("model.hidden_size").get<int>(), 4096);
        QVERIFY(w.windowTitle().contains("imported.json (imported)")); // the same project, its model filled
        QString question;
        whenShown<QMessageBox>([&question](QMessageBox* box) {
            question = box->text();
            box->button(QMessageBox::Cancel)->click();
        });
        QVERIFY(!w.importOrOpen(config));
        QVERIFY2(question.startsWith("imported.json (imported) has unsaved changes"), qPrintable(question));
        QCOMPARE(w.document()->project().answers.value("hardware.nodes").get<int>(), 3); // nothing replaced
    }

    // Export opens beside the project; a bundle can go to a folder that does not exist yet (made whole).
    void exportOpensBesideTheProjectAndABundleMakesANewFolder()
    {
        QTemporaryDir dir;
        MainWindow w;
        w.openAtStart(QString());
        w.show();
        QCOMPARE(w.saveProjectAs(dir.filePath("run.dswiz")), QString());
        QString opened;
        QString suggested;
        whenShown<ExportDialog>([&](ExportDialog* dialog) {
            dialog->setTarget(ExportTarget::Bundle);
            whenShown<QFileDialog>([&](QFileDialog* files) {
                opened = files->directory().absolutePath();
                suggested = files->selectedFiles().value(0);
                static_cast<QDialog*>(files)->accept(); // QFileDialog::accept(): the name as typed
            });
            dialog->findChild<QDialogButtonBox*>()->button(QDialogButtonBox::Save)->click();
        });
        QAction* exportAction = nullptr;
        for (QAction* a : w.menuBar()->actions().front()->menu()->actions())
            if (a->text().startsWith("&Export"))
                exportAction = a;
        QVERIFY(exportAction);
        exportAction->trigger();
        QCOMPARE(opened, QDir(dir.path()).absolutePath());
        QCOMPARE(suggested, QDir(dir.path()).absoluteFilePath("run-deepspeed"));
        QVERIFY(QFileInfo(dir.filePath("run-deepspeed/ds_config.json")).isFile());
    }

    void exportWritesTheConfig()
    {
        QTemporaryDir dir;
        MainWindow w;
        w.openAtStart(QString());
        const QString path = dir.filePath("ds_config.json");
        QCOMPARE(w.exportConfig(path), QString());
        QFile f(path);
        QVERIFY(f.open(QIODevice::ReadOnly));
        QVERIFY(nlohmann::json::parse(f.readAll().toStdString()) == previewJson(w));
        QVERIFY(!w.exportConfig(dir.filePath("missing-dir/x.json")).isEmpty());
    }
};

QTEST_MAIN(TestMainWindow)
#include "TestMainWindow.moc"
