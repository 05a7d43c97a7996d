#pragma once
#include <string>
#include <string_view>

namespace dsw {

// The C++ source of compiledGpuRows() (knowledge/GpuCatalog.h): the rows of gpus.tsv in file order, cell for cell
// as util/TsvTable reads them, memory_gb as the exact double and bf16_supported as a flag, so a run parses nothing.
// Checks the table as it writes it and throws std::invalid_argument naming the line and what is wrong: a missing or
// unknown column, a row with the wrong number of cells, an id given twice (in any case: find ignores case), a
// memory_gb that is not a positive number, a bf16_supported that is not y or n.
std::string compiledGpuTableSource(std::string_view tsv);

} // namespace dsw
