// Every source id the program cites is in resources/knowledge/sources.tsv, and every id there is cited:
//  - in the code: a string literal equal to an id, or a comment "Sources (resources/knowledge/sources.tsv): a, b";
//    a literal one or two edits away from an id is a typo of it;
//  - in the knowledge data: networks.tsv's source_id, gpus.tsv's usable_source, every "source" of deepspeed.json and
//    deepspeed-schema.json;
//  - in what a user sees: every "source"/"sources" of `recommend --format json` for each workflow's scenarios,
//    and of the lint findings on every real config of the corpus.
// And a quote lives once, in sources.tsv: prose takes it with quoteOf / quoteExcerpt, and no string literal in the
// code repeats a quoted span of the catalog.
#include "knowledge/SourceCatalog.h"

#include "Plan.h"
#include "TestAnswers.h"
#include "lint/ConfigLinter.h"

#include <QDirIterator>
#include <QFile>
#include <QRegularExpression>
#include <QTest>

#include <set>
#include <stdexcept>

using namespace dsw;
using dsw::test::answersFrom;
using oj = nlohmann::ordered_json;

namespace {

QString readAll(const QString& path)
{
    QFile f(path);
    if (!f.open(QIODevice::ReadOnly))
        qFatal("cannot read %s", qPrintable(path));
    return QString::fromUtf8(f.readAll());
}

std::set<std::string> catalogIds()
{
    std::set<std::string> ids;
    for (const Source& s : SourceCatalog::instance().all())
        ids.insert(s.id);
    return ids;
}

int editDistance(const std::string& a, const std::string& b)
{
    std::vector<int> prev(b.size() + 1), cur(b.size() + 1);
    for (size_t j = 0; j <= b.size(); ++j)
        prev[j] = static_cast<int>(j);
    for (size_t i = 1; i <= a.size(); ++i) {
        cur[0] = static_cast<int>(i);
        for (size_t j = 1; j <= b.size(); ++j)
            cur[j] = std::min({prev[j] + 1, cur[j - 1] + 1, prev[j - 1] + (a[i - 1] != b[j - 1])});
        std::swap(prev, cur);
    }
    return prev[b.size()];
}

// Every "source" string and "sources" string array anywhere in `j`.
void collectSources(const oj& j, std::set<std::string>& out)
{
    if (j.is_object()) {
        for (auto it = j.begin(); it != j.end(); ++it) {
            if (it.key() == "source" && it.value().is_string())
                out.insert(it.value().get<std::string>());
            else if (it.key() == "sources" && it.value().is_array())
                for (const auto& s : it.value())
                    if (s.is_string())
                        out.insert(s.get<std::string>());
            collectSources(it.value(), out);
        }
    } else if (j.is_array()) {
        for (const auto& e : j)
            collectSources(e, out);
    }
}

QString missingFrom(const std::set<std::string>& cited, const std::set<std::string>& ids)
{
    QStringList missing;
    for (const auto& id : cited)
        if (!id.empty() && !ids.count(id))
            missing << QString::fromStdString(id);
    return missing.join(", ");
}

// The ids the code cites, and what is wrong with its citations (one line each).
struct CodeScan {
    std::set<std::string> cited;
    QStringList problems;
    int files = 0;
};

CodeScan scanCode(const std::set<std::string>& ids)
{
    static const QRegularExpression literal(QStringLiteral("\"([a-z0-9][a-z0-9.+-]{3,})\""));
    static const QRegularExpression comment(
        QStringLiteral("Sources? \\(resources/knowledge/sources\\.tsv\\): ([a-z0-9., -]+(?:\n// [a-z0-9., -]+)*)"));
    CodeScan scan;
    for (const char* folder : {"models", "ui", "app"}) {
        QDirIterator it(QStringLiteral(DSW_SOURCE_DIR "/") + folder, {"*.h", "*.cpp"}, QDir::Files,
                        QDirIterator::Subdirectories);
        while (it.hasNext()) {
            const QString path = it.next();
            const QString text = readAll(path);
            ++scan.files;
            for (auto m = literal.globalMatch(text); m.hasNext();) {
                const std::string s = m.next().captured(1).toStdString();
                if (ids.count(s)) {
                    scan.cited.insert(s);
                    continue;
                }
                for (const auto& id : ids)
                    if (s.size() >= 6 && editDistance(s, id) <= 2)
                        scan.problems << path + ": \"" + QString::fromStdString(s) + "\" looks like a typo of "
                                + QString::fromStdString(id);
            }
            for (auto m = comment.globalMatch(text); m.hasNext();) {
                QString list = m.next().captured(1);
                for (const QString& id : list.remove(QStringLiteral("\n//")).split(',', Qt::SkipEmptyParts)) {
                    const std::string s = QString(id).remove('.').trimmed().toStdString();
                    if (ids.count(s))
                        scan.cited.insert(s);
                    else
                        scan.problems << path + " cites " + QString::fromStdString(s) + ", which is not in sources.tsv";
                }
            }
        }
    }
    return scan;
}

std::set<std::string> dataCitations()
{
    std::set<std::string> cited;
    const QString dir = QStringLiteral(DSW_SOURCE_DIR "/resources/knowledge/");
    // networks.tsv's source_id and gpus.tsv's usable_source (where a capacity is assumed, that cell states the
    // assumption, "ratio of <row>: <why>", and the row it names cites the measurement).
    for (const auto& [file, name] : {std::pair{"networks.tsv", "source_id"}, std::pair{"gpus.tsv", "usable_source"}}) {
        const QStringList rows = readAll(dir + file).split('\n', Qt::SkipEmptyParts);
        const int column = rows.value(0).split('\t').indexOf(name);
        for (int i = 1; column >= 0 && i < rows.size(); ++i)
            if (const QString id = rows[i].split('\t').value(column); !id.startsWith("ratio of "))
                cited.insert(id.toStdString());
    }
    for (const char* file : {"deepspeed.json", "deepspeed-schema.json"})
        collectSources(oj::parse(readAll(dir + file).toStdString()), cited);
    return cited;
}

// The C++ sources of models/, ui/ and app/ with their paths.
QList<QPair<QString, QString>> codeFiles()
{
    QList<QPair<QString, QString>> files;
    for (const char* folder : {"models", "ui", "app"}) {
        QDirIterator it(QStringLiteral(DSW_SOURCE_DIR "/") + folder, {"*.h", "*.cpp"}, QDir::Files,
                        QDirIterator::Subdirectories);
        while (it.hasNext()) {
            const QString path = it.next();
            files.append({path, readAll(path)});
        }
    }
    return files;
}

// The text of each chain of adjacent string literals ("a" "b" is one chain), line comments removed, with the
// escapes \" and \\ undone: the prose as the program writes it.
QStringList literalChains(QString code)
{
    static const QRegularExpression lineComment(QStringLiteral("(^|[^:\"])//[^\n]*"));
    static const QRegularExpression literal(QStringLiteral("\"((?:[^\"\\\\\n]|\\\\.)*)\""));
    code.replace(lineComment, QStringLiteral("\\1"));
    QStringList chains;
    qsizetype last = -1;
    for (auto m = literal.globalMatch(code); m.hasNext();) {
        const auto match = m.next();
        QString text = match.captured(1);
        text.replace(QStringLiteral("\\\""), QStringLiteral("\""))
            .replace(QStringLiteral("\\\\"), QStringLiteral("\\"));
        if (last >= 0 && code.mid(last, match.capturedStart() - last).trimmed().isEmpty())
            chains.last() += text;
        else
            chains << text;
        last = match.capturedEnd();
    }
    return chains;
}

} // namespace

