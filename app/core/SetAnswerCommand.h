#pragma once
#include <QUndoCommand>
#include <nlohmann/json.hpp>
#include <string>

namespace dsw {

class ProjectDocument;

// One edit of one answer. Consecutive edits of the same input merge into one undo step (typing
// "175B" is one step, not four), and an edit back to the old value becomes obsolete.
class SetAnswerCommand : public QUndoCommand {
public:
    // `newValue` null means "clear the answer" (back to the default).
    SetAnswerCommand(ProjectDocument* document, std::string id, nlohmann::json newValue);

    void undo() override;
    void redo() override;
    int id() const override;
    bool mergeWith(const QUndoCommand* other) override;

private:
    ProjectDocument* m_document;
    std::string m_inputId;
    nlohmann::json m_oldValue;
    nlohmann::json m_newValue;
};

} // namespace dsw
