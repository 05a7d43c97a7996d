#include "advise/SparseAdvisor.h"

#include "advise/LongContextAdvice.h"
#include "knowledge/DeepSpeedFacts.h"
#include "knowledge/GpuCatalog.h"
#include "knowledge/SourceCatalog.h"
#include "util/Version.h"

#include <algorithm>
#include <cstdint>
#include <string>
#include <vector>

namespace dsw {

namespace {

using oj = nlohmann::ordered_json;

// DeepSpeed's torch requirement comes from deepspeed.json (torchRequirement): the facts show the version it was read
// from, not the first that had it, so older versions get a warning rather than a verdict.
// "DeepSpeed 0.19.5 requires torch>=2.0.0", from deepspeed.json.
std::string requiresTorch()
{
    const TorchRequirement r = torchRequirement();
    return "DeepSpeed " + r.knownFrom + " requires torch>=" + r.minimum;
}

constexpr const char* kSparseFirstVersion = "0.3.0";   // PR #343
constexpr const char* kUlyssesFirstVersion = "0.10.2"; // PR #4198
// ds-wizard's own threshold (no source prescribes one): from here `auto` gives an encoder bigbird.
constexpr std::int64_t kVeryLongSequence = 4096;

// One sparse_attention block. Defaults are the ds_config parser's (runtime/config.py#L254-L414).
struct Layout {
    std::string mode;
    std::int64_t block = 16;
    bool differentLayoutPerHead = false;
    int numLocalBlocks = 4;
    int numGlobalBlocks = 1;
    std::string attention = "bidirectional";
    bool horizontalGlobalAttention = false;
    int numDifferentGlobalPatterns = 1;
    int numRandomBlocks = 0;
    std::vector<int> localWindowBlocks{4};
    std::vector<int> globalBlockIndices{0};
    int numSlidingWindowBlocks = 3;

