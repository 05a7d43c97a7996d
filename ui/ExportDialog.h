#pragma once
#include "config/ConfigExport.h"
#include "project/Answers.h"

#include <QDialog>

class QComboBox;
class QDialogButtonBox;
class QTabWidget;

namespace dsw {

// Export…: choose what the launcher reads, preview every file, then write. Writing is the caller's.
class ExportDialog : public QDialog {
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(ExportDialog)
public:
    // Opens on the form the launcher reads (HF "auto" JSON for hf-trainer / accelerate, strict for deepspeed).
    ExportDialog(nlohmann::ordered_json config, Answers answers, QWidget* parent = nullptr, ExportOptions options = {});
    ExportTarget target() const;
    std::vector<ExportFile> files() const;
    void setTarget(ExportTarget target);

private:
    void refresh();

    nlohmann::ordered_json m_config;
    Answers m_answers;
    ExportOptions m_options;
    QComboBox* m_target;
    QTabWidget* m_previews;
    QDialogButtonBox* m_buttons;
};

} // namespace dsw
