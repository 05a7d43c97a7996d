#pragma once
#include <QApplication>
#include <QDir>
#include <QString>
#include <QTest>
#include <QWidget>

namespace dsw::test {

// Saves what the widget shows as DSW_SCREENSHOT_DIR/NAME.png when that variable is set (for the README's
// screenshots and for looking at the window as a user would); does nothing otherwise. The folder is made when
// missing; a file that cannot be written fails the test (a screenshot run that writes nothing must say so). The
// layout settles first (posted events, deferred layout requests, word-wrapped heights), as a user would see it.
// Call it from a test function (it may fail it, and then returns early from this helper only).
inline void saveScreenshot(QWidget& widget, const QString& name)
{
    const QByteArray dir = qgetenv("DSW_SCREENSHOT_DIR");
    if (dir.isEmpty())
        return;
    const QString folder = QString::fromLocal8Bit(dir);
    QVERIFY2(QDir().mkpath(folder), qPrintable("cannot make the screenshot folder " + folder));
    for (int i = 0; i < 3; ++i) { // a relayout can post another (a wrapped label's new height)
        QApplication::sendPostedEvents();
        QApplication::processEvents();
        QTest::qWait(20);
    }
    const QString path = folder + "/" + name + ".png";
    QVERIFY2(widget.grab().save(path), qPrintable("cannot write the screenshot " + path));
}

} // namespace dsw::test
