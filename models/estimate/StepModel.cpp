#include "estimate/StepModel.h"

#include "knowledge/CombinationRules.h"
#include "knowledge/GpuCatalog.h"
#include "knowledge/NetworkCatalog.h"
#include "util/CheckedMath.h"
#include "util/Count.h"
#include "util/Version.h"

#include <algorithm>
#include <cmath>
#include <stdexcept>

namespace dsw {

namespace {

constexpr double kGiB = 1073741824.0;
// The activation model's figures are checked against tests/data/activation-reference.tsv (torch saved-tensor
// hooks); the source shown with them.
constexpr const char* kActivationSource = "activation-reference";

OffloadDevice deviceOf(const std::string& text)
{
    return text == "cpu" ? OffloadDevice::Cpu : text == "nvme" ? OffloadDevice::Nvme : OffloadDevice::None;
}

// The one resolution of training.precision (knowledge/CombinationRules.h), as the precision page writes it.
TrainingPrecision precisionOf(const Answers& a)
{
    const std::string runs =
        resolvePrecision(a.text("training.precision"), GpuCatalog::instance().find(a.text("hardware.gpu")),
                         a.text("software.deepspeed_version"))
            .runs;
    return runs == "fp16" ? TrainingPrecision::Fp16
        : runs == "fp32"  ? TrainingPrecision::Fp32
                          : TrainingPrecision::Bf16;
}

// Which of GpuBytes' rows a StateMemory component belongs to.
std::int64_t GpuBytes::*rowOf(std::string_view id)
{
    if (id == "params16" || id == "params32" || id == "frozen_params" || id == "frozen_quant_constants")
        return &GpuBytes::params;
    if (id.starts_with("grad"))
        return &GpuBytes::grads;
    if (id == "master32" || id == "adam_m" || id == "adam_v")
        return &GpuBytes::optimizer;
    if (id == "activations")
        return &GpuBytes::activations;
    if (id == "cuda_context" || id == "nccl_buffers" || id == "allocator_reserve")
        return &GpuBytes::other;
    return &GpuBytes::buffers;
}

GpuBytes breakdown(const StateMemory& m)
{
    // The peak is steady + the larger transient phase (StateMemory::gpuPeakAllocated) + reserved.
    const bool forwardPeak = m.gpuForwardBackward() >= m.gpuStep();
    GpuBytes g;
    for (const MemoryComponent& c : m.components) {
        if (c.place != MemoryPlace::Gpu)
            continue;
        if (c.phase == MemoryPhase::Transient && !(forwardPeak ? c.forwardBackward : c.step))
            continue;
        std::int64_t& row = g.*rowOf(c.id);
        row = addSat(row, c.bytes);
    }
    g.total = addSat(g.params, g.grads, g.optimizer, g.buffers, g.activations, g.other);
    return g;
}

// `sp` GPUs share each sequence (Ulysses): each holds s/sp tokens of every activation.
ActivationCase activationCase(const StepJob& job, std::int64_t microBatch, std::int64_t sp = 1, bool tiledMlp = false)
{
    ActivationCase c;
    c.shape = job.shape;
    c.seqLen = std::max<std::int64_t>(1, (job.seqLen + sp - 1) / std::max<std::int64_t>(1, sp));
    c.microBatch = microBatch;
    c.tiledMlp = tiledMlp && !job.moe.moe();
    c.attention = job.attention;
    c.dropout = job.dropout;
    c.elementBytes = job.precision == TrainingPrecision::Fp32 ? 4 : 2;
    if (job.moe.moe()) {
        c.experts = job.moe.spec.experts;
        c.expertsPerToken = job.moe.spec.expertsPerToken;
        c.expertIntermediate = job.moe.spec.expertIntermediate;
        c.sharedExperts = job.moe.spec.sharedExperts;
        c.fusedExperts = job.moe.transformers5;
    }
    if (job.method.method != TrainingMethod::Full) {
        c.adapterRank = job.adapters.rank;
        c.adapterTargets = adapterTargetsPerLayer(job.adapters);
        c.adapterInputWidth = adapterInputWidthPerLayer(job.shape, job.adapters);
        c.adapterDropout = job.adapters.dropout > 0;
    }
    return c;
}

std::string gib(double bytes) { return formatGiB(bytes); }

// training.method and lora.*: what is trained and frozen, for the whole model.
void trainingMethodOf(const Answers& a, StepJob& j)
{
    const TrainingMethod method = trainingMethodFrom(a.text("training.method")).value_or(TrainingMethod::Full);
    j.adapters.rank = std::max<std::int64_t>(1, a.integer("lora.rank"));
    j.adapters.alpha = a.number("lora.alpha");
    j.adapters.dropout = a.number("lora.dropout");
    j.adapters.targets = adapterTargetsFrom(a.text("lora.targets"), j.shape.mlp);
    j.adapters.modulesToSave = modulesToSaveFrom(a.text("lora.modules_to_save"));
    const nlohmann::json doubleQuant = a.value("lora.double_quant");
    j.adapters.doubleQuant = !doubleQuant.is_boolean() || doubleQuant.get<bool>();
    const std::int64_t total = std::max<std::int64_t>(j.params, a.integer("model.params"));
    j.method = methodSizes(j.shape, total, method, j.adapters);
}

} // namespace

void sizeStage(StepJob& j, std::int64_t params)
{
    j.params = std::max<std::int64_t>(1, params);
    j.largestLayer = std::clamp<std::int64_t>(j.largestLayer, 0, j.params);
    if (j.method.method == TrainingMethod::Full) {
        j.trainableParams = j.params;
        j.frozenParams = j.frozenBytes = j.frozenConstantBytes = j.dequantizedBytes = 0;
        return;
    }
    const double share = static_cast<double>(j.params) / static_cast<double>(std::max(j.params, j.method.total));
    const auto ofStage = [&](std::int64_t n) { return truncSat(static_cast<double>(n) * share); };
    j.trainableParams = std::max<std::int64_t>(1, ofStage(j.method.trainable));
    j.frozenParams = j.params;
    const std::int64_t lp = j.precision == TrainingPrecision::Fp32 ? 4 : 2;
    const std::int64_t quantized = ofStage(j.method.quantized);
    j.frozenBytes =
        addSat(mulSat(lp, j.frozenParams - quantized), truncSat(static_cast<double>(quantized) * kNf4BytesPerWeight));
    j.frozenConstantBytes =
        truncSat(static_cast<double>(quantized) * nf4ConstantBytesPerWeight(j.adapters.doubleQuant));
    j.dequantizedBytes = 0;
    if (j.method.method == TrainingMethod::Qlora) {
        std::int64_t largest = 0;
        for (const LinearModule m : {LinearModule::Q, LinearModule::O, LinearModule::Up, LinearModule::Down}) {
            const LinearWidths w = linearWidths(j.shape, m);
            largest = std::max(largest, mulSat(w.in, w.out));
        }
        j.dequantizedBytes = mulSat(lp, largest);
    }
}

namespace {

// The parameters of one MoE block a rank gathers at ZeRO-3: the whole leaf block, less the routed experts it does
// not hold under expert-parallel degree `ep` (AutoEP gathers only its own, within its group).
std::int64_t gatheredBlock(const MoeJob& moe, std::int64_t ep)
{
    const std::int64_t notHeld = moe.spec.experts - moe.spec.experts / std::max<std::int64_t>(1, ep);
    return subSat(moe.counts.leafBlock, mulSat(notHeld, moe.counts.expert));
}

// The activation peak of one pipeline stage (its layersPerStage blocks) under 1F1B (ds-pipe-1f1b-buffers): the
// micro-batch in backward at its own peak, with the loss on the last stage only, plus what the forward pass saved
// for each other micro-batch in flight (the blocks' saved tensors, or their inputs with checkpointing).
std::int64_t stageActivationPeak(const StepJob& job, const ActivationCase& acts, const StepCandidate& c,
                                 std::int64_t stage)
{
    ActivationCase blocks = acts;
    blocks.shape.layers = job.layersPerStage;
    const std::int64_t L = job.layersPerStage;
    const std::int64_t n = checkpointedLayers(job, c);
    const ModelActivations one = modelActivations(blocks, lossOf(job, c), n, c.checkpointOffload);
    const std::int64_t saved = addSat(mulSat(n, one.perLayerCheckpointedBytes), mulSat(L - n, one.perLayerBytes));
    const bool runsLoss = stage == job.pipelineStages - 1;
    const std::int64_t peak = runsLoss ? one.peakBytes : n == L && L > 0 ? addSat(saved, one.perLayerBytes) : saved;
    const std::int64_t others = microBatchesInFlight(job.pipelineStages, stage, c.accumulation) - 1;
    return addSat(mulSat(others, saved), peak);
}

} // namespace

std::string toString(OffloadDevice device)
{
    return device == OffloadDevice::Cpu ? "cpu" : device == OffloadDevice::Nvme ? "nvme" : "none";
}

StepJob stepJobFrom(const Answers& a)
{
    StepJob j;
    j.shape = a.modelShape();
    if (const auto error = shapeError(j.shape))
        throw std::invalid_argument(*error);
    j.seqLen = a.integer("model.seq_len");
    j.attention = attentionImplFrom(a.text("model.attention_impl")).value_or(AttentionImpl::Flash);
    j.loss = lossImplFrom(a.text("model.loss_impl")).value_or(LossImpl::Standard);
    // model.dropout: 0 by default (Llama, Qwen configs: 0.0); BERT and GPT-2 train with 0.1 (their presets say so).
    j.dropout = a.number("model.dropout") > 0;
    const nlohmann::json zeroInit = a.value("training.zero_init");
    j.zeroInit = !zeroInit.is_boolean() || zeroInit.get<bool>();
    const nlohmann::json expandable = a.value("training.expandable_segments");
    j.expandableSegments = expandable.is_boolean() && expandable.get<bool>();
    j.launcherFillsBuckets = a.text("software.launcher") != "deepspeed";

    const ModelShape states = modelShapeFrom(a);
    j.params = std::max<std::int64_t>(1, states.params); // a pipeline with more stages than layers leaves some empty
    j.largestLayer = std::clamp<std::int64_t>(states.largestLayer, 0, j.params); // a module of this stage
    j.pipelineStages = std::max<std::int64_t>(1, a.integer("pipeline.stages"));
    j.layersPerStage = std::max<std::int64_t>(1, (j.shape.layers + j.pipelineStages - 1) / j.pipelineStages);
    j.dataParallel = states.dataParallel;
    j.gpusPerNode = states.gpusPerNode;
    j.nodes = states.nodes;
    if (const MoeSpec spec = moeSpecFrom(a); spec.moe()) { // every expert in the states, from the shape
        j.moe.spec = spec;
        j.moe.counts = moeCounts(j.shape, spec);
        j.moe.mode = moeModeFrom(a.text("moe.mode")).value_or(MoeMode::Auto);
        j.moe.transformers5 = versionAtLeast(a.text("software.transformers_version"), kFusedExpertsTransformers);
        const std::string ep = a.text("moe.expert_parallel_size");
        j.moe.expertParallelAsked = ep == "auto" || ep.empty() ? 0 : std::stoll(ep); // the registry's choices
        j.params = std::max<std::int64_t>(1, j.moe.counts.total / j.pipelineStages);
    }
    const std::string sp = a.text("parallel.sequence_parallel_size");
    j.longContext.sequenceParallelAsked = sp == "auto" || sp.empty() ? 0 : std::stoll(sp); // the registry's choices
    const auto onOff = [&](const char* id) -> std::optional<bool> {
        const std::string v = a.text(id);
        return v == "on" ? std::optional<bool>(true) : v == "off" ? std::optional<bool>(false) : std::nullopt;
    };
    j.longContext.tiledMlp = onOff("training.tiled_mlp");
    j.longContext.checkpointOffload = onOff("training.checkpoint_offload");

    j.precision = precisionOf(a);
    trainingMethodOf(a, j);
    sizeStage(j, j.params);
    j.states = a.text("training.precision_states") == "bf16" && j.precision == TrainingPrecision::Bf16
        ? StatePrecision::Bf16
        : StatePrecision::Fp32;
    j.fp32GradAccumulation = a.text("pipeline.grad_accum_dtype") == "fp32" && j.pipelineStages > 1
        && j.precision == TrainingPrecision::Bf16 && j.states == StatePrecision::Fp32;
    j.globalBatch = mulSat(a.integer("training.micro_batch_size"), a.integer("training.gradient_accumulation_steps"),
                           j.dataParallel);

    j.gpuCapacityBytes = a.number("hardware.gpu_memory_gib") * kGiB;
    j.hostBytesPerNode = a.number("hardware.cpu_memory_gib") * kGiB;
    j.nvmeReady = a.text("hardware.nvme") == "nvme" && !a.text("hardware.nvme_path").empty();
    j.nvmeBytesPerNode = a.number("hardware.nvme_capacity_gib") * kGiB;

    StepTimeInputs& t = j.time;
    t.layers = j.layersPerStage;
    t.hidden = j.shape.hidden;
    t.seqLen = j.seqLen;
    t.heads = j.shape.heads;
    t.elementBytes = j.precision == TrainingPrecision::Fp32 ? 4 : 2;
    t.mfu = a.has("hardware.mfu") ? a.number("hardware.mfu") : 0; // not given: the calibrated efficiency
    t.nicsPerNode = a.integer("hardware.nics_per_node");
    const GpuSpec* gpu = GpuCatalog::instance().find(a.text("hardware.gpu"));
    const HostLinkRate host = hostLinkRate(gpu ? std::string_view(gpu->hostLink) : kAssumedHostLink);
    t.hostLink = host.link;
    t.hostToDeviceGBps = host.hostToDeviceGBps;
    t.deviceToHostGBps = host.deviceToHostGBps;
    // Without a peer figure (PCIe-only cards the cell states no rate for), peers talk through the host link.
    t.intraNodeGBps = std::min(host.hostToDeviceGBps, host.deviceToHostGBps);
    if (gpu) {
        t.denseTflops = denseTflopsOf(*gpu, j.precision == TrainingPrecision::Bf16).value_or(0);
        t.architecture = gpu->architecture;
        // fp8 asked, on a GPU with fp8 tensor cores (compute capability 8.9 or higher): Transformer Engine's GEMMs.
        const auto cc = gpu->computeCapabilityNumber();
        t.fp8Gemms = a.text("training.precision") == "fp8" && cc && *cc >= 8.9;
        t.intraNodeGBps = intraNodeGBpsOf(*gpu).value_or(t.intraNodeGBps);
    }
    t.cpuCoresPerNode = static_cast<double>(a.integer("hardware.cpu_cores_per_node"));
    t.cpuAdamParamsPerSecond = cpuAdamRate(t.cpuCoresPerNode); // default kAssumedCpuCoresPerNode (the registry's)
    t.nicGbps = a.number("hardware.inter_node_gbps");
    if (t.nicGbps > 0)
        t.nicsPerNode = 1; // the node's whole rate was given
    else if (const NetworkSpec* n = NetworkCatalog::instance().find(a.text("hardware.inter_node_network")))
        t.nicGbps = n->gbps;
    return j;
}

UlyssesCase ulyssesCaseOf(const StepJob& job)
{
    UlyssesCase u;
    u.shape = job.shape;
    u.seqLen = job.seqLen;
    u.world = mulSat(job.dataParallel, job.pipelineStages);
    u.attention = job.attention;
    u.pipelineStages = job.pipelineStages;
    u.moe = job.moe.moe();
    return u;
}

MoeSpec moeSpecFrom(const Answers& a)
{
    MoeSpec spec;
    spec.experts = std::max<std::int64_t>(1, a.integer("model.experts"));
    if (!spec.moe())
        return spec;
    spec.expertsPerToken = std::clamp<std::int64_t>(a.integer("model.experts_per_token"), 1, spec.experts);
    spec.expertIntermediate = a.integer("model.expert_intermediate_size");
    spec.sharedExperts = a.integer("model.shared_experts");
    spec.denseLayers = a.integer("model.dense_layers");
    spec.layerInterval = std::max<std::int64_t>(1, a.integer("model.moe_layer_interval"));
    return spec;
}

std::int64_t checkpointedLayers(const StepJob& job, const StepCandidate& c)
{
    if (!c.checkpointing)
        return 0;
    return c.checkpointLayers > 0 ? std::min(c.checkpointLayers, job.layersPerStage) : job.layersPerStage;
}

LossImpl lossOf(const StepJob& job, const StepCandidate& c) { return c.loss.value_or(job.loss); }

ModelActivations stepActivations(const StepJob& job, const StepCandidate& c)
{
    const ActivationCase acts = activationCase(job, c.microBatch, c.sequenceParallel, c.tiledMlp);
    // Without a pipeline the stage's layers are the model's.
    ModelActivations a = modelActivations(acts, lossOf(job, c), checkpointedLayers(job, c), c.checkpointOffload);
    // Each pipeline stage holds its share of the layers for the micro-batches 1F1B keeps in flight on it.
    if (job.pipelineStages > 1 && job.shape.layers > 0)
        a.peakBytes = job.pipelineStage >= 0
            ? stageActivationPeak(job, acts, c, std::min(job.pipelineStage, job.pipelineStages - 1))
            : std::max(stageActivationPeak(job, acts, c, 0), stageActivationPeak(job, acts, c, job.pipelineStages - 1));
    return a;
}

StepPrediction predictStep(const StepJob& job, const StepCandidate& c)
{
    return predictStep(job, c, stepActivations(job, c));
}

StepPrediction predictStep(const StepJob& job, const StepCandidate& c, const ModelActivations& activations)
{
    StepPrediction p;
    p.candidate = c;
    p.loss = lossOf(job, c);
    p.activations = activations;

    StateMemoryInputs in;
    in.stage = c.placement.stage;
    in.offloadOptimizer = deviceOf(c.placement.offloadOptimizer);
    in.offloadParam = deviceOf(c.placement.offloadParam);
    in.params = job.trainableParams;
    in.largestLayerParams = std::min(job.largestLayer, job.trainableParams);
    in.frozenParams = job.frozenParams;
    in.frozenBytes = job.frozenBytes;
    in.frozenConstantBytes = job.frozenConstantBytes;
    in.dequantizedBytes = job.dequantizedBytes;
    in.layers = job.layersPerStage;
    in.dataParallel = job.dataParallel;
    const MoeJob& moe = job.moe;
    const std::int64_t ep = moe.moe() ? std::max<std::int64_t>(1, c.expertParallel) : 1;
    const bool fullTraining = job.method.method == TrainingMethod::Full;
    if (moe.moe()) {
        const double routedShare =
            static_cast<double>(moe.counts.routed) / static_cast<double>(std::max<std::int64_t>(1, moe.counts.total));
        in.expertParallel = ep;
        in.expertParams = fullTraining && ep > 1 ? std::min(moe.counts.routed, job.trainableParams) : 0;
        // A frozen base's experts are split over the expert-parallel ranks too.
        if (!fullTraining && ep > 1)
            in.frozenBytes =
                truncSat(static_cast<double>(job.frozenBytes) * (1 - routedShare * (1 - 1 / static_cast<double>(ep))));
        // ZeRO-3 gathers a leaf MoE block whole: one routing layer is the largest block the working set holds; with
        // AutoEP each rank gathers only its own experts, within its expert-data-parallel group.
        if (fullTraining)
            in.blockParams = std::min(subSat(moe.counts.moeLayer, moe.counts.leafBlock) + gatheredBlock(moe, ep),
                                      job.trainableParams);
    }
    in.gpusPerNode = job.gpusPerNode;
    in.nodes = job.nodes;
    in.precision = job.precision;
    in.states = c.placement.stage == 0 ? StatePrecision::Fp32 : job.states;
    in.gradientAccumulationSteps = static_cast<int>(std::min<std::int64_t>(c.accumulation, 1 << 30));
    in.pipeline = job.pipelineStages > 1;
    in.fp32GradAccumulation =
        job.fp32GradAccumulation && c.placement.stage == 1 && in.offloadOptimizer == OffloadDevice::None;
    in.buffers = job.buffers;
    if (job.launcherFillsBuckets && c.placement.stage == 3 && job.shape.hidden > 0) {
        const std::int64_t h = job.shape.hidden;
        in.buffers.reduceBucketSize = mulSat(h, h);
        in.buffers.prefetchBucketSize = mulSat(h, h) / 10 * 9;
        in.buffers.paramPersistenceThreshold = mulSat(10, h);
    }
    // What the ZeRO workflow writes (advise/ZeroAdvisor.cpp, zeroFragment): overlap_comm on from stage 2.
    if (!in.buffers.overlapComm && c.placement.stage >= 1)
        in.buffers.overlapComm = c.placement.stage >= 2;
    // Ulysses's all-to-all buffers for one layer at a time: q, k, v and the attention output of the GPU's tokens, sent
    // and received (ulysses-all-to-all).
    const std::int64_t localTokens =
        mulSat(c.microBatch, (job.seqLen + c.sequenceParallel - 1) / std::max<std::int64_t>(1, c.sequenceParallel));
    const std::int64_t kvHeads = job.shape.kvHeads > 0 ? job.shape.kvHeads : job.shape.heads;
    p.sequenceBufferBytes = c.sequenceParallel > 1
        ? mulSat(2, job.precision == TrainingPrecision::Fp32 ? 4 : 2, localTokens, job.shape.headWidth(),
                 2 * (job.shape.heads + kvHeads))
        : 0;
    in.activationBytes = addSat(p.activations.peakBytes, p.sequenceBufferBytes);
    in.activationSource = kActivationSource;
    in.zeroInit = job.zeroInit;
    in.expandableSegments = job.expandableSegments;
    in.fullCheckpointing = c.checkpointing && checkpointedLayers(job, c) == job.layersPerStage;
    in.describe = false; // bytes only: no view reads the conventions' words (StateMemoryInputs::describe)
    p.memory = sizeStateMemory(in);
    p.gpu = breakdown(p.memory);
    p.offloadedCheckpointsPerNode = mulSat(p.activations.offloadedBytes, job.gpusPerNode);
    p.cpuPerNode = addSat(p.memory.hostPerNode(), p.offloadedCheckpointsPerNode);
    p.nvmePerNode = p.memory.nvmePerNode();

    p.usableGpuBytes = job.gpuCapacityBytes;
    p.trainableParams = job.trainableParams;
    p.totalParams = moe.moe() ? moe.counts.total : job.method.total;
    p.activeParams = moe.moe() ? moe.counts.active : job.method.total;
    if (moe.moe() && c.placement.stage == 3)
        p.gatheredBlockBytes = mulSat(job.precision == TrainingPrecision::Fp32 ? 4 : 2, gatheredBlock(moe, ep));
    p.fitsGpu = static_cast<double>(p.gpu.total) <= p.usableGpuBytes * (1 + kTightBand);
    p.tight = p.fitsGpu && static_cast<double>(p.gpu.total) > p.usableGpuBytes * (1 - kTightBand);
    p.fitsCpu = static_cast<double>(p.cpuPerNode) <= job.hostBytesPerNode;
    const bool usesNvme = c.placement.offloadOptimizer == "nvme" || c.placement.offloadParam == "nvme";
    p.nvmeReady = !usesNvme || job.nvmeReady;
    p.fitsNvme = !usesNvme || job.nvmeBytesPerNode <= 0 || static_cast<double>(p.nvmePerNode) <= job.nvmeBytesPerNode;

    StepTimeInputs t = job.time;
    t.parameters = static_cast<double>(job.trainableParams);
    t.frozenParameters = static_cast<double>(job.frozenParams);
    t.frozenElementBytes =
        job.frozenParams > 0 ? static_cast<double>(job.frozenBytes) / static_cast<double>(job.frozenParams) : 2;
    t.frozenGemmSlowdown = job.method.method == TrainingMethod::Qlora ? kQloraFrozenGemmSlowdown : 1;
    t.microBatch = c.microBatch;
    t.gradientAccumulation = c.accumulation;
    t.recomputedShare = static_cast<double>(checkpointedLayers(job, c)) / static_cast<double>(job.layersPerStage);
    t.placement = c.placement;
    // ZeRO spans the data × sequence ranks (job.dataParallel); each sequence-parallel group is one data replica.
    const std::int64_t sp = std::max<std::int64_t>(1, c.sequenceParallel);
    t.dataParallel = std::max<std::int64_t>(1, job.dataParallel / sp);
    t.sequenceParallel = sp;
    t.attentionWidth = mulSat(job.shape.heads, job.shape.headWidth());
    t.kvWidth = mulSat(job.shape.kvHeads > 0 ? job.shape.kvHeads : job.shape.heads, job.shape.headWidth());
    if (c.tiledMlp && !moe.moe() && job.trainableParams + job.frozenParams > 0) {
        const double mlp = static_cast<double>(mulSat(job.shape.mlp == MlpKind::SwiGlu ? 3 : 2, job.shape.hidden,
                                                      job.shape.intermediate, job.layersPerStage));
        t.tiledMlpShare = std::min(1.0, mlp / static_cast<double>(job.trainableParams + job.frozenParams));
    }
    if (c.checkpointOffload)
        t.checkpointOffloadBytes = static_cast<double>(checkpointedLayers(job, c))
            * static_cast<double>(p.activations.perLayerCheckpointedBytes);
    t.gpusPerNode = job.gpusPerNode;
    t.nodes = job.nodes;
    t.pipelineStages = job.pipelineStages;
    t.explain = false; // ranked by the numbers; no page shows the formulas of every candidate
    t.overlap = assumedOverlap(c.placement.stage, in.buffers.overlapComm, job.pipelineStages > 1);
    if (moe.moe()) {
        const MoeCounts& n = moe.counts;
        const double total = static_cast<double>(std::max<std::int64_t>(1, n.total));
        const double active = static_cast<double>(std::max<std::int64_t>(1, n.active));
        t.moe.activeShare = std::clamp(active / total, 1e-9, 1.0);
        t.moe.routedShare = std::clamp(
            static_cast<double>(mulSat(n.moeLayers, moe.spec.expertsPerToken, n.expert)) / active, 0.0, 0.999);
        t.moe.expertParameters = static_cast<double>(in.expertParams);
        t.moe.experts = moe.spec.experts;
        t.moe.expertsPerToken = moe.spec.expertsPerToken;
        t.moe.moeLayers = n.moeLayers;
        t.moe.expertParallel = ep;
    }
    // No time without the GPU's TFLOPS, or when the pipeline has more stages than GPUs (the pipeline page refuses
    // that layout; the memory figures stand).
    if (t.denseTflops > 0 && job.dataParallel * job.pipelineStages == std::int64_t{job.nodes} * job.gpusPerNode)
        p.time = estimateStepTime(t);
    return p;
}

std::int64_t microBatchesInFlight(std::int64_t stages, std::int64_t stage, std::int64_t microBatches)
{
    return std::max<std::int64_t>(1, std::min(stages - stage, microBatches));
}

std::string StepPrediction::whyNot() const
{
    std::string why;
    auto add = [&](const std::string& s) { why += (why.empty() ? "" : "; ") + s; };
    if (!fitsGpu)
        add("needs " + gib(static_cast<double>(gpu.total)) + " per GPU of " + gib(usableGpuBytes));
    if (!fitsCpu)
        add("needs " + gib(static_cast<double>(cpuPerNode)) + " of host RAM per node");
    if (!nvmeReady)
        add("no NVMe device with a path (hardware.nvme, hardware.nvme_path)");
    if (!fitsNvme)
        add("needs " + gib(static_cast<double>(nvmePerNode)) + " of NVMe per node");
    return why;
}

std::string planLabel(const StepCandidate& c)
{
    const Placement& pl = c.placement;
    std::string s = "ZeRO-" + std::to_string(pl.stage);
    if (pl.offloadOptimizer != "none")
        s += ", optimizer → " + pl.offloadOptimizer;
    if (pl.offloadParam != "none")
        s += ", parameters → " + pl.offloadParam;
    if (pl.offloadOptimizer == "none" && pl.offloadParam == "none")
        s += ", no offload";
    s += ", micro-batch " + std::to_string(c.microBatch) + " × " + std::to_string(c.accumulation)
        + (c.accumulation == 1 ? " step" : " steps");
    if (c.checkpointing && c.checkpointLayers > 0)
        s += ", activation checkpointing on the first " + std::to_string(c.checkpointLayers) + " layers";
    else if (c.checkpointing)
        s += ", activation checkpointing";
    if (c.checkpointOffload)
        s += " offloaded to host memory";
    if (c.moePath)
        s += ", " + moePathLabel(*c.moePath, c.expertParallel);
    if (c.sequenceParallel > 1)
        s += ", Ulysses SP " + std::to_string(c.sequenceParallel);
    if (c.tiledMlp)
        s += ", tiled MLP";
    if (c.loss == LossImpl::Fused)
        s += ", fused cross-entropy";
    else if (c.loss == LossImpl::Tiled)
        s += ", tiled cross-entropy";
    else if (c.loss == LossImpl::Standard)
        s += ", standard cross-entropy";
    return s;
}

std::string StepPrediction::label() const { return planLabel(candidate); }

nlohmann::ordered_json activationsJson(const StepJob& job, std::int64_t microBatch)
{
    const ActivationCase c = activationCase(job, microBatch);
    return {{"attention_impl", std::string(toString(job.attention))},
            {"per_layer_bytes", layerActivations(c).bytes},
            {"per_layer_bytes_checkpointed", checkpointedLayerBytes(c)},
            {"logits_bytes", lossActivations(c, job.loss).peakBytes}};
}

nlohmann::ordered_json candidateJson(const StepPrediction& p)
{
    const StepCandidate& c = p.candidate;
    nlohmann::ordered_json j{
        {"label", p.label()},
        {"stage", c.placement.stage},
        {"offload_optimizer", c.placement.offloadOptimizer},
        {"offload_param", c.placement.offloadParam},
        {"activation_checkpointing", c.checkpointing},
        {"checkpoint_layers", c.checkpointLayers},
        {"loss_impl", std::string(toString(p.loss))},
        {"micro_batch_size", c.microBatch},
        {"trainable_params", p.trainableParams},
        {"total_params", p.totalParams},
        {"active_params", p.activeParams},
        {"expert_parallel_size", c.expertParallel},
        {"moe_mode",
         c.moePath ? nlohmann::ordered_json(std::string(toString(*c.moePath))) : nlohmann::ordered_json(nullptr)},
        {"gathered_block_bytes", p.gatheredBlockBytes},
        {"sequence_parallel_size", c.sequenceParallel},
        {"tiled_mlp", c.tiledMlp},
        {"checkpoint_offload", c.checkpointOffload},
        {"offloaded_checkpoint_bytes_per_node", p.offloadedCheckpointsPerNode},
        {"sequence_buffer_bytes", p.sequenceBufferBytes},
        {"gradient_accumulation_steps", c.accumulation},
        {"gpu_bytes",
         {{"total", p.gpu.total},
          {"params", p.gpu.params},
          {"grads", p.gpu.grads},
          {"optimizer", p.gpu.optimizer},
          {"buffers", p.gpu.buffers},
          {"activations", p.gpu.activations},
          {"other", p.gpu.other}}},
        {"cpu_bytes_per_node", p.cpuPerNode},
        {"nvme_bytes_per_node", p.nvmePerNode},
        {"fits", p.fits()}};
    const nlohmann::json time = stepTimeJson(p.time);
    j["step_seconds"] = time.at("step_seconds");
    j["tokens_per_second_per_gpu"] = time.at("tokens_per_second_per_gpu");
    return j;
}

} // namespace dsw
