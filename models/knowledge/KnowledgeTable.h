#pragma once
#include "util/Result.h"

#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace dsw {

// One row of a knowledge table: its cells in the order of the columns asked for, and how an error names it.
struct KnowledgeRow {
    std::string where; // "gpus.tsv: line 12 (A100-80GB)"
    std::vector<std::string_view> cells;
};

// A table of resources/knowledge/ (`text`, the file `fileName`) read with util/TsvTable and held to its columns:
// each of `columns` once and nothing else in the header, at least one row, every row with as many cells as the
// header, no empty id (the first of `columns`) and no id twice, in any case. The rows in file order, their cells
// views into `text`; or the error naming the file, the line and what is wrong ("gpus.tsv: line 12 (A100-80GB): has
// 3 cells, the header 14"). Used by the catalogs on first use and by their tests, which hold the shipped files to it.
Result<std::vector<KnowledgeRow>> readKnowledgeTable(std::string_view text, std::string_view fileName,
                                                     std::span<const std::string_view> columns);

} // namespace dsw
