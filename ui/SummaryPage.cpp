#include "SummaryPage.h"

#include "BoundedText.h"
#include "Steps.h"

#include <QHBoxLayout>
#include <QLabel>
#include <QPushButton>
#include <QTextBrowser>
#include <QVBoxLayout>

namespace dsw {

SummaryPage::SummaryPage(QWidget* parent)
    : QWidget(parent)
    , m_text(new QTextBrowser(this))
{
    setObjectName(QStringLiteral("summaryPage"));
    auto* layout = new QVBoxLayout(this);
    layout->addWidget(new QLabel(tr("<h2>Summary</h2>"), this));
    m_text->setObjectName(QStringLiteral("summaryText"));
    layout->addWidget(m_text, 1);
    auto* buttons = new QHBoxLayout();
    auto* copy = new QPushButton(tr("Copy JSON"), this);
    auto* exportButton = new QPushButton(tr("Export…"), this);
    buttons->addStretch();
    buttons->addWidget(copy);
    buttons->addWidget(exportButton);
    layout->addLayout(buttons);
    connect(copy, &QPushButton::clicked, this, &SummaryPage::copyRequested);
    connect(exportButton, &QPushButton::clicked, this, &SummaryPage::exportRequested);
}

void SummaryPage::showProject(const Project& project, const Plan& plan)
{
    QString h = "<table cellspacing=6>";
    for (const auto& advice : plan.workflows) {
        const StepState state = stepState(plan, project, advice.workflow);
        QString what;
        if (state == StepState::Conflict) {
            for (const auto& c : advice.checks)
                if (c.level == CheckLevel::Fail)
                    what += QString::fromStdString(c.code) + " ";
            for (const auto& f : plan.findings)
                what += QString::fromStdString(f.code) + " ";
            what = tr("conflict: %1").arg(what.trimmed());
        } else if (state == StepState::NeedsInput) {
            QStringList missing;
            for (const auto& m : advice.missing)
                missing << QString::fromStdString(m);
            what = tr("needs input: %1").arg(missing.join(", "));
        } else if (state == StepState::Complete) {
            what = tr("done");
        } else if (advice.status == AdviceStatus::NotApplicable) {
            what = tr("not applicable to these answers");
        } else {
            what = tr("not reviewed yet (its recommendation is already in the config)");
        }
        h += QStringLiteral("<tr><td><b>%1</b></td><td>%2</td><td>%3</td></tr>")
                 .arg(QString::fromStdString(workflowTitle(advice.workflow)).toHtmlEscaped(), what.toHtmlEscaped(),
                      boundedForDisplay(advice.headline).toHtmlEscaped());
    }
    h += "</table>";
    for (const auto& e : plan.inputErrors)
        h += "<p>⚠ " + boundedForDisplay(e).toHtmlEscaped() + "</p>"; // may quote a value from the project file
    h += "<p><i>" + QString::fromStdString(plan.basis).toHtmlEscaped() + "</i></p>";
    m_text->setHtml(h);
}

} // namespace dsw
