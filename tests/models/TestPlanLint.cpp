// The plan lints the config it shows without writing and re-reading it (models/Plan.cpp, config/DumpLines.h):
// every finding, and every line a finding names (shown in Findings and selected in the preview), is what linting
// the config's 2-space dump read back gave, over the answer grid of TestEmittedConfigs and over imported configs,
// whose duplicate keys, comments and quoteless values stay findings.
#include "AnswerGrid.h"
#include "Plan.h"
#include "TestAnswers.h"
#include "config/ConfigImporter.h"

#include <QTest>

#include <algorithm>

using namespace dsw;
using namespace dsw::test;
using oj = nlohmann::ordered_json;

namespace {

// What the plan's lint was when it dumped the config and parsed the text (the file's own findings added back).
std::vector<LintFinding> lintOfTheDump(const Plan& plan, const Answers& answers, const ImportedText& text = {})
{
    auto parsed = parseConfigText(plan.config.dump(2));
    if (!parsed)
        qFatal("the plan's config does not read back: %s", parsed.error().c_str());
    ParsedConfig config = std::move(parsed).value();
    for (const auto& d : text.duplicates)
        config.duplicates.push_back({d.pointer, d.line});
    config.hjsonSyntax = text.hjsonSyntax;
    config.strictJson = text.hjsonSyntax.empty();
    for (const std::string& pointer : text.quotelessValues)
        if (config.json.contains(oj::json_pointer(pointer)) && config.json.at(oj::json_pointer(pointer)).is_string())
            config.quotelessValues.push_back(pointer);
    return lintConfig(config, answers);
}

QString describe(const LintFinding& f)
{
    return QString::fromStdString(f.code + " " + f.path + " line " + std::to_string(f.line) + ": " + f.message);
}

// Compares finding by finding; returns how many name a line.
int compareFindings(const std::vector<LintFinding>& got, const std::vector<LintFinding>& expected, const QString& what)
{
    if (got.size() != expected.size()) {
        QString all;
        for (const auto& f : got)
            all += "\n  got " + describe(f);
        for (const auto& f : expected)
            all += "\n  expected " + describe(f);
        qWarning("%s: %s", qPrintable(what), qPrintable(all));
        return -1;
    }
    int withLine = 0;
    for (std::size_t i = 0; i < got.size(); ++i) {
        const LintFinding& g = got[i];
        const LintFinding& e = expected[i];
        if (g.level != e.level || g.code != e.code || g.path != e.path || g.message != e.message
            || g.suggestion != e.suggestion || g.source != e.source || g.line != e.line) {
            qWarning("%s:\n  got %s\n  expected %s", qPrintable(what), qPrintable(describe(g)),
                     qPrintable(describe(e)));
            return -1;
        }
        withLine += g.line > 0;
    }
    return withLine;
}

} // namespace

class TestPlanLint : public QObject {
    Q_OBJECT
private slots:
    void everyFindingAsTheDumpReadBackGaveIt()
    {
        int findings = 0, withLine = 0, sets = 0;
        for (const QStringList& s : answerGrid()) {
            Project project;
            project.answers = answersFrom(s);
            const Plan plan = makePlan(project);
            const int lined = compareFindings(plan.lint, lintOfTheDump(plan, project.answers), s.join(' '));
            QVERIFY2(lined >= 0, qPrintable(s.join(' ')));
            findings += static_cast<int>(plan.lint.size());
            withLine += lined;
            ++sets;
        }
        QVERIFY(sets >= 500);
        // Not vacuous: the grid's configs draw many findings, most of them on a line.
        QVERIFY2(findings >= 500 && withLine >= findings / 2,
                 qPrintable(QString("%1 findings, %2 with a line").arg(findings).arg(withLine)));
    }

    void importedConfigsKeepTheirOwnFindings_data()
    {
        QTest::addColumn<QString>("text");
        QTest::newRow("duplicate key") << "{\n  \"train_batch_size\": 64,\n  \"zero_optimization\": {\"stage\": 2,\n"
                                          "    \"stage\": 3},\n  \"train_batch_size\": 32\n}";
        QTest::newRow("hjson comments and trailing commas")
            << "{\n  // the team's config\n  \"train_micro_batch_size_per_gpu\": 4,\n  \"bf16\": {\"enabled\": "
               "true,},\n"
               "  \"zero_optimization\": {\"stage\": 3, \"offload_param\": {\"device\": \"nvme\"}},\n}";
        QTest::newRow("quoteless value")
            << "{\n  \"optimizer\": {\n    \"params\": {\"lr\": 1e-4},\n    \"type\": AdamW\n"
               "  },\n  \"fp16\": {\"enabled\": \"auto\"}\n}";
        QTest::newRow("engine errors") << R"({"train_batch_size": 63, "train_micro_batch_size_per_gpu": 4,
            "gradient_accumulation_steps": 2, "zero_optimization": {"stage": 0, "offload_optimizer": {"device": "cpu"}},
            "optimizer": {"type": "OneBitAdam"}, "fp16": {"enabled": true}, "bf16": {"enabled": true}})";
    }
    void importedConfigsKeepTheirOwnFindings()
    {
        QFETCH(QString, text);
        auto parsed = parseConfigText(text.toStdString());
        QVERIFY2(parsed.ok(), parsed.ok() ? "" : parsed.error().c_str());
        Project project = importConfig(parsed.value()).project;
        for (const bool accepted : {false, true}) {
            if (accepted) { // the config with every suggestion taken, as the window shows it then
                for (const auto& s : makePlan(project).suggestions)
                    project.acceptedSuggestions.push_back(s.pointer);
            }
            const Plan plan = makePlan(project);
            QVERIFY(compareFindings(plan.lint, lintOfTheDump(plan, project.answers, project.importedText), text) >= 0);
            QVERIFY(!plan.lint.empty());
        }
        const Plan plan = makePlan(project);
        for (const auto& d : project.importedText.duplicates) // the file's own finding survives the import
            QVERIFY2(
                std::any_of(plan.lint.begin(), plan.lint.end(),
                            [&](const LintFinding& f) { return f.code == "duplicate-key" && f.path == d.pointer; }),
                d.pointer.c_str());
    }
};

QTEST_APPLESS_MAIN(TestPlanLint)
#include "TestPlanLint.moc"
