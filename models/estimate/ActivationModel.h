#pragma once
// Activation memory operation by operation: the bytes autograd saves for backward in one decoder layer, in
// the loss, and their peak over the model, as CUDA and torch 2.x keep them (1-byte dropout masks, fp32
// LayerNorm statistics, `mean` keeping no input; tests/reference/saved_activations.py measures the same
// layers with torch and tests/data/activation-reference.tsv holds what it measured).
//
// The layers are Hugging Face's: GPT2Block-like for LayerNorm models (fused q/k/v projection, softmax in
// the element type), LlamaDecoderLayer-like for RMSNorm models (RMSNorm upcast to fp32, RoPE, softmax in
// fp32 and cast back). Eager attention materialises the s×s probabilities and, with GQA, HF's repeat_kv
// copies k and v to every head; flash (FlashAttention-2) saves q, k, v at their own head counts, the output
// and an fp32 log-sum-exp per query and head; SDPA is torch 2.x's memory-efficient kernel after repeat_kv
// (HF's path with an attention mask or on torch < 2.5; on ≥ 2.5 without a mask it saves what flash saves),
// its log-sum-exp padded to a multiple of 32 queries. Dropout, when its probability is > 0, is applied to
// the attention probabilities and to the output of both residual branches (GPT-2's and Megatron's places).
// RoPE's cos/sin and the causal mask are built once per model, not per layer, and are not counted.
// Every figure saturates at kSaturated (util/CheckedMath.h) instead of overflowing.
#include "knowledge/TransformerShape.h"

#include <cstdint>
#include <string>
#include <vector>

