#include "SummaryPage.h"

#include "BoundedText.h"
#include "Steps.h"
#include "project/InputLabels.h"

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
    auto* copy = new QPushButton(tr("Co&py JSON"), this);
    auto* exportButton = new QPushButton(tr("E&xport…"), this);
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
        // The words come from models/ (Steps.h: reviewText): "applied" only when the config holds the change.
        const QString what = boundedForDisplay(reviewText(plan, project, advice.workflow)); // may quote the file
        h += QStringLiteral("<tr><td><b>%1</b></td><td>%2</td><td>%3</td></tr>")
                 .arg(QString::fromStdString(workflowTitle(advice.workflow)).toHtmlEscaped(), what.toHtmlEscaped(),
                      boundedForDisplay(withInputLabels(advice.headline)).toHtmlEscaped());
    }
    h += "</table>";
    for (const auto& e : plan.inputErrors)
        h += "<p>⚠ " + boundedForDisplay(withInputLabels(e)).toHtmlEscaped() + "</p>"; // may quote the project file
    h += "<p><i>" + QString::fromStdString(plan.basis).toHtmlEscaped() + "</i></p>";
    m_text->setHtml(h);
}

} // namespace dsw
