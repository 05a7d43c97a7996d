#pragma once
#include "util/Result.h"

#include <map>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace dsw {

enum class SchemaType { Any, Bool, Int, Number, String, Object, Array };

// How DeepSpeed reads a block: a pydantic model that rejects unknown keys, a dict read with
// .get(key, default) that ignores them, or a block ds-wizard does not check.
enum class BlockStrictness { Forbid, Ignore, Open };

// One key of a ds_config block, as resources/knowledge/deepspeed-schema.json describes it.
struct SchemaKey {
    struct Deprecation {
        std::string replacement;         // the key to use instead (relative to the same block)
        nlohmann::json replacementValue; // what DeepSpeed turns the old key into, when it does
        std::string since;               // DeepSpeed version of the change, when known
        std::string note;
        bool ignored = false; // no longer read at all (silently)
        std::string source;
    };
    struct DefaultChange {
        std::string from; // first DeepSpeed version with the new default
        nlohmann::json oldValue;
        nlohmann::json newValue;
        std::string source;
        bool quiet = false; // reported as info even where the new default applies
    };

    std::string name; // the JSON key (for stage-3 knobs, the stage3_ alias)
    SchemaType type = SchemaType::Any;
    bool nullable = false;
    std::optional<nlohmann::json> defaultValue;
    std::string defaultNote;
    std::optional<double> min;
    std::optional<double> max;
    std::vector<std::string> values; // allowed strings, when the key is an enum
    std::string aliasOf;             // another accepted spelling of this canonical key
    std::string field;               // pydantic field name, accepted too (populate_by_name)
    std::string block;               // dotted path of the block this key's object is read as
    std::vector<int> stages;         // ZeRO stages where it takes effect; empty = 1 to 3
    bool allStages = false;          // takes effect at stage 0 too
    bool rejected = false;           // documented or stale, but DeepSpeed rejects it
    std::string replacement;         // for a rejected key, the one that exists
    std::string unused;              // read into the defaults but never used: why
    std::string note;
    std::optional<Deprecation> deprecated;
    std::vector<DefaultChange> changes;
    std::string source; // the key's source id, else the block's
};

struct SchemaBlock {
    std::string path;   // "" (top level), "zero_optimization", "zero_optimization.offload_param", ...
    std::string reader; // the DeepSpeed code that reads it
    BlockStrictness strictness = BlockStrictness::Open;
    std::string source;
    std::vector<SchemaKey> keys;
    std::map<std::string, std::vector<std::string>> modes; // sparse_attention: keys read per mode

    const SchemaKey* find(const std::string& name) const; // by JSON key or pydantic field name
};

// A key written in the wrong block ("load_universal_checkpoint" at the top level).
struct SchemaRelocation {
    std::string block;
    std::string key;
    std::string belongs; // dotted path where DeepSpeed reads it
    std::string source;
};

// DeepSpeed's config schema (v0.19.5): which keys each block has, their types and defaults,
// aliases, deprecations and the "did you mean" of a misspelt key. Shared by the linter and the
// semantic diff.
class DeepSpeedSchema {
public:
    // The embedded resources/knowledge/deepspeed-schema.json, read on first use; throws std::logic_error with
    // fromJson's message when the file is malformed (TestDeepSpeedSchema holds it well-formed).
    static const DeepSpeedSchema& instance();
    // The schema in `text`, or the error naming deepspeed-schema.json and what is wrong.
    static Result<DeepSpeedSchema> fromJson(const std::string& text);

    const std::string& deepspeedVersion() const { return m_version; }
    const std::vector<SchemaBlock>& blocks() const { return m_blocks; }
    const SchemaBlock* block(const std::string& path) const;
    const SchemaKey* key(const std::string& blockPath, const std::string& name) const;

    // The block and key a JSON pointer names, following the keys that open blocks
    // ("/bfloat16/enabled" -> {"bf16", "enabled"}); nullopt when it leaves the schema.
    std::optional<std::pair<std::string, std::string>> locate(const std::string& pointer) const;
    // The documented spelling of a key: the stage3_ alias for its pydantic field name, "bf16" for
    // "bfloat16"; any other key is returned unchanged.
    std::string canonicalKey(const std::string& blockPath, const std::string& name) const;
    // DeepSpeed's default for the key at `pointer` ("/zero_optimization/stage" -> 0); nullopt when
    // the key is unknown or has no fixed default. null is a real default (e.g. overlap_comm).
    std::optional<nlohmann::json> defaultValue(const std::string& pointer) const;
    // The closest valid key of the block by edit distance, when one is close enough.
    std::optional<std::string> nearestKey(const std::string& blockPath, const std::string& name) const;
    // Other blocks that have a key of exactly this name ("use_node_local_storage" -> {"checkpoint"}).
    std::vector<std::string> blocksWithKey(const std::string& name) const;
    const SchemaRelocation* relocation(const std::string& blockPath, const std::string& name) const;

    // Whether `launcher` ("hf-trainer", "accelerate") replaces "auto" at this pointer before DeepSpeed
    // reads the config, and the source that says so.
    bool launcherFillsAuto(const std::string& pointer, const std::string& launcher) const;
    std::string launcherAutoSource(const std::string& pointer, const std::string& launcher) const;

private:
    std::string m_version;
    std::vector<SchemaBlock> m_blocks;
    std::vector<SchemaRelocation> m_relocations;
    std::vector<std::string> m_autoPointers;
    std::string m_autoSource;
    std::vector<std::string> m_accelerateAutoPointers;
    std::string m_accelerateAutoSource;
};

// Optimal-string-alignment edit distance (insertions, deletions, substitutions, adjacent swaps).
std::size_t editDistance(const std::string& a, const std::string& b);

} // namespace dsw
