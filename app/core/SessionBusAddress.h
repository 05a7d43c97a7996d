#pragma once
#include <QByteArray>
#include <QString>

namespace dsw {

// The value DBUS_SESSION_BUS_ADDRESS must have so that libdbus never starts a program: with the
// variable unset, libdbus (through Qt's D-Bus code: accessibility, platform theme) looks for
// $XDG_RUNTIME_DIR/bus and otherwise "autolaunches" by running `dbus-launch`. Returns `current`
// when it is set; else that user bus when its socket exists; else "disabled:", an address type
// libdbus does not know, so every session-bus connection fails at once instead.
QByteArray sessionBusAddressWithoutAutolaunch(const QByteArray& current, const QString& runtimeDir);

// Sets DBUS_SESSION_BUS_ADDRESS as above. Call before QApplication exists.
void preventSessionBusAutolaunch();

} // namespace dsw
