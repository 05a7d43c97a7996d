#pragma once
#include <cstdint>
#include <mutex>
#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace dsw {

// A source of facts, from resources/knowledge/sources.tsv: shown beside every number and claim.
struct Source {
    std::string id;
    std::string title;
    std::string url;
    std::string quote; // exactly as the source gives it
};

// A row of sources.tsv as views of its cells (for the embedded catalog, of constant text).
struct SourceRow {
    std::string_view id, title, url, quote;
};

// sources.tsv compiled at build time (tools/knowledge-table-compiler, CompiledSourceTable.cpp in the build
// folder): every row in file order, cell for cell as util/TsvTable reads it, and the indices of the rows sorted by
// id, a repeated id by its first row only.
std::span<const SourceRow> compiledSourceRows();
std::span<const std::uint32_t> compiledSourceIdOrder();

// The sources. The embedded catalog reads the compiled tables, so start-up parses and copies nothing; a row becomes
// a Source the first time find() or all() asks for it (a command cites a few of ~200). Thread-safe.
class SourceCatalog {
public:
    static const SourceCatalog& instance();
    explicit SourceCatalog(std::string_view tsv); // read with TsvTable; keeps its own copy of the text
    SourceCatalog(const SourceCatalog&) = delete;
    SourceCatalog& operator=(const SourceCatalog&) = delete;

    // The first row of `id`, or null: allocates nothing (what quoteOf and quoteExcerpt read).
    const SourceRow* findRow(std::string_view id) const;
    const Source* find(std::string_view id) const;
    // Every row, in file order (the same objects find() returns).
    const std::vector<Source>& all() const;

private:
    SourceCatalog(std::span<const SourceRow> rows, std::span<const std::uint32_t> byId);
    const Source& source(std::size_t row) const; // with m_mutex held

    std::string m_ownText; // a catalog of given text: the text, its rows and their order
    std::vector<SourceRow> m_ownRows;
    std::vector<std::uint32_t> m_ownById;
    std::span<const SourceRow> m_rows;     // file order
    std::span<const std::uint32_t> m_byId; // indices into m_rows sorted by id, each id once
    mutable std::mutex m_mutex;
    mutable std::vector<Source> m_sources; // one per row, sized on the first find() or all(), filled when asked for
    mutable std::vector<bool> m_filled;
    mutable bool m_allFilled = false;
};

// The quote of source `id` in double quotes, as prose cites it, so a quote lives once, in sources.tsv.
// `id` must be there (TestSourceCitations holds every cited id to it).
std::string quoteOf(std::string_view id);

// An excerpt of source `id`'s quote, in double quotes: from the first occurrence of `from` through the end of
// `through` (its first occurrence after `from`), or, when `through` is empty, to the end of the passage: the next
// ". " (its full stop kept), "; " or " … ", or the quote's end. For prose that cites part of a longer quote without
// copying it. Throws std::logic_error when the id or the words are not in the catalog (TestSourceCitations
// calls every one the code makes).
std::string quoteExcerpt(std::string_view id, std::string_view from, std::string_view through = {});

} // namespace dsw
