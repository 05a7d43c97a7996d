// Sources (resources/knowledge/sources.tsv): pytorch-device-str-eq, ds-mem-device-name, ds-mem-z3-allgather,
// ds-mem-z3-subgroups, ds-examples-bf16-master, ds-bf16-optimizer-select, ds-pipe-bf16-accum-warning
// The first two are why ZeRO-3 always copies the master weights, the next two what the working set and the step's
// sub-group are; the last is the runs tests/models/estimate/TestStateMemory.cpp checks.
#include "estimate/StateMemory.h"

#include "estimate/DeepSpeedEstimator.h"
#include "util/CheckedMath.h"
#include "util/Count.h"

#include <algorithm>
#include <stdexcept>

namespace dsw {

namespace {

constexpr std::int64_t kMiB = 1024 * 1024;
// CUDA context with lazy module loading (~300 MB measured, cuda-context-size) plus cuBLAS/cuDNN workspaces and
// the kernels a training step loads: a wizard allowance, rounded up.
constexpr std::int64_t kCudaContextBytes = 512 * kMiB;
// NCCL's Simple-protocol buffer per connection and channel (nccl-buffsize), two ring neighbours, up to 32 channels.
constexpr std::int64_t kNcclBuffSize = 4 * kMiB;
constexpr std::int64_t kNcclPeers = 2;
constexpr std::int64_t kNcclChannels = 32;
// All-gather reads and writes are aligned for the swapper's AIO (swap_tensor/*: AIO_ALIGNED_BYTES = 1024).
constexpr std::int64_t kAioAlignedBytes = 1024;

std::int64_t ceilDiv(std::int64_t a, std::int64_t b) { return a / b + (a % b != 0 ? 1 : 0); }

std::int64_t alignUp(std::int64_t numel, std::int64_t elementBytes)
{
    const std::int64_t alignment = std::max<std::int64_t>(1, kAioAlignedBytes / elementBytes);
    return addSat(numel, (alignment - numel % alignment) % alignment);
}

void require(bool ok, const char* message)
{
    if (!ok)
        throw std::invalid_argument(message);
}

// At least what any sizing creates (18 at most over every stage, offload, precision and pipeline:
// TestStateMemory::wordsLeftOutChangeNoFigure prints it), so the list is allocated once.
constexpr std::size_t kMostComponents = 20;

// Collects components; host and NVMe figures are given per rank and stored per node.
class Builder {
public:
    // `describe` false: the conventions' words are not built (each is a callable, called only when they are).
    Builder(int gpusPerNode, bool describe)
        : m_gpusPerNode(gpusPerNode)
        , m_describe(describe)
    {
        m_memory.components.reserve(kMostComponents);
    }

