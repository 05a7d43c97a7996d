#pragma once
// The one model of a training step that every page and command reads: for a candidate plan (a placement,
// activation checkpointing, a micro-batch with the accumulation that keeps the global batch) it puts together
// memory as DeepSpeed 0.19.5 allocates it (estimate/StateMemory.h), activations operation by operation
// (estimate/ActivationModel.h) and the time of one optimizer step (estimate/StepTime.h). Each part keeps its
// own sources and conventions; this file only joins them and says what fits.
#include "estimate/ActivationModel.h"
#include "estimate/PlacementMemory.h"
#include "estimate/StateMemory.h"
#include "estimate/StepTime.h"
#include "knowledge/AdapterShape.h"
#include "knowledge/MoeShape.h"
#include "knowledge/TransformerShape.h"
#include "knowledge/UlyssesRules.h"
#include "project/Answers.h"

#include <nlohmann/json.hpp>

#include <cstdint>
#include <optional>
#include <string>

namespace dsw {

// The band around the GPU's capacity (what PyTorch reports: gpus.tsv's usable_gib or hardware.gpu_memory_gib) within
// which a plan is "tight": the spread of the step model's peaks against published ones (README, the step model's
// agreement table). A plan needing up to capacity × (1 + kTightBand) fits, tight, with a warning that says by how much;
// one needing less than capacity × (1 − kTightBand) fits comfortably. A stated wizard assumption from that spread: the
// peaks agree within ±6% (D1a +5.7%), and the published near-limit run the model over-predicts most, ZeRO-Offload's 10B
// on one V100 (calibration row C86, ran at 32,290 MiB of 32,480), comes out 6.6% over the card.
inline constexpr double kTightBand = 0.07;

// A plan the search compares.
struct StepCandidate {
    Placement placement;
    bool checkpointing = false;
    std::int64_t microBatch = 1;
    std::int64_t accumulation = 1;
    // With checkpointing, how many of the stage's layers are checkpointed, the first ones (selective: Transformers'
    // per-layer flag, hf-gc-per-layer); 0 is every layer (full).
    std::int64_t checkpointLayers = 0;
    std::optional<LossImpl> loss = std::nullopt; // the loss kernel; nullopt: the job's (model.loss_impl)
    // A mixture of experts: the expert-parallel degree and how DeepSpeed runs the experts (moePathFor: Leaf at stage
    // 3, AutoEp or Native with ep > 1, Auto for every expert on every GPU); nullopt for a dense model.
    std::int64_t expertParallel = 1;
    std::optional<MoeMode> moePath = std::nullopt;
    // Long context (ALST, knowledge/UlyssesRules.h): the Ulysses degree (each GPU holds s/sp tokens, data parallelism is
    // the rest of the world), DeepSpeed's TiledMLP, and the checkpointed layer inputs offloaded to pinned host memory.
    std::int64_t sequenceParallel = 1;
    bool tiledMlp = false;
    bool checkpointOffload = false;
};

// Long context: what the answers fixed (parallel.sequence_parallel_size, training.tiled_mlp,
// training.checkpoint_offload); the search varies what they leave to it.
struct LongContextJob {
    std::int64_t sequenceParallelAsked = 0; // 0: auto
    std::optional<bool> tiledMlp;           // nullopt: auto
    std::optional<bool> checkpointOffload;  // nullopt: auto
};

// A mixture of experts as the step model sizes it (knowledge/MoeShape.h): every expert's parameters in the states, the
// active ones in the compute, the MoE block gathered whole at ZeRO-3. A dense model leaves spec.experts at 1.
struct MoeJob {
    MoeSpec spec;
    MoeCounts counts;
    MoeMode mode = MoeMode::Auto; // moe.mode
    // software.transformers_version at least kFusedExpertsTransformers: the experts run fused, AutoEP's presets apply.
    bool transformers5 = true;
    std::int64_t expertParallelAsked = 0; // moe.expert_parallel_size; 0: auto
    bool moe() const { return spec.moe(); }
};

// What the candidates do not change: the model, the cluster, the batch to keep, and the hardware figures.
struct StepJob {
    TransformerShape shape;
    std::int64_t seqLen = 0;
    AttentionImpl attention = AttentionImpl::Flash;
    LossImpl loss = LossImpl::Standard;
    bool dropout = false;            // model.dropout > 0: masks (and eager attention's dropped probabilities) are saved
    bool zeroInit = true;            // training.zero_init: the model was built under deepspeed.zero.Init
    bool expandableSegments = false; // training.expandable_segments: PyTorch's allocator reserves less

