// gpus.tsv is compiled at build time (tools/knowledge-table-compiler): the compiled rows must equal, row by row and
// cell by cell, what util/TsvTable reads from the same file (memory_gb as std::stod read it, bf16 as "y"); the
// catalog must give the same GPUs as one read from the text; a lookup must build only the GPU it finds; and a
// malformed file must stop the compiler in one line naming the file and the line, before any source is written.
#include "knowledge/GpuCatalog.h"
#include "knowledge/KnowledgeFiles.h"
#include "util/TsvTable.h"

#include "CompilerRun.h"

#include <QFile>
#include <QProcess>
#include <QTemporaryDir>
#include <QTest>

using namespace dsw;
using dsw::test::runCompiler;
using dsw::test::verifyRefused;

namespace {

QByteArray bytes(std::string_view s) { return QByteArray(s.data(), static_cast<qsizetype>(s.size())); }

bool sameGpu(const GpuSpec& a, const GpuSpec& b)
{
    return a.id == b.id && a.name == b.name && a.vendor == b.vendor && a.architecture == b.architecture
        && a.computeCapability == b.computeCapability && a.memoryGb == b.memoryGb && a.memoryStated == b.memoryStated
        && a.bf16 == b.bf16 && a.fp8How == b.fp8How && a.bf16DenseTflops == b.bf16DenseTflops
        && a.fp16DenseTflops == b.fp16DenseTflops && a.intraNodeLink == b.intraNodeLink && a.sourceUrl == b.sourceUrl
        && a.verification == b.verification;
}

} // namespace

class TestCompiledGpuTable : public QObject {
    Q_OBJECT
private slots:
    void rowsEqualTsvTable()
    {
        const TsvTable table(knowledgeFile("gpus.tsv"));
        const std::span<const GpuRow> rows = compiledGpuRows();
        QVERIFY(table.rowCount() >= 10); // the real file
        QCOMPARE(rows.size(), table.rowCount());
        for (std::size_t r = 0; r < rows.size(); ++r) {
            const GpuRow& g = rows[r];
            const auto cell = [&](const char* column) { return table.cell(r, column); };
            const QByteArray where = bytes(g.id);
            QVERIFY2(g.id == cell("id") && g.name == cell("name") && g.vendor == cell("vendor"), where);
            QVERIFY2(g.architecture == cell("architecture") && g.computeCapability == cell("compute_capability"),
                     where);
            QVERIFY2(g.memoryGb == std::stod(std::string(cell("memory_gb"))), where);
            QVERIFY2(g.memoryStated == cell("memory_vendor_stated"), where);
            QVERIFY2(g.bf16 == (cell("bf16_supported") == "y"), where);
            QVERIFY2(g.fp8How == cell("fp8_supported_how") && g.bf16DenseTflops == cell("bf16_dense_tflops"), where);
            QVERIFY2(g.fp16DenseTflops == cell("fp16_tensor_dense_tflops"), where);
            QVERIFY2(g.intraNodeLink == cell("intra_node_link") && g.sourceUrl == cell("source_url"), where);
            QVERIFY2(g.verification == cell("verification"), where);
        }
    }

    void findBuildsTheGpuItFindsAndAllAgrees()
    {
        // Runs before anything else asks the process-wide catalog: find first, from the last row up, then all().
        const GpuCatalog& catalog = GpuCatalog::instance();
        const GpuCatalog text(knowledgeFile("gpus.tsv"));
        const std::vector<GpuSpec>& read = text.all();
        QCOMPARE(read.size(), compiledGpuRows().size());
        std::vector<const GpuSpec*> found;
        for (std::size_t i = read.size(); i-- > 0;) {
            const GpuSpec* g = catalog.find(read[i].id);
            QVERIFY2(g && sameGpu(*g, read[i]), read[i].id.c_str());
            found.push_back(g);
        }
        const std::vector<GpuSpec>& all = catalog.all();
        QCOMPARE(all.size(), read.size());
        for (std::size_t i = 0; i < all.size(); ++i) {
            QVERIFY2(sameGpu(all[i], read[i]), read[i].id.c_str());
            QCOMPARE(&all[i], found[all.size() - 1 - i]); // the same objects
        }
        std::vector<std::string> ids;
        for (const GpuSpec& g : read)
            ids.push_back(g.id);
        QVERIFY(catalog.ids() == ids);
        QCOMPARE(catalog.find("h100-80gb"), catalog.find("H100-80GB"));
        QVERIFY(!catalog.find("H100"));
    }

