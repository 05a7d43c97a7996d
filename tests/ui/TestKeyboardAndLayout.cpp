// Keyboard, sizes, themes (issue 12, must-have 7), offscreen and on state: Ctrl+Z / Ctrl+Shift+Z undo the document
// unless the focused field has its own history; Tab goes sidebar → form → Back/Next → preview; buttons and menus have
// mnemonics; Save As has Ctrl+Shift+S; at 1024×700 every tab and the stage table are reachable; defaults are told
// from typed values without colour; file dialogs open next to the project; a relaunch reopens the last project and
// shows the example only on the first start, with a banner.
#include "MainWindow.h"
#include "ProjectDocument.h"
#include "RecentFiles.h"
#include "Screenshot.h"
#include "StageTable.h"
#include "TestSettings.h"

#include <QAction>
#include <QApplication>
#include <QComboBox>
#include <QLabel>
#include <QLineEdit>
#include <QListWidget>
#include <QMenuBar>
#include <QPushButton>
#include <QScrollBar>
#include <QSettings>
#include <QSplitter>
#include <QStandardPaths>
#include <QTabBar>
#include <QTabWidget>
#include <QTemporaryDir>
#include <QTest>
#include <QUndoStack>

using namespace dsw;

class TestKeyboardAndLayout : public QObject {
    Q_OBJECT

private:
    static QLineEdit* field(MainWindow& w, const char* id)
    {
        auto* line = w.findChild<QLineEdit*>(id);
        if (!line)
            qFatal("no field %s", id);
        return line;
    }
    // Widgets Tab reaches, in order, from the window's focus chain.
    static QList<QWidget*> tabChain(MainWindow& w)
    {
        QList<QWidget*> out;
        QWidget* start = w.findChild<QWidget*>("stepSidebar");
        QWidget* it = start;
        do {
            if ((it->focusPolicy() & Qt::TabFocus) && it->isVisibleTo(&w) && it->isEnabled())
                out << it;
            it = it->nextInFocusChain();
        } while (it && it != start && out.size() < 2000);
        return out;
    }

private slots:
    void initTestCase() { dsw::test::useIsolatedSettings("TestKeyboardAndLayout"); }
    void init() { QSettings().clear(); }

    void undoKeyUndoesTheDocumentWhenTheFieldHasNoHistory()
    {
        MainWindow w;
        w.openAtStart(QString());
        w.show();
        QVERIFY(QTest::qWaitForWindowExposed(&w));
        w.document()->setAnswer("hardware.nodes", 4); // shown in the field, which has no history of its own
        QLineEdit* nodes = field(w, "hardware.nodes");
        QCOMPARE(nodes->text(), QStringLiteral("4"));
        QVERIFY(!nodes->isUndoAvailable());
        nodes->setFocus();
        QTest::keyClick(nodes, Qt::Key_Z, Qt::ControlModifier);
        QVERIFY(!w.document()->project().answers.has("hardware.nodes")
                || w.document()->project().answers.integer("hardware.nodes") != 4);
        QCOMPARE(w.document()->undoStack()->index(), 0);
        QTest::keyClick(nodes, Qt::Key_Z, Qt::ControlModifier | Qt::ShiftModifier);
        QCOMPARE(w.document()->undoStack()->index(), 1);
        QCOMPARE(w.document()->project().answers.integer("hardware.nodes"), 4);
    }

    void undoKeyStaysInAFieldWithItsOwnHistory()
    {
        MainWindow w;
        w.openAtStart(QString());
        w.show();
        QVERIFY(QTest::qWaitForWindowExposed(&w));
        w.document()->setAnswer("hardware.nodes", 4);
        QLineEdit* params = field(w, "model.params");
        params->setFocus();
        QTest::keyClicks(params, "13"); // typed, not yet applied: the field's own history
        QVERIFY(params->isUndoAvailable());
        QTest::keyClick(params, Qt::Key_Z, Qt::ControlModifier);
        QVERIFY(!params->text().contains("13"));
        QCOMPARE(w.document()->project().answers.integer("hardware.nodes"), 4); // the document kept its edit
    }