namespace dsw {

struct ActivationCase {
    TransformerShape shape;
    std::int64_t seqLen = 0;     // s (model.seq_len)
    std::int64_t microBatch = 0; // b (training.micro_batch_size)
    AttentionImpl attention = AttentionImpl::Flash;
    bool dropout = false;          // a dropout probability > 0
    std::int64_t elementBytes = 2; // activations' element size: 2 (bf16, fp16) or 4 (fp32)
    // LoRA or QLoRA adapters in each block (knowledge/AdapterShape.h). Each target saves A's r-wide output for B's
    // weight gradient; with dropout, its own dropped copy of the input and the 1-byte mask. Without dropout A saves
    // the input the frozen linear would have saved in a full fine-tune, so nothing is added. The frozen linears that
    // carry no adapter are counted as saving their input (an upper bound: autograd saves it only for a weight gradient).
    std::int64_t adapterRank = 0; // 0: no adapters
    std::int64_t adapterTargets = 0;
    std::int64_t adapterInputWidth = 0; // Σ d_in over the block's targets
    bool adapterDropout = false;
    // A mixture of experts' MLP (knowledge/MoeShape.h), as Hugging Face's sparse MoE blocks run it, measured
    // (tests/reference/moe_saved_activations.py, tests/data/moe-activation-reference.tsv): the router keeps its fp32
    // softmax (experts wide) and the fp32 top-k weights with their sum; each of the k routed experts three token-wide
    // tensors (its gathered input, its output and the weighted product; two with fusedExperts), its intermediates at
    // expertIntermediate and its indices and weight; each shared expert its intermediates (it reads the block's
    // input). Routing is taken as balanced (the load-balancing loss's aim): each token goes to exactly k experts,
    // and under expert parallelism each rank receives its share, a stated assumption (no published run gives the
    // busiest rank's excess; native deepspeed.moe pads each expert to capacity_factor 1.0 of its share, the same
    // figure). experts 0: the dense MLP.
    std::int64_t experts = 0;
    std::int64_t expertsPerToken = 0;
    std::int64_t expertIntermediate = 0;
    std::int64_t sharedExperts = 0;
    // Transformers 5.0 and later run the experts fused (measured: two token-wide tensors per routed expert and 36 bytes
    // of indices and weights); before 5.0 a loop over the experts, three token-wide tensors and 26 bytes.
    bool fusedExperts = true;
    // DeepSpeed's TiledMLP (ALST): the MLP runs shard by shard along the sequence and recomputes each shard in backward,
    // so it saves only its input and holds one shard's intermediates at a time (dense MLPs only).
    bool tiledMlp = false;
};

// One operation's saved tensors, named as a user reads them ("attention q, k, v", "MLP GELU input", ...).
struct SavedActivation {
    std::string operation;
    std::int64_t bytes = 0;
};

struct LayerActivations {
    std::vector<SavedActivation> operations; // in the order the forward pass saves them; none of 0 bytes
    std::int64_t bytes = 0;                  // their sum
};

struct LossActivations {
    std::vector<SavedActivation> operations; // saved for backward at the end of the forward pass
    std::int64_t savedBytes = 0;             // their sum
    std::int64_t peakBytes = 0;              // the most the loss step holds at once, its saved bytes included
};

struct ModelActivations {
    std::int64_t perLayerBytes = 0;             // one layer without checkpointing (layerActivations)
    std::int64_t perLayerCheckpointedBytes = 0; // one layer with full checkpointing: its input
    std::int64_t logitsBytes = 0;               // the loss step's peak (lossActivations().peakBytes)
    std::int64_t peakBytes = 0;                 // the model's peak (modelActivations)
    // With checkpoint offload (ALST), the checkpointed layers' inputs in pinned host memory, per GPU: not in peakBytes.
    std::int64_t offloadedBytes = 0;
};

// One layer's saved tensors for one micro-batch of b × s. Throws std::invalid_argument naming the input when
// shapeError(shape) rejects the shape, s or b < 1, or elementBytes is not 2 or 4.
LayerActivations layerActivations(const ActivationCase& c);

// What full activation checkpointing keeps per layer: the layer's input, elementBytes·s·b·h.
std::int64_t checkpointedLayerBytes(const ActivationCase& c);

// The output projection and cross-entropy over shape.vocab. Standard (HF's ForCausalLMLoss): the logits in
// the element type are upcast to fp32 and log-softmax saves its fp32 output; the peak, 12·s·b·v bytes, is
// that output with its incoming and outgoing gradients during backward (above the forward's 2 + 4 + 4 with
// bf16 logits), plus lm_head's saved input and the int64 labels. Fused (Liger-Kernel's fused linear
// cross-entropy): the full logits never exist; lm_head's input gradient is computed during forward and kept,
// logits are made chunk by chunk in the element type with the gradient written in place, a chunk being
// ⌈s·b / ⌈v/h⌉⌉ tokens rounded up to a power of two (at most s·b). The lm_head weight gradient it
// accumulates during forward is the weight's gradient, counted with the model states, not here.
LossActivations lossActivations(const ActivationCase& c, LossImpl loss);

// The peak of activation memory over a training step. Without checkpointing: every layer's saved tensors
// while the loss runs its backward, L·perLayer + loss peak. With full checkpointing: the L layer inputs plus
// the larger of the loss step and one layer recomputed for its backward (the loss's tensors are freed before
// the last layer is recomputed; a recomputed layer's copy of its own input is not subtracted).
ModelActivations modelActivations(const ActivationCase& c, LossImpl loss, bool fullCheckpointing);
// The same with the first `checkpointedLayers` of the L layers checkpointed (Transformers' per-layer flag,
// GradientCheckpointingLayer.gradient_checkpointing: hf-gc-per-layer) and the rest saving everything: those inputs,
// the other layers' saved tensors and the loss step (backward reaches the checkpointed layers after the others have
// freed theirs, so one recomputed layer never adds to the loss step's peak). 0 is none, L is full checkpointing.
// With offloadCheckpoints (ALST's checkpoint offload) the checkpointed inputs go to host memory as the forward pass
// makes them and come back one at a time for backward: the GPU keeps one of them, offloadedBytes counts the rest.
ModelActivations modelActivations(const ActivationCase& c, LossImpl loss, std::int64_t checkpointedLayers,
                                  bool offloadCheckpoints = false);

} // namespace dsw
