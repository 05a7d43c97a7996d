// Rules about what keys mean together (deepspeed-facts §2.2-§2.11, §3, §6): options that do nothing
// at the ZeRO stage in use, precision conflicts and hardware, pipeline and 1-bit optimizers with ZeRO,
// sparse attention on current PyTorch, and defaults that changed between DeepSpeed versions.
#include "lint/ConfigRules.h"

#include "knowledge/AdapterRules.h"
#include "knowledge/CombinationRules.h"
#include "knowledge/DeepSpeedFacts.h"
#include "knowledge/EngineFacts.h"
#include "knowledge/GpuCatalog.h"
#include "knowledge/LauncherRules.h"
#include "knowledge/SourceCatalog.h"
#include "lint/EngineRules.h"
#include "lint/LintReport.h"
#include "util/Count.h"
#include "util/Utf8.h"
#include "util/Version.h"

#include <algorithm>
#include <cctype>
#include <map>

namespace dsw {

namespace {

using oj = nlohmann::ordered_json;

std::string textAt(const LintReport& r, const std::string& pointer, const std::string& fallback = "")
{
    const oj* v = r.at(pointer);
    return v && v->is_string() ? v->get<std::string>() : fallback;
}

bool isTrue(const LintReport& r, const std::string& pointer)
{
    const oj* v = r.at(pointer);
    return v && v->is_boolean() && v->get<bool>();
}

// training.method is lora or qlora: the adapter rules speak for the ZeRO-3 save (adapters below).
bool trainsAdapters(const LintReport& r)
{
    return trainingMethodFrom(r.context().text("training.method")).value_or(TrainingMethod::Full)
        != TrainingMethod::Full;
}

void zeroForm(LintReport& r)
{
    const oj* zero = r.at("/zero_optimization");
    if (zero && zero->is_boolean())
        r.add(LintLevel::Warning, "legacy-zero-bool", "/zero_optimization",
              std::string("\"zero_optimization\": ") + zero->dump()
                  + " is the legacy form: DeepSpeed turns it into stage " + (zero->get<bool>() ? "1" : "0")
                  + " and logs " + quoteExcerpt("ds-zero-legacy", "this format", "deprecated") + ".",
              std::string("\"zero_optimization\": {\"stage\": ") + (zero->get<bool>() ? "1" : "0") + "}",
              "ds-zero-legacy");
    if (isTrue(r, "/zero_optimization/legacy_stage1"))
        r.add(LintLevel::Error, "legacy-stage1", "/zero_optimization/legacy_stage1",
              "legacy_stage1 is true: DeepSpeed raises " + quoteOf("ds-legacy-stage1"), "remove it",
              "ds-legacy-stage1");
}

// pydantic reads "" as Path("."): the config loads and the swap files land in the working directory.
void nvmePathEmpty(LintReport& r, const std::string& block)
{
    r.add(LintLevel::Warning, "nvme-path-empty", block + "/nvme_path",
          dottedPath(block)
              + ".nvme_path is \"\": pydantic reads it as Path('.'), so DeepSpeed starts and writes its "
                "NVMe swap files into the working directory (./zero_stage_3/...), not onto an NVMe drive.",
          "set \"nvme_path\" to the NVMe mount point", "ds-offload-config");
}

// Offload blocks: which device, and whether a usable nvme_path is set.
void offloadAtStage(LintReport& r, int stage)
{
    const std::string param = "/zero_optimization/offload_param";
    const std::string optimizer = "/zero_optimization/offload_optimizer";
    auto device = [&](const std::string& block) { return textAt(r, block + "/device", "none"); };
    auto pathMissing = [&](const std::string& block) { return textAt(r, block + "/nvme_path").empty(); };
    auto pathEmpty = [&](const std::string& block) {
        const oj* p = r.at(block + "/nvme_path");
        return p && p->is_string() && p->get<std::string>().empty();
    };

    // DeepSpeed's offload × stage rules (knowledge/CombinationRules.h): what it ignores or changes at this stage.
    const std::string paramDevice = r.at(param) ? device(param) : "none";
    const std::string optimizerDevice = r.at(optimizer) ? device(optimizer) : "none";
    auto known = [](const std::string& d) { return d == "cpu" || d == "nvme"; };
    const PlacementAsRun run = placementAsRun(stage, known(optimizerDevice) ? optimizerDevice : "none",
                                              known(paramDevice) ? paramDevice : "none");
    for (const RuleBreak& rule : run.ignored) {
        if (rule.code == kOffloadParamStageRule)
            r.add(LintLevel::Warning, rule.code, param, rule.message, "use stage 3, or remove offload_param",
                  rule.source);
        else if (rule.code == kOffloadStage0Rule)
            r.add(LintLevel::Warning, rule.code, optimizer, rule.message,
                  "use stage 1 or higher, or remove offload_optimizer", rule.source);
        else
            r.add(LintLevel::Warning, rule.code, optimizer + "/device", rule.message,
                  "use stage 3 for NVMe, or write \"device\": \"cpu\"", rule.source);
    }
    if (stage == 3 && paramDevice == "nvme") {
        if (pathEmpty(param))
            nvmePathEmpty(r, param);
        else if (pathMissing(param))
            r.add(LintLevel::Error, "nvme-path-missing", param,
                  "offload_param goes to NVMe without an nvme_path: DeepSpeed fails with " + quoteOf("ds-nvme-path")
                      + ".",
                  "set \"nvme_path\" to the NVMe mount point", "ds-nvme-path");
    }
    if (stage == 3 && optimizerDevice == "nvme") {
        if (pathEmpty(optimizer))
            nvmePathEmpty(r, optimizer);
        else if (pathMissing(optimizer))
            r.add(LintLevel::Error, "nvme-path-missing", optimizer,
                  "offload_optimizer goes to NVMe without an nvme_path: the config loads, but ZeRO-3 fails when it "
                  "joins the swap folder onto the missing path.",
                  "set \"nvme_path\" to the NVMe mount point", "ds-nvme-path");
    }
    const oj* ratio = r.at(optimizer + "/ratio");
    if (const auto v = ratio ? numberValue(*ratio) : std::nullopt; v && *v < 1.0 && stage != 3)
        r.add(LintLevel::Error, "partial-offload-below-stage-3", optimizer + "/ratio",
              "offload_optimizer.ratio " + shortJson(*ratio) + " at ZeRO stage " + std::to_string(stage)
                  + ": pydantic "
                    "rejects the config with "
                  + quoteOf("ds-partial-offload"),
              "use stage 3, or remove ratio", "ds-partial-offload");
}

void optionsAtStage(LintReport& r, int stage)
{
    const oj* zero = r.at("/zero_optimization");
    if (!zero || !zero->is_object())
        return;
    offloadAtStage(r, stage);
    for (auto it = zero->begin(); it != zero->end(); ++it) {
        const SchemaKey* spec = r.schema().key("zero_optimization", it.key());
        if (!spec || spec->rejected || spec->allStages || it.value().is_null() || it.key() == "offload_param"
            || it.key() == "offload_optimizer")
            continue;
        const std::string pointer = "/zero_optimization/" + pointerToken(it.key());
        if (stage == 0)
            r.add(LintLevel::Warning, "zero-option-at-stage-0", pointer,
                  "zero_optimization." + it.key()
                      + " does nothing at stage 0: ZeRO is disabled (zero_enabled is stage > 0), "
                        "so DeepSpeed builds no ZeRO optimizer to pass it to.",
                  "remove it, or choose stage 1, 2 or 3", "ds-zero-optimizer");
        else if (stage < 3 && spec->stages == std::vector<int>{3})
            r.add(LintLevel::Warning, "stage3-option-below-stage-3", pointer,
                  "zero_optimization." + it.key() + " only takes effect at stage 3; the stage-" + std::to_string(stage)
                      + " optimizer never receives it.",
                  "remove it, or use stage 3", "ds-zero-optimizer");
    }
}

// DeepSpeed asks torch.cuda.is_bf16_supported(), which from PyTorch 2.3 counts software emulation: there bf16
// on a GPU without it runs, emulated and slow; before, DeepSpeed stops. The version boundary is data.
void bf16WithoutHardware(LintReport& r, const std::string& bf16Block)
{
    const GpuSpec* gpu = GpuCatalog::instance().find(r.context().text("hardware.gpu"));
    if (!gpu || gpu->bf16)
        return;
    const VersionFact emulation = versionFact("bf16_emulation_counts");
    const std::string torch =
        r.context().has("software.torch_version") ? r.context().text("software.torch_version") : std::string();
    const std::string what = gpu->id + " (" + gpu->architecture + ", compute capability " + gpu->computeCapability
        + ") has no bf16 hardware: ";
    const std::string advice = "use fp16 with dynamic loss scaling: \"fp16\": {\"enabled\": true, \"loss_scale\": 0}";
    if (!torch.empty() && !versionAtLeast(torch, emulation.torchFrom))
        r.add(LintLevel::Error, "bf16-unsupported-gpu", bf16Block + "/enabled",
              what + "with PyTorch " + torch + " torch.cuda.is_bf16_supported() is False, so DeepSpeed stops with "
                  + quoteOf("ds-bf16-config"),
              advice, "ds-accelerator-bf16");
    else if (!torch.empty())
        r.add(LintLevel::Warning, "bf16-unsupported-gpu", bf16Block + "/enabled",
              what + "PyTorch " + torch + " (" + emulation.torchFrom
                  + " or later) counts software emulation in torch.cuda.is_bf16_supported(), so DeepSpeed accepts "
                    "bf16 and runs it emulated, far slower than fp16.",
              advice, emulation.source);
    else
        r.add(LintLevel::Warning, "bf16-unsupported-gpu", bf16Block + "/enabled",
              what + "with PyTorch " + emulation.torchFrom
                  + " or later DeepSpeed runs bf16 emulated, far slower than fp16; with an older PyTorch it stops with "
                  + quoteOf("ds-bf16-config") + " Set software.torch_version to know which.",
              advice, emulation.source);
}

void precision(LintReport& r, std::optional<int> stage)
{
    const std::optional<bool> fp16 = r.enabled("fp16");
    const std::optional<bool> bf16 = r.enabled("bf16");
    const std::string bf16Block = r.bf16Pointer();
    if (const auto rule = fp16Bf16Break(fp16.value_or(false), bf16.value_or(false)))
        r.add(LintLevel::Error, rule->code, bf16Block + "/enabled", rule->message,
              "enable only one: bf16 where the GPU has it, fp16 otherwise", rule->source);
    if (bf16.value_or(false) && r.context().has("hardware.gpu"))
        bf16WithoutHardware(r, bf16Block);
    if (isTrue(r, "/amp/enabled") && stage && *stage > 0)
        r.add(LintLevel::Error, "amp-with-zero", "/amp/enabled",
              "Apex amp with ZeRO stage " + std::to_string(*stage) + ": DeepSpeed asserts " + quoteOf("ds-amp-zero")
                  + ".",
              "use the fp16 or bf16 block instead of amp", "ds-amp-zero");
    else if (isTrue(r, "/amp/enabled") && (fp16.value_or(false) || bf16.value_or(false)))
        r.add(LintLevel::Error, "amp-with-fp16-bf16", "/amp/enabled",
              "Apex amp together with the fp16/bf16 block: DeepSpeed raises \"Cannot enable both amp with (legacy) "
              "fp16 or "
              "bfloat16 mode\".",
              "keep either amp or the fp16/bf16 block", "ds-amp-zero");
    if (stage && *stage == 0) {
        if (isTrue(r, "/fp16/fp16_master_weights_and_grads"))
            r.add(LintLevel::Error, "master-weights-need-zero", "/fp16/fp16_master_weights_and_grads",
                  "DeepSpeed asserts " + quoteOf("ds-config-sanity"), "use ZeRO stage 1 or higher", "ds-config-sanity");
        if (!bf16Block.empty() && isTrue(r, bf16Block + "/bf16_master_weights_and_grads"))
            r.add(LintLevel::Error, "master-weights-need-zero", bf16Block + "/bf16_master_weights_and_grads",
                  "DeepSpeed asserts " + quoteOf("ds-bf16-master-stage"), "use ZeRO stage 1 or higher",
                  "ds-config-sanity");
    }
    if (!bf16Block.empty() && isTrue(r, bf16Block + "/bf16_optimizer_states")
        && !isTrue(r, bf16Block + "/bf16_master_weights_and_grads"))
        r.add(LintLevel::Error, "bf16-optimizer-states-need-master-weights", bf16Block + "/bf16_optimizer_states",
              "DeepSpeed asserts \"bf16_optimizer_states requires bf16_master_weights_and_grads to be enabled.\"",
              "set \"bf16_master_weights_and_grads\": true", "ds-config-sanity");
}

// What the Hugging Face readers refuse or lose although DeepSpeed would run the config (ConfigExport.cpp writes the
// Hugging Face form so that its own exports pass; these say it for a config as written).
void hfReaders(LintReport& r, std::optional<int> stage)
{
    if (!r.launcherFillsAuto())
        return;
    if (!r.at("/zero_optimization"))
        r.add(LintLevel::Error, "hf-zero-block-missing", "",
              "There is no zero_optimization block: " + r.launcher()
                  + " stops at start-up, in Accelerate's DeepSpeedPlugin (which the Trainer builds too), with "
                    "ValueError(\""
                  + quoteOf("accelerate-zero-required") + "\").",
              "add \"zero_optimization\": {\"stage\": 0}, DeepSpeed's default (the wizard's Hugging Face export "
              "writes it)",
              "accelerate-zero-required");
    const long long stages = r.context().has("pipeline.stages") ? r.context().integer("pipeline.stages") : 0;
    if (const auto rule = pipelineLauncherBreak(r.launcher(), stages))
        r.add(LintLevel::Error, rule->code, "", "pipeline.stages is " + std::to_string(stages) + ": " + rule->message,
              "set software.launcher = deepspeed and build a PipelineModule in the script", rule->source);
    for (const char* key : {"stage3_gather_16bit_weights_on_model_save", "gather_16bit_weights_on_model_save"})
        if (stage == 3 && r.at("/zero_optimization/" + std::string(key)) && !trainsAdapters(r)
            && !isTrue(r, "/zero_optimization/" + std::string(key)))
            r.add(LintLevel::Warning, "zero3-save-not-gathered", "/zero_optimization/" + std::string(key),
                  std::string(key) + " is not true at ZeRO-3: " + r.launcher()
                      + " saves no 16-bit weights (trainer.save_model() writes none, accelerator.get_state_dict() "
                        "raises); only the partitioned checkpoint remains, for zero_to_fp32.py, which needs the fp32 "
                        "weights in host RAM.",
                  "set it true (the wizard's Hugging Face export writes true when it is absent)", "ds-zero3-save");
}

// With adapters (training.method lora or qlora) at ZeRO-3, a save without the 16-bit gather writes an empty adapter.
void adapters(LintReport& r, std::optional<int> stage)
{
    AdapterSetup setup;
    setup.method = trainingMethodFrom(r.context().text("training.method")).value_or(TrainingMethod::Full);
    setup.stage = stage.value_or(0);
    if (setup.method == TrainingMethod::Full || setup.stage != 3
        || isTrue(r, "/zero_optimization/stage3_gather_16bit_weights_on_model_save")
        || isTrue(r, "/zero_optimization/gather_16bit_weights_on_model_save"))
        return;
    for (const RuleBreak& rule : adapterRules(setup))
        if (rule.code == kAdapterSaveGatherRule)
            r.add(LintLevel::Warning, rule.code, "/zero_optimization",
                  "training.method is " + r.context().text("training.method")
                      + " and stage3_gather_16bit_weights_on_model_save is not true. " + rule.message,
                  "set \"stage3_gather_16bit_weights_on_model_save\": true in zero_optimization (the wizard's "
                  "export writes it for adapters at ZeRO-3)",
                  rule.source);
}

void pipeline(LintReport& r, std::optional<int> stage)
{
    const Answers& a = r.context();
    const long long stages = a.has("pipeline.stages") ? a.integer("pipeline.stages") : 0;
    const bool block = r.at("/pipeline") != nullptr;
    const bool pipelined = stages > 1 || (block && !a.has("pipeline.stages"));
    if (!stage || !pipelined)
        return;
    const std::string why = stages > 1 ? "With " + std::to_string(stages) + " pipeline stages (pipeline.stages)"
                                       : "The config has a \"pipeline\" block; if the model is a PipelineModule";
    if (const auto rule = pipelineZeroBreak(2, *stage)) // pipelined: stages > 1, or a pipeline block
        r.add(stages > 1 ? LintLevel::Error : LintLevel::Warning, rule->code, "/zero_optimization/stage",
              why + ": " + rule->message, "use ZeRO stage 0 or 1 with pipeline parallelism", rule->source);
    else if (*stage == 1 && isTrue(r, "/zero_optimization/overlap_comm"))
        r.add(LintLevel::Info, "pipeline-disables-overlap-comm", "/zero_optimization/overlap_comm",
              why + ", ZeRO-1's overlap_comm is switched off: " + quoteOf("ds-pipe-zero1-overlap"), std::nullopt,
              "ds-pipe-zero1-overlap");
}

void optimizer(LintReport& r, std::optional<int> stage)
{
    const std::string type = asciiLower(textAt(r, "/optimizer/type"));
    if (type.empty())
        return; // without a type DeepSpeed builds no optimizer from the config
    if (isOnebitOptimizer(type)) {
        if (const auto rule = onebitZeroBreak(textAt(r, "/optimizer/type"), stage.value_or(0)))
            r.add(LintLevel::Error, rule->code, "/optimizer/type", rule->message,
                  "set zero_optimization.stage to 0, or use Adam/AdamW with ZeRO", rule->source);
        const oj* backend = r.at("/optimizer/params/comm_backend_name");
        static const std::vector<std::string> backends = {"nccl", "mpi", "hccl", "compressed"};
        if (backend
            && (!backend->is_string()
                || std::find(backends.begin(), backends.end(), backend->get<std::string>()) == backends.end()))
            r.add(LintLevel::Error, "comm-backend-unknown", "/optimizer/params/comm_backend_name",
                  "comm_backend_name " + shortJson(*backend)
                      + " is none of nccl, mpi, hccl, compressed: the optimizer keeps "
                        "no communication backend and fails on its first use.",
                  "use \"nccl\"", "ds-onebit-backend-names");
    }
    const oj* lossScale = r.at("/fp16/loss_scale");
    if ((type == "lamb" || type == "onebitlamb") && lossScale && numberValue(*lossScale).value_or(0) != 0)
        r.add(LintLevel::Error, "lamb-needs-dynamic-loss-scale", "/fp16/loss_scale",
              "A static fp16.loss_scale (" + shortJson(*lossScale) + ") with " + textAt(r, "/optimizer/type")
                  + ": DeepSpeed asserts \"DeepSpeed " + type + " optimizer requires dynamic loss scaling\".",
              "set \"loss_scale\": 0", "ds-onebit-lamb-dls");
    if (const oj* norm = r.at("/optimizer/params/max_grad_norm"))
        r.add(LintLevel::Error, "max-grad-norm-in-optimizer", "/optimizer/params/max_grad_norm",
              "max_grad_norm in optimizer.params: DeepSpeed raises " + quoteOf("ds-max-grad-norm") + ".",
              "remove it and set \"gradient_clipping\": " + shortJson(*norm), "ds-max-grad-norm");
}

void sparseAttention(LintReport& r)
{
    if (!r.at("/sparse_attention"))
        return;
    const Answers& a = r.context();
    const Version torch = Version::parse(a.has("software.torch_version") ? a.text("software.torch_version") : "");
    const std::string deepspeed = a.has("software.deepspeed_version") ? a.text("software.deepspeed_version") : "";
    if (torch.valid() && torch.parts[0] >= 2)
        r.add(LintLevel::Error, "sparse-attention-unsupported-torch", "/sparse_attention",
              "PyTorch " + a.text("software.torch_version") + ": DeepSpeed's sparse_attn op requires "
                  + quoteExcerpt("ds-sparse-op", "a torch version", "< 2.0")
                  + " and triton==1.0.0, so sparse attention cannot run.",
              "use another long-sequence method (e.g. FlashAttention or Ulysses sequence parallelism)", "ds-sparse-op");
    else if (!deepspeed.empty() && versionAtLeast(deepspeed, torchRequirement().knownFrom))
        r.add(LintLevel::Error, "sparse-attention-unsupported-torch", "/sparse_attention",
              "DeepSpeed " + deepspeed + " requires torch>=" + torchRequirement().minimum
                  + ", while its sparse_attn op requires a torch version >= 1.5 and < 2.0: sparse attention can never "
                    "run on it.",
              "use another long-sequence method (e.g. FlashAttention or Ulysses sequence parallelism)",
              "ds-requirements");
    else
        r.add(LintLevel::Warning, "sparse-attention-legacy", "/sparse_attention",
              "DeepSpeed's sparse_attn op requires a torch version >= 1.5 and < 2.0 and triton==1.0.0 (not ROCm); "
              "DeepSpeed "
                  + torchRequirement().knownFrom + " itself requires torch>=" + torchRequirement().minimum + ".",
              "set software.torch_version to check it", "ds-sparse-op");
}

// With sequence parallelism DeepSpeed reduces gradients in seq_parallel_communication_data_type, fp32 unless set, in
// place of communication_data_type (ds-seq-comm-dtype).
void sequenceParallel(LintReport& r)
{
    const oj* sp = r.at("/sequence_parallel_size");
    if (!sp || !sp->is_number_integer() || sp->get<long long>() <= 1)
        return;
    // DeepSpeed divides the world size by it for the batch identity (ds-batch-world-size).
    const Answers& a = r.context();
    if (a.has("hardware.gpus_per_node")) {
        const long long world =
            a.integer("hardware.gpus_per_node") * (a.has("hardware.nodes") ? a.integer("hardware.nodes") : 1);
        if (world > 0 && world % sp->get<long long>() != 0)
            r.add(LintLevel::Error, "sequence-parallel-not-divisor", "/sequence_parallel_size",
                  "sequence_parallel_size " + sp->dump() + " does not divide the " + std::to_string(world)
                      + " GPUs: DeepSpeed takes the batch's world size as " + quoteOf("ds-batch-world-size")
                      + ", so no batch keys agree with it.",
                  "a divisor of the GPU count", "ds-batch-world-size");
    }
    if (r.at("/seq_parallel_communication_data_type"))
        return;
    const oj* bucket = r.at("/zero_optimization/reduce_bucket_size");
    const double elements = bucket && bucket->is_number() ? bucket->get<double>() : 5e8;
    r.add(LintLevel::Info, "seq-parallel-comm-fp32", "/sequence_parallel_size",
          "sequence_parallel_size " + sp->dump()
              + " without seq_parallel_communication_data_type: DeepSpeed reduces the gradients in fp32 (its default, "
                "in place of communication_data_type), about 2 × reduce_bucket_size × 4 B = "
              + formatGiB(2 * elements * 4) + " per GPU, twice what bf16 takes.",
          "\"seq_parallel_communication_data_type\": \"bf16\" (ALST's recipes), or keep fp32 for full-precision "
          "reduction",
          "ds-seq-comm-dtype");
}

// The block at `path` is in the config and in use (an offload with a device, an enabled bf16).
bool blockActive(const LintReport& r, const std::string& path, std::string& pointer)
{
    pointer.clear();
    std::size_t start = 0;
    while (!path.empty() && start <= path.size()) {
        const std::size_t dot = path.find('.', start);
        pointer += "/" + path.substr(start, dot == std::string::npos ? std::string::npos : dot - start);
        start = dot == std::string::npos ? path.size() + 1 : dot + 1;
    }
    if (path == "bf16")
        pointer = r.bf16Pointer();
    if (path.empty())
        return true;
    const oj* b = pointer.empty() ? nullptr : r.at(pointer);
    if (!b || !b->is_object())
        return false;
    if (path.rfind("zero_optimization.offload_", 0) == 0) {
        const std::string d = textAt(r, pointer + "/device", "none");
        return d == "cpu" || d == "nvme";
    }
    if (path == "bf16" || path == "fp16")
        return r.enabled(path).value_or(false);
    return true;
}

void changedDefaults(LintReport& r)
{
    if (!r.context().has("software.deepspeed_version"))
        return;
    const std::string version = r.context().text("software.deepspeed_version");
    for (const SchemaBlock& block : r.schema().blocks())
        for (const SchemaKey& key : block.keys) {
            std::string pointer;
            if (key.changes.empty() || !blockActive(r, block.path, pointer))
                continue;
            if (r.at(pointer + "/" + key.name) || (!key.field.empty() && r.at(pointer + "/" + key.field)))
                continue;
            const std::string name = (block.path.empty() ? "" : block.path + ".") + key.name;
            for (const SchemaKey::DefaultChange& c : key.changes) {
                const bool newDefault = versionAtLeast(version, c.from);
                r.add(newDefault && !c.quiet ? LintLevel::Warning : LintLevel::Info, "default-changed", pointer,
                      name + " is not set: DeepSpeed " + version + " uses "
                          + (newDefault ? c.newValue : c.oldValue).dump()
                          + (newDefault ? " (the default since " + c.from + "; earlier versions used "
                                     + c.oldValue.dump() + ")"
                                        : " (from " + c.from + " the default is " + c.newValue.dump() + ")")
                          + ".",
                      "set \"" + key.name + "\" explicitly", c.source);
            }
        }
}

} // namespace

void applyConfigRules(LintReport& r)
{
    const std::optional<int> stage = r.zeroStage();
    zeroForm(r);
    if (stage)
        optionsAtStage(r, *stage);
    precision(r, stage);
    lintBatchSizes(r);
    pipeline(r, stage);
    hfReaders(r, stage);
    adapters(r, stage);
    optimizer(r, stage);
    applyEngineRules(r);
    sparseAttention(r);
    sequenceParallel(r);
    changedDefaults(r);
}

} // namespace dsw
