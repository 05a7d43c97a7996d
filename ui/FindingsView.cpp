#include "FindingsView.h"

#include "BoundedText.h"

#include <QSignalBlocker>

namespace dsw {

namespace {
constexpr int kLineRole = Qt::UserRole;
constexpr int kPointerRole = Qt::UserRole + 1;

QString compact(const nlohmann::ordered_json& value)
{
    return value.is_null() ? QStringLiteral("(absent)") : boundedForDisplay(value.dump());
}

QListWidgetItem* heading(QListWidget* list, const QString& text)
{
    auto* item = new QListWidgetItem(text, list);
    QFont font = item->font();
    font.setBold(true);
    item->setFont(font);
    item->setFlags(Qt::ItemIsEnabled);
    return item;
}
} // namespace

FindingsView::FindingsView(QWidget* parent)
    : QListWidget(parent)
{
    setObjectName(QStringLiteral("findingsView"));
    setWordWrap(true);
    setResizeMode(QListView::Adjust);
    setUniformItemSizes(false);
    setSpacing(2);
    connect(this, &QListWidget::currentItemChanged, this, [this](QListWidgetItem* item) {
        if (item && item->data(kLineRole).toInt() > 0)
            emit lineSelected(item->data(kLineRole).toInt());
    });
    connect(this, &QListWidget::itemChanged, this, [this](QListWidgetItem* item) {
        if (!item->data(kPointerRole).toString().isEmpty())
            emit suggestionToggled(item->data(kPointerRole).toString().toStdString(),
                                   item->checkState() == Qt::Checked);
    });
}

void FindingsView::showFindings(const std::vector<LintFinding>& findings, const std::vector<Suggestion>& suggestions)
{
    const QSignalBlocker blocker(this);
    clear();
    heading(this, tr("Lint findings (%1)").arg(findings.size()));
    for (const auto& f : findings) {
        QString text = QString::fromStdString(mark(f.level)) + " "
            + QString::fromStdString(f.path.empty() ? "/" : f.path) + ": " + QString::fromStdString(f.message);
        if (f.suggestion)
            text += "\n→ " + QString::fromStdString(*f.suggestion);
        // Paths and messages quote keys and values of an imported config: a list item lays out all it holds.
        auto* item = new QListWidgetItem(boundedForDisplay(text), this);
        item->setToolTip(QString::fromStdString(f.code)
                         + (f.source ? " [" + QString::fromStdString(*f.source) + "]" : QString()));
        item->setData(kLineRole, f.line);
    }
    if (!suggestions.empty())
        heading(this, tr("Suggestions for the imported config (applied only when ticked)"));
    for (const auto& s : suggestions) {
        auto* item = new QListWidgetItem(
            tr("%1: %2 → %3\n%4")
                .arg(boundedForDisplay(s.pointer), compact(s.from), compact(s.to), boundedForDisplay(s.reason)),
            this);
        item->setData(kPointerRole, QString::fromStdString(s.pointer));
        item->setFlags(item->flags() | Qt::ItemIsUserCheckable);
        item->setCheckState(s.accepted ? Qt::Checked : Qt::Unchecked);
    }
    m_findingCount = static_cast<int>(findings.size());
    m_suggestionCount = static_cast<int>(suggestions.size());
}

int FindingsView::findingCount() const { return m_findingCount; }
int FindingsView::suggestionCount() const { return m_suggestionCount; }

} // namespace dsw
