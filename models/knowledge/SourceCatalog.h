#pragma once
#include <string>
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
    explicit SourceCatalog(const std::string& tsv);
    const Source* find(const std::string& id) const;
    const std::vector<Source>& all() const { return m_sources; }

private:
    std::vector<Source> m_sources;
};

// The quote of source `id` in double quotes, as prose cites it, so a quote lives once, in sources.tsv.
// `id` must be there (TestSourceCitations holds every cited id to it).
std::string quoteOf(const std::string& id);

} // namespace dsw
