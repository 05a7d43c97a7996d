#include "knowledge/GpuCatalog.h"

#include "knowledge/KnowledgeFiles.h"
#include "knowledge/KnowledgeTable.h"
#include "util/Utf8.h"

#include <algorithm>
#include <charconv>
#include <cmath>

namespace dsw {

std::optional<double> GpuSpec::computeCapabilityNumber() const
{
    double value = 0;
    auto [end, ec] =
        std::from_chars(computeCapability.data(), computeCapability.data() + computeCapability.size(), value);
    if (ec != std::errc() || end != computeCapability.data() + computeCapability.size())
        return std::nullopt;
    return value;
}

Result<std::vector<GpuSpec>> readGpus(std::string_view tsv)
{
    static constexpr std::string_view columns[] = {"id",
                                                   "name",
                                                   "vendor",
                                                   "architecture",
                                                   "compute_capability",
                                                   "memory_gb",
                                                   "memory_vendor_stated",
                                                   "bf16_supported",
                                                   "fp8_supported_how",
                                                   "bf16_dense_tflops",
                                                   "fp16_tensor_dense_tflops",
                                                   "intra_node_link",
                                                   "source_url",
                                                   "verification"};
    using Gpus = Result<std::vector<GpuSpec>>;
    auto rows = readKnowledgeTable(tsv, "gpus.tsv", columns);
    if (!rows)
        return Gpus::failure(rows.error());
    std::vector<GpuSpec> gpus;
    for (const KnowledgeRow& r : rows.value()) {
        const auto cell = [&](std::size_t c) { return std::string(r.cells[c]); };
        const std::string_view memory = r.cells[5], bf16 = r.cells[7];
        double gb = 0;
        const auto [end, ec] = std::from_chars(memory.data(), memory.data() + memory.size(), gb);
        if (ec != std::errc() || end != memory.data() + memory.size() || !(gb > 0) || !std::isfinite(gb))
            return Gpus::failure(r.where + ": memory_gb \"" + std::string(memory)
                                 + "\" is not a positive number of GB");
        if (bf16 != "y" && bf16 != "n")
            return Gpus::failure(r.where + ": bf16_supported \"" + std::string(bf16) + "\" must be y or n");
        gpus.push_back({cell(0), cell(2), cell(3), cell(4), gb, bf16 == "y", cell(9), cell(10), cell(11)});
    }
    return gpus;
}

const GpuCatalog& GpuCatalog::instance()
{
    // Never destroyed: it lives until the process ends, and freeing it at exit would only delay the exit.
    static const GpuCatalog& catalog = *new GpuCatalog(readGpus(knowledgeFile("gpus.tsv")).orThrow());
    return catalog;
}

const GpuSpec* GpuCatalog::find(const std::string& id) const
{
    const std::string wanted = asciiLower(id);
    const auto it =
        std::find_if(m_gpus.begin(), m_gpus.end(), [&](const GpuSpec& g) { return asciiLower(g.id) == wanted; });
    return it == m_gpus.end() ? nullptr : &*it;
}

std::vector<std::string> GpuCatalog::ids() const
{
    std::vector<std::string> out;
    for (const GpuSpec& g : m_gpus)
        out.push_back(g.id);
    return out;
}

} // namespace dsw
