#pragma once
#include <map>
#include <string>
#include <string_view>
#include <vector>

namespace dsw {

// A tab-separated table with a header line, read in place: its cells are views into the text, which must
// outlive the table (the embedded knowledge does). Blank lines are skipped, a line's trailing '\r' is dropped, a
// short row's missing cells read as empty and cells past the header are ignored.
class TsvTable {
public:
    static constexpr std::size_t npos = static_cast<std::size_t>(-1);

    explicit TsvTable(std::string_view text);

    const std::vector<std::string_view>& header() const { return m_header; }
    std::size_t rowCount() const { return m_rowStart.size(); }
    // The header column of this name (its last, as parseTsv's maps keep), or npos.
    std::size_t column(std::string_view name) const;
    // A row's cell in `column`; empty when the row is short or column is npos.
    std::string_view cell(std::size_t row, std::size_t column) const;
    std::string_view cell(std::size_t row, std::string_view columnName) const { return cell(row, column(columnName)); }
    // Where the header and a row are in the text (lines from 1, blank ones counted), and how many cells the row has
    // as written (before the padding of a short row or the cut of a long one): for the checks of a table's shape.
    std::size_t headerLine() const { return m_headerLine; }
    std::size_t line(std::size_t row) const { return m_rowLine[row]; }
    std::size_t cellCount(std::size_t row) const { return m_rowCells[row]; }

private:
    std::vector<std::string_view> m_header;
    std::vector<std::string_view> m_cells; // every row's cells, one row after another
    std::vector<std::size_t> m_rowStart;   // the index in m_cells of each row's first cell
    std::size_t m_headerLine = 0;
    std::vector<std::size_t> m_rowLine, m_rowCells;
};

// The table's rows as maps from column name to cell text (for tests and small tables; the catalogs read a
// TsvTable in place).
std::vector<std::map<std::string, std::string>> parseTsv(std::string_view text);

} // namespace dsw
