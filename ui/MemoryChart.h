#pragma once
#include "Plan.h"

#include <QChartView>

class QBarCategoryAxis;
class QBarSet;
class QLineSeries;
class QStackedBarSeries;
class QValueAxis;

namespace dsw {

// Per-GPU memory by component for each ZeRO stage (no offload) and the recommendation, against capacity.
// One chart for the widget's life: showPlan() changes its values and categories in place (a new QChart per
// edit was most of the window's refresh).
class MemoryChart : public QChartView {
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(MemoryChart)
public:
    explicit MemoryChart(QWidget* parent = nullptr);
    void showPlan(const Plan& plan);

protected:
    void changeEvent(QEvent* event) override;

private:
    void followPalette();

    QStackedBarSeries* m_bars;
    std::vector<QBarSet*> m_sets; // one per component, in the order of the stack
    QLineSeries* m_capacity;
    QBarCategoryAxis* m_axisX;
    QValueAxis* m_lineX; // the capacity line's x axis (hidden): from the first bar's left edge to the last's right
    QValueAxis* m_axisY;
};

} // namespace dsw
