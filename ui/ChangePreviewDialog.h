#pragma once
#include "advise/ChangePreview.h"
#include "project/Answers.h"

#include <QDialog>

class QPushButton;

namespace dsw {

// Shown before an Apply from the plan: the answers it sets (old → new, by label) and the ZeRO page's chosen plan
// before and after (for an out-of-memory step, the failed run without and with it), memory per GPU and time per step
// from the step model. Apply is disabled when nothing applies.
class ChangePreviewDialog : public QDialog {
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(ChangePreviewDialog)
public:
    ChangePreviewDialog(const ChangePreview& preview, const Answers& answers, QWidget* parent = nullptr);
    // The whole preview as plain text (what the dialog shows; for the status bar and tests).
    static QString describe(const ChangePreview& preview, const Answers& answers);

private:
    QPushButton* m_apply;
};

} // namespace dsw
