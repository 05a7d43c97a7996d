#pragma once
#include "Plan.h"
#include "project/ProjectFile.h"

#include <QWidget>

class QTextBrowser;

namespace dsw {

// Per workflow: done, needs input (which), conflict (which); then the findings between workflows. The inputs a
// workflow waits for, or that its conflict names, link the page that asks them (fieldLinkActivated).
class SummaryPage : public QWidget {
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(SummaryPage)
public:
    explicit SummaryPage(QWidget* parent = nullptr);
    void showProject(const Project& project, const Plan& plan);

signals:
    void exportRequested();
    void copyRequested();
    void fieldLinkActivated(const std::string& id);

private:
    QTextBrowser* m_text;
};

} // namespace dsw
