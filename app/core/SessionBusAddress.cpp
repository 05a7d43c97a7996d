#include "SessionBusAddress.h"

#include <QFile>
#include <QtGlobal>
#include <sys/stat.h>

namespace dsw {

namespace {
bool isSocket(const QString& path)
{
    struct stat st {};
    return ::stat(QFile::encodeName(path).constData(), &st) == 0 && S_ISSOCK(st.st_mode);
}
} // namespace

QByteArray sessionBusAddressWithoutAutolaunch(const QByteArray& current, const QString& runtimeDir)
{
    if (!current.isEmpty())
        return current;
    const QString bus = runtimeDir + QStringLiteral("/bus");
    if (!runtimeDir.isEmpty() && isSocket(bus))
        // D-Bus addresses escape every byte outside [-0-9A-Za-z_/.*] as %XX.
        return "unix:path=" + QFile::encodeName(bus).toPercentEncoding("/*", "~");
    return "disabled:";
}

void preventSessionBusAutolaunch()
{
    const QByteArray address = sessionBusAddressWithoutAutolaunch(qgetenv("DBUS_SESSION_BUS_ADDRESS"),
                                                                  qEnvironmentVariable("XDG_RUNTIME_DIR"));
    qputenv("DBUS_SESSION_BUS_ADDRESS", address);
}

} // namespace dsw
