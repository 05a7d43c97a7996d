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

NetworkCatalog::NetworkCatalog(const std::string& tsv)
{
    for (auto& row : parseTsv(tsv))
        m_networks.push_back({row["id"], std::stod(row["gbps"]), row["source_id"], row["note"]});
}

const NetworkSpec* NetworkCatalog::find(const std::string& id) const
{
    auto it = std::find_if(m_networks.begin(), m_networks.end(), [&](const NetworkSpec& n) { return n.id == id; });
    return it == m_networks.end() ? nullptr : &*it;
}

} // namespace dsw