    void tabGoesSidebarFormBackNextPreview()
    {
        MainWindow w;
        w.openAtStart(QString());
        w.show();
        const QList<QWidget*> chain = tabChain(w);
        const auto pos = [&](const char* name) {
            for (int i = 0; i < chain.size(); ++i)
                if (chain[i]->objectName() == name)
                    return i;
            return -1;
        };
        const int sidebar = pos("stepSidebar"), form = pos("model.params"), back = pos("backButton"),
                  next = pos("nextButton"), preview = pos("jsonPreview");
        QVERIFY2(sidebar == 0 && form > sidebar && next > form && preview > next,
                 qPrintable(QStringLiteral("%1 %2 %3 %4 %5").arg(sidebar).arg(form).arg(back).arg(next).arg(preview)));
        // Back is disabled on Setup; on the next page it sits between the form and Next.
        w.goToStep("zero");
        const QList<QWidget*> zero = tabChain(w);
        const int zeroBack = zero.indexOf(w.findChild<QWidget*>("backButton"));
        const int zeroForm = zero.indexOf(w.findChild<QWidget*>("zero.stage"));
        QVERIFY(zeroForm > 0 && zeroBack > zeroForm && zero.indexOf(w.findChild<QWidget*>("nextButton")) > zeroBack);
    }

    void buttonsAndMenusHaveMnemonics()
    {
        MainWindow w;
        w.openAtStart(QString());
        w.show();
        for (auto* button : w.findChildren<QPushButton*>())
            if (button->isVisibleTo(&w) && !button->text().isEmpty() && button->objectName() != "suggestionButton"
                && !button->objectName().startsWith("applyStep"))
                QVERIFY2(button->text().contains('&'), qPrintable(button->text()));
        for (QAction* menu : w.menuBar()->actions()) {
            QVERIFY2(menu->text().contains('&'), qPrintable(menu->text()));
            for (QAction* a : menu->menu()->actions())
                if (!a->isSeparator())
                    QVERIFY2(a->text().contains('&'), qPrintable(a->text()));
        }
    }

    void saveAsAndRedoHaveExplicitShortcuts()
    {
        MainWindow w;
        auto* saveAs = w.findChild<QAction*>("saveAsAction");
        QVERIFY(saveAs);
        QVERIFY(saveAs->shortcuts().contains(QKeySequence(QStringLiteral("Ctrl+Shift+S"))));
        auto* redo = w.findChild<QAction*>("redoAction");
        QVERIFY(redo && redo->shortcuts().contains(QKeySequence(QStringLiteral("Ctrl+Shift+Z"))));
    }

    void sidebarFillsItsSlotAndShowsEveryTitle()
    {
        // The sidebar is as wide as its longest title, and the splitter gives it exactly that: no empty band
        // between the step list and the page (there was one of ~60 px at 1400 px when the list was capped).
        for (const QSize size : {QSize(1400, 860), QSize(1024, 700), QSize(1920, 1080)}) {
            MainWindow w;
            w.openAtStart(QString());
            w.show(); // at its own size first, then resized, as a user's window manager does
            QVERIFY(QTest::qWaitForWindowExposed(&w));
            w.resize(size);
            QApplication::processEvents();
            auto* splitter = qobject_cast<QSplitter*>(w.centralWidget());
            QVERIFY(splitter && splitter->count() == 3);
            QWidget* sidebar = w.findChild<QWidget*>("stepSidebar");
            QCOMPARE(splitter->widget(0), sidebar);
            const int gap = splitter->widget(1)->geometry().left() - sidebar->geometry().right() - 1;
            QVERIFY2(gap <= splitter->handleWidth(),
                     qPrintable(QStringLiteral("%1 px between the sidebar and the page at %2×%3 (handle %4)")
                                    .arg(gap)
                                    .arg(size.width())
                                    .arg(size.height())
                                    .arg(splitter->handleWidth())));
            auto* list = qobject_cast<QListWidget*>(sidebar);
            QVERIFY(list);
            QVERIFY2(list->sizeHintForColumn(0) <= list->viewport()->width(),
                     qPrintable(QStringLiteral("titles need %1 px, the list shows %2")
                                    .arg(list->sizeHintForColumn(0))
                                    .arg(list->viewport()->width())));
        }
    }

