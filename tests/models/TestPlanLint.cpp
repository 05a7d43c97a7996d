// The plan lints the config it shows (models/Plan.cpp): every finding that names a line names the line of the
// preview's text (the config's 2-space dump) that holds its key, over the answer grid of TestEmittedConfigs; and an
// imported config keeps the findings its text earned (duplicate keys, hjson syntax, quoteless values), before and
// after its suggestions are taken.
#include "AnswerGrid.h"
#include "Plan.h"
#include "TestAnswers.h"
#include "config/ConfigImporter.h"

#include <QTest>

#include <algorithm>
#include <sstream>

using namespace dsw;
using namespace dsw::test;
using oj = nlohmann::ordered_json;

namespace {

std::vector<std::string> linesOf(const std::string& text)
{
    std::vector<std::string> lines;
    std::istringstream in(text);
    for (std::string line; std::getline(in, line);)
        lines.push_back(line);
    return lines;
}

// The last key of a JSON pointer ("/zero_optimization/stage" → "stage"), unescaped; empty for an array index.
std::string lastKey(const std::string& pointer)
{
    std::string key = pointer.substr(pointer.rfind('/') + 1);
    if (!key.empty() && std::all_of(key.begin(), key.end(), [](char ch) { return ch >= '0' && ch <= '9'; }))
        return {};
    for (std::size_t at; (at = key.find("~1")) != std::string::npos;)
        key.replace(at, 2, "/");
    for (std::size_t at; (at = key.find("~0")) != std::string::npos;)
        key.replace(at, 2, "~");
    return key;
}

} // namespace

class TestPlanLint : public QObject {
    Q_OBJECT
private slots:
    void everyLineNamedIsTheLineOfItsKey()
    {
        int findings = 0, withLine = 0, sets = 0;
        for (const QStringList& s : answerGrid()) {
            Project project;
            project.answers = answersFrom(s);
            const Plan plan = makePlan(project);
            const std::vector<std::string> lines = linesOf(plan.config.dump(2));
            for (const LintFinding& f : plan.lint) {
                ++findings;
                if (f.line <= 0)
                    continue;
                ++withLine;
                QVERIFY2(static_cast<std::size_t>(f.line) <= lines.size(), qPrintable(s.join(' ')));
                const std::string key = lastKey(f.path);
                if (!key.empty())
                    QVERIFY2(lines[static_cast<std::size_t>(f.line) - 1].find('"' + key + '"') != std::string::npos,
                             qPrintable(s.join(' ') + ": " + q(f.code + " " + f.path)));
            }
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
            QVERIFY(!plan.lint.empty());
            const auto has = [&](const char* code) {
                return std::any_of(plan.lint.begin(), plan.lint.end(),
                                   [&](const LintFinding& f) { return f.code == code; });
            };
            QCOMPARE(has("not-strict-json"), !project.importedText.hjsonSyntax.empty());
            if (!accepted && !project.importedText.quotelessValues.empty())
                QVERIFY(has("unquoted-value"));
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
