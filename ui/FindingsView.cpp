#include "FindingsView.h"

#include "BoundedText.h"

#include <QHBoxLayout>
#include <QLabel>
#include <QPushButton>
#include <QSignalBlocker>

namespace dsw {

namespace {
constexpr int kLineRole = Qt::UserRole;
constexpr int kPointerRole = Qt::UserRole + 1;
constexpr int kTextRole = Qt::UserRole + 2; // a suggestion's text (its row widget shows it)

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
        heading(this, tr("Suggestions for the imported config (applied only with Apply)"));
    for (const auto& s : suggestions) {
        const QString text = tr("%1 %2: %3 → %4\n%5")
                                 .arg(s.accepted ? tr("✓ applied") : tr("○ not applied"), boundedForDisplay(s.pointer),
                                      compact(s.from), compact(s.to), boundedForDisplay(s.reason));
        auto* item = new QListWidgetItem(this);
        item->setData(kPointerRole, QString::fromStdString(s.pointer));
        item->setData(kTextRole, text);
        auto* row = new QWidget(this);
        row->setAutoFillBackground(true);
        auto* layout = new QHBoxLayout(row);
        layout->setContentsMargins(4, 2, 4, 2);
        auto* label = new QLabel(text, row);
        label->setTextFormat(Qt::PlainText);
        label->setWordWrap(true);
        auto* button = new QPushButton(s.accepted ? tr("Unapply") : tr("Apply…"), row);
        button->setObjectName(QStringLiteral("suggestionButton"));
        button->setProperty("pointer", QString::fromStdString(s.pointer));
        button->setToolTip(s.accepted ? tr("Takes the imported value back (undoable)")
                                      : tr("Shows what this suggestion changes (answers, memory and time) first"));
        layout->addWidget(label, 1);
        layout->addWidget(button, 0, Qt::AlignTop);
        const std::string pointer = s.pointer;
        const bool accepted = s.accepted;
        connect(button, &QPushButton::clicked, this, [this, pointer, accepted] {
            if (accepted)
                emit suggestionToggled(pointer, false);
            else
                emit applyRequested(pointer);
        });
        item->setSizeHint(row->sizeHint());
        setItemWidget(item, row);
    }
    m_findingCount = static_cast<int>(findings.size());
    m_suggestionCount = static_cast<int>(suggestions.size());
}

int FindingsView::findingCount() const { return m_findingCount; }
int FindingsView::suggestionCount() const { return m_suggestionCount; }

} // namespace dsw
