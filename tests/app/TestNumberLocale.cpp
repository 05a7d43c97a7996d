// In a locale with a decimal comma, ds-wizard still writes and reads numbers as DeepSpeed does
// (app/core/NumberLocale.h): the same command gives the same bytes under de_DE.UTF-8 as under C.
// The German locale is compiled into a temporary folder with localedef (Debian's locales package).
#include "ProgramRun.h"

#include <QDir>
#include <QProcessEnvironment>
#include <QTemporaryDir>
#include <QTest>

namespace {

using Output = dsw::test::ProgramRun;

Output run(const QString& program, const QStringList& arguments, const QProcessEnvironment& environment)
{
    return dsw::test::runProgram(program, arguments, environment, QDir::tempPath());
}

} // namespace

class TestNumberLocale : public QObject {
    Q_OBJECT

private slots:
    void initTestCase()
    {
        QVERIFY(m_locales.isValid());
        const Output made = run(QStringLiteral("localedef"),
                                {QStringLiteral("-i"), QStringLiteral("de_DE"), QStringLiteral("-f"),
                                 QStringLiteral("UTF-8"), m_locales.filePath(QStringLiteral("de_DE.UTF-8"))},
                                QProcessEnvironment::systemEnvironment());
        QVERIFY2(
            made.exitCode == 0 || made.exitCode == 1, // 1: made, with warnings
            "localedef could not compile de_DE.UTF-8: install Debian's locales package (packaging/build-deps.txt)");
        m_comma = QProcessEnvironment::systemEnvironment();
        m_comma.insert(QStringLiteral("LOCPATH"), m_locales.path());
        m_comma.insert(QStringLiteral("LC_ALL"), QStringLiteral("de_DE.UTF-8"));
        // The test can fail: the locale is in effect and writes a decimal comma.
        const Output point =
            run(QStringLiteral("locale"), {QStringLiteral("-k"), QStringLiteral("decimal_point")}, m_comma);
        QCOMPARE(point.out.trimmed(), QByteArray("decimal_point=\",\""));
        m_classic = QProcessEnvironment::systemEnvironment();
        m_classic.insert(QStringLiteral("LC_ALL"), QStringLiteral("C.UTF-8"));
    }

    void commandsWriteTheSameBytes_data()
    {
        QTest::addColumn<QStringList>("arguments");
        QTest::newRow("estimate 6.7e9") << QStringList{"estimate", "--params", "6.7e9", "--gpus-per-node",
                                                       "8",        "--nodes",  "1"};
        QTest::newRow("recommend") << QStringList{"recommend"};
        QTest::newRow("recommend json") << QStringList{"recommend", "--format", "json"};
        // A fractional answer given with --set reads and writes the same.
        QTest::newRow("recommend config, lr 1.5e-5")
            << QStringList{"recommend", "--format", "config", "--set", "training.learning_rate=1.5e-5"};
    }

    void commandsWriteTheSameBytes()
    {
        QFETCH(QStringList, arguments);
        const Output classic = run(QStringLiteral(DSW_EXECUTABLE), arguments, m_classic);
        const Output comma = run(QStringLiteral(DSW_EXECUTABLE), arguments, m_comma);
        QCOMPARE(classic.exitCode, 0);
        QVERIFY(classic.out.contains('.'));
        QCOMPARE(comma.exitCode, classic.exitCode);
        QCOMPARE(comma.out, classic.out);
    }

private:
    QTemporaryDir m_locales;
    QProcessEnvironment m_comma;
    QProcessEnvironment m_classic;
};

QTEST_GUILESS_MAIN(TestNumberLocale)
#include "TestNumberLocale.moc"
