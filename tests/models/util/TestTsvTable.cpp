// The knowledge tables' reader (models/util/TsvTable.h): rows keyed by the header's column names.
#include "util/TsvTable.h"

#include <QTest>

using namespace dsw;

class TestTsvTable : public QObject {
    Q_OBJECT
private slots:
    void rowsAreKeyedByTheHeader()
    {
        const auto rows = parseTsv("id\tgbps\tnote\nib\t200\tone port\neth\t100\t\n");
        QCOMPARE(rows.size(), std::size_t(2));
        QCOMPARE(rows[0].at("id"), std::string("ib"));
        QCOMPARE(rows[0].at("note"), std::string("one port"));
        QCOMPARE(rows[1].at("gbps"), std::string("100"));
        QCOMPARE(rows[1].at("note"), std::string()); // a trailing tab is an empty last cell
    }
    void shortRowsGetEmptyCellsAndBlankLinesAreSkipped()
    {
        const auto rows = parseTsv("a\tb\tc\r\n\r\n1\r\n\n2\t\t3\r\n");
        QCOMPARE(rows.size(), std::size_t(2));
        QCOMPARE(rows[0].at("a"), std::string("1"));
        QCOMPARE(rows[0].at("b"), std::string());
        QCOMPARE(rows[0].at("c"), std::string()); // missing cells read as empty, never as the next row's
        QCOMPARE(rows[1].at("c"), std::string("3")); // CRLF line ends do not leak a '\r' into the last cell
    }
    void cellsKeepSpacesAndQuotes()
    {
        const auto rows = parseTsv("id\tquote\nx\t \"a\" … 'b' \n");
        QCOMPARE(rows[0].at("quote"), std::string(" \"a\" … 'b' "));
    }
    void emptyTextHasNoRows()
    {
        QVERIFY(parseTsv("").empty());
        QVERIFY(parseTsv("only\theader\n").empty());
    }
};

QTEST_APPLESS_MAIN(TestTsvTable)
#include "TestTsvTable.moc"
