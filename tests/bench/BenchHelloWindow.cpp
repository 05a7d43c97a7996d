// The floor for the window's start-up (tests/bench/run-all.sh): a bare Qt Widgets window, shown, exiting at the
// end of its first paint as BenchWindowStartup does at the preview's.
#include "ExitAfterFirstPaint.h"

#include <QApplication>
#include <QWidget>

int main(int argc, char* argv[])
{
    QApplication app(argc, argv);
    QWidget window;
    window.resize(1400, 860);
    dsw::test::ExitAfterFirstPaint exitAfterPaint;
    window.installEventFilter(&exitAfterPaint);
    window.show();
    dsw::test::exitIfNeverPainted();
    return app.exec();
}
