// Reading a ds_config from untrusted text: limits, UTF-8, nesting, syntax errors with positions,
// duplicate keys, the line of every key, hjson comments and quoteless values, exact integers.
#include "config/ConfigText.h"

#include <QTest>
#include <algorithm>

using namespace dsw;

namespace {
bool contains(const std::string& text, const std::string& part) { return text.find(part) != std::string::npos; }
} // namespace

class TestConfigText : public QObject {
    Q_OBJECT
private slots:
    void sizeLimit()
    {
        // {"a":"xxx…"} is 8 bytes of syntax around the string: a string of kMaxConfigBytes - 8 bytes fits exactly.
        const std::string fits = "{\"a\":\"" + std::string(kMaxConfigBytes - 8, 'x') + "\"}";
        QCOMPARE(fits.size(), kMaxConfigBytes);
        QVERIFY(parseConfigText(fits).ok());
        const std::string tooBig = "{\"a\":\"" + std::string(kMaxConfigBytes - 7, 'x') + "\"}";
        const auto r = parseConfigText(tooBig);
        QVERIFY(!r.ok());
        QVERIFY2(contains(r.error(), "4194305 bytes"), r.error().c_str());
    }

    void utf8_data()
    {
        QTest::addColumn<QByteArray>("text");
        QTest::addColumn<int>("badOffset"); // -1: valid
        // Offsets counted by hand: `{"a":"` is 6 bytes, so the first byte inside the string is offset 6.
        QTest::newRow("valid 2/3/4-byte") << QByteArray("{\"a\":\"\xC3\xA9 \xE2\x82\xAC \xF0\x9F\x98\x80\"}") << -1;
        QTest::newRow("stray 0xFF") << QByteArray("{\"a\":\"\xFF\"}") << 6;
        QTest::newRow("lone continuation") << QByteArray("{\"a\":\"x\x80\"}") << 7;
        QTest::newRow("overlong slash") << QByteArray("{\"a\":\"\xC0\xAF\"}") << 6;
        QTest::newRow("overlong 3-byte") << QByteArray("{\"a\":\"\xE0\x80\xAF\"}") << 6;
        QTest::newRow("surrogate") << QByteArray("{\"a\":\"\xED\xA0\x80\"}") << 6;
        QTest::newRow("above U+10FFFF") << QByteArray("{\"a\":\"\xF4\x90\x80\x80\"}") << 6;
        QTest::newRow("truncated at end") << QByteArray("{\"a\":1}\xE2\x82") << 7;
        QTest::newRow("bad in a key") << QByteArray("{\"\xFE\":1}") << 2;
    }
    void utf8()
    {
        QFETCH(QByteArray, text);
        QFETCH(int, badOffset);
        const auto r = parseConfigText(text.toStdString());
        if (badOffset < 0) {
            QVERIFY2(r.ok(), r.ok() ? "" : r.error().c_str());
            return;
        }
        QVERIFY(!r.ok());
        QVERIFY2(contains(r.error(), "invalid UTF-8 at byte offset " + std::to_string(badOffset)), r.error().c_str());
    }

    void nesting_data()
    {
        QTest::addColumn<QString>("open");
        QTest::addColumn<QString>("close");
        QTest::addColumn<int>("depth");
        QTest::addColumn<bool>("accepted");
        // The root object is level 1, so "depth" containers in total; kMaxConfigDepth = 64.
        QTest::newRow("64 levels") << "["
                                   << "]" << 64 << true;
        QTest::newRow("65 levels") << "["
                                   << "]" << 65 << false;
        QTest::newRow("100000 arrays") << "["
                                       << "]" << 100000 << false;
        QTest::newRow("100000 objects") << "{\"a\":"
                                        << "}" << 100000 << false;
    }
    void nesting()
    {
        QFETCH(QString, open);
        QFETCH(QString, close);
        QFETCH(int, depth);
        QFETCH(bool, accepted);
        // {"x": <depth-1 containers>}: the root object plus depth-1 nested ones.
        std::string text = "{\"x\":";
        for (int i = 1; i < depth; ++i)
            text += open.toStdString();
        for (int i = 1; i < depth; ++i)
            text += close.toStdString();
        text += "}";
        const auto r = parseConfigText(text);
        QCOMPARE(r.ok(), accepted);
        if (!accepted)
            QVERIFY2(contains(r.error(), "nested too deeply") && contains(r.error(), "64 levels"), r.error().c_str());
    }

    void unclosedDeepNestingDoesNotCrash()
    {
        const auto r = parseConfigText(std::string(100000, '['));
        QVERIFY(!r.ok());
        QVERIFY(contains(r.error(), "line 1, column 65")); // the 65th '[' is the first one over the limit
    }

