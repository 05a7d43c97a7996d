#include "CommandLine.h"
#include "NumberLocale.h"
#include "SessionBusAddress.h"
#include "WindowModule.h"

#include <QCoreApplication>
#include <QTextStream>

// ds-wizard links QtCore only: the commands run here, and the window, with every GUI library it needs,
// is loaded from its module (ds-wizard-window.so) only when it opens.
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
        dsw::useClassicNumberFormat();
        QTextStream out(stdout);
        QTextStream err(stderr);
        return dsw::runCommandLine(arguments, out, err);
    }
    return dsw::runWindowModule(argc, argv);
}
