// The GPU catalog (resources/knowledge/gpus.tsv, read by models/knowledge/GpuCatalog.h on first use): the shipped
// file passes the reader's checks and every row is usable by the pages that size and choose from it; a broken copy
// is refused with one message naming the file and the line.
#include "knowledge/GpuCatalog.h"

#include "knowledge/KnowledgeFiles.h"
#include "util/TsvTable.h"

#include <QTest>

using namespace dsw;

namespace {

QByteArray bytes(std::string_view s) { return QByteArray(s.data(), static_cast<qsizetype>(s.size())); }

} // namespace

class TestGpuCatalog : public QObject {
    Q_OBJECT
private slots:
    void everyRowIsComplete()
    {
        const auto read = readGpus(knowledgeFile("gpus.tsv"));
        QVERIFY2(read.ok(), read.ok() ? "" : read.error().c_str());
        const auto& gpus = GpuCatalog::instance().all();
        const TsvTable table(knowledgeFile("gpus.tsv"));
        QVERIFY(gpus.size() >= 10);
        QCOMPARE(gpus.size(), table.rowCount());
        for (std::size_t r = 0; r < gpus.size(); ++r) {
            const GpuSpec& g = gpus[r];
            const QByteArray id = QByteArray::fromStdString(g.id);
            QVERIFY2(g.id == table.cell(r, "id") && g.architecture == table.cell(r, "architecture"), id);
            QVERIFY2(g.memoryGb == std::stod(std::string(table.cell(r, "memory_gb"))), id);
            QVERIFY2(g.memoryGb > 0 && g.memoryGb < 1024, "memory_gb of " + id);
            QVERIFY2(g.intraNodeLink == table.cell(r, "intra_node_link"), id);
            // Columns no code reads: each row still names its datasheet and how it was checked.
            QVERIFY2(table.cell(r, "source_url").substr(0, 8) == "https://", "source_url of " + id);
            QVERIFY2(!table.cell(r, "verification").empty(), "verification of " + id);
            if (g.vendor == "NVIDIA") {
                // bf16 arrived with Ampere (compute capability 8.0): the column must agree with the capability.
                const auto cc = g.computeCapabilityNumber();
                QVERIFY2(cc.has_value(), "compute_capability of " + id);
                QCOMPARE(g.bf16, *cc >= 8.0);
            }
        }
    }
    void findIgnoresCase()
    {
        const GpuCatalog& c = GpuCatalog::instance();
        QVERIFY(c.find("A100-80GB"));
        QCOMPARE(c.find("A100-80GB")->id, std::string("A100-80GB"));
        QCOMPARE(c.find("a100-80gb"), c.find("A100-80GB"));
        QVERIFY(!c.find("A100"));
        QVERIFY(!c.find(""));
        QCOMPARE(c.ids().size(), c.all().size());
        QCOMPARE(c.ids().front(), c.all().front().id);
    }
    void computeCapabilityIsOnlyANumberWhenItIsOne()
    {
        GpuSpec g;
        g.computeCapability = "8.9";
        QCOMPARE(g.computeCapabilityNumber().value_or(0), 8.9);
        g.computeCapability = "n/a (gfx942)";
        QVERIFY(!g.computeCapabilityNumber());
        g.computeCapability = "9.0 ";
        QVERIFY(!g.computeCapabilityNumber()); // trailing text is not silently dropped
    }
    void readerTakesColumnsByName()
    {
        const std::string text =
            "memory_gb\tname\tid\tbf16_supported\tcompute_capability\tvendor\tarchitecture\t"
            "memory_vendor_stated\tfp8_supported_how\tbf16_dense_tflops\tfp16_tensor_dense_tflops\t"
            "intra_node_link\tsource_url\tverification\n"
            "24\tX\tX-24\ty\t8.6\tNVIDIA\tAmpere\t24 GB\tn\t70\t70\tPCIe\thttps://x\tA\n";
        const auto read = readGpus(text);
        QVERIFY2(read.ok(), read.ok() ? "" : read.error().c_str());
        QCOMPARE(read.value().size(), std::size_t(1));
        const GpuSpec& g = read.value()[0];
        QCOMPARE(g.id, std::string("X-24"));
        QCOMPARE(g.memoryGb, 24.0);
        QVERIFY(g.bf16);
        QCOMPARE(g.computeCapability, std::string("8.6"));
        QCOMPARE(g.vendor, std::string("NVIDIA"));
        QCOMPARE(g.intraNodeLink, std::string("PCIe"));
    }

    void brokenFilesAreRefused_data()
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

        QTest::newRow("empty file") << QByteArray() << "gpus.tsv: is empty";
        QTest::newRow("header only") << lines[0] + "\n"
                                     << "gpus.tsv: has no row";
        QTest::newRow("no verification column") << withLine(0, header.mid(0, header.size() - 1).join('\t'))
                                                << "gpus.tsv: line 1 (the header): has no column \"verification\"";
        QTest::newRow("column twice") << withCell(0, 1, "id")
                                      << "gpus.tsv: line 1 (the header): has the column \"id\" twice";
        QTest::newRow("short row") << withLine(2, cells(2).mid(0, 5).join('\t'))
                                   << "gpus.tsv: line 3 (" + second + "): has 5 cells, the header "
                + QString::number(header.size());
        QTest::newRow("memory not a number")
            << withCell(2, memory, "lots") << "gpus.tsv: line 3 (" + second + "): memory_gb \"lots\"";
        QTest::newRow("memory with a unit")
            << withCell(2, memory, "32GB") << "gpus.tsv: line 3 (" + second + "): memory_gb \"32GB\" is not a positive";
        QTest::newRow("memory zero") << withCell(2, memory, "0")
                                     << "gpus.tsv: line 3 (" + second + "): memory_gb \"0\"";
        QTest::newRow("bf16 not y or n") << withCell(2, bf16, "yes")
                                         << "gpus.tsv: line 3 (" + second + "): bf16_supported \"yes\" must be y or n";
        QTest::newRow("id twice in another case")
            << withCell(3, 0, cells(2)[0].toLower())
            << "gpus.tsv: line 4 (" + second.toLower() + "): the id is given twice";
        QTest::newRow("empty id") << withCell(2, 0, "") << "gpus.tsv: line 3: has an empty id";
    }

    void brokenFilesAreRefused()
    {
        QFETCH(QByteArray, text);
        QFETCH(QString, says);
        const auto read = readGpus(std::string_view(text.constData(), std::size_t(text.size())));
        QVERIFY(!read.ok());
        const QString error = QString::fromStdString(read.error());
        QVERIFY2(error.startsWith(says), qPrintable(error));
        QVERIFY2(!error.contains('\n'), qPrintable(error));
    }
};

QTEST_APPLESS_MAIN(TestGpuCatalog)
#include "TestGpuCatalog.moc"
