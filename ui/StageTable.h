#pragma once
#include "advise/Advice.h"

#include <QTableWidget>

namespace dsw {

// The ZeRO step's table: per stage, model states by component, activations, totals, CPU per node, fits.
class StageTable : public QTableWidget {
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(StageTable)
public:
    explicit StageTable(QWidget* parent = nullptr);
    void showAdvice(const Advice& zero);
};

} // namespace dsw
