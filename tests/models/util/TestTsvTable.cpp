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
        QCOMPARE(rows[0].at("c"), std::string());    // missing cells read as empty, never as the next row's
        QCOMPARE(rows[1].at("c"), std::string("3")); // CRLF line ends do not leak a '\r' into the last cell
    }
    void cellsKeepSpacesAndQuotes()
    {
        const auto rows = parseTsv("id\tquote\nx\t \"a\" … 'b' \n");
        QCOMPARE(rows[0].at("quote"), std::string(" \"a\" … 'b' "));
    }
    void tableReadsCellsInPlaceByColumn()
    {
        const std::string text = "id\tgbps\n\nib\t200\textra\r\neth\n";
        const TsvTable table(text);
        QCOMPARE(table.rowCount(), std::size_t(2));
        QCOMPARE(table.column("gbps"), std::size_t(1));
        QCOMPARE(table.column("nope"), TsvTable::npos);
        QCOMPARE(table.cell(0, "gbps"), std::string_view("200"));
        QCOMPARE(table.cell(0, 2), std::string_view());      // a cell past the header is not read
        QCOMPARE(table.cell(1, "gbps"), std::string_view()); // a short row's missing cell is empty
        QCOMPARE(table.cell(1, "nope"), std::string_view());
        QVERIFY(table.cell(0, "id").data() == text.data() + 9); // a view into the text, not a copy
    }
    void rowsKnowTheirLineAndCellsAsWritten()
    {
        const TsvTable table("\nid\tgbps\n\nib\t200\textra\r\n\neth\n");
        QCOMPARE(table.headerLine(), std::size_t(2)); // blank lines are counted
        QCOMPARE(table.line(0), std::size_t(4));
        QCOMPARE(table.line(1), std::size_t(6));
        QCOMPARE(table.cellCount(0), std::size_t(3)); // a long row, though its third cell is not read
        QCOMPARE(table.cellCount(1), std::size_t(1)); // a short row, though its missing cell reads as empty
    }
    void emptyTextHasNoRows()
    {
        QVERIFY(parseTsv("").empty());
        QVERIFY(parseTsv("only\theader\n").empty());
    }
};

QTEST_APPLESS_MAIN(TestTsvTable)
#include "TestTsvTable.moc"
