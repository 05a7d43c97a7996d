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
    PlanFigures before, after;
};

PlanFigures planFigures(const Answers& answers);
// `answers` with the edits applied.
Answers withEdits(Answers answers, const std::vector<AnswerEdit>& edits);
// The preview of `edits` on `answers` (edits equal to the current answer are dropped).
ChangePreview previewEdits(const Answers& answers, std::string title, std::vector<AnswerEdit> edits);

// The out-of-memory plan's step `index` (Plan::remedies): the steps build on each other, so
// applying step k sets the answers for steps 1..k together (what step k's saving assumes). The setup the job ran
// (memory.ran_*) is pinned where it followed an answer the change moves, so the diagnosis still describes the
// failed run.
ChangePreview previewRemedy(const Answers& answers, const std::vector<memory::Remedy>& steps, std::size_t index);

// An import suggestion: `pointer` in the config set to `to`. The answer that holds that key (zero.stage for
// /zero_optimization/stage, ...) is set with it; a key no answer holds changes nothing the step model sizes.
ChangePreview previewConfigChange(const Answers& answers, const std::string& pointer, const nlohmann::ordered_json& to);

} // namespace dsw
