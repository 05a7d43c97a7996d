#pragma once
#include <QPlainTextEdit>
#include <nlohmann/json.hpp>

namespace dsw {

class JsonHighlighter;

// The read-only, highlighted ds_config. Lines whose content changed with the last update are marked;
// lines longer than kMaxDisplayedLine are shown cut (with how much is not shown).
class JsonPreview : public QPlainTextEdit {
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(JsonPreview)
public:
    explicit JsonPreview(QWidget* parent = nullptr);
    // With `markChanges`, lines not in the previous config are highlighted (the keys the last edit changed).
    void showConfig(const nlohmann::ordered_json& config, bool markChanges);
    QString highlighterBackend() const;
    // Selects and scrolls to a 1-based line (a finding's key).
    void highlightLine(int line);
    int changedLineCount() const { return m_changedLines; }

protected:
    void changeEvent(QEvent* event) override;

private:
    JsonHighlighter* m_highlighter;
    QStringList m_previousLines;
    int m_changedLines = 0;
};

} // namespace dsw
