// The wizard's steps (models/Pages.h): their order and titles, and how each stands as the sidebar shows it:
// a failed check or a finding that names the workflow is a conflict before anything else, missing inputs
// come next, and a workflow is complete only once the user handled it.
#include "Pages.h"

#include "TestAnswers.h"

#include <QTest>

#include <cstdio>

using namespace dsw;
using dsw::test::answersFrom;

namespace {

Advice advice(const std::string& workflow, AdviceStatus status, std::vector<Check> checks = {})
{
    Advice a;
    a.workflow = workflow;
    a.status = status;
    a.checks = std::move(checks);
    return a;
}

Project handled(const std::string& workflow)
{
    Project p;
    p.markHandled(workflow, "2026-01-01T00:00:00Z", "done");
    return p;
}

} // namespace

Q_DECLARE_METATYPE(dsw::PageState)

class TestPages : public QObject {
    Q_OBJECT
private slots:
    void setupComesFirstThenEveryWorkflowThenSummary();
    void titles();
    void setupIsCompleteWhenEveryAnswerValidates();
    void workflowState_data();
    void workflowState();
    void aWorkflowThePlanDoesNotHaveIsNotVisited();
    void statesHaveTheSidebarsWords();
    void aDoneMarkRecordsTheAdviceItReviewed();
    void aReviewCountsTheSuggestionsWaitingForTheImportedConfig();
    void anOptionalWorkflowWithoutItsInputsIsNotUsed();
    void configContainsEveryValueOfTheFragment();
    void theSummarySaysAppliedOnlyWhenTheConfigHoldsIt();
    void theSummarySaysRecommendsAgainstForOneBitAdam();
    void thePageBeingVisitedNeverSaysNotVisited();
    void batchValuesTheConfigWasWrittenWithAreShownAsDerived();
    void theMemoryPageHidesOffloadsTheRunCannotHave();
    void setupAsksTheAdaptersOnlyForTheirMethod();
    void aGlobalBatchThatMovesWithoutABatchEditIsSaid();
};

void TestPages::setupComesFirstThenEveryWorkflowThenSummary()
{
    const std::vector<std::string> steps = wizardPages();
    QCOMPARE(steps.size(), workflowIds().size() + 2);
    QCOMPARE(steps.front(), std::string("setup"));
    QCOMPARE(steps.back(), std::string("summary"));
    QVERIFY(std::equal(workflowIds().begin(), workflowIds().end(), steps.begin() + 1));
}

void TestPages::titles()
{
    QCOMPARE(pageTitle("setup"), std::string("Setup"));
    QCOMPARE(pageTitle("summary"), std::string("Summary"));
    QCOMPARE(pageTitle("zero"), std::string("ZeRO")); // the sidebar's short name, not "ZeRO stage and offload"
    for (const std::string& w : workflowIds())
        if (w != "zero")
            QCOMPARE(pageTitle(w), workflowTitle(w));
}

void TestPages::setupIsCompleteWhenEveryAnswerValidates()
{
    const Plan valid = makePlan(Answers{});
    QVERIFY(valid.inputErrors.empty());
    QCOMPARE(toString(pageState(valid, Project{}, "setup")), toString(PageState::Complete));

    Answers bad;
    bad.set("training.precision", "fp64"); // not one of the values the registry allows
    const Plan invalid = makePlan(bad);
    QVERIFY(!invalid.inputErrors.empty());
    QCOMPARE(toString(pageState(invalid, Project{}, "setup")), toString(PageState::NeedsInput));
}

void TestPages::workflowState_data()
{
    QTest::addColumn<int>("status");
    QTest::addColumn<int>("check");            // -1: no check, else its CheckLevel
    QTest::addColumn<QString>("findingNames"); // the workflow a finding names, empty for none
    QTest::addColumn<bool>("isHandled");
    QTest::addColumn<PageState>("expected");
    const int complete = int(AdviceStatus::Complete), needs = int(AdviceStatus::NeedsInput);
    const int fail = int(CheckLevel::Fail), warn = int(CheckLevel::Warn), pass = int(CheckLevel::Pass);
    QTest::newRow("complete, not handled") << complete << -1 << "" << false << PageState::NotVisited;
    QTest::newRow("complete, handled") << complete << pass << "" << true << PageState::Complete;
    QTest::newRow("a warning is no conflict") << complete << warn << "" << true << PageState::Complete;
    QTest::newRow("failed check") << complete << fail << "" << true << PageState::Conflict;
    QTest::newRow("failed check beats missing inputs") << needs << fail << "" << false << PageState::Conflict;
    QTest::newRow("finding naming it") << complete << pass << "zero" << true << PageState::Conflict;
    QTest::newRow("finding naming another workflow") << complete << pass << "pipeline" << true << PageState::Complete;
    QTest::newRow("missing inputs, even once handled") << needs << -1 << "" << true << PageState::NeedsInput;
}

