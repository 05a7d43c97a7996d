#pragma once
#include "PartitionWorker.h"
#include "Plan.h"
#include "advise/ChangePreview.h"
#include "project/ProjectFile.h"

#include <QObject>
#include <QString>
#include <QUndoStack>

namespace dsw {

// The open project: answers, undo stack, file name and the plan computed from the answers.
// "Modified" is the undo stack's clean state; the plan is recomputed whole on every change.
class ProjectDocument : public QObject {
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(ProjectDocument)
public:
    explicit ProjectDocument(QObject* parent = nullptr);
    ~ProjectDocument() override;

    const Project& project() const { return m_project; }
    const Plan& plan() const { return m_plan; }
    QUndoStack* undoStack() { return &m_undoStack; }
    // Computes the pipeline partitions too large for a frame (the plan shows "computing…" meanwhile).
    const PartitionWorker& partitionWorker() const { return m_partitionWorker; }
    QString fileName() const { return m_fileName; }
    QString displayName() const;
    // Unsaved edits (the undo stack) or a workflow marked done since the last save.
    bool isModified() const { return !m_undoStack.isClean() || m_handledChanged; }

    // An undoable edit; `value` must already be valid for the input (InputRegistry::parse).
    void setAnswer(const std::string& id, const nlohmann::json& value);
    // Accepts or rejects one suggestion for an imported config (undoable).
    void setSuggestionAccepted(const std::string& pointer, bool accepted);
    // An Apply from the plan (advise/ChangePreview.h): the answers, and the suggestion at `acceptPointer` accepted
    // (none when empty), as one undo step titled `text`. Nothing is pushed when it changes nothing.
    void applyChange(const QString& text, const std::vector<AnswerEdit>& edits, const std::string& acceptPointer = {});
    // Records a workflow as completed now (saved in the project's "handled" list).
    void markHandled(const std::string& workflow);

    // Replace the whole project (New, Open, example). Clears undo and the modified state.
    void reset(Project project, const QString& fileName);
    // Empty string on success, else the reason. Nothing changes on failure.
    QString load(const QString& path);
    QString loadFromBytes(const QByteArray& bytes, const QString& fileName);
    QString saveAs(const QString& path);
    // Replaces the project with one made from a ds_config file (untitled until saved). `notes` says what
    // could not be carried into answers. Empty string on success, else the reason; nothing changes on failure.
    // A Hugging Face model config.json instead fills the open project's model answers (one undoable edit) and
    // sets `filledModel`.
    QString importConfigFile(const QString& path, QStringList* notes = nullptr, bool* filledModel = nullptr);
    // Whether importing `path` would fill the model answers (a Hugging Face config.json) rather than replace the
    // project; false for anything else, unreadable files included.
    static bool isModelConfigFile(const QString& path);

    // Used by the undo commands only.
    void applyAnswer(const std::string& id, const nlohmann::json& value);
    void applySuggestionAccepted(const std::string& pointer, bool accepted);
    void applyEdits(const std::vector<AnswerEdit>& edits, const std::string& pointer, bool accepted);

signals:
    void changed(); // answers or plan changed
    void lastEditedChanged(const QString& inputId);
    void fileNameChanged();
    void modifiedChanged(bool modified);

private:
    void recompute();

    PartitionWorker m_partitionWorker; // a partition it delivers makes the plan again
    Project m_project;
    Plan m_plan;
    QUndoStack m_undoStack;
    QString m_fileName;
    bool m_handledChanged = false; // "handled" entries are not undoable edits, but they are unsaved
};

} // namespace dsw
