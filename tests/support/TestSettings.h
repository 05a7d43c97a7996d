#pragma once
#include <QCoreApplication>
#include <QSettings>
#include <QStandardPaths>
#include <QString>

namespace dsw::test {

// The window reads and writes settings (recent files, the last project, the first-start banner): in a test
// they go to Qt's test location under the test's own name, never the user's, and start empty.
inline void useIsolatedSettings(const char* testName)
{
    QStandardPaths::setTestModeEnabled(true);
    QCoreApplication::setOrganizationName(QStringLiteral("ds-wizard-tests"));
    QCoreApplication::setApplicationName(QString::fromLatin1(testName));
    QSettings().clear();
}

} // namespace dsw::test
