#include "estimate/ActivationModel.h"

#include "util/CheckedMath.h"

#include <algorithm>
#include <stdexcept>

// Sources (resources/knowledge/sources.tsv): korthikanti, flash-attn-saved, liger-flce

namespace dsw {

namespace {

constexpr std::int64_t kFp32 = 4;
constexpr std::int64_t kMaskByte = 1;       // CUDA's dropout keeps a bool mask
constexpr std::int64_t kRngStateBytes = 16; // flash's and SDPA's philox seed and offset, two int64
constexpr std::int64_t kLabelBytes = 8;     // int64 labels

void validate(const ActivationCase& c)
{
    if (const auto error = shapeError(c.shape))
        throw std::invalid_argument(*error);
    if (c.seqLen < 1)
        throw std::invalid_argument("model.seq_len must be at least 1");
    if (c.microBatch < 1)
        throw std::invalid_argument("training.micro_batch_size must be at least 1");
    if (c.elementBytes != 2 && c.elementBytes != 4)
        throw std::invalid_argument("activation element bytes must be 2 (bf16, fp16) or 4 (fp32), not "
                                    + std::to_string(c.elementBytes));
}

std::int64_t ceilDiv(std::int64_t a, std::int64_t b) { return a / b + (a % b != 0 ? 1 : 0); }

class Saved {
public:
    void add(std::string operation, std::int64_t bytes)
    {
        if (bytes > 0)
            list.push_back({std::move(operation), bytes});
    }
    std::int64_t sum() const
    {
        std::int64_t total = 0;
        for (const auto& op : list)
            total = addSat(total, op.bytes);
        return total;
    }
    std::vector<SavedActivation> list;
};

// LayerNorm saves its input and fp32 mean and 1/σ per token; HF's RMSNorm saves the fp32 copy of its input
// (pow and the multiply), 1/rms per token and the normalized value before the weight.
void addNorm(Saved& saved, const ActivationCase& c, const std::string& where)
{
    const std::int64_t e = c.elementBytes;
    const std::int64_t sb = mulSat(c.seqLen, c.microBatch);
    const std::int64_t sbh = mulSat(sb, c.shape.hidden);
    if (c.shape.norm == NormKind::LayerNorm) {
        saved.add(where + " norm input", mulSat(e, sbh));
        saved.add(where + " norm statistics", mulSat(2 * kFp32, sb));
    } else {
        saved.add(where + " norm fp32 input", mulSat(kFp32, sbh));
        saved.add(where + " norm statistics", mulSat(kFp32, sb));
        saved.add(where + " norm normalized", mulSat(e, sbh));
    }
}

void addAttention(Saved& saved, const ActivationCase& c)
{
    const auto& shape = c.shape;
    const std::int64_t e = c.elementBytes, s = c.seqLen, b = c.microBatch, a = shape.heads;
    const std::int64_t d = shape.hidden / shape.heads; // head width
    const std::int64_t sb = mulSat(s, b);
    const std::int64_t sbh = mulSat(sb, shape.hidden);
    const std::int64_t allHeads = mulSat(e, sb, a, d); // q, or the attention output, over all heads: e·s·b·a·d
    const std::int64_t scores = mulSat(a, s, s, b);    // elements of the s×s probabilities over heads and batch
    saved.add("attention input (norm output)", mulSat(e, sbh));
    if (c.attention == AttentionImpl::Flash) // k and v at their own (KV) head count
        saved.add("attention q, k, v", mulSat(e, sb, d, addSat(a, mulSat(2, shape.kvHeads))));
    else // repeat_kv copies k and v to every query head
        saved.add("attention q, k, v", mulSat(3, allHeads));
    if (c.attention == AttentionImpl::Eager) {
        // HF's Llama family takes the softmax in fp32 and casts back; GPT-2's in the element type
        const bool fp32Softmax = shape.norm == NormKind::RmsNorm;
        saved.add("attention softmax output", mulSat(fp32Softmax ? std::max(kFp32, e) : e, scores));
        if (c.dropout) {
            saved.add("attention dropout mask", mulSat(kMaskByte, scores));
            saved.add("attention probabilities", mulSat(e, scores));
        } else if (fp32Softmax && e < kFp32) {
            saved.add("attention probabilities", mulSat(e, scores)); // the cast; else softmax's own output
        }
        saved.add("attention output (output-projection input)", allHeads);
    } else {
        saved.add("attention output (output-projection input)", allHeads);
        const std::int64_t queries = c.attention == AttentionImpl::Sdpa ? mulSat(ceilDiv(s, 32), 32) : s;
        saved.add("attention log-sum-exp (fp32)", mulSat(kFp32, a, queries, b));
        if (c.dropout)
            saved.add("attention dropout RNG state", kRngStateBytes);
    }
    if (c.dropout)
        saved.add("attention output dropout mask", mulSat(kMaskByte, sbh));
}

// One expert's intermediates per token: SwiGLU's gate output, SiLU output, up output and down input; GELU's two.
std::int64_t expertInner(const ActivationCase& c)
{
    const std::int64_t width = c.expertIntermediate > 0 ? c.expertIntermediate : c.shape.intermediate;
    return mulSat(c.shape.mlp == MlpKind::SwiGlu ? 4 : 2, width);
}

void addMoeMlp(Saved& saved, const ActivationCase& c)
{
    constexpr std::int64_t kIndex = 8; // int64
    const std::int64_t e = c.elementBytes;
    const std::int64_t sb = mulSat(c.seqLen, c.microBatch);
    saved.add("MoE input (norm output)", mulSat(e, sb, c.shape.hidden));
    saved.add("MoE router: fp32 softmax, top-k weights and their sum",
              mulSat(kFp32, sb, addSat(c.experts, c.expertsPerToken, 1)));
    // The loop (Transformers < 5) keeps the gathered token, the expert's output and the weighted product, with three
    // int64 indices and the 16-bit weight; the fused experts (5.0 on) two token-wide tensors and 36 bytes of indices
    // and fp32 weight, measured (tests/data/moe-activation-reference.tsv).
    const std::int64_t perRouted = c.fusedExperts
        ? addSat(mulSat(e, addSat(mulSat(2, c.shape.hidden), expertInner(c))), 36)
        : addSat(mulSat(e, addSat(mulSat(3, c.shape.hidden), expertInner(c), 1)), mulSat(3, kIndex));
    saved.add("MoE routed experts: token copies, intermediates, outputs", mulSat(sb, c.expertsPerToken, perRouted));
    if (c.sharedExperts > 0)
        saved.add("MoE shared experts' intermediates", mulSat(e, sb, c.sharedExperts, expertInner(c)));
    if (c.dropout)
        saved.add("MLP output dropout mask", mulSat(kMaskByte, sb, c.shape.hidden));
}

// TiledMLP's shards: ⌈s/h⌉ per sequence (ALST's choice, alst-tiled-mlp), so a shard holds about h tokens.
std::int64_t tiledMlpShards(const ActivationCase& c)
{
    return std::max<std::int64_t>(1, ceilDiv(c.seqLen, std::max<std::int64_t>(1, c.shape.hidden)));
}

// TiledFusedLogitsLoss's shards: enough that one shard's fp32 logits stay within kTiledLossShardBytes (alst-tiled-loss).
constexpr std::int64_t kTiledLossShardBytes = std::int64_t{1} << 30;
std::int64_t tiledLossShards(const ActivationCase& c)
{
    const std::int64_t logits = mulSat(kFp32, c.seqLen, c.microBatch, c.shape.vocab);
    return std::max<std::int64_t>(1, ceilDiv(logits, kTiledLossShardBytes));
}

void addMlp(Saved& saved, const ActivationCase& c)
{
    if (c.experts > 1)
        return addMoeMlp(saved, c);
    const std::int64_t e = c.elementBytes;
    const std::int64_t sb = mulSat(c.seqLen, c.microBatch);
    const std::int64_t inner = mulSat(e, sb, c.shape.intermediate); // one s·b·I tensor
    saved.add("MLP input (norm output)", mulSat(e, sb, c.shape.hidden));
    if (c.tiledMlp) { // one shard's intermediates at a time, recomputed in backward
        const std::int64_t shardTokens = ceilDiv(sb, tiledMlpShards(c));
        saved.add("TiledMLP: one shard's intermediates",
                  mulSat(c.shape.mlp == MlpKind::SwiGlu ? 4 : 2, e, shardTokens, c.shape.intermediate));
    } else {
        if (c.shape.mlp == MlpKind::SwiGlu) {
            saved.add("MLP gate output (SiLU input)", inner);
            saved.add("MLP SiLU output, up output", mulSat(2, inner));
        } else {
            saved.add("MLP GELU input", inner);
        }
        saved.add("MLP down-projection input", inner);
    }
    if (c.dropout)
        saved.add("MLP output dropout mask", mulSat(kMaskByte, sb, c.shape.hidden));
}

std::int64_t nextPowerOfTwo(std::int64_t x)
{
    std::int64_t p = 1;
    while (p < x && p <= kSaturated / 2)
        p *= 2;
    return p;
}

} // namespace

LayerActivations layerActivations(const ActivationCase& c)
{
    validate(c);
    Saved saved;
    addNorm(saved, c, "attention");
    addAttention(saved, c);
    addNorm(saved, c, "MLP");
    addMlp(saved, c);
    if (c.adapterRank > 0) {
        const std::int64_t sb = mulSat(c.seqLen, c.microBatch);
        saved.add("LoRA A outputs (r wide)", mulSat(c.elementBytes, sb, c.adapterRank, c.adapterTargets));
        if (c.adapterDropout)
            saved.add("LoRA dropout: input copies and masks", mulSat(c.elementBytes + 1, sb, c.adapterInputWidth));
    }
    return {saved.list, saved.sum()};
}

std::int64_t checkpointedLayerBytes(const ActivationCase& c)
{
    validate(c);
    return mulSat(c.elementBytes, c.seqLen, c.microBatch, c.shape.hidden);
}

LossActivations lossActivations(const ActivationCase& c, LossImpl loss)
{
    validate(c);
    const std::int64_t e = c.elementBytes, v = c.shape.vocab, h = c.shape.hidden;
    const std::int64_t sb = mulSat(c.seqLen, c.microBatch);
    const std::int64_t hidden = mulSat(e, sb, h); // lm_head's input, the final norm's output
    Saved saved;
    std::int64_t transient = 0;
    if (loss == LossImpl::Tiled) {
        // DeepSpeed's TiledFusedLogitsLoss: lm_head and the loss run shard by shard in forward, each shard's logits in
        // fp32 with their gradient, and the input's gradient is kept for backward.
        saved.add("loss: lm_head input gradient (computed in forward)", hidden);
        const std::int64_t shardTokens = ceilDiv(sb, tiledLossShards(c));
        transient = addSat(hidden, mulSat(e + 2 * kFp32, shardTokens, v), mulSat(kFp32, sb));
    } else if (loss == LossImpl::Standard) {
        saved.add("loss: lm_head input", hidden);
        saved.add("loss: fp32 log-softmax output", mulSat(kFp32, sb, v));
        saved.add("loss: labels", mulSat(kLabelBytes, sb));
        // backward: the log-softmax gradient in and out beside the saved output; forward: the logits and their
        // fp32 copy beside it (e + 4 + 4 bytes per logit)
        transient = std::max(mulSat(2 * kFp32, sb, v), mulSat(e < kFp32 ? e + kFp32 : e, sb, v));
    } else {
        saved.add("loss: lm_head input gradient (computed in forward)", hidden);
        const std::int64_t chunk = std::min(nextPowerOfTwo(ceilDiv(sb, ceilDiv(v, h))), sb);
        // during forward: the input itself, one chunk of logits (its gradient in place), fp32 per-token losses
        transient = addSat(hidden, mulSat(e, chunk, v), mulSat(kFp32, sb));
    }
    const std::int64_t savedBytes = saved.sum();
    return {saved.list, savedBytes, addSat(savedBytes, transient)};
}

ModelActivations modelActivations(const ActivationCase& c, LossImpl loss, bool fullCheckpointing)
{
    return modelActivations(c, loss, fullCheckpointing ? c.shape.layers : std::int64_t{0});
}

ModelActivations modelActivations(const ActivationCase& c, LossImpl loss, std::int64_t checkpointedLayers,
                                  bool offloadCheckpoints)
{
    ModelActivations m;
    m.perLayerBytes = layerActivations(c).bytes;
    m.perLayerCheckpointedBytes = checkpointedLayerBytes(c);
    m.logitsBytes = lossActivations(c, loss).peakBytes;
    const std::int64_t L = c.shape.layers;
    const std::int64_t n = std::clamp<std::int64_t>(checkpointedLayers, 0, L);
    // Offloaded, the checkpoints wait in host memory and the GPU holds the one in use.
    const std::int64_t onGpu = offloadCheckpoints && n > 0 ? 1 : n;
    m.offloadedBytes = mulSat(n - onGpu, m.perLayerCheckpointedBytes);
    const std::int64_t saved = addSat(mulSat(onGpu, m.perLayerCheckpointedBytes), mulSat(L - n, m.perLayerBytes));
    // With every layer checkpointed the recomputed layer can outgrow the loss step; with fewer, the loss step holds
    // the unsaved layers too and is the peak.
    m.peakBytes = addSat(saved, n == L && L > 0 ? std::max(m.logitsBytes, m.perLayerBytes) : m.logitsBytes);
    return m;
}

} // namespace dsw
