#pragma once
#include "advise/Advice.h"

#include <cstddef>
#include <initializer_list>
#include <iterator>
#include <memory>
#include <utility>
#include <vector>

namespace dsw {

// The workflows' advice in a plan, read as a list of Advice. Each entry is shared and never changed, so a plan holds
// the ZeRO advice PlanSearchMemo stores without copying it (a copy is most of a recompute without the search), and a
// copy of a plan shares its advice.
class AdviceList {
    using Entries = std::vector<std::shared_ptr<const Advice>>;

public:
    class const_iterator {
    public:
        using iterator_category = std::random_access_iterator_tag;
        using value_type = Advice;
        using difference_type = std::ptrdiff_t;
        using pointer = const Advice*;
        using reference = const Advice&;

        const_iterator() = default;
        explicit const_iterator(Entries::const_iterator it)
            : m_it(it)
        {
        }
        reference operator*() const { return **m_it; }
        pointer operator->() const { return m_it->get(); }
        reference operator[](difference_type n) const { return *m_it[n]; }
        const_iterator& operator++()
        {
            ++m_it;
            return *this;
        }
        const_iterator operator++(int) { return const_iterator(m_it++); }
        const_iterator& operator--()
        {
            --m_it;
            return *this;
        }
        const_iterator operator--(int) { return const_iterator(m_it--); }
        const_iterator& operator+=(difference_type n)
        {
            m_it += n;
            return *this;
        }
        const_iterator& operator-=(difference_type n)
        {
            m_it -= n;
            return *this;
        }
        friend const_iterator operator+(const_iterator it, difference_type n) { return it += n; }
        friend const_iterator operator+(difference_type n, const_iterator it) { return it += n; }
        friend const_iterator operator-(const_iterator it, difference_type n) { return it -= n; }
        friend difference_type operator-(const const_iterator& x, const const_iterator& y) { return x.m_it - y.m_it; }
        friend bool operator==(const const_iterator& x, const const_iterator& y) { return x.m_it == y.m_it; }
        friend auto operator<=>(const const_iterator& x, const const_iterator& y) { return x.m_it <=> y.m_it; }

    private:
        Entries::const_iterator m_it;
    };
    using iterator = const_iterator;
    using value_type = Advice;
    using size_type = std::size_t;

    AdviceList() = default;
    AdviceList(std::initializer_list<Advice> advice)
    {
        for (const Advice& a : advice)
            push_back(a);
    }

    void push_back(Advice advice) { m_entries.push_back(std::make_shared<const Advice>(std::move(advice))); }
    void push_back(std::shared_ptr<const Advice> advice) { m_entries.push_back(std::move(advice)); }
    void reserve(size_type n) { m_entries.reserve(n); }

    const_iterator begin() const { return const_iterator(m_entries.begin()); }
    const_iterator end() const { return const_iterator(m_entries.end()); }
    size_type size() const { return m_entries.size(); }
    bool empty() const { return m_entries.empty(); }
    const Advice& front() const { return *m_entries.front(); }
    const Advice& back() const { return *m_entries.back(); }
    const Advice& operator[](size_type i) const { return *m_entries[i]; }

private:
    Entries m_entries;
};

} // namespace dsw