    bool readsAttention() const { return mode == "fixed" || mode == "variable"; }
    // Blocks of the local window each row attends to; a row no longer than this is attended in full.
    int windowBlocks() const
    {
        if (mode == "fixed")
            return numLocalBlocks;
        if (mode == "variable")
            return localWindowBlocks.front();
        return numSlidingWindowBlocks;
    }
};

// Exactly the keys the parser reads for the mode, in its order. global_block_end_indices (default None) is left
// out: absent gives the parser's None, and Python's None is not JSON.
oj blockJson(const Layout& l)
{
    oj b{{"mode", l.mode}, {"block", l.block}, {"different_layout_per_head", l.differentLayoutPerHead}};
    if (l.mode == "fixed") {
        b["num_local_blocks"] = l.numLocalBlocks;
        b["num_global_blocks"] = l.numGlobalBlocks;
        b["attention"] = l.attention;
        b["horizontal_global_attention"] = l.horizontalGlobalAttention;
        b["num_different_global_patterns"] = l.numDifferentGlobalPatterns;
    } else if (l.mode == "variable") {
        b["num_random_blocks"] = l.numRandomBlocks;
        b["local_window_blocks"] = l.localWindowBlocks;
        b["global_block_indices"] = l.globalBlockIndices;
        b["attention"] = l.attention;
        b["horizontal_global_attention"] = l.horizontalGlobalAttention;
    } else if (l.mode == "bigbird") {
        b["num_random_blocks"] = l.numRandomBlocks;
        b["num_sliding_window_blocks"] = l.numSlidingWindowBlocks;
        b["num_global_blocks"] = l.numGlobalBlocks;
    } else { // bslongformer
        b["num_sliding_window_blocks"] = l.numSlidingWindowBlocks;
        b["global_block_indices"] = l.globalBlockIndices;
    }
    return b;
}

std::string chooseMode(const std::string& pattern, const std::string& architecture, std::int64_t seqLen)
{
    if (pattern != "auto")
        return pattern;
    if (architecture == "encoder")
        return seqLen >= kVeryLongSequence ? "bigbird" : "bslongformer";
    return "fixed"; // decoder (unidirectional) and encoder-decoder
}

std::string inQuotes(const std::string& s) { return "\"" + s + "\""; }

// The op builder's checks (op_builder/sparse_attn.py#L30-L89) plus DeepSpeed's own torch requirement.
struct OpVerdict {
    bool canRun = true;
    std::vector<std::string> whyNot;
};

OpVerdict addVersionChecks(Advice& adv, const Answers& a, bool used)
{
    OpVerdict v;
    // With the pattern at none nothing builds the op, so these are information, not a conflict.
    const CheckLevel fail = used ? CheckLevel::Fail : CheckLevel::Warn;
    const std::string torchText = a.text("software.torch_version");
    const Version torch = Version::parse(torchText);
    const int major = torch.parts.empty() ? -1 : torch.parts[0];
    const int minor = torch.parts.size() < 2 ? 0 : torch.parts[1];
    const std::string requirement =
        "DeepSpeed's sparse attention op requires PyTorch < 2.0 (its check: TORCH_MAJOR == 1 "
        "and TORCH_MINOR >= 5) and triton == 1.0.0, while "
        + requiresTorch();
    if (!torch.valid()) {
        adv.checks.push_back({CheckLevel::Warn, "sparse-attention-unsupported-torch",
                              requirement + "; software.torch_version " + inQuotes(torchText) + " could not be read.",
                              "ds-sparse-op"});
        v.canRun = false;
        v.whyNot.push_back("torch version " + inQuotes(torchText) + " unreadable");
    } else if (major == 1 && minor >= 5) {
        adv.checks.push_back({CheckLevel::Pass, "sparse-attention-unsupported-torch",
                              requirement + ". torch " + torchText
                                  + " passes the op's torch check (>= 1.5 and < 2.0); "
                                    "triton must still be exactly 1.0.0.",
                              "ds-sparse-op"});
    } else {
        const std::string detected = std::to_string(major) + "." + std::to_string(minor);
        adv.checks.push_back({fail, "sparse-attention-unsupported-torch",
                              requirement + ", so it cannot run on torch " + torchText
                                  + ". The op builder warns: \"sparse_attn "
                                    "requires a torch version >= 1.5 and < 2.0 but detected "
                                  + detected + "\".",
                              "ds-sparse-op"});
        v.canRun = false;
        v.whyNot.push_back("sparse_attn requires a torch version >= 1.5 and < 2.0 but detected " + detected);
    }

    const std::string ds = a.text("software.deepspeed_version");
    if (!versionAtLeast(ds, kSparseFirstVersion)) {
        adv.checks.push_back(
            {fail, "sparse-attention-not-in-deepspeed",
             "Sparse attention first shipped in DeepSpeed v0.3.0 (PR #343); DeepSpeed " + ds + " does not have it.",
             "ds-sparse-release"});
        v.canRun = false;
        v.whyNot.push_back("DeepSpeed " + ds + " predates sparse attention (v0.3.0)");
    } else if (const TorchRequirement required = torchRequirement(); versionAtLeast(ds, required.knownFrom)) {
        adv.checks.push_back(
            {fail, "sparse-attention-unsupported-deepspeed",
             requiresTorch() + " (requirements/requirements.txt"
                 + std::string(versionAtLeast(required.knownFrom, ds) ? ""
                                                                      : "; ds-wizard assumes later versions keep it")
                 + "), so with DeepSpeed " + ds + " the op's torch check (>= 1.5 and < 2.0) can never pass.",
             "ds-requirements"});
        v.canRun = false;
        v.whyNot.push_back(requiresTorch() + " (DeepSpeed " + ds + " installed)");
    } else {
        adv.checks.push_back(
            {CheckLevel::Warn, "sparse-attention-unsupported-deepspeed",
             requiresTorch()
                 + "; ds-wizard's facts do not give the first DeepSpeed version "
                   "with that requirement (the op's own torch < 2.0 bound came with PR #3152, 2023-04). Check that "
                   "DeepSpeed "
                 + ds + " installs with torch " + torchText + ".",
             "ds-requirements"});
    }
    return v;
}

void addPlatformChecks(Advice& adv, const GpuSpec* gpu, const Answers& a, OpVerdict& v, bool used)
{
    const CheckLevel fail = used ? CheckLevel::Fail : CheckLevel::Warn;
    adv.checks.push_back(
        {CheckLevel::Warn, "sparse-attention-triton-pin",
         "The op needs triton exactly 1.0.0 (requirements-sparse_attn.txt: triton==1.0.0); otherwise it warns "
             + quoteExcerpt("ds-sparse-op", "please install") + " or " + quoteExcerpt("ds-sparse-op", "using untested")
             + ". ds-wizard cannot see your triton: run ds_report.",
         "ds-sparse-op"});

    const std::string cudaText = a.text("software.cuda_version");
    const Version cuda = Version::parse(cudaText);
    const int cMajor = cuda.parts.empty() ? 0 : cuda.parts[0];
    const int cMinor = cuda.parts.size() < 2 ? 0 : cuda.parts[1];
    if (!cuda.valid()) {
        adv.checks.push_back({CheckLevel::Warn, "sparse-attention-cuda",
                              "CUDA version " + inQuotes(cudaText)
                                  + " could not be read; the op needs CUDA 10.1+ and a CPU-only "
                                    "torch is incompatible.",
                              "ds-sparse-op"});
    } else if ((cMajor == 10 && cMinor >= 1) || cMajor >= 11) {
        adv.checks.push_back({CheckLevel::Pass, "sparse-attention-cuda",
                              "CUDA " + cudaText + " meets the op's CUDA 10.1+ check.", "ds-sparse-op"});
    } else {
        adv.checks.push_back(
            {fail, "sparse-attention-cuda",
             "CUDA " + cudaText + " is too old: " + quoteExcerpt("ds-sparse-op", "sparse_attn requires") + ".",
             "ds-sparse-op"});
        v.canRun = false;
        v.whyNot.push_back("sparse_attn requires CUDA version 10.1+ (CUDA " + cudaText + ")");
    }

    const std::string gpuName = gpu ? gpu->id : a.text("hardware.gpu");
    const bool amd = gpu && gpu->vendor.rfind("AMD", 0) == 0;
    if (amd) {
        adv.checks.push_back(
            {fail, "sparse-attention-rocm",
             gpuName + " runs ROCm, which the op builder rejects: \"sparse_attn is not compatible with ROCM\".",
             "ds-sparse-op"});
        v.canRun = false;
        v.whyNot.push_back("sparse_attn is not compatible with ROCM (" + gpuName + ")");
        return;
    }
    adv.checks.push_back(
        {CheckLevel::Pass, "sparse-attention-rocm", gpuName + " is not a ROCm device.", "ds-sparse-op"});
    const bool tested = gpu && (gpu->id.rfind("V100", 0) == 0 || gpu->id.rfind("A100", 0) == 0);
    adv.checks.push_back(
        {tested ? CheckLevel::Pass : CheckLevel::Warn, "sparse-attention-tested-gpus",
         gpuName + (tested ? " is among the GPUs the tutorial names: " : " is outside the GPUs the tutorial names: ")
             + quoteOf("ds-sparse-tutorial"),
         "ds-sparse-tutorial"});
}

// The layout rules sparsity_config.py enforces with ValueError (or NotImplementedError for `attention`).
void addLayoutChecks(Advice& adv, const Layout& l, std::int64_t seqLen, std::int64_t blocksPerRow)
{
    const std::string S = std::to_string(seqLen), B = std::to_string(l.block), N = std::to_string(blocksPerRow);
    const auto before = adv.checks.size();
    auto fail = [&](const std::string& code, const std::string& text) {
        adv.checks.push_back({CheckLevel::Fail, code, text, "ds-sparse-layout"});
    };
    if (seqLen % l.block != 0)
        fail("sparse-seq-len-not-divisible",
             "The layout build would raise: \"Sequence Length, " + S + ", needs to be dividable by Block size " + B
                 + "!\" Pad every sequence to " + std::to_string(blocksPerRow * l.block)
                 + " tokens (the next multiple of " + B + ") or pick a block that divides " + S + ".");
    if (l.mode == "fixed" && l.numLocalBlocks % l.numGlobalBlocks != 0)
        fail("sparse-local-global-not-divisible",
             "num_local_blocks (" + std::to_string(l.numLocalBlocks) + ") must be a multiple of num_global_blocks ("
                 + std::to_string(l.numGlobalBlocks) + ").");
    if (l.readsAttention() && l.attention != "unidirectional" && l.attention != "bidirectional")
        fail("sparse-attention-type-invalid", "attention must be \"unidirectional\" or \"bidirectional\".");
    if (l.readsAttention() && l.horizontalGlobalAttention && l.attention != "bidirectional")
        fail("sparse-horizontal-needs-bidirectional",
             "only \"bi-directional\" attentions can support horizontal global attention!");
    if (l.mode == "fixed"
        && ((l.numDifferentGlobalPatterns > 1 && !l.differentLayoutPerHead)
            || l.numDifferentGlobalPatterns > l.numLocalBlocks / l.numGlobalBlocks))
        fail("sparse-global-patterns-invalid",
             "num_different_global_patterns > 1 needs different_layout_per_head and at most "
             "num_local_blocks // num_global_blocks.");
    // The op raises when a count exceeds the blocks per row (`num_blocks < count`), though its text says "smaller than".
    auto rowCount = [&](const std::string& what, int count) {
        if (count > blocksPerRow)
            fail("sparse-blocks-exceed-row",
                 "The layout build would raise: \"Number of " + what + ", " + std::to_string(count)
                     + ", must be smaller than overall number of blocks in a row, " + N + "!\" (" + S + " / " + B
                     + " = " + N + ").");
    };
    if (l.mode == "variable" || l.mode == "bigbird")
        rowCount("random blocks", l.numRandomBlocks);
    if (l.mode == "bigbird" || l.mode == "bslongformer")
        rowCount("sliding window blocks", l.numSlidingWindowBlocks);
    if (l.mode == "bigbird")
        rowCount("global blocks", l.numGlobalBlocks);
    if (adv.checks.size() == before)
        adv.checks.push_back({CheckLevel::Pass, "sparse-layout-valid",
                              "The " + l.mode + " layout passes the op's layout checks: " + S + " tokens divide into "
                                  + N + " blocks of " + B + ", and the block counts fit a row.",
                              "ds-sparse-layout"});
    if (blocksPerRow <= l.windowBlocks())
        adv.checks.push_back({CheckLevel::Warn, "sparse-layout-dense",
                              "Only " + N + " blocks per row and a local window of " + std::to_string(l.windowBlocks())
                                  + " blocks: every row is attended in full, so the layout is dense and saves nothing "
                                    "(ds-wizard's reading of the layout code).",
                              "ds-sparse-layout"});
}

void addPatternNotes(Advice& adv, const Layout& l, const std::string& architecture)
{
    if (l.mode == "bigbird" && l.numRandomBlocks == 0)
        adv.checks.push_back(
            {CheckLevel::Warn, "sparse-bigbird-no-random-blocks",
             "The ds_config parser's num_random_blocks default is 0 (BigBirdSparsityConfig's own default is 1), "
             "so this block has no random attention; raise it in the JSON if you want BigBird's random blocks.",
             "ds-sparse-config"});
    if (!l.readsAttention() && architecture != "encoder")
        adv.checks.push_back(
            {CheckLevel::Warn, "sparse-pattern-bidirectional-only",
             "The parser does not read `attention` for " + l.mode
                 + ", so a layout built from this block is "
                   "bidirectional (the class default), but a decoder's self-attention must be causal: build the "
                   "sparsity config in code with attention=\"unidirectional\" (snippet), or use fixed.",
             "ds-sparse-config"});
    if (l.readsAttention() && architecture == "encoder-decoder")
        adv.checks.push_back(
            {CheckLevel::Warn, "sparse-encoder-decoder-causal",
             "One sparse_attention block serves the whole model and is written bidirectional for the encoder; "
             "the decoder's self-attention needs attention \"unidirectional\": build its sparsity config in code.",
             "ds-sparse-config"});
}

std::string sparsityConfigCode(const Layout& l, std::int64_t heads, const std::string& architecture)
{
    static const std::vector<std::pair<std::string, std::string>> classes = {
        {"fixed", "FixedSparsityConfig"},
        {"variable", "VariableSparsityConfig"},
        {"bigbird", "BigBirdSparsityConfig"},
        {"bslongformer", "BSLongformerSparsityConfig"}};
    std::string cls;
    for (const auto& [mode, name] : classes)
        if (mode == l.mode)
            cls = name;
    std::string args = "num_heads=" + std::to_string(heads);
    const oj block = blockJson(l);
    for (const auto& [key, value] : block.items())
        if (key != "mode") {
            std::string text = value.is_boolean() ? (value.get<bool>() ? "True" : "False") : value.dump();
            args += ", " + key + "=" + text;
        }
    // The classes accept `attention` even where the parser ignores it: the way to a causal bigbird/bslongformer.
    if (!l.readsAttention() && architecture != "encoder")
        args += ", attention=\"unidirectional\"";
    return "# Legacy stack only (the op's checks): torch >= 1.5 and < 2.0, triton==1.0.0, CUDA >= 10.1, not ROCm.\n"
           "from deepspeed.ops.sparse_attention.sparsity_config import "
        + cls
        + "\n\n"
          "sparsity_config = "
        + cls + "(" + args
        + ")\n"
          "# Hand it to deepspeed.ops.sparse_attention.SparseSelfAttention in the model (check that class's\n"
          "# constructor in your DeepSpeed version), and pad every batch to a multiple of "
        + std::to_string(l.block) + " tokens.\n";
}

void addAlternatives(Advice& adv, const Answers& a, const std::string& longContext)
{
    const std::int64_t heads = a.integer("model.attention_heads");
    const std::int64_t kvHeads = a.has("model.kv_heads") ? a.integer("model.kv_heads") : heads;
    const std::int64_t seqLen = a.integer("model.seq_len");
    const std::string ds = a.text("software.deepspeed_version");
    // Texts that depend on no answer are written once (sources.tsv does not change while the program runs).
    static const std::string kFlash = "What serves long sequences on a current stack. FlashAttention is exact (no "
                                      "pattern to choose); its Theorem 1: "
        + quoteOf("flashattention")
        + " Compute stays quadratic in the sequence length; sparse attention cuts compute too, but approximates "
          "attention.";
    static const std::string kSdpa =
        "torch.nn.functional.scaled_dot_product_attention (documented from PyTorch 2.0) needs no DeepSpeed op: "
        + quoteOf("torch-sdpa") + " Check which implementation runs for your dtype, head size and GPU.";
    static const std::string kUlyssesQuotes =
        quoteExcerpt("ds-ulysses", "DeepSpeed-Ulysses partitions", "participating GPU") + ", and each GPU "
        + quoteExcerpt("ds-ulysses", "receives the full", "attention heads") + "; the blog reports "
        + quoteExcerpt("ds-ulysses", "4x larger");
    adv.tradeoffs.push_back({"FlashAttention: exact attention in linear memory", kFlash, "flashattention"});
    adv.tradeoffs.push_back({"PyTorch SDPA", kSdpa, "torch-sdpa"});
    adv.tradeoffs.push_back(
        {"DeepSpeed-Ulysses for Hugging Face models (ALST)",
         (longContext.empty()
              ? std::string("The ZeRO page plans it (parallel.sequence_parallel_size, with TiledMLP, a tiled loss and "
                            "checkpoint offload) when it makes a plan fit or faster; no plan needs it here.")
              : longContext)
             + " Its rules (deepspeed/runtime/sequence_parallel/ulysses_sp.py): the heads divide by the degree, the KV "
               "heads and the degree divide one another, every batch's length divides by it, eager attention is "
               "refused, and transformers >= "
             + std::string(kUlyssesTransformers) + ".",
         "ulysses-rules"});
    std::string degrees;
    for (std::int64_t d = 2; d <= heads && d <= 256; ++d)
        if (heads % d == 0 && kvHeads % d == 0 && seqLen % d == 0)
            degrees += (degrees.empty() ? "" : ", ") + std::to_string(d);
    adv.tradeoffs.push_back(
        {"DistributedAttention (Megatron-DeepSpeed only)",
         "For Megatron-DeepSpeed's own models, not Hugging Face ones (use the ALST plan above): DistributedAttention "
         "(PR #4198, first in DeepSpeed v0.10.2"
             + std::string(versionAtLeast(ds, kUlyssesFirstVersion) ? "" : "; DeepSpeed " + ds + " predates it") + "). "
             + kUlyssesQuotes
             + " It costs all-to-all communication per layer and a sequence-parallel process group. Degrees that "
               "divide "
             + std::to_string(heads) + " heads, " + std::to_string(kvHeads) + " KV heads and " + std::to_string(seqLen)
             + " tokens: " + (degrees.empty() ? "none" : degrees)
             + " (layer.py asserts the sequence length divides by the degree and splits q, k and v by head).",
         "ds-ulysses"});
    adv.snippets.push_back(
        {"python", "FlashAttention through PyTorch SDPA (torch >= 2.0)",
         "import torch.nn.functional as F\n\n# q, k, v: (batch, heads, seq_len, head_dim)\n"
         "out = F.scaled_dot_product_attention(q, k, v, is_causal=True)  # is_causal=False for an encoder\n"});
    adv.snippets.push_back({"python",
                            "Megatron-DeepSpeed only: DistributedAttention (the blog's example; DeepSpeed >= 0.10.2)",
                            "from deepspeed.sequence.layer import DistributedAttention\n\n"
                            "# Replace the original self-attention (attn) with DeepSpeed-Ulysses's self-attention.\n"
                            "# get_sequence_parallel_group() is your framework's sequence-parallel process group\n"
                            "# (e.g. Megatron-DeepSpeed); check forward()'s arguments in your DeepSpeed version.\n"
                            "dist_attn = DistributedAttention(attn, get_sequence_parallel_group())\n"});
    adv.sources.push_back("ds-ulysses-layer"); // the sequence-length assertion quoted in the Ulysses trade-off
}

std::string opSummary(const Answers& a, const OpVerdict& v)
{
    return "DeepSpeed's sparse attention op needs PyTorch < 2.0 (>= 1.5) and triton 1.0.0, while " + requiresTorch()
        + (v.canRun ? "; its checks pass for torch " + a.text("software.torch_version") + " if triton is exactly 1.0.0"
                    : ", so it cannot run here: " + v.whyNot.front());
}

// The block, its layout checks, gains and snippets; returns the mode written.
std::string addSparseBlock(Advice& adv, const Answers& a, const OpVerdict& verdict, std::int64_t blocksPerRow,
                           const std::string& longContext)
{
    const std::string pattern = a.text("sparse.pattern");
    const std::string architecture = a.text("model.architecture");
    const std::int64_t seqLen = a.integer("model.seq_len");
    for (const char* id : {"model.seq_len", "model.architecture"})
        if (!a.has(id))
            adv.missing.push_back(id);
    adv.status = adv.missing.empty() ? AdviceStatus::Complete : AdviceStatus::NeedsInput;

    Layout layout;
    layout.mode = chooseMode(pattern, architecture, seqLen);
    layout.block = std::max<std::int64_t>(1, a.integer("sparse.block"));
    layout.attention = architecture == "decoder" ? "unidirectional" : "bidirectional";
    adv.fragment = oj{{"sparse_attention", blockJson(layout)}};
    addLayoutChecks(adv, layout, seqLen, blocksPerRow);
    addPatternNotes(adv, layout, architecture);
    if (!verdict.canRun)
        adv.checks.push_back(
            {CheckLevel::Warn, "sparse-fragment-legacy-only",
             "The sparse_attention block is written for a stack where the op can run (torch >= 1.5 and < 2.0, "
             "triton 1.0.0); on this stack nothing can use it.",
             "ds-sparse-op"});

    std::string what = "sparse_attention mode " + inQuotes(layout.mode);
    if (layout.readsAttention())
        what += ", " + layout.attention;
    what += ", block " + std::to_string(layout.block) + ", " + std::to_string(blocksPerRow) + " blocks per row";
    adv.headline = opSummary(a, verdict) + ". "
        + (verdict.canRun ? "Block: " + what + "."
                          : "Block written for a legacy stack only (" + what
                   + "); for long sequences use FlashAttention (PyTorch SDPA) or DeepSpeed-Ulysses (ALST)."
                   + (longContext.empty() ? std::string() : " " + longContext));

    if (pattern == "auto")
        adv.tradeoffs.push_back(
            {"Why " + layout.mode,
             "ds-wizard's own rule (no source prescribes one): a decoder gets fixed with attention "
             "\"unidirectional\" (fixed and variable are the modes whose `attention` the parser reads); an "
             "encoder gets bigbird from "
                 + std::to_string(kVeryLongSequence)
                 + " tokens (the wizard's own "
                   "threshold) and bslongformer below; an encoder-decoder gets fixed, bidirectional. variable only "
                   "when asked for.",
             ""});
    adv.tradeoffs.push_back({"Expected gains, as DeepSpeed stated them in 2020 (not a promise for this setup)",
                             quoteOf("ds-sparse-news"), "ds-sparse-news"});
    adv.tradeoffs.push_back({"The blog's measurements (V100, torch 1.x era)",
                             quoteExcerpt("ds-sparse-blog", "SA decreases", "is a parameter") + "; "
                                 + quoteExcerpt("ds-sparse-blog", "SA empowers", "respectively") + " ("
                                 + quoteExcerpt("ds-sparse-blog", "batch size 1", "32GB memory") + "); "
                                 + quoteExcerpt("ds-sparse-blog", "up to 6.3x")
                                 + " Sparse layouts approximate attention: check model quality yourself.",
                             "ds-sparse-blog"});
    adv.estimates.push_back(
        {"Blocks per row", static_cast<double>(blocksPerRow), "blocks",
         "ceil(seq_len / block) = ceil(" + std::to_string(seqLen) + " / " + std::to_string(layout.block) + ")",
         "ds-sparse-layout"});
    adv.snippets.push_back({"json", "sparse_attention", adv.fragment.dump(2)});
    adv.snippets.push_back({"python", "Build the same layout in code (legacy stack)",
                            sparsityConfigCode(layout, a.integer("model.attention_heads"), architecture)});
    adv.snippets.push_back(
        {"bash", "What the op checks, on the training machine",
         "python -c \"import torch; print(torch.__version__, torch.version.cuda)\"  # torch must be 1.5-1.x\n"
         "pip show triton | grep -i '^version'   # must be 1.0.0\nds_report | grep sparse_attn\n"});
    adv.sources.push_back("ds-sparse-config"); // the keys and defaults of the block
    return layout.mode;
}

} // namespace

Advice adviseSparse(const Job& job, const ZeroDecision* zero, const Answers& a)
{
    const std::string longContext = zero ? longContextSummary(job, *zero) : std::string();
    Advice adv;
    adv.workflow = "sparse";
    const std::int64_t seqLen = a.integer("model.seq_len");
    const std::int64_t block = std::max<std::int64_t>(1, a.integer("sparse.block"));
    const std::int64_t blocksPerRow = (seqLen + block - 1) / block;
    const bool used = a.text("sparse.pattern") != "none";

    OpVerdict verdict = addVersionChecks(adv, a, used); // first: whether the op can run at all
    addPlatformChecks(adv, job.gpu, a, verdict, used);
    std::string mode = "none";
    if (used) {
        mode = addSparseBlock(adv, a, verdict, blocksPerRow, longContext);
    } else {
        adv.status = AdviceStatus::NotApplicable;
        adv.headline =
            "Attention stays dense (sparse.pattern = none); for long sequences use FlashAttention via PyTorch SDPA "
            "or DeepSpeed-Ulysses (ALST). "
            + (longContext.empty() ? std::string() : longContext + " ") + opSummary(a, verdict) + ".";
    }
    addAlternatives(adv, a, longContext);
    adv.sources = adv.citedSources(); // every source a check or trade-off cites, listed once
    adv.details = oj{{"pattern", mode},
                     {"block", block},
                     {"blocks_per_row", blocksPerRow},
                     {"padded_seq_len", blocksPerRow * block},
                     {"op_can_run", verdict.canRun},
                     {"why_not", verdict.whyNot}};
    return adv;
}

} // namespace dsw
