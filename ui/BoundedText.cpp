#include "BoundedText.h"

#include <algorithm>

namespace dsw {

qsizetype characterCount(QStringView text)
{
    qsizetype count = 0;
    for (const QChar c : text)
        if (!c.isLowSurrogate())
            ++count;
    return count;
}

FittedText fitInto(QStringView offered, qsizetype room)
{
    FittedText fit;
    fit.kept = firstCharacters(offered, room);
    fit.offered = characterCount(offered);
    fit.cut = characterCount(fit.kept) < fit.offered;
    return fit;
}

QString firstCharacters(QStringView text, qsizetype max)
{
    if (max <= 0)
        return {};
    qsizetype count = 0;
    for (qsizetype i = 0; i < text.size(); ++i) {
        if (text[i].isLowSurrogate())
            continue;
        if (count == max)
            return text.left(i).toString();
        ++count;
    }
    return text.toString();
}

QString boundedForDisplay(const QString& text, qsizetype max)
{
    if (text.size() <= max) // UTF-16 units are never fewer than characters
        return text;
    const QString shown = firstCharacters(text, max);
    const qsizetype hidden = characterCount(text) - characterCount(shown);
    if (hidden == 0)
        return text;
    return shown + QStringLiteral("… (%1 more characters not shown)").arg(hidden);
}

QString boundedForDisplay(const std::string& text, qsizetype max)
{
    // Converting is linear; only the shown part is laid out.
    return boundedForDisplay(QString::fromStdString(text), max);
}

QString linesBoundedForDisplay(const QString& text, qsizetype maxLine)
{
    QString shown;
    shown.reserve(std::min(text.size(), qsizetype(1) << 20));
    qsizetype start = 0;
    while (start <= text.size()) {
        qsizetype end = text.indexOf(QLatin1Char('\n'), start);
        if (end < 0)
            end = text.size();
        const QString line = text.mid(start, end - start);
        shown += line.size() > maxLine ? boundedForDisplay(line, maxLine) : line;
        if (end < text.size())
            shown += QLatin1Char('\n');
        start = end + 1;
    }
    return shown;
}

} // namespace dsw
