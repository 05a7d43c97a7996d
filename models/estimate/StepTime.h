#pragma once
// The time of one optimizer step of a candidate plan, by component, from published formulas and the byte
// counts DeepSpeed v0.19.5's code moves. Every component carries its formula and its sources
// (resources/knowledge/sources.tsv), so the wizard can show why one plan is faster than another.
//
// Conventions (stated with every number):
//  - Compute: 6Ψ FLOPs per token for forward + backward (kaplan-6n), 8Ψ with full activation checkpointing
//    (one more forward, narayanan-recompute-flops), plus attention 4·s²·h per layer and sequence forward
//    (QKᵀ and attention·V, 2·s²·h each; korthikanti-flops), ×3 for forward + backward, ×4 with
//    checkpointing, halved with a causal mask (kernels that skip masked blocks). The dense FLOPs run at the GPU's
//    dense 16-bit TFLOPS × the calibrated GEMM efficiency of its architecture, which falls with fewer tokens per
//    micro-batch (t / (t + kHalfTokens)); attention runs at kAttentionEfficiencyRatio of that; fp8 (Transformer
//    Engine) speeds the dense GEMMs only, by kFp8GemmSpeedup. hardware.mfu, when given, replaces all of it by one
//    flat share of peak on every FLOP. The constants are fitted on published runs (README, "The step model and how
//    well it agrees with measurements", every row with its source and error).
//  - Communication: ring collectives (nccl-tests-busbw): a reduce-scatter or an all-gather of S bytes
//    sends S·(d−1)/d per GPU, an all-reduce twice that. Per optimizer step with GA accumulation steps
//    (engine.allreduce_gradients, ds-zero-reduce-boundary): stage 0 all-reduces the gradients once; stage 1
//    reduces them once and all-gathers the updated parameters (2Ψ, zero-paper-comm-dp); stage 2
//    reduce-scatters every micro-step (GA·Ψ + Ψ); stage 3 all-gathers parameters in forward and backward
//    and reduce-scatters gradients every micro-step (3Ψ·GA, zero-paper-comm-stage3), less the last layers
//    whose backward comes within stage3_max_reuse_distance parameters of their forward: those stay
//    gathered (ds-zero3-reuse-distance; layer L−i waits 2·i layers, so ⌈R / (2Ψ/L)⌉ layers are kept).
//    The ring is bounded by its slowest link: within a node the GPU's link (datasheet figure halved: one
//    direction), across nodes the node's NICs together (each ring crosses a node boundary once, so a
//    node sends what one GPU sends). DeepSpeed's collectives reach kCollectiveEfficiency of that nominal rate,
//    less across many nodes (÷ (1 + nodes / kCollectiveNodeScale)), and stage 3 pays kStage3CollectiveLatency per
//    layer-collective (a gather in forward and in backward and a reduce-scatter: per-module hooks and launches).
//    Where DeepSpeed overlaps communication with compute (overlap_comm: stages 2–3; stages 0–1 reduce after the
//    backward, ds-zero-reduce-boundary) kOverlapHidden of min(communication, compute) is hidden.
//  - Offload: bytes per partitioned parameter per step over PCIe as DeepSpeed's code copies them
//    (ds-offload-grad-copy, ds-offload-param-copy), at an effective host-link rate (D6: 0.108 s per GB
//    round trip on 8×H200, ds-activation-offload-cost), plus DeepSpeedCPUAdam on the node's share of
//    parameters (ds-cpu-adam-measured), plus NVMe swap volume at the NVMe read and write rates.
//  - Pipeline bubble: (p−1)/m of the stage's compute, i.e. (p−1)/(m+p−1) of the pipelined time
//    (narayanan-bubble), m = micro-batches per step (DeepSpeed's pipeline engine: the accumulation steps).
#include "estimate/PlacementMemory.h"

