// The optimizer, scheduler and version-fact tables of knowledge/EngineFacts are compiled from
// resources/knowledge/deepspeed.json at build time (tools/engine-facts-compiler): they must equal, entry by entry,
// what a parse of the same file reads; a lookup must allocate nothing; and a malformed table must stop the compiler
// in one line naming the file and the entry, before any source is written.
#include "knowledge/EngineFacts.h"
#include "knowledge/KnowledgeFiles.h"

#include "AllocationCounter.h"
#include "CompilerRun.h"

#include <QFile>
#include <QProcess>
#include <QTemporaryDir>
#include <QTest>

#include <nlohmann/json.hpp>

using namespace dsw;
using dsw::test::runCompiler;
using dsw::test::verifyRefused;
using oj = nlohmann::ordered_json;

namespace {

std::vector<std::string> strings(std::span<const std::string_view> views) { return {views.begin(), views.end()}; }

std::vector<std::string> strings(const oj& list) { return list.get<std::vector<std::string>>(); }

oj knowledge() { return oj::parse(knowledgeFile("deepspeed.json")); }

} // namespace

class TestCompiledEngineFacts : public QObject {
    Q_OBJECT
private slots:
    void optimizersEqualParsed()
    {
        const oj o = knowledge().at("optimizers");
        const std::span<const OptimizerSpec> compiled = optimizerSpecs();
        QVERIFY(o.at("deepspeed").size() >= 10 && o.at("torch").size() >= 10); // the real file
        QCOMPARE(compiled.size(), o.at("deepspeed").size() + o.at("torch").size());
        std::size_t i = 0;
        for (const oj& e : o.at("deepspeed")) {
            const OptimizerSpec& s = compiled[i++];
            const QByteArray name = QByteArray::fromStdString(e.at("name").get<std::string>());
            QCOMPARE(QByteArray::fromStdString(std::string(s.name)), name);
            QVERIFY2(s.deepspeedName, name);
            QVERIFY2(s.zeroSupported == e.at("zero_supported").get<bool>(), name);
            QVERIFY2(strings(s.popped) == strings(e.at("popped")), name);
            QVERIFY2(s.torchFrom.empty(), name);
            QCOMPARE(s.builds.size(), e.at("builds").size());
            std::size_t b = 0;
            for (const auto& [kind, built] : e.at("builds").items()) {
                const QByteArray where = name + "." + QByteArray::fromStdString(kind);
                QCOMPARE(QByteArray::fromStdString(std::string(s.builds[b].kind)), QByteArray::fromStdString(kind));
                const OptimizerClass* c = s.build(kind);
                QVERIFY2(c == &s.builds[b++].built, where);
                QCOMPARE(QByteArray::fromStdString(std::string(c->name)),
                         QByteArray::fromStdString(built.at("class").get<std::string>()));
                QVERIFY2(c->params.has_value() == !built.at("params").is_null(), where);
                if (c->params)
                    QVERIFY2(strings(*c->params) == strings(built.at("params")), where);
            }
            QVERIFY2(s.build("default") && !s.build("gpu"), name);
        }
        for (const oj& e : o.at("torch")) {
            const OptimizerSpec& s = compiled[i++];
            const std::string name = e.at("name").get<std::string>();
            QCOMPARE(QByteArray::fromStdString(std::string(s.name)), QByteArray::fromStdString(name));
            QVERIFY2(!s.deepspeedName && !s.zeroSupported && s.popped.empty(), name.c_str());
            QCOMPARE(QByteArray::fromStdString(std::string(s.torchFrom)),
                     QByteArray::fromStdString(e.value("torch_from", "")));
            QCOMPARE(s.builds.size(), std::size_t(1));
            QCOMPARE(QByteArray::fromStdString(std::string(s.builds[0].kind)), QByteArray("default"));
            QCOMPARE(QByteArray::fromStdString(std::string(s.builds[0].built.name)),
                     QByteArray::fromStdString("torch.optim." + name));
            QVERIFY2(s.builds[0].built.params && strings(*s.builds[0].built.params) == strings(e.at("params")),
                     name.c_str());
        }
        QCOMPARE(optimizerNames().size(), compiled.size());
    }

