// ds-wizard links QtCore only and opens its window from ds-wizard-window.so (app/core/WindowModule.h):
// the program's DT_NEEDED and the libraries each command loads hold no GUI library; the window opens
// through the module (offscreen, quitting after its first paint: DSW_TEST_QUIT_AFTER_FIRST_PAINT), also
// through a symbolic link to the program; a missing, broken or foreign module is one line on stderr
// naming it, exit status 1, and the current folder is never searched.
#include "WindowModule.h"

#include "ProgramRun.h"
#include <QDir>
#include <QFile>
#include <QFileInfo>

#include <QProcess>
#include <QRegularExpression>
#include <QTemporaryDir>
#include <QTest>

using namespace dsw;

namespace {

using Run = dsw::test::ProgramRun;

const QString kExample = QStringLiteral(DSW_SOURCE_DIR "/resources/examples/llama-7b-8xA100.dswiz");

QStringList neededLibraries(const QString& elf)
{
    QProcess readelf;
    readelf.start(QStringLiteral(DSW_READELF), {QStringLiteral("-d"), elf});
    if (!readelf.waitForFinished(30000) || readelf.exitCode() != 0)
        return {};
    QStringList needed;
    static const QRegularExpression entry(QStringLiteral(R"(\(NEEDED\)\s+Shared library: \[([^\]]+)\])"));
    for (auto it = entry.globalMatch(QString::fromUtf8(readelf.readAllStandardOutput())); it.hasNext();)
        needed << it.next().captured(1);
    return needed;
}

QStringList qtLibraries(const QStringList& libraries)
{
    QStringList qt;
    for (const QString& library : libraries)
        if (library.startsWith(QStringLiteral("libQt")))
            qt << library;
    return qt;
}

// The files the dynamic loader opened in a run with LD_DEBUG=files (its "file=NAME [0]; ..." lines).
QStringList loadedFiles(const QByteArray& err)
{
    QStringList files;
    static const QRegularExpression entry(QStringLiteral(R"(\bfile=(\S+) \[\d+\];)"));
    for (auto it = entry.globalMatch(QString::fromLocal8Bit(err)); it.hasNext();)
        files << it.next().captured(1);
    files.removeDuplicates();
    return files;
}

bool writeFile(const QString& path, const QByteArray& bytes)
{
    QFile f(path);
    return f.open(QIODevice::WriteOnly) && f.write(bytes) == bytes.size();
}

// A copy of the program alone in DIR/bin (no module beside it, none at the installed place).
QString copyProgram(const QTemporaryDir& dir)
{
    const QString bin = QFileInfo(dir.path()).canonicalFilePath() + "/bin";
    const QString program = bin + "/ds-wizard";
    if (!QDir().mkpath(bin) || !QFile::copy(QStringLiteral(DSW_EXECUTABLE), program))
        return {};
    return program;
}

} // namespace

class TestWindowModule : public QObject {
    Q_OBJECT

    QTemporaryDir m_home; // HOME and XDG folders of every run: no settings of the user are touched

    Run run(const QString& program, const QStringList& args, const QMap<QString, QString>& extraEnv = {},
            const QString& workingDirectory = {})
    {
        QProcessEnvironment env = dsw::test::isolatedEnvironment(m_home.path());
        env.remove("DSW_TEST_QUIT_AFTER_FIRST_PAINT");
        for (auto it = extraEnv.begin(); it != extraEnv.end(); ++it)
            env.insert(it.key(), it.value());
        return dsw::test::runProgram(program, args, env, workingDirectory.isEmpty() ? m_home.path() : workingDirectory);
    }

    // The window on `args`, told to quit once it has painted.
    Run openWindow(const QString& program, const QStringList& args)
    {
        return run(program, args, {{"DSW_TEST_QUIT_AFTER_FIRST_PAINT", "1"}, {"LD_DEBUG", "files"}});
    }

private slots:
    void initTestCase()
    {
        QVERIFY(m_home.isValid());
        QVERIFY2(QFile::exists(QStringLiteral(DSW_EXECUTABLE)), DSW_EXECUTABLE " is not built");
        QVERIFY2(QFile::exists(QStringLiteral(DSW_WINDOW_MODULE)), DSW_WINDOW_MODULE " is not built");
    }

