#pragma once
#include <KSyntaxHighlighting/SyntaxHighlighter>

class QPalette;
class QTextDocument;

namespace dsw {

// KSyntaxHighlighting's JSON definition with a theme picked from the palette.
// Written against the API common to KF5 and KF6: tests/kf5compat builds this same file with Qt 5 + KF5.
class KSyntaxJsonHighlighter : public KSyntaxHighlighting::SyntaxHighlighter {
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(KSyntaxJsonHighlighter)

public:
    // Starts with the application palette.
    explicit KSyntaxJsonHighlighter(QTextDocument* document);

    // Picks the theme matching `palette` (light or dark) and rehighlights the document.
    void setPalette(const QPalette& palette);
};

} // namespace dsw
