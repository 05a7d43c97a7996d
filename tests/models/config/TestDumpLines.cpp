// The lines of a config's 2-space dump, computed without writing it (config/DumpLines.h): every key and element
// gets the line parseConfigText gives it when the dump is read back, and where that read-back would not give the
// same JSON (or would fail) no lines are claimed, so the caller dumps and parses as before.
#include "config/ConfigText.h"
#include "config/DumpLines.h"
#include "util/JsonLimits.h"

#include <QTest>

#include <cmath>
#include <limits>

using namespace dsw;
using oj = nlohmann::ordered_json;

namespace {

// (pointer, line) of every value, as the reader gives them for the dump and as dumpLines gives them.
std::vector<std::pair<std::string, int>> readBack(const oj& json)
{
    auto parsed = parseConfigText(json.dump(2));
    if (!parsed)
        qFatal("the dump does not read back: %s", parsed.error().c_str());
    return parsed.value().pointerLines();
}

std::vector<std::pair<std::string, int>> computed(const oj& json)
{
    auto lines = dumpLines(json);
    if (!lines)
        return {{"(none)", -1}};
    ParsedConfig c;
    c.json = json;
    c.lines = std::move(*lines);
    return c.pointerLines();
}

QString show(const std::vector<std::pair<std::string, int>>& lines)
{
    QString out;
    for (const auto& [pointer, line] : lines)
        out += QString::fromStdString(pointer) + "@" + QString::number(line) + " ";
    return out;
}

} // namespace

class TestDumpLines : public QObject {
    Q_OBJECT
private slots:
    void sameLinesAsTheDumpReadBack_data()
    {
        QTest::addColumn<QString>("json");
        QTest::newRow("empty") << "{}";
        QTest::newRow("flat") << R"({"a": 1, "b": "x", "c": true, "d": null, "e": 1.5})";
        QTest::newRow("nested") << R"({"a": {"b": {"c": 1, "d": 2}, "e": 3}, "f": 4})";
        QTest::newRow("empty containers") << R"({"a": {}, "b": [], "c": {"d": [], "e": {}}, "f": 1})";
        QTest::newRow("arrays") << R"({"a": [1, [2, 3], {"b": [4, {}], "c": []}, [], [[5]]], "d": [0.9, 0.999]})";
        QTest::newRow("escaped and unicode keys") << "{\"a/b\": 1, \"t~x\": {\"q\\\"uote\": 2, \"new\\nline\": "
                                                     "\"x\\ny\"}, \"é€😀\": [\"\\u0000\", \"tab\\t\"]}";
        QTest::newRow("numbers") << R"({"big": 18446744073709551615, "neg": -9223372036854775808, "f": -0.0,
                                       "e": 1e-300, "g": 12345678901234567890.5})";
        QTest::newRow("ds_config") << R"({"train_batch_size": 64, "optimizer": {"type": "AdamW", "params": {"lr": 3e-05,
            "betas": [0.9, 0.999]}}, "zero_optimization": {"stage": 3, "offload_param": {"device": "nvme",
            "nvme_path": "/local_nvme", "pin_memory": true}}, "aio": {"block_size": 1048576}})";
    }
    void sameLinesAsTheDumpReadBack()
    {
        QFETCH(QString, json);
        const oj j = oj::parse(json.toStdString());
        const auto expected = readBack(j);
        QVERIFY(!expected.empty() || j.empty());
        const auto got = computed(j);
        QVERIFY2(got == expected, qPrintable("computed " + show(got) + "\nread back " + show(expected)));
    }

    // Built in code, where the dump does not give the JSON back or would not read: no lines claimed.
    void noLinesWhereTheReadBackDiffers()
    {
        QVERIFY(!dumpLines(oj{{"lr", std::nan("")}}));                                    // dumped as null
        QVERIFY(!dumpLines(oj{{"a", {{"b", std::numeric_limits<double>::infinity()}}}})); // likewise
        QVERIFY(!dumpLines(oj{{"a", std::string("\xFF")}}));                              // dump throws
        QVERIFY(!dumpLines(oj{{std::string("k\xC0"), 1}}));
        QVERIFY(!dumpLines(oj::array({1, 2}))); // not a config
        oj deep = 1;
        for (int i = 0; i < kMaxConfigDepth; ++i)
            deep = oj{{"d", deep}};
        QVERIFY(!dumpLines(deep));
        // Strings that could make the dump exceed kMaxConfigBytes: the reader's limit decides, so no lines.
        QVERIFY(!dumpLines(oj{{"a", std::string(kMaxConfigBytes / 2, 'x')}}));
        QVERIFY(dumpLines(oj{{"a", std::string(1000, 'x')}}));
    }

    // A config a few thousand values long (an imported one) gets the same lines as its dump read back.
    void largeConfig()
    {
        oj j = oj::object();
        for (int i = 0; i < 300; ++i) {
            oj block = {{"n", i}, {"list", oj::array()}, {"empty", oj::object()}};
            for (int k = 0; k < i % 7; ++k)
                block["list"].push_back(oj{{"k", k}, {"v", oj::array({k, k + 1})}});
            j["block_" + std::to_string(i)] = block;
        }
        QCOMPARE(computed(j), readBack(j));
    }
};

QTEST_APPLESS_MAIN(TestDumpLines)
#include "TestDumpLines.moc"
