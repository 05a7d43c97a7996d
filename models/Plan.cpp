#include "Plan.h"

#include "advise/BatchKeys.h"
#include "advise/CrossChecks.h"
#include "advise/MemoryAdvisor.h"
#include "advise/NvmeAdvisor.h"
#include "advise/OnebitAdvisor.h"
#include "advise/PipelineAdvisor.h"
#include "advise/PlanSearch.h"
#include "advise/PlanSearchMemo.h"
#include "advise/PrecisionAdvisor.h"
#include "advise/SparseAdvisor.h"
#include "advise/ZeroAdvisor.h"
#include "config/DumpLines.h"
#include "knowledge/DeepSpeedFacts.h"
#include "project/InputRegistry.h"
#include "project/ModelChecks.h"
#include "util/JsonTextWriter.h"

#include <algorithm>
#include <map>

namespace dsw {

namespace {

using oj = nlohmann::ordered_json;

std::string optimizerType(const std::string& id)
{
    static const std::map<std::string, std::string> types = {{"adamw", "AdamW"},
                                                             {"adam", "Adam"},
                                                             {"lamb", "Lamb"},
                                                             {"adagrad", "Adagrad"},
                                                             {"lion", "Lion"},
                                                             {"onebit-adam", "OneBitAdam"},
                                                             {"zero-one-adam", "ZeroOneAdam"},
                                                             {"onebit-lamb", "OneBitLamb"}};
    auto it = types.find(id);
    return it == types.end() ? id : it->second;
}

// Keys every config carries: the batch identity, clipping (always explicit: its default changed in 0.19.3)
// and the optimizer.
oj baseFragment(const Answers& a)
{
    const BatchKeys batch = batchKeys(a);
    oj base;
    base["train_batch_size"] = batch.trainBatchSize;
    base["train_micro_batch_size_per_gpu"] = batch.microBatch;
    base["gradient_accumulation_steps"] = batch.gradientAccumulation;
    base["gradient_clipping"] = a.number("training.gradient_clipping");
    base["optimizer"] = oj{{"type", optimizerType(a.text("training.optimizer"))},
                           {"params", {{"lr", a.number("training.learning_rate")}}}};
    return base;
}

// The answers with the micro-batch and accumulation of the ZeRO workflow's chosen plan (advise/PlanSearch.h).
Answers withChosenBatch(const Answers& a, const Advice& zero)
{
    const auto* rec = zero.details.contains("recommended") ? &zero.details.at("recommended") : nullptr;
    if (!rec || !rec->contains("micro_batch_size"))
        return a;
    return withChosenBatch(a, rec->at("micro_batch_size").get<std::int64_t>(),
                           rec->at("gradient_accumulation_steps").get<std::int64_t>());
}

} // namespace

const std::vector<std::string>& workflowIds()
{
    static const std::vector<std::string> ids = {"zero", "precision", "pipeline", "memory", "nvme", "onebit", "sparse"};
    return ids;
}

std::string workflowTitle(const std::string& id)
{
    static const std::map<std::string, std::string> titles = {
        {"zero", "ZeRO stage and offload"},    {"precision", "Precision"}, {"pipeline", "Pipeline parallelism"},
        {"memory", "Out-of-memory diagnosis"}, {"nvme", "DeepNVMe"},       {"onebit", "1-bit Adam"},
        {"sparse", "Sparse attention"}};
    auto it = titles.find(id);
    return it == titles.end() ? id : it->second;
}

const Advice* Plan::find(const std::string& workflow) const
{
    auto it = std::find_if(workflows.begin(), workflows.end(), [&](const Advice& a) { return a.workflow == workflow; });
    return it == workflows.end() ? nullptr : &*it;
}

Plan makePlan(const Answers& source, const PartitionPolicy& partitioning)
{
    Plan plan;
    plan.basis = basisStatement();
    for (const auto& [id, value] : source.given())
        if (auto r = InputRegistry::instance().validate(id, value); !r)
            plan.inputErrors.push_back(r.error());
    if (auto error = modelShapeError(source)) // the model answers contradict each other
        plan.inputErrors.push_back(*error);

    // ZeRO first: the pipeline, out-of-memory and 1-bit Adam advisors check their advice against its stage, and
    // the config is written for the micro-batch and accumulation its search chose (the same global batch). The
    // search is memoised per search input, and the ZeRO advice with it: an edit to an answer neither reads reuses
    // them.
    plan.workflows.reserve(workflowIds().size());
    PlanSearchMemo& memo = PlanSearchMemo::shared();
    std::string shapeError;
    try {
        plan.zeroSearch = memo.search(source);
    } catch (const std::invalid_argument& e) { // the model's shape contradicts itself: nothing can be sized
        shapeError = e.what();
    }
    if (plan.zeroSearch)
        plan.workflows.push_back(memo.zeroAdvice(source)); // the stored advice itself, not a copy
    else
        plan.workflows.push_back(adviseZeroShapeInvalid(shapeError));
    const Advice& zero = plan.workflows.front();
    const Answers answers = withChosenBatch(source, zero);
    plan.workflows.push_back(advisePrecision(answers, zero)); // bf16 states need its ZeRO stage
    plan.workflows.push_back(advisePipeline(answers, zero, partitioning));
    plan.workflows.push_back(adviseMemory(source)); // the setup the user ran (memory.ran_*), not the ZeRO pick
    plan.workflows.push_back(adviseNvme(answers));
    plan.workflows.push_back(adviseOnebit(answers, zero, plan.zeroSearch.get()));
    plan.workflows.push_back(adviseSparse(answers));

    static const std::string kBase = "base";
    const oj base = baseFragment(answers);
    std::vector<FragmentRef> fragments = {{&kBase, &base}};
    for (const auto& advice : plan.workflows)
        fragments.push_back({&advice.workflow, &advice.fragment});
    auto composed = composeConfig(fragments);
    plan.config = std::move(composed.config);
    plan.findings = std::move(composed.findings);
    for (auto& f : crossWorkflowFindings(plan.config, answers))
        plan.findings.push_back(std::move(f));
    if (auto warning = paramsShapeMismatch(answers))
        plan.findings.push_back({CheckLevel::Warn, "params-disagree-with-shape", *warning, {"zero", "memory"}});
    return plan;
}

namespace {
// The linter on the config shown, with the lines of its 2-space dump (the preview's text), computed without writing
// and re-reading it (config/DumpLines.h; where that cannot be exact, the dump is read back as before). For an import
// it also reads what the file's text said beyond its JSON, so the file's own findings (duplicate keys, not strict
// JSON, quoteless values) stay.
void lintPlan(Plan& plan, const Answers& answers, const ImportedText& text = {})
{
    ParsedConfig config;
    bool borrowed = false; // config.json is plan.config, moved in for the lint and back after it
    if (auto lines = dumpLines(plan.config)) {
        config.lines = std::move(*lines);
        config.json = std::move(plan.config);
        borrowed = true;
    } else if (auto parsed = parseConfigText(plan.config.dump(2))) {
        config = std::move(parsed).value();
    } else {
        return;
    }
    for (const auto& d : text.duplicates)
        config.duplicates.push_back({d.pointer, d.line});
    config.hjsonSyntax = text.hjsonSyntax;
    config.strictJson = text.hjsonSyntax.empty();
    for (const std::string& pointer : text.quotelessValues) { // unless an accepted suggestion replaced it
        try {
            const oj::json_pointer p(pointer);
            if (config.json.contains(p) && config.json.at(p).is_string())
                config.quotelessValues.push_back(pointer);
        } catch (const nlohmann::json::exception&) { // a malformed pointer in a hand-edited project: not the file's
        }
    }
    try {
        plan.lint = lintConfig(config, answers);
    } catch (...) {
        if (borrowed)
            plan.config = std::move(config.json);
        throw;
    }
    if (borrowed)
        plan.config = std::move(config.json);
}

// `object` with `key`: `value` inserted after member `after` (at the end when it has none), keeping every other
// member's place.
oj withMemberAfter(const oj& object, const std::string& after, const std::string& key, oj value)
{
    oj out = oj::object();
    for (auto it = object.begin(); it != object.end(); ++it) {
        out[it.key()] = it.value();
        if (it.key() == after)
            out[key] = std::move(value);
    }
    if (!out.contains(key))
        out[key] = std::move(value);
    return out;
}
} // namespace

namespace {
Plan makeProjectPlan(const Project& project, const PartitionPolicy& partitioning, bool lint)
{
    Plan plan = makePlan(project.answers, partitioning);
    if (!project.importedConfig.is_object()) {
        if (lint)
            lintPlan(plan, project.answers);
        return plan;
    }
    plan.suggestions = suggestionsFor(project.importedConfig, plan.config, project.answers);
    plan.suggestionsNeed = suggestionInputsMissing(project.answers);
    for (auto& s : plan.suggestions) {
        s.accepted = std::find(project.acceptedSuggestions.begin(), project.acceptedSuggestions.end(), s.pointer)
            != project.acceptedSuggestions.end();
        // Each suggestion's own reason where its key's purpose is known; else the page it comes from and that
        // page's plan, not offered as an argument for the key.
        const Advice* advice = plan.find(s.workflow);
        const std::string own = suggestionReason(s, project.importedConfig);
        s.reason = !own.empty() ? (advice ? workflowTitle(s.workflow) + ": " : std::string()) + own
            : advice ? workflowTitle(s.workflow) + ": the page writes this key for its plan (" + advice->headline + ")"
                     : "written explicitly by the wizard (batch identity, clipping, optimizer)";
    }
    plan.config = applySuggestions(project.importedConfig, plan.suggestions);
    plan.findings.erase(std::remove_if(plan.findings.begin(), plan.findings.end(),
                                       [](const Finding& f) {
                                           return f.code != "conflicting-fragments"
                                               && f.code != "params-disagree-with-shape";
                                       }),
                        plan.findings.end());
    for (auto& f : crossWorkflowFindings(plan.config, project.answers))
        plan.findings.push_back(std::move(f));
    if (lint)
        lintPlan(plan, project.answers, project.importedText);
    return plan;
}
} // namespace

Plan makePlan(const Project& project, const PartitionPolicy& partitioning)
{
    return makeProjectPlan(project, partitioning, true);
}

Plan makePlanWithoutLint(const Project& project) { return makeProjectPlan(project, {}, false); }

ExportOptions exportOptionsFor(const Plan& plan, const Project& project, ExportOptions base)
{
    const Answers& a = project.answers;
    const std::string checkpointing = a.text("training.activation_checkpointing");
    const Advice* zero = plan.find("zero");
    if (a.has("training.activation_checkpointing") && checkpointing != "auto")
        base.gradientCheckpointing = checkpointing == "on";
    else if (zero && zero->details.contains("recommended")
             && zero->details.at("recommended").contains("activation_checkpointing")
             && (!project.importedConfig.is_object() || suggestionInputsMissing(a).empty()))
        base.gradientCheckpointing = zero->details.at("recommended").at("activation_checkpointing").get<bool>();
    base.attention = a.text("model.attention_impl");
    return base;
}

nlohmann::ordered_json toJson(const Plan& plan, const std::string& onlyWorkflow)
{
    oj j;
    j["config"] = plan.config;
    j["workflows"] = oj::object();
    for (const auto& advice : plan.workflows) {
        if (!onlyWorkflow.empty() && advice.workflow != onlyWorkflow)
            continue;
        oj& out = j["workflows"][advice.workflow] = toJson(advice);
        if (advice.workflow == "zero" && plan.zeroSearch && out.contains("deepspeed_estimator"))
            out = withMemberAfter(out, "deepspeed_estimator", "candidates", zeroCandidatesJson(*plan.zeroSearch));
    }
    j["findings"] = oj::array();
    for (const auto& f : plan.findings)
        j["findings"].push_back(
            oj{{"level", toString(f.level)}, {"code", f.code}, {"message", f.message}, {"workflows", f.workflows}});
    j["input_errors"] = plan.inputErrors;
    j["lint"] = oj::array();
    for (const auto& f : plan.lint)
        j["lint"].push_back(toJson(f));
    if (!plan.suggestions.empty()) {
        j["suggestions"] = oj::array();
        for (const auto& s : plan.suggestions)
            j["suggestions"].push_back(oj{{"pointer", s.pointer},
                                          {"from", s.from},
                                          {"to", s.to},
                                          {"workflow", s.workflow},
                                          {"reason", s.reason},
                                          {"accepted", s.accepted}});
    }
    if (!plan.suggestionsNeed.empty())
        j["suggestions_need"] = plan.suggestionsNeed;
    j["basis"] = plan.basis;
    return j;
}

std::string toJsonText(const Plan& plan, const std::string& onlyWorkflow)
{
    std::string text;
    text.reserve(128 * 1024); // `recommend` prints about 90 KB
    JsonTextWriter w(text);
    w.beginObject();
    w.member("config", plan.config);
    w.key("workflows");
    w.beginObject();
    for (const auto& advice : plan.workflows) {
        if (!onlyWorkflow.empty() && advice.workflow != onlyWorkflow)
            continue;
        // As toJson: the zero workflow's candidates follow its deepspeed_estimator (withMemberAfter).
        const bool candidates =
            advice.workflow == "zero" && plan.zeroSearch && advice.details.contains("deepspeed_estimator");
        w.key(advice.workflow);
        if (candidates && advice.details.contains("candidates")) { // a detail of that name: as toJson places it
            w.value(withMemberAfter(toJson(advice), "deepspeed_estimator", "candidates",
                                    zeroCandidatesJson(*plan.zeroSearch)));
            continue;
        }
        const auto writeCandidates = [&] {
            w.key("candidates");
            w.beginArray();
            for (const StepPrediction& p : plan.zeroSearch->candidates)
                writeCandidateJson(w, p);
            w.endArray();
        };
        w.beginObject();
        const bool written = candidates ? writeJsonMembers(w, advice, "deepspeed_estimator", writeCandidates)
                                        : writeJsonMembers(w, advice);
        w.endObject();
        if (!written) // a detail repeats a fixed member's key: nothing was written but the braces; redo it whole
            return toJson(plan, onlyWorkflow).dump(2);
    }
    w.endObject();
    w.key("findings");
    w.beginArray();
    for (const auto& f : plan.findings) {
        w.beginObject();
        w.member("level", toString(f.level));
        w.member("code", f.code);
        w.member("message", f.message);
        w.member("workflows", f.workflows);
        w.endObject();
    }
    w.endArray();
    w.member("input_errors", plan.inputErrors);
    w.key("lint");
    w.beginArray();
    for (const auto& f : plan.lint)
        w.value(toJson(f));
    w.endArray();
    if (!plan.suggestions.empty()) {
        w.key("suggestions");
        w.beginArray();
        for (const auto& s : plan.suggestions) {
            w.beginObject();
            w.member("pointer", s.pointer);
            w.member("from", s.from);
            w.member("to", s.to);
            w.member("workflow", s.workflow);
            w.member("reason", s.reason);
            w.member("accepted", s.accepted);
            w.endObject();
        }
        w.endArray();
    }
    if (!plan.suggestionsNeed.empty())
        w.member("suggestions_need", plan.suggestionsNeed);
    w.member("basis", plan.basis);
    w.endObject();
    return text;
}

} // namespace dsw
