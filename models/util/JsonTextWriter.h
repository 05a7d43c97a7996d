#pragma once
#include <cstdint>
#include <nlohmann/json.hpp>
#include <string>
#include <string_view>
#include <vector>

namespace dsw {

// Writes JSON text exactly as nlohmann's dump(2) writes the same value (2-space indent, "key": value, UTF-8 as
// it is, nlohmann's number format), without building the value first: printing a large plan as a DOM and then
// dumping it cost more than computing the plan. Values already held as JSON are written by nlohmann's own
// serializer at the current indent, and so are any string that needs an escape and every floating-point number.
class JsonTextWriter {
public:
    explicit JsonTextWriter(std::string& out);

    void beginObject();
    void endObject();
    void beginArray();
    void endArray();
    void key(std::string_view name); // inside an object, before its value

    void value(const nlohmann::ordered_json& json);
    void value(std::string_view text);
    void value(const std::string& text) { value(std::string_view(text)); }
    void value(const char* text) { value(std::string_view(text)); }
    void value(bool b);
    void value(std::int64_t n);
    void value(int n) { value(static_cast<std::int64_t>(n)); }
    void value(std::uint64_t n);
    void value(double x);
    void value(std::nullptr_t);
    void value(const std::vector<std::string>& texts); // an array of strings

    template <typename T>
    void member(std::string_view name, const T& v)
    {
        key(name);
        value(v);
    }

private:
    void beforeValue(); // the separator and indent an element needs
    void newlineAndIndent(std::size_t depth);
    void quoted(std::string_view text);

    std::string& out_;
    std::vector<bool> hasElements_; // one per open object or array
    bool afterKey_ = false;
    nlohmann::detail::serializer<nlohmann::ordered_json> serializer_;
};

} // namespace dsw
