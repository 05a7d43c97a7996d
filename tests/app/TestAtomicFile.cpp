// The one file writer: a write succeeds only when the bytes are on disk; on a failure at any stage (write,
// fsync, close, rename) with ENOSPC, EIO or EDQUOT the old file is byte-identical, no temporary is left and
// the error names the path and the reason. Sets of files are all-or-nothing; special files are never replaced;
// temporaries a killed writer left are removed by the next write.
#include "AtomicFile.h"
#include "FaultInjection.h"

#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QTemporaryDir>
#include <QTest>

#include <sys/stat.h>
#include <sys/time.h>

using namespace dsw;
using namespace dsw::test;

namespace {

mode_t modeOf(const QString& path)
{
    struct stat st {};
    ::stat(QFile::encodeName(path).constData(), &st);
    return st.st_mode & 07777;
}

mode_t currentUmask()
{
    const mode_t mask = ::umask(0);
    ::umask(mask);
    return mask;
}

bool setAge(const QString& path, int seconds)
{
    struct timeval times[2];
    ::gettimeofday(&times[0], nullptr);
    times[0].tv_sec -= seconds;
    times[1] = times[0];
    return ::lutimes(QFile::encodeName(path).constData(), times) == 0;
}

} // namespace

class TestAtomicFile : public QObject {
    Q_OBJECT

private slots:
    void cleanup() { resetFileWriteHooks(); }

    void writesNewAndReplacesExisting()
    {
        QTemporaryDir dir;
        const QString path = dir.filePath("a.json");
        QCOMPARE(writeFileAtomically(path, "first"), QString());
        QCOMPARE(readAll(path), QByteArray("first"));
        QCOMPARE(modeOf(path), mode_t(0666 & ~currentUmask())); // as any new file, not mkstemp's 0600
        QVERIFY(::chmod(QFile::encodeName(path).constData(), 0640) == 0);
        QCOMPARE(writeFileAtomically(path, "second, longer"), QString());
        QCOMPARE(readAll(path), QByteArray("second, longer"));
        QCOMPARE(modeOf(path), mode_t(0640)); // the existing file's permissions are kept
        QCOMPARE(QDir(dir.path()).entryList(QDir::AllEntries | QDir::Hidden | QDir::NoDotAndDotDot),
                 QStringList{"a.json"});
    }

    void executableWhereReadable()
    {
        QTemporaryDir dir;
        const QString path = dir.filePath("launch.sh");
        QVERIFY(writeBytes(path, "old"));
        QVERIFY(::chmod(QFile::encodeName(path).constData(), 0640) == 0);
        QCOMPARE(writeFileAtomically(path, "#!/bin/sh\n", true), QString());
        QCOMPARE(modeOf(path), mode_t(0750));
        QVERIFY(QFileInfo(path).isExecutable());
    }

    // Short writes and interrupted calls are continued, not taken for success or failure.
    void shortAndInterruptedWrites()
    {
        auto& hooks = fileWriteHooks();
        int calls = 0;
        hooks.write = [&calls](int fd, const void* data, std::size_t n) -> ssize_t {
            if (++calls % 2 == 0) {
                errno = EINTR;
                return -1;
            }
            return ::write(fd, data, std::min<std::size_t>(n, 3));
        };
        QTemporaryDir dir;
        const QString path = dir.filePath("short.json");
        const QByteArray bytes(1000, 'x');
        QCOMPARE(writeFileAtomically(path, bytes), QString());
        QCOMPARE(readAll(path), bytes);
        QVERIFY(calls > 600);
    }

    void injectedFailures_data()
    {
        QTest::addColumn<int>("stage");
        QTest::addColumn<int>("error");
        for (Stage stage : {Stage::Write, Stage::Fsync, Stage::Close, Stage::Rename})
            for (int error : {ENOSPC, EIO, EDQUOT})
                QTest::addRow("%s %s", stageName(stage), qPrintable(reason(error))) << int(stage) << error;
    }
    void injectedFailures()
    {
        QFETCH(int, stage);
        QFETCH(int, error);
        QTemporaryDir dir;
        const QString existing = dir.filePath("project.dswiz");
        QVERIFY(writeBytes(existing, "the user's work"));
        const auto before = snapshot(dir.path());
        InjectedFailure failure(Stage(stage), error);
        for (const QString& path : {existing, dir.filePath("new.dswiz")}) {
            const QString message = writeFileAtomically(path, QByteArray(100000, 'n'));
            QCOMPARE(message, QStringLiteral("cannot write %1: %2").arg(path, reason(error)));
            QCOMPARE(snapshot(dir.path()), before); // old bytes, no temporary, nothing new
        }
    }