class TestSourceCitations : public QObject {
    Q_OBJECT
private slots:
    void codeCitesOnlyCatalogIds();
    void knowledgeDataCitesOnlyCatalogIds();
    void plansCiteOnlyCatalogIds();
    void lintFindingsCiteOnlyCatalogIds();
    void everyCatalogIdIsCited();
    void quoteOfQuotesTheCatalog();
    void quoteExcerptCutsAtPassages();
    void everyExcerptTheCodeTakesIsInTheCatalog();
    void noQuoteIsCopiedIntoCode();
};

void TestSourceCitations::codeCitesOnlyCatalogIds()
{
    const CodeScan scan = scanCode(catalogIds());
    QVERIFY2(scan.files > 100, qPrintable(QString::number(scan.files))); // the scan found the sources
    QVERIFY(scan.cited.size() > 50);
    QVERIFY2(scan.problems.isEmpty(), qPrintable(scan.problems.join('\n')));
}

void TestSourceCitations::knowledgeDataCitesOnlyCatalogIds()
{
    const std::set<std::string> cited = dataCitations();
    QVERIFY(cited.size() > 10);
    const QString missing = missingFrom(cited, catalogIds());
    QVERIFY2(missing.isEmpty(), qPrintable("cited in resources/knowledge/ but not in sources.tsv: " + missing));
}

