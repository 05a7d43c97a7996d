#include "SourceTableWriter.h"

#include "util/TsvTable.h"

#include <algorithm>
#include <cstdio>
#include <numeric>
#include <stdexcept>
#include <vector>

namespace dsw {

namespace {

constexpr std::string_view kColumns[] = {"id", "title", "url", "quote"}; // SourceRow's members, in order

[[noreturn]] void fail(const std::string& where, const std::string& what)
{
    throw std::invalid_argument(where + ": " + what);
}

// A constant std::string_view of `s`, byte for byte: octal escapes (they end after three digits, unlike \x)
// for anything but printable ASCII, and the length given, so a NUL does not end it.
std::string literal(std::string_view s)
{
    std::string out = "sv(\"";
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
    return out + "\", " + std::to_string(s.size()) + ")";
}

// A line of the text as TsvTable splits it: its number (from 1) and its cell count.
struct Line {
    std::size_t number;
    std::size_t cells;
};

// The text's non-blank lines, split exactly as TsvTable splits them (on '\n', a trailing '\r' dropped, blank
// lines skipped, n tabs making n + 1 cells), so that line k + 1 is TsvTable's row k and an error can name it.
std::vector<Line> nonBlankLines(std::string_view text)
{
    std::vector<Line> lines;
    std::size_t at = 0, number = 0;
    while (at < text.size()) {
        const std::size_t newline = text.find('\n', at);
        std::string_view line =
            text.substr(at, newline == std::string_view::npos ? std::string_view::npos : newline - at);
        at = newline == std::string_view::npos ? text.size() : newline + 1;
        ++number;
        if (!line.empty() && line.back() == '\r')
            line.remove_suffix(1);
        if (!line.empty())
            lines.push_back({number, static_cast<std::size_t>(std::count(line.begin(), line.end(), '\t')) + 1});
    }
    return lines;
}

} // namespace

std::string compiledSourceTableSource(std::string_view tsv)
{
    const TsvTable table(tsv);
    const std::vector<Line> lines = nonBlankLines(tsv);
    if (lines.empty())
        fail("the file", "is empty: it needs the header id, title, url, quote");
    if (lines.size() != table.rowCount() + 1)
        fail("the file", "is split into lines differently from util/TsvTable"); // the tool's own error
    const std::string header = "line " + std::to_string(lines[0].number) + " (the header)";
    const std::vector<std::string_view>& names = table.header();
    for (std::size_t i = 0; i < names.size(); ++i) {
        if (std::find(std::begin(kColumns), std::end(kColumns), names[i]) == std::end(kColumns))
            fail(header, "unknown column \"" + std::string(names[i]) + "\"; the columns are id, title, url, quote");
        if (std::find(names.begin(), names.begin() + static_cast<std::ptrdiff_t>(i), names[i])
            != names.begin() + static_cast<std::ptrdiff_t>(i))
            fail(header, "has the column \"" + std::string(names[i]) + "\" twice");
    }
    std::size_t columns[std::size(kColumns)];
    for (std::size_t c = 0; c < std::size(kColumns); ++c)
        if ((columns[c] = table.column(kColumns[c])) == TsvTable::npos)
            fail(header, "has no column \"" + std::string(kColumns[c]) + "\"");
    if (table.rowCount() == 0)
        fail("the file", "lists no source");

    std::string rows;
    for (std::size_t r = 0; r < table.rowCount(); ++r) {
        const std::string_view id = table.cell(r, columns[0]);
        const std::string where =
            "line " + std::to_string(lines[r + 1].number) + (id.empty() ? "" : " (" + std::string(id) + ")");
        if (lines[r + 1].cells != names.size())
            fail(where,
                 "has " + std::to_string(lines[r + 1].cells) + " cells, the header " + std::to_string(names.size()));
        if (id.empty())
            fail(where, "has an empty id");
        rows += "    {";
        for (std::size_t c = 0; c < std::size(kColumns); ++c)
            rows += (c ? ", " : "") + literal(table.cell(r, columns[c]));
        rows += "},\n";
    }

    // Sorted by id; among rows of one id the first stays (a stable sort keeps file order, unique keeps the first).
    std::vector<std::size_t> byId(table.rowCount());
    std::iota(byId.begin(), byId.end(), std::size_t(0));
    const auto id = [&](std::size_t r) { return table.cell(r, columns[0]); };
    std::stable_sort(byId.begin(), byId.end(), [&](std::size_t a, std::size_t b) { return id(a) < id(b); });
    byId.erase(std::unique(byId.begin(), byId.end(), [&](std::size_t a, std::size_t b) { return id(a) == id(b); }),
               byId.end());
    std::string order;
    for (std::size_t i = 0; i < byId.size(); ++i)
        order += (i % 16 ? " " : i ? "\n    " : "    ") + std::to_string(byId[i]) + ",";

    return "// Generated by dsw-knowledge-table-compiler from resources/knowledge/sources.tsv: do not edit.\n"
           "#include \"knowledge/SourceCatalog.h\"\n\n"
           "namespace dsw {\n\n"
           "namespace {\n\n"
           "constexpr std::string_view sv(const char* s, std::size_t n) { return {s, n}; }\n\n"
           "constexpr SourceRow rows[] = {\n"
        + rows
        + "};\n\n"
          "constexpr std::uint32_t byId[] = {\n"
        + order
        + "\n};\n\n"
          "} // namespace\n\n"
          "std::span<const SourceRow> compiledSourceRows() { return rows; }\n"
          "std::span<const std::uint32_t> compiledSourceIdOrder() { return byId; }\n\n"
          "} // namespace dsw\n";
}

} // namespace dsw
