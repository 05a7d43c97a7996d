// Words, not ids, with the page as a link (issue 12, must-have 6), offscreen: a message that names an input links
// the step that asks it, and activating the link (mouse or keyboard) goes there and focuses the field. Also the
// import's status-bar note, and the Findings rows that wrap to the pane's width.
#include "FieldLinks.h"
#include "FindingsView.h"
#include "MainWindow.h"
#include "Pages.h"
#include "ProjectDocument.h"
#include "Screenshot.h"
#include "SummaryPage.h"
#include "TestSettings.h"
#include "project/InputLabels.h"

#include <QApplication>
#include <QFile>
#include <QLabel>
#include <QRegularExpression>
#include <QSettings>
#include <QStandardPaths>
#include <QStatusBar>
#include <QTemporaryDir>
#include <QTest>
#include <QTextBrowser>
#include <QTextDocumentFragment>
#include <algorithm>

using namespace dsw;

namespace {

// The targets of the links in a rich text, in order.
QStringList hrefs(const QString& html)
{
    QStringList out;
    static const QRegularExpression href(QStringLiteral("href=\"([^\"]*)\""));
    for (auto it = href.globalMatch(html); it.hasNext();)
        out << it.next().captured(1).replace(QStringLiteral("&amp;"), QStringLiteral("&"));
    return out;
}

QString visible(const QString& html) { return QTextDocumentFragment::fromHtml(html).toPlainText(); }

QWidget* page(MainWindow& w, const char* step) { return w.findChild<QWidget*>(QString(step) + "Page"); }

// The step shown: the page of the stacked widget that is visible.
QString currentStep(MainWindow& w)
{
    for (const char* step : {"setup", "zero", "precision", "pipeline", "memory", "nvme", "onebit", "sparse"})
        if (page(w, step)->isVisible())
            return QString::fromLatin1(step);
    return w.findChild<QWidget*>("summaryPage")->isVisible() ? QStringLiteral("summary") : QString();
}

QString writeFile(QTemporaryDir& dir, const char* name, const QByteArray& bytes)
{
    const QString path = dir.filePath(QString::fromLatin1(name));
    QFile f(path);
    if (!f.open(QIODevice::WriteOnly) || f.write(bytes) != bytes.size())
        return {};
    return path;
}

} // namespace

class TestFieldLinks : public QObject {
    Q_OBJECT

private slots:
    void initTestCase() { dsw::test::useIsolatedSettings("TestFieldLinks"); }

    // A link names the page in words and carries the input; the words never hold the id.
    void linksNameThePageNotTheId()
    {
        const QString html = linkedFieldText("set hardware.nodes = 2, then hardware.nodes again", "zero");
        QCOMPARE(hrefs(html), QStringList{fieldHref("hardware.nodes")}); // linked once
        QCOMPARE(visible(html), QStringLiteral("set “Nodes” (in Setup) = 2, then “Nodes” again"));
        QCOMPARE(fieldFromHref(fieldHref("hardware.nvme")), std::string("hardware.nvme"));
        QVERIFY(fieldFromHref(QStringLiteral("https://example.com")).empty());
        // On the input's own page the link says where it is: below.
        QCOMPARE(visible(linkedFieldText("give pipeline.stages", "pipeline")),
                 QStringLiteral("give “Pipeline stages” (below)"));
        // Text from a file is escaped, not markup.
        QCOMPARE(visible(linkedFieldText("<b>x</b> & hardware.nodes")),
                 QStringLiteral("<b>x</b> & “Nodes” (in Setup)"));
        QCOMPARE(fieldTextWithPages("set hardware.nodes"), QStringLiteral("set “Nodes” (in Setup)"));
        // Inside brackets the page takes square ones: never "(in ZeRO))".
        QCOMPARE(visible(linkedFieldText("needs an SSD (set hardware.nvme = nvme and hardware.nvme_path), then go on")),
                 QStringLiteral(
                     "needs an SSD (set “Local NVMe” [in ZeRO] = nvme and “NVMe mount path” [in ZeRO]), then go on"));
        QCOMPARE(fieldTextWithPages("(set hardware.nodes) and hardware.gpus_per_node"),
                 QStringLiteral("(set “Nodes” [in Setup]) and “GPUs per node” (in Setup)"));
    }

