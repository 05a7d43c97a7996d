// deepspeed.json's "optimizers", "lr_schedulers" and "version_facts" (models/knowledge/EngineFacts.h): the shipped
// file passes the checks the readers make on first use, lookups match names as DeepSpeed does, and a broken copy of
// each table is refused with one message naming the file and the entry.
#include "knowledge/EngineFacts.h"
#include "knowledge/KnowledgeFiles.h"

#include <QTest>

using namespace dsw;
using oj = nlohmann::ordered_json;

namespace {

oj knowledge() { return oj::parse(knowledgeFile("deepspeed.json")); }

// The error of reading `j` (the whole file) with the reader of `member`, or "" when it reads.
std::string errorOf(const oj& j, const std::string& member)
{
    if (member == "optimizers") {
        const auto r = readOptimizers(j.at(member));
        return r ? "" : r.error();
    }
    if (member == "lr_schedulers") {
        const auto r = readSchedulers(j.at(member));
        return r ? "" : r.error();
    }
    const auto r = readVersionFacts(j.at(member));
    return r ? "" : r.error();
}

} // namespace

class TestEngineFacts : public QObject {
    Q_OBJECT
private slots:
    void shippedTablesRead()
    {
        const oj j = knowledge();
        const auto optimizers = readOptimizers(j.at("optimizers"));
        QVERIFY2(optimizers.ok(), optimizers.ok() ? "" : optimizers.error().c_str());
        QCOMPARE(optimizers.value().size(), j["optimizers"]["deepspeed"].size() + j["optimizers"]["torch"].size());
        const OptimizerSpec& adam = optimizers.value().front(); // DeepSpeed's names first, in the file's order
        QCOMPARE(adam.name, std::string("adam"));
        QVERIFY(adam.deepspeedName && adam.zeroSupported);
        QCOMPARE(adam.builds.at("offload").name, std::string("DeepSpeedCPUAdam"));
        QVERIFY(adam.builds.at("default").params && adam.builds.at("default").params->front() == "lr");
        const OptimizerSpec& adafactor = optimizers.value().back();
        QCOMPARE(adafactor.name, std::string("Adafactor"));
        QCOMPARE(adafactor.torchFrom, std::string("2.5"));
        QCOMPARE(adafactor.builds.at("default").name, std::string("torch.optim.Adafactor"));
        QCOMPARE(optimizerNames().size(), optimizers.value().size());

        const auto schedulers = readSchedulers(j.at("lr_schedulers"));
        QVERIFY2(schedulers.ok(), schedulers.ok() ? "" : schedulers.error().c_str());
        QCOMPARE(schedulers.value().size(),
                 j["lr_schedulers"]["deepspeed"].size() + j["lr_schedulers"]["torch"].size());
        QCOMPARE(schedulerNames().size(), schedulers.value().size());

        const auto facts = readVersionFacts(j.at("version_facts"));
        QVERIFY2(facts.ok(), facts.ok() ? "" : facts.error().c_str());
        QCOMPARE(facts.value().size(), j["version_facts"].size() - 1); // "about" is no fact
        const VersionFact warmup = versionFact("warmup_num_steps_positive");
        QCOMPARE(warmup.deepspeedFrom, std::string("0.19.3"));
        QVERIFY(warmup.torchFrom.empty() && !warmup.before.empty());
        QCOMPARE(warmup.source, std::string("ds-warmup-positive"));
        QCOMPARE(versionFact("bf16_emulation_counts").torchFrom, std::string("2.3"));
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
        QVERIFY(findScheduler("WarmupDecayLR")->required == std::vector<std::string>{"total_num_steps"});
    }