    std::int64_t params = 0; // of one pipeline stage, trained and frozen
    // How the model is trained (training.method, lora.*): the whole model's trainable and frozen counts, and this
    // pipeline stage's share of them as stored. With full fine-tuning everything is trainable and nothing frozen.
    MethodSizes method;
    AdapterSpec adapters;
    std::int64_t trainableParams = 0;     // of one pipeline stage
    std::int64_t frozenParams = 0;        // of one pipeline stage
    std::int64_t frozenBytes = 0;         // of one pipeline stage: 16-bit, or QLoRA's 4-bit linears
    std::int64_t frozenConstantBytes = 0; // QLoRA's quantization constants of the stage
    std::int64_t dequantizedBytes = 0;    // QLoRA: the largest linear in 16 bits, for its matmul
    std::int64_t largestLayer = 0;        // parameters of the largest module
    std::int64_t layersPerStage = 1;      // transformer blocks one pipeline stage holds
    std::int64_t dataParallel = 1;
    int gpusPerNode = 1;
    int nodes = 1;
    std::int64_t pipelineStages = 1;
    // Which pipeline stage the job sizes, 0-based: DeepSpeed's 1F1B schedule keeps min(stages − stage,
    // micro-batches) micro-batches' activations on it, and only the last stage runs the loss. -1: the heavier of
    // the first and the last stage of an even split, which is how the ZeRO page shows a pipeline.
    std::int64_t pipelineStage = -1;

    TrainingPrecision precision = TrainingPrecision::Bf16;
    StatePrecision states = StatePrecision::Fp32;
    // pipeline.grad_accum_dtype fp32 (a bf16 pipeline with fp32 states): data_types.grad_accum_dtype fp32, which
    // DeepSpeed runs at ZeRO-1 without optimizer offload (BF16_Optimizer); other placements are sized without it.
    bool fp32GradAccumulation = false;
    ZeroBufferSettings buffers;
    // software.launcher hf-trainer or accelerate: the exported ZeRO-3 config says "auto" for its buckets and the
    // launcher fills them from hidden_size (hf-trainer-auto): reduce h², prefetch 0.9·h², persistence 10·h.
    bool launcherFillsBuckets = false;

    std::int64_t globalBatch = 1; // sequences per optimizer step over all data-parallel ranks
    MoeJob moe;                   // a mixture of experts (model.experts > 1), without a pipeline
    LongContextJob longContext;

    double gpuCapacityBytes = 0; // one GPU
    double hostBytesPerNode = 0;
    bool nvmeReady = false;      // an NVMe device with a path
    double nvmeBytesPerNode = 0; // 0: capacity unknown (not a limit)

