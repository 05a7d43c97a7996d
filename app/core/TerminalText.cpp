#include "TerminalText.h"

#include <QList>

#include <cstdio>

namespace dsw {

namespace {

// Shown but invisible or reordering: C1 controls, left-to-right/right-to-left marks, line and paragraph
// separators, bidirectional embeddings, overrides and isolates.
bool isInvisibleControl(char32_t c)
{
    return (c >= 0x80 && c <= 0x9f) || c == 0x200e || c == 0x200f || (c >= 0x2028 && c <= 0x202e)
        || (c >= 0x2066 && c <= 0x2069);
}

QString escaped(const QString& text, bool keepNewlines)
{
    QString out;
    out.reserve(text.size());
    for (const uint code : text.toUcs4()) {
        const char32_t c = code;
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
    return out;
}

} // namespace

QString terminalSafe(const QString& text) { return escaped(text, false); }
QString terminalSafeLines(const QString& text) { return escaped(text, true); }

std::string jsonTerminalSafe(const std::string& json)
{
    std::string out;
    out.reserve(json.size());
    for (size_t i = 0; i < json.size(); ++i) {
        const auto b = static_cast<unsigned char>(json[i]);
        char32_t c = 0;
        size_t length = 1;
        if (b == 0x7f)
            c = b;
        else if (b == 0xc2 && i + 1 < json.size())
            c = static_cast<unsigned char>(json[i + 1]) & 0x3f, c |= 0x80, length = 2; // U+0080..U+00BF
        else if (b == 0xe2 && i + 2 < json.size())
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
