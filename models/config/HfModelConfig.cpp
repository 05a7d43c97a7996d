#include "config/HfModelConfig.h"

#include "knowledge/DeepSpeedSchema.h"
#include "knowledge/MoeShape.h"
#include "project/InputRegistry.h"

#include <algorithm>
#include <array>
#include <cstdio>
#include <optional>
#include <string_view>

namespace dsw {

namespace {

using oj = nlohmann::ordered_json;

template <std::size_t N>
bool oneOf(const std::string& value, const std::array<std::string_view, N>& list)
{
    return std::find(list.begin(), list.end(), value) != list.end();
}

// Families whose MLP is gated (three matrices: gate, up, down), whatever the activation (SiLU, or GELU for Gemma).
// GPT-OSS's and OLMoE's experts are gated too (gate_up_proj; transformers' GptOssConfig and OlmoeConfig), and their
// counts read so agree with the published ones (tests/models/TestMoePlans.cpp).
// Sources (resources/knowledge/sources.tsv): gpt-oss-120b-card, olmoe-paper.
constexpr std::array<std::string_view, 21> kGatedFamilies = {
    "llama",     "mistral",     "mixtral",     "qwen2",       "qwen2_moe", "qwen3",   "qwen3_moe",
    "gemma",     "gemma2",      "gemma3",      "gemma3_text", "phi3",      "olmo",    "olmo2",
    "internlm2", "deepseek_v2", "deepseek_v3", "granite",     "cohere",    "gpt_oss", "olmoe"};
// Families whose config class defaults tie_word_embeddings to false (PretrainedConfig's default is true).
constexpr std::array<std::string_view, 11> kUntiedByDefault = {
    "llama", "mistral", "mixtral", "qwen2", "qwen3", "qwen2_moe", "qwen3_moe", "phi3", "olmo2", "gpt_oss", "olmoe"};
constexpr std::array<std::string_view, 7> kEncoders = {"bert",    "roberta", "deberta",   "deberta-v2",
                                                       "electra", "albert",  "distilbert"};
// Families with a learned position table (the others use rotary or relative positions).
constexpr std::array<std::string_view, 10> kLearnedPositions = {
    "gpt2", "gpt_bigcode", "gpt_neo", "opt", "bert", "roberta", "electra", "albert", "distilbert", "deberta"};
// Dropout keys of the families' configs, each a probability: BERT's hidden_dropout_prob and
// attention_probs_dropout_prob, GPT-2's resid_pdrop, attn_pdrop and embd_pdrop, attention_dropout and hidden_dropout
// (Llama, Qwen, Mistral, Gemma, Falcon, BLOOM), OPT's and BART's dropout, T5's dropout_rate.
constexpr std::array<const char*, 9> kDropoutKeys = {"hidden_dropout_prob", "attention_probs_dropout_prob",
                                                     "resid_pdrop",         "attn_pdrop",
                                                     "embd_pdrop",          "attention_dropout",
                                                     "hidden_dropout",      "dropout",
                                                     "dropout_rate"};
// Families whose config class defaults those keys to 0.1 (BertConfig, RobertaConfig, GPT2Config, T5Config), used when
// the config.json leaves them out. Sources (resources/knowledge/sources.tsv): hf-gpt2-dropout, bert-dropout.
constexpr std::array<std::string_view, 4> kDropoutByDefault = {"bert", "roberta", "gpt2", "t5"};
// Families with a bias on every linear and norm.
constexpr std::array<std::string_view, 9> kAllBiases = {"gpt2", "gpt_bigcode", "gpt_neo", "gpt_neox",  "opt",
                                                        "bert", "roberta",     "electra", "distilbert"};

struct Reader {
    const oj& json;
    std::string error; // the first problem, naming the key

