// Import suggestions (models/config/ImportedConfigPlan.h, their reasons set in models/Plan.cpp): each says why its
// own key is suggested, and none argues against itself.
#include "Plan.h"
#include "advise/ChangePreview.h"
#include "config/ConfigImporter.h"
#include "config/ConfigText.h"
#include "knowledge/DeepSpeedSchema.h"

#include <QTest>

#include <set>

using namespace dsw;
using oj = nlohmann::ordered_json;

namespace {

// DeepSpeed's tests/model/Megatron_GPT2/ds_config_func_bs8_zero2_offload.json: the deprecated cpu_offload.
const char* kDeprecatedOffload = R"({
  "train_batch_size": 8,
  "gradient_accumulation_steps": 1,
  "zero_optimization": {"stage": 2, "reduce_bucket_size": 7000000, "allgather_bucket_size": 7000000,
                        "reduce_scatter": true, "cpu_offload": true},
  "gradient_clipping": 1.0,
  "fp16": {"enabled": true, "loss_scale": 0, "loss_scale_window": 1000, "hysteresis": 2, "min_loss_scale": 1}
})";

// A stage-2 config with both offloads on the CPU and the batch left to DeepSpeed's inference (no train_batch_size).
const char* kBothOffloads = R"({
  "train_micro_batch_size_per_gpu": 4, "gradient_accumulation_steps": 2, "bf16": {"enabled": true},
  "zero_optimization": {"stage": 2, "offload_optimizer": {"device": "cpu"}, "offload_param": {"device": "cpu"}}
})";

// The project a user gets by importing `text`, with the model and the cluster given.
Project imported(const char* text, double params, const char* gpu)
{
    Project project = importConfig(parseConfigText(text).value()).project;
    project.answers.set("model.params", params);
    project.answers.set("hardware.gpu", gpu);
    project.answers.set("hardware.gpus_per_node", 8);
    project.answers.set("hardware.nodes", 1);
    return project;
}

std::vector<LintFinding> errorsOf(const std::vector<LintFinding>& lint)
{
    std::vector<LintFinding> out;
    for (const auto& f : lint)
        if (f.level == LintLevel::Error)
            out.push_back(f);
    return out;
}

const Suggestion* find(const std::vector<Suggestion>& all, const std::string& pointer)
{
    for (const auto& s : all)
        if (s.pointer == pointer)
            return &s;
    return nullptr;
}

} // namespace

class TestImportedConfigPlan : public QObject {
    Q_OBJECT
private slots:
    void deprecatedOffloadIsReplacedForItsOwnReason()
    {
        const oj imported = oj::parse(kDeprecatedOffload);
        const Suggestion s{"/zero_optimization/offload_optimizer", nullptr, {{"device", "cpu"}}, "zero", "", false};
        const std::string why = suggestionReason(s, imported);
        QVERIFY2(why.find("cpu_offload is deprecated") != std::string::npos, why.c_str());
        QVERIFY2(why.find("replacement") != std::string::npos && why.find("ds-zero-config") != std::string::npos,
                 why.c_str());
        // Without the deprecated key the same suggestion has no such reason.
        oj modern = imported;
        modern["zero_optimization"].erase("cpu_offload");
        QVERIFY(suggestionReason(s, modern).empty());
    }

    void everySuggestionHasItsOwnReason()
    {
        auto parsed = parseConfigText(kDeprecatedOffload);
        QVERIFY(parsed.ok());
        Project project = importConfig(parsed.value()).project;
        project.answers.set("model.params", 30e9); // too large for ZeRO-2 without offload: the offload stays
        project.answers.set("hardware.gpu", "A100-40GB");
        project.answers.set("hardware.gpus_per_node", 8);
        project.answers.set("hardware.nodes", 1);
        const Plan plan = makePlan(project);
        const Suggestion* offload = find(plan.suggestions, "/zero_optimization/offload_optimizer");
        QVERIFY2(offload, "no offload_optimizer suggestion");
        QVERIFY2(offload->reason.find("cpu_offload is deprecated") != std::string::npos, offload->reason.c_str());
        // The reason does not argue against the suggestion (the wizard's own pick without offload is faster).
        QVERIFY2(offload->reason.find("faster") == std::string::npos, offload->reason.c_str());
        std::set<std::string> zeroReasons;
        int zeroSuggestions = 0;
        for (const auto& s : plan.suggestions) {
            QVERIFY2(!s.reason.empty(), s.pointer.c_str());
            if (s.workflow == "zero") {
                ++zeroSuggestions;
                zeroReasons.insert(s.reason);
            }
        }
        QVERIFY(zeroSuggestions >= 2);
        QCOMPARE(int(zeroReasons.size()), zeroSuggestions); // no headline repeated as every key's reason
        const Suggestion* overlap = find(plan.suggestions, "/zero_optimization/overlap_comm");
        QVERIFY(overlap);
        QVERIFY2(overlap->reason.find("overlaps the gradient reduction") != std::string::npos, overlap->reason.c_str());
    }

