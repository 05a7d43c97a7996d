#include "knowledge/ModelCatalog.h"

#include "knowledge/DeepSpeedSchema.h"
#include "knowledge/KnowledgeFiles.h"
#include "util/TsvTable.h"

#include <algorithm>
#include <cctype>
#include <charconv>
#include <stdexcept>

namespace dsw {

namespace {

std::string lower(std::string s)
{
    std::transform(s.begin(), s.end(), s.begin(), [](unsigned char c) { return std::tolower(c); });
    return s;
}

// A column of models.tsv, looked up once by name (the name is kept for messages).
struct Column {
    std::string_view name;
    std::size_t index;
};

struct Columns {
    explicit Columns(const TsvTable& t)
        : id(of(t, "id"))
        , name(of(t, "name"))
        , hidden(of(t, "hidden"))
        , layers(of(t, "layers"))
        , heads(of(t, "heads"))
        , kvHeads(of(t, "kv_heads"))
        , headDim(of(t, "head_dim"))
        , intermediate(of(t, "intermediate"))
        , vocab(of(t, "vocab"))
        , mlp(of(t, "mlp"))
        , norm(of(t, "norm"))
        , bias(of(t, "bias"))
        , tiedEmbeddings(of(t, "tied_embeddings"))
        , learnedPositions(of(t, "learned_positions"))
        , crossAttentionLayers(of(t, "cross_attention_layers"))
        , maxPosition(of(t, "max_position"))
        , dropout(of(t, "dropout"))
        , architecture(of(t, "architecture"))
        , params(of(t, "params"))
        , experts(of(t, "experts"))
        , expertsPerToken(of(t, "experts_per_token"))
        , expertIntermediate(of(t, "expert_intermediate"))
        , sharedExperts(of(t, "shared_experts"))
        , denseLayers(of(t, "dense_layers"))
        , moeLayerInterval(of(t, "moe_layer_interval"))
        , activeParams(of(t, "active_params"))
        , modelType(of(t, "model_type"))
        , sourceUrl(of(t, "source_url"))
        , verification(of(t, "verification"))
    {
    }
    static Column of(const TsvTable& t, std::string_view name) { return {name, t.column(name)}; }

    Column id, name, hidden, layers, heads, kvHeads, headDim, intermediate, vocab, mlp, norm, bias, tiedEmbeddings,
        learnedPositions, crossAttentionLayers, maxPosition, dropout, architecture, params, experts, expertsPerToken,
        expertIntermediate, sharedExperts, denseLayers, moeLayerInterval, activeParams, modelType, sourceUrl,
        verification;
};

// One row of models.tsv, its cells read in place.
struct Row {
    const TsvTable& table;
    std::size_t index;
};

std::string_view cell(const Row& row, const Column& column) { return row.table.cell(row.index, column.index); }

std::int64_t whole(const Row& row, const Column& column, bool emptyIsZero)
{
    const std::string_view text = cell(row, column);
    if (text.empty() && emptyIsZero)
        return 0;
    std::int64_t value = 0;
    auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), value);
    if (ec != std::errc() || end != text.data() + text.size() || value < 0)
        throw std::invalid_argument(std::string(column.name) + " '" + std::string(text) + "' is not a whole number");
    return value;
}

// A probability 0 ≤ p < 1 written as a decimal (0, 0.1).
double probability(const Row& row, const Column& column)
{
    const std::string_view text = cell(row, column);
    double value = -1;
    auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), value);
    if (text.empty() || ec != std::errc() || end != text.data() + text.size() || !(value >= 0 && value < 1))
        throw std::invalid_argument(std::string(column.name) + " '" + std::string(text)
                                    + "' is not a probability from 0 to below 1");
    return value;
}

bool yesNo(const Row& row, const Column& column)
{
    const std::string_view text = cell(row, column);
    if (text != "y" && text != "n")
        throw std::invalid_argument(std::string(column.name) + " '" + std::string(text) + "' is not y or n");
    return text == "y";
}

