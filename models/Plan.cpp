#include "Plan.h"

#include "advise/BatchKeys.h"
#include "advise/LongContextAdvice.h"
#include "advise/MemoryAdvisor.h"
#include "advise/MoeAdvice.h"
#include "advise/NvmeAdvisor.h"
#include "advise/OnebitAdvisor.h"
#include "advise/PrecisionAdvisor.h"
#include "advise/SparseAdvisor.h"
#include "advise/ZeroAdvisor.h"
#include "knowledge/DeepSpeedFacts.h"
#include "project/InputRegistry.h"
#include "project/ModelChecks.h"
#include "util/JsonAccess.h"

#include <algorithm>
#include <cstdio>
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

// The wizard's own threshold: an imported placement this many times slower than the best one gets a suggestion.
constexpr double kSlowPlacement = 1.5;

std::string placementOf(const Placement& p)
{
    std::string label = planLabel({p});
    return label.substr(0, label.find(", micro-batch")); // "ZeRO-2, optimizer → cpu"
}

// The imported file's placement, as DeepSpeed runs it (offload_param below stage 3 ignored, ...), against the fastest
// placement that fits with the same micro-batch, accumulation, checkpointing and loss kernel, by the step model. Read
// from the searched candidates, which do not depend on the placement the answers fix: the suggestion stays the same
// once applied.
std::optional<Suggestion> fasterPlacement(const ZeroDecision& d, const oj& imported)
{
    const oj* zero = imported.contains("zero_optimization") ? &imported.at("zero_optimization") : nullptr;
    if (!zero || !zero->is_object())
        return std::nullopt;
    auto device = [&](const char* block, const char* deprecated) { // as config/ConfigImporter reads them
        const oj* b = zero->contains(block) ? &zero->at(block) : nullptr;
        if (!b && valueOr(*zero, deprecated, false))
            return std::string("cpu");
        return b && b->is_object() ? valueOr(*b, "device", std::string("none")) : std::string("none");
    };
    const PlacementAsRun run = placementAsRun(valueOr(*zero, "stage", 0), device("offload_optimizer", "cpu_offload"),
                                              device("offload_param", "cpu_offload_param"));
    auto same = [](const Placement& p, const PlacementAsRun& r) {
        return p.stage == r.stage && p.offloadOptimizer == r.offloadOptimizer && p.offloadParam == r.offloadParam;
    };
    const StepPrediction* mine = nullptr; // candidates come fastest first among those that fit
    for (const auto& c : d.candidates)
        if (!mine && c.fits() && same(c.candidate.placement, run))
            mine = &c;
    if (!mine)
        return std::nullopt;
    const StepCandidate& m = mine->candidate;
    for (const auto& c : d.candidates) {
        const StepCandidate& o = c.candidate;
        if (!c.fits() || o.microBatch != m.microBatch || o.accumulation != m.accumulation
            || o.checkpointing != m.checkpointing || o.checkpointLayers != m.checkpointLayers || o.loss != m.loss)
            continue;
        if (c.time.total <= 0 || mine->time.total < kSlowPlacement * c.time.total)
            return std::nullopt;
        oj to = *zero;
        to["stage"] = o.placement.stage;
        for (const auto& [block, dev] : {std::pair{"offload_optimizer", o.placement.offloadOptimizer},
                                         std::pair{"offload_param", o.placement.offloadParam}})
            if (dev == "none")
                to.erase(block);
            else
                to[block]["device"] = dev;
        if (o.placement.offloadOptimizer == "none") // the deprecated spellings, which DeepSpeed still reads
            to.erase("cpu_offload");
        if (o.placement.offloadParam == "none")
            to.erase("cpu_offload_param");
        char times[160];
        std::snprintf(times, sizeof times, "%.2f s per step against %.2f s, %.1f× faster", c.time.total,
                      mine->time.total, mine->time.total / c.time.total);
        return Suggestion{"/zero_optimization",
                          *zero,
                          to,
                          "zero",
                          "The file's placement, " + placementOf(m.placement) + ", is slow: " + placementOf(o.placement)
                              + " fits too and takes " + times
                              + " by ds-wizard's step-time model (same micro-batch, accumulation, checkpointing and "
                                "loss kernel; not a measurement).",
                          false};
    }
    return std::nullopt;
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

    // The job once; then the ZeRO page's decision, which the pipeline, out-of-memory, precision and 1-bit pages read
    // (the config is written for the micro-batch and accumulation it chose: the same global batch).
    plan.job = resolveJob(source);
    plan.workflows.reserve(workflowIds().size());
    std::string sizingError = plan.job.shapeError;
    if (plan.job.sized()) {
        try {
            plan.zero = decideZero(plan.job, source);
        } catch (const std::invalid_argument& e) { // an input the step model rejects: said, nothing sized
            sizingError = e.what();
        }
    }
    const ZeroDecision* zero = plan.zero ? &*plan.zero : nullptr;
    plan.workflows.push_back(zero                                ? adviseZero(plan.job, *zero, source)
                                 : !plan.job.notModelled.empty() ? adviseZeroNotModelled(plan.job, source)
                                                                 : adviseZeroShapeInvalid(sizingError));
    const Answers answers = zero ? withChosenBatch(source, *zero) : source;
    plan.workflows.push_back(advisePrecision(plan.job, zero, answers)); // bf16 states need its ZeRO stage
    PipelineAdvice pipeline = advisePipeline(plan.job, zero, answers, partitioning);
    plan.workflows.push_back(std::move(pipeline.advice));
    plan.pipeline = std::move(pipeline.stages);
    MemoryAdvice memory = adviseMemory(plan.job, zero, source); // the run that failed (memory.ran_*, else the config)
    plan.workflows.push_back(std::move(memory.advice));
    plan.failedRun = std::move(memory.failedRun);
    plan.remedies = std::move(memory.remedies);
    plan.workflows.push_back(adviseNvme(plan.job, answers));
    plan.workflows.push_back(adviseOnebit(plan.job, zero, answers));
    plan.workflows.push_back(adviseSparse(plan.job, zero, answers));

    static const std::string kBase = "base";
    const oj base = baseFragment(answers);
    std::vector<FragmentRef> fragments = {{&kBase, &base}};
    for (const auto& advice : plan.workflows)
        fragments.push_back({&advice.workflow, &advice.fragment});
    auto composed = composeConfig(fragments);
    plan.config = std::move(composed.config);
    plan.findings = std::move(composed.findings);
    if (auto warning = paramsShapeMismatch(answers))
        plan.findings.push_back({CheckLevel::Warn, "params-disagree-with-shape", *warning, {"zero", "memory"}});
    if (auto warning = seqLenBeyondMaxPosition(answers))
        plan.findings.push_back(
            {CheckLevel::Warn, "seq-len-exceeds-max-position", *warning, {"zero", "memory", "sparse"}});
    return plan;
}

