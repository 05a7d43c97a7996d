// The schema pass: every key of every block DeepSpeed reads, checked as DeepSpeed reads it.
// Strict (pydantic, extra="forbid") blocks reject unknown keys and convert some values; plain-dict
// blocks ignore unknown keys and use values as written. The semantic rules are in ConfigRules.cpp.
#include "lint/ConfigLinter.h"

#include "knowledge/SourceCatalog.h"
#include "lint/ConfigRules.h"
#include "lint/LintReport.h"
#include "lint/ValueLint.h"
#include "util/Version.h"

#include <algorithm>
#include <cmath>

namespace dsw {

namespace {

using oj = nlohmann::ordered_json;

class SchemaPass {
public:
    explicit SchemaPass(LintReport& r)
        : m_r(r)
    {
    }

    void run()
    {
        for (const ParsedConfig::Duplicate& d : m_r.config().duplicates)
            m_r.add(LintLevel::Error, "duplicate-key", d.pointer,
                    dottedPath(d.pointer)
                        + " is written more than once: DeepSpeed's file loader raises "
                          "ValueError(\"Duplicate keys in DeepSpeed config: ...\"); a loader that builds a dict first "
                          "silently keeps the last value.",
                    "keep one of them", "ds-duplicate-keys");
        if (!m_r.config().strictJson) {
            std::string what;
            for (const std::string& s : m_r.config().hjsonSyntax)
                what += (what.empty() ? "" : ", ") + s;
            m_r.add(LintLevel::Info, "not-strict-json", "",
                    "The file is not strict JSON (" + what
                        + "). DeepSpeed's own loader reads it with hjson, but "
                          "strict JSON readers will not.",
                    std::nullopt, "ds-config-parse");
        }
        for (const std::string& p : m_r.config().quotelessValues) {
            const oj* v = m_r.at(p);
            m_r.add(LintLevel::Error, "unquoted-value", p,
                    dottedPath(p) + " is bare text; hjson reads it as the string " + (v ? shortJson(*v) : "")
                        + " up to the end of the line: a template placeholder that was never filled in?",
                    "replace it with a value", "ds-config-parse");
        }
        walk(m_r.json(), "", m_r.schema().block(""));
    }

private:
    void walk(const oj& object, const std::string& pointer, const SchemaBlock* block)
    {
        for (auto it = object.begin(); it != object.end(); ++it) {
            const std::string child = pointer + "/" + pointerToken(it.key());
            const oj& value = it.value();
            const SchemaKey* spec = block ? block->find(it.key()) : nullptr;
            const bool isAuto = value.is_string() && value.get_ref<const std::string&>() == "auto";
            if (isAuto && (spec || !block || block->strictness == BlockStrictness::Open)) {
                autoValue(child, block, spec);
                continue;
            }
            if (!block || block->strictness == BlockStrictness::Open)
                continue;
            if (!spec) {
                unknownKey(child, *block, it.key(), isAuto);
                continue;
            }
            if (spec->rejected) {
                m_r.add(LintLevel::Error, "unknown-key-rejected", child, dottedPath(child) + " is " + spec->note + ".",
                        spec->replacement.empty() ? std::optional<std::string>("remove it")
                                                  : "use \"" + spec->replacement + "\" instead",
                        spec->source);
                continue;
            }
            keyNotes(object, child, *block, *spec, it.key());
            if (!m_r.isQuoteless(child))
                lintValue(m_r, child, *block, *spec, value);
            if (!spec->block.empty() && value.is_object())
                walk(value, child, m_r.schema().block(spec->block));
        }
        if (block && !block->modes.empty())
            checkModeKeys(object, pointer, *block);
    }

