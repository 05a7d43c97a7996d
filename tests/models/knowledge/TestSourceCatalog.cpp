// The source catalog (the compiled sources.tsv, or a text given) makes a row a Source the first time it is asked
// for: whatever order rows are asked in (find before all, all before find), each id gives the same object with the
// file's cells.
#include "knowledge/SourceCatalog.h"

#include "knowledge/KnowledgeFiles.h"
#include "util/TsvTable.h"

#include <QTest>

#include <set>
#include <string>

using namespace dsw;

class TestSourceCatalog : public QObject {
    Q_OBJECT
private slots:
    // Runs first: the process-wide catalog has made no Source yet.
    void findBeforeAllGivesTheRowsOfTheFile()
    {
        const std::vector<std::map<std::string, std::string>> rows = parseTsv(knowledgeFile("sources.tsv"));
        QVERIFY(rows.size() > 100);
        const SourceCatalog& catalog = SourceCatalog::instance();
        // The last row first, then every other one from the bottom up.
        std::vector<const Source*> found;
        for (std::size_t i = rows.size(); i-- > 0;) {
            const Source* s = catalog.find(rows[i].at("id"));
            QVERIFY2(s, rows[i].at("id").c_str());
            found.push_back(s);
        }
        std::set<std::string> seen;
        for (std::size_t i = 0; i < rows.size(); ++i) {
            const Source* s = catalog.find(rows[i].at("id"));
            if (!seen.insert(rows[i].at("id")).second)
                continue; // a repeated id gives its first row
            QCOMPARE(s->id, rows[i].at("id"));
            QCOMPARE(s->title, rows[i].at("title"));
            QCOMPARE(s->url, rows[i].at("url"));
            QCOMPARE(s->quote, rows[i].at("quote"));
            QCOMPARE(s, found[rows.size() - 1 - i]); // the same object on every call
        }
        // all() afterwards: the same objects, in file order.
        const std::vector<Source>& all = catalog.all();
        QCOMPARE(all.size(), rows.size());
        for (std::size_t i = 0; i < rows.size(); ++i) {
            QCOMPARE(all[i].id, rows[i].at("id"));
            QCOMPARE(all[i].quote, rows[i].at("quote"));
        }
        QCOMPARE(catalog.find(rows.front().at("id")), &all.front());
        QCOMPARE(catalog.find("no-such-source"), static_cast<const Source*>(nullptr));
    }
    void allBeforeFindAndItsOwnCopyOfTheText()
    {
        const SourceCatalog* catalog = nullptr;
        {
            std::string text =
                "id\ttitle\turl\tquote\r\n\nb\tB\thttps://b\tquote b\nshort\tS\na\tA\thttps://a\tquote a\t"
                "extra\nb\tB2\thttps://b2\tsecond b\n";
            catalog = new SourceCatalog(text);
            text.assign(text.size(), 'x'); // the catalog must not read the caller's text after construction
        }
        const std::vector<Source>& all = catalog->all();
        QCOMPARE(all.size(), std::size_t(4));           // the blank line is skipped
        QCOMPARE(all[0].quote, std::string("quote b")); // the header's '\r' is dropped (its last name is quote)
        QCOMPARE(all[1].url, std::string(""));          // a short row's missing cells are empty
        QCOMPARE(all[2].quote, std::string("quote a")); // cells past the header are ignored
        QCOMPARE(catalog->find("b"), &all[0]);          // a repeated id keeps its first row
        QCOMPARE(catalog->find("a")->title, std::string("A"));
        delete catalog;
    }
    void quotesAndExcerptsAreTheCatalogs()
    {
        const Source* s = SourceCatalog::instance().find("ds-nvme-endurance");
        QVERIFY(s);
        QCOMPARE(quoteOf("ds-nvme-endurance"), "\"" + s->quote + "\"");
        QVERIFY_THROWS_EXCEPTION(std::logic_error, quoteOf("no-such-source"));
    }
};

QTEST_APPLESS_MAIN(TestSourceCatalog)
#include "TestSourceCatalog.moc"
