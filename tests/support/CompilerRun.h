#pragma once
// Runs one of the build-time compilers (tools/) on a file the test writes, for the tests that hold each compiler to
// the contract they share: a broken input fails in one line that names the file, and nothing is written, not even
// a part (OUT.partial).
#include <QFile>
#include <QProcess>
#include <QString>
#include <QStringList>
#include <QTest>

namespace dsw::test {

struct CompilerRun {
    int exitCode = -1;
    QString error; // what it wrote to standard error
};

// `text` written to `input` (unless `input` is empty), then `compiler` run with `arguments`.
inline CompilerRun runCompiler(const QString& compiler, const QStringList& arguments, const QString& input = {},
                               const QByteArray& text = {})
{
    if (!input.isEmpty()) {
        QFile file(input);
        if (!file.open(QIODevice::WriteOnly) || file.write(text) != text.size())
            return {-1, "cannot write " + input};
    }
    QProcess process;
    process.start(compiler, arguments);
    if (!process.waitForFinished(60000) || process.exitStatus() != QProcess::NormalExit)
        return {-1, "the compiler did not finish"};
    return {process.exitCode(), QString::fromUtf8(process.readAllStandardError())};
}

// Verifies (QVERIFY: the caller returns on failure) that `run` refused `input` as every compiler must: exit 1,
// one line "error: INPUT: …" that says `says`, and neither `output` nor its part written.
inline void verifyRefused(const CompilerRun& run, const QString& input, const QString& output, const QString& says)
{
    QVERIFY2(run.exitCode == 1, qPrintable(run.error));
    QVERIFY2(run.error.startsWith("error: " + input + ": "), qPrintable(run.error)); // names the file
    QVERIFY2(run.error.contains(says), qPrintable(run.error));
    QCOMPARE(run.error.count('\n'), 1); // one line
    QVERIFY(!QFile::exists(output));
    QVERIFY(!QFile::exists(output + ".partial"));
}

} // namespace dsw::test
