#include "ApplyChangeCommand.h"

#include "ProjectDocument.h"

#include <algorithm>

namespace dsw {

ApplyChangeCommand::ApplyChangeCommand(ProjectDocument* document, const QString& text,
                                       const std::vector<AnswerEdit>& edits, std::string acceptPointer)
    : m_document(document)
    , m_after(edits)
    , m_pointer(std::move(acceptPointer))
{
    const Answers& answers = document->project().answers;
    for (const auto& e : edits)
        m_before.push_back({e.id, answers.has(e.id) ? answers.value(e.id) : nlohmann::json()});
    std::reverse(m_before.begin(), m_before.end()); // undone in reverse, so a repeated id ends at its first value
    const auto& accepted = document->project().acceptedSuggestions;
    m_wasAccepted = std::find(accepted.begin(), accepted.end(), m_pointer) != accepted.end();
    setText(text); // "Undo Apply Step 1: Turn on activation checkpointing", "Undo Model from config.json"
}

void ApplyChangeCommand::undo() { m_document->applyEdits(m_before, m_pointer, m_wasAccepted); }

void ApplyChangeCommand::redo() { m_document->applyEdits(m_after, m_pointer, true); }

} // namespace dsw