    std::optional<std::string> suggestionFor(const SchemaBlock& block, const std::string& key) const
    {
        const DeepSpeedSchema& schema = m_r.schema();
        if (const SchemaRelocation* r = schema.relocation(block.path, key))
            return "DeepSpeed reads it as \"" + r->belongs + "\"";
        if (auto near = schema.nearestKey(block.path, key))
            return "did you mean \"" + *near + "\"?";
        if (auto elsewhere = schema.blocksWithKey(key); !elsewhere.empty())
            return "it belongs in \"" + (elsewhere.front().empty() ? std::string("the top level") : elsewhere.front())
                + "\"";
        return std::nullopt;
    }

    void unknownKey(const std::string& pointer, const SchemaBlock& block, const std::string& key, bool isAuto)
    {
        // Edit distances are quadratic in key length: a hostile file with thousands of unknown or very
        // long keys gets its findings without suggestions.
        std::optional<std::string> suggestion;
        if (++m_unknownKeys <= kMaxSuggestions && key.size() <= 64)
            suggestion = suggestionFor(block, key);
        const std::string where = block.path.empty() ? std::string("the top level") : "\"" + block.path + "\"";
        if (block.strictness == BlockStrictness::Forbid && isAuto) { // "auto" is dropped before pydantic looks
            m_r.add(LintLevel::Warning, "unknown-key-ignored", pointer,
                    dottedPath(pointer) + " is not a field of " + where
                        + ", but its value is \"auto\", which DeepSpeed "
                          "removes before validation: the key is silently ignored instead of rejected.",
                    suggestion.value_or("remove it"), "ds-config-auto");
        } else if (block.strictness == BlockStrictness::Forbid) {
            m_r.add(LintLevel::Error, "unknown-key-rejected", pointer,
                    dottedPath(pointer) + " is not a field of " + where
                        + ", which DeepSpeed validates with pydantic "
                          "(extra=\"forbid\"): the whole config is rejected (\"Extra inputs are not permitted\").",
                    suggestion.value_or("remove it"), "ds-config-model");
        } else if (block.path.empty() && !key.empty() && key[0] == '_') {
            m_r.add(LintLevel::Info, "comment-key", pointer,
                    "\"" + key + "\" reads as a comment; DeepSpeed ignores top-level keys it does not know.",
                    std::nullopt, "ds-config-parse");
        } else {
            m_r.add(LintLevel::Warning, "unknown-key-ignored", pointer,
                    dottedPath(pointer) + " is not a key DeepSpeed reads: " + where
                        + " is read with "
                          ".get(key, default), so it is silently ignored.",
                    suggestion, "ds-config-parse");
        }
    }

    // A rename that the user's (older) DeepSpeed has not made yet.
    bool stillCurrent(const SchemaKey::Deprecation& d) const
    {
        const Answers& a = m_r.context();
        return !d.since.empty() && a.has("software.deepspeed_version")
            && !versionAtLeast(a.text("software.deepspeed_version"), d.since);
    }

