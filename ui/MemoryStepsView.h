#pragma once
#include "advise/MemoryPlan.h"

#include <vector>

#include <QWidget>

class QVBoxLayout;

namespace dsw {

// The out-of-memory plan's steps on the memory page, each with its expected saving and an Apply… button that asks
// for a preview of that one change on the failed run (applyRequested); the steps are the plan's (Plan::remedies).
class MemoryStepsView : public QWidget {
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(MemoryStepsView)
public:
    explicit MemoryStepsView(QWidget* parent = nullptr);
    void showSteps(const std::vector<memory::Remedy>& steps);
    int stepCount() const { return m_count; }

signals:
    void applyRequested(int index);

private:
    QVBoxLayout* m_rows;
    int m_count = 0;
    std::string m_shown; // the steps shown, so an unchanged plan keeps the widgets (and the focus)
};

} // namespace dsw
