#include "estimate/StepTime.h"

#include "knowledge/GpuCatalog.h"

#include <algorithm>
#include <cctype>
#include <charconv>
#include <cmath>
#include <cstdio>
#include <stdexcept>

namespace dsw {

namespace {

[[noreturn]] void reject(const std::string& input, const std::string& allowed)
{
    throw std::invalid_argument("step time: " + input + " must be " + allowed);
}

void requireAtLeast(const char* name, std::int64_t value, std::int64_t least)
{
    if (value < least)
        reject(name, "at least " + std::to_string(least) + ", got " + std::to_string(value));
}

void requirePositive(const char* name, double value, const char* why = "")
{
    if (!(value > 0) || !std::isfinite(value))
        reject(name, std::string("a positive finite number") + why);
}

std::string num(double v)
{
    char text[32];
    std::snprintf(text, sizeof text, "%.3g", v);
    return text;
}

bool validDevice(const std::string& d) { return d == "none" || d == "cpu" || d == "nvme"; }

void validate(const StepTimeInputs& in)
{
    requirePositive("parameters", in.parameters);
    requireAtLeast("layers", in.layers, 1);
    requireAtLeast("hidden", in.hidden, 1);
    requireAtLeast("seqLen", in.seqLen, 1);
    requireAtLeast("heads", in.heads, 1);
    if (in.hidden % in.heads != 0)
        reject("hidden", "a multiple of heads (" + std::to_string(in.heads) + "), got " + std::to_string(in.hidden));
    requireAtLeast("microBatch", in.microBatch, 1);
    requireAtLeast("gradientAccumulation", in.gradientAccumulation, 1);
    const Placement& p = in.placement;
    if (p.stage < 0 || p.stage > 3)
        reject("ZeRO stage", "0, 1, 2 or 3, got " + std::to_string(p.stage));
    if (!validDevice(p.offloadOptimizer))
        reject("offload_optimizer", "none, cpu or nvme, got \"" + p.offloadOptimizer + "\"");
    if (!validDevice(p.offloadParam))
        reject("offload_param", "none, cpu or nvme, got \"" + p.offloadParam + "\"");
    // ds-offload-stages: CPU offload with stages 1–3, NVMe and parameter offload only with stage 3.
    if (p.offloadOptimizer != "none" && p.stage == 0)
        reject("offload_optimizer", "none at ZeRO stage 0 (offload needs stage 1, 2 or 3)");
    if (p.offloadOptimizer == "nvme" && p.stage != 3)
        reject("offload_optimizer", "none or cpu below ZeRO stage 3 (NVMe offload needs stage 3)");
    if (p.offloadParam != "none" && p.stage != 3)
        reject("offload_param", "none below ZeRO stage 3");
    if (!(in.stage3MaxReuseDistance >= 0) || !std::isfinite(in.stage3MaxReuseDistance))
        reject("stage3MaxReuseDistance", "a finite number of parameters, 0 or more");
    requireAtLeast("dataParallel", in.dataParallel, 1);
    requireAtLeast("expertParallel", in.moe.expertParallel, 1);
    if (in.dataParallel % in.moe.expertParallel != 0)
        reject("expertParallel", "a divisor of the data-parallel size (" + std::to_string(in.dataParallel) + ")");
    if (!(in.moe.activeShare > 0 && in.moe.activeShare <= 1))
        reject("moe.activeShare", "a share above 0 and at most 1");
    if (!(in.moe.routedShare >= 0 && in.moe.routedShare < 1))
        reject("moe.routedShare", "a share from 0 to below 1");
    if (!(in.moe.expertParameters >= 0 && in.moe.expertParameters <= in.parameters))
        reject("moe.expertParameters", "0 to the trained parameters");
    requireAtLeast("moe.experts", in.moe.experts, 1);
    requireAtLeast("moe.expertsPerToken", in.moe.expertsPerToken, 1);
    requireAtLeast("gpusPerNode", in.gpusPerNode, 1);
    requireAtLeast("nodes", in.nodes, 1);
    requireAtLeast("pipelineStages", in.pipelineStages, 1);
    requireAtLeast("pipelineMicroBatches", in.pipelineMicroBatches, 0);
    if (in.tensorParallel != 1)
        reject("tensorParallel", "1 (tensor parallelism is not modelled yet)");
    requireAtLeast("sequenceParallel", in.sequenceParallel, 1);
    if (in.sequenceParallel > 1 && (in.attentionWidth < 1 || in.kvWidth < 1))
        reject("attentionWidth and kvWidth", "at least 1 with sequence parallelism");
    // ds-pipe-zero: DeepSpeed's pipeline engine asserts a stage below 2.
    if (in.pipelineStages > 1 && p.stage >= 2)
        reject("ZeRO stage", "0 or 1 with pipeline parallelism (DeepSpeed rejects stages 2 and 3 there)");
    const double world = static_cast<double>(in.nodes) * static_cast<double>(in.gpusPerNode);
    const double product = static_cast<double>(in.dataParallel) * static_cast<double>(in.pipelineStages)
        * static_cast<double>(in.tensorParallel) * static_cast<double>(in.sequenceParallel);
    if (product != world)
        reject("dataParallel × pipelineStages", "nodes × gpusPerNode (" + num(world) + "), got " + num(product));
    if (in.elementBytes != 2 && in.elementBytes != 4)
        reject("elementBytes", "2 (fp16/bf16) or 4 (fp32), got " + num(in.elementBytes));
    requirePositive("denseTflops", in.denseTflops);
    if (!(in.mfu >= 0 && in.mfu <= 1))
        reject("mfu", "0 (the calibrated efficiency) or above 0 and at most 1, got " + num(in.mfu));
    if (!(in.overlap >= 0 && in.overlap <= 1))
        reject("overlap", "between 0 and 1, got " + num(in.overlap));
    requireAtLeast("nicsPerNode", in.nicsPerNode, 1);
    const bool dpInNode = in.dataParallel * in.sequenceParallel > 1;
    const bool dpAcrossNodes =
        in.nodes > 1 && in.dataParallel * in.tensorParallel * in.sequenceParallel > in.gpusPerNode;
    if (dpInNode && in.gpusPerNode > 1)
        requirePositive("intraNodeGBps", in.intraNodeGBps, " when data-parallel peers share a node");
    if (dpAcrossNodes)
        requirePositive("nicGbps", in.nicGbps, " when data parallelism spans nodes");
    const bool offload = p.offloadOptimizer != "none" || p.offloadParam != "none";
    if (offload) {
        requirePositive("hostToDeviceGBps", in.hostToDeviceGBps, " with offload");
        requirePositive("deviceToHostGBps", in.deviceToHostGBps, " with offload");
    }
    if (p.offloadOptimizer != "none")
        requirePositive("cpuAdamParamsPerSecond", in.cpuAdamParamsPerSecond, " with optimizer offload");
    if (p.offloadOptimizer == "nvme" || p.offloadParam == "nvme") {
        requirePositive("nvmeReadGBps", in.nvmeReadGBps, " with NVMe offload");
        requirePositive("nvmeWriteGBps", in.nvmeWriteGBps, " with NVMe offload");
    }
}

// Of ringTransfers, those that reduce gradients: stage 0's all-reduce (2), stage 1's reduce-scatter at the boundary
// (1), stages 2–3's reduce-scatter every micro-step (GA).
// The link an all-to-all over `group` GPUs runs on, in GB/s: the node's GPU link inside a node; across nodes the slower
// of that and each GPU's share of the node's NICs (ds-moe-all-to-all, ulysses-all-to-all).
struct AllToAllLink {
    double gbps = 0;
    bool crossesNodes = false;
    // Seconds to send `bytes` per GPU at the collectives' reached share; 0 without a link figure.
    double seconds(double bytes) const { return gbps > 0 ? bytes / (gbps * 1e9 * kCollectiveEfficiency) : 0; }
    // "÷ (link GB/s (which link) × the share reached), never hidden", for the explanation.
    std::string words() const
    {
        return "÷ (" + num(gbps) + " GB/s "
            + (crossesNodes ? "(each GPU's share of the node's NICs)" : "(intra-node link)") + " × "
            + num(kCollectiveEfficiency) + " reached), never hidden";
    }
};
AllToAllLink allToAllLink(const StepTimeInputs& in, std::int64_t group)
{
    const double nicShare =
        in.nicGbps * static_cast<double>(in.nicsPerNode) / 8 / static_cast<double>(in.gpusPerNode); // one GPU's
    if (group <= in.gpusPerNode)
        return {in.intraNodeGBps, false};
    return {std::min(in.intraNodeGBps > 0 ? in.intraNodeGBps : nicShare, nicShare), true};
}

double gradientTransfers(int stage, double ga) { return stage == 0 ? 2 : stage == 1 ? 1 : ga; }

// Ring volume per GPU, in units of S (the gradient or parameter bytes), per optimizer step.
// Returns the count of S·(d−1)/d transfers and a description.
double ringTransfers(int stage, double ga, double backwardShare, std::string& what)
{
    switch (stage) {
    case 0: what = "all-reduce of gradients once per step: 2"; return 2;
    case 1: what = "reduce-scatter of gradients at the boundary + all-gather of updated parameters: 1 + 1"; return 2;
    case 2:
        what = "reduce-scatter every micro-step + all-gather of updated parameters: " + num(ga) + " + 1";
        return ga + 1;
    default:
        what = "all-gather in forward + all-gather in backward (" + num(backwardShare)
            + " of Ψ: the rest is reused within stage3_max_reuse_distance) + reduce-scatter, every micro-step: ("
            + num(2 + backwardShare) + ") × " + num(ga);
        return (2 + backwardShare) * ga;
    }
}

} // namespace

StepTime estimateStepTime(const StepTimeInputs& in)
{
    validate(in);
    StepTime t;
    const Placement& p = in.placement;
    const double psi = in.parameters;
    const double ga = static_cast<double>(in.gradientAccumulation);
    const double s = static_cast<double>(in.seqLen);
    const double h = static_cast<double>(in.hidden);
    const double layers = static_cast<double>(in.layers);
    // ZeRO partitions and reduces over every data- and sequence-parallel rank (ulysses-zero-group).
    const double d = static_cast<double>(in.dataParallel) * static_cast<double>(in.sequenceParallel);
    const double b = in.elementBytes;
    const double tokens = static_cast<double>(in.microBatch) * ga * s; // per replica per step
    const double split = static_cast<double>(in.tensorParallel) * static_cast<double>(in.sequenceParallel);

    // Compute: the dense FLOPs at the calibrated GEMM efficiency (or hardware.mfu), attention below it.
    const double recomputed = std::clamp(in.recomputedShare, 0.0, 1.0);
    // TiledMLP runs the MLPs' forward once more, shard by shard, in backward.
    const double denseFactor = 6 + 2 * recomputed + 2 * std::clamp(in.tiledMlpShare, 0.0, 1.0);
    const double frozenFactor = 4 + 2 * recomputed;
    const double frozen = in.frozenParameters;
    const double attnPasses = 3 + recomputed;
    const double causal = in.causalMask ? 0.5 : 1;
    const MoeStepInputs& moe = in.moe;
    const double frozenFlops = frozenFactor * frozen * moe.activeShare * tokens / split;
    const double denseFlops = denseFactor * psi * moe.activeShare * tokens / split + frozenFlops;
    const double attnFlops = attnPasses * 4 * s * h * layers * causal * tokens / split; // 4·s·h per token and layer
    t.flops = denseFlops + attnFlops;
    const double tokensPerMicroBatch = static_cast<double>(in.microBatch) * s / split; // on one GPU
    const bool flat = in.mfu > 0;
    t.gemmEfficiency = flat ? in.mfu : gemmEfficiency(in.architecture, tokensPerMicroBatch);
    const double peak = in.denseTflops * 1e12;
    const double gemmRate = peak * t.gemmEfficiency * (in.fp8Gemms && !flat ? kFp8GemmSpeedup : 1);
    const double attnRate = peak * t.gemmEfficiency * (flat ? 1 : kAttentionEfficiencyRatio);
    double gemmSeconds = (denseFlops + frozenFlops * (in.frozenGemmSlowdown - 1)) / gemmRate;
    // The routed experts' GEMMs see only the tokens routed to them (MoeStepInputs).
    const double tokensPerExpert = tokensPerMicroBatch * static_cast<double>(moe.expertsPerToken * moe.expertParallel)
        / static_cast<double>(moe.experts);
    const double expertEfficiency = flat ? t.gemmEfficiency : gemmEfficiency(in.architecture, tokensPerExpert);
    if (moe.routedShare > 0)
        gemmSeconds *= 1 - moe.routedShare + moe.routedShare * t.gemmEfficiency / expertEfficiency;
    t.compute = gemmSeconds + attnFlops / attnRate;
    if (in.explain)
        t.parts.push_back(
            {"compute", t.compute,
             num(denseFactor) + "Ψ per token"
                 + (frozen > 0 ? " + " + num(frozenFactor) + "Ψ_frozen"
                            + (in.frozenGemmSlowdown > 1
                                   ? " (× " + num(in.frozenGemmSlowdown) + ", QLoRA's dequantization)"
                                   : std::string())
                               : std::string())
                 + " × " + num(tokens) + " tokens = " + num(denseFlops) + " FLOPs ÷ (" + num(in.denseTflops)
                 + " TFLOPS × " + num(t.gemmEfficiency)
                 + (flat ? " (hardware.mfu)"
                         : " (" + in.architecture + " GEMM efficiency at " + num(tokensPerMicroBatch)
                            + " tokens per micro-batch)")
                 + (in.fp8Gemms && !flat ? " × " + num(kFp8GemmSpeedup) + " fp8" : std::string()) + ") + attention "
                 + num(attnPasses) + " × 4·s·h·L" + (in.causalMask ? " ÷ 2" : "") + " per token = " + num(attnFlops)
                 + " FLOPs at " + (flat ? std::string("the same rate") : num(kAttentionEfficiencyRatio) + " of it")
                 + (moe.routedShare > 0 ? "; Ψ counts the active parameters (× " + num(moe.activeShare)
                            + "), and the routed experts' " + num(moe.routedShare) + " of them run at "
                            + num(expertEfficiency) + " (" + num(tokensPerExpert) + " tokens per expert GEMM)"
                                        : std::string()),
             recomputed > 0 ? std::vector<std::string>{"kaplan-6n", "narayanan-recompute-flops", "korthikanti-flops",
                                                       "flash-attention-2", "megatron-mfu", "gpu-catalog"}
                            : std::vector<std::string>{"kaplan-6n", "korthikanti-flops", "flash-attention-2",
                                                       "megatron-mfu", "gpu-catalog"}});

    // Communication.
    std::string what;
    const double gatheredParams = psi + frozen; // ZeRO-3 gathers the frozen base too
    if (p.stage == 3) {
        const double perLayer = gatheredParams / layers;
        const double keptLayers = std::min(layers, std::ceil(in.stage3MaxReuseDistance / (2 * perLayer)));
        t.stage3KeptForBackward = keptLayers * perLayer;
    }
    const double backwardShare = 1 - t.stage3KeptForBackward / gatheredParams;
    const double transfers = d > 1 ? ringTransfers(p.stage, ga, backwardShare, what) : 0;
    const double ringShare = (d - 1) / d;
    // The experts' gradients and parameters move within the expert-data-parallel group (d ÷ ep ranks).
    const double ep = static_cast<double>(moe.expertParallel);
    const double edpShare = (d / ep - 1) / (d / ep);
    const double ringPsi = (psi - moe.expertParameters) * ringShare + moe.expertParameters / ep * edpShare;
    t.communicationBytes = transfers * ringPsi * b;
    if (p.stage == 3 && frozen > 0 && transfers > 0) // the frozen base's gathers: no gradient to reduce
        t.communicationBytes += (1 + backwardShare) * ga * frozen * in.frozenElementBytes * ringShare;
    const bool acrossNodes = in.nodes > 1 && in.dataParallel * in.tensorParallel * in.sequenceParallel > in.gpusPerNode;
    const double intra = in.gpusPerNode > 1 ? in.intraNodeGBps : 0;
    const double inter = acrossNodes ? in.nicGbps * static_cast<double>(in.nicsPerNode) / 8 : 0;
    if (intra > 0 && inter > 0)
        t.linkGBps = std::min(intra, inter);
    else
        t.linkGBps = std::max(intra, inter);
    const double reached =
        kCollectiveEfficiency / (acrossNodes ? 1 + static_cast<double>(in.nodes) / kCollectiveNodeScale : 1);
    const double collectives = p.stage == 3 && d > 1 ? 3 * layers * ga : 0;
    if (t.communicationBytes > 0 && t.linkGBps > 0)
        t.communicationLinkSeconds = t.communicationBytes / (t.linkGBps * 1e9 * reached);
    const double hidden = in.overlap * std::min(t.communicationLinkSeconds, t.compute);
    const double latency = collectives * kStage3CollectiveLatency; // hooks and launches on the critical path
    t.communication = t.communicationLinkSeconds - hidden + latency;
    if (transfers > 0 && t.communicationBytes > 0)
        t.gradientReduction = t.communication * gradientTransfers(p.stage, ga) * ringPsi * b / t.communicationBytes;
    if (in.explain)
        t.parts.push_back({"communication",
                           t.communication,
                           d > 1 ? "ZeRO-" + std::to_string(p.stage) + ": " + what + " transfers of Ψ·" + num(b)
                                   + " B × (d−1)/d, d = " + num(d) + " → " + num(t.communicationBytes)
                                   + " B per GPU ÷ (" + num(t.linkGBps) + " GB/s ("
                                   + (acrossNodes ? "min of intra-node " + num(intra) + " and "
                                              + std::to_string(in.nicsPerNode) + " × " + num(in.nicGbps) + " Gb/s NICs"
                                                  : "intra-node link")
                                   + ") × " + num(reached) + " reached"
                                   + (acrossNodes ? " over " + std::to_string(in.nodes) + " nodes" : "") + ")" + " = "
                                   + num(t.communicationLinkSeconds) + " s, of which " + num(in.overlap)
                                   + " × min(communication, compute) hides behind compute"
                                   + (collectives > 0 ? "; + " + num(collectives) + " layer-collectives × "
                                              + num(kStage3CollectiveLatency * 1000) + " ms, never hidden"
                                                      : "")
                                 : "no data parallelism: nothing to reduce",
                           {"ds-zero-reduce-boundary", "zero-paper-comm-dp", "zero-paper-comm-stage3",
                            "ds-zero3-reuse-distance", "nccl-tests-busbw", "ds-overlap-comm", "belle-zero-stages"}});
    // The experts' all-to-alls: dispatch and combine in forward, again in backward and in a recomputed forward.
    if (moe.expertParallel > 1 && moe.moeLayers > 0) {
        const AllToAllLink link = allToAllLink(in, moe.expertParallel);
        t.allToAllBytes = (4 + 2 * recomputed) * static_cast<double>(moe.moeLayers) * tokens
            * static_cast<double>(moe.expertsPerToken) * h * b * (ep - 1) / ep / split;
        t.allToAll = link.seconds(t.allToAllBytes);
        t.communication += t.allToAll;
        if (in.explain)
            t.parts.push_back({"all-to-all",
                               t.allToAll,
                               num(4 + 2 * recomputed) + " all-to-alls × " + std::to_string(moe.moeLayers)
                                   + " MoE layers × " + num(tokens) + " tokens × k "
                                   + std::to_string(moe.expertsPerToken) + " × h " + num(h) + " × " + num(b)
                                   + " B × (ep−1)/ep, ep = " + num(ep) + " → " + num(t.allToAllBytes) + " B per GPU "
                                   + link.words(),
                               {"ds-moe-all-to-all", "nccl-tests-busbw"}});
    }

    // Ulysses's all-to-alls: q, k, v in and the attention output back, per layer, in every forward and the backward.
    if (in.sequenceParallel > 1) {
        const double sp = static_cast<double>(in.sequenceParallel);
        const AllToAllLink link = allToAllLink(in, in.sequenceParallel);
        const double width = 2 * static_cast<double>(in.attentionWidth) + 2 * static_cast<double>(in.kvWidth);
        const double passes = 2 + recomputed;
        t.sequenceAllToAllBytes = passes * layers * tokens / sp * width * b * (sp - 1) / sp;
        t.sequenceAllToAll = link.seconds(t.sequenceAllToAllBytes);
        t.communication += t.sequenceAllToAll;
        if (in.explain)
            t.parts.push_back({"sequence all-to-all",
                               t.sequenceAllToAll,
                               num(passes) + " passes × " + num(layers) + " layers × " + num(tokens / sp)
                                   + " tokens per GPU × (2 × " + std::to_string(in.attentionWidth) + " + 2 × "
                                   + std::to_string(in.kvWidth) + ") × " + num(b) + " B × (sp−1)/sp, sp = " + num(sp)
                                   + " → " + num(t.sequenceAllToAllBytes) + " B per GPU " + link.words(),
                               {"ulysses-all-to-all", "nccl-tests-busbw"}});
    }

    // Offload: what crosses the host link per partitioned parameter per step, as DeepSpeed's code copies it.
    const double partition = psi / d;
    const bool optOffload = p.offloadOptimizer != "none";
    const bool paramOffload = p.offloadParam != "none";
    double toHost = 0, toGpu = 0;
    if (optOffload) {
        // Gradients accumulate on the host through the GPU (a copy out every micro-step, a copy back from the
        // second on); stage 3 always copies out, stages 1–2 skip it for a lone backward. At the boundary the
        // partition goes to the fp32 buffer as fp32, and the updated 16-bit partition comes back.
        const bool accumulates = p.stage == 3 || in.gradientAccumulation > 1;
        toHost = 4 + (accumulates ? b * ga : 0);
        toGpu = (accumulates ? b * (ga - 1) : 0) + (paramOffload ? 0 : b);
    }
    if (paramOffload)
        toGpu += (1 + backwardShare) * b * ga; // the partition is fetched for the forward and backward gathers
    // The frozen partition is fetched for the same gathers; it is never written back.
    const double frozenToGpu = paramOffload ? (1 + backwardShare) * in.frozenElementBytes * ga * frozen / d : 0;
    t.hostLinkBytes = (toHost + toGpu) * partition + frozenToGpu;
    if (toHost > 0)
        t.hostLinkSeconds += toHost * partition / (in.deviceToHostGBps * 1e9);
    if (toGpu > 0 || frozenToGpu > 0)
        t.hostLinkSeconds += (toGpu * partition + frozenToGpu) / (in.hostToDeviceGBps * 1e9);
    const double nodeShare = partition * static_cast<double>(in.gpusPerNode); // every GPU of a node holds a partition
    if (optOffload)
        t.cpuAdamSeconds = nodeShare / in.cpuAdamParamsPerSecond;
    double reads = 0, writes = 0;
    if (p.offloadOptimizer == "nvme") {
        reads += 16 * nodeShare; // fp32 parameters, momentum, variance in; fp32 gradients back in
        writes += 16 * nodeShare;
    }
    if (p.offloadParam == "nvme") {
        reads += (1 + backwardShare) * b * ga * nodeShare;
        writes += b * nodeShare;
    }
    t.nvmeBytes = reads + writes;
    if (t.nvmeBytes > 0)
        t.nvmeSeconds = reads / (in.nvmeReadGBps * 1e9) + writes / (in.nvmeWriteGBps * 1e9);
    // Checkpoint offload: each checkpoint leaves in forward and comes back in backward, blocking (alst-checkpoint-offload).
    if (in.checkpointOffloadBytes > 0 && in.deviceToHostGBps > 0 && in.hostToDeviceGBps > 0)
        t.checkpointOffload =
            in.checkpointOffloadBytes * ga * (1 / (in.deviceToHostGBps * 1e9) + 1 / (in.hostToDeviceGBps * 1e9));
    t.offload = t.hostLinkSeconds + t.cpuAdamSeconds + t.nvmeSeconds + t.checkpointOffload;
    if (in.explain)
        t.parts.push_back(
            {"offload",
             t.offload,
             (optOffload || paramOffload
                  ? "host link" + (in.hostLink.empty() ? std::string() : " (" + in.hostLink + ")") + ": (" + num(toHost)
                      + " B to host ÷ " + num(in.deviceToHostGBps) + " GB/s + " + num(toGpu) + " B to GPU ÷ "
                      + num(in.hostToDeviceGBps) + " GB/s) per partitioned parameter × " + num(partition) + " = "
                      + num(t.hostLinkSeconds) + " s (measured one-direction peaks × " + num(kHostLinkEfficiency)
                      + ", the share D6's end-to-end copies reached); CPU Adam " + num(nodeShare)
                      + " parameters per node ÷ " + num(in.cpuAdamParamsPerSecond) + "/s = " + num(t.cpuAdamSeconds)
                      + " s (" + num(in.cpuCoresPerNode) + " cores: 1/(1/(cores × " + num(kCpuAdamParamsPerCoreSecond)
                      + "/s) + 1/" + num(kCpuAdamNodeParamsPerSecond) + "/s), fitted on C65 and C70); NVMe "
                      + num(reads) + " B read ÷ " + num(in.nvmeReadGBps) + " GB/s + " + num(writes) + " B written ÷ "
                      + num(in.nvmeWriteGBps) + " GB/s = " + num(t.nvmeSeconds) + " s; serial with the GPU's work"
                  : std::string("no offload of model states"))
                 + (in.checkpointOffloadBytes > 0
                        ? std::string("; checkpoint offload ") + num(in.checkpointOffloadBytes * ga)
                            + " B to host and back per GPU, blocking: " + num(t.checkpointOffload) + " s"
                        : std::string()),
             {"alst-checkpoint-offload", "ds-offload-grad-copy", "ds-offload-param-copy", "ds-activation-offload-cost",
              "nvbandwidth-a100-bidirectional", "ds-zero-offload-10b", "cpu-adamw-time-slicing",
              "ds-deepnvme-blog-2024-cpu", "zenflow-offload-penalty"}});

    // Pipeline bubble.
    const double pp = static_cast<double>(in.pipelineStages);
    const double m = in.pipelineMicroBatches > 0 ? static_cast<double>(in.pipelineMicroBatches) : ga;
    t.bubbleFraction = (pp - 1) / (m + pp - 1);
    t.bubble = t.compute * (pp - 1) / m;
    if (in.explain)
        t.parts.push_back({"bubble",
                           t.bubble,
                           "(p−1)/m × compute = (" + num(pp) + "−1)/" + num(m) + " × " + num(t.compute) + " s; "
                               + num(t.bubbleFraction * 100) + "% of the pipelined time",
                           {"narayanan-bubble"}});

    t.total = t.compute + t.communication + t.offload + t.bubble;
    const double world = static_cast<double>(in.nodes) * static_cast<double>(in.gpusPerNode);
    t.tokensPerSecondPerGpu = tokens * static_cast<double>(in.dataParallel) / world / t.total;
    return t;
}

double gemmEfficiency(const std::string& architecture, double tokens)
{
    // The calibrated generations; the others by the closest one (a stated assumption): Turing and Ada as Ampere's
    // neighbours in the product line, Blackwell and AMD's CDNA as Hopper (the newest calibrated, the most cautious).
    const auto starts = [&](const char* word) { return architecture.rfind(word, 0) == 0; };
    const double peak = starts("Volta")                         ? kGemmEfficiencyVolta
        : starts("Ampere") || starts("Turing") || starts("Ada") ? kGemmEfficiencyAmpere
                                                                : kGemmEfficiencyHopper;
    return peak * tokens / (tokens + kHalfTokens);
}

double assumedOverlap(int stage, std::optional<bool> overlapComm, bool pipeline)
{
    if (pipeline || stage <= 1)
        return 0;
    if (!overlapComm.value_or(stage == 3))
        return 0;
    return kOverlapHidden;
}

nlohmann::json stepTimeJson(const StepTime& t)
{
    return {{"step_seconds",
             {{"total", t.total},
              {"compute", t.compute},
              {"communication", t.communication},
              {"all_to_all", t.allToAll},
              {"sequence_all_to_all", t.sequenceAllToAll},
              {"offload", t.offload},
              {"bubble", t.bubble}}},
            {"tokens_per_second_per_gpu", t.tokensPerSecondPerGpu}};
}

std::optional<double> denseTflopsOf(const GpuSpec& gpu, bool bf16)
{
    // "989.5 (derived)" → 989.5, "2,250 (derived)" → 2250; nothing for "UNCONFIRMED" or an empty cell.
    auto leading = [](const std::string& cell) -> std::optional<double> {
        std::string digits;
        for (char c : cell) {
            if (std::isdigit(static_cast<unsigned char>(c)) || c == '.')
                digits.push_back(c);
            else if (c != ',')
                break;
        }
        double value = 0;
        auto [end, ec] = std::from_chars(digits.data(), digits.data() + digits.size(), value);
        if (digits.empty() || ec != std::errc() || end != digits.data() + digits.size() || !(value > 0))
            return std::nullopt;
        return value;
    };
    auto first = leading(bf16 ? gpu.bf16DenseTflops : gpu.fp16DenseTflops);
    return first ? first : leading(bf16 ? gpu.fp16DenseTflops : gpu.bf16DenseTflops);
}

namespace {

struct Rate {
    double gbps;
    bool aggregate; // the unit is followed by "aggregate"
};

// The figure of a "<number> GB/s", "GB/sec" or "TB/s" starting at cell[i], in GB/s; nothing when cell[i] does not
// start a number followed by one of those units.
std::optional<Rate> rateAt(const std::string& cell, std::size_t i)
{
    if (!std::isdigit(static_cast<unsigned char>(cell[i]))
        || (i > 0 && (std::isalnum(static_cast<unsigned char>(cell[i - 1])) || cell[i - 1] == '.')))
        return std::nullopt;
    std::size_t j = i;
    std::string digits;
    while (j < cell.size() && (std::isdigit(static_cast<unsigned char>(cell[j])) || cell[j] == '.' || cell[j] == ',')) {
        if (cell[j] != ',')
            digits.push_back(cell[j]);
        ++j;
    }
    while (j < cell.size() && cell[j] == ' ')
        ++j;
    const std::string unit = cell.substr(j, 4);
    double value = 0;
    auto [end, ec] = std::from_chars(digits.data(), digits.data() + digits.size(), value);
    if (ec != std::errc() || end != digits.data() + digits.size() || !(value > 0))
        return std::nullopt;
    const bool tera = unit.rfind("TB/s", 0) == 0;
    if (!tera && unit.rfind("GB/s", 0) != 0)
        return std::nullopt;
    std::size_t next = cell.find_first_not_of("ec ", j + 4); // past "GB/sec" and the spaces after it
    const bool aggregate = next != std::string::npos && cell.compare(next, 9, "aggregate") == 0;
    return Rate{tera ? value * 1000 : value, aggregate};
}

// The count N of "N links" or "'N' links" in the cell (AMD's Infinity Fabric), if any.
std::optional<double> linkCount(const std::string& cell)
{
    for (std::size_t at = cell.find(" links"); at != std::string::npos; at = cell.find(" links", at + 1)) {
        std::size_t end = at;
        if (end > 0 && cell[end - 1] == '\'')
            --end;
        std::size_t begin = end;
        while (begin > 0 && std::isdigit(static_cast<unsigned char>(cell[begin - 1])))
            --begin;
        if (begin < end)
            return std::stod(cell.substr(begin, end - begin));
    }
    return std::nullopt;
}

} // namespace

std::optional<double> intraNodeGBpsOf(const GpuSpec& gpu)
{
    const std::string& cell = gpu.intraNodeLink;
    std::optional<double> first;
    for (std::size_t i = 0; i < cell.size(); ++i) {
        const auto rate = rateAt(cell, i);
        if (!rate)
            continue;
        if (rate->aggregate) // "896 GB/s aggregate": the GPU's peers together, what a collective over all links gets
            return rate->gbps / 2;
        if (!first)
            first = rate->gbps;
    }
    if (!first)
        return std::nullopt;
    // AMD states one link's figure: the GPU reaches its peers over all of them.
    return *first * linkCount(cell).value_or(1) / 2;
}

HostLinkRate hostLinkRate(std::string_view link)
{
    // Measured one-direction peaks, GB/s (StepTime.h).
    struct Peak {
        std::string_view link;
        double h2d, d2h;
    };
    static constexpr Peak peaks[] = {{"PCIe Gen3 x16", 12.15, 12.89},
                                     {"PCIe Gen4 x16", 25.13, 25},
                                     {"PCIe Gen5 x16", 35.2, 52.77},
                                     {"NVLink-C2C", 346, 346 / 1.15}};
    for (const Peak& p : peaks)
        if (p.link == link)
            return {std::string(link), p.h2d, p.d2h, p.h2d * kHostLinkEfficiency, p.d2h * kHostLinkEfficiency};
    throw std::invalid_argument("step time: host link \"" + std::string(link)
                                + "\" must be PCIe Gen3 x16, PCIe Gen4 x16, PCIe Gen5 x16 or NVLink-C2C");
}

double cpuAdamRate(double cores)
{
    requirePositive("cpu cores per node", cores);
    return 1 / (1 / (cores * kCpuAdamParamsPerCoreSecond) + 1 / kCpuAdamNodeParamsPerSecond);
}

} // namespace dsw
