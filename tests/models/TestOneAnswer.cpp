// One fact, one answer (issue 21): the job resolves the precision once and every page and the config say the same;
// each DeepSpeed combination rule is reported under one code wherever the plan reports it; a plan candidate is printed
// in one shape wherever `recommend --format json` prints one.
#include "Plan.h"
#include "TestAnswers.h"
#include "config/ConfigImporter.h"
#include "config/ConfigText.h"

#include <QTest>

#include <set>

using namespace dsw;
using namespace dsw::test;
using oj = nlohmann::ordered_json;

namespace {

// Every (code, source) the plan reports: the pages' checks, the findings between them and the linter's.
std::vector<std::pair<std::string, std::string>> reported(const Plan& plan)
{
    std::vector<std::pair<std::string, std::string>> out;
    for (const Advice& a : plan.workflows)
        for (const Check& c : a.checks)
            out.emplace_back(c.code, c.source);
    for (const Finding& f : plan.findings)
        out.emplace_back(f.code, "");
    for (const LintFinding& f : plan.lint)
        out.emplace_back(f.code, f.source.value_or(""));
    return out;
}

// The keys of a candidate, with its two nested objects' keys ("gpu_bytes.total", …).
std::set<std::string> shapeOf(const oj& candidate)
{
    std::set<std::string> keys;
    for (const auto& [key, value] : candidate.items()) {
        keys.insert(key);
        if (value.is_object())
            for (const auto& [inner, unused] : value.items())
                keys.insert(key + "." + inner);
    }
    return keys;
}

Project imported(const char* text)
{
    auto parsed = parseConfigText(text);
    return importConfig(parsed.value()).project;
}

} // namespace

class TestOneAnswer : public QObject {
    Q_OBJECT
private slots:
    // The precision DeepSpeed runs is resolved once (advise/Job.h) and the config, the precision page, the 1-bit page
    // and the step model all use it: the issue's example (A100, DeepSpeed 0.5.0, 1-bit Adam, 4 nodes) once wrote
    // fp16, said fp16 on the precision page and "DeepSpeed runs bf16 here" on the 1-bit page.
    void precisionIsResolvedOnce_data()
    {
        QTest::addColumn<QStringList>("settings");
        QTest::addColumn<QString>("runs");
        const QStringList onebit{"hardware.nodes=4", "training.optimizer=onebit-adam"};
        QTest::newRow("A100, DeepSpeed 0.5.0 (no bf16), auto")
            << onebit + QStringList{"hardware.gpu=A100-80GB", "software.deepspeed_version=0.5.0"} << "fp16";
        QTest::newRow("A100, DeepSpeed 0.5.0, bf16 asked") << onebit
                + QStringList{"hardware.gpu=A100-80GB", "software.deepspeed_version=0.5.0", "training.precision=bf16"}
                                                           << "fp16";
        QTest::newRow("A100, DeepSpeed 0.19.5, auto") << onebit + QStringList{"hardware.gpu=A100-80GB"} << "bf16";
        QTest::newRow("V100 (no bf16), bf16 asked")
            << onebit + QStringList{"hardware.gpu=V100-32GB", "training.precision=bf16"} << "fp16";
        QTest::newRow("V100, fp8 asked") << onebit + QStringList{"hardware.gpu=V100-32GB", "training.precision=fp8"}
                                         << "fp16";
        QTest::newRow("H100, fp8 asked") << onebit + QStringList{"hardware.gpu=H100-80GB", "training.precision=fp8"}
                                         << "bf16";
        QTest::newRow("fp32 asked") << onebit + QStringList{"training.precision=fp32"} << "fp32";
    }
    void precisionIsResolvedOnce()
    {
        QFETCH(QStringList, settings);
        QFETCH(QString, runs);
        const Plan plan = makePlan(answersFrom(settings));
        QCOMPARE(q(plan.job.precision.runs), runs);
        QVERIFY(!plan.job.precision.reason.empty());
        // The config enables that block alone.
        for (const char* block : {"fp16", "bf16", "bfloat16"})
            QCOMPARE(plan.config.contains(block), runs == block);
        // The precision page and the 1-bit page say it.
        QVERIFY2(q(plan.find("precision")->headline).startsWith(runs), plan.find("precision")->headline.c_str());
        const Advice& onebit = *plan.find("onebit");
        QCOMPARE(q(onebit.details.at("precision").get<std::string>()), runs);
        const auto verified = std::find_if(onebit.checks.begin(), onebit.checks.end(),
                                           [](const Check& c) { return c.code == "onebit-fp16-only-verified"; });
        QVERIFY(verified != onebit.checks.end());
        QCOMPARE(verified->level == CheckLevel::Pass, runs == "fp16");
        if (runs != "fp16")
            QVERIFY2(q(verified->message).contains("DeepSpeed runs " + runs + " here"), verified->message.c_str());
        // The step model sizes and times that precision.
        const TrainingPrecision expected = runs == "fp16" ? TrainingPrecision::Fp16
            : runs == "fp32"                              ? TrainingPrecision::Fp32
                                                          : TrainingPrecision::Bf16;
        QVERIFY(plan.job.step->precision == expected);
    }

