// Every command-line writer (import -o, export -o for one file, launch and bundle, recommend -o), run in this
// process with ENOSPC, EIO or EDQUOT injected at each stage of the write: exit 2, one line naming the path and
// the system's reason, every existing file byte-identical, nothing new, no temporary left.
#include "CommandLine.h"
#include "FaultInjection.h"

#include <QDir>
#include <QTemporaryDir>
#include <QTest>
#include <QTextStream>

using namespace dsw;
using namespace dsw::test;

namespace {

struct Result {
    int exitCode = -1;
    QString out, err;
};

Result runInProcess(const QStringList& args)
{
    Result r;
    QTextStream out(&r.out), err(&r.err);
    r.exitCode = runCommandLine(QStringList{"ds-wizard"} + args, out, err);
    out.flush();
    err.flush();
    return r;
}

const QByteArray kConfig = R"({"train_micro_batch_size_per_gpu": 2, "zero_optimization": {"stage": 2}})";

} // namespace

class TestCommandWrites : public QObject {
    Q_OBJECT

    // The arguments for one writer, with the files it would replace already there (old bytes).
    static QStringList prepare(const QString& writer, const QString& dir)
    {
        const QDir d(dir);
        writeBytes(d.filePath("input.json"), kConfig);
        if (writer == "import") {
            writeBytes(d.filePath("p.dswiz"), "old project");
            return {"import", d.filePath("input.json"), "-o", d.filePath("p.dswiz")};
        }
        if (writer == "recommend") {
            writeBytes(d.filePath("plan.json"), "old plan");
            return {"recommend", "-o", d.filePath("plan.json")};
        }
        if (writer == "export json") {
            writeBytes(d.filePath("ds_config.json"), "old config");
            return {"export", "--to", "deepspeed-json", "-o", d.filePath("ds_config.json")};
        }
        if (writer == "export launch") {
            writeBytes(d.filePath("launch.sh"), "old launch");
            writeBytes(d.filePath("hostfile"), "node-1 slots=8\n");
            return {"export", "--to", "launch", "--set", "hardware.nodes=2", "--force", "-o", d.filePath("launch.sh")};
        }
        if (writer == "export new launch") // neither file there yet: nothing may appear
            return {"export", "--to", "launch", "--set", "hardware.nodes=2", "-o", d.filePath("launch.sh")};
        if (writer == "export bundle into folder") {
            d.mkdir("bundle");
            writeBytes(d.filePath("bundle/ds_config.json"), "old config");
            writeBytes(d.filePath("bundle/launch.sh"), "old launch");
            return {"export", "--to", "bundle", "--set", "hardware.nodes=2", "--force", "-o", d.filePath("bundle")};
        }
        return {"export", "--to", "bundle", "--set", "hardware.nodes=2", "-o", d.filePath("new-bundle")};
    }

private slots:
    void cleanup() { resetFileWriteHooks(); }

    void injectedFailures_data()
    {
        QTest::addColumn<QString>("writer");
        QTest::addColumn<int>("stage");
        QTest::addColumn<int>("error");
        QTest::addColumn<int>("failAt"); // 0: the first call; 1: the second file's (multi-file exports: undone)
        for (const char* writer : {"import", "recommend", "export json", "export launch", "export new launch",
                                   "export bundle into folder", "export bundle into new folder"})
            for (Stage stage : {Stage::Write, Stage::Fsync, Stage::Close, Stage::Rename})
                for (int error : {ENOSPC, EIO, EDQUOT})
                    QTest::addRow("%s, %s, %s", writer, stageName(stage), qPrintable(reason(error)))
                        << QString(writer) << int(stage) << error << 0;
        for (const char* writer :
             {"export launch", "export new launch", "export bundle into folder", "export bundle into new folder"})
            for (Stage stage : {Stage::Write, Stage::Fsync, Stage::Rename})
                QTest::addRow("%s, second %s, %s", writer, stageName(stage), qPrintable(reason(EIO)))
                    << QString(writer) << int(stage) << EIO << 1;
    }
    void injectedFailures()
    {
        QFETCH(QString, writer);
        QFETCH(int, stage);
        QFETCH(int, error);
        QFETCH(int, failAt);
        QTemporaryDir dir;
        const QStringList args = prepare(writer, dir.path());
        const auto before = snapshot(dir.path());
        Result r;
        {
            InjectedFailure failure(Stage(stage), error, failAt);
            r = runInProcess(args);
        }
        QCOMPARE(r.exitCode, 2);
        QVERIFY2(r.err.count('\n') == 1 && r.err.endsWith('\n'), qPrintable(r.err));
        QVERIFY2(r.err.startsWith("ds-wizard " + args.first() + ": cannot write " + dir.path() + "/"),
                 qPrintable(r.err));
        QVERIFY2(r.err.trimmed().endsWith(reason(error)), qPrintable(r.err));
        QVERIFY2(r.out.isEmpty(), qPrintable(r.out)); // no "wrote …" for what was not written
        QCOMPARE(snapshot(dir.path()), before);
        // The same command without the failure writes everything.
        const Result ok = runInProcess(args);
        QVERIFY2(ok.exitCode == 0, qPrintable(ok.err));
        QVERIFY(snapshot(dir.path()) != before);
    }
};

QTEST_GUILESS_MAIN(TestCommandWrites)
#include "TestCommandWrites.moc"
