#pragma once
#include "advise/Advice.h"

#include <QStringList>
#include <QWidget>

#include <cstdint>
#include <vector>

namespace dsw {

// The pipeline step's picture: one horizontal bar per stage, its length the stage's per-GPU memory
// against the usable capacity, labelled with its layer range, layer count, parameters and memory.
// Everything shown comes from the pipeline advice's details; the widget decides nothing.
class PipelineChart : public QWidget {
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(PipelineChart)
public:
    explicit PipelineChart(QWidget* parent = nullptr);
    void showAdvice(const Advice& pipeline);

    int barCount() const { return static_cast<int>(m_bars.size()); }
    QStringList barLabels() const;
    bool exceedsCapacity(int stage) const;
    // Shown instead of bars when the advice has no plan (no pipeline, bad input, a failing method).
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
