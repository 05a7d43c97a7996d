// Out-of-memory diagnosis: the pasted message is parsed (OomMessage.h), the setup the job ran is asked
// (memory.ran_*; what is not given is the project's config, and the window freezes it when the message is pasted),
// the message's figures are compared with the step model's prediction for it, the likely cause is named from the
// message's numbers, memory.phase and the prediction (MemoryDiagnosis.h), and the plan (MemoryPlan.h) lists
// changes, each alone on the failed run, with their expected savings, each at most what the message says was in
// use, and trade-offs.
#include "advise/MemoryAdvisor.h"

#include "advise/MemoryDiagnosis.h"
#include "knowledge/DeepSpeedFacts.h"
#include "knowledge/SourceCatalog.h"
#include "util/Count.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <optional>
#include <stdexcept>

namespace dsw {

namespace {

using namespace memory;
using oj = nlohmann::ordered_json;
constexpr double kGiB = 1073741824.0;
// A GPU size this far from the answers' is reported as a different GPU (the wizard's own tolerance).
constexpr double kCapacityMismatch = 0.10;
// The message's allocated bytes this many times above or below the prediction for the setup it ran: the setup or
// the model is off (issue 10's threshold, the wizard's own).
constexpr double kModelMismatch = 1.5;

std::string gib(double bytes) { return formatGiB(bytes); }
std::string num(std::int64_t v) { return std::to_string(v); }
oj orNull(const std::optional<std::int64_t>& v) { return v ? oj(*v) : oj(nullptr); }

// What the diagnosis takes the failed run to be, and where each part came from.
Check failedRunCheck(const RanSetup& ran)
{
    const std::string run =
        "Diagnosed for the failed run as the fields below describe it: " + setupLabel(ran.setup) + ".";
    if (ran.fromConfig.empty())
        return {CheckLevel::Pass, "oom-failed-run", run + " Steps apply to it one at a time.", ""};
    std::string ids;
    for (const std::string& id : ran.fromConfig)
        ids += (ids.empty() ? "" : ", ") + id;
    return {CheckLevel::Warn, "oom-setup-not-given",
            run + " " + ids
                + " not given: taken from the project's config as it is now (the window sets them from it when the "
                  "message is pasted, and they stay). Set them below if the run differed.",
            ""};
}

// The message's PyTorch-allocated bytes (else reserved) against the predicted peak allocated for the setup it ran.
void compareWithPrediction(RemedyPlanner& p, const OomReport& r, const RanSetup& ran)
{
    const std::optional<std::int64_t> seen = r.allocated ? r.allocated : r.reserved;
    if (!seen || *seen <= 0)
        return;
    const std::int64_t predicted = predict(p.job, ran.setup).memory.gpuPeakAllocated();
    if (predicted <= 0 || predicted == kSaturated)
        return;
    const double ratio = static_cast<double>(predicted) / static_cast<double>(*seen);
    const std::string what = r.allocated ? "allocated by PyTorch" : "reserved by PyTorch";
    if (ratio <= kModelMismatch && ratio >= 1.0 / kModelMismatch)
        return;
    char factor[16];
    std::snprintf(factor, sizeof factor, "%.1f×", ratio > 1 ? ratio : 1 / ratio);
    p.warn(
        "oom-model-mismatch",
        "The message says " + gib(static_cast<double>(*seen)) + " was " + what + "; the step model predicts "
            + gib(static_cast<double>(predicted)) + " allocated at the peak for the setup it ran ("
            + setupLabel(ran.setup) + "), " + factor + (ratio > 1 ? " more" : " less")
            + ". Check the failed run's fields below (memory.ran_*: stage, offload, checkpointing, batch, kernels) and "
              "the model's answers; the "
              "savings below come from the prediction, each at most what was in use (the 1.5× threshold is the "
              "wizard's own).",
        "pytorch-oom-message");
}

void addMessageEstimates(Advice& adv, const OomReport& r)
{
    const std::string how = "as printed × its unit (1024 steps), to the nearest byte";
    auto add = [&](const char* name, const std::optional<std::int64_t>& v, const std::string& formula) {
        if (v)
            adv.estimates.push_back({name, static_cast<double>(*v), "bytes", formula, "pytorch-format-size"});
    };
    add("Tried to allocate", r.triedToAllocate, how);
    add("GPU total capacity", r.totalCapacity, how);
    add("Free on the GPU", r.free, how);
    add("Allocated by PyTorch", r.allocated, how);
    add("Reserved by PyTorch", r.reserved,
        r.format == OomFormat::New ? "allocated by PyTorch + reserved but unallocated (the message prints no total)"
                                   : how);
    add("Reserved but unallocated", r.reservedUnallocated, how);
}

// The step the headline names: the cheapest, unless the failed run's model states alone exceed the GPU (a LoRA base
// kept whole at stage 2, say), where a cheap step cannot be enough: then the first that brings them under it.
const Remedy* headlineStep(const std::vector<Remedy>& steps, const StepPrediction& ran, double capacity)
{
    if (steps.empty())
        return nullptr;
    const auto states = [](const GpuBytes& g) { return static_cast<double>(addSat(g.params, g.grads, g.optimizer)); };
    if (states(ran.gpu) <= capacity)
        return &steps.front();
    const auto enough = std::find_if(steps.begin(), steps.end(),
                                     [&](const Remedy& s) { return s.after && states(s.after->gpu) < capacity; });
    return enough != steps.end() ? &*enough : &steps.front();
}

std::string headlineFor(const OomReport& r, const Cause& c, const Remedy* step)
{
    std::string h = r.kind == OomKind::CudaOutOfMemory
        ? r.device + " out of memory" + (r.gpuIndex ? " on GPU " + num(*r.gpuIndex) : std::string())
        : r.kind == OomKind::HostKilled ? "Process killed (host RAM)"
                                        : "DeepSpeed's batch-size check failed";
    h += ": likely " + causeLabel(c.id) + ".";
    if (step) {
        h += " First step: " + step->change;
        if (step->saving)
            h += ", saving " + std::string(step->env.empty() ? "" : "up to ") + gib(static_cast<double>(*step->saving));
        h += ".";
    }
    return h;
}

std::string parsedSummary(const OomReport& r)
{
    if (r.kind == OomKind::HostKilled)
        return "Read a host kill (\"" + r.marker + "\"): exit code -9 / SIGKILL usually means the host ran out of RAM.";
    if (r.kind == OomKind::BatchAssertion)
        return "Read DeepSpeed's batch-size assertion.";
    if (r.format == OomFormat::NoNumbers)
        return "Read the CUDA runtime's \"CUDA error: out of memory\": it prints no sizes, so the cause comes from "
               "memory.phase and the estimates.";
    return "Read " + r.device + "'s out-of-memory message ("
        + (r.format == OomFormat::New       ? "PyTorch 2.1 or newer"
               : r.format == OomFormat::Old ? "PyTorch 2.0 or older"
                                            : "sizes after the request not found")
        + (r.gpuIndex ? ", GPU " + num(*r.gpuIndex) : std::string()) + ").";
}

void addUnique(std::vector<std::string>& ids, const std::string& id)
{
    if (!id.empty() && std::find(ids.begin(), ids.end(), id) == ids.end())
        ids.push_back(id);
}

// The whole diagnosis; adviseMemory turns an input the step model rejects into a check.
MemoryAdvice diagnose(const Job& plannedJob, const ZeroDecision* zero, const Answers& answers)
{
    MemoryAdvice out;
    Advice& adv = out.advice;
    adv.workflow = "memory";
    const std::string message = answers.text("memory.oom_message");
    if (message.empty()) {
        adv.status = AdviceStatus::NeedsInput;
        adv.missing = {"memory.oom_message"};
        adv.headline = "Paste the out-of-memory message to diagnose it.";
        if (!plannedJob.notModelled.empty()) { // said before a message is pasted, as a warning: the page is optional
            Check why = plannedJob.unsizedCheck();
            why.level = CheckLevel::Warn;
            why.message = "A message pasted here is read, but no remedy is sized. " + why.message;
            adv.checks.push_back(why);
        }
        return out;
    }
    const OomReport r = parseOomMessage(message);
    adv.details["kind"] = toString(r.kind);
    adv.details["parsed"] = oj{{"tried_to_allocate_bytes", orNull(r.triedToAllocate)},
                               {"total_capacity_bytes", orNull(r.totalCapacity)},
                               {"free_bytes", orNull(r.free)},
                               {"allocated_bytes", orNull(r.allocated)},
                               {"reserved_bytes", orNull(r.reserved)}};
    oj batch = nullptr;
    if (r.batchTrain)
        batch = oj{{"train_batch_size", *r.batchTrain},
                   {"micro_batch_per_gpu", *r.batchMicro},
                   {"gradient_acc_step", *r.batchAccumulation},
                   {"world_size", *r.batchWorld}};
    adv.details["message"] = oj{{"format", r.format == OomFormat::None ? oj(nullptr) : oj(toString(r.format))},
                                {"device", r.device.empty() ? oj(nullptr) : oj(r.device)},
                                {"gpu_index", r.gpuIndex ? oj(*r.gpuIndex) : oj(nullptr)},
                                {"reserved_unallocated_bytes", orNull(r.reservedUnallocated)},
                                {"process_in_use_bytes", orNull(r.processInUse)},
                                {"other_processes_bytes", orNull(r.otherProcessesInUse)},
                                {"allocator_hint", r.allocatorHint.empty() ? oj(nullptr) : oj(r.allocatorHint)},
                                {"marker", r.marker.empty() ? oj(nullptr) : oj(r.marker)},
                                {"batch", batch},
                                {"truncated", r.truncated}};
    adv.details["reserved_basis"] = r.format == OomFormat::New
        ? "allocated by PyTorch + reserved but unallocated (the new message prints no total)"
        : r.reserved ? "\"reserved in total by PyTorch\" as printed"
                     : "";
    if (r.truncated)
        adv.checks.push_back(
            {CheckLevel::Warn, "oom-message-truncated", "Only the first 64 KiB of the message were read.", ""});
    if (r.kind == OomKind::Unrecognised) {
        adv.status = AdviceStatus::NeedsInput;
        adv.missing = {"memory.oom_message"};
        adv.headline = "The message was not recognised; nothing is guessed from it.";
        adv.checks.push_back(
            {CheckLevel::Warn, "oom-message-unrecognised",
             "Could not parse this message, so nothing is guessed from it. The wizard reads PyTorch's "
             "\"CUDA out of memory. Tried to allocate …\" (the PyTorch ≤ 2.0 and ≥ 2.1 wordings) and the "
             "CUDA runtime's \"CUDA error: out of memory\", host kills (\"Killed\", exit code -9 or 137, "
             "SIGKILL, DeepSpeed's \"exits with return code = -9\") and DeepSpeed's "
                 + quoteExcerpt("ds-batch-assert", "Check batch", "parameters")
                 + " assertion. Paste the whole error, down to the traceback's last line.",
             "pytorch-oom-message"});
        adv.sources = {"pytorch-oom-message"};
        return out;
    }
    adv.status = AdviceStatus::Complete;
    adv.checks.push_back({CheckLevel::Pass, "oom-message-parsed", parsedSummary(r),
                          r.kind == OomKind::CudaOutOfMemory  ? "pytorch-oom-message"
                              : r.kind == OomKind::HostKilled ? "axolotl-faq-exit9"
                                                              : "ds-batch-assert"});
    if (!plannedJob.sized()) { // the model's shape contradicts itself, or it is not modelled: nothing can be sized
        adv.status = AdviceStatus::NeedsInput;
        adv.headline = plannedJob.notModelled.empty()
            ? "The model's shape contradicts itself"
            : "Mixture of experts is not modelled yet: the message is read, no remedy is sized";
        adv.checks.push_back(plannedJob.unsizedCheck());
        return out;
    }
    const FailedJob job = failedJobFrom(plannedJob, answers, r.totalCapacity);
    const RanSetup ran = ranSetupFrom(answers, configSetup(plannedJob, zero));
    RemedyPlanner p(job, ran.setup, adv);
    const StepPrediction& ranPrediction = p.ranPrediction;
    adv.details["ran_setup"] = candidateJson(ranPrediction);
    adv.details["ran_setup_from_config"] = ran.fromConfig;
    adv.checks.push_back(failedRunCheck(ran));
    Cause cause;
    if (r.kind == OomKind::CudaOutOfMemory) {
        const double given = plannedJob.gpuCapacityBytes;
        if (r.totalCapacity && given > 0
            && std::abs(static_cast<double>(*r.totalCapacity) - given) > kCapacityMismatch * given)
            p.warn("oom-gpu-memory-differs",
                   "The message reports " + gib(static_cast<double>(*r.totalCapacity)) + " on the GPU, the answers "
                       + gib(given)
                       + " (hardware.gpu): the numbers below use the message's "
                         "(the 10% tolerance is the wizard's own).",
                   "pytorch-oom-message");
        // No step frees more than was in use: the message's reserved bytes (allocated ones included), else its
        // allocated bytes, else what this process held, else the whole GPU.
        if (r.reserved || r.allocated || r.processInUse) {
            p.inUse = r.reserved ? r.reserved : r.allocated ? r.allocated : r.processInUse;
            p.inUseBasis = "the message's " + gib(static_cast<double>(*p.inUse))
                + (r.reserved        ? " reserved by PyTorch"
                       : r.allocated ? " allocated by PyTorch"
                                     : " in use");
        } else if (job.gpuCapacity > 0) {
            p.inUse = truncSat(job.gpuCapacity);
            p.inUseBasis = "the GPU's " + gib(job.gpuCapacity);
        }
        addMessageEstimates(adv, r);
        compareWithPrediction(p, r, ran);
        cause = diagnoseCuda(r, p);
        const GpuBytes& g = ranPrediction.gpu;
        const std::string basis = "the setup it ran";
        adv.estimates.push_back({"Model states per GPU (" + basis + ")",
                                 static_cast<double>(addSat(g.params, g.grads, g.optimizer)), "bytes",
                                 "step model: parameters, gradients and optimizer states as DeepSpeed "
                                     + knowledgeVersion() + " allocates them",
                                 "ds-mem-z12-master"});
        adv.estimates.push_back({"Buffers per GPU (" + basis + ")", static_cast<double>(g.buffers), "bytes",
                                 "step model: reduce/all-gather buckets, the ZeRO-3 working set, offload staging",
                                 "ds-mem-z12-ipg-buckets"});
        adv.estimates.push_back({"Activations per GPU (" + basis + ")", static_cast<double>(g.activations), "bytes",
                                 "step model: activations operation by operation, logits and loss", "korthikanti"});
        adv.estimates.push_back(
            {"Peak allocated per GPU (" + basis + ")", static_cast<double>(ranPrediction.memory.gpuPeakAllocated()),
             "bytes", "step model: what PyTorch's allocator holds at the step's peak", "ds-mem-engine-wrapper"});
    } else if (r.kind == OomKind::HostKilled) {
        if (job.cpuBytes > 0) { // no step frees more host RAM than the node has
            p.inUse = truncSat(job.cpuBytes);
            p.inUseBasis = "the node's " + gib(job.cpuBytes) + " of host RAM";
        }
        cause = diagnoseHostKill(p);
    } else {
        cause = diagnoseBatch(r, p, answers);
    }
    adv.details["cause"] =
        oj{{"id", cause.id}, {"text", cause.text}, {"source", cause.source.empty() ? oj(nullptr) : oj(cause.source)}};
    adv.details["shortfall_bytes"] = r.triedToAllocate && r.free ? oj(*r.triedToAllocate - *r.free) : oj(nullptr);
    oj steps = oj::array();
    for (std::size_t i = 0; i < p.remedies.size(); ++i) {
        const Remedy& s = p.remedies[i];
        steps.push_back(oj{{"id", s.id},
                           {"change", s.change},
                           {"config", s.config},
                           {"env", s.env.empty() ? oj(nullptr) : oj(s.env)},
                           {"code", s.code.empty() ? oj(nullptr) : oj(s.code)},
                           {"saving_bytes", orNull(s.saving)},
                           {"tradeoff", s.tradeoff},
                           {"source", s.source},
                           {"estimated_gpu_bytes_after", orNull(s.gpuAfter())}});
        const std::string title = "Step " + num(static_cast<std::int64_t>(i + 1)) + ": " + s.change;
        adv.tradeoffs.push_back({title,
                                 s.tradeoff
                                     + (s.saving ? " Expected saving: " + std::string(s.env.empty() ? "" : "up to ")
                                                + gib(static_cast<double>(*s.saving)) + "."
                                                 : ""),
                                 s.source});
        if (!s.env.empty())
            adv.snippets.push_back({"bash", title, "export " + s.env + "\n"});
        if (!s.config.is_null())
            adv.snippets.push_back({"json", title, s.config.dump(2)});
        if (!s.code.empty())
            adv.snippets.push_back({"python", title, s.code});
    }
    adv.details["steps"] = steps;
    adv.headline = headlineFor(r, cause, headlineStep(p.remedies, p.ranPrediction, p.job.gpuCapacity));
    out.failedRun = FailedRun{ran, ranPrediction};
    out.remedies = p.remedies;
    addUnique(adv.sources, cause.source);
    for (const auto& s : p.remedies)
        addUnique(adv.sources, s.source);
    for (const auto& c : adv.checks)
        addUnique(adv.sources, c.source);
    for (const auto& e : adv.estimates)
        addUnique(adv.sources, e.source);
    return out;
}

} // namespace

MemoryAdvice adviseMemory(const Job& job, const ZeroDecision* zero, const Answers& answers)
{
    try {
        return diagnose(job, zero, answers);
    } catch (const std::invalid_argument& e) { // answers the step model cannot size: said, not a crash
        MemoryAdvice out;
        Advice& adv = out.advice;
        adv.workflow = "memory";
        adv.status = AdviceStatus::NeedsInput;
        adv.headline = "The answers cannot be sized";
        adv.checks.push_back({CheckLevel::Fail, "oom-sizing-failed", e.what(), ""});
        return out;
    }
}

} // namespace dsw
