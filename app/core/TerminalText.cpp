#include "TerminalText.h"

#include <QList>

#include <cstdint>
#include <cstdio>
#include <cstring>

namespace dsw {

namespace {

// Shown but invisible or reordering: C1 controls, left-to-right/right-to-left marks, line and paragraph
// separators, bidirectional embeddings, overrides and isolates.
bool isInvisibleControl(char32_t c)
{
    return (c >= 0x80 && c <= 0x9f) || c == 0x200e || c == 0x200f || (c >= 0x2028 && c <= 0x202e)
        || (c >= 0x2066 && c <= 0x2069);
}

// Whether `unit` is written other than as it is: every C0 control and DEL (a newline too, unless kept), every C1
// control or bidirectional character named above, and any surrogate (a pair is kept, a lone one becomes U+FFFD,
// as QString::toUcs4 makes it).
bool mayChange(char16_t unit, bool keepNewlines)
{
    if (unit < 0x20)
        return !(unit == '\n' && keepNewlines);
    if (unit < 0x7f)
        return false;
    return unit <= 0x9f || isInvisibleControl(unit) || (unit >= 0xd800 && unit <= 0xdfff);
}

void appendEscape(QString& out, char32_t c, bool keepNewlines)
{
    if (c == '\n' && keepNewlines)
        out += QChar('\n');
    else if (c == '\n')
        out += QStringLiteral("\\n");
    else if (c == '\r')
        out += QStringLiteral("\\r");
    else if (c == '\t')
        out += QStringLiteral("\\t");
    else if (c < 0x20 || c == 0x7f)
        out += QStringLiteral("\\x%1").arg(uint(c), 2, 16, QChar('0'));
    else if (isInvisibleControl(c))
        out += QStringLiteral("\\u%1").arg(uint(c), 4, 16, QChar('0'));
    else
        out += QString::fromUcs4(&c, 1);
}

QString escaped(const QString& text, bool keepNewlines)
{
    // Nearly every text needs no escape: it is returned as it is (shared, not copied); otherwise the runs
    // between escapes are copied whole.
    const char16_t* units = reinterpret_cast<const char16_t*>(text.constData());
    const qsizetype size = text.size();
    qsizetype i = 0;
    while (i < size && !mayChange(units[i], keepNewlines))
        ++i;
    if (i == size)
        return text;
    QString out;
    out.reserve(size + 16);
    qsizetype run = 0; // where the run of unchanged units before i starts
    while (i < size) {
        out += QStringView(text).mid(run, i - run);
        const char16_t c = units[i];
        if (c >= 0xd800 && c <= 0xdfff) {
            const bool pair = c <= 0xdbff && i + 1 < size && units[i + 1] >= 0xdc00 && units[i + 1] <= 0xdfff;
            if (pair)
                out += QStringView(text).mid(i, 2);
            else
                out += QChar(QChar::ReplacementCharacter);
            i += pair ? 2 : 1;
        } else {
            appendEscape(out, c, keepNewlines);
            ++i;
        }
        run = i;
        while (i < size && !mayChange(units[i], keepNewlines))
            ++i;
    }
    out += QStringView(text).mid(run, size - run);
    return out;
}

// Whether any of the 8 bytes at `p` is DEL or above (the only bytes jsonTerminalSafe may change are DEL and the
// lead bytes 0xc2 and 0xe2). Adding 1 to each byte sets its top bit only from 0x7f; a carry into the next byte
// comes only from 0xff, whose own top bit is set already.
bool hasByteFromDel(const char* p)
{
    std::uint64_t word;
    std::memcpy(&word, p, sizeof word);
    return ((word + 0x0101010101010101ull) | word) & 0x8080808080808080ull;
}

} // namespace

QString terminalSafe(const QString& text) { return escaped(text, false); }
QString terminalSafeLines(const QString& text) { return escaped(text, true); }

std::string jsonTerminalSafe(std::string json)
{
    // Only DEL, U+0080..U+00BF and U+2000..U+2FFF can need an escape: the text is scanned eight bytes at a time
    // for a byte from DEL up, and copied only from the first character that is escaped.
    const size_t size = json.size();
    size_t i = 0;
    for (;;) {
        while (i + 8 <= size && !hasByteFromDel(json.data() + i))
            i += 8;
        if (i >= size)
            return json;
        const auto b = static_cast<unsigned char>(json[i]);
        if (b == 0x7f || (b == 0xc2 && i + 1 < size && (static_cast<unsigned char>(json[i + 1]) & 0x3f) < 0x20))
            break; // DEL, or U+0080..U+009F
        if (b == 0xe2 && i + 2 < size
            && isInvisibleControl(0x2000 | ((static_cast<unsigned char>(json[i + 1]) & 0x3f) << 6)
                                  | (static_cast<unsigned char>(json[i + 2]) & 0x3f)))
            break;
        ++i;
    }
    std::string out;
    out.reserve(size + 64);
    out.append(json, 0, i);
    for (; i < size; ++i) {
        const auto b = static_cast<unsigned char>(json[i]);
        char32_t c = 0;
        size_t length = 1;
        if (b == 0x7f)
            c = b;
        else if (b == 0xc2 && i + 1 < size)
            c = static_cast<unsigned char>(json[i + 1]) & 0x3f, c |= 0x80, length = 2; // U+0080..U+00BF
        else if (b == 0xe2 && i + 2 < size)
            c = 0x2000 | ((static_cast<unsigned char>(json[i + 1]) & 0x3f) << 6)
                | (static_cast<unsigned char>(json[i + 2]) & 0x3f),
            length = 3; // U+2000..U+2FFF
        if (c == 0x7f || (c && isInvisibleControl(c))) {
            char buffer[8];
            std::snprintf(buffer, sizeof buffer, "\\u%04x", unsigned(c));
            out += buffer; // only inside strings: JSON has no other place for these characters
            i += length - 1;
        } else {
            out += json[i];
        }
    }
    return out;
}

} // namespace dsw