    void schedulersEqualParsed()
    {
        const oj o = knowledge().at("lr_schedulers");
        const std::span<const SchedulerSpec> compiled = schedulerSpecs();
        QVERIFY(o.at("deepspeed").size() >= 5 && o.at("torch").size() >= 10);
        QCOMPARE(compiled.size(), o.at("deepspeed").size() + o.at("torch").size());
        std::size_t i = 0;
        for (const char* group : {"deepspeed", "torch"})
            for (const oj& e : o.at(group)) {
                const SchedulerSpec& s = compiled[i++];
                const std::string name = e.at("name").get<std::string>();
                QCOMPARE(QByteArray::fromStdString(std::string(s.name)), QByteArray::fromStdString(name));
                QVERIFY2(s.deepspeed == (std::string(group) == "deepspeed"), name.c_str());
                QVERIFY2(s.warmup == e.value("warmup", false), name.c_str());
                QVERIFY2(strings(s.required) == strings(e.at("required")), name.c_str());
                QVERIFY2(strings(s.params) == strings(e.at("params")), name.c_str());
            }
        QCOMPARE(schedulerNames().size(), compiled.size());
    }

    void versionFactsEqualParsed()
    {
        const oj facts = knowledge().at("version_facts");
        const std::span<const VersionFactEntry> compiled = versionFactEntries();
        QVERIFY(facts.size() >= 3); // "about" and at least two facts
        QCOMPARE(compiled.size(), facts.size() - 1);
        std::size_t i = 0;
        for (const auto& [key, f] : facts.items()) {
            if (key == "about")
                continue;
            const VersionFactEntry& e = compiled[i++];
            QCOMPARE(QByteArray::fromStdString(std::string(e.key)), QByteArray::fromStdString(key));
            const VersionFact v = versionFact(key);
            QCOMPARE(QString::fromStdString(v.deepspeedFrom), QString::fromStdString(f.value("deepspeed_from", "")));
            QCOMPARE(QString::fromStdString(v.torchFrom), QString::fromStdString(f.value("torch_from", "")));
            QCOMPARE(QString::fromStdString(v.source), QString::fromStdString(f.at("source").get<std::string>()));
            QCOMPARE(QString::fromStdString(v.before), QString::fromStdString(f.value("before", "")));
        }
        QVERIFY_THROWS_EXCEPTION(std::out_of_range, versionFact("about"));
        QVERIFY_THROWS_EXCEPTION(std::out_of_range, versionFact("no_such_fact"));
    }

    void matchingRules()
    {
        // DeepSpeed's names without case, torch.optim's exactly, a torch class newer than the PyTorch given missing.
        QVERIFY(findOptimizer("ADAM") && findOptimizer("ADAM")->name == "adam");
        QVERIFY(findOptimizer("OneBitAdam") && findOptimizer("OneBitAdam")->name == "onebitadam");
        QVERIFY(findOptimizer("SGD") && !findOptimizer("SGD")->deepspeedName);
        QVERIFY(!findOptimizer("sgd"));
        QVERIFY(!findOptimizer("adam "));
        QVERIFY(findOptimizer("Adafactor"));
        QVERIFY(findOptimizer("Adafactor", "2.5.0"));
        QVERIFY(!findOptimizer("Adafactor", "2.4.1"));
        QVERIFY(findOptimizer("SGD", "2.0.0"));
        QVERIFY(findScheduler("WarmupLR") && findScheduler("WarmupLR")->warmup);
        QVERIFY(!findScheduler("warmuplr"));
        QVERIFY(findScheduler("StepLR") && !findScheduler("StepLR")->deepspeed);
    }

