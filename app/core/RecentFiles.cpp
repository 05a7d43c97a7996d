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

void RecentFiles::add(const QString& path)
{
    const QString absolute = QFileInfo(path).absoluteFilePath();
    QStringList list = files();
    list.removeAll(absolute);
    list.prepend(absolute);
    m_settings.setValue(kKey, list.mid(0, kMaxRecentFiles));
}

void RecentFiles::clear() { m_settings.remove(kKey); }

} // namespace dsw
