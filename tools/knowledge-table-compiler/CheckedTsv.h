#pragma once
#include "util/TsvTable.h"

#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace dsw {

// A knowledge table read with util/TsvTable (the reader a run used), held to its columns: each of `columns` once
// and nothing else in the header, at least one row, every row with as many cells as the header. The constructor
// throws std::invalid_argument naming the line and what is wrong ("line 12 (ds-foo): has 3 cells, the header 4").
class CheckedTsv {
public:
    CheckedTsv(std::string_view text, std::span<const std::string_view> columns);

    std::size_t rowCount() const { return m_table.rowCount(); }
    // Row `row`'s cell in `columns[column]`.
    std::string_view cell(std::size_t row, std::size_t column) const { return m_table.cell(row, m_columns[column]); }
    // How an error names row `row`: its line and its id ("line 12 (ds-foo)"); the id column is columns[0].
    std::string where(std::size_t row) const;

private:
    TsvTable m_table;
    std::vector<std::size_t> m_columns; // the header column of each of `columns`
    std::vector<std::size_t> m_lines;   // the line number (from 1) of the header, then of each row
};

// A constant std::string_view of `s`, byte for byte (common/GeneratedSource.h), its length given so that a NUL
// does not end it.
std::string literal(std::string_view s);

} // namespace dsw
