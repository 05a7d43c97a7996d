#include "WorkflowPage.h"

#include "BoundedText.h"
#include "FieldLinks.h"
#include "InputForm.h"
#include "MemoryStepsView.h"
#include "Pages.h"
#include "PipelineChart.h"
#include "StageTable.h"
#include "project/InputLabels.h"

#include <QDateTime>
#include <QLabel>
#include <QLocale>
#include <QScrollArea>
#include <QVBoxLayout>

namespace dsw {

WorkflowPage::WorkflowPage(const std::string& step, QWidget* parent)
    : QWidget(parent)
    , m_step(step)
    , m_headline(new QLabel(this))
    , m_status(new QLabel(this))
    , m_checks(new QLabel(this))
    , m_form(new InputForm(InputRegistry::instance().onPage(step), step == "setup", this))
    , m_scroll(new QScrollArea(this))
{
    setObjectName(QString::fromStdString(step) + "Page");
    auto* layout = new QVBoxLayout(this);
    auto* title = new QLabel(QStringLiteral("<h2>%1</h2>")
                                 .arg(QString::fromStdString(step == "setup" ? "Setup: model, GPUs, cluster, software"
                                                                             : workflowTitle(step))),
                             this);
    layout->addWidget(title);
    m_headline->setObjectName(QStringLiteral("headline"));
    m_headline->setWordWrap(true);
    m_status->setObjectName(QStringLiteral("status"));
    m_status->setWordWrap(true);
    layout->addWidget(m_headline);
    layout->addWidget(m_status);
    m_checks->setObjectName(QStringLiteral("checks"));
    m_checks->setWordWrap(true);
    layout->addWidget(m_checks);
    // Rich text, every part from the plan or a file escaped (FieldLinks.h): a field's page is a link, reached by
    // mouse or keyboard (Tab to it, Enter).
    for (QLabel* label : {m_headline, m_status, m_checks}) {
        label->setTextFormat(Qt::RichText);
        label->setTextInteractionFlags(Qt::LinksAccessibleByMouse | Qt::LinksAccessibleByKeyboard);
        connect(label, &QLabel::linkActivated, this, [this](const QString& href) {
            if (const std::string id = fieldFromHref(href); !id.empty())
                emit fieldLinkActivated(id);
        });
    }
    if (step == "zero") {
        m_table = new StageTable(this);
        m_table->setSizeAdjustPolicy(QAbstractScrollArea::AdjustToContents);
        m_table->setSizePolicy(QSizePolicy::Preferred, QSizePolicy::Maximum);
        layout->addWidget(m_table);
    }
    if (step == "pipeline") {
        m_pipelineChart = new PipelineChart(this);
        layout->addWidget(m_pipelineChart);
    }
    QScrollArea* scroll = m_scroll;
    scroll->setWidgetResizable(true);
    if (step == "memory") { // the plan's steps scroll with the form: they can be many
        auto* content = new QWidget(scroll);
        auto* contentLayout = new QVBoxLayout(content);
        contentLayout->setContentsMargins(0, 0, 0, 0);
        m_memorySteps = new MemoryStepsView(content);
        contentLayout->addWidget(m_memorySteps);
        contentLayout->addWidget(m_form);
        connect(m_memorySteps, &MemoryStepsView::applyRequested, this, &WorkflowPage::applyStepRequested);
        scroll->setWidget(content);
    } else {
        scroll->setWidget(m_form);
    }
    scroll->setFrameShape(QFrame::NoFrame);
    scroll->setHorizontalScrollBarPolicy(Qt::ScrollBarAlwaysOff);
    layout->addWidget(scroll, 1);
    connect(m_form, &InputForm::edited, this, &WorkflowPage::edited);
    connect(m_form, &InputForm::inputCut, this, &WorkflowPage::inputCut);
}

void WorkflowPage::showProject(const Project& project, const Plan& plan)
{
    m_form->load(project.answers, derivedInputs(plan, project.answers));
    m_form->hideNotAsked(inputsNotAsked(plan, project.answers, m_step));
    const Advice* advice = plan.find(m_step);
    if (!advice) {
        m_headline->setText(m_step == "setup" ? tr("Answers here are shared by every workflow and asked only once.")
                                              : QString());
        QStringList errors;
        for (const auto& e : plan.inputErrors)
            errors << "⚠ " + linkedFieldText(e, m_step); // may quote a value from the project file: escaped
        m_status->setText(errors.join("<br>"));
        takeFocusForLinks();
        return;
    }
    // Words, not ids: the labels of the inputs; the ids stay in the tooltips.
    m_headline->setText(QStringLiteral("<b>%1</b>").arg(linkedFieldText(advice->headline, m_step)));
    m_headline->setToolTip(boundedForDisplay(advice->headline));
    // The time the page was reviewed for people: local, in the locale's short form, not the file's UTC ISO text.
    QString status = QString::fromStdString(pageStatus(plan, project, m_step));
    if (const HandledWorkflow* handled = project.handledEntry(m_step))
        if (const QString at = QString::fromStdString(handled->at); !at.isEmpty())
            if (const QDateTime time = QDateTime::fromString(at, Qt::ISODate); time.isValid())
                status.replace(at, QLocale().toString(time.toLocalTime(), QLocale::ShortFormat));
    m_status->setText(
        tr("Status: %1. %2").arg(status.toHtmlEscaped(), QString::fromStdString(plan.basis).toHtmlEscaped()));
    // The checks in brief (warnings and failures first); the Why tab has them in full with sources.
    QStringList lines;
    for (const CheckLevel level : {CheckLevel::Fail, CheckLevel::Warn, CheckLevel::Pass})
        for (const auto& c : advice->checks)
            if (c.level == level)
                lines << linkedFieldText(mark(level) + " " + c.message, m_step);
    const bool optional = pageState(plan, project, m_step) == PageState::NotUsed;
    for (const auto& m : advice->missing) {
        const QString label = QString::fromStdString(inputLabel(m)).toHtmlEscaped();
        const QString link = fieldPageLink(m, m_step);
        const QString named = link.isEmpty() ? label : QStringLiteral("%1 (%2)").arg(label, link);
        lines.prepend((optional ? tr("Optional: give %1 to use this step") : tr("Needs input: %1")).arg(named));
    }
    m_checks->setText(lines.join("<br>"));
    takeFocusForLinks();
    if (m_table)
        m_table->showDecision(plan.zero ? &*plan.zero : nullptr);
    if (m_pipelineChart)
        m_pipelineChart->showStages(plan.pipeline, advice->headline);
    if (m_memorySteps)
        m_memorySteps->showSteps(plan.remedies);
}

void WorkflowPage::takeFocusForLinks()
{
    // A label is a Tab stop only while it holds a link: the keyboard reaches every link, and no empty stop.
    for (QLabel* label : {m_headline, m_status, m_checks})
        label->setFocusPolicy(label->text().contains(QStringLiteral("<a ")) ? Qt::StrongFocus : Qt::NoFocus);
}

bool WorkflowPage::focusField(const std::string& id)
{
    auto* editor = m_form->findChild<QWidget*>(QString::fromStdString(id));
    if (!editor)
        return false;
    editor->setFocus(Qt::OtherFocusReason);
    m_scroll->ensureWidgetVisible(editor);
    return true;
}

} // namespace dsw
