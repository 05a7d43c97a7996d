#pragma once
#include "Answers.h"
#include "InputRegistry.h"

#include <QWidget>
#include <map>

class QFormLayout;
class QLabel;

namespace dsw {

// A form of registry inputs: one editor per input, built from its spec. Emits edits that validate;
// shows the registry's message under a field that does not.
class InputForm : public QWidget {
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(InputForm)
public:
    InputForm(const std::vector<const InputSpec*>& specs, QWidget* parent = nullptr);

    // Shows the answers without emitting edits.
    void load(const Answers& answers);

signals:
    void edited(const std::string& id, const nlohmann::json& value);

private:
    struct Field {
        const InputSpec* spec;
        QWidget* editor;
        QLabel* error;
    };
    void commit(const Field& field, const QString& text);

    std::map<std::string, Field> m_fields;
};

} // namespace dsw