void TestPages::workflowState()
{
    QFETCH(int, status);
    QFETCH(int, check);
    QFETCH(QString, findingNames);
    QFETCH(bool, isHandled);
    QFETCH(PageState, expected);
    std::vector<Check> checks;
    if (check >= 0)
        checks.push_back({CheckLevel(check), "some-check", "message", ""});
    Plan plan;
    plan.workflows = {advice("zero", AdviceStatus(status), checks), advice("pipeline", AdviceStatus::Complete)};
    if (!findingNames.isEmpty())
        plan.findings.push_back({CheckLevel::Warn, "conflicting-fragments", "message", {findingNames.toStdString()}});
    QCOMPARE(toString(pageState(plan, isHandled ? handled("zero") : Project{}, "zero")), toString(expected));
}

void TestPages::aWorkflowThePlanDoesNotHaveIsNotVisited()
{
    Plan plan;
    plan.workflows = {advice("zero", AdviceStatus::Complete)};
    QCOMPARE(toString(pageState(plan, handled("sparse"), "sparse")), toString(PageState::NotVisited));
}

void TestPages::statesHaveTheSidebarsWords()
{
    QCOMPARE(toString(PageState::NotVisited), std::string("not visited"));
    QCOMPARE(toString(PageState::Complete), std::string("complete"));
    QCOMPARE(toString(PageState::NeedsInput), std::string("needs input"));
    QCOMPARE(toString(PageState::Conflict), std::string("conflict"));
}

namespace {

// The fingerprint files held before it left the headline out: FNV-1a 64 of the parts, each followed by 0xff.
std::string wordedHash(const std::vector<std::string>& parts)
{
    std::uint64_t h = 14695981039346656037ULL;
    for (const std::string& part : parts) {
        for (const unsigned char c : part + '\xff')
            h = (h ^ c) * 1099511628211ULL;
    }
    char buf[17];
    std::snprintf(buf, sizeof buf, "%016llx", static_cast<unsigned long long>(h));
    return buf;
}

} // namespace

void TestPages::aDoneMarkRecordsTheAdviceItReviewed()
{
    const Plan before = makePlan(answersFrom({"model.preset=llama-2-7b"}));
    Project project;
    project.markHandled("zero", "2026-01-01T00:00:00Z", before.find("zero")->headline,
                        adviceFingerprint(*before.find("zero")));
    QCOMPARE(toString(pageState(before, project, "zero")), toString(PageState::Complete));
    // Same answers, same advice, same fingerprint.
    QCOMPARE(adviceFingerprint(*before.find("zero")),
             adviceFingerprint(*makePlan(answersFrom({"model.preset=llama-2-7b"})).find("zero")));

    // The recommendation changes (a 13B model on the same GPUs): the mark says so instead of ✓.
    project.answers = answersFrom({"model.preset=llama-2-13b"});
    const Plan after = makePlan(project.answers);
    QVERIFY(adviceFingerprint(*after.find("zero")) != adviceFingerprint(*before.find("zero")));
    QCOMPARE(toString(pageState(after, project, "zero")), std::string("changed since you reviewed it"));
    QVERIFY(reviewText(after, project, "zero").rfind("changed since you reviewed it", 0) == 0);
    QVERIFY(pageStatus(after, project, "zero").find("changed since you reviewed it") != std::string::npos);

    // The decision, not its wording: a headline reworded (a figure in it moved) keeps the mark; a mark written with
    // the earlier hash of the headline's words still stands for the same advice.
    Advice reworded = *before.find("zero");
    reworded.headline += " (reworded)";
    QCOMPARE(adviceFingerprint(reworded), adviceFingerprint(*before.find("zero")));
    Advice otherVerdict = reworded;
    otherVerdict.checks.front().level =
        otherVerdict.checks.front().level == CheckLevel::Warn ? CheckLevel::Pass : CheckLevel::Warn;
    QVERIFY(adviceFingerprint(otherVerdict) != adviceFingerprint(reworded));
    Project legacy;
    legacy.answers = answersFrom({"model.preset=llama-2-7b"});
    const Advice& zero = *before.find("zero");
    legacy.markHandled("zero", "2026-01-01T00:00:00Z", zero.headline,
                       wordedHash({zero.workflow, zero.headline, zero.fragment.dump()}));
    QCOMPARE(toString(pageState(before, legacy, "zero")), toString(PageState::Complete));
    legacy.markHandled("zero", "2026-01-01T00:00:00Z", zero.headline, "2f3e1c0a9b8d7e6f"); // another advice's
    QCOMPARE(toString(pageState(before, legacy, "zero")), std::string("changed since you reviewed it"));

    // A mark from a file without a fingerprint cannot be compared and stands.
    Project old;
    old.answers = project.answers;
    old.markHandled("zero", "2026-01-01T00:00:00Z", "ZeRO-1");
    QCOMPARE(toString(pageState(after, old, "zero")), toString(PageState::Complete));
}

