#include "StageTable.h"

#include "util/Count.h"

#include <QHeaderView>

namespace dsw {

namespace {

// "ZeRO-3", "ZeRO-3 + CPU offload (optimizer)", "ZeRO-3 + CPU offload (optimizer, parameters)".
QString planName(const nlohmann::ordered_json& row)
{
    QString name = QStringLiteral("ZeRO-%1").arg(row.at("stage").get<int>());
    const std::string optimizer = row.value("offload_optimizer", "none"), param = row.value("offload_param", "none");
    if (optimizer != "none" && param != "none")
        name += optimizer == param
            ? StageTable::tr(" + %1 offload (optimizer, parameters)").arg(QString::fromStdString(optimizer).toUpper())
            : StageTable::tr(" + optimizer → %1, parameters → %2")
                  .arg(QString::fromStdString(optimizer).toUpper(), QString::fromStdString(param).toUpper());
    else if (optimizer != "none")
        name += StageTable::tr(" + %1 offload (optimizer)").arg(QString::fromStdString(optimizer).toUpper());
    return name;
}

} // namespace

StageTable::StageTable(QWidget* parent)
    : QTableWidget(parent)
{
    setObjectName(QStringLiteral("stageTable"));
    setColumnCount(kColumns);
    setHorizontalHeaderLabels({tr("Plan"), tr("Micro-batch"), tr("Fits"), tr("GPU total"), tr("Params"), tr("Grads"),
                               tr("Optimizer"), tr("Activations"), tr("CPU / node")});
    horizontalHeaderItem(kActivations)
        ->setToolTip(tr("Activations alive at the step's peak. Where the peak is the optimizer step (ZeRO-0, large "
                        "optimizer states), the activations are already freed and do not count."));
    verticalHeader()->hide();
    setEditTriggers(QAbstractItemView::NoEditTriggers);
    setSelectionMode(QAbstractItemView::NoSelection);
    horizontalHeader()->setSectionResizeMode(QHeaderView::ResizeToContents);
}

void StageTable::showAdvice(const Advice& zero)
{
    const auto& rows = zero.details.at("stage_table");
    // Sized to their contents once, after every cell is set: while ResizeToContents is on, each setItem() measured
    // every row of its column again (the view asks for the new item's rectangle), most of an edit on this page.
    horizontalHeader()->setSectionResizeMode(QHeaderView::Interactive);
    setRowCount(static_cast<int>(rows.size()));
    int r = 0;
    for (const auto& row : rows) {
        auto bytes = [&](const char* key) { return QString::fromStdString(formatGiB(row.at(key).get<double>())); };
        const bool yours = row.value("your_choice", false);
        const bool pick = row.value("wizard_pick", false);
        // The marks say which plan is which; the numbers are every row's own (a forced stage hides none).
        QString plan = planName(row);
        if (yours)
            plan += pick ? tr("  ◀ your choice, also the wizard's pick") : tr("  ◀ your choice");
        else if (pick)
            plan += tr("  ◀ the wizard's pick");
        const double activations = row.at("activations_bytes").get<double>();
        QStringList cells = {plan,
                             tr("%1 × %2%3")
                                 .arg(row.at("micro_batch_size").get<std::int64_t>())
                                 .arg(row.at("gradient_accumulation_steps").get<std::int64_t>())
                                 .arg(row.value("activation_checkpointing", false) ? tr(", checkpointing") : QString()),
                             row.at("fits").get<bool>() ? tr("✓ fits") : tr("✗ does not fit"),
                             bytes("gpu_total_bytes"),
                             bytes("params_bytes"),
                             bytes("grads_bytes"),
                             bytes("optimizer_bytes"),
                             activations > 0 ? bytes("activations_bytes") : tr("freed"),
                             bytes("cpu_per_node_bytes")};
        for (int c = 0; c < cells.size(); ++c) {
            auto* item = new QTableWidgetItem(cells[c]);
            item->setTextAlignment(c <= kFits ? Qt::AlignLeft | Qt::AlignVCenter : Qt::AlignRight | Qt::AlignVCenter);
            if (c == kPlan)
                item->setToolTip(QString::fromStdString(row.value("label", std::string())));
            QFont f = item->font();
            f.setBold(yours || pick);
            item->setFont(f);
            setItem(r, c, item);
        }
        ++r;
    }
    horizontalHeader()->setSectionResizeMode(QHeaderView::ResizeToContents);
}

} // namespace dsw