    // The first of `keys` present and not null; error if it is not a positive whole number.
    std::optional<std::int64_t> whole(std::initializer_list<const char*> keys)
    {
        for (const char* key : keys) {
            auto it = json.find(key);
            if (it == json.end() || it->is_null())
                continue;
            if (!it->is_number_integer() || it->get<std::int64_t>() < 1) {
                if (error.empty())
                    error =
                        std::string("\"") + key + "\" is " + it->dump() + "; a whole number of at least 1 is needed";
                return std::nullopt;
            }
            return it->get<std::int64_t>();
        }
        return std::nullopt;
    }
    // The first of `keys` present and not null; error if it is not a whole number of at least 0.
    std::optional<std::int64_t> count(std::initializer_list<const char*> keys)
    {
        for (const char* key : keys) {
            auto it = json.find(key);
            if (it == json.end() || it->is_null())
                continue;
            if (!it->is_number_integer() || it->get<std::int64_t>() < 0) {
                if (error.empty())
                    error =
                        std::string("\"") + key + "\" is " + it->dump() + "; a whole number of at least 0 is needed";
                return std::nullopt;
            }
            return it->get<std::int64_t>();
        }
        return std::nullopt;
    }
    std::optional<std::string> text(const char* key) const
    {
        auto it = json.find(key);
        return it != json.end() && it->is_string() ? std::optional(it->get<std::string>()) : std::nullopt;
    }
    // The largest of `keys` present and not null; error if one is not a probability 0 ≤ p < 1.
    std::optional<double> probability(const std::array<const char*, 9>& keys)
    {
        std::optional<double> out;
        for (const char* key : keys) {
            auto it = json.find(key);
            if (it == json.end() || it->is_null())
                continue;
            if (!it->is_number() || !(it->get<double>() >= 0 && it->get<double>() < 1)) {
                if (error.empty())
                    error =
                        std::string("\"") + key + "\" is " + it->dump() + "; a probability from 0 to below 1 is needed";
                return std::nullopt;
            }
            out = std::max(out.value_or(0.0), it->get<double>());
        }
        return out;
    }
    std::optional<bool> flag(const char* key)
    {
        auto it = json.find(key);
        if (it == json.end() || it->is_null())
            return std::nullopt;
        if (!it->is_boolean()) {
            if (error.empty())
                error = std::string("\"") + key + "\" is " + it->dump() + "; true or false is needed";
            return std::nullopt;
        }
        return it->get<bool>();
    }
};

std::string formatProbability(double p)
{
    char text[32];
    std::snprintf(text, sizeof text, "%g", p);
    return text;
}

std::string names(std::initializer_list<const char*> keys)
{
    std::string out;
    for (const char* k : keys)
        out += (out.empty() ? "\"" : " or \"") + std::string(k) + "\"";
    return out;
}

// Qwen2-MoE (Qwen1.5-MoE, Qwen2-57B-A14B) gives its shared expert as one MLP of shared_expert_intermediate_size
// rather than a count: as many experts of the routed width (5632 = 4 × 1408 for Qwen1.5-MoE-A2.7B). Its sigmoid gate,
// hidden × 1 per layer, is left out.
void sharedExpertsFromWidth(std::int64_t sharedWidth, std::int64_t expertWidth, HfModelImport& out)
{
    if (expertWidth <= 0)
        return;
    const std::int64_t experts = std::max<std::int64_t>(1, (sharedWidth + expertWidth / 2) / expertWidth);
    out.moe.emplace_back("model.shared_experts", experts);
    if (experts * expertWidth != sharedWidth)
        out.notes.push_back("shared_expert_intermediate_size " + std::to_string(sharedWidth)
                            + " is not a multiple of the experts' width " + std::to_string(expertWidth) + ": sized as "
                            + std::to_string(experts) + " shared experts of that width");
}

// Qwen-MoE's mlp_only_layers lists the layers with a dense MLP; they are counted as that many leading dense layers
// (their place changes no total, only which pipeline stage holds them).
std::int64_t mlpOnlyLayers(const oj& json)
{
    const auto it = json.find("mlp_only_layers");
    if (it == json.end() || !it->is_array())
        return 0;
    return std::count_if(it->begin(), it->end(), [](const oj& layer) { return layer.is_number_integer(); });
}

} // namespace

ConfigFileKind classifyConfigFile(const oj& json)
{
    if (!json.is_object())
        return ConfigFileKind::DeepSpeed; // the importer's own error ("must be an object") says what is wrong
    const auto type = json.find("model_type");
    const auto architectures = json.find("architectures");
    if ((type != json.end() && type->is_string())
        || (architectures != json.end() && architectures->is_array() && !architectures->empty()
            && (*architectures)[0].is_string()))
        return ConfigFileKind::HuggingFaceModel;
    if (json.empty())
        return ConfigFileKind::DeepSpeed;
    const DeepSpeedSchema& schema = DeepSpeedSchema::instance();
    for (const auto& item : json.items())
        if (schema.key("", item.key()) || schema.block(item.key()) || schema.nearestKey("", item.key())
            || schema.relocation("", item.key()))
            return ConfigFileKind::DeepSpeed;
    return ConfigFileKind::Neither;
}

Result<HfModelImport> readHfModelConfig(const oj& json)
{
    auto fail = [](const std::string& why) {
        return Result<HfModelImport>::failure("Hugging Face config.json: " + why);
    };
    if (!json.is_object())
        return fail("the file is not a JSON object");
    HfModelImport out;
    Reader r{json, {}};
    out.modelType = r.text("model_type").value_or("");
    if (const auto a = json.find("architectures");
        a != json.end() && a->is_array() && !a->empty() && (*a)[0].is_string())
        out.architecture = (*a)[0].get<std::string>();
    if (out.modelType.empty() && out.architecture.empty())
        return fail("neither \"model_type\" nor \"architectures\" is given");
    const std::string& family = out.modelType;

    TransformerShape& s = out.shape;
    const auto hidden = r.whole({"hidden_size", "n_embd", "d_model"});
    const auto layers = r.whole({"num_hidden_layers", "n_layer", "num_layers"});
    const auto heads = r.whole({"num_attention_heads", "n_head", "num_heads"});
    const auto vocab = r.whole({"vocab_size"});
    if (!r.error.empty())
        return fail(r.error);
    if (!hidden)
        return fail(names({"hidden_size", "n_embd", "d_model"}) + " (the hidden size) is missing");
    if (!layers)
        return fail(names({"num_hidden_layers", "n_layer", "num_layers"}) + " (the layer count) is missing");
    if (!heads)
        return fail(names({"num_attention_heads", "n_head", "num_heads"}) + " (the attention heads) is missing");
    if (!vocab)
        return fail("\"vocab_size\" is missing");
    s.hidden = *hidden;
    s.heads = *heads;
    s.vocab = *vocab;
    s.layers = *layers;

    const bool encoderDecoder = r.flag("is_encoder_decoder").value_or(false);
    if (encoderDecoder) { // T5: num_layers encoder blocks, num_decoder_layers (default the same) decoder blocks
        const auto decoder = r.whole({"num_decoder_layers"});
        s.crossAttentionLayers = decoder.value_or(*layers);
        s.layers = *layers + s.crossAttentionLayers;
        out.notes.push_back("encoder-decoder: model.layers counts the " + std::to_string(*layers) + " encoder and "
                            + std::to_string(s.crossAttentionLayers) + " decoder blocks");
    }
    if (r.flag("multi_query").value_or(false))
        s.kvHeads = 1;
    else
        s.kvHeads = r.whole({"num_key_value_heads", "num_kv_heads"}).value_or(s.heads);
    s.headDim = r.whole({"head_dim", "d_kv"}).value_or(0);

    // The MLP: gated (three matrices) for the Llama-like families and T5's "gated-*"; two matrices otherwise.
    const std::string act = r.text("hidden_act").value_or(r.text("activation_function").value_or(""));
    const std::string t5Proj = r.text("feed_forward_proj").value_or("");
    if (oneOf(family, kGatedFamilies) || t5Proj.rfind("gated-", 0) == 0) {
        s.mlp = MlpKind::SwiGlu;
    } else if (family.empty() || !oneOf(family, kEncoders)) {
        s.mlp = act == "silu" || act == "swish" ? MlpKind::SwiGlu : MlpKind::Gelu;
        if (s.mlp == MlpKind::SwiGlu)
            out.notes.push_back("model_type \"" + family + "\" is not one ds-wizard knows: its " + act
                                + " MLP is taken as gated (swiglu)");
    }
    s.intermediate = r.whole({"intermediate_size", "n_inner", "d_ff", "ffn_dim"}).value_or(0);
    if (s.intermediate == 0) {
        s.intermediate = defaultIntermediate(s.hidden, s.mlp);
        if (s.mlp == MlpKind::Gelu)
            out.notes.push_back("no intermediate size: 4 × hidden (" + std::to_string(s.intermediate) + "), as GPT-2");
        else
            out.notes.push_back("no intermediate size: " + std::to_string(s.intermediate) + " (8h/3, to 256)");
    }
    s.norm =
        json.contains("rms_norm_eps") || family == "t5" || family == "mt5" ? NormKind::RmsNorm : NormKind::LayerNorm;
    if (const auto tied = r.flag("tie_word_embeddings"))
        s.tiedEmbeddings = *tied;
    else
        s.tiedEmbeddings = !oneOf(family, kUntiedByDefault); // the config classes' own defaults
    if (oneOf(family, kAllBiases))
        s.bias = LinearBias::All;
    else if (family == "qwen2" || family == "qwen2_moe" || r.flag("attention_bias").value_or(false))
        s.bias = LinearBias::Qkv;
    out.maxPosition = r.whole({"max_position_embeddings", "n_positions"}).value_or(0);
    if (oneOf(family, kLearnedPositions))
        s.learnedPositions = out.maxPosition;
    if (const auto dropout = r.probability(kDropoutKeys)) {
        out.dropout = *dropout;
    } else if (oneOf(family, kDropoutByDefault)) {
        out.dropout = 0.1;
        out.notes.push_back("no dropout key: 0.1, the " + family + " config class's default");
    }
    // Routed experts per MoE layer: Mixtral's num_local_experts, Qwen-MoE's num_experts, DeepSeek's n_routed_experts.
    // 0 (some dense configs write it) and 1 are a dense model.
    if (const auto experts = r.count({"num_local_experts", "num_experts", "n_routed_experts"});
        experts && *experts > 1) {
        out.experts = *experts;
        const auto perToken = r.count({"num_experts_per_tok"});
        // The rest of the MoE shape as each family spells it (knowledge/MoeShape.h).
        if (perToken && *perToken >= 1)
            out.moe.emplace_back("model.experts_per_token", *perToken);
        if (const auto width = r.count({"moe_intermediate_size"}); width && *width > 0)
            out.moe.emplace_back("model.expert_intermediate_size", *width);
        if (const auto shared = r.count({"n_shared_experts"}); shared && *shared > 0)
            out.moe.emplace_back("model.shared_experts", *shared);
        else if (const auto sharedWidth = r.count({"shared_expert_intermediate_size"}); sharedWidth && *sharedWidth > 0)
            sharedExpertsFromWidth(*sharedWidth, r.count({"moe_intermediate_size"}).value_or(s.intermediate), out);
        if (const auto dense = r.count({"first_k_dense_replace"}); dense && *dense > 0)
            out.moe.emplace_back("model.dense_layers", *dense);
        if (const auto dense = mlpOnlyLayers(json); dense > 0 && !r.count({"first_k_dense_replace"}))
            out.moe.emplace_back("model.dense_layers", dense);
        if (const auto step = r.count({"decoder_sparse_step"}); step && *step > 1)
            out.moe.emplace_back("model.moe_layer_interval", *step);
        out.moe.emplace_back("moe.autoep_preset", std::string(autoEpPresetFor(family)));
        // DeepSeek's multi-head latent attention (kv_lora_rank) is read as standard attention of the same heads.
        if (const auto latent = r.count({"kv_lora_rank"}); latent && *latent > 0)
            out.notes.push_back("multi-head latent attention (kv_lora_rank " + std::to_string(*latent)
                                + ") is sized as standard attention of the same heads: its parameters and "
                                  "activations are approximate (the experts, most of the model, are not)");
        out.notes.push_back("a mixture-of-experts model, " + std::to_string(*experts) + " experts per MoE layer"
                            + (perToken ? " (" + std::to_string(*perToken) + " per token)" : std::string())
                            + ", model.experts " + std::to_string(*experts)
                            + ": every page sizes all its experts and computes with those a token uses");
    }
    if (!r.error.empty())
        return fail(r.error);
    if (auto error = shapeError(s))
        return fail(*error);

    const std::string architecture = encoderDecoder ? "encoder-decoder"
        : oneOf(family, kEncoders)                  ? "encoder"
                                                    : "decoder";
    out.answers = {{"model.preset", "none"},
                   {"model.hidden_size", s.hidden},
                   {"model.layers", s.layers},
                   {"model.attention_heads", s.heads},
                   {"model.kv_heads", s.kvHeads},
                   {"model.intermediate_size", s.intermediate},
                   {"model.vocab_size", s.vocab},
                   {"model.mlp", std::string(toString(s.mlp))},
                   {"model.norm", std::string(toString(s.norm))},
                   {"model.tied_embeddings", s.tiedEmbeddings},
                   {"model.architecture", architecture},
                   {"model.max_position", out.maxPosition}, // 0 (unknown) when the config gives none
                   {"model.dropout", out.dropout},
                   {"model.experts", out.experts}}; // 1 for a dense model, replacing an earlier MoE answer
    // An MoE's own answers; a dense model's are their defaults again, replacing an earlier MoE's.
    for (const char* id : {"model.experts_per_token", "model.expert_intermediate_size", "model.shared_experts",
                           "model.dense_layers", "model.moe_layer_interval", "moe.autoep_preset"}) {
        const auto given = std::find_if(out.moe.begin(), out.moe.end(), [&](const auto& a) { return a.first == id; });
        const nlohmann::json& fallback = InputRegistry::instance().find(id)->defaultValue;
        out.answers.emplace_back(id,
                                 given != out.moe.end()   ? given->second
                                     : fallback.is_null() ? nlohmann::json("none") // moe.autoep_preset, derived
                                                          : fallback);
    }
    if (s.headDim > 0 && s.headDim != s.hidden / s.heads)
        out.answers.emplace_back("model.head_dim", s.headDim);
    for (auto& [id, value] : out.answers) {
        auto valid = InputRegistry::instance().validate(id, value);
        if (!valid)
            return fail(valid.error());
        value = valid.value();
    }
    if (out.maxPosition > 0)
        out.notes.push_back("max_position_embeddings " + std::to_string(out.maxPosition)
                            + " is the longest context (model.max_position); model.seq_len (the training length) is "
                              "not changed, and a longer one is warned about");
    if (out.dropout > 0)
        out.notes.push_back("dropout " + formatProbability(out.dropout)
                            + " (model.dropout): the activations count its masks, applied to the attention "
                              "probabilities and both residual branches");
    return out;
}

} // namespace dsw
