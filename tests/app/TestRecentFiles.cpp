// Recent projects: newest first, no duplicates, capped, missing files dropped.
#include "RecentFiles.h"

#include <QDir>
#include <QFile>
#include <QTemporaryDir>
#include <QTest>

using namespace dsw;

class TestRecentFiles : public QObject {
    Q_OBJECT
    QTemporaryDir m_dir;

    QString touch(const QString& name)
    {
        const QString path = QDir(m_dir.path()).filePath(name);
        QFile f(path);
        if (!f.open(QIODevice::WriteOnly))
            qFatal("cannot create %s", qPrintable(path));
        return path;
    }

private slots:
    void newestFirstWithoutDuplicates()
    {
        QSettings settings(m_dir.filePath("a.ini"), QSettings::IniFormat);
        RecentFiles recent(settings);
        const QString a = touch("a.dswiz"), b = touch("b.dswiz");
        recent.add(a);
        recent.add(b);
        recent.add(a);
        QCOMPARE(recent.files(), (QStringList{a, b}));
    }

    void cappedAndMissingFilesDropped()
    {
        QSettings settings(m_dir.filePath("b.ini"), QSettings::IniFormat);
        RecentFiles recent(settings);
        QStringList added;
        for (int i = 0; i < RecentFiles::kMaxRecentFiles + 3; ++i)
            recent.add(added.emplace_back(touch(QStringLiteral("p%1.dswiz").arg(i))));
        QCOMPARE(recent.files().size(), RecentFiles::kMaxRecentFiles);
        QCOMPARE(recent.files().first(), added.last());
        QFile::remove(added.last());
        QVERIFY(!recent.files().contains(added.last()));
        recent.clear();
        QVERIFY(recent.files().isEmpty());
    }
};

QTEST_GUILESS_MAIN(TestRecentFiles)
#include "TestRecentFiles.moc"
