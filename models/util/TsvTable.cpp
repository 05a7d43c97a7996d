#include "util/TsvTable.h"

#include <sstream>

namespace dsw {

namespace {
std::vector<std::string> splitTabs(const std::string& line)
{
    std::vector<std::string> cells;
    std::string cell;
    std::istringstream in(line);
    while (std::getline(in, cell, '\t'))
        cells.push_back(cell);
    if (!line.empty() && line.back() == '\t')
        cells.emplace_back();
    return cells;
}
} // namespace

std::vector<std::map<std::string, std::string>> parseTsv(const std::string& text)
{
    std::vector<std::map<std::string, std::string>> rows;
    std::istringstream in(text);
    std::string line;
    std::vector<std::string> header;
    while (std::getline(in, line)) {
        if (!line.empty() && line.back() == '\r')
            line.pop_back();
        if (line.empty())
            continue;
        auto cells = splitTabs(line);
        if (header.empty()) {
            header = std::move(cells);
            continue;
        }
        std::map<std::string, std::string> row;
        for (size_t i = 0; i < header.size(); ++i)
            row[header[i]] = i < cells.size() ? cells[i] : std::string();
        rows.push_back(std::move(row));
    }
    return rows;
}

} // namespace dsw
