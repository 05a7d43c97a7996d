#pragma once
// The time of one optimizer step of a candidate plan, by component, from published formulas and the byte
// counts DeepSpeed v0.19.5's code moves. Every component carries its formula and its sources
// (resources/knowledge/sources.tsv), so the wizard can show why one plan is faster than another.
//
// Conventions (stated with every number):
//  - Compute: 6Ψ FLOPs per token for forward + backward (kaplan-6n), 8Ψ with full activation checkpointing
//    (one more forward, narayanan-recompute-flops), 6Ψ + 2Ψ·n/L with n of L layers checkpointed, plus attention 4·s²·h per layer and sequence forward
//    (QKᵀ and attention·V, 2·s²·h each; korthikanti-flops), ×3 for forward + backward, ×4 with
//    checkpointing (3 + n/L for n of L layers), halved with a causal mask (kernels that skip masked blocks). The dense FLOPs run at the GPU's
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
//  - Offload: bytes per partitioned parameter per step over the host link as DeepSpeed's code copies them
//    (ds-offload-grad-copy, ds-offload-param-copy), each direction at its effective rate for the GPU's link
//    (hostLinkRate), plus DeepSpeedCPUAdam on the node's share of parameters at a rate set by the node's cores and
//    capped by its memory bandwidth (cpuAdamParamsPerSecond), plus NVMe swap volume at the NVMe read and write rates.
//  - Pipeline bubble: (p−1)/m of the stage's compute, i.e. (p−1)/(m+p−1) of the pipelined time
//    (narayanan-bubble), m = micro-batches per step (DeepSpeed's pipeline engine: the accumulation steps).
#include "estimate/PlacementMemory.h"

#include <nlohmann/json.hpp>

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
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
// QLoRA's frozen GEMMs dequantize each 4-bit weight before a 16-bit matmul: a whole LoRA run took 1.85 h and the
// same run in QLoRA 2.79 h (raschka-qlora-time: Llama 2 7B, one A100, r 8, Lit-GPT), 1.51×, charged to the frozen
// base's FLOPs, which are nearly all of that run's.
// Sources (resources/knowledge/sources.tsv): raschka-qlora-time
inline constexpr double kQloraFrozenGemmSlowdown = 2.79 / 1.85;
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
// How far real step times fall from the model's: the 10th and 90th percentiles of measured ÷ predicted step time over
// the calibration rows (README, "Step time and fit against published runs"; TestCalibration recomputes them).
inline constexpr double kStepTimeLikelyLow = 0.78;
inline constexpr double kStepTimeLikelyHigh = 1.29;
// A mixture of experts' step is not covered by that band: no published run of a path the wizard plans gives its full
// conditions, and the two H200 measurements of Transformers' own MoE models (tests/data/moe-step-reference.tsv;
// README, "Mixture of experts") fell at 0.81 and 1.50 of the model, the narrow experts' outside the dense band. Its
// step time is shown with the spread of both together (TestMoePlans holds these to the measurements).
inline constexpr double kMoeStepTimeMeasuredLow = 0.81;
inline constexpr double kMoeStepTimeMeasuredHigh = 1.50;
inline constexpr double kNvmeReadGBps = 10; // 4 NVMe SSDs in RAID-0 (ds-deepnvme-blog-2024-cpu)
inline constexpr double kNvmeWriteGBps = 5;

