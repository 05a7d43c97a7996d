#include "util/OrderedJsonReader.h"

#include "util/OrderedObjectBuilder.h"

#include <vector>

namespace dsw {

namespace {

using oj = nlohmann::ordered_json;

// Builds the value from SAX events on an explicit stack: a container under construction is moved
// into its parent when it closes.
class OrderedBuilder {
public:
    bool null() { return add(oj(nullptr)); }
    bool boolean(bool v) { return add(oj(v)); }
    bool number_integer(oj::number_integer_t v) { return add(oj(v)); }
    bool number_unsigned(oj::number_unsigned_t v) { return add(oj(v)); }
    bool number_float(oj::number_float_t v, const oj::string_t&) { return add(oj(v)); }
    bool string(oj::string_t& v) { return add(oj(std::move(v))); }
    bool binary(oj::binary_t&) { return false; } // JSON text has no binary values
    bool start_object(std::size_t)
    {
        m_stack.push_back({true, {}, {}, {}});
        return true;
    }
    bool start_array(std::size_t)
    {
        m_stack.push_back({false, oj::array(), {}, {}});
        return true;
    }
    bool end_object() { return close(); }
    bool end_array() { return close(); }

    bool key(oj::string_t& k)
    {
        m_stack.back().key = std::move(k);
        return true;
    }

    bool parse_error(std::size_t position, const std::string&, const nlohmann::detail::exception& ex)
    {
        m_error = OrderedJsonRead::Error{position, dynamic_cast<const oj::parse_error*>(&ex) != nullptr, ex.what()};
        return false;
    }

    OrderedJsonRead take()
    {
        OrderedJsonRead out;
        if (m_error)
            out.error = std::move(m_error);
        else
            out.value = std::move(m_root);
        return out;
    }

private:
    struct Frame {
        bool isObject = false;
        oj array;                    // when !isObject
        OrderedObjectBuilder object; // when isObject
        std::string key;             // the key of the value that comes next
    };

    bool add(oj&& v)
    {
        if (m_stack.empty())
            m_root = std::move(v);
        else if (Frame& f = m_stack.back(); f.isObject)
            f.object.set(f.key, std::move(v)); // a repeated key: its first place, the last value
        else
            f.array.push_back(std::move(v));
        return true;
    }

    bool close()
    {
        Frame& f = m_stack.back();
        oj done = f.isObject ? f.object.take() : std::move(f.array);
        m_stack.pop_back();
        return add(std::move(done));
    }

    oj m_root;
    std::vector<Frame> m_stack;
    std::optional<OrderedJsonRead::Error> m_error;
};

} // namespace

OrderedJsonRead readOrderedJson(const std::string& text)
{
    OrderedBuilder builder;
    oj::sax_parse(text, &builder, oj::input_format_t::json, true, false);
    return builder.take();
}

} // namespace dsw