    void syntaxErrors_data()
    {
        QTest::addColumn<QString>("text");
        QTest::addColumn<int>("line");
        QTest::addColumn<int>("column");
        // Columns are 1-based characters; each position is where the offending character sits.
        // Line 3 is `  "b": ,`: two spaces, "b" at columns 3-5, ':' 6, space 7, ',' 8.
        QTest::newRow("missing value") << "{\n  \"a\": 1,\n  \"b\": ,\n}" << 3 << 8;
        // `{"a" 1}`: the 1 at column 6 where a ':' was expected.
        QTest::newRow("missing colon") << "{\"a\" 1}" << 1 << 6;
        // Line 2 `  "a": 1 "b": 2`: the second string starts at column 10 where ',' or '}' was expected.
        QTest::newRow("missing comma") << "{\n  \"a\": 1 \"b\": 2\n}" << 2 << 10;
        // Line 2 `"é": [1 2],`: 'é' is one character, so '[' is column 6 and the 2 (missing comma) column 9.
        QTest::newRow("missing comma after non-ASCII") << "{\n\"\xC3\xA9\": [1 2],\n\"b\": 1}" << 2 << 9;
        // A literal that is neither true nor a quoteless string: `tru}` on one line is read by hjson as
        // the string "tru}", and then the object never closes: the end of input, line 1 column 11.
        QTest::newRow("unclosed after quoteless") << "{\"a\": tru}" << 1 << 11;
    }
    void syntaxErrors()
    {
        QFETCH(QString, text);
        QFETCH(int, line);
        QFETCH(int, column);
        const auto r = parseConfigText(text.toStdString());
        QVERIFY(!r.ok());
        const std::string where = "line " + std::to_string(line) + ", column " + std::to_string(column);
        QVERIFY2(contains(r.error(), "JSON syntax error at " + where), r.error().c_str());
    }

    // DeepSpeed's reader (json/hjson) stops with "Extra data" at anything after the top-level value; a NUL
    // byte must not end the text early (nlohmann's lexer reads NUL as the end of the input).
    void bytesAfterTheRootValue_data()
    {
        QTest::addColumn<QByteArray>("text");
        QTest::addColumn<int>("line");
        QTest::addColumn<int>("column");
        QTest::newRow("NUL then a second object") << QByteArray("{\"train_batch_size\": 8}\0{\"x\": 1}", 33) << 1 << 24;
        QTest::newRow("NUL alone at the end") << QByteArray("{\"train_batch_size\": 8}\n\0", 26) << 2 << 1;
        QTest::newRow("a second object") << QByteArray("{\"a\": 1}\n{\"b\": 2}") << 2 << 1;
        QTest::newRow("a stray word") << QByteArray("{\"a\": 1} x") << 1 << 10;
        // A scalar top level ends where the scalar does; the columns are Python's json.loads "Extra data" ones.
        QTest::newRow("two numbers") << QByteArray("5 6") << 1 << 3;
        QTest::newRow("a string then an object") << QByteArray("\"abc\" {}") << 1 << 7;
        QTest::newRow("a string with an escaped quote") << QByteArray("\"a\\\"b\" 7") << 1 << 8;
        QTest::newRow("two literals") << QByteArray("true false") << 1 << 6;
        QTest::newRow("an array then a number") << QByteArray("[1] 2") << 1 << 5;
        QTest::newRow("a number, NUL, more") << QByteArray("5\0x", 3) << 1 << 2;
    }
    void bytesAfterTheRootValue()
    {
        QFETCH(QByteArray, text);
        QFETCH(int, line);
        QFETCH(int, column);
        const auto r = parseConfigText(text.toStdString());
        QVERIFY(!r.ok());
        const std::string where = "line " + std::to_string(line) + ", column " + std::to_string(column);
        QVERIFY2(contains(r.error(), "JSON syntax error at " + where), r.error().c_str());
        QVERIFY2(contains(r.error(), "Extra data"), r.error().c_str());
    }
    // Empty, cut-off and binary files are not "Extra data": that is only for text after a complete value.
    void incompleteOrNonTextFiles_data()
    {
        QTest::addColumn<QByteArray>("text");
        QTest::addColumn<QString>("message");
        QTest::newRow("empty") << QByteArray("") << "the file is empty";
        QTest::newRow("whitespace") << QByteArray(" \n\t\r\n") << "the file contains only whitespace";
        QTest::newRow("only a comment") << QByteArray("// nothing\n") << "the file has only comments";
        QTest::newRow("unclosed brace") << QByteArray("{")
                                        << "line 1, column 2: the file ends before the config is complete";
        QTest::newRow("cut after a member")
            << QByteArray("{\"a\": 1") << "line 1, column 8: the file ends before the config is complete";
        QTest::newRow("cut inside an array")
            << QByteArray("{\n\"a\": [1, 2") << "line 2, column 11: the file ends before the config is complete";
        QTest::newRow("one NUL byte") << QByteArray("\0", 1) << "not JSON text: a NUL byte at line 1, column 1";
        QTest::newRow("NUL inside the object")
            << QByteArray("{\"a\":\0}", 7) << "not JSON text: a NUL byte at line 1, column 6";
    }
    void incompleteOrNonTextFiles()
    {
        QFETCH(QByteArray, text);
        QFETCH(QString, message);
        const auto r = parseConfigText(text.toStdString());
        QVERIFY(!r.ok());
        QVERIFY2(contains(r.error(), message.toStdString()), r.error().c_str());
        QVERIFY2(!contains(r.error(), "Extra data"), r.error().c_str());
        QVERIFY2(!contains(r.error(), "top level is"), r.error().c_str());
    }

