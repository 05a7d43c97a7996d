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
    // Never destroyed: it lives until the process ends, and freeing it at exit would only delay the exit.
    static const GpuCatalog& catalog = *new GpuCatalog(knowledgeFile("gpus.tsv"));
    return catalog;
}

GpuCatalog::GpuCatalog(std::string_view tsv)
{
    const TsvTable table(tsv);
    // Each column looked up once, not once a row.
    const std::size_t id = table.column("id"), name = table.column("name"), vendor = table.column("vendor"),
                      architecture = table.column("architecture"), capability = table.column("compute_capability"),
                      memory = table.column("memory_gb"), stated = table.column("memory_vendor_stated"),
                      bf16 = table.column("bf16_supported"), fp8 = table.column("fp8_supported_how"),
                      bf16Tflops = table.column("bf16_dense_tflops"),
                      fp16Tflops = table.column("fp16_tensor_dense_tflops"), link = table.column("intra_node_link"),
                      url = table.column("source_url"), verification = table.column("verification");
    m_gpus.reserve(table.rowCount());
    for (std::size_t r = 0; r < table.rowCount(); ++r) {
        auto row = [&](std::size_t column) { return std::string(table.cell(r, column)); };
        GpuSpec g;
        g.id = row(id);
        g.name = row(name);
        g.vendor = row(vendor);
        g.architecture = row(architecture);
        g.computeCapability = row(capability);
        g.memoryGb = std::stod(row(memory));
        g.memoryStated = row(stated);
        g.bf16 = table.cell(r, bf16) == "y";
        g.fp8How = row(fp8);
        g.bf16DenseTflops = row(bf16Tflops);
        g.fp16DenseTflops = row(fp16Tflops);
        g.intraNodeLink = row(link);
        g.sourceUrl = row(url);
        g.verification = row(verification);
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