// The host link. Pinned copies of ≤ 1 GiB, one direction, NUMA-local, as measured (calibration.md C73–C80), GB/s:
//   PCIe Gen3   H2D 12.15   D2H 12.89   P100 bandwidthTest (C73; V100 10.2 and RTX 2080 Ti 13.1 agree, C74–C75)
//   PCIe Gen4   H2D 25.13   D2H 25      A100 nvbandwidth (C77; D2H "maintains ~25" in C78)
//   PCIe Gen5   H2D 35.2    D2H 52.77   H100 nvbandwidth (C79: 35.03–35.39 and 52.76–52.78 over eight GPUs)
//   NVLink-C2C  H2D 346     D2H 301     GH200 nvbandwidth copy engine (C80; D2H is H2D ÷ 1.15, "H2D is
//                                       approximately 15% faster than D2H")
// Offload does not run at these peaks. The one measurement of copies made in training, D6 (8 × H200, Gen5: 0.108 s
// for each GB sent to the host and back), gives 1/(e·52.77) + 1/(e·35.2) = 0.108 s per GB ⇒ e = 0.44, and C78 shows
// why: with both directions busy, as gradients leave for the host while parameters come back, an A100's H2D fell
// from 25.13 to ≈11 GB/s (0.44). The wizard applies e = 0.44 to both directions: for H2D it is C78's measured loss; for D2H, which C78 saw
// keep its rate, it is what D6's end-to-end copies gave, so the figure is conservative for D2H alone. Copies of
// 10 GiB and more run ~30% slower still (C77), but DeepSpeed copies in sub-groups and buckets well below that.
// A GPU the catalog does not know is assumed on PCIe Gen4 x16, the most common link in the catalog.
// Sources (resources/knowledge/sources.tsv): pcie3-bandwidthtest-p100, nvbandwidth-a100-h2d,
// nvbandwidth-a100-bidirectional, nvbandwidth-h100-host, nvbandwidth-gh200-c2c, ds-activation-offload-cost
inline constexpr double kHostLinkEfficiency = 0.44;

struct HostLinkRate {
    std::string link;        // as gpus.tsv's host_link names it
    double peakHostToDevice; // the measured one-direction peak, GB/s
    double peakDeviceToHost;
    double hostToDeviceGBps; // effective: the peak × kHostLinkEfficiency
    double deviceToHostGBps;
};
// The rates of a host_link cell (knowledge/GpuCatalog.h, kHostLinks); throws std::invalid_argument for another.
HostLinkRate hostLinkRate(std::string_view link);
inline constexpr std::string_view kAssumedHostLink = "PCIe Gen4 x16";

// DeepSpeedCPUAdam's rate on one node, from its physical cores: each core adds r parameters per second until the
// host's memory bandwidth caps the node at R (Adam reads and writes ≈30 bytes per parameter, calibration.md §3):
//     rate(c) = 1 / (1/(c·r) + 1/R),   r = 0.329e9 parameters/s per core,   R = 1.81e9 parameters/s per node
// fitted exactly on two rows:
//   C65  DeepSpeed CPU-Adam, one V100 on a DGX-2 host (2 × 24-core Xeon Platinum 8168, 48 cores): the whole GPT-2
//        10.3B in 6.22–6.48 s (optimizer_step), 1.62e9/s; one GPU, so the node's share is the whole model.
//   C70  fp32 AdamW, one rank on one thread (a torch per-parameter loop, not DeepSpeed's vectorised kernel, so
//        conservative per core): 536.9M elements in 1.93 s, 0.278e9/s.
// R·30 B = 54 GB/s of host traffic, near the ≈49 GB/s calibration.md derives from C65: past ~20 cores the memory, not
// the cores, sets the rate (rate(20) = 0.78 R, rate(48) = 0.90 R). Checked against, not fitted on:
//   C66  11.6B in 8.2 s, CPU not stated (the same team's DGX-2 era): 7.14 s at 48 cores, −13%.
//   C70  one rank on two threads 1.81 s: 1.11 s, −38% (the per-parameter loop barely uses the second thread);
//        eight ranks time-sliced on 2 CPUs 17.2 s: 8.9 s, −48% — time-slicing costs beyond the core count, which
//        the model leaves out (bind cores to ranks: C68 measured 1.3× from --bind_cores_to_rank).
//   D7   Llama-2-7B on 4 × A100, "the CPU optimizer path > 4 s": 6.74B at 48 cores 4.15 s, within the bound.
//   #6695  Llama-2 1.2B, DeepSpeedCPUAdam 1.5 s per step, host and GPU count not stated: 0.74 s at 48 cores, −51%;
//        the constant the wizard used before (0.8e9/s per node) came from this row alone.
// Left out: C67, 1.35B in 21.8 s on a 10-core Xeon Silver 4210R, 19× slower than this model (1.16 s) and 5× slower
// per core than C65 (6.2e6 against 34e6 parameters/s per core), so no rate that grows with cores fits both; it was
// filed as a bug, its reporter expecting "less than 5 seconds", and no cause is given in it.
// Sources (resources/knowledge/sources.tsv): ds-zero-offload-10b, cpu-adamw-time-slicing, ds-cpu-adam-11b,
// ds-bind-cores-to-rank, zenflow-offload-penalty, ds-cpu-adam-measured, ds-cpu-adam-slow-host
inline constexpr double kCpuAdamParamsPerCoreSecond = 0.329e9;
inline constexpr double kCpuAdamNodeParamsPerSecond = 1.81e9;
// The wizard's assumption when hardware.cpu_cores_per_node is not given: C65's DGX-2 host, the one host in the data
// whose cores are known; rate(48) is 0.90 R, and 128 cores would give 0.96 R, so a larger host changes little.
// Sockets are not an input: R is the memory bandwidth of C65's two-socket host, and no row in the data separates
// sockets from cores or from the memory generation behind them, so a socket count would only scale R by a guess.
inline constexpr int kAssumedCpuCoresPerNode = 48;
double cpuAdamRate(double cores); // parameters per second of one node; cores > 0

