// Every input in tests/data/fuzz-regressions/ (each once crashed a loader) goes through every loader
// the fuzz targets drive: as a project (load, plan, save), as a config (read, lint, import, plan, save
// the project) and as the two configs of a diff. Refusing is fine; throwing or crashing is not, and
// under the sanitizer suite any memory or overflow error fails the test.
#include "Plan.h"
#include "config/ConfigDiff.h"
#include "config/ConfigImporter.h"
#include "config/ConfigText.h"
#include "lint/ConfigLinter.h"
#include "project/ProjectFile.h"

#include <QDir>
#include <QFile>
#include <QTest>

using namespace dsw;

namespace {

QString regressionsDir() { return QStringLiteral(DSW_TEST_DATA_DIR "/fuzz-regressions"); }

std::string bytesOf(const QString& name)
{
    QFile f(regressionsDir() + "/" + name);
    if (!f.open(QIODevice::ReadOnly))
        qFatal("cannot read %s", qPrintable(f.fileName()));
    return f.readAll().toStdString();
}

void asProject(const std::string& bytes)
{
    const auto project = parseProject(bytes);
    if (!project) {
        QVERIFY(!project.error().empty());
        return;
    }
    (void)makePlan(project.value());
    QVERIFY(parseProject(serializeProject(project.value())).ok()); // saved again, it opens again
}

void asConfig(const std::string& bytes)
{
    const auto config = parseConfigText(bytes);
    if (!config) {
        QVERIFY(!config.error().empty());
        return;
    }
    Answers context;
    context.set("hardware.gpus_per_node", 8);
    context.set("software.deepspeed_version", "0.19.5");
    (void)lintConfig(config.value(), context);
    const ImportedProject imported = importConfig(config.value());
    (void)makePlan(imported.project).config.dump();
    if (const auto file = serializeProjectForFile(imported.project))
        QVERIFY(parseProject(file.value()).ok()); // what import writes, open reads
}

// As FuzzConfigDiff splits its input: at the first NUL byte, "{}" when there is none.
void asDiff(const std::string& bytes)
{
    const std::size_t nul = bytes.find('\0');
    const auto a = parseConfigText(bytes.substr(0, nul));
    const auto b = parseConfigText(nul == std::string::npos ? std::string("{}") : bytes.substr(nul + 1));
    if (!a || !b)
        return;
    (void)diffConfigs(a.value().json, b.value().json);
    QVERIFY(diffConfigs(a.value().json, a.value().json).empty());
}

} // namespace

class TestFuzzRegressions : public QObject {
    Q_OBJECT
private slots:
    void everyLoader_data()
    {
        QTest::addColumn<QString>("file");
        const QStringList files = QDir(regressionsDir()).entryList(QDir::Files, QDir::Name);
        QVERIFY(files.size() >= 2);
        for (const QString& file : files)
            QTest::newRow(qPrintable(file)) << file;
    }
    void everyLoader()
    {
        QFETCH(QString, file);
        const std::string bytes = bytesOf(file);
        try {
            asProject(bytes);
            asConfig(bytes);
            asDiff(bytes);
        } catch (const std::exception& e) {
            QFAIL(qPrintable(QStringLiteral("%1 threw: %2").arg(file, e.what())));
        }
    }
};

QTEST_APPLESS_MAIN(TestFuzzRegressions)
#include "TestFuzzRegressions.moc"