    // Deprecated, renamed, unused and alias spellings of a known key.
    void keyNotes(const oj& object, const std::string& pointer, const SchemaBlock& block, const SchemaKey& spec,
                  const std::string& written)
    {
        if (spec.deprecated && stillCurrent(*spec.deprecated)) {
            m_r.add(LintLevel::Info, "deprecated-key", pointer,
                    dottedPath(pointer) + " is what DeepSpeed " + m_r.context().text("software.deepspeed_version")
                        + " reads; from " + spec.deprecated->since + " it is \"" + spec.deprecated->replacement + "\".",
                    "rename it when you upgrade", spec.deprecated->source);
        } else if (spec.deprecated) {
            const SchemaKey::Deprecation& d = *spec.deprecated;
            const std::string replacementKey = d.replacement.substr(0, d.replacement.find_first_of(". /"));
            const bool lenient = block.strictness != BlockStrictness::Forbid;
            std::string text = dottedPath(pointer) + " is deprecated";
            if (!d.since.empty())
                text += " (" + d.since + ")";
            text += ": " + d.note + ".";
            std::string suggestion = "use \"" + d.replacement + "\"";
            if (!d.replacementValue.is_null())
                suggestion += ": " + d.replacementValue.dump();
            if (d.ignored && lenient)
                m_r.add(LintLevel::Warning, "renamed-key-ignored", pointer, text, suggestion, d.source);
            else
                m_r.add(LintLevel::Warning, "deprecated-key", pointer, text, suggestion, d.source);
            const SchemaKey* replacementSpec = block.find(replacementKey);
            const bool replaced = object.contains(replacementKey)
                || (replacementSpec && !replacementSpec->field.empty() && object.contains(replacementSpec->field));
            if (replaced && replacementKey != written) {
                if (!spec.aliasOf.empty()) // "bfloat16" next to "bf16": only "bf16" is read
                    m_r.add(LintLevel::Warning, "deprecated-key-shadowed", pointer,
                            dottedPath(pointer) + " is not read at all, because \"" + replacementKey + "\" is present.",
                            "remove it", d.source);
                else if (!d.ignored)
                    m_r.add(LintLevel::Error, "deprecated-with-replacement", pointer,
                            "DeepSpeed refuses " + dottedPath(pointer) + " next to \"" + replacementKey
                                + "\": \"Cannot "
                                  "provide deprecated parameter '"
                                + written + "' and replacing parameter '" + replacementKey + "' together\".",
                            "remove " + written, "ds-deprecated-fields");
            }
        }
        if (!spec.unused.empty())
            m_r.add(LintLevel::Warning, "key-not-read", pointer, dottedPath(pointer) + " is " + spec.unused + ".",
                    "remove it", spec.source);
        if (written != spec.name) { // the pydantic field name of a stage3_ alias
            if (object.contains(spec.name))
                m_r.add(LintLevel::Warning, "alias-conflict", pointer,
                        "\"" + written + "\" and \"" + spec.name
                            + "\" are two spellings of the same field; pydantic "
                              "keeps only one of them.",
                        "keep \"" + spec.name + "\"", spec.source);
            else
                m_r.add(LintLevel::Info, "noncanonical-key", pointer,
                        "\"" + written + "\" is accepted as the field name of \"" + spec.name
                            + "\" (populate_by_name); "
                              "\""
                            + spec.name + "\" is the documented key.",
                        "rename it to \"" + spec.name + "\"", spec.source);
        }
    }

