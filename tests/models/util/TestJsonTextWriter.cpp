// The direct JSON writer prints exactly what nlohmann's dump(2) prints for the same value: every scalar kind,
// strings that need escapes or hold UTF-8, nlohmann's float format, empty and nested containers, and JSON values
// handed over whole at any depth.
#include "util/JsonTextWriter.h"

#include <QTest>

#include <cmath>
#include <limits>

using namespace dsw;
using oj = nlohmann::ordered_json;

namespace {

// Writes `v` through the writer's own calls (scalars one by one), never through value(const ordered_json&)
// except for the subtrees `whole` names by depth: both ways must give dump(2)'s bytes.
void writeByParts(JsonTextWriter& w, const oj& v, int depth, int wholeAtDepth)
{
    if (depth == wholeAtDepth) {
        w.value(v);
        return;
    }
    switch (v.type()) {
    case oj::value_t::object:
        w.beginObject();
        for (auto it = v.begin(); it != v.end(); ++it) {
            w.key(it.key());
            writeByParts(w, it.value(), depth + 1, wholeAtDepth);
        }
        w.endObject();
        break;
    case oj::value_t::array:
        w.beginArray();
        for (const auto& e : v)
            writeByParts(w, e, depth + 1, wholeAtDepth);
        w.endArray();
        break;
    case oj::value_t::string: w.value(v.get_ref<const std::string&>()); break;
    case oj::value_t::boolean: w.value(v.get<bool>()); break;
    case oj::value_t::number_integer: w.value(v.get<std::int64_t>()); break;
    case oj::value_t::number_unsigned: w.value(v.get<std::uint64_t>()); break;
    case oj::value_t::number_float: w.value(v.get<double>()); break;
    case oj::value_t::null: w.value(nullptr); break;
    default: QFAIL("a value kind the test does not write");
    }
}

oj sample()
{
    const double nan = std::numeric_limits<double>::quiet_NaN();
    return oj{{"plain", "text"},
              {"escapes", "quote \" backslash \\ newline \n tab \t esc \x1b del \x7f"},
              {"utf8", "× — ✓ 🙂 \xc2\x9b \xe2\x80\xae"},
              {"empty string", ""},
              {"key \"quoted\"\n", 1},
              {"ints", {0, -1, 42, std::numeric_limits<std::int64_t>::min(), std::numeric_limits<std::int64_t>::max()}},
              {"unsigned", {std::numeric_limits<std::uint64_t>::max(), std::size_t{7}}},
              {"floats", {0.0, -0.0, 0.1, 1.0, 2.5e-8, 1e300, 123456789012345678.0, 1.0 / 3, nan, 0x1p63}},
              {"bools", {true, false}},
              {"null", nullptr},
              {"empty object", oj::object()},
              {"empty array", oj::array()},
              {"nested", {{"a", {{"b", oj::array({oj::object(), oj::array(), {{"c", {1, 2, {3}}}}})}}}}},
              {"array of objects", {{{"x", 1}}, {{"y", "z"}}}}};
}

} // namespace

class TestJsonTextWriter : public QObject {
    Q_OBJECT

private slots:
    void matchesDump_data()
    {
        QTest::addColumn<int>("wholeAtDepth");
        QTest::newRow("every value by parts") << -1;
        for (int depth = 0; depth <= 4; ++depth)
            QTest::addRow("subtrees whole at depth %d", depth) << depth;
    }
    void matchesDump()
    {
        QFETCH(int, wholeAtDepth);
        for (const oj& v : {sample(), oj(sample()["nested"]), oj(oj::array({sample(), sample()})), oj(oj::object()),
                            oj(oj::array()), oj("top-level string"), oj(3.25)}) {
            std::string text;
            JsonTextWriter w(text);
            writeByParts(w, v, 0, wholeAtDepth);
            QCOMPARE(text, v.dump(2));
        }
    }

    // The writer checks strings eight bytes at a time: every byte value at every place of the words it reads (and
    // of the tail after them) must come out as dump writes it, or be refused as dump refuses it.
    void everyByteAtEveryPlace()
    {
        int compared = 0;
        for (int byte = 0; byte < 256; ++byte)
            for (std::size_t length : {1, 7, 8, 9, 16, 19})
                for (std::size_t at = 0; at < length; ++at) {
                    std::string s(length, 'a');
                    s[at] = static_cast<char>(byte);
                    std::string text;
                    JsonTextWriter w(text);
                    std::string expected;
                    bool refused = false;
                    try {
                        expected = oj(s).dump(2);
                    } catch (const nlohmann::json::type_error&) {
                        refused = true;
                    }
                    try {
                        w.value(s);
                        QVERIFY2(!refused && text == expected,
                                 qPrintable(QStringLiteral("byte 0x%1 at %2 of %3")
                                                .arg(byte, 2, 16, QLatin1Char('0'))
                                                .arg(at)
                                                .arg(length)));
                    } catch (const nlohmann::json::type_error&) {
                        QVERIFY2(refused, qPrintable(QStringLiteral("byte 0x%1 refused").arg(byte, 2, 16)));
                    }
                    ++compared;
                }
        QCOMPARE(compared, 256 * (1 + 7 + 8 + 9 + 16 + 19));
    }

    // Strings that are not UTF-8 are refused as dump refuses them, not written half-checked.
    void invalidUtf8Throws()
    {
        std::string text;
        JsonTextWriter w(text);
        w.beginObject();
        w.key("k");
        QVERIFY_THROWS_EXCEPTION(nlohmann::json::type_error, w.value(std::string("\xff")));
        QVERIFY_THROWS_EXCEPTION(nlohmann::json::type_error, (void)oj(std::string("\xff")).dump(2));
    }
};

QTEST_APPLESS_MAIN(TestJsonTextWriter)
#include "TestJsonTextWriter.moc"
