#include "GeneratedSource.h"

#include <cstdio>
#include <fstream>
#include <iostream>
#include <sstream>

namespace dsw {

std::optional<std::string> readInputFile(const std::string& path)
{
    std::ifstream in(path, std::ios::binary);
    std::ostringstream text;
    if (in.is_open())
        text << in.rdbuf();
    if (!in.is_open() || in.bad()) {
        std::cerr << "error: " << path << ": cannot be read\n";
        return std::nullopt;
    }
    return text.str();
}

int writeGeneratedSource(const std::string& output, const std::string& source)
{
    const std::string partial = output + ".partial";
    {
        std::ofstream out(partial, std::ios::binary | std::ios::trunc);
        out << source;
        out.close(); // a full disk can fail the last write or the close itself: both are checked
        if (!out) {
            std::remove(partial.c_str());
            std::cerr << "error: " << partial << ": cannot be written\n";
            return 1;
        }
    }
    if (std::rename(partial.c_str(), output.c_str()) != 0) {
        std::remove(partial.c_str());
        std::cerr << "error: " << output << ": cannot be written\n";
        return 1;
    }
    return 0;
}

std::string escapedForLiteral(std::string_view s)
{
    std::string out;
    out.reserve(s.size());
    for (const char c : s) {
        const auto byte = static_cast<unsigned char>(c);
        if (c == '"' || c == '\\' || c == '?') {
            out += '\\';
            out += c;
        } else if (byte >= 0x20 && byte < 0x7f) {
            out += c;
        } else {
            char escaped[5];
            std::snprintf(escaped, sizeof escaped, "\\%03o", byte);
            out += escaped;
        }
    }
    return out;
}

} // namespace dsw