    void nulInsideAStringIsAnError()
    {
        const auto r = parseConfigText(std::string("{\"a\": \"x\0y\"}", 13));
        QVERIFY(!r.ok());
        QVERIFY2(contains(r.error(), "line 1"), r.error().c_str());
    }

    void neverThrows_data()
    {
        QTest::addColumn<QByteArray>("text");
        QTest::newRow("empty") << QByteArray("");
        QTest::newRow("open brace") << QByteArray("{");
        QTest::newRow("close brace") << QByteArray("}");
        QTest::newRow("unterminated key") << QByteArray("{\"a");
        QTest::newRow("unterminated comment") << QByteArray("{/* ");
        QTest::newRow("nul byte") << QByteArray("{\"a\":\0}", 7);
        QTest::newRow("only comment") << QByteArray("// nothing");
        QTest::newRow("closers") << QByteArray("]]]]}}}}");
        QTest::newRow("colons") << QByteArray("{::::}");
        QTest::newRow("raw newline in string") << QByteArray("{\"a\":\"x\ny\"}");
        QTest::newRow("single quotes") << QByteArray("{'a': 1}");
        QTest::newRow("two documents") << QByteArray("{} {}");
    }
    void neverThrows()
    {
        QFETCH(QByteArray, text);
        const auto r = parseConfigText(text.toStdString());
        QVERIFY(!r.ok());
        QVERIFY(!r.error().empty());
    }

    void topLevelMustBeObject_data()
    {
        QTest::addColumn<QString>("text");
        QTest::addColumn<QString>("kind");
        QTest::newRow("array") << "[1, 2]"
                               << "an array";
        QTest::newRow("string") << "\"ds_config\""
                                << "a string";
        QTest::newRow("number") << "42"
                                << "a number";
        QTest::newRow("null") << "null"
                              << "null";
        QTest::newRow("bool") << "true"
                              << "a boolean";
    }
    void topLevelMustBeObject()
    {
        QFETCH(QString, text);
        QFETCH(QString, kind);
        const auto r = parseConfigText(text.toStdString());
        QVERIFY(!r.ok());
        QVERIFY2(contains(r.error(), "top level is " + kind.toStdString()), r.error().c_str());
    }

    void linesOfPointers()
    {
        const std::string text = "{\n"                                           // 1
                                 "  \"train_batch_size\": 64,\n"                 // 2
                                 "  \"zero_optimization\": {\n"                  // 3
                                 "    \"stage\": 3,\n"                           // 4
                                 "    \"offload_optimizer\": {\n"                // 5
                                 "      \"device\": \"cpu\"\n"                   // 6
                                 "    }\n"                                       // 7
                                 "  },\n"                                        // 8
                                 "  \"optimizer\": {\"params\": {\"betas\": [\n" // 9
                                 "    0.9,\n"                                    // 10
                                 "    0.95]}},\n"                                // 11
                                 "  \"a/b\": 1, \"c~d\": 2\n"                    // 12
                                 "}\n";
        const auto r = parseConfigText(text);
        QVERIFY(r.ok());
        const ParsedConfig& c = r.value();
        QVERIFY(c.strictJson);
        QCOMPARE(c.lineAt("/train_batch_size"), 2);
        QCOMPARE(c.lineAt("/zero_optimization"), 3);
        QCOMPARE(c.lineAt("/zero_optimization/stage"), 4);
        QCOMPARE(c.lineAt("/zero_optimization/offload_optimizer/device"), 6);
        QCOMPARE(c.lineAt("/optimizer/params/betas"), 9);
        QCOMPARE(c.lineAt("/optimizer/params/betas/0"), 10);
        QCOMPARE(c.lineAt("/optimizer/params/betas/1"), 11);
        QCOMPARE(c.lineAt("/a~1b"), 12); // RFC 6901: '/' is written ~1 and '~' is ~0
        QCOMPARE(c.lineAt("/c~0d"), 12);
        QCOMPARE(c.lineOf("/zero_optimization/offload_optimizer/nvme_path"), 5); // absent: its parent's line
        QCOMPARE(c.lineOf("/missing"), 0);
        // keys keep file order
        std::vector<std::string> keys;
        for (auto it = c.json.begin(); it != c.json.end(); ++it)
            keys.push_back(it.key());
        QVERIFY((keys == std::vector<std::string>{"train_batch_size", "zero_optimization", "optimizer", "a/b", "c~d"}));
    }

