// The network catalog (resources/knowledge/networks.tsv): every line rate has a source in the catalog and a
// note saying what it covers.
#include "knowledge/NetworkCatalog.h"
#include "knowledge/SourceCatalog.h"

#include <QTest>

#include <set>

using namespace dsw;

class TestNetworkCatalog : public QObject {
    Q_OBJECT
private slots:
    void everyRowIsSourcedAndPlausible()
    {
        const auto& networks = NetworkCatalog::instance().all();
        QVERIFY(networks.size() >= 4);
        std::set<std::string> ids;
        for (const NetworkSpec& n : networks) {
            const QByteArray id = QByteArray::fromStdString(n.id);
            QVERIFY2(ids.insert(n.id).second, "duplicate id " + id);
            QVERIFY2(n.gbps >= 1 && n.gbps <= 3200, "gbps of " + id); // 1 GbE up to 8×400G per node
            QVERIFY2(SourceCatalog::instance().find(n.source), "source_id of " + id + " is not in sources.tsv");
            QVERIFY2(!n.note.empty(), "note of " + id);
        }
    }
    void findIsExact()
    {
        const NetworkCatalog& c = NetworkCatalog::instance();
        const NetworkSpec* hdr = c.find("infiniband-hdr");
        QVERIFY(hdr);
        QCOMPARE(hdr->gbps, 200.0);
        QVERIFY(!c.find("InfiniBand-HDR")); // ids are spelled as hardware.inter_node_network spells them
        QVERIFY(!c.find("infiniband"));
    }
    void readerRefusesANonNumericRate()
    {
        QVERIFY_THROWS_EXCEPTION(std::exception, NetworkCatalog("id\tgbps\tsource_id\tnote\nx\tfast\ts\tn\n"));
        const NetworkCatalog one("id\tgbps\tsource_id\tnote\nx\t25\ts\tone port\n");
        QCOMPARE(one.all().size(), std::size_t(1));
        QCOMPARE(one.all()[0].source, std::string("s"));
    }
};

QTEST_APPLESS_MAIN(TestNetworkCatalog)
#include "TestNetworkCatalog.moc"