    // A failure in the middle of a set (the second rename, the last file's write) leaves every file as it was.
    void setIsAllOrNothing_data()
    {
        QTest::addColumn<int>("stage");
        QTest::addColumn<int>("failAt");
        QTest::newRow("second rename") << int(Stage::Rename) << 1;
        QTest::newRow("last rename") << int(Stage::Rename) << 2;
        QTest::newRow("last write") << int(Stage::Write) << 2;
        QTest::newRow("second fsync") << int(Stage::Fsync) << 1;
    }
    void setIsAllOrNothing()
    {
        QFETCH(int, stage);
        QFETCH(int, failAt);
        QTemporaryDir dir;
        QVERIFY(writeBytes(dir.filePath("launch.sh"), "old launch"));
        QVERIFY(writeBytes(dir.filePath("hostfile"), "node-a slots=8\n"));
        const auto before = snapshot(dir.path());
        const std::vector<FileToWrite> set{{dir.filePath("launch.sh"), "new launch", true},
                                           {dir.filePath("hostfile"), "new hosts"},
                                           {dir.filePath("ds_config.json"), "{}"}};
        {
            InjectedFailure failure(Stage(stage), EIO, failAt);
            const QString message = writeFilesAtomically(set);
            QVERIFY2(message.startsWith("cannot write " + dir.path()) && message.endsWith(reason(EIO)),
                     qPrintable(message));
            QCOMPARE(snapshot(dir.path()), before);
        }
        QCOMPARE(writeFilesAtomically(set), QString());
        QCOMPARE(readAll(dir.filePath("hostfile")), QByteArray("new hosts"));
        QCOMPARE(readAll(dir.filePath("ds_config.json")), QByteArray("{}"));
        QVERIFY(QFileInfo(dir.filePath("launch.sh")).isExecutable());
    }

    void newFolderAppearsWhole()
    {
        QTemporaryDir dir;
        const QString folder = dir.filePath("bundle");
        const std::vector<FileToWrite> byName{{"ds_config.json", "{}"}, {"launch.sh", "#!/bin/sh\n", true}};
        const std::pair<Stage, int> failures[] = {
            {Stage::Write, 1}, {Stage::Fsync, 1}, {Stage::Rename, 1}, {Stage::Rename, 2}};
        for (const auto& [stage, failAt] : failures) { // the second file, or (rename 2) the folder's rename
            InjectedFailure failure(stage, ENOSPC, failAt);
            const QString message = writeNewFolderAtomically(folder, byName);
            QVERIFY2(message.startsWith("cannot write " + folder) && message.endsWith(reason(ENOSPC)),
                     qPrintable(message));
            QVERIFY2(snapshot(dir.path()).isEmpty(), stageName(stage));
        }
        QCOMPARE(writeNewFolderAtomically(folder, byName), QString());
        QCOMPARE(readAll(QDir(folder).filePath("ds_config.json")), QByteArray("{}"));
        QVERIFY(QFileInfo(QDir(folder).filePath("launch.sh")).isExecutable());
        QVERIFY(QFileInfo(folder).permissions() & QFileDevice::ExeOwner); // a usual folder, not mkdtemp's 0700 only
        QCOMPARE(QDir(dir.path()).entryList(QDir::AllEntries | QDir::Hidden | QDir::NoDotAndDotDot),
                 QStringList{"bundle"});
        QVERIFY(!writeNewFolderAtomically(folder, byName).isEmpty()); // it exists now
    }

    // Never replaced, whatever they are: the writer says what the path is.
    void specialFilesRefused()
    {
        QTemporaryDir dir;
        const QString fifo = dir.filePath("fifo");
        QVERIFY(::mkfifo(QFile::encodeName(fifo).constData(), 0600) == 0);
        QString message = writeFileAtomically(fifo, "x");
        QVERIFY2(message.contains(fifo) && message.contains("a FIFO"), qPrintable(message));
        struct stat st {};
        QVERIFY(::stat(QFile::encodeName(fifo).constData(), &st) == 0 && S_ISFIFO(st.st_mode));
        message = writeFileAtomically(dir.path(), "x");
        QVERIFY2(message.contains("a folder"), qPrintable(message));
        QCOMPARE(nonRegularFileKind(fifo), QStringLiteral("a FIFO"));
        QCOMPARE(nonRegularFileKind(dir.filePath("missing")), QString());
        QCOMPARE(nonRegularFileKind(QStringLiteral("/dev/null")), QStringLiteral("a character device")); // stat only
    }

    // A symbolic link stays a link; the file it points at gets the bytes.
    void followsSymbolicLinks()
    {
        QTemporaryDir dir;
        QVERIFY(QDir(dir.path()).mkdir("real"));
        const QString real = dir.filePath("real/p.dswiz");
        QVERIFY(writeBytes(real, "old"));
        const QString link = dir.filePath("p.dswiz");
        QVERIFY(QFile::link(real, link));
        QCOMPARE(writeFileAtomically(link, "new"), QString());
        QVERIFY(QFileInfo(link).isSymLink());
        QCOMPARE(readAll(real), QByteArray("new"));
    }