namespace {
// The linter on the config shown, with the lines of its 2-space dump (the preview's text). For an import it also
// reads what the file's text said beyond its JSON, so the file's own findings (duplicate keys, not strict JSON,
// quoteless values) stay.
void lintPlan(Plan& plan, const Answers& answers, const ImportedText& text = {})
{
    auto parsed = parseConfigText(plan.config.dump(2));
    if (!parsed)
        return;
    ParsedConfig config = std::move(parsed).value();
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
    plan.lint = lintConfig(config, answers);
}

} // namespace

Plan makePlan(const Project& project, const PartitionPolicy& partitioning)
{
    Plan plan = makePlan(project.answers, partitioning);
    if (!project.importedConfig.is_object()) {
        lintPlan(plan, project.answers);
        return plan;
    }
    plan.suggestions = suggestionsFor(project.importedConfig, plan.config, project.answers);
    plan.suggestionsNeed = suggestionInputsMissing(project.answers);
    if (const auto faster = plan.zero && plan.suggestionsNeed.empty()
            ? fasterPlacement(*plan.zero, project.importedConfig)
            : std::nullopt) { // one suggestion for the whole block, in place of its keys' own
        std::erase_if(plan.suggestions,
                      [](const Suggestion& s) { return s.pointer.starts_with("/zero_optimization"); });
        plan.suggestions.push_back(*faster);
    }
    for (auto& s : plan.suggestions) {
        s.accepted = std::find(project.acceptedSuggestions.begin(), project.acceptedSuggestions.end(), s.pointer)
            != project.acceptedSuggestions.end();
        // Each suggestion's own reason where its key's purpose is known; else the page it comes from and that
        // page's plan, not offered as an argument for the key.
        const Advice* advice = plan.find(s.workflow);
        const std::string own = !s.reason.empty() ? s.reason : suggestionReason(s, project.importedConfig);
        s.reason = !own.empty() ? (advice ? workflowTitle(s.workflow) + ": " : std::string()) + own
            : advice ? workflowTitle(s.workflow) + ": the page writes this key for its plan (" + advice->headline + ")"
                     : "written explicitly by the wizard (batch identity, clipping, optimizer)";
    }
    plan.config = applySuggestions(project.importedConfig, plan.suggestions);
    // The imported config is the file's, not the composition: only the findings about the answers stay.
    plan.findings.erase(std::remove_if(plan.findings.begin(), plan.findings.end(),
                                       [](const Finding& f) {
                                           return f.code != "params-disagree-with-shape"
                                               && f.code != "seq-len-exceeds-max-position";
                                       }),
                        plan.findings.end());
    lintPlan(plan, project.answers, project.importedText);
    return plan;
}

