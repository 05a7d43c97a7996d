#pragma once
#include "config/ImportedConfigPlan.h"
#include "lint/ConfigLinter.h"

#include <QListWidget>

class QLabel;
#include <vector>

namespace dsw {

// Beside the JSON: what the linter finds in the config shown, and for an imported config the wizard's
// suggestions, each with an Apply… button (a preview first; applyRequested) or, once applied, Unapply. Selecting a
// finding asks for its line to be highlighted. Inputs are named by their labels, their page a link
// (fieldLinkActivated). Rows shown as widgets wrap to the pane's width: their height follows it.
class FindingsView : public QListWidget {
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(FindingsView)
public:
    explicit FindingsView(QWidget* parent = nullptr);
    void showFindings(const std::vector<LintFinding>& findings, const std::vector<Suggestion>& suggestions);
    int findingCount() const;
    int suggestionCount() const;
    // The text of row `row` as shown (a row with links or a button holds it in a widget), in plain words.
    QString rowText(int row) const;

signals:
    void lineSelected(int line);
    void suggestionToggled(const std::string& pointer, bool accepted);
    void applyRequested(const std::string& pointer);
    void fieldLinkActivated(const std::string& id); // a link to the page of input `id` (FieldLinks.h)

protected:
    void resizeEvent(QResizeEvent* event) override;

private:
    QLabel* linkLabel(const QString& html, QWidget* parent);
    void fitRowHeights();

    int m_findingCount = 0;
    int m_suggestionCount = 0;
};

} // namespace dsw
