#include "BoundedLineEdit.h"

#include "BoundedText.h"

#include <QAction>
#include <QApplication>
#include <QContextMenuEvent>
#include <QInputMethodEvent>
#include <QKeyEvent>
#include <QMenu>
#include <QMimeData>
#include <algorithm>

namespace dsw {

BoundedLineEdit::BoundedLineEdit(qsizetype maxCharacters, QWidget* parent)
    : QLineEdit(parent)
    , m_max(maxCharacters)
{
    setMaxLength(static_cast<int>(std::min<qsizetype>(2 * maxCharacters, 32767)));
}

qsizetype BoundedLineEdit::room() const { return m_max - characterCount(text()) + characterCount(selectedText()); }

void BoundedLineEdit::insertBounded(const QString& offered)
{
    if (isReadOnly())
        return;
    const FittedText fit = fitInto(offered, room());
    QString kept = fit.kept;
    kept.replace(QLatin1String("\r\n"), QLatin1String(" "));
    kept.replace(QLatin1Char('\n'), QLatin1Char(' '));
    kept.replace(QLatin1Char('\r'), QLatin1Char(' '));
    if (!kept.isEmpty() || hasSelectedText())
        insert(kept); // emits textEdited, like a paste
    if (fit.cut)
        emit inputCut(fit.offered, characterCount(kept), m_max);
}

void BoundedLineEdit::pasteBounded(QClipboard::Mode mode) { insertBounded(QGuiApplication::clipboard()->text(mode)); }

void BoundedLineEdit::keyPressEvent(QKeyEvent* event)
{
    if (event == QKeySequence::Paste) {
        pasteBounded();
        event->accept();
        return;
    }
    const QString typed = event->text();
    const bool inserts = !typed.isEmpty() && typed.at(0).isPrint() && !(event->modifiers() & Qt::ControlModifier);
    if (inserts && !isReadOnly() && characterCount(typed) > room()) {
        emit inputCut(characterCount(typed), 0, m_max);
        event->accept();
        return;
    }
    QLineEdit::keyPressEvent(event);
}

void BoundedLineEdit::contextMenuEvent(QContextMenuEvent* event)
{
    QMenu* menu = createStandardContextMenu();
    menu->setAttribute(Qt::WA_DeleteOnClose);
    // The standard Paste action calls QLineEdit::paste(), which is not virtual: reroute it. Qt 6.4
    // names none of these actions; their text ends with the shortcut, whatever the language.
    const QString pasteKey = QLatin1Char('\t') + QKeySequence(QKeySequence::Paste).toString(QKeySequence::NativeText);
    for (QAction* action : menu->actions())
        if (action->text().endsWith(pasteKey)) {
            disconnect(action, &QAction::triggered, nullptr, nullptr);
            connect(action, &QAction::triggered, this, [this] { pasteBounded(); });
        }
    menu->popup(event->globalPos());
}

void BoundedLineEdit::dropEvent(QDropEvent* event)
{
    if (event->source() == this || !event->mimeData()->hasText() || isReadOnly()) {
        QLineEdit::dropEvent(event); // moving its own text: nothing grows
        return;
    }
    deselect();
    setCursorPosition(cursorPositionAt(event->position().toPoint()));
    insertBounded(event->mimeData()->text());
    event->acceptProposedAction();
    setFocus();
}

void BoundedLineEdit::mouseReleaseEvent(QMouseEvent* event)
{
    if (event->button() == Qt::MiddleButton && QGuiApplication::clipboard()->supportsSelection() && !isReadOnly()) {
        deselect();
        pasteBounded(QClipboard::Selection);
        event->accept();
        return;
    }
    QLineEdit::mouseReleaseEvent(event);
}

void BoundedLineEdit::inputMethodEvent(QInputMethodEvent* event)
{
    const FittedText fit = fitInto(event->commitString(), room());
    if (!fit.cut) {
        QLineEdit::inputMethodEvent(event);
        return;
    }
    QInputMethodEvent cut(event->preeditString(), event->attributes());
    cut.setCommitString(fit.kept, event->replacementStart(), event->replacementLength());
    QLineEdit::inputMethodEvent(&cut);
    emit inputCut(fit.offered, characterCount(fit.kept), m_max);
}

} // namespace dsw