    // A workflow page's "Needs input" line links the page that asks the input (the NVMe page waits for the mount
    // path, asked on ZeRO); Tab and Enter on it go there and focus the field.
    void aNeedsInputLinkGoesToTheFieldAndFocusesIt()
    {
        MainWindow w;
        w.openAtStart(QString());
        w.show();
        QApplication::setActiveWindow(&w);
        QVERIFY(QTest::qWaitForWindowActive(&w));
        w.document()->setAnswer("hardware.nvme", "nvme"); // and no path
        w.goToStep("nvme");
        const std::string id = "hardware.nvme_path";
        const Advice* nvme = w.document()->plan().find("nvme");
        QVERIFY(nvme && nvme->missing == std::vector<std::string>{id});
        QCOMPARE(inputPage(id), std::string("zero"));
        auto* checks = page(w, "nvme")->findChild<QLabel*>("checks");
        QVERIFY2(
            visible(checks->text()).startsWith(QString::fromStdString("Needs input: " + inputLabel(id) + " (in ZeRO)")),
            qPrintable(visible(checks->text())));
        QVERIFY(!visible(checks->text()).contains(QString::fromStdString(id))); // the id only in the link's target
        QCOMPARE(hrefs(checks->text()).value(0), fieldHref(id));
        QVERIFY(checks->textInteractionFlags() & Qt::LinksAccessibleByKeyboard);
        QVERIFY(checks->focusPolicy() & Qt::TabFocus); // a Tab stop while it holds links
        QApplication::processEvents();                 // the layout of the new text
        dsw::test::saveScreenshot(w, "links-nvme-needs-input");

        // The keyboard: Tab into the label, Tab to a link, Enter.
        checks->setFocus(Qt::TabFocusReason);
        QTRY_VERIFY(checks->hasFocus());
        QTest::keyClick(checks, Qt::Key_Tab);
        QVERIFY(checks->hasFocus()); // Tab moved to a link, not out of the label
        QTest::keyClick(checks, Qt::Key_Return);
        QCOMPARE(currentStep(w), QStringLiteral("zero"));
        QCOMPARE(QApplication::focusWidget(), page(w, "zero")->findChild<QWidget*>(QString::fromStdString(id)));
        QApplication::processEvents(); // the layout of the new text
        dsw::test::saveScreenshot(w, "links-zero-focused");
    }

    // An input of the page's own step is linked "below", and the link focuses it there.
    void anOwnInputLinksBelow()
    {
        MainWindow w;
        w.openAtStart(QString());
        w.show();
        QApplication::setActiveWindow(&w);
        QVERIFY(QTest::qWaitForWindowActive(&w));
        w.goToStep("memory");
        auto* checks = page(w, "memory")->findChild<QLabel*>("checks");
        QVERIFY2(visible(checks->text()).contains("Optional: give Out-of-memory message (below) to use this step"),
                 qPrintable(visible(checks->text())));
        QVERIFY(hrefs(checks->text()).contains(fieldHref("memory.oom_message")));
        w.goToStep("zero");
        emit checks->linkActivated(fieldHref("memory.oom_message"));
        QCOMPARE(currentStep(w), QStringLiteral("memory"));
        QCOMPARE(QApplication::focusWidget(), page(w, "memory")->findChild<QWidget*>("memory.oom_message"));
    }

    // The Summary links the inputs each workflow waits for, or that its conflict names; a click goes to the field.
    void theSummaryLinksWhatIsMissing()
    {
        MainWindow w;
        w.openAtStart(QString());
        w.show();
        QApplication::setActiveWindow(&w);
        QVERIFY(QTest::qWaitForWindowActive(&w));
        w.document()->setAnswer("hardware.nvme", "nvme"); // NVMe without a path: a conflict that names two inputs
        w.goToStep("summary");
        auto* summary = w.findChild<QTextBrowser*>("summaryText");
        const QString html = summary->toHtml();
        for (const char* id : {"memory.oom_message", "hardware.nvme", "hardware.nvme_path"})
            QVERIFY2(hrefs(html).contains(fieldHref(id)), id);
        const QString text = summary->toPlainText();
        QVERIFY2(text.contains(QString::fromStdString("Go to: Out-of-memory message (in " + pageTitle("memory") + ")")),
                 qPrintable(text)); // the page as the sidebar names it
        QVERIFY2(text.contains("Go to: Local NVMe (in ZeRO), NVMe mount path (in ZeRO)"), qPrintable(text));
        QVERIFY(!text.contains("hardware.nvme"));
        QVERIFY(!summary->openLinks());
        QApplication::processEvents(); // the layout of the new text
        dsw::test::saveScreenshot(w, "links-summary");
        // What a click on the link does (QTextBrowser's anchorClicked).
        emit summary->anchorClicked(QUrl(fieldHref("memory.oom_message")));
        QCOMPARE(currentStep(w), QStringLiteral("memory"));
        QCOMPARE(QApplication::focusWidget(), page(w, "memory")->findChild<QWidget*>("memory.oom_message"));
    }

