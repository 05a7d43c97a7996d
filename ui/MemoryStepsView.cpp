#include "MemoryStepsView.h"

#include "BoundedText.h"
#include "project/InputLabels.h"
#include "util/Count.h"

#include <QHBoxLayout>
#include <QLabel>
#include <QPushButton>
#include <QVBoxLayout>

namespace dsw {

MemoryStepsView::MemoryStepsView(QWidget* parent)
    : QWidget(parent)
    , m_rows(new QVBoxLayout(this))
{
    setObjectName(QStringLiteral("remedies"));
    m_rows->setContentsMargins(0, 0, 0, 0);
}

void MemoryStepsView::showSteps(const std::vector<memory::Remedy>& steps)
{
    std::string shown; // what the rows show: an unchanged list keeps its widgets
    for (const memory::Remedy& s : steps)
        shown += s.change + '\x1f' + s.tradeoff + '\x1f' + std::to_string(s.saving.value_or(-1)) + '\x1f'
            + std::to_string(s.gpuAfter().value_or(-1)) + '\x1f' + std::to_string(s.after ? s.after->time.total : -1)
            + '\x1e';
    if (shown == m_shown)
        return;
    m_shown = std::move(shown);
    while (QLayoutItem* item = m_rows->takeAt(0)) {
        delete item->widget();
        delete item;
    }
    m_count = static_cast<int>(steps.size());
    if (m_count > 0) {
        auto* heading = new QLabel(tr("<b>Steps</b> (cheapest first; each is applied alone to the failed run, and "
                                      "Apply shows the change first)"),
                                   this);
        heading->setWordWrap(true);
        m_rows->addWidget(heading);
    }
    for (int i = 0; i < m_count; ++i) {
        const memory::Remedy& s = steps[static_cast<std::size_t>(i)];
        QString text = tr("%1. %2").arg(i + 1).arg(boundedForDisplay(withInputLabels(s.change)));
        if (s.saving)
            text += tr(" — saves %1").arg(QString::fromStdString(formatGiB(static_cast<double>(*s.saving))));
        if (s.after)
            text += tr(", %1 per GPU and %2 s per step after")
                        .arg(QString::fromStdString(formatGiB(static_cast<double>(s.after->gpu.total))))
                        .arg(s.after->time.total, 0, 'f', 2);
        auto* row = new QWidget(this);
        auto* layout = new QHBoxLayout(row);
        layout->setContentsMargins(0, 0, 0, 0);
        auto* label = new QLabel(text, row);
        label->setTextFormat(Qt::PlainText);
        label->setWordWrap(true);
        label->setToolTip(boundedForDisplay(s.tradeoff));
        auto* apply = new QPushButton(tr("Apply…"), row);
        apply->setObjectName(QStringLiteral("applyStep%1").arg(i + 1));
        apply->setToolTip(tr("Shows what this step changes (answers, memory and time) before applying it"));
        layout->addWidget(label, 1);
        layout->addWidget(apply, 0, Qt::AlignTop);
        connect(apply, &QPushButton::clicked, this, [this, i] { emit applyRequested(i); });
        m_rows->addWidget(row);
    }
}

} // namespace dsw
