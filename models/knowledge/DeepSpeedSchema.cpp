#include "knowledge/DeepSpeedSchema.h"

#include "knowledge/KnowledgeFiles.h"

#include <algorithm>
#include <stdexcept>

namespace dsw {

namespace {

using json = nlohmann::json;

std::optional<SchemaType> typeFromName(const std::string& name)
{
    static const std::map<std::string, SchemaType> types = {
        {"any", SchemaType::Any},       {"bool", SchemaType::Bool},     {"int", SchemaType::Int},
        {"number", SchemaType::Number}, {"string", SchemaType::String}, {"object", SchemaType::Object},
        {"array", SchemaType::Array}};
    auto it = types.find(name);
    return it == types.end() ? std::nullopt : std::optional<SchemaType>(it->second);
}

std::string text(const json& j, const char* key)
{
    auto it = j.find(key);
    return it != j.end() && it->is_string() ? it->get<std::string>() : std::string();
}

SchemaKey readKey(const std::string& name, const json& j, const std::string& blockSource)
{
    SchemaKey k;
    k.name = name;
    const auto type = typeFromName(text(j, "type"));
    if (!type)
        throw std::runtime_error("key " + name + ": unknown type \"" + text(j, "type") + "\"");
    k.type = *type;
    k.nullable = j.value("nullable", false);
    if (j.contains("default"))
        k.defaultValue = j.at("default");
    k.defaultNote = text(j, "default_note");
    if (j.contains("min"))
        k.min = j.at("min").get<double>();
    if (j.contains("max"))
        k.max = j.at("max").get<double>();
    if (j.contains("values"))
        k.values = j.at("values").get<std::vector<std::string>>();
    k.aliasOf = text(j, "alias_of");
    k.field = text(j, "field");
    k.block = text(j, "block");
    if (j.contains("stages"))
        k.stages = j.at("stages").get<std::vector<int>>();
    k.allStages = j.value("all_stages", false);
    k.rejected = j.value("rejected", false);
    k.replacement = text(j, "replacement");
    k.unused = text(j, "unused");
    k.note = text(j, "note");
    k.source = j.contains("source") ? text(j, "source") : blockSource;
    if (j.contains("deprecated")) {
        const json& d = j.at("deprecated");
        SchemaKey::Deprecation dep;
        dep.replacement = text(d, "replacement");
        dep.replacementValue = d.value("replacement_value", json());
        dep.since = text(d, "since");
        dep.note = text(d, "note");
        dep.ignored = d.value("ignored", false);
        dep.source = d.contains("source") ? text(d, "source") : k.source;
        k.deprecated = dep;
    }
    for (const json& c : j.value("changes", json::array()))
        k.changes.push_back({text(c, "from"), c.at("old"), c.at("new"), text(c, "source"), text(c, "level") == "info"});
    return k;
}

SchemaBlock readBlock(const json& j)
{
    SchemaBlock b;
    b.path = j.at("path").get<std::string>();
    b.reader = text(j, "reader");
    const std::string strictness = text(j, "strictness");
    if (strictness == "forbid")
        b.strictness = BlockStrictness::Forbid;
    else if (strictness == "ignore")
        b.strictness = BlockStrictness::Ignore;
    else if (strictness == "open")
        b.strictness = BlockStrictness::Open;
    else
        throw std::runtime_error("block \"" + b.path + "\": unknown strictness \"" + strictness + "\"");
    b.source = text(j, "source");
    for (const auto& [name, spec] : j.at("keys").items())
        b.keys.push_back(readKey(name, spec, b.source));
    const json modes = j.value("modes", json::object()); // a named copy: items() must not outlive it
    for (const auto& [mode, keys] : modes.items())
        b.modes[mode] = keys.get<std::vector<std::string>>();
    return b;
}

std::vector<std::string> pointerTokens(const std::string& pointer)
{
    std::vector<std::string> tokens;
    if (pointer.empty() || pointer[0] != '/')
        return tokens;
    std::string current;
    for (std::size_t i = 1; i <= pointer.size(); ++i) {
        if (i == pointer.size() || pointer[i] == '/') {
            tokens.push_back(current);
            current.clear();
        } else if (pointer[i] == '~' && i + 1 < pointer.size() && (pointer[i + 1] == '0' || pointer[i + 1] == '1')) {
            current += pointer[++i] == '0' ? '~' : '/';
        } else {
            current += pointer[i];
        }
    }
    return tokens;
}

// Close enough to be the key the author meant: a slip of one or two characters, or a prefix of at
// least six characters ("stage3_prefetch_bucket" for "stage3_prefetch_bucket_size").
bool closeEnough(const std::string& written, const std::string& candidate, std::size_t distance)
{
    const std::size_t shorter = std::min(written.size(), candidate.size());
    const std::size_t allowed = shorter <= 4 ? 1 : shorter <= 10 ? 2 : 3;
    if (distance <= allowed)
        return true;
    return shorter >= 6 && (candidate.rfind(written, 0) == 0 || written.rfind(candidate, 0) == 0);
}

} // namespace

std::size_t editDistance(const std::string& a, const std::string& b)
{
    const std::size_t n = a.size(), m = b.size();
    std::vector<std::vector<std::size_t>> d(n + 1, std::vector<std::size_t>(m + 1));
    for (std::size_t i = 0; i <= n; ++i)
        d[i][0] = i;
    for (std::size_t j = 0; j <= m; ++j)
        d[0][j] = j;
    for (std::size_t i = 1; i <= n; ++i)
        for (std::size_t j = 1; j <= m; ++j) {
            const std::size_t cost = a[i - 1] == b[j - 1] ? 0 : 1;
            d[i][j] = std::min({d[i - 1][j] + 1, d[i][j - 1] + 1, d[i - 1][j - 1] + cost});
            if (i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1])
                d[i][j] = std::min(d[i][j], d[i - 2][j - 2] + 1);
        }
    return d[n][m];
}

