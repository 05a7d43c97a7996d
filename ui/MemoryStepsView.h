#pragma once
#include "advise/Advice.h"

#include <QWidget>

class QVBoxLayout;

namespace dsw {

// The out-of-memory plan's steps on the memory page, each with its expected saving and an Apply… button that asks
// for a preview of the change (applyRequested); the steps come from the memory advice (details.steps).
class MemoryStepsView : public QWidget {
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(MemoryStepsView)
public:
    explicit MemoryStepsView(QWidget* parent = nullptr);
    void showAdvice(const Advice& memory);
    int stepCount() const { return m_count; }

signals:
    void applyRequested(int index);

private:
    QVBoxLayout* m_rows;
    int m_count = 0;
    std::string m_shown; // the steps shown, so an unchanged plan keeps the widgets (and the focus)
};

} // namespace dsw
