#pragma once
#include <QString>
#include <QWidget>

namespace dsw::test {

// Saves what the widget shows as DSW_SCREENSHOT_DIR/NAME.png when that variable is set (for the README's
// screenshots and for looking at the window as a user would); does nothing otherwise.
inline void saveScreenshot(QWidget& widget, const QString& name)
{
    const QByteArray dir = qgetenv("DSW_SCREENSHOT_DIR");
    if (!dir.isEmpty())
        widget.grab().save(QString::fromLocal8Bit(dir) + "/" + name + ".png");
}

} // namespace dsw::test
