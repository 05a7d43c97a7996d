#pragma once
#include "advise/PipelineAdvisor.h"

#include <QStringList>
#include <QWidget>

#include <cstdint>
#include <vector>

namespace dsw {

// The pipeline step's picture: one horizontal bar per stage, its length the stage's per-GPU memory
// against the usable capacity, labelled with its layer range, layer count, parameters and memory.
// Everything shown comes from the plan's pipeline stages (Plan::pipeline); the widget decides nothing.
class PipelineChart : public QWidget {
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(PipelineChart)
public:
    explicit PipelineChart(QWidget* parent = nullptr);
    // `placeholder` is shown instead of bars when there is no sized plan (the page's headline says why).
    void showStages(const PipelineStages& stages, const std::string& placeholder);

    int barCount() const { return static_cast<int>(m_bars.size()); }
    QStringList barLabels() const;
    bool exceedsCapacity(int stage) const;
    // Shown instead of bars when there is no plan (no pipeline, bad input, a failing method).
    QString placeholderText() const { return m_placeholder; }

    QSize sizeHint() const override;
    QSize minimumSizeHint() const override;

protected:
    void paintEvent(QPaintEvent* event) override;

private:
    int rowHeight() const;
    struct Bar {
        QString label;
        double memoryBytes = 0;
        bool overCapacity = false;
    };
    std::vector<Bar> m_bars;
    double m_usableBytes = 0;
    QString m_placeholder;
};

} // namespace dsw
