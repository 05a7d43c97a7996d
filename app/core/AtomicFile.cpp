#include "AtomicFile.h"

#include <QFile>
#include <QFileInfo>
#include <QSaveFile>

namespace dsw {

QString writeFileAtomically(const QString& path, const QByteArray& bytes, bool executable)
{
    QSaveFile file(path);
    if (!file.open(QIODevice::WriteOnly))
        return QStringLiteral("cannot write %1: %2").arg(path, file.errorString());
    if (file.write(bytes) != bytes.size()) {
        const QString why = file.errorString();
        file.cancelWriting();
        return QStringLiteral("cannot write %1: %2").arg(path, why);
    }
    if (executable) // before the commit, so the file appears under its name already executable
        file.setPermissions(file.permissions() | QFileDevice::ExeOwner | QFileDevice::ExeGroup | QFileDevice::ExeOther);
    if (!file.commit())
        return QStringLiteral("cannot write %1: %2").arg(path, file.errorString());
    return {};
}

QString readUserFile(const QString& path, qint64 maxBytes, QByteArray& bytes)
{
    QFileInfo info(path);
    if (!info.exists())
        return QStringLiteral("%1: no such file").arg(path);
    if (!info.isFile())
        return QStringLiteral("%1: not a regular file").arg(path);
    if (info.size() > maxBytes)
        return QStringLiteral("%1: larger than %2 bytes").arg(path).arg(maxBytes);
    QFile file(path);
    if (!file.open(QIODevice::ReadOnly))
        return QStringLiteral("cannot read %1: %2").arg(path, file.errorString());
    bytes = file.read(maxBytes + 1);
    if (bytes.size() > maxBytes)
        return QStringLiteral("%1: larger than %2 bytes").arg(path).arg(maxBytes);
    return {};
}

} // namespace dsw
