#pragma once
// For the start-up benchmarks (BenchWindowStartup and its floor, BenchHelloWindow): ends the process once the watched
// widget's first paint has been processed, so the time measured is to the first paint, not to the teardown.
#include <QEvent>
#include <QObject>
#include <QTimer>

#include <cstdio>
#include <cstdlib>

namespace dsw::test {

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

// A window never painted is an error (exit 3), not a time.
inline void exitIfNeverPainted()
{
    QTimer::singleShot(10000, [] { std::_Exit(3); });
}

} // namespace dsw::test
