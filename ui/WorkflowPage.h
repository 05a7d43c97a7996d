#pragma once
#include "Plan.h"
#include "project/ProjectFile.h"

#include <QWidget>

class QLabel;
class QScrollArea;

namespace dsw {

class InputForm;
class MemoryStepsView;
class PipelineChart;
class StageTable;

// One wizard step: its title, the recommendation, the inputs this step asks (shared ones live on
// Setup and are never asked again), and for ZeRO the per-stage table.
class WorkflowPage : public QWidget {
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(WorkflowPage)
public:
    WorkflowPage(const std::string& step, QWidget* parent = nullptr);
    const std::string& step() const { return m_step; }
    void showProject(const Project& project, const Plan& plan);
    // Gives the field of input `id` the focus and scrolls it into view; false when this step does not ask it.
    bool focusField(const std::string& id);

signals:
    void edited(const std::string& id, const nlohmann::json& value);
    void inputCut(const QString& message); // a field cut a paste: how much, and its limit
    void applyStepRequested(int index);    // the memory page: Apply… on the out-of-memory plan's step `index`
    void fieldLinkActivated(const std::string& id); // a message's link to the page of input `id` (FieldLinks.h)

private:
    void takeFocusForLinks();

    std::string m_step;
    QLabel* m_headline;
    QLabel* m_status;
    QLabel* m_checks;
    InputForm* m_form;
    QScrollArea* m_scroll;
    StageTable* m_table = nullptr;
    PipelineChart* m_pipelineChart = nullptr;
    MemoryStepsView* m_memorySteps = nullptr;
};

} // namespace dsw
