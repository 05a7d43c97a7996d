#include "StageTable.h"

#include "util/Count.h"

#include <QHeaderView>

namespace dsw {

namespace {

// "ZeRO-3", "ZeRO-3 + CPU (opt.)", "ZeRO-3 + CPU (opt., params)", "ZeRO-3 + opt. → CPU, params → NVMe": the
// table's cell; planName() is the tooltip's.
QString shortPlanName(const nlohmann::ordered_json& row)
{
    QString name = QStringLiteral("ZeRO-%1").arg(row.at("stage").get<int>());
    const QString optimizer = QString::fromStdString(row.value("offload_optimizer", "none")).toUpper(),
                  param = QString::fromStdString(row.value("offload_param", "none")).toUpper();
    if (optimizer != "NONE" && param != "NONE")
        name += optimizer == param ? StageTable::tr(" + %1 (opt., params)").arg(optimizer)
                                   : StageTable::tr(" + opt. → %1, params → %2").arg(optimizer, param);
    else if (optimizer != "NONE")
        name += StageTable::tr(" + %1 (opt.)").arg(optimizer);
    return name;
}

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
    // Compact headers (GiB per GPU unless said), the full names in their tooltips.
    setHorizontalHeaderLabels({tr("Plan"), QString(), tr("Batch"), tr("Fits"), tr("GPU"), tr("Params"), tr("Grads"),
                               tr("Optim."), tr("Activ."), tr("CPU/node")});
    const QString tips[kColumns] = {
        tr("The ZeRO stage and what it offloads"),
        tr("◀ marks the plan written with your settings and the wizard's pick"),
        tr("Micro-batch per GPU × gradient accumulation steps (AC: activation checkpointing)"),
        tr("Whether the plan fits in the GPU's usable memory"),
        tr("GPU total per GPU: the sum of the columns right of it and the CUDA context, NCCL and fragmentation"),
        tr("Parameters per GPU"),
        tr("Gradients per GPU"),
        tr("Optimizer states per GPU"),
        tr("Activations alive at the step's peak. Where the peak is the optimizer step (ZeRO-0, large "
           "optimizer states), the activations are already freed and do not count."),
        tr("CPU memory per node (offloaded states and pinned buffers)")};
    for (int c = 0; c < kColumns; ++c)
        horizontalHeaderItem(c)->setToolTip(tips[c]);
    setHorizontalScrollMode(QAbstractItemView::ScrollPerPixel); // a narrow window scrolls the table as a whole
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
        // The marks say which plan is which (short in the cell, in full in its tooltip); the numbers are every row's
        // own (a forced stage hides none).
        // The plan written is the fastest with what the user fixed (fixed_by_you), not a stage they chose.
        const QString fixed = QString::fromStdString(zero.details.value("fixed_by_you", std::string()));
        const QString mark = yours ? (pick ? tr("◀ plan, pick") : tr("◀ plan")) : pick ? tr("◀ pick") : QString();
        const QString markInFull = yours
            ? (pick ? tr("◀ the best with your %1, also the wizard's pick") : tr("◀ the best with your %1")).arg(fixed)
            : pick ? tr("◀ the wizard's pick")
                   : QString();
        const double activations = row.at("activations_bytes").get<double>();
        const bool checkpointing = row.value("activation_checkpointing", false);
        QStringList cells = {shortPlanName(row),
                             mark,
                             tr("%1 × %2%3")
                                 .arg(row.at("micro_batch_size").get<std::int64_t>())
                                 .arg(row.at("gradient_accumulation_steps").get<std::int64_t>())
                                 .arg(checkpointing ? tr(" AC") : QString()),
                             row.at("fits").get<bool>() ? tr("✓ yes") : tr("✗ no"),
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
                item->setToolTip(planName(row) + "\n" + QString::fromStdString(row.value("label", std::string())));
            else if (c == kMark)
                item->setToolTip(markInFull);
            else if (c == kBatch)
                item->setToolTip(tr("micro-batch %1 per GPU × %2 accumulation steps%3")
                                     .arg(row.at("micro_batch_size").get<std::int64_t>())
                                     .arg(row.at("gradient_accumulation_steps").get<std::int64_t>())
                                     .arg(checkpointing ? tr(", activation checkpointing") : QString()));
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
