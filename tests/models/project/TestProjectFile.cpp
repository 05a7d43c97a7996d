// The *.dswiz project file (models/project/ProjectFile.h): round trip, unknown keys and answers kept,
// malformed JSON with line and column, newer versions and other formats refused, bad values named,
// nothing silently dropped.
#include "TestAnswers.h"
#include "project/InputRegistry.h"
#include "project/ProjectFile.h"

#include <QFile>
#include <QTest>

using namespace dsw;
using namespace dsw::test;
using json = nlohmann::json;
using oj = nlohmann::ordered_json;

namespace {

// A project that uses every kind of input and a handled list.
Project sampleProject()
{
    Project p;
    p.answers.set("model.params", 70000000000LL);            // count
    p.answers.set("model.layers", 80);                       // integer
    p.answers.set("hardware.gpu", "H100-80GB");              // gpu
    p.answers.set("hardware.cpu_memory_gib", 1536.5);        // number
    p.answers.set("hardware.nvme", "nvme");                  // choice
    p.answers.set("hardware.nvme_path", "/mnt/nvme 0/ds=1"); // text with a space and '='
    p.answers.set("zero.stage", "3");                        // choice that looks like a number
    p.answers.set("software.deepspeed_version", "0.19.5");
    p.answers.set("training.learning_rate", 0.0003);
    p.markHandled("zero", "2026-09-01T10:00:00Z", "ZeRO-3, optimizer → NVMe");
    p.markHandled("precision", "2026-09-01T10:05:00Z", "bf16", "0123456789abcdef"); // with the advice reviewed
    p.notes = "Cluster B — ask ops about\n\"ulimit -l\" ✓";
    return p;
}

// parseProject, with an exception turned into a failure that says so: a loader must never throw.
Result<Project> load(const std::string& bytes)
{
    try {
        return parseProject(bytes);
    } catch (const std::exception& e) {
        return Result<Project>::failure(std::string("EXCEPTION: ") + e.what());
    }
}

#define QVERIFY_REFUSED(result)                                                                                        \
    do {                                                                                                               \
        QVERIFY2(!(result).ok(), "accepted");                                                                          \
        QVERIFY2(!QString::fromStdString((result).error()).startsWith("EXCEPTION"), (result).error().c_str());         \
    } while (false)

std::string wrap(const std::string& answers, const std::string& extra = "")
{
    return R"({"format": "ds-wizard-project", "version": 1, "answers": )" + answers + extra + "}";
}

} // namespace

class TestProjectFile : public QObject {
    Q_OBJECT
private slots:
    void roundTrip()
    {
        const Project original = sampleProject();
        const std::string bytes = serializeProject(original);
        const auto parsed = load(bytes);
        QVERIFY2(parsed.ok(), parsed.ok() ? "" : parsed.error().c_str());
        const Project& back = parsed.value();
        QVERIFY(back.answers == original.answers);
        QCOMPARE(back.answers.given().size(), original.answers.given().size());
        QVERIFY(back.handled == original.handled);
        QCOMPARE(q(back.notes), q(original.notes));
        QVERIFY(back.isHandled("zero"));
        QVERIFY(!back.isHandled("pipeline"));
        // Serializing again gives the same bytes (stable, no drift).
        QCOMPARE(q(serializeProject(back)), q(bytes));
    }

    void serializedShape()
    {
        const oj root = oj::parse(serializeProject(sampleProject()));
        JSON_COMPARE(root.at("format"), oj("ds-wizard-project"));
        JSON_COMPARE(root.at("version"), oj(1));
        QVERIFY(root.at("answers").is_object());
        JSON_COMPARE(root.at("answers").at("model.params"), oj(70000000000LL));
        JSON_COMPARE(root.at("answers").at("hardware.nvme_path"), oj("/mnt/nvme 0/ds=1"));
        QVERIFY(root.at("handled").is_array());
        QCOMPARE(int(root.at("handled").size()), 2);
        const oj firstHandled =
            oj::parse(R"({"workflow": "zero", "at": "2026-09-01T10:00:00Z", "summary": "ZeRO-3, optimizer → NVMe"})");
        JSON_COMPARE(root.at("handled").at(0), firstHandled);
        QVERIFY(root.at("notes").is_string());
        // format and version lead, so a reader sees them first.
        QCOMPARE(q(root.begin().key()), QStringLiteral("format"));
    }

