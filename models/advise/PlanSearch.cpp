#include "advise/PlanSearch.h"

#include "advise/BatchKeys.h"

#include <algorithm>
#include <iterator>
#include <tuple>

namespace dsw {

namespace {

// Every placement DeepSpeed runs as asked (NVMe only at stage 3, offload_param only at stage 3; deepspeed-facts §2.6).
const Placement kPlacements[] = {
    {0, "none", "none"}, {1, "none", "none"}, {2, "none", "none"}, {3, "none", "none"}, {1, "cpu", "none"},
    {2, "cpu", "none"},  {3, "cpu", "none"},  {3, "cpu", "cpu"},   {3, "nvme", "cpu"},  {3, "nvme", "nvme"},
};

// Plans within 2% of the fastest are as fast as the step model can tell (estimate/StepTime.h's calibration is
// not that exact); among them the simplest is ranked first. A stated wizard choice, not a measurement.
inline constexpr double kTimeTie = 1.02;

// Lower stages and less offload first: fewer collectives per layer and nothing crossing PCIe that the model
// does not time (ZeRO-3's per-module fetch latency, for one).
std::tuple<int, int, bool> simplicity(const StepPrediction& p)
{
    const Placement& pl = p.candidate.placement;
    const int offloads = (pl.offloadOptimizer != "none") + (pl.offloadParam != "none");
    return {offloads, pl.stage, p.candidate.checkpointing};
}

// Of the candidates `allowed` admits (ranked), the first; when it fits, the simplest of those that fit within
// kTimeTie of its time.
template <typename Allowed>
std::optional<std::size_t> pickAmong(const std::vector<StepPrediction>& ranked, Allowed allowed)
{
    std::optional<std::size_t> first;
    double fastest = 0;
    for (std::size_t i = 0; i < ranked.size(); ++i) {
        const StepPrediction& p = ranked[i];
        if (!allowed(p))
            continue;
        if (!first) {
            first = i;
            fastest = p.time.total;
            if (!p.fits())
                break;
            continue;
        }
        if (!p.fits() || p.time.total > fastest * kTimeTie)
            break;
        if (simplicity(p) < simplicity(ranked[*first]))
            first = i;
    }
    return first;
}

// How far a plan is from fitting: the largest of needed ÷ available over GPU, host RAM and NVMe (≤ 1 fits).
double overshoot(const StepPrediction& p, const StepJob& job)
{
    double worst = p.usableGpuBytes > 0 ? static_cast<double>(p.gpu.total) / p.usableGpuBytes : 1e30;
    worst = std::max(worst,
                     job.hostBytesPerNode > 0 ? static_cast<double>(p.cpuPerNode) / job.hostBytesPerNode
                                              : (p.cpuPerNode > 0 ? 1e30 : 0));
    if (job.nvmeBytesPerNode > 0)
        worst = std::max(worst, static_cast<double>(p.nvmePerNode) / job.nvmeBytesPerNode);
    return worst;
}

// Fitting plans fastest first (ties: less GPU memory); the rest by how far they are from fitting, those that
// need an NVMe device the answers do not give last.
bool ranksBefore(const StepPrediction& x, const StepPrediction& y, const StepJob& job)
{
    if (x.fits() != y.fits())
        return x.fits();
    if (x.fits())
        return std::make_tuple(x.time.total, x.gpu.total) < std::make_tuple(y.time.total, y.gpu.total);
    return std::make_tuple(!x.nvmeReady, overshoot(x, job), x.time.total)
        < std::make_tuple(!y.nvmeReady, overshoot(y, job), y.time.total);
}

} // namespace

std::vector<std::int64_t> microBatchesFor(std::int64_t perRankSamples)
{
    std::vector<std::int64_t> out;
    for (std::int64_t m = 1; m <= std::min<std::int64_t>(perRankSamples, 64) && out.size() < kMaxMicroBatches; ++m)
        if (perRankSamples % m == 0)
            out.push_back(m);
    if (out.empty())
        out.push_back(1);
    return out;
}

PlanSearch searchPlans(const Answers& a)
{
    PlanSearch s;
    s.job = stepJobFrom(a);
    const ZeroStageLimit limit = zeroStageLimit(a);
    const std::string stageChoice = a.text("zero.stage");
    const std::string optimizerChoice = a.text("zero.offload_optimizer");
    const std::string paramChoice = a.text("zero.offload_param");
    const std::string ckptChoice = a.text("training.activation_checkpointing");
    // A micro-batch the user typed is kept (and labelled their choice); the default one is searched over the
    // samples each rank takes per step, as the batch keys resolve them (a global batch given sets the
    // accumulation). Batch answers that contradict each other are not searched: BatchKeys fails a check.
    const BatchKeys batch = batchKeys(a);
    const bool microForced = a.has("training.micro_batch_size") || batch.check.level == CheckLevel::Fail;
    const std::int64_t perRank = std::max<std::int64_t>(1, batch.microBatch * batch.gradientAccumulation);

    // An offload no allowed stage supports is set aside (adviseZero fails a check for it); the stage is kept.
    const auto offloadPossible = [&] {
        for (const Placement& p : kPlacements)
            if (p.stage <= limit.maxStage && (stageChoice == "auto" || std::to_string(p.stage) == stageChoice)
                && (optimizerChoice == "auto" || optimizerChoice == p.offloadOptimizer)
                && (paramChoice == "auto" || paramChoice == p.offloadParam))
                return true;
        return false;
    }();
    // bf16 master weights and optimizer states (training.precision_states) exist only at ZeRO 1-3: asking for them
    // with the stage left to the wizard rules stage 0 out, as a forced choice does.
    // fp32 gradient accumulation (pipeline.grad_accum_dtype) runs at ZeRO-1 without optimizer offload only.
    const bool bf16States = s.job.states == StatePrecision::Bf16;
    const bool fp32Accumulation = s.job.fp32GradAccumulation;
    auto forcedMatch = [&](const StepCandidate& c) {
        const Placement& p = c.placement;
        return (stageChoice == "auto" ? !(bf16States || fp32Accumulation) || p.stage >= 1
                                      : std::to_string(p.stage) == stageChoice)
            && (!fp32Accumulation || optimizerChoice != "auto" || p.offloadOptimizer == "none")
            && (!offloadPossible || optimizerChoice == "auto" || optimizerChoice == p.offloadOptimizer)
            && (!offloadPossible || paramChoice == "auto" || paramChoice == p.offloadParam)
            && (ckptChoice == "auto" || (ckptChoice == "on") == c.checkpointing)
            && (!microForced || c.microBatch == batch.microBatch);
    };
    std::vector<std::int64_t> micros = microBatchesFor(perRank);
    if (const std::int64_t own = batch.microBatch; std::find(micros.begin(), micros.end(), own) == micros.end())
        micros.push_back(own); // the answers' own micro-batch is always a candidate
    // Activations per (checkpointing, micro-batch), shared by every placement (estimate/StepModel.h).
    std::vector<ModelActivations> activations;
    activations.reserve(2 * micros.size());
    for (const bool ckpt : {false, true})
        for (const std::int64_t micro : micros)
            activations.push_back(stepActivations(s.job, {kPlacements[0], ckpt, micro, perRank / micro}));
    s.candidates.reserve(std::size(kPlacements) * activations.size());
    for (const Placement& p : kPlacements) {
        if (p.stage > limit.maxStage)
            continue;
        const ModelActivations* a = activations.data();
        for (const bool ckpt : {false, true})
            for (const std::int64_t micro : micros) {
                s.candidates.push_back(predictStep(s.job, {p, ckpt, micro, perRank / micro}, *a++));
                s.candidates.back().memory = {}; // its figures are kept; the chosen one is sized again below
            }
    }
    std::stable_sort(s.candidates.begin(), s.candidates.end(),
                     [&](const StepPrediction& x, const StepPrediction& y) { return ranksBefore(x, y, s.job); });
    if (const auto pick = pickAmong(s.candidates, [](const StepPrediction&) { return true; });
        pick && s.candidates[*pick].fits())
        s.wizardPick = pick;
    s.userForced = stageChoice != "auto" || optimizerChoice != "auto" || paramChoice != "auto" || ckptChoice != "auto"
        || microForced || bf16States || fp32Accumulation;
    for (const StepPrediction& p : s.candidates)
        s.asked.push_back(forcedMatch(p.candidate));
    const auto forced = pickAmong(s.candidates, [&](const StepPrediction& p) { return forcedMatch(p.candidate); });
    // A forced choice no allowed placement supports leaves the wizard's ranking (adviseZero fails a check for it).
    s.chosen = forced ? *forced : s.wizardPick.value_or(0);
    if (!forced)
        s.userForced = false;
    if (!s.candidates.empty()) {
        StepPrediction& chosen = s.candidates[s.chosen];
        chosen = predictStep(s.job, chosen.candidate, chosen.activations);
    }
    return s;
}

Answers withChosenBatch(const Answers& a, std::int64_t microBatch, std::int64_t accumulation)
{
    const BatchKeys batch = batchKeys(a);
    if (a.has("training.micro_batch_size") || batch.check.level == CheckLevel::Fail
        || (microBatch == batch.microBatch && accumulation == batch.gradientAccumulation))
        return a;
    Answers tuned = a;
    tuned.set("training.micro_batch_size", microBatch);
    tuned.set("training.gradient_accumulation_steps", accumulation);
    return tuned;
}

} // namespace dsw
