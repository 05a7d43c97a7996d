// DeepSpeedSchema::instance() is compiled from resources/knowledge/deepspeed-schema.json at build time
// (tools/schema-compiler): it must equal what fromJson reads from the same file in every field, and a
// broken schema file must stop the compiler, naming the file, before any source is written.
#include "knowledge/DeepSpeedSchema.h"
#include "knowledge/KnowledgeFiles.h"

#include "CompilerRun.h"

#include <QFile>
#include <QProcess>
#include <QTemporaryDir>
#include <QTest>

using namespace dsw;
using dsw::test::runCompiler;
using dsw::test::verifyRefused;
using json = nlohmann::json;

namespace {

// Equal values of equal kinds: operator== of nlohmann::json calls 1 and 1.0 equal, a default must not
// change from an integer to a float (or signed to unsigned) on the way through the compiler.
bool sameTypedJson(const json& a, const json& b)
{
    if (a.type() != b.type() || a.size() != b.size())
        return false;
    if (a.is_array()) {
        for (std::size_t i = 0; i < a.size(); ++i)
            if (!sameTypedJson(a[i], b[i]))
                return false;
        return true;
    }
    if (a.is_object()) {
        for (const auto& [key, value] : a.items())
            if (!b.contains(key) || !sameTypedJson(value, b.at(key)))
                return false;
        return true;
    }
    return a == b;
}

std::string embeddedSchemaText() { return std::string(knowledgeFile("deepspeed-schema.json")); }

} // namespace

class TestCompiledSchema : public QObject {
    Q_OBJECT
private slots:
    void compiledEqualsParsed()
    {
        const auto parsed = DeepSpeedSchema::fromJson(embeddedSchemaText());
        QVERIFY2(parsed.ok(), parsed.ok() ? "" : parsed.error().c_str());
        const DeepSpeedSchema::Contents& read = parsed.value().contents();
        const DeepSpeedSchema::Contents& compiled = DeepSpeedSchema::instance().contents();

        QCOMPARE(QString::fromStdString(compiled.version), QString::fromStdString(read.version));
        QVERIFY(read.blocks.size() >= 40); // the real file, not two empty schemas
        QCOMPARE(compiled.blocks.size(), read.blocks.size());
        for (std::size_t i = 0; i < read.blocks.size(); ++i) {
            const SchemaBlock& a = compiled.blocks[i];
            const SchemaBlock& b = read.blocks[i];
            const QByteArray where = QByteArray::fromStdString(b.path.empty() ? "(top level)" : b.path);
            QCOMPARE(QString::fromStdString(a.path), QString::fromStdString(b.path));
            QCOMPARE(a.keys.size(), b.keys.size());
            for (std::size_t k = 0; k < b.keys.size(); ++k) {
                const SchemaKey& ka = a.keys[k];
                const SchemaKey& kb = b.keys[k];
                const QByteArray key = where + "." + QByteArray::fromStdString(kb.name);
                QVERIFY2(ka == kb, key.constData());
                QVERIFY2(ka.defaultValue.has_value() == kb.defaultValue.has_value(), key.constData());
                if (kb.defaultValue)
                    QVERIFY2(sameTypedJson(*ka.defaultValue, *kb.defaultValue), key.constData());
                if (kb.deprecated)
                    QVERIFY2(sameTypedJson(ka.deprecated->replacementValue, kb.deprecated->replacementValue),
                             key.constData());
                for (std::size_t c = 0; c < kb.changes.size(); ++c) {
                    QVERIFY2(sameTypedJson(ka.changes[c].oldValue, kb.changes[c].oldValue), key.constData());
                    QVERIFY2(sameTypedJson(ka.changes[c].newValue, kb.changes[c].newValue), key.constData());
                }
            }
            QVERIFY2(a == b, where.constData()); // path, reader, strictness, source, modes too
        }
        QVERIFY(!read.relocations.empty());
        QVERIFY(compiled.relocations == read.relocations);
        QVERIFY(!read.autoPointers.empty());
        QVERIFY(compiled.autoPointers == read.autoPointers);
        QCOMPARE(QString::fromStdString(compiled.autoSource), QString::fromStdString(read.autoSource));
        QVERIFY(compiled.accelerateAutoPointers == read.accelerateAutoPointers);
        QCOMPARE(QString::fromStdString(compiled.accelerateAutoSource),
                 QString::fromStdString(read.accelerateAutoSource));
        QVERIFY(DeepSpeedSchema::instance() == parsed.value()); // every field, by the defaulted operator==
    }

    void equalityNoticesOneChangedField()
    {
        // The comparison above proves something only if one changed field makes the schemas differ.
        const DeepSpeedSchema& compiled = DeepSpeedSchema::instance();
        DeepSpeedSchema::Contents changed = compiled.contents();
        QVERIFY(DeepSpeedSchema(changed) == compiled);
        changed.blocks.front().keys.back().note += " ";
        QVERIFY(!(DeepSpeedSchema(changed) == compiled));
        changed = compiled.contents();
        changed.accelerateAutoSource += "x";
        QVERIFY(!(DeepSpeedSchema(changed) == compiled));
    }

