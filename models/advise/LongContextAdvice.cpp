// The ZeRO page's long-context advice; see LongContextAdvice.h.
#include "advise/LongContextAdvice.h"

#include "util/CheckedMath.h"
#include "util/Count.h"
#include "util/Version.h"

#include <cstdio>

namespace dsw {

namespace {

std::string secs(double s)
{
    char buf[32];
    std::snprintf(buf, sizeof buf, s < 10 ? "%.2f s" : "%.1f s", s);
    return buf;
}

// Transformers' name of the attention kernel the plan was sized for.
std::string hfAttention(AttentionImpl a) { return a == AttentionImpl::Sdpa ? "sdpa" : "flash_attention_2"; }

// The dtype ALST's recipes reduce gradients in: the training's 16-bit type (DeepSpeed's default is fp32).
std::string spReduceType(TrainingPrecision p)
{
    return p == TrainingPrecision::Bf16 ? "bf16" : p == TrainingPrecision::Fp16 ? "fp16" : "";
}

std::string parallelismConfigCode(const StepJob& s, const StepCandidate& c, const std::string& launcher)
{
    const std::string sp = std::to_string(c.sequenceParallel);
    const std::int64_t replicas = std::max<std::int64_t>(1, s.dataParallel / c.sequenceParallel);
    const bool trainer = launcher == "hf-trainer";
    // Every batch padded to a multiple of sp (ulysses-rules); the Trainer or Accelerate then wraps the data loader in
    // UlyssesSPDataLoaderAdapter and fills the batch keys with GPUs / sp_size (ulysses-hf-versions).
    std::string out = std::string(trainer ? "" : "from accelerate import Accelerator\n")
        + "from accelerate.utils import DeepSpeedSequenceParallelConfig, ParallelismConfig\n"
        + "from transformers import DataCollatorForLanguageModeling" + (trainer ? ", TrainingArguments" : "")
        + "\n\nparallelism_config = ParallelismConfig(\n"
          "    sp_backend=\"deepspeed\",\n"
          "    sp_size="
        + sp + ",\n    dp_shard_size=" + std::to_string(replicas)
        + ",  # GPUs / sp_size: dp_replicate x dp_shard x sp_size = the processes\n"
          "    sp_handler=DeepSpeedSequenceParallelConfig(\n"
          "        sp_seq_length_is_variable=True,\n"
          "        sp_attn_implementation=\""
        + hfAttention(s.attention) + "\",\n    ),\n)\n" + "# every batch's length a multiple of " + sp
        + " (TRL's SFTConfig: pad_to_multiple_of=" + sp + ")\n"
        + "data_collator = DataCollatorForLanguageModeling(tokenizer, mlm=False, pad_to_multiple_of=" + sp + ")\n";
    if (trainer)
        return out + "training_args = TrainingArguments(\n    output_dir=\"out\",\n    deepspeed=\"ds_config.json\",\n"
            + "    parallelism_config=parallelism_config,\n    per_device_train_batch_size="
            + std::to_string(c.microBatch) + ",\n" + (c.checkpointing ? "    gradient_checkpointing=True,\n" : "")
            + ")\n";
    return out + "accelerator = Accelerator(parallelism_config=parallelism_config)  # or accelerate_config.yaml\n"
        + "model, optimizer, dataloader = accelerator.prepare(model, optimizer, dataloader)  # built with "
          "data_collator\n";
}

std::string registrationCode(const StepJob& s, const StepCandidate& c)
{
    const std::string sp = std::to_string(c.sequenceParallel);
    return "import deepspeed\n"
           "from deepspeed.runtime.sequence_parallel.ulysses_sp import UlyssesSPAttentionHF, "
           "UlyssesSPDataLoaderAdapter\n"
           "from deepspeed.utils import groups\n\n"
           "# Before from_pretrained: swap Transformers' attention for Ulysses's and build the process groups.\n"
           "mpu = UlyssesSPAttentionHF.register_with_transformers(\n"
           "    model_name_or_path=model_name,\n"
           "    core_attn_implementation=\""
        + hfAttention(s.attention) + "\",\n    sequence_parallel_size=" + sp
        + ",\n    micro_batch_size=" + std::to_string(c.microBatch) + ",\n    seq_length=" + std::to_string(s.seqLen)
        + ",\n    seq_length_is_variable=True,\n)\n"
          "model = AutoModelForCausalLM.from_pretrained(model_name, attn_implementation=\""
        + hfAttention(s.attention)
        + "\")\n"
          "engine, optimizer, _, _ = deepspeed.initialize(model=model, config=\"ds_config.json\", mpu=mpu)\n\n"
          "# Each rank of a sequence-parallel group gets its slice of the same batch (position_ids and\n"
          "# shift_labels included); every batch's length must be a multiple of "
        + sp
        + ".\n"
          "dl = UlyssesSPDataLoaderAdapter(\n"
          "    dl,\n"
          "    sp_rank=groups._get_sequence_parallel_rank(),\n"
          "    sp_group=groups._get_sequence_parallel_group(),\n"
          "    sp_world_size=groups._get_sequence_parallel_world_size(),\n"
          "    device=engine.device,\n)\n";
}

} // namespace

std::string ulyssesCode(const StepJob& job, const StepCandidate& c, const std::string& launcher)
{
    return launcher == "deepspeed" ? registrationCode(job, c) : parallelismConfigCode(job, c, launcher);
}

std::string tiledMlpCode()
{
    return "import math\n"
           "from deepspeed.runtime.sequence_parallel.ulysses_sp import TiledMLP\n"
           "from transformers.models.llama import modeling_llama\n\n"
           "def mlp_forward(self, x):  # the model's own MLP\n"
           "    return self.down_proj(self.act_fn(self.gate_proj(x)) * self.up_proj(x))\n\n"
           "def tiled_mlp_forward(self, x):\n"
           "    # shards of about hidden_size tokens, as DeepSpeed's example chooses them; with several ranks\n"
           "    # all-reduce the count (MAX) so every rank runs the same number of shards\n"
           "    num_shards = max(1, math.ceil(x.shape[1] / x.shape[2]))\n"
           "    compute_params = [self.down_proj.weight, self.gate_proj.weight, self.up_proj.weight]\n"
           "    return TiledMLP.apply(mlp_forward, self, x, num_shards, compute_params)\n\n"
           "# before the model is built (Llama shown; patch your model's MLP class)\n"
           "modeling_llama.LlamaMLP.forward = tiled_mlp_forward\n";
}

std::string checkpointOffloadCode()
{
    return "# pip install arctic-training; before the model is built (a prototype: the copies block)\n"
           "from arctic_training.monkey_patches import monkey_patch_checkpoint_function_with_cpu_offload\n"
           "monkey_patch_checkpoint_function_with_cpu_offload()\n"
           "model.gradient_checkpointing_enable()\n";
}

std::int64_t tokensPerGpu(const StepJob& job, const StepCandidate& c)
{
    const std::int64_t sp = std::max<std::int64_t>(1, c.sequenceParallel);
    return (job.seqLen + sp - 1) / sp;
}

bool usesAlst(const StepJob& job, const StepCandidate& c)
{
    return c.sequenceParallel > 1 || c.tiledMlp || c.checkpointOffload || lossOf(job, c) == LossImpl::Tiled;
}

std::string longContextLaunchNote(const StepJob& job, const StepCandidate& c, const Answers& a)
{
    if (!usesAlst(job, c))
        return {};
    const std::string launcher = a.text("software.launcher");
    std::string out;
    if (c.sequenceParallel > 1) {
        const std::string sp = std::to_string(c.sequenceParallel);
        if (launcher == "hf-trainer")
            out += "# FILL IN: the plan runs DeepSpeed-Ulysses over " + sp
                + " GPUs per sequence: pass TrainingArguments(parallelism_config=...)\n"
                  "# as the ZeRO page's snippet builds it (transformers >= "
                + kUlyssesTrainerTransformers + ", accelerate >= " + kUlyssesAccelerate
                + ", deepspeed >= " + kUlyssesDeepSpeed + "),\n# and pad every batch to a multiple of " + sp
                + " (the collator's pad_to_multiple_of).\n";
        else if (launcher == "accelerate")
            out += "# The plan runs DeepSpeed-Ulysses over " + sp
                + " GPUs per sequence: accelerate_config.yaml's parallelism_config\n# sets it (accelerate >= "
                + kUlyssesAccelerate + ", deepspeed >= " + kUlyssesDeepSpeed + "). FILL IN: pad every batch to a "
                + "multiple of " + sp + "\n# (pad_to_multiple_of) and pass position_ids.\n";
        else
            out += "# FILL IN: the plan runs DeepSpeed-Ulysses over " + sp
                + " GPUs per sequence: register UlyssesSPAttentionHF before\n# from_pretrained, pass its mpu to "
                  "deepspeed.initialize and wrap the DataLoader in UlyssesSPDataLoaderAdapter\n# (the ZeRO page's "
                  "snippet; transformers >= "
                + kUlyssesTransformers + ").\n";
    }
    if (c.tiledMlp)
        out += "# FILL IN: the plan runs every MLP through DeepSpeed's TiledMLP (ulysses_sp.TiledMLP), shard by shard\n"
               "# along the sequence (the ZeRO page's snippet).\n";
    if (lossOf(job, c) == LossImpl::Tiled)
        out +=
            "# FILL IN: the plan computes logits and loss shard by shard (ulysses_sp.TiledFusedLogitsLoss, the ZeRO\n"
            "# page's snippet); the standard loss would hold the whole sequence's fp32 logits.\n";
    if (c.checkpointOffload)
        out += "# FILL IN: the plan offloads each checkpointed layer input to pinned host memory (ALST's checkpoint\n"
               "# offload; ArcticTraining's activation_checkpoint_cpu_offload: true).\n";
    return out;
}

namespace {

// Liger-Kernel's Triton kernels and flash-attn 2 index one GPU's [micro-batch, tokens, hidden] tensor in 32 bits: from
// 2^31 elements they crash (liger-int32-index; ALST's 1-GPU Llama-3.1-8B run failed so at 555K tokens, alst-recipes).
// Not a memory limit: the plan is still sized, and the check says which length per GPU stays under it.
void addIndexLimitCheck(Advice& adv, const StepJob& s, const StepPrediction& chosen)
{
    const StepCandidate& c = chosen.candidate;
    const bool liger = lossOf(s, c) == LossImpl::Fused;
    const bool flash2 = s.attention == AttentionImpl::Flash;
    // The widest per-token tensor they see: the hidden state, or the queries where heads × head width is wider
    // (Qwen3-32B: 64 × 128 = 8192 against 5120); under Ulysses attention holds s × heads/sp, the same count.
    const std::int64_t width = std::max(s.shape.hidden, mulSat(s.shape.heads, s.shape.headWidth()));
    const std::int64_t elements = mulSat(c.microBatch, tokensPerGpu(s, c), width);
    constexpr std::int64_t kLimit = std::int64_t{1} << 31;
    if ((!liger && !flash2) || elements < kLimit)
        return;
    const std::string kernels = liger && flash2 ? "Liger-Kernel (the fused loss loads its RMSNorm too) and flash-attn 2"
        : liger                                 ? "Liger-Kernel (the fused loss loads its RMSNorm too)"
                                                : "flash-attn 2";
    adv.checks.push_back(
        {CheckLevel::Warn, "long-sequence-32bit-index",
         "Each GPU holds " + std::to_string(c.microBatch) + " × " + std::to_string(tokensPerGpu(s, c)) + " tokens × "
             + std::to_string(width) + " = " + std::to_string(elements)
             + (width > s.shape.hidden ? " elements in its query tensor" : " elements per hidden-state tensor")
             + ", at or over 2^31: " + kernels
             + " index such tensors in 32 bits and crash with \"an illegal memory access was encountered\" (ALST's "
               "authors, Liger-Kernel #803; their 1-GPU Llama-3.1-8B run failed so at 555K tokens). Keep "
             + std::to_string((kLimit - 1) / std::max<std::int64_t>(1, width * c.microBatch))
             + " tokens or fewer per GPU (a higher sequence-parallel degree), or use kernels that index in 64 bits "
               "(flash-attn 3).",
         "liger-int32-index"});
}

} // namespace

// Sources (resources/knowledge/sources.tsv): ulysses-rules, ulysses-zero-group, ulysses-all-to-all, ds-seq-comm-dtype,
// ulysses-hf-versions, alst-tiled-mlp, alst-tiled-loss, alst-checkpoint-offload. The sizing is checked against the
// published boundaries (tests/models/TestLongContext.cpp, tests/data/long-context-boundaries.tsv).
// Sources (resources/knowledge/sources.tsv): alst-recipes, hf-ulysses-blog
void addLongContextAdvice(Advice& adv, const Job& job, const ZeroDecision& d, const Answers& a)
{
    const StepJob& s = *job.step;
    const std::int64_t asked = s.longContext.sequenceParallelAsked;
    if (asked > 1)
        if (const auto why = ulyssesRefusal(ulyssesCaseOf(s), asked))
            adv.checks.push_back({CheckLevel::Fail, "sequence-parallel-set-aside",
                                  *why + ". The plans are sized without sequence parallelism.", "ulysses-rules"});
    if (d.candidates.empty())
        return;
    const StepPrediction& chosen = d.plan();
    const StepCandidate& c = chosen.candidate;
    addIndexLimitCheck(adv, s, chosen);
    if (!usesAlst(s, c))
        return;
    const std::string launcher = a.text("software.launcher");
    if (c.sequenceParallel > 1) {
        const std::int64_t sp = c.sequenceParallel;
        const std::int64_t kv = s.shape.kvHeads > 0 ? s.shape.kvHeads : s.shape.heads;
        adv.fragment["sequence_parallel_size"] = sp;
        const std::string reduce = spReduceType(s.precision);
        if (!reduce.empty())
            adv.fragment["seq_parallel_communication_data_type"] = reduce;
        adv.checks.push_back(
            {CheckLevel::Pass, "ulysses-rules",
             "DeepSpeed-Ulysses over " + std::to_string(sp) + " GPUs runs this model: " + std::to_string(s.shape.heads)
                 + " heads divide by " + std::to_string(sp) + ", " + std::to_string(kv) + " KV heads and "
                 + std::to_string(sp) + (kv >= sp ? " divide" : " are divided") + (kv >= sp ? " by it" : " by them")
                 + std::string(kv < sp ? " (each rank holds one KV head, replicated)" : "") + ", "
                 + std::to_string(s.seqLen) + " tokens divide by it, and " + std::string(toString(s.attention))
                 + " attention is not eager (refused). Every batch needs position_ids and a length divisible by "
                 + std::to_string(sp) + " (ALST advises a multiple of 256 × " + std::to_string(sp)
                 + "), with labels shifted before the split (shift_labels).",
             "ulysses-rules"});
        adv.checks.push_back(
            {CheckLevel::Pass, "ulysses-data-parallel",
             "Each group of " + std::to_string(sp) + " GPUs trains one sequence, so data parallelism is "
                 + std::to_string(s.dataParallel) + " ÷ " + std::to_string(sp) + " = "
                 + std::to_string(s.dataParallel / sp) + " in the batch keys (train_batch_size = micro-batch × "
                 + "accumulation × " + std::to_string(s.dataParallel / sp) + "); ZeRO still partitions over all "
                 + std::to_string(s.dataParallel) + " GPUs.",
             "ulysses-zero-group"});
        if (!reduce.empty())
            adv.checks.push_back(
                {CheckLevel::Pass, "seq-parallel-comm-dtype",
                 "seq_parallel_communication_data_type is written as " + reduce
                     + ", as ALST's recipes do: with sequence parallelism DeepSpeed reduces gradients in it instead of "
                       "communication_data_type, and its default, fp32, costs about 2 × reduce_bucket_size × 4 B ("
                     + formatGiB(2.0 * static_cast<double>(s.buffers.reduceBucketSize) * 4)
                     + ") more per GPU; write \"fp32\" to reduce in full precision and leave that room.",
                 "ds-seq-comm-dtype"});
        if (sp > s.gpusPerNode)
            adv.checks.push_back({CheckLevel::Warn, "ulysses-across-nodes",
                                  "The sequence-parallel group of " + std::to_string(sp)
                                      + " spans nodes: its all-to-alls run on the network ("
                                      + secs(chosen.time.sequenceAllToAll)
                                      + " per step) and compete with ZeRO's collectives; ALST keeps a group within "
                                        "a node where it can.",
                                  "ulysses-all-to-all"});
        const std::string tf = a.text("software.transformers_version");
        const char* need = launcher == "hf-trainer" ? kUlyssesTrainerTransformers : kUlyssesTransformers;
        const bool tfOk = versionAtLeast(tf, need);
        const bool dsOk =
            launcher == "deepspeed" || versionAtLeast(a.text("software.deepspeed_version"), kUlyssesDeepSpeed);
        adv.checks.push_back(
            {tfOk && dsOk ? CheckLevel::Pass : CheckLevel::Fail, "ulysses-versions",
             std::string("Ulysses for Hugging Face models needs transformers >= ") + need
                 + (launcher == "hf-trainer" ? " (the Trainer's parallelism_config)" : " (ulysses_sp.py)")
                 + (launcher != "deepspeed" ? std::string(", accelerate >= ") + kUlyssesAccelerate
                            + " and deepspeed >= " + kUlyssesDeepSpeed
                                            : std::string())
                 + "; the answers say transformers " + tf + ", deepspeed " + a.text("software.deepspeed_version")
                 + (tfOk && dsOk ? "." : ": upgrade before running this plan."),
             "ulysses-hf-versions"});
        adv.estimates.push_back(
            {"Tokens per GPU", static_cast<double>(tokensPerGpu(s, c)), "tokens",
             "seq_len ÷ sequence-parallel size = " + std::to_string(s.seqLen) + " ÷ " + std::to_string(sp),
             "ulysses-rules"});
        adv.estimates.push_back({"Ulysses all-to-all per step", chosen.time.sequenceAllToAll, "s",
                                 "q, k, v and the attention output per layer, in forward and backward (and the "
                                 "recomputed forward): "
                                     + formatGiB(chosen.time.sequenceAllToAllBytes) + " per GPU per step, never hidden",
                                 "ulysses-all-to-all"});
        adv.snippets.push_back(
            {"python",
             launcher == "deepspeed" ? std::string("DeepSpeed-Ulysses for a Hugging Face model (plain DeepSpeed)")
                                     : "DeepSpeed-Ulysses through Accelerate's ParallelismConfig"
                     + std::string(launcher == "hf-trainer" ? " (TrainingArguments(parallelism_config=...))"
                                                            : " (or accelerate_config.yaml's parallelism_config)"),
             ulyssesCode(s, c, launcher)});
    }
    if (c.tiledMlp) {
        adv.checks.push_back({CheckLevel::Warn, "tiled-mlp-needed",
                              "The plan counts on DeepSpeed's TiledMLP: each MLP runs shard by shard along the "
                              "sequence and is recomputed in backward (one more MLP forward per step), so it holds one "
                              "shard's intermediates instead of the sequence's. Patch the model's MLPs in the training "
                              "script (see the snippet); set training.tiled_mlp to off to plan without it.",
                              "alst-tiled-mlp"});
        adv.snippets.push_back({"python", "Run every MLP through DeepSpeed's TiledMLP", tiledMlpCode()});
    }
    if (lossOf(s, c) == LossImpl::Tiled)
        adv.checks.push_back({CheckLevel::Warn, "tiled-loss-needed",
                              "The plan counts on DeepSpeed's TiledFusedLogitsLoss: lm_head and the loss run shard by "
                              "shard, never holding the sequence's fp32 logits ("
                                  + formatGiB(static_cast<double>(chosen.activations.logitsBytes))
                                  + " at the loss step's peak). Compute the loss with it in the training script.",
                              "alst-tiled-loss"});
    if (c.checkpointOffload) {
        adv.snippets.push_back(
            {"python", "Offload the checkpoints to host memory (ArcticTraining)", checkpointOffloadCode()});
        adv.estimates.push_back({"Checkpoints offloaded to host memory per node",
                                 static_cast<double>(chosen.offloadedCheckpointsPerNode), "bytes",
                                 "the checkpointed layers' inputs less the one in use, × "
                                     + std::to_string(s.gpusPerNode)
                                     + " GPUs per node, pinned; included in the CPU memory per node",
                                 "alst-checkpoint-offload"});
        adv.checks.push_back(
            {chosen.fitsCpu ? CheckLevel::Warn : CheckLevel::Fail, "checkpoint-offload-host",
             "The plan offloads the checkpointed layer inputs to pinned host memory: "
                 + formatGiB(static_cast<double>(chosen.offloadedCheckpointsPerNode)) + " per node, "
                 + formatGiB(static_cast<double>(chosen.cpuPerNode)) + " with the rest of the host's share of "
                 + formatGiB(job.hostBytesPerNode)
                 + ". ALST's Llama-70B run at 4M tokens ran on the brink of host memory; long sequences make this "
                   "the limit.",
             "alst-checkpoint-offload"});
    }
}

std::string longContextSummary(const Job& job, const ZeroDecision& d)
{
    if (!job.step || d.candidates.empty())
        return {};
    const StepJob& s = *job.step;
    const StepPrediction* plan = usesAlst(s, d.plan().candidate) ? &d.plan() : nullptr;
    for (std::size_t i = 0; i < d.candidates.size() && !plan && s.seqLen >= kLongContextTokens; ++i)
        if (usesAlst(s, d.candidates[i].candidate))
            plan = &d.candidates[i];
    if (!plan)
        return {};
    const StepCandidate& c = plan->candidate;
    std::string out = std::string(plan == &d.plan() ? "The ZeRO page's plan" : "The best plan with ALST's pieces")
        + " is " + plan->label() + ": " + std::to_string(tokensPerGpu(s, c)) + " of " + std::to_string(s.seqLen)
        + " tokens per GPU, " + formatGiB(static_cast<double>(plan->gpu.total)) + " per GPU of "
        + formatGiB(plan->usableGpuBytes);
    if (!plan->fits())
        return out + ": it does not fit (" + plan->whyNot() + ").";
    if (plan->time.total > 0)
        out += ", " + secs(plan->time.total) + " per step"
            + (c.sequenceParallel > 1 ? " (Ulysses all-to-all " + secs(plan->time.sequenceAllToAll) + ")" : "");
    return out
        + ". It uses DeepSpeed's ALST (Ulysses sequence parallelism for Hugging Face models), based on "
          "DeepSpeed's code and documentation, not run by ds-wizard.";
}

} // namespace dsw
