#include "RecentFiles.h"

#include <QFileInfo>

namespace dsw {

namespace {
const QString kKey = QStringLiteral("recentFiles");
}

RecentFiles::RecentFiles(QSettings& settings)
    : m_settings(settings)
{
}

QStringList RecentFiles::files() const
{
    QStringList out;
    for (const QString& path : m_settings.value(kKey).toStringList())
        if (QFileInfo(path).isFile() && !out.contains(path))
            out << path;
    return out.mid(0, kMaxRecentFiles);
}

QString RecentFiles::add(const QString& path)
{
    const QString absolute = QFileInfo(path).absoluteFilePath();
    QStringList list = files();
    list.removeAll(absolute);
    list.prepend(absolute);
    m_settings.setValue(kKey, list.mid(0, kMaxRecentFiles));
    return written();
}

QString RecentFiles::clear()
{
    m_settings.remove(kKey);
    return written();
}

QString RecentFiles::written()
{
    m_settings.sync(); // QSettings writes lazily; a failure would otherwise go unnoticed
    switch (m_settings.status()) {
    case QSettings::NoError: return {};
    case QSettings::AccessError:
        return QStringLiteral("cannot write the settings %1: access denied or no space").arg(m_settings.fileName());
    case QSettings::FormatError:
        return QStringLiteral("cannot read the settings %1: not in the expected format").arg(m_settings.fileName());
    }
    return QStringLiteral("cannot write the settings %1").arg(m_settings.fileName());
}

} // namespace dsw
