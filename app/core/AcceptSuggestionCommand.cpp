#include "AcceptSuggestionCommand.h"

#include "ProjectDocument.h"

namespace dsw {

AcceptSuggestionCommand::AcceptSuggestionCommand(ProjectDocument* document, std::string pointer, bool accepted)
    : m_document(document)
    , m_pointer(std::move(pointer))
    , m_accepted(accepted)
{
    setText(QStringLiteral("%1 suggestion %2").arg(accepted ? "Accept" : "Reject", QString::fromStdString(m_pointer)));
}

void AcceptSuggestionCommand::undo() { m_document->applySuggestionAccepted(m_pointer, !m_accepted); }
void AcceptSuggestionCommand::redo() { m_document->applySuggestionAccepted(m_pointer, m_accepted); }

} // namespace dsw
