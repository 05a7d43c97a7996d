#pragma once
#include <QSettings>
#include <QStringList>

namespace dsw {

// The most recently opened or saved projects, newest first, kept in the app's settings: no duplicates,
// at most `kMaxRecentFiles`, files that no longer exist dropped when read.
class RecentFiles {
public:
    static constexpr int kMaxRecentFiles = 8;

    explicit RecentFiles(QSettings& settings);
    QStringList files() const;
    // Both write the settings file at once; empty on success, else why it could not be written.
    QString add(const QString& path);
    QString clear();

private:
    QString written();
    QSettings& m_settings;
};

} // namespace dsw
