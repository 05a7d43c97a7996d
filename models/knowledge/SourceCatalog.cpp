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

SourceCatalog::SourceCatalog(std::string_view tsv)
{
    const TsvTable table(tsv);
    const std::size_t id = table.column("id"), title = table.column("title"), url = table.column("url"),
                      quote = table.column("quote");
    m_sources.reserve(table.rowCount());
    for (std::size_t r = 0; r < table.rowCount(); ++r)
        m_sources.push_back({std::string(table.cell(r, id)), std::string(table.cell(r, title)),
                             std::string(table.cell(r, url)), std::string(table.cell(r, quote))});
    for (std::size_t i = 0; i < m_sources.size(); ++i)
        m_index.emplace(m_sources[i].id, i); // a repeated id keeps its first row, as a search from the top did
}

const Source* SourceCatalog::find(const std::string& id) const
{
    const auto it = m_index.find(id);
    return it == m_index.end() ? nullptr : &m_sources[it->second];
}

std::string quoteOf(const std::string& id)
{
    const Source* s = SourceCatalog::instance().find(id);
    if (!s)
        throw std::logic_error("no source " + id + " in resources/knowledge/sources.tsv");
    return "\"" + s->quote + "\"";
}

std::string quoteExcerpt(const std::string& id, std::string_view from, std::string_view through)
{
    const Source* s = SourceCatalog::instance().find(id);
    if (!s)
        throw std::logic_error("no source " + id + " in resources/knowledge/sources.tsv");
    const std::string_view quote = s->quote;
    const std::size_t at = from.empty() ? std::string_view::npos : quote.find(from);
    if (at == std::string_view::npos)
        throw std::logic_error("source " + id + " does not quote \"" + std::string(from) + "\"");
    std::size_t end = quote.size();
    if (!through.empty()) {
        const std::size_t last = quote.find(through, at);
        if (last == std::string_view::npos)
            throw std::logic_error("source " + id + " does not quote \"" + std::string(through) + "\" after \""
                                   + std::string(from) + "\"");
        end = last + through.size();
    } else {
        for (std::string_view b : {std::string_view(". "), std::string_view("; "), std::string_view(" … ")})
            if (const std::size_t next = quote.find(b, at + from.size()); next < end)
                end = b == ". " ? next + 1 : next; // a sentence keeps its full stop
    }
    return "\"" + std::string(quote.substr(at, end - at)) + "\"";
}

} // namespace dsw
