#pragma once
#include "Plan.h"

#include <QTextBrowser>

namespace dsw {

// "Why": for the current workflow, the recommendation, checks ✓/⚠/✗, trade-offs, estimates with their
// formulas, code snippets and sources (a tag jumps to its entry: title, address, quote), and the statement that
// nothing was run.
class WhyView : public QTextBrowser {
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(WhyView)
public:
    explicit WhyView(QWidget* parent = nullptr);
    void showPlan(const Plan& plan, const std::string& workflow);

    static QString html(const Plan& plan, const std::string& workflow);

private:
    QString m_shownHtml; // what setHtml() was last given
};

} // namespace dsw
