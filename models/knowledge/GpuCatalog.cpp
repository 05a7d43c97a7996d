#include "knowledge/GpuCatalog.h"

#include "knowledge/KnowledgeFiles.h"
#include "knowledge/KnowledgeTable.h"
#include "util/Utf8.h"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <cstdio>
#include <iterator>
#include <optional>

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

namespace {

// The whole cell as a positive finite number, or nothing.
std::optional<double> positiveNumber(std::string_view cell)
{
    double value = 0;
    const auto [end, ec] = std::from_chars(cell.data(), cell.data() + cell.size(), value);
    if (ec != std::errc() || end != cell.data() + cell.size() || !(value > 0) || !std::isfinite(value))
        return std::nullopt;
    return value;
}

std::string num(double v)
{
    char text[32];
    std::snprintf(text, sizeof text, "%g", v);
    return text;
}

} // namespace

std::string GpuSpec::usableNote() const
{
    switch (usableBasis) {
    case CapacityBasis::Torch: return "as PyTorch reports it";
    case CapacityBasis::Nvml: return "nvidia-smi's total; PyTorch reports slightly less";
    case CapacityBasis::Assumed: break;
    }
    char ratio[16];
    std::snprintf(ratio, sizeof ratio, "%.3f", usableGib / memoryGb);
    return "the wizard's assumption: " + num(memoryGb) + " GB × " + ratio + ", the ratio measured on " + usableRelative
        + " (" + usableAssumption + ")";
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
                                                   "usable_gib",
                                                   "usable_basis",
                                                   "usable_source",
                                                   "bf16_supported",
                                                   "fp8_supported_how",
                                                   "bf16_dense_tflops",
                                                   "fp16_tensor_dense_tflops",
                                                   "intra_node_link",
                                                   "host_link",
                                                   "source_url",
                                                   "verification"};
    // Indices into `columns`.
    constexpr std::size_t Id = 0, Vendor = 2, Architecture = 3, Cc = 4, Memory = 5, Usable = 7, Basis = 8,
                          UsableSource = 9, Bf16 = 10, Bf16Tflops = 12, Fp16Tflops = 13, IntraNode = 14, HostLink = 15;
    using Gpus = Result<std::vector<GpuSpec>>;
    auto rows = readKnowledgeTable(tsv, "gpus.tsv", columns);
    if (!rows)
        return Gpus::failure(rows.error());
    std::vector<GpuSpec> gpus;
    std::vector<std::string> where; // each row's name in errors
    for (const KnowledgeRow& r : rows.value()) {
        const auto cell = [&](std::size_t c) { return std::string(r.cells[c]); };
        const std::string_view memory = r.cells[Memory], bf16 = r.cells[Bf16];
        const std::string_view usable = r.cells[Usable], basis = r.cells[Basis], source = r.cells[UsableSource];
        const auto gb = positiveNumber(memory);
        if (!gb)
            return Gpus::failure(r.where + ": memory_gb \"" + std::string(memory)
                                 + "\" is not a positive number of GB");
        if (bf16 != "y" && bf16 != "n")
            return Gpus::failure(r.where + ": bf16_supported \"" + std::string(bf16) + "\" must be y or n");
        GpuSpec g;
        g.id = cell(Id);
        g.vendor = cell(Vendor);
        g.architecture = cell(Architecture);
        g.computeCapability = cell(Cc);
        g.memoryGb = *gb;
        g.bf16 = bf16 == "y";
        g.bf16DenseTflops = cell(Bf16Tflops);
        g.fp16DenseTflops = cell(Fp16Tflops);
        g.intraNodeLink = cell(IntraNode);
        g.hostLink = cell(HostLink);
        if (std::find(std::begin(kHostLinks), std::end(kHostLinks), r.cells[HostLink]) == std::end(kHostLinks)) {
            std::string known;
            for (const std::string_view link : kHostLinks)
                known += (known.empty() ? "" : ", ") + std::string(link);
            return Gpus::failure(r.where + ": host_link \"" + g.hostLink + "\" is not one of " + known);
        }
        if (basis == "torch" || basis == "nvml") {
            const auto gib = positiveNumber(usable);
            if (!gib || *gib > *gb * 1.075)
                return Gpus::failure(r.where + ": usable_gib \"" + std::string(usable)
                                     + "\" is not a positive number of GiB at most memory_gb × 1.075");
            if (source.empty())
                return Gpus::failure(r.where + ": usable_gib needs its usable_source");
            g.usableGib = *gib;
            g.usableBasis = basis == "torch" ? CapacityBasis::Torch : CapacityBasis::Nvml;
            g.usableSource = std::string(source);
        } else if (basis == "assumed") {
            if (!usable.empty())
                return Gpus::failure(r.where + ": usable_gib \"" + std::string(usable)
                                     + "\" with usable_basis assumed: an assumed capacity is derived, not written");
            // "ratio of <id>: <why>"
            constexpr std::string_view prefix = "ratio of ";
            const auto colon = source.find(": ");
            if (!source.starts_with(prefix) || colon == std::string_view::npos || colon == prefix.size()
                || colon + 2 == source.size())
                return Gpus::failure(r.where + ": usable_source \"" + std::string(source)
                                     + "\" must read \"ratio of <a measured row's id>: <why that row>\"");
            g.usableRelative = std::string(source.substr(prefix.size(), colon - prefix.size()));
            g.usableAssumption = std::string(source.substr(colon + 2));
        } else {
            return Gpus::failure(r.where + ": usable_basis \"" + std::string(basis)
                                 + "\" must be torch, nvml or assumed");
        }
        where.push_back(r.where);
        gpus.push_back(std::move(g));
    }
    // An assumed row takes its named relative's measured ratio.
    for (std::size_t i = 0; i < gpus.size(); ++i) {
        GpuSpec& g = gpus[i];
        if (g.usableBasis != CapacityBasis::Assumed)
            continue;
        const auto relative = std::find_if(gpus.begin(), gpus.end(), [&](const GpuSpec& m) {
            return m.id == g.usableRelative && m.usableBasis != CapacityBasis::Assumed;
        });
        if (relative == gpus.end())
            return Gpus::failure(where[i] + ": usable_source names \"" + g.usableRelative
                                 + "\", which is not a row with a measured usable_gib");
        g.usableGib = g.memoryGb * relative->usableGib / relative->memoryGb;
        g.usableSource = relative->usableSource;
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
