// Import: the answers a config implies, and re-export without edits giving back every key and value.
#include "Plan.h"
#include "config/ConfigImporter.h"

#include <QDir>
#include <QFile>
#include <QTest>
#include <algorithm>

using namespace dsw;
using oj = nlohmann::ordered_json;

namespace {
QString corpusDir() { return QStringLiteral(DSW_SOURCE_DIR "/../shared/corpus/ds_configs"); }

// The model and the cluster, which an import's suggestions wait for (ImportedConfigPlan.h: suggestionInputsMissing).
void giveModelAndCluster(Project& project)
{
    project.answers.set("model.params", 7e9);
    project.answers.set("hardware.gpu", "a100-80gb");
    project.answers.set("hardware.gpus_per_node", 8);
    project.answers.set("hardware.nodes", 1);
}

bool hasSuggestionUnder(const Plan& plan, const std::string& prefix)
{
    return std::any_of(plan.suggestions.begin(), plan.suggestions.end(),
                       [&](const Suggestion& s) { return s.pointer.rfind(prefix, 0) == 0; });
}

bool hasLint(const Plan& plan, const std::string& code)
{
    return std::any_of(plan.lint.begin(), plan.lint.end(), [&](const LintFinding& f) { return f.code == code; });
}

ParsedConfig parsed(const std::string& text)
{
    auto r = parseConfigText(text);
    if (!r)
        qFatal("%s", r.error().c_str());
    return r.value();
}
} // namespace

class TestConfigImport : public QObject {
    Q_OBJECT
private slots:
    void fillsTheAnswersTheConfigImplies()
    {
        const auto imported = importConfig(parsed(R"({
            "train_batch_size": 64, "train_micro_batch_size_per_gpu": 4, "gradient_accumulation_steps": 2,
            "gradient_clipping": 0.5, "optimizer": {"type": "AdamW", "params": {"lr": 3e-4}},
            "bf16": {"enabled": true},
            "zero_optimization": {"stage": 3, "offload_optimizer": {"device": "nvme", "nvme_path": "/local_nvme"}},
            "my_custom_key": {"x": 1}})"));
        const Answers& a = imported.project.answers;
        QCOMPARE(a.integer("training.micro_batch_size"), 4);
        QCOMPARE(a.integer("training.gradient_accumulation_steps"), 2);
        QCOMPARE(a.integer("training.global_batch_size"), 64);
        QCOMPARE(a.number("training.gradient_clipping"), 0.5);
        QCOMPARE(a.number("training.learning_rate"), 3e-4);
        QCOMPARE(a.text("training.optimizer"), std::string("adamw"));
        QCOMPARE(a.text("training.precision"), std::string("bf16"));
        QCOMPARE(a.text("zero.stage"), std::string("3"));
        QCOMPARE(a.text("hardware.nvme"), std::string("nvme"));
        QCOMPARE(a.text("hardware.nvme_path"), std::string("/local_nvme"));
    }

    void offloadIsAnAnswerTheWizardKeeps()
    {
        // A small model that fits without offload: the imported CPU offload is still what the answers say.
        const auto imported = importConfig(parsed(R"({"train_micro_batch_size_per_gpu": 1,
            "zero_optimization": {"stage": 3, "offload_optimizer": {"device": "cpu"}, "offload_param": {"device": "cpu"}}})"));
        Answers answers = imported.project.answers;
        QCOMPARE(answers.text("zero.offload_optimizer"), std::string("cpu"));
        QCOMPARE(answers.text("zero.offload_param"), std::string("cpu"));
        answers.set("model.params", std::int64_t(125000000));
        const Plan plan = makePlan(answers);
        const auto& zero = plan.config["zero_optimization"];
        QCOMPARE(zero["stage"].get<int>(), 3);
        QVERIFY(zero["offload_optimizer"]["device"] == "cpu");
        QVERIFY(zero["offload_param"]["device"] == "cpu");
        QVERIFY(!plan.find("zero")->hasFailedCheck());
    }

