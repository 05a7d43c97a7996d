#pragma once
#include <QObject>
#include <QString>

class QPalette;
class QSyntaxHighlighter;
class QTextDocument;

namespace dsw {

// Syntax highlighting for the JSON preview: KSyntaxHighlighting when the build has it,
// the built-in FallbackJsonHighlighter otherwise.
class JsonHighlighter : public QObject {
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(JsonHighlighter)

public:
    // Attaches to `document` and is owned by it; colours start from the application palette.
    explicit JsonHighlighter(QTextDocument* document);

    // Re-picks the colours for `palette` (light or dark); call it on QEvent::PaletteChange.
    void followPalette(const QPalette& palette);

    // "KSyntaxHighlighting" or "built-in".
    QString backendName() const;

private:
    QSyntaxHighlighter* m_highlighter; // the backend, a child of this object
};

} // namespace dsw
