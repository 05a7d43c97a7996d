#include "knowledge/GpuCatalog.h"

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
    static const GpuCatalog& catalog = *new GpuCatalog(compiledGpuRows());
    return catalog;
}

GpuCatalog::GpuCatalog(std::span<const GpuRow> rows)
    : m_rows(rows)
{
}

GpuCatalog::GpuCatalog(std::string_view tsv)
    : m_ownText(tsv)
{
    const TsvTable table(m_ownText);
    // Each column looked up once, not once a row.
    const std::size_t id = table.column("id"), name = table.column("name"), vendor = table.column("vendor"),
                      architecture = table.column("architecture"), capability = table.column("compute_capability"),
                      memory = table.column("memory_gb"), stated = table.column("memory_vendor_stated"),
                      bf16 = table.column("bf16_supported"), fp8 = table.column("fp8_supported_how"),
                      bf16Tflops = table.column("bf16_dense_tflops"),
                      fp16Tflops = table.column("fp16_tensor_dense_tflops"), link = table.column("intra_node_link"),
                      url = table.column("source_url"), verification = table.column("verification");
    m_ownRows.reserve(table.rowCount());
    for (std::size_t r = 0; r < table.rowCount(); ++r) {
        auto cell = [&](std::size_t column) { return table.cell(r, column); };
        m_ownRows.push_back({cell(id), cell(name), cell(vendor), cell(architecture), cell(capability),
                             std::stod(std::string(cell(memory))), cell(stated), cell(bf16) == "y", cell(fp8),
                             cell(bf16Tflops), cell(fp16Tflops), cell(link), cell(url), cell(verification)});
    }
    m_rows = m_ownRows;
}

const GpuSpec& GpuCatalog::spec(std::size_t r) const
{
    if (m_gpus.empty()) {
        m_gpus.resize(m_rows.size());
        m_filled.assign(m_rows.size(), false);
    }
    if (!m_filled[r]) {
        const GpuRow& row = m_rows[r];
        GpuSpec& g = m_gpus[r];
        g.id = row.id;
        g.name = row.name;
        g.vendor = row.vendor;
        g.architecture = row.architecture;
        g.computeCapability = row.computeCapability;
        g.memoryGb = row.memoryGb;
        g.memoryStated = row.memoryStated;
        g.bf16 = row.bf16;
        g.fp8How = row.fp8How;
        g.bf16DenseTflops = row.bf16DenseTflops;
        g.fp16DenseTflops = row.fp16DenseTflops;
        g.intraNodeLink = row.intraNodeLink;
        g.sourceUrl = row.sourceUrl;
        g.verification = row.verification;
        m_filled[r] = true;
    }
    return m_gpus[r];
}

const std::vector<GpuSpec>& GpuCatalog::all() const
{
    const std::lock_guard<std::mutex> lock(m_mutex);
    if (!m_allFilled) {
        for (std::size_t r = 0; r < m_rows.size(); ++r)
            spec(r);
        m_allFilled = true;
    }
    return m_gpus;
}

const GpuSpec* GpuCatalog::find(const std::string& id) const
{
    // The ids compared ignoring case (std::toupper byte by byte), without building strings: every plan looks the
    // GPU up often.
    auto same = [&](std::string_view x) {
        return x.size() == id.size()
            && std::equal(x.begin(), x.end(), id.begin(),
                          [](unsigned char a, unsigned char b) { return std::toupper(a) == std::toupper(b); });
    };
    auto it = std::find_if(m_rows.begin(), m_rows.end(), [&](const GpuRow& g) { return same(g.id); });
    if (it == m_rows.end())
        return nullptr;
    const std::lock_guard<std::mutex> lock(m_mutex);
    return &spec(static_cast<std::size_t>(it - m_rows.begin()));
}

std::vector<std::string> GpuCatalog::ids() const
{
    std::vector<std::string> out;
    out.reserve(m_rows.size());
    for (const GpuRow& g : m_rows)
        out.emplace_back(g.id);
    return out;
}

} // namespace dsw