const SchemaKey* SchemaBlock::find(const std::string& name) const
{
    for (const SchemaKey& k : keys)
        if (k.name == name)
            return &k;
    for (const SchemaKey& k : keys)
        if (!k.field.empty() && k.field == name)
            return &k;
    return nullptr;
}

const DeepSpeedSchema& DeepSpeedSchema::instance()
{
    static const DeepSpeedSchema schema = fromJson(std::string(knowledgeFile("deepspeed-schema.json"))).orThrow();
    return schema;
}

Result<DeepSpeedSchema> DeepSpeedSchema::fromJson(const std::string& textIn)
{
    try {
        const json j = json::parse(textIn);
        DeepSpeedSchema s;
        s.m_version = text(j, "deepspeed_version");
        for (const json& b : j.at("blocks"))
            s.m_blocks.push_back(readBlock(b));
        for (const json& r : j.value("misplaced", json::array()))
            s.m_relocations.push_back({text(r, "block"), text(r, "key"), text(r, "belongs"), text(r, "source")});
        if (j.contains("launcher_filled_auto")) {
            s.m_autoPointers = j.at("launcher_filled_auto").at("pointers").get<std::vector<std::string>>();
            s.m_autoSource = text(j.at("launcher_filled_auto"), "source");
            s.m_accelerateAutoPointers =
                j.at("launcher_filled_auto").value("accelerate_pointers", std::vector<std::string>());
            s.m_accelerateAutoSource = text(j.at("launcher_filled_auto"), "accelerate_source");
        }
        for (const SchemaBlock& b : s.m_blocks) // every block a key opens must be described
            for (const SchemaKey& k : b.keys)
                if (!k.block.empty() && !s.block(k.block))
                    return Result<DeepSpeedSchema>::failure("deepspeed-schema.json: " + b.path + "." + k.name
                                                            + " opens the undescribed block \"" + k.block + "\"");
        if (!s.block(""))
            return Result<DeepSpeedSchema>::failure("deepspeed-schema.json: no top-level block");
        return s;
    } catch (const std::exception& e) {
        return Result<DeepSpeedSchema>::failure(std::string("deepspeed-schema.json: ") + e.what());
    }
}