    template <class Words>
    void steady(const char* id, std::int64_t bytes, std::string_view source, Words&& convention)
    {
        add({id, MemoryPlace::Gpu, MemoryPhase::Steady, bytes, false, false, false, source, words(convention)});
    }
    template <class Words>
    void transient(const char* id, std::int64_t bytes, bool forwardBackward, bool step, std::string_view source,
                   Words&& convention)
    {
        add({id, MemoryPlace::Gpu, MemoryPhase::Transient, bytes, forwardBackward, step, false, source,
             words(convention)});
    }
    template <class Words>
    void reserved(const char* id, std::int64_t bytes, std::string_view source, Words&& convention)
    {
        add({id, MemoryPlace::Gpu, MemoryPhase::Reserved, bytes, false, false, false, source, words(convention)});
    }
    template <class Words>
    void host(const char* id, std::int64_t bytesPerRank, bool pinned, std::string_view source, Words&& convention)
    {
        add({id, MemoryPlace::HostRam, MemoryPhase::Steady, mulSat(bytesPerRank, m_gpusPerNode), false, false, pinned,
             source, perNode(convention)});
    }
    template <class Words>
    void nvme(const char* id, std::int64_t bytesPerRank, std::string_view source, Words&& convention)
    {
        add({id, MemoryPlace::Nvme, MemoryPhase::Steady, mulSat(bytesPerRank, m_gpusPerNode), false, false, false,
             source, perNode(convention)});
    }
    // Adds `c`'s bytes to the component of the same id, place and phase, or adds it (the experts' states, sized apart).
    void merge(const MemoryComponent& c)
    {
        for (MemoryComponent& mine : m_memory.components)
            if (mine.id == c.id && mine.place == c.place && mine.phase == c.phase) {
                mine.bytes = addSat(mine.bytes, c.bytes);
                return;
            }
        add(c);
    }
    StateMemory& result() { return m_memory; }

private:
    void add(MemoryComponent c) { m_memory.components.push_back(std::move(c)); }
    template <class Words>
    std::string words(Words& convention) const
    {
        return m_describe ? convention() : std::string();
    }
    template <class Words>
    std::string perNode(Words& convention) const
    {
        return m_describe ? convention() + ", per rank × " + std::to_string(m_gpusPerNode) + " ranks per node"
                          : std::string();
    }
    int m_gpusPerNode;
    bool m_describe;
    StateMemory m_memory;
};

std::string perParam(std::int64_t bytes, const std::string& what)
{
    return std::to_string(bytes) + " bytes/parameter " + what;
}

struct Sizes {
    std::int64_t P;         // trained parameters of the stage
    std::int64_t all;       // with the frozen ones: what ZeRO-3 gathers
    std::int64_t allBlock;  // one transformer block of `all`
    double gatherBytes;     // bytes of a gathered parameter, on average over trained and frozen ones
    std::int64_t part;      // one rank's partition, ceil(P / dp)
    std::int64_t largest;   // largest module's own parameters
    std::int64_t block;     // one transformer block
    std::int64_t lp;        // bytes of a model (16-bit, or fp32) element
    std::int64_t master;    // bytes of a master weight (and of the optimizer's gradient)
    std::int64_t state;     // bytes of one Adam state
    std::int64_t gradAccum; // bytes of the ZeRO-3 gradient partition (gradient_accumulation_dtype)
    bool overlap;
    int ga;
};

void validate(const StateMemoryInputs& in)
{
    require(in.stage >= 0 && in.stage <= 3, "stage: must be 0, 1, 2 or 3");
    require(in.params >= 1, "params: must be at least 1");
    require(in.largestLayerParams >= 0 && in.largestLayerParams <= in.params,
            "largest_layer_params: must be between 0 and the stage's parameters");
    require(in.layers >= 1, "layers: must be at least 1");
    require(in.blockParams >= 0 && in.blockParams <= in.params,
            "block params: must be between 0 (params / layers) and the stage's parameters");
    require(in.dataParallel >= 1, "data-parallel size: must be at least 1");
    require(in.expertParallel >= 1 && in.dataParallel % in.expertParallel == 0,
            "expert-parallel size: must be at least 1 and divide the data-parallel size");
    require(in.expertParams >= 0 && in.expertParams <= in.params, "expert parameters: must be 0 to params");
    require(in.gpusPerNode >= 1, "gpus_per_node: must be at least 1");
    require(in.nodes >= 1, "nodes: must be at least 1");
    require(in.gradientAccumulationSteps >= 1, "gradient_accumulation_steps: must be at least 1");
    const ZeroBufferSettings& b = in.buffers;
    require(b.reduceBucketSize >= 0 && b.allgatherBucketSize >= 0 && b.prefetchBucketSize >= 0
                && b.maxLiveParameters >= 0 && b.maxReuseDistance >= 0 && b.paramPersistenceThreshold >= 0
                && b.subGroupSize >= 0 && b.optimizerBufferCount >= 0 && b.paramBufferCount >= 0
                && b.paramBufferSize >= 0 && b.paramMaxInCpu >= 0,
            "zero_optimization buffer sizes and counts: must be 0 or more");
    require(in.frozenParams >= 0 && in.frozenBytes >= 0 && in.frozenConstantBytes >= 0 && in.dequantizedBytes >= 0,
            "frozen parameters and bytes: must be 0 or more");
    require(in.activationBytes >= 0, "activation bytes: must be 0 or more");
    require(in.activationBytes == 0 || !in.activationSource.empty(),
            "activation bytes: need the source id of the activation model");
    if (in.states == StatePrecision::Bf16)
        require(in.precision == TrainingPrecision::Bf16 && in.stage >= 1,
                "training.precision_states: bf16 needs bf16 training and ZeRO stage 1, 2 or 3 "
                "(DeepSpeed config.py#L1020-L1028)");
    if (in.fp32GradAccumulation)
        require(in.precision == TrainingPrecision::Bf16 && in.stage == 1 && in.offloadOptimizer == OffloadDevice::None
                    && in.states == StatePrecision::Fp32,
                "data_types.grad_accum_dtype: fp32 is sized for bf16 training at ZeRO stage 1 without optimizer "
                "offload and with fp32 states (DeepSpeed then runs BF16_Optimizer, engine.py#L1950-L1952)");
}

// DeepSpeed wraps the optimizer in BF16_Optimizer (engine.py, _do_optimizer_sanity_check): bf16 under the pipeline
// engine without ZeRO, or ZeRO-1 with fp32 gradient accumulation and no CPU offload.
bool runsBf16Optimizer(const StateMemoryInputs& in)
{
    return in.precision == TrainingPrecision::Bf16 && ((in.stage == 0 && in.pipeline) || in.fp32GradAccumulation);
}

// BF16_Optimizer: the stage's bf16 parameters and the gradients backward leaves in them, a gradient buffer of the
// whole stage in the accumulation dtype (allocated at start-up), and an fp32 master partition per data-parallel
// rank with Adam's states over it.
void bf16Optimizer(Builder& b, const StateMemoryInputs& in, const Sizes& s)
{
    const char* src = "ds-bf16-optimizer-grads";
    const std::int64_t accum = in.fp32GradAccumulation ? 4 : 2;
    b.steady("params16", mulSat(2, s.P), src,
             [&] { return std::string(perParam(2, "of the stage, whole (BF16_Optimizer's bf16 flat buffer)")); });
    b.transient("grads16", mulSat(2, s.P), true, true, src, [&] {
        return std::string(
            perParam(2, "of the stage: the bf16 gradients of a backward, copied into the accumulation buffer"));
    });
    b.steady(in.fp32GradAccumulation ? "grads32_accum" : "grads16_accum", mulSat(accum, s.P), src, [&] {
        return std::string(perParam(
            accum,
            std::string("of the stage, whole: the gradient accumulation buffer (")
                + (in.fp32GradAccumulation ? "data_types.grad_accum_dtype fp32" : "bf16, the model's dtype") + ")"));
    });
    b.steady("master32", mulSat(4, s.part), src,
             [&] { return std::string(perParam(4, "of the rank's partition (fp32 master weights)")); });
    b.steady("adam_m", mulSat(4, s.part), src,
             [&] { return std::string(perParam(4, "of the rank's partition (Adam momentum, fp32)")); });
    b.steady("adam_v", mulSat(4, s.part), src,
             [&] { return std::string(perParam(4, "of the rank's partition (Adam variance, fp32)")); });
    if (in.dataParallel > 1)
        b.transient("buckets", mulSat(accum, std::min<std::int64_t>(s.P, 500'000'000)), false, true,
                    "ds-mem-stage0-allreduce", [&] {
                        return std::string(
                            std::to_string(accum)
                            + " bytes × min(parameters, 5e8): one flattened all-reduce bucket of the accumulated "
                              "gradients at the boundary");
                    });
}

Sizes sizesOf(const StateMemoryInputs& in)
{
    Sizes s{};
    s.P = in.params;
    s.part = ceilDiv(in.params, in.dataParallel);
    s.largest = in.largestLayerParams;
    s.block = in.blockParams > 0 ? in.blockParams : ceilDiv(in.params, in.layers);
    s.lp = in.precision == TrainingPrecision::Fp32 ? 4 : 2;
    s.all = addSat(in.params, in.frozenParams);
    s.allBlock = in.frozenParams > 0 ? ceilDiv(s.all, in.layers) : s.block;
    s.gatherBytes = in.frozenParams > 0
        ? (static_cast<double>(s.lp) * static_cast<double>(in.params) + static_cast<double>(in.frozenBytes))
            / static_cast<double>(s.all)
        : static_cast<double>(s.lp);
    s.master = in.states == StatePrecision::Bf16 ? 2 : 4;
    s.state = in.states == StatePrecision::Bf16 ? 2 : 4;
    s.gradAccum = s.lp; // data_types.grad_accum_dtype unset: the model's dtype
    s.overlap = in.buffers.overlapComm.value_or(in.stage == 3);
    s.ga = in.gradientAccumulationSteps;
    return s;
}

std::string lpName(const Sizes& s) { return s.lp == 2 ? "16-bit" : "fp32"; }

// Bytes of n gathered parameters (trained and frozen in their proportion).
std::int64_t gathered(const Sizes& s, std::int64_t n)
{
    return s.all == s.P ? mulSat(s.lp, n) : truncSat(static_cast<double>(n) * s.gatherBytes);
}

// LoRA and QLoRA's frozen base: whole on every GPU at stages 0-2 (ds-frozen-stage12), partitioned at stage 3 and
// offloaded with offload_param (ds-frozen-stage3); QLoRA's constants stay whole beside it, and the weight bitsandbytes
// dequantizes for a matmul lives during forward and backward (bnb-matmul-4bit).
void frozenWeights(Builder& b, const StateMemoryInputs& in)
{
    if (in.frozenParams == 0)
        return;
    if (in.stage < 3) {
        b.steady("frozen_params", in.frozenBytes, "ds-frozen-stage12", [&] {
            return std::string("the frozen base as stored, whole on every GPU: ZeRO stages 0-2 partition only "
                               "trainable parameters");
        });
    } else {
        const std::int64_t part = ceilDiv(in.frozenBytes, in.dataParallel);
        const auto words = [&] {
            return std::string("the frozen base as stored ÷ " + std::to_string(in.dataParallel)
                               + " ranks: ZeRO-3 partitions frozen parameters too");
        };
        if (in.offloadParam == OffloadDevice::Cpu)
            b.host("frozen_params", part, in.buffers.pinMemory, "ds-frozen-stage3", words);
        else if (in.offloadParam == OffloadDevice::Nvme)
            b.nvme("frozen_params", part, "ds-frozen-stage3", words);
        else
            b.steady("frozen_params", part, "ds-frozen-stage3", words);
    }
    if (in.frozenConstantBytes > 0)
        b.steady("frozen_quant_constants", in.frozenConstantBytes, "qlora-paper", [&] {
            return std::string("bitsandbytes' quantization constants of the 4-bit weights, whole on every GPU");
        });
    if (in.dequantizedBytes > 0)
        b.transient("dequantized_weight", in.dequantizedBytes, true, false, "bnb-matmul-4bit",
                    [&] { return std::string("the largest 4-bit linear dequantized to 16 bits for its matmul"); });
}

void stage0(Builder& b, const StateMemoryInputs& in, const Sizes& s)
{
    const char* wrapper = "ds-mem-engine-wrapper";
    if (s.lp == 4) {
        b.steady("params32", mulSat(4, s.P), wrapper, [&] {
            return std::string(
                perParam(4, "of the stage: fp32 training without ZeRO keeps the basic optimizer, no master copy"));
        });
        b.transient("grads32", mulSat(4, s.P), s.ga > 1, true, wrapper,
                    [&] { return std::string(perParam(4, "of the stage, whole, accumulated until the step")); });
    } else {
        const char* opt = "ds-mem-stage0-fp16-optimizer";
        b.steady("params16", mulSat(2, s.P), opt,
                 [&] { return std::string(perParam(2, "of the stage, whole (FP16_Optimizer's flat buffer)")); });
        b.steady("master32", mulSat(4, s.P), opt,
                 [&] { return std::string(perParam(4, "of the stage, whole fp32 master copy")); });
        b.transient("grads16", mulSat(2, s.P), s.ga > 1, true, opt,
                    [&] { return std::string(perParam(2, "of the stage, whole, accumulated until the step")); });
        b.transient("grad_partition32", mulSat(8, s.P), false, true, opt, [&] {
            return std::string(perParam(8,
                                        "of the stage: step() converts each gradient to fp32 (4) and flattens the "
                                        "copies (4) before they are freed"));
        });
    }
    const char* states = s.lp == 4 ? wrapper : "ds-mem-stage0-fp16-optimizer";
    b.steady("adam_m", mulSat(4, s.P), states,
             [&] { return std::string(perParam(4, "of the stage (Adam momentum, fp32)")); });
    b.steady("adam_v", mulSat(4, s.P), states,
             [&] { return std::string(perParam(4, "of the stage (Adam variance, fp32)")); });
    if (in.dataParallel > 1)
        b.transient("buckets", mulSat(s.lp, std::min<std::int64_t>(s.P, 500'000'000)), false, true,
                    "ds-mem-stage0-allreduce", [&] {
                        return std::string(std::to_string(s.lp)
                                           + " bytes × min(parameters, 5e8): one flattened all-reduce bucket "
                                             "(MEMORY_OPT_ALLREDUCE_SIZE) at the accumulation boundary");
                    });
}

void stages1And2(Builder& b, const StateMemoryInputs& in, const Sizes& s)
{
    const bool offload = in.offloadOptimizer != OffloadDevice::None;
    const bool partitionGrads = in.stage == 2;
    const std::string lp = lpName(s);
    b.steady("params16", mulSat(s.lp, s.P), "ds-mem-z12-params16",
             [&] { return std::string(perParam(s.lp, "of the stage, whole on every GPU (" + lp + " flat buffer)")); });

    // Gradients: whole until the boundary at stage 1, reduced bucket by bucket at stage 2.
    if (!partitionGrads)
        b.transient("grads16", mulSat(s.lp, s.P), s.ga > 1, true, "ds-mem-z1-grads-boundary", [&] {
            return std::string(
                perParam(s.lp, "of the stage, whole until the accumulation boundary (ZeRO-1 reduces there)"));
        });
    if (in.buffers.contiguousGradients) {
        const std::int64_t copies = s.overlap ? 2 : 1;
        b.transient("buckets", mulSat(copies, in.buffers.reduceBucketSize, s.lp), true, true, "ds-mem-z12-ipg-buckets",
                    [&] {
                        return std::string("reduce_bucket_size × " + std::to_string(s.lp) + " bytes"
                                           + (s.overlap ? " × 2 (overlap_comm double-buffers)" : "")
                                           + ", from the first gradient hook of a backward to its epilogue");
                    });
    }
    b.transient("allgather_bucket", 0, false, true, "ds-mem-allgather-into-tensor", [&] {
        return std::string(
            "0 bytes: with all_gather_into_tensor (torch >= 1.13, NCCL) the updated partitions are gathered in "
            "place; allgather_bucket_size only splits the older path");
    });

    if (offload) {
        b.steady("offload_grad_staging", mulSat(s.lp, s.largest), "ds-mem-z12-offload-staging", [&] {
            return std::string(
                perParam(s.lp, "of the largest module: the GPU buffer gradients pass through to the host"));
        });
        b.host("master32", mulSat(s.master, s.part), in.buffers.pinMemory, "ds-mem-z12-master",
               [&] { return std::string(perParam(s.master, "of the rank's partition (master weights on the host)")); });
        b.host("adam_m", mulSat(s.state, s.part), false, "ds-mem-cpu-adam-states",
               [&] { return std::string(perParam(s.state, "of the rank's partition (DeepSpeedCPUAdam momentum)")); });
        b.host("adam_v", mulSat(s.state, s.part), false, "ds-mem-cpu-adam-states",
               [&] { return std::string(perParam(s.state, "of the rank's partition (DeepSpeedCPUAdam variance)")); });
        b.host("grad_partition32", mulSat(s.master, s.part), in.buffers.pinMemory, "ds-mem-z12-fp32-grad-partition",
               [&] {
                   return std::string(perParam(
                       s.master, "of the rank's partition: the optimizer's gradient partition, kept on the host"));
               });
        b.host("params16", mulSat(s.lp, s.part), in.buffers.pinMemory, "ds-mem-z12-master", [&] {
            return std::string(
                perParam(s.lp, "of the rank's partition: the " + lp + " copy the CPU step writes before upload"));
        });
        b.host("offload_grad_staging", mulSat(s.lp, s.largest), in.buffers.pinMemory, "ds-mem-z12-offload-staging",
               [&] {
                   return std::string(
                       perParam(s.lp, "of the largest module: the host side of the gradient staging buffer"));
               });
        if (s.ga > 1 && in.states == StatePrecision::Fp32)
            b.host("grads16_accumulated", mulSat(s.lp, s.part), in.buffers.pinMemory, "ds-mem-z12-offload-accum", [&] {
                return std::string(
                    perParam(s.lp, "of the rank's partition: gradients accumulated on the host between boundaries"));
            });
        return;
    }

    b.steady("master32", mulSat(s.master, s.part), "ds-mem-z12-master",
             [&] { return std::string(perParam(s.master, "of the rank's partition (master weights)")); });
    b.steady("adam_m", mulSat(s.state, s.part), "ds-mem-z12-master", [&] {
        return std::string(perParam(s.state, "of the rank's partition (Adam momentum, the master weights' dtype)"));
    });
    b.steady("adam_v", mulSat(s.state, s.part), "ds-mem-z12-master", [&] {
        return std::string(perParam(s.state, "of the rank's partition (Adam variance, the master weights' dtype)"));
    });
    // ZeRO-2's reduced partition. (At ZeRO-1 the contiguous copy replaces the partition's own whole gradients,
    // which grads16 already counts.)
    if (partitionGrads)
        b.transient("grads16", mulSat(s.lp, s.part), true, true, "ds-mem-z12-grads-in-partition", [&] {
            return std::string(perParam(s.lp, "of the rank's partition: its reduced gradients, contiguous"));
        });
    b.transient("grad_partition16_flat", mulSat(s.lp, s.part), false, true, "ds-mem-z12-step-grad", [&] {
        return std::string(perParam(s.lp, "of the rank's partition: its gradients flattened in step()"));
    });
    if (s.master != s.lp)
        b.transient("grad_partition32", mulSat(s.master, s.part), false, true, "ds-mem-z12-step-grad", [&] {
            return std::string(
                perParam(s.master, "of the rank's partition: its gradients converted for the step, freed after"));
        });
}

void stage3(Builder& b, const StateMemoryInputs& in, const Sizes& s)
{
    const OffloadDevice opt = in.offloadOptimizer;
    const OffloadDevice param = in.offloadParam;
    const std::string lp = lpName(s);
    const bool pin = in.buffers.pinMemory;
    // The partition the optimizer steps over at once (sub_group_size counts partition elements).
    const std::int64_t subGroup =
        std::min(s.part, in.buffers.subGroupSize > 0 ? in.buffers.subGroupSize : std::max<std::int64_t>(1, s.largest));

    if (param == OffloadDevice::None) {
        b.steady("params16", mulSat(s.lp, s.part), "ds-mem-z3-fp16-partitions",
                 [&] { return std::string(perParam(s.lp, "of the rank's partition (" + lp + ")")); });
    } else if (param == OffloadDevice::Cpu) {
        b.host("params16", mulSat(s.lp, s.part), pin, "ds-mem-z3-param-cpu-flat",
               [&] { return std::string(perParam(s.lp, "of the rank's partition, in one flat host buffer")); });
    } else {
        b.host("params16", mulSat(s.lp, std::min(s.part, in.buffers.paramMaxInCpu)), pin, "ds-mem-z3-param-cpu-flat",
               [&] {
                   return std::string(
                       perParam(s.lp, "of min(partition, offload_param.max_in_cpu): the part kept in host memory"));
               });
        b.host("param_swap_buffers",
               mulSat(in.buffers.paramBufferCount, alignUp(in.buffers.paramBufferSize, s.lp), s.lp), pin,
               "ds-mem-z3-param-swap-buffers", [&] {
                   return std::string("offload_param.buffer_count × buffer_size × " + std::to_string(s.lp)
                                      + " bytes of swap buffers");
               });
        b.nvme("params16", mulSat(s.lp, s.part), "ds-mem-z3-param-swap-buffers",
               [&] { return std::string(perParam(s.lp, "of the rank's partition, written to the swap folder")); });
    }

    if (in.buffers.contiguousGradients)
        b.steady("buckets", mulSat(in.buffers.reduceBucketSize, s.lp), "ds-mem-z3-ipg-bucket", [&] {
            return std::string("reduce_bucket_size × " + std::to_string(s.lp)
                               + " bytes, one buffer allocated once (overlap_comm does not double it at stage 3)");
        });

    // The working set of forward and backward: gathered parameters the coordinator keeps (what it prefetches, the
    // block being computed, and whatever is reused within stage3_max_reuse_distance), and the block's gradients.
    // It prefetches at most min(max_live_parameters − those available, prefetch bucket) (coordinator #L452-L454).
    const std::int64_t prefetched = std::min(in.buffers.prefetchBucketSize, in.buffers.maxLiveParameters);
    const std::int64_t window = addSat(in.buffers.maxReuseDistance, prefetched, s.allBlock);
    b.transient("zero3_working_set", gathered(s, std::min(s.all, window)), true, false, "ds-mem-z3-coordinator", [&] {
        return std::string(
            perParam(s.lp,
                     "of min(stage parameters, max_reuse_distance + min(prefetch bucket, "
                     "max_live_parameters) + one block): gathered parameters kept live (an upper bound)"));
    });
    // Without zero.Init, torch's own linear saves a transposed view of each gathered weight for backward, which
    // keeps the gathered buffer alive after ZeRO-3 releases the parameter: every block's weights stay until
    // backward reaches them. Full checkpointing runs forward without saving, so only the recomputed block holds.
    if (!in.zeroInit && !in.fullCheckpointing) {
        const std::int64_t kept = std::min(s.all, addSat(mulSat(in.layers, s.allBlock), window));
        b.transient(
            "zero3_linear_held", gathered(s, kept - std::min(s.all, window)), true, false, "ds-zero3-linear", [&] {
                return std::string(perParam(s.lp,
                                            "of every block's weights beyond the working set: gathered weights torch's "
                                            "linear keeps for backward when the model was not built under zero.Init"));
            });
    }
    b.transient("zero3_gathered_grads", mulSat(s.lp, s.block), true, false, "ds-mem-z3-ipg-bucket", [&] {
        return std::string(perParam(s.lp, "of one block: its whole gradients before they are reduced into the bucket"));
    });

    if (opt == OffloadDevice::None) {
        b.steady("master32", mulSat(s.master, s.part), "ds-mem-z3-master", [&] {
            return std::string(
                perParam(s.master, "of the rank's partition: always a separate copy of the master weights"));
        });
        b.steady("adam_m", mulSat(s.state, s.part), "ds-mem-z3-master", [&] {
            return std::string(perParam(s.state, "of the rank's partition (Adam momentum, the master weights' dtype)"));
        });
        b.steady("adam_v", mulSat(s.state, s.part), "ds-mem-z3-master", [&] {
            return std::string(perParam(s.state, "of the rank's partition (Adam variance, the master weights' dtype)"));
        });
        b.steady("grads16", mulSat(s.gradAccum, s.part), "ds-mem-z3-grad-partitions", [&] {
            return std::string(
                perParam(s.gradAccum, "of the rank's partition: the flat gradient partition, kept between steps"));
        });
        const std::int64_t stepBytes = s.master != s.lp ? s.lp + s.master : s.lp;
        b.transient("grad_partition32", mulSat(stepBytes, subGroup), false, true, "ds-mem-z3-step-grad", [&] {
            return std::string(perParam(stepBytes,
                                        "of the largest sub-group (min(sub_group_size, partition)): the flattened "
                                        "gradients and their converted copy, one sub-group at a time"));
        });
        return;
    }

    b.host("grads16", mulSat(s.gradAccum, s.part), pin, "ds-mem-z3-grad-partitions", [&] {
        return std::string(perParam(
            s.gradAccum, "of the rank's partition: the gradient partition, on the host with optimizer offload"));
    });
    if (opt == OffloadDevice::Cpu) {
        b.host("master32", mulSat(s.master, s.part), false, "ds-mem-z3-master",
               [&] { return std::string(perParam(s.master, "of the rank's partition (master weights on the host)")); });
        b.host("adam_m", mulSat(s.state, s.part), false, "ds-mem-cpu-adam-states",
               [&] { return std::string(perParam(s.state, "of the rank's partition (DeepSpeedCPUAdam momentum)")); });
        b.host("adam_v", mulSat(s.state, s.part), false, "ds-mem-cpu-adam-states",
               [&] { return std::string(perParam(s.state, "of the rank's partition (DeepSpeedCPUAdam variance)")); });
        b.host("grad_partition32", mulSat(s.master, s.part), pin, "ds-mem-z3-offload-grad-buffers", [&] {
            return std::string(perParam(s.master, "of the rank's partition: the optimizer's gradient buffers"));
        });
        return;
    }
    // NVMe: master weights, both Adam states and the optimizer's gradients live in the swap folder; the host keeps
    // buffer_count pinned sub-group buffers and one gradient buffer.
    b.host("optimizer_swap_buffers", mulSat(in.buffers.optimizerBufferCount, alignUp(subGroup, s.master), s.master),
           pin, "ds-mem-z3-nvme-swap-buffers", [&] {
               return std::string("offload_optimizer.buffer_count × largest sub-group × " + std::to_string(s.master)
                                  + " bytes, pinned");
           });
    b.host("grad_partition32", mulSat(s.master, subGroup), false, "ds-mem-z3-offload-grad-buffers", [&] {
        return std::string(
            perParam(s.master, "of the largest sub-group: the gradient buffer a swapped sub-group steps with"));
    });
    b.nvme("master32", mulSat(s.master, s.part), "ds-mem-z3-nvme-swap-buffers",
           [&] { return std::string(perParam(s.master, "of the rank's partition (master weights)")); });
    b.nvme("adam_m", mulSat(s.state, s.part), "ds-mem-z3-nvme-swap-buffers",
           [&] { return std::string(perParam(s.state, "of the rank's partition (Adam momentum)")); });
    b.nvme("adam_v", mulSat(s.state, s.part), "ds-mem-z3-nvme-swap-buffers",
           [&] { return std::string(perParam(s.state, "of the rank's partition (Adam variance)")); });
    b.nvme("grad_partition32", mulSat(s.master, s.part), "ds-mem-z3-nvme-gradients", [&] {
        return std::string(perParam(s.master, "of the rank's partition: gradients swapped out between micro-steps"));
    });
}

void addNotes(StateMemory& m, const StateMemoryInputs& in, OffloadDevice askedOptimizer, OffloadDevice askedParam)
{
    m.notes.push_back("Optimizer: Adam (two states per parameter), as DeepSpeed's estimators assume.");
    if (in.stage == 0 && askedOptimizer != OffloadDevice::None)
        m.notes.push_back("offload_optimizer needs ZeRO stage 1-3; at stage 0 DeepSpeed ignores it.");
    if (in.stage < 3 && askedParam != OffloadDevice::None)
        m.notes.push_back("offload_param is valid only with stage 3; DeepSpeed ignores it here.");
    if ((in.stage == 1 || in.stage == 2) && askedOptimizer == OffloadDevice::Nvme)
        m.notes.push_back("ZeRO-1/2 has no NVMe swapper: offload_optimizer.device nvme runs as CPU offload "
                          "(stage_1_and_2.py sets cpu_offload for any device but none).");
    if (in.stage == 1 && in.precision == TrainingPrecision::Bf16 && !in.fp32GradAccumulation)
        m.notes.push_back("Assumes data_types.grad_accum_dtype unset; with fp32 and no offload ZeRO-1 runs "
                          "BF16_Optimizer instead.");
    if (runsBf16Optimizer(in))
        m.notes.push_back(in.fp32GradAccumulation
                              ? "ZeRO-1 with data_types.grad_accum_dtype fp32 runs BF16_Optimizer: gradients are "
                                "accumulated in fp32 over the whole stage."
                              : "bf16 under the pipeline engine without ZeRO runs BF16_Optimizer, accumulating "
                                "gradients in bf16 (DeepSpeed warns that this is not safe numerically).");
    if (in.states == StatePrecision::Bf16 && askedOptimizer != OffloadDevice::None && in.stage >= 1)
        m.notes.push_back("bf16 optimizer states with offload need DeepSpeedCPUAdam(fp32_optimizer_states=False); "
                          "otherwise DeepSpeed asserts.");
    if (in.stage == 3)
        m.notes.push_back("Parameters under stage3_param_persistence_threshold stay whole on every GPU; not counted "
                          "(biases and norms, well under 1% of a transformer).");
}

void addEstimator(StateMemory& m, const StateMemoryInputs& in)
{
    if (in.frozenParams > 0)
        return; // DeepSpeed's estimators count every parameter as trained: no row for LoRA
    const bool optCpu = in.offloadOptimizer == OffloadDevice::Cpu;
    const bool paramCpu = in.offloadParam == OffloadDevice::Cpu;
    if (in.stage == 0 || in.offloadOptimizer == OffloadDevice::Nvme || in.offloadParam == OffloadDevice::Nvme)
        return; // DeepSpeed's estimators have no stage-0 or NVMe rows
    if (in.stage <= 2) {
        const auto e = estimateZero2ModelStatesMemNeeds(in.params, in.gpusPerNode, in.nodes, optCpu);
        m.deepSpeedEstimate = DeepSpeedEstimate{e.gpuBytes, e.cpuBytes,
                                                in.describe ? "DeepSpeed's estimate_zero2_model_states_mem_needs "
                                                              "(model states only; it also serves ZeRO-1)"
                                                            : ""};
        return;
    }
    if (!optCpu && paramCpu)
        return; // DeepSpeed prints no such row
    const auto e = estimateZero3ModelStatesMemNeeds(in.params, in.largestLayerParams, in.gpusPerNode, in.nodes, optCpu,
                                                    paramCpu, true);
    m.deepSpeedEstimate = DeepSpeedEstimate{e.gpuBytes, e.cpuBytes,
                                            in.describe ? "DeepSpeed's estimate_zero3_model_states_mem_needs, "
                                                          "zero_init (model states only)"
                                                        : ""};
}

// The model states and buffers of `in`'s stage.
void modelStates(Builder& b, const StateMemoryInputs& in)
{
    const Sizes s = sizesOf(in);
    if (runsBf16Optimizer(in))
        bf16Optimizer(b, in, s);
    else if (in.stage == 0)
        stage0(b, in, s);
    else if (in.stage <= 2)
        stages1And2(b, in, s);
    else
        stage3(b, in, s);
}

} // namespace

StateMemory sizeStateMemory(const StateMemoryInputs& asked)
{
    validate(asked);
    // Sized as DeepSpeed runs it: no offload at stage 0, no parameter offload below stage 3, NVMe optimizer
    // offload at stages 1-2 is CPU offload.
    StateMemoryInputs in = asked;
    if (in.stage == 0)
        in.offloadOptimizer = OffloadDevice::None;
    if (in.stage < 3)
        in.offloadParam = OffloadDevice::None;
    if (in.stage != 3 && in.offloadOptimizer == OffloadDevice::Nvme)
        in.offloadOptimizer = OffloadDevice::Cpu;

    Builder b(in.gpusPerNode, in.describe);
    const bool experts = in.expertParallel > 1 && in.expertParams > 0 && in.stage < 3;
    if (experts) { // the dense parameters over every rank, the experts' share over the expert-data-parallel group
        StateMemoryInputs dense = in, expert = in;
        dense.params = std::max<std::int64_t>(1, in.params - in.expertParams);
        dense.largestLayerParams = std::min(in.largestLayerParams, dense.params);
        expert.params = ceilDiv(in.expertParams, in.expertParallel);
        expert.largestLayerParams = std::min(in.largestLayerParams, expert.params);
        expert.dataParallel = std::max<std::int64_t>(1, in.dataParallel / in.expertParallel);
        modelStates(b, dense);
        Builder e(in.gpusPerNode, false);
        modelStates(e, expert);
        for (const MemoryComponent& c : e.result().components)
            if (c.id != "buckets" && c.id != "allgather_bucket" && c.id != "offload_grad_staging")
                b.merge(c);
    } else {
        modelStates(b, in);
    }
    frozenWeights(b, in);

    if (in.activationBytes > 0)
        b.transient("activations", in.activationBytes, true, false, in.activationSource, [&] {
            return std::string(
                "activations from the activation model (of the micro-batches 1F1B keeps in flight, under a "
                "pipeline)");
        });

    b.reserved("cuda_context", kCudaContextBytes, "cuda-context-size", [&] {
        return std::string(
            "512 MiB per GPU process, a wizard allowance: the CUDA context (~300 MB with lazy loading) plus "
            "library workspaces");
    });
    if (mulSat(in.dataParallel, in.nodes) > 1 || in.gpusPerNode > 1)
        b.reserved("nccl_buffers", mulSat(kNcclBuffSize, kNcclPeers, kNcclChannels), "nccl-buffsize", [&] {
            return std::string("4 MiB NCCL_BUFFSIZE × 2 ring neighbours × 32 channels, a wizard allowance");
        });
    StateMemory& m = b.result();
    const std::int64_t peak = m.gpuPeakAllocated();
    const double reserve = in.expandableSegments ? kAllocatorReserveExpandable : kAllocatorReserve;
    b.reserved("allocator_reserve", truncSat(static_cast<double>(peak) * reserve),
               in.expandableSegments ? "expandable-segments-peak" : "oom-reserve-v100", [&] {
                   return in.expandableSegments
                       ? std::string("1% of the peak allocated with expandable segments, a wizard assumption")
                       : std::string("5% of the peak allocated: the caching allocator's reserve, the largest share "
                                     "published out-of-memory messages of training runs show");
               });
    if (in.describe)
        addNotes(m, in, asked.offloadOptimizer, asked.offloadParam);
    if (!experts) // DeepSpeed's estimators know no expert parallelism
        addEstimator(m, in);
    return m;
}

namespace {

std::int64_t sumIf(const std::vector<MemoryComponent>& cs, auto&& pick)
{
    std::int64_t total = 0;
    for (const MemoryComponent& c : cs)
        if (pick(c))
            total = addSat(total, c.bytes);
    return total;
}

} // namespace

std::int64_t StateMemory::gpuSteady() const
{
    return sumIf(components, [](const MemoryComponent& c) {
        return c.place == MemoryPlace::Gpu && c.phase == MemoryPhase::Steady;
    });
}

std::int64_t StateMemory::gpuForwardBackward() const
{
    return sumIf(components, [](const MemoryComponent& c) {
        return c.place == MemoryPlace::Gpu && c.phase == MemoryPhase::Transient && c.forwardBackward;
    });
}

std::int64_t StateMemory::gpuStep() const
{
    return sumIf(components, [](const MemoryComponent& c) {
        return c.place == MemoryPlace::Gpu && c.phase == MemoryPhase::Transient && c.step;
    });
}

std::int64_t StateMemory::gpuPeakAllocated() const
{
    return addSat(gpuSteady(), std::max(gpuForwardBackward(), gpuStep()));
}

std::int64_t StateMemory::gpuReserved() const
{
    return sumIf(components, [](const MemoryComponent& c) {
        return c.place == MemoryPlace::Gpu && c.phase == MemoryPhase::Reserved;
    });
}

std::int64_t StateMemory::gpuTotal() const { return addSat(gpuPeakAllocated(), gpuReserved()); }

std::int64_t StateMemory::hostPerNode() const
{
    return sumIf(components, [](const MemoryComponent& c) { return c.place == MemoryPlace::HostRam; });
}

std::int64_t StateMemory::hostPinnedPerNode() const
{
    return sumIf(components, [](const MemoryComponent& c) { return c.place == MemoryPlace::HostRam && c.pinned; });
}

std::int64_t StateMemory::nvmePerNode() const
{
    return sumIf(components, [](const MemoryComponent& c) { return c.place == MemoryPlace::Nvme; });
}

const MemoryComponent* StateMemory::find(std::string_view id, MemoryPlace place) const
{
    for (const MemoryComponent& c : components)
        if (c.id == id && c.place == place)
            return &c;
    return nullptr;
}

LoadTimeHostRam loadTimeHostRam(std::int64_t params, std::int64_t largestLayerParams, int gpusPerNode, int stage,
                                bool zeroInit)
{
    require(params >= 1, "params: must be at least 1");
    require(largestLayerParams >= 0, "largest_layer_params: must not be negative");
    require(gpusPerNode >= 1, "gpus_per_node: must be at least 1");
    LoadTimeHostRam r;
    // DeepSpeed's estimate_zero3_model_states_mem_needs without offload: largest_layer_params × 4 × GPUs per node
    // with zero_init, total_params × 4 × GPUs per node without (deepspeed-facts §1.2; estimate/DeepSpeedEstimator).
    r.partitioned = zeroInit && stage == 3;
    const std::int64_t count = r.partitioned ? std::min(largestLayerParams, params) : params;
    r.bytesPerNode = mulSat(4, count, gpusPerNode);
    const std::string ranks = std::to_string(gpusPerNode);
    if (r.partitioned) {
        r.source = "ds-estimators";
        r.basis = "built under zero.Init at ZeRO-3 (training.zero_init), each of the node's " + ranks
            + " ranks holds at most the largest layer whole in fp32 (" + formatCount(count) + " parameters × 4 bytes × "
            + ranks + ", DeepSpeed's estimator with zero_init)";
        r.warning = "Remedies: load in bf16 (torch_dtype=torch.bfloat16 halves it); check that the model is really "
                    "built inside deepspeed.zero.Init (with Transformers, create HfDeepSpeedConfig before "
                    "from_pretrained), else every rank builds the whole model.";
    } else {
        r.source = "ds-memory-docs-fp32";
        r.basis = std::string(zeroInit ? "below ZeRO-3 zero.Init does not partition the model, so"
                                       : "without zero.Init (training.zero_init false),")
            + " each of the node's " + ranks + " ranks builds the whole model in fp32 (" + formatCount(count)
            + " parameters × 4 bytes × " + ranks + ") before DeepSpeed partitions it";
        r.warning = "Remedies: load in bf16 (torch_dtype=torch.bfloat16 halves it); from_pretrained(..., "
                    "low_cpu_mem_usage=True) avoids a second copy; at ZeRO-3 build the model under "
                    "deepspeed.zero.Init (with Transformers, create HfDeepSpeedConfig before from_pretrained) so "
                    "each rank materialises only its partition.";
    }
    return r;
}

std::string toString(MemoryPlace place)
{
    switch (place) {
    case MemoryPlace::Gpu: return "GPU";
    case MemoryPlace::HostRam: return "host RAM";
    case MemoryPlace::Nvme: return "NVMe";
    }
    return "";
}

std::string toString(MemoryPhase phase)
{
    switch (phase) {
    case MemoryPhase::Steady: return "steady";
    case MemoryPhase::Transient: return "transient";
    case MemoryPhase::Reserved: return "reserved";
    }
    return "";
}

} // namespace dsw