    // A Findings row whose message names an input links its page; the import's note says what is true.
    void findingsLinkTheirInputsAndTheImportNoteIsTrue()
    {
        QTemporaryDir dir;
        // "auto" clipping: the answer keeps its default while the config keeps "auto". No accumulation: DeepSpeed
        // infers it from the GPU count, which the finding asks for.
        const QString path = writeFile(dir, "imported.json", R"({"train_batch_size": 64,
  "train_micro_batch_size_per_gpu": 4, "gradient_clipping": "auto", "zero_optimization": {"stage": 2}})");
        QVERIFY(!path.isEmpty());
        MainWindow w;
        w.openAtStart(QString());
        w.show();
        QApplication::setActiveWindow(&w);
        QVERIFY(QTest::qWaitForWindowActive(&w));
        QVERIFY(w.importConfig(path));
        // The status bar: one short line that says how many notes; the notes in full in its tooltip.
        const QString line = w.statusBar()->currentMessage();
        QVERIFY2(line.startsWith("Imported imported.json: ") && line.contains(" note") && line.size() < 80,
                 qPrintable(line));
        const QString note = w.statusBar()->toolTip();
        QVERIFY2(!note.contains("not carried into answers"), qPrintable(note));
        QVERIFY2(note.contains("the config keeps its keys and values as the file has them"), qPrintable(note));
        const std::string clipping = "training.gradient_clipping";
        QVERIFY2(note.contains(QString::fromStdString("“" + inputLabel(clipping) + "” (in "
                                                      + pageTitle(inputPage(clipping)) + ") keeps its default")),
                 qPrintable(note));
        QVERIFY(!note.contains(QString::fromStdString(clipping)));
        QVERIFY(nlohmann::json(w.document()->plan().config)["gradient_clipping"] == "auto"); // kept, as the note says

        // Without the cluster, the batch identity cannot be checked: the finding says which inputs, linked.
        auto* findings = w.findChild<FindingsView*>("findingsView");
        QLabel* linked = nullptr;
        for (QLabel* label : findings->findChildren<QLabel*>("findingText"))
            if (hrefs(label->text()).contains(fieldHref("hardware.gpus_per_node")))
                linked = label;
        QVERIFY2(linked, "no finding links “GPUs per node”");
        QVERIFY(visible(linked->text()).contains("“GPUs per node” (in Setup)"));
        QVERIFY(!visible(linked->text()).contains("hardware.gpus_per_node"));
        w.resize(1400, 860);
        QApplication::processEvents(); // the layout of the new text
        dsw::test::saveScreenshot(w, "links-findings");
        emit linked->linkActivated(fieldHref("hardware.gpus_per_node"));
        QCOMPARE(currentStep(w), QStringLiteral("setup"));
        QCOMPARE(QApplication::focusWidget(), page(w, "setup")->findChild<QWidget*>("hardware.gpus_per_node"));
    }

    // A suggestion whose reason names an input links its page.
    void aSuggestionNamingAnInputLinksIt()
    {
        FindingsView view;
        Suggestion s;
        s.pointer = "/zero_optimization/offload_optimizer";
        s.to = nlohmann::ordered_json{{"device", "nvme"}};
        s.workflow = "zero";
        s.reason = "ZeRO: offload to NVMe (set hardware.nvme_path to the mount)";
        view.showFindings({}, {s});
        const auto labels = view.findChildren<QLabel*>("findingText");
        QCOMPARE(labels.size(), 1);
        QVERIFY(hrefs(labels.front()->text()).contains(fieldHref("hardware.nvme_path")));
        QVERIFY2(
            visible(labels.front()->text())
                .contains(QString::fromStdString("“" + inputLabel("hardware.nvme_path") + "” [in ZeRO] to the mount)")),
            qPrintable(visible(labels.front()->text())));
        std::string activated;
        connect(&view, &FindingsView::fieldLinkActivated, this,
                [&activated](const std::string& id) { activated = id; });
        emit labels.front()->linkActivated(fieldHref("hardware.nvme_path"));
        QCOMPARE(activated, std::string("hardware.nvme_path"));
    }

    // A suggestion row's height follows the pane's width: narrower, taller, and its text never cut.
    void suggestionRowsRewrapWhenThePaneIsResized()
    {
        FindingsView view;
        Suggestion s;
        s.pointer = "/zero_optimization/stage";
        s.from = 1;
        s.to = 2;
        s.workflow = "zero";
        s.reason = "ZeRO stage and offload: ZeRO-2 partitions the gradients as well as the optimizer states, which "
                   "fits the model on these GPUs with room for a larger micro-batch, at no extra communication.";
        view.showFindings({}, {s});
        view.resize(700, 400);
        view.show();
        QVERIFY(QTest::qWaitForWindowExposed(&view));
        QListWidgetItem* row = view.item(view.count() - 1);
        QWidget* widget = view.itemWidget(row);
        QVERIFY(widget);
        auto* label = widget->findChild<QLabel*>("findingText");
        auto fits = [&] { return label->height() >= label->heightForWidth(label->width()); };
        QTRY_VERIFY(fits());
        const int wide = view.visualItemRect(row).height();
        view.resize(260, 400);
        QTRY_VERIFY(view.visualItemRect(row).height() > wide);
        QTRY_VERIFY2(fits(),
                     qPrintable(QStringLiteral("label %1 high, its text needs %2")
                                    .arg(label->height())
                                    .arg(label->heightForWidth(label->width()))));
        view.resize(700, 400); // and back
        QTRY_COMPARE(view.visualItemRect(row).height(), wide);
    }
};

QTEST_MAIN(TestFieldLinks)
#include "TestFieldLinks.moc"
