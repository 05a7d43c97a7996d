#pragma once
#include "project/Answers.h"
#include "project/InputRegistry.h"

#include <QWidget>
#include <map>

class QFormLayout;
class QLabel;

namespace dsw {

// A form of registry inputs: one editor per input, built from its spec. Emits edits that validate;
// shows the registry's message under a field that does not. No field holds more than the registry's
// maxCharacters: what a paste, drop or typing would add beyond it is cut before it reaches the
// layout, and a note under the field (objectName "<id>.notice") says how much.
class InputForm : public QWidget {
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(InputForm)
public:
    InputForm(const std::vector<const InputSpec*>& specs, QWidget* parent = nullptr);

    // Shows the answers without emitting edits.
    void load(const Answers& answers);

signals:
    void edited(const std::string& id, const nlohmann::json& value);
    // A field cut what was pasted, dropped or typed into it; `message` says how much and the limit.
    void inputCut(const QString& message);

private:
    struct Field {
        const InputSpec* spec;
        QWidget* editor;
        QLabel* error;
        QLabel* notice;      // what the last paste, drop or typing had cut
        QString textWhenCut; // the field's text after that cut: committing it keeps the note
    };
    void commit(Field& field, const QString& text);
    void showCut(Field& field, qsizetype offered, qsizetype kept, qsizetype limit);

    std::map<std::string, Field> m_fields;
};

} // namespace dsw
