#include "MainWindow.h"

#include "BoundedText.h"
#include "ChangePreviewDialog.h"
#include "ExportDialog.h"
#include "ExportWriter.h"
#include "FieldLinks.h"
#include "FindingsView.h"
#include "JsonPreview.h"
#include "MemoryChart.h"
#include "Pages.h"
#include "ProjectDocument.h"
#include "RecentFiles.h"
#include "StepSidebar.h"
#include "SummaryPage.h"
#include "WhyView.h"
#include "WorkflowPage.h"
#include "project/InputLabels.h"

#include <QAction>
#include <QApplication>
#include <QClipboard>
#include <QCloseEvent>
#include <QComboBox>
#include <QDir>
#include <QFile>
#include <QFileDialog>
#include <QHBoxLayout>
#include <QKeyEvent>
#include <QLabel>
#include <QLineEdit>
#include <QMenuBar>
#include <QMessageBox>
#include <QMimeData>
#include <QPlainTextEdit>
#include <QPushButton>
#include <QSettings>
#include <QSplitter>
#include <QStackedWidget>
#include <QStatusBar>
#include <QTabWidget>
#include <QVBoxLayout>

// The example project is a Qt resource of this static library: register it before first use.
static void initResources() { Q_INIT_RESOURCE(resources); }

