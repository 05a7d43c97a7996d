#include "StageTable.h"

#include "util/Count.h"

#include <QHeaderView>

namespace dsw {

StageTable::StageTable(QWidget* parent)
    : QTableWidget(parent)
{
    setObjectName(QStringLiteral("stageTable"));
    setColumnCount(8);
    setHorizontalHeaderLabels({tr("Stage"), tr("Params"), tr("Grads"), tr("Optimizer"), tr("Activations"),
                               tr("GPU total"), tr("CPU / node"), tr("Fits")});
    verticalHeader()->hide();
    setEditTriggers(QAbstractItemView::NoEditTriggers);
    setSelectionMode(QAbstractItemView::NoSelection);
    horizontalHeader()->setSectionResizeMode(QHeaderView::ResizeToContents);
}

void StageTable::showAdvice(const Advice& zero)
{
    const auto& rows = zero.details.at("stage_table");
    const auto& rec = zero.details.at("recommended");
    setRowCount(static_cast<int>(rows.size()));
    int r = 0;
    for (const auto& row : rows) {
        auto bytes = [&](const char* key) { return QString::fromStdString(formatGiB(row.value(key, 0.0))); };
        const int stage = row.at("stage").get<int>();
        const bool chosen = rec.at("stage").get<int>() == stage && rec.at("offload_optimizer") == "none";
        QStringList cells = {QString::number(stage)
                                 + (row.value("activation_checkpointing", false) ? tr(" + ckpt") : QString()),
                             bytes("params_bytes"),
                             bytes("grads_bytes"),
                             bytes("optimizer_bytes"),
                             bytes("activations_bytes"),
                             bytes("gpu_total_bytes"),
                             bytes("cpu_per_node_bytes"),
                             row.value("fits", false) ? QStringLiteral("✓") : QStringLiteral("✗")};
        if (chosen)
            cells.last() += QStringLiteral(" ◀");
        for (int c = 0; c < cells.size(); ++c) {
            auto* item = new QTableWidgetItem(cells[c]);
            item->setTextAlignment(c == 0 ? Qt::AlignLeft | Qt::AlignVCenter : Qt::AlignRight | Qt::AlignVCenter);
            QFont f = item->font();
            f.setBold(chosen);
            item->setFont(f);
            setItem(r, c, item);
        }
        ++r;
    }
}

} // namespace dsw
