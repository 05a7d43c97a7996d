#include "util/TsvTable.h"

namespace dsw {

TsvTable::TsvTable(std::string_view text)
{
    bool headerRead = false;
    std::size_t at = 0, lineNumber = 0;
    while (at < text.size()) {
        const std::size_t newline = text.find('\n', at);
        std::string_view line =
            text.substr(at, newline == std::string_view::npos ? std::string_view::npos : newline - at);
        at = newline == std::string_view::npos ? text.size() : newline + 1;
        ++lineNumber;
        if (!line.empty() && line.back() == '\r')
            line.remove_suffix(1);
        if (line.empty())
            continue;
        std::vector<std::string_view>& cells = headerRead ? m_cells : m_header;
        if (headerRead) {
            m_rowStart.push_back(m_cells.size());
            m_rowLine.push_back(lineNumber);
        } else {
            m_headerLine = lineNumber;
        }
        const std::size_t first = cells.size();
        for (std::size_t from = 0;;) { // n tabs make n + 1 cells, a trailing tab an empty last one
            const std::size_t tab = line.find('\t', from);
            cells.push_back(line.substr(from, tab == std::string_view::npos ? std::string_view::npos : tab - from));
            if (tab == std::string_view::npos)
                break;
            from = tab + 1;
        }
        if (headerRead)
            m_rowCells.push_back(m_cells.size() - first);
        if (headerRead && m_cells.size() - first > m_header.size())
            m_cells.resize(first + m_header.size()); // cells past the header are never read
        headerRead = true;
    }
}

std::size_t TsvTable::column(std::string_view name) const
{
    for (std::size_t i = m_header.size(); i-- > 0;)
        if (m_header[i] == name)
            return i;
    return npos;
}

std::string_view TsvTable::cell(std::size_t row, std::size_t column) const
{
    if (row >= m_rowStart.size() || column == npos)
        return {};
    const std::size_t start = m_rowStart[row];
    const std::size_t end = row + 1 < m_rowStart.size() ? m_rowStart[row + 1] : m_cells.size();
    return column < end - start ? m_cells[start + column] : std::string_view();
}

std::vector<std::map<std::string, std::string>> parseTsv(std::string_view text)
{
    const TsvTable table(text);
    std::vector<std::map<std::string, std::string>> rows;
    for (std::size_t r = 0; r < table.rowCount(); ++r) {
        std::map<std::string, std::string> row;
        for (std::size_t i = 0; i < table.header().size(); ++i)
            row[std::string(table.header()[i])] = std::string(table.cell(r, i));
        rows.push_back(std::move(row));
    }
    return rows;
}

} // namespace dsw
