// The floor for the window's start-up (tests/bench/run-all.sh): a bare Qt Widgets window, shown, exiting at the
// end of its first paint as BenchWindowStartup does at the preview's.
#include <QApplication>
#include <QEvent>
#include <QTimer>
#include <QWidget>

#include <cstdio>
#include <cstdlib>

namespace {
class ExitAfterFirstPaint : public QObject {
public:
    bool eventFilter(QObject* watched, QEvent* event) override
    {
        if (event->type() == QEvent::Paint)
            QTimer::singleShot(0, [] {
                std::fflush(stdout);
                std::_Exit(0);
            });
        return QObject::eventFilter(watched, event);
    }
};
} // namespace

int main(int argc, char* argv[])
{
    QApplication app(argc, argv);
    QWidget window;
    window.resize(1400, 860);
    ExitAfterFirstPaint exitAfterPaint;
    window.installEventFilter(&exitAfterPaint);
    window.show();
    QTimer::singleShot(10000, [] { std::_Exit(3); });
    return app.exec();
}
