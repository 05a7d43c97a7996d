#pragma once
#include <QSyntaxHighlighter>
#include <QTextCharFormat>

class QPalette;
class QTextDocument;

namespace dsw {

// Built-in JSON highlighter, used when KSyntaxHighlighting is not available.
// Every colour is derived from the palette and kept readable on its Base colour.
class FallbackJsonHighlighter : public QSyntaxHighlighter {
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(FallbackJsonHighlighter)

public:
    // Starts with the application palette.
    explicit FallbackJsonHighlighter(QTextDocument* document);

    // Re-picks the colours for `palette` and rehighlights the document.
    void setPalette(const QPalette& palette);

protected:
    void highlightBlock(const QString& text) override;

private:
    void updateFormats(const QPalette& palette);

    QTextCharFormat m_keyFormat;
    QTextCharFormat m_stringFormat;
    QTextCharFormat m_numberFormat;
    QTextCharFormat m_literalFormat; // true, false, null
    QTextCharFormat m_punctuationFormat;
};

} // namespace dsw
