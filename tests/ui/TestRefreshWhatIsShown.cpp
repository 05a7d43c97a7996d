// Offscreen: the window refreshes once per edit and per Next, rebuilds only the tab and page shown, and a hidden
// tab or page is rebuilt, to the current plan, when it is shown. The Memory chart keeps its chart object.
#include "FindingsView.h"
#include "JsonPreview.h"
#include "MainWindow.h"
#include "MemoryChart.h"
#include "ProjectDocument.h"
#include "StageTable.h"
#include "SummaryPage.h"
#include "TestSettings.h"
#include "WhyView.h"
#include "WorkflowPage.h"
#include "config/ConfigExport.h"

#include <QBarSet>
#include <QChart>
#include <QComboBox>
#include <QFile>
#include <QLabel>
#include <QLineEdit>
#include <QPushButton>
#include <QSettings>
#include <QStackedBarSeries>
#include <QStackedWidget>
#include <QStandardPaths>
#include <QTabWidget>
#include <QTableWidget>
#include <QTemporaryDir>
#include <QTest>
#include <QTextBrowser>
#include <QUndoStack>

using namespace dsw;

namespace {
QTabWidget* tabsOf(MainWindow& w) { return w.findChild<QTabWidget*>("previewTabs"); }
QStackedWidget* pagesOf(MainWindow& w)
{
    return qobject_cast<QStackedWidget*>(w.findChild<QWidget*>("setupPage")->parentWidget());
}

QString labelsOf(QWidget* page)
{
    QStringList texts;
    for (const char* name : {"headline", "status", "checks"})
        if (auto* label = page->findChild<QLabel*>(name))
            texts << label->text();
    if (auto* table = page->findChild<QTableWidget*>("stageTable"))
        for (int r = 0; r < table->rowCount(); ++r)
            for (int c = 0; c < table->columnCount(); ++c)
                texts << (table->item(r, c) ? table->item(r, c)->text() : QString());
    return texts.join('|');
}

QStackedBarSeries* barsOf(MemoryChart* chart)
{
    for (QAbstractSeries* s : chart->chart()->series())
        if (auto* bars = qobject_cast<QStackedBarSeries*>(s))
            return bars;
    return nullptr;
}

std::vector<double> barTotals(MemoryChart* chart)
{
    std::vector<double> totals;
    QStackedBarSeries* bars = barsOf(chart);
    for (int i = 0; bars && i < bars->barSets().front()->count(); ++i) {
        double sum = 0;
        for (QBarSet* set : bars->barSets())
            sum += set->at(i);
        totals.push_back(sum);
    }
    return totals;
}

// The shown tab and page against the same widgets built fresh from the document: nothing shown is stale.
void checkShownIsCurrent(MainWindow& w)
{
    const auto& plan = w.document()->plan();
    const auto& project = w.document()->project();
    QWidget* tab = tabsOf(w)->currentWidget();
    QVERIFY(!w.isStale(tab));
    if (auto* preview = qobject_cast<JsonPreview*>(tab)) {
        const auto form = static_cast<ConfigForm>(w.findChild<QComboBox*>("configForm")->currentData().toInt());
        JsonPreview fresh;
        fresh.showConfig(plan.config, configInForm(plan.config, project.answers, form), false);
        QCOMPARE(preview->toPlainText(), fresh.toPlainText());
    } else if (auto* why = qobject_cast<WhyView*>(tab)) {
        WhyView fresh;
        const std::string step = pagesOf(w)->currentWidget()->objectName().toStdString();
        const std::string workflow =
            step == "setupPage" || step == "summaryPage" ? "" : step.substr(0, step.size() - 4);
        fresh.showPlan(plan, workflow);
        QCOMPARE(why->toPlainText(), fresh.toPlainText());
    } else if (auto* chart = qobject_cast<MemoryChart*>(tab)) {
        MemoryChart fresh;
        fresh.showPlan(plan);
        QCOMPARE(barTotals(chart), barTotals(&fresh));
    } else if (auto* findings = qobject_cast<FindingsView*>(tab)) {
        FindingsView fresh;
        fresh.showFindings(plan.lint, plan.suggestions);
        QCOMPARE(findings->count(), fresh.count());
        for (int i = 0; i < fresh.count(); ++i)
            QCOMPARE(findings->item(i)->text(), fresh.item(i)->text());
    }
    QWidget* page = pagesOf(w)->currentWidget();
    QVERIFY(!w.isStale(page));
    if (auto* workflow = qobject_cast<WorkflowPage*>(page)) {
        WorkflowPage fresh(workflow->step());
        fresh.showProject(project, plan);
        QCOMPARE(labelsOf(workflow), labelsOf(&fresh));
    } else if (auto* summary = qobject_cast<SummaryPage*>(page)) {
        SummaryPage fresh;
        fresh.showProject(project, plan);
        QCOMPARE(summary->findChild<QTextBrowser*>("summaryText")->toPlainText(),
                 fresh.findChild<QTextBrowser*>("summaryText")->toPlainText());
    }
}
} // namespace

