#include "FallbackJsonHighlighter.h"

#include <QGuiApplication>
#include <QPalette>
#include <QStringView>

#include <algorithm>
#include <cmath>

namespace dsw {

namespace {

constexpr double kMinContrast = 4.5; // WCAG AA for normal text

// WCAG relative luminance.
double luminance(const QColor& color)
{
    const auto linear = [](double c) { return c <= 0.03928 ? c / 12.92 : std::pow((c + 0.055) / 1.055, 2.4); };
    return 0.2126 * linear(color.redF()) + 0.7152 * linear(color.greenF()) + 0.0722 * linear(color.blueF());
}

double contrast(const QColor& a, const QColor& b)
{
    const auto [darker, lighter] = std::minmax({luminance(a), luminance(b)}); // by value: no dangling references
    return (lighter + 0.05) / (darker + 0.05);
}

// Keeps the hue of `accent` and moves its lightness away from `base` until the text is readable.
QColor readableOn(const QColor& accent, const QColor& base)
{
    const float step = base.lightness() < 128 ? 0.05f : -0.05f;
    QColor color = accent.toHsl();
    while (contrast(color, base) < kMinContrast) {
        const float lightness = std::clamp(color.lightnessF() + step, 0.0f, 1.0f);
        if (lightness == color.lightnessF())
            break;
        color.setHslF(color.hslHueF(), color.hslSaturationF(), lightness);
    }
    return color.toRgb();
}

// Another accent with the same saturation and value, `degrees` round the colour wheel.
QColor shiftedHue(const QColor& color, int degrees)
{
    const QColor hsv = color.toHsv();
    if (hsv.hsvHue() < 0) // achromatic: no hue to shift
        return color;
    return QColor::fromHsv((hsv.hsvHue() + degrees) % 360, hsv.hsvSaturation(), hsv.value()).toRgb();
}

QColor mixed(const QColor& a, const QColor& b, float weightOfB)
{
    const auto mix = [weightOfB](float x, float y) { return x + (y - x) * weightOfB; };
    return QColor::fromRgbF(mix(a.redF(), b.redF()), mix(a.greenF(), b.greenF()), mix(a.blueF(), b.blueF()));
}

QTextCharFormat foreground(const QColor& color)
{
    QTextCharFormat format;
    format.setForeground(color);
    return format;
}

// Index just past the string literal that starts with the quote at `start`.
int stringEnd(const QString& text, int start)
{
    for (int i = start + 1; i < text.size(); ++i) {
        if (text.at(i) == u'\\')
            ++i;
        else if (text.at(i) == u'"')
            return i + 1;
    }
    return int(text.size());
}

// A string is an object key when the next non-space character is a colon.
bool isKey(const QString& text, int stringEnd)
{
    int i = stringEnd;
    while (i < text.size() && text.at(i).isSpace())
        ++i;
    return i < text.size() && text.at(i) == u':';
}

int wordEnd(const QString& text, int start, QStringView extraChars)
{
    int i = start;
    while (i < text.size() && (text.at(i).isLetterOrNumber() || extraChars.contains(text.at(i))))
        ++i;
    return i;
}

} // namespace

FallbackJsonHighlighter::FallbackJsonHighlighter(QTextDocument* document)
    : QSyntaxHighlighter(document)
{
    updateFormats(QGuiApplication::palette());
}

void FallbackJsonHighlighter::setPalette(const QPalette& palette)
{
    updateFormats(palette);
    rehighlight();
}

void FallbackJsonHighlighter::updateFormats(const QPalette& palette)
{
    const QColor base = palette.color(QPalette::Base);
    const QColor link = palette.color(QPalette::Link);
    const QColor visited = palette.color(QPalette::LinkVisited);
    m_keyFormat = foreground(readableOn(link, base));
    m_stringFormat = foreground(readableOn(visited, base));
    m_numberFormat = foreground(readableOn(shiftedHue(link, 150), base));
    m_literalFormat = foreground(readableOn(shiftedHue(visited, 150), base));
    m_punctuationFormat = foreground(mixed(palette.color(QPalette::Text), base, 0.4f));
}

void FallbackJsonHighlighter::highlightBlock(const QString& text)
{
    int i = 0;
    while (i < text.size()) {
        const QChar c = text.at(i);
        int end = i + 1;
        if (c == u'"') {
            end = stringEnd(text, i);
            setFormat(i, end - i, isKey(text, end) ? m_keyFormat : m_stringFormat);
        } else if (c.isDigit() || c == u'-') {
            end = wordEnd(text, i + 1, u"+-.");
            setFormat(i, end - i, m_numberFormat);
        } else if (c.isLetter()) {
            end = wordEnd(text, i, {});
            const QStringView word = QStringView(text).mid(i, end - i);
            if (word == u"true" || word == u"false" || word == u"null")
                setFormat(i, end - i, m_literalFormat);
        } else if (QStringView(u"{}[],:").contains(c)) {
            setFormat(i, 1, m_punctuationFormat);
        }
        i = end;
    }
}

} // namespace dsw
