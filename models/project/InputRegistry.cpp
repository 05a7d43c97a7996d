#include "project/InputRegistry.h"

#include "knowledge/AdapterShape.h"
#include "knowledge/DeepSpeedFacts.h"
#include "knowledge/GpuCatalog.h"
#include "knowledge/ModelCatalog.h"
#include "util/Count.h"

#include <algorithm>
#include <cctype>
#include <charconv>
#include <cmath>
#include <initializer_list>

namespace dsw {

namespace {

// Unicode code points in UTF-8 text: every byte that is not a continuation byte (10xxxxxx) starts one.
std::size_t characterCount(const std::string& text)
{
    return static_cast<std::size_t>(
        std::count_if(text.begin(), text.end(), [](char c) { return (static_cast<unsigned char>(c) & 0xC0) != 0x80; }));
}

using json = nlohmann::json;

InputSpec count(std::string id, std::string label, json def, double min, double max, std::string help)
{
    InputSpec s;
    s.id = std::move(id);
    s.type = InputType::Count;
    s.label = std::move(label);
    s.unit = "parameters";
    s.min = min;
    s.max = max;
    s.defaultValue = std::move(def);
    s.help = std::move(help);
    return s;
}

InputSpec integer(std::string id, std::string label, json def, double min, double max, std::string unit,
                  std::string help)
{
    InputSpec s = count(std::move(id), std::move(label), std::move(def), min, max, std::move(help));
    s.type = InputType::Integer;
    s.unit = std::move(unit);
    return s;
}

InputSpec number(std::string id, std::string label, json def, double min, double max, std::string unit,
                 std::string help)
{
    InputSpec s = integer(std::move(id), std::move(label), std::move(def), min, max, std::move(unit), std::move(help));
    s.type = InputType::Number;
    return s;
}

// Word lists as the literals they are written with: each string is built once, in the spec (a braced list of
// std::string would build every word twice, the list and its copy).
using Words = std::initializer_list<const char*>;

InputSpec choice(std::string id, std::string label, Words values, json def, std::string help)
{
    InputSpec s;
    s.id = std::move(id);
    s.type = InputType::Choice;
    s.label = std::move(label);
    s.values.assign(values.begin(), values.end());
    s.defaultValue = std::move(def);
    s.help = std::move(help);
    return s;
}

InputSpec boolean(std::string id, std::string label, bool def, std::string help)
{
    InputSpec s;
    s.id = std::move(id);
    s.type = InputType::Boolean;
    s.label = std::move(label);
    s.defaultValue = def;
    s.help = std::move(help);
    return s;
}

InputSpec text(std::string id, std::string label, json def, std::string help)
{
    InputSpec s;
    s.id = std::move(id);
    s.type = InputType::Text;
    s.label = std::move(label);
    s.defaultValue = std::move(def);
    s.help = std::move(help);
    return s;
}

InputSpec& on(InputSpec& s, std::string page, Words workflows)
{
    s.page = std::move(page);
    s.workflows.assign(workflows.begin(), workflows.end());
    return s;
}

InputSpec derived(InputSpec s, std::string how)
{
    s.defaultValue = nullptr;
    s.derivedDefault = std::move(how);
    return s;
}

std::string formatNumber(double v)
{
    // What an ostream with setprecision(15) writes (%.15g in the C locale): 1048576, not 1.04858e+06; without
    // building a stream for each of the registry's bounds.
    char text[32];
    const auto [end, ec] = std::to_chars(text, text + sizeof text, v, std::chars_format::general, 15);
    return std::string(text, end);
}

bool parseDouble(const std::string& text, double& out)
{
    std::string s;
    for (char c : text)
        if (!std::isspace(static_cast<unsigned char>(c)))
            s.push_back(c);
    if (s.empty())
        return false;
    auto [end, ec] = std::from_chars(s.data(), s.data() + s.size(), out);
    return ec == std::errc() && end == s.data() + s.size() && std::isfinite(out);
}

// The unit a number was typed with, as a factor to the input's own unit: "1 TB" in a GiB field is 1024, "400Gbps"
// in a Gbit/s field 400, "8 GPUs" in a GPU count 8. Memory sizes are binary, as memory is sold (a vendor's GB is
// read as GiB); an SSD's capacity is decimal, as SSDs are sold.
struct TypedUnit {
    std::string number; // the text without the unit
    double factor = 1;
    bool known = true; // false: a unit this input does not take
};

TypedUnit splitUnit(const InputSpec& spec, const std::string& text)
{
    std::size_t end = text.size();
    while (end > 0 && std::isspace(static_cast<unsigned char>(text[end - 1])))
        --end;
    std::size_t cut = end;
    while (cut > 0 && (std::isalpha(static_cast<unsigned char>(text[cut - 1])) || text[cut - 1] == '/'))
        --cut;
    std::string unit = text.substr(cut, end - cut);
    std::size_t start = 0;
    while (start < cut && std::isspace(static_cast<unsigned char>(text[start])))
        ++start;
    std::size_t numberEnd = cut;
    while (numberEnd > start && std::isspace(static_cast<unsigned char>(text[numberEnd - 1])))
        --numberEnd;
    TypedUnit out{text.substr(start, numberEnd - start), 1, true};
    if (unit.empty() || spec.unit.empty())
        return unit.empty() ? out : TypedUnit{text, 1, true}; // no unit, or the number's own syntax (7B, 1e9)
    std::string lower;
    for (char c : unit)
        lower.push_back(static_cast<char>(std::tolower(static_cast<unsigned char>(c))));
    if (spec.unit == "GiB") {
        // 1 GB is 1 GiB in memory, 0.93 GiB on an SSD.
        const double giga = spec.id == "hardware.nvme_capacity_gib" ? 1e9 / 1073741824.0 : 1;
        const double tera = spec.id == "hardware.nvme_capacity_gib" ? 1e12 / 1073741824.0 : 1024;
        const std::pair<const char*, double> units[] = {
            {"gib", 1},   {"tib", 1024}, {"mib", 1.0 / 1024}, {"g", giga},
            {"gb", giga}, {"t", tera},   {"tb", tera},        {"mb", giga / (tera / giga)}};
        for (const auto& [name, factor] : units)
            if (lower == name)
                return {out.number, factor, true};
        return {text, 1, false};
    }
    if (spec.unit == "Gbit/s") {
        // Case matters for bytes against bits: GB/s is eight times Gb/s.
        const std::pair<const char*, double> units[] = {
            {"Gbit/s", 1},  {"Gb/s", 1},       {"Gbps", 1},     {"gbps", 1}, {"Tbit/s", 1000}, {"Tb/s", 1000},
            {"Tbps", 1000}, {"Mbit/s", 0.001}, {"Mbps", 0.001}, {"GB/s", 8}, {"GBps", 8}};
        for (const auto& [name, factor] : units)
            if (unit == name)
                return {out.number, factor, true};
        return {text, 1, false};
    }
    std::string own;
    for (char c : spec.unit)
        own.push_back(static_cast<char>(std::tolower(static_cast<unsigned char>(c))));
    const std::string singular = own.size() > 1 && own.back() == 's' ? own.substr(0, own.size() - 1) : own;
    if (lower == own || lower == singular)
        return out;
    if (spec.type == InputType::Count)
        return {text, 1, true}; // 7B, 350M: parseCount reads the suffix
    return {text, 1, false};
}

} // namespace

InputRegistry::InputRegistry()
{
    m_specs.reserve(90); // the entries below, without moving them while they are added
    const Words all = {"zero", "precision", "pipeline", "memory", "nvme", "onebit", "sparse"};
    auto add = [this](InputSpec s, std::string page, Words workflows) {
        m_specs.push_back(std::move(on(s, std::move(page), workflows)));
    };

    // Setup: the answers shared by several workflows, asked once.
    const Words modelUsers = {"zero", "memory", "pipeline", "onebit", "sparse"};
    // First, where presetSpec() finds it: its values, "none" and the catalog's ids, are added when a caller first
    // looks at it.
    add(choice("model.preset", "Model preset", {}, "none",
               "A model from the catalog (resources/knowledge/models.tsv), e.g. llama-3.1-8b: it supplies every "
               "model.* answer you have not given. none: the answers alone describe the model."),
        "setup", modelUsers);
    // The whole model, frozen or trained: DeepSpeed partitions and (with full fine-tuning, the one training method
    // modelled) trains all of it; a LoRA adapter's count would size a model hundreds of times too small.
    add(derived(count("model.params", "Total parameters", 7000000000LL, 1e6, 1e14,
                      "Total parameters of the whole model (every weight, frozen or trained: for LoRA or QLoRA the "
                      "base model's count, not the adapter's); accepts 7B, 350M, 1.3e9 or 7000000000. When not "
                      "given, counted from the shape; a given count more than 5% from the shape's is reported."),
                "counted from the shape when model.preset or a model dimension is given, else 7B"),
        "setup", {"zero", "memory", "onebit", "pipeline"});
    // How the model is trained (knowledge/AdapterShape.h); the defaults are the PEFT docs' DeepSpeed recipe (r 8,
    // alpha 16, dropout 0.1, all-linear).
    // Sources (resources/knowledge/sources.tsv): peft-deepspeed-lora-70b, peft-deepspeed-qlora-70b, qlora-paper
    const Words methodUsers = {"zero", "memory", "pipeline", "precision"};
    add(choice("training.method", "Training method", {"full", "lora", "qlora"}, "full",
               "full: every parameter is trained (16 bytes each with Adam and fp32 states). lora: PEFT LoRA adapters "
               "are trained beside the frozen 16-bit model. qlora: the same beside a model stored in 4 bits "
               "(bitsandbytes NF4). Total parameters stays the whole model's count; the adapters' (trainable) count "
               "comes from the shape, the rank and the target modules."),
        "setup", methodUsers);
    add(integer("lora.rank", "LoRA rank", 8, 1, 65536, "",
                "The adapters' rank r (LoraConfig r): each target d_in → d_out gains r·(d_in + d_out) trainable "
                "parameters. Asked for LoRA and QLoRA."),
        "setup", methodUsers);
    add(number("lora.alpha", "LoRA alpha", 16, 0, 1e6, "",
               "LoraConfig lora_alpha: the update is scaled by alpha / r. Written to the exports; sizes nothing."),
        "setup", methodUsers);
    add(number("lora.dropout", "LoRA dropout", 0.1, 0, 0.99, "",
               "LoraConfig lora_dropout: above 0 each target saves a dropped copy of its input (and its mask) for "
               "backward, which the activations count."),
        "setup", methodUsers);
    add(text("lora.targets", "LoRA target modules", "all-linear",
             "Which linear modules get adapters: attention (q, k, v, o), all-linear (every linear of the blocks, "
             "not the output head: PEFT's shorthand), or a comma list of q_proj, k_proj, v_proj, o_proj, gate_proj, "
             "up_proj, down_proj, lm_head."),
        "setup", methodUsers);
    add(text("lora.modules_to_save", "Modules trained whole", "",
             "LoraConfig modules_to_save: embed_tokens and/or lm_head (comma list, empty for none). PEFT trains a "
             "copy of each (vocabulary × hidden parameters) beside the frozen original."),
        "setup", methodUsers);
    add(boolean("lora.double_quant", "QLoRA double quantization", true,
                "bnb_4bit_use_double_quant: the quantization constants are quantized too, 0.127 instead of 0.5 bits "
                "per weight (the QLoRA paper). Asked for QLoRA."),
        "setup", methodUsers);
    add(integer("model.layers", "Transformer layers", 32, 1, 10000, "layers", "Number of transformer blocks."), "setup",
        {"zero", "memory", "pipeline"});
    add(integer("model.hidden_size", "Hidden size", 4096, 1, 1000000, "", "Width of the residual stream (d_model)."),
        "setup", {"zero", "memory", "pipeline"});
    add(integer("model.attention_heads", "Attention heads", 32, 1, 4096, "heads", "Attention heads per layer."),
        "setup", {"zero", "memory", "sparse", "pipeline"});
    add(integer("model.vocab_size", "Vocabulary size", 32000, 1, 10000000, "tokens", "Tokenizer vocabulary size."),
        "setup", {"zero", "memory", "pipeline"});
    add(integer("model.seq_len", "Sequence length", 2048, 1, 100000000, "tokens", "Training sequence length."), "setup",
        {"zero", "memory", "sparse", "pipeline"});
    // Sources (resources/knowledge/sources.tsv): hf-bert-config (what max_position_embeddings is).
    add(integer("model.max_position", "Maximum position", 0, 0, 1e9, "tokens",
                "The longest sequence the model's positions cover (max_position_embeddings, or n_positions, in its "
                "config.json); 0 = unknown. A preset or an imported config.json sets it; a model.seq_len beyond it "
                "is warned about (RoPE scaling or position interpolation is then needed; learned position "
                "embeddings have no row for it)."),
        "setup", {"zero", "memory", "sparse", "pipeline"});
    // Sources (resources/knowledge/sources.tsv): bert-dropout, hf-gpt2-dropout, hf-bert-config.
    add(number("model.dropout", "Dropout probability", 0.0, 0, 0.99, "",
               "The dropout probability training runs with (hidden_dropout_prob / attention_probs_dropout_prob in "
               "BERT's config.json, resid_pdrop / attn_pdrop / embd_pdrop in GPT-2's, attention_dropout where "
               "present); 0 = none. Any value above 0 adds the dropout masks (and, with eager attention, the dropped "
               "probabilities) to the activations. Default 0: today's recipes (Llama, Qwen, Gemma, Mistral configs: "
               "0.0) train without; BERT and GPT-2 train with 0.1, which their presets and config.json set."),
        "setup", {"zero", "memory", "pipeline"});
    // Kept as a fact of the model so that no page sizes a mixture of experts as the dense model its shape describes
    // (estimate/StepModel.h, MoeJob). Sources (resources/knowledge/sources.tsv): ds-moe-tutorial.
    add(integer(
            "model.experts", "Experts per MoE layer", 1, 1, 100000, "experts",
            "Routed experts in each mixture-of-experts layer (num_local_experts in Mixtral's config.json, "
            "num_experts in Qwen-MoE's, n_routed_experts in DeepSeek's); 1 = a dense model. A preset or an "
            "imported config.json sets it. Above 1 every page sizes all the experts' parameters and computes with the "
            "experts a token uses (model.experts_per_token)."),
        "setup", {"zero", "precision", "memory", "onebit", "pipeline"});
    // The rest of a mixture of experts' shape (knowledge/MoeShape.h), asked on Setup only when model.experts > 1.
    add(integer("model.experts_per_token", "Experts per token", 1, 1, 100000, "experts",
                "Routed experts each token uses in an MoE layer (top-k: num_experts_per_tok in config.json; "
                "Mixtral 2, Qwen3-MoE 8). The compute per token counts these; memory holds every expert."),
        "setup", {"zero", "precision", "memory", "onebit", "pipeline"});
    add(integer("model.expert_intermediate_size", "Expert MLP width", 0, 0, 10000000, "",
                "Inner width of one expert's MLP (moe_intermediate_size in Qwen-MoE's and DeepSeek's config.json); "
                "0: the model's intermediate size, as Mixtral's experts are."),
        "setup", {"zero", "precision", "memory", "onebit", "pipeline"});
    add(integer("model.shared_experts", "Shared experts", 0, 0, 1024, "experts",
                "Experts every token uses beside the routed ones (n_shared_experts in DeepSeek's config.json), each "
                "as wide as a routed expert; 0 for Mixtral and Qwen3-MoE."),
        "setup", {"zero", "precision", "memory", "onebit", "pipeline"});
    add(integer("model.dense_layers", "Leading dense layers", 0, 0, 100000, "layers",
                "Layers at the start that keep the dense MLP (first_k_dense_replace in DeepSeek's config.json); 0: "
                "every layer routes."),
        "setup", {"zero", "precision", "memory", "onebit", "pipeline"});
    add(integer("model.moe_layer_interval", "MoE layer interval", 1, 1, 100000, "layers",
                "After the dense layers, every k-th layer routes (decoder_sparse_step in Qwen-MoE's config.json); 1: "
                "each of them."),
        "setup", {"zero", "precision", "memory", "onebit", "pipeline"});
    // How DeepSpeed trains the experts (knowledge/MoeShape.h, MoeMode), asked on Setup only for a mixture of experts.
    // Sources (resources/knowledge/sources.tsv): ds-moe-zero3-refused, ds-leaf-module, ds-autoep, ds-autoep-divides.
    add(choice("moe.mode", "How DeepSpeed trains the experts", {"auto", "native", "leaf", "autoep"}, "auto",
               "native: deepspeed.moe.layer.MoE layers in your model's code (ZeRO 0-2; DeepSpeed refuses them at "
               "ZeRO-3); leaf: ZeRO-3 with the MoE block registered as a leaf module, gathered whole; autoep: "
               "expert_parallel, DeepSpeed's AutoEP swapping Hugging Face's MoE blocks for expert-parallel ones (ZeRO "
               "0-2 here; Transformers 5.0 or newer). auto: the fastest plan that fits among leaf at ZeRO-3, AutoEP "
               "and every expert on every GPU below it."),
        "setup", {"zero", "memory"});
    add(choice("moe.expert_parallel_size", "Expert-parallel size",
               {"auto", "1", "2", "4", "8", "16", "32", "64", "128", "256"}, "auto",
               "Ranks the experts are split over (ep_size for native MoE, expert_parallel.autoep_size for AutoEP); it "
               "must divide the experts and the data-parallel ranks. auto: the plan search tries 1, the powers of two "
               "that divide both, and their greatest common divisor."),
        "setup", {"zero", "memory"});
    add(derived(choice("moe.autoep_preset", "AutoEP preset",
                       {"none", "mixtral", "qwen3_moe", "qwen3_5_moe", "deepseek_v2", "deepseek_v3"}, "none",
                       "expert_parallel.preset_model: how AutoEP finds the router and experts of a Hugging Face model "
                       "(ds-autoep). Mixtral's preset and an imported config.json set it from the model type; none: "
                       "AutoEP needs its patterns written by hand."),
                "from the model preset or config.json"),
        "setup", {"zero"});
    add(derived(integer("model.kv_heads", "Key/value heads", nullptr, 1, 4096, "heads",
                        "Key/value heads per layer: fewer than the attention heads is grouped-query attention "
                        "(GQA), 1 is multi-query (MQA); must divide model.attention_heads."),
                "= model.attention_heads (multi-head attention)"),
        "setup", {"zero", "memory", "pipeline"});
    add(derived(integer("model.head_dim", "Head width", nullptr, 1, 65536, "",
                        "Width of one attention head; set apart from hidden/heads by some configs (head_dim in "
                        "Gemma 2 and Qwen3)."),
                "model.hidden_size / model.attention_heads"),
        "setup", {"zero", "memory"});
    add(choice("model.mlp", "MLP", {"gelu", "swiglu"}, "gelu",
               "gelu: two matrices h×I (GPT-2, BERT); swiglu: three, gated (Llama, Mistral, Qwen; Gemma's GeGLU "
               "counts the same)."),
        "setup", {"zero", "memory", "pipeline"});
    add(derived(integer("model.intermediate_size", "MLP inner size", nullptr, 1, 10000000, "",
                        "Inner width I of the MLP (intermediate_size, n_inner, d_ff)."),
                "4 × model.hidden_size for gelu; for swiglu 8h/3 rounded up to a multiple of 256 (Llama's rounding)"),
        "setup", {"zero", "memory", "pipeline"});
    add(choice("model.norm", "Normalisation", {"layernorm", "rmsnorm"}, "layernorm",
               "layernorm (weight and bias) or rmsnorm (weight only, Llama and most models since)."),
        "setup", {"zero", "memory"});
    add(boolean("model.tied_embeddings", "Tied embeddings", false,
                "Whether the output projection shares the input embedding's weights (tie_word_embeddings): "
                "true saves vocab × hidden parameters."),
        "setup", {"zero", "memory", "pipeline"});
    add(derived(choice("model.attention_impl", "Attention kernel", {"eager", "sdpa", "flash"}, nullptr,
                       "eager materialises the softmax (memory grows with the sequence squared); sdpa is torch's "
                       "scaled_dot_product_attention; flash is FlashAttention-2."),
                "flash where the GPU has compute capability 8.0 or newer and PyTorch is 1.12 or newer, else sdpa "
                "(PyTorch 2.0 or newer), else eager"),
        "setup", {"memory", "zero"});
    add(choice("model.loss_impl", "Loss kernel", {"auto", "standard", "fused", "tiled"}, "auto",
               "standard materialises the logits in fp32 (micro-batch × sequence × vocab × 4 bytes); fused is a "
               "chunked or fused cross-entropy that never does (Liger-Kernel's); tiled is DeepSpeed's "
               "TiledFusedLogitsLoss (ALST), logits and loss shard by shard along the sequence. auto: standard, "
               "unless the ZeRO page finds that another makes the plan fit or faster; it then says so and shows the "
               "change."),
        "setup", {"memory", "zero"});
    // Sources (resources/knowledge/sources.tsv): ds-zero3-linear, hf-zero-init.
    add(boolean("training.zero_init", "Model built under zero.Init", true,
                "Whether the training script builds or loads the model inside deepspeed.zero.Init (Hugging "
                "Face's from_pretrained does under ZeRO-3; a model too large for one host needs it). At "
                "stage 3 without it, torch's linear keeps every gathered weight from forward until backward."),
        "setup", {"zero", "memory"});
    add(boolean("training.expandable_segments", "Expandable allocator segments", false,
                "Whether the job runs with PYTORCH_CUDA_ALLOC_CONF=expandable_segments:True. PyTorch's "
                "allocator then grows its segments instead of caching fixed blocks, so the step model "
                "counts a 1% reserve of the peak instead of 5%."),
        "setup", {"zero", "memory"});
    add(derived(count("model.largest_layer_params", "Largest layer", nullptr, 1, 1e13,
                      "Parameters of the largest single module (DeepSpeed counts one module's own parameters, "
                      "usually the embedding or LM head, not a whole transformer block)."),
                "model.vocab_size × model.hidden_size"),
        "setup", {"zero", "memory"});
    add(InputSpec{[] {
            InputSpec s;
            s.id = "hardware.gpu";
            s.type = InputType::Gpu;
            s.label = "GPU";
            s.defaultValue = "A100-80GB";
            s.help = "The accelerator, by catalog id (case-insensitive); see `ds-wizard keys` for the list.";
            return s;
        }()},
        "setup", all);
    add(derived(number("hardware.gpu_memory_gib", "GPU memory", nullptr, 1, 4096, "GiB",
                       "Memory of one GPU as PyTorch reports it (torch.cuda.mem_get_info()'s total, an out-of-memory "
                       "message's \"total capacity\"); defaults to the catalog's usable capacity for hardware.gpu: "
                       "measured, e.g. 79.25 GiB for an A100 80GB, or for a GPU nobody measured, its GB × the ratio "
                       "measured on the card the catalog names for it (the wizard's assumption)."),
                "the catalog's usable capacity for hardware.gpu"),
        "setup", {"zero", "memory", "pipeline"});
    add(integer("hardware.gpus_per_node", "GPUs per node", 8, 1, 64, "GPUs", "GPUs in each node."), "setup", all);
    add(integer("hardware.nodes", "Nodes", 1, 1, 100000, "nodes", "Number of nodes."), "setup", all);
    add(integer("training.micro_batch_size", "Micro-batch per GPU", 4, 1, 65536, "samples",
                "train_micro_batch_size_per_gpu: samples per GPU per forward pass."),
        "setup", {"zero", "memory", "pipeline"});
    add(integer("training.gradient_accumulation_steps", "Gradient accumulation", 1, 1, 1000000, "steps",
                "Micro-batches accumulated per optimizer step (the pipeline's number of micro-batches)."),
        "setup", {"zero", "pipeline", "memory"});
    add(derived(integer("training.global_batch_size", "Global batch", nullptr, 1, 1e9, "samples",
                        "train_batch_size: samples per optimizer step over all GPUs."),
                "micro-batch × gradient accumulation × data-parallel size"),
        "setup", {"zero", "pipeline"});
    add(choice("training.optimizer", "Optimizer",
               {"adamw", "adam", "lamb", "adagrad", "lion", "onebit-adam", "zero-one-adam", "onebit-lamb"}, "adamw",
               "The optimizer DeepSpeed builds from the config."),
        "setup", {"zero", "onebit", "memory"});
    add(number("training.learning_rate", "Learning rate", 0.0001, 0, 10, "",
               "Peak learning rate (optimizer.params.lr)."),
        "setup", {"zero"});
    add(number("training.gradient_clipping", "Gradient clipping", 1.0, 0, 1e6, "",
               "Global gradient-norm clip; 0 disables. Always written, since DeepSpeed's default changed in 0.19.3."),
        "setup", {"zero"});
    add(choice("training.precision", "Precision", {"auto", "fp16", "bf16", "fp8", "fp32"}, "auto",
               "auto picks bf16 where the GPU supports it, fp16 otherwise."),
        "setup", {"precision", "zero", "memory"});
    // Sources (resources/knowledge/sources.tsv): ds-bf16-master-weights.
    add(choice("training.precision_states", "Master weights and optimizer states", {"fp32", "bf16"}, "fp32",
               "fp32: fp32 master weights and Adam states (DeepSpeed's default); bf16: bf16.bf16_master_weights_and_"
               "grads and bf16.bf16_optimizer_states, with bf16 training and ZeRO stage 1, 2 or 3 only."),
        "setup", {"precision", "zero", "memory"});
    const std::string version = knowledgeVersion();
    add(text("software.deepspeed_version", "DeepSpeed version", version,
             "Installed DeepSpeed version, e.g. " + version + "."),
        "setup", all);
    add(text("software.torch_version", "PyTorch version", "2.8.0", "Installed PyTorch version, e.g. 2.8.0."), "setup",
        {"precision", "sparse", "onebit"});
    // AutoEP's presets need 5.0; the experts' saved tensors differ from 5.0 (estimate/ActivationModel.h).
    // Sources (resources/knowledge/sources.tsv): ds-autoep, moe-block-saved-bytes.
    add(text("software.transformers_version", "Transformers version", "5.0.0",
             "Installed Hugging Face Transformers version, e.g. 5.0.0. It decides how a mixture of experts runs: from "
             "5.0 "
             "its experts are fused (one weight per projection), below it a loop over the experts that keeps one more "
             "token copy for each; AutoEP's presets need 5.0 (qwen3_5_moe 5.2)."),
        "setup", {"zero", "memory"});
    add(choice("software.launcher", "Launcher", {"deepspeed", "hf-trainer", "accelerate"}, "deepspeed",
               "What reads the config: the deepspeed launcher, the Hugging Face Trainer or Accelerate."),
        "setup", all);

    // ZeRO step.
    add(choice("zero.stage", "ZeRO stage", {"auto", "0", "1", "2", "3"}, "auto",
               "auto recommends the fastest stage that fits; a number asks for that stage."),
        "zero", {"zero"});
    add(choice("zero.offload_optimizer", "Offload optimizer states", {"auto", "none", "cpu", "nvme"}, "auto",
               "auto offloads only when nothing fits without; none, cpu or nvme asks for that placement."),
        "zero", {"zero", "memory"});
    add(choice("zero.offload_param", "Offload parameters", {"auto", "none", "cpu", "nvme"}, "auto",
               "auto offloads only when nothing fits without; parameters can be offloaded at stage 3 only."),
        "zero", {"zero", "memory"});
    add(number("hardware.cpu_memory_gib", "CPU memory per node", 1024, 1, 1048576, "GiB",
               "Host RAM of one node, used for offload and for loading the model."),
        "zero", {"zero", "memory"});
    // The default is the step model's kAssumedCpuCoresPerNode (estimate/StepTime.h; TestStepTime holds them equal).
    add(integer(
            "hardware.cpu_cores_per_node", "CPU cores per node", 48, 1, 1024, "cores",
            "Physical CPU cores of one node, all sockets together: with optimizer offload, DeepSpeed's CPU Adam runs "
            "on them, faster with more cores until the host's memory bandwidth caps it. 48 is the wizard's assumption "
            "(the DGX-2 host of DeepSpeed's ZeRO-Offload tutorial, the measurement the rate is fitted on)."),
        "zero", {"zero", "memory"});
    add(choice("hardware.nvme", "Local NVMe", {"none", "nvme"}, "none",
               "Whether each node has a local NVMe SSD for offload."),
        "zero", {"zero", "nvme", "memory"});
    add(text("hardware.nvme_path", "NVMe mount path", "",
             "Mount point of the NVMe SSD, e.g. /local_nvme; needed for NVMe offload."),
        "zero", {"zero", "nvme", "memory"});
    add(number("hardware.nvme_capacity_gib", "NVMe capacity per node", 0, 0, 1e7, "GiB",
               "Free space on the NVMe SSD of one node; 0 when unknown (the need is shown, not checked)."),
        "zero", {"zero"});
    add(choice("training.activation_checkpointing", "Activation checkpointing", {"auto", "on", "off"}, "auto",
               "auto turns it on only when activations would not fit otherwise."),
        "zero", {"zero", "memory", "pipeline"});
    add(choice("parallel.sequence_parallel_size", "Sequence-parallel size (Ulysses)",
               {"auto", "1", "2", "4", "8", "16", "32", "64", "128", "256"}, "auto",
               "GPUs that share each sequence with DeepSpeed-Ulysses (ALST): each holds seq_len ÷ size tokens; it must "
               "divide the GPUs, the heads and the sequence length, and the KV heads and it must divide one another. "
               "Data parallelism is the GPUs ÷ size. auto: the plan search tries 1 and the powers of two that run."),
        "zero", {"zero", "memory", "sparse"});
    add(choice("training.tiled_mlp", "Tiled MLP (ALST)", {"auto", "on", "off"}, "auto",
               "DeepSpeed's TiledMLP runs each MLP shard by shard along the sequence and recomputes it in backward: "
               "one shard's intermediates instead of the sequence's, for one more MLP forward. auto: only where the "
               "plan search finds it makes a plan fit or faster."),
        "zero", {"zero", "memory"});
    add(choice("training.checkpoint_offload", "Checkpoint offload to host (ALST)", {"auto", "on", "off"}, "auto",
               "With activation checkpointing, each layer's saved input goes to pinned host memory and comes back for "
               "backward (ALST's checkpoint offload): the GPU keeps one, the host holds the rest for every GPU of the "
               "node. auto: only where the plan search finds it makes a plan fit or faster."),
        "zero", {"zero", "memory"});

    // Setup, shared by the later workflows.
    add(choice("model.architecture", "Architecture", {"decoder", "encoder", "encoder-decoder"}, "decoder",
               "decoder (unidirectional attention, GPT-like), encoder (bidirectional, BERT-like) or encoder-decoder."),
        "setup", {"sparse", "pipeline"});
    add(text("software.cuda_version", "CUDA version", "12.4",
             "CUDA toolkit version, e.g. 12.4 (GDS needs 11.4 or newer)."),
        "setup", {"nvme", "sparse"});
    add(choice(
            "hardware.inter_node_network", "Inter-node network",
            {"infiniband-ndr", "infiniband-hdr", "roce-200g", "ethernet-100g", "ethernet-25g", "ethernet-10g", "efa"},
            "infiniband-hdr",
            "The network between nodes; sets the bandwidth unless hardware.inter_node_gbps is given."),
        "setup", {"onebit"});
    add(number("hardware.inter_node_gbps", "Inter-node bandwidth", 0, 0, 1e5, "Gbit/s",
               "Per-node network bandwidth; 0 takes the figure for hardware.inter_node_network."),
        "setup", {"onebit"});
    add(derived(integer("hardware.nics_per_node", "Network cards per node", nullptr, 1, 64, "NICs",
                        "Network cards per node carrying inter-node traffic; the node's rate is this × the network's "
                        "per-port rate. Ignored when hardware.inter_node_gbps is given. Left unset: one per GPU for "
                        "the SXM GPUs of DGX and HGX nodes on InfiniBand or 200G RoCE (DGX A100 has 8 HDR cards, "
                        "DGX H100 8 NDR; H200 and B200 nodes are assumed to match), else 1. Set your nodes' count."),
                "one per GPU on SXM nodes with InfiniBand or 200G RoCE, else 1"),
        "setup", {"zero", "onebit"});
    add(derived(number("hardware.mfu", "Compute efficiency (MFU)", nullptr, 0.05, 1, "",
                       "Share of the GPU's dense 16-bit TFLOPS a step achieves on every FLOP it runs, recompute "
                       "included. Left unset, the step model uses its calibrated efficiency: by GPU generation, "
                       "lower for fewer tokens per micro-batch and for attention (README, the step model). Set it "
                       "to a figure measured on your own stack."),
                "calibrated by GPU and tokens per micro-batch"),
        "setup", {"zero", "onebit"});
    add(integer("training.total_steps", "Total training steps", 100000, 1, 1e9, "steps",
                "Optimizer steps in the whole run."),
        "setup", {"onebit"});

    // Precision step.
    add(choice("precision.checkpoint_dtype", "Checkpoint trained in", {"unknown", "bf16", "fp16", "fp32"}, "unknown",
               "The precision the starting checkpoint was trained in; a bf16-trained model can overflow in fp16."),
        "precision", {"precision"});

    // Pipeline step.
    add(integer("pipeline.stages", "Pipeline stages", 1, 1, 1024, "stages",
                "Pipeline stages (PipelineModule num_stages); must divide the GPU count. 1 means no pipeline."),
        "pipeline", {"pipeline", "zero", "memory"});
    add(text(
            "pipeline.partition_method", "Partition method", "parameters",
            "uniform (layers per stage), parameters (balance trainable parameters) or type:REGEX (balance layers whose "
            "class name matches)."),
        "pipeline", {"pipeline"});
    add(text("pipeline.layer_params", "Parameters per layer", "",
             "Comma-separated parameter counts, one per layer in order; empty derives them from the model's "
             "dimensions (embedding, transformer blocks, head). For type:REGEX, listed layers are named Layer; derived "
             "ones Embedding, TransformerBlock and LMHead."),
        "pipeline", {"pipeline"});
    // Sources (resources/knowledge/sources.tsv): ds-pipe-bf16-accum-warning, ds-bf16-optimizer-select.
    add(choice("pipeline.grad_accum_dtype", "Gradient accumulation dtype", {"model", "fp32"}, "model",
               "model: gradients of the micro-batches are summed in the training dtype (DeepSpeed's default; a bf16 "
               "pipeline without ZeRO warns it is not safe numerically); fp32: data_types.grad_accum_dtype fp32, "
               "with bf16 training at ZeRO stage 1 without optimizer offload, at 4 bytes per parameter of the stage."),
        "pipeline", {"pipeline", "zero", "memory"});

    // Out-of-memory step.
    auto oom =
        text("memory.oom_message", "Out-of-memory message", "",
             "Paste the error: PyTorch's CUDA out-of-memory message, a host kill (exit -9, Killed) or DeepSpeed's "
             "batch-size assertion.");
    oom.max = 65536;
    add(std::move(oom), "memory", {"memory"});
    add(choice("memory.phase", "When it failed",
               {"unknown", "model-load", "forward", "backward", "optimizer-step", "checkpoint-save"}, "unknown",
               "The phase of training in which the error appeared."),
        "memory", {"memory"});
    // The setup the job ran with: every step is applied to it alone and the message's figures are compared with its
    // prediction. auto is the project's config (the ZeRO page's plan); the window sets these from it when the
    // message is pasted, so the run diagnosed stays the one that failed whatever the config becomes.
    const std::string fromConfig = "; auto takes the project's config, and pasting a message sets it from there.";
    add(choice("memory.ran_stage", "ZeRO stage it ran", {"auto", "0", "1", "2", "3"}, "auto",
               "The ZeRO stage of the failed run" + fromConfig),
        "memory", {"memory"});
    add(choice("memory.ran_offload_optimizer", "Optimizer offload it ran", {"auto", "none", "cpu", "nvme"}, "auto",
               "Where the failed run kept the optimizer states" + fromConfig),
        "memory", {"memory"});
    add(choice("memory.ran_offload_param", "Parameter offload it ran", {"auto", "none", "cpu", "nvme"}, "auto",
               "Where the failed run kept the parameters" + fromConfig),
        "memory", {"memory"});
    add(choice("memory.ran_checkpointing", "Activation checkpointing it ran", {"auto", "on", "off"}, "auto",
               "Whether the failed run checkpointed activations" + fromConfig),
        "memory", {"memory"});
    add(derived(integer("memory.ran_micro_batch", "Micro-batch it ran", nullptr, 1, 65536, "samples",
                        "The micro-batch per GPU of the failed run."),
                "the project's config (train_micro_batch_size_per_gpu)"),
        "memory", {"memory"});
    add(derived(integer("memory.ran_accumulation", "Gradient accumulation it ran", nullptr, 1, 1000000, "steps",
                        "The gradient accumulation steps of the failed run."),
                "the project's config (gradient_accumulation_steps)"),
        "memory", {"memory"});
    add(choice("memory.ran_attention_impl", "Attention kernel it ran", {"auto", "eager", "sdpa", "flash"}, "auto",
               "The attention kernel of the failed run" + fromConfig),
        "memory", {"memory"});
    add(choice("memory.ran_loss_impl", "Loss kernel it ran", {"auto", "standard", "fused", "tiled"}, "auto",
               "The loss kernel of the failed run" + fromConfig),
        "memory", {"memory"});
    add(choice("memory.ran_sequence_parallel", "Sequence-parallel size it ran",
               {"auto", "1", "2", "4", "8", "16", "32", "64", "128", "256"}, "auto",
               "The Ulysses degree of the failed run (1: none)" + fromConfig),
        "memory", {"memory"});
    add(choice("memory.ran_tiled_mlp", "Tiled MLP it ran", {"auto", "on", "off"}, "auto",
               "Whether the failed run used DeepSpeed's TiledMLP" + fromConfig),
        "memory", {"memory"});
    add(choice("memory.ran_checkpoint_offload", "Checkpoint offload it ran", {"auto", "on", "off"}, "auto",
               "Whether the failed run offloaded its checkpoints to host memory" + fromConfig),
        "memory", {"memory"});

    // DeepNVMe step.
    add(choice("nvme.tensor_location", "Tensors to read and write", {"cpu", "cuda"}, "cuda",
               "Whether the tensors you move to and from NVMe live in host (cpu) or GPU (cuda) memory."),
        "nvme", {"nvme"});
    add(boolean("nvme.gds", "GPUDirect Storage available", false,
                "Whether NVIDIA GPUDirect Storage (libcufile, nvidia-fs) is installed and working on the nodes."),
        "nvme", {"nvme"});

    // 1-bit Adam step.
    add(choice("onebit.comm_backend", "Communication backend", {"nccl", "mpi", "hccl", "compressed"}, "nccl",
               "comm_backend_name of the 1-bit optimizers."),
        "onebit", {"onebit"});

    // Sparse attention step.
    add(choice("sparse.pattern", "Sparse attention pattern",
               {"none", "auto", "fixed", "variable", "bigbird", "bslongformer"}, "none",
               "none leaves attention dense; auto picks a pattern from the sequence length and architecture."),
        "sparse", {"sparse"});
    add(integer("sparse.block", "Block size", 16, 1, 4096, "tokens",
                "Sparse attention block size; must divide the sequence length."),
        "sparse", {"sparse"});
}

const InputRegistry& InputRegistry::instance()
{
    // Never destroyed: it lives until the process ends, and freeing it at exit would only delay the exit.
    static const InputRegistry& registry = *new InputRegistry;
    return registry;
}

const InputSpec& InputRegistry::presetSpec() const
{
    // Reading the model catalog (models.tsv) is half the registry's cost: a project without a preset, and every
    // lookup of another input, never pays it. A local static, as instance(): once, whichever thread comes first
    // (std::call_once would cost every start more, in symbols to bind, than the catalog saves some).
    static const bool added = [this] {
        const ModelCatalog& catalog = ModelCatalog::instance();
        std::vector<std::string> values = {"none"};
        values.reserve(1 + catalog.all().size());
        for (const ModelSpec& model : catalog.all())
            values.push_back(model.id);
        m_specs.front().values = std::move(values);
        return true;
    }();
    (void)added;
    return m_specs.front();
}

const std::vector<InputSpec>& InputRegistry::all() const
{
    presetSpec();
    return m_specs;
}

const InputSpec* InputRegistry::find(const std::string& id) const
{
    auto it = std::find_if(m_specs.begin(), m_specs.end(), [&](const InputSpec& s) { return s.id == id; });
    if (it == m_specs.begin())
        return &presetSpec();
    return it == m_specs.end() ? nullptr : &*it;
}

std::vector<const InputSpec*> InputRegistry::onPage(const std::string& page) const
{
    if (page == m_specs.front().page)
        presetSpec();
    std::vector<const InputSpec*> out;
    for (const auto& s : m_specs)
        if (s.page == page)
            out.push_back(&s);
    return out;
}

std::string InputRegistry::allowed(const InputSpec& spec)
{
    auto join = [](const std::vector<std::string>& v) {
        std::string out;
        for (const auto& x : v)
            out += (out.empty() ? "" : ", ") + x;
        return out;
    };
    switch (spec.type) {
    case InputType::Count:
        return "a whole number from " + formatCount(static_cast<std::int64_t>(spec.min)) + " to "
            + formatCount(static_cast<std::int64_t>(spec.max)) + " (7B, 350M, 1.3e9 and 7000000000 are accepted)";
    case InputType::Integer: return "a whole number from " + formatNumber(spec.min) + " to " + formatNumber(spec.max);
    case InputType::Number:
        return "a number from " + formatNumber(spec.min) + " to " + formatNumber(spec.max)
            + (spec.unit == "GiB"
                   ? (spec.id == "hardware.nvme_capacity_gib"
                          ? " GiB (GiB, TiB, GB, TB also accepted; GB and TB are decimal, as SSDs are sold)"
                          : " GiB (GiB, TiB, GB, TB also accepted; GB and TB are read as GiB and TiB, "
                            "as memory is sized)")
                   : spec.unit == "Gbit/s" ? " Gbit/s (Gbps, Gb/s, Tbps and GB/s also accepted)"
                                           : std::string());
    case InputType::Choice: return "one of: " + join(spec.values);
    case InputType::Gpu: return "a GPU id: " + join(GpuCatalog::instance().ids());
    case InputType::Text: return "text of at most " + std::to_string(maxCharacters(spec)) + " characters";
    case InputType::Boolean: return "true or false";
    }
    return "";
}

std::size_t InputRegistry::maxCharacters(const InputSpec& spec)
{
    if (spec.type == InputType::Text)
        return spec.max > 0 ? static_cast<std::size_t>(spec.max) : 4096;
    return 64;
}

Result<nlohmann::json> InputRegistry::parse(const std::string& id, const std::string& text) const
{
    const InputSpec* spec = find(id);
    if (!spec)
        return Result<json>::failure("unknown input '" + id + "'; `ds-wizard keys` lists the inputs");
    // Long text is refused before it is parsed or quoted in a message (bounded work, bounded output).
    if (const std::size_t length = characterCount(text); length > maxCharacters(*spec))
        return Result<json>::failure(id + ": text of " + std::to_string(length) + " characters is longer than the "
                                     + std::to_string(maxCharacters(*spec)) + " allowed");
    auto bad = [&](const std::string& why) {
        return Result<json>::failure(id + ": \"" + text + "\" " + why + "; allowed: " + allowed(*spec));
    };
    const TypedUnit typed =
        spec->type == InputType::Count || spec->type == InputType::Integer || spec->type == InputType::Number
        ? splitUnit(*spec, text)
        : TypedUnit{text, 1, true};
    if (!typed.known)
        return bad("has a unit this input does not take");
    switch (spec->type) {
    case InputType::Count:
    case InputType::Integer: {
        auto n = parseCount(typed.number);
        if (!n)
            return bad("is not a whole number");
        if (spec->type == InputType::Integer && typed.number.find_first_of("kKmMbBgGtT") != std::string::npos)
            return bad("is not a plain whole number");
        if (*n < spec->min || *n > spec->max)
            return bad("is out of range");
        return json(*n);
    }
    case InputType::Number: {
        double v = 0;
        if (!parseDouble(typed.number, v))
            return bad("is not a number");
        v *= typed.factor;
        if (v < spec->min || v > spec->max)
            return bad("is out of range");
        return json(v);
    }
    case InputType::Choice:
        if (spec->id == "model.preset" && text != "none") { // a catalog id, any case; a miss names the nearest
            if (const ModelSpec* model = ModelCatalog::instance().find(text))
                return json(model->id);
            std::string nearest;
            for (const auto& id : ModelCatalog::instance().nearest(text))
                nearest += (nearest.empty() ? "" : ", ") + id;
            return Result<json>::failure(id + ": \"" + text + "\" is not a known model; nearest: " + nearest
                                         + " (`ds-wizard keys` lists all, or none)");
        }
        if (std::find(spec->values.begin(), spec->values.end(), text) == spec->values.end())
            return bad("is not a known value");
        return json(text);
    case InputType::Gpu: {
        const GpuSpec* gpu = GpuCatalog::instance().find(text);
        if (!gpu)
            return bad("is not a known GPU");
        return json(gpu->id);
    }
    case InputType::Text:
        try { // the two lists the step model reads; every other text is checked where it is used
            if (spec->id == "lora.targets")
                adapterTargetsFrom(text, MlpKind::SwiGlu);
            else if (spec->id == "lora.modules_to_save")
                modulesToSaveFrom(text);
        } catch (const std::invalid_argument& e) {
            return Result<json>::failure(e.what());
        }
        return json(text); // its length is checked above
    case InputType::Boolean:
        if (text == "true" || text == "yes" || text == "1")
            return json(true);
        if (text == "false" || text == "no" || text == "0")
            return json(false);
        return bad("is not true or false");
    }
    return bad("is not valid");
}

Result<nlohmann::json> InputRegistry::validate(const std::string& id, const nlohmann::json& value) const
{
    const InputSpec* spec = find(id);
    if (!spec)
        return Result<json>::failure("unknown input '" + id + "'");
    if (value.is_string())
        return parse(id, value.get<std::string>());
    if (value.is_boolean() && spec->type == InputType::Boolean)
        return json(value.get<bool>());
    if (value.is_number_integer() && spec->type == InputType::Choice)
        return parse(id, std::to_string(value.get<long long>())); // zero.stage written as a number
    if (value.is_number() && spec->type != InputType::Choice && spec->type != InputType::Gpu
        && spec->type != InputType::Text && spec->type != InputType::Boolean) {
        const double v = value.get<double>();
        if (!std::isfinite(v)) // JSON text has no NaN or infinity, but a value set in code can
            return Result<json>::failure(id + ": " + value.dump() + " is not a number; allowed: " + allowed(*spec));
        if (spec->type != InputType::Number && v != std::floor(v))
            return Result<json>::failure(id + ": " + value.dump()
                                         + " is not a whole number; allowed: " + allowed(*spec));
        if (v < spec->min || v > spec->max)
            return Result<json>::failure(id + ": " + value.dump() + " is out of range; allowed: " + allowed(*spec));
        return spec->type == InputType::Number ? json(v) : json(static_cast<std::int64_t>(v));
    }
    return Result<json>::failure(id + ": " + value.dump() + " has the wrong type; allowed: " + allowed(*spec));
}

} // namespace dsw