    void usableAt1024x700()
    {
        MainWindow w;
        w.openAtStart(QString());
        w.resize(1024, 700);
        w.show();
        QVERIFY(QTest::qWaitForWindowExposed(&w));
        QVERIFY2(
            w.minimumSizeHint().width() <= 1024 && w.minimumSizeHint().height() <= 700,
            qPrintable(QStringLiteral("%1×%2").arg(w.minimumSizeHint().width()).arg(w.minimumSizeHint().height())));
        QCOMPARE(w.size(), QSize(1024, 700));
        // Every tab of the preview shows whole: no tab behind scroll arrows.
        auto* tabs = w.findChild<QTabWidget*>("previewTabs");
        QVERIFY(tabs);
        QTabBar* bar = tabs->tabBar();
        for (int i = 0; i < bar->count(); ++i)
            QVERIFY2(bar->rect().contains(bar->tabRect(i)), qPrintable(bar->tabText(i)));
        dsw::test::saveScreenshot(w, "window-1024x700");
        // The stage table scrolls as a whole: every column reachable, none cut off without a scroll bar.
        w.goToStep("zero");
        QApplication::processEvents();
        auto* table = w.findChild<StageTable*>("stageTable");
        int width = 0;
        for (int c = 0; c < table->columnCount(); ++c)
            width += table->columnWidth(c);
        QVERIFY(width <= table->viewport()->width() || table->horizontalScrollBar()->maximum() > 0);
        QVERIFY(table->horizontalScrollBarPolicy() != Qt::ScrollBarAlwaysOff);
        dsw::test::saveScreenshot(w, "zero-1024x700");
    }

    // From 1280 px wide the ZeRO stage table shows every column without scrolling sideways (it scrolled at 1280 while
    // the page left room beside the form).
    void stageTableWholeFrom1280()
    {
        for (const QSize size : {QSize(1280, 800), QSize(1400, 860)}) {
            MainWindow w;
            w.openAtStart(QString());
            w.show();
            QVERIFY(QTest::qWaitForWindowExposed(&w));
            w.resize(size);
            w.goToStep("zero");
            QApplication::processEvents();
            auto* table = w.findChild<StageTable*>("stageTable");
            QVERIFY(table && table->isVisible());
            dsw::test::saveScreenshot(w, qPrintable(QStringLiteral("zero-%1x%2").arg(size.width()).arg(size.height())));
            QVERIFY2(table->horizontalScrollBar()->maximum() == 0,
                     qPrintable(QStringLiteral("at %1×%2 the table scrolls %3 px sideways (viewport %4 px)")
                                    .arg(size.width())
                                    .arg(size.height())
                                    .arg(table->horizontalScrollBar()->maximum())
                                    .arg(table->viewport()->width())));
        }
    }