void TestPages::aReviewCountsTheSuggestionsWaitingForTheImportedConfig()
{
    Plan plan = makePlan(answersFrom({"model.preset=llama-2-7b"}));
    Project project;
    project.answers = answersFrom({"model.preset=llama-2-7b"});
    plan.suggestions = {{"/zero_optimization/stage", 1, 2, "zero", "the ZeRO page's stage", false},
                        {"/zero_optimization/overlap_comm", false, true, "zero", "", false},
                        {"/zero_optimization/contiguous_gradients", nullptr, true, "zero", "", true},
                        {"/gradient_clipping", nullptr, 1.0, "base", "", false}};
    QCOMPARE(reviewText(plan, project, "zero"),
             std::string("not reviewed yet; 2 suggested changes to the imported config, in Findings"));
    plan.suggestions.resize(1);
    QVERIFY(reviewText(plan, project, "zero").ends_with("; 1 suggested change to the imported config, in Findings"));
}

void TestPages::anOptionalWorkflowWithoutItsInputsIsNotUsed()
{
    const Plan plan = makePlan(Answers{});
    QVERIFY(plan.find("memory")->status == AdviceStatus::NeedsInput);
    QCOMPARE(toString(pageState(plan, Project{}, "memory")), std::string("not used"));
    // The words only: the Summary names and links the missing input on its own line (TestFieldLinks).
    QCOMPARE(reviewText(plan, Project{}, "memory"), std::string("not used (optional)"));

    // Once one of its own inputs is given, what is still missing is needed.
    Project started;
    started.answers = answersFrom({"memory.phase=forward"});
    const Plan startedPlan = makePlan(started.answers);
    QCOMPARE(toString(pageState(startedPlan, started, "memory")), toString(PageState::NeedsInput));

    // A workflow missing an input of another page (Setup) needs input.
    Plan other;
    Advice zero;
    zero.workflow = "zero";
    zero.status = AdviceStatus::NeedsInput;
    zero.missing = {"model.params"};
    other.workflows = {zero};
    QCOMPARE(toString(pageState(other, Project{}, "zero")), toString(PageState::NeedsInput));
}

void TestPages::configContainsEveryValueOfTheFragment()
{
    const auto config = nlohmann::ordered_json::parse(R"({"a": 1, "zero_optimization": {"stage": 2, "x": true}})");
    QVERIFY(configContains(config, nlohmann::ordered_json::object()));
    QVERIFY(configContains(config, nlohmann::ordered_json::parse(R"({"zero_optimization": {"stage": 2}})")));
    QVERIFY(!configContains(config, nlohmann::ordered_json::parse(R"({"zero_optimization": {"stage": 3}})")));
    QVERIFY(!configContains(config, nlohmann::ordered_json::parse(R"({"bf16": {"enabled": true}})")));
    QVERIFY(!configContains(config, nlohmann::ordered_json::parse(R"({"a": {"b": 1}})")));
}

void TestPages::theSummarySaysAppliedOnlyWhenTheConfigHoldsIt()
{
    Project project;
    project.answers = answersFrom({"model.preset=llama-2-7b"});
    Plan plan = makePlan(project);
    QVERIFY(reviewText(plan, project, "zero").find("applied in the config") != std::string::npos);
    // The config keeps another stage (an imported file the user has not changed): not applied.
    const int stage = plan.find("zero")->fragment["zero_optimization"]["stage"].get<int>();
    plan.config["zero_optimization"]["stage"] = stage == 3 ? 1 : 3;
    const std::string text = reviewText(plan, project, "zero");
    QVERIFY2(text.find("applied") == std::string::npos, text.c_str());
    QVERIFY(text.find("does not contain its recommendation") != std::string::npos);
}

void TestPages::theSummarySaysRecommendsAgainstForOneBitAdam()
{
    // One node: no inter-node traffic to compress.
    const Project project{answersFrom({"model.preset=llama-2-7b", "hardware.nodes=1"})};
    const Plan plan = makePlan(project);
    QVERIFY(plan.find("onebit")->recommendsAgainst);
    const std::string text = reviewText(plan, project, "onebit");
    QVERIFY2(text.find("recommends against") != std::string::npos, text.c_str());
    QVERIFY(text.find("applied") == std::string::npos);
}

