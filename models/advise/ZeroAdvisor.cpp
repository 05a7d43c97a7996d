#include "advise/ZeroAdvisor.h"
#include "util/JsonAccess.h"

#include "advise/BatchKeys.h"
#include "estimate/ActivationMemory.h"
#include "estimate/DeepSpeedEstimator.h"
#include "estimate/ZeroPaperMemory.h"
#include "knowledge/DeepSpeedFacts.h"
#include "knowledge/SourceCatalog.h"
#include "util/Count.h"
#include "util/Version.h"

#include <algorithm>
#include <cmath>

namespace dsw {

namespace {

using oj = nlohmann::ordered_json;
constexpr double kGiB = 1073741824.0;

std::string gib(double bytes) { return formatGiB(bytes); }

oj offloadBlock(const std::string& device, const Answers& a)
{
    oj block{{"device", device}};
    if (device == "nvme")
        block["nvme_path"] = a.text("hardware.nvme_path");
    block["pin_memory"] = true; // written explicitly: the default changed to true in 0.19.5
    return block;
}

oj zeroFragment(const ZeroOption& o, const Answers& a)
{
    oj zero{{"stage", o.stage}};
    if (o.stage >= 1) {
        zero["overlap_comm"] = o.stage >= 2; // explicit: DeepSpeed's default depends on the stage
        zero["contiguous_gradients"] = true;
    }
    if (o.offloadOptimizer != "none")
        zero["offload_optimizer"] = offloadBlock(o.offloadOptimizer, a);
    if (o.offloadParam != "none")
        zero["offload_param"] = offloadBlock(o.offloadParam, a);
    oj fragment{{"zero_optimization", zero}};
    if (o.offloadOptimizer == "nvme" || o.offloadParam == "nvme") {
        const auto& defaults = deepspeedKnowledge().at("aio_defaults");
        oj aio;
        aio["block_size"] = defaults.at("block_size");
        aio["queue_depth"] = defaults.at("queue_depth");
        // Renamed in 0.16.4; the old key is silently ignored by newer versions.
        const bool renamed = versionAtLeast(a.text("software.deepspeed_version"), "0.16.4");
        aio[renamed ? "intra_op_parallelism" : "thread_count"] = defaults.at("intra_op_parallelism");
        aio["single_submit"] = defaults.at("single_submit");
        aio["overlap_events"] = defaults.at("overlap_events");
        fragment["aio"] = aio;
    }
    return fragment;
}

// The documented rules for a zero_optimization block (deepspeed-facts §2.6), as messages for each one broken.
std::vector<std::string> capabilityViolations(const oj& zero)
{
    std::vector<std::string> out;
    const int stage = valueOr(zero, "stage", 0);
    for (const char* key : {"offload_optimizer", "offload_param"}) {
        if (!zero.contains(key))
            continue;
        const auto& block = zero.at(key);
        const std::string device = valueOr(block, "device", std::string("none"));
        if (device != "none" && stage == 0)
            out.push_back(std::string(key) + " needs ZeRO stage 1 or higher.");
        if (std::string(key) == "offload_param" && device != "none" && stage != 3)
            out.push_back("offload_param is valid only with stage 3.");
        if (device == "nvme" && stage != 3)
            out.push_back(std::string(key) + ": " + quoteExcerpt("ds-offload-stages", "NVMe offloading"));
        if (device == "nvme" && valueOr(block, "nvme_path", std::string()).empty())
            out.push_back(std::string(key) + ": NVMe offload needs nvme_path.");
    }
    return out;
}

oj optionJson(const ZeroOption& o)
{
    return oj{{"stage", o.stage},
              {"offload_optimizer", o.offloadOptimizer},
              {"offload_param", o.offloadParam},
              {"activation_checkpointing", o.checkpointing},
              {"gpu_model_states_bytes", o.gpuModelStates},
              {"activations_bytes", o.activations},
              {"gpu_total_bytes", o.gpuTotal},
              {"cpu_per_node_bytes", o.cpuPerNode},
              {"nvme_per_node_bytes", o.nvmePerNode},
              {"gpu_formula", o.gpuFormula},
              {"cpu_formula", o.cpuFormula},
              {"fits", o.fits()}};
}

// The per-stage table (no offload): the ZeRO paper's breakdown and DeepSpeed's estimator side by side.
oj stageTable(const Answers& a, const std::vector<ZeroOption>& options)
{
    const std::int64_t P = paramsPerPipelineStage(a);
    const int dp = static_cast<int>(std::max<std::int64_t>(1, a.dataParallelSize()));
    oj rows = oj::array();
    for (int stage = 0; stage <= 3; ++stage) {
        const auto paper = zeroPaperModelStates(P, stage, dp);
        oj row{{"stage", stage},
               {"params_bytes", paper.params},
               {"grads_bytes", paper.grads},
               {"optimizer_bytes", paper.optimizer},
               {"model_states_bytes", paper.total}};
        const ZeroOption* best = nullptr;
        for (const auto& o : options)
            if (o.stage == stage && o.offloadOptimizer == "none" && (!best || (o.fits() && !best->fits())))
                best = &o;
        if (best) {
            row["activation_checkpointing"] = best->checkpointing;
            row["activations_bytes"] = best->activations;
            row["gpu_total_bytes"] = best->gpuTotal;
            row["cpu_per_node_bytes"] = best->cpuPerNode;
            row["fits"] = best->fits();
        }
        rows.push_back(row);
    }
    return rows;
}

void addSuggestions(Advice& adv, const Answers& a)
{
    const std::int64_t P = paramsPerPipelineStage(a);
    const std::int64_t L = a.integer("model.largest_layer_params");
    const double usable = a.number("hardware.gpu_memory_gib") * kGiB * (1 - kGpuReserveFraction);
    const double room = usable - 4.0 * L - static_cast<double>(activationBytes(activationInputsFor(a, 1), true));
    std::string what;
    if (room > 0) {
        const auto gpus = static_cast<std::int64_t>(std::ceil(16.0 * static_cast<double>(P) / room));
        const std::int64_t G = a.integer("hardware.gpus_per_node");
        what += "ZeRO-3 without offload, micro-batch 1 and activation checkpointing would fit on "
            + std::to_string(gpus) + " GPUs (" + std::to_string((gpus + G - 1) / G) + " nodes of " + std::to_string(G)
            + "). ";
    } else {
        what += "Even one sample's activations and the largest layer exceed a GPU: use a GPU with more memory, "
                "a shorter sequence, or tensor/sequence parallelism. ";
    }
    if (a.text("hardware.nvme") != "nvme" || a.text("hardware.nvme_path").empty())
        what += "A local NVMe SSD (hardware.nvme = nvme with hardware.nvme_path) allows ZeRO-Infinity offload. ";
    if (a.integer("training.micro_batch_size") > 1)
        what += "A smaller micro-batch with more gradient accumulation cuts activation memory. ";
    adv.checks.push_back({CheckLevel::Fail, "zero-nothing-fits",
                          "No ZeRO stage or offload fits this model on this hardware. " + what, "ds-estimators"});
}

void addTradeoffs(Advice& adv, const ZeroOption& chosen, const Answers& a)
{
    const double P = static_cast<double>(paramsPerPipelineStage(a));
    const double dp = static_cast<double>(std::max<std::int64_t>(1, a.dataParallelSize()));
    const double base = 2 * P * 2; // 2Ψ elements, 2 bytes each (fp16/bf16 communication)
    adv.tradeoffs.push_back({"Memory against communication",
                             "Stages 0–2 move 2Ψ elements per step (" + gib(base) + " in 16-bit); stage 3 moves 3Ψ ("
                                 + gib(base * 1.5) + "), 1.5× as much, to divide parameters as well over the "
                                 + std::to_string(static_cast<int>(dp)) + " GPUs.",
                             "zero-paper-comm"});
    if (chosen.offloadOptimizer != "none") {
        const double perGpu = 2 * P * 2 / dp; // fp16 gradients to the host, updated fp16 parameters back
        std::string text = "Optimizer offload moves about " + gib(perGpu)
            + " per GPU per step over PCIe (16-bit gradients out, updated parameters back), and the optimizer step "
              "runs on the CPU (DeepSpeedCPUAdam).";
        if (chosen.offloadParam != "none")
            text += " Parameter offload also fetches about " + gib(2 * P * 2 / dp)
                + " per GPU per step (parameters for the forward and the backward pass).";
        adv.tradeoffs.push_back({"Offload traffic", text, "zero-offload-paper"});
    }
    if (chosen.checkpointing)
        adv.tradeoffs.push_back({"Activation checkpointing",
                                 "Keeps only each layer's input and recomputes the rest in the backward pass: "
                                 "about one extra forward pass, quoted as 33% re-computation overhead.",
                                 "zero-paper-ckpt"});
    if (chosen.offloadOptimizer == "nvme" || chosen.offloadParam == "nvme")
        adv.tradeoffs.push_back({"SSD wear", "DeepSpeed warns: " + quoteOf("ds-nvme-endurance"), "ds-nvme-endurance"});
}

} // namespace

Advice adviseZero(const Answers& a)
{
    Advice adv;
    adv.workflow = "zero";
    adv.status = AdviceStatus::Complete;
    const auto options = zeroOptions(a);
    const ZeroStageLimit limit = zeroStageLimit(a);
    if (!limit.code.empty()) {
        const std::string forced = a.text("zero.stage");
        const bool overridden = forced != "auto" && std::stoi(forced) > limit.maxStage;
        adv.checks.push_back(
            {overridden ? CheckLevel::Fail : CheckLevel::Pass,
             overridden ? (limit.maxStage == 0 ? "onebit-requires-zero-0" : "pipeline-requires-zero-0-or-1")
                        : limit.code,
             (overridden ? "zero.stage " + forced + " was asked, but it cannot be combined: " : std::string())
                 + limit.reason,
             limit.source});
    }
    auto chosenIt = std::find_if(options.begin(), options.end(), [](const ZeroOption& o) { return o.fits(); });
    const bool fits = chosenIt != options.end();
    if (!fits) // still a plan: the placement that needs least GPU memory among those the hardware allows
        chosenIt = std::min_element(options.begin(), options.end(), [](const ZeroOption& x, const ZeroOption& y) {
            return std::make_pair(!x.nvmeReady, x.gpuTotal) < std::make_pair(!y.nvmeReady, y.gpuTotal);
        });
    const ZeroOption& chosen = *chosenIt;
    for (const char* id : {"zero.offload_optimizer", "zero.offload_param"}) {
        const std::string asked = a.text(id);
        const std::string got =
            std::string(id) == "zero.offload_optimizer" ? chosen.offloadOptimizer : chosen.offloadParam;
        if (asked != "auto" && asked != got)
            adv.checks.push_back({CheckLevel::Fail, "zero-offload-not-possible",
                                  std::string(id) + " = " + asked + " cannot be combined with the allowed stages: "
                                      + quoteOf("ds-offload-stages") + " and offload_param is valid only with stage 3.",
                                  "ds-offload-stages"});
    }
    const double capacity = a.number("hardware.gpu_memory_gib") * kGiB;
    const double usable = capacity * (1 - kGpuReserveFraction);

    adv.headline = (fits ? "Recommended: " : "Nothing fits; closest: ") + chosen.label()
        + (fits ? " (the fastest setup that fits)" : "");
    adv.fragment = zeroFragment(chosen, a);

    if (fits)
        adv.checks.push_back({CheckLevel::Pass, "zero-fits-gpu",
                              "Fits: " + gib(chosen.gpuTotal) + " of " + gib(usable) + " usable per GPU ("
                                  + gib(capacity) + " less " + std::to_string(int(kGpuReserveFraction * 100))
                                  + "% kept free for the CUDA context, communication buffers and fragmentation).",
                              "zero-paper-fragmentation"});
    else
        addSuggestions(adv, a);
    if (fits)
        adv.checks.push_back({CheckLevel::Pass, "zero-fits-cpu",
                              "Host memory: " + gib(chosen.cpuPerNode) + " needed per node of "
                                  + gib(a.number("hardware.cpu_memory_gib") * kGiB) + " (" + chosen.cpuFormula + ").",
                              "ds-estimators"});
    if (chosen.nvmePerNode > 0) {
        const double nvmeCap = a.number("hardware.nvme_capacity_gib") * kGiB;
        adv.checks.push_back(
            nvmeCap > 0 ? Check{chosen.fitsNvme ? CheckLevel::Pass : CheckLevel::Fail, "zero-fits-nvme",
                                "NVMe: " + gib(chosen.nvmePerNode) + " needed per node of " + gib(nvmeCap) + ".", ""}
                        : Check{CheckLevel::Warn, "zero-nvme-capacity-unknown",
                                "NVMe: " + gib(chosen.nvmePerNode)
                                    + " needed per node; set hardware.nvme_capacity_gib to check it.",
                                ""});
    }
    if (a.text("hardware.nvme") == "nvme" && a.text("hardware.nvme_path").empty())
        adv.checks.push_back(
            {CheckLevel::Fail, "nvme-path-missing",
             "hardware.nvme is nvme but hardware.nvme_path is empty; DeepSpeed needs nvme_path for NVMe "
             "offload, so NVMe options were not considered.",
             "ds-nvme-path"});
    const auto violations = capabilityViolations(adv.fragment.at("zero_optimization"));
    std::string broken;
    for (const auto& v : violations)
        broken += " " + v;
    adv.checks.push_back({violations.empty() ? CheckLevel::Pass : CheckLevel::Fail, "zero-documented-capabilities",
                          violations.empty()
                              ? "The recommendation aligns with documented stage capabilities and the "
                                "hardware: offload_param only at stage 3, NVMe offload only at stage 3 and "
                                "always with nvme_path, CPU offload at stages 1–3."
                              : "The ZeRO block breaks documented stage capabilities:" + broken,
                          "ds-offload-stages"});
    if (chosen.offloadOptimizer != "none")
        adv.checks.push_back({CheckLevel::Warn, "offload-pin-memory",
                              "pin_memory is written as true (the default from "
                                  + changedDefault("zero_optimization.offload_optimizer.pin_memory").from
                                  + ", false before). On hosts with a low memlock limit (ulimit -l) set it to false if "
                                    "offload runs out of memory.",
                              "ds-pin-memory"});
    if (chosen.checkpointing && a.text("training.activation_checkpointing") == "auto")
        adv.checks.push_back(
            {CheckLevel::Warn, "activation-checkpointing-needed",
             "Activations ("
                 + gib(activationBytes(activationInputsFor(a, a.integer("training.micro_batch_size")), false))
                 + " without checkpointing) do not fit, so activation checkpointing is turned on: "
                   "enable it in the model code (see the snippet).",
             "korthikanti"});
    if (chosen.stage >= 3 || chosen.offloadOptimizer != "none")
        adv.sources.push_back("ds-estimators");
    const BatchKeys batch = batchKeys(a);
    adv.checks.push_back(batch.check);

    addTradeoffs(adv, chosen, a);

    adv.estimates = {
        {"GPU memory per GPU", static_cast<double>(chosen.gpuTotal), "bytes", "model states + activations",
         "zero-paper"},
        {"Model states per GPU", static_cast<double>(chosen.gpuModelStates), "bytes", chosen.gpuFormula,
         chosen.offloadOptimizer == "none" ? "zero-paper" : "ds-estimators"},
        {"Activations per GPU", static_cast<double>(chosen.activations), "bytes",
         activationFormula(chosen.checkpointing), "korthikanti"},
        {"CPU memory per node", static_cast<double>(chosen.cpuPerNode), "bytes", chosen.cpuFormula, "ds-estimators"},
    };
    if (chosen.nvmePerNode > 0)
        adv.estimates.push_back({"NVMe per node", static_cast<double>(chosen.nvmePerNode), "bytes",
                                 "16 bytes per parameter of optimizer state (18 with fp16 parameters) / nodes",
                                 "ds-memory-docs"});

    adv.snippets.push_back({"json", "zero_optimization", adv.fragment.dump(2)});
    if (chosen.checkpointing)
        adv.snippets.push_back({"python", "Turn on activation checkpointing in the model",
                                "# Hugging Face Transformers\nmodel.gradient_checkpointing_enable()\n\n"
                                "# Plain PyTorch / DeepSpeed: wrap each transformer block\n"
                                "import deepspeed\nhidden = deepspeed.checkpointing.checkpoint(block, hidden)\n"});
    if (chosen.stage == 3)
        adv.snippets.push_back({"python", "Build the model partitioned (zero.Init) so no process holds it whole",
                                "import deepspeed\nwith deepspeed.zero.Init(config_dict_or_path=\"ds_config.json\"):\n"
                                "    model = MyModel(...)\n"});

    adv.sources.insert(adv.sources.end(), {"zero-paper", "korthikanti", "ds-offload-stages", "ds-batch"});

    const int G = static_cast<int>(a.integer("hardware.gpus_per_node"));
    const int N = static_cast<int>(a.integer("hardware.nodes"));
    oj estimatorRows = oj::array();
    for (const auto& r :
         deepSpeedEstimatorRows(paramsPerPipelineStage(a), a.integer("model.largest_layer_params"), G, N))
        estimatorRows.push_back(oj{{"stage", r.stage},
                                   {"offload_optimizer", r.offloadOptimizer},
                                   {"offload_param", r.offloadParam},
                                   {"zero_init", r.zeroInit ? oj(*r.zeroInit) : oj(nullptr)},
                                   {"gpu_bytes", r.gpuBytes},
                                   {"cpu_bytes", r.cpuBytes}});
    adv.details["recommended"] = optionJson(chosen);
    adv.details["fits"] = fits;
    adv.details["gpu_capacity_bytes"] = capacity;
    adv.details["gpu_usable_bytes"] = usable;
    adv.details["stage_table"] = stageTable(a, options);
    adv.details["deepspeed_estimator"] = estimatorRows;
    oj all = oj::array();
    for (const auto& o : options)
        all.push_back(optionJson(o));
    adv.details["options"] = all;
    return adv;
}

} // namespace dsw
