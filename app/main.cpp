#include "ApplicationIcon.h"
#include "CommandLine.h"
#include "MainWindow.h"
#include "SessionBusAddress.h"

#include <QApplication>
#include <QCoreApplication>
#include <QIcon>
#include <QTextStream>

int main(int argc, char* argv[])
{
    // The product runs no program: without a session bus address, Qt's D-Bus code would make libdbus
    // run dbus-launch. Set before any QCoreApplication, which is when Qt may first connect.
    dsw::preventSessionBusAutolaunch();
    QStringList arguments;
    for (int i = 0; i < argc; ++i)
        arguments << QString::fromLocal8Bit(argv[i]);
    if (dsw::isCommandLineInvocation(arguments)) {
        QCoreApplication app(argc, argv); // headless: no display needed
        QTextStream out(stdout);
        QTextStream err(stderr);
        return dsw::runCommandLine(arguments, out, err);
    }
    QApplication app(argc, argv);
    QApplication::setOrganizationName(QStringLiteral("ds-wizard"));
    QApplication::setApplicationName(QStringLiteral("ds-wizard"));
    QApplication::setApplicationVersion(QStringLiteral(DSW_VERSION));
    // The installed desktop file and icon (packaging/); the same icon is built into the binary.
    QGuiApplication::setDesktopFileName(QStringLiteral(DSW_APP_ID));
    QApplication::setWindowIcon(dsw::applicationIcon());
    dsw::MainWindow window;
    window.openAtLaunch(arguments.size() > 1 ? arguments.at(1) : QString());
    window.show();
    return app.exec();
}
