#pragma once
#include <cstdint>
#include <string>

namespace dsw {

// A tiny YAML emitter for block mappings of scalars and nested mappings: what an Accelerate config
// needs, nothing more. No YAML library is linked into models/, so quoting is done here, conservatively.
class YamlWriter {
public:
    // "# text" on its own line at the current indentation.
    void comment(const std::string& text);
    // "key:" followed by an indented block of the entries written until endMap().
    void beginMap(const std::string& key);
    void endMap();

    // "key: value", with an optional "  # comment" after it.
    void text(const std::string& key, const std::string& value, const std::string& trailingComment = {});
    void boolean(const std::string& key, bool value, const std::string& trailingComment = {});
    void integer(const std::string& key, std::int64_t value, const std::string& trailingComment = {});

    const std::string& str() const { return m_out; }

    // A string as a YAML scalar that reads back as exactly that string: plain when it is an identifier-like
    // word that no YAML 1.1 or 1.2 reader takes for a boolean, null or number, double-quoted otherwise.
    static std::string scalar(const std::string& value);

private:
    void entry(const std::string& key, const std::string& rendered, const std::string& trailingComment);
    std::string indent() const { return std::string(static_cast<std::size_t>(m_depth) * 2, ' '); }

    std::string m_out;
    int m_depth = 0;
};

} // namespace dsw
