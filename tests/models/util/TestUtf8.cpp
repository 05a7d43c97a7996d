// UTF-8 validation and positions (models/util/Utf8.h): every reader refuses malformed text at the first bad byte
// and names its line and column in code points.
#include "util/JsonAccess.h"
#include "util/Utf8.h"

#include <QTest>

using namespace dsw;

class TestUtf8 : public QObject {
    Q_OBJECT
private slots:
    void acceptsWellFormedText()
    {
        QCOMPARE(firstInvalidUtf8(""), std::nullopt);
        QCOMPARE(firstInvalidUtf8("plain ASCII"), std::nullopt);
        QCOMPARE(firstInvalidUtf8("Ψ × 4 — 🚀"), std::nullopt);        // 2-, 3- and 4-byte sequences
        QCOMPARE(firstInvalidUtf8("\xF4\x8F\xBF\xBF"), std::nullopt); // U+10FFFF, the last code point
    }
    void refusesTheFirstBadByte_data()
    {
        QTest::addColumn<QByteArray>("text");
        QTest::addColumn<int>("offset");
        QTest::newRow("lone continuation byte") << QByteArray("ab\x80") << 2;
        QTest::newRow("overlong slash") << QByteArray("x\xC0\xAF") << 1;
        QTest::newRow("overlong 3-byte") << QByteArray("\xE0\x80\xAF") << 0;
        QTest::newRow("surrogate U+D800") << QByteArray("ok \xED\xA0\x80") << 3;
        QTest::newRow("above U+10FFFF") << QByteArray("\xF4\x90\x80\x80") << 0;
        QTest::newRow("truncated at the end") << QByteArray("Ψ\xE2\x82") << 2;
        QTest::newRow("invalid lead byte") << QByteArray("a\xFF") << 1;
    }
    void refusesTheFirstBadByte()
    {
        QFETCH(QByteArray, text);
        QFETCH(int, offset);
        const auto bad = firstInvalidUtf8(text.toStdString());
        QVERIFY(bad.has_value());
        QCOMPARE(*bad, std::size_t(offset));
    }
    // Only ASCII letters change: DeepSpeed compares optimizer names case-insensitively, and a UTF-8 name must
    // not be mangled on the way.
    void asciiLowerTouchesOnlyAsciiLetters()
    {
        QCOMPARE(asciiLower("AdamW"), std::string("adamw"));
        QCOMPARE(asciiLower("ONEBITADAM_1"), std::string("onebitadam_1"));
        QCOMPARE(asciiLower("Ädam \xC3\x84"), std::string("Ädam \xC3\x84"));
        QCOMPARE(asciiLower(""), std::string());
    }
    // "auto" anywhere in a value, nested or not; another string or a key named auto does not count.
    void containsStringLooksIntoNestedValues()
    {
        using oj = nlohmann::ordered_json;
        QVERIFY(containsString(oj("auto"), "auto"));
        QVERIFY(containsString(oj::parse(R"({"a": [1, {"b": "auto"}]})"), "auto"));
        QVERIFY(!containsString(oj::parse(R"({"auto": 1, "b": "automatic"})"), "auto"));
        QVERIFY(!containsString(oj(3), "auto"));
    }
    void positionCountsLinesAndCodePoints()
    {
        const std::string text = "{\n  \"Ψ\": 1,\n  x";
        QCOMPARE(positionOf(text, 0).line, 1);
        QCOMPARE(positionOf(text, 0).column, 1);
        const std::size_t x = text.find('x');
        QCOMPARE(positionOf(text, x).line, 3);
        QCOMPARE(positionOf(text, x).column, 3);
        // Ψ is two bytes but one column: the colon after it is column 6 of line 2, not 7.
        const std::size_t colon = text.find(':');
        QCOMPARE(positionOf(text, colon).line, 2);
        QCOMPARE(positionOf(text, colon).column, 6);
        // An offset past the end is the position after the last character, not a crash.
        QCOMPARE(positionOf(text, text.size() + 10).line, 3);
    }
};

QTEST_APPLESS_MAIN(TestUtf8)
#include "TestUtf8.moc"