ExportOptions exportOptionsFor(const Plan& plan, const Project& project, ExportOptions base)
{
    const Answers& a = project.answers;
    // What the chosen plan asks of the training script: checkpointing (of every layer or the first N), a fused loss.
    if (plan.zero && !plan.zero->candidates.empty()
        && (!project.importedConfig.is_object() || suggestionInputsMissing(a).empty())) {
        const StepCandidate& chosen = plan.zero->plan().candidate;
        base.gradientCheckpointing = chosen.checkpointing;
        base.checkpointLayers = chosen.checkpointing ? chosen.checkpointLayers : 0;
        base.fusedLoss = chosen.loss == LossImpl::Fused;
        if (plan.job.step && plan.job.step->moe.moe())
            base.planNote = moeLaunchNote(*plan.job.step, chosen, a);
        if (plan.job.step)
            base.planNote += longContextLaunchNote(*plan.job.step, chosen, a);
        base.sequenceParallel = chosen.sequenceParallel;
    }
    if (const std::string checkpointing = a.text("training.activation_checkpointing");
        a.has("training.activation_checkpointing") && checkpointing != "auto") {
        base.gradientCheckpointing = checkpointing == "on";
        base.checkpointLayers = 0;
    }
    base.fusedLoss = base.fusedLoss || a.text("model.loss_impl") == "fused";
    base.attention = a.text("model.attention_impl");
    return base;
}

nlohmann::ordered_json toJson(const Plan& plan, const std::string& onlyWorkflow)
{
    oj j;
    j["config"] = plan.config;
    j["job"] = toJson(plan.job);
    j["workflows"] = oj::object();
    for (const auto& advice : plan.workflows) {
        if (!onlyWorkflow.empty() && advice.workflow != onlyWorkflow)
            continue;
        oj& out = j["workflows"][advice.workflow] = toJson(advice);
        if (advice.workflow == "zero" && plan.zero) { // the decision beside its explanation
            oj decision = toJson(*plan.zero);
            for (auto& [key, value] : decision.items())
                out[key] = std::move(value);
        }
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

} // namespace dsw
