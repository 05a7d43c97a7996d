#include "project/Answers.h"

#include "knowledge/AttentionDefault.h"
#include "knowledge/GpuCatalog.h"
#include "knowledge/ParameterCount.h"
#include "project/InputRegistry.h"

#include <algorithm>
#include <array>
#include <set>

namespace dsw {

nlohmann::json Answers::value(const std::string& id) const
{
    if (auto it = m_values.find(id); it != m_values.end())
        return it->second;
    if (auto supplied = fromPreset(id); !supplied.is_null())
        return supplied;
    const InputSpec* spec = InputRegistry::instance().find(id);
    if (spec && !spec->derivedDefault.empty())
        return derived(id);
    return spec ? spec->defaultValue : nlohmann::json();
}

std::int64_t Answers::integer(const std::string& id) const
{
    const auto v = value(id);
    if (v.is_number())
        return v.get<std::int64_t>();
    if (v.is_string())
        return std::stoll(v.get<std::string>()); // choices such as zero.stage "2"
    return 0;
}

double Answers::number(const std::string& id) const
{
    const auto v = value(id);
    return v.is_number() ? v.get<double>() : 0.0;
}

std::string Answers::text(const std::string& id) const
{
    const auto v = value(id);
    return v.is_string() ? v.get<std::string>() : std::string();
}

std::int64_t Answers::totalGpus() const { return integer("hardware.gpus_per_node") * integer("hardware.nodes"); }

std::int64_t Answers::dataParallelSize() const
{
    // Pipeline stages split the GPUs; DeepSpeed's world size for the batch identity is the
    // data-parallel size (deepspeed-facts §2.1). A count that does not divide is the pipeline's failed check.
    const std::int64_t stages = std::max<std::int64_t>(1, integer("pipeline.stages"));
    return std::max<std::int64_t>(1, totalGpus() / stages);
}

std::int64_t Answers::batchWorldSize() const
{
    const std::string sp = text("parallel.sequence_parallel_size");
    const std::int64_t degree =
        sp.empty() || sp == "auto" ? 1 : std::max<std::int64_t>(1, integer("parallel.sequence_parallel_size"));
    return std::max<std::int64_t>(1, dataParallelSize() / degree);
}

namespace {
// The answers a preset supplies and that describe the model (model.params is derived from them).
constexpr std::array<const char*, 10> kShapeIds = {"model.hidden_size",    "model.layers",   "model.attention_heads",
                                                   "model.kv_heads",       "model.head_dim", "model.intermediate_size",
                                                   "model.vocab_size",     "model.mlp",      "model.norm",
                                                   "model.tied_embeddings"};
} // namespace

const ModelSpec* Answers::preset() const
{
    auto it = m_values.find("model.preset");
    if (it == m_values.end() || !it->second.is_string())
        return nullptr;
    return ModelCatalog::instance().find(it->second.get<std::string>());
}

nlohmann::json Answers::fromPreset(const std::string& id) const
{
    if (id.rfind("model.", 0) != 0 || id == "model.preset")
        return nullptr;
    const ModelSpec* m = preset();
    if (!m)
        return nullptr;
    const TransformerShape& s = m->shape;
    // One answer per line reads as the table it is.
    // clang-format off
    if (id == "model.hidden_size") return s.hidden;
    if (id == "model.layers") return s.layers;
    if (id == "model.attention_heads") return s.heads;
    if (id == "model.kv_heads") return s.kvHeads;
    if (id == "model.head_dim") return s.headWidth();
    if (id == "model.intermediate_size") return s.intermediate;
    if (id == "model.vocab_size") return s.vocab;
    if (id == "model.mlp") return std::string(toString(s.mlp));
    if (id == "model.norm") return std::string(toString(s.norm));
    if (id == "model.tied_embeddings") return s.tiedEmbeddings;
    if (id == "model.architecture") return m->architecture;
    if (id == "model.max_position") return m->maxPosition;
    if (id == "model.dropout") return m->dropout;
    if (id == "model.experts") return m->moe.experts;
    if (!m->moe.moe()) return nullptr; // the MoE answers keep their defaults
    if (id == "model.experts_per_token") return m->moe.expertsPerToken;
    if (id == "model.expert_intermediate_size") return m->moe.expertIntermediate;
    if (id == "model.shared_experts") return m->moe.sharedExperts;
    if (id == "model.dense_layers") return m->moe.denseLayers;
    if (id == "model.moe_layer_interval") return m->moe.layerInterval;
    // clang-format on
    return nullptr;
}

bool Answers::presetSupplies(const std::string& id) const { return !has(id) && !fromPreset(id).is_null(); }

bool Answers::describesShape() const
{
    if (preset())
        return true;
    return std::any_of(kShapeIds.begin(), kShapeIds.end(), [&](const char* id) { return has(id); });
}

TransformerShape Answers::modelShape() const
{
    TransformerShape s;
    if (const ModelSpec* m = preset()) // what the catalog knows beyond the registry's inputs
        s = m->shape;
    s.hidden = integer("model.hidden_size");
    s.layers = integer("model.layers");
    s.heads = integer("model.attention_heads");
    s.kvHeads = integer("model.kv_heads");
    s.vocab = integer("model.vocab_size");
    s.mlp = mlpKindFrom(text("model.mlp")).value_or(MlpKind::Gelu);
    s.norm = normKindFrom(text("model.norm")).value_or(NormKind::LayerNorm);
    const auto tied = value("model.tied_embeddings");
    s.tiedEmbeddings = tied.is_boolean() && tied.get<bool>();
    s.intermediate = integer("model.intermediate_size");
    s.headDim = integer("model.head_dim");
    s.crossAttentionLayers = std::min(s.crossAttentionLayers, s.layers);
    return s;
}

nlohmann::json Answers::derived(const std::string& id) const
{
    if (id == "model.kv_heads")
        return integer("model.attention_heads");
    if (id == "model.head_dim") {
        const std::int64_t heads = integer("model.attention_heads");
        return heads > 0 ? integer("model.hidden_size") / heads : 0;
    }
    if (id == "model.intermediate_size")
        return defaultIntermediate(integer("model.hidden_size"),
                                   mlpKindFrom(text("model.mlp")).value_or(MlpKind::Gelu));
    if (id == "model.params") {
        if (!describesShape())
            return 7000000000LL; // the historic default model, 7B
        // A shape that contradicts itself is an input error of its own (ModelChecks); the advisors keep the 7B
        // default meanwhile. A count beyond what model.params accepts is held at its maximum.
        const TransformerShape shape = modelShape();
        if (shapeError(shape))
            return 7000000000LL;
        const InputSpec* spec = InputRegistry::instance().find("model.params");
        return std::min(parameterCount(shape), static_cast<std::int64_t>(spec ? spec->max : 1e14));
    }
    if (id == "moe.autoep_preset")
        return std::string(autoEpPresetFor(preset() ? preset()->modelType : std::string()));
    if (id == "model.attention_impl")
        return std::string(toString(
            defaultAttentionImpl(GpuCatalog::instance().find(text("hardware.gpu")), text("software.torch_version"))
                .impl));
    if (id == "hardware.mfu")
        return 0.0; // not given: the step model's calibrated efficiency (estimate/StepTime.h)
    if (id == "model.largest_layer_params")
        return integer("model.vocab_size") * integer("model.hidden_size");
    if (id == "hardware.gpu_memory_gib") {
        const GpuSpec* gpu = GpuCatalog::instance().find(text("hardware.gpu"));
        return gpu ? gpu->usableGib : 0.0; // as PyTorch reports it (GpuSpec::usableGib)
    }
    if (id == "hardware.nics_per_node") {
        // DGX and HGX nodes of SXM GPUs ship one InfiniBand NIC per GPU: DGX A100 8 × HDR, DGX H100 8 × NDR ConnectX-7
        // (../shared/knowledge/literature.md, "DGX/HGX node scale-out", V3: the datasheets were not re-read); H200 and
        // B200 nodes, and RoCE at 200 Gb/s, are the wizard's assumption of the same layout. Ethernet is one port, and
        // the EFA figure is already the instance's (networks.tsv).
        static const std::set<std::string> oneNicPerGpu = {"A100-40GB", "A100-80GB", "H100-80GB", "H200", "B200"};
        static const std::set<std::string> perGpuNetworks = {"infiniband-ndr", "infiniband-hdr", "roce-200g"};
        const GpuSpec* gpu = GpuCatalog::instance().find(text("hardware.gpu"));
        if (gpu && oneNicPerGpu.count(gpu->id) && perGpuNetworks.count(text("hardware.inter_node_network")))
            return std::clamp<std::int64_t>(integer("hardware.gpus_per_node"), 1, 64);
        return 1;
    }
    if (id == "training.global_batch_size")
        return integer("training.micro_batch_size") * integer("training.gradient_accumulation_steps")
            * batchWorldSize();
    return nullptr;
}

} // namespace dsw
