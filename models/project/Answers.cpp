#include "project/Answers.h"

#include "knowledge/GpuCatalog.h"
#include "project/InputRegistry.h"

#include <algorithm>

namespace dsw {

nlohmann::json Answers::value(const std::string& id) const
{
    if (auto it = m_values.find(id); it != m_values.end())
        return it->second;
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

nlohmann::json Answers::derived(const std::string& id) const
{
    if (id == "model.largest_layer_params")
        return integer("model.vocab_size") * integer("model.hidden_size");
    if (id == "hardware.gpu_memory_gib") {
        const GpuSpec* gpu = GpuCatalog::instance().find(text("hardware.gpu"));
        return gpu ? gpu->memoryGb : 0.0;
    }
    if (id == "training.global_batch_size")
        return integer("training.micro_batch_size") * integer("training.gradient_accumulation_steps")
            * dataParallelSize();
    return nullptr;
}

} // namespace dsw
