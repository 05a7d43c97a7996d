#pragma once
// A value kept on the heap behind one pointer, with value semantics: a copy copies the value, == compares values,
// and an empty one is like std::nullopt. For a large member most objects leave unset (SchemaKey::deprecated is set
// on a few of ~280 keys): the object stays small, where std::optional would hold the member's whole size.
#include <memory>
#include <utility>

namespace dsw {

template <class T>
class Indirect {
public:
    Indirect() = default;
    Indirect(T value)
        : m_value(std::make_unique<T>(std::move(value)))
    {
    }
    Indirect(const Indirect& other)
        : m_value(other.m_value ? std::make_unique<T>(*other.m_value) : nullptr)
    {
    }
    Indirect(Indirect&&) noexcept = default;
    Indirect& operator=(const Indirect& other)
    {
        if (this != &other)
            m_value = other.m_value ? std::make_unique<T>(*other.m_value) : nullptr;
        return *this;
    }
    Indirect& operator=(Indirect&&) noexcept = default;
    Indirect& operator=(T value)
    {
        m_value = std::make_unique<T>(std::move(value));
        return *this;
    }

    bool has_value() const { return m_value != nullptr; }
    explicit operator bool() const { return has_value(); }
    T& operator*() { return *m_value; }
    const T& operator*() const { return *m_value; }
    T* operator->() { return m_value.get(); }
    const T* operator->() const { return m_value.get(); }

    friend bool operator==(const Indirect& a, const Indirect& b)
    {
        return a && b ? *a == *b : a.has_value() == b.has_value();
    }

private:
    std::unique_ptr<T> m_value;
};

} // namespace dsw
