// Saving the document (the window's Ctrl+S): a save that fails at any stage of the write (ENOSPC, EIO,
// EDQUOT injected) says why, leaves the file on disk byte-identical and the document modified under its
// old name, so the user can still save elsewhere; a save that succeeds clears the modified state.
#include "FaultInjection.h"
#include "ProjectDocument.h"
#include "RecentFiles.h"

#include <QSignalSpy>
#include <QTemporaryDir>
#include <QTest>

using namespace dsw;
using namespace dsw::test;

class TestProjectDocument : public QObject {
    Q_OBJECT

private slots:
    void cleanup() { resetFileWriteHooks(); }

    void failedSaveKeepsEverything_data()
    {
        QTest::addColumn<int>("stage");
        QTest::addColumn<int>("error");
        for (Stage stage : {Stage::Write, Stage::Fsync, Stage::Close, Stage::Rename})
            for (int error : {ENOSPC, EIO, EDQUOT})
                QTest::addRow("%s %s", stageName(stage), qPrintable(reason(error))) << int(stage) << error;
    }
    void failedSaveKeepsEverything()
    {
        QFETCH(int, stage);
        QFETCH(int, error);
        QTemporaryDir dir;
        const QString path = dir.filePath("job.dswiz");
        ProjectDocument document;
        document.setAnswer("hardware.nodes", 2);
        QCOMPARE(document.saveAs(path), QString());
        QVERIFY(!document.isModified());
        const QByteArray saved = readAll(path);
        document.setAnswer("hardware.nodes", 4);
        document.markHandled("zero");
        QVERIFY(document.isModified());
        const auto before = snapshot(dir.path());
        QSignalSpy modified(&document, &ProjectDocument::modifiedChanged);
        QSignalSpy renamed(&document, &ProjectDocument::fileNameChanged);
        for (const QString& target : {path, dir.filePath("elsewhere.dswiz")}) { // Save, then Save As
            InjectedFailure failure(Stage(stage), error);
            QCOMPARE(document.saveAs(target), QStringLiteral("cannot write %1: %2").arg(target, reason(error)));
            QVERIFY(document.isModified());
            QCOMPARE(document.fileName(), path);
            QCOMPARE(snapshot(dir.path()), before);
        }
        QCOMPARE(readAll(path), saved);
        QCOMPARE(modified.count(), 0);
        QCOMPARE(renamed.count(), 0);
        // Once the disk has room again the same save works.
        QCOMPARE(document.saveAs(path), QString());
        QVERIFY(!document.isModified());
        QVERIFY(readAll(path) != saved);
    }

    // A project that open would refuse is never written: a compact file within the limit whose
    // indented form is not (unknown keys are kept on re-save) stays as it was, the document modified.
    void saveThatCouldNotBeOpenedAgainIsRefused()
    {
        QTemporaryDir dir;
        const QString path = dir.filePath("big.dswiz");
        QByteArray compact = R"({"format":"ds-wizard-project","version":1,"answers":{},"kept":[)";
        compact += QByteArray("1,").repeated(1500000) + "1]}";
        QVERIFY(writeBytes(path, compact));
        ProjectDocument document;
        QCOMPARE(document.load(path), QString());
        document.setAnswer("hardware.nodes", 2);
        const QString error = document.saveAs(path);
        QVERIFY2(error.startsWith("cannot save " + path + ": the project would be "), qPrintable(error));
        QVERIFY2(error.contains("opens projects of at most"), qPrintable(error));
        QCOMPARE(readAll(path), compact);
        QVERIFY(document.isModified());
    }

    // The recent-files list is written at once and a failure is reported (the window shows it).
    void recentFilesReportAWriteFailure()
    {
        QTemporaryDir dir;
        QVERIFY(writeBytes(dir.filePath("a.dswiz"), "{}"));
        QVERIFY(writeBytes(dir.filePath("not-a-folder"), "x"));
        QSettings good(dir.filePath("good.ini"), QSettings::IniFormat);
        QCOMPARE(RecentFiles(good).add(dir.filePath("a.dswiz")), QString());
        QVERIFY(QFile::exists(dir.filePath("good.ini")));                               // synced, not left for later
        QSettings bad(dir.filePath("not-a-folder/settings.ini"), QSettings::IniFormat); // its folder cannot exist
        const QString error = RecentFiles(bad).add(dir.filePath("a.dswiz"));
        QVERIFY2(error.contains("not-a-folder/settings.ini"), qPrintable(error));
    }

    // File ▸ Import and a drop of a Hugging Face config.json fill the open project's model answers in one undoable
    // step (the count then follows the shape); a JSON that is neither config changes nothing.
    void importOfAModelConfigFillsTheModelAnswers()
    {
        ProjectDocument document;
        document.setAnswer("hardware.nodes", 4);
        document.setAnswer("model.params", 70000000000LL);
        const int undoBefore = document.undoStack()->count();
        QStringList notes;
        bool filledModel = false;
        const QString error = document.importConfigFile(QStringLiteral(DSW_TEST_DATA_DIR "/hf-configs/qwen2.5-7b.json"),
                                                        &notes, &filledModel);
        QVERIFY2(error.isEmpty(), qPrintable(error));
        QVERIFY(filledModel);
        const Answers& a = document.project().answers;
        QCOMPARE(a.integer("model.hidden_size"), 3584LL);
        QCOMPARE(a.integer("model.kv_heads"), 4LL);
        QCOMPARE(a.integer("hardware.nodes"), 4LL); // the rest of the project stays
        QVERIFY(!a.has("model.params"));
        QVERIFY(a.integer("model.params") > 7.5e9 && a.integer("model.params") < 7.7e9);
        QCOMPARE(document.undoStack()->count(), undoBefore + 1);
        document.undoStack()->undo();
        QCOMPARE(document.project().answers.integer("model.params"), 70000000000LL);
        QVERIFY(!document.project().answers.has("model.hidden_size"));

        QTemporaryDir dir;
        QVERIFY(writeBytes(dir.filePath("package.json"), R"({"name": "x", "version": "1.0.0"})"));
        const Answers before = document.project().answers;
        const QString refused = document.importConfigFile(dir.filePath("package.json"), &notes, &filledModel);
        QVERIFY2(refused.contains("neither"), qPrintable(refused));
        QVERIFY(!filledModel);
        QVERIFY(document.project().answers == before);
    }

    // A mixture of experts keeps its expert count in the open project and is sized with every expert (the note says
    // so); a dense model imported after it puts model.experts back to 1.
    void importOfAMixtureOfExpertsKeepsTheExperts()
    {
        ProjectDocument document;
        QStringList notes;
        QVERIFY(
            document.importConfigFile(QStringLiteral(DSW_TEST_DATA_DIR "/hf-configs/mixtral-8x7b-v0.1.json"), &notes)
                .isEmpty());
        QCOMPARE(document.project().answers.integer("model.experts"), 8LL);
        QVERIFY(notes.join(' ').contains("sizes all its experts"));
        QVERIFY(document.plan().zero);
        QCOMPARE(document.plan().zero->plan().totalParams, std::int64_t(46702792704));
        QVERIFY(document.importConfigFile(QStringLiteral(DSW_TEST_DATA_DIR "/hf-configs/qwen2.5-7b.json")).isEmpty());
        QCOMPARE(document.project().answers.integer("model.experts"), 1LL);
        QVERIFY(document.plan().zero);
    }
};

QTEST_GUILESS_MAIN(TestProjectDocument)
#include "TestProjectDocument.moc"
