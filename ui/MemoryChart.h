#pragma once
#include "Plan.h"

#include <QChartView>

class QBarCategoryAxis;
class QBarSet;
class QLabel;
class QLineSeries;
class QStackedBarSeries;
class QValueAxis;

namespace dsw {

// Per-GPU memory by component for each ZeRO stage (no offload) and the recommendation, against capacity.
// Short bar labels ("0" … "3", "3+off", "plan", "✂" on a bar the axis cuts); the legend below the plot is a
// label that wraps to the view's width, with the components' full names and what each short label means (Qt's own
// legend is one row that cuts its names to a letter in a narrow tab). The capacity line is dashed, in the text
// colour, which no bar uses; the GiB axis ticks at round steps (1, 2 or 5 × 10^k).
// One chart for the widget's life: showPlan() changes its values and categories in place (a new QChart per
// edit was most of the window's refresh).
class MemoryChart : public QChartView {
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(MemoryChart)
public:
    explicit MemoryChart(QWidget* parent = nullptr);
    void showPlan(const Plan& plan);
    // The legend and notes shown below the plot (objectName "memoryChart.legend"), as text.
    QString legendText() const;

protected:
    void changeEvent(QEvent* event) override;
    void resizeEvent(QResizeEvent* event) override;

private:
    void followPalette();
    void updateLegend();
    void placeLegend();

    QStackedBarSeries* m_bars;
    std::vector<QBarSet*> m_sets; // one per component, in the order of the stack
    QLineSeries* m_capacity;
    QBarCategoryAxis* m_axisX;
    QValueAxis* m_lineX; // the capacity line's x axis (hidden): from the first bar's left edge to the last's right
    QValueAxis* m_axisY;
    QLabel* m_legend;
    QStringList m_notes; // what the short bar labels stand for, for the plan shown
};

} // namespace dsw
