#include "advise/OnebitAdvisor.h"

#include "advise/OnebitStep.h"
#include "knowledge/SourceCatalog.h"
#include "util/Count.h"
#include "util/Version.h"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <optional>

namespace dsw {

namespace {

using oj = nlohmann::ordered_json;

struct OnebitKind {
    std::string type; // ds_config optimizer.type
    std::string name; // as DeepSpeed's messages spell it
    std::string watchOut;
};

// The tutorials' "Watch out!" box, identical on the three pages but for the optimizer's name; quoted as the
// 1-bit Adam tutorial gives it.
std::string watchOut(const std::string& name)
{
    const std::string box = "The 1-bit Adam tutorial's \"Watch out!\" box: " + quoteOf("ds-onebit-watchout");
    return name == "1-bit Adam" ? box : box + " The " + name + " tutorial has the same box, for " + name + ".";
}

std::optional<OnebitKind> onebitKind(const std::string& optimizer)
{
    if (optimizer == "onebit-adam")
        return OnebitKind{"OneBitAdam", "1-bit Adam", watchOut("1-bit Adam")};
    if (optimizer == "zero-one-adam")
        return OnebitKind{"ZeroOneAdam", "0/1 Adam", watchOut("0/1 Adam")};
    if (optimizer == "onebit-lamb")
        return OnebitKind{"OneBitLamb", "1-bit LAMB", watchOut("1-bit LAMB")};
    return std::nullopt;
}

// std::to_chars with a precision writes what printf does in the "C" locale, as a classic-locale ostream did here
// (fixed, 0 digits; else general, 4 significant), without an ostream's construction on every number.
std::string num(double v)
{
    char buf[400]; // a fixed double is at most 309 digits and a sign
    const auto end = std::fabs(v) >= 100 ? std::to_chars(buf, buf + sizeof buf, v, std::chars_format::fixed, 0).ptr
                                         : std::to_chars(buf, buf + sizeof buf, v, std::chars_format::general, 4).ptr;
    return std::string(buf, end);
}

std::string percent(double fraction) { return num(fraction * 100) + "%"; }

// FLOP and byte counts: three significant digits ("3.57e+14").
std::string large(double v)
{
    char buf[64];
    return std::string(buf, std::to_chars(buf, buf + sizeof buf, v, std::chars_format::general, 3).ptr);
}

// The ZeRO page's stage, when it has a plan.
std::optional<int> zeroStage(const ZeroDecision* zero)
{
    if (zero && !zero->candidates.empty())
        return zero->plan().candidate.placement.stage;
    return std::nullopt;
}

// Whether stage 0 fits, by the ZeRO page's stage table (its best stage-0 plan), when the job allows stage 0.
std::optional<bool> zeroStage0Fits(const ZeroDecision* zero)
{
    if (!zero)
        return std::nullopt;
    if (const StepPrediction* row = zero->atStage(0))
        return row->fits();
    if (zeroStage(zero) == 0)
        return zero->fits();
    return std::nullopt;
}

oj optimizerBlock(const OnebitKind& kind, const Answers& a, const OnebitStep& s)
{
    oj block; // {"optimizer": {"type", "params"}}, built in place: initializer lists copy every value again
    oj& optimizer = block["optimizer"];
    optimizer["type"] = kind.type;
    oj& params = optimizer["params"];
    params["lr"] = a.number("training.learning_rate");
    if (kind.type == "ZeroOneAdam") {
        // DeepSpeed's documented defaults (config-json.md#L151-L158), written out to be explicit.
        params["var_freeze_step"] = 100000;
        params["var_update_scaler"] = 16;
        params["local_step_scaler"] = 32678;
        params["local_step_clipper"] = 16;
    } else {
        params["freeze_step"] = s.cost.freezeStep; // DeepSpeed's default 100000 would skip compression in shorter runs
    }
    params["cuda_aware"] = false; // no input says the MPI library is CUDA-aware
    params["comm_backend_name"] = a.text("onebit.comm_backend");
    return block;
}

// A check on a config that does not use a 1-bit optimizer only describes what switching would need:
// it never fails that workflow.
Check softened(Check check, bool onebitChosen)
{
    if (!onebitChosen && check.level == CheckLevel::Fail)
        check.level = CheckLevel::Warn;
    return check;
}

void addChecks(Advice& adv, const Answers& a, const ZeroDecision* zero, const OnebitStep& c, const OnebitKind& kind,
               bool chosen)
{
    const std::string subject = chosen ? kind.name : "A 1-bit optimizer";
    auto add = [&](CheckLevel level, std::string code, std::string message, std::string source) {
        adv.checks.push_back(softened({level, std::move(code), std::move(message), std::move(source)}, chosen));
    };

    const auto stage = zeroStage(zero);
    const auto fits0 = zeroStage0Fits(zero);
    const std::string fitNote =
        fits0 == false ? " The model does not fit in GPU memory at ZeRO stage 0 (see the ZeRO step)." : "";
    if (!stage)
        add(CheckLevel::Warn, kOnebitZeroRule,
            subject + " needs ZeRO stage 0 (" + quoteOf("ds-onebit-zero")
                + "); the ZeRO step has no recommendation yet.",
            "ds-onebit-zero");
    else if (const auto rule = onebitZeroBreak(kind.type, *stage))
        add(CheckLevel::Fail, rule->code,
            rule->message + " The ZeRO page's plan is stage " + std::to_string(*stage) + "." + fitNote, rule->source);
    else
        add(fits0 == false ? CheckLevel::Fail : CheckLevel::Pass, kOnebitZeroRule,
            "ZeRO stage 0, as the 1-bit optimizers need (" + quoteOf("ds-onebit-zero") + ")." + fitNote,
            "ds-onebit-zero");

    add(c.precision == "fp16" ? CheckLevel::Pass : CheckLevel::Warn, "onebit-fp16-only-verified",
        c.precision == "fp16"
            ? "fp16: the precision under which the convergence was verified."
            : "DeepSpeed runs " + c.precision + " here (training.precision = " + a.text("training.precision")
                + "): \"Currently the convergence of " + (kind.type == "OneBitLamb" ? "1-bit Lamb" : kind.name)
                + " is only verified under FP16\". Set training.precision = fp16 to stay on the verified path.",
        "ds-onebit-fp16-log");

    const std::string backend = a.text("onebit.comm_backend");
    if (backend == "mpi" || c.stages > 1)
        add(backend == "mpi" && c.stages > 1 ? CheckLevel::Fail : CheckLevel::Pass, "onebit-mpi-no-pipeline",
            backend == "mpi" && c.stages > 1
                ? quoteExcerpt("ds-onebit-watchout", "Currently the MPI-based", "pipeline parallelism")
                    + " and pipeline.stages = " + std::to_string(c.stages) + ": use comm_backend nccl."
                : backend == "mpi"
                ? "MPI backend without pipeline parallelism (the MPI backend is not compatible with it)."
                : "Pipeline parallelism with the " + backend
                    + " backend (only the MPI-based implementation is not compatible with it).",
            "ds-onebit-watchout");

    if (kind.type == "OneBitLamb")
        add(CheckLevel::Pass, "onebit-lamb-dynamic-loss-scale",
            "1-bit LAMB asserts " + quoteOf("ds-onebit-lamb-dls")
                + ": the precision step writes "
                  "fp16.loss_scale 0 (dynamic), and bf16/fp32 runs keep the default 0. Do not set a static loss_scale.",
            "ds-onebit-lamb-dls");

    add(CheckLevel::Pass, "onebit-comm-backend",
        "comm_backend_name \"" + backend
            + "\" is one of nccl, mpi, hccl, compressed; DeepSpeed leaves the backend "
              "handle None for any other string and then crashes with AttributeError.",
        "ds-onebit-backend-names");
    if (backend == "hccl")
        add(CheckLevel::Warn, "onebit-hccl-needs-torch-npu",
            "The hccl backend's module starts with \"import torch_npu\": without that package installed, DeepSpeed "
            "cannot create the optimizer. On "
                + a.text("hardware.gpu") + " use nccl.",
            "ds-onebit-hccl");
    if (backend == "mpi")
        add(CheckLevel::Pass, "onebit-cuda-aware",
            "cuda_aware is written false. Set it true only if "
                + quoteExcerpt("ds-onebit-cuda-aware", "InfiniBand interconnect", "CUDA-Aware support")
                + " are present; false works on Ethernet, with copies through host memory.",
            "ds-onebit-cuda-aware");

    if (backend == "nccl") {
        const std::string torch = a.text("software.torch_version");
        const bool ok = versionAtLeast(torch, "1.8");
        add(ok ? CheckLevel::Pass : CheckLevel::Fail, "onebit-nccl-torch",
            ok ? "PyTorch " + torch + " meets the NCCL backend's PyTorch >= 1.8."
               : "PyTorch " + torch + ": " + quoteOf("ds-onebit-nccl-torch") + ".",
            "ds-onebit-nccl-torch");
        const std::int64_t gpus = c.nodes * c.gpusPerNode;
        if (gpus >= 64)
            add(CheckLevel::Warn, "onebit-nccl-64-gpus",
                std::to_string(gpus) + " GPUs: the NCCL backend needs "
                    + quoteExcerpt("ds-onebit-watchout", "NCCL >= 2.8.3", "64 or more GPUs")
                    + ". "
                      "Check with: python -c \"import torch; print(torch.cuda.nccl.version())\".",
                "ds-onebit-watchout");
    }

    // The decision rests on the node's rate; the networks table's one-port figure × hardware.nics_per_node may
    // understate nodes with one NIC per GPU.
    if (c.network && c.nodes > 1 && c.dataParallel > 1 && c.timed) {
        const std::int64_t wideNics = std::max<std::int64_t>(c.job->time.nicsPerNode, c.gpusPerNode);
        StepJob wide = *c.job;
        wide.time.nicsPerNode = wideNics;
        const StepTime w = predictStep(wide, c.plan).time;
        const StepTime& t = c.time();
        const bool flips = (t.gradientReduction >= t.compute) != (w.gradientReduction >= w.compute);
        const std::string nics = std::to_string(c.job->time.nicsPerNode);
        add(flips ? CheckLevel::Warn : CheckLevel::Pass, "onebit-network-assumed",
            "The inter-node rate is the networks table's figure for " + c.network->id + ", " + num(c.job->time.nicGbps)
                + " Gbit/s per NIC (" + c.network->note + "), × hardware.nics_per_node = " + nics
                + (c.job->time.nicsPerNode >= c.gpusPerNode ? ": one NIC per GPU or more, as multi-NIC nodes have."
                                                            : ". With " + std::to_string(c.gpusPerNode)
                           + " NICs (one per GPU, as multi-NIC nodes have) ds-wizard's step-time model gives a "
                             "gradient all-reduce of "
                           + num(w.gradientReduction) + " s instead of " + num(t.gradientReduction) + " s"
                           + (flips ? ", which changes the verdict: set hardware.nics_per_node (or "
                                      "hardware.inter_node_gbps) to the node's real figures."
                                    : ", with the same verdict.")),
            c.network->source);
    }
}

void addEstimates(Advice& adv, const OnebitStep& s)
{
    const std::string model = "by ds-wizard's step-time model for " + planLabel(s.plan);
    if (s.job)
        adv.estimates.push_back({"Inter-node rate per node", s.nodeGbps, "Gbit/s",
                                 s.network ? "networks.tsv: " + s.network->id + ", " + num(s.job->time.nicGbps)
                                         + " Gbit/s per NIC (" + s.network->note + ") × hardware.nics_per_node "
                                         + std::to_string(s.job->time.nicsPerNode)
                                           : "hardware.inter_node_gbps",
                                 s.network ? s.network->source : ""});
    if (!s.timed)
        return;
    const StepTime& t = s.time();
    const StepTimeInputs& hw = s.job->time;
    const double tokens = static_cast<double>(s.plan.microBatch * s.plan.accumulation * s.job->seqLen);
    adv.estimates.push_back({"Compute per step", t.compute, "s",
                             model + ": " + large(t.flops) + " FLOPs per GPU (" + (s.plan.checkpointing ? "8" : "6")
                                 + "Ψ per token with Ψ = " + formatCount(s.job->params)
                                 + (s.stages > 1 ? " per pipeline stage" : "") + ", plus attention; " + num(tokens)
                                 + " tokens = micro-batch × accumulation × sequence) ÷ (" + num(hw.denseTflops)
                                 + " TFLOPS, the GPU catalog's dense " + s.precision
                                 + (s.precision == "fp32" ? " 16-bit figure" : "") + ", × "
                                 + (hw.mfu > 0 ? "hardware.mfu " + percent(hw.mfu)
                                               : "the calibrated GEMM efficiency " + percent(t.gemmEfficiency)
                                            + ", attention at " + percent(kAttentionEfficiencyRatio) + " of it")
                                 + ")",
                             "kaplan-6n"});
    adv.estimates.push_back(
        {"Communication per step (gradient all-reduce)", t.gradientReduction, "s",
         model + ": ZeRO stage 0 all-reduces the gradients once per step, 2 × Ψ × " + num(hw.elementBytes)
             + " B × (d−1)/d with d = " + std::to_string(s.dataParallel) + " → " + large(t.communicationBytes)
             + " B per GPU ÷ " + num(t.linkGBps)
             + " GB/s, the ring's slowest link (inside the node the GPU's link, across nodes the node's NICs); "
               "bandwidth only, nothing hidden behind compute at stage 0",
         "nccl-tests-busbw"});
    if (t.bubble > 0)
        adv.estimates.push_back(
            {"Pipeline bubble per step", t.bubble, "s",
             model + ": (p−1)/m of the compute, " + percent(t.bubbleFraction) + " of the pipelined time",
             "narayanan-bubble"});
    adv.estimates.push_back({"Step time", t.total, "s", model + ": compute + communication + bubble", "kaplan-6n"});
    adv.estimates.push_back({"Gradient all-reduce per step in the compression stage", s.cost.compressedStage, "s",
                             "the step model's gradient all-reduce ÷ " + num(s.cost.compression) + " (1-bit Adam blog: "
                                 + quoteExcerpt("onebit-blog-volume", "reduces the communication")
                                 + (s.precision == "fp32" ? "; 32 bits → 1 bit for fp32" : std::string()) + ")",
                             "onebit-blog-volume"});
    adv.estimates.push_back(
        {"Gradient all-reduce per step, run average with 1-bit compression", s.cost.compressedAverage, "s",
         "the step model's gradient all-reduce × (warmup + (1 − warmup) ÷ " + num(s.cost.compression)
             + "), warmup = freeze_step ÷ total steps = " + num(s.cost.warmup) + " (the blog's "
             + quoteExcerpt("onebit-blog-volume", "1 / (warmup") + " volume ratio)",
         "onebit-blog-volume"});
    adv.estimates.push_back({"Step time with 1-bit compression", s.cost.stepLeft, "s",
                             "the step model's step time with its gradient all-reduce at the run average above; "
                             "compute and the bubble unchanged",
                             "onebit-blog-volume"});
    if (s.cost.saving)
        adv.estimates.push_back({"Step time saved by compression", *s.cost.saving * 100, "%",
                                 "(gradient all-reduce − its run average with compression) ÷ step time, both by "
                                 "ds-wizard's step-time model",
                                 ""});
}

void addTradeoffs(Advice& adv, const Answers& a, const OnebitStep& s, const OnebitKind& kind)
{
    const OnebitCost& c = s.cost;
    if (s.movedToStage0()) {
        const std::string against = s.timed && s.zeroStepSeconds > 0
            ? " With 1-bit compression the step would take " + num(c.stepLeft) + " s against the ZeRO step's "
                + num(s.zeroStepSeconds) + " s (" + num(s.time().total) + " s at stage 0 without it)."
            : std::string();
        adv.tradeoffs.push_back(
            {"The step timed here",
             "The ZeRO step chose " + planLabel(s.zeroPlan) + ". The 1-bit optimizers run only at ZeRO stage 0 ("
                 + quoteOf("ds-onebit-zero") + "), so this page times the same batch at stage 0: " + planLabel(s.plan)
                 + ", by ds-wizard's step-time model. Compute is the same; the communication is stage 0's "
                   "gradient all-reduce, which 1-bit compression replaces."
                 + against,
             "ds-onebit-zero"});
    }
    // Texts that depend on no answer are written once (sources.tsv does not change while the program runs).
    static const std::string kCompression =
        "Error compensation: " + quoteExcerpt("onebit-blog-stages", "1) doing compression") + " 1-bit Adam has "
        + quoteExcerpt("onebit-blog-stages", "two parts:", "representation.");
    adv.tradeoffs.push_back({"How the compression works", kCompression, "onebit-blog-stages"});
    const std::int64_t total = a.integer("training.total_steps");
    static const std::string kVarianceFreezing =
        "0/1 Adam has no freeze_step. var_freeze_step 100000, var_update_scaler 16, local_step_scaler "
        "32678 and local_step_clipper 16 are DeepSpeed's defaults. "
        + quoteExcerpt("ds-zoadam-var-freeze", "The `var_freeze_step`") + " "
        + quoteExcerpt("ds-zoadam-var-freeze", "In practice");
    if (kind.type == "ZeroOneAdam")
        adv.tradeoffs.push_back({"Variance freezing (var_freeze_step)", kVarianceFreezing, "ds-zoadam-var-freeze"});
    else
        adv.tradeoffs.push_back({"Warm-up length (freeze_step)",
                                 "freeze_step = " + std::to_string(c.freezeStep) + ", " + percent(kOnebitWarmupShare)
                                     + " of " + std::to_string(total)
                                     + " steps: " + quoteExcerpt("ds-onebit-freeze-step", "one strategy") + " (here "
                                     + std::to_string(std::llround(0.15 * total)) + "–"
                                     + std::to_string(std::llround(0.25 * total)) + "). "
                                     + quoteExcerpt("ds-onebit-freeze-step", "If it provides"),
                                 "ds-onebit-freeze-step"});
    if (kind.type == "OneBitAdam")
        adv.tradeoffs.push_back({"Communication volume",
                                 quoteOf("ds-onebit-5x") + " With a " + percent(c.warmup)
                                     + " warm-up the blog's formula gives "
                                     + num(1 / (c.warmup + (1 - c.warmup) / c.compression)) + "x.",
                                 "ds-onebit-5x"});
    else if (kind.type == "ZeroOneAdam") {
        static const std::string kVolume = "0/1 Adam " + quoteExcerpt("ds-zoadam-26x", "is able to reduce")
            + " The estimates here use 1-bit Adam's formula, so they understate 0/1 Adam's saving.";
        adv.tradeoffs.push_back({"Communication volume", kVolume, "ds-zoadam-26x"});
    } else {
        static const std::string kVolume =
            "1-bit LAMB improves speed " + quoteExcerpt("ds-onebit-lamb-46x", "by reducing", "4.6x") + ".";
        adv.tradeoffs.push_back({"Communication volume", kVolume, "ds-onebit-lamb-46x"});
    }
    static const std::string kTryZeroOne = "The 1-bit Adam tutorial: " + quoteOf("ds-onebit-try-zoadam");
    if (kind.type != "OneBitLamb")
        adv.tradeoffs.push_back({"Try 0/1 Adam first", kTryZeroOne, "ds-onebit-try-zoadam"});
    adv.tradeoffs.push_back({"Watch out!", kind.watchOut, "ds-onebit-watchout"});
    if (a.text("hardware.inter_node_network").rfind("ethernet", 0) == 0 && a.number("hardware.inter_node_gbps") <= 0)
        adv.tradeoffs.push_back(
            {"Line rate against measured bandwidth",
             "The estimate uses the Ethernet line rate. The 1-bit Adam blog measured far less over TCP: "
                 + quoteExcerpt("onebit-blog-ethernet", "the effective bandwidth", "iperf benchmarks")
                 + ". Set hardware.inter_node_gbps to a measured figure; a lower one favours compression.",
             "onebit-blog-ethernet"});
}

std::string verdictText(const OnebitStep& s, bool suitable, const std::optional<bool>& fits0)
{
    const StepTime& t = s.time();
    const std::string times = "gradient all-reduce " + num(t.gradientReduction) + " s against compute " + num(t.compute)
        + " s per step by ds-wizard's step-time model";
    const std::string saving = s.cost.saving ? percent(*s.cost.saving) : std::string("?");
    if (s.verdict == "no-data-parallelism")
        return "there is no data parallelism (one replica), so there is no gradient all-reduce to compress";
    if (s.verdict == "single-node")
        return "a single node gains little: its all-reduce runs over NVLink/PCIe inside the node"
            + (s.timed ? " (" + times + ")" : std::string())
            + ", which is not the bottleneck the 1-bit optimizers remove";
    if (s.verdict == "compute-unknown")
        return "step time unknown: " + s.untimedReason;
    if (suitable)
        return "communication-bound: " + times + "; compression would leave " + num(s.cost.compressedAverage)
            + " s of it and save about " + saving + " of step time";
    if (s.verdict == "communication-bound" && fits0 == false)
        return "communication-bound (" + times + "), but ZeRO stage 0, which it needs, does not fit in GPU memory";
    if (s.cost.saving.value_or(0) < 0.25)
        return "compute-bound: " + times + "; the gain is small, about " + saving + " of step time";
    return "compute-bound: " + times + ", though compression could still save about " + saving + " of step time";
}

} // namespace

Advice adviseOnebit(const Job& job, const ZeroDecision* zero, const Answers& a)
{
    Advice adv;
    adv.workflow = "onebit";
    adv.status = AdviceStatus::Complete;
    const std::string& optimizer = job.optimizer;
    const auto chosenKind = onebitKind(optimizer);
    const bool chosen = chosenKind.has_value();
    // Not using one yet: judge the one the tutorials suggest (0/1 Adam first; 1-bit LAMB for LAMB users).
    const OnebitKind kind = chosen ? *chosenKind : *onebitKind(optimizer == "lamb" ? "onebit-lamb" : "zero-one-adam");

    const OnebitStep s = onebitStep(job, zero, a);
    const auto fits0 = zeroStage0Fits(zero);
    const bool suitable = s.verdict == "communication-bound" && fits0 != false;
    const std::string verdict = verdictText(s, suitable, fits0);

    addChecks(adv, a, zero, s, kind, chosen);
    if (!job.notModelled.empty()) // no step time, so no verdict on the communication: said, a warning unless chosen
        adv.checks.push_back(softened(job.unsizedCheck(), chosen));
    if (chosen) {
        adv.fragment = optimizerBlock(kind, a, s);
        adv.headline = kind.name + (suitable ? " fits — " : " — ") + verdict
            + (adv.hasFailedCheck() ? "; fix the failed checks first" : "");
    } else {
        adv.headline = (suitable ? "Switching to " + kind.name + " would likely pay off — "
                                 : std::string("No strong case for a 1-bit optimizer — "))
            + verdict;
        adv.recommendsAgainst = !suitable; // the Summary says so instead of "applied" (Pages.h)
        if (!suitable)
            adv.details["recommends"] = "against";
    }
    addEstimates(adv, s);
    addTradeoffs(adv, a, s, kind);

    const oj block = chosen ? adv.fragment : optimizerBlock(kind, a, s);
    adv.snippets.push_back({"json", chosen ? "optimizer" : "optimizer, if you switch", block.dump(2)});
    adv.snippets.push_back({"python", "Let DeepSpeed build the optimizer from the config (no optimizer= argument)",
                            "import deepspeed\nmodel_engine, optimizer, _, _ = deepspeed.initialize(\n"
                            "    model=model, model_parameters=model.parameters(), config=\"ds_config.json\")\n"});

    adv.sources = adv.citedSources();
    for (const char* id : {"gpu-catalog", "flash-attention-2"})
        if (std::find(adv.sources.begin(), adv.sources.end(), id) == adv.sources.end())
            adv.sources.push_back(id);

    // Times are null where the step model gave none (verdict compute-unknown).
    auto seconds = [&](double value) { return s.timed ? oj(value) : oj(nullptr); };
    const StepTime& t = s.time();
    adv.details["suitable"] = suitable;
    adv.details["verdict"] = s.verdict;
    adv.details["basis"] = "ds-wizard's step-time model (estimate/StepModel), not a measurement";
    adv.details["zero_plan"] = zeroStage(zero) ? oj(planLabel(s.zeroPlan)) : oj(nullptr);
    adv.details["plan"] = planLabel(s.plan);
    adv.details["plan_is_zero_plan"] = zeroStage(zero) && !s.movedToStage0();
    adv.details["zero_plan_step_seconds"] = s.zeroStepSeconds > 0 ? oj(s.zeroStepSeconds) : oj(nullptr);
    adv.details["step_seconds"] = s.timed ? oj{{"total", t.total},
                                               {"compute", t.compute},
                                               {"communication", t.communication},
                                               {"offload", t.offload},
                                               {"bubble", t.bubble}}
                                          : oj(nullptr);
    adv.details["compute_seconds"] = seconds(t.compute);
    adv.details["communication_seconds"] = seconds(t.communication);
    adv.details["gradient_reduction_seconds"] = seconds(t.gradientReduction);
    adv.details["compression_stage_gradient_reduction_seconds"] = seconds(s.cost.compressedStage);
    adv.details["compressed_gradient_reduction_seconds"] = seconds(s.cost.compressedAverage);
    adv.details["communication_left_seconds"] = seconds(s.cost.communicationLeft);
    adv.details["step_seconds_left"] = seconds(s.cost.stepLeft);
    adv.details["step_time_saving_fraction"] = s.cost.saving ? oj(*s.cost.saving) : oj(nullptr);
    adv.details["network_gbps"] = s.nodeGbps;
    adv.details["nics_per_node"] = s.job ? oj(s.job->time.nicsPerNode) : oj(nullptr);
    adv.details["optimizer_type"] = chosen ? oj(kind.type) : oj(nullptr);
    adv.details["suggested_optimizer_type"] = kind.type;
    adv.details["precision"] = s.precision;
    adv.details["peak_tflops"] = s.job && s.job->time.denseTflops > 0 ? oj(s.job->time.denseTflops) : oj(nullptr);
    adv.details["mfu"] = s.timed ? oj(t.gemmEfficiency) : oj(nullptr); // the dense GEMMs' share of peak
    adv.details["tokens_per_gpu_step"] =
        s.job ? oj(s.plan.microBatch * s.plan.accumulation * s.job->seqLen) : oj(nullptr);
    adv.details["compression_ratio"] = s.cost.compression;
    adv.details["freeze_step"] = s.cost.freezeStep;
    adv.details["warmup_fraction"] = s.cost.warmup;
    adv.details["zero_stage0_fits"] = fits0 ? oj(*fits0) : oj(nullptr);
    return adv;
}

} // namespace dsw