    void brokenFilesFailTheCompiler_data()
    {
        QTest::addColumn<QByteArray>("text");
        QTest::addColumn<QString>("says");
        const QByteArray good = bytes(knowledgeFile("gpus.tsv"));
        const QList<QByteArray> lines = good.split('\n');
        const auto withLine = [&](qsizetype at, const QByteArray& line) {
            QList<QByteArray> changed = lines;
            changed[at] = line;
            return changed.join('\n');
        };
        const auto cells = [&](qsizetype at) { return lines[at].split('\t'); };
        const auto withCell = [&](qsizetype at, qsizetype column, const QByteArray& value) {
            QList<QByteArray> row = cells(at);
            row[column] = value;
            return withLine(at, row.join('\t'));
        };
        const QList<QByteArray> header = cells(0);
        const qsizetype memory = header.indexOf("memory_gb"), bf16 = header.indexOf("bf16_supported");
        const QString second = QString(cells(2)[0]);
        QVERIFY(memory > 0 && bf16 > 0);

        QTest::newRow("empty file") << QByteArray() << "is empty";
        QTest::newRow("header only") << lines[0] + "\n"
                                     << "has no row";
        QTest::newRow("no verification column")
            << withLine(0, header.mid(0, header.size() - 1).join('\t')) << "has no column \"verification\"";
        QTest::newRow("column twice") << withCell(0, 1, "id") << "line 1 (the header): has the column \"id\" twice";
        QTest::newRow("short row") << withLine(2, cells(2).mid(0, 5).join('\t'))
                                   << "line 3 (" + second + "): has 5 cells, the header "
                + QString::number(header.size());
        QTest::newRow("memory not a number")
            << withCell(2, memory, "lots") << "line 3 (" + second + "): memory_gb \"lots\"";
        QTest::newRow("memory with a unit") << withCell(2, memory, "32GB") << "memory_gb \"32GB\" is not a positive";
        QTest::newRow("memory zero") << withCell(2, memory, "0") << "memory_gb \"0\"";
        QTest::newRow("bf16 not y or n") << withCell(2, bf16, "yes") << "bf16_supported \"yes\" must be y or n";
        QTest::newRow("id twice in another case")
            << withCell(3, 0, cells(2)[0].toLower()) << "line 4 (" + second.toLower() + "): the id is given twice";
        QTest::newRow("empty id") << withCell(2, 0, "") << "line 3: has an empty id";
    }

    void brokenFilesFailTheCompiler()
    {
        QFETCH(QByteArray, text);
        QFETCH(QString, says);
        QTemporaryDir dir;
        QVERIFY(dir.isValid());
        const QString input = dir.filePath("gpus.tsv"), output = dir.filePath("CompiledGpuTable.cpp");
        verifyRefused(runCompiler(DSW_KNOWLEDGE_TABLE_COMPILER, {"gpus", input, output}, input, text), input, output,
                      says);
    }

    void goodFileCompiles()
    {
        QTemporaryDir dir;
        const QString input = dir.filePath("gpus.tsv"), output = dir.filePath("out.cpp");
        QFile file(input);
        QVERIFY(file.open(QIODevice::WriteOnly));
        file.write(bytes(knowledgeFile("gpus.tsv")));
        file.close();
        QProcess compiler;
        compiler.start(DSW_KNOWLEDGE_TABLE_COMPILER, {"gpus", input, output});
        QVERIFY(compiler.waitForFinished(60000));
        QCOMPARE(compiler.exitCode(), 0);
        QFile out(output);
        QVERIFY(out.open(QIODevice::ReadOnly));
        const QByteArray source = out.readAll();
        QVERIFY(source.contains("constexpr GpuRow rows[]"));
        QVERIFY(source.contains("sv(\"A100-80GB\", 9)"));
        QVERIFY(!source.contains("stod") && !source.contains("TsvTable") && !source.contains("knowledgeFile"));
    }
};

QTEST_APPLESS_MAIN(TestCompiledGpuTable)
#include "TestCompiledGpuTable.moc"
