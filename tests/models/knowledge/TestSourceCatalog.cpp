// The sources (resources/knowledge/sources.tsv, read by models/knowledge/SourceCatalog.h on first use): the shipped
// file passes the reader's checks and the catalog gives its rows cell for cell; a broken copy is refused with one
// message naming the file and the line (knowledge/KnowledgeTable.h, which gpus.tsv's reader shares).
#include "knowledge/SourceCatalog.h"

#include "knowledge/KnowledgeFiles.h"
#include "util/TsvTable.h"

#include <QTest>

using namespace dsw;

namespace {

QByteArray bytes(std::string_view s) { return QByteArray(s.data(), static_cast<qsizetype>(s.size())); }

} // namespace

class TestSourceCatalog : public QObject {
    Q_OBJECT
private slots:
    void catalogIsTheShippedFile()
    {
        const auto read = readSources(knowledgeFile("sources.tsv"));
        QVERIFY2(read.ok(), read.ok() ? "" : read.error().c_str());
        const TsvTable table(knowledgeFile("sources.tsv"));
        QVERIFY(table.rowCount() > 100); // the real file
        const std::vector<Source>& all = SourceCatalog::instance().all();
        QCOMPARE(all.size(), table.rowCount());
        QCOMPARE(read.value().size(), table.rowCount());
        for (std::size_t r = 0; r < all.size(); ++r) {
            const QByteArray where = bytes(table.cell(r, "id"));
            QVERIFY2(all[r].id == table.cell(r, "id") && all[r].title == table.cell(r, "title"), where);
            QVERIFY2(all[r].url == table.cell(r, "url") && all[r].quote == table.cell(r, "quote"), where);
            QVERIFY2(read.value()[r].quote == all[r].quote, where);
            QCOMPARE(SourceCatalog::instance().find(all[r].id), &all[r]); // the same objects
        }
        QVERIFY(!SourceCatalog::instance().find("no-such-source"));
        QVERIFY(!SourceCatalog::instance().find(""));
        QVERIFY(!SourceCatalog::instance().find(all[0].id + "x"));
    }

    void readerTakesColumnsByName()
    {
        // Columns in any order, CRLF lines, blank lines skipped, empty cells kept, bytes as they are.
        const std::string text = "quote\tid\turl\ttitle\r\n\r\n\"q?\\\"\tb\tu\tT\xc3\xa9\nq2\ta\t\t\n";
        const auto read = readSources(text);
        QVERIFY2(read.ok(), read.ok() ? "" : read.error().c_str());
        const SourceCatalog catalog(read.value());
        QCOMPARE(catalog.all().size(), std::size_t(2));
        QCOMPARE(catalog.all()[0].id, std::string("b"));
        QCOMPARE(catalog.all()[0].title, std::string("T\xc3\xa9"));
        QCOMPARE(catalog.all()[0].quote, std::string("\"q?\\\""));
        QCOMPARE(catalog.find("a")->quote, std::string("q2"));
        QCOMPARE(catalog.find("a")->url, std::string());
    }

    void brokenFilesAreRefused_data()
    {
        QTest::addColumn<QByteArray>("text");
        QTest::addColumn<QString>("says");
        const QByteArray good = bytes(knowledgeFile("sources.tsv"));
        const QList<QByteArray> lines = good.split('\n');
        const auto withLine = [&](qsizetype at, const QByteArray& line) {
            QList<QByteArray> changed = lines;
            changed[at] = line;
            return changed.join('\n');
        };
        const QByteArray second = lines[1];
        const QString id = QString(second.left(second.indexOf('\t')));
        QTest::newRow("empty file") << QByteArray() << "sources.tsv: is empty";
        QTest::newRow("blank lines only") << QByteArray("\n\r\n\n") << "sources.tsv: is empty";
        QTest::newRow("header only") << QByteArray("id\ttitle\turl\tquote\n") << "sources.tsv: has no row";
        QTest::newRow("no quote column") << withLine(0, "id\ttitle\turl")
                                         << "sources.tsv: line 1 (the header): has no column \"quote\"";
        QTest::newRow("column twice") << withLine(0, "id\ttitle\turl\tquote\tid")
                                      << "sources.tsv: line 1 (the header): has the column \"id\" twice";
        QTest::newRow("unknown column") << withLine(0, "id\ttitle\turl\tqoute")
                                        << "sources.tsv: line 1 (the header): unknown column \"qoute\"";
        QTest::newRow("short row") << withLine(2, "ds-short\tTitle\thttps://example.org")
                                   << "sources.tsv: line 3 (ds-short): has 3 cells, the header 4";
        QTest::newRow("long row") << withLine(4, second + "\textra")
                                  << "sources.tsv: line 5 (" + id + "): has 5 cells, the header 4";
        QTest::newRow("trailing tab") << withLine(1, second + "\t") << "sources.tsv: line 2 (" + id + "): has 5 cells";
        QTest::newRow("empty id") << withLine(3, "\tTitle\thttps://example.org\tquote")
                                  << "sources.tsv: line 4: has an empty id";
        QTest::newRow("id twice") << withLine(3, second) << "sources.tsv: line 4 (" + id + "): the id is given twice";
        QTest::newRow("line numbers count blank lines")
            << QByteArray("id\ttitle\turl\tquote\n\na\tA\thttps://a\tq\r\n\nb\tB\n")
            << "sources.tsv: line 5 (b): has 2 cells";
    }

    void brokenFilesAreRefused()
    {
        QFETCH(QByteArray, text);
        QFETCH(QString, says);
        const auto read = readSources(std::string_view(text.constData(), std::size_t(text.size())));
        QVERIFY(!read.ok());
        const QString error = QString::fromStdString(read.error());
        QVERIFY2(error.startsWith(says), qPrintable(error));
        QVERIFY2(!error.contains('\n'), qPrintable(error));
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
