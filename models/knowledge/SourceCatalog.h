#pragma once
#include "util/TsvTable.h"

#include <memory>
#include <mutex>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

namespace dsw {

// A source of facts, from resources/knowledge/sources.tsv: shown beside every number and claim.
struct Source {
    std::string id;
    std::string title;
    std::string url;
    std::string quote; // exactly as the source gives it
};

// The sources, read in place: a row becomes a Source the first time it is asked for (a command cites a few of
// ~200), so that start-up copies nothing. Thread-safe.
class SourceCatalog {
public:
    static const SourceCatalog& instance();
    explicit SourceCatalog(std::string_view tsv); // keeps its own copy of the text
    SourceCatalog(const SourceCatalog&) = delete;
    SourceCatalog& operator=(const SourceCatalog&) = delete;

    const Source* find(const std::string& id) const;
    // Every row, in file order (the same objects find() returns).
    const std::vector<Source>& all() const;

private:
    struct InPlace {}; // the text outlives the catalog (the embedded knowledge)
    SourceCatalog(std::string_view tsv, InPlace);
    SourceCatalog(std::string ownText, std::string_view inPlace); // reads ownText, or inPlace when it is empty
    const Source& row(std::size_t index) const;                   // with m_mutex held

    std::string m_ownText; // empty for the embedded catalog, read in place
    TsvTable m_table;
    std::size_t m_title, m_url, m_quote;
    std::unordered_map<std::string_view, std::size_t> m_index; // id -> its first row: prose looks sources up on
                                                               // every plan
    mutable std::mutex m_mutex;
    mutable std::vector<Source> m_sources; // one per row, filled when first asked for
    mutable std::vector<bool> m_filled;
    mutable bool m_allFilled = false;
};

// The quote of source `id` in double quotes, as prose cites it, so a quote lives once, in sources.tsv.
// `id` must be there (TestSourceCitations holds every cited id to it).
std::string quoteOf(const std::string& id);

// An excerpt of source `id`'s quote, in double quotes: from the first occurrence of `from` through the end of
// `through` (its first occurrence after `from`), or, when `through` is empty, to the end of the passage: the next
// ". " (its full stop kept), "; " or " … ", or the quote's end. For prose that cites part of a longer quote without
// copying it. Throws std::logic_error when the id or the words are not in the catalog (TestSourceCitations
// calls every one the code makes).
std::string quoteExcerpt(const std::string& id, std::string_view from, std::string_view through = {});

} // namespace dsw
