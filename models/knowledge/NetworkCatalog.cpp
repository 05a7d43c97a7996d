#include "knowledge/NetworkCatalog.h"

#include "knowledge/KnowledgeFiles.h"
#include "util/TsvTable.h"

#include <algorithm>

namespace dsw {

const NetworkCatalog& NetworkCatalog::instance()
{
    // Never destroyed: it lives until the process ends, and freeing it at exit would only delay the exit.
    static const NetworkCatalog& catalog = *new NetworkCatalog(knowledgeFile("networks.tsv"));
    return catalog;
}

NetworkCatalog::NetworkCatalog(std::string_view tsv)
{
    const TsvTable table(tsv);
    const std::size_t id = table.column("id"), gbps = table.column("gbps"), source = table.column("source_id"),
                      note = table.column("note");
    m_networks.reserve(table.rowCount());
    for (std::size_t r = 0; r < table.rowCount(); ++r) {
        auto cell = [&](std::size_t column) { return std::string(table.cell(r, column)); };
        m_networks.push_back({cell(id), std::stod(cell(gbps)), cell(source), cell(note)});
    }
}

const NetworkSpec* NetworkCatalog::find(const std::string& id) const
{
    auto it = std::find_if(m_networks.begin(), m_networks.end(), [&](const NetworkSpec& n) { return n.id == id; });
    return it == m_networks.end() ? nullptr : &*it;
}

} // namespace dsw
