#include "FindingsView.h"

#include "BoundedText.h"
#include "FieldLinks.h"
#include "project/InputLabels.h"

#include <QHBoxLayout>
#include <QLabel>
#include <QPushButton>
#include <QResizeEvent>
#include <QSignalBlocker>

namespace dsw {

namespace {
constexpr int kLineRole = Qt::UserRole;
constexpr int kPointerRole = Qt::UserRole + 1;
constexpr int kTextRole = Qt::UserRole + 2; // a row's text when its row widget shows it

QString compact(const nlohmann::ordered_json& value)
{
    return value.is_null() ? QStringLiteral("(absent)") : boundedForDisplay(value.dump());
}

bool namesAnInput(const std::string& text)
{
    for (const LabelledPart& part : labelledParts(text))
        if (!part.inputId.empty())
            return true;
    return false;
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
        const std::string path = f.path.empty() ? "/" : f.path;
        const std::string plain = mark(f.level) + " " + path + ": " + withInputLabels(f.message)
            + (f.suggestion ? "\n→ " + withInputLabels(*f.suggestion) : std::string());
        // Paths and messages quote keys and values of an imported config: a list item lays out all it holds.
        auto* item = new QListWidgetItem(this);
        item->setToolTip(QString::fromStdString(f.code)
                         + (f.source ? " [" + QString::fromStdString(*f.source) + "]" : QString()));
        item->setData(kLineRole, f.line);
        const bool links = namesAnInput(f.message) || (f.suggestion && namesAnInput(*f.suggestion));
        if (!links) {
            item->setText(boundedForDisplay(plain));
            continue;
        }
        // A finding that names an input links the page that asks it; the row's background stays the list's, so
        // that selecting it shows.
        item->setData(kTextRole, boundedForDisplay(plain));
        auto* row = new QWidget(this);
        auto* layout = new QHBoxLayout(row);
        layout->setContentsMargins(4, 2, 4, 2);
        QString html = QString::fromStdString(mark(f.level)).toHtmlEscaped() + " "
            + boundedForDisplay(path).toHtmlEscaped() + ": " + linkedFieldText(f.message);
        if (f.suggestion)
            html += "<br>→ " + linkedFieldText(*f.suggestion);
        layout->addWidget(linkLabel(html, row), 1);
        setItemWidget(item, row);
    }
    if (!suggestions.empty())
        heading(this, tr("Suggestions for the imported config (applied only with Apply)"));
    for (const auto& s : suggestions) {
        const QString status = s.accepted ? tr("✓ applied") : tr("○ not applied");
        const QString text =
            tr("%1 %2: %3 → %4\n%5")
                .arg(status, boundedForDisplay(s.pointer), compact(s.from), compact(s.to),
                     QString::fromStdString(withInputLabels(boundedForDisplay(s.reason).toStdString())));
        const QString html =
            tr("%1 %2: %3 → %4<br>%5")
                .arg(status.toHtmlEscaped(), boundedForDisplay(s.pointer).toHtmlEscaped(),
                     compact(s.from).toHtmlEscaped(), compact(s.to).toHtmlEscaped(), linkedFieldText(s.reason));
        auto* item = new QListWidgetItem(this);
        item->setData(kPointerRole, QString::fromStdString(s.pointer));
        item->setData(kTextRole, text);
        auto* row = new QWidget(this);
        row->setAutoFillBackground(true);
        auto* layout = new QHBoxLayout(row);
        layout->setContentsMargins(4, 2, 4, 2);
        auto* label = linkLabel(html, row);
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
        setItemWidget(item, row);
    }
    fitRowHeights();
    m_findingCount = static_cast<int>(findings.size());
    m_suggestionCount = static_cast<int>(suggestions.size());
}

QLabel* FindingsView::linkLabel(const QString& html, QWidget* parent)
{
    auto* label = new QLabel(html, parent);
    label->setObjectName(QStringLiteral("findingText"));
    label->setTextFormat(Qt::RichText); // every part from the config or the plan is escaped (FieldLinks.h)
    label->setWordWrap(true);
    if (html.contains(QStringLiteral("<a "))) {
        label->setTextInteractionFlags(Qt::LinksAccessibleByMouse | Qt::LinksAccessibleByKeyboard);
        connect(label, &QLabel::linkActivated, this, [this](const QString& href) {
            if (const std::string id = fieldFromHref(href); !id.empty())
                emit fieldLinkActivated(id);
        });
    }
    return label;
}

void FindingsView::resizeEvent(QResizeEvent* event)
{
    QListWidget::resizeEvent(event);
    if (event->size().width() != event->oldSize().width())
        fitRowHeights();
}

void FindingsView::fitRowHeights()
{
    // A row widget's height is fixed by its item's size hint: set it for the width there is, so that wrapped text
    // grows the row when the pane narrows (and shrinks it when it widens) instead of being cut.
    const int width = viewport()->width() - 2 * spacing();
    for (int i = 0; i < count(); ++i) {
        QListWidgetItem* item = this->item(i);
        QWidget* row = itemWidget(item);
        if (!row)
            continue;
        const int height = width > 0 && row->hasHeightForWidth() ? row->heightForWidth(width) : -1;
        const QSize hint(width > 0 ? width : row->sizeHint().width(), height > 0 ? height : row->sizeHint().height());
        if (item->sizeHint() != hint)
            item->setSizeHint(hint);
    }
}

QString FindingsView::rowText(int row) const
{
    const QListWidgetItem* item = this->item(row);
    if (!item)
        return {};
    return item->text().isEmpty() ? item->data(kTextRole).toString() : item->text();
}

int FindingsView::findingCount() const { return m_findingCount; }
int FindingsView::suggestionCount() const { return m_suggestionCount; }

} // namespace dsw