void TestSourceCitations::plansCiteOnlyCatalogIds()
{
    // A scenario or more per workflow, so each advisor's checks, estimates and trade-offs are reached.
    const QList<QStringList> scenarios = {
        {},
        {"model.params=70B", "hardware.gpus_per_node=8", "hardware.nodes=4"},
        {"model.params=175B", "hardware.gpus_per_node=8", "hardware.nodes=1", "hardware.cpu_memory_gib=64"},
        {"model.params=13B", "pipeline.stages=4", "model.layers=40"},
        {"hardware.gpu=V100-16GB", "training.precision=auto"},
        {"training.optimizer=onebit-adam", "hardware.nodes=8", "zero.stage=2"},
        {"model.seq_len=16384", "sparse.enabled=true"},
        {"hardware.nvme=nvme", "hardware.nvme_path=/local_nvme", "zero.offload_optimizer=nvme"},
        {"memory.oom_message=torch.OutOfMemoryError: CUDA out of memory. Tried to allocate 2.00 GiB",
         "training.micro_batch_size=32"},
    };
    const std::set<std::string> ids = catalogIds();
    std::set<std::string> cited;
    for (const QStringList& s : scenarios) {
        QStringList valid;
        for (const QString& setting : s) // a setting this build does not know is dropped, not faked
            if (InputRegistry::instance().find(setting.left(setting.indexOf('=')).toStdString()))
                valid << setting;
        collectSources(toJson(makePlan(answersFrom(valid))), cited);
    }
    QVERIFY(cited.size() > 20);
    const QString missing = missingFrom(cited, ids);
    QVERIFY2(missing.isEmpty(), qPrintable("shown to users but not in sources.tsv: " + missing));
}

void TestSourceCitations::lintFindingsCiteOnlyCatalogIds()
{
    const std::set<std::string> ids = catalogIds();
    std::set<std::string> cited;
    QDirIterator it(QStringLiteral(DSW_SOURCE_DIR "/../shared/corpus/ds_configs"), {"*.json", "*.conf"}, QDir::Files);
    int configs = 0;
    while (it.hasNext()) {
        QFile file(it.next());
        QVERIFY(file.open(QIODevice::ReadOnly));
        const auto text = parseConfigText(file.readAll().toStdString());
        if (!text)
            continue;
        ++configs;
        for (const LintFinding& f : lintConfig(text.value(), Answers{}))
            if (f.source)
                cited.insert(*f.source);
    }
    QVERIFY2(configs > 50, qPrintable(QString::number(configs)));
    const QString missing = missingFrom(cited, ids);
    QVERIFY2(missing.isEmpty(), qPrintable("lint findings cite ids not in sources.tsv: " + missing));
}

void TestSourceCitations::everyCatalogIdIsCited()
{
    const CodeScan code = scanCode(catalogIds());
    const std::set<std::string> data = dataCitations();
    QStringList uncited;
    for (const auto& id : catalogIds())
        if (!code.cited.count(id) && !data.count(id))
            uncited << QString::fromStdString(id);
    QVERIFY2(uncited.isEmpty(),
             qPrintable("sources.tsv ids nothing cites (cite or remove them): " + uncited.join(", ")));
}

// Prose that cites a source's words takes them from the catalog, so they are written once.
void TestSourceCitations::quoteOfQuotesTheCatalog()
{
    const Source* s = SourceCatalog::instance().find("ds-onebit-zero");
    QVERIFY(s);
    QCOMPARE(quoteOf("ds-onebit-zero"), "\"" + s->quote + "\"");
    QVERIFY_THROWS_EXCEPTION(std::logic_error, quoteOf("ds-no-such-source"));
}

