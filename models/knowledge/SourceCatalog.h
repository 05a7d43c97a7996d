#pragma once
#include "util/Result.h"

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

// The rows of sources.tsv (`tsv`) in file order, or the error naming the file, the line and what is wrong: the
// columns id, title, url and quote, each once; every row with as many cells as the header; no empty id and no id
// twice (knowledge/KnowledgeTable.h).
Result<std::vector<Source>> readSources(std::string_view tsv);

// The sources.
class SourceCatalog {
public:
    // The embedded sources.tsv, read on first use; throws std::logic_error with readSources' message when the file
    // is malformed (TestSourceCatalog holds it well-formed).
    static const SourceCatalog& instance();
    explicit SourceCatalog(std::vector<Source> sources)
        : m_sources(std::move(sources))
    {
    }

    const Source* find(std::string_view id) const;
    // Every row, in file order (the same objects find() returns).
    const std::vector<Source>& all() const { return m_sources; }

private:
    std::vector<Source> m_sources;
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