    void brokenTablesAreRefused_data()
    {
        QTest::addColumn<QByteArray>("text");
        QTest::addColumn<QString>("member");
        QTest::addColumn<QString>("says");
        const auto row = [](const char* name, const oj& j, const char* member, const QString& says) {
            QTest::newRow(name) << QByteArray::fromStdString(j.dump()) << QString(member) << says;
        };
        oj j = knowledge();
        j["optimizers"]["deepspeed"][0]["name"] = "Adam";
        row("DeepSpeed name in upper case", j, "optimizers",
            "optimizers.deepspeed[0] (Adam): a DeepSpeed name is matched lower-cased");

        j = knowledge();
        j["optimizers"]["deepspeed"][1]["builds"].erase("default");
        row("no default class", j, "optimizers",
            "optimizers.deepspeed[1] (adamw).builds: must be an object with a \"default\" class");

        j = knowledge();
        j["optimizers"]["deepspeed"][0]["builds"]["gpu"] = j["optimizers"]["deepspeed"][0]["builds"]["default"];
        row("unknown build case", j, "optimizers", "optimizers.deepspeed[0] (adam).builds.gpu: unknown case");

        j = knowledge();
        j["optimizers"]["deepspeed"][2]["builds"]["offload"]["params"] = "lr, eps";
        row("params not a list", j, "optimizers",
            "optimizers.deepspeed[2] (adagrad).builds.offload.params: must be an array of strings");

        j = knowledge();
        j["optimizers"]["deepspeed"][0]["popped"][1] = 3;
        row("popped not strings", j, "optimizers",
            "optimizers.deepspeed[0] (adam).popped[1]: must be a non-empty string");

        j = knowledge();
        j["optimizers"]["deepspeed"][3]["zero_supported"] = "yes";
        row("zero_supported not a boolean", j, "optimizers",
            "optimizers.deepspeed[3] (lamb).zero_supported: must be true or false");

        j = knowledge();
        j["optimizers"]["torch"][0]["torch_form"] = "2.5";
        row("misspelt member", j, "optimizers", "optimizers.torch[0] (SGD): unknown member \"torch_form\"");

        j = knowledge();
        j["optimizers"]["torch"][0]["torch_from"] = "two";
        row("torch_from not a version", j, "optimizers",
            "optimizers.torch[0] (SGD).torch_from: \"two\" is not a version");

        j = knowledge();
        j["optimizers"]["torch"].push_back(j["optimizers"]["torch"][0]);
        row("torch name twice", j, "optimizers", "(SGD): is listed twice");

        j = knowledge();
        j["optimizers"]["torch"].push_back({{"name", "Lamb"}, {"params", oj::array()}});
        row("torch name DeepSpeed shadows", j, "optimizers",
            "(Lamb): is never reached: DeepSpeed's \"lamb\" matches it first");

        j = knowledge();
        j["optimizers"]["deepspeed"][0].erase("builds");
        row("entry without builds", j, "optimizers", "optimizers.deepspeed[0] (adam): has no \"builds\"");

        j = knowledge();
        j["optimizers"]["deepspeed"][4]["name"] = oj::array();
        row("name not a string", j, "optimizers", "optimizers.deepspeed[4].name: must be a non-empty string");

        j = knowledge();
        j["optimizers"].erase("torch");
        row("no torch optimizers", j, "optimizers", "optimizers: has no \"torch\"");

        j = knowledge();
        j["lr_schedulers"]["deepspeed"][1]["required"].push_back("cycle_max_lrr");
        row("required not a param", j, "lr_schedulers",
            "lr_schedulers.deepspeed[1] (OneCycle).required: \"cycle_max_lrr\" is not among its params");

        j = knowledge();
        j["lr_schedulers"]["deepspeed"][2]["warmup"] = "true";
        row("warmup not a boolean", j, "lr_schedulers",
            "lr_schedulers.deepspeed[2] (WarmupLR).warmup: must be true or false");

        j = knowledge();
        j["lr_schedulers"]["torch"] = oj::object();
        row("torch schedulers not a list", j, "lr_schedulers", "lr_schedulers.torch: must be an array");

        j = knowledge();
        j["lr_schedulers"]["torch"].push_back(j["lr_schedulers"]["deepspeed"][0]);
        row("scheduler twice", j, "lr_schedulers", "(LRRangeTest): is listed twice");

        j = knowledge();
        j["lr_schedulers"]["deepspeed"] = oj::array();
        j["lr_schedulers"]["torch"] = oj::array();
        row("no schedulers", j, "lr_schedulers", "lr_schedulers: lists no scheduler");

        j = knowledge();
        j["version_facts"]["warmup_num_steps_positive"]["torch_from"] = "2.3";
        row("fact with both versions", j, "version_facts",
            "version_facts.warmup_num_steps_positive: must have exactly one of deepspeed_from and torch_from");

        j = knowledge();
        j["version_facts"]["bf16_emulation_counts"].erase("torch_from");
        row("fact with no version", j, "version_facts",
            "version_facts.bf16_emulation_counts: must have exactly one of deepspeed_from and torch_from");

        j = knowledge();
        j["version_facts"]["bf16_emulation_counts"]["torch_from"] = "2.x";
        row("fact version not a version", j, "version_facts",
            "version_facts.bf16_emulation_counts.torch_from: \"2.x\" is not a version");

        j = knowledge();
        j["version_facts"]["bf16_emulation_counts"].erase("source");
        row("fact without source", j, "version_facts", "version_facts.bf16_emulation_counts: has no \"source\"");

        j = knowledge();
        j["version_facts"] = {{"about", "nothing yet"}};
        row("no facts", j, "version_facts", "version_facts: lists no fact");
    }

    void brokenTablesAreRefused()
    {
        QFETCH(QByteArray, text);
        QFETCH(QString, member);
        QFETCH(QString, says);
        const QString error = QString::fromStdString(errorOf(oj::parse(text.toStdString()), member.toStdString()));
        QVERIFY2(error.startsWith("deepspeed.json: "), qPrintable(error));
        QVERIFY2(error.contains(says), qPrintable(error));
        QVERIFY2(!error.contains('\n'), qPrintable(error));
    }
};

QTEST_APPLESS_MAIN(TestEngineFacts)
#include "TestEngineFacts.moc"
