// The wizard's steps (models/Steps.h): their order and titles, and how each stands as the sidebar shows it:
// a failed check or a finding that names the workflow is a conflict before anything else, missing inputs
// come next, and a workflow is complete only once the user handled it.
#include "Steps.h"

#include "TestAnswers.h"

#include <QTest>

using namespace dsw;

namespace {

Advice advice(const std::string& workflow, AdviceStatus status, std::vector<Check> checks = {})
{
    Advice a;
    a.workflow = workflow;
    a.status = status;
    a.checks = std::move(checks);
    return a;
}

Project handled(const std::string& workflow)
{
    Project p;
    p.markHandled(workflow, "2026-01-01T00:00:00Z", "done");
    return p;
}

} // namespace

Q_DECLARE_METATYPE(dsw::StepState)

class TestSteps : public QObject {
    Q_OBJECT
private slots:
    void setupComesFirstThenEveryWorkflowThenSummary();
    void titles();
    void setupIsCompleteWhenEveryAnswerValidates();
    void workflowState_data();
    void workflowState();
    void aWorkflowThePlanDoesNotHaveIsNotVisited();
    void statesHaveTheSidebarsWords();
};

void TestSteps::setupComesFirstThenEveryWorkflowThenSummary()
{
    const std::vector<std::string> steps = wizardSteps();
    QCOMPARE(steps.size(), workflowIds().size() + 2);
    QCOMPARE(steps.front(), std::string("setup"));
    QCOMPARE(steps.back(), std::string("summary"));
    QVERIFY(std::equal(workflowIds().begin(), workflowIds().end(), steps.begin() + 1));
}

void TestSteps::titles()
{
    QCOMPARE(stepTitle("setup"), std::string("Setup"));
    QCOMPARE(stepTitle("summary"), std::string("Summary"));
    QCOMPARE(stepTitle("zero"), std::string("ZeRO")); // the sidebar's short name, not "ZeRO stage and offload"
    for (const std::string& w : workflowIds())
        if (w != "zero")
            QCOMPARE(stepTitle(w), workflowTitle(w));
}

void TestSteps::setupIsCompleteWhenEveryAnswerValidates()
{
    const Plan valid = makePlan(Answers{});
    QVERIFY(valid.inputErrors.empty());
    QCOMPARE(toString(stepState(valid, Project{}, "setup")), toString(StepState::Complete));

    Answers bad;
    bad.set("training.precision", "fp64"); // not one of the values the registry allows
    const Plan invalid = makePlan(bad);
    QVERIFY(!invalid.inputErrors.empty());
    QCOMPARE(toString(stepState(invalid, Project{}, "setup")), toString(StepState::NeedsInput));
}

void TestSteps::workflowState_data()
{
    QTest::addColumn<int>("status");
    QTest::addColumn<int>("check");            // -1: no check, else its CheckLevel
    QTest::addColumn<QString>("findingNames"); // the workflow a finding names, empty for none
    QTest::addColumn<bool>("isHandled");
    QTest::addColumn<StepState>("expected");
    const int complete = int(AdviceStatus::Complete), needs = int(AdviceStatus::NeedsInput);
    const int fail = int(CheckLevel::Fail), warn = int(CheckLevel::Warn), pass = int(CheckLevel::Pass);
    QTest::newRow("complete, not handled") << complete << -1 << "" << false << StepState::NotVisited;
    QTest::newRow("complete, handled") << complete << pass << "" << true << StepState::Complete;
    QTest::newRow("a warning is no conflict") << complete << warn << "" << true << StepState::Complete;
    QTest::newRow("failed check") << complete << fail << "" << true << StepState::Conflict;
    QTest::newRow("failed check beats missing inputs") << needs << fail << "" << false << StepState::Conflict;
    QTest::newRow("finding naming it") << complete << pass << "zero" << true << StepState::Conflict;
    QTest::newRow("finding naming another workflow") << complete << pass << "pipeline" << true << StepState::Complete;
    QTest::newRow("missing inputs, even once handled") << needs << -1 << "" << true << StepState::NeedsInput;
}

void TestSteps::workflowState()
{
    QFETCH(int, status);
    QFETCH(int, check);
    QFETCH(QString, findingNames);
    QFETCH(bool, isHandled);
    QFETCH(StepState, expected);
    std::vector<Check> checks;
    if (check >= 0)
        checks.push_back({CheckLevel(check), "some-check", "message", ""});
    Plan plan;
    plan.workflows = {advice("zero", AdviceStatus(status), checks), advice("pipeline", AdviceStatus::Complete)};
    if (!findingNames.isEmpty())
        plan.findings.push_back({CheckLevel::Warn, "conflicting-fragments", "message", {findingNames.toStdString()}});
    QCOMPARE(toString(stepState(plan, isHandled ? handled("zero") : Project{}, "zero")), toString(expected));
}

void TestSteps::aWorkflowThePlanDoesNotHaveIsNotVisited()
{
    Plan plan;
    plan.workflows = {advice("zero", AdviceStatus::Complete)};
    QCOMPARE(toString(stepState(plan, handled("sparse"), "sparse")), toString(StepState::NotVisited));
}

void TestSteps::statesHaveTheSidebarsWords()
{
    QCOMPARE(toString(StepState::NotVisited), std::string("not visited"));
    QCOMPARE(toString(StepState::Complete), std::string("complete"));
    QCOMPARE(toString(StepState::NeedsInput), std::string("needs input"));
    QCOMPARE(toString(StepState::Conflict), std::string("conflict"));
}

QTEST_APPLESS_MAIN(TestSteps)
#include "TestSteps.moc"