    void autoValue(const std::string& pointer, const SchemaBlock* block, const SchemaKey* spec)
    {
        const std::string name = dottedPath(pointer);
        const std::string launcher = m_r.launcher();
        const bool hf = m_r.launcherFillsAuto();
        // Accelerate computes train_batch_size from the micro-batch only (accelerator.py L2220-L2225).
        const bool filled = m_r.schema().launcherFillsAuto(pointer, launcher)
            && !(launcher == "accelerate" && pointer == "/train_batch_size"
                 && !m_r.at("/train_micro_batch_size_per_gpu"));
        if (hf && filled && pointer == "/scheduler/params/warmup_num_steps")
            return; // what the Trainer fills there, and whether DeepSpeed takes it: EngineRules' hf-warmup-auto
        if (hf && filled) {
            m_r.add(LintLevel::Info, "auto-value", pointer,
                    name + " is \"auto\": " + launcher + " fills it in before DeepSpeed reads the config.",
                    std::nullopt, m_r.schema().launcherAutoSource(pointer, launcher));
            return;
        }
        if (hf) { // DeepSpeedPlugin.fill_match raises for an "auto" prepare() has no value for (the Trainer calls it)
            m_r.add(LintLevel::Error, "auto-value", pointer,
                    name + " is \"auto\", which " + launcher + " does not fill: accelerator.prepare()"
                        + (launcher == "accelerate" ? "" : ", which the Trainer calls,") + " raises ValueError(\"`"
                        + name + "` " + quoteOf("accelerate-auto-kwargs") + ". ...\").",
                    "write the value", "accelerate-auto-kwargs");
            return;
        }
        const std::string notFilled = hf ? " " + launcher + " does not fill this key." : std::string();
        if (block && block->strictness == BlockStrictness::Forbid) {
            if (spec && spec->defaultValue && *spec->defaultValue == "auto")
                return; // dropping "auto" leaves the default, which is "auto"
            std::string fallback = "its default";
            if (spec && spec->defaultValue)
                fallback = "the default " + shortJson(*spec->defaultValue);
            m_r.add(LintLevel::Warning, "auto-in-strict-block", pointer,
                    name + " is \"auto\"." + notFilled + " Inside \""
                        + dottedPath(pointer.substr(0, pointer.rfind('/')))
                        + "\" DeepSpeed silently drops \"auto\" and uses " + fallback + ".",
                    "write the value you want", "ds-config-auto");
            return;
        }
        if (launcher == "deepspeed") {
            m_r.add(LintLevel::Error, "auto-value", pointer,
                    name
                        + " is \"auto\", which only the HF Trainer and Accelerate replace. Plain DeepSpeed reads it as "
                          "the string \"auto\" and fails where it needs a number.",
                    "write the value", "ds-config-auto");
        } else {
            m_r.add(LintLevel::Warning, "auto-value", pointer,
                    name + " is \"auto\"." + notFilled
                        + " Only the HF Trainer and Accelerate replace \"auto\"; plain "
                          "DeepSpeed would read the string as written.",
                    hf ? std::optional<std::string>("write the value")
                       : std::optional<std::string>("set software.launcher, or write the value"),
                    "ds-config-auto");
        }
    }

    // sparse_attention reads a different set of keys per mode.
    void checkModeKeys(const oj& object, const std::string& pointer, const SchemaBlock& block)
    {
        const std::string mode =
            object.contains("mode") && object["mode"].is_string() ? object["mode"].get<std::string>() : "fixed";
        auto keys = block.modes.find(mode);
        if (keys == block.modes.end())
            return; // an unknown mode is reported as an invalid value
        for (auto it = object.begin(); it != object.end(); ++it) {
            const auto& read = keys->second;
            if (block.find(it.key()) && std::find(read.begin(), read.end(), it.key()) == read.end())
                m_r.add(LintLevel::Warning, "key-not-read", pointer + "/" + pointerToken(it.key()),
                        dottedPath(pointer + "/" + pointerToken(it.key())) + " is not read in mode \"" + mode + "\".",
                        "remove it", block.source);
        }
    }

    static constexpr int kMaxSuggestions = 200;
    LintReport& m_r;
    int m_unknownKeys = 0;
};

} // namespace

std::vector<LintFinding> lintConfig(const ParsedConfig& config, const Answers& context)
{
    LintReport report(config, context, DeepSpeedSchema::instance());
    SchemaPass(report).run();
    applyConfigRules(report);
    return report.take();
}

std::string toString(LintLevel level)
{
    switch (level) {
    case LintLevel::Error: return "error";
    case LintLevel::Warning: return "warning";
    case LintLevel::Info: return "info";
    }
    return "info";
}

std::string mark(LintLevel level)
{
    switch (level) {
    case LintLevel::Error: return "✗";
    case LintLevel::Warning: return "⚠";
    case LintLevel::Info: return "ℹ";
    }
    return "ℹ";
}

nlohmann::ordered_json toJson(const LintFinding& f)
{
    // Every field is always present (null when there is none), so readers see one shape.
    return nlohmann::ordered_json{{"level", toString(f.level)},
                                  {"code", f.code},
                                  {"path", f.path},
                                  {"line", f.line},
                                  {"message", f.message},
                                  {"suggestion", f.suggestion ? nlohmann::ordered_json(*f.suggestion) : nullptr},
                                  {"source", f.source ? nlohmann::ordered_json(*f.source) : nullptr}};
}

} // namespace dsw