// A mixture of experts' share of the step (estimate/StepModel.h sets it from knowledge/MoeShape.h). Compute counts the
// parameters a token uses: `activeShare` of Ψ (and of Ψ_frozen), of which the routed experts' `routedShare` runs as one
// GEMM per expert on the tokens routed to it, tokens·k·ep / E per micro-batch (each rank's experts receive from ep
// ranks), at the calibrated efficiency of that many tokens: a stated assumption, since no published run separates the
// experts' GEMMs. Expert parallelism (ep > 1) adds an all-to-all per MoE layer to dispatch the tokens and one to
// combine them, in forward and again in backward (and in the recomputed forward), each sending tokens·k·h elements
// × (ep − 1)/ep per GPU (ds-moe-all-to-all; ../shared/knowledge/next-capabilities.md §3.4), on the node's link when ep
// fits in a node, else across nodes, never hidden (the experts wait for their tokens). The experts' gradients are
// reduced over the expert-data-parallel group (d ÷ ep ranks, ds-moe-param-groups), the rest over all d.
struct MoeStepInputs {
    double activeShare = 1;           // active ÷ total parameters
    double routedShare = 0;           // of the active parameters, the routed experts'
    double expertParameters = 0;      // of Ψ (trained), the routed experts', all of them
    std::int64_t experts = 1;         // routed experts per MoE layer
    std::int64_t expertsPerToken = 1; // k
    std::int64_t moeLayers = 0;       // of the stage
    std::int64_t expertParallel = 1;  // ep; divides dataParallel
};

struct StepTimeInputs {
    // The model, of one pipeline stage.
    double parameters = 0; // Ψ of the stage, trained
    // LoRA and QLoRA's frozen base (Ψ_f): its forward and the input-gradient half of its backward run, 4Ψ_f per token
    // instead of 6Ψ_f (no weight gradient); it has no gradients to reduce and no optimizer step; ZeRO-3 gathers it
    // every micro-step at frozenElementBytes each (2, or QLoRA's half byte), and offload_param moves it.
    double frozenParameters = 0;
    double frozenElementBytes = 2;
    double frozenGemmSlowdown = 1; // QLoRA: kQloraFrozenGemmSlowdown on the frozen base's FLOPs
    std::int64_t layers = 0;
    std::int64_t hidden = 0;
    std::int64_t seqLen = 0;
    std::int64_t heads = 0; // hidden must be a multiple; the attention FLOPs do not depend on them
    bool causalMask = true;

    // The batch.
    std::int64_t microBatch = 1;
    std::int64_t gradientAccumulation = 1;
    // The share of the layers whose forward runs again in backward: 1 with full activation checkpointing, n/L with
    // n of L layers checkpointed, 0 without.
    double recomputedShare = 0;

    // Where the model states live (stage, offload_optimizer / offload_param: none | cpu | nvme).
    Placement placement;
    double stage3MaxReuseDistance = 1e9; // stage3_max_reuse_distance, parameters (DeepSpeed's default)

