// Benchmark (not part of ctest): the window's start-up to its first painted JSON preview. The process builds the
// window on the example project as ds-wizard does, shows it, and exits at the end of the preview's first paint;
// tests/bench/run-all.sh times the whole process against BenchHelloWindow (a bare Qt Widgets window).
#include "ExitAfterFirstPaint.h"
#include "JsonPreview.h"
#include "MainWindow.h"
#include "SessionBusAddress.h"

#include <QApplication>
#include <QStandardPaths>

int main(int argc, char* argv[])
{
    dsw::preventSessionBusAutolaunch(); // as ds-wizard does
    QApplication app(argc, argv);
    QStandardPaths::setTestModeEnabled(true); // never the user's settings
    QApplication::setOrganizationName(QStringLiteral("ds-wizard-bench"));
    QApplication::setApplicationName(QStringLiteral("BenchWindowStartup"));
    dsw::MainWindow window;
    window.openAtStart(QString()); // the example project, as on a first start
    dsw::test::ExitAfterFirstPaint exitAfterPaint;
    window.findChild<dsw::JsonPreview*>("jsonPreview")->viewport()->installEventFilter(&exitAfterPaint);
    window.show();
    dsw::test::exitIfNeverPainted();
    return app.exec();
}
