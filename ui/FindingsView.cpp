#include "FindingsView.h"

#include <QHeaderView>
#include <QSignalBlocker>

namespace dsw {

namespace {
constexpr int kLineRole = Qt::UserRole;
constexpr int kPointerRole = Qt::UserRole + 1;

QString levelMark(LintLevel level)
{
    switch (level) {
    case LintLevel::Error: return QStringLiteral("✗");
    case LintLevel::Warning: return QStringLiteral("⚠");
    case LintLevel::Info: return QStringLiteral("ℹ");
    }
    return {};
}

QString compact(const nlohmann::ordered_json& value)
{
    return value.is_null() ? QStringLiteral("(absent)") : QString::fromStdString(value.dump());
}
} // namespace

FindingsView::FindingsView(QWidget* parent)
    : QTreeWidget(parent)
    , m_findings(new QTreeWidgetItem(this, {tr("Lint findings")}))
    , m_suggestions(new QTreeWidgetItem(this, {tr("Suggestions (applied only when accepted)")}))
{
    setObjectName(QStringLiteral("findingsView"));
    setColumnCount(2);
    setHeaderLabels({tr("Finding"), tr("Where")});
    header()->setSectionResizeMode(0, QHeaderView::Stretch);
    setWordWrap(true);
    connect(this, &QTreeWidget::currentItemChanged, this, [this](QTreeWidgetItem* item) {
        if (item && item->data(0, kLineRole).toInt() > 0)
            emit lineSelected(item->data(0, kLineRole).toInt());
    });
    connect(this, &QTreeWidget::itemChanged, this, [this](QTreeWidgetItem* item, int column) {
        if (column == 0 && item->parent() == m_suggestions)
            emit suggestionToggled(item->data(0, kPointerRole).toString().toStdString(), item->checkState(0) == Qt::Checked);
    });
}

void FindingsView::showFindings(const std::vector<LintFinding>& findings, const std::vector<Suggestion>& suggestions)
{
    const QSignalBlocker blocker(this);
    qDeleteAll(m_findings->takeChildren());
    qDeleteAll(m_suggestions->takeChildren());
    for (const auto& f : findings) {
        QString text = levelMark(f.level) + " " + QString::fromStdString(f.message);
        if (f.suggestion)
            text += "\n→ " + QString::fromStdString(*f.suggestion);
        auto* item = new QTreeWidgetItem(m_findings, {text, QString::fromStdString(f.path.empty() ? "/" : f.path)});
        item->setToolTip(0, QString::fromStdString(f.code) + (f.source ? " [" + QString::fromStdString(*f.source) + "]" : QString()));
        item->setData(0, kLineRole, f.line);
    }
    for (const auto& s : suggestions) {
        const QString text = tr("%1: %2 → %3\n%4")
                                 .arg(QString::fromStdString(s.pointer), compact(s.from), compact(s.to),
                                      QString::fromStdString(s.reason));
        auto* item = new QTreeWidgetItem(m_suggestions, {text, QString::fromStdString(s.workflow)});
        item->setData(0, kPointerRole, QString::fromStdString(s.pointer));
        item->setFlags(item->flags() | Qt::ItemIsUserCheckable);
        item->setCheckState(0, s.accepted ? Qt::Checked : Qt::Unchecked);
    }
    m_findings->setText(0, tr("Lint findings (%1)").arg(findings.size()));
    m_suggestions->setHidden(suggestions.empty());
    expandAll();
}

int FindingsView::findingCount() const { return m_findings->childCount(); }
int FindingsView::suggestionCount() const { return m_suggestions->childCount(); }

} // namespace dsw
