#pragma once
#include <map>
#include <string>
#include <vector>

namespace dsw {

// A tab-separated table with a header line; rows are maps from column name to cell text.
std::vector<std::map<std::string, std::string>> parseTsv(const std::string& text);

} // namespace dsw
