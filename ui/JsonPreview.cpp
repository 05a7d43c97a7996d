#include "JsonPreview.h"

#include "BoundedText.h"
#include "JsonHighlighter.h"

#include <QEvent>
#include <QFontDatabase>
#include <QScrollBar>
#include <QTextBlock>

namespace dsw {

JsonPreview::JsonPreview(QWidget* parent)
    : QPlainTextEdit(parent)
    , m_highlighter(new JsonHighlighter(document()))
{
    setReadOnly(true);
    setObjectName(QStringLiteral("jsonPreview"));
    setFont(QFontDatabase::systemFont(QFontDatabase::FixedFont));
    setLineWrapMode(QPlainTextEdit::NoWrap);
}

void JsonPreview::showConfig(const nlohmann::ordered_json& config, bool markChanges)
{
    // A line longer than kMaxDisplayedLine (a long string or key of an imported config) is shown cut:
    // laying out megabytes of one line blocks the window. Copy and export use the config itself.
    const QString text = linesBoundedForDisplay(QString::fromStdString(config.dump(2)));
    const QStringList lines = text.split('\n');
    if (text == toPlainText())
        return;
    const int scroll = verticalScrollBar()->value();
    setPlainText(text);
    verticalScrollBar()->setValue(scroll);

    // Mark lines that are new since the previous config (keys changed by the last edit).
    QList<QTextEdit::ExtraSelection> marks;
    QColor mark = palette().color(QPalette::Highlight);
    mark.setAlpha(60);
    m_changedLines = 0;
    if (markChanges) {
        for (int i = 0; i < lines.size(); ++i) {
            if (m_previousLines.contains(lines[i]))
                continue;
            QTextEdit::ExtraSelection sel;
            sel.cursor = QTextCursor(document()->findBlockByNumber(i));
            sel.format.setBackground(mark);
            sel.format.setProperty(QTextFormat::FullWidthSelection, true);
            marks.append(sel);
            ++m_changedLines;
        }
    }
    setExtraSelections(marks);
    m_previousLines = lines;
}

void JsonPreview::highlightLine(int line)
{
    const QTextBlock block = document()->findBlockByNumber(line - 1);
    if (!block.isValid())
        return;
    QTextCursor cursor(block);
    cursor.select(QTextCursor::LineUnderCursor);
    setTextCursor(cursor);
    centerCursor();
}

QString JsonPreview::highlighterBackend() const { return m_highlighter->backendName(); }

void JsonPreview::changeEvent(QEvent* event)
{
    if (event->type() == QEvent::PaletteChange)
        m_highlighter->followPalette(palette());
    QPlainTextEdit::changeEvent(event);
}

} // namespace dsw
