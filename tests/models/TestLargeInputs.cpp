// Loaders stay linear: a project holding 150,000 config keys and two 4 MiB configs load, lint and diff
// well inside a generous budget (a quadratic step takes tens of seconds at these sizes, minutes under
// the sanitizers). Also: whatever the importer writes, the project loader opens.
#include "Plan.h"
#include "TestAnswers.h"
#include "config/ConfigDiff.h"
#include "config/ConfigImporter.h"
#include "config/ConfigText.h"
#include "lint/ConfigLinter.h"
#include "project/ProjectFile.h"

#include <QTest>

#include <algorithm>
#include <cstdio>
#include <ctime>

using namespace dsw;
using namespace dsw::test;
using oj = nlohmann::ordered_json;

namespace {

// Processor time, not wall time: the budget must hold on a machine busy with other work.
class CpuTimer {
public:
    void start() { m_start = std::clock(); }
    void restart() { start(); }
    qint64 elapsed() const { return static_cast<qint64>((std::clock() - m_start) * 1000.0 / CLOCKS_PER_SEC); }

private:
    std::clock_t m_start = std::clock();
};

// Each operation below takes well under a second of processor time in an optimised build, and several
// times that in a Debug build under ASan and UBSan (the sanitizer suite). The quadratic versions took
// 17 s (the project) and over 90 s (the diff) in an optimised build, far longer in a Debug one, so each
// budget still catches them.
#ifdef NDEBUG
constexpr qint64 kBudgetMs = 5000;
#else
constexpr qint64 kBudgetMs = 30000;
#endif

#define QVERIFY_WITHIN_BUDGET(timer, what)                                                                             \
    do {                                                                                                               \
        const qint64 ms_ = (timer).elapsed();                                                                          \
        std::fprintf(stderr, "%s: %lld ms of processor time\n", what, static_cast<long long>(ms_));                    \
        QVERIFY2(ms_ <= kBudgetMs,                                                                                     \
                 qPrintable(QStringLiteral("%1 took %2 ms; the budget is %3 ms").arg(what).arg(ms_).arg(kBudgetMs)));  \
    } while (false)

std::string keyName(const char* prefix, int i)
{
    char buffer[32];
    std::snprintf(buffer, sizeof buffer, "%s%06d", prefix, i);
    return buffer;
}

// `count` members "prefixNNNNNN": value, one per line with `indent` spaces, the first value of every
// thousand shifted by `shift` (so two configs differ in count / 1000 values).
std::string members(const char* prefix, int count, int indent, int shift = 0)
{
    std::string text;
    const std::string pad(indent, ' ');
    for (int i = 0; i < count; ++i) {
        const int value = i % 1000 == 0 ? i + shift : i;
        text += pad + "\"" + keyName(prefix, i) + "\": " + std::to_string(value) + (i + 1 < count ? ",\n" : "\n");
    }
    return text;
}

// A project as ds-wizard writes it whose imported config holds 150,000 keys: about 3.5 MB.
std::string projectWith150kConfigKeys()
{
    return "{\n  \"format\": \"ds-wizard-project\",\n  \"version\": 1,\n  \"answers\": {},\n  \"handled\": [],\n"
           "  \"notes\": \"\",\n  \"imported_config\": {\n    \"train_batch_size\": 8,\n"
        + members("k_", 150000, 4) + "  },\n  \"accepted_suggestions\": []\n}\n";
}

// A config of about 4 MiB with 134,000 top-level keys.
std::string config4MiB(int shift)
{
    return "{\n  \"train_batch_size\": 8,\n" + members("parameter_", 134000, 2, shift) + "}\n";
}

ParsedConfig parsed(const std::string& text)
{
    auto r = parseConfigText(text);
    if (!r)
        qFatal("generated config refused: %s", r.error().c_str());
    return std::move(r).value();
}

} // namespace

