#pragma once
#include <nlohmann/json.hpp>
#include <string>
#include <string_view>

namespace dsw {

// obj[key] as T, or `fallback` when obj is not an object, lacks the key, or holds another type.
// For untrusted configs, where nlohmann's value() would throw on a type mismatch ("enabled": "auto").
template <typename T>
T valueOr(const nlohmann::ordered_json& obj, const char* key, T fallback)
{
    if (!obj.is_object())
        return fallback;
    const auto it = obj.find(key);
    if (it == obj.end())
        return fallback;
    if constexpr (std::is_same_v<T, bool>) {
        return it->is_boolean() ? it->template get<bool>() : fallback;
    } else if constexpr (std::is_same_v<T, std::string>) {
        return it->is_string() ? it->template get<std::string>() : fallback;
    } else {
        return it->is_number() ? it->template get<T>() : fallback;
    }
}

// Whether `v`, or any value nested in it, is the string `text` ("auto" where Hugging Face fills a value in).
inline bool containsString(const nlohmann::ordered_json& v, std::string_view text)
{
    if (v.is_string())
        return v.get_ref<const std::string&>() == text;
    if (v.is_structured())
        for (const auto& item : v)
            if (containsString(item, text))
                return true;
    return false;
}

// A key as one JSON pointer token: "~" becomes "~0" and "/" becomes "~1" (RFC 6901).
inline std::string pointerToken(const std::string& key)
{
    std::string out;
    out.reserve(key.size());
    for (char c : key) {
        if (c == '~')
            out += "~0";
        else if (c == '/')
            out += "~1";
        else
            out += c;
    }
    return out;
}

inline bool isEnabled(const nlohmann::ordered_json& config, const char* block)
{
    const auto it = config.is_object() ? config.find(block) : config.end();
    return it != config.end() && valueOr(*it, "enabled", false);
}

} // namespace dsw
