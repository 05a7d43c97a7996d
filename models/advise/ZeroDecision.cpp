// The ZeRO page's decision; see ZeroDecision.h.
#include "advise/ZeroDecision.h"

#include "util/Count.h"

#include <algorithm>
#include <cmath>
#include <iterator>
#include <tuple>

namespace dsw {

namespace {

// Every placement DeepSpeed runs as asked (NVMe only at stage 3, offload_param only at stage 3; deepspeed-facts §2.6).
const Placement kPlacements[] = {
    {0, "none", "none"}, {1, "none", "none"}, {2, "none", "none"}, {3, "none", "none"}, {1, "cpu", "none"},
    {2, "cpu", "none"},  {3, "cpu", "none"},  {3, "cpu", "cpu"},   {3, "nvme", "cpu"},  {3, "nvme", "nvme"},
};

// Lower stages and less offload first: fewer collectives per layer and nothing crossing the host link that the model
// does not time (ZeRO-3's per-module fetch latency, for one); then fewer changes to the training script (expert
// parallelism counts as one: AutoEP swaps the model's MoE blocks).
std::tuple<bool, int, bool, int, int> simplicity(const StepPrediction& p)
{
    const StepCandidate& c = p.candidate;
    const int offloads = (c.placement.offloadOptimizer != "none") + (c.placement.offloadParam != "none");
    const int recompute = !c.checkpointing ? 0 : c.checkpointLayers > 0 ? 1 : 2;
    return {p.tight, offloads + (c.expertParallel > 1) + (c.sequenceParallel > 1) + c.tiledMlp + c.checkpointOffload,
            c.loss == LossImpl::Fused || c.loss == LossImpl::Tiled, c.placement.stage, recompute};
}

// Whether a plan is comfortably within the GPU (below the tight band).
bool comfortable(const StepPrediction& p) { return p.fits() && !p.tight; }

// Selective checkpointing for `none` (the same plan without checkpointing, which does not fit comfortably): the
// fewest of the stage's first layers to checkpoint for a comfortable fit, each saving a layer's saved tensors less its
// input; nullopt when none below every layer does.
std::optional<StepPrediction> selectiveOf(const StepJob& job, const StepPrediction& none)
{
    const std::int64_t L = job.layersPerStage;
    const std::int64_t perLayer = none.activations.perLayerBytes - none.activations.perLayerCheckpointedBytes;
    if (L < 2 || perLayer <= 0 || !none.fitsCpu || !none.nvmeReady || !none.fitsNvme)
        return std::nullopt;
    StepCandidate c = none.candidate;
    c.checkpointing = true;
    const double target = none.usableGpuBytes * (1 - kTightBand);
    double over = static_cast<double>(none.gpu.total) - target;
    // Up from the layers the saving per layer asks for, then down while one fewer still fits with room (the allocator's
    // reserve shrinks with the peak, so the first guess can be a layer or two high).
    std::optional<StepPrediction> best;
    for (int tries = 0; tries < 6; ++tries) {
        c.checkpointLayers = best
            ? c.checkpointLayers - 1
            : c.checkpointLayers + std::max<std::int64_t>(1, static_cast<std::int64_t>(std::ceil(over / perLayer)));
        if (c.checkpointLayers < 1 || c.checkpointLayers >= L)
            break;
        StepPrediction p = predictStep(job, c);
        if (comfortable(p))
            best = std::move(p);
        else if (best)
            break;
        else
            over = static_cast<double>(p.gpu.total) - target;
    }
    return best;
}

// Of the candidates `allowed` admits (ranked), the first; when it fits, the simplest of those that fit within
// kTimeTie of its time.
template <typename Allowed>
std::optional<std::size_t> simplestAmong(const std::vector<StepPrediction>& ranked, Allowed allowed)
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

// simplestAmong, except that a plan needing changes to the training script gives way to the best with fewer within
// kLeverTie, one that offloads to the best on the GPU within kLeverTie, and a tight plan to the simplest comfortable
// one within kTightTradeoff.
template <typename Allowed>
std::optional<std::size_t> pickAmong(const std::vector<StepPrediction>& ranked, Allowed allowed)
{
    std::optional<std::size_t> first = simplestAmong(ranked, allowed);
    if (!first || !ranked[*first].fits())
        return first;
    if (const int changes = scriptChanges(ranked[*first].candidate); changes > 0) {
        const auto fewer = simplestAmong(
            ranked, [&](const StepPrediction& p) { return allowed(p) && scriptChanges(p.candidate) < changes; });
        if (fewer && ranked[*fewer].fits() && ranked[*fewer].time.total <= ranked[*first].time.total * kLeverTie)
            first = fewer;
    }
    // A plan that offloads gives way to the best on the GPU, among the plans `also` admits, within kLeverTie.
    const auto onGpuFor = [&](std::size_t pick, auto also) {
        if (!offloads(ranked[pick].candidate))
            return pick;
        const int changes = scriptChanges(ranked[pick].candidate);
        const auto onGpu = simplestAmong(ranked, [&](const StepPrediction& p) {
            return allowed(p) && also(p) && !offloads(p.candidate) && scriptChanges(p.candidate) <= changes;
        });
        return onGpu && ranked[*onGpu].fits() && ranked[*onGpu].time.total <= ranked[pick].time.total * kLeverTie
            ? *onGpu
            : pick;
    };
    first = onGpuFor(*first, [](const StepPrediction&) { return true; });
    if (!ranked[*first].tight)
        return first;
    const auto roomy = simplestAmong(ranked, [&](const StepPrediction& p) { return allowed(p) && comfortable(p); });
    if (!roomy || !ranked[*roomy].fits() || ranked[*roomy].time.total > ranked[*first].time.total * kTightTradeoff)
        return first;
    return onGpuFor(*roomy, comfortable);
}

// How far a plan is from fitting: the largest of needed ÷ available over GPU, host RAM and NVMe, at least 1 (room left
// on one does not bring a plan that fails on another closer: one without an NVMe device, say).
double overshoot(const StepPrediction& p, const StepJob& job)
{
    double worst = p.usableGpuBytes > 0 ? static_cast<double>(p.gpu.total) / p.usableGpuBytes : 1e30;
    worst = std::max(worst,
                     job.hostBytesPerNode > 0 ? static_cast<double>(p.cpuPerNode) / job.hostBytesPerNode
                                              : (p.cpuPerNode > 0 ? 1e30 : 0));
    if (job.nvmeBytesPerNode > 0)
        worst = std::max(worst, static_cast<double>(p.nvmePerNode) / job.nvmeBytesPerNode);
    return std::max(1.0, worst);
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

bool offloads(const StepCandidate& c)
{
    return c.placement.offloadOptimizer != "none" || c.placement.offloadParam != "none";
}

int scriptChanges(const StepCandidate& c)
{
    return (c.loss == LossImpl::Fused || c.loss == LossImpl::Tiled) + (c.checkpointing && c.checkpointLayers > 0)
        + (c.sequenceParallel > 1) + c.tiledMlp + c.checkpointOffload;
}

std::string percentFaster(double slower, double faster)
{
    const long percent = faster > 0 ? std::lround((slower / faster - 1) * 100) : 0;
    return percent <= 0 ? "as fast" : std::to_string(percent) + "% faster";
}

bool ZeroChoices::any() const
{
    return stage || offloadOptimizer || offloadParam || checkpointing || microBatch || batchAsTyped || bf16States
        || fp32Accumulation;
}

std::string ZeroChoices::text() const
{
    std::vector<std::string> parts;
    if (stage)
        parts.push_back("ZeRO stage " + std::to_string(*stage));
    if (offloadOptimizer)
        parts.push_back("optimizer offload " + *offloadOptimizer);
    if (offloadParam)
        parts.push_back("parameter offload " + *offloadParam);
    if (checkpointing)
        parts.push_back(std::string("activation checkpointing ") + (*checkpointing ? "on" : "off"));
    if (batchAsTyped)
        parts.push_back("batch settings (as typed)");
    else if (microBatch)
        parts.push_back("micro-batch " + std::to_string(*microBatch)
                        + (accumulation ? " × accumulation " + std::to_string(*accumulation) : std::string()));
    if (bf16States)
        parts.push_back("bf16 optimizer states (ZeRO 1-3 only)");
    if (fp32Accumulation)
        parts.push_back("fp32 gradient accumulation (ZeRO-1 without optimizer offload only)");
    std::string out;
    for (std::size_t i = 0; i < parts.size(); ++i)
        out += (i == 0 ? "" : i + 1 == parts.size() ? " and " : ", ") + parts[i];
    return out;
}

const StepPrediction* ZeroDecision::atStage(int stage) const
{
    for (const std::size_t i : stageTable) {
        const Placement& p = candidates[i].candidate.placement;
        if (p.stage == stage && p.offloadOptimizer == "none" && p.offloadParam == "none")
            return &candidates[i];
    }
    return nullptr;
}

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

namespace {

ZeroChoices choicesFrom(const Answers& a, const Job& job)
{
    ZeroChoices f;
    if (const std::string s = a.text("zero.stage"); s != "auto")
        f.stage = std::stoi(s);
    if (const std::string o = a.text("zero.offload_optimizer"); o != "auto")
        f.offloadOptimizer = o;
    if (const std::string o = a.text("zero.offload_param"); o != "auto")
        f.offloadParam = o;
    if (const std::string c = a.text("training.activation_checkpointing"); c != "auto")
        f.checkpointing = c == "on";
    f.batchAsTyped = job.batch.check.level == CheckLevel::Fail;
    if (f.batchAsTyped || a.has("training.micro_batch_size")) {
        f.microBatch = job.batch.microBatch;
        if (a.has("training.gradient_accumulation_steps"))
            f.accumulation = job.batch.gradientAccumulation;
    }
    f.bf16States = job.step->states == StatePrecision::Bf16;
    f.fp32Accumulation = job.step->fp32GradAccumulation;
    return f;
}

// Per stage without offload, the fastest plan that fits (else the closest), whatever the user fixed; the chosen
// plan and the wizard's pick stand in their stage's row (or in a row of their own when they offload).
std::vector<std::size_t> stageTableOf(const ZeroDecision& d)
{
    const auto& c = d.candidates;
    auto offloads = [&](std::size_t i) {
        const Placement& p = c[i].candidate.placement;
        return p.offloadOptimizer != "none" || p.offloadParam != "none";
    };
    auto stageOf = [&](std::size_t i) { return c[i].candidate.placement.stage; };
    std::vector<std::size_t> rows;
    for (int stage = 0; stage <= 3; ++stage) {
        std::optional<std::size_t> best;
        for (const std::size_t marked : {d.chosen, d.wizardPick.value_or(c.size())})
            if (!best && marked < c.size() && stageOf(marked) == stage && !offloads(marked))
                best = marked;
        // Ranked: the first is the best of its stage; at the micro-batch the user fixed when one fits there.
        const auto& chosen = c.empty() ? StepCandidate{} : c[d.chosen].candidate;
        for (const bool sameBatch : {d.fixed.microBatch.has_value(), false})
            for (std::size_t i = 0; i < c.size() && !best; ++i)
                if (stageOf(i) == stage && !offloads(i)
                    && (!sameBatch
                        || (c[i].fits() && c[i].candidate.microBatch == chosen.microBatch
                            && c[i].candidate.accumulation == chosen.accumulation)))
                    best = i;
        if (best)
            rows.push_back(*best);
    }
    if (!c.empty() && offloads(d.chosen))
        rows.push_back(d.chosen);
    if (d.wizardPick && *d.wizardPick != d.chosen && offloads(*d.wizardPick))
        rows.push_back(*d.wizardPick);
    return rows;
}

// The five fastest plans that fit after the chosen one, each with the one reason it is slower: the component of the
// step time that grew most.
std::vector<ZeroAlternative> alternativesOf(const ZeroDecision& d)
{
    std::vector<ZeroAlternative> out;
    if (d.candidates.empty())
        return out;
    const StepPrediction& chosen = d.plan();
    for (std::size_t i = 0; i < d.candidates.size() && out.size() < 5; ++i) {
        const StepPrediction& p = d.candidates[i];
        if (i == d.chosen || !p.fits())
            continue;
        const std::pair<double, const char*> deltas[] = {
            {p.time.compute - chosen.time.compute,
             p.candidate.checkpointing && !chosen.candidate.checkpointing
                 ? "recomputes every layer's forward (activation checkpointing)"
                 : "more compute per step"},
            {p.time.communication - chosen.time.communication, "more communication per step"},
            {p.time.offload - chosen.time.offload, "host transfers and the CPU optimizer step (offload)"},
            {p.time.bubble - chosen.time.bubble, "a larger pipeline bubble"}};
        const auto worst = std::max_element(std::begin(deltas), std::end(deltas));
        std::string reason;
        if (p.time.total > chosen.time.total * kTimeTie)
            reason =
                std::string(worst->second) + ": the chosen plan is " + percentFaster(p.time.total, chosen.time.total);
        else if (p.time.total < chosen.time.total && scriptChanges(p.candidate) > scriptChanges(chosen.candidate))
            reason = percentFaster(chosen.time.total, p.time.total)
                + ", but it needs a change to the training script; the wizard takes one only when it gains more than "
                  "5%";
        else if (d.userForced && !d.asked[i])
            reason = std::string(p.time.total < chosen.time.total ? "faster" : "as fast") + ", but not with your "
                + d.fixed.text();
        else
            reason = "within 2% of it, the step model's margin; the wizard takes the simplest of those";
        out.push_back({i, reason});
    }
    return out;
}

// The levers the search turned on for the chosen plan, and the best plan that fits without any of them.
template <typename Allowed>
ZeroLevers leversOf(const ZeroDecision& d, const StepJob& job, Allowed allowed)
{
    ZeroLevers out;
    if (d.candidates.empty() || !d.fits())
        return out;
    const StepCandidate& c = d.plan().candidate;
    const bool fused = c.loss == LossImpl::Fused, selective = c.checkpointing && c.checkpointLayers > 0;
    if (fused)
        out.names.push_back("a fused cross-entropy");
    if (selective)
        out.names.push_back("checkpointing only the first " + std::to_string(c.checkpointLayers) + " of "
                            + std::to_string(job.layersPerStage) + " layers");
    if (c.sequenceParallel > 1)
        out.names.push_back("Ulysses sequence parallelism over " + std::to_string(c.sequenceParallel) + " GPUs");
    if (c.tiledMlp)
        out.names.push_back("TiledMLP");
    if (c.checkpointOffload)
        out.names.push_back("checkpoint offload to host memory");
    for (std::size_t i = 0; i < d.candidates.size() && d.candidates[i].fits() && !out.names.empty(); ++i) {
        const StepCandidate& x = d.candidates[i].candidate;
        if (allowed(d.candidates[i]) && !(fused && x.loss == LossImpl::Fused)
            && !(selective && x.checkpointing && x.checkpointLayers > 0)
            && !(c.sequenceParallel > 1 && x.sequenceParallel > 1) && !(c.tiledMlp && x.tiledMlp)
            && !(c.checkpointOffload && x.checkpointOffload)) {
            out.bestWithout = i;
            break;
        }
    }
    return out;
}

} // namespace

std::string ZeroLevers::effect(const ZeroDecision& d) const
{
    if (names.empty())
        return {};
    std::string what;
    for (std::size_t i = 0; i < names.size(); ++i)
        what += (i == 0 ? "" : i + 1 == names.size() ? " and " : ", ") + names[i];
    const bool one = names.size() == 1;
    if (!bestWithout)
        return what + (one ? " makes" : " make") + " it fit";
    const StepPrediction& without = d.candidates.at(*bestWithout);
    const std::string it = one ? "it" : "them";
    if (without.time.total > d.plan().time.total * kTimeTie)
        return what + (one ? " makes" : " make") + " it " + percentFaster(without.time.total, d.plan().time.total)
            + " than the best plan without " + it + " (" + without.label() + ")";
    return what + (one ? " keeps" : " keep") + " it clear of the GPU's limit: the best plan without " + it + ", "
        + without.label() + ", is tight";
}

ZeroDecision decideZero(const Job& job, const Answers& a)
{
    ZeroDecision d;
    const StepJob& stepJob = *job.step;
    d.fixed = choicesFrom(a, job);
    const ZeroChoices& f = d.fixed;
    const int maxStage = job.zeroLimit.maxStage;
    // The samples each rank takes per step, as the batch keys resolve them (a global batch given sets the
    // accumulation); a micro-batch the user typed is kept, the default one is searched.
    const std::int64_t perRank = std::max<std::int64_t>(1, job.batch.microBatch * job.batch.gradientAccumulation);

    // An offload fixed with the stage is matched as DeepSpeed runs it there (knowledge/CombinationRules.h): NVMe
    // optimizer offload below stage 3 runs as CPU offload, offload_param below stage 3 is ignored.
    std::optional<std::string> optimizerAsRun = f.offloadOptimizer, paramAsRun = f.offloadParam;
    if (f.stage) {
        const PlacementAsRun run =
            placementAsRun(*f.stage, f.offloadOptimizer.value_or("none"), f.offloadParam.value_or("none"));
        if (f.offloadOptimizer)
            optimizerAsRun = run.offloadOptimizer;
        if (f.offloadParam)
            paramAsRun = run.offloadParam;
    }
    // An offload no allowed stage supports is set aside (the ZeRO advice reports DeepSpeed's rule); the stage is kept.
    const auto offloadPossible = [&] {
        for (const Placement& p : kPlacements)
            if (p.stage <= maxStage && (!f.stage || p.stage == *f.stage)
                && (!optimizerAsRun || *optimizerAsRun == p.offloadOptimizer)
                && (!paramAsRun || *paramAsRun == p.offloadParam))
                return true;
        return false;
    }();
    // bf16 master weights and optimizer states exist only at ZeRO 1-3: asking for them with the stage left to the
    // wizard rules stage 0 out, as a fixed stage does. fp32 gradient accumulation runs at ZeRO-1 without optimizer
    // offload only.
    const LongContextJob& lc = stepJob.longContext;
    auto forcedMatch = [&](const StepCandidate& c) {
        const Placement& p = c.placement;
        return (!f.stage ? !(f.bf16States || f.fp32Accumulation) || p.stage >= 1 : p.stage == *f.stage)
            && (!f.fp32Accumulation || f.offloadOptimizer || p.offloadOptimizer == "none")
            && (!offloadPossible || !optimizerAsRun || *optimizerAsRun == p.offloadOptimizer)
            && (!offloadPossible || !paramAsRun || *paramAsRun == p.offloadParam)
            // "on" is every layer (gradient_checkpointing_enable()), not the selective plans
            && (!f.checkpointing || (*f.checkpointing == c.checkpointing && c.checkpointLayers == 0))
            && (!f.microBatch || c.microBatch == job.batch.microBatch)
            // a typed accumulation holds at the typed micro-batch; another Ulysses degree would need another one
            && (!f.accumulation || c.accumulation == job.batch.gradientAccumulation)
            && (!lc.tiledMlp || *lc.tiledMlp == c.tiledMlp)
            && (!lc.checkpointOffload || *lc.checkpointOffload == c.checkpointOffload);
    };
    // A micro-batch the user fixed (typed, or kept with batch answers that contradict each other) is always a
    // candidate; one the batch keys only derived (a global batch alone: all of a GPU's samples at once) is not.
    const auto microsFor = [&](std::int64_t samples) {
        std::vector<std::int64_t> micros = microBatchesFor(samples);
        if (const std::int64_t own = job.batch.microBatch;
            f.microBatch && std::find(micros.begin(), micros.end(), own) == micros.end())
            micros.push_back(own);
        return micros;
    };
    // The loss kernel is a lever when model.loss_impl is auto: the fused one beside the job's standard one.
    std::vector<std::optional<LossImpl>> losses{std::nullopt};
    if (a.text("model.loss_impl") == "auto" && stepJob.loss == LossImpl::Standard)
        losses.push_back(LossImpl::Fused);
    // Long context (knowledge/UlyssesRules.h): the Ulysses degrees the job runs; each sequence-parallel group is one
    // data replica, so at degree sp a replica takes sp times the samples and the global batch stays. TiledMLP and
    // checkpoint offload, where left to the wizard, are tried only where the activations without them take more than
    // kLongContextLeverShare of the GPU: below that they can only cost time.
    // Left to the wizard, all three are tried only for a long-context job: one whose activations at sp 1 with the
    // least the other levers give (micro-batch 1, every layer checkpointed, the lightest loss kernel tried) take more
    // than kLongContextLeverShare of the GPU. Below that, sequence parallelism only adds its all-to-all.
    const StepCandidate least{kPlacements[0], true, 1, 1, 0, losses.back()};
    const bool longContext = static_cast<double>(stepActivations(stepJob, least).peakBytes)
        > kLongContextLeverShare * stepJob.gpuCapacityBytes;
    const std::vector<std::int64_t> sps = longContext || lc.sequenceParallelAsked > 0
        ? sequenceParallelDegrees(ulyssesCaseOf(stepJob), lc.sequenceParallelAsked)
        : std::vector<std::int64_t>{1};
    // The samples a replica takes per step at degree sp: the global batch kept (a typed micro-batch and accumulation
    // hold only at the degree answered: forcedMatch).
    const std::int64_t spAnswered = std::max<std::int64_t>(1, lc.sequenceParallelAsked);
    const auto samplesAt = [&](std::int64_t sp) { return std::max<std::int64_t>(1, perRank * sp / spAnswered); };
    const auto options = [](std::optional<bool> asked, bool possible) {
        return asked   ? std::vector<bool>{*asked && possible}
            : possible ? std::vector<bool>{false, true}
                       : std::vector<bool>{false};
    };
    // Activations per (loss, checkpointing, micro-batch, sequence-parallel degree, tiling, checkpoint offload), shared
    // by every placement (estimate/StepModel.h).
    // Past the first micro-batch whose activations alone exceed the GPU with every lever tried, larger ones cannot
    // fit at any placement and are left out (a micro-batch the user fixed is kept).
    std::vector<StepCandidate> shapes;
    std::vector<ModelActivations> shapeActivations;
    for (const std::int64_t sp : sps)
        for (const auto& loss : losses)
            for (const bool ckpt : {false, true}) {
                std::int64_t overflowAt = 0;
                for (const std::int64_t micro : microsFor(samplesAt(sp))) {
                    if (overflowAt > 0 && micro > overflowAt && !(f.microBatch && micro == job.batch.microBatch))
                        continue;
                    bool fitsSomewhere = false;
                    StepCandidate c{
                        kPlacements[0], ckpt, micro, std::max<std::int64_t>(1, samplesAt(sp) / micro), 0, loss};
                    c.sequenceParallel = sp;
                    const ModelActivations plain = stepActivations(stepJob, c);
                    const bool large = longContext
                        && static_cast<double>(plain.peakBytes) > kLongContextLeverShare * stepJob.gpuCapacityBytes;
                    for (const bool tiled : options(lc.tiledMlp, !stepJob.moe.moe() && (large || lc.tiledMlp)))
                        for (const bool offload :
                             options(lc.checkpointOffload, ckpt && (large || lc.checkpointOffload))) {
                            c.tiledMlp = tiled;
                            c.checkpointOffload = offload;
                            shapes.push_back(c);
                            shapeActivations.push_back(tiled || offload ? stepActivations(stepJob, c) : plain);
                            fitsSomewhere = fitsSomewhere
                                || static_cast<double>(shapeActivations.back().peakBytes) <= stepJob.gpuCapacityBytes;
                        }
                    if (!fitsSomewhere && overflowAt == 0)
                        overflowAt = micro;
                }
            }
    // A mixture of experts: each placement with the expert-parallel degrees and the path moe.mode allows there
    // (knowledge/MoeShape.h); a mode no allowed or fixed stage runs (leaf under a 1-bit optimizer's stage 0, or with
    // zero.stage 1) gives way to auto, and the ZeRO advice says so (advise/MoeAdvice.h).
    const MoeJob& moe = stepJob.moe;
    const std::vector<std::int64_t> degrees = moe.moe()
        ? expertParallelDegrees(moe.spec.experts, stepJob.dataParallel, moe.expertParallelAsked)
        : std::vector<std::int64_t>{1};
    MoeMode mode = moe.mode;
    const auto runnable = [&](MoeMode m) {
        for (const Placement& p : kPlacements)
            for (const std::int64_t ep : degrees)
                if (p.stage <= maxStage && (!f.stage || p.stage == *f.stage) && moePathFor(m, p.stage, ep))
                    return true;
        return false;
    };
    if (moe.moe() && !runnable(mode))
        mode = MoeMode::Auto;
    for (const Placement& p : kPlacements) {
        if (p.stage > maxStage)
            continue;
        for (const std::int64_t ep : degrees) {
            const std::optional<MoeMode> path = moe.moe() ? moePathFor(mode, p.stage, ep) : std::nullopt;
            if (moe.moe() && !path)
                continue;
            // Left to the wizard, AutoEP is planned only with the Transformers its presets need (ds-autoep).
            if (path == MoeMode::AutoEp && mode == MoeMode::Auto && moe.expertParallelAsked == 0 && !moe.transformers5)
                continue;
            for (std::size_t k = 0; k < shapes.size(); ++k) {
                StepCandidate c = shapes[k];
                c.placement = p;
                c.expertParallel = ep;
                c.moePath = path;
                StepPrediction pred = predictStep(stepJob, c, shapeActivations[k]);
                // Selective checkpointing: the fewest layers that make a plan fit comfortably, beside none and all (not
                // under a pipeline, whose engine checkpoints every activation_checkpoint_interval layers).
                std::optional<StepPrediction> selective;
                if (!c.checkpointing && stepJob.pipelineStages == 1 && !comfortable(pred))
                    selective = selectiveOf(stepJob, pred);
                for (StepPrediction* kept : {&pred, selective ? &*selective : nullptr})
                    if (kept) {
                        kept->memory = {}; // its figures are kept; the chosen one is sized again below
                        d.candidates.push_back(std::move(*kept));
                    }
            }
        }
    }
    std::stable_sort(d.candidates.begin(), d.candidates.end(),
                     [&](const StepPrediction& x, const StepPrediction& y) { return ranksBefore(x, y, stepJob); });
    if (const auto pick = pickAmong(d.candidates, [](const StepPrediction&) { return true; });
        pick && d.candidates[*pick].fits())
        d.wizardPick = pick;
    for (const StepPrediction& p : d.candidates)
        d.asked.push_back(forcedMatch(p.candidate));
    const auto forced = pickAmong(d.candidates, [&](const StepPrediction& p) { return forcedMatch(p.candidate); });
    // A fixed choice no allowed placement supports leaves the wizard's ranking (the ZeRO advice says why).
    d.chosen = forced ? *forced : d.wizardPick.value_or(0);
    d.userForced = forced && f.any();
    if (!d.candidates.empty()) {
        StepPrediction& chosen = d.candidates[d.chosen];
        chosen = predictStep(stepJob, chosen.candidate, chosen.activations);
    }
    d.stageTable = stageTableOf(d);
    d.alternatives = alternativesOf(d);
    d.levers = leversOf(d, stepJob, [&](const StepPrediction& p) { return !d.userForced || forcedMatch(p.candidate); });
    return d;
}

Answers withChosenBatch(const Answers& a, const ZeroDecision& d)
{
    if (d.candidates.empty())
        return a;
    const StepCandidate& c = d.plan().candidate;
    const BatchKeys batch = batchKeys(a);
    Answers tuned = a;
    // A Ulysses degree the search chose sets the batch's world size (Answers::batchWorldSize).
    if (c.sequenceParallel > 1 && a.text("parallel.sequence_parallel_size") == "auto")
        tuned.set("parallel.sequence_parallel_size", std::to_string(c.sequenceParallel));
    if (batch.check.level == CheckLevel::Fail
        || (c.microBatch == batch.microBatch && c.accumulation == batch.gradientAccumulation))
        return tuned;
    // The search's micro-batch where none was typed; its accumulation then, or where only the degree changed it.
    if (!a.has("training.micro_batch_size")) {
        tuned.set("training.micro_batch_size", c.microBatch);
        tuned.set("training.gradient_accumulation_steps", c.accumulation);
    } else if (!a.has("training.gradient_accumulation_steps") && c.microBatch == batch.microBatch) {
        tuned.set("training.gradient_accumulation_steps", c.accumulation);
    }
    return tuned;
}

nlohmann::ordered_json toJson(const ZeroDecision& d)
{
    nlohmann::ordered_json out;
    out["candidates"] = nlohmann::ordered_json::array();
    for (const StepPrediction& p : d.candidates)
        out["candidates"].push_back(candidateJson(p));
    out["chosen"] = d.chosen;
    out["wizard_pick"] = d.wizardPick ? nlohmann::ordered_json(*d.wizardPick) : nlohmann::ordered_json(nullptr);
    out["user_forced"] = d.userForced;
    out["fixed_by_you"] = d.userForced ? d.fixed.text() : std::string();
    out["stage_table"] = d.stageTable;
    out["alternatives"] = nlohmann::ordered_json::array();
    for (const ZeroAlternative& alt : d.alternatives)
        out["alternatives"].push_back({{"index", alt.index}, {"reason", alt.reason}});
    out["levers"] = {
        {"names", d.levers.names},
        {"effect", d.levers.effect(d)},
        {"best_without",
         d.levers.bestWithout ? nlohmann::ordered_json(*d.levers.bestWithout) : nlohmann::ordered_json(nullptr)}};
    return out;
}

} // namespace dsw