    void emptyProjectRoundTrip()
    {
        const Project empty;
        const auto parsed = load(serializeProject(empty));
        QVERIFY(parsed.ok());
        QVERIFY(parsed.value().answers.given().empty());
        QVERIFY(parsed.value().handled.empty());
        QVERIFY(parsed.value().notes.empty());
        // The minimum a file needs: format and version.
        const auto minimal = load(R"({"format": "ds-wizard-project", "version": 1})");
        QVERIFY2(minimal.ok(), minimal.ok() ? "" : minimal.error().c_str());
    }

    void markHandledReplaces()
    {
        Project p;
        p.markHandled("zero", "t1", "first");
        p.markHandled("precision", "t2", "bf16");
        p.markHandled("zero", "t3", "second");
        QCOMPARE(int(p.handled.size()), 2);
        QCOMPARE(q(p.handled.back().workflow), QStringLiteral("zero"));
        QCOMPARE(q(p.handled.back().summary), QStringLiteral("second"));
    }

    void unknownKeysKeptOnResave()
    {
        const std::string file = R"({
  "format": "ds-wizard-project",
  "version": 1,
  "window": {"splitter": [200, 600, 400], "tab": "Why"},
  "answers": {
    "hardware.nodes": 4,
    "future.knob": {"mode": "fast", "level": 3},
    "memory.some_future_id": "x"
  },
  "handled": [{"workflow": "zero", "at": "2026-09-01T10:00:00Z", "summary": "ZeRO-2", "by": "alice"}],
  "notes": "n",
  "z_last": null
})";
        const auto parsed = load(file);
        QVERIFY2(parsed.ok(), parsed.ok() ? "" : parsed.error().c_str());
        const Project& p = parsed.value();
        QCOMPARE(p.answers.integer("hardware.nodes"), std::int64_t(4));
        QVERIFY(!p.answers.has("future.knob")); // not a known input: not an answer...
        JSON_COMPARE(p.unknownAnswers.at("future.knob"), oj::parse(R"({"mode": "fast", "level": 3})")); // ...but kept

        const oj resaved = oj::parse(serializeProject(p));
        JSON_COMPARE(resaved.at("window"), oj::parse(R"({"splitter": [200, 600, 400], "tab": "Why"})"));
        QVERIFY(resaved.contains("z_last"));
        QVERIFY(resaved.at("z_last").is_null());
        JSON_COMPARE(resaved.at("answers").at("future.knob"), oj::parse(R"({"mode": "fast", "level": 3})"));
        JSON_COMPARE(resaved.at("answers").at("memory.some_future_id"), oj("x"));
        JSON_COMPARE(resaved.at("answers").at("hardware.nodes"), oj(4));
        JSON_COMPARE(resaved.at("notes"), oj("n"));

        // A second load and save keeps them again.
        const auto again = load(resaved.dump());
        QVERIFY(again.ok());
        const oj twice = oj::parse(serializeProject(again.value()));
        JSON_COMPARE(twice.at("window"), resaved.at("window"));
        JSON_COMPARE(twice.at("answers"), resaved.at("answers"));
    }

    // An extra field inside a "handled" entry (e.g. written by a newer version) is data too.
    void unknownFieldsOfHandledEntriesKept()
    {
        const auto parsed =
            load(wrap("{}", R"(, "handled": [{"workflow": "zero", "at": "t", "summary": "s", "by": "alice"}])"));
        QVERIFY(parsed.ok());
        const oj resaved = oj::parse(serializeProject(parsed.value()));
        QVERIFY(resaved.at("handled").at(0).contains("by"));
    }

    void invalidUtf8IsRefusedWithItsOffset()
    {
        const auto r = parseProject("{\"format\": \"ds-wizard-project\", \"notes\": \"caf\xe9\"}");
        QVERIFY(!r.ok());
        QVERIFY2(QString::fromStdString(r.error()).contains("invalid UTF-8 at byte offset 45"), r.error().c_str());
    }

    void inputsThatOnceCrashedAreRefused()
    {
        // Found by the fuzzer: a number too large for a double made nlohmann throw out_of_range.
        QFile f(QStringLiteral(DSW_TEST_DATA_DIR "/fuzz-regressions/project-number-overflow.dswiz"));
        QVERIFY(f.open(QIODevice::ReadOnly));
        const auto r = parseProject(f.readAll().toStdString());
        QVERIFY(!r.ok());
        QVERIFY(QString::fromStdString(r.error()).contains("cannot be read"));
        // 17,000 nested arrays in the imported config overflowed the stack under ASan.
        QFile deep(QStringLiteral(DSW_TEST_DATA_DIR "/fuzz-regressions/project-deep-nesting.dswiz"));
        QVERIFY(deep.open(QIODevice::ReadOnly));
        const auto d = parseProject(deep.readAll().toStdString());
        QVERIFY(!d.ok());
        QCOMPARE(q(d.error()),
                 q("the project file is nested too deeply: nesting deeper than 65 levels at line 2, column 129"));
    }

    void malformedJsonNamesLineAndColumn_data()
    {
        QTest::addColumn<QString>("text");
        QTest::addColumn<int>("line");
        QTest::addColumn<int>("column");
        // Counted by hand: line and column (1-based) of the character where the JSON stops being valid.
        QTest::newRow("trailing comma in answers")
            << "{\n  \"format\": \"ds-wizard-project\",\n  \"version\": 1,\n  \"answers\": {\"hardware.nodes\": "
               "2,}\n}\n"
            << 4 << 35; // `  "answers": {"hardware.nodes": 2,}`: the '}' after the comma is character 35
        QTest::newRow("single quotes on line 2") << "{\n'format': 1}" << 2 << 1;
        QTest::newRow("bad literal on line 3")
            << "{\n  \"format\": \"ds-wizard-project\",\n  \"version\": @\n}" << 3 << 14; // `  "version": @`: '@' is 14
        QTest::newRow("first line") << "{\"format\" [1]}" << 1 << 11;                     // missing ':' — '[' at 11
    }
    void malformedJsonNamesLineAndColumn()
    {
        QFETCH(QString, text);
        QFETCH(int, line);
        QFETCH(int, column);
        const auto r = load(text.toStdString());
        QVERIFY_REFUSED(r);
        const QString m = q(r.error());
        QVERIFY2(m.contains("JSON"), qPrintable(m));
        QVERIFY2(m.contains(QStringLiteral("line %1,").arg(line)), qPrintable(m));
        QVERIFY2(m.contains(QStringLiteral("column %1").arg(column)), qPrintable(m));
    }

    void truncatedAndEmptyRefused_data()
    {
        QTest::addColumn<QString>("text");
        QTest::newRow("empty") << "";
        QTest::newRow("truncated") << "{\"format\": \"ds-wizard-project\", \"version\": 1, \"answers\": {";
        QTest::newRow("binary") << QString::fromLatin1("\x01\x02\x03");
    }
    void truncatedAndEmptyRefused()
    {
        QFETCH(QString, text);
        const auto r = load(text.toStdString());
        QVERIFY_REFUSED(r);
        QVERIFY2(q(r.error()).contains("line "), r.error().c_str());
    }

    void newerVersionRefused()
    {
        const auto r = load(R"({"format": "ds-wizard-project", "version": 2, "answers": {}})");
        QVERIFY_REFUSED(r);
        const QString m = q(r.error());
        QVERIFY2(m.contains("newer"), qPrintable(m));
        QVERIFY2(m.contains("version 2"), qPrintable(m));
        QVERIFY2(m.contains(QString::number(kProjectFormatVersion)), qPrintable(m));
        QVERIFY2(m.contains("update"), qPrintable(m));
    }

    void badVersionRefused_data()
    {
        QTest::addColumn<QString>("version");
        QTest::newRow("zero") << "0";
        QTest::newRow("negative") << "-1";
        QTest::newRow("string") << "\"1\"";
        QTest::newRow("fraction") << "1.5";
        QTest::newRow("missing") << "";
    }
    void badVersionRefused()
    {
        QFETCH(QString, version);
        const std::string text = version.isEmpty()
            ? R"({"format": "ds-wizard-project"})"
            : R"({"format": "ds-wizard-project", "version": )" + version.toStdString() + "}";
        const auto r = load(text);
        QVERIFY_REFUSED(r);
        QVERIFY2(q(r.error()).contains("version"), r.error().c_str());
    }

    void wrongFormatRefused_data()
    {
        QTest::addColumn<QString>("text");
        QTest::newRow("other format") << R"({"format": "something-else", "version": 1})";
        QTest::newRow("no format") << R"({"version": 1, "answers": {}})";
        QTest::newRow("format not a string") << R"({"format": 1, "version": 1})";
        QTest::newRow("format null") << R"({"format": null, "version": 1})";
        QTest::newRow("format object") << R"({"format": {"name": "ds-wizard-project"}, "version": 1})";
        QTest::newRow("a ds_config") << R"({"train_batch_size": 32, "zero_optimization": {"stage": 2}})";
        QTest::newRow("array") << R"([{"format": "ds-wizard-project", "version": 1}])";
        QTest::newRow("string") << R"("ds-wizard-project")";
    }
    void wrongFormatRefused()
    {
        QFETCH(QString, text);
        const auto r = load(text.toStdString());
        QVERIFY_REFUSED(r);
        QVERIFY2(q(r.error()).contains("\"format\""), r.error().c_str());
        QVERIFY2(q(r.error()).contains("ds-wizard-project"), r.error().c_str());
    }

    void badValueNamed_data()
    {
        QTest::addColumn<QString>("answers");
        QTest::addColumn<QStringList>("named"); // each id must appear in the message
        QTest::newRow("negative nodes") << R"({"hardware.nodes": -3})" << QStringList{"hardware.nodes"};
        QTest::newRow("unknown gpu") << R"({"hardware.gpu": "nope"})" << QStringList{"hardware.gpu", "nope"};
        QTest::newRow("params word") << R"({"model.params": "lots"})" << QStringList{"model.params"};
        QTest::newRow("precision unknown")
            << R"({"training.precision": "fp4"})" << QStringList{"training.precision", "fp4"};
        QTest::newRow("nodes as bool") << R"({"hardware.nodes": true})" << QStringList{"hardware.nodes"};
        QTest::newRow("two bad, one good")
            << R"({"hardware.nodes": 0, "hardware.gpus_per_node": 8, "hardware.nvme": "ssd"})"
            << QStringList{"hardware.nodes", "hardware.nvme", "2 bad value"};
    }
    void badValueNamed()
    {
        QFETCH(QString, answers);
        QFETCH(QStringList, named);
        const auto r = load(wrap(answers.toStdString()));
        QVERIFY_REFUSED(r);
        const QString m = q(r.error());
        for (const QString& n : named)
            QVERIFY2(m.contains(n), qPrintable(n + " not in: " + m));
        QVERIFY2(!m.contains("hardware.gpus_per_node"), qPrintable(m)); // good values are not reported
    }

    void badStructureRefused_data()
    {
        QTest::addColumn<QString>("extra");
        QTest::addColumn<QString>("named");
        QTest::newRow("answers is a list") << R"(, "answers": [1, 2])"
                                           << "\"answers\"";
        QTest::newRow("handled is an object") << R"(, "handled": {"workflow": "zero"})"
                                              << "\"handled\"";
        QTest::newRow("handled entry without workflow") << R"(, "handled": [{"at": "t"}])"
                                                        << "\"handled\"";
        QTest::newRow("notes is a number") << R"(, "notes": 5)"
                                           << "\"notes\"";
        QTest::newRow("handled at is a number") << R"(, "handled": [{"workflow": "zero", "at": 5}])"
                                                << "\"handled\"";
        QTest::newRow("handled summary is a list") << R"(, "handled": [{"workflow": "zero", "summary": []}])"
                                                   << "\"handled\"";
        QTest::newRow("handled entry is a string") << R"(, "handled": ["zero"])"
                                                   << "\"handled\"";
    }
    void badStructureRefused()
    {
        QFETCH(QString, extra);
        QFETCH(QString, named);
        const auto r = load(R"({"format": "ds-wizard-project", "version": 1)" + extra.toStdString() + "}");
        QVERIFY_REFUSED(r);
        QVERIFY2(q(r.error()).contains(named), r.error().c_str());
    }

    // Values in the forms people write are read, and normalised as the registry says.
    void valuesNormalised()
    {
        const auto r = load(wrap(R"({"model.params": "7B", "hardware.nodes": "2", "hardware.gpu": "h100-80gb",
                                             "hardware.cpu_memory_gib": 512, "model.largest_layer_params": 2.62144e8})"));
        QVERIFY2(r.ok(), r.ok() ? "" : r.error().c_str());
        const Answers& a = r.value().answers;
        JSON_COMPARE(a.value("model.params"), json(7000000000LL));
        JSON_COMPARE(a.value("hardware.nodes"), json(2));
        JSON_COMPARE(a.value("hardware.gpu"), json("H100-80GB"));
        QCOMPARE(a.number("hardware.cpu_memory_gib"), 512.0);
        QCOMPARE(a.integer("model.largest_layer_params"), std::int64_t(262144000));
    }

    // Every input of the registry, set to a valid value, comes back; so do unknown ones.
    void nothingSilentlyDropped()
    {
        oj answers = oj::object();
        for (const auto& spec : InputRegistry::instance().all()) {
            switch (spec.type) {
            case InputType::Count: answers[spec.id] = 123000000; break;
            case InputType::Integer: answers[spec.id] = static_cast<std::int64_t>(spec.max); break;
            case InputType::Number: answers[spec.id] = spec.min + (spec.max - spec.min) / 4; break;
            case InputType::Choice: answers[spec.id] = spec.values.back(); break;
            case InputType::Gpu: answers[spec.id] = "MI300X"; break;
            case InputType::Text:
                // The module lists accept only the model's modules.
                answers[spec.id] = spec.id == "lora.targets" ? "q_proj,v_proj"
                    : spec.id == "lora.modules_to_save"      ? "lm_head"
                                                             : "text for " + spec.id;
                break;
            case InputType::Boolean: answers[spec.id] = true; break;
            }
        }
        answers["x.unknown"] = oj::array({1, "two", nullptr});
        const oj file = {{"format", "ds-wizard-project"}, {"version", 1}, {"answers", answers}};
        const auto parsed = load(file.dump());
        QVERIFY2(parsed.ok(), parsed.ok() ? "" : parsed.error().c_str());
        QCOMPARE(parsed.value().answers.given().size(), InputRegistry::instance().all().size());
        const oj resaved = oj::parse(serializeProject(parsed.value())).at("answers");
        QCOMPARE(resaved.size(), answers.size());
        for (const auto& [id, value] : answers.items()) {
            QVERIFY2(resaved.contains(id), id.c_str());
            // Numbers may change representation (an integral double stays numerically equal), nothing else.
            if (value.is_number())
                QCOMPARE(resaved.at(id).get<double>(), value.get<double>());
            else
                JSON_COMPARE(resaved.at(id), value);
        }
    }

    void tooLargeRefused()
    {
        const std::string big = wrap("{}", ", \"notes\": \"" + std::string(kMaxProjectBytes, 'x') + "\"");
        const auto r = load(big);
        QVERIFY_REFUSED(r);
        QVERIFY2(q(r.error()).contains(QString::number(big.size()) + " bytes; ds-wizard opens at most "
                                       + QString::number(kMaxProjectBytes) + " bytes (8 MiB)"),
                 r.error().c_str());
    }

    // Copying, comparing and writing nlohmann values recurse: a deep file once overflowed the stack
    // (200 KB in a release build, 17 KB under ASan). The limit is checked on the bytes, first.
    void deepNestingRefused_data()
    {
        QTest::addColumn<QString>("where"); // the member that holds the nesting
        QTest::addColumn<QString>("open");
        QTest::addColumn<int>("levels"); // containers inside that member
        QTest::addColumn<bool>("accepted");
        // The root is level 1 and "imported_config" level 2, so a config at the config limit fits exactly.
        QTest::newRow("config at the limit") << "imported_config"
                                             << "{\"a\":" << kMaxConfigDepth << true;
        QTest::newRow("one level more") << "imported_config"
                                        << "{\"a\":" << kMaxConfigDepth + 1 << false;
        QTest::newRow("17 KB of arrays") << "imported_config"
                                         << "[" << 17000 << false;
        QTest::newRow("200 KB of arrays") << "imported_config"
                                          << "[" << 200000 << false;
        QTest::newRow("200 KB of objects in an unknown key") << "later_key"
                                                             << "{\"a\":" << 40000 << false;
        QTest::newRow("arrays in an unknown answer") << "answers"
                                                     << "[" << 100000 << false;
    }
    void deepNestingRefused()
    {
        QFETCH(QString, where);
        QFETCH(QString, open);
        QFETCH(int, levels);
        QFETCH(bool, accepted);
        const std::string o = open.toStdString(), c = o == "[" ? "]" : "}";
        std::string nested;
        if (where == "answers") // {"future.input": [[…]]}
            nested = "{\"future.input\": ";
        for (int i = 1; i < levels; ++i)
            nested += o;
        nested += o == "[" ? "[]" : "{}";
        for (int i = 1; i < levels; ++i)
            nested += c;
        if (where == "answers")
            nested += "}";
        const std::string text =
            where == "answers" ? wrap(nested) : wrap("{}", ",\n\"" + where.toStdString() + "\": " + nested);
        const auto r = load(text);
        if (accepted) {
            QVERIFY2(r.ok(), r.ok() ? "" : r.error().c_str());
            QVERIFY(load(serializeProject(r.value())).ok()); // and saved again, it opens again
            return;
        }
        QVERIFY_REFUSED(r);
        // Line 2 when the nesting starts after the inserted newline; level 66 is the first too many.
        const int line = where == "answers" ? 1 : 2;
        const int column = where == "answers"
            ? int(wrap("").size()) - 1 + int(std::string("{\"future.input\": ").size()) + kMaxProjectDepth - 1
            : int(where.size()) + 4 + (kMaxProjectDepth - 1) * int(o.size()) + 1; // after `"where": `
        const QString expected =
            QStringLiteral("the project file is nested too deeply: nesting deeper than %1 levels at line %2, column %3")
                .arg(kMaxProjectDepth)
                .arg(line)
                .arg(column);
        QCOMPARE(q(r.error()), expected);
    }

    // Brackets inside strings are text, not nesting.
    void bracketsInStringsAreNotNesting()
    {
        const std::string brackets(100000, '[');
        const auto r = load(wrap("{}", ", \"notes\": \"\\\"" + brackets + "\""));
        QVERIFY2(r.ok(), r.ok() ? "" : r.error().c_str());
        QCOMPARE(r.value().notes, "\"" + brackets);
    }
};

QTEST_APPLESS_MAIN(TestProjectFile)
#include "TestProjectFile.moc"
