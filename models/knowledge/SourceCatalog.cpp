#include "knowledge/SourceCatalog.h"

#include "knowledge/KnowledgeFiles.h"
#include "util/TsvTable.h"

#include <algorithm>
#include <stdexcept>

namespace dsw {

const SourceCatalog& SourceCatalog::instance()
{
    // Never destroyed: it lives until the process ends, and freeing it at exit would only delay the exit.
    static const SourceCatalog& catalog = *new SourceCatalog(knowledgeFile("sources.tsv"), InPlace{});
    return catalog;
}

SourceCatalog::SourceCatalog(std::string_view tsv, InPlace)
    : SourceCatalog(std::string(), tsv)
{
}

SourceCatalog::SourceCatalog(std::string_view tsv)
    : SourceCatalog(std::string(tsv), std::string_view())
{
}

SourceCatalog::SourceCatalog(std::string ownText, std::string_view inPlace)
    : m_ownText(std::move(ownText))
    , m_table(m_ownText.empty() ? inPlace : std::string_view(m_ownText))
    , m_title(m_table.column("title"))
    , m_url(m_table.column("url"))
    , m_quote(m_table.column("quote"))
    , m_sources(m_table.rowCount())
    , m_filled(m_table.rowCount(), false)
{
    const std::size_t id = m_table.column("id");
    m_index.reserve(m_table.rowCount());
    for (std::size_t r = 0; r < m_table.rowCount(); ++r)
        m_index.emplace(m_table.cell(r, id), r); // a repeated id keeps its first row, as a search from the top did
}

const Source& SourceCatalog::row(std::size_t r) const
{
    if (!m_filled[r]) {
        Source& s = m_sources[r];
        s.id = m_table.cell(r, "id");
        s.title = m_table.cell(r, m_title);
        s.url = m_table.cell(r, m_url);
        s.quote = m_table.cell(r, m_quote);
        m_filled[r] = true;
    }
    return m_sources[r];
}

const Source* SourceCatalog::find(const std::string& id) const
{
    const auto it = m_index.find(std::string_view(id));
    if (it == m_index.end())
        return nullptr;
    const std::lock_guard<std::mutex> lock(m_mutex);
    return &row(it->second);
}

const std::vector<Source>& SourceCatalog::all() const
{
    const std::lock_guard<std::mutex> lock(m_mutex);
    if (!m_allFilled) {
        for (std::size_t r = 0; r < m_sources.size(); ++r)
            row(r);
        m_allFilled = true;
    }
    return m_sources;
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