class TestLargeInputs : public QObject {
    Q_OBJECT
private slots:
    void projectWith150kConfigKeysLoads()
    {
        const std::string text = projectWith150kConfigKeys();
        QVERIFY(text.size() > 3'400'000 && text.size() < 3'600'000);
        CpuTimer timer;
        timer.start();
        const auto project = parseProject(text);
        QVERIFY2(project.ok(), project.ok() ? "" : project.error().c_str());
        const Plan plan = makePlan(project.value()); // what opening it on the command line or in the window does
        QVERIFY_WITHIN_BUDGET(timer, "load and plan a 150k-key project");
        QCOMPARE(project.value().importedConfig.size(), std::size_t(150001));
        QCOMPARE(project.value().importedConfig.back().get<int>(), 149999);
        QVERIFY(plan.config.size() >= 150001); // the imported config is what the project exports
        timer.restart();
        const std::string again = serializeProject(project.value());
        QVERIFY_WITHIN_BUDGET(timer, "save a 150k-key project");
        QCOMPARE(again.size(), text.size()); // written as it was read
    }

    // Unknown answers, unknown top-level keys and extra fields of a handled entry are kept on re-save;
    // each is filled key by key when reading and writing.
    void projectWithManyUnknownMembersRoundTrips()
    {
        const std::string text = "{\n  \"format\": \"ds-wizard-project\",\n  \"version\": 1,\n  \"answers\": {\n"
            + members("future.input_", 50000, 4)
            + "  },\n  \"handled\": [\n    {\n      \"workflow\": \"zero\",\n"
              "      \"at\": \"\",\n      \"summary\": \"\",\n"
            + members("extra_", 50000, 6)
            + "    }\n  ],\n"
              "  \"notes\": \"\",\n"
            + members("future_key_", 50000, 2) + "}\n";
        CpuTimer timer;
        timer.start();
        const auto project = parseProject(text);
        QVERIFY2(project.ok(), project.ok() ? "" : project.error().c_str());
        const std::string again = serializeProject(project.value());
        QVERIFY_WITHIN_BUDGET(timer, "load and save 150k unknown members");
        QCOMPARE(project.value().unknownAnswers.size(), std::size_t(50000));
        QCOMPARE(project.value().unknownKeys.size(), std::size_t(50000));
        QCOMPARE(project.value().handled.at(0).extra.size(), std::size_t(50000));
        QCOMPARE(q(again), q(text));
    }

    void lintOf4MiBConfig()
    {
        const std::string text = config4MiB(0);
        QVERIFY(text.size() > 3'900'000 && text.size() <= kMaxConfigBytes);
        CpuTimer timer;
        timer.start();
        const ParsedConfig config = parsed(text);
        const auto findings = lintConfig(config, answersFrom({"software.deepspeed_version=0.19.5"}));
        QVERIFY_WITHIN_BUDGET(timer, "read and lint a 4 MiB config");
        const auto unknown = std::count_if(findings.begin(), findings.end(),
                                           [](const LintFinding& f) { return f.code == "unknown-key-ignored"; });
        QCOMPARE(unknown, 134000);
        const auto last = std::find_if(findings.begin(), findings.end(),
                                       [](const LintFinding& f) { return f.path == "/parameter_133999"; });
        QVERIFY(last != findings.end());
        QCOMPARE(last->line, 134002); // lines stay exact
    }

    // The same number of keys inside a strict block: each one rejected, with its line.
    void lintOfHugeStrictBlock()
    {
        const std::string text = "{\n  \"zero_optimization\": {\n" + members("parameter_", 134000, 4) + "  }\n}\n";
        CpuTimer timer;
        timer.start();
        const auto findings = lintConfig(parsed(text), Answers());
        QVERIFY_WITHIN_BUDGET(timer, "read and lint a 134k-key zero_optimization block");
        const auto rejected = std::count_if(findings.begin(), findings.end(),
                                            [](const LintFinding& f) { return f.code == "unknown-key-rejected"; });
        QCOMPARE(rejected, 134000);
    }

