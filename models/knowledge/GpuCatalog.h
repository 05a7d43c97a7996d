#pragma once
#include "util/Result.h"

#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace dsw {

// One accelerator from resources/knowledge/gpus.tsv; every field as its source states it. The file's other columns
// (the vendor's name and memory wording, fp8, the datasheet and how it was checked) document the row; no code
// reads them.
struct GpuSpec {
    std::string id; // e.g. "A100-80GB"
    std::string vendor;
    std::string architecture;
    std::string computeCapability; // "8.0", or "n/a (gfx942)" for non-NVIDIA parts
    double memoryGb = 0;           // the capacity the vendor states, in GB
    bool bf16 = false;
    std::string bf16DenseTflops;
    std::string fp16DenseTflops;
    std::string intraNodeLink;

    // Compute capability as a number, when the part has one (NVIDIA).
    std::optional<double> computeCapabilityNumber() const;
};

// The rows of gpus.tsv (`tsv`) in file order, or the error naming the file, the line and what is wrong: each of its
// 14 columns once; every row with as many cells as the header; no empty id and no id twice in any case (find()
// ignores case); memory_gb the whole cell a positive number; bf16_supported y or n (knowledge/KnowledgeTable.h).
Result<std::vector<GpuSpec>> readGpus(std::string_view tsv);

// The accelerators.
class GpuCatalog {
public:
    // The embedded gpus.tsv, read on first use; throws std::logic_error with readGpus' message when the file is
    // malformed (TestGpuCatalog holds it well-formed).
    static const GpuCatalog& instance();
    explicit GpuCatalog(std::vector<GpuSpec> gpus)
        : m_gpus(std::move(gpus))
    {
    }

    // Every row, in file order (the same objects find() returns).
    const std::vector<GpuSpec>& all() const { return m_gpus; }
    // Case-insensitive lookup by id.
    const GpuSpec* find(const std::string& id) const;
    std::vector<std::string> ids() const;

private:
    std::vector<GpuSpec> m_gpus;
};

} // namespace dsw
