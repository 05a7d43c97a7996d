#include "knowledge/SourceCatalog.h"

#include "util/TsvTable.h"

#include <algorithm>
#include <numeric>
#include <stdexcept>

namespace dsw {

const SourceCatalog& SourceCatalog::instance()
{
    // Never destroyed: it lives until the process ends, and freeing it at exit would only delay the exit.
    static const SourceCatalog& catalog = *new SourceCatalog(compiledSourceRows(), compiledSourceIdOrder());
    return catalog;
}

SourceCatalog::SourceCatalog(std::span<const SourceRow> rows, std::span<const std::uint32_t> byId)
    : m_rows(rows)
    , m_byId(byId)
{
}

SourceCatalog::SourceCatalog(std::string_view tsv)
    : m_ownText(tsv)
{
    const TsvTable table(m_ownText);
    const std::size_t id = table.column("id"), title = table.column("title"), url = table.column("url"),
                      quote = table.column("quote");
    m_ownRows.reserve(table.rowCount());
    for (std::size_t r = 0; r < table.rowCount(); ++r)
        m_ownRows.push_back({table.cell(r, id), table.cell(r, title), table.cell(r, url), table.cell(r, quote)});
    // As the compiler orders the embedded rows: by id, a repeated id keeping its first row.
    m_ownById.resize(m_ownRows.size());
    std::iota(m_ownById.begin(), m_ownById.end(), std::uint32_t(0));
    const auto idOf = [this](std::uint32_t r) { return m_ownRows[r].id; };
    std::stable_sort(m_ownById.begin(), m_ownById.end(),
                     [&](std::uint32_t a, std::uint32_t b) { return idOf(a) < idOf(b); });
    m_ownById.erase(std::unique(m_ownById.begin(), m_ownById.end(),
                                [&](std::uint32_t a, std::uint32_t b) { return idOf(a) == idOf(b); }),
                    m_ownById.end());
    m_rows = m_ownRows;
    m_byId = m_ownById;
}

const SourceRow* SourceCatalog::findRow(std::string_view id) const
{
    const auto it = std::lower_bound(m_byId.begin(), m_byId.end(), id,
                                     [this](std::uint32_t r, std::string_view key) { return m_rows[r].id < key; });
    return it != m_byId.end() && m_rows[*it].id == id ? &m_rows[*it] : nullptr;
}

const Source& SourceCatalog::source(std::size_t r) const
{
    if (m_sources.empty()) {
        m_sources.resize(m_rows.size());
        m_filled.assign(m_rows.size(), false);
    }
    if (!m_filled[r]) {
        Source& s = m_sources[r];
        s.id = m_rows[r].id;
        s.title = m_rows[r].title;
        s.url = m_rows[r].url;
        s.quote = m_rows[r].quote;
        m_filled[r] = true;
    }
    return m_sources[r];
}

const Source* SourceCatalog::find(std::string_view id) const
{
    const SourceRow* row = findRow(id);
    if (!row)
        return nullptr;
    const std::lock_guard<std::mutex> lock(m_mutex);
    return &source(static_cast<std::size_t>(row - m_rows.data()));
}

const std::vector<Source>& SourceCatalog::all() const
{
    const std::lock_guard<std::mutex> lock(m_mutex);
    if (!m_allFilled) {
        for (std::size_t r = 0; r < m_rows.size(); ++r)
            source(r);
        m_allFilled = true;
    }
    return m_sources;
}

namespace {

std::string_view quoteOfSource(std::string_view id)
{
    const SourceRow* row = SourceCatalog::instance().findRow(id);
    if (!row)
        throw std::logic_error("no source " + std::string(id) + " in resources/knowledge/sources.tsv");
    return row->quote;
}

std::string quoted(std::string_view text)
{
    std::string out;
    out.reserve(text.size() + 2);
    out += '"';
    out += text;
    out += '"';
    return out;
}

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
