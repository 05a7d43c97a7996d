// sources.tsv is compiled at build time (tools/knowledge-table-compiler): the compiled rows must equal, row by row
// and cell by cell, what util/TsvTable reads from the same file; the id order must find every id's first row; a
// lookup must allocate nothing; and a malformed file must stop the compiler in one line naming the file and the
// line, before any source is written.
#include "knowledge/KnowledgeFiles.h"
#include "knowledge/SourceCatalog.h"
#include "util/TsvTable.h"

#include "AllocationCounter.h"
#include "CompilerRun.h"

#include <QFile>
#include <QProcess>
#include <QTemporaryDir>
#include <QTest>

using namespace dsw;
using dsw::test::CompilerRun;
using dsw::test::runCompiler;
using dsw::test::verifyRefused;

namespace {

QByteArray bytes(std::string_view s) { return QByteArray(s.data(), static_cast<qsizetype>(s.size())); }

// The compiler on `text` written to DIR/sources.tsv, writing DIR/CompiledSourceTable.cpp (read into `source`).
CompilerRun compile(const QTemporaryDir& dir, const QByteArray& text, QByteArray* source = nullptr)
{
    const QString input = dir.filePath("sources.tsv"), output = dir.filePath("CompiledSourceTable.cpp");
    const CompilerRun run = runCompiler(DSW_KNOWLEDGE_TABLE_COMPILER, {"sources", input, output}, input, text);
    QFile out(output);
    if (source && out.open(QIODevice::ReadOnly))
        *source = out.readAll();
    return run;
}

} // namespace

class TestCompiledSourceTable : public QObject {
    Q_OBJECT
private slots:
    void rowsEqualTsvTable()
    {
        const TsvTable table(knowledgeFile("sources.tsv"));
        const std::span<const SourceRow> rows = compiledSourceRows();
        QVERIFY(table.rowCount() > 100); // the real file
        QCOMPARE(rows.size(), table.rowCount());
        for (std::size_t r = 0; r < rows.size(); ++r) {
            const QByteArray where = QByteArray::number(qulonglong(r)) + " " + bytes(rows[r].id);
            QVERIFY2(rows[r].id == table.cell(r, "id"), where);
            QVERIFY2(rows[r].title == table.cell(r, "title"), where);
            QVERIFY2(rows[r].url == table.cell(r, "url"), where);
            QVERIFY2(rows[r].quote == table.cell(r, "quote"), where);
        }
    }

    void idOrderFindsEveryFirstRow()
    {
        const std::span<const SourceRow> rows = compiledSourceRows();
        const std::span<const std::uint32_t> byId = compiledSourceIdOrder();
        for (std::size_t i = 1; i < byId.size(); ++i)
            QVERIFY2(rows[byId[i - 1]].id < rows[byId[i]].id, bytes(rows[byId[i]].id)); // sorted, each id once
        std::size_t distinct = 0;
        for (std::size_t r = 0; r < rows.size(); ++r) {
            std::size_t first = 0;
            while (rows[first].id != rows[r].id)
                ++first;
            distinct += first == r;
            QVERIFY2(SourceCatalog::instance().findRow(rows[r].id) == &rows[first], bytes(rows[r].id));
        }
        QCOMPARE(byId.size(), distinct);
        QVERIFY(!SourceCatalog::instance().findRow("no-such-source"));
        QVERIFY(!SourceCatalog::instance().findRow(""));
        QVERIFY(!SourceCatalog::instance().findRow(std::string(rows[0].id) + "x"));
        QVERIFY(!SourceCatalog::instance().findRow(rows[0].id.substr(0, rows[0].id.size() - 1)));
    }

    void compiledEqualsTheTextCatalog()
    {
        // A catalog read at run time from the same text answers every id, and all(), exactly as the compiled one.
        const SourceCatalog text(knowledgeFile("sources.tsv"));
        const std::vector<Source>& all = text.all();
        const std::vector<Source>& compiled = SourceCatalog::instance().all();
        QCOMPARE(compiled.size(), all.size());
        for (std::size_t r = 0; r < all.size(); ++r) {
            QCOMPARE(compiled[r].id, all[r].id);
            QCOMPARE(compiled[r].title, all[r].title);
            QCOMPARE(compiled[r].url, all[r].url);
            QCOMPARE(compiled[r].quote, all[r].quote);
            const Source* a = text.find(all[r].id);
            const Source* b = SourceCatalog::instance().find(all[r].id);
            QVERIFY(a && b);
            QCOMPARE(a - all.data(), b - compiled.data()); // the same (first) row
        }
    }

    void lookupsAllocateNothing()
    {
        const long before = dsw::test::allocations.load();
        const SourceRow* nvme = SourceCatalog::instance().findRow("ds-nvme-endurance");
        const SourceRow* none = SourceCatalog::instance().findRow("no-such-source");
        const long after = dsw::test::allocations.load();
        QVERIFY(nvme && !none);
        QCOMPARE(after - before, 0L);
        const std::string quote = quoteOf("ds-nvme-endurance"); // the quote in double quotes
        QCOMPARE(quote.size(), nvme->quote.size() + 2);
        QVERIFY(quote.front() == '"' && quote.back() == '"'
                && std::string_view(quote).substr(1, nvme->quote.size()) == nvme->quote);
        QVERIFY(dsw::test::allocations.load() > after); // the counter does see the quote's string
    }

