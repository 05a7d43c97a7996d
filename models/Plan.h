#pragma once
#include "advise/Advice.h"
#include "advise/ConfigComposer.h"
#include "advise/Job.h"
#include "advise/MemoryPlan.h"
#include "advise/PipelineAdvisor.h"
#include "advise/ZeroDecision.h"
#include "config/ConfigExport.h"
#include "config/ImportedConfigPlan.h"
#include "estimate/PartitionMemo.h"
#include "lint/ConfigLinter.h"
#include "project/Answers.h"
#include "project/ProjectFile.h"

#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

namespace dsw {

// Everything the wizard says about one set of answers. Recomputed whole on every edit: it is arithmetic.
// The typed members are what the pages and views read; each workflow's Advice explains them, and its `details` are
// written for `recommend --format json` only.
struct Plan {
    Job job;                                    // the answers resolved once
    std::optional<ZeroDecision> zero;           // the ZeRO page's decision; none when the job cannot be sized
    PipelineStages pipeline;                    // the pipeline page's stages (no parts without a pipeline plan)
    std::optional<memory::FailedRun> failedRun; // the out-of-memory page's run, once a message is read
    std::vector<memory::Remedy> remedies;       // the out-of-memory page's changes, each alone on failedRun
    std::vector<Advice> workflows;              // in the order of workflowIds()
    nlohmann::ordered_json config;              // the composed ds_config
    std::vector<Finding> findings;              // between workflows
    std::vector<std::string> inputErrors;       // answers that do not validate
    std::string basis;                          // "Based on DeepSpeed 0.19.5's documentation and code; ..."
    std::vector<Suggestion> suggestions;        // for an imported config: what the wizard would change
    std::vector<std::string> suggestionsNeed;   // for an imported config: inputs the suggestions wait for (ids)
    std::vector<LintFinding> lint;              // the linter on `config` (with lines of its 2-space dump)

    const Advice* find(const std::string& workflow) const;
};

// The workflows built so far, in wizard order (ids from DESIGN.md).
const std::vector<std::string>& workflowIds();
std::string workflowTitle(const std::string& id);

// `partitioning`: how much of a balanced pipeline partition is computed now (advise/PipelineAdvisor.h); the
// default is the command line's, the window passes kWindowPartitionPolicy.
Plan makePlan(const Answers& answers, const PartitionPolicy& partitioning = {});
// For a project imported from a ds_config, `config` is that config with the accepted suggestions only.
Plan makePlan(const Project& project, const PartitionPolicy& partitioning = {});

// What the exported launch.sh needs from the plan beyond the config: whether it checkpoints activations (the
// answer when given, else the ZeRO page's chosen plan; not known for an import whose model or cluster is not
// given) and the attention kernel it was sized for. `base` supplies the rest (the training script).
ExportOptions exportOptionsFor(const Plan& plan, const Project& project, ExportOptions base = {});

// `ds-wizard recommend --format json`; `onlyWorkflow` limits "workflows" to one id when not empty.
nlohmann::ordered_json toJson(const Plan& plan, const std::string& onlyWorkflow = {});

} // namespace dsw
