// The job, resolved once; see Job.h.
#include "advise/Job.h"

#include "util/Count.h"

#include <algorithm>
#include <stdexcept>

namespace dsw {

namespace {

constexpr double kGiB = 1073741824.0;

nlohmann::ordered_json ruleJson(const std::optional<RuleBreak>& rule)
{
    if (!rule)
        return nullptr;
    return {{"code", rule->code}, {"message", rule->message}, {"source", rule->source}};
}

} // namespace

Job resolveJob(const Answers& a)
{
    Job j;
    j.gpu = GpuCatalog::instance().find(a.text("hardware.gpu"));
    j.precision = resolvePrecision(a.text("training.precision"), j.gpu, a.text("software.deepspeed_version"));
    j.optimizer = a.text("training.optimizer");
    j.method = trainingMethodFrom(a.text("training.method")).value_or(TrainingMethod::Full);

    ParallelLayout& l = j.layout;
    l.gpusPerNode = static_cast<int>(std::max<std::int64_t>(1, a.integer("hardware.gpus_per_node")));
    l.nodes = static_cast<int>(std::max<std::int64_t>(1, a.integer("hardware.nodes")));
    l.world = std::int64_t{l.gpusPerNode} * l.nodes;
    l.pipeline = std::max<std::int64_t>(1, a.integer("pipeline.stages"));
    l.data = std::max<std::int64_t>(1, l.world / (l.pipeline * l.tensor * l.sequence));
    j.zeroLimit = zeroStageCap(j.optimizer, l.pipeline);
    j.adapters.method = j.method;
    j.adapters.pipelineStages = l.pipeline;
    j.adapters.modulesToSave = !a.text("lora.modules_to_save").empty();
    j.adapters.dtype = torchDtypeOf(j.precision.runs);
    j.adapters.deepspeedVersion = a.text("software.deepspeed_version");

    j.batch = batchKeys(a);
    j.experts = std::max<std::int64_t>(1, a.integer("model.experts"));
    try {
        j.step = stepJobFrom(a);
    } catch (const std::invalid_argument& e) { // the model's shape contradicts itself: nothing can be sized
        j.shapeError = e.what();
    }
    j.gpuCapacityBytes = a.number("hardware.gpu_memory_gib") * kGiB;
    if (j.experts > 1) { // a mixture of experts: sized with every expert (StepJob::moe), never as the dense shape
        if (j.step)
            j.moeCounts = j.step->moe.counts;
        j.notModelled = moeNotModelled(j.layout.pipeline, j.step ? &*j.step : nullptr);
        if (!j.notModelled.empty())
            j.step.reset();
    }
    j.capacityNote = a.has("hardware.gpu_memory_gib") || !j.gpu ? "as given" : j.gpu->usableNote();
    j.usableGpuBytes = j.gpuCapacityBytes; // what PyTorch reports; kTightBand says how close is tight
    j.hostBytesPerNode = a.number("hardware.cpu_memory_gib") * kGiB;
    return j;
}

std::string moeNotModelled(std::int64_t pipelineStages, const StepJob* step)
{
    // Sources (resources/knowledge/sources.tsv): ds-moe-tutorial, ds-estimators.
    std::string what;
    if (pipelineStages > 1)
        what = "a pipeline of " + std::to_string(pipelineStages)
            + " stages (pipeline.stages): the pipeline page splits layers by the dense shape's count, and an MoE "
              "layer holds many times more";
    else if (step && step->method.method != TrainingMethod::Full
             && std::any_of(step->adapters.targets.begin(), step->adapters.targets.end(), [](LinearModule m) {
                    return m == LinearModule::Gate || m == LinearModule::Up || m == LinearModule::Down;
                }))
        what = "adapters on the MLP (lora.targets): each expert's MLP would carry its own, and the adapter count "
               "reads one MLP per layer";
    if (what.empty())
        return {};
    std::string size;
    if (step) {
        const MoeCounts& n = step->moe.counts;
        size = " It has " + formatCount(n.total) + " parameters (" + formatCount(n.active)
            + " used per token), counted from its shape; its 16-bit weights alone are "
            + formatGiB(2.0 * static_cast<double>(n.total)) + ".";
    }
    return "This mixture of experts is not sized with " + what + ", so no memory, step time or fit is given for it."
        + size + " What you can do: train it without a pipeline"
        + (pipelineStages > 1 ? "" : " and with adapters on the attention only (lora.targets attention)")
        + ", or count its model states with DeepSpeed's estimator on the real model "
          "(deepspeed.runtime.zero.stage3.estimate_zero3_model_states_mem_needs_all_live(model, num_gpus_per_node, "
          "num_nodes), which counts every expert's parameters but not the activations).";
}

Check Job::unsizedCheck() const
{
    if (!notModelled.empty())
        return {CheckLevel::Fail, "moe-not-modelled", notModelled, "ds-moe-tutorial"};
    return {CheckLevel::Fail, "model-shape-invalid", shapeError, ""};
}

nlohmann::ordered_json toJson(const Job& j)
{
    nlohmann::ordered_json out;
    out["gpu"] = j.gpu ? nlohmann::ordered_json(j.gpu->id) : nlohmann::ordered_json(nullptr);
    out["precision"] = {{"asked", j.precision.asked},
                        {"runs", j.precision.runs},
                        {"reason", j.precision.reason},
                        {"refused", ruleJson(j.precision.refused)}};
    out["zero_stage_limit"] = {{"max_stage", j.zeroLimit.maxStage}, {"rule", ruleJson(j.zeroLimit.rule)}};
    out["layout"] = {{"gpus_per_node", j.layout.gpusPerNode},
                     {"nodes", j.layout.nodes},
                     {"world", j.layout.world},
                     {"data_parallel", j.layout.data},
                     {"pipeline_parallel", j.layout.pipeline},
                     {"tensor_parallel", j.layout.tensor},
                     {"sequence_parallel", j.layout.sequence},
                     {"expert_parallel", j.layout.expert}};
    if (j.step) { // the model as the step model sizes it
        const TransformerShape& s = j.step->shape;
        out["model"] = {{"params_per_stage", j.step->params},
                        {"layers", s.layers},
                        {"hidden", s.hidden},
                        {"heads", s.heads},
                        {"kv_heads", s.kvHeads},
                        {"intermediate", s.intermediate},
                        {"vocab", s.vocab},
                        {"seq_len", j.step->seqLen},
                        {"attention", std::string(toString(j.step->attention))},
                        {"loss", std::string(toString(j.step->loss))}};
    } else {
        out["model"] = nullptr;
    }
    out["training_method"] = std::string(toString(j.method));
    if (j.step)
        out["trainable_params"] = j.step->method.trainable;
    out["optimizer"] = j.optimizer;
    out["gpu_capacity_bytes"] = j.gpuCapacityBytes;
    out["gpu_capacity_note"] = j.capacityNote;
    out["gpu_usable_bytes"] = j.usableGpuBytes;
    out["host_bytes_per_node"] = j.hostBytesPerNode;
    out["shape_error"] = j.shapeError.empty() ? nlohmann::ordered_json(nullptr) : nlohmann::ordered_json(j.shapeError);
    out["experts"] = j.experts;
    // A mixture of experts' counts from its shape (knowledge/MoeShape.h): every expert, and one token's share.
    out["total_params"] = j.moeCounts ? nlohmann::ordered_json(j.moeCounts->total) : nlohmann::ordered_json(nullptr);
    out["active_params"] = j.moeCounts ? nlohmann::ordered_json(j.moeCounts->active) : nlohmann::ordered_json(nullptr);
    out["not_modelled"] =
        j.notModelled.empty() ? nlohmann::ordered_json(nullptr) : nlohmann::ordered_json(j.notModelled);
    return out;
}

} // namespace dsw