    // DeepSpeed runs a stage-2 config with both offloads: the optimizer on the CPU, offload_param ignored (read on the
    // ZeRO-3 path only). The page sizes and writes that, and says what is ignored under the rule's one code.
    void offloadDeepSpeedIgnoresIsWarnedAndSizedAsItRuns()
    {
        Answers answers;
        answers.set("zero.stage", "2");
        answers.set("zero.offload_optimizer", "cpu");
        answers.set("zero.offload_param", "cpu");
        const Plan plan = makePlan(answers);
        const Advice* zero = plan.find("zero");
        const auto ignored = std::find_if(zero->checks.begin(), zero->checks.end(),
                                          [](const Check& c) { return c.code == "offload-param-below-stage-3"; });
        QVERIFY(ignored != zero->checks.end());
        QVERIFY(ignored->level == CheckLevel::Warn);
        QVERIFY(!zero->hasFailedCheck());
        const Placement& run = plan.zero->plan().candidate.placement;
        QCOMPARE(run.stage, 2);
        QCOMPARE(run.offloadOptimizer, std::string("cpu"));
        QCOMPARE(run.offloadParam, std::string("none"));
        QVERIFY(!plan.config["zero_optimization"].contains("offload_param"));
        QCOMPARE(plan.config["zero_optimization"]["offload_optimizer"]["device"].get<std::string>(),
                 std::string("cpu"));
        QCOMPARE(plan.config["zero_optimization"]["stage"].get<int>(), 2);
    }

    void deprecatedCpuOffloadIsOptimizerOffload()
    {
        const auto imported = importConfig(parsed(R"({"zero_optimization": {"stage": 2, "cpu_offload": true}})"));
        QCOMPARE(imported.project.answers.text("zero.offload_optimizer"), std::string("cpu"));
    }

    void autoValuesAreNotAnswers()
    {
        const auto imported =
            importConfig(parsed(R"({"train_micro_batch_size_per_gpu": "auto", "fp16": {"enabled": "auto"}})"));
        QVERIFY(!imported.project.answers.has("training.micro_batch_size"));
        QCOMPARE(imported.project.answers.text("software.launcher"), std::string("hf-trainer"));
        // What a round trip through a bundle loses is said once: launch.sh's flags are not read.
        const auto says = [&](const char* words) {
            return std::count_if(imported.notes.begin(), imported.notes.end(),
                                 [&](const std::string& n) { return n.find(words) != std::string::npos; });
        };
        QCOMPARE(says("launch.sh"), 1);
        QCOMPARE(says("reads only this file"), 1);
        // A strict config has no "auto": no such note.
        const auto strict = importConfig(parsed(R"({"train_micro_batch_size_per_gpu": 4})"));
        QVERIFY(std::none_of(strict.notes.begin(), strict.notes.end(),
                             [](const std::string& n) { return n.find("launch.sh") != std::string::npos; }));
    }

