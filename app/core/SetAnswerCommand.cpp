#include "SetAnswerCommand.h"

#include "ProjectDocument.h"
#include "project/InputLabels.h"

namespace dsw {

SetAnswerCommand::SetAnswerCommand(ProjectDocument* document, std::string id, nlohmann::json newValue)
    : m_document(document)
    , m_inputId(std::move(id))
    , m_oldValue(document->project().answers.has(m_inputId) ? document->project().answers.value(m_inputId)
                                                            : nlohmann::json())
    , m_newValue(std::move(newValue))
{
    setText(QStringLiteral("Change %1").arg(QString::fromStdString(inputLabel(m_inputId)))); // "Undo Change Nodes"
}

void SetAnswerCommand::undo() { m_document->applyAnswer(m_inputId, m_oldValue); }
void SetAnswerCommand::redo() { m_document->applyAnswer(m_inputId, m_newValue); }

int SetAnswerCommand::id() const { return 1; }

bool SetAnswerCommand::mergeWith(const QUndoCommand* other)
{
    const auto* next = static_cast<const SetAnswerCommand*>(other);
    if (next->m_inputId != m_inputId)
        return false;
    m_newValue = next->m_newValue;
    setObsolete(m_newValue == m_oldValue);
    return true;
}

} // namespace dsw
