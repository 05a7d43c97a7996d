#include "Pages.h"

#include "project/InputLabels.h"
#include "project/InputRegistry.h"

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <set>

namespace dsw {

std::vector<std::string> wizardPages()
{
    std::vector<std::string> steps = {"setup"};
    steps.insert(steps.end(), workflowIds().begin(), workflowIds().end());
    steps.push_back("summary");
    return steps;
}

std::string pageTitle(const std::string& step)
{
    if (step == "setup")
        return "Setup";
    if (step == "summary")
        return "Summary";
    if (step == "zero")
        return "ZeRO";
    return workflowTitle(step);
}

namespace {

// Optional: every input it still needs is asked on its own page, and the user gave none of that page's inputs.
bool unused(const Advice& advice, const Project& project)
{
    if (advice.missing.empty())
        return false;
    for (const auto& id : advice.missing) {
        const InputSpec* spec = InputRegistry::instance().find(id);
        if (!spec || spec->page != advice.workflow)
            return false;
    }
    for (const InputSpec* spec : InputRegistry::instance().onPage(advice.workflow))
        if (project.answers.has(spec->id))
            return false;
    return true;
}

// FNV-1a, 64 bits, of the parts with a separator no UTF-8 text contains: stable across runs and platforms (std::hash
// is neither).
std::string fnv1a(const std::vector<std::string>& parts)
{
    std::uint64_t h = 14695981039346656037ULL;
    for (const std::string& s : parts) {
        for (const unsigned char c : s) {
            h ^= c;
            h *= 1099511628211ULL;
        }
        h ^= 0xff;
        h *= 1099511628211ULL;
    }
    char buf[17];
    std::snprintf(buf, sizeof buf, "%016llx", static_cast<unsigned long long>(h));
    return buf;
}

// What files written before the decision-only fingerprint hold: the headline's words were part of it.
std::string wordedFingerprint(const Advice& advice)
{
    return fnv1a({advice.workflow, advice.headline, advice.fragment.dump()});
}

} // namespace

PageState pageState(const Plan& plan, const Project& project, const std::string& step)
{
    if (step == "setup")
        return plan.inputErrors.empty() ? PageState::Complete : PageState::NeedsInput;
    const Advice* advice = plan.find(step);
    if (!advice)
        return PageState::NotVisited;
    const bool conflict =
        advice->hasFailedCheck() || std::any_of(plan.findings.begin(), plan.findings.end(), [&](const Finding& f) {
            return std::find(f.workflows.begin(), f.workflows.end(), step) != f.workflows.end();
        });
    if (conflict)
        return PageState::Conflict;
    if (advice->status == AdviceStatus::NeedsInput)
        return unused(*advice, project) ? PageState::NotUsed : PageState::NeedsInput;
    const HandledWorkflow* handled = project.handledEntry(step);
    if (!handled)
        return PageState::NotVisited;
    // A mark from a file written before fingerprints existed cannot be compared: it stands.
    const std::string& reviewed = handled->fingerprint;
    const bool same =
        reviewed.empty() || reviewed == adviceFingerprint(*advice) || reviewed == wordedFingerprint(*advice);
    return same ? PageState::Complete : PageState::Changed;
}

std::string toString(PageState state)
{
    switch (state) {
    case PageState::NotVisited: return "not visited";
    case PageState::Complete: return "complete";
    case PageState::NeedsInput: return "needs input";
    case PageState::Conflict: return "conflict";
    case PageState::Changed: return "changed since you reviewed it";
    case PageState::NotUsed: return "not used";
    }
    return "";
}

std::string adviceFingerprint(const Advice& advice)
{
    // The decision, not its wording: what the page writes, whether it is complete, and each check's verdict.
    std::vector<std::string> parts = {advice.workflow, std::to_string(static_cast<int>(advice.status)),
                                      advice.fragment.dump()};
    for (const Check& c : advice.checks)
        parts.push_back(c.code + "=" + std::to_string(static_cast<int>(c.level)));
    return "d" + fnv1a(parts);
}

bool configContains(const nlohmann::ordered_json& config, const nlohmann::ordered_json& fragment)
{
    if (!fragment.is_object())
        return config == fragment;
    if (!config.is_object())
        return fragment.empty();
    for (const auto& [key, value] : fragment.items()) {
        const auto it = config.find(key);
        if (it == config.end() || !configContains(*it, value))
            return false;
    }
    return true;
}

std::string reviewText(const Plan& plan, const Project& project, const std::string& workflow)
{
    const Advice* advice = plan.find(workflow);
    if (!advice)
        return "not built yet";
    const PageState state = pageState(plan, project, workflow);
    std::string what;
    switch (state) {
    case PageState::Conflict: {
        std::string failed;
        for (const auto& c : advice->checks)
            if (c.level == CheckLevel::Fail)
                failed += (failed.empty() ? "" : "; ") + c.message;
        for (const auto& f : plan.findings)
            if (std::find(f.workflows.begin(), f.workflows.end(), workflow) != f.workflows.end())
                failed += (failed.empty() ? "" : "; ") + f.message;
        return "conflict: " + withInputLabels(failed);
    }
    // The inputs are not named here: the Summary names and links them on the next line ("Go to: …").
    case PageState::NeedsInput: return "needs input";
    case PageState::NotUsed: return "not used (optional)";
    case PageState::Complete: what = "done"; break;
    case PageState::Changed: what = "changed since you reviewed it"; break;
    case PageState::NotVisited:
        if (advice->status == AdviceStatus::NotApplicable)
            return "not applicable to these answers";
        what = "not reviewed yet";
        break;
    }
    if (advice->recommendsAgainst)
        return what + "; recommends against it, so the config has nothing from it";
    // An imported config keeps its own values: the page's advice waits in Findings as suggestions.
    if (const auto pending = std::count_if(plan.suggestions.begin(), plan.suggestions.end(),
                                           [&](const Suggestion& s) { return s.workflow == workflow && !s.accepted; });
        pending > 0)
        return what + "; " + std::to_string(pending) + (pending == 1 ? " suggested change" : " suggested changes")
            + " to the imported config, in Findings";
    if (advice->fragment.empty())
        return what + "; nothing to add to the config";
    return what
        + (configContains(plan.config, advice->fragment) ? "; its recommendation is applied in the config"
                                                         : "; the config does not contain its recommendation");
}

std::string pageStatus(const Plan& plan, const Project& project, const std::string& step)
{
    const PageState state = pageState(plan, project, step);
    const HandledWorkflow* handled = project.handledEntry(step);
    switch (state) {
    case PageState::NotVisited: return "not reviewed yet (Next marks it reviewed)";
    case PageState::Complete: return handled ? "reviewed " + handled->at : "complete";
    case PageState::Changed:
        return "changed since you reviewed it" + (handled ? " at " + handled->at : std::string())
            + " (Next marks the new advice reviewed)";
    default: return toString(state);
    }
}

std::vector<DerivedInput> derivedInputs(const Plan& plan, const Answers& answers)
{
    struct Key {
        const char* id;
        const char* configKey;
        const char* why;
    };
    // Without a ZeRO decision (a model not sized) no page chose the micro-batch: the batch answers or the default did.
    const Key keys[] = {
        {"training.micro_batch_size", "train_micro_batch_size_per_gpu",
         plan.zero ? "chosen by the ZeRO page: the step model's best micro-batch"
                   : "the default, or global batch ÷ data-parallel GPUs: no plan was sized to choose one"},
        {"training.gradient_accumulation_steps", "gradient_accumulation_steps",
         "global batch ÷ (micro-batch × data-parallel GPUs)"},
        {"training.global_batch_size", "train_batch_size", "micro-batch × accumulation × data-parallel GPUs"}};
    std::vector<DerivedInput> out;
    for (const Key& k : keys) {
        if (answers.has(k.id) || !plan.config.is_object() || !plan.config.contains(k.configKey)
            || !plan.config.at(k.configKey).is_number_integer())
            continue; // typed by the user, or not a number (an imported "auto")
        out.push_back({k.id, plan.config.at(k.configKey), k.why});
    }
    return out;
}

std::vector<std::string> inputsNotAsked(const Plan& plan, const Answers& answers, const std::string& step)
{
    if (step == "setup") {
        // The adapters' answers are read only by the method that has adapters; double quantization only by QLoRA.
        std::vector<std::string> notAsked;
        // The rest of an MoE shape only for a mixture of experts.
        static const std::set<std::string> moeShape = {"model.experts_per_token",  "model.expert_intermediate_size",
                                                       "model.shared_experts",     "model.dense_layers",
                                                       "model.moe_layer_interval", "moe.mode",
                                                       "moe.expert_parallel_size", "moe.autoep_preset"};
        for (const InputSpec* spec : InputRegistry::instance().onPage("setup"))
            if ((spec->id.rfind("lora.", 0) == 0
                 && (plan.job.method == TrainingMethod::Full
                     || (spec->id == "lora.double_quant" && plan.job.method != TrainingMethod::Qlora)))
                || (moeShape.count(spec->id) && plan.job.experts <= 1))
                notAsked.push_back(spec->id);
        return notAsked;
    }
    if (step != "memory")
        return {};
    return memory::ranSetupFrom(answers, memory::configSetup(plan.job, plan.zero ? &*plan.zero : nullptr)).notAsked;
}

std::string batchChangeNote(const nlohmann::ordered_json& before, const nlohmann::ordered_json& after,
                            const std::string& editedId)
{
    if (editedId.rfind("training.", 0) == 0 || !before.is_object() || !after.is_object())
        return {};
    const auto b = before.find("train_batch_size"), a = after.find("train_batch_size");
    if (b == before.end() || a == after.end() || !b->is_number_integer() || !a->is_number_integer() || *b == *a)
        return {};
    auto number = [&](const char* key) {
        const auto it = after.find(key);
        return it != after.end() && it->is_number_integer() ? std::to_string(it->get<std::int64_t>())
                                                            : std::string("?");
    };
    const std::int64_t was = b->get<std::int64_t>(), now = a->get<std::int64_t>();
    const std::int64_t micro = after.value("train_micro_batch_size_per_gpu", std::int64_t{0});
    const std::int64_t accumulation = after.value("gradient_accumulation_steps", std::int64_t{0});
    const std::string ranks = micro > 0 && accumulation > 0 && now % (micro * accumulation) == 0
        ? std::to_string(now / (micro * accumulation))
        : std::string("?");
    return "The global batch (train_batch_size) changed from " + std::to_string(was) + " to " + std::to_string(now)
        + ": “" + inputLabel(editedId) + "” changed the data-parallel size (micro-batch "
        + number("train_micro_batch_size_per_gpu") + " × accumulation " + number("gradient_accumulation_steps") + " × "
        + ranks + " data-parallel GPUs). Type “" + inputLabel("training.global_batch_size")
        + "” = " + std::to_string(was) + " to keep it.";
}

} // namespace dsw
