#include "knowledge/KnowledgeTable.h"

#include "util/TsvTable.h"
#include "util/Utf8.h"

#include <algorithm>
#include <set>

namespace dsw {

Result<std::vector<KnowledgeRow>> readKnowledgeTable(std::string_view text, std::string_view fileName,
                                                     std::span<const std::string_view> columns)
{
    using Rows = Result<std::vector<KnowledgeRow>>;
    const std::string file(fileName);
    std::string names;
    for (const std::string_view c : columns)
        names.append(names.empty() ? "" : ", ").append(c);
    const TsvTable table(text);
    const std::vector<std::string_view>& header = table.header();
    if (header.empty())
        return Rows::failure(file + ": is empty: it needs the header " + names);
    const std::string atHeader = file + ": line " + std::to_string(table.headerLine()) + " (the header)";
    for (std::size_t i = 0; i < header.size(); ++i) {
        if (std::find(columns.begin(), columns.end(), header[i]) == columns.end())
            return Rows::failure(atHeader + ": unknown column \"" + std::string(header[i]) + "\"; the columns are "
                                 + names);
        if (table.column(header[i]) != i) // column() finds the last of a name
            return Rows::failure(atHeader + ": has the column \"" + std::string(header[i]) + "\" twice");
    }
    std::vector<std::size_t> at;
    for (const std::string_view c : columns) {
        at.push_back(table.column(c));
        if (at.back() == TsvTable::npos)
            return Rows::failure(atHeader + ": has no column \"" + std::string(c) + "\"");
    }
    if (table.rowCount() == 0)
        return Rows::failure(file + ": has no row");

    std::vector<KnowledgeRow> rows;
    std::set<std::string> ids;
    for (std::size_t r = 0; r < table.rowCount(); ++r) {
        KnowledgeRow row;
        const std::string_view id = table.cell(r, at[0]);
        row.where = file + ": line " + std::to_string(table.line(r)) + (id.empty() ? "" : " (" + std::string(id) + ")");
        if (table.cellCount(r) != header.size())
            return Rows::failure(row.where + ": has " + std::to_string(table.cellCount(r)) + " cells, the header "
                                 + std::to_string(header.size()));
        if (id.empty())
            return Rows::failure(row.where + ": has an empty " + std::string(columns[0]));
        if (!ids.insert(asciiLower(std::string(id))).second)
            return Rows::failure(row.where + ": the id is given twice (ids are compared ignoring case)");
        for (const std::size_t c : at)
            row.cells.push_back(table.cell(r, c));
        rows.push_back(std::move(row));
    }
    return rows;
}

} // namespace dsw
