#include "ChangePreviewDialog.h"

#include "BoundedText.h"
#include "project/InputLabels.h"
#include "util/Count.h"

#include <QDialogButtonBox>
#include <QLabel>
#include <QPushButton>
#include <QVBoxLayout>

namespace dsw {

namespace {

QString shown(const std::string& id, const nlohmann::json& value, const Answers& answers)
{
    const InputSpec* spec = InputRegistry::instance().find(id);
    if (value.is_null() || !spec)
        return value.is_null() ? ChangePreviewDialog::tr("(default)") : boundedForDisplay(value.dump());
    return boundedForDisplay(displayValue(*spec, value))
        + (answers.has(id) ? QString() : ChangePreviewDialog::tr(" (default)"));
}

QString figures(const PlanFigures& f)
{
    if (!f.sized)
        return ChangePreviewDialog::tr("not sized: %1").arg(boundedForDisplay(f.label));
    return ChangePreviewDialog::tr("%1 per GPU, %2 s per step, %3 — %4")
        .arg(QString::fromStdString(formatGiB(static_cast<double>(f.gpuBytes))))
        .arg(f.stepSeconds, 0, 'f', 2)
        .arg(f.fits ? ChangePreviewDialog::tr("fits") : ChangePreviewDialog::tr("does not fit"),
             QString::fromStdString(f.label));
}

} // namespace

QString ChangePreviewDialog::describe(const ChangePreview& p, const Answers& answers)
{
    QStringList lines;
    lines << boundedForDisplay(withInputLabels(p.title));
    if (!p.cannotApply.empty())
        lines << tr("Nothing to apply: %1.").arg(boundedForDisplay(p.cannotApply));
    QStringList kept; // answers given the value they already have: fixed, not changed
    for (const auto& e : p.edits) {
        const nlohmann::json old = answers.value(e.id);
        Answers after = answers;
        if (!e.value.is_null())
            after.set(e.id, e.value);
        else
            after.unset(e.id);
        if (after.value(e.id) == old) {
            kept << QString::fromStdString(inputLabel(e.id));
            continue;
        }
        lines << tr("• %1: %2 → %3")
                     .arg(QString::fromStdString(inputLabel(e.id)), shown(e.id, old, answers),
                          shown(e.id, after.value(e.id), after));
    }
    if (!kept.isEmpty())
        lines << tr("• Kept at their current values, now as your answers: %1").arg(kept.join(", "));
    if (p.edits.empty() && p.cannotApply.empty())
        lines << tr("No answer changes.");
    if (p.againstFailedRun) // an out-of-memory step: against the run that failed, not the ZeRO page's plan
        lines << tr("Failed run: %1").arg(figures(p.before)) << tr("With this step alone: %1").arg(figures(p.after));
    else
        lines << tr("Before: %1").arg(figures(p.before)) << tr("After: %1").arg(figures(p.after));
    if (p.before.sized && p.after.sized) {
        const double gib = static_cast<double>(p.after.gpuBytes - p.before.gpuBytes) / 1073741824.0;
        lines << tr("Change: %1%2 GiB per GPU, %3%4 s per step (the step model's prediction, not a measurement)")
                     .arg(gib >= 0 ? "+" : "")
                     .arg(gib, 0, 'f', 1)
                     .arg(p.after.stepSeconds >= p.before.stepSeconds ? "+" : "")
                     .arg(p.after.stepSeconds - p.before.stepSeconds, 0, 'f', 2);
    }
    for (const auto& n : p.notes)
        lines << "⚠ " + boundedForDisplay(withInputLabels(n));
    return lines.join('\n');
}

ChangePreviewDialog::ChangePreviewDialog(const ChangePreview& preview, const Answers& answers, QWidget* parent)
    : QDialog(parent)
{
    setObjectName(QStringLiteral("changePreviewDialog"));
    setWindowTitle(tr("Apply a change"));
    auto* layout = new QVBoxLayout(this);
    auto* text = new QLabel(describe(preview, answers), this);
    text->setObjectName(QStringLiteral("changePreviewText"));
    text->setTextFormat(Qt::PlainText);
    text->setWordWrap(true);
    text->setTextInteractionFlags(Qt::TextSelectableByMouse);
    layout->addWidget(text);
    auto* buttons = new QDialogButtonBox(QDialogButtonBox::Cancel, this);
    m_apply = buttons->addButton(tr("&Apply"), QDialogButtonBox::AcceptRole);
    m_apply->setObjectName(QStringLiteral("applyChangeButton"));
    m_apply->setEnabled(preview.cannotApply.empty());
    m_apply->setDefault(true);
    connect(buttons, &QDialogButtonBox::accepted, this, &QDialog::accept);
    connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);
    layout->addWidget(buttons);
    setMinimumWidth(480);
}

} // namespace dsw