ModelSpec parseRow(const Row& row, const Columns& c)
{
    ModelSpec m;
    m.id = cell(row, c.id);
    if (m.id.empty())
        throw std::invalid_argument("id is empty");
    m.name = cell(row, c.name);
    TransformerShape& s = m.shape;
    s.hidden = whole(row, c.hidden, false);
    s.layers = whole(row, c.layers, false);
    s.heads = whole(row, c.heads, false);
    s.kvHeads = whole(row, c.kvHeads, false);
    s.headDim = whole(row, c.headDim, true);
    s.intermediate = whole(row, c.intermediate, false);
    s.vocab = whole(row, c.vocab, false);
    const auto mlp = mlpKindFrom(cell(row, c.mlp));
    const auto norm = normKindFrom(cell(row, c.norm));
    const auto bias = linearBiasFrom(cell(row, c.bias));
    if (!mlp || !norm || !bias)
        throw std::invalid_argument("mlp, norm or bias is not a known value");
    s.mlp = *mlp;
    s.norm = *norm;
    s.bias = *bias;
    s.tiedEmbeddings = yesNo(row, c.tiedEmbeddings);
    s.learnedPositions = whole(row, c.learnedPositions, true);
    s.crossAttentionLayers = whole(row, c.crossAttentionLayers, true);
    m.maxPosition = whole(row, c.maxPosition, false);
    m.dropout = probability(row, c.dropout);
    m.architecture = cell(row, c.architecture);
    if (m.architecture != "decoder" && m.architecture != "encoder" && m.architecture != "encoder-decoder")
        throw std::invalid_argument("architecture '" + m.architecture + "' is not decoder, encoder or encoder-decoder");
    if (!cell(row, c.params).empty())
        m.publishedParams = whole(row, c.params, false);
    MoeSpec& moe = m.moe;
    moe.experts = whole(row, c.experts, false);
    if (moe.experts < 1)
        throw std::invalid_argument("experts '0' is not allowed: 1 for a dense model, else the experts per MoE layer");
    // A mixture of experts names how many a token uses; its experts are the intermediate size wide unless said.
    const std::int64_t perToken = whole(row, c.expertsPerToken, true);
    moe.expertIntermediate = whole(row, c.expertIntermediate, true);
    moe.sharedExperts = whole(row, c.sharedExperts, true);
    moe.denseLayers = whole(row, c.denseLayers, true);
    moe.layerInterval = std::max<std::int64_t>(1, whole(row, c.moeLayerInterval, true));
    if (!cell(row, c.activeParams).empty())
        m.publishedActive = whole(row, c.activeParams, false);
    const bool moeCells = perToken || moe.expertIntermediate || moe.sharedExperts || moe.denseLayers
        || !cell(row, c.moeLayerInterval).empty() || m.publishedActive;
    if (moe.moe() ? perToken < 1 || perToken > moe.experts || moe.denseLayers >= s.layers : moeCells)
        throw std::invalid_argument("experts_per_token '" + std::to_string(perToken)
                                    + "' and the other MoE columns are for a mixture of experts: top-k from 1 to "
                                      "experts and fewer dense layers than layers there, empty for a dense model");
    moe.expertsPerToken = std::max<std::int64_t>(1, perToken);
    m.modelType = cell(row, c.modelType);
    m.sourceUrl = cell(row, c.sourceUrl);
    m.verification = cell(row, c.verification);
    if (m.sourceUrl.empty() || m.verification.empty())
        throw std::invalid_argument("source_url and verification must be given");
    if (auto error = shapeError(s))
        throw std::invalid_argument(*error);
    return m;
}

} // namespace

const ModelCatalog& ModelCatalog::instance()
{
    // Never destroyed: it lives until the process ends, and freeing it at exit would only delay the exit.
    static const ModelCatalog& catalog = *new ModelCatalog(knowledgeFile("models.tsv"));
    return catalog;
}

ModelCatalog::ModelCatalog(std::string_view tsv)
{
    const TsvTable table(tsv);
    const Columns columns(table);
    m_models.reserve(table.rowCount());
    std::size_t line = 1; // the header
    for (std::size_t r = 0; r < table.rowCount(); ++r) {
        const Row row{table, r};
        ++line;
        try {
            ModelSpec m = parseRow(row, columns);
            if (find(m.id)) {
                m_problems.push_back("models.tsv line " + std::to_string(line) + ": id '" + m.id + "' is repeated");
                continue;
            }
            m_models.push_back(std::move(m));
        } catch (const std::exception& e) {
            m_problems.push_back("models.tsv line " + std::to_string(line) + " (" + std::string(cell(row, columns.id))
                                 + "): " + e.what());
        }
    }
}

const ModelSpec* ModelCatalog::find(const std::string& id) const
{
    // lower(m.id) == lower(id), byte by byte without building the strings: every plan looks the preset up often.
    auto same = [&](const std::string& x) {
        return x.size() == id.size()
            && std::equal(x.begin(), x.end(), id.begin(),
                          [](unsigned char a, unsigned char b) { return std::tolower(a) == std::tolower(b); });
    };
    auto it = std::find_if(m_models.begin(), m_models.end(), [&](const ModelSpec& m) { return same(m.id); });
    return it == m_models.end() ? nullptr : &*it;
}

std::vector<std::string> ModelCatalog::ids() const
{
    std::vector<std::string> out;
    for (const auto& m : m_models)
        out.push_back(m.id);
    return out;
}

std::vector<std::string> ModelCatalog::nearest(const std::string& text, std::size_t count) const
{
    const std::string wanted = lower(text);
    struct Candidate {
        bool contains;
        std::size_t distance;
        std::size_t order;
        const std::string* id;
    };
    std::vector<Candidate> candidates;
    for (std::size_t i = 0; i < m_models.size(); ++i) {
        const std::string id = lower(m_models[i].id);
        const bool contains = !wanted.empty() && id.find(wanted) != std::string::npos;
        candidates.push_back({contains, editDistance(wanted, id), i, &m_models[i].id});
    }
    std::stable_sort(candidates.begin(), candidates.end(), [](const Candidate& a, const Candidate& b) {
        if (a.contains != b.contains)
            return a.contains;
        return a.distance < b.distance;
    });
    std::vector<std::string> out;
    for (std::size_t i = 0; i < candidates.size() && out.size() < count; ++i)
        out.push_back(*candidates[i].id);
    return out;
}

} // namespace dsw
