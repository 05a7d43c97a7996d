// The entry of the window module, ds-wizard-window.so: what ds-wizard runs when it opens the window
// (app/core/WindowModule.h). The only symbol the module exports.
#include "ApplicationIcon.h"
#include "MainWindow.h"
#include "NumberLocale.h"
#include "WindowModule.h"

#include <QApplication>
#include <QEvent>
#include <QTimer>

#include <type_traits>

namespace {

// For the tests and the package check only: with DSW_TEST_QUIT_AFTER_FIRST_PAINT set, the window quits
// (status 0) once it has painted, which proves it opened. It does nothing else.
class QuitAfterFirstPaint : public QObject {
public:
    explicit QuitAfterFirstPaint(QWidget* window)
        : m_window(window)
    {
    }

protected:
    bool eventFilter(QObject* watched, QEvent* event) override
    {
        if (event->type() == QEvent::Paint && watched->isWidgetType()
            && static_cast<QWidget*>(watched)->window() == m_window) {
            qApp->removeEventFilter(this);
            QTimer::singleShot(0, qApp, &QCoreApplication::quit);
        }
        return false;
    }

private:
    QWidget* m_window;
};

} // namespace

extern "C" __attribute__((visibility("default"))) int dsw_window_main(int* argc, char** argv)
{
    // Read before QApplication, which takes its own options (-platform …) out of argv.
    QStringList arguments;
    for (int i = 0; i < *argc; ++i)
        arguments << QString::fromLocal8Bit(argv[i]);
    QApplication app(*argc, argv);
    dsw::useClassicNumberFormat();
    QApplication::setOrganizationName(QStringLiteral("ds-wizard"));
    QApplication::setApplicationName(QStringLiteral("ds-wizard"));
    QApplication::setApplicationVersion(QStringLiteral(DSW_VERSION));
    // The installed desktop file and icon (packaging/); the same icon is built into the module.
    QGuiApplication::setDesktopFileName(QStringLiteral(DSW_APP_ID));
    QApplication::setWindowIcon(dsw::applicationIcon());
    dsw::MainWindow window;
    QuitAfterFirstPaint quitAfterFirstPaint(&window);
    if (qEnvironmentVariableIsSet("DSW_TEST_QUIT_AFTER_FIRST_PAINT"))
        app.installEventFilter(&quitAfterFirstPaint);
    window.openAtLaunch(arguments.size() > 1 ? arguments.at(1) : QString());
    window.show();
    return app.exec();
}
static_assert(std::is_same_v<decltype(&dsw_window_main), dsw::WindowEntry>, "the entry ds-wizard calls");
