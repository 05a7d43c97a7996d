#pragma once
#include "util/Result.h"

#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace dsw {

// Where a row's usable capacity comes from (usable_basis in gpus.tsv).
enum class CapacityBasis {
    Torch,   // PyTorch's total: torch.cuda.mem_get_info()'s total, the OOM message's "total capacity"
    Nvml,    // nvidia-smi's total (NVML); PyTorch reports 0–0.75 GiB less on the cards measured both ways
    Assumed, // no measurement: memory_gb × the ratio measured on the row usable_source names (the wizard's assumption)
};

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
    std::string hostLink; // host_link: "PCIe Gen3 x16" … "PCIe Gen5 x16", or "NVLink-C2C" (Grace superchips)

    // The capacity a program can allocate from, in GiB, as the driver gives it (calibration.md §5, C98–C107):
    // PyTorch's total where it was measured (usable_basis torch), NVML's where only that was (nvml), and for a card
    // nobody measured (assumed) memory_gb × the ratio usable_gib / memory_gb of the measured row its usable_source
    // cell names, "ratio of H100-80GB: <why that card>". The file states each assumption; readGpus fills in the
    // number. The memory behind a card decides its ratio: the HBM cards measured keep 0.99 of their GB, the GDDR6
    // data-centre cards 0.92–0.94 (T4, A10, L4, L40S), because GDDR with ECC on gives 6.25% of the memory to the ECC
    // bits; so an unmeasured card takes the ratio of a card with the same memory and the same ECC default.
    // Sources (resources/knowledge/sources.tsv): cuda-gddr-ecc
    double usableGib = 0;
    CapacityBasis usableBasis = CapacityBasis::Assumed;
    std::string usableSource;     // sources.tsv id of the measurement (the relative's, when assumed)
    std::string usableRelative;   // assumed: the id of the measured row whose ratio is used
    std::string usableAssumption; // assumed: why that row, as the cell states it

    // Compute capability as a number, when the part has one (NVIDIA).
    std::optional<double> computeCapabilityNumber() const;
    // How usableGib was obtained, for the text shown with it: "as PyTorch reports it", "nvidia-smi's total; PyTorch
    // reports slightly less", or "the wizard's assumption: 16 GB × 0.991, the ratio measured on V100-32GB (…)".
    std::string usableNote() const;
};

// The rows of gpus.tsv (`tsv`) in file order, or the error naming the file, the line and what is wrong: each of its
// 18 columns once; every row with as many cells as the header; no empty id and no id twice in any case (find()
// ignores case); memory_gb the whole cell a positive number; bf16_supported y or n (knowledge/KnowledgeTable.h);
// usable_basis torch or nvml with usable_gib a positive number at most memory_gb × 1.075 (a GiB is 1.074 GB) and
// usable_source a sources.tsv id, or assumed with usable_gib empty and usable_source "ratio of <id>: <why>", the id
// of a torch or nvml row; host_link one of kHostLinks.
Result<std::vector<GpuSpec>> readGpus(std::string_view tsv);

// The host links gpus.tsv may name, as its host_link cells spell them.
inline constexpr std::string_view kHostLinks[] = {"PCIe Gen3 x16", "PCIe Gen4 x16", "PCIe Gen5 x16", "NVLink-C2C"};

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
