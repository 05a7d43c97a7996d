#include "StepSidebar.h"

#include <QSignalBlocker>

namespace dsw {

StepSidebar::StepSidebar(QWidget* parent)
    : QListWidget(parent)
{
    setObjectName(QStringLiteral("stepSidebar"));
    for (const auto& step : wizardPages()) {
        auto* item = new QListWidgetItem(QString::fromStdString(pageTitle(step)), this);
        item->setData(Qt::UserRole, QString::fromStdString(step));
    }
    connect(this, &QListWidget::currentRowChanged, this, [this](int row) {
        if (row >= 0)
            emit stepSelected(stepAt(row));
    });
}

QSize StepSidebar::sizeHint() const
{
    // The marks ("✓ ", "● ") are in the titles; a little room for the focus frame and a scroll bar.
    const int content = sizeHintForColumn(0) + 2 * frameWidth() + 2 * spacing() + 8;
    return {content, QListWidget::sizeHint().height()};
}

std::string StepSidebar::stepAt(int row) const
{
    const QListWidgetItem* it = item(row);
    return it ? it->data(Qt::UserRole).toString().toStdString() : std::string();
}

void StepSidebar::showStates(const std::vector<std::pair<std::string, PageState>>& states, const std::string& current)
{
    const QSignalBlocker blocker(this);
    for (int row = 0; row < count(); ++row) {
        QListWidgetItem* it = item(row);
        const std::string step = stepAt(row);
        QString mark = QStringLiteral("   ");
        QString tip;
        for (const auto& [id, state] : states) {
            if (id != step)
                continue;
            switch (state) {
            case PageState::Complete: mark = QStringLiteral("✓ "); break;
            case PageState::NeedsInput:
            case PageState::Conflict: mark = QStringLiteral("! "); break;
            case PageState::NotVisited: mark = QStringLiteral("○ "); break;
            case PageState::Changed: mark = QStringLiteral("↻ "); break;
            case PageState::NotUsed: mark = QStringLiteral("– "); break;
            }
            tip = QString::fromStdString(toString(state));
        }
        if (step == current) {
            mark = QStringLiteral("● ");
            setCurrentRow(row);
        }
        it->setText(mark + QString::fromStdString(pageTitle(step)));
        it->setToolTip(tip);
        it->setData(Qt::UserRole + 1, tip);
    }
}

} // namespace dsw