    void duplicates()
    {
        const std::string text = "{\n"
                                 "  \"fp16\": {\"enabled\": true,\n" // 2
                                 "           \"enabled\": false},\n" // 3
                                 "  \"train_batch_size\": 8,\n"      // 4
                                 "  \"train_batch_size\": 16\n"      // 5
                                 "}";
        const auto r = parseConfigText(text);
        QVERIFY(r.ok());
        const ParsedConfig& c = r.value();
        QCOMPARE(c.duplicates.size(), size_t(2));
        QCOMPARE(c.duplicates[0].pointer, std::string("/fp16/enabled"));
        QCOMPARE(c.duplicates[0].line, 3);
        QCOMPARE(c.duplicates[1].pointer, std::string("/train_batch_size"));
        QCOMPARE(c.duplicates[1].line, 5);
        // Python's dict keeps the last value of a repeated key; the key keeps its first position.
        QVERIFY(c.json["fp16"]["enabled"] == false);
        QVERIFY(c.json["train_batch_size"] == 16);
        QCOMPARE(c.json.size(), size_t(2));
        QCOMPARE(c.lineAt("/train_batch_size"), 5);
    }

    // A key written again replaces its value and the old value's keys; an array index and an object key "0"
    // name the same pointer; pointerLines lists what the reader placed, in document order.
    void linesAfterRepeatedKeys()
    {
        const std::string text = "{\n"                   // 1
                                 "  \"a\": {\"x\": 1,\n" // 2
                                 "         \"0\": 2},\n" // 3
                                 "  \"a\": [\n"          // 4
                                 "    5],\n"             // 5
                                 "  \"b\": {\"y\": 1}\n" // 6
                                 "}\n";
        const auto r = parseConfigText(text);
        QVERIFY(r.ok());
        const ParsedConfig& c = r.value();
        QCOMPARE(c.lineAt("/a"), 4);
        QCOMPARE(c.lineAt("/a/0"), 5);
        QCOMPARE(c.lineAt("/a/x"), 0);  // only in the value that was replaced
        QCOMPARE(c.lineOf("/a/x"), 4);  // so: the kept key's line
        QCOMPARE(c.lineAt("/a/00"), 0); // not how an index is written
        QCOMPARE(c.lineAt("/b/y"), 6);
        QCOMPARE(c.lineAt("/b~2"), 0); // not an RFC 6901 escape
        QCOMPARE(c.lineOf("b/y"), 0);  // not a pointer
        const std::vector<std::pair<std::string, int>> expected{{"/a", 4}, {"/a/0", 5}, {"/b", 6}, {"/b/y", 6}};
        QVERIFY(c.pointerLines() == expected);
    }

    // Every key of a large generated config has its line (the reader's index stays exact at scale).
    void linesOfALargeConfig()
    {
        std::string text = "{\n";
        const int n = 30000;
        for (int i = 0; i < n; ++i)
            text += " \"k" + std::to_string(i) + "\": {\"v\": [" + std::to_string(i) + "]},\n";
        text += " \"k0\": 1\n}\n"; // written again on the last line
        const auto r = parseConfigText(text);
        QVERIFY(r.ok());
        const ParsedConfig& c = r.value();
        for (int i = 1; i < n; i += 997) {
            QCOMPARE(c.lineAt("/k" + std::to_string(i)), i + 2);
            QCOMPARE(c.lineAt("/k" + std::to_string(i) + "/v/0"), i + 2);
        }
        QCOMPARE(c.lineAt("/k0"), n + 2);
        QCOMPARE(c.lineAt("/k0/v"), 0);
        QCOMPARE(c.duplicates.size(), size_t(1));
        QCOMPARE(c.duplicates[0].line, n + 2);
        QCOMPARE(c.json.size(), size_t(n));
    }