#include <nlohmann/json.hpp>

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace dsw {

struct GpuSpec;

// The step model's calibration (README, "The step model and how well it agrees with measurements": the rows each was
// fitted on, with their errors and the leave-one-source-out errors). Fitted on published runs by
// tests/reference/calibrate_step_model.py, not measured here.
// GEMM efficiency at many tokens per micro-batch, share of dense 16-bit peak on the FLOPs executed, by architecture.
inline constexpr double kGemmEfficiencyVolta = 0.57;
inline constexpr double kGemmEfficiencyAmpere = 0.80;
inline constexpr double kGemmEfficiencyHopper = 0.56;
inline constexpr double kHalfTokens = 2640; // tokens per micro-batch at which a GPU reaches half its GEMM efficiency
// Attention's share of the GEMM efficiency: a stated assumption (FlashAttention "reaching only 25-40% of the
// theoretical maximum FLOPs/s" against GEMMs' 70–80%, halved by FlashAttention-2's ≈2× speedup: flash-attention-2).
inline constexpr double kAttentionEfficiencyRatio = 0.6;
inline constexpr double kFp8GemmSpeedup = 1.36; // torchtitan 8B on 8 H100, Float8 vs bf16, GEMMs only (C30 vs C24)
inline constexpr double kCollectiveEfficiency = 0.38; // share of the ring's nominal link rate DeepSpeed reaches
inline constexpr double kCollectiveNodeScale = 78;    // nodes at which that share halves
// s per layer-collective at stage 3, from a side-by-side run (belle-zero-stages: BLOOM 560M and 1.1B, 24 layers each,
// 2 GPUs, 512 tokens): ZeRO-3 took 0.26 s per batch more than ZeRO-1 for both sizes, so per layer, not per byte:
// 0.26 s / (24 layers × 3 collectives).
inline constexpr double kStage3CollectiveLatency = 0.0036;
// Share of min(communication, compute) hidden where DeepSpeed overlaps (overlap_comm at stages 2 and 3): fitted, one
// figure for both stages so neither is favoured by assumption. The stage-3 latency above is never hidden: BELLE
// measured it as time added to the step.
inline constexpr double kOverlapHidden = 1.0;
inline constexpr double kHostLinkEfficiency = 0.29;      // D6: 18.5 GB/s per direction of PCIe Gen5's 64 GB/s
inline constexpr double kCpuAdamParamsPerSecond = 0.8e9; // per node: 1.2B parameters in 1.5 s (#6695)
inline constexpr double kNvmeReadGBps = 10;              // 4 NVMe SSDs in RAID-0 (ds-deepnvme-blog-2024-cpu)
inline constexpr double kNvmeWriteGBps = 5;

struct StepTimeInputs {
    // The model, of one pipeline stage.
    double parameters = 0; // Ψ of the stage
    std::int64_t layers = 0;
    std::int64_t hidden = 0;
    std::int64_t seqLen = 0;
    std::int64_t heads = 0; // hidden must be a multiple; the attention FLOPs do not depend on them
    bool causalMask = true;

    // The batch.
    std::int64_t microBatch = 1;
    std::int64_t gradientAccumulation = 1;
    bool activationCheckpointing = false; // full: every layer's forward runs twice

    // Where the model states live (stage, offload_optimizer / offload_param: none | cpu | nvme).
    Placement placement;
    double stage3MaxReuseDistance = 1e9; // stage3_max_reuse_distance, parameters (DeepSpeed's default)

    // Parallelism: dataParallel × pipelineStages × tensorParallel × sequenceParallel = nodes × gpusPerNode.
    std::int64_t dataParallel = 1;
    std::int64_t gpusPerNode = 1;
    std::int64_t nodes = 1;
    std::int64_t pipelineStages = 1;
    std::int64_t pipelineMicroBatches = 0; // 0: the accumulation steps, as DeepSpeed's pipeline engine runs
    std::int64_t tensorParallel = 1;       // fixed at 1 today; present so they slot in later
    std::int64_t sequenceParallel = 1;
    double elementBytes = 2; // of parameters, gradients and communication: 2 for fp16/bf16, 4 for fp32

    // Hardware.
    double denseTflops = 0;   // dense 16-bit tensor TFLOPS of one GPU (gpus.tsv)
    std::string architecture; // gpus.tsv's architecture ("Ampere (GA100)"): picks the calibrated GEMM efficiency
    bool fp8Gemms = false;    // Transformer Engine fp8: the dense GEMMs run kFp8GemmSpeedup faster
    double mfu = 0;           // hardware.mfu given: one flat share of peak on every FLOP; 0: the calibrated efficiency
    double intraNodeGBps = 0; // one GPU's link to its peers, one direction, GB/s
    double nicGbps = 0;       // one NIC's line rate, Gbit/s per direction (networks.tsv)
    std::int64_t nicsPerNode = 1;
    double overlap = 0;                                      // share of communication hidden behind compute, 0..1
    double pcieGBps = 0;                                     // effective GPU↔host rate per GPU, one direction, GB/s
    double cpuAdamParamsPerSecond = kCpuAdamParamsPerSecond; // one node's CPUs together
    double nvmeReadGBps = kNvmeReadGBps;                     // one node's NVMe together
    double nvmeWriteGBps = kNvmeWriteGBps;
    bool explain = true; // build each part's formula text (the plan search ranks without it)
};

// One component's time with how it was computed.
struct StepTimePart {
    std::string name; // compute | communication | offload | bubble
    double seconds = 0;
    std::string formula;              // the arithmetic with the numbers put in
    std::vector<std::string> sources; // ids in sources.tsv
};

struct StepTime {
    double compute = 0;       // seconds per optimizer step
    double communication = 0; // exposed: what overlap does not hide
    // The part of communication that reduces gradients (the all-reduce at stage 0, the reduce-scatters at stages
    // 1–3); the rest all-gathers parameters. Overlap hides both in proportion.
    double gradientReduction = 0;
    double offload = 0; // PCIe copies + CPU optimizer + NVMe swap
    double bubble = 0;
    double total = 0;
    double tokensPerSecondPerGpu = 0;

    // The parts behind the components.
    double flops = 0;                    // executed per GPU per step
    double gemmEfficiency = 0;           // share of peak the dense FLOPs ran at (hardware.mfu when given)
    double communicationBytes = 0;       // sent per GPU per step
    double communicationLinkSeconds = 0; // before overlap
    double stage3KeptForBackward = 0;    // parameters not gathered again in backward (stage 3)
    double linkGBps = 0;                 // the ring's bottleneck
    double pcieBytes = 0;                // per GPU per step, both directions
    double pcieSeconds = 0;
    double cpuAdamSeconds = 0;
    double nvmeBytes = 0; // per node per step, reads and writes
    double nvmeSeconds = 0;
    double bubbleFraction = 0; // (p−1)/(m+p−1)

    std::vector<StepTimePart> parts;
};

// Throws std::invalid_argument naming the input and what is allowed.
StepTime estimateStepTime(const StepTimeInputs& in);

// The calibrated GEMM efficiency of an architecture (gpus.tsv's words: "Volta", "Ampere", "Hopper"; the others take
// their closest calibrated generation, a stated assumption) at `tokens` per micro-batch per GPU.
double gemmEfficiency(const std::string& architecture, double tokens);

// The share of communication hidden: kOverlapHidden where DeepSpeed overlaps it
// (overlap_comm, unset: on at stage 3 only, ds-overlap-comm; a pipeline turns it off, ds-pipe-zero1-overlap),
// else 0 (stages 0 and 1 reduce after the backward, ds-zero-reduce-boundary).
double assumedOverlap(int stage, std::optional<bool> overlapComm, bool pipeline);

// A candidate's times as the plan JSON carries them:
// {"step_seconds": {"total", "compute", "communication", "offload", "bubble"}, "tokens_per_second_per_gpu"}.
nlohmann::json stepTimeJson(const StepTime& t);

// What the catalogs say, as the inputs want it (nothing where the catalog has no figure).
std::optional<double> denseTflopsOf(const GpuSpec& gpu, bool bf16); // falls back to the other 16-bit column
std::optional<double> intraNodeGBpsOf(const GpuSpec& gpu);          // first GB/s or TB/s figure, halved
std::optional<int> pcieGenerationOf(const GpuSpec& gpu);            // "PCIe Gen4" → 4
// Effective per-direction GPU↔host rate: the datasheet's x16 rate for the generation (Gen3 32, Gen4 64,
// Gen5 128 GB/s both directions) halved, × kHostLinkEfficiency.
double assumedPcieGBps(int generation);

} // namespace dsw
