#pragma once
#include "config/ImportedConfigPlan.h"
#include "lint/ConfigLinter.h"

#include <QListWidget>
#include <vector>

namespace dsw {

// Beside the JSON: what the linter finds in the config shown, and for an imported config the wizard's
// suggestions, each with an Apply… button (a preview first; applyRequested) or, once applied, Unapply. Selecting a finding asks for its line to be highlighted.
class FindingsView : public QListWidget {
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(FindingsView)
public:
    explicit FindingsView(QWidget* parent = nullptr);
    void showFindings(const std::vector<LintFinding>& findings, const std::vector<Suggestion>& suggestions);
    int findingCount() const;
    int suggestionCount() const;

signals:
    void lineSelected(int line);
    void suggestionToggled(const std::string& pointer, bool accepted);
    void applyRequested(const std::string& pointer);

private:
    int m_findingCount = 0;
    int m_suggestionCount = 0;
};

} // namespace dsw
