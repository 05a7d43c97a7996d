// Benchmark (not part of ctest): edit → repaint latency of the window, offscreen. A field's value is typed and
// confirmed with Return, as a user does (or, for a choice, set through the document as the field's commit does);
// the time runs from the Return key (the commit) to the end of the JSON preview's next paint (QEvent::Paint on its
// viewport, processed), which is when the new config is in pixels.
// Run: QT_QPA_PLATFORM=offscreen build/tests/BenchWindow  (tests/bench/run-all.sh parses its lines).
#include "JsonPreview.h"
#include "MainWindow.h"
#include "ProjectDocument.h"

#include <QApplication>
#include <QElapsedTimer>
#include <QLineEdit>
#include <QSettings>
#include <QStandardPaths>
#include <QTabWidget>
#include <QTest>

#include <algorithm>
#include <vector>

using namespace dsw;

namespace {
// Counts the paints of one widget.
class PaintCounter : public QObject {
public:
    int paints = 0;
    bool eventFilter(QObject* watched, QEvent* event) override
    {
        if (event->type() == QEvent::Paint)
            ++paints;
        return QObject::eventFilter(watched, event);
    }
};

double percentile(std::vector<double> values, double q)
{
    std::sort(values.begin(), values.end());
    return values[std::min(values.size() - 1, static_cast<std::size_t>(double(values.size()) * q))];
}
} // namespace

class BenchWindow : public QObject {
    Q_OBJECT
private slots:
    void initTestCase()
    {
        QStandardPaths::setTestModeEnabled(true); // never the user's settings
        QCoreApplication::setOrganizationName(QStringLiteral("ds-wizard-bench"));
        QCoreApplication::setApplicationName(QStringLiteral("BenchWindow"));
    }

    // p50 and p99 over 200 edits after 20 warm-up edits; each edit changes the config shown (two values taken in
    // turn), so the preview repaints every time.
    void editToRepaintPercentiles_data()
    {
        QTest::addColumn<QString>("step");
        QTest::addColumn<QString>("field");
        QTest::addColumn<QStringList>("values");
        QTest::addColumn<bool>("typed");
        QTest::newRow("Setup field typed, JSON tab") << "setup"
                                                     << "hardware.nodes" << QStringList{"2", "1"} << true;
        QTest::newRow("ZeRO stage set, JSON tab") << "zero"
                                                  << "zero.stage" << QStringList{"3", "2"} << false;
    }
    void editToRepaintPercentiles()
    {
        QFETCH(QString, step);
        QFETCH(QString, field);
        QFETCH(QStringList, values);
        QFETCH(bool, typed);
        MainWindow w;
        w.openAtStart(QString()); // the example project
        w.resize(1400, 860);
        w.show();
        QVERIFY(QTest::qWaitForWindowExposed(&w));
        w.goToStep(step.toStdString());
        auto* preview = w.findChild<JsonPreview*>("jsonPreview");
        w.findChild<QTabWidget*>("previewTabs")->setCurrentWidget(preview);
        QLineEdit* edit = nullptr;
        for (auto* e : w.findChildren<QLineEdit*>(field))
            if (e->isVisible())
                edit = e;
        QVERIFY2(edit || !typed, qPrintable(field));
        PaintCounter counter;
        preview->viewport()->installEventFilter(&counter);
        QCoreApplication::processEvents();
        constexpr int kWarmUp = 20, kRuns = 200;
        std::vector<double> ms;
        for (int i = 0; i < kWarmUp + kRuns; ++i) {
            const QString value = values[i % values.size()];
            if (typed) {
                edit->setFocus();
                edit->selectAll();
                QTest::keyClicks(edit, value);
            }
            const int before = counter.paints;
            QElapsedTimer timer;
            timer.start();
            if (typed) // the edit: the document, the plan, the refresh
                QTest::keyClick(edit, Qt::Key_Return);
            else
                w.document()->setAnswer(field.toStdString(), value.toStdString());
            while (counter.paints == before && timer.elapsed() < 5000)
                QCoreApplication::processEvents(); // the repaint the refresh scheduled
            const double elapsed = double(timer.nsecsElapsed()) / 1e6;
            QVERIFY2(counter.paints > before, "the preview did not repaint within 5 s");
            if (i >= kWarmUp)
                ms.push_back(elapsed);
        }
        qInfo("%s: p50 %.3f ms, p99 %.3f ms (%d runs)", QTest::currentDataTag(), percentile(ms, 0.5),
              percentile(ms, 0.99), kRuns);
    }
};

QTEST_MAIN(BenchWindow)
#include "BenchWindow.moc"