    StepTimeInputs time; // the hardware fields; batch, placement and parallelism are set per candidate
};

// Per-GPU bytes at the step's peak by what they hold; they add up to total.
struct GpuBytes {
    std::int64_t total = 0;
    std::int64_t params = 0;      // 16-bit (and fp32) parameters
    std::int64_t grads = 0;       // 16-bit gradients and the fp32 gradient partition
    std::int64_t optimizer = 0;   // fp32 master weights, Adam m and v
    std::int64_t buffers = 0;     // reduce/all-gather buckets, the ZeRO-3 working set, offload staging
    std::int64_t activations = 0; // activations, logits and loss
    std::int64_t other = 0;       // CUDA context, NCCL buffers, the allocator's reserve
};

struct StepPrediction {
    StepCandidate candidate;
    LossImpl loss = LossImpl::Standard; // the loss kernel it runs: the candidate's, or the job's
    StateMemory memory;
    ModelActivations activations;
    StepTime time;
    GpuBytes gpu;
    std::int64_t cpuPerNode = 0;
    std::int64_t nvmePerNode = 0;
    double usableGpuBytes = 0;           // one GPU's capacity, as PyTorch reports it
    std::int64_t trainableParams = 0;    // of the stage sized (StepJob::trainableParams)
    std::int64_t totalParams = 0;        // of the model: every expert of a mixture of experts
    std::int64_t activeParams = 0;       // what one token uses (the total for a dense model)
    std::int64_t gatheredBlockBytes = 0; // a mixture of experts at ZeRO-3: one MoE block gathered whole (leaf module)
    std::int64_t offloadedCheckpointsPerNode = 0; // checkpoint offload: the node's GPUs' layer inputs, in cpuPerNode
    std::int64_t sequenceBufferBytes = 0;         // Ulysses: one layer's all-to-all buffers, in gpu.activations
    bool fitsGpu = false, fitsCpu = false, nvmeReady = true, fitsNvme = true;
    bool tight = false; // within kTightBand of the capacity: it may run out of memory
    bool fits() const { return fitsGpu && fitsCpu && nvmeReady && fitsNvme; }
    // What keeps it from fitting, in words; empty when it fits.
    std::string whyNot() const;
    std::string label() const; // "ZeRO-2, no offload, micro-batch 2 × 4 steps, checkpointing"
};

// The stage's layers `c` checkpoints (0 without checkpointing, the stage's layers when full) and its loss kernel.
std::int64_t checkpointedLayers(const StepJob& job, const StepCandidate& c);
LossImpl lossOf(const StepJob& job, const StepCandidate& c);

// Sets the parameters of the pipeline stage the job sizes, trained and frozen, and the method's share of them
// (trainable, frozen, QLoRA's 4-bit bytes and constants): the one place a stage's counts are derived.
void sizeStage(StepJob& job, std::int64_t params);
// The mixture-of-experts shape the answers give (model.experts and the rest); experts 1 for a dense model.
MoeSpec moeSpecFrom(const Answers& answers);
// The job the answers describe. Throws std::invalid_argument naming the input when the shape contradicts itself.
StepJob stepJobFrom(const Answers& answers);
// What DeepSpeed-Ulysses's rules read of the job (knowledge/UlyssesRules.h).
UlyssesCase ulyssesCaseOf(const StepJob& job);

// "ZeRO-2, no offload, micro-batch 2 × 4 steps, activation checkpointing": how every page names a plan.
std::string planLabel(const StepCandidate& candidate);

// The step model's prediction for one candidate.
StepPrediction predictStep(const StepJob& job, const StepCandidate& candidate);
// The same with the candidate's activations given, as stepActivations(job, candidate) computes them: they depend
// on the micro-batch, checkpointing and (under a pipeline) the accumulation, never on the placement, so the search
// computes them once for all ten placements.
StepPrediction predictStep(const StepJob& job, const StepCandidate& candidate, const ModelActivations& activations);
// A candidate's activations at its peak (under a pipeline, of the stage the job sizes, 1F1B's micro-batches in flight).
ModelActivations stepActivations(const StepJob& job, const StepCandidate& candidate);

// Micro-batches whose activations pipeline stage `stage` (0-based) of `stages` holds at once under DeepSpeed's
// 1F1B TrainSchedule with `microBatches` (gradient_accumulation_steps) per batch: min(stages − stage, microBatches).
std::int64_t microBatchesInFlight(std::int64_t stages, std::int64_t stage, std::int64_t microBatches);

// Activations of one micro-batch of training.micro_batch_size × model.seq_len, as `estimate --json` gives them:
// {"attention_impl", "per_layer_bytes", "per_layer_bytes_checkpointed", "logits_bytes"}.
nlohmann::ordered_json activationsJson(const StepJob& job, std::int64_t microBatch);

// A plan candidate in the command line's one shape (README, "recommend --format json"): label, stage, offloads,
// checkpointing, micro-batch, accumulation, gpu_bytes by component, cpu_bytes_per_node, nvme_bytes_per_node, fits,
// step_seconds by component, tokens_per_second_per_gpu. recommend's candidates, recommended and the out-of-memory
// page's ran_setup, and estimate --json, all print this.
nlohmann::ordered_json candidateJson(const StepPrediction& p);

std::string toString(OffloadDevice device); // none | cpu | nvme

} // namespace dsw
