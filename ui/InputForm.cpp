#include "InputForm.h"

#include "GpuCatalog.h"

#include <QComboBox>
#include <QFormLayout>
#include <QLabel>
#include <QLineEdit>
#include <QPlainTextEdit>
#include <QSignalBlocker>
#include <QVBoxLayout>

namespace dsw {

namespace {
QString displayText(const nlohmann::json& value)
{
    if (value.is_string())
        return QString::fromStdString(value.get<std::string>());
    if (value.is_null())
        return {};
    return QString::fromStdString(value.dump());
}
} // namespace

InputForm::InputForm(const std::vector<const InputSpec*>& specs, QWidget* parent)
    : QWidget(parent)
{
    auto* outer = new QVBoxLayout(this);
    auto* layout = new QFormLayout();
    layout->setFieldGrowthPolicy(QFormLayout::ExpandingFieldsGrow);
    outer->addLayout(layout);
    outer->addStretch(1); // fields stay at the top, whatever the page's height
    for (const InputSpec* spec : specs) {
        const QString id = QString::fromStdString(spec->id);
        QWidget* editor = nullptr;
        if (spec->type == InputType::Choice || spec->type == InputType::Gpu || spec->type == InputType::Boolean) {
            auto* combo = new QComboBox(this);
            const auto values = spec->type == InputType::Gpu ? GpuCatalog::instance().ids()
                : spec->type == InputType::Boolean           ? std::vector<std::string>{"false", "true"}
                                                             : spec->values;
            for (const auto& v : values)
                combo->addItem(QString::fromStdString(v));
            connect(combo, &QComboBox::currentTextChanged, this, [this, id](const QString& text) {
                commit(m_fields.at(id.toStdString()), text);
            });
            editor = combo;
        } else if (spec->type == InputType::Text && spec->max > 4096) {
            auto* box = new QPlainTextEdit(this); // long pasted text, e.g. an error message
            box->setMaximumHeight(160);
            connect(box, &QPlainTextEdit::textChanged, this, [this, id, box] {
                commit(m_fields.at(id.toStdString()), box->toPlainText());
            });
            editor = box;
        } else {
            auto* line = new QLineEdit(this);
            connect(line, &QLineEdit::textEdited, this, [this, id](const QString& text) {
                commit(m_fields.at(id.toStdString()), text);
            });
            editor = line;
        }
        editor->setObjectName(id);
        QString tip = QString::fromStdString(spec->help) + "\n" + id + " — allowed: " + QString::fromStdString(InputRegistry::allowed(*spec));
        editor->setToolTip(tip);
        auto* error = new QLabel(this);
        error->setObjectName(id + ".error");
        error->setWordWrap(true);
        error->setVisible(false);
        QString label = QString::fromStdString(spec->label);
        if (spec->unit == "GiB")
            label += QStringLiteral(" (%1)").arg(QString::fromStdString(spec->unit));
        layout->addRow(label, editor);
        layout->addRow(QString(), error);
        m_fields[spec->id] = {spec, editor, error};
    }
}

void InputForm::load(const Answers& answers)
{
    for (auto& [id, field] : m_fields) {
        const QSignalBlocker blocker(field.editor);
        const nlohmann::json value = answers.value(id);
        if (auto* combo = qobject_cast<QComboBox*>(field.editor)) {
            combo->setCurrentText(displayText(value));
        } else if (auto* box = qobject_cast<QPlainTextEdit*>(field.editor)) {
            if (box->toPlainText() != displayText(value))
                box->setPlainText(displayText(value));
        } else if (auto* line = qobject_cast<QLineEdit*>(field.editor)) {
            if (answers.has(id)) {
                if (!line->hasFocus() || field.error->isVisible())
                    line->setText(displayText(value));
            } else {
                line->clear();
            }
            // The default (or what it is derived from) shows as a placeholder: not typed, not saved.
            line->setPlaceholderText(field.spec->derivedDefault.empty() ? displayText(field.spec->defaultValue)
                                                                        : displayText(value) + "  (" + QString::fromStdString(field.spec->derivedDefault) + ")");
        }
        field.error->setVisible(false);
    }
}

void InputForm::commit(const Field& field, const QString& text)
{
    if (text.trimmed().isEmpty() && field.spec->type != InputType::Choice && field.spec->type != InputType::Gpu
        && field.spec->type != InputType::Boolean) {
        field.error->setVisible(false);
        emit edited(field.spec->id, nullptr); // back to the default
        return;
    }
    const QString value = field.spec->type == InputType::Text ? text : text.trimmed();
    auto parsed = InputRegistry::instance().parse(field.spec->id, value.toStdString());
    if (!parsed) {
        field.error->setText(QStringLiteral("⚠ ") + QString::fromStdString(parsed.error()));
        field.error->setVisible(true);
        return;
    }
    field.error->setVisible(false);
    emit edited(field.spec->id, parsed.value());
}

} // namespace dsw
