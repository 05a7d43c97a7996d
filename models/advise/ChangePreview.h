#pragma once
// What an Apply button would change, shown before it is applied: the answers it sets and the ZeRO page's chosen plan
// (the step model's memory per GPU and time per step, advise/ZeroDecision.h) before and after. Pure: the same answers
// and change give the same preview.
#include "advise/MemoryPlan.h"
#include "project/Answers.h"

#include <cstddef>
#include <cstdint>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

namespace dsw {

// One answer Apply sets; a null value clears it (back to the default).
struct AnswerEdit {
    std::string id;
    nlohmann::json value;
    bool operator==(const AnswerEdit&) const = default;
};

// The ZeRO page's chosen plan for some answers, as the step model sizes it.
struct PlanFigures {
    bool sized = false; // false: the answers cannot be sized (the reason is in `label`)
    std::int64_t gpuBytes = 0;
    double stepSeconds = 0;
    bool fits = false;
    std::string label; // "ZeRO-3 + CPU offload (optimizer), micro-batch 2 × 4, checkpointing"
};

struct ChangePreview {
    std::string title;
    std::vector<AnswerEdit> edits;  // what Apply sets, in order; empty when nothing can be applied
    std::string cannotApply;        // why there is nothing to apply (no answer holds the change), else empty
    std::vector<std::string> notes; // parts of the change that no answer holds (copy them by hand)
    // The ZeRO page's chosen plan before and after; for an out-of-memory step, the failed run without and with it.
    PlanFigures before, after;
    bool againstFailedRun = false;
};

PlanFigures planFigures(const Answers& answers);
// `answers` with the edits applied.
Answers withEdits(Answers answers, const std::vector<AnswerEdit>& edits);
// The preview of `edits` on `answers` (edits equal to the current answer are dropped).
ChangePreview previewEdits(const Answers& answers, std::string title, std::vector<AnswerEdit> edits);

// The out-of-memory plan's step `index` alone on the failed run (Plan::failedRun): Apply sets the failed run's setup
// with this one change (stage, offload, checkpointing, batch and kernels, so the ZeRO page does not re-plan around
// it) and keeps memory.ran_* as they describe the failed run. The figures are the step model's for the failed run
// without and with the step.
ChangePreview previewRemedy(const Answers& answers, const memory::FailedRun& failed,
                            const std::vector<memory::Remedy>& steps, std::size_t index);

// Pasting an out-of-memory message into an empty field: the message, and each memory.ran_* answer that is not given
// set to what the project's config has now (the failed run, frozen). Only the message when one was there already.
std::vector<AnswerEdit> pasteMessageEdits(const Answers& answers, const std::string& message);

// An import suggestion: `pointer` in the config set to `to`. The answer that holds that key (zero.stage for
// /zero_optimization/stage, ...) is set with it; a key no answer holds changes nothing the step model sizes.
ChangePreview previewConfigChange(const Answers& answers, const std::string& pointer, const nlohmann::ordered_json& to);

} // namespace dsw