    // What a kill -9 between create and rename leaves: removed by the next successful write of the same
    // file when older than this process; a younger one may be another writer's and stays, as do other names.
    void staleTemporariesRemoved()
    {
        QTemporaryDir dir;
        const QString target = dir.filePath("t.json");
        const QStringList stale{".t.json.dswiz-AbC123", ".t.json.dswiz-000000"};
        const QStringList kept{".t.json.dswiz-Young1", ".t.json.dswiz-toolong7", ".other.dswiz-ABCDEF",
                               "t.json.dswiz-ABCDEF",  ".t.json.dswiz-AB-C12",   ".t.json.dswiz-ÄBC123"};
        for (const QString& name : stale + kept)
            QVERIFY(writeBytes(dir.filePath(name), "left over"));
        QVERIFY(QDir(dir.path()).mkpath(".t.json.dswiz-Dir000/inner"));
        for (const QString& name : stale + kept + QStringList{".t.json.dswiz-Dir000"})
            QVERIFY(setAge(dir.filePath(name), name.contains("Young") ? -60 : 3600));
        QCOMPARE(writeFileAtomically(target, "y"), QString());
        QStringList expected = kept + QStringList{"t.json"};
        expected.sort();
        QStringList actual = QDir(dir.path()).entryList(QDir::AllEntries | QDir::Hidden | QDir::NoDotAndDotDot);
        actual.sort();
        QCOMPARE(actual, expected);
    }

    // A name beyond ASCII: the folder's entries are compared as the file system spells them (UTF-8).
    void staleTemporariesOfANonAsciiName()
    {
        QTemporaryDir dir;
        QVERIFY(writeBytes(dir.filePath(".Ψ × 4.json.dswiz-Zz9999"), "left over"));
        QVERIFY(writeBytes(dir.filePath(".Ψ × 5.json.dswiz-Zz9999"), "another file's"));
        QVERIFY(setAge(dir.filePath(".Ψ × 4.json.dswiz-Zz9999"), 3600));
        QVERIFY(setAge(dir.filePath(".Ψ × 5.json.dswiz-Zz9999"), 3600));
        QCOMPARE(writeFileAtomically(dir.filePath("Ψ × 4.json"), "y"), QString());
        QStringList actual = QDir(dir.path()).entryList(QDir::AllEntries | QDir::Hidden | QDir::NoDotAndDotDot);
        actual.sort();
        QCOMPARE(actual, (QStringList{".Ψ × 5.json.dswiz-Zz9999", "Ψ × 4.json"}));
    }

    // A failed write does not clean up: nothing of the user's is removed on a failure path.
    void staleTemporariesKeptOnFailure()
    {
        QTemporaryDir dir;
        const QString old = dir.filePath(".t.json.dswiz-AbC123");
        QVERIFY(writeBytes(old, "left over") && setAge(old, 3600));
        InjectedFailure failure(Stage::Fsync, EIO);
        QVERIFY(!writeFileAtomically(dir.filePath("t.json"), "x").isEmpty());
        QVERIFY(QFile::exists(old));
    }

    // readUserFile returns the file's bytes up to the limit, refusing one byte more.
    void readsUpToTheLimit_data()
    {
        QTest::addColumn<int>("size");
        for (int size : {0, 1, 4095, 4096, 4097, 100000})
            QTest::addRow("%d bytes", size) << size;
    }

    void readsUpToTheLimit()
    {
        QFETCH(int, size);
        QTemporaryDir dir;
        const QString path = dir.filePath("in.json");
        QByteArray content(size, '\0');
        for (int i = 0; i < size; ++i)
            content[i] = static_cast<char>('a' + i % 26);
        QVERIFY(writeBytes(path, content));
        QByteArray bytes("stale");
        QCOMPARE(readUserFile(path, size, bytes), QString());
        QCOMPARE(bytes, content);
        QCOMPARE(readUserFile(path, size + 1000000, bytes), QString());
        QCOMPARE(bytes, content);
        if (size > 0)
            QCOMPARE(readUserFile(path, size - 1, bytes),
                     QStringLiteral("%1: larger than %2 bytes").arg(path).arg(size - 1));
    }

    // A file whose size stat() does not tell (/proc says 0) is read to its end, and still held to the limit.
    void readsFilesWithoutASize()
    {
        QFile cmdline(QStringLiteral("/proc/self/cmdline"));
        QVERIFY(cmdline.open(QIODevice::ReadOnly));
        const QByteArray expected = cmdline.readAll();
        QVERIFY(expected.size() > 8);
        QCOMPARE(QFileInfo(cmdline).size(), 0);
        QByteArray bytes;
        QCOMPARE(readUserFile(cmdline.fileName(), 1 << 20, bytes), QString());
        QCOMPARE(bytes, expected);
        QCOMPARE(readUserFile(cmdline.fileName(), 8, bytes), QStringLiteral("/proc/self/cmdline: larger than 8 bytes"));
    }

    void refusesWhatIsNotAFile()
    {
        QTemporaryDir dir;
        QByteArray bytes;
        QCOMPARE(readUserFile(dir.filePath("missing"), 100, bytes), dir.filePath("missing") + ": no such file");
        QCOMPARE(readUserFile(dir.path(), 100, bytes), dir.path() + ": not a regular file");
    }
};

QTEST_GUILESS_MAIN(TestAtomicFile)
#include "TestAtomicFile.moc"
