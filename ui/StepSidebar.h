#pragma once
#include "Pages.h"

#include <QListWidget>

namespace dsw {

// The wizard's steps with their state: ✓ complete, ● current, ○ not visited, ! needs input or conflict.
class StepSidebar : public QListWidget {
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(StepSidebar)
public:
    explicit StepSidebar(QWidget* parent = nullptr);
    void showStates(const std::vector<std::pair<std::string, PageState>>& states, const std::string& current);
    std::string stepAt(int row) const;
    // As wide as the longest step title: the splitter gives the sidebar this width and no more.
    QSize sizeHint() const override;

signals:
    void stepSelected(const std::string& step);
};

} // namespace dsw