void TestSourceCitations::quoteExcerptCutsAtPassages()
{
    // ds-offload-stages: "CPU offloading is available with ZeRO stage 1, 2, 3. NVMe offloading is available only
    // with ZeRO stage 3."
    QCOMPARE(quoteExcerpt("ds-offload-stages", "CPU offloading"),
             "\"CPU offloading is available with ZeRO stage 1, 2, 3.\"");
    QCOMPARE(quoteExcerpt("ds-offload-stages", "NVMe offloading"),
             "\"NVMe offloading is available only with ZeRO stage 3.\"");
    QCOMPARE(quoteExcerpt("ds-offload-stages", "NVMe", "ZeRO"), "\"NVMe offloading is available only with ZeRO\"");
    // " … " ends a passage without its ellipsis; "; " too.
    QCOMPARE(quoteExcerpt("ds-sparse-blog", "SA empowers", "respectively"),
             "\"SA empowers 10x and 16x longer sequences comparing with dense for BERT base and large, respectively\"");
    QCOMPARE(quoteExcerpt("ds-sparse-op", "sparse_attn requires"), "\"sparse_attn requires CUDA version 10.1+\"");
    QVERIFY_THROWS_EXCEPTION(std::logic_error, quoteExcerpt("ds-offload-stages", "GPU offloading"));
    QVERIFY_THROWS_EXCEPTION(std::logic_error, quoteExcerpt("ds-offload-stages", "NVMe", "stage 1"));
    QVERIFY_THROWS_EXCEPTION(std::logic_error, quoteExcerpt("ds-no-such-source", "NVMe"));
}

// Every quoteExcerpt("id", "from"[, "through"]) in the code resolves (a call that throws would stop a page).
void TestSourceCitations::everyExcerptTheCodeTakesIsInTheCatalog()
{
    static const QRegularExpression call(QStringLiteral("quoteExcerpt\\(\\s*\"([^\"]+)\"\\s*,\\s*\"((?:[^\"\\\\]|\\\\.)"
                                                        "+)\"\\s*(?:,\\s*\"((?:[^\"\\\\]|\\\\.)+)\"\\s*)?\\)"));
    QStringList broken;
    int calls = 0;
    for (const auto& [path, text] : codeFiles()) {
        if (path.endsWith("SourceCatalog.h") || path.endsWith("SourceCatalog.cpp"))
            continue;
        for (auto m = call.globalMatch(text); m.hasNext();) {
            const auto match = m.next();
            ++calls;
            try {
                quoteExcerpt(match.captured(1).toStdString(), match.captured(2).toStdString(),
                             match.captured(3).toStdString());
            } catch (const std::logic_error& e) {
                broken << path + ": " + e.what();
            }
        }
    }
    QVERIFY2(calls >= 30, qPrintable(QString("only %1 quoteExcerpt calls found: is the pattern stale?").arg(calls)));
    QVERIFY2(broken.isEmpty(), qPrintable(broken.join('\n')));
}

// A span in double quotes inside a string literal, of 25 characters or more with a space (prose, not a key name),
// that the catalog also quotes, is a copy: it must come from quoteOf / quoteExcerpt.
void TestSourceCitations::noQuoteIsCopiedIntoCode()
{
    static const QRegularExpression quoted(QStringLiteral("\"([^\"]{25,}?)\""));
    std::vector<std::pair<std::string, QString>> quotes;
    for (const Source& s : SourceCatalog::instance().all())
        quotes.emplace_back(s.id, QString::fromStdString(s.quote));
    QStringList copies;
    for (const auto& [path, text] : codeFiles())
        for (const QString& chain : literalChains(text))
            for (auto m = quoted.globalMatch(chain); m.hasNext();) {
                const QString span = m.next().captured(1);
                if (!span.contains(' '))
                    continue;
                for (const auto& [id, quote] : quotes)
                    if (quote.contains(span))
                        copies << path + ": \"" + span.left(60) + "…\" copies " + QString::fromStdString(id);
            }
    QVERIFY2(copies.isEmpty(), qPrintable("use quoteOf / quoteExcerpt:\n" + copies.join('\n')));
}

QTEST_APPLESS_MAIN(TestSourceCitations)
#include "TestSourceCitations.moc"
