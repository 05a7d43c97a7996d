#include "util/Version.h"

#include <algorithm>
#include <cctype>

namespace dsw {

Version Version::parse(const std::string& text)
{
    Version v;
    size_t i = 0;
    while (i < text.size() && std::isdigit(static_cast<unsigned char>(text[i]))) {
        int n = 0;
        while (i < text.size() && std::isdigit(static_cast<unsigned char>(text[i])) && n < 100000)
            n = n * 10 + (text[i++] - '0');
        v.parts.push_back(n);
        if (i < text.size() && text[i] == '.')
            ++i;
        else
            break;
    }
    return v;
}

int Version::compare(const Version& other) const
{
    const size_t n = std::max(parts.size(), other.parts.size());
    for (size_t i = 0; i < n; ++i) {
        const int a = i < parts.size() ? parts[i] : 0;
        const int b = i < other.parts.size() ? other.parts[i] : 0;
        if (a != b)
            return a < b ? -1 : 1;
    }
    return 0;
}

} // namespace dsw
