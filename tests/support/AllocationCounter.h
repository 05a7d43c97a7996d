#pragma once
// Counts every allocation the test binary makes, for tests that hold a lookup to allocating nothing. It replaces the
// global operator new and delete, so include it in exactly one source of a test binary (replacements cannot be
// inline).
#include <atomic>
#include <cstdlib>
#include <new>

namespace dsw::test {
inline std::atomic<long> allocations{0};
} // namespace dsw::test

void* operator new(std::size_t size)
{
    ++dsw::test::allocations;
    if (void* p = std::malloc(size ? size : 1))
        return p;
    throw std::bad_alloc();
}
void operator delete(void* p) noexcept { std::free(p); }
void operator delete(void* p, std::size_t) noexcept { std::free(p); }
