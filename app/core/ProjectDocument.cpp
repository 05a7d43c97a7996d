#include "ProjectDocument.h"

#include "AcceptSuggestionCommand.h"
#include "ApplyChangeCommand.h"
#include "AtomicFile.h"
#include "Pages.h"
#include "SetAnswerCommand.h"
#include "advise/PipelineAdvisor.h"
#include "config/ConfigImporter.h"
#include "config/HfModelConfig.h"
#include "project/InputLabels.h"

#include <QDateTime>
#include <QFileInfo>
#include <algorithm>

namespace dsw {

ProjectDocument::ProjectDocument(QObject* parent)
    : QObject(parent)
{
    connect(&m_undoStack, &QUndoStack::cleanChanged, this, [this] { emit modifiedChanged(isModified()); });
    connect(&m_partitionWorker, &PartitionWorker::ready, this, &ProjectDocument::recompute);
    recompute();
}

ProjectDocument::~ProjectDocument()
{
    m_undoStack.disconnect(this); // clearing the stack on destruction must not signal a half-destroyed document
}

QString ProjectDocument::displayName() const
{
    return m_fileName.isEmpty() ? tr("Untitled") : QFileInfo(m_fileName).fileName();
}

void ProjectDocument::setAnswer(const std::string& id, const nlohmann::json& value)
{
    const bool same = value.is_null() ? !m_project.answers.has(id)
                                      : (m_project.answers.has(id) && m_project.answers.value(id) == value);
    if (same)
        return;
    // A message pasted into an empty field freezes the failed run it describes with it (one undo step).
    if (id == "memory.oom_message" && value.is_string())
        if (auto edits = pasteMessageEdits(m_project.answers, value.get<std::string>()); edits.size() > 1) {
            m_undoStack.push(
                new ApplyChangeCommand(this, tr("Paste %1").arg(QString::fromStdString(inputLabel(id))), edits, {}));
            return;
        }
    m_undoStack.push(new SetAnswerCommand(this, id, value));
}

void ProjectDocument::applyAnswer(const std::string& id, const nlohmann::json& value)
{
    if (value.is_null())
        m_project.answers.unset(id);
    else
        m_project.answers.set(id, value);
    emit lastEditedChanged(QString::fromStdString(id));
    recompute();
}

void ProjectDocument::setSuggestionAccepted(const std::string& pointer, bool accepted)
{
    const auto& list = m_project.acceptedSuggestions;
    if ((std::find(list.begin(), list.end(), pointer) != list.end()) != accepted)
        m_undoStack.push(new AcceptSuggestionCommand(this, pointer, accepted));
}

void ProjectDocument::applySuggestionAccepted(const std::string& pointer, bool accepted)
{
    auto& list = m_project.acceptedSuggestions;
    list.erase(std::remove(list.begin(), list.end(), pointer), list.end());
    if (accepted)
        list.push_back(pointer);
    recompute();
}

void ProjectDocument::applyChange(const QString& text, const std::vector<AnswerEdit>& edits,
                                  const std::string& acceptPointer)
{
    const auto& list = m_project.acceptedSuggestions;
    const bool accepts = !acceptPointer.empty() && std::find(list.begin(), list.end(), acceptPointer) == list.end();
    if (edits.empty() && !accepts)
        return;
    m_undoStack.push(new ApplyChangeCommand(this, tr("Apply %1").arg(text), edits, acceptPointer));
}

void ProjectDocument::applyEdits(const std::vector<AnswerEdit>& edits, const std::string& pointer, bool accepted)
{
    for (const auto& e : edits) {
        if (e.value.is_null())
            m_project.answers.unset(e.id);
        else
            m_project.answers.set(e.id, e.value);
    }
    if (!pointer.empty()) {
        auto& list = m_project.acceptedSuggestions;
        list.erase(std::remove(list.begin(), list.end(), pointer), list.end());
        if (accepted)
            list.push_back(pointer);
    }
    // The config lines this change moves are marked, as after any edit.
    emit lastEditedChanged(edits.empty() ? QString() : QString::fromStdString(edits.front().id));
    recompute();
}

QString ProjectDocument::importConfigFile(const QString& path, QStringList* notes, bool* filledModel)
{
    if (filledModel)
        *filledModel = false;
    QByteArray bytes;
    if (QString error = readUserFile(path, static_cast<qint64>(kMaxConfigBytes), bytes); !error.isEmpty())
        return error;
    auto parsed = parseConfigText(bytes.toStdString());
    if (!parsed)
        return QString::fromStdString(parsed.error());
    switch (classifyConfigFile(parsed.value().json)) {
    case ConfigFileKind::DeepSpeed: break;
    case ConfigFileKind::HuggingFaceModel: {
        // A model's config.json describes the model, not the DeepSpeed config: it fills the model answers of the
        // open project, one undoable step; the parameter count then follows the shape.
        auto model = readHfModelConfig(parsed.value().json);
        if (!model)
            return QString::fromStdString(model.error());
        // One command, not a macro of one per answer: import, undo and redo each recompute the plan once.
        std::vector<AnswerEdit> edits;
        const Answers& answers = m_project.answers;
        auto edit = [&](const std::string& id, const nlohmann::json& value) {
            const bool same = value.is_null() ? !answers.has(id) : answers.has(id) && answers.value(id) == value;
            if (!same) // the same model again changes nothing and leaves no undo step
                edits.push_back({id, value});
        };
        for (const auto& [id, value] : model.value().answers)
            edit(id, value);
        edit("model.params", nullptr);
        edit("model.largest_layer_params", nullptr);
        if (!edits.empty())
            m_undoStack.push(
                new ApplyChangeCommand(this, tr("Model from %1").arg(QFileInfo(path).fileName()), edits, {}));
        if (notes)
            for (const auto& n : model.value().notes)
                *notes << QString::fromStdString(n);
        if (filledModel)
            *filledModel = true;
        return {};
    }
    case ConfigFileKind::Neither:
        return tr("neither a DeepSpeed config (no top-level key DeepSpeed reads) nor a Hugging Face model config.json "
                  "(no \"model_type\" or \"architectures\")");
    }
    ImportedProject imported = importConfig(parsed.value());
    if (const auto file = serializeProjectForFile(imported.project); !file) // it could not be saved and opened again
        return QString::fromStdString(file.error());
    if (notes)
        for (const auto& n : imported.notes)
            *notes << QString::fromStdString(n);
    reset(std::move(imported.project), QString());
    return {};
}

bool ProjectDocument::isModelConfigFile(const QString& path)
{
    QByteArray bytes;
    if (!readUserFile(path, static_cast<qint64>(kMaxConfigBytes), bytes).isEmpty())
        return false;
    const auto parsed = parseConfigText(bytes.toStdString());
    return parsed && classifyConfigFile(parsed.value().json) == ConfigFileKind::HuggingFaceModel;
}

void ProjectDocument::markHandled(const std::string& workflow)
{
    const Advice* advice = m_plan.find(workflow);
    m_project.markHandled(workflow, QDateTime::currentDateTimeUtc().toString(Qt::ISODate).toStdString(),
                          advice ? advice->headline : std::string(),
                          advice ? adviceFingerprint(*advice) : std::string());
    m_handledChanged = true;
    emit changed();
    emit modifiedChanged(true);
}

void ProjectDocument::reset(Project project, const QString& fileName)
{
    m_project = std::move(project);
    m_undoStack.clear();
    m_undoStack.setClean();
    m_handledChanged = false;
    m_fileName = fileName;
    recompute();
    emit fileNameChanged();
    emit modifiedChanged(false);
}

QString ProjectDocument::load(const QString& path)
{
    QByteArray bytes;
    if (QString error = readUserFile(path, static_cast<qint64>(kMaxProjectBytes), bytes); !error.isEmpty())
        return error;
    return loadFromBytes(bytes, path);
}

QString ProjectDocument::loadFromBytes(const QByteArray& bytes, const QString& fileName)
{
    auto parsed = parseProject(bytes.toStdString());
    if (!parsed)
        return QString::fromStdString(parsed.error());
    reset(std::move(parsed).value(), fileName);
    return {};
}

QString ProjectDocument::saveAs(const QString& path)
{
    // Never write a project that open would refuse (larger than kMaxProjectBytes).
    const auto file = serializeProjectForFile(m_project);
    if (!file)
        return QStringLiteral("cannot save %1: %2").arg(path, QString::fromStdString(file.error()));
    const QString error = writeFileAtomically(path, QByteArray::fromStdString(file.value()));
    if (!error.isEmpty())
        return error;
    m_fileName = path;
    m_handledChanged = false;
    m_undoStack.setClean();
    emit fileNameChanged();
    emit modifiedChanged(isModified());
    return {};
}

void ProjectDocument::recompute()
{
    // Nothing longer than a frame on the window's thread: a larger balanced partition goes to the worker.
    m_plan = makePlan(m_project, kWindowPartitionPolicy);
    const bool computing = m_plan.pipeline.state == PartitionState::Computing;
    const auto input = computing ? balancedPartitionInput(m_project.answers) : std::nullopt;
    if (input)
        m_partitionWorker.request(*input);
    else
        m_partitionWorker.cancel();
    emit changed();
}

} // namespace dsw
