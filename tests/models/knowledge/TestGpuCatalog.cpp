// The GPU catalog (resources/knowledge/gpus.tsv, read by models/knowledge/GpuCatalog.h): every row is usable by
// the pages that size and choose from it, and the reader holds the table to its columns.
#include "knowledge/GpuCatalog.h"

#include <QTest>

#include <set>

using namespace dsw;

class TestGpuCatalog : public QObject {
    Q_OBJECT
private slots:
    void everyRowIsComplete()
    {
        const auto& gpus = GpuCatalog::instance().all();
        QVERIFY(gpus.size() >= 10);
        std::set<std::string> ids;
        for (const GpuSpec& g : gpus) {
            const QByteArray id = QByteArray::fromStdString(g.id);
            QVERIFY2(ids.insert(g.id).second, "duplicate id " + id);
            QVERIFY2(g.memoryGb > 0 && g.memoryGb < 1024, "memory_gb of " + id);
            QVERIFY2(g.sourceUrl.rfind("https://", 0) == 0, "source_url of " + id);
            QVERIFY2(!g.verification.empty(), "verification of " + id);
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
        QCOMPARE(c.find("a100-80gb"), c.find("A100-80GB"));
        QVERIFY(!c.find("A100"));
        QVERIFY(!c.find(""));
        QCOMPARE(c.ids().size(), c.all().size());
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
        const GpuCatalog c("memory_gb\tid\tbf16_supported\tcompute_capability\n"
                           "24\tX-24\ty\t8.6\n");
        QCOMPARE(c.all().size(), std::size_t(1));
        QCOMPARE(c.all()[0].id, std::string("X-24"));
        QCOMPARE(c.all()[0].memoryGb, 24.0);
        QVERIFY(c.all()[0].bf16);
        QVERIFY_THROWS_EXCEPTION(std::exception, GpuCatalog("id\tmemory_gb\nX\tlots\n"));
    }
};

QTEST_APPLESS_MAIN(TestGpuCatalog)
#include "TestGpuCatalog.moc"
