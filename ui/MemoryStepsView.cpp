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
    setObjectName(QStringLiteral("memorySteps"));
    m_rows->setContentsMargins(0, 0, 0, 0);
}

void MemoryStepsView::showAdvice(const Advice& memory)
{
    const nlohmann::ordered_json steps =
        memory.details.contains("steps") ? memory.details.at("steps") : nlohmann::ordered_json::array();
    if (steps.dump() == m_shown)
        return;
    m_shown = steps.dump();
    while (QLayoutItem* item = m_rows->takeAt(0)) {
        delete item->widget();
        delete item;
    }
    m_count = static_cast<int>(steps.size());
    if (m_count > 0) {
        auto* heading = new QLabel(tr("<b>Steps</b> (each builds on the ones above it; Apply shows the change first)"), this);
        heading->setWordWrap(true);
        m_rows->addWidget(heading);
    }
    for (int i = 0; i < m_count; ++i) {
        const auto& s = steps[static_cast<std::size_t>(i)];
        QString text = tr("%1. %2").arg(i + 1).arg(boundedForDisplay(withInputLabels(s.value("change", std::string()))));
        if (s.contains("saving_bytes") && s["saving_bytes"].is_number())
            text += tr(" — saves %1").arg(QString::fromStdString(formatGiB(s["saving_bytes"].get<double>())));
        if (s.contains("estimated_gpu_bytes_after") && s["estimated_gpu_bytes_after"].is_number())
            text += tr(", %1 per GPU after")
                        .arg(QString::fromStdString(formatGiB(s["estimated_gpu_bytes_after"].get<double>())));
        auto* row = new QWidget(this);
        auto* layout = new QHBoxLayout(row);
        layout->setContentsMargins(0, 0, 0, 0);
        auto* label = new QLabel(text, row);
        label->setTextFormat(Qt::PlainText);
        label->setWordWrap(true);
        label->setToolTip(boundedForDisplay(s.value("tradeoff", std::string())));
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
