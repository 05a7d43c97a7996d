// The files that make ds-wizard a desktop application (packaging/): the desktop entry names the
// project MIME type, shared-mime-info recognises projects by name and by content, the metainfo
// launches the desktop entry, and the icons have the sizes the icon theme expects.
#include "project/ProjectFile.h"

#include <QDir>
#include <QFile>
#include <QImage>
#include <QMimeDatabase>
#include <QRegularExpression>
#include <QSettings>
#include <QTemporaryDir>
#include <QTest>

using namespace dsw;

namespace {

const QString kPackaging = QStringLiteral(DSW_SOURCE_DIR "/packaging");
const QString kAppId = QStringLiteral("io.github.dswizard.DsWizard");
const QString kMimeType = QStringLiteral("application/x-ds-wizard-project");

QByteArray readAll(const QString& path)
{
    QFile f(path);
    if (!f.open(QIODevice::ReadOnly))
        qFatal("cannot read %s", qPrintable(path));
    return f.readAll();
}

} // namespace

class TestDesktopIntegration : public QObject {
    Q_OBJECT
    QTemporaryDir m_data; // an XDG data folder holding only ds-wizard's MIME package

private slots:
    void initTestCase()
    {
        QVERIFY(QDir().mkpath(m_data.filePath("mime/packages")));
        QVERIFY(QFile::copy(kPackaging + "/ds-wizard-mime.xml", m_data.filePath("mime/packages/ds-wizard.xml")));
        // QMimeDatabase reads XDG_DATA_DIRS on first use; nothing in this test used it before.
        qputenv("XDG_DATA_DIRS", m_data.path().toLocal8Bit());
        qputenv("XDG_DATA_HOME", m_data.filePath("home").toLocal8Bit());
    }

    void desktopEntryOpensProjects()
    {
        QSettings entry(kPackaging + "/" + kAppId + ".desktop", QSettings::IniFormat);
        entry.beginGroup("Desktop Entry");
        QCOMPARE(entry.value("Exec").toString(), QStringLiteral("ds-wizard %f"));
        QCOMPARE(entry.value("Icon").toString(), QStringLiteral("ds-wizard"));
        QVERIFY(entry.value("MimeType").toStringList().join(';').split(';').contains(kMimeType));
    }

    void projectsAreRecognisedByName()
    {
        QMimeDatabase db;
        QCOMPARE(db.mimeTypeForFile("job.dswiz", QMimeDatabase::MatchExtension).name(), kMimeType);
    }

    void projectsAreRecognisedByContent()
    {
        // What ds-wizard itself writes, under a name that says nothing.
        const QByteArray saved = QByteArray::fromStdString(serializeProject(Project{}));
        QMimeDatabase db;
        QCOMPARE(db.mimeTypeForData(saved).name(), kMimeType);
        QCOMPARE(db.mimeTypeForData(readAll(DSW_SOURCE_DIR "/resources/examples/llama-7b-8xA100.dswiz")).name(),
                 kMimeType);
        QVERIFY(db.mimeTypeForData(QByteArray(R"({"train_batch_size": 8})")).name() != kMimeType);
    }

    void metainfoLaunchesTheDesktopEntry()
    {
        const QString metainfo = QString::fromUtf8(readAll(kPackaging + "/" + kAppId + ".metainfo.xml.in"));
        QVERIFY(metainfo.contains("<id>" + kAppId + "</id>"));
        QVERIFY(metainfo.contains("<launchable type=\"desktop-id\">" + kAppId + ".desktop</launchable>"));
        QVERIFY(metainfo.contains("<mediatype>" + kMimeType + "</mediatype>"));
        QVERIFY(metainfo.contains("<content_rating"));
        QVERIFY(metainfo.contains("<release version=\"@PROJECT_VERSION@\""));
    }

    void iconsHaveTheirSizes_data()
    {
        QTest::addColumn<int>("size");
        QTest::newRow("48") << 48;
        QTest::newRow("256") << 256;
    }

    void iconsHaveTheirSizes()
    {
        QFETCH(int, size);
        const QImage icon(kPackaging + QStringLiteral("/icons/ds-wizard-%1.png").arg(size));
        QCOMPARE(icon.size(), QSize(size, size));
        QVERIFY(icon.hasAlphaChannel());
        QVERIFY(QFile::exists(kPackaging + "/icons/ds-wizard.svg"));
    }
};

QTEST_GUILESS_MAIN(TestDesktopIntegration)
#include "TestDesktopIntegration.moc"
