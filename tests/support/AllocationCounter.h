#pragma once
// Counts every allocation the test binary makes, for tests that hold a lookup to allocating nothing. It replaces the
// global operator new and delete, every form of them but the aligned ones (which stay paired with the library's),
// so that no allocation of one family is freed by the other (AddressSanitizer checks that). Include it in exactly
// one source of a test binary: replacements cannot be inline.
#include <atomic>
#include <cstdlib>
#include <new>

namespace dsw::test {
inline std::atomic<long> allocations{0};

inline void* countedAllocation(std::size_t size) noexcept
{
    ++allocations;
    return std::malloc(size ? size : 1);
}
} // namespace dsw::test

void* operator new(std::size_t size)
{
    if (void* p = dsw::test::countedAllocation(size))
        return p;
    throw std::bad_alloc();
}
void* operator new[](std::size_t size)
{
    if (void* p = dsw::test::countedAllocation(size))
        return p;
    throw std::bad_alloc();
}
void* operator new(std::size_t size, const std::nothrow_t&) noexcept { return dsw::test::countedAllocation(size); }
void* operator new[](std::size_t size, const std::nothrow_t&) noexcept { return dsw::test::countedAllocation(size); }
void operator delete(void* p) noexcept { std::free(p); }
void operator delete[](void* p) noexcept { std::free(p); }
void operator delete(void* p, std::size_t) noexcept { std::free(p); }
void operator delete[](void* p, std::size_t) noexcept { std::free(p); }
void operator delete(void* p, const std::nothrow_t&) noexcept { std::free(p); }
void operator delete[](void* p, const std::nothrow_t&) noexcept { std::free(p); }
