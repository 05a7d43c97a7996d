#pragma once
#include <QPlainTextEdit>

namespace dsw {

// A multi-line field that never holds more than `maxCharacters`: a paste, a drop or typing that
// would exceed it enters only what fits (so an over-long paste never reaches the text layout),
// and `inputCut` says how much was offered. Lines longer than kLongLine wrap anywhere: wrapping
// one long line at word boundaries costs the layout superlinear time (0.4 s for 64 Ki characters).
class BoundedPlainTextEdit : public QPlainTextEdit {
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(BoundedPlainTextEdit)
public:
    static constexpr qsizetype kLongLine = 1000;

    BoundedPlainTextEdit(qsizetype maxCharacters, QWidget* parent = nullptr);
    qsizetype maxCharacters() const { return m_max; }
    // Replaces the whole text (from a project, not the user): the wrap mode is chosen first.
    void showText(const QString& text);

signals:
    // `offered` characters were pasted, dropped or typed; `kept` of them fit under `limit`.
    void inputCut(qsizetype offered, qsizetype kept, qsizetype limit);

protected:
    void insertFromMimeData(const QMimeData* source) override;
    void keyPressEvent(QKeyEvent* event) override;
    void inputMethodEvent(QInputMethodEvent* event) override;

private:
    qsizetype room() const; // characters that still fit, the selection being replaced
    void chooseWrap(qsizetype longestLine);
    qsizetype longestLine() const;

    qsizetype m_max;
};

} // namespace dsw
