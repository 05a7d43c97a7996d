#pragma once
#include <QString>

namespace dsw {

// Text shown in labels, lists and text browsers is laid out in full on the GUI thread, so
// anything that may come from a user or a file is cut to this many characters before display.
inline constexpr qsizetype kMaxDisplayedCharacters = 2000;

// Characters as the registry counts them: Unicode code points (a surrogate pair is one).
qsizetype characterCount(QStringView text);
// The first `max` characters of `text`, never splitting a surrogate pair.
QString firstCharacters(QStringView text, qsizetype max);
// What of an insertion of `offered` fits where `room` characters are left (none when room <= 0).
struct FittedText {
    QString kept;
    qsizetype offered = 0; // characters
    bool cut = false;      // kept is shorter than offered
};
FittedText fitInto(QStringView offered, qsizetype room);
// `text` when it is at most `max` characters, else its start and "… (N more characters not shown)".
QString boundedForDisplay(const QString& text, qsizetype max = kMaxDisplayedCharacters);
QString boundedForDisplay(const std::string& text, qsizetype max = kMaxDisplayedCharacters);

// For showing a file (a config, an export): every line longer than `maxLine` characters cut as above,
// the line count unchanged. One line of megabytes would block the layout.
inline constexpr qsizetype kMaxDisplayedLine = 10000;
QString linesBoundedForDisplay(const QString& text, qsizetype maxLine = kMaxDisplayedLine);

} // namespace dsw