    void defaultsAreToldFromTypedValuesWithoutColour()
    {
        MainWindow w;
        w.openAtStart(QString());
        w.show();
        w.document()->setAnswer("hardware.nodes", nullptr);
        QLineEdit* nodes = field(w, "hardware.nodes");
        QVERIFY(nodes->text().isEmpty());
        QVERIFY2(nodes->placeholderText().contains("(default)"), qPrintable(nodes->placeholderText()));
        QVERIFY(nodes->font().italic());
        w.document()->setAnswer("hardware.nodes", 2);
        QCOMPARE(nodes->text(), QStringLiteral("2"));
        QVERIFY(!nodes->font().italic());
        w.goToStep("zero"); // its page is brought up to date when shown
        auto* stage = w.findChild<QWidget*>("zero.stage");
        QVERIFY(stage->font().italic() == !w.document()->project().answers.has("zero.stage"));

        // A choice box the same: the value not given says "(default)" in its text and in italics, until chosen.
        w.goToStep("setup");
        w.document()->setAnswer("hardware.gpu", nullptr);
        auto* gpu = w.findChild<QComboBox*>("hardware.gpu");
        QVERIFY(gpu);
        const QString byDefault = QString::fromStdString(w.document()->project().answers.text("hardware.gpu"));
        QCOMPARE(gpu->currentData().toString(), byDefault);
        QCOMPARE(gpu->currentText(), byDefault + "  (default)");
        QVERIFY(gpu->font().italic());
        // Choosing another: upright, and no item says "(default)" any more.
        const int other = gpu->currentIndex() == 0 ? 1 : 0;
        gpu->setCurrentIndex(other);
        QCOMPARE(QString::fromStdString(w.document()->project().answers.text("hardware.gpu")),
                 gpu->itemData(other).toString());
        QCOMPARE(gpu->currentText(), gpu->itemData(other).toString());
        QVERIFY(!gpu->font().italic());
        for (int i = 0; i < gpu->count(); ++i)
            QCOMPARE(gpu->itemText(i), gpu->itemData(i).toString());
        // Picking the default shown (its item already current) makes it an answer.
        w.document()->setAnswer("hardware.gpu", nullptr);
        QVERIFY(gpu->currentText().endsWith("(default)"));
        emit gpu->activated(gpu->currentIndex());
        QVERIFY(w.document()->project().answers.has("hardware.gpu"));
        QCOMPARE(QString::fromStdString(w.document()->project().answers.text("hardware.gpu")), byDefault);
        QCOMPARE(gpu->currentText(), byDefault);
        QVERIFY(!gpu->font().italic());
        // "auto" is the default itself (let the wizard decide): choosing it clears the answer, whether picked from
        // another value or activated while shown.
        w.goToStep("zero");
        auto* zeroStage = w.findChild<QComboBox*>("zero.stage");
        QVERIFY(zeroStage);
        zeroStage->setCurrentIndex(zeroStage->findData(QStringLiteral("2")));
        QVERIFY(w.document()->project().answers.has("zero.stage"));
        zeroStage->setCurrentIndex(zeroStage->findData(QStringLiteral("auto")));
        QVERIFY(!w.document()->project().answers.has("zero.stage"));
        QCOMPARE(zeroStage->currentText(), QStringLiteral("auto  (default)"));
        emit zeroStage->activated(zeroStage->currentIndex());
        QVERIFY(!w.document()->project().answers.has("zero.stage"));
    }

    void fileDialogsOpenNextToTheProject()
    {
        QTemporaryDir dir;
        MainWindow w;
        w.openAtStart(QString());
        QVERIFY(!w.dialogDirectory().isEmpty());
        const QString path = dir.filePath("mine.dswiz");
        QCOMPARE(w.saveProjectAs(path), QString());
        QCOMPARE(w.dialogDirectory(), QFileInfo(path).absolutePath());
        // Without a project, the last folder used.
        MainWindow other;
        other.openAtStart(QString());
        QCOMPARE(other.dialogDirectory(), QFileInfo(path).absolutePath());
    }

    void relaunchReopensTheLastProjectAndTheExampleOnlyFirst()
    {
        QTemporaryDir dir;
        const QString path = dir.filePath("last.dswiz");
        {
            MainWindow first;
            first.openAtLaunch(QString());
            QVERIFY(first.windowTitle().contains("example"));
            auto* banner = first.findChild<QLabel*>("exampleBanner");
            QVERIFY(banner && banner->isVisibleTo(&first));
            QVERIFY(banner->text().contains("example"));
        }
        {
            MainWindow second; // no project saved yet: a new one, not the example again
            second.openAtLaunch(QString());
            QVERIFY(!second.windowTitle().contains("example"));
            QVERIFY(!second.findChild<QLabel*>("exampleBanner")->isVisibleTo(&second));
            second.document()->setAnswer("hardware.nodes", 3);
            QCOMPARE(second.saveProjectAs(path), QString());
        }
        MainWindow third;
        third.openAtLaunch(QString());
        QCOMPARE(third.document()->fileName(), path);
        QCOMPARE(third.document()->project().answers.integer("hardware.nodes"), 3);
        QVERIFY(!third.findChild<QLabel*>("exampleBanner")->isVisibleTo(&third));
        // A file named on the command line wins over the last project.
        MainWindow named;
        named.openAtLaunch(path);
        QCOMPARE(named.document()->fileName(), path);
    }
};

QTEST_MAIN(TestKeyboardAndLayout)
#include "TestKeyboardAndLayout.moc"
