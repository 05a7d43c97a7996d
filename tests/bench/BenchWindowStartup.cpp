// Benchmark (not part of ctest): the window's start-up to its first painted JSON preview. The process builds the
// window on the example project as ds-wizard does, shows it, and exits at the end of the preview's first paint;
// tests/bench/run-all.sh times the whole process against BenchHelloWindow (a bare Qt Widgets window).
#include "JsonPreview.h"
#include "MainWindow.h"
#include "SessionBusAddress.h"

#include <QApplication>
#include <QEvent>
#include <QStandardPaths>
#include <QTimer>

#include <cstdio>
#include <cstdlib>

namespace {
// Exits the process once the watched widget's first paint has been processed.
class ExitAfterFirstPaint : public QObject {
public:
    bool eventFilter(QObject* watched, QEvent* event) override
    {
        if (event->type() == QEvent::Paint)
            QTimer::singleShot(0, [] {
                std::fflush(stdout);
                std::_Exit(0); // the time is to the first paint, not to the teardown
            });
        return QObject::eventFilter(watched, event);
    }
};
} // namespace

int main(int argc, char* argv[])
{
    dsw::preventSessionBusAutolaunch(); // as ds-wizard does
    QApplication app(argc, argv);
    QStandardPaths::setTestModeEnabled(true); // never the user's settings
    QApplication::setOrganizationName(QStringLiteral("ds-wizard-bench"));
    QApplication::setApplicationName(QStringLiteral("BenchWindowStartup"));
    dsw::MainWindow window;
    window.openAtStart(QString()); // the example project, as on a first start
    ExitAfterFirstPaint exitAfterPaint;
    window.findChild<dsw::JsonPreview*>("jsonPreview")->viewport()->installEventFilter(&exitAfterPaint);
    window.show();
    QTimer::singleShot(10000, [] { std::_Exit(3); }); // never painted: an error, not a time
    return app.exec();
}
