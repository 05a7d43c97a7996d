// knowledge/AdapterRules: which of the PEFT-under-DeepSpeed rules apply to a placement, and that each names its
// source and the versions it speaks of (PEFT's DeepSpeed guide, TRL issue #4416, DeepSpeed issues #5071 and #7669).
#include "knowledge/AdapterRules.h"
#include "knowledge/SourceCatalog.h"

#include <QTest>

#include <algorithm>

using namespace dsw;

namespace {

AdapterSetup setup(TrainingMethod method, int stage, bool offload = false)
{
    AdapterSetup s;
    s.method = method;
    s.stage = stage;
    s.offloadsOptimizer = offload;
    s.deepspeedVersion = "0.19.5";
    return s;
}

QStringList codes(const AdapterSetup& s)
{
    QStringList out;
    for (const RuleBreak& rule : adapterRules(s))
        out << QString::fromStdString(rule.code);
    return out;
}

const RuleBreak* find(const std::vector<RuleBreak>& rules, const char* code)
{
    const auto it = std::find_if(rules.begin(), rules.end(), [&](const RuleBreak& r) { return r.code == code; });
    return it == rules.end() ? nullptr : &*it;
}

} // namespace

class TestAdapterRules : public QObject {
    Q_OBJECT
private slots:
    void whichRulesApply_data()
    {
        QTest::addColumn<int>("method");
        QTest::addColumn<int>("stage");
        QTest::addColumn<bool>("offload");
        QTest::addColumn<QStringList>("expected");
        const auto lora = static_cast<int>(TrainingMethod::Lora), qlora = static_cast<int>(TrainingMethod::Qlora);
        QTest::newRow("full fine-tune: none") << static_cast<int>(TrainingMethod::Full) << 3 << true << QStringList{};
        QTest::newRow("LoRA, ZeRO-2: merge only") << lora << 2 << false << QStringList{kAdapterMergeRule};
        QTest::newRow("LoRA, ZeRO-2 offload")
            << lora << 2 << true << QStringList{kAdapterOffloadRule, kAdapterMergeRule};
        QTest::newRow("LoRA, ZeRO-3: the save")
            << lora << 3 << false << QStringList{kAdapterSaveGatherRule, kAdapterMergeRule};
        QTest::newRow("QLoRA, ZeRO-2: no quant-storage rule") << qlora << 2 << false << QStringList{kAdapterMergeRule};
        QTest::newRow("QLoRA, ZeRO-3") << qlora << 3 << false
                                       << QStringList{kQloraQuantStorageRule, kAdapterSaveGatherRule,
                                                      kAdapterMergeRule};
        // PEFT's caveat 3 replaces the general offload caveat for QLoRA at ZeRO-3.
        QTest::newRow("QLoRA, ZeRO-3 offload")
            << qlora << 3 << true
            << QStringList{kQloraQuantStorageRule, kQloraOffloadRule, kAdapterSaveGatherRule, kAdapterMergeRule};
    }
    void whichRulesApply()
    {
        QFETCH(int, method);
        QFETCH(int, stage);
        QFETCH(bool, offload);
        QFETCH(QStringList, expected);
        QCOMPARE(codes(setup(static_cast<TrainingMethod>(method), stage, offload)), expected);
    }

    void modulesToSaveAtStage3Only()
    {
        AdapterSetup s = setup(TrainingMethod::Lora, 2);
        s.modulesToSave = true;
        QVERIFY(!codes(s).contains(kModulesToSaveZero3Rule));
        s.stage = 3;
        QVERIFY(codes(s).contains(kModulesToSaveZero3Rule));
    }

    void quantStorageNamesTheTrainingDtypeAndVersions()
    {
        AdapterSetup s = setup(TrainingMethod::Qlora, 3);
        s.dtype = torchDtypeOf("fp16");
        const auto rules = adapterRules(s);
        const RuleBreak* rule = find(rules, kQloraQuantStorageRule);
        QVERIFY(rule);
        QVERIFY(rule->message.find("(float16,") != std::string::npos);
        for (const char* version :
             {"bitsandbytes>=0.43.3", "accelerate>=1.0.1", "transformers>4.44.2", "trl>0.11.4", "peft>0.13.0"})
            QVERIFY2(rule->message.find(version) != std::string::npos, version);
        QCOMPARE(torchDtypeOf("bf16"), std::string("bfloat16"));
        QCOMPARE(torchDtypeOf("fp32"), std::string("float32"));
    }

    void saveRuleNamesTheKeyAndTheFixedVersion()
    {
        const auto rules = adapterRules(setup(TrainingMethod::Lora, 3));
        const RuleBreak* rule = find(rules, kAdapterSaveGatherRule);
        QVERIFY(rule);
        QVERIFY(rule->message.find("stage3_gather_16bit_weights_on_model_save") != std::string::npos);
        QVERIFY(rule->message.find("v5.0.0") != std::string::npos);
        QVERIFY(rule->message.find(quoteOf(rule->source)) != std::string::npos); // the source's own words
    }

    void pipelineNeedsTrainableParametersOnEveryStage()
    {
        AdapterSetup s = setup(TrainingMethod::Lora, 1);
        s.pipelineStages = 4;
        auto rules = adapterRules(s);
        const RuleBreak* rule = find(rules, kAdapterPipelineRule);
        QVERIFY(rule);
        QCOMPARE(rule->source, std::string("ds-pipe-empty-params"));
        QVERIFY(rule->message.find("optimizer got an empty parameter list") != std::string::npos);
        QVERIFY(rule->message.find("upgrade") == std::string::npos);
        // Before the pipeline engine's fix for frozen tied weights (DeepSpeed 0.15.4), the rule says to upgrade.
        s.deepspeedVersion = "0.14.4";
        rules = adapterRules(s);
        rule = find(rules, kAdapterPipelineRule);
        QVERIFY(rule);
        QCOMPARE(rule->source, std::string("ds-pipe-peft-lora"));
        QVERIFY(rule->message.find("0.15.4") != std::string::npos);
    }

    void everyRuleHasACatalogSource()
    {
        AdapterSetup s = setup(TrainingMethod::Qlora, 3, true);
        s.modulesToSave = true;
        s.pipelineStages = 2;
        s.deepspeedVersion = "0.14.0";
        const auto rules = adapterRules(s);
        QCOMPARE(rules.size(), std::size_t(6));
        for (const RuleBreak& rule : rules)
            QVERIFY2(!quoteOf(rule.source).empty(), rule.code.c_str());
    }
};

QTEST_APPLESS_MAIN(TestAdapterRules)
#include "TestAdapterRules.moc"
