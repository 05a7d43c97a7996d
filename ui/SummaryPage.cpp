#include "SummaryPage.h"

#include "BoundedText.h"
#include "FieldLinks.h"
#include "Pages.h"
#include "project/InputLabels.h"

#include <QHBoxLayout>
#include <QLabel>
#include <QPushButton>
#include <QTextBrowser>
#include <QUrl>
#include <QVBoxLayout>
#include <algorithm>

namespace dsw {

namespace {

// The inputs a workflow's line is about: those it waits for, or those its failed checks and findings name.
std::vector<std::string> inputsNamed(const Plan& plan, const Project& project, const Advice& advice)
{
    std::vector<std::string> ids;
    auto add = [&ids](const std::string& id) {
        if (std::find(ids.begin(), ids.end(), id) == ids.end())
            ids.push_back(id);
    };
    const PageState state = pageState(plan, project, advice.workflow);
    if (state == PageState::NeedsInput || state == PageState::NotUsed || state == PageState::Conflict)
        for (const auto& id : advice.missing)
            add(id);
    if (state == PageState::Conflict) {
        std::vector<std::string> messages;
        for (const auto& c : advice.checks)
            if (c.level == CheckLevel::Fail)
                messages.push_back(c.message);
        for (const auto& f : plan.findings)
            if (std::find(f.workflows.begin(), f.workflows.end(), advice.workflow) != f.workflows.end())
                messages.push_back(f.message);
        for (const auto& m : messages)
            for (const LabelledPart& part : labelledParts(m))
                if (!part.inputId.empty())
                    add(part.inputId);
    }
    return ids;
}

// "“Nodes” (in Setup), “GPU” (in Setup)": each input's label with its page as a link.
QString linkedInputs(const std::vector<std::string>& ids)
{
    QStringList named;
    for (const auto& id : ids) {
        const QString link = fieldPageLink(id);
        const QString label = QString::fromStdString(inputLabel(id)).toHtmlEscaped();
        named << (link.isEmpty() ? label : QStringLiteral("%1 (%2)").arg(label, link));
    }
    return named.join(QStringLiteral(", "));
}

} // namespace

SummaryPage::SummaryPage(QWidget* parent)
    : QWidget(parent)
    , m_text(new QTextBrowser(this))
{
    setObjectName(QStringLiteral("summaryPage"));
    auto* layout = new QVBoxLayout(this);
    layout->addWidget(new QLabel(tr("<h2>Summary</h2>"), this));
    m_text->setObjectName(QStringLiteral("summaryText"));
    m_text->setOpenLinks(false); // a link goes to a field's page (fieldLinkActivated), never a document
    connect(m_text, &QTextBrowser::anchorClicked, this, [this](const QUrl& url) {
        if (const std::string id = fieldFromHref(url.toString()); !id.empty())
            emit fieldLinkActivated(id);
    });
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
        // The words come from models/ (Pages.h: reviewText): "applied" only when the config holds the change.
        QString what = boundedForDisplay(reviewText(plan, project, advice.workflow)).toHtmlEscaped(); // may quote
        if (const auto ids = inputsNamed(plan, project, advice); !ids.empty())
            what += "<br>" + tr("Go to: %1").arg(linkedInputs(ids));
        h += QStringLiteral("<tr><td><b>%1</b></td><td>%2</td><td>%3</td></tr>")
                 .arg(QString::fromStdString(workflowTitle(advice.workflow)).toHtmlEscaped(), what,
                      linkedFieldText(advice.headline));
    }
    h += "</table>";
    for (const auto& e : plan.inputErrors)
        h += "<p>⚠ " + linkedFieldText(e) + "</p>"; // may quote the project file: escaped
    h += "<p><i>" + QString::fromStdString(plan.basis).toHtmlEscaped() + "</i></p>";
    m_text->setHtml(h);
}

} // namespace dsw
