#include "knowledge/SourceCatalog.h"

#include "knowledge/KnowledgeFiles.h"
#include "knowledge/KnowledgeTable.h"

#include <algorithm>
#include <stdexcept>

namespace dsw {

Result<std::vector<Source>> readSources(std::string_view tsv)
{
    static constexpr std::string_view columns[] = {"id", "title", "url", "quote"};
    auto rows = readKnowledgeTable(tsv, "sources.tsv", columns);
    if (!rows)
        return Result<std::vector<Source>>::failure(rows.error());
    std::vector<Source> sources;
    for (const KnowledgeRow& r : rows.value())
        sources.push_back(
            {std::string(r.cells[0]), std::string(r.cells[1]), std::string(r.cells[2]), std::string(r.cells[3])});
    return sources;
}

const SourceCatalog& SourceCatalog::instance()
{
    // Never destroyed: it lives until the process ends, and freeing it at exit would only delay the exit.
    static const SourceCatalog& catalog = *new SourceCatalog(readSources(knowledgeFile("sources.tsv")).orThrow());
    return catalog;
}

const Source* SourceCatalog::find(std::string_view id) const
{
    const auto it = std::find_if(m_sources.begin(), m_sources.end(), [&](const Source& s) { return s.id == id; });
    return it == m_sources.end() ? nullptr : &*it;
}

namespace {

const std::string& quoteOfSource(std::string_view id)
{
    const Source* s = SourceCatalog::instance().find(id);
    if (!s)
        throw std::logic_error("no source " + std::string(id) + " in resources/knowledge/sources.tsv");
    return s->quote;
}

std::string quoted(std::string_view text) { return std::string("\"").append(text).append("\""); }

} // namespace

std::string quoteOf(std::string_view id) { return quoted(quoteOfSource(id)); }

std::string quoteExcerpt(std::string_view id, std::string_view from, std::string_view through)
{
    const std::string_view quote = quoteOfSource(id);
    const std::size_t at = from.empty() ? std::string_view::npos : quote.find(from);
    if (at == std::string_view::npos)
        throw std::logic_error("source " + std::string(id) + " does not quote \"" + std::string(from) + "\"");
    std::size_t end = quote.size();
    if (!through.empty()) {
        const std::size_t last = quote.find(through, at);
        if (last == std::string_view::npos)
            throw std::logic_error("source " + std::string(id) + " does not quote \"" + std::string(through)
                                   + "\" after \"" + std::string(from) + "\"");
        end = last + through.size();
    } else {
        for (std::string_view b : {std::string_view(". "), std::string_view("; "), std::string_view(" … ")})
            if (const std::size_t next = quote.find(b, at + from.size()); next < end)
                end = b == ". " ? next + 1 : next; // a sentence keeps its full stop
    }
    return quoted(quote.substr(at, end - at));
}

} // namespace dsw