    void brokenFilesFailTheCompiler_data()
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
        const QByteArray id = second.left(second.indexOf('\t'));
        QTest::newRow("empty file") << QByteArray() << "is empty";
        QTest::newRow("blank lines only") << QByteArray("\n\r\n\n") << "is empty";
        QTest::newRow("header only") << QByteArray("id\ttitle\turl\tquote\n") << "has no row";
        QTest::newRow("no quote column") << withLine(0, "id\ttitle\turl")
                                         << "line 1 (the header): has no column \"quote\"";
        QTest::newRow("column twice") << withLine(0, "id\ttitle\turl\tquote\tid")
                                      << "line 1 (the header): has the column \"id\" twice";
        QTest::newRow("unknown column") << withLine(0, "id\ttitle\turl\tqoute")
                                        << "line 1 (the header): unknown column \"qoute\"";
        QTest::newRow("short row") << withLine(2, "ds-short\tTitle\thttps://example.org")
                                   << "line 3 (ds-short): has 3 cells, the header 4";
        QTest::newRow("long row") << withLine(4, second + "\textra")
                                  << "line 5 (" + QString(id) + "): has 5 cells, the header 4";
        QTest::newRow("trailing tab") << withLine(1, second + "\t") << "line 2 (" + QString(id) + "): has 5 cells";
        QTest::newRow("empty id") << withLine(3, "\tTitle\thttps://example.org\tquote") << "line 4: has an empty id";
        QTest::newRow("line numbers count blank lines")
            << QByteArray("id\ttitle\turl\tquote\n\na\tA\thttps://a\tq\r\n\nb\tB\n") << "line 5 (b): has 2 cells";
    }

    void brokenFilesFailTheCompiler()
    {
        QFETCH(QByteArray, text);
        QFETCH(QString, says);
        QTemporaryDir dir;
        QVERIFY(dir.isValid());
        verifyRefused(compile(dir, text), dir.filePath("sources.tsv"), dir.filePath("CompiledSourceTable.cpp"), says);
    }

    void missingFileFailsTheCompiler()
    {
        QTemporaryDir dir;
        const QString input = dir.filePath("no-such-sources.tsv");
        QProcess compiler;
        compiler.start(DSW_KNOWLEDGE_TABLE_COMPILER, {"sources", input, dir.filePath("out.cpp")});
        QVERIFY(compiler.waitForFinished(60000));
        QCOMPARE(compiler.exitCode(), 1);
        QVERIFY(QString::fromUtf8(compiler.readAllStandardError()).contains(input + ": cannot be read"));
        QVERIFY(!QFile::exists(dir.filePath("out.cpp")));
        compiler.start(DSW_KNOWLEDGE_TABLE_COMPILER, {"tables", input, dir.filePath("out.cpp")}); // no such kind
        QVERIFY(compiler.waitForFinished(60000));
        QCOMPARE(compiler.exitCode(), 2);
        QVERIFY(QString::fromUtf8(compiler.readAllStandardError()).startsWith("usage: "));
    }

    void goodFilesCompile()
    {
        // The file the build compiles, and one with CRLF lines, blank lines, a repeated id and bytes a C++ string
        // must escape: exit 0, constant tables, the repeated id ordered by its first row.
        QTemporaryDir dir;
        QByteArray source;
        CompilerRun run = compile(dir, bytes(knowledgeFile("sources.tsv")), &source);
        QVERIFY2(run.exitCode == 0, qPrintable(run.error));
        QVERIFY(source.contains("constexpr SourceRow rows[]"));
        QVERIFY(source.contains("constexpr std::uint32_t byId[]"));
        QVERIFY(!source.contains("TsvTable") && !source.contains("knowledgeFile"));

        run =
            compile(dir, "quote\tid\turl\ttitle\r\n\r\n\"q?\\\"\tb\tu\tT\xc3\xa9\nq2\ta\t\t\nq3\tb\tu3\tT3\n", &source);
        QVERIFY2(run.exitCode == 0, qPrintable(run.error));
        QVERIFY2(source.contains("{sv(\"b\", 1), sv(\"T\\303\\251\", 3), sv(\"u\", 1), sv(\"\\\"q\\?\\\\\\\"\", 5)}"),
                 source.constData());
        QVERIFY2(source.contains("{sv(\"a\", 1), sv(\"\", 0), sv(\"\", 0), sv(\"q2\", 2)}"), source.constData());
        QVERIFY2(source.contains("byId[] = {\n    1, 0,\n};"), source.constData()); // a, then b's first row
    }
};

QTEST_APPLESS_MAIN(TestCompiledSourceTable)
#include "TestCompiledSourceTable.moc"
