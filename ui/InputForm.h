#pragma once
#include "Pages.h"
#include "project/Answers.h"
#include "project/InputRegistry.h"

#include <QWidget>
#include <map>
#include <vector>

class QFormLayout;
class QLabel;
class QTimer;

namespace dsw {

// A form of registry inputs: one editor per input, built from its spec, labelled with its unit (the id in the
// tooltip; a value not given is in italics and says "(default)", in a line edit's placeholder or a choice's item
// text), grouped into sections (Model, Cluster, Training, Software) when `sections`. A one-line field applies
// what was typed when it is confirmed (Enter, leaving the field) or after a pause in typing, never a half-typed
// value ("1" of "1 TB"); what does not validate is not applied, and the message under the field says the plan
// keeps the last valid value. No field holds more than the registry's
// maxCharacters: what a paste, drop or typing would add beyond it is cut before it reaches the
// layout, and a note under the field (objectName "<id>.notice") says how much.
class InputForm : public QWidget {
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(InputForm)
public:
    InputForm(const std::vector<const InputSpec*>& specs, bool sections, QWidget* parent = nullptr);

    // Shows the answers without emitting edits; `derived` are the values the config was written with for inputs
    // not given, shown as derived (placeholders that say so), not as the registry's default.
    void load(const Answers& answers, const std::vector<DerivedInput>& derived = {});

    // Hides the rows of `notAsked` (inputs the page does not ask with the answers it shows: Pages.h inputsNotAsked)
    // and shows every other row.
    void hideNotAsked(const std::vector<std::string>& notAsked);

    // How long a pause in typing applies a one-line field, in milliseconds.
    static constexpr int kApplyAfterMs = 700;

signals:
    void edited(const std::string& id, const nlohmann::json& value);
    // A field cut what was pasted, dropped or typed into it; `message` says how much and the limit.
    void inputCut(const QString& message);

private:
    struct Field {
        const InputSpec* spec;
        QWidget* editor;
        QLabel* error;
        QLabel* notice;            // what the last paste, drop or typing had cut
        QString textWhenCut;       // the field's text after that cut: committing it keeps the note
        QTimer* pending = nullptr; // a one-line field's typing not applied yet
        QFormLayout* layout = nullptr; // the form its row is in
    };
    void commit(Field& field, const QString& text);
    void showCut(Field& field, qsizetype offered, qsizetype kept, qsizetype limit);

    std::map<std::string, Field> m_fields;
    Answers m_answers; // as last loaded: the values the plan keeps while a field does not validate
};

} // namespace dsw
