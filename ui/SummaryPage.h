#pragma once
#include "Plan.h"
#include "project/ProjectFile.h"

#include <QWidget>

class QTextBrowser;

namespace dsw {

// Per workflow: done, needs input (which), conflict (which); then the findings between workflows.
class SummaryPage : public QWidget {
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(SummaryPage)
public:
    explicit SummaryPage(QWidget* parent = nullptr);
    void showProject(const Project& project, const Plan& plan);

signals:
    void exportRequested();
    void copyRequested();

private:
    QTextBrowser* m_text;
};

} // namespace dsw