    void brokenSchemaFailsTheCompiler_data()
    {
        QTest::addColumn<QByteArray>("text");
        QTest::addColumn<QString>("says");
        const std::string good = embeddedSchemaText();
        QTest::newRow("not JSON") << QByteArray::fromStdString(good.substr(0, good.size() / 2)) << "parse error";
        QTest::newRow("empty file") << QByteArray() << "parse error";

        json unknownType = json::parse(good);
        unknownType["blocks"][0]["keys"]["train_batch_size"]["type"] = "integer";
        QTest::newRow("unknown type") << QByteArray::fromStdString(unknownType.dump())
                                      << "key train_batch_size: unknown type \"integer\"";

        json strictness = json::parse(good);
        strictness["blocks"][1]["strictness"] = "loose";
        QTest::newRow("unknown strictness")
            << QByteArray::fromStdString(strictness.dump()) << "unknown strictness \"loose\"";

        json undescribed = json::parse(good);
        undescribed["blocks"][0]["keys"]["train_batch_size"]["block"] = "no_such_block";
        QTest::newRow("undescribed block")
            << QByteArray::fromStdString(undescribed.dump()) << "opens the undescribed block \"no_such_block\"";

        json noTop = json::parse(good);
        noTop["blocks"].erase(0);
        for (json& b : noTop["blocks"]) // keep only the "no top-level block" fault
            for (auto& [name, key] : b["keys"].items())
                key.erase("block");
        QTest::newRow("no top-level block") << QByteArray::fromStdString(noTop.dump()) << "no top-level block";
    }

    void brokenSchemaFailsTheCompiler()
    {
        QFETCH(QByteArray, text);
        QFETCH(QString, says);
        QTemporaryDir dir;
        QVERIFY(dir.isValid());
        const QString input = dir.filePath("broken-schema.json");
        const QString output = dir.filePath("CompiledDeepSpeedSchema.cpp");
        verifyRefused(runCompiler(DSW_SCHEMA_COMPILER, {input, output}, input, text), input, output, says);
    }

    // A source that cannot be written (here: its folder is missing) fails in one line and leaves nothing behind.
    void unwritableOutputFailsTheCompiler()
    {
        QTemporaryDir dir;
        const QString input = dir.filePath("schema.json");
        QFile file(input);
        QVERIFY(file.open(QIODevice::WriteOnly));
        file.write(QByteArray::fromStdString(embeddedSchemaText()));
        file.close();
        const QString output = dir.filePath("no-such-folder/CompiledDeepSpeedSchema.cpp");
        const dsw::test::CompilerRun run = runCompiler(DSW_SCHEMA_COMPILER, {input, output});
        QCOMPARE(run.exitCode, 1);
        QVERIFY2(run.error.startsWith("error: " + output + ".partial: cannot be written"), qPrintable(run.error));
        QCOMPARE(run.error.count('\n'), 1);
        QVERIFY(!QFile::exists(output) && !QFile::exists(output + ".partial"));
    }

    void missingSchemaFailsTheCompiler()
    {
        QTemporaryDir dir;
        const QString input = dir.filePath("no-such-schema.json");
        QProcess compiler;
        compiler.start(DSW_SCHEMA_COMPILER, {input, dir.filePath("out.cpp")});
        QVERIFY(compiler.waitForFinished(60000));
        QCOMPARE(compiler.exitCode(), 1);
        QVERIFY(QString::fromUtf8(compiler.readAllStandardError()).contains(input));
        QVERIFY(!QFile::exists(dir.filePath("out.cpp")));
    }

    void goodSchemaCompiles()
    {
        // The same file the build compiles, written to a new place: exit 0 and the source of instance().
        QTemporaryDir dir;
        const QString input = dir.filePath("deepspeed-schema.json");
        QFile file(input);
        QVERIFY(file.open(QIODevice::WriteOnly));
        file.write(QByteArray::fromStdString(embeddedSchemaText()));
        file.close();
        QProcess compiler;
        compiler.start(DSW_SCHEMA_COMPILER, {input, dir.filePath("out.cpp")});
        QVERIFY(compiler.waitForFinished(60000));
        QCOMPARE(compiler.exitCode(), 0);
        QFile out(dir.filePath("out.cpp"));
        QVERIFY(out.open(QIODevice::ReadOnly));
        const QByteArray source = out.readAll();
        QVERIFY(source.contains("const DeepSpeedSchema& DeepSpeedSchema::instance()"));
        QVERIFY(!source.contains("json::parse")); // built from literals: nothing is parsed at run time
        QVERIFY(!source.contains("knowledgeFile"));
    }
};

QTEST_APPLESS_MAIN(TestCompiledSchema)
#include "TestCompiledSchema.moc"
