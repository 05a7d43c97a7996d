#pragma once
#include "advise/ChangePreview.h"
#include "config/ConfigExport.h"

#include <QMainWindow>
#include <set>
#include <string>
#include <vector>

class QComboBox;
class QLabel;
class QMenu;
class QStackedWidget;
class QTabWidget;
class QPushButton;

namespace dsw {

class FindingsView;
class JsonPreview;
class MemoryChart;
class ProjectDocument;
class StepSidebar;
class SummaryPage;
class WhyView;
class WorkflowPage;

// Composition only: the step sidebar, the current page and the preview (JSON, Why, Memory),
// wired to the document; File and Edit menus.
class MainWindow : public QMainWindow {
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(MainWindow)
public:
    explicit MainWindow(QWidget* parent = nullptr);
    ~MainWindow() override;

    // Opens `path`, or the example project when it is empty. Errors are shown, never fatal.
    void openAtStart(const QString& path);
    // At launch: `path`, else the last project (Open Recent's first), else the example on the first start only,
    // else a new project.
    void openAtLaunch(const QString& path);
    // Where file dialogs open: the current project's folder, else the last folder used, else home.
    QString dialogDirectory() const;
    bool openProject(const QString& path);      // false with a message box on failure
    QString saveProjectAs(const QString& path); // empty on success
    QString exportConfig(const QString& path);  // empty on success
    // Writes the export files: `path` is the file (the folder for a bundle). Empty on success.
    QString writeExport(const std::vector<ExportFile>& files, const QString& path, bool folder);
    // Makes a new project from a ds_config file (no question about unsaved changes). False with a message on failure.
    bool importConfig(const QString& path);
    // File ▸ Import and a dropped file: a model's config.json fills the model answers of the open project (undoable,
    // no question); a ds_config replaces the project, after asking about unsaved changes; a .dswiz opens.
    bool importOrOpen(const QString& path);
    // Copies ds_config.json in the form the preview shows (configForm()).
    void copyConfig();
    // The form of ds_config.json the preview shows and Copy JSON copies: the launcher's, unless the user picked one.
    ConfigForm configForm() const;
    // Apply from the plan: a preview of the change (ChangePreviewDialog), then one undo step when the user applies
    // it. `index` is the out-of-memory plan's step; `pointer` an import suggestion's. True when applied.
    bool applyMemoryStep(int index);
    bool applySuggestion(const std::string& pointer);
    void goToStep(const std::string& step);
    // Goes to the step that asks input `id` and gives its field the focus: where a message's link to a field leads.
    void goToField(const std::string& id);
    ProjectDocument* document() { return m_document; }
    // How many times the window has brought what it shows up to date: once per edit, per Next, per step change.
    int refreshCount() const { return m_refreshCount; }
    // A hidden preview tab or page that is behind the document: it is rebuilt when it is shown, never before.
    bool isStale(const QWidget* view) const;

protected:
    void closeEvent(QCloseEvent* event) override;
    bool eventFilter(QObject* watched, QEvent* event) override;

private:
    void buildMenus();
    void documentChanged();
    void refresh();
    void rebuild(QWidget* view);
    bool rebuildIfStale(QWidget* view); // true when it was rebuilt
    void showStep(const std::string& step);
    void updateTitle();
    QString projectName() const; // as the title shows it: an untitled project by where it came from
    bool handleDrag(QWidget* target, QDropEvent* event);
    void fixTabOrder();
    QString saveDialogPath() const;
    bool maybeSave();
    void showExportDialog();
    void rememberFile(const QString& path);
    void next(int direction);
    void showSuggestionsNeed(const std::vector<std::string>& ids);
    bool applyWithPreview(const ChangePreview& preview, const std::string& acceptPointer);

    ProjectDocument* m_document;
    StepSidebar* m_sidebar;
    QStackedWidget* m_pages;
    std::vector<WorkflowPage*> m_workflowPages;
    SummaryPage* m_summary;
    QTabWidget* m_tabs;
    JsonPreview* m_preview;
    WhyView* m_why;
    MemoryChart* m_chart;
    FindingsView* m_findings;
    QComboBox* m_form;
    QLabel* m_suggestionsBanner;
    std::string m_formLauncher; // the launcher the form was last set for
    bool m_formChosen = false;  // the user picked the form; reset when the launcher changes
    QPushButton* m_back;
    QPushButton* m_next;
    QLabel* m_exampleBanner; // shown while the project is the example
    std::string m_current = "setup";
    QString m_untitledName;
    bool m_markChanges = false;                // mark changed JSON lines only after an edit, not after opening
    std::string m_editedId;                    // the input the last edit changed, until refresh() has said its effects
    nlohmann::ordered_json m_configBeforeEdit; // the config before that edit
    bool m_previewMarks = false;               // the preview, when next rebuilt, marks the lines that edit changed
    std::set<const QWidget*> m_stale;          // hidden tabs and pages behind the document (rebuilt when shown)
    int m_refreshCount = 0;
    int m_refreshHeld = 0;         // >0: a document change only asks for one refresh when the hold ends
    bool m_refreshPending = false; // a document change came while held
    bool m_tabOrderStale = false;  // a page or the findings was rebuilt: fixTabOrder() before the user tabs on
};

} // namespace dsw
