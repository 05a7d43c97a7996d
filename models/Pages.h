#pragma once
#include "Plan.h"
#include "project/ProjectFile.h"

#include <string>
#include <vector>

namespace dsw {

// How a wizard step stands, as the sidebar shows it. Changed: reviewed, but its advice differs now from what was
// reviewed. NotUsed: an optional workflow none of whose own inputs were given (the OOM diagnosis without a message).
enum class PageState { NotVisited, Complete, NeedsInput, Conflict, Changed, NotUsed };

// The wizard's steps: "setup", each workflow id, "summary".
std::vector<std::string> wizardPages();
std::string pageTitle(const std::string& step);

// Setup is complete when every answer validates; a workflow shows a conflict when one of its checks
// failed or a finding names it; needs input when inputs are missing (not used when every missing input is one of
// its own page's and none of those was given); complete once handled with the advice it has now, changed when
// handled with other advice.
PageState pageState(const Plan& plan, const Project& project, const std::string& step);
std::string toString(PageState state);

// What a done mark records: a short hash of the decision the user reviewed (the config fragment the page writes, its
// status and each check's verdict), not its wording: a headline reworded or a figure in a sentence that moved leaves
// it as it was. Marks written with the earlier hash, which included the headline, are still recognised.
std::string adviceFingerprint(const Advice& advice);

// Whether `config` holds every value of `fragment` at the same place (an empty fragment is held by any config).
bool configContains(const nlohmann::ordered_json& config, const nlohmann::ordered_json& fragment);

// The Summary's words for one workflow: its state, and whether the config contains its recommendation.
std::string reviewText(const Plan& plan, const Project& project, const std::string& workflow);

// The status a page shows about itself while the user is on it: never "not visited".
std::string pageStatus(const Plan& plan, const Project& project, const std::string& step);

// An input the user did not give whose value the config was written with (the batch the ZeRO page chose, the
// accumulation derived from the global batch): the form shows it as derived, never the registry's default.
struct DerivedInput {
    std::string id;
    nlohmann::json value;
    std::string why;
};
std::vector<DerivedInput> derivedInputs(const Plan& plan, const Answers& answers);

// The inputs on `step`'s page that it does not ask with these answers, so the form hides them: on the out-of-memory
// page the failed run's parameter offload when the stage it ran is 0–2, and its optimizer offload at stage 0, where
// DeepSpeed reads neither (advise/MemoryPlan.h, RanSetup::notAsked); on Setup the LoRA answers for a full fine-tune
// and double quantization but for QLoRA. Empty for every other page.
std::vector<std::string> inputsNotAsked(const Plan& plan, const Answers& answers, const std::string& step);

// When an edit of `editedId` changed the config's train_batch_size though no batch input was edited (pipeline
// stages or GPUs change the data-parallel size), the sentence that says so; empty otherwise.
std::string batchChangeNote(const nlohmann::ordered_json& before, const nlohmann::ordered_json& after,
                            const std::string& editedId);

} // namespace dsw
