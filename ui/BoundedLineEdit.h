#pragma once
#include <QClipboard>
#include <QLineEdit>

namespace dsw {

// A one-line field that never holds more than `maxCharacters`: a paste (shortcut, context menu,
// middle click), a drop or typing enters only what fits, and `inputCut` says how much was offered.
// QLineEdit's own maxLength stays as a backstop for any other path (it counts UTF-16 units).
class BoundedLineEdit : public QLineEdit {
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(BoundedLineEdit)
public:
    BoundedLineEdit(qsizetype maxCharacters, QWidget* parent = nullptr);
    qsizetype maxCharacters() const { return m_max; }
    // Replaces the selection with as much of `text` as fits (one line: line breaks become spaces).
    void insertBounded(const QString& text);
    void pasteBounded(QClipboard::Mode mode = QClipboard::Clipboard);

signals:
    // `offered` characters were pasted, dropped or typed; `kept` of them fit under `limit`.
    void inputCut(qsizetype offered, qsizetype kept, qsizetype limit);

protected:
    void keyPressEvent(QKeyEvent* event) override;
    void contextMenuEvent(QContextMenuEvent* event) override;
    void dropEvent(QDropEvent* event) override;
    void mouseReleaseEvent(QMouseEvent* event) override;
    void inputMethodEvent(QInputMethodEvent* event) override;

private:
    qsizetype room() const; // characters that still fit, the selection being replaced

    qsizetype m_max;
};

} // namespace dsw