    // An imported config with pipeline stages and ZeRO-3 broke one DeepSpeed rule and the plan reported it twice, as
    // pipeline-requires-zero-0-or-1 (a finding) and pipeline-with-zero-2-3 (the linter). Now every report citing
    // the rule's source carries its one code, and the plan reports the broken config once.
    void oneCodePerRule_data()
    {
        QTest::addColumn<QString>("config");
        QTest::addColumn<QStringList>("settings");
        QTest::addColumn<QString>("source");
        QTest::addColumn<QString>("code");
        QTest::newRow("pipeline with ZeRO-3")
            << R"({"train_micro_batch_size_per_gpu": 1, "gradient_accumulation_steps": 8, "bf16": {"enabled": true},
                   "zero_optimization": {"stage": 3}, "pipeline": {"stages": 2}})"
            << QStringList{"pipeline.stages=2"} << "ds-pipe-zero"
            << "pipeline-requires-zero-0-or-1";
        QTest::newRow("1-bit Adam with ZeRO-2")
            << R"({"train_micro_batch_size_per_gpu": 1, "gradient_accumulation_steps": 8, "fp16": {"enabled": true},
                   "optimizer": {"type": "OneBitAdam", "params": {"lr": 1e-4}}, "zero_optimization": {"stage": 2}})"
            << QStringList{} << "ds-onebit-zero"
            << "onebit-requires-zero-0";
        QTest::newRow("fp16 and bf16") << R"({"train_micro_batch_size_per_gpu": 1, "fp16": {"enabled": true},
                                              "bf16": {"enabled": true}})"
                                       << QStringList{} << "ds-fp16-config"
                                       << "fp16-and-bf16";
    }
    void oneCodePerRule()
    {
        QFETCH(QString, config);
        QFETCH(QStringList, settings);
        QFETCH(QString, source);
        QFETCH(QString, code);
        Project project = imported(config.toUtf8().constData());
        for (const QString& s : settings) {
            const Answers extra = answersFrom({s});
            for (const auto& [id, value] : extra.given())
                project.answers.set(id, value);
        }
        const Plan plan = makePlan(project);
        int lintReports = 0;
        for (const auto& [reportCode, reportSource] : reported(plan))
            if (reportSource == source.toStdString() && reportCode != "precision-single-mode")
                QVERIFY2(q(reportCode) == code, (reportCode + " cites " + reportSource).c_str());
        for (const LintFinding& f : plan.lint)
            lintReports += q(f.code) == code;
        QCOMPARE(lintReports, 1); // the broken config, once
        for (const Finding& f : plan.findings)
            QVERIFY2(q(f.code) != code, f.message.c_str()); // not again between the workflows
    }

    // recommend --format json prints a plan candidate in one shape: every candidate, the recommended plan and the
    // out-of-memory page's failed run have the same keys (label, stage, offloads, checkpointing, micro-batch,
    // accumulation, gpu_bytes by component, cpu and NVMe bytes per node, fits, step_seconds by component, tokens per
    // second); the stage table, the pick and the alternatives are indices into the candidates.
    void oneCandidateShape()
    {
        const QString message =
            "torch.OutOfMemoryError: CUDA out of memory. Tried to allocate 2.00 GiB. GPU 0 has a total capacity of "
            "79.15 GiB of which 1.50 GiB is free. Of the allocated memory 70.00 GiB is allocated by PyTorch, and "
            "5.00 GiB is reserved by PyTorch but unallocated.";
        const oj j = toJson(makePlan(answersFrom(
            {"model.preset=llama-2-13b", "hardware.gpu=A100-80GB", "memory.oom_message=" + message, "zero.stage=3"})));
        const oj& zero = j.at("workflows").at("zero");
        const oj& candidates = zero.at("candidates");
        QVERIFY(candidates.size() >= 20);
        const std::set<std::string> shape = shapeOf(candidates.front());
        for (const char* key :
             {"label", "stage", "offload_optimizer", "offload_param", "activation_checkpointing", "micro_batch_size",
              "gradient_accumulation_steps", "gpu_bytes.total", "gpu_bytes.activations", "cpu_bytes_per_node",
              "nvme_bytes_per_node", "fits", "step_seconds.total", "tokens_per_second_per_gpu"})
            QVERIFY2(shape.count(key), key);
        for (const oj& c : candidates)
            QVERIFY(shapeOf(c) == shape);
        QVERIFY(shapeOf(zero.at("recommended")) == shape);
        QVERIFY(shapeOf(j.at("workflows").at("memory").at("ran_setup")) == shape);
        // Indices into the candidates, and the recommended plan is the chosen one.
        const std::size_t chosen = zero.at("chosen").get<std::size_t>();
        QVERIFY(chosen < candidates.size());
        JSON_COMPARE(zero.at("recommended"), candidates[chosen]);
        QVERIFY(zero.at("user_forced").get<bool>());
        QVERIFY(zero.at("wizard_pick").get<std::size_t>() < candidates.size());
        for (const oj& row : zero.at("stage_table"))
            QVERIFY(row.get<std::size_t>() < candidates.size());
        for (const oj& alt : zero.at("alternatives"))
            QVERIFY(alt.at("index").get<std::size_t>() < candidates.size());
        // No second spelling of a candidate's keys anywhere in the output.
        const std::string text = j.dump();
        for (const char* old : {"cpu_per_node_bytes", "\"micro_batch\"", "gpu_total_bytes", "nvme_per_node_bytes"})
            QVERIFY2(text.find(old) == std::string::npos, old);
    }
};

QTEST_APPLESS_MAIN(TestOneAnswer)
#include "TestOneAnswer.moc"
