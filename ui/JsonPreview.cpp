#include "JsonPreview.h"

#include "BoundedText.h"
#include "JsonHighlighter.h"
#include "config/ConfigText.h"
#include "util/JsonAccess.h"

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

namespace {
void collectPointers(const nlohmann::ordered_json& v, const std::string& at, std::vector<std::string>& out)
{
    if (v.is_object())
        for (const auto& [key, child] : v.items()) {
            const std::string pointer = at + "/" + pointerToken(key); // not out.back(): the recursion grows `out`
            out.push_back(pointer);
            collectPointers(child, pointer, out);
        }
}

// JSON pointer -> its line in the 2-space dump of `config`, for every key.
std::map<std::string, int> linesOfKeys(const nlohmann::ordered_json& config)
{
    std::map<std::string, int> out;
    auto parsed = parseConfigText(config.dump(2));
    if (!parsed)
        return out;
    std::vector<std::string> pointers;
    collectPointers(config, "", pointers);
    for (const std::string& p : pointers)
        out.emplace(p, parsed.value().lineOf(p));
    return out;
}
} // namespace

void JsonPreview::showConfig(const nlohmann::ordered_json& config, const nlohmann::ordered_json& shown,
                             bool markChanges)
{
    m_shownLineOf.clear();
    if (shown != config) {
        const std::map<std::string, int> shownLines = linesOfKeys(shown);
        for (const auto& [pointer, line] : linesOfKeys(config))
            if (const auto it = shownLines.find(pointer); it != shownLines.end() && it->second != line)
                m_shownLineOf.emplace(line, it->second); // a key's line; several pointers of a line agree
    }
    showText(shown, markChanges);
}

void JsonPreview::showConfig(const nlohmann::ordered_json& config, bool markChanges)
{
    m_shownLineOf.clear();
    showText(config, markChanges);
}

void JsonPreview::showText(const nlohmann::ordered_json& config, bool markChanges)
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
    if (const auto it = m_shownLineOf.find(line); it != m_shownLineOf.end())
        line = it->second;
    const QTextBlock block = document()->findBlockByNumber(line - 1);
    if (!block.isValid())
        return;
    QTextCursor cursor(block);
    cursor.select(QTextCursor::LineUnderCursor);
    setTextCursor(cursor);
    centerCursor();
}

void JsonPreview::changeEvent(QEvent* event)
{
    if (event->type() == QEvent::PaletteChange)
        m_highlighter->followPalette(palette());
    QPlainTextEdit::changeEvent(event);
}

} // namespace dsw
