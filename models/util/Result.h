#pragma once
#include <stdexcept>
#include <string>
#include <utility>
#include <variant>

namespace dsw {

// A value or the message that says why there is none (the message names the input and what is allowed).
template <typename T>
class Result {
public:
    Result(T value)
        : m_data(std::move(value))
    {
    }
    static Result failure(std::string message) { return Result(Error{std::move(message)}); }

    bool ok() const { return std::holds_alternative<T>(m_data); }
    explicit operator bool() const { return ok(); }
    const T& value() const& { return std::get<T>(m_data); }
    T&& value() && { return std::get<T>(std::move(m_data)); }
    const std::string& error() const { return std::get<Error>(m_data).message; }
    // The value, or std::logic_error with the message: for what cannot fail in a good build (the embedded knowledge
    // files, which the tests hold to the reader's checks).
    T orThrow() &&
    {
        if (!ok())
            throw std::logic_error(error());
        return std::get<T>(std::move(m_data));
    }

private:
    struct Error {
        std::string message;
    };
    explicit Result(Error e)
        : m_data(std::move(e))
    {
    }
    std::variant<T, Error> m_data;
};

} // namespace dsw
