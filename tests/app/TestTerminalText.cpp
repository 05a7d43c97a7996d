// Escaping user data for the terminal: every control character that could move the cursor, recolour,
// rewrite a line or reorder text is shown as a visible escape; ordinary text (UTF-8 included) is unchanged.
#include "TerminalText.h"

#include <QTest>
#include <nlohmann/json.hpp>

#include <cstdio>

using namespace dsw;

namespace {

// The escapes written character by character, as TerminalText.cpp did before its fast paths: the reference
// that the fast paths (text returned as it is up to the first character that needs an escape) must agree with.
bool invisible(char32_t c)
{
    return (c >= 0x80 && c <= 0x9f) || c == 0x200e || c == 0x200f || (c >= 0x2028 && c <= 0x202e)
        || (c >= 0x2066 && c <= 0x2069);
}

QString referenceEscaped(const QString& text, bool keepNewlines)
{
    QString out;
    for (const uint code : text.toUcs4()) {
        const char32_t c = code;
        if (c == '\n' && keepNewlines)
            out += QChar('\n');
        else if (c == '\n')
            out += QStringLiteral("\\n");
        else if (c == '\r')
            out += QStringLiteral("\\r");
        else if (c == '\t')
            out += QStringLiteral("\\t");
        else if (c < 0x20 || c == 0x7f)
            out += QStringLiteral("\\x%1").arg(uint(c), 2, 16, QChar('0'));
        else if (invisible(c))
            out += QStringLiteral("\\u%1").arg(uint(c), 4, 16, QChar('0'));
        else
            out += QString::fromUcs4(&c, 1);
    }
    return out;
}

std::string referenceJsonSafe(const std::string& json)
{
    std::string out;
    for (size_t i = 0; i < json.size(); ++i) {
        const auto b = static_cast<unsigned char>(json[i]);
        char32_t c = 0;
        size_t length = 1;
        if (b == 0x7f)
            c = b;
        else if (b == 0xc2 && i + 1 < json.size())
            c = (static_cast<unsigned char>(json[i + 1]) & 0x3f) | 0x80, length = 2;
        else if (b == 0xe2 && i + 2 < json.size())
            c = 0x2000 | ((static_cast<unsigned char>(json[i + 1]) & 0x3f) << 6)
                | (static_cast<unsigned char>(json[i + 2]) & 0x3f),
            length = 3;
        if (c == 0x7f || (c && invisible(c))) {
            char buffer[8];
            std::snprintf(buffer, sizeof buffer, "\\u%04x", unsigned(c));
            out += buffer;
            i += length - 1;
        } else {
            out += json[i];
        }
    }
    return out;
}

// Pieces that need no escape (ASCII, ·, ×, —, ✓, ≈, an emoji's surrogate pair) and pieces that do (C0, DEL, C1,
// bidirectional controls, separators, a lone surrogate), placed at the start, the middle, the end, alone and in
// runs longer than the eight bytes the JSON scan reads at once.
const QStringList& plainPieces()
{
    static const QStringList pieces = {QStringLiteral("plain text "), QString::fromUtf8("Ψ·128 × 10⁹ — ✓ ≈ ⚠ ✗ • ◀"),
                                       QString::fromUtf8("emoji 🙂 "),
                                       QStringLiteral("\"quoted\" back\\slash {}[]:,"),
                                       QString::fromUtf8("\u2027\u2030\u206a\u00a0\u00bf\u00c0\u0100")};
    return pieces;
}

const QStringList& escapedPieces()
{
    static const QStringList pieces = {QStringLiteral("\x1b[31m"), QStringLiteral("\r"),   QStringLiteral("\n"),
                                       QStringLiteral("\t"),       QString(QChar(0)),      QStringLiteral("\x7f"),
                                       QString(QChar(0x80)),       QString(QChar(0x9b)),   QString(QChar(0x9f)),
                                       QString(QChar(0x200e)),     QString(QChar(0x200f)), QString(QChar(0x2028)),
                                       QString(QChar(0x202e)),     QString(QChar(0x2066)), QString(QChar(0x2069)),
                                       QString(QChar(0xd800)),     QString(QChar(0xdc00))};
    return pieces;
}

QStringList mixedTexts()
{
    QStringList texts = {QString(), QStringLiteral("a"), QStringLiteral("12345678"), QStringLiteral("123456789")};
    for (const QString& plain : plainPieces()) {
        texts << plain << plain.repeated(5);
        for (const QString& special : escapedPieces())
            texts << special << special + plain << plain + special << plain.repeated(3) + special + plain
                  << special.repeated(3) + plain.repeated(2) + special;
    }
    return texts;
}

} // namespace

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

    // The fast paths and the character-by-character escapes agree on texts with and without characters to escape.
    void fastPathsAgreeWithTheGeneralEscapes()
    {
        for (const QString& text : mixedTexts()) {
            QCOMPARE(terminalSafe(text), referenceEscaped(text, false));
            QCOMPARE(terminalSafeLines(text), referenceEscaped(text, true));
            // As JSON: the dump's own escapes first (C0 controls), then the terminal's; a lone surrogate is not
            // UTF-8, so it is left out here.
            if (text.contains(QChar(0xd800)))
                continue;
            const std::string dumped = nlohmann::ordered_json{{"k", text.toStdString()}, {"n", 1}}.dump(2);
            QCOMPARE(jsonTerminalSafe(dumped), referenceJsonSafe(dumped));
            const std::string raw = text.toStdString(); // the bytes themselves, C0 controls included
            QCOMPARE(jsonTerminalSafe(raw), referenceJsonSafe(raw));
            for (const std::string& cut : {raw.substr(0, raw.size() / 2), raw.substr(raw.size() / 3)})
                QCOMPARE(jsonTerminalSafe(cut), referenceJsonSafe(cut)); // lead bytes cut short at the end
        }
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