    // Issue 23, 2b: offload_param at stage 2 is ignored by DeepSpeed, nothing else: the plan runs the optimizer on
    // the CPU, the ignored key is a warning (the ZeRO page and the linter), and nothing fails.
    void importedOffloadsAreSizedAsDeepSpeedRunsThem()
    {
        const Plan plan = makePlan(imported(kBothOffloads, 13e9, "A100-80GB"));
        QVERIFY(plan.zero);
        const Placement& runs = plan.zero->plan().candidate.placement;
        QCOMPARE(runs.stage, 2);
        QCOMPARE(runs.offloadOptimizer, std::string("cpu"));
        QCOMPARE(runs.offloadParam, std::string("none"));
        const Advice* zero = plan.find("zero");
        QVERIFY(zero);
        bool ignoredWarned = false;
        for (const auto& c : zero->checks) {
            QVERIFY2(c.level != CheckLevel::Fail, c.message.c_str());
            ignoredWarned |= c.code == "offload-param-below-stage-3" && c.level == CheckLevel::Warn;
        }
        QVERIFY(ignoredWarned);
        QVERIFY(errorsOf(plan.lint).empty());
    }

    // Issue 23, 4: no suggestion adds a key as DeepSpeed already runs it (contiguous_gradients, pin_memory from
    // 0.19.5, a train_batch_size it infers); a key whose default differs (overlap_comm below stage 3) is suggested.
    void noSuggestionRestatesADefault()
    {
        const Project project = imported(kBothOffloads, 30e9, "A100-40GB");
        const Plan plan = makePlan(project);
        QVERIFY(find(plan.suggestions, "/zero_optimization/overlap_comm"));
        for (const char* pointer : {"/train_batch_size", "/zero_optimization/contiguous_gradients",
                                    "/zero_optimization/offload_optimizer/pin_memory"})
            QVERIFY2(!find(plan.suggestions, pointer), pointer);
        for (const auto& s : plan.suggestions)
            if (s.from.is_null() && s.pointer != "/train_micro_batch_size_per_gpu")
                QVERIFY2(DeepSpeedSchema::instance().defaultValue(s.pointer) != std::optional<nlohmann::json>(s.to),
                         s.pointer.c_str());
        // Before 0.19.5 pin_memory defaulted to false: writing true is then a change, and suggested.
        Project older = project;
        older.answers.set("software.deepspeed_version", "0.16.0");
        QVERIFY(find(makePlan(older).suggestions, "/zero_optimization/offload_optimizer/pin_memory"));
    }

    // Issue 23, 4: the errors that make DeepSpeed refuse a file (fp16 and bf16 both on, a train_batch_size against the
    // identity) each get a suggestion, before the model and GPU are known; applied, the file lints without an error.
    // train_batch_size is removed (DeepSpeed infers it), as the linter says, never rewritten.
    void everyLoadFixIsASuggestion()
    {
        Project project = importConfig(parseConfigText(R"({"train_batch_size": 48, "train_micro_batch_size_per_gpu": 4,
            "gradient_accumulation_steps": 2, "bf16": {"enabled": true}, "fp16": {"enabled": true}})")
                                           .value())
                              .project;
        project.answers.set("hardware.gpus_per_node", 8);
        Plan plan = makePlan(project);
        QVERIFY(!plan.suggestionsNeed.empty());
        QCOMPARE(errorsOf(plan.lint).size(), std::size_t(2));
        const Suggestion* batch = find(plan.suggestions, "/train_batch_size");
        QVERIFY(batch && batch->to.is_null());
        for (const auto& f : errorsOf(plan.lint))
            if (f.code == "batch-identity")
                QVERIFY2(f.suggestion && f.suggestion->rfind("remove train_batch_size", 0) == 0, f.suggestion->c_str());
        for (const auto& s : plan.suggestions)
            project.acceptedSuggestions.push_back(s.pointer);
        plan = makePlan(project);
        for (const auto& f : errorsOf(plan.lint))
            QFAIL((f.code + ": " + f.message).c_str());
    }

    // Issue 23, 4: a placement the step model times at 1.5× the best one (same batch, checkpointing and loss) gets one
    // suggestion for the whole block; applied, the ZeRO page's plan is that much faster and the deprecated cpu_offload
    // is gone with the offload.
    void slowImportedPlacementIsSuggestedAway()
    {
        Project project = imported(kDeprecatedOffload, 7e9, "A100-80GB");
        const Plan before = makePlan(project);
        const Suggestion* block = find(before.suggestions, "/zero_optimization");
        QVERIFY(block);
        QVERIFY2(block->reason.find("× faster") != std::string::npos, block->reason.c_str());
        QVERIFY(!block->to.contains("cpu_offload") && !block->to.contains("offload_optimizer"));
        for (const auto& s : before.suggestions) // the block's own keys are not suggested besides it
            QVERIFY2(s.pointer == "/zero_optimization" || s.pointer.rfind("/zero_optimization/", 0) != 0,
                     s.pointer.c_str());
        const ChangePreview apply = previewConfigChange(project.answers, block->pointer, block->to);
        project.answers = withEdits(project.answers, apply.edits);
        project.acceptedSuggestions.push_back(block->pointer);
        const Plan after = makePlan(project);
        QVERIFY(after.zero);
        QVERIFY(after.zero->plan().time.total * 1.5 <= before.zero->plan().time.total);
        QVERIFY2(after.config.at("zero_optimization") == block->to, after.config.dump().c_str());
        const Suggestion* still = find(after.suggestions, "/zero_optimization");
        QVERIFY(still && still->accepted);
    }
};

QTEST_APPLESS_MAIN(TestImportedConfigPlan)
#include "TestImportedConfigPlan.moc"
