// Mixture of experts as DeepSpeed runs it (issue 25): a Mixtral or Qwen3-MoE config.json or preset keeps its expert
// shape in the answers, the saved project and the job; every page sizes all the experts' parameters (never the dense
// model the shape describes), the ZeRO page chooses among ZeRO-3 leaf modules, AutoEP and every expert on every GPU
// with the expert-parallel degree as an axis, shows the gathered block and the all-to-all, and writes the keys. What
// is not modelled (a pipeline of MoE layers) says so.
#include "Pages.h"
#include "Plan.h"
#include "TestAnswers.h"
#include "config/ConfigExport.h"
#include "config/ConfigImporter.h"
#include "config/HfModelConfig.h"
#include "estimate/StepTime.h"
#include "project/ModelChecks.h"
#include "project/ProjectFile.h"
#include "util/TsvTable.h"

#include <QFile>
#include <QRegularExpression>
#include <QTest>
#include <algorithm>

using namespace dsw;
using namespace dsw::test;
using oj = nlohmann::ordered_json;

namespace {

// A config.json of tests/data/hf-configs (SOURCES.tsv) on one node of 8 H100s, with `more` typed over it.
Answers imported(const char* file, const QStringList& more = {})
{
    QFile f(QStringLiteral(DSW_TEST_DATA_DIR "/hf-configs/") + file);
    if (!f.open(QIODevice::ReadOnly))
        qFatal("cannot read %s", file);
    const auto read = readHfModelConfig(oj::parse(f.readAll().toStdString()));
    if (!read)
        qFatal("%s", read.error().c_str());
    Answers a = answersFrom({"hardware.gpu=H100-80GB", "hardware.gpus_per_node=8"});
    for (const auto& [id, value] : read.value().answers)
        a.set(id, value);
    const Answers typed = answersFrom(more); // after the import, over it
    for (const auto& [id, value] : typed.given())
        a.set(id, value);
    return a;
}

// A fit claimed ("fits", "would fit"), in any case.
const QRegularExpression kFitClaim(QStringLiteral("\\bfits\\b|\\bwould fit\\b"),
                                   QRegularExpression::CaseInsensitiveOption);

// A key that says a fit is true, or a text that claims a fit, anywhere in `j` (snippets may say "1 GiB").
bool claimsAFit(const oj& j, std::string& where, const std::string& path = "")
{
    if (j.is_object()) {
        for (const auto& [key, value] : j.items()) {
            if (key.find("fits") != std::string::npos && value.is_boolean() && value.get<bool>()) {
                where = path + "/" + key;
                return true;
            }
            if (claimsAFit(value, where, path + "/" + key))
                return true;
        }
    } else if (j.is_array()) {
        for (std::size_t i = 0; i < j.size(); ++i)
            if (claimsAFit(j[i], where, path + "/" + std::to_string(i)))
                return true;
    } else if (j.is_string() && QString::fromStdString(j.get<std::string>()).contains(kFitClaim)) {
        where = path + ": " + j.get<std::string>();
        return true;
    }
    return false;
}

Answers importedMixtral(const QStringList& more = {}) { return imported("mixtral-8x7b-v0.1.json", more); }
Answers importedQwen3Moe(const QStringList& more = {}) { return imported("qwen3-30b-a3b.json", more); }

const Check* findCheck(const Advice& advice, const std::string& code)
{
    for (const Check& c : advice.checks)
        if (c.code == code)
            return &c;
    return nullptr;
}

const Estimate* findEstimate(const Advice& advice, const std::string& prefix)
{
    for (const Estimate& e : advice.estimates)
        if (e.name.rfind(prefix, 0) == 0)
            return &e;
    return nullptr;
}

constexpr double kGiB = 1073741824.0;

} // namespace

class TestMoePlans : public QObject {
    Q_OBJECT
private slots:
    // A preset is the same job as its config.json: Qwen1.5-MoE-A2.7B's preset and its imported config give the
    // same MoE answers (four shared experts), the AutoEP preset from its model type, and the same counts.
    void aPresetIsSizedAsItsConfig()
    {
        const Answers preset =
            answersFrom({"hardware.gpu=H100-80GB", "hardware.gpus_per_node=8", "model.preset=qwen1.5-moe-a2.7b"});
        const Answers config = imported("qwen1.5-moe-a2.7b.json");
        for (const char* id : {"model.experts", "model.experts_per_token", "model.expert_intermediate_size",
                               "model.shared_experts", "model.dense_layers", "model.moe_layer_interval",
                               "model.hidden_size", "model.layers", "model.vocab_size"})
            QVERIFY2(preset.integer(id) == config.integer(id), id);
        QCOMPARE(preset.integer("model.shared_experts"), 4LL);
        QCOMPARE(preset.text("moe.autoep_preset"), std::string("qwen3_moe"));
        QCOMPARE(config.text("moe.autoep_preset"), std::string("qwen3_moe"));
        const Job fromPreset = resolveJob(preset);
        const Job fromConfig = resolveJob(config);
        QVERIFY(fromPreset.sized() && fromConfig.sized());
        // Equal but for the q/k/v biases (6,144 per layer), which the preset's shape keeps and no answer carries.
        const auto same = [](std::int64_t x, std::int64_t y) { return std::abs(double(x - y)) <= 24 * 6144; };
        QVERIFY(same(fromPreset.step->moe.counts.total, fromConfig.step->moe.counts.total));
        QVERIFY(same(fromPreset.step->moe.counts.active, fromConfig.step->moe.counts.active));
        // A dense preset after it leaves no expert behind: the MoE answers fall back to their defaults.
        Answers dense = preset;
        dense.set("model.preset", "llama-3.1-8b");
        QCOMPARE(dense.integer("model.experts"), 1LL);
        QCOMPARE(dense.integer("model.shared_experts"), 0LL);
        QCOMPARE(dense.text("moe.autoep_preset"), std::string("none"));
    }

