// The export writer both the window and the command line use: where each file goes, which existing files
// the user did not name (the window asks about them, the command line needs --force), all-or-nothing writes.
#include "ExportWriter.h"
#include "FaultInjection.h"

#include <QTemporaryDir>
#include <QTest>

using namespace dsw;
using namespace dsw::test;

namespace {

std::vector<ExportFile> launchFiles()
{
    return {{kLaunchScriptFileName, "#!/bin/sh\ndeepspeed train.py\n", true},
            {kHostfileName, "node-1 slots=8\nnode-2 slots=8\n"}};
}

} // namespace

class TestExportWriter : public QObject {
    Q_OBJECT

private slots:
    void cleanup() { resetFileWriteHooks(); }

    void placesFilesBesideTheNamedOne()
    {
        const auto placement = placeExport(launchFiles(), "/x/y/run.sh", false);
        QCOMPARE(placement.files.size(), size_t(2));
        QCOMPARE(placement.files[0].path, QStringLiteral("/x/y/run.sh"));
        QCOMPARE(placement.files[1].path, QStringLiteral("/x/y/hostfile"));
        QVERIFY(placement.named[0] && !placement.named[1]);
        QVERIFY(placement.files[0].executable);
        const auto bundle = placeExport(launchFiles(), "/x/b", true);
        QCOMPARE(bundle.files[1].path, QStringLiteral("/x/b/hostfile"));
        QVERIFY(bundle.named[0] && !bundle.named[1]);
    }

    // An existing hostfile with other content needs consent; one that is already what would be written does not.
    void unnamedExistingFilesNeedConsent()
    {
        QTemporaryDir dir;
        const auto placement = placeExport(launchFiles(), dir.filePath("launch.sh"), false);
        QVERIFY(unnamedFilesToOverwrite(placement).isEmpty());                   // nothing there yet
        QVERIFY(writeBytes(dir.filePath("launch.sh"), "the user's old script")); // named: the file dialog asked
        QVERIFY(unnamedFilesToOverwrite(placement).isEmpty());
        QVERIFY(writeBytes(dir.filePath("hostfile"), "gpu-17 slots=8\n"));
        QCOMPARE(unnamedFilesToOverwrite(placement), QStringList{dir.filePath("hostfile")});
        QVERIFY(writeBytes(dir.filePath("hostfile"), QByteArray::fromStdString(launchFiles()[1].content)));
        QVERIFY(unnamedFilesToOverwrite(placement).isEmpty());
    }

    void bundleIntoNewFolderIsWholeOrAbsent()
    {
        QTemporaryDir dir;
        const auto placement = placeExport(launchFiles(), dir.filePath("bundle"), true);
        {
            InjectedFailure failure(Stage::Write, ENOSPC, 1);
            const QString error = writeExport(placement);
            QVERIFY2(error.contains(dir.filePath("bundle/hostfile")) && error.contains(reason(ENOSPC)),
                     qPrintable(error));
            QVERIFY(snapshot(dir.path()).isEmpty());
        }
        QCOMPARE(writeExport(placement), QString());
        QCOMPARE(readAll(dir.filePath("bundle/hostfile")), QByteArray::fromStdString(launchFiles()[1].content));
        QVERIFY(writeBytes(dir.filePath("file"), "x"));
        QVERIFY(writeExport(placeExport(launchFiles(), dir.filePath("file"), true)).contains("not a folder"));
    }
};

QTEST_GUILESS_MAIN(TestExportWriter)
#include "TestExportWriter.moc"
