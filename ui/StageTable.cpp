#include "StageTable.h"

#include "util/Count.h"

#include <QHeaderView>

namespace dsw {

namespace {

// "ZeRO-3", "ZeRO-3 + CPU (opt.)", "ZeRO-3 + CPU (opt., params)", "ZeRO-3 + opt. → CPU, params → NVMe": the
// table's cell, with a mixture of experts' path (", leaf", ", EP 8") and the Ulysses degree (", SP 8"); planName() is
// the tooltip's.
QString shortPlanName(const StepCandidate& c)
{
    const Placement& row = c.placement;
    QString name = QStringLiteral("ZeRO-%1").arg(row.stage);
    const QString optimizer = QString::fromStdString(row.offloadOptimizer).toUpper(),
                  param = QString::fromStdString(row.offloadParam).toUpper();
    if (optimizer != "NONE" && param != "NONE")
        name += optimizer == param ? StageTable::tr(" + %1 (opt., params)").arg(optimizer)
                                   : StageTable::tr(" + opt. → %1, params → %2").arg(optimizer, param);
    else if (optimizer != "NONE")
        name += StageTable::tr(" + %1 (opt.)").arg(optimizer);
    if (c.moePath == MoeMode::Leaf)
        name += StageTable::tr(", leaf");
    else if (c.expertParallel > 1)
        name += StageTable::tr(", EP %1").arg(c.expertParallel);
    if (c.sequenceParallel > 1)
        name += StageTable::tr(", SP %1").arg(c.sequenceParallel);
    return name;
}

// "ZeRO-3", "ZeRO-3 + CPU offload (optimizer)", "ZeRO-3 + CPU offload (optimizer, parameters)".
QString planName(const Placement& row)
{
    QString name = QStringLiteral("ZeRO-%1").arg(row.stage);
    const std::string& optimizer = row.offloadOptimizer;
    const std::string& param = row.offloadParam;
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
        tr("Micro-batch per GPU × gradient accumulation steps (AC: activation checkpointing, → host: its checkpoints "
           "offloaded; FCE: fused cross-entropy; TL: tiled loss; TMLP: tiled MLP)"),
        tr("Whether the plan fits in the GPU's usable memory"),
        tr("GPU total per GPU: the sum of the columns right of it and the CUDA context, NCCL and the allocator's "
           "reserve"),
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

void StageTable::showDecision(const ZeroDecision* zero)
{
    const std::size_t rows = zero ? zero->stageTable.size() : 0;
    // Sized to their contents once, after every cell is set: while ResizeToContents is on, each setItem() measured
    // every row of its column again (the view asks for the new item's rectangle), most of an edit on this page.
    horizontalHeader()->setSectionResizeMode(QHeaderView::Interactive);
    setRowCount(static_cast<int>(rows));
    // The plan written is the fastest with what the user fixed, not a stage they chose.
    const QString fixed = zero ? QString::fromStdString(zero->fixed.text()) : QString();
    for (std::size_t r = 0; r < rows; ++r) {
        const std::size_t index = zero->stageTable[r];
        const StepPrediction& row = zero->candidates[index];
        const StepCandidate& c = row.candidate;
        auto bytes = [](std::int64_t b) { return QString::fromStdString(formatGiB(static_cast<double>(b))); };
        const bool yours = zero->userForced && index == zero->chosen;
        const bool pick = zero->wizardPick && index == *zero->wizardPick;
        // The marks say which plan is which (short in the cell, in full in its tooltip); the numbers are every row's
        // own (a forced stage hides none).
        const QString mark = yours ? (pick ? tr("◀ plan, pick") : tr("◀ plan")) : pick ? tr("◀ pick") : QString();
        const QString markInFull = yours
            ? (pick ? tr("◀ the best with your %1, also the wizard's pick") : tr("◀ the best with your %1")).arg(fixed)
            : pick ? tr("◀ the wizard's pick")
                   : QString();
        const QString checkpointing = !c.checkpointing ? QString()
            : c.checkpointLayers > 0                   ? tr(" AC %1").arg(c.checkpointLayers)
                                                       : tr(" AC");
        const QString loss = row.loss == LossImpl::Fused ? tr(" FCE")
            : row.loss == LossImpl::Tiled                ? tr(" TL")
                                                         : QString();
        QStringList cells = {shortPlanName(c),
                             mark,
                             tr("%1 × %2%3%4%5%6")
                                 .arg(c.microBatch)
                                 .arg(c.accumulation)
                                 .arg(checkpointing)
                                 .arg(c.checkpointOffload ? tr(" → host") : QString())
                                 .arg(loss)
                                 .arg(c.tiledMlp ? tr(" TMLP") : QString()),
                             !row.fits()     ? tr("✗ no")
                                 : row.tight ? tr("⚠ tight")
                                             : tr("✓ yes"),
                             bytes(row.gpu.total),
                             bytes(row.gpu.params),
                             bytes(row.gpu.grads),
                             bytes(row.gpu.optimizer),
                             row.gpu.activations > 0 ? bytes(row.gpu.activations) : tr("freed"),
                             bytes(row.cpuPerNode)};
        for (int col = 0; col < cells.size(); ++col) {
            auto* item = new QTableWidgetItem(cells[col]);
            item->setTextAlignment(col <= kFits ? Qt::AlignLeft | Qt::AlignVCenter : Qt::AlignRight | Qt::AlignVCenter);
            if (col == kPlan)
                item->setToolTip(planName(c.placement) + "\n" + QString::fromStdString(row.label()));
            else if (col == kMark)
                item->setToolTip(markInFull);
            else if (col == kBatch)
                item->setToolTip(QString::fromStdString(row.label()));
            else if (col == kFits && row.tight)
                item->setToolTip(tr("Within the step model's ±%1% of the GPU's usable memory: it may run out of memory")
                                     .arg(static_cast<int>(kTightBand * 100)));
            QFont f = item->font();
            f.setBold(yours || pick);
            item->setFont(f);
            setItem(static_cast<int>(r), col, item);
        }
    }
    horizontalHeader()->setSectionResizeMode(QHeaderView::ResizeToContents);
}

} // namespace dsw