    // The job holds every expert: Mixtral's 46.7B (its paper: 47B) in the states, 12.9B (13B) per token.
    void theImportIsSizedWithEveryExpert()
    {
        const Answers a = importedMixtral();
        QCOMPARE(a.integer("model.experts"), 8LL);
        QCOMPARE(a.text("moe.autoep_preset"), std::string("mixtral"));
        const Job job = resolveJob(a);
        QVERIFY(job.sized() && job.notModelled.empty());
        const MoeCounts& n = job.step->moe.counts;
        QVERIFY(std::abs(static_cast<double>(n.total) / 46.7e9 - 1) < 0.01);
        QVERIFY(std::abs(static_cast<double>(n.active) / 12.9e9 - 1) < 0.01);
        QCOMPARE(job.step->params, n.total); // the states count every expert, not the dense shape's 7.2B
        QCOMPARE(job.step->trainableParams, n.total);
        const oj json = toJson(job);
        QCOMPARE(json.at("total_params").get<std::int64_t>(), n.total);
        QCOMPARE(json.at("active_params").get<std::int64_t>(), n.active);
        QVERIFY(json.at("not_modelled").is_null());
        // Its whole count (46.7B) is not reported as disagreeing with the shape, which counts one MLP per layer.
        QVERIFY(!paramsShapeMismatch(importedMixtral({"model.params=46.7B"})));
    }

