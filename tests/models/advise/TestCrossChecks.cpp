// The net under the advisors: combinations DeepSpeed rejects are reported as findings.
#include "Plan.h"
#include "advise/CrossChecks.h"

#include <QTest>
#include <algorithm>

using namespace dsw;
using oj = nlohmann::ordered_json;

namespace {
bool has(const std::vector<Finding>& findings, const std::string& code)
{
    return std::any_of(findings.begin(), findings.end(), [&](const Finding& f) { return f.code == code; });
}
} // namespace

class TestCrossChecks : public QObject {
    Q_OBJECT
private slots:
    void findsRejectedCombinations_data()
    {
        QTest::addColumn<QString>("config");
        QTest::addColumn<int>("pipelineStages");
        QTest::addColumn<QString>("expected"); // finding code, or "" for none
        QTest::newRow("pipeline + zero 2")
            << R"({"zero_optimization": {"stage": 2}})" << 4 << "pipeline-requires-zero-0-or-1";
        QTest::newRow("pipeline + zero 1") << R"({"zero_optimization": {"stage": 1}})" << 4 << "";
        QTest::newRow("zero 3 without pipeline") << R"({"zero_optimization": {"stage": 3}})" << 1 << "";
        QTest::newRow("1-bit Adam + zero 1")
            << R"({"optimizer": {"type": "OneBitAdam"}, "zero_optimization": {"stage": 1}})" << 1
            << "onebit-requires-zero-0";
        QTest::newRow("0/1 Adam lower case + zero 2")
            << R"({"optimizer": {"type": "zerooneadam"}, "zero_optimization": {"stage": 2}})" << 1
            << "onebit-requires-zero-0";
        QTest::newRow("1-bit LAMB + offload")
            << R"({"optimizer": {"type": "OneBitLamb"}, "zero_optimization": {"stage": 0, "offload_optimizer": {"device": "cpu"}}})"
            << 1 << "onebit-with-offload";
        QTest::newRow("1-bit Adam, zero 0")
            << R"({"optimizer": {"type": "OneBitAdam"}, "zero_optimization": {"stage": 0}})" << 1 << "";
        QTest::newRow("fp16 + bf16") << R"({"fp16": {"enabled": true}, "bf16": {"enabled": true}})" << 1
                                     << "fp16-and-bf16";
        QTest::newRow("fp16 on, bf16 off") << R"({"fp16": {"enabled": true}, "bf16": {"enabled": false}})" << 1 << "";
    }
    void findsRejectedCombinations()
    {
        QFETCH(QString, config);
        QFETCH(int, pipelineStages);
        QFETCH(QString, expected);
        Answers answers;
        answers.set("pipeline.stages", pipelineStages);
        const auto findings = crossWorkflowFindings(oj::parse(config.toStdString()), answers);
        if (expected.isEmpty())
            QVERIFY(findings.empty());
        else
            QVERIFY(has(findings, expected.toStdString()));
    }

    void composedPlansNeverCombineThem()
    {
        // The ZeRO advisor limits itself, so the composed config stays clean even when asked otherwise.
        Answers answers;
        answers.set("model.params", std::int64_t(70000000000));
        answers.set("pipeline.stages", 2);
        answers.set("zero.stage", "3");
        Plan plan = makePlan(answers);
        QVERIFY(plan.config["zero_optimization"]["stage"].get<int>() <= 1);
        QVERIFY(!has(plan.findings, "pipeline-requires-zero-0-or-1"));
        answers.set("pipeline.stages", 1);
        answers.set("training.optimizer", "onebit-adam");
        plan = makePlan(answers);
        QCOMPARE(plan.config["zero_optimization"]["stage"].get<int>(), 0);
        QVERIFY(!plan.config["zero_optimization"].contains("offload_optimizer"));
    }
};

QTEST_APPLESS_MAIN(TestCrossChecks)
#include "TestCrossChecks.moc"
