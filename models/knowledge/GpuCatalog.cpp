#include "knowledge/GpuCatalog.h"

#include "knowledge/KnowledgeFiles.h"
#include "util/TsvTable.h"

#include <algorithm>
#include <cctype>
#include <charconv>

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

const GpuCatalog& GpuCatalog::instance()
{
    static const GpuCatalog catalog(knowledgeFile("gpus.tsv"));
    return catalog;
}

GpuCatalog::GpuCatalog(std::string_view tsv)
{
    const TsvTable table(tsv);
    for (std::size_t r = 0; r < table.rowCount(); ++r) {
        auto row = [&](std::string_view column) { return std::string(table.cell(r, column)); };
        GpuSpec g;
        g.id = row("id");
        g.name = row("name");
        g.vendor = row("vendor");
        g.architecture = row("architecture");
        g.computeCapability = row("compute_capability");
        g.memoryGb = std::stod(row("memory_gb"));
        g.memoryStated = row("memory_vendor_stated");
        g.bf16 = row("bf16_supported") == "y";
        g.fp8How = row("fp8_supported_how");
        g.bf16DenseTflops = row("bf16_dense_tflops");
        g.fp16DenseTflops = row("fp16_tensor_dense_tflops");
        g.intraNodeLink = row("intra_node_link");
        g.sourceUrl = row("source_url");
        g.verification = row("verification");
        m_gpus.push_back(std::move(g));
    }
}

const GpuSpec* GpuCatalog::find(const std::string& id) const
{
    // The ids compared ignoring case (std::toupper byte by byte), without building strings: every plan looks the
    // GPU up often.
    auto same = [&](const std::string& x) {
        return x.size() == id.size()
            && std::equal(x.begin(), x.end(), id.begin(),
                          [](unsigned char a, unsigned char b) { return std::toupper(a) == std::toupper(b); });
    };
    auto it = std::find_if(m_gpus.begin(), m_gpus.end(), [&](const GpuSpec& g) { return same(g.id); });
    return it == m_gpus.end() ? nullptr : &*it;
}

std::vector<std::string> GpuCatalog::ids() const
{
    std::vector<std::string> out;
    for (const auto& g : m_gpus)
        out.push_back(g.id);
    return out;
}

} // namespace dsw