void TestPages::thePageBeingVisitedNeverSaysNotVisited()
{
    const Plan plan = makePlan(Answers{});
    for (const std::string& w : workflowIds())
        QVERIFY2(pageStatus(plan, Project{}, w).find("not visited") == std::string::npos, w.c_str());
    QCOMPARE(pageStatus(plan, Project{}, "zero"), std::string("not reviewed yet (Next marks it reviewed)"));
}

void TestPages::batchValuesTheConfigWasWrittenWithAreShownAsDerived()
{
    const Answers answers = answersFrom({"model.preset=llama-2-7b", "training.global_batch_size=64"});
    const Plan plan = makePlan(answers);
    const auto derived = derivedInputs(plan, answers);
    auto find = [&](const char* id) {
        return std::find_if(derived.begin(), derived.end(), [&](const DerivedInput& d) { return d.id == id; });
    };
    QVERIFY(find("training.global_batch_size") == derived.end()); // typed: not derived
    const auto accumulation = find("training.gradient_accumulation_steps");
    QVERIFY(accumulation != derived.end());
    QCOMPARE(accumulation->value.get<std::int64_t>(), plan.config["gradient_accumulation_steps"].get<std::int64_t>());
    QVERIFY(find("training.micro_batch_size") != derived.end());
}

// The out-of-memory form shows the failed run's parameter offload only when the run could have one (stage 3, given
// or the config's); its optimizer offload is hidden at stage 0. No other page hides a field.
void TestPages::theMemoryPageHidesOffloadsTheRunCannotHave()
{
    using Ids = std::vector<std::string>;
    auto notAsked = [](const QStringList& settings, const std::string& step = "memory") {
        const Answers a = answersFrom(settings);
        return inputsNotAsked(makePlan(a), a, step);
    };
    QCOMPARE(notAsked({"memory.ran_stage=2"}), Ids{"memory.ran_offload_param"});
    QCOMPARE(notAsked({"zero.stage=1"}), Ids{"memory.ran_offload_param"});
    QCOMPARE(notAsked({"memory.ran_stage=0"}), (Ids{"memory.ran_offload_optimizer", "memory.ran_offload_param"}));
    QVERIFY(notAsked({"memory.ran_stage=3"}).empty());
    QVERIFY(notAsked({"zero.stage=3"}).empty()); // the stage not given: the config's
    QVERIFY(notAsked({"memory.ran_stage=2"}, "zero").empty());
}

// Setup asks the adapters' answers only with a method that reads them, double quantization only with QLoRA.
void TestPages::setupAsksTheAdaptersOnlyForTheirMethod()
{
    auto notAsked = [](const QStringList& settings) {
        const Answers a = answersFrom(settings);
        return inputsNotAsked(makePlan(a), a, "setup");
    };
    using Ids = std::vector<std::string>;
    // A dense model is not asked the rest of an MoE shape either.
    const Ids moeShape = {"model.experts_per_token",  "model.expert_intermediate_size",
                          "model.shared_experts",     "model.dense_layers",
                          "model.moe_layer_interval", "moe.mode",
                          "moe.expert_parallel_size", "moe.autoep_preset"};
    auto with = [](Ids ids, const Ids& more) {
        ids.insert(ids.end(), more.begin(), more.end());
        return ids;
    };
    QCOMPARE(
        notAsked({}),
        with({"lora.rank", "lora.alpha", "lora.dropout", "lora.targets", "lora.modules_to_save", "lora.double_quant"},
             moeShape));
    QCOMPARE(notAsked({"training.method=lora"}), with({"lora.double_quant"}, moeShape));
    QCOMPARE(notAsked({"training.method=qlora"}), moeShape);
    QVERIFY(notAsked({"training.method=qlora", "model.preset=mixtral-8x7b-v0.1"}).empty());
}

void TestPages::aGlobalBatchThatMovesWithoutABatchEditIsSaid()
{
    const Plan before = makePlan(answersFrom({"model.preset=llama-2-7b"}));
    const Plan after = makePlan(answersFrom({"model.preset=llama-2-7b", "pipeline.stages=4"}));
    const auto was = before.config["train_batch_size"].get<std::int64_t>();
    const auto now = after.config["train_batch_size"].get<std::int64_t>();
    QVERIFY(was != now);
    const std::string note = batchChangeNote(before.config, after.config, "pipeline.stages");
    QVERIFY2(note.find("from " + std::to_string(was) + " to " + std::to_string(now)) != std::string::npos,
             note.c_str());
    QVERIFY(note.find("“Pipeline stages”") != std::string::npos);
    QVERIFY(note.find("“Global batch”") != std::string::npos);
    QVERIFY(batchChangeNote(before.config, after.config, "training.micro_batch_size").empty()); // the user's own edit
    QVERIFY(batchChangeNote(before.config, before.config, "pipeline.stages").empty());
}

QTEST_APPLESS_MAIN(TestPages)
#include "TestPages.moc"
