#pragma once
#include "advise/ZeroDecision.h"

#include <QTableWidget>

namespace dsw {

// The ZeRO step's table: per stage (and the chosen plan or the wizard's pick where they offload), the batch, whether
// it fits, the GPU total and its components, CPU per node; the chosen plan and the wizard's pick marked in a narrow
// column of their own (the words in full in its tooltip). Headers and plan names are short (in full in tooltips), so
// that every column shows in a 1400-pixel window; a narrower one scrolls the table as a whole.
class StageTable : public QTableWidget {
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(StageTable)
public:
    enum Column { kPlan, kMark, kBatch, kFits, kGpuTotal, kParams, kGrads, kOptimizer, kActivations, kCpu, kColumns };
    explicit StageTable(QWidget* parent = nullptr);
    void showDecision(const ZeroDecision* zero); // null: the job cannot be sized, no rows
};

} // namespace dsw
