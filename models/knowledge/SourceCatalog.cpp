#include "knowledge/SourceCatalog.h"

#include "knowledge/KnowledgeFiles.h"
#include "util/TsvTable.h"

#include <algorithm>
#include <stdexcept>

namespace dsw {

const SourceCatalog& SourceCatalog::instance()
{
    static const SourceCatalog catalog(knowledgeFile("sources.tsv"));
    return catalog;
}

SourceCatalog::SourceCatalog(const std::string& tsv)
{
    for (auto& row : parseTsv(tsv))
        m_sources.push_back({row["id"], row["title"], row["url"], row["quote"]});
}

const Source* SourceCatalog::find(const std::string& id) const
{
    auto it = std::find_if(m_sources.begin(), m_sources.end(), [&](const Source& s) { return s.id == id; });
    return it == m_sources.end() ? nullptr : &*it;
}

std::string quoteOf(const std::string& id)
{
    const Source* s = SourceCatalog::instance().find(id);
    if (!s)
        throw std::logic_error("no source " + id + " in resources/knowledge/sources.tsv");
    return "\"" + s->quote + "\"";
}

} // namespace dsw
