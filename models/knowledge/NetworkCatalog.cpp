#include "knowledge/NetworkCatalog.h"

#include "knowledge/KnowledgeFiles.h"
#include "util/TsvTable.h"

#include <algorithm>

namespace dsw {

const NetworkCatalog& NetworkCatalog::instance()
{
    static const NetworkCatalog catalog(knowledgeFile("networks.tsv"));
    return catalog;
}

NetworkCatalog::NetworkCatalog(std::string_view tsv)
{
    const TsvTable table(tsv);
    for (std::size_t r = 0; r < table.rowCount(); ++r) {
        auto cell = [&](std::string_view column) { return std::string(table.cell(r, column)); };
        m_networks.push_back({cell("id"), std::stod(cell("gbps")), cell("source_id"), cell("note")});
    }
}

const NetworkSpec* NetworkCatalog::find(const std::string& id) const
{
    auto it = std::find_if(m_networks.begin(), m_networks.end(), [&](const NetworkSpec& n) { return n.id == id; });
    return it == m_networks.end() ? nullptr : &*it;
}

} // namespace dsw