    // Parallelism: dataParallel × pipelineStages × tensorParallel × sequenceParallel = nodes × gpusPerNode.
    std::int64_t dataParallel = 1;
    std::int64_t gpusPerNode = 1;
    std::int64_t nodes = 1;
    std::int64_t pipelineStages = 1;
    std::int64_t pipelineMicroBatches = 0; // 0: the accumulation steps, as DeepSpeed's pipeline engine runs
    std::int64_t tensorParallel = 1;       // fixed at 1 today; present so it slots in later
    // Ulysses (ALST): each GPU of a sequence-parallel group computes s/sp tokens of every layer, attention over all s
    // for a/sp heads; ZeRO and the gradient reduction span dataParallel × sequenceParallel ranks (ulysses-zero-group).
    // Per layer, an all-to-all of q, k, v before attention and of its output after, in forward, backward and a
    // recomputed forward: tokens/sp × (2·attentionWidth + 2·kvWidth) elements × (sp−1)/sp per GPU (ulysses-all-to-all),
    // on the node's link within a node, else on the GPU's share of the NICs, never hidden (attention waits for it).
    std::int64_t sequenceParallel = 1;
    std::int64_t attentionWidth = 0; // heads × head width: q and the attention output per token
    std::int64_t kvWidth = 0;        // KV heads × head width: k and v each
    // TiledMLP: the MLPs' share of Ψ, whose forward runs once more in backward (each shard recomputed).
    double tiledMlpShare = 0;
    // Checkpoint offload: bytes per GPU per micro-step sent to pinned host memory in forward and fetched back in
    // backward, at the host link's rates; ALST's implementation blocks (alst-checkpoint-offload), so none is hidden.
    double checkpointOffloadBytes = 0;
    double elementBytes = 2; // of parameters, gradients and communication: 2 for fp16/bf16, 4 for fp32

    // Hardware.
    double denseTflops = 0;   // dense 16-bit tensor TFLOPS of one GPU (gpus.tsv)
    std::string architecture; // gpus.tsv's architecture ("Ampere (GA100)"): picks the calibrated GEMM efficiency
    bool fp8Gemms = false;    // Transformer Engine fp8: the dense GEMMs run kFp8GemmSpeedup faster
    double mfu = 0;           // hardware.mfu given: one flat share of peak on every FLOP; 0: the calibrated efficiency
    double intraNodeGBps = 0; // one GPU's link to its peers, one direction, GB/s
    double nicGbps = 0;       // one NIC's line rate, Gbit/s per direction (networks.tsv)
    std::int64_t nicsPerNode = 1;
    double overlap = 0; // share of communication hidden behind compute, 0..1
    // The host link of each GPU, effective per-direction rates in GB/s (hostLinkRate), and its name for the text.
    double hostToDeviceGBps = 0;
    double deviceToHostGBps = 0;
    std::string hostLink;
    double cpuAdamParamsPerSecond = cpuAdamRate(kAssumedCpuCoresPerNode); // one node's CPUs together
    double cpuCoresPerNode = kAssumedCpuCoresPerNode;                     // behind that rate; for the text only
    double nvmeReadGBps = kNvmeReadGBps;                                  // one node's NVMe together
    double nvmeWriteGBps = kNvmeWriteGBps;
    bool explain = true; // build each part's formula text (the plan search ranks without it)
    MoeStepInputs moe;   // a dense model: its defaults
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
    double offload = 0; // host-link copies + CPU optimizer + NVMe swap
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
    double hostLinkBytes = 0;            // per GPU per step, both directions
    double hostLinkSeconds = 0;
    double cpuAdamSeconds = 0;
    double nvmeBytes = 0; // per node per step, reads and writes
    double nvmeSeconds = 0;
    double bubbleFraction = 0;        // (p−1)/(m+p−1)
    double allToAll = 0;              // seconds of the experts' all-to-alls, within communication
    double allToAllBytes = 0;         // sent per GPU per step
    double sequenceAllToAll = 0;      // seconds of Ulysses's all-to-alls, within communication
    double sequenceAllToAllBytes = 0; // sent per GPU per step
    double checkpointOffload = 0;     // seconds of checkpoint offload copies, within offload

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
// One GPU's peer bandwidth, one direction: the cell's aggregate when it states one ("7 links x 128 GB/s peak (896 GB/s
// aggregate)"), else links × the per-link figure ("'8' links, … 100 GB/s (per link)"), else its first GB/s or TB/s
// figure; halved, as datasheets state both directions together.
std::optional<double> intraNodeGBpsOf(const GpuSpec& gpu);

} // namespace dsw
