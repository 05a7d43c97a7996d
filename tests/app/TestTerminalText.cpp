// Escaping user data for the terminal: every control character that could move the cursor, recolour,
// rewrite a line or reorder text is shown as a visible escape; ordinary text (UTF-8 included) is unchanged.
#include "TerminalText.h"

#include <QTest>
#include <nlohmann/json.hpp>

using namespace dsw;

class TestTerminalText : public QObject {
    Q_OBJECT

private slots:
    void escapesControls_data()
    {
        QTest::addColumn<QString>("text");
        QTest::addColumn<QString>("shown");
        QTest::newRow("ESC") << QString("a\x1b[31mb") << QString("a\\x1b[31mb");
        QTest::newRow("CR") << QString("ok\rforged") << QString("ok\\rforged");
        QTest::newRow("newline") << QString("one\ntwo") << QString("one\\ntwo");
        QTest::newRow("tab, BEL, NUL, DEL") << QString::fromLatin1("\t\a\0\x7f", 4) << QString("\\t\\x07\\x00\\x7f");
        QTest::newRow("C1 CSI") << QString(QChar(0x9b)) + "2J" << QString("\\u009b2J");
        QTest::newRow("bidi override") << QString(QChar(0x202e)) + "cba" << QString("\\u202ecba");
        QTest::newRow("line separator") << QString(QChar(0x2028)) << QString("\\u2028");
        QTest::newRow("plain UTF-8") << QString::fromUtf8("7 × 10⁹ — ok\\path")
                                     << QString::fromUtf8("7 × 10⁹ — ok\\path");
    }
    void escapesControls()
    {
        QFETCH(QString, text);
        QFETCH(QString, shown);
        QCOMPARE(terminalSafe(text), shown);
    }

    void linesKeepTheirNewlines() { QCOMPARE(terminalSafeLines("a\x1b\nb\r\n"), QString("a\\x1b\nb\\r\n")); }

    // JSON stays the same value; DEL, C1 and bidirectional controls become \u escapes, other text is untouched.
    void jsonStaysTheSameValue()
    {
        const nlohmann::ordered_json value = {{"k\x1b\x7f",
                                               "\xc2\x9b"
                                               "2J \xe2\x80\xae"
                                               "x \xc3\x97 \xe2\x80\x94"}};
        const std::string dumped = value.dump(2);
        const std::string safe = jsonTerminalSafe(dumped);
        QVERIFY(safe.find('\x1b') == std::string::npos && safe.find('\x7f') == std::string::npos);
        QVERIFY(safe.find("\xc2\x9b") == std::string::npos && safe.find("\xe2\x80\xae") == std::string::npos);
        QVERIFY(safe.find("\\u009b") != std::string::npos && safe.find("\\u202e") != std::string::npos);
        QVERIFY(safe.find("\xc3\x97 \xe2\x80\x94") != std::string::npos); // × and — as they were
        QVERIFY(nlohmann::ordered_json::parse(safe) == value);
    }
};

QTEST_GUILESS_MAIN(TestTerminalText)
#include "TestTerminalText.moc"
