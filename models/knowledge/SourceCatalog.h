#pragma once
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

class SourceCatalog {
public:
    static const SourceCatalog& instance();
    explicit SourceCatalog(std::string_view tsv);
    const Source* find(const std::string& id) const;
    const std::vector<Source>& all() const { return m_sources; }

private:
    std::vector<Source> m_sources;
    std::unordered_map<std::string, std::size_t> m_index; // id -> its first row: prose looks sources up on every plan
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
