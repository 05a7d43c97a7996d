#pragma once
#include <QPlainTextEdit>
#include <map>
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
    // Shows `shown` (the config in the form the launcher reads: strict or with "auto") for the strict `config`:
    // highlightLine() takes a line of the strict config's 2-space dump (a lint finding's) and finds its key in `shown`.
    void showConfig(const nlohmann::ordered_json& config, const nlohmann::ordered_json& shown, bool markChanges);
    // Selects and scrolls to a 1-based line (a finding's key).
    void highlightLine(int line);
    int changedLineCount() const { return m_changedLines; }

protected:
    void changeEvent(QEvent* event) override;

private:
    void showText(const nlohmann::ordered_json& shown, bool markChanges);

    JsonHighlighter* m_highlighter;
    QStringList m_previousLines;
    std::map<int, int> m_shownLineOf; // strict dump line -> line shown, where they differ (empty: the same)
    int m_changedLines = 0;
};

} // namespace dsw
