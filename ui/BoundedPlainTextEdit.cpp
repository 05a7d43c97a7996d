#include "BoundedPlainTextEdit.h"

#include "BoundedText.h"

#include <QInputMethodEvent>
#include <QKeyEvent>
#include <QMimeData>
#include <QTextBlock>
#include <algorithm>

namespace dsw {

namespace {
qsizetype longestLineIn(QStringView text)
{
    qsizetype longest = 0;
    qsizetype start = 0;
    for (qsizetype i = 0; i <= text.size(); ++i)
        if (i == text.size() || text[i] == QLatin1Char('\n') || text[i] == QChar::ParagraphSeparator) {
            longest = std::max(longest, i - start);
            start = i + 1;
        }
    return longest;
}
} // namespace

BoundedPlainTextEdit::BoundedPlainTextEdit(qsizetype maxCharacters, QWidget* parent)
    : QPlainTextEdit(parent)
    , m_max(maxCharacters)
{
    // Back to word wrapping once the long line is gone (document signals are not blocked by
    // QSignalBlocker on this widget, so programmatic changes are seen too).
    connect(document(), &QTextDocument::contentsChanged, this, [this] { chooseWrap(longestLine()); });
}

void BoundedPlainTextEdit::showText(const QString& text)
{
    const QString kept = firstCharacters(text, m_max);
    chooseWrap(longestLineIn(kept));
    setPlainText(kept);
}

qsizetype BoundedPlainTextEdit::room() const
{
    const QString selected = textCursor().selectedText();
    return m_max - characterCount(toPlainText()) + characterCount(selected);
}

qsizetype BoundedPlainTextEdit::longestLine() const
{
    qsizetype longest = 0;
    for (QTextBlock block = document()->begin(); block.isValid(); block = block.next())
        longest = std::max<qsizetype>(longest, block.length() - 1);
    return longest;
}

void BoundedPlainTextEdit::chooseWrap(qsizetype longest)
{
    const auto mode = longest > kLongLine ? QTextOption::WrapAnywhere : QTextOption::WrapAtWordBoundaryOrAnywhere;
    if (wordWrapMode() != mode)
        setWordWrapMode(mode);
}

void BoundedPlainTextEdit::insertFromMimeData(const QMimeData* source)
{
    if (!source || !source->hasText() || isReadOnly())
        return;
    const QString offered = source->text();
    const FittedText fit = fitInto(offered, room());
    const QString& kept = fit.kept;
    // The line the cursor is on grows by the kept text's first line: decide the wrap before layout.
    const QTextBlock block = textCursor().block();
    chooseWrap(std::max(longestLine(), block.length() - 1 + longestLineIn(kept)));
    textCursor().insertText(kept);
    ensureCursorVisible();
    if (fit.cut)
        emit inputCut(fit.offered, characterCount(kept), m_max);
}

void BoundedPlainTextEdit::keyPressEvent(QKeyEvent* event)
{
    const QString typed = event->text();
    const bool inserts = !typed.isEmpty() && !(event->modifiers() & Qt::ControlModifier)
        && (typed.at(0).isPrint() || event->key() == Qt::Key_Return || event->key() == Qt::Key_Enter
            || event->key() == Qt::Key_Tab);
    if (inserts && !isReadOnly() && characterCount(typed) > room()) {
        emit inputCut(characterCount(typed), 0, m_max);
        event->accept();
        return;
    }
    QPlainTextEdit::keyPressEvent(event);
}

void BoundedPlainTextEdit::inputMethodEvent(QInputMethodEvent* event)
{
    const FittedText fit = fitInto(event->commitString(), room());
    if (!fit.cut) {
        QPlainTextEdit::inputMethodEvent(event);
        return;
    }
    QInputMethodEvent cut(event->preeditString(), event->attributes());
    cut.setCommitString(fit.kept, event->replacementStart(), event->replacementLength());
    QPlainTextEdit::inputMethodEvent(&cut);
    emit inputCut(fit.offered, characterCount(fit.kept), m_max);
}

} // namespace dsw