namespace dsw {

namespace {
const QString kStartedKey = QStringLiteral("startedBefore");       // the example opens on the first start only
const QString kLastDirectoryKey = QStringLiteral("lastDirectory"); // where file dialogs open without a project
QString exampleName() { return MainWindow::tr("llama-7b-8xA100 (example)"); }
QList<QKeySequence> withKey(QList<QKeySequence> keys, const QKeySequence& key)
{
    if (!keys.contains(key))
        keys << key;
    return keys;
}
} // namespace

MainWindow::MainWindow(QWidget* parent)
    : QMainWindow(parent)
    , m_document(new ProjectDocument(this))
    , m_sidebar(new StepSidebar(this))
    , m_pages(new QStackedWidget(this))
    , m_summary(new SummaryPage(this))
    , m_tabs(new QTabWidget(this))
    , m_preview(new JsonPreview(this))
    , m_why(new WhyView(this))
    , m_chart(new MemoryChart(this))
    , m_findings(new FindingsView(this))
    , m_form(new QComboBox(this))
    , m_suggestionsBanner(new QLabel(this))
    , m_back(new QPushButton(tr("◀ &Back"), this))
    , m_next(new QPushButton(tr("&Next ▶"), this))
    , m_exampleBanner(new QLabel(this))
{
    initResources();
    setObjectName(QStringLiteral("mainWindow"));
    for (const auto& step : wizardPages()) {
        if (step == "summary")
            continue;
        auto* page = new WorkflowPage(step, this);
        m_workflowPages.push_back(page);
        m_pages->addWidget(page);
        connect(page, &WorkflowPage::edited, this,
                [this](const std::string& id, const nlohmann::json& value) { m_document->setAnswer(id, value); });
        connect(page, &WorkflowPage::applyStepRequested, this, &MainWindow::applyMemoryStep);
        connect(page, &WorkflowPage::fieldLinkActivated, this, &MainWindow::goToField);
        connect(page, &WorkflowPage::inputCut, this,
                [this](const QString& message) { statusBar()->showMessage(message, 10000); });
    }
    m_pages->addWidget(m_summary);

    auto* center = new QWidget(this);
    auto* centerLayout = new QVBoxLayout(center);
    m_exampleBanner->setObjectName(QStringLiteral("exampleBanner"));
    m_exampleBanner->setWordWrap(true);
    m_exampleBanner->setFrameShape(QFrame::StyledPanel);
    m_exampleBanner->setText(
        tr("ℹ This is an example project (Llama 2 7B on 8 × A100 80GB), not yours: change its answers, "
           "or start your own with File ▸ New or File ▸ Import."));
    m_exampleBanner->hide();
    centerLayout->addWidget(m_exampleBanner);
    centerLayout->addWidget(m_pages, 1);
    auto* nav = new QHBoxLayout();
    nav->addStretch();
    m_back->setObjectName(QStringLiteral("backButton"));
    m_next->setObjectName(QStringLiteral("nextButton"));
    nav->addWidget(m_back);
    nav->addWidget(m_next);
    centerLayout->addLayout(nav);

    auto* right = new QWidget(this);
    auto* rightLayout = new QVBoxLayout(right);
    m_tabs->addTab(m_preview, QStringLiteral("ds_config.json"));
    m_tabs->addTab(m_why, tr("Why"));
    m_tabs->addTab(m_chart, tr("Memory"));
    m_tabs->addTab(m_findings, tr("Findings"));
    m_tabs->setObjectName(QStringLiteral("previewTabs"));
    auto* copy = new QPushButton(tr("&Copy JSON"), this);
    copy->setObjectName(QStringLiteral("copyButton"));
    // The form of ds_config.json shown and copied: the launcher's unless the user picks the other one.
    m_form->setObjectName(QStringLiteral("configForm"));
    m_form->addItem(tr("Strict JSON"), static_cast<int>(ConfigForm::Strict));
    m_form->addItem(tr("\"auto\" form (Trainer / Accelerate)"), static_cast<int>(ConfigForm::HfAuto));
    m_form->setToolTip(tr("The form of ds_config.json shown and copied. Strict JSON is what plain DeepSpeed reads "
                          "(\"auto\" is an error there). The \"auto\" form "
                          "leaves the values the Hugging Face Trainer or Accelerate fill in from their own arguments "
                          "to them. The launcher in Setup picks one; Copy JSON and Export follow this choice."));
    auto* corner = new QWidget(this);
    auto* cornerLayout = new QHBoxLayout(corner);
    cornerLayout->setContentsMargins(0, 0, 0, 0);
    cornerLayout->addWidget(m_form);
    cornerLayout->addWidget(copy);
    cornerLayout->insertStretch(0);
    rightLayout->addWidget(corner); // above the tabs: as the tab bar's corner it pushed tabs out at 1024 px
    m_suggestionsBanner->setObjectName(QStringLiteral("suggestionsNeedBanner"));
    m_suggestionsBanner->setWordWrap(true);
    m_suggestionsBanner->setTextFormat(Qt::RichText);
    m_suggestionsBanner->setFrameShape(QFrame::StyledPanel);
    m_suggestionsBanner->hide();
    m_suggestionsBanner->setTextInteractionFlags(Qt::LinksAccessibleByMouse | Qt::LinksAccessibleByKeyboard);
    connect(m_suggestionsBanner, &QLabel::linkActivated, this, [this](const QString& href) {
        if (const std::string id = fieldFromHref(href); !id.empty())
            goToField(id);
        else
            goToStep("setup");
    });
    rightLayout->addWidget(m_suggestionsBanner);
    rightLayout->addWidget(m_tabs);

    auto* splitter = new QSplitter(this);
    splitter->addWidget(m_sidebar);
    splitter->addWidget(center);
    splitter->addWidget(right);
    splitter->setStretchFactor(0, 0); // the sidebar keeps its width (StepSidebar::sizeHint); no empty band beside it
    // The page holds the decision and its stage table: it grows twice as fast as the preview beside it.
    splitter->setStretchFactor(1, 2);
    splitter->setStretchFactor(2, 1);
    setCentralWidget(splitter);

    buildMenus();
    connect(copy, &QPushButton::clicked, this, &MainWindow::copyConfig);
    connect(m_form, &QComboBox::activated, this, [this] {
        m_formChosen = true; // the user's pick stays until the launcher changes
        m_stale.insert(m_preview);
        refresh();
    });
    // A hidden tab is rebuilt when it is shown (refresh() rebuilds only the one shown).
    connect(m_tabs, &QTabWidget::currentChanged, this, [this](int index) {
        rebuildIfStale(m_tabs->widget(index));
        if (std::exchange(m_tabOrderStale, false))
            fixTabOrder();
    });
    connect(m_summary, &SummaryPage::copyRequested, this, &MainWindow::copyConfig);
    connect(m_summary, &SummaryPage::exportRequested, this, &MainWindow::showExportDialog);
    connect(m_summary, &SummaryPage::fieldLinkActivated, this, &MainWindow::goToField);
    connect(m_findings, &FindingsView::fieldLinkActivated, this, &MainWindow::goToField);
    connect(m_sidebar, &StepSidebar::stepSelected, this, &MainWindow::goToStep);
    connect(m_findings, &FindingsView::lineSelected, this, [this](int line) {
        m_tabs->setCurrentWidget(m_preview);
        m_preview->highlightLine(line);
    });
    connect(m_findings, &FindingsView::suggestionToggled, this, [this](const std::string& pointer, bool accepted) {
        m_document->setSuggestionAccepted(pointer, accepted);
    });
    connect(m_findings, &FindingsView::applyRequested, this, &MainWindow::applySuggestion);
    setAcceptDrops(true);
    connect(m_back, &QPushButton::clicked, this, [this] { next(-1); });
    connect(m_next, &QPushButton::clicked, this, [this] { next(+1); });
    connect(m_document, &ProjectDocument::lastEditedChanged, this, [this](const QString& id) {
        m_markChanges = true;
        m_editedId = id.toStdString(); // emitted before the plan is recomputed: the config is still the old one
        m_configBeforeEdit = m_document->plan().config;
    });
    connect(m_document, &ProjectDocument::changed, this, &MainWindow::documentChanged);
    connect(m_document, &ProjectDocument::modifiedChanged, this, &MainWindow::updateTitle);
    connect(m_document, &ProjectDocument::fileNameChanged, this, &MainWindow::updateTitle);
    resize(1400, 860);
    documentChanged();
    updateTitle();
}

MainWindow::~MainWindow()
{
    m_document->disconnect(this); // the document outlives the widgets it would otherwise notify
    // ~QWidget closes the window, and a field losing focus then commits its pending text: no child may reach
    // this half-destroyed window any more.
    for (QObject* child : findChildren<QObject*>())
        child->disconnect(this);
}

void MainWindow::buildMenus()
{
    QMenu* file = menuBar()->addMenu(tr("&File"));
    file->addAction(tr("&New"), QKeySequence::New, this, [this] {
        if (maybeSave()) {
            m_untitledName.clear();
            m_document->reset(Project{}, QString());
        }
    });
    file->addAction(tr("&Open…"), QKeySequence::Open, this, [this] {
        if (!maybeSave())
            return;
        const QString path = QFileDialog::getOpenFileName(this, tr("Open project"), dialogDirectory(),
                                                          tr("ds-wizard projects (*.dswiz)"));
        if (!path.isEmpty())
            openProject(path);
    });
    QMenu* recent = file->addMenu(tr("Open &Recent"));
    recent->setObjectName(QStringLiteral("recentMenu"));
    connect(recent, &QMenu::aboutToShow, this, [this, recent] {
        recent->clear();
        QSettings settings;
        for (const QString& path : RecentFiles(settings).files())
            recent->addAction(path, this, [this, path] {
                if (maybeSave())
                    openProject(path);
            });
        recent->setEnabled(true);
        if (recent->isEmpty())
            recent->addAction(tr("(none)"))->setEnabled(false);
    });
    file->addAction(tr("&Save"), QKeySequence::Save, this, [this] {
        QString path = m_document->fileName();
        if (path.isEmpty())
            path = QFileDialog::getSaveFileName(this, tr("Save project"), saveDialogPath(),
                                                tr("ds-wizard projects (*.dswiz)"));
        if (!path.isEmpty())
            if (QString error = saveProjectAs(path); !error.isEmpty())
                QMessageBox::warning(this, tr("Save failed"), error);
    });
    QAction* saveAs = file->addAction(tr("Save &As…"), this, [this] {
        const QString path = QFileDialog::getSaveFileName(this, tr("Save project as"), saveDialogPath(),
                                                          tr("ds-wizard projects (*.dswiz)"));
        if (!path.isEmpty())
            if (QString error = saveProjectAs(path); !error.isEmpty())
                QMessageBox::warning(this, tr("Save failed"), error);
    });
    // Ctrl+Shift+S everywhere: the platform's Save As key is empty outside GNOME and KDE.
    saveAs->setObjectName(QStringLiteral("saveAsAction"));
    saveAs->setShortcuts(withKey(QKeySequence::keyBindings(QKeySequence::SaveAs), QKeySequence(tr("Ctrl+Shift+S"))));
    file->addAction(tr("&Import ds_config or model config.json…"), QKeySequence(tr("Ctrl+I")), this, [this] {
        const QString path = QFileDialog::getOpenFileName(
            this, tr("Import ds_config"), dialogDirectory(),
            tr("DeepSpeed configs or Hugging Face config.json (*.json *.conf);;All files (*)"));
        if (!path.isEmpty())
            importOrOpen(path);
    });
    file->addSeparator();
    file->addAction(tr("&Export…"), QKeySequence(tr("Ctrl+E")), this, &MainWindow::showExportDialog);
    file->addAction(tr("&Copy JSON"), QKeySequence(tr("Ctrl+Shift+C")), this, &MainWindow::copyConfig);
    file->addSeparator();
    file->addAction(tr("&Quit"), QKeySequence::Quit, this, &QWidget::close);

    QMenu* edit = menuBar()->addMenu(tr("&Edit"));
    QAction* undo = m_document->undoStack()->createUndoAction(this, tr("&Undo"));
    undo->setObjectName(QStringLiteral("undoAction"));
    undo->setShortcuts(QKeySequence::Undo);
    QAction* redo = m_document->undoStack()->createRedoAction(this, tr("&Redo"));
    redo->setObjectName(QStringLiteral("redoAction"));
    redo->setShortcuts(withKey(QKeySequence::keyBindings(QKeySequence::Redo), QKeySequence(tr("Ctrl+Shift+Z"))));
    // A field with its own undo history keeps Ctrl+Z; otherwise the key undoes the document (eventFilter).
    qApp->installEventFilter(this);
    edit->addAction(undo);
    edit->addAction(redo);

    QMenu* help = menuBar()->addMenu(tr("&Help"));
    help->addAction(tr("&About ds-wizard"), this, [this] {
        QMessageBox::about(this, tr("About ds-wizard"),
                           tr("ds-wizard %1 — configures DeepSpeed from what you tell it about your job.\n\n%2")
                               .arg(QStringLiteral(DSW_VERSION), QString::fromStdString(m_document->plan().basis)));
    });
}

void MainWindow::openAtLaunch(const QString& path)
{
    if (!path.isEmpty()) {
        openAtStart(path);
        return;
    }
    QSettings settings;
    const QString last = RecentFiles(settings).files().value(0);
    const bool firstStart = !settings.value(kStartedKey, false).toBool();
    settings.setValue(kStartedKey, true);
    if (!last.isEmpty() && openProject(last))
        return;
    if (firstStart) {
        openAtStart(QString()); // the example, with its banner
        return;
    }
    m_untitledName.clear();
    m_document->reset(Project{}, QString());
    updateTitle();
}

QString MainWindow::dialogDirectory() const
{
    if (!m_document->fileName().isEmpty())
        return QFileInfo(m_document->fileName()).absolutePath();
    const QString last = QSettings().value(kLastDirectoryKey).toString();
    return !last.isEmpty() && QFileInfo(last).isDir() ? last : QDir::homePath();
}

QString MainWindow::saveDialogPath() const
{
    const QString name = m_document->fileName().isEmpty() ? QStringLiteral("project.dswiz")
                                                          : QFileInfo(m_document->fileName()).fileName();
    return QDir(dialogDirectory()).filePath(name);
}

bool MainWindow::eventFilter(QObject* watched, QEvent* event)
{
    if (event->type() == QEvent::DragEnter || event->type() == QEvent::DragMove || event->type() == QEvent::Drop)
        if (auto* target = qobject_cast<QWidget*>(watched);
            target && handleDrag(target, static_cast<QDropEvent*>(event)))
            return true;
    if (event->type() != QEvent::ShortcutOverride)
        return QMainWindow::eventFilter(watched, event);
    auto* widget = qobject_cast<QWidget*>(watched);
    if (!widget || widget->window() != this)
        return false;
    auto* key = static_cast<QKeyEvent*>(event);
    const bool undo = key->matches(QKeySequence::Undo);
    const bool redo = key->matches(QKeySequence::Redo)
        || key->keyCombination() == QKeyCombination(Qt::ControlModifier | Qt::ShiftModifier, Qt::Key_Z);
    if (!undo && !redo)
        return false;
    // The field takes the key only when it has something of its own to undo or redo; else the document's
    // Undo/Redo actions get it (the event stays unaccepted, so the shortcut fires).
    bool own = false;
    if (auto* line = qobject_cast<QLineEdit*>(widget))
        own = !line->isReadOnly() && (undo ? line->isUndoAvailable() : line->isRedoAvailable());
    else if (auto* text = qobject_cast<QPlainTextEdit*>(widget))
        own = !text->isReadOnly() && (undo ? text->document()->isUndoAvailable() : text->document()->isRedoAvailable());
    else
        return false;
    return !own;
}

void MainWindow::fixTabOrder()
{
    // Sidebar → the form of the page shown → Back, Next → the preview's tabs and their contents.
    std::vector<QWidget*> chain = {m_sidebar};
    for (int i = 0; i < m_pages->count(); ++i)
        for (QWidget* w : m_pages->widget(i)->findChildren<QWidget*>())
            if ((w->focusPolicy() & Qt::TabFocus) && w->window() == this) // not a combo box's popup
                chain.push_back(w);
    chain.push_back(m_back);
    chain.push_back(m_next);
    chain.push_back(m_tabs);
    for (QWidget* w : m_tabs->findChildren<QWidget*>())
        if ((w->focusPolicy() & Qt::TabFocus) && w != m_tabs && w->window() == this)
            chain.push_back(w);
    for (std::size_t i = 1; i < chain.size(); ++i)
        QWidget::setTabOrder(chain[i - 1], chain[i]);
}

void MainWindow::openAtStart(const QString& path)
{
    if (!path.isEmpty() && (path.endsWith(QStringLiteral(".dswiz")) ? openProject(path) : importConfig(path)))
        return;
    QFile example(QStringLiteral(":/examples/llama-7b-8xA100.dswiz"));
    if (example.open(QIODevice::ReadOnly) && m_document->loadFromBytes(example.readAll(), QString()).isEmpty())
        m_untitledName = exampleName();
    updateTitle();
}

bool MainWindow::openProject(const QString& path)
{
    const QString error = m_document->load(path);
    if (!error.isEmpty()) {
        QMessageBox::warning(this, tr("Cannot open project"),
                             tr("%1\n\n%2").arg(path, boundedForDisplay(error))); // may quote the file
        return false;
    }
    m_untitledName.clear();
    updateTitle();
    rememberFile(path);
    return true;
}

void MainWindow::rememberFile(const QString& path)
{
    QSettings settings; // the app's own settings (organization and application names set in main)
    if (const QString error = RecentFiles(settings).add(path); !error.isEmpty())
        statusBar()->showMessage(tr("Recent files not saved: %1").arg(error), 10000);
}

QString MainWindow::saveProjectAs(const QString& path)
{
    const QString error = m_document->saveAs(path);
    if (error.isEmpty()) {
        m_untitledName.clear();
        rememberFile(path);
        statusBar()->showMessage(tr("Saved %1").arg(path), 4000);
    }
    return error;
}

QString MainWindow::exportConfig(const QString& path)
{
    const auto& document = *m_document;
    const ExportTarget target = configForm() == ConfigForm::HfAuto ? ExportTarget::HfJson : ExportTarget::DeepSpeedJson;
    if (const std::string refusal = exportRefusal(document.project().answers, target); !refusal.empty())
        return QString::fromStdString(refusal);
    return writeExport(exportFiles(document.plan().config, document.project().answers, target), path, false);
}

bool MainWindow::importConfig(const QString& path)
{
    QStringList notes;
    bool filledModel = false;
    // A model's config.json sets several answers: the window refreshes once, after all of them.
    ++m_refreshHeld;
    const QString error = m_document->importConfigFile(path, &notes, &filledModel);
    --m_refreshHeld;
    if (!error.isEmpty()) {
        if (m_refreshPending)
            refresh();
        QMessageBox::warning(this, tr("Cannot import"),
                             tr("%1\n\n%2").arg(path, boundedForDisplay(error))); // may quote the file
        return false;
    }
    if (filledModel) { // a Hugging Face config.json: the model answers changed, the project is the same
        goToStep("setup");
        statusBar()->showMessage(
            notes.isEmpty()
                ? tr("Model answers filled from %1").arg(path)
                : tr("Model answers filled from %1; %2").arg(path, fieldTextWithPages(notes.join("; ").toStdString())),
            10000);
        return true;
    }
    m_untitledName = tr("%1 (imported)").arg(QFileInfo(path).fileName());
    updateTitle();
    m_tabs->setCurrentWidget(m_findings); // before the refresh: the preview, now hidden, waits
    if (m_refreshPending)
        refresh();
    // The config keeps every key as the file has it (suggestions change it only when applied); the notes say which
    // values the answers could not take or took otherwise (and where those are asked), and which key written twice won.
    // The status bar keeps to one short line; the notes, in full, are its tooltip while that line shows.
    const QString kept = tr("the config keeps its keys and values as the file has them");
    const QString name = QFileInfo(path).fileName();
    QStatusBar* bar = statusBar();
    if (notes.isEmpty()) {
        bar->showMessage(tr("Imported %1 (%2)").arg(name, kept));
        bar->setToolTip(tr("Imported %1 (%2)").arg(path, kept));
    } else {
        bar->showMessage(notes.size() == 1
                             ? tr("Imported %1: 1 note, in full in this bar's tooltip").arg(name)
                             : tr("Imported %1: %2 notes, in full in this bar's tooltip").arg(name).arg(notes.size()));
        QStringList lines;
        for (const QString& note : notes)
            lines << QStringLiteral("• ") + fieldTextWithPages(note.toStdString());
        bar->setToolTip(tr("Imported %1 (%2). Notes:\n%3").arg(path, kept, lines.join('\n')));
    }
    // The next message (or none) is about something else: the tooltip goes with this one. (Connected after this
    // message was shown: an earlier import's connection has gone with it.)
    connect(
        bar, &QStatusBar::messageChanged, bar, [bar] { bar->setToolTip(QString()); }, Qt::SingleShotConnection);
    return true;
}

QString MainWindow::writeExport(const std::vector<ExportFile>& files, const QString& path, bool folder)
{
    const ExportPlacement placement = placeExport(files, path, folder);
    if (const QStringList unnamed = unnamedFilesToOverwrite(placement); !unnamed.isEmpty()) {
        // The file dialog asked about the file the user picked, not about the ones written beside it.
        const auto answer = QMessageBox::question(
            this, tr("Overwrite files?"),
            tr("The export also writes these files, which exist and differ:\n%1\n\nOverwrite them?")
                .arg(unnamed.join('\n')),
            QMessageBox::Yes | QMessageBox::Cancel, QMessageBox::Cancel);
        if (answer != QMessageBox::Yes)
            return tr("not exported: %1 kept").arg(unnamed.join(", "));
    }
    if (QString error = dsw::writeExport(placement); !error.isEmpty())
        return error;
    statusBar()->showMessage(tr("Exported %1").arg(path), 4000);
    return {};
}

void MainWindow::showExportDialog()
{
    ExportDialog dialog(m_document->plan().config, m_document->project().answers, this,
                        exportOptionsFor(m_document->plan(), m_document->project()));
    if (dialog.exec() != QDialog::Accepted)
        return;
    const auto files = dialog.files();
    if (files.empty()) // refused (the dialog says why and offers no Save)
        return;
    // Beside the project. A bundle is named like a file: a new folder is made whole (ExportWriter.h); an existing
    // one, opened in the dialog, can take a new folder's name inside it too.
    const bool folder = dialog.target() == ExportTarget::Bundle;
    const QDir directory(dialogDirectory());
    const QString path = folder ? QFileDialog::getSaveFileName(
                             this, tr("Export bundle to a new folder"),
                             directory.filePath(QFileInfo(saveDialogPath()).completeBaseName() + "-deepspeed"))
                                : QFileDialog::getSaveFileName(
                                    this, tr("Export"), directory.filePath(QString::fromStdString(files.front().name)));
    if (path.isEmpty())
        return;
    if (QString error = writeExport(files, path, folder); !error.isEmpty())
        QMessageBox::warning(this, tr("Export failed"), error);
}

bool MainWindow::importOrOpen(const QString& path)
{
    if (path.endsWith(QStringLiteral(".dswiz")))
        return maybeSave() && openProject(path);
    if (!ProjectDocument::isModelConfigFile(path) && !maybeSave()) // a model config discards nothing
        return false;
    return importConfig(path);
}

// A file dragged anywhere over the window, a field included, is the window's to open or import: a field would
// paste its file:// URL as text. True when the event was handled here.
bool MainWindow::handleDrag(QWidget* target, QDropEvent* event)
{
    const auto urls = event->mimeData()->urls();
    if (target->window() != this
        || std::none_of(urls.begin(), urls.end(), [](const QUrl& u) { return u.isLocalFile(); }))
        return false;
    const QString path = urls.size() == 1 ? urls.front().toLocalFile() : QString();
    if (!path.endsWith(QStringLiteral(".json")) && !path.endsWith(QStringLiteral(".dswiz"))) {
        event->ignore(); // nothing the window opens, and nothing for a field either
        return true;
    }
    event->acceptProposedAction();
    if (event->type() == QEvent::Drop) // after the drop: opening rebuilds the page, the field under the drop with it
        QMetaObject::invokeMethod(
            this, [this, path] { importOrOpen(path); }, Qt::QueuedConnection);
    return true;
}

void MainWindow::copyConfig()
{
    const ConfigForm form = configForm();
    QApplication::clipboard()->setText(
        QString::fromStdString(configText(m_document->plan().config, m_document->project().answers, form)));
    statusBar()->showMessage(form == ConfigForm::HfAuto ? tr(
                                 "ds_config.json (\"auto\" form, for the Trainer / Accelerate) copied to the clipboard")
                                                        : tr("ds_config.json (strict JSON) copied to the clipboard"),
                             4000);
}

bool MainWindow::applyMemoryStep(int index)
{
    const Plan& plan = m_document->plan();
    if (index < 0 || !plan.failedRun)
        return false;
    return applyWithPreview(
        previewRemedy(m_document->project().answers, *plan.failedRun, plan.remedies, static_cast<std::size_t>(index)),
        {});
}

bool MainWindow::applySuggestion(const std::string& pointer)
{
    for (const auto& s : m_document->plan().suggestions)
        if (s.pointer == pointer)
            return applyWithPreview(previewConfigChange(m_document->project().answers, s.pointer, s.to), s.pointer);
    return false;
}

bool MainWindow::applyWithPreview(const ChangePreview& preview, const std::string& acceptPointer)
{
    const Answers answers = m_document->project().answers;
    ChangePreviewDialog dialog(preview, answers, this);
    if (dialog.exec() != QDialog::Accepted || !preview.cannotApply.empty())
        return false;
    m_document->applyChange(QString::fromStdString(withInputLabels(preview.title)), preview.edits, acceptPointer);
    statusBar()->showMessage(
        tr("Applied %1 (Undo takes it back)").arg(boundedForDisplay(withInputLabels(preview.title))), 10000);
    return true;
}

ConfigForm MainWindow::configForm() const { return static_cast<ConfigForm>(m_form->currentData().toInt()); }

void MainWindow::goToField(const std::string& id)
{
    const std::string step = inputPage(id);
    if (step.empty())
        return;
    goToStep(step);
    for (WorkflowPage* page : m_workflowPages)
        if (page->step() == step)
            page->focusField(id);
}

void MainWindow::showSuggestionsNeed(const std::vector<std::string>& ids)
{
    // An imported config gets no suggestions from defaults: the banner asks for what they wait for.
    m_suggestionsBanner->setVisible(!ids.empty());
    if (ids.empty())
        return;
    QStringList labels;
    for (const auto& id : ids)
        labels << QString::fromStdString(inputLabel(id)).toHtmlEscaped();
    // The link goes to Setup's first field of those (all of them are asked there).
    m_suggestionsBanner->setText(tr("The wizard's suggestions for this imported config wait for the model and the "
                                    "cluster: give %1 in <a href=\"%2\">Setup</a>. Until then it suggests nothing "
                                    "(it would only have its defaults).")
                                     .arg(labels.join(", "), fieldHref(ids.front()).toHtmlEscaped()));
}

void MainWindow::showStep(const std::string& step)
{
    m_current = step;
    const auto steps = wizardPages();
    const auto index = std::find(steps.begin(), steps.end(), step) - steps.begin();
    // Brought up to date before it is shown: the buttons it makes are shown with it, not an event later.
    rebuildIfStale(m_pages->widget(static_cast<int>(index)));
    m_pages->setCurrentIndex(static_cast<int>(index));
    m_stale.insert(m_why); // it explains the current workflow
}

void MainWindow::goToStep(const std::string& step)
{
    showStep(step);
    refresh();
}

void MainWindow::next(int direction)
{
    const auto steps = wizardPages();
    auto index = std::find(steps.begin(), steps.end(), m_current) - steps.begin();
    // Marking the step done changes the document: its refresh is the step change's, one for both.
    ++m_refreshHeld;
    if (direction > 0 && m_current != "setup" && m_current != "summary")
        m_document->markHandled(m_current); // Next on a workflow step means the user is done with it
    --m_refreshHeld;
    index = std::clamp<long>(index + direction, 0, static_cast<long>(steps.size()) - 1);
    goToStep(steps[index]);
}

bool MainWindow::isStale(const QWidget* view) const { return m_stale.count(view) > 0; }

void MainWindow::documentChanged()
{
    // Every tab and page is behind the document now; refresh() rebuilds the ones shown, the others wait until
    // they are shown.
    m_stale.insert({m_preview, m_why, m_chart, m_findings, m_summary});
    m_stale.insert(m_workflowPages.begin(), m_workflowPages.end());
    m_previewMarks = m_markChanges; // after an edit, not after opening
    m_markChanges = false;
    if (m_refreshHeld > 0)
        m_refreshPending = true;
    else
        refresh();
}

void MainWindow::rebuild(QWidget* view)
{
    const auto& plan = m_document->plan();
    const auto& project = m_document->project();
    m_stale.erase(view);
    // A page or the findings may make new buttons (the out-of-memory steps, the suggestions): the tab order follows.
    m_tabOrderStale = m_tabOrderStale || (view != m_preview && view != m_why && view != m_chart);
    if (view == m_preview) {
        m_preview->showConfig(plan.config, configInForm(plan.config, project.answers, configForm()), m_previewMarks);
        m_previewMarks = false;
    } else if (view == m_why) {
        m_why->showPlan(plan, m_current == "setup" || m_current == "summary" ? std::string() : m_current);
    } else if (view == m_chart) {
        m_chart->showPlan(plan);
    } else if (view == m_findings) {
        m_findings->showFindings(plan.lint, plan.suggestions);
    } else if (view == m_summary) {
        m_summary->showProject(project, plan);
    } else if (auto page = std::find(m_workflowPages.begin(), m_workflowPages.end(), view);
               page != m_workflowPages.end()) {
        (*page)->showProject(project, plan);
    }
}

bool MainWindow::rebuildIfStale(QWidget* view)
{
    if (!view || !isStale(view))
        return false;
    rebuild(view);
    return true;
}

void MainWindow::refresh()
{
    // Only what is shown is rebuilt: the page and the tab shown; the sidebar, the form switch, the banners, the
    // status bar and Back/Next are always shown.
    ++m_refreshCount;
    m_refreshPending = false;
    const auto& plan = m_document->plan();
    const auto& project = m_document->project();
    if (const std::string launcher = project.answers.text("software.launcher"); launcher != m_formLauncher) {
        m_formLauncher = launcher;
        m_formChosen = false;
    }
    if (!m_formChosen)
        m_form->setCurrentIndex(m_form->findData(static_cast<int>(launcherConfigForm(project.answers))));
    showSuggestionsNeed(plan.suggestionsNeed);
    rebuildIfStale(m_pages->currentWidget());
    rebuildIfStale(m_tabs->currentWidget());
    std::vector<std::pair<std::string, PageState>> states;
    for (const auto& step : wizardPages())
        states.emplace_back(step, pageState(plan, project, step));
    m_sidebar->showStates(states, m_current);
    if (!m_editedId.empty()) {
        // An edit that moved the global batch without touching a batch input says so (Pages.h: batchChangeNote).
        if (const std::string note = batchChangeNote(m_configBeforeEdit, plan.config, m_editedId); !note.empty())
            statusBar()->showMessage(QString::fromStdString(note), 20000);
        m_editedId.clear();
    }
    if (std::exchange(m_tabOrderStale, false))
        fixTabOrder();
    m_back->setEnabled(m_current != "setup");
    m_next->setEnabled(m_current != "summary");
}

void MainWindow::updateTitle()
{
    setWindowTitle(QStringLiteral("%1[*] — ds-wizard").arg(projectName()));
    setWindowModified(m_document->isModified());
    m_exampleBanner->setVisible(m_document->fileName().isEmpty() && m_untitledName == exampleName());
    if (!m_document->fileName().isEmpty())
        QSettings().setValue(kLastDirectoryKey, QFileInfo(m_document->fileName()).absolutePath());
}

QString MainWindow::projectName() const
{
    return m_document->fileName().isEmpty() && !m_untitledName.isEmpty() ? m_untitledName : m_document->displayName();
}

bool MainWindow::maybeSave()
{
    if (!m_document->isModified())
        return true;
    const auto answer =
        QMessageBox::question(this, tr("Unsaved changes"), tr("%1 has unsaved changes. Save them?").arg(projectName()),
                              QMessageBox::Save | QMessageBox::Discard | QMessageBox::Cancel);
    if (answer == QMessageBox::Cancel)
        return false;
    if (answer == QMessageBox::Discard)
        return true;
    QString path = m_document->fileName();
    if (path.isEmpty())
        path = QFileDialog::getSaveFileName(this, tr("Save project"), saveDialogPath(),
                                            tr("ds-wizard projects (*.dswiz)"));
    if (path.isEmpty())
        return false;
    const QString error = saveProjectAs(path);
    if (!error.isEmpty())
        QMessageBox::warning(this, tr("Save failed"), error);
    return error.isEmpty();
}

void MainWindow::closeEvent(QCloseEvent* event)
{
    if (maybeSave())
        event->accept();
    else
        event->ignore();
}

} // namespace dsw