class TestRefreshWhatIsShown : public QObject {
    Q_OBJECT
private slots:
    void initTestCase() { dsw::test::useIsolatedSettings("TestRefreshWhatIsShown"); }

    void oneRefreshPerEdit()
    {
        MainWindow w;
        w.openAtStart(QString());
        w.show();
        int count = w.refreshCount();
        w.document()->setAnswer("hardware.nodes", 2);
        QCOMPARE(w.refreshCount(), ++count);
        // Typed and confirmed, as a user does.
        auto* nodes = w.findChild<QLineEdit*>("hardware.nodes");
        nodes->setFocus();
        nodes->selectAll();
        QTest::keyClicks(nodes, "4");
        QTest::keyClick(nodes, Qt::Key_Return);
        QCOMPARE(w.document()->project().answers.integer("hardware.nodes"), 4);
        QCOMPARE(w.refreshCount(), ++count);
        w.document()->undoStack()->undo();
        QCOMPARE(w.refreshCount(), ++count);
        const nlohmann::json same = w.document()->project().answers.value("hardware.nodes");
        w.document()->setAnswer("hardware.nodes", same); // the same value: no edit, no refresh
        QCOMPARE(w.refreshCount(), count);
    }

    void oneRefreshPerNextAndBack()
    {
        MainWindow w;
        w.openAtStart(QString());
        w.show();
        w.goToStep("zero");
        const int count = w.refreshCount();
        w.findChild<QPushButton*>("nextButton")->click(); // marks ZeRO done and goes to Precision
        QVERIFY(w.document()->project().isHandled("zero"));
        QCOMPARE(w.refreshCount(), count + 1);
        QCOMPARE(pagesOf(w)->currentWidget()->objectName(), QStringLiteral("precisionPage"));
        checkShownIsCurrent(w);
        // The done mark came with the step change: the ZeRO page, hidden by then, waits for it.
        auto* zero = w.findChild<WorkflowPage*>("zeroPage");
        QVERIFY(w.isStale(zero));
        w.findChild<QPushButton*>("backButton")->click();
        QCOMPARE(w.refreshCount(), count + 2);
        checkShownIsCurrent(w); // the ZeRO page as a fresh one shows it, done mark included
    }

