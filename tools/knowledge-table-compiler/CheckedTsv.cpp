#include "CheckedTsv.h"

#include "common/GeneratedSource.h"

#include <algorithm>
#include <stdexcept>

namespace dsw {

namespace {

[[noreturn]] void fail(const std::string& where, const std::string& what)
{
    throw std::invalid_argument(where + ": " + what);
}

std::string joined(std::span<const std::string_view> names)
{
    std::string out;
    for (const std::string_view n : names)
        out += (out.empty() ? "" : ", ") + std::string(n);
    return out;
}

} // namespace

CheckedTsv::CheckedTsv(std::string_view text, std::span<const std::string_view> columns)
    : m_table(text)
{
    // The lines split exactly as TsvTable splits them (on '\n', a trailing '\r' dropped, blank lines skipped, n tabs
    // making n + 1 cells), so that the k-th non-blank line after the header is TsvTable's row k.
    std::vector<std::size_t> cells;
    std::size_t at = 0, number = 0;
    while (at < text.size()) {
        const std::size_t newline = text.find('\n', at);
        std::string_view line =
            text.substr(at, newline == std::string_view::npos ? std::string_view::npos : newline - at);
        at = newline == std::string_view::npos ? text.size() : newline + 1;
        ++number;
        if (!line.empty() && line.back() == '\r')
            line.remove_suffix(1);
        if (line.empty())
            continue;
        m_lines.push_back(number);
        cells.push_back(static_cast<std::size_t>(std::count(line.begin(), line.end(), '\t')) + 1);
    }
    if (m_lines.empty())
        fail("the file", "is empty: it needs the header " + joined(columns));
    if (m_lines.size() != m_table.rowCount() + 1)
        fail("the file", "is split into lines differently from util/TsvTable"); // the tool's own error
    const std::string header = "line " + std::to_string(m_lines[0]) + " (the header)";
    const std::vector<std::string_view>& names = m_table.header();
    for (std::size_t i = 0; i < names.size(); ++i) {
        if (std::find(columns.begin(), columns.end(), names[i]) == columns.end())
            fail(header, "unknown column \"" + std::string(names[i]) + "\"; the columns are " + joined(columns));
        if (std::find(names.begin(), names.begin() + static_cast<std::ptrdiff_t>(i), names[i])
            != names.begin() + static_cast<std::ptrdiff_t>(i))
            fail(header, "has the column \"" + std::string(names[i]) + "\" twice");
    }
    for (const std::string_view c : columns) {
        m_columns.push_back(m_table.column(c));
        if (m_columns.back() == TsvTable::npos)
            fail(header, "has no column \"" + std::string(c) + "\"");
    }
    if (m_table.rowCount() == 0)
        fail("the file", "has no row");
    for (std::size_t r = 0; r < m_table.rowCount(); ++r) {
        if (cells[r + 1] != names.size())
            fail(where(r),
                 "has " + std::to_string(cells[r + 1]) + " cells, the header " + std::to_string(names.size()));
        if (cell(r, 0).empty())
            fail(where(r), "has an empty " + std::string(columns[0]));
    }
}

std::string CheckedTsv::where(std::size_t row) const
{
    const std::string_view id = cell(row, 0);
    return "line " + std::to_string(m_lines[row + 1]) + (id.empty() ? "" : " (" + std::string(id) + ")");
}

std::string literal(std::string_view s)
{
    return "sv(\"" + escapedForLiteral(s) + "\", " + std::to_string(s.size()) + ")";
}

} // namespace dsw
