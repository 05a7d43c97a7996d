#include "ExportDialog.h"

#include "BoundedText.h"

#include <QComboBox>
#include <QDialogButtonBox>
#include <QFontDatabase>
#include <QFormLayout>
#include <QPlainTextEdit>
#include <QPushButton>
#include <QTabWidget>
#include <QVBoxLayout>

namespace dsw {

namespace {
const std::vector<std::pair<ExportTarget, const char*>> kTargets = {
    {ExportTarget::DeepSpeedJson, "ds_config.json — strict JSON (DeepSpeed, Transformers, Accelerate)"},
    {ExportTarget::HfJson, "ds_config.json with \"auto\" where Transformers / Accelerate fill values in"},
    {ExportTarget::AccelerateYaml, "accelerate_config.yaml pointing at the JSON"},
    {ExportTarget::Launch, "launch.sh with the launcher command (and a hostfile for several nodes)"},
    {ExportTarget::Bundle, "Bundle: every file the chosen launcher needs, into a folder"},
};
} // namespace

ExportDialog::ExportDialog(nlohmann::ordered_json config, Answers answers, QWidget* parent, ExportOptions options)
    : QDialog(parent)
    , m_config(std::move(config))
    , m_answers(std::move(answers))
    , m_options(std::move(options))
    , m_target(new QComboBox(this))
    , m_previews(new QTabWidget(this))
{
    setWindowTitle(tr("Export"));
    setObjectName(QStringLiteral("exportDialog"));
    m_target->setObjectName(QStringLiteral("exportTarget"));
    for (const auto& [target, label] : kTargets)
        if (target != ExportTarget::AccelerateYaml || exportRefusal(m_answers, target).empty()) // accelerate only
            m_target->addItem(tr(label), static_cast<int>(target));
    m_target->setCurrentIndex(m_target->findData(static_cast<int>(
        launcherConfigForm(m_answers) == ConfigForm::HfAuto ? ExportTarget::HfJson : ExportTarget::DeepSpeedJson)));
    auto* form = new QFormLayout();
    form->addRow(tr("Export"), m_target);
    m_buttons = new QDialogButtonBox(QDialogButtonBox::Save | QDialogButtonBox::Cancel, this);
    auto* buttons = m_buttons;
    auto* layout = new QVBoxLayout(this);
    layout->addLayout(form);
    layout->addWidget(m_previews, 1);
    layout->addWidget(buttons);
    connect(m_target, &QComboBox::currentIndexChanged, this, &ExportDialog::refresh);
    connect(buttons, &QDialogButtonBox::accepted, this, &QDialog::accept);
    connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);
    resize(760, 560);
    refresh();
}

ExportTarget ExportDialog::target() const { return static_cast<ExportTarget>(m_target->currentData().toInt()); }

void ExportDialog::setTarget(ExportTarget target)
{
    m_target->setCurrentIndex(m_target->findData(static_cast<int>(target)));
}

std::vector<ExportFile> ExportDialog::files() const { return exportFiles(m_config, m_answers, target(), m_options); }

void ExportDialog::refresh()
{
    while (m_previews->count() > 0) // clear() would keep the pages as children
        delete m_previews->widget(0);
    const std::string refusal = exportRefusal(m_answers, target());
    m_buttons->button(QDialogButtonBox::Save)->setEnabled(refusal.empty());
    if (!refusal.empty()) {
        auto* why = new QPlainTextEdit(QString::fromStdString(refusal), m_previews);
        why->setReadOnly(true);
        why->setObjectName(QStringLiteral("exportRefusal"));
        m_previews->addTab(why, tr("Not exported"));
    }
    for (const auto& f : files()) {
        // Shown with long lines cut (the file written is complete).
        auto* view = new QPlainTextEdit(linesBoundedForDisplay(QString::fromStdString(f.content)), m_previews);
        view->setReadOnly(true);
        view->setFont(QFontDatabase::systemFont(QFontDatabase::FixedFont));
        view->setObjectName(QString::fromStdString(f.name));
        m_previews->addTab(view, QString::fromStdString(f.name));
    }
}

} // namespace dsw
