#pragma once
#include <string>
#include <string_view>

namespace dsw {

// The C++ source of compiledSourceRows() and compiledSourceIdOrder() (knowledge/SourceCatalog.h): the rows of
// sources.tsv as constant string views, cell for cell as util/TsvTable reads them, in file order, and their indices
// sorted by id (a repeated id by its first row only), so a run parses nothing and allocates nothing to look a source
// up. Checks the table as it writes it and throws std::invalid_argument naming the line and what is wrong
// ("line 12 (ds-foo): has 3 cells, the header 4").
std::string compiledSourceTableSource(std::string_view tsv);

} // namespace dsw
