#pragma once
#include "advise/ChangePreview.h"

#include <QUndoCommand>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

namespace dsw {

class ProjectDocument;

// An Apply from the plan (an out-of-memory step, an import suggestion): every answer it sets, and the suggestion it
// accepts, as one undo step. It never merges with the edits around it: undo takes back exactly what Apply did.
class ApplyChangeCommand : public QUndoCommand {
public:
    // `acceptPointer` empty: no suggestion is accepted.
    ApplyChangeCommand(ProjectDocument* document, const QString& text, const std::vector<AnswerEdit>& edits,
                       std::string acceptPointer);
    void undo() override;
    void redo() override;

private:
    ProjectDocument* m_document;
    std::vector<AnswerEdit> m_before, m_after; // the same ids, the old values (null: not given) and the new ones
    std::string m_pointer;
    bool m_wasAccepted = false;
};

} // namespace dsw
