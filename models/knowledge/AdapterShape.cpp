// What a training method trains and freezes; see AdapterShape.h.
#include "knowledge/AdapterShape.h"

#include "util/CheckedMath.h"

#include <algorithm>
#include <stdexcept>

namespace dsw {

namespace {

struct ModuleName {
    std::string_view name;
    LinearModule module;
};
// PEFT's names in Llama-style models, and the GELU MLP's fc1/fc2 as up and down.
constexpr ModuleName kModuleNames[] = {
    {"q_proj", LinearModule::Q},       {"k_proj", LinearModule::K},       {"v_proj", LinearModule::V},
    {"o_proj", LinearModule::O},       {"gate_proj", LinearModule::Gate}, {"up_proj", LinearModule::Up},
    {"down_proj", LinearModule::Down}, {"fc1", LinearModule::Up},         {"fc2", LinearModule::Down},
    {"lm_head", LinearModule::LmHead},
};

std::string_view trim(std::string_view s)
{
    while (!s.empty() && (s.front() == ' ' || s.front() == '\t'))
        s.remove_prefix(1);
    while (!s.empty() && (s.back() == ' ' || s.back() == '\t'))
        s.remove_suffix(1);
    return s;
}

std::vector<std::string_view> commaList(std::string_view text)
{
    std::vector<std::string_view> items;
    while (!text.empty()) {
        const std::size_t comma = text.find(',');
        const std::string_view item = trim(text.substr(0, comma));
        if (!item.empty())
            items.push_back(item);
        if (comma == std::string_view::npos)
            break;
        text.remove_prefix(comma + 1);
    }
    return items;
}

std::vector<LinearModule> blockModules(MlpKind mlp)
{
    std::vector<LinearModule> m{LinearModule::Q, LinearModule::K, LinearModule::V, LinearModule::O};
    if (mlp == MlpKind::SwiGlu)
        m.push_back(LinearModule::Gate);
    m.push_back(LinearModule::Up);
    m.push_back(LinearModule::Down);
    return m;
}

} // namespace

std::string_view toString(TrainingMethod method)
{
    return method == TrainingMethod::Lora ? "lora" : method == TrainingMethod::Qlora ? "qlora" : "full";
}

std::optional<TrainingMethod> trainingMethodFrom(std::string_view text)
{
    if (text == "full")
        return TrainingMethod::Full;
    if (text == "lora")
        return TrainingMethod::Lora;
    if (text == "qlora")
        return TrainingMethod::Qlora;
    return std::nullopt;
}

std::string_view toString(LinearModule module)
{
    for (const ModuleName& n : kModuleNames)
        if (n.module == module)
            return n.name;
    return "";
}

std::vector<LinearModule> adapterTargetsFrom(std::string_view text, MlpKind mlp)
{
    text = trim(text);
    if (text == "all-linear")
        return blockModules(mlp);
    if (text == "attention")
        return {LinearModule::Q, LinearModule::K, LinearModule::V, LinearModule::O};
    std::vector<LinearModule> targets;
    for (const std::string_view item : commaList(text)) {
        const auto* found = std::find_if(std::begin(kModuleNames), std::end(kModuleNames),
                                         [&](const ModuleName& n) { return n.name == item; });
        if (found == std::end(kModuleNames) || (found->module == LinearModule::Gate && mlp != MlpKind::SwiGlu))
            throw std::invalid_argument(
                "lora.targets: \"" + std::string(item)
                + "\" is not a linear module of this model; allowed: attention, all-linear, or a comma list of "
                + (mlp == MlpKind::SwiGlu ? "q_proj, k_proj, v_proj, o_proj, gate_proj, up_proj, down_proj, lm_head"
                                          : "q_proj, k_proj, v_proj, o_proj, up_proj (fc1), down_proj (fc2), lm_head"));
        if (std::find(targets.begin(), targets.end(), found->module) == targets.end())
            targets.push_back(found->module);
    }
    if (targets.empty())
        throw std::invalid_argument("lora.targets: empty; allowed: attention, all-linear, or a comma list of module "
                                    "names (q_proj, v_proj, …)");
    return targets;
}

std::vector<std::string> modulesToSaveFrom(std::string_view text)
{
    std::vector<std::string> modules;
    for (const std::string_view item : commaList(text)) {
        if (item != "embed_tokens" && item != "lm_head")
            throw std::invalid_argument("lora.modules_to_save: \"" + std::string(item)
                                        + "\" is not sized; allowed: embed_tokens, lm_head (a comma list, or empty)");
        if (std::find(modules.begin(), modules.end(), item) == modules.end())
            modules.emplace_back(item);
    }
    return modules;
}

LinearWidths linearWidths(const TransformerShape& s, LinearModule module)
{
    const std::int64_t h = s.hidden, q = mulSat(s.heads, s.headWidth()), kv = mulSat(s.kvHeads, s.headWidth());
    switch (module) {
    case LinearModule::Q: return {h, q};
    case LinearModule::K:
    case LinearModule::V: return {h, kv};
    case LinearModule::O: return {q, h};
    case LinearModule::Gate:
    case LinearModule::Up: return {h, s.intermediate};
    case LinearModule::Down: return {s.intermediate, h};
    case LinearModule::LmHead: return {h, s.vocab};
    }
    return {};
}

std::int64_t adapterParamsPerLayer(const TransformerShape& shape, const AdapterSpec& spec)
{
    std::int64_t sum = 0;
    for (const LinearModule m : spec.targets)
        if (m != LinearModule::LmHead) {
            const LinearWidths w = linearWidths(shape, m);
            sum = addSat(sum, mulSat(spec.rank, addSat(w.in, w.out)));
        }
    return sum;
}

std::int64_t adapterInputWidthPerLayer(const TransformerShape& shape, const AdapterSpec& spec)
{
    std::int64_t sum = 0;
    for (const LinearModule m : spec.targets)
        if (m != LinearModule::LmHead)
            sum = addSat(sum, linearWidths(shape, m).in);
    return sum;
}

std::int64_t adapterTargetsPerLayer(const AdapterSpec& spec)
{
    return std::count_if(spec.targets.begin(), spec.targets.end(),
                         [](LinearModule m) { return m != LinearModule::LmHead; });
}

std::int64_t linearWeightsPerLayer(const TransformerShape& shape)
{
    std::int64_t sum = 0;
    for (const LinearModule m : blockModules(shape.mlp)) {
        const LinearWidths w = linearWidths(shape, m);
        sum = addSat(sum, mulSat(w.in, w.out));
    }
    return sum;
}

double nf4ConstantBytesPerWeight(bool doubleQuant) { return doubleQuant ? 1.0 / 64 + 4.0 / (64 * 256) : 4.0 / 64; }

MethodSizes methodSizes(const TransformerShape& shape, std::int64_t totalParams, TrainingMethod method,
                        const AdapterSpec& spec)
{
    MethodSizes m;
    m.method = method;
    m.total = totalParams;
    if (method == TrainingMethod::Full) {
        m.trainable = totalParams;
        return m;
    }
    m.adapters = mulSat(shape.layers, adapterParamsPerLayer(shape, spec));
    if (std::find(spec.targets.begin(), spec.targets.end(), LinearModule::LmHead) != spec.targets.end())
        m.adapters = addSat(m.adapters, mulSat(spec.rank, addSat(shape.hidden, shape.vocab)));
    m.saved = mulSat(static_cast<std::int64_t>(spec.modulesToSave.size()), mulSat(shape.vocab, shape.hidden));
    m.trainable = addSat(m.adapters, m.saved);
    m.frozen = totalParams;
    if (method == TrainingMethod::Qlora)
        m.quantized = std::min(totalParams, mulSat(shape.layers, linearWeightsPerLayer(shape)));
    return m;
}

} // namespace dsw