    // GPT-OSS and OLMoE, read from their config.json shapes (gated experts, untied heads), count as published:
    // gpt-oss-120b 116.8B (its card: "117B parameters with 5.1B active parameters", the active count without the
    // input embedding), OLMoE-1B-7B 6.92B (its paper: "7 billion").
    void gptOssAndOlmoeCountAsPublished()
    {
        const auto countsOf = [](const char* json) {
            const auto read = readHfModelConfig(oj::parse(json));
            if (!read)
                qFatal("%s", read.error().c_str());
            Answers a;
            for (const auto& [id, value] : read.value().answers)
                a.set(id, value);
            return resolveJob(a).step->moe.counts;
        };
        const MoeCounts oss = countsOf(R"({"model_type": "gpt_oss", "hidden_size": 2880, "num_hidden_layers": 36,
            "num_attention_heads": 64, "num_key_value_heads": 8, "head_dim": 64, "intermediate_size": 2880,
            "vocab_size": 201088, "num_local_experts": 128, "num_experts_per_tok": 4})");
        QVERIFY2(std::abs(static_cast<double>(oss.total) / 117e9 - 1) < 0.01, qPrintable(QString::number(oss.total)));
        const double embedding = 201088.0 * 2880;
        QVERIFY2(std::abs((static_cast<double>(oss.active) - embedding) / 5.1e9 - 1) < 0.02,
                 qPrintable(QString::number(oss.active)));
        const MoeCounts olmoe = countsOf(R"({"model_type": "olmoe", "hidden_size": 2048, "num_hidden_layers": 16,
            "num_attention_heads": 16, "intermediate_size": 1024, "vocab_size": 50304, "num_experts": 64,
            "num_experts_per_tok": 8})");
        QVERIFY2(std::abs(static_cast<double>(olmoe.total) / 7e9 - 1) < 0.02, qPrintable(QString::number(olmoe.total)));
    }

    // 8 × H100-80GB: the 16-bit weights alone (87 GiB) exceed one GPU, so no plan keeps every expert whole on a GPU,
    // and the plan chosen fits, with memory by component, the gathered block and an all-to-all shown.
    void mixtralOnEightH100sGetsAPlanThatRuns()
    {
        const Plan plan = makePlan(importedMixtral());
        QVERIFY(plan.zero);
        const ZeroDecision& d = *plan.zero;
        const StepPrediction& chosen = d.plan();
        QVERIFY2(chosen.fits(), chosen.label().c_str());
        QVERIFY(chosen.candidate.moePath.has_value());
        const double weights = 2.0 * static_cast<double>(plan.job.step->moe.counts.total);
        for (const StepPrediction& p : d.candidates) {
            QCOMPARE(p.totalParams, plan.job.step->moe.counts.total);
            if (p.candidate.placement.stage < 3 && p.candidate.expertParallel == 1)
                QVERIFY2(!p.fits() && static_cast<double>(p.gpu.params) >= weights, p.label().c_str());
        }
        // What the GPU holds adds up, by component.
        const GpuBytes& g = chosen.gpu;
        QCOMPARE(g.total, g.params + g.grads + g.optimizer + g.buffers + g.activations + g.other);
        const Advice& zero = *plan.find("zero");
        QVERIFY(findCheck(zero, "moe-sized"));
        const Estimate* block = findEstimate(zero, "Gathered MoE block per layer");
        QVERIFY(block);
        // Mixtral's block: 8 experts × 3·4096·14336 + the router 4096·8, in bf16: 2.63 GiB.
        QVERIFY(std::abs(block->value / kGiB - 2.0 * (8.0 * 3 * 4096 * 14336 + 4096 * 8) / kGiB) < 1e-6);
        const Estimate* a2a = findEstimate(zero, "All-to-all per step");
        QVERIFY2(a2a && a2a->value > 0, "no all-to-all shown");
        std::string where;
        const oj json = toJson(plan);
        const oj& candidate = json.at("workflows").at("zero").at("candidates").at(0);
        for (const char* key : {"expert_parallel_size", "total_params", "active_params", "moe_mode"})
            QVERIFY2(candidate.contains(key), key);
        // Its 16-byte states (747 GB) exceed the node's GPUs: every plan that fits offloads, and the page says that
        // ZeRO is the wrong tool at this size, with the numbers.
        QVERIFY(offloads(chosen.candidate));
        const Check* beyond = findCheck(zero, "moe-beyond-zero");
        QVERIFY(beyond);
        QVERIFY2(beyond->message.find("offloads and takes") != std::string::npos, beyond->message.c_str());
        // What does keep it on the GPUs is said with its plan: adapters on the attention, the experts frozen. The
        // answers it names give a plan that fits without offload, as the message says.
        QVERIFY2(q(beyond->message).contains("(training.method lora, lora.targets attention) would keep it there"),
                 beyond->message.c_str());
        const Plan lora = makePlan(importedMixtral({"training.method=lora", "lora.targets=attention"}));
        const StepPrediction& adapters = lora.zero->plan();
        QVERIFY2(adapters.fits() && !offloads(adapters.candidate), adapters.label().c_str());
        QVERIFY2(q(beyond->message).contains(q(adapters.label())), beyond->message.c_str());
        QVERIFY(!findCheck(*lora.find("zero"), "moe-beyond-zero"));
    }

    // Expert parallelism at ZeRO-2 splits the experts: each GPU holds 1/ep of their 16-bit weights and gradients, and
    // pays an all-to-all that no ep-1 plan pays; ZeRO-3 gathers every expert every micro-step.
    void expertParallelismSplitsTheExperts()
    {
        const Job job = resolveJob(importedMixtral());
        const StepJob& s = *job.step;
        // Checkpointed, micro-batch 1 × 8, no offload, at `stage` on `path` with expert-parallel degree `ep`.
        const auto plan = [&](int stage, MoeMode path, std::int64_t ep) {
            return predictStep(s, {{stage, "none", "none"}, true, 1, 8, 0, std::nullopt, ep, path});
        };
        const StepPrediction p1 = plan(2, MoeMode::Auto, 1), p8 = plan(2, MoeMode::AutoEp, 8);
        const double saved = 2.0 * static_cast<double>(s.moe.counts.routed) * (1 - 1.0 / 8);
        QVERIFY(std::abs(static_cast<double>(p1.gpu.params - p8.gpu.params) / saved - 1) < 0.01);
        QVERIFY(p8.gpu.total < p1.gpu.total);
        QCOMPARE(p1.time.allToAll, 0.0);
        QVERIFY(p8.time.allToAll > 0);
        // The optimizer's partition is the same either way: (P − E)/d + (E/ep)/(d/ep) = P/d.
        QVERIFY(std::abs(static_cast<double>(p1.gpu.optimizer - p8.gpu.optimizer)) < 1024);
        // AutoEP at ZeRO-3: each rank gathers only its own experts, within its group: the block it gathers is an
        // eighth of the experts, and it sends far less than ZeRO-3 gathering every expert over all 8 ranks.
        const StepPrediction z3 = plan(3, MoeMode::Leaf, 1), z3ep = plan(3, MoeMode::AutoEp, 8);
        QCOMPARE(z3.gatheredBlockBytes, 2 * s.moe.counts.leafBlock);
        QCOMPARE(z3ep.gatheredBlockBytes, 2 * (s.moe.counts.leafBlock - 7 * s.moe.counts.expert));
        QVERIFY(z3ep.time.communicationBytes < z3.time.communicationBytes / 4);
        QVERIFY(z3ep.time.allToAll > 0 && z3.time.allToAll == 0);
        // Compute counts the active parameters: Mixtral computes like a 12.9B model, not a 46.7B one.
        const Job denseJob = resolveJob(importedMixtral({"model.experts=1"}));
        const double ratio = p1.time.flops / predictStep(*denseJob.step, {{2, "none", "none"}, true, 1, 8}).time.flops;
        const double expected = static_cast<double>(s.moe.counts.active) / static_cast<double>(denseJob.step->params);
        QVERIFY2(std::abs(ratio / expected - 1) < 0.1, qPrintable(QString::number(ratio)));
    }

    // Qwen3-30B-A3B (128 experts, 8 per token): ZeRO-3 without expert parallelism gathers 128 experts per layer every
    // micro-step; the page says when it is several times slower than the best expert-parallel plan.
    void qwen3MoeAgainstZero3()
    {
        const Plan plan = makePlan(importedQwen3Moe({"moe.mode=leaf"}));
        QVERIFY(plan.zero);
        QCOMPARE(plan.zero->plan().candidate.placement.stage, 3);
        QVERIFY(plan.zero->plan().candidate.moePath == MoeMode::Leaf);
        const oj& zero = plan.config.at("zero_optimization");
        QVERIFY(zero.at("leaf_module").at("classes").dump().find("Qwen3MoeSparseMoeBlock") != std::string::npos);
        QVERIFY(findCheck(*plan.find("zero"), "moe-leaf-module"));
        const double leafBlock = 2.0 * static_cast<double>(plan.job.step->moe.counts.leafBlock);
        const Estimate* wholeBlock = findEstimate(*plan.find("zero"), "Gathered MoE block per layer");
        QVERIFY(wholeBlock);
        QCOMPARE(wholeBlock->value, leafBlock);

        const Plan autoPlan = makePlan(importedQwen3Moe());
        const StepPrediction& best = autoPlan.zero->plan();
        QVERIFY2(best.fits(), best.label().c_str());
        // Left to the wizard it takes AutoEP over the leaf plan (README: ZeRO-3 with AutoEP 8), with its keys and the
        // preset its model type has, and the leaf modules' key is not written.
        QVERIFY2(best.candidate.moePath == MoeMode::AutoEp, best.label().c_str());
        const oj& ep = autoPlan.config.at("expert_parallel");
        QCOMPARE(ep.at("autoep_size").get<std::int64_t>(), best.candidate.expertParallel);
        QCOMPARE(ep.at("preset_model").get<std::string>(), std::string("qwen3_moe"));
        QVERIFY(findCheck(*autoPlan.find("zero"), "moe-autoep"));
        QVERIFY(!autoPlan.config.at("zero_optimization").contains("leaf_module"));
        // The gathered block shown is this plan's: each rank's own 16 of the 128 experts, not the whole block.
        const Estimate* gathered = findEstimate(*autoPlan.find("zero"), "Gathered MoE block per layer");
        QVERIFY(gathered);
        QCOMPARE(gathered->value, static_cast<double>(best.gatheredBlockBytes));
        QVERIFY2(gathered->value < leafBlock / 4 && gathered->source == "ds-autoep", gathered->formula.c_str());
        // It fits without offload, so ZeRO is not said to be the wrong tool.
        QVERIFY(!offloads(best.candidate));
        QVERIFY(!findCheck(*autoPlan.find("zero"), "moe-beyond-zero"));
    }

    // zero_optimization.leaf_module exists from DeepSpeed 0.18.0 (deepspeed.json's zero3_default_leaf_modules): from
    // there the config names the classes; before it the key would be refused, so the script registers the block and
    // the page says what hooking every expert cost in the one published run of it.
    void theLeafModuleKeyFollowsTheDeepSpeedVersion()
    {
        const Plan current = makePlan(importedQwen3Moe({"moe.mode=leaf", "software.deepspeed_version=0.18.0"}));
        QVERIFY(current.config.at("zero_optimization").contains("leaf_module"));
        QVERIFY(!findCheck(*current.find("zero"), "moe-leaf-module-in-code"));

        const Plan older = makePlan(importedQwen3Moe({"moe.mode=leaf", "software.deepspeed_version=0.17.6"}));
        QCOMPARE(older.zero->plan().candidate.moePath, std::optional(MoeMode::Leaf));
        QVERIFY(!older.config.at("zero_optimization").contains("leaf_module"));
        const Check* inCode = findCheck(*older.find("zero"), "moe-leaf-module-in-code");
        QVERIFY(inCode && inCode->level == CheckLevel::Warn);
        QVERIFY2(q(inCode->message).contains("91.2 s per step") && q(inCode->message).contains("set_z3_leaf_modules"),
                 inCode->message.c_str());
        QCOMPARE(inCode->source, std::string("msswift-qwen3-moe-zero3"));
        const Advice& zero = *older.find("zero");
        QVERIFY(std::any_of(zero.snippets.begin(), zero.snippets.end(),
                            [](const Snippet& s) { return s.code.find("set_z3_leaf_modules") != std::string::npos; }));
    }

    // launch.sh says what the plan's path asks of the script and the libraries: AutoEP's Transformers version, the
    // leaf-module classes, native MoE's layers.
    void theLaunchScriptSaysWhatThePathNeeds_data()
    {
        QTest::addColumn<QString>("mode");
        QTest::addColumn<QString>("said");
        QTest::newRow("autoep") << "autoep"
                                << "transformers >= 5.0.0";
        QTest::newRow("leaf") << "leaf"
                              << "zero_optimization.leaf_module.classes";
        QTest::newRow("native") << "native"
                                << "deepspeed.moe.layer.MoE(..., num_experts=8, ep_size=";
    }
    void theLaunchScriptSaysWhatThePathNeeds()
    {
        QFETCH(QString, mode);
        QFETCH(QString, said);
        for (const char* launcher : {"deepspeed", "hf-trainer", "accelerate"}) {
            Project project;
            project.answers = importedMixtral({"moe.mode=" + mode, QStringLiteral("software.launcher=") + launcher});
            const Plan plan = makePlan(project);
            const auto files =
                exportFiles(plan.config, project.answers, ExportTarget::Bundle, exportOptionsFor(plan, project));
            const auto launch =
                std::find_if(files.begin(), files.end(), [](const auto& f) { return f.name == "launch.sh"; });
            QVERIFY(launch != files.end());
            QVERIFY2(q(launch->content).contains(said), launch->content.c_str());
        }
    }

    // moe.mode and moe.expert_parallel_size limit the search to what DeepSpeed runs: native never at ZeRO-3
    // (engine.py refuses it), leaf only at ZeRO-3, and an expert-parallel size that divides experts and ranks.
    void theModeAndDegreeBoundTheSearch()
    {
        // A mode the fixed stage cannot run gives way, said: leaf with zero.stage 1, native with zero.stage 3.
        const Plan leafAtOne = makePlan(importedQwen3Moe({"moe.mode=leaf", "zero.stage=1"}));
        QCOMPARE(leafAtOne.zero->plan().candidate.placement.stage, 1);
        QVERIFY(findCheck(*leafAtOne.find("zero"), "moe-mode-set-aside"));
        const Plan nativeAtThree = makePlan(importedMixtral({"moe.mode=native", "zero.stage=3"}));
        QCOMPARE(nativeAtThree.zero->plan().candidate.placement.stage, 3);
        QVERIFY(findCheck(*nativeAtThree.find("zero"), "moe-mode-set-aside"));
        const Plan native = makePlan(importedMixtral({"moe.mode=native"}));
        QVERIFY(!findCheck(*native.find("zero"), "moe-mode-set-aside"));
        // The native layer's snippet writes out the capacity and token dropping it is sized with (moe/layer.py).
        const std::vector<Snippet>& nativeCode = native.find("zero")->snippets;
        QVERIFY(std::any_of(nativeCode.begin(), nativeCode.end(), [](const Snippet& s) {
            return s.code.find("capacity_factor=1.0, drop_tokens=True") != std::string::npos;
        }));
        for (const StepPrediction& p : native.zero->candidates) {
            QVERIFY(p.candidate.placement.stage < 3);
            QVERIFY(p.candidate.moePath == MoeMode::Native);
        }
        const Plan four = makePlan(importedMixtral({"moe.expert_parallel_size=4"}));
        for (const StepPrediction& p : four.zero->candidates) // at ZeRO-3 too: AutoEP
            QVERIFY(p.candidate.expertParallel == 4 && p.candidate.moePath == MoeMode::AutoEp);
        // A size that divides neither: planned with 1, and said.
        const Plan sixteen = makePlan(importedMixtral({"moe.expert_parallel_size=16"}));
        QCOMPARE(sixteen.zero->plan().candidate.expertParallel, std::int64_t(1));
        QVERIFY(findCheck(*sixteen.find("zero"), "moe-expert-parallel-not-divisor"));
        QVERIFY(!findCheck(*four.find("zero"), "moe-expert-parallel-not-divisor"));
        QVERIFY((expertParallelDegrees(8, 8, 0) == std::vector<std::int64_t>{1, 2, 4, 8}));
        QVERIFY((expertParallelDegrees(60, 16, 0) == std::vector<std::int64_t>{1, 2, 4}));
        QVERIFY((expertParallelDegrees(8, 8, 16) == std::vector<std::int64_t>{1})); // 16 divides neither
        QVERIFY(!moePathFor(MoeMode::Native, 3, 1));
        QVERIFY(!moePathFor(MoeMode::Leaf, 2, 1));
        QVERIFY(!moePathFor(MoeMode::AutoEp, 1, 1));
        QVERIFY(moePathFor(MoeMode::Auto, 3, 1) == MoeMode::Leaf);
        QVERIFY(moePathFor(MoeMode::Auto, 3, 8) == MoeMode::AutoEp);
        QVERIFY(!moePathFor(MoeMode::Leaf, 3, 8));
    }

    // Published boundaries (sources.tsv rows; README, "Mixture of experts"): each on the side it was published on.
    //  - xtuner-mixtral-full: Mixtral-8x7B full fine-tune, ZeRO-3 without offload, 2048 tokens, batch 1 × 16, ran on
    //    16 GPUs of 80 GB (A100s, the README's); its 16-byte states alone, 87 GiB per GPU on 8, need the 16.
    //  - qwen3vl-moe-zero2-oom: Qwen3-VL-30B-A3B full SFT at ZeRO-2 on 32 × H100-80GB, 8192 tokens, batch 1 × 4,
    //    checkpointing and the Transformers loss, ran out of memory (sized here as the 30.5B text model, its vision
    //    tower left out: a lighter job than the one that failed).
    //  - msswift-qwen3-moe-zero2-oom, msswift-qwen3-moe-zero3: Qwen3-30B-A3B full SFT on 16 × A800-80GiB (sized as the
    //    A100-80GB, the same GA100 with 80 GB; the A800 only has a slower NVLink), 8192 packed tokens, batch 1 × 1 per
    //    GPU (global 16, as the Megatron run beside it), checkpointing, Transformers 4.51 and its loss: ZeRO-2 ran out
    //    of memory, ZeRO-3 ran (with every expert hooked; sized here with the leaf block the wizard plans).
    void publishedBoundaries_data()
    {
        QTest::addColumn<QString>("file");
        QTest::addColumn<QStringList>("settings");
        QTest::addColumn<bool>("ran");
        const QStringList xtuner{"hardware.gpu=A100-80GB",
                                 "zero.stage=3",
                                 "zero.offload_optimizer=none",
                                 "zero.offload_param=none",
                                 "model.seq_len=2048",
                                 "training.micro_batch_size=1",
                                 "training.gradient_accumulation_steps=16",
                                 "training.activation_checkpointing=on",
                                 "moe.mode=leaf"};
        QTest::newRow("xtuner Mixtral, 16 × A100-80GB: ran")
            << "mixtral-8x7b-v0.1.json" << (xtuner + QStringList{"hardware.nodes=2"}) << true;
        QTest::newRow("xtuner Mixtral on 8: its states alone do not fit")
            << "mixtral-8x7b-v0.1.json" << (xtuner + QStringList{"hardware.nodes=1"}) << false;
        QTest::newRow("Qwen3-VL-30B-A3B, ZeRO-2 on 32 × H100: out of memory")
            << "qwen3-30b-a3b.json"
            << QStringList{"hardware.nodes=4",
                           "zero.stage=2",
                           "zero.offload_optimizer=none",
                           "model.seq_len=8192",
                           "training.micro_batch_size=1",
                           "training.gradient_accumulation_steps=4",
                           "training.activation_checkpointing=on",
                           "moe.expert_parallel_size=1",
                           "model.loss_impl=standard"}
            << false;
        const QStringList swift{"hardware.gpu=A100-80GB",
                                "hardware.nodes=2",
                                "zero.offload_optimizer=none",
                                "zero.offload_param=none",
                                "model.seq_len=8192",
                                "training.micro_batch_size=1",
                                "training.gradient_accumulation_steps=1",
                                "training.activation_checkpointing=on",
                                "moe.expert_parallel_size=1",
                                "model.loss_impl=standard",
                                "software.transformers_version=4.51.3"};
        QTest::newRow("ms-swift Qwen3-30B-A3B, ZeRO-2 on 16 × A800: out of memory")
            << "qwen3-30b-a3b.json" << (swift + QStringList{"zero.stage=2"}) << false;
        QTest::newRow("ms-swift Qwen3-30B-A3B, ZeRO-3 on 16 × A800: ran")
            << "qwen3-30b-a3b.json" << (swift + QStringList{"zero.stage=3", "moe.mode=leaf"}) << true;
    }
    void publishedBoundaries()
    {
        QFETCH(QString, file);
        QFETCH(QStringList, settings);
        QFETCH(bool, ran);
        const Plan plan = makePlan(imported(qPrintable(file), settings));
        QVERIFY(plan.zero && plan.zero->userForced);
        const StepPrediction& asked = plan.zero->plan();
        QVERIFY2(asked.fits() == ran,
                 qPrintable(QString::fromStdString(asked.label()) + ": "
                            + QString::number(static_cast<double>(asked.gpu.total) / kGiB)));
    }

    // Step time against Transformers 5.17's own Mixtral on one H200 (tests/data/moe-step-reference.tsv, made by
    // tests/reference/moe_step_measure.py: forward and backward of the whole model, no optimizer step): the step
    // model's compute, which is all of a one-GPU step without offload. README, "Mixture of experts", lists the
    // ratios. The page's band for a mixture of experts (kMoeStepTimeMeasuredLow/High) is the spread of these two
    // ratios: a change to the step model that moves them fails here until the band and the README follow.
    void stepTimeAgainstTheH200()
    {
        QFile file(QStringLiteral(DSW_TEST_DATA_DIR "/moe-step-reference.tsv"));
        QVERIFY(file.open(QIODevice::ReadOnly));
        const std::vector<std::map<std::string, std::string>> rows = parseTsv(file.readAll().toStdString());
        QCOMPARE(rows.size(), std::size_t(2));
        std::vector<double> ratios;
        for (const auto& row : rows) {
            const auto at = [&](const char* key) { return QString::fromStdString(row.at(key)); };
            const Answers a =
                answersFrom({"hardware.gpu=H200", "hardware.gpus_per_node=1", "zero.stage=0", "model.mlp=swiglu",
                             "model.norm=rmsnorm", "model.attention_impl=sdpa", "model.loss_impl=standard",
                             "training.activation_checkpointing=off", "training.gradient_accumulation_steps=1",
                             "model.layers=" + at("layers"), "model.hidden_size=" + at("hidden"),
                             "model.attention_heads=" + at("heads"), "model.kv_heads=" + at("kv_heads"),
                             "model.intermediate_size=" + at("expert_intermediate"), "model.experts=" + at("experts"),
                             "model.experts_per_token=" + at("k"), "model.vocab_size=" + at("vocab"),
                             "model.seq_len=" + at("seq"), "training.micro_batch_size=" + at("micro_batch")});
            const Plan plan = makePlan(a);
            QVERIFY(plan.zero);
            const StepPrediction& p = plan.zero->plan();
            QCOMPARE(p.time.offload + p.time.communication, 0.0);
            const double ratio = std::stod(row.at("fwd_bwd_seconds")) / p.time.compute;
            qInfo("%s: measured %s s, predicted %.4f s, measured/predicted %.2f", row.at("name").c_str(),
                  row.at("fwd_bwd_seconds").c_str(), p.time.compute, ratio);
            ratios.push_back(ratio);
        }
        const auto [low, high] = std::minmax_element(ratios.begin(), ratios.end());
        QVERIFY2(std::abs(*low - kMoeStepTimeMeasuredLow) < 0.005, qPrintable(QString::number(*low)));
        QVERIFY2(std::abs(*high - kMoeStepTimeMeasuredHigh) < 0.005, qPrintable(QString::number(*high)));
        // The page gives the MoE plan's step time with that spread, wider than the dense runs' band.
        const Plan plan = makePlan(importedQwen3Moe());
        const Estimate* step = findEstimate(*plan.find("zero"), "Step time");
        QVERIFY(step);
        QVERIFY2(q(step->formula).contains("two H200 measurements of MoE steps"), step->formula.c_str());
    }

    // software.transformers_version: below 5.0 the experts run as a loop, which keeps one more token copy per routed
    // expert, and AutoEP (whose presets need 5.0) is not planned unless asked; asked, its check warns.
    void theTransformersVersionDecidesHowExpertsRun()
    {
        const Plan old = makePlan(importedQwen3Moe({"software.transformers_version=4.57.1"}));
        const Plan fused = makePlan(importedQwen3Moe({"software.transformers_version=5.1.0"}));
        for (const StepPrediction& p : old.zero->candidates)
            QVERIFY2(p.candidate.expertParallel == 1, p.label().c_str());
        QVERIFY(std::any_of(fused.zero->candidates.begin(), fused.zero->candidates.end(),
                            [](const StepPrediction& p) { return p.candidate.moePath == MoeMode::AutoEp; }));
        const StepCandidate c{{3, "none", "none"}, false, 1, 1};
        const std::int64_t loop = stepActivations(*old.job.step, c).perLayerBytes;
        const std::int64_t oneCopyLess = stepActivations(*fused.job.step, c).perLayerBytes;
        const std::int64_t tokens = old.job.step->seqLen;
        // Per routed token (k 8, h 2048, bf16): the loop's 2·(h + 1) + 24 bytes more than the fused 36.
        QCOMPARE(loop - oneCopyLess, tokens * 8 * (2 * (2048 + 1) + 24 - 36));
        const Plan asked = makePlan(importedQwen3Moe({"software.transformers_version=4.57.1", "moe.mode=autoep"}));
        const Check* autoEp = findCheck(*asked.find("zero"), "moe-autoep");
        QVERIFY(autoEp && autoEp->level == CheckLevel::Warn);
        QVERIFY(autoEp->message.find("software.transformers_version is 4.57.1") != std::string::npos);
    }

    // Not modelled, said so: a pipeline of MoE layers (the pipeline page splits layers by the dense count).
    void aPipelineOfExpertsIsNotSized()
    {
        Project project;
        project.answers = importedMixtral({"hardware.nodes=4", "pipeline.stages=2"});
        const Plan plan = makePlan(project);
        QVERIFY(!plan.zero && !plan.job.sized());
        QVERIFY(plan.pipeline.memoryPerStage.empty());
        const Check* c = findCheck(*plan.find("pipeline"), "moe-not-modelled");
        QVERIFY(c && c->message.find("pipeline.stages") != std::string::npos);
        std::string where;
        QVERIFY2(!claimsAFit(toJson(plan), where), where.c_str());
    }

    // Every page that sizes reads the one MoE job: the precision and memory pages size every expert too.
    void noPageSizesItAsDense()
    {
        const Plan plan = makePlan(importedMixtral());
        for (const Advice& advice : plan.workflows)
            QVERIFY2(!findCheck(advice, "moe-not-modelled"), advice.workflow.c_str());
        const double weights = 2.0 * static_cast<double>(plan.job.step->moe.counts.total);
        // The ZeRO page's every candidate that keeps its parameters on the GPU holds at least the 16-bit weights'
        // share of one of the 8 GPUs.
        for (const StepPrediction& p : plan.zero->candidates)
            if (p.candidate.placement.offloadParam == "none")
                QVERIFY2(static_cast<double>(p.gpu.params) >= weights / 8 * 0.99, p.label().c_str());
    }

    void theExpertShapeSurvivesSaveAndReopen()
    {
        Project project;
        project.answers = importedQwen3Moe({"moe.mode=autoep"});
        const auto bytes = serializeProjectForFile(project);
        QVERIFY2(bytes, bytes ? "" : bytes.error().c_str());
        const auto reopened = parseProject(bytes.value());
        QVERIFY2(reopened, reopened ? "" : reopened.error().c_str());
        QCOMPARE(reopened.value().answers.integer("model.experts"), 128LL);
        QCOMPARE(reopened.value().answers.text("moe.mode"), std::string("autoep"));
        QCOMPARE(makePlan(reopened.value()).zero->plan().candidate.moePath, std::optional(MoeMode::AutoEp));
    }

    // A ds_config the wizard wrote for a mixture of experts reads back as the path it runs: AutoEP's block gives
    // moe.mode autoep with its size and preset, a leaf_module block gives leaf; a size the registry does not offer is
    // a note that names the key, not an answer.
    void anExportedConfigImportsItsPath_data()
    {
        QTest::addColumn<QString>("mode");
        QTest::newRow("autoep") << "autoep";
        QTest::newRow("leaf") << "leaf";
    }
    void anExportedConfigImportsItsPath()
    {
        QFETCH(QString, mode);
        const Plan exported = makePlan(importedQwen3Moe({"moe.mode=" + mode}));
        const StepCandidate& wrote = exported.zero->plan().candidate;
        const auto parsedConfig = parseConfigText(exported.config.dump(2));
        QVERIFY(parsedConfig);
        const ImportedProject back = importConfig(parsedConfig.value());
        QCOMPARE(back.project.answers.text("moe.mode"), mode.toStdString());
        Answers again = importedQwen3Moe(); // the model and the cluster, then what the config says
        for (const auto& [id, value] : back.project.answers.given())
            again.set(id, value);
        const Plan reread = makePlan(again);
        const StepCandidate& read = reread.zero->plan().candidate;
        QCOMPARE(read.moePath, wrote.moePath);
        QCOMPARE(read.expertParallel, wrote.expertParallel);
        if (mode == "autoep") {
            QCOMPARE(back.project.answers.text("moe.expert_parallel_size"), std::to_string(wrote.expertParallel));
            QCOMPARE(back.project.answers.text("moe.autoep_preset"), std::string("qwen3_moe"));
        }

        const auto odd = parseConfigText(R"({"expert_parallel": {"enabled": true, "autoep_size": 3}})");
        QVERIFY(odd);
        const ImportedProject three = importConfig(odd.value());
        QCOMPARE(three.project.answers.text("moe.mode"), std::string("autoep"));
        QVERIFY(!three.project.answers.has("moe.expert_parallel_size"));
        QVERIFY(std::any_of(three.notes.begin(), three.notes.end(), [](const std::string& n) {
            return n.find("/expert_parallel/autoep_size") != std::string::npos;
        }));
    }

    // A dense model is as before: model.experts 1 (what a dense config.json writes) has no MoE path or check.
    void aDenseModelIsUnchanged()
    {
        QCOMPARE(Answers{}.integer("model.experts"), 1LL);
        const Plan plan = makePlan(answersFrom({"model.preset=llama-3.1-8b", "model.experts=1"}));
        QVERIFY(plan.zero && plan.job.notModelled.empty());
        QVERIFY(!plan.zero->plan().candidate.moePath);
        QVERIFY(!findCheck(*plan.find("zero"), "moe-sized"));
        QVERIFY(!plan.config.contains("expert_parallel"));
        QVERIFY(!InputRegistry::instance().parse("model.experts", "0"));
    }
};

QTEST_APPLESS_MAIN(TestMoePlans)
#include "TestMoePlans.moc"