    void comments()
    {
        const std::string text = "// written by hand\n"                    // 1
                                 "{ /* ZeRO */ \"zero_optimization\": {\n" // 2
                                 "    \"stage\": 2 # hjson comment\n"      // 3
                                 "  }\n"
                                 "}\n";
        const auto r = parseConfigText(text);
        QVERIFY2(r.ok(), r.ok() ? "" : r.error().c_str());
        const ParsedConfig& c = r.value();
        QVERIFY(!c.strictJson);
        QVERIFY(std::find(c.hjsonSyntax.begin(), c.hjsonSyntax.end(), "comments") != c.hjsonSyntax.end());
        QVERIFY(c.json["zero_optimization"]["stage"] == 2);
        QCOMPARE(c.lineAt("/zero_optimization"), 2);
        QCOMPARE(c.lineAt("/zero_optimization/stage"), 3);
    }

    void strictJsonHasNoHjsonSyntax()
    {
        const auto r = parseConfigText("{\"url\": \"http://x/*y*/ # z\"}"); // comment markers inside a string
        QVERIFY(r.ok());
        QVERIFY(r.value().strictJson);
        QVERIFY(r.value().json["url"] == "http://x/*y*/ # z");
    }

    void trailingCommas()
    {
        const auto r = parseConfigText("{\"a\": [1, 2,], \"b\": 3,}");
        QVERIFY(r.ok());
        QVERIFY(!r.value().strictJson);
        QVERIFY(r.value().json["a"] == nlohmann::json::array({1, 2}));
        QVERIFY(r.value().json["b"] == 3);
    }

    void quotelessValues()
    {
        // Megatron-DeepSpeed templates: hjson reads a bare placeholder as a string up to the end of the
        // line, comma included ("GBSIZE,"), and the newline separates the members.
        const std::string text = "{\n"
                                 "  \"train_batch_size\" : GBSIZE,\n" // 2
                                 "  \"zero_optimization\": {\n"
                                 "    \"stage\": ZERO_STAGE\n" // 4
                                 "  },\n"
                                 "  \"tp\": ${autotp_size}\n" // 6
                                 "}\n";
        const auto r = parseConfigText(text);
        QVERIFY2(r.ok(), r.ok() ? "" : r.error().c_str());
        const ParsedConfig& c = r.value();
        QVERIFY(!c.strictJson);
        QVERIFY(c.json["train_batch_size"] == "GBSIZE,");
        QVERIFY(c.json["zero_optimization"]["stage"] == "ZERO_STAGE");
        QVERIFY(c.json["tp"] == "${autotp_size}");
        QVERIFY(
            (c.quotelessValues == std::vector<std::string>{"/train_batch_size", "/zero_optimization/stage", "/tp"}));
        QCOMPARE(c.lineAt("/zero_optimization/stage"), 4);
        QCOMPARE(c.lineAt("/tp"), 6);
    }

    void exactNumbers()
    {
        const auto r = parseConfigText("{\"steps_per_print\": 20000000000000000, \"max\": 9223372036854775807,"
                                       " \"umax\": 18446744073709551615, \"neg\": -9223372036854775808,"
                                       " \"exp\": 5e8, \"frac\": 0.5}");
        QVERIFY(r.ok());
        const auto& j = r.value().json;
        // 2e16 is above 2^53 (9007199254740992), where a double would no longer hold every integer.
        QVERIFY(j["steps_per_print"].is_number_integer());
        QCOMPARE(j["steps_per_print"].get<std::int64_t>(), std::int64_t(20000000000000000));
        QCOMPARE(j["max"].get<std::int64_t>(), std::numeric_limits<std::int64_t>::max());
        QCOMPARE(j["umax"].get<std::uint64_t>(), std::numeric_limits<std::uint64_t>::max());
        QCOMPARE(j["neg"].get<std::int64_t>(), std::numeric_limits<std::int64_t>::min());
        QVERIFY(j["exp"].is_number_float()); // 5e8 is a float literal, as in Python
        QCOMPARE(j["exp"].get<double>(), 500000000.0);
    }

    void byteOrderMark()
    {
        const auto r = parseConfigText("\xEF\xBB\xBF{\"a\": 1}");
        QVERIFY(r.ok());
        QVERIFY(!r.value().strictJson); // Python's json.loads refuses a BOM
        QVERIFY(r.value().json["a"] == 1);
    }
};

QTEST_APPLESS_MAIN(TestConfigText)
#include "TestConfigText.moc"