    void moduleIsLookedForBesideTheProgramThenWhereItIsInstalled()
    {
        const std::vector<std::string> candidates = windowModuleCandidates("/opt/dsw/bin/ds-wizard");
        QCOMPARE(candidates.size(), size_t(2));
        QCOMPARE(QString::fromStdString(candidates.at(0)), QStringLiteral("/opt/dsw/bin/ds-wizard-window.so"));
        QCOMPARE(
            QString::fromStdString(candidates.at(1)),
            QDir::cleanPath(QStringLiteral("/opt/dsw/bin/" DSW_WINDOW_MODULE_DIR_FROM_BINDIR "/ds-wizard-window.so")));
        QVERIFY(QString::fromStdString(candidates.at(1)).startsWith(QStringLiteral("/opt/dsw/")));
        QVERIFY(QString::fromStdString(candidates.at(1)).endsWith(QStringLiteral("/ds-wizard/ds-wizard-window.so")));
    }

    void programNeedsNoQtLibraryButQtCore()
    {
        const QStringList needed = neededLibraries(QStringLiteral(DSW_EXECUTABLE));
        QVERIFY2(!needed.isEmpty(), "readelf -d listed no NEEDED entry for " DSW_EXECUTABLE);
        QCOMPARE(qtLibraries(needed), QStringList{QStringLiteral("libQt6Core.so.6")});
    }

    void moduleHoldsTheGuiLibrariesAndExportsOnlyItsEntry()
    {
        const QStringList needed = neededLibraries(QStringLiteral(DSW_WINDOW_MODULE));
        QVERIFY2(needed.contains(QStringLiteral("libQt6Widgets.so.6")), qPrintable(needed.join(' ')));
        QVERIFY2(needed.contains(QStringLiteral("libQt6Gui.so.6")), qPrintable(needed.join(' ')));
        QProcess nm;
        nm.start(QStringLiteral(DSW_NM), {"-D", "--defined-only", "--format=posix", QStringLiteral(DSW_WINDOW_MODULE)});
        QVERIFY(nm.waitForFinished(30000));
        QStringList functions;
        for (const QString& line : QString::fromUtf8(nm.readAllStandardOutput()).split('\n', Qt::SkipEmptyParts))
            if (line.section(' ', 1, 1) == QStringLiteral("T"))
                functions << line.section(' ', 0, 0);
        QCOMPARE(functions, QStringList{QString::fromLatin1(kWindowEntrySymbol)});
    }

    void commandsLoadNoGuiLibrary_data()
    {
        QTest::addColumn<QStringList>("args");
        QTest::newRow("--version") << QStringList{"--version"};
        QTest::newRow("--help") << QStringList{"--help"};
        QTest::newRow("keys") << QStringList{"keys"};
        QTest::newRow("estimate") << QStringList{"estimate", "--params", "7e9", "--gpus-per-node", "8", "--nodes", "1"};
        QTest::newRow("recommend") << QStringList{"recommend", "--project", kExample, "--format", "config"};
        QTest::newRow("lint") << QStringList{"lint", "CONFIG"};
        QTest::newRow("diff") << QStringList{"diff", "CONFIG", "OTHER"};
        QTest::newRow("import") << QStringList{"import", "CONFIG", "-o", "OUT/imported.dswiz"};
        QTest::newRow("export") << QStringList{"export",         "--project", kExample,           "--to",
                                               "deepspeed-json", "-o",        "OUT/exported.json"};
        QTest::newRow("unknown command") << QStringList{"frobnicate"};
    }

    void commandsLoadNoGuiLibrary()
    {
        QFETCH(QStringList, args);
        QTemporaryDir dir;
        QVERIFY(writeFile(dir.filePath("config.json"),
                          R"({"train_batch_size": 64, "train_micro_batch_size_per_gpu": 4,)"
                          R"( "gradient_accumulation_steps": 2, "zero_optimization": {"stage": 2}})"));
        QVERIFY(
            writeFile(dir.filePath("other.json"), R"({"train_batch_size": 64, "zero_optimization": {"stage": 3}})"));
        args.replaceInStrings(QStringLiteral("CONFIG"), dir.filePath("config.json"));
        args.replaceInStrings(QStringLiteral("OTHER"), dir.filePath("other.json"));
        args.replaceInStrings(QStringLiteral("OUT"), dir.path());
        const Run r = run(QStringLiteral(DSW_EXECUTABLE), args, {{"LD_DEBUG", "files"}});
        QVERIFY(r.finished);
        QVERIFY2(r.exitCode >= 0 && r.exitCode <= 2, qPrintable(QString::number(r.exitCode)));
        const QStringList files = loadedFiles(r.err);
        QVERIFY2(files.contains(QStringLiteral("libQt6Core.so.6")), "LD_DEBUG=files listed no libQt6Core");
        QCOMPARE(qtLibraries(files), QStringList{QStringLiteral("libQt6Core.so.6")});
        for (const QString& file : files)
            QVERIFY2(!file.contains(QStringLiteral("ds-wizard-window")), qPrintable(file));
    }

