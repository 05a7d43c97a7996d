#pragma once
#include "Plan.h"

#include <QChartView>

namespace dsw {

// Per-GPU memory by component for each ZeRO stage (no offload) and the recommendation, against capacity.
class MemoryChart : public QChartView {
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(MemoryChart)
public:
    explicit MemoryChart(QWidget* parent = nullptr);
    void showPlan(const Plan& plan);
};

} // namespace dsw
