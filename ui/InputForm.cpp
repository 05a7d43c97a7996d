#include "InputForm.h"

#include "BoundedLineEdit.h"
#include "BoundedPlainTextEdit.h"
#include "BoundedText.h"
#include "knowledge/GpuCatalog.h"
#include "project/InputLabels.h"

#include <QComboBox>
#include <QCompleter>
#include <QFormLayout>
#include <QGroupBox>
#include <QLabel>
#include <QSignalBlocker>
#include <QTimer>
#include <QVBoxLayout>
#include <algorithm>

namespace dsw {

namespace {
constexpr std::size_t kSearchableChoices = 20;

QString displayText(const InputSpec& spec, const nlohmann::json& value)
{
    return QString::fromStdString(displayValue(spec, value));
}
} // namespace

InputForm::InputForm(const std::vector<const InputSpec*>& specs, bool sections, QWidget* parent)
    : QWidget(parent)
{
    auto* outer = new QVBoxLayout(this);
    auto makeForm = [] {
        auto* form = new QFormLayout();
        form->setFieldGrowthPolicy(QFormLayout::ExpandingFieldsGrow);
        return form;
    };
    // One form, or one per section in the order Model, Cluster, Training, Software, then the rest.
    std::map<std::string, QFormLayout*> forms;
    auto formFor = [&](const InputSpec& spec) {
        const std::string section = sections ? inputSection(spec) : std::string();
        auto it = forms.find(section);
        return it == forms.end() ? nullptr : it->second;
    };
    if (sections) {
        for (const char* name : {"Model", "Cluster", "Training", "Software"}) {
            if (std::none_of(specs.begin(), specs.end(), [&](const InputSpec* s) { return inputSection(*s) == name; }))
                continue;
            auto* box = new QGroupBox(tr(name), this);
            box->setObjectName(QStringLiteral("section.%1").arg(QString::fromLatin1(name)));
            forms[name] = makeForm();
            box->setLayout(forms[name]);
            outer->addWidget(box);
        }
    }
    if (!forms.count(std::string())) {
        forms[std::string()] = makeForm();
        outer->addLayout(forms[std::string()]);
    }
    outer->addStretch(1); // fields stay at the top, whatever the page's height
    for (const InputSpec* spec : specs) {
        const QString id = QString::fromStdString(spec->id);
        QWidget* editor = nullptr;
        QTimer* pending = nullptr;
        if (spec->type == InputType::Choice || spec->type == InputType::Gpu || spec->type == InputType::Boolean) {
            auto* combo = new QComboBox(this);
            const auto values = spec->type == InputType::Gpu ? GpuCatalog::instance().ids()
                : spec->type == InputType::Boolean           ? std::vector<std::string>{"false", "true"}
                                                             : spec->values;
            // The value is the item's data; its text may say "(default)" while the input is not answered (load()).
            for (const auto& v : values)
                combo->addItem(QString::fromStdString(v), QString::fromStdString(v));
            auto valueOf = [combo](const QString& text) {
                const int i = combo->findText(text);
                return i >= 0 ? combo->itemData(i).toString() : text;
            };
            if (spec->type == InputType::Choice && values.size() > kSearchableChoices) {
                // A long list (the model presets) is searched by typing any part of a name; a choice is committed
                // when picked or confirmed with Enter, not on every keystroke.
                combo->setEditable(true);
                combo->setInsertPolicy(QComboBox::NoInsert);
                combo->completer()->setCompletionMode(QCompleter::PopupCompletion);
                combo->completer()->setFilterMode(Qt::MatchContains);
                combo->completer()->setCaseSensitivity(Qt::CaseInsensitive);
                connect(combo, &QComboBox::textActivated, this, [this, id, valueOf](const QString& text) {
                    commit(m_fields.at(id.toStdString()), valueOf(text));
                });
            } else {
                connect(combo, &QComboBox::currentTextChanged, this, [this, id, valueOf](const QString& text) {
                    commit(m_fields.at(id.toStdString()), valueOf(text));
                });
                // Picking the default shown (its item is current, so the text does not change) makes it an answer.
                connect(combo, &QComboBox::activated, this, [this, id, combo](int index) {
                    if (index >= 0 && combo->itemText(index) != combo->itemData(index).toString())
                        commit(m_fields.at(id.toStdString()), combo->itemData(index).toString());
                });
            }
            editor = combo;
        } else if (spec->type == InputType::Text && spec->max > 4096) {
            // Long pasted text, e.g. an error message.
            auto* box = new BoundedPlainTextEdit(static_cast<qsizetype>(InputRegistry::maxCharacters(*spec)), this);
            box->setMaximumHeight(160);
            connect(box, &QPlainTextEdit::textChanged, this,
                    [this, id, box] { commit(m_fields.at(id.toStdString()), box->toPlainText()); });
            connect(box, &BoundedPlainTextEdit::inputCut, this,
                    [this, id](qsizetype offered, qsizetype kept, qsizetype limit) {
                        showCut(m_fields.at(id.toStdString()), offered, kept, limit);
                    });
            editor = box;
        } else {
            auto* line = new BoundedLineEdit(static_cast<qsizetype>(InputRegistry::maxCharacters(*spec)), this);
            // Applied when confirmed or after a pause, so that "1" of "1 TB" never reaches the plan.
            pending = new QTimer(line);
            pending->setSingleShot(true);
            pending->setInterval(kApplyAfterMs);
            connect(pending, &QTimer::timeout, this,
                    [this, id, line] { commit(m_fields.at(id.toStdString()), line->text()); });
            connect(line, &QLineEdit::textEdited, this, [this, id, pending](const QString& text) {
                Field& field = m_fields.at(id.toStdString());
                QFont font = field.editor->font(); // typed text is upright; the default placeholder italic
                font.setItalic(text.isEmpty());
                field.editor->setFont(font);
                // A message stays while the text is still wrong, and goes as soon as it is right.
                if (field.error->isVisible()
                    && InputRegistry::instance().parse(field.spec->id, text.trimmed().toStdString()))
                    field.error->setVisible(false);
                pending->start();
            });
            connect(line, &QLineEdit::editingFinished, this, [this, id, line, pending] {
                if (pending->isActive()) {
                    pending->stop();
                    commit(m_fields.at(id.toStdString()), line->text());
                }
            });
            connect(line, &BoundedLineEdit::inputCut, this,
                    [this, id](qsizetype offered, qsizetype kept, qsizetype limit) {
                        showCut(m_fields.at(id.toStdString()), offered, kept, limit);
                    });
            editor = line;
        }
        editor->setObjectName(id);
        // The help in words (other inputs by their labels); the field's own id last, for --set and the project file.
        QString tip = QString::fromStdString(withInputLabels(spec->help)) + "\n" + id
            + " — allowed: " + QString::fromStdString(InputRegistry::allowed(*spec));
        editor->setToolTip(tip);
        auto* error = new QLabel(this);
        error->setObjectName(id + ".error");
        error->setWordWrap(true);
        error->setVisible(false);
        error->setTextFormat(Qt::PlainText);
        auto* notice = new QLabel(this);
        notice->setObjectName(id + ".notice");
        notice->setWordWrap(true);
        notice->setTextFormat(Qt::PlainText);
        notice->setVisible(false);
        // As wide as the field (a word-wrapped label in a form row is otherwise narrow).
        error->setSizePolicy(QSizePolicy::Expanding, QSizePolicy::Preferred);
        notice->setSizePolicy(QSizePolicy::Expanding, QSizePolicy::Preferred);
        QFormLayout* layout = formFor(*spec);
        if (!layout)
            layout = forms.at(std::string());
        auto* label = new QLabel(QString::fromStdString(labelWithUnit(*spec)), this);
        label->setToolTip(id);
        label->setBuddy(editor);
        layout->addRow(label, editor);
        layout->addRow(QString(), error);
        layout->addRow(QString(), notice);
        m_fields[spec->id] = {spec, editor, error, notice, {}, pending, layout};
    }
}

void InputForm::hideNotAsked(const std::vector<std::string>& notAsked)
{
    for (auto& [id, field] : m_fields) {
        const bool asked = std::find(notAsked.begin(), notAsked.end(), id) == notAsked.end();
        if (field.layout && field.layout->isRowVisible(field.editor) != asked)
            field.layout->setRowVisible(field.editor, asked);
    }
}

void InputForm::load(const Answers& answers, const std::vector<DerivedInput>& derived)
{
    m_answers = answers;
    for (auto& [id, field] : m_fields) {
        const QSignalBlocker blocker(field.editor);
        const nlohmann::json value = answers.value(id);
        const InputSpec& spec = *field.spec;
        // A default is told from a typed value without colour: in italics ("(default)" in a placeholder).
        QFont font = field.editor->font();
        font.setItalic(!answers.has(id));
        field.editor->setFont(font);
        if (auto* combo = qobject_cast<QComboBox*>(field.editor)) {
            // Like a line edit's placeholder, a value not given says so in its text, not only in italics:
            // "A100-80GB  (default)" (or "(from Model preset)") until it is chosen.
            const QString shown = displayText(spec, value);
            for (int i = 0; i < combo->count(); ++i)
                if (combo->itemText(i) != combo->itemData(i).toString())
                    combo->setItemText(i, combo->itemData(i).toString());
            const int index = combo->findData(shown);
            if (index >= 0 && !answers.has(id))
                combo->setItemText(index,
                                   shown + "  ("
                                       + (answers.presetSupplies(id)
                                              ? tr("from %1").arg(QString::fromStdString(inputLabel("model.preset")))
                                              : tr("default"))
                                       + ")");
            if (index >= 0)
                combo->setCurrentIndex(index);
            else
                combo->setCurrentText(shown);
        } else if (auto* box = qobject_cast<BoundedPlainTextEdit*>(field.editor)) {
            if (const QString text = displayText(spec, value); box->toPlainText() != text) {
                box->showText(text);
                field.notice->setVisible(false); // another value (undo, another project): the note is old
            }
        } else if (auto* line = qobject_cast<QLineEdit*>(field.editor)) {
            const QString before = line->text();
            if (answers.has(id)) {
                // What the user is typing stays ("175B" is not rewritten); elsewhere the value shows.
                const bool typing = field.pending && field.pending->isActive();
                if (!typing && (!line->hasFocus() || field.error->isVisible()))
                    line->setText(firstCharacters(displayText(spec, value), InputRegistry::maxCharacters(spec)));
            } else {
                line->clear();
            }
            if (line->text() != before) {
                field.notice->setVisible(false);
                if (field.pending)
                    field.pending->stop();
            }
            // The default (or what it is derived from, or the preset that supplies it) shows as a placeholder:
            // not typed, not saved. A value the config was written with is shown as derived, with how.
            const auto written =
                std::find_if(derived.begin(), derived.end(), [&](const DerivedInput& d) { return d.id == id; });
            if (written != derived.end())
                line->setPlaceholderText(displayText(spec, written->value) + "  ("
                                         + tr("derived: %1").arg(QString::fromStdString(written->why)) + ")");
            else if (answers.presetSupplies(id))
                line->setPlaceholderText(displayText(spec, value) + "  ("
                                         + tr("from %1").arg(QString::fromStdString(inputLabel("model.preset"))) + ")");
            else
                line->setPlaceholderText(spec.derivedDefault.empty()
                                             ? displayText(spec, spec.defaultValue) + "  (" + tr("default") + ")"
                                             : displayText(spec, value) + "  ("
                                                 + QString::fromStdString(withInputLabels(spec.derivedDefault)) + ")");
        }
        field.error->setVisible(false);
    }
}

void InputForm::commit(Field& field, const QString& text)
{
    // An edit after the cut hides its note. (A drop commits after the cut was shown: it ends an edit block.)
    if (text != field.textWhenCut) {
        field.notice->setVisible(false);
        field.textWhenCut.clear();
    }
    if (text.trimmed().isEmpty() && field.spec->type != InputType::Choice && field.spec->type != InputType::Gpu
        && field.spec->type != InputType::Boolean) {
        field.error->setVisible(false);
        emit edited(field.spec->id, nullptr); // back to the default
        return;
    }
    const QString value = field.spec->type == InputType::Text ? text : text.trimmed();
    auto parsed = InputRegistry::instance().parse(field.spec->id, value.toStdString());
    if (!parsed) {
        // Words, not ids; and what the plan uses meanwhile.
        const QString kept = displayText(*field.spec, m_answers.value(field.spec->id));
        field.error->setText(QStringLiteral("⚠ ") + boundedForDisplay(withInputLabels(parsed.error()))
                             + (kept.isEmpty()
                                    ? QString()
                                    : tr(" — not applied: the plan keeps %1%2.")
                                          .arg(kept,
                                               field.spec->unit.empty() || field.spec->type == InputType::Count
                                                   ? QString()
                                                   : " " + QString::fromStdString(field.spec->unit))));
        field.error->setToolTip(boundedForDisplay(parsed.error()));
        field.error->setVisible(true);
        return;
    }
    field.error->setVisible(false);
    // "auto" is "let the wizard decide", the default itself: picking it clears the answer rather than pinning it.
    if (field.spec->type == InputType::Choice && parsed.value() == "auto" && field.spec->defaultValue == "auto") {
        emit edited(field.spec->id, nullptr);
        return;
    }
    emit edited(field.spec->id, parsed.value());
}

void InputForm::showCut(Field& field, qsizetype offered, qsizetype kept, qsizetype limit)
{
    if (auto* box = qobject_cast<QPlainTextEdit*>(field.editor))
        field.textWhenCut = box->toPlainText();
    else if (auto* line = qobject_cast<QLineEdit*>(field.editor))
        field.textWhenCut = line->text();
    const QString label = QString::fromStdString(field.spec->label);
    const QString message = kept == 0
        ? tr("%1 is full (at most %2 characters): %3 more were not entered.").arg(label).arg(limit).arg(offered)
        : tr("%1 holds at most %2 characters: of the %3 pasted, the first %4 were kept and %5 dropped.")
              .arg(label)
              .arg(limit)
              .arg(offered)
              .arg(kept)
              .arg(offered - kept);
    field.notice->setText(QStringLiteral("✂ ") + message);
    field.notice->setVisible(true);
    emit inputCut(message);
}

} // namespace dsw