    void windowOpensThroughTheModule_data()
    {
        QTest::addColumn<QStringList>("args");
        QTest::newRow("no file") << QStringList{};
        QTest::newRow("a project") << QStringList{kExample};
    }

    void windowOpensThroughTheModule()
    {
        QFETCH(QStringList, args);
        const Run r = openWindow(QStringLiteral(DSW_EXECUTABLE), args);
        QVERIFY(r.finished);
        QVERIFY2(r.exitCode == 0, r.err.right(2000).constData());
        const QString module = QFileInfo(QStringLiteral(DSW_WINDOW_MODULE)).canonicalFilePath();
        QVERIFY2(loadedFiles(r.err).contains(module), qPrintable(module + " was not loaded"));
    }

    void windowOpensThroughALinkToTheProgram()
    {
        // /usr/bin/x -> ../lib/… style links: the module is found beside the real program, not the link.
        QTemporaryDir dir;
        const QString link = dir.filePath("ds-wizard");
        QVERIFY(QFile::link(QStringLiteral(DSW_EXECUTABLE), link));
        const Run r = openWindow(link, {kExample});
        QVERIFY(r.finished);
        QVERIFY2(r.exitCode == 0, r.err.right(2000).constData());
    }

    void missingModuleIsOneLineNamingWhereItWasLookedFor()
    {
        QTemporaryDir dir;
        const QString program = copyProgram(dir);
        QVERIFY(!program.isEmpty());
        // Run from the build folder, which holds a module: the current folder must not be searched.
        const Run r = run(program, {kExample}, {}, QFileInfo(QStringLiteral(DSW_WINDOW_MODULE)).path());
        QVERIFY(r.finished);
        QCOMPARE(r.exitCode, 1);
        QVERIFY(r.out.isEmpty());
        const QString beside = QFileInfo(program).path() + "/ds-wizard-window.so";
        const QString installed =
            QDir::cleanPath(QFileInfo(program).path() + "/" DSW_WINDOW_MODULE_DIR_FROM_BINDIR "/ds-wizard-window.so");
        QCOMPARE(QString::fromLocal8Bit(r.err),
                 QStringLiteral("ds-wizard: cannot open the window: its module is "
                                "missing (looked for %1 and %2)\n")
                     .arg(beside, installed));
    }

    void brokenModuleIsOneLineWithTheLoadersError()
    {
        QTemporaryDir dir;
        const QString program = copyProgram(dir);
        QVERIFY(!program.isEmpty());
        const QString module = QFileInfo(program).path() + "/ds-wizard-window.so";
        QVERIFY(writeFile(module, "not a shared object\n"));
        const Run r = run(program, {});
        QVERIFY(r.finished);
        QCOMPARE(r.exitCode, 1);
        const QString err = QString::fromLocal8Bit(r.err);
        QCOMPARE(err.count('\n'), 1);
        QVERIFY2(err.startsWith("ds-wizard: cannot open the window: loading " + module + " failed: " + module + ": "),
                 qPrintable(err));
    }

    void foreignModuleIsOneLineNamingTheMissingEntry()
    {
        QTemporaryDir dir;
        const QString program = copyProgram(dir);
        QVERIFY(!program.isEmpty());
        const QString module = QFileInfo(program).path() + "/ds-wizard-window.so";
        QVERIFY(QFile::copy(QStringLiteral(DSW_MODULE_WITHOUT_ENTRY), module));
        const Run r = run(program, {kExample});
        QVERIFY(r.finished);
        QCOMPARE(r.exitCode, 1);
        const QString err = QString::fromLocal8Bit(r.err);
        QCOMPARE(err.count('\n'), 1);
        QVERIFY2(err.startsWith("ds-wizard: cannot open the window: " + module + " has no dsw_window_main: "),
                 qPrintable(err));
    }
};

QTEST_GUILESS_MAIN(TestWindowModule)
#include "TestWindowModule.moc"