    void reexportWithoutEditsIsTheSameConfig()
    {
        const std::string text =
            R"({"zero_optimization": {"stage": 2, "reduce_bucket_size": 5e8}, "train_batch_size": 16,
            "steps_per_print": 10, "big": 123456789012345678, "wall_clock_breakdown": false})";
        const auto imported = importConfig(parsed(text));
        // Through the project file as well, as `ds-wizard import` then `recommend --format config` do.
        auto reloaded = parseProject(serializeProject(imported.project));
        QVERIFY(reloaded.ok());
        Project project = reloaded.value();
        giveModelAndCluster(project);
        const Plan plan = makePlan(project);
        QCOMPARE(plan.config.dump(), oj::parse(text).dump()); // keys, order and values, large integers exact
        QVERIFY(!plan.suggestions.empty());                   // e.g. the micro-batch for 8 GPUs
    }

    void acceptedSuggestionsAreApplied()
    {
        auto imported = importConfig(parsed(
            R"({"train_batch_size": 16, "train_micro_batch_size_per_gpu": 2, "zero_optimization": {"stage": 2}})"));
        giveModelAndCluster(imported.project);
        imported.project.answers.set("training.gradient_clipping", 0.5); // given, and not DeepSpeed's default 1.0
        Plan plan = makePlan(imported.project);
        const auto clip = std::find_if(plan.suggestions.begin(), plan.suggestions.end(),
                                       [](const Suggestion& s) { return s.pointer == "/gradient_clipping"; });
        QVERIFY(clip != plan.suggestions.end());
        QVERIFY(!plan.config.contains("gradient_clipping"));
        imported.project.acceptedSuggestions.push_back("/gradient_clipping");
        plan = makePlan(imported.project);
        QVERIFY(plan.config.contains("gradient_clipping"));
        QCOMPARE(plan.config.begin().key(), std::string("train_batch_size")); // original keys keep their place
    }

    void precisionSwitchOffersToTurnTheOtherModeOff()
    {
        // fp16 config imported for an A100: the wizard suggests bf16 and removing fp16, never both on.
        auto imported = importConfig(parsed(R"({"fp16": {"enabled": true}, "zero_optimization": {"stage": 1}})"));
        imported.project.answers.set("training.precision", "auto");
        giveModelAndCluster(imported.project);
        Plan plan = makePlan(imported.project);
        for (const auto& s : plan.suggestions)
            if (s.workflow == "precision")
                imported.project.acceptedSuggestions.push_back(s.pointer);
        plan = makePlan(imported.project);
        QVERIFY(plan.config.contains("bf16"));
        QVERIFY(!plan.config.contains("fp16"));
    }

    void theFilesOwnFindingsStayAfterImport()
    {
        // A comment and a key written twice: lint reports both on the file; after import they stay in the plan's
        // findings (also through the project file), and a note says which value was kept.
        const std::string text = "{\n  // tuned by hand\n  \"train_batch_size\": 16,\n  \"zero_optimization\": "
                                 "{\"stage\": 1},\n  \"train_batch_size\": 32\n}\n";
        const ParsedConfig file = parsed(text);
        const auto imported = importConfig(file);
        QCOMPARE(imported.project.importedConfig["train_batch_size"].get<int>(), 32); // the last one, as before
        QVERIFY(std::any_of(imported.notes.begin(), imported.notes.end(), [](const std::string& n) {
            return n.find("/train_batch_size is written more than once") != std::string::npos
                && n.find("line 5 (32) is the one kept") != std::string::npos;
        }));
        for (const Project& project : {imported.project, parseProject(serializeProject(imported.project)).value()}) {
            const Plan plan = makePlan(project);
            QVERIFY(hasLint(plan, "duplicate-key"));
            QVERIFY(hasLint(plan, "not-strict-json"));
        }
        // A strict file without duplicates has neither.
        const Plan clean = makePlan(importConfig(parsed(R"({"train_batch_size": 16})")).project);
        QVERIFY(!hasLint(clean, "duplicate-key"));
        QVERIFY(!hasLint(clean, "not-strict-json"));
    }

    void aBadImportedTextInAProjectIsRefused()
    {
        const std::string bad = R"({"format": "ds-wizard-project", "version": 1, "answers": {},
            "imported_config": {"train_batch_size": 4}, "imported_text": {"duplicates": [{"pointer": 3}]}})";
        const auto r = parseProject(bad);
        QVERIFY(!r.ok());
        QVERIFY(r.error().find("imported_text") != std::string::npos);
    }

    void noSuggestionsUntilTheModelAndClusterAreGiven()
    {
        auto imported = importConfig(parsed(
            R"({"train_batch_size": 16, "train_micro_batch_size_per_gpu": 2, "zero_optimization": {"stage": 0}})"));
        Plan plan = makePlan(imported.project);
        QVERIFY(plan.suggestions.empty()); // the wizard would only have its defaults (a 7B model on 8 A100s)
        QCOMPARE(
            plan.suggestionsNeed,
            (std::vector<std::string>{"model.params", "hardware.gpu", "hardware.gpus_per_node", "hardware.nodes"}));
        imported.project.answers.set("model.params", 7e9);
        imported.project.answers.set("hardware.gpu", "a100-80gb");
        imported.project.answers.set("hardware.gpus_per_node", 8);
        QCOMPARE(makePlan(imported.project).suggestionsNeed, std::vector<std::string>{"hardware.nodes"});
        imported.project.answers.set("hardware.nodes", 1);
        plan = makePlan(imported.project);
        QVERIFY(plan.suggestionsNeed.empty());
        QVERIFY(!hasSuggestionUnder(plan, "/gradient_accumulation_steps")); // DeepSpeed infers 16 / (2 × 8) = 1
        // Clipping and the optimizer are not in the file and the user gave neither: no value from defaults.
        QVERIFY(!hasSuggestionUnder(plan, "/gradient_clipping"));
        QVERIFY(!hasSuggestionUnder(plan, "/optimizer"));
        imported.project.answers.set("training.optimizer", "adamw");
        imported.project.answers.set("training.learning_rate", 3e-4);
        QVERIFY(hasSuggestionUnder(makePlan(imported.project), "/optimizer"));
    }

    void anHfImportKeepsItsAutoValues()
    {
        // axolotl's ZeRO-3 config, launcher hf-trainer (from its "auto"): no suggestion replaces "auto", none adds an
        // optimizer with a fixed learning rate, with or without the model and cluster.
        QFile f(corpusDir() + "/axolotl-ai-cloud__axolotl__deepspeed_configs__zero3_bf16_cpuoffload_all.json");
        QVERIFY(f.open(QIODevice::ReadOnly));
        auto imported = importConfig(parsed(f.readAll().toStdString()));
        QCOMPARE(imported.project.answers.text("software.launcher"), std::string("hf-trainer"));
        QVERIFY(makePlan(imported.project).suggestions.empty());
        giveModelAndCluster(imported.project);
        for (const char* launcher : {"hf-trainer", "accelerate"}) {
            imported.project.answers.set("software.launcher", launcher);
            const Plan plan = makePlan(imported.project);
            QVERIFY(plan.suggestionsNeed.empty());
            for (const Suggestion& s : plan.suggestions)
                QVERIFY2(!(s.from.is_string() && s.from.get<std::string>() == "auto"), s.pointer.c_str());
            QVERIFY(!hasSuggestionUnder(plan, "/optimizer"));
        }
        // For plain DeepSpeed "auto" is an error, so values the user gave may replace it.
        imported.project.answers.set("software.launcher", "deepspeed");
        imported.project.answers.set("training.global_batch_size", 64);
        QVERIFY(hasSuggestionUnder(makePlan(imported.project), "/train_batch_size"));
    }

    void everyStrictCorpusConfigRoundTrips()
    {
        QDir dir(corpusDir());
        QVERIFY2(dir.exists(), qPrintable("the shared corpus is missing: " + corpusDir()));
        QFile sources(dir.filePath("SOURCES.tsv"));
        QVERIFY(sources.open(QIODevice::ReadOnly));
        int strict = 0;
        for (const QByteArray& line : sources.readAll().split('\n').mid(1)) {
            const QList<QByteArray> cells = line.split('\t');
            if (cells.size() < 7 || cells[6].trimmed() != "yes")
                continue;
            QFile f(dir.filePath(QString::fromUtf8(cells[0])));
            QVERIFY2(f.open(QIODevice::ReadOnly), cells[0].constData());
            const std::string text = f.readAll().toStdString();
            auto config = parseConfigText(text);
            QVERIFY2(config.ok(), cells[0].constData());
            const auto imported = importConfig(config.value());
            auto reloaded = parseProject(serializeProject(imported.project));
            QVERIFY2(reloaded.ok(), cells[0].constData());
            QVERIFY2(makePlan(reloaded.value()).config == config.value().json, cells[0].constData());
            ++strict;
        }
        QVERIFY(strict >= 40);
    }
};

QTEST_APPLESS_MAIN(TestConfigImport)
#include "TestConfigImport.moc"
