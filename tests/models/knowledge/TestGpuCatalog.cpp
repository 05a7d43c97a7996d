// The GPU catalog (resources/knowledge/gpus.tsv, read by models/knowledge/GpuCatalog.h on first use): the shipped
// file passes the reader's checks and every row is usable by the pages that size and choose from it; a broken copy
// is refused with one message naming the file and the line.
#include "knowledge/GpuCatalog.h"

#include "knowledge/KnowledgeFiles.h"
#include "knowledge/SourceCatalog.h"
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
            QVERIFY2(g.hostLink == table.cell(r, "host_link"), id);
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
            "intra_node_link\tsource_url\tverification\thost_link\tusable_source\tusable_basis\tusable_gib\n"
            "24\tX\tX-24\ty\t8.6\tNVIDIA\tAmpere (GA102)\t24 GB\tn\t70\t70\tPCIe\thttps://x\tA\t"
            "PCIe Gen4 x16\ts\tnvml\t22.5\n"
            "48\tY\tY-48\ty\t8.6\tNVIDIA\tAmpere (GA102)\t48 GB\tn\t70\t70\tPCIe\thttps://y\tB\t"
            "NVLink-C2C\tratio of X-24: the same die\tassumed\t\n";
        const auto read = readGpus(text);
        QVERIFY2(read.ok(), read.ok() ? "" : read.error().c_str());
        QCOMPARE(read.value().size(), std::size_t(2));
        const GpuSpec& g = read.value()[0];
        QCOMPARE(g.id, std::string("X-24"));
        QCOMPARE(g.memoryGb, 24.0);
        QVERIFY(g.bf16);
        QCOMPARE(g.computeCapability, std::string("8.6"));
        QCOMPARE(g.vendor, std::string("NVIDIA"));
        QCOMPARE(g.intraNodeLink, std::string("PCIe"));
        QCOMPARE(g.hostLink, std::string("PCIe Gen4 x16"));
        QCOMPARE(g.usableGib, 22.5);
        QVERIFY(g.usableBasis == CapacityBasis::Nvml);
        QCOMPARE(g.usableSource, std::string("s"));
        QCOMPARE(g.usableNote(), std::string("nvidia-smi's total; PyTorch reports slightly less"));
        // The second row takes the ratio of the row its usable_source names: 48 × 22.5 / 24.
        const GpuSpec& y = read.value()[1];
        QCOMPARE(y.hostLink, std::string("NVLink-C2C"));
        QCOMPARE(y.usableGib, 45.0);
        QVERIFY(y.usableBasis == CapacityBasis::Assumed);
        QCOMPARE(y.usableRelative, std::string("X-24"));
        QCOMPARE(y.usableAssumption, std::string("the same die"));
        QCOMPARE(y.usableSource, std::string("s")); // the measurement behind the ratio
        QCOMPARE(y.usableNote(),
                 std::string("the wizard's assumption: 48 GB × 0.938, the ratio measured on X-24 (the same die)"));
    }

    // Every row has a usable capacity below its GB taken as GiB (a driver never gives more than the card has) and
    // above 0.9 of it (the lowest measured ratio is the T4's 14.75 / 16 = 0.92, ECC on GDDR6), with a source in
    // sources.tsv; a measured row keeps its cell, an assumed one takes the ratio of the measured row it names, whose
    // memory is of the same kind (HBM or GDDR, where both vendors' wordings say which).
    void everyRowHasAUsableCapacity()
    {
        const GpuCatalog& c = GpuCatalog::instance();
        const TsvTable table(knowledgeFile("gpus.tsv"));
        const auto memoryKind = [&](std::size_t row) -> std::string {
            const std::string_view stated = table.cell(row, "memory_vendor_stated");
            return stated.find("HBM") != std::string_view::npos ? "HBM"
                : stated.find("GDDR") != std::string_view::npos ? "GDDR"
                                                                : "";
        };
        const auto rowOf = [&](const GpuSpec* g) { return std::size_t(g - c.all().data()); };
        int measured = 0;
        for (std::size_t r = 0; r < c.all().size(); ++r) {
            const GpuSpec& g = c.all()[r];
            const QByteArray id = QByteArray::fromStdString(g.id);
            QVERIFY2(g.usableGib > 0.9 * g.memoryGb && g.usableGib <= g.memoryGb, id);
            QVERIFY2(SourceCatalog::instance().find(g.usableSource),
                     id + ": " + QByteArray::fromStdString(g.usableSource));
            const std::string_view cell = table.cell(r, "usable_gib");
            if (g.usableBasis == CapacityBasis::Assumed) {
                QVERIFY2(cell.empty() && table.cell(r, "usable_basis") == "assumed", id);
                QVERIFY2(!g.usableAssumption.empty(), id);
                const GpuSpec* relative = c.find(g.usableRelative);
                QVERIFY2(relative && relative->usableBasis != CapacityBasis::Assumed, id);
                QCOMPARE(g.usableGib, g.memoryGb * relative->usableGib / relative->memoryGb);
                QCOMPARE(g.usableSource, relative->usableSource);
                const std::string kind = memoryKind(r), relativeKind = memoryKind(rowOf(relative));
                QVERIFY2(kind.empty() || relativeKind.empty() || kind == relativeKind, id);
                QVERIFY2(QByteArray::fromStdString(g.usableNote()).contains("assumption"), id);
            } else {
                ++measured;
                QCOMPARE(g.usableGib, std::stod(std::string(cell)));
                QCOMPARE(g.usableSource, std::string(table.cell(r, "usable_source")));
                QVERIFY2(g.usableRelative.empty(), id);
            }
        }
        QCOMPARE(measured, 12); // calibration.md §5: nine cards through PyTorch, three through NVML
    }

    // calibration.md §5 (C98–C107), as the catalog carries it, and the rows that borrow a measured ratio.
    void measuredCapacities_data()
    {
        QTest::addColumn<QString>("gpu");
        QTest::addColumn<double>("gib");
        QTest::addColumn<int>("basis");
        QTest::addColumn<QString>("relative");
        const int torch = int(CapacityBasis::Torch), nvml = int(CapacityBasis::Nvml),
                  assumed = int(CapacityBasis::Assumed);
        // PyTorch's total capacity: the "80 GB" cards give about 79.1–79.3 GiB, not 80.
        QTest::newRow("A100-80GB: the lower of 79.25 and 79.35") << "A100-80GB" << 79.25 << torch << "";
        QTest::newRow("H100-80GB: the lower of 79.11 and 79.22") << "H100-80GB" << 79.11 << torch << "";
        QTest::newRow("H200") << "H200" << 139.81 << torch << "";
        QTest::newRow("B200") << "B200" << 178.36 << torch << "";
        QTest::newRow("V100-32GB") << "V100-32GB" << 31.72 << torch << "";
        QTest::newRow("A100-40GB") << "A100-40GB" << 39.50 << torch << "";
        QTest::newRow("T4") << "T4" << 14.75 << torch << "";
        QTest::newRow("RTX-4090") << "RTX-4090" << 23.68 << torch << "";
        QTest::newRow("MI300X") << "MI300X" << 191.69 << torch << "";
        // NVML's MiB ÷ 1024: 46068, 23028, 23034 MiB.
        QTest::newRow("L40S") << "L40S" << 44.99 << nvml << "";
        QTest::newRow("A10") << "A10" << 22.49 << nvml << "";
        QTest::newRow("L4") << "L4" << 22.49 << nvml << "";
        // Assumed: the ratio of a measured card with the same memory and ECC default.
        QTest::newRow("V100-16GB: GV100") << "V100-16GB" << 16 * 31.72 / 32 << assumed << "V100-32GB";
        QTest::newRow("A100-PCIE-80GB: GA100, 80 GB") << "A100-PCIE-80GB" << 79.25 << assumed << "A100-80GB";
        QTest::newRow("A100-PCIE-40GB: GA100, 40 GB") << "A100-PCIE-40GB" << 39.50 << assumed << "A100-40GB";
        QTest::newRow("A10G: the A10's GA102 with ECC") << "A10G" << 22.49 << assumed << "A10";
        QTest::newRow("RTX-3090: GDDR6X without ECC, as the 4090") << "RTX-3090" << 23.68 << assumed << "RTX-4090";
        QTest::newRow("RTX-6000-ADA: AD102 with ECC, 48 GB") << "RTX-6000-ADA" << 44.99 << assumed << "L40S";
        QTest::newRow("H200-NVL: GH100, 141 GB") << "H200-NVL" << 139.81 << assumed << "H200";
        QTest::newRow("GH200: GH100 with HBM3") << "GH200" << 96 * 79.11 / 80 << assumed << "H100-80GB";
        QTest::newRow("GB200: GB100") << "GB200" << 186 * 178.36 / 180 << assumed << "B200";
        QTest::newRow("MI325X: CDNA 3") << "MI325X" << 256 * 191.69 / 192 << assumed << "MI300X";
        QTest::newRow("GAUDI2: no Gaudi measured, HBM2E") << "GAUDI2" << 96 * 79.25 / 80 << assumed << "A100-80GB";
    }
    void measuredCapacities()
    {
        QFETCH(QString, gpu);
        QFETCH(double, gib);
        QFETCH(int, basis);
        QFETCH(QString, relative);
        const GpuSpec* g = GpuCatalog::instance().find(gpu.toStdString());
        QVERIFY(g);
        QCOMPARE(g->usableGib, gib);
        QCOMPARE(int(g->usableBasis), basis);
        QCOMPARE(QString::fromStdString(g->usableRelative), relative);
    }

    void hostLinks_data()
    {
        QTest::addColumn<QString>("gpu");
        QTest::addColumn<QString>("link");
        QTest::newRow("V100-32GB") << "V100-32GB"
                                   << "PCIe Gen3 x16";
        QTest::newRow("T4") << "T4"
                            << "PCIe Gen3 x16";
        QTest::newRow("A100-80GB") << "A100-80GB"
                                   << "PCIe Gen4 x16";
        QTest::newRow("H100-80GB") << "H100-80GB"
                                   << "PCIe Gen5 x16";
        QTest::newRow("GH200: the Grace CPU over NVLink-C2C, not PCIe") << "GH200"
                                                                        << "NVLink-C2C";
        QTest::newRow("GB200") << "GB200"
                               << "NVLink-C2C";
        QTest::newRow("MI300X") << "MI300X"
                                << "PCIe Gen5 x16";
    }
    void hostLinks()
    {
        QFETCH(QString, gpu);
        QFETCH(QString, link);
        QCOMPARE(QString::fromStdString(GpuCatalog::instance().find(gpu.toStdString())->hostLink), link);
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
        const qsizetype usable = header.indexOf("usable_gib"), basis = header.indexOf("usable_basis"),
                        usableSource = header.indexOf("usable_source"), hostLink = header.indexOf("host_link");
        const QString second = QString(cells(2)[0]);
        QVERIFY(memory > 0 && bf16 > 0 && usable > 0 && basis > 0 && usableSource > 0 && hostLink > 0);
        // Line 3 (the second row, V100-32GB) is measured; line 2 (V100-16GB) borrows its ratio.
        QVERIFY(!cells(2)[usable].isEmpty() && cells(1)[basis] == "assumed");
        QVERIFY(cells(1)[usableSource].startsWith("ratio of " + cells(2)[0] + ": "));
        const auto withCells = [&](qsizetype at, const QList<QPair<qsizetype, QByteArray>>& values) {
            QList<QByteArray> row = cells(at);
            for (const auto& [column, value] : values)
                row[column] = value;
            return withLine(at, row.join('\t'));
        };

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
        QTest::newRow("no host_link column")
            << withCell(0, hostLink, "pcie") << "gpus.tsv: line 1 (the header): unknown column \"pcie\"";
        QTest::newRow("host link not known")
            << withCell(2, hostLink, "PCIe 4.0")
            << "gpus.tsv: line 3 (" + second + "): host_link \"PCIe 4.0\" is not one of";
        QTest::newRow("host link empty") << withCell(2, hostLink, "")
                                         << "gpus.tsv: line 3 (" + second + "): host_link \"\" is not one of";
        QTest::newRow("usable not a number")
            << withCell(2, usable, "31.7 GiB") << "gpus.tsv: line 3 (" + second + "): usable_gib \"31.7 GiB\" is not a";
        QTest::newRow("usable zero") << withCell(2, usable, "0")
                                     << "gpus.tsv: line 3 (" + second + "): usable_gib \"0\"";
        // 32 GB × 1.075 = 34.4: a GiB figure above the card's GB plus the GB/GiB difference is a typo.
        QTest::newRow("usable above memory_gb × 1.075")
            << withCell(2, usable, "34.5")
            << "gpus.tsv: line 3 (" + second + "): usable_gib \"34.5\" is not a positive";
        QTest::newRow("usable without its source")
            << withCell(2, usableSource, "") << "gpus.tsv: line 3 (" + second + "): usable_gib needs its usable_source";
        QTest::newRow("usable basis unknown")
            << withCell(2, basis, "smi")
            << "gpus.tsv: line 3 (" + second + "): usable_basis \"smi\" must be torch, nvml or assumed";
        QTest::newRow("usable without its basis")
            << withCell(2, basis, "") << "gpus.tsv: line 3 (" + second + "): usable_basis \"\" must be";
        QTest::newRow("measured basis without usable")
            << withCells(1, {{basis, "torch"}}) << "gpus.tsv: line 2 (V100-16GB): usable_gib \"\" is not a positive";
        QTest::newRow("assumed with a number")
            << withCells(1, {{usable, "15.8"}})
            << "gpus.tsv: line 2 (V100-16GB): usable_gib \"15.8\" with usable_basis assumed";
        QTest::newRow("assumed without its relative")
            << withCells(1, {{usableSource, "the same die"}})
            << "gpus.tsv: line 2 (V100-16GB): usable_source \"the same die\" must read \"ratio of";
        QTest::newRow("assumed without its reason")
            << withCells(1, {{usableSource, "ratio of " + cells(2)[0]}})
            << "gpus.tsv: line 2 (V100-16GB): usable_source \"ratio of " + second + "\" must read";
        QTest::newRow("assumed from no row")
            << withCells(1, {{usableSource, "ratio of V100-64GB: bigger"}})
            << "gpus.tsv: line 2 (V100-16GB): usable_source names \"V100-64GB\", which is not a row with a measured";
        // V100-PCIE-16GB (line 4) is assumed too: a ratio is taken from a measurement, never from another assumption.
        QTest::newRow("assumed from an assumed row")
            << withCells(1, {{usableSource, "ratio of " + cells(3)[0] + ": same"}})
            << "gpus.tsv: line 2 (V100-16GB): usable_source names \"" + QString(cells(3)[0]) + "\"";
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
