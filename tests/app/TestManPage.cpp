// The man page covers what the command line offers: every command and option that
// `ds-wizard --help` lists, and every exit status.
#include <QFile>
#include <QProcess>
#include <QRegularExpression>
#include <QSet>
#include <QTest>

class TestManPage : public QObject {
    Q_OBJECT
    QString m_man;   // troff with "\-" read as "-"
    QString m_usage; // ds-wizard --help

private slots:
    void initTestCase()
    {
        QFile man(QStringLiteral(DSW_SOURCE_DIR "/packaging/man/ds-wizard.1"));
        QVERIFY(man.open(QIODevice::ReadOnly));
        m_man = QString::fromUtf8(man.readAll()).replace(QStringLiteral("\\-"), QStringLiteral("-"));
        QProcess help;
        help.start(QStringLiteral(DSW_EXECUTABLE), {QStringLiteral("--help")});
        QVERIFY(help.waitForFinished(30000));
        QCOMPARE(help.exitCode(), 0);
        // The synopsis lines only ("Usage: ds-wizard …", "ds-wizard …"), not the notes below them.
        const QStringList lines = QString::fromUtf8(help.readAllStandardOutput()).split('\n');
        for (const QString& line : lines)
            if (QRegularExpression(QStringLiteral("^\\s*(Usage: )?ds-wizard ")).match(line).hasMatch())
                m_usage += line + '\n';
        QVERIFY(m_usage.contains(QStringLiteral("ds-wizard recommend")));
    }

    void everyCommandHasASection()
    {
        QSet<QString> commands;
        for (const auto& m : QRegularExpression(QStringLiteral("ds-wizard ([a-z]+)")).globalMatch(m_usage))
            commands << m.captured(1);
        QVERIFY(commands.size() >= 7);
        for (const QString& command : commands) {
            QVERIFY2(m_man.contains(QStringLiteral(".B ds-wizard ") + command),
                     qPrintable(command + " not in SYNOPSIS"));
            QVERIFY2(m_man.contains(QStringLiteral(".TP\n.B ") + command + "\n"),
                     qPrintable(command + " not in COMMANDS"));
        }
    }

    void everyOptionIsDescribed()
    {
        QSet<QString> options;
        for (const auto& m : QRegularExpression(QStringLiteral("(?<![\\w-])(--?[a-z][a-z-]*)")).globalMatch(m_usage))
            options << m.captured(1);
        QVERIFY(options.contains(QStringLiteral("--set")));
        for (const QString& option : options) {
            // Described under OPTIONS: a tagged paragraph that starts with the option.
            const QRegularExpression described(QStringLiteral("\\.TP\n\\.B[IR]* \"?")
                                               + QRegularExpression::escape(option) + "[ \",\n]");
            QVERIFY2(described.match(m_man).hasMatch(), qPrintable(option + " is not described under OPTIONS"));
        }
    }

    void everyExitStatus()
    {
        const int section = m_man.indexOf(QStringLiteral(".SH EXIT STATUS"));
        QVERIFY(section >= 0);
        for (const char* status : {"0", "1", "2"})
            QVERIFY2(m_man.indexOf(QStringLiteral(".TP\n.B %1\n").arg(status), section) > section, status);
    }
};

QTEST_GUILESS_MAIN(TestManPage)
#include "TestManPage.moc"
