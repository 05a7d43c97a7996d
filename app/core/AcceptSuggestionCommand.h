#pragma once
#include <QUndoCommand>
#include <string>

namespace dsw {

class ProjectDocument;

// Accepting (or un-accepting) one of the wizard's suggestions for an imported config.
class AcceptSuggestionCommand : public QUndoCommand {
public:
    AcceptSuggestionCommand(ProjectDocument* document, std::string pointer, bool accepted);
    void undo() override;
    void redo() override;

private:
    ProjectDocument* m_document;
    std::string m_pointer;
    bool m_accepted;
};

} // namespace dsw