    void lookupsAllocateNothing()
    {
        const long before = dsw::test::allocations.load();
        const OptimizerSpec* adam = findOptimizer("AdamW");
        const OptimizerSpec* sgd = findOptimizer("SGD");
        const SchedulerSpec* warmup = findScheduler("WarmupDecayLR");
        const OptimizerClass* offload = adam ? adam->build("offload") : nullptr;
        const long after = dsw::test::allocations.load();
        QVERIFY(adam && sgd && warmup && offload);
        QCOMPARE(after - before, 0L);
        const std::vector<std::string_view> names = optimizerNames(); // the counter does see an allocation
        QVERIFY(!names.empty() && dsw::test::allocations.load() > after);
    }

    void brokenTablesFailTheCompiler_data()
    {
        QTest::addColumn<QByteArray>("text");
        QTest::addColumn<QString>("says");
        const std::string good(knowledgeFile("deepspeed.json"));
        const auto row = [](const char* name, const oj& j, const QString& says) {
            QTest::newRow(name) << QByteArray::fromStdString(j.dump()) << says;
        };
        QTest::newRow("not JSON") << QByteArray::fromStdString(good.substr(0, good.size() / 2)) << "parse error";

        oj j = oj::parse(good);
        j.erase("optimizers");
        row("no optimizers", j, "the top level: has no \"optimizers\"");

        j = oj::parse(good);
        j["optimizers"]["deepspeed"][0]["name"] = "Adam";
        row("DeepSpeed name in upper case", j,
            "optimizers.deepspeed[0] (Adam): a DeepSpeed name is matched lower-cased");

        j = oj::parse(good);
        j["optimizers"]["deepspeed"][1]["builds"].erase("default");
        row("no default class", j,
            "optimizers.deepspeed[1] (adamw).builds: must be an object with a \"default\" class");

        j = oj::parse(good);
        j["optimizers"]["deepspeed"][0]["builds"]["gpu"] = j["optimizers"]["deepspeed"][0]["builds"]["default"];
        row("unknown build case", j, "optimizers.deepspeed[0] (adam).builds.gpu: unknown case");

        j = oj::parse(good);
        j["optimizers"]["deepspeed"][2]["builds"]["offload"]["params"] = "lr, eps";
        row("params not a list", j,
            "optimizers.deepspeed[2] (adagrad).builds.offload.params: must be an array of strings");

        j = oj::parse(good);
        j["optimizers"]["deepspeed"][0]["popped"][1] = 3;
        row("popped not strings", j, "optimizers.deepspeed[0] (adam).popped[1]: must be a non-empty string");

        j = oj::parse(good);
        j["optimizers"]["deepspeed"][3]["zero_supported"] = "yes";
        row("zero_supported not a boolean", j, "optimizers.deepspeed[3] (lamb).zero_supported: must be true or false");

        j = oj::parse(good);
        j["optimizers"]["torch"][0]["torch_form"] = "2.5";
        row("misspelt member", j, "optimizers.torch[0] (SGD): unknown member \"torch_form\"");

        j = oj::parse(good);
        j["optimizers"]["torch"][0]["torch_from"] = "two";
        row("torch_from not a version", j, "optimizers.torch[0] (SGD).torch_from: \"two\" is not a version");

        j = oj::parse(good);
        j["optimizers"]["torch"].push_back(j["optimizers"]["torch"][0]);
        row("torch name twice", j, "(SGD): is listed twice");

        j = oj::parse(good);
        j["optimizers"]["torch"].push_back({{"name", "Lamb"}, {"params", oj::array()}});
        row("torch name DeepSpeed shadows", j, "(Lamb): is never reached: DeepSpeed's \"lamb\" matches it first");

        j = oj::parse(good);
        j["optimizers"]["deepspeed"][0].erase("builds");
        row("entry without builds", j, "optimizers.deepspeed[0] (adam): has no \"builds\"");

        j = oj::parse(good);
        j["optimizers"]["deepspeed"][4]["name"] = oj::array();
        row("name not a string", j, "optimizers.deepspeed[4].name: must be a non-empty string");

        j = oj::parse(good);
        j["lr_schedulers"]["deepspeed"][1]["required"].push_back("cycle_max_lrr");
        row("required not a param", j,
            "lr_schedulers.deepspeed[1] (OneCycle).required: \"cycle_max_lrr\" is not among its params");

        j = oj::parse(good);
        j["lr_schedulers"]["deepspeed"][2]["warmup"] = "true";
        row("warmup not a boolean", j, "lr_schedulers.deepspeed[2] (WarmupLR).warmup: must be true or false");

        j = oj::parse(good);
        j["lr_schedulers"]["torch"] = oj::object();
        row("torch schedulers not a list", j, "lr_schedulers.torch: must be an array");

        j = oj::parse(good);
        j["version_facts"]["warmup_num_steps_positive"]["torch_from"] = "2.3";
        row("fact with both versions", j,
            "version_facts.warmup_num_steps_positive: must have exactly one of deepspeed_from and torch_from");

        j = oj::parse(good);
        j["version_facts"]["bf16_emulation_counts"]["torch_from"] = "2.x";
        row("fact version not a version", j,
            "version_facts.bf16_emulation_counts.torch_from: \"2.x\" is not a version");

        j = oj::parse(good);
        j["version_facts"]["bf16_emulation_counts"].erase("source");
        row("fact without source", j, "version_facts.bf16_emulation_counts: has no \"source\"");

        j = oj::parse(good);
        j["lr_schedulers"]["deepspeed"] = oj::array();
        j["lr_schedulers"]["torch"] = oj::array();
        row("no schedulers", j, "lr_schedulers: lists no scheduler");
    }