const SchemaBlock* DeepSpeedSchema::block(const std::string& path) const
{
    for (const SchemaBlock& b : m_blocks)
        if (b.path == path)
            return &b;
    return nullptr;
}

const SchemaKey* DeepSpeedSchema::key(const std::string& blockPath, const std::string& name) const
{
    const SchemaBlock* b = block(blockPath);
    return b ? b->find(name) : nullptr;
}

std::optional<std::pair<std::string, std::string>> DeepSpeedSchema::locate(const std::string& pointer) const
{
    const std::vector<std::string> tokens = pointerTokens(pointer);
    if (tokens.empty())
        return std::nullopt;
    std::string blockPath;
    for (std::size_t i = 0; i + 1 < tokens.size(); ++i) {
        const SchemaKey* k = key(blockPath, tokens[i]);
        if (!k || k->block.empty())
            return std::nullopt;
        blockPath = k->block;
    }
    return std::make_pair(blockPath, tokens.back());
}

std::string DeepSpeedSchema::canonicalKey(const std::string& blockPath, const std::string& name) const
{
    const SchemaKey* k = key(blockPath, name);
    if (!k)
        return name;
    return k->aliasOf.empty() ? k->name : k->aliasOf;
}

std::optional<nlohmann::json> DeepSpeedSchema::defaultValue(const std::string& pointer) const
{
    const auto where = locate(pointer);
    if (!where)
        return std::nullopt;
    const SchemaKey* k = key(where->first, where->second);
    if (k && !k->aliasOf.empty())
        k = key(where->first, k->aliasOf);
    if (!k || !k->defaultValue)
        return std::nullopt;
    return k->defaultValue;
}

std::optional<std::string> DeepSpeedSchema::nearestKey(const std::string& blockPath, const std::string& name) const
{
    const SchemaBlock* b = block(blockPath);
    if (!b)
        return std::nullopt;
    std::optional<std::string> best;
    std::size_t bestDistance = 0;
    auto consider = [&](const std::string& candidate, const std::string& suggest) {
        if (candidate.empty() || candidate == name)
            return;
        const std::size_t d = editDistance(name, candidate);
        if (!closeEnough(name, candidate, d))
            return;
        if (!best || d < bestDistance || (d == bestDistance && suggest < *best)) {
            best = suggest;
            bestDistance = d;
        }
    };
    for (const SchemaKey& k : b->keys) {
        if (k.rejected || (k.deprecated && k.deprecated->ignored))
            continue; // never suggest a key that does nothing
        consider(k.name, k.aliasOf.empty() ? k.name : k.aliasOf);
        consider(k.field, k.name);
    }
    return best;
}

std::vector<std::string> DeepSpeedSchema::blocksWithKey(const std::string& name) const
{
    std::vector<std::string> found;
    for (const SchemaBlock& b : m_blocks)
        if (const SchemaKey* k = b.find(name); k && !k->rejected && !k->deprecated)
            found.push_back(b.path);
    return found;
}

const SchemaRelocation* DeepSpeedSchema::relocation(const std::string& blockPath, const std::string& name) const
{
    for (const SchemaRelocation& r : m_relocations)
        if (r.block == blockPath && r.key == name)
            return &r;
    return nullptr;
}

bool DeepSpeedSchema::launcherFillsAuto(const std::string& pointer, const std::string& launcher) const
{
    auto listed = [&](const std::vector<std::string>& list) {
        return std::find(list.begin(), list.end(), pointer) != list.end();
    };
    if (launcher != "hf-trainer" && launcher != "accelerate")
        return false;
    return listed(launcher == "accelerate" ? m_accelerateAutoPointers : m_autoPointers);
}

std::string DeepSpeedSchema::launcherAutoSource(const std::string& pointer, const std::string& launcher) const
{
    (void)pointer; // one source per launcher
    return launcher == "accelerate" ? m_accelerateAutoSource : m_autoSource;
}

} // namespace dsw
