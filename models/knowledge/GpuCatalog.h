#pragma once
#include <mutex>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace dsw {

// One accelerator from resources/knowledge/gpus.tsv; every field as its source states it.
struct GpuSpec {
    std::string id;   // e.g. "A100-80GB"
    std::string name; // the vendor's name
    std::string vendor;
    std::string architecture;
    std::string computeCapability; // "8.0", or "n/a (gfx942)" for non-NVIDIA parts
    double memoryGb = 0;           // the capacity the vendor states, in GB
    std::string memoryStated;      // the vendor's wording
    bool bf16 = false;
    std::string fp8How;
    std::string bf16DenseTflops;
    std::string fp16DenseTflops;
    std::string intraNodeLink;
    std::string sourceUrl;
    std::string verification;

    // Compute capability as a number, when the part has one (NVIDIA).
    std::optional<double> computeCapabilityNumber() const;
};

// A row of gpus.tsv as views of its cells (for the embedded catalog, of constant text), its numbers read.
struct GpuRow {
    std::string_view id, name, vendor, architecture, computeCapability;
    double memoryGb;
    std::string_view memoryStated;
    bool bf16;
    std::string_view fp8How, bf16DenseTflops, fp16DenseTflops, intraNodeLink, sourceUrl, verification;
};

// gpus.tsv compiled at build time (tools/knowledge-table-compiler, CompiledGpuTable.cpp in the build folder):
// every row in file order, cell for cell as util/TsvTable reads it.
std::span<const GpuRow> compiledGpuRows();

// The accelerators. The embedded catalog reads the compiled table, so start-up parses and copies nothing; a row
// becomes a GpuSpec the first time find() or all() asks for it (a plan looks up one GPU). Thread-safe.
class GpuCatalog {
public:
    static const GpuCatalog& instance();
    explicit GpuCatalog(std::string_view tsv); // read with TsvTable; throws when a memory_gb is not a number
    GpuCatalog(const GpuCatalog&) = delete;
    GpuCatalog& operator=(const GpuCatalog&) = delete;

    // Every row, in file order (the same objects find() returns).
    const std::vector<GpuSpec>& all() const;
    // Case-insensitive lookup by id.
    const GpuSpec* find(const std::string& id) const;
    std::vector<std::string> ids() const;

private:
    explicit GpuCatalog(std::span<const GpuRow> rows);
    const GpuSpec& spec(std::size_t row) const; // with m_mutex held

    std::string m_ownText; // a catalog of given text: the text and its rows
    std::vector<GpuRow> m_ownRows;
    std::span<const GpuRow> m_rows;
    mutable std::mutex m_mutex;
    mutable std::vector<GpuSpec> m_gpus; // one per row, sized on the first find() or all(), filled when asked for
    mutable std::vector<bool> m_filled;
    mutable bool m_allFilled = false;
};

} // namespace dsw