    void brokenTablesFailTheCompiler()
    {
        QFETCH(QByteArray, text);
        QFETCH(QString, says);
        QTemporaryDir dir;
        QVERIFY(dir.isValid());
        const QString input = dir.filePath("broken-deepspeed.json");
        const QString output = dir.filePath("CompiledEngineFacts.cpp");
        verifyRefused(runCompiler(DSW_ENGINE_FACTS_COMPILER, {input, output}, input, text), input, output, says);
    }

    void missingFileFailsTheCompiler()
    {
        QTemporaryDir dir;
        const QString input = dir.filePath("no-such-deepspeed.json");
        QProcess compiler;
        compiler.start(DSW_ENGINE_FACTS_COMPILER, {input, dir.filePath("out.cpp")});
        QVERIFY(compiler.waitForFinished(60000));
        QCOMPARE(compiler.exitCode(), 1);
        QVERIFY(QString::fromUtf8(compiler.readAllStandardError()).contains(input + ": cannot be read"));
        QVERIFY(!QFile::exists(dir.filePath("out.cpp")));
    }

    void goodFileCompiles()
    {
        // The file the build compiles, written to a new place: exit 0 and constant tables, nothing parsed at run time.
        QTemporaryDir dir;
        const QString input = dir.filePath("deepspeed.json");
        QFile file(input);
        QVERIFY(file.open(QIODevice::WriteOnly));
        file.write(QByteArray::fromStdString(std::string(knowledgeFile("deepspeed.json"))));
        file.close();
        QProcess compiler;
        compiler.start(DSW_ENGINE_FACTS_COMPILER, {input, dir.filePath("out.cpp")});
        QVERIFY(compiler.waitForFinished(60000));
        QCOMPARE(compiler.exitCode(), 0);
        QFile out(dir.filePath("out.cpp"));
        QVERIFY(out.open(QIODevice::ReadOnly));
        const QByteArray source = out.readAll();
        QVERIFY(source.contains("constexpr OptimizerSpec optimizers[]"));
        QVERIFY(source.contains("constexpr SchedulerSpec schedulers[]"));
        QVERIFY(source.contains("constexpr VersionFactEntry versionFacts[]"));
        QVERIFY(!source.contains("nlohmann") && !source.contains("::parse") && !source.contains("deepspeedKnowledge"));
        QVERIFY(!source.contains("knowledgeFile"));
    }
};

QTEST_APPLESS_MAIN(TestCompiledEngineFacts)
#include "TestCompiledEngineFacts.moc"