    void oneRefreshForAModelConfigImport()
    {
        QTemporaryDir dir;
        const QString path = dir.filePath("config.json");
        QFile f(path);
        QVERIFY(f.open(QIODevice::WriteOnly));
        f.write(R"({"model_type": "llama", "hidden_size": 2048, "num_hidden_layers": 16,
  "num_attention_heads": 16, "intermediate_size": 5504, "vocab_size": 32000})");
        f.close();
        MainWindow w;
        w.openAtStart(QString());
        const nlohmann::json layersBefore = w.document()->project().answers.value("model.layers");
        const int count = w.refreshCount();
        QVERIFY(w.importConfig(path)); // several answers, one undo step
        QVERIFY(w.document()->project().answers.has("model.layers"));
        QCOMPARE(w.refreshCount(), count + 1);
        checkShownIsCurrent(w);
        // Undo and redo are one step each, and one refresh each — not one per answer the model set.
        QUndoStack* undo = w.document()->undoStack();
        QCOMPARE(undo->undoText(), QStringLiteral("Model from config.json"));
        const int steps = undo->index();
        undo->undo();
        QVERIFY(w.document()->project().answers.value("model.layers") == layersBefore);
        QCOMPARE(undo->index(), steps - 1);
        QCOMPARE(w.refreshCount(), count + 2);
        checkShownIsCurrent(w);
        undo->redo();
        QCOMPARE(w.document()->project().answers.integer("model.layers"), 16);
        QCOMPARE(w.refreshCount(), count + 3);
        checkShownIsCurrent(w);
        // The same model again changes nothing: no undo step.
        QVERIFY(w.importConfig(path));
        QCOMPARE(undo->index(), steps);
    }

    void aHiddenTabWaitsUntilShownAndIsThenCurrent()
    {
        MainWindow w;
        w.openAtStart(QString());
        w.show();
        w.goToStep("zero");
        auto* why = w.findChild<WhyView*>("whyView");
        auto* chart = w.findChild<MemoryChart*>("memoryChart");
        auto* findings = w.findChild<FindingsView*>("findingsView");
        tabsOf(w)->setCurrentWidget(why);
        const QString whyBefore = why->toPlainText();
        tabsOf(w)->setCurrentIndex(0);                        // the JSON
        w.document()->setAnswer("hardware.gpu", "V100-32GB"); // every workflow's advice changes
        QVERIFY(w.isStale(why));
        QVERIFY(w.isStale(chart));
        QVERIFY(w.isStale(findings));
        QVERIFY(!w.isStale(w.findChild<JsonPreview*>("jsonPreview")));
        QCOMPARE(why->toPlainText(), whyBefore); // not rebuilt while hidden
        checkShownIsCurrent(w);
        for (QWidget* tab :
             {static_cast<QWidget*>(why), static_cast<QWidget*>(chart), static_cast<QWidget*>(findings)}) {
            tabsOf(w)->setCurrentWidget(tab);
            QVERIFY(!w.isStale(tab));
            checkShownIsCurrent(w);
        }
        QVERIFY(why->toPlainText() != whyBefore);
    }

    void aHiddenPageWaitsUntilShownAndIsThenCurrent()
    {
        MainWindow w;
        w.openAtStart(QString());
        w.show();
        auto* zero = w.findChild<WorkflowPage*>("zeroPage");
        auto* summary = w.findChild<SummaryPage*>("summaryPage");
        w.goToStep("zero");
        const QString zeroBefore = labelsOf(zero);
        w.goToStep("setup");
        w.document()->setAnswer("model.params", 13000000000LL);
        QVERIFY(w.isStale(zero));
        QVERIFY(w.isStale(summary));
        QCOMPARE(labelsOf(zero), zeroBefore); // not rebuilt while hidden
        checkShownIsCurrent(w);
        w.goToStep("zero");
        QVERIFY(labelsOf(zero) != zeroBefore);
        checkShownIsCurrent(w);
        w.goToStep("summary");
        checkShownIsCurrent(w);
    }

    // Edits, tab changes and page changes mixed: whatever is shown matches the current plan every time.
    void nothingShownIsEverStale()
    {
        MainWindow w;
        w.openAtStart(QString());
        w.show();
        const char* steps[] = {"setup", "zero", "precision", "pipeline", "memory", "summary"};
        const int nodes[] = {2, 1, 4, 3};
        for (int i = 0; i < 12; ++i) {
            w.document()->setAnswer("hardware.nodes", nodes[i % 4]);
            checkShownIsCurrent(w);
            tabsOf(w)->setCurrentIndex(i % tabsOf(w)->count());
            checkShownIsCurrent(w);
            w.goToStep(steps[i % 6]);
            checkShownIsCurrent(w);
            if (i % 3 == 0) { // the other form of ds_config.json
                auto* form = w.findChild<QComboBox*>("configForm");
                form->setCurrentIndex(1 - form->currentIndex());
                emit form->activated(form->currentIndex());
                checkShownIsCurrent(w);
            }
        }
    }

    void theMemoryChartIsUpdatedInPlace()
    {
        MainWindow w;
        w.openAtStart(QString());
        w.show();
        auto* chart = w.findChild<MemoryChart*>("memoryChart");
        tabsOf(w)->setCurrentWidget(chart);
        QChart* before = chart->chart();
        QStackedBarSeries* bars = barsOf(chart);
        const std::vector<double> totalsBefore = barTotals(chart);
        w.document()->setAnswer("model.params", 13000000000LL);
        QCOMPARE(chart->chart(), before);
        QCOMPARE(barsOf(chart), bars);
        QVERIFY(barTotals(chart) != totalsBefore);
        checkShownIsCurrent(w);
    }
};

QTEST_MAIN(TestRefreshWhatIsShown)
#include "TestRefreshWhatIsShown.moc"
