#include "config/ConfigDiff.h"
#include "util/JsonAccess.h"

#include "knowledge/DeepSpeedSchema.h"
#include "util/OrderedObjectBuilder.h"

#include <optional>
#include <string_view>
#include <unordered_map>
#include <vector>

namespace dsw {

namespace {

using oj = nlohmann::ordered_json;

// Renames keys to their documented spelling, recursively, so aliases compare equal.
oj canonical(const oj& value, const std::string& blockPath)
{
    if (!value.is_object())
        return value;
    const auto& schema = DeepSpeedSchema::instance();
    OrderedObjectBuilder out;
    for (const auto& [key, child] : value.items()) {
        std::string name = schema.canonicalKey(blockPath, key);
        // A deprecated key reads as its replacement (cpu_offload: true is offload_optimizer {"device": "cpu"}).
        const SchemaKey* spec = schema.key(blockPath, key);
        if (spec && spec->deprecated && !spec->deprecated->replacement.empty() && !spec->deprecated->ignored) {
            const auto& dep = *spec->deprecated;
            if (!dep.replacementValue.is_null()) {
                if (child == true && !out.contains(dep.replacement))
                    out.set(dep.replacement,
                            canonical(oj(dep.replacementValue),
                                      blockPath.empty() ? dep.replacement : blockPath + "." + dep.replacement));
                continue;
            }
            name = dep.replacement;
        }
        const std::string childBlock = blockPath.empty() ? name : blockPath + "." + name;
        if (!out.contains(name)) // a config with both spellings keeps the first, as the diff cannot pick
            out.set(name, canonical(child, childBlock));
    }
    return out.take();
}

// True when canonical() would give the value back unchanged: no alias, no deprecated spelling at any
// level. Most configs are so, and are then compared as they are, without a copy.
bool isCanonical(const oj& value, const std::string& blockPath)
{
    if (!value.is_object())
        return true;
    const auto& schema = DeepSpeedSchema::instance();
    for (auto it = value.begin(); it != value.end(); ++it) {
        if (const SchemaKey* spec = schema.key(blockPath, it.key())) {
            if (spec->deprecated && !spec->deprecated->replacement.empty() && !spec->deprecated->ignored)
                return false;
            if (schema.canonicalKey(blockPath, it.key()) != it.key())
                return false;
        }
        if (it->is_object() && !isCanonical(*it, blockPath.empty() ? it.key() : blockPath + "." + it.key()))
            return false;
    }
    return true;
}

bool sameValue(const oj& x, const oj& y)
{
    if (x.is_number() && y.is_number())
        return x.get<double>() == y.get<double>();
    return x == y;
}

int zeroStage(const oj& config)
{
    const auto it = config.find("zero_optimization");
    if (it == config.end() || !it->is_object())
        return 0;
    const auto stage = it->find("stage");
    return stage != it->end() && stage->is_number() ? stage->get<int>() : 0;
}

// What DeepSpeed uses for an absent key; null-with-meaning defaults resolved where the code does.
std::optional<oj> effectiveDefault(const std::string& pointer, const oj& root)
{
    if (pointer == "/zero_optimization/overlap_comm") // None becomes True at stage 3, else False
        return oj(zeroStage(root) == 3);
    auto d = DeepSpeedSchema::instance().defaultValue(pointer);
    if (!d)
        return std::nullopt;
    return oj(*d);
}

std::string meaningOf(const std::string& pointer)
{
    const auto& schema = DeepSpeedSchema::instance();
    const auto where = schema.locate(pointer);
    if (!where)
        return "not a key ds-wizard knows; compared as written";
    const SchemaKey* key = schema.key(where->first, where->second);
    if (!key)
        return "not in DeepSpeed's schema for " + (where->first.empty() ? std::string("the top level") : where->first);
    std::string text = key->note.empty() ? (where->first.empty() ? "" : where->first + ".") + key->name : key->note;
    if (key->defaultValue)
        text += " (default " + key->defaultValue->dump() + ")";
    if (!key->stages.empty()) {
        text += "; takes effect at ZeRO stage";
        for (int s : key->stages)
            text += " " + std::to_string(s);
    }
    return text;
}

// The members of an object by key (ordered_json's find() is a linear search); the keys are views of
// the object's own, which outlives the map.
std::unordered_map<std::string_view, const oj*> membersByKey(const oj& object)
{
    std::unordered_map<std::string_view, const oj*> members;
    if (!object.is_object())
        return members;
    members.reserve(object.size());
    for (auto it = object.begin(); it != object.end(); ++it)
        members.emplace(it.key(), &it.value());
    return members;
}

void compare(const oj& a, const oj& b, const oj& rootA, const oj& rootB, const std::string& pointer,
             std::vector<ConfigDifference>& out)
{
    const auto inA = membersByKey(a), inB = membersByKey(b);
    std::vector<const std::string*> keys; // a's keys in a's order, then b's that a lacks
    for (const oj* side : {&a, &b})
        if (side->is_object())
            for (auto it = side->begin(); it != side->end(); ++it)
                if (side == &a || inA.count(it.key()) == 0)
                    keys.push_back(&it.key());
    for (const std::string* keyOf : keys) {
        const std::string& key = *keyOf;
        const auto foundA = inA.find(key), foundB = inB.find(key);
        const oj* va = foundA == inA.end() ? nullptr : foundA->second;
        const oj* vb = foundB == inB.end() ? nullptr : foundB->second;
        if (va && vb && !va->is_object() && !vb->is_object() && sameValue(*va, *vb))
            continue; // the common case, decided without building the key's pointer
        const std::string path = pointer + "/" + pointerToken(key);
        if ((va && va->is_object()) || (vb && vb->is_object())) {
            const oj empty = oj::object();
            const bool bothObjects = (!va || va->is_object()) && (!vb || vb->is_object());
            if (bothObjects) { // an absent block is DeepSpeed's defaults for each of its keys
                compare(va ? *va : empty, vb ? *vb : empty, rootA, rootB, path, out);
                continue;
            }
        }
        auto valueOf = [&](const oj* v, const oj& root) -> std::optional<oj> {
            if (v)
                return *v;
            return effectiveDefault(path, root);
        };
        const auto x = valueOf(va, rootA);
        const auto y = valueOf(vb, rootB);
        if (x && y && sameValue(*x, *y))
            continue;
        out.push_back(
            {path, x ? *x : oj(nullptr), y ? *y : oj(nullptr), va == nullptr, vb == nullptr, meaningOf(path)});
    }
}

} // namespace

std::vector<ConfigDifference> diffConfigs(const oj& a, const oj& b)
{
    std::vector<ConfigDifference> out;
    std::optional<oj> renamedA, renamedB;
    const oj& ca = isCanonical(a, "") ? a : renamedA.emplace(canonical(a, ""));
    const oj& cb = isCanonical(b, "") ? b : renamedB.emplace(canonical(b, ""));
    compare(ca, cb, ca, cb, "", out);
    return out;
}

} // namespace dsw