    void diffOfTwo4MiBConfigs()
    {
        const std::string a = config4MiB(0), b = config4MiB(7);
        CpuTimer timer;
        timer.start();
        const ParsedConfig ca = parsed(a), cb = parsed(b);
        const auto differences = diffConfigs(ca.json, cb.json);
        QVERIFY_WITHIN_BUDGET(timer, "read and diff two 4 MiB configs");
        QCOMPARE(differences.size(), std::size_t(134)); // parameter_000000, _001000, … _133000
        for (std::size_t i = 0; i < differences.size(); ++i) {
            const int index = static_cast<int>(i) * 1000;
            QCOMPARE(q(differences[i].pointer), q("/" + keyName("parameter_", index)));
            QCOMPARE(differences[i].a.get<int>(), index);
            QCOMPARE(differences[i].b.get<int>(), index + 7);
        }
    }

    // Keys only one side has: each is a difference (no default), found by key, not by a search.
    void diffOfDisjointConfigs()
    {
        const ParsedConfig ca = parsed("{\n" + members("a_", 100000, 2) + "}\n");
        const ParsedConfig cb = parsed("{\n" + members("b_", 100000, 2) + "}\n");
        CpuTimer timer;
        timer.start();
        const auto differences = diffConfigs(ca.json, cb.json);
        QVERIFY_WITHIN_BUDGET(timer, "diff two configs with no key in common");
        QCOMPARE(differences.size(), std::size_t(200000));
        QCOMPARE(q(differences.front().pointer), q("/a_000000"));
        QVERIFY(differences.front().bAbsent);
        QCOMPARE(q(differences.back().pointer), q("/b_099999"));
        QVERIFY(differences.back().aAbsent);
    }

    // import -> open: the largest flat config the reader accepts makes a project the loader accepts.
    void largestConfigImportsAndOpens()
    {
        const std::string text = "{\n" + members("parameter_", 150000, 0) + "}\n"; // one key a line, no indentation
        QVERIFY(text.size() > 4'000'000 && text.size() <= kMaxConfigBytes);
        const ImportedProject imported = importConfig(parsed(text));
        const auto bytes = serializeProjectForFile(imported.project);
        QVERIFY2(bytes.ok(), bytes.ok() ? "" : bytes.error().c_str());
        QVERIFY(bytes.value().size() > text.size() + 150000 * 4); // indented by 4: larger than any config
        CpuTimer timer;
        timer.start();
        const auto reopened = parseProject(bytes.value());
        QVERIFY2(reopened.ok(), reopened.ok() ? "" : reopened.error().c_str());
        QVERIFY_WITHIN_BUDGET(timer, "open the project of a 4 MiB config");
        QVERIFY(reopened.value().importedConfig == imported.project.importedConfig);
    }

    // A small config whose values sit 60 levels deep grows by their indentation (about 125 bytes per
    // value) when the project is written: refused at import, with both sizes, instead of writing a
    // file that ds-wizard would not open.
    void configWhoseProjectIsTooLargeIsRefusedAtImport()
    {
        std::string text = "{\"x\":" + std::string(58, '[') + "[";
        for (int i = 0; i < 100000; ++i)
            text += i ? ",0" : "0";
        text += "]" + std::string(58, ']') + "}";
        QVERIFY(text.size() < kMaxConfigBytes / 10);
        const ImportedProject imported = importConfig(parsed(text));
        const auto bytes = serializeProjectForFile(imported.project);
        QVERIFY(!bytes.ok());
        const std::string full = serializeProject(imported.project);
        QVERIFY(full.size() > kMaxProjectBytes);
        QVERIFY(!parseProject(full).ok()); // what the refusal prevents
        QVERIFY2(q(bytes.error()).contains(QString::number(full.size()) + " bytes"), bytes.error().c_str());
        QVERIFY2(q(bytes.error()).contains(QString::number(kMaxProjectBytes) + " bytes"), bytes.error().c_str());
    }
};

QTEST_APPLESS_MAIN(TestLargeInputs)
#include "TestLargeInputs.moc"
