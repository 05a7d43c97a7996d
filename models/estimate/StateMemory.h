#pragma once
// Memory as DeepSpeed 0.19.5 allocates it, by component: the model states and the buffers each ZeRO stage,
// offload placement and precision creates on the GPU, in host RAM and on NVMe, read from DeepSpeed's code
// (every component names its sources.tsv row, which gives file and lines). The optimizer is Adam (two
// states per parameter), as DeepSpeed's own estimators assume. Activations come from the caller's activation
// model and are added to the forward/backward phase.
//
// Phases: "steady" is what stays allocated between steps (torch.cuda.memory_allocated() after step());
// the peak is steady plus the larger of the forward/backward transients and the optimizer-step
// transients; "reserved" is GPU memory outside PyTorch's allocator (CUDA context, NCCL), and fragmentation
// is a stated share of the peak. GPU bytes are per GPU; host RAM and NVMe bytes are per node (every rank of
// the node holds its own partition). Integer bytes, saturating at kSaturated (util/CheckedMath.h).
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace dsw {

enum class OffloadDevice { None, Cpu, Nvme };
enum class TrainingPrecision { Fp16, Bf16, Fp32 };
// training.precision_states: Fp32 = fp32 master weights, gradients and Adam states (DeepSpeed's default);
// Bf16 = bf16.bf16_master_weights_and_grads + bf16.bf16_optimizer_states (bf16 and ZeRO 1-3 only).
enum class StatePrecision { Fp32, Bf16 };

// The zero_optimization and offload_* knobs that size buffers, with DeepSpeed 0.19.5's defaults
// (zero/config.py, zero/offload_config.py). Sizes are element counts, as in the config.
struct ZeroBufferSettings {
    std::int64_t reduceBucketSize = 500'000'000;
    std::int64_t allgatherBucketSize = 500'000'000;
    std::optional<bool> overlapComm; // unset: DeepSpeed's default, true at stage 3 only
    bool contiguousGradients = true;
    std::int64_t prefetchBucketSize = 50'000'000;     // stage3_prefetch_bucket_size
    std::int64_t maxLiveParameters = 1'000'000'000;   // stage3_max_live_parameters
    std::int64_t maxReuseDistance = 1'000'000'000;    // stage3_max_reuse_distance
    std::int64_t paramPersistenceThreshold = 100'000; // stage3_param_persistence_threshold
    std::int64_t subGroupSize = 1'000'000'000;
    bool pinMemory = true;                      // offload_*.pin_memory (true from 0.19.5)
    std::int64_t optimizerBufferCount = 4;      // offload_optimizer.buffer_count (NVMe)
    std::int64_t paramBufferCount = 5;          // offload_param.buffer_count (NVMe)
    std::int64_t paramBufferSize = 100'000'000; // offload_param.buffer_size (NVMe)
    std::int64_t paramMaxInCpu = 1'000'000'000; // offload_param.max_in_cpu (NVMe)
};

struct StateMemoryInputs {
    int stage = 0; // ZeRO stage 0-3
    OffloadDevice offloadOptimizer = OffloadDevice::None;
    OffloadDevice offloadParam = OffloadDevice::None; // honoured at stage 3 only, as DeepSpeed does
    std::int64_t params = 0;                          // trained, of this pipeline stage (all with full fine-tuning)
    // LoRA and QLoRA (knowledge/AdapterShape.h): the frozen base of this stage, which has no gradients and no optimizer
    // states. DeepSpeed's ZeRO 1-2 build their groups from trainable parameters only, so every GPU keeps the frozen
    // weights whole; ZeRO-3 partitions every parameter, frozen ones included.
    std::int64_t frozenParams = 0;
    std::int64_t frozenBytes = 0;         // as stored: 2 bytes each in 16-bit, or QLoRA's half byte for the linears
    std::int64_t frozenConstantBytes = 0; // QLoRA's quantization constants, an attribute of each weight, never split
    std::int64_t dequantizedBytes = 0;    // QLoRA: the largest linear dequantized for its matmul, alive during it
    std::int64_t largestLayerParams = 0;  // the largest module's own parameters (stands in for the largest tensor)
    std::int64_t layers = 1;              // transformer blocks of this pipeline stage
    std::int64_t blockParams = 0;         // parameters of one block (the ZeRO-3 gathered block); 0: params / layers
    std::int64_t dataParallel = 1;        // ranks the states are partitioned over
    // A mixture of experts with expert parallelism (ZeRO 0-2): of `params`, the routed experts' trained parameters,
    // split over `expertParallel` ranks, each rank keeping experts ÷ ep whole and partitioning their states over the
    // expert-data-parallel group (dataParallel ÷ ep ranks); the rest over all dataParallel ranks (ds-moe-param-groups).
    // The buffers are the dense part's. expertParallel must divide dataParallel.
    std::int64_t expertParams = 0;
    std::int64_t expertParallel = 1;
    int gpusPerNode = 1;
    int nodes = 1; // for DeepSpeed's estimator row only
    TrainingPrecision precision = TrainingPrecision::Bf16;
    StatePrecision states = StatePrecision::Fp32;
    int gradientAccumulationSteps = 1;
    // DeepSpeed's PipelineEngine runs the step: with bf16 at stage 0 it wraps the optimizer in BF16_Optimizer.
    bool pipeline = false;
    // data_types.grad_accum_dtype fp32 (bf16 training, ZeRO stage 1, no optimizer offload): BF16_Optimizer with
    // an fp32 gradient buffer of the whole stage instead of ZeRO-1's optimizer.
    bool fp32GradAccumulation = false;
    ZeroBufferSettings buffers;
    std::int64_t activationBytes = 0;  // per GPU, from the caller's activation model; 0: not counted
    std::string_view activationSource; // its sources.tsv id, a literal (required when activationBytes > 0)
    // Stage 3: whether the model was built under deepspeed.zero.Init, which replaces torch's linear with
    // DeepSpeed's memory-efficient one. Without it, and without full checkpointing, torch's linear keeps
    // every gathered weight it used in forward until its backward.
    bool zeroInit = true;
    // The words: the conventions (MemoryComponent::convention), the notes and DeepSpeedEstimate::label; false
    // leaves them empty, every byte figure the same. The step model sizes its candidates without them: no view
    // reads the words, and building them was most of sizing a candidate.
    bool describe = true;
    bool fullCheckpointing = false;
    bool expandableSegments = false; // PYTORCH_CUDA_ALLOC_CONF=expandable_segments:True (kAllocatorReserveExpandable)
};

enum class MemoryPlace { Gpu, HostRam, Nvme };
// Steady: allocated between steps. Transient: alive during forward/backward, the optimizer step, or both.
// Reserved: GPU memory PyTorch's allocator does not report (CUDA context, NCCL, the allocator's reserve).
enum class MemoryPhase { Steady, Transient, Reserved };

// Ids and sources are literals (string views of them), so sizing a candidate allocates no text.
struct MemoryComponent {
    std::string_view id; // stable: params16, grads16, master32, adam_m, adam_v, grad_partition32, …
    MemoryPlace place;
    MemoryPhase phase;
    std::int64_t bytes;           // per GPU (Gpu) or per node (HostRam, Nvme)
    bool forwardBackward = false; // a transient alive during forward/backward
    bool step = false;            // a transient alive from the accumulation boundary through the optimizer step
    bool pinned = false;          // page-locked host memory
    std::string_view source;      // sources.tsv id
    std::string convention;       // bytes-per-parameter convention, in words
};

// DeepSpeed's own estimator for the same placement (model states only), exact, shown beside.
struct DeepSpeedEstimate {
    std::int64_t gpuBytes;
    std::int64_t cpuBytesPerNode;
    std::string label; // e.g. "DeepSpeed estimate_zero3_model_states_mem_needs (model states only)"
};

struct StateMemory {
    std::vector<MemoryComponent> components;
    std::vector<std::string> notes; // what DeepSpeed does differently from what was asked, assumptions
    std::optional<DeepSpeedEstimate> deepSpeedEstimate;

    std::int64_t gpuSteady() const;          // allocated between steps
    std::int64_t gpuForwardBackward() const; // transients of forward/backward, activations included
    std::int64_t gpuStep() const;            // transients of the optimizer step
    std::int64_t gpuPeakAllocated() const;   // steady + the larger transient phase
    std::int64_t gpuReserved() const;        // outside PyTorch's allocator, its reserve included
    std::int64_t gpuTotal() const;           // what the GPU must hold: peak allocated + reserved
    std::int64_t hostPerNode() const;
    std::int64_t hostPinnedPerNode() const;
    std::int64_t nvmePerNode() const;
    const MemoryComponent* find(std::string_view id, MemoryPlace place) const;
};

// The caching allocator's reserve: memory PyTorch holds in its cache beyond what is allocated at the peak, as a share
// of the peak allocated. Reserved-but-unallocated at the out-of-memory messages of static-shape training runs was
// 1.37 GiB of 29.09 GiB allocated (4.7%, oom-reserve-v100), 2.85 of 73.95 (3.9%, oom-reserve-a100), 3.64 of 73.28 (5.0%,
// DeepSeek-Coder-V2 with offload) and 1.83 of 75.31 (2.4%) (calibration.md C83, C87, C88, C96): the reserve is the
// largest of them, so that every run that ran is sized with room for it. With
// PYTORCH_CUDA_ALLOC_CONF=expandable_segments:True, which PyTorch's own message recommends against fragmentation
// (expandable-segments-peak), the allocator grows segments in place instead of caching blocks of fixed sizes; the
// wizard assumes a 1% reserve then, a stated assumption.
inline constexpr double kAllocatorReserve = 0.05;
inline constexpr double kAllocatorReserveExpandable = 0.01;

// Throws std::invalid_argument naming the input when a count is out of range, the stage is not 0-3, an
// activation size comes without its source, precision_states bf16 is asked without bf16 or at stage 0, or fp32
// gradient accumulation without bf16, at another stage than 1, with optimizer offload or with bf16 states.
// Settings DeepSpeed ignores (offload at stage 0, offload_param below stage 3, NVMe optimizer offload at
// stages 1-2, which DeepSpeed runs as CPU offload) are sized as DeepSpeed runs them, with a note.
StateMemory sizeStateMemory(const StateMemoryInputs& in);

// Host RAM a node needs while the model is built, 4 bytes (fp32, DeepSpeed's docs: "the 4 in 4*n_gpus") per
// parameter a rank materialises × the node's ranks, as DeepSpeed's ZeRO-3 estimator counts it: under zero.Init
// at stage 3 (training.zero_init) each rank builds the model partitioned and holds at most the largest layer
// whole; without zero.Init, or below stage 3 where zero.Init does not partition, every rank builds the whole
// model. A warning with remedies, never a gate.
struct LoadTimeHostRam {
    std::int64_t bytesPerNode;
    bool partitioned;    // zero.Init at stage 3: the largest layer per rank, not the whole model
    std::string basis;   // which of the two and the product, for the message
    std::string warning; // what happens and the remedies
    std::string source;  // sources.tsv id
};
LoadTimeHostRam loadTimeHostRam(std::int64_t params, std::int64_t largestLayerParams, int gpusPerNode, int stage,
                                bool zeroInit);

std::string toString(MemoryPlace place);
std::string toString(MemoryPhase phase);

} // namespace dsw
