// Every real config in ../shared/corpus/ds_configs is read, linted and re-serialised without a crash
// or a lost key; a sample of them is checked finding by finding against deepspeed-facts.md.
#include "lint/ConfigLinter.h"

#include <QDir>
#include <QFile>
#include <QRegularExpression>
#include <QTest>
#include <algorithm>
#include <map>

using namespace dsw;

namespace {

// CI clones the repository with shared/ beside it, so the corpus is found relative to the sources.
QString corpusDir() { return QDir::cleanPath(QStringLiteral(DSW_SOURCE_DIR) + "/../shared/corpus/ds_configs"); }

std::string readFile(const QString& path)
{
    QFile f(path);
    if (!f.open(QIODevice::ReadOnly))
        return {};
    return f.readAll().toStdString();
}

Answers contextFrom(const QString& text)
{
    Answers a;
    for (const QString& part : text.split(';', Qt::SkipEmptyParts)) {
        const QString value = part.section('=', 1);
        bool isInt = false;
        const qlonglong n = value.toLongLong(&isInt);
        if (isInt)
            a.set(part.section('=', 0, 0).toStdString(), n);
        else
            a.set(part.section('=', 0, 0).toStdString(), value.toStdString());
    }
    return a;
}

// The keys of every object, in order, at every depth: what a round trip must keep.
void collectKeys(const nlohmann::ordered_json& j, const std::string& at, std::vector<std::string>& out)
{
    if (j.is_object())
        for (auto it = j.begin(); it != j.end(); ++it) {
            out.push_back(at + "/" + it.key());
            collectKeys(it.value(), at + "/" + it.key(), out);
        }
    else if (j.is_array())
        for (std::size_t i = 0; i < j.size(); ++i)
            collectKeys(j[i], at + "/" + std::to_string(i), out);
}

} // namespace

class TestLintCorpus : public QObject {
    Q_OBJECT
private slots:
    void initTestCase()
    {
        if (!QDir(corpusDir()).exists())
            QFAIL(qPrintable("The config corpus is missing: expected " + corpusDir()
                             + " (shared/ must be checked out beside the ds-wizard clone)."));
    }

    void everyFileReadsLintsAndRoundTrips()
    {
        // SOURCES.tsv: file <TAB> repo <TAB> commit <TAB> original_path <TAB> license <TAB> note <TAB> strict_json
        std::map<std::string, bool> strictByFile;
        const QStringList rows =
            QString::fromStdString(readFile(corpusDir() + "/SOURCES.tsv")).split('\n', Qt::SkipEmptyParts);
        for (int i = 1; i < rows.size(); ++i) {
            const QStringList cols = rows[i].split('\t');
            if (cols.size() >= 7)
                strictByFile[cols[0].toStdString()] = cols[6].trimmed() == "yes";
        }
        QVERIFY2(strictByFile.size() >= 70, "SOURCES.tsv lists the corpus");

        const QRegularExpression kebab("^[a-z0-9]+(-[a-z0-9]+)*$");
        const QStringList contexts = {
            "",
            "software.launcher=hf-trainer",
            "software.launcher=deepspeed;software.deepspeed_version=0.19.5;software.torch_version=2.8.0;"
            "hardware.gpu=V100-32GB;hardware.gpus_per_node=8;hardware.nodes=2;pipeline.stages=2",
        };
        int files = 0;
        for (const QString& name : QDir(corpusDir()).entryList(QDir::Files, QDir::Name)) {
            if (name == "SOURCES.tsv")
                continue;
            ++files;
            const std::string text = readFile(corpusDir() + "/" + name);
            const auto parsed = parseConfigText(text);
            QVERIFY2(parsed.ok(), qPrintable(name + ": " + QString::fromStdString(parsed.ok() ? "" : parsed.error())));
            const ParsedConfig& config = parsed.value();
            auto strict = strictByFile.find(name.toStdString());
            QVERIFY2(strict != strictByFile.end(), qPrintable(name + " is not in SOURCES.tsv"));
            QVERIFY2(config.strictJson == strict->second,
                     qPrintable(name + ": strict_json disagrees with SOURCES.tsv"));

            for (const QString& context : contexts)
                for (const LintFinding& f : lintConfig(config, contextFrom(context))) {
                    const QString where = name + " " + QString::fromStdString(f.code + " " + f.path);
                    QVERIFY2(kebab.match(QString::fromStdString(f.code)).hasMatch(), qPrintable(where));
                    QVERIFY2(f.source && !f.source->empty(), qPrintable(where + ": no source"));
                    QVERIFY2(!f.message.empty(), qPrintable(where));
                    if (!f.path.empty())
                        QVERIFY2(f.line > 0, qPrintable(where + ": no line"));
                }

            // Re-export: the strict JSON written back reads as the same config, every key in its place.
            const auto again = parseConfigText(config.json.dump(2));
            QVERIFY2(again.ok() && again.value().json == config.json,
                     qPrintable(name + ": round trip changed the config"));
            std::vector<std::string> before, after;
            collectKeys(config.json, "", before);
            collectKeys(again.value().json, "", after);
            QVERIFY2(before == after, qPrintable(name + ": key order changed"));
            QVERIFY(again.value().strictJson);
        }
        QCOMPARE(files, int(strictByFile.size()));
    }

    void sample_data()
    {
        QTest::addColumn<QString>("file");
        QTest::addColumn<QString>("context");
        QTest::addColumn<QString>("code");
        QTest::addColumn<QString>("path");
        QTest::addColumn<QString>("level"); // error | warning | info | absent

        const QString ds = "software.launcher=deepspeed";
        // 1. Megatron GPT-2 test config: "cpu_offload": true inside zero_optimization. §2.6: cpu_offload is a
        //    deprecated bool that DeepSpeed maps to offload_optimizer {"device": "cpu"} with a warning.
        const QString megatronOffload =
            "deepspeedai__DeepSpeed__tests__model__Megatron_GPT2__ds_config_func_bs8_zero2_offload.json";
        QTest::newRow("megatron cpu_offload") << megatronOffload << ""
                                              << "deprecated-key"
                                              << "/zero_optimization/cpu_offload"
                                              << "warning";
        //    train_batch_size 8 and gradient_accumulation_steps 1 on 8 GPUs: §2.1 infers micro-batch = 8 // 8 // 1 = 1.
        QTest::newRow("megatron batch on 8 GPUs") << megatronOffload << "hardware.gpus_per_node=8"
                                                  << "batch-inferred"
                                                  << "/train_batch_size"
                                                  << "info";
        //    On 2 × 8 = 16 GPUs the micro-batch is 8 // 16 // 1 = 0: "has to be greater than 0".
        QTest::newRow("megatron batch on 16 GPUs") << megatronOffload << "hardware.gpus_per_node=8;hardware.nodes=2"
                                                   << "batch-identity"
                                                   << "/train_batch_size"
                                                   << "error";

        // 2. Stage 0 with ZeRO-2 knobs: at stage 0 zero_enabled is false, so no ZeRO optimizer receives them (§3.2).
        const QString zero0 = "deepspeedai__DeepSpeed__tests__model__Megatron_GPT2__ds_config_func_bs8_zero0_gas3.json";
        QTest::newRow("stage 0 reduce_bucket_size") << zero0 << ""
                                                    << "zero-option-at-stage-0"
                                                    << "/zero_optimization/reduce_bucket_size"
                                                    << "warning";
        QTest::newRow("stage 0 allgather_bucket_size") << zero0 << ""
                                                       << "zero-option-at-stage-0"
                                                       << "/zero_optimization/allgather_bucket_size"
                                                       << "warning";
        QTest::newRow("stage 0 reduce_scatter") << zero0 << ""
                                                << "zero-option-at-stage-0"
                                                << "/zero_optimization/reduce_scatter"
                                                << "warning";
        const QString llamaFactoryZero0 = "hiyouga__LLaMA-Factory__examples__deepspeed__ds_z0_config.json";
        QTest::newRow("LLaMA-Factory z0 round_robin") << llamaFactoryZero0 << ""
                                                      << "zero-option-at-stage-0"
                                                      << "/zero_optimization/round_robin_gradients"
                                                      << "warning";

        // 3. HF Trainer test config: every batch key and fp16/bf16.enabled are "auto". Under the Trainer they are
        //    filled in (anchors §2.1: info); under plain DeepSpeed the top-level "auto" reaches the batch assertion as
        //    a string (§2.0: error), and fp16.enabled "auto" is dropped to the default False (§2.0 [verified]).
        const QString hfZero2 = "huggingface__transformers__tests__deepspeed__ds_config_zero2.json";
        QTest::newRow("HF auto under Trainer") << hfZero2 << "software.launcher=hf-trainer"
                                               << "auto-value"
                                               << "/train_batch_size"
                                               << "info";
        QTest::newRow("HF auto under deepspeed") << hfZero2 << ds << "auto-value"
                                                 << "/train_batch_size"
                                                 << "error";
        QTest::newRow("HF fp16 auto under deepspeed") << hfZero2 << ds << "auto-in-strict-block"
                                                      << "/fp16/enabled"
                                                      << "warning";
        QTest::newRow("HF optimizer lr auto under deepspeed") << hfZero2 << ds << "auto-value"
                                                              << "/optimizer/params/lr"
                                                              << "error";
        //    The same file on a V100 under the Trainer: bf16.enabled is "auto", so nothing says bf16 is on.
        QTest::newRow("HF bf16 auto on V100") << hfZero2 << "software.launcher=hf-trainer;hardware.gpu=V100-32GB"
                                              << "bf16-unsupported-gpu"
                                              << "/bf16/enabled"
                                              << "absent";

        // 4. trlx GPT-J: Apex's opt_level and fp16_scale_tolerance inside fp16 (DeepSpeedFP16Config, extra="forbid",
        //    §2.0), min_loss_scale 0.5 for an int field (int_from_float, §2.0 [verified]), and offload_param at stage 2
        //    (ignored without error, §2.6).
        const QString trlx = "CarperAI__trlx__examples__summarize_rlhf__configs__ds_config_trlx_gptj_summarize.json";
        QTest::newRow("trlx opt_level") << trlx << ""
                                        << "unknown-key-rejected"
                                        << "/fp16/opt_level"
                                        << "error";
        QTest::newRow("trlx fp16_scale_tolerance") << trlx << ""
                                                   << "unknown-key-rejected"
                                                   << "/fp16/fp16_scale_tolerance"
                                                   << "error";
        QTest::newRow("trlx min_loss_scale") << trlx << ""
                                             << "wrong-type"
                                             << "/fp16/min_loss_scale"
                                             << "error";
        QTest::newRow("trlx offload_param at 2") << trlx << ""
                                                 << "offload-param-below-stage-3"
                                                 << "/zero_optimization/offload_param"
                                                 << "warning";
        //    5e8 for allgather_bucket_size is an integral float: pydantic converts it (§2.0), no type finding.
        QTest::newRow("trlx 5e8 accepted") << trlx << ""
                                           << "wrong-type"
                                           << "/zero_optimization/allgather_bucket_size"
                                           << "absent";

        // 5. InternVL: ZeroOneAdam with ZeRO stage 3: "0/1 Adam is not compatible with ZeRO" (§2.10).
        QTest::newRow("0/1 Adam with ZeRO-3") << "OpenGVLab__InternVL__segmentation__zero_configs__adam_zero3_fp16.json"
                                              << ""
                                              << "onebit-requires-zero-0"
                                              << "/optimizer/type"
                                              << "error";

        // 6. LLaVA zero2: sub_group_size is passed only to the ZeRO-3 optimizer (engine _configure_zero_optimizer).
        QTest::newRow("LLaVA sub_group_size at 2") << "haotian-liu__LLaVA__scripts__zero2.json"
                                                   << ""
                                                   << "stage3-option-below-stage-3"
                                                   << "/zero_optimization/sub_group_size"
                                                   << "warning";

        // 7. Hybrid-engine test: offload_param and a stage3_ knob under stage 0.
        const QString hybrid = "deepspeedai__DeepSpeed__tests__hybrid_engine__hybrid_engine_config.json";
        QTest::newRow("hybrid offload_param at 0") << hybrid << ""
                                                   << "offload-param-below-stage-3"
                                                   << "/zero_optimization/offload_param"
                                                   << "warning";
        QTest::newRow("hybrid stage3 knob at 0") << hybrid << ""
                                                 << "zero-option-at-stage-0"
                                                 << "/zero_optimization/stage3_param_persistence_threshold"
                                                 << "warning";

        // 8. HF ZeRO-3 bf16 test: the legacy "bfloat16" block (§2.4: still read when there is no "bf16") and the
        //    deprecated stage3_gather_fp16_weights_on_model_save (§2.6).
        const QString hfBf16 = "huggingface__transformers__tests__deepspeed__ds_config_zero3_bf16.json";
        QTest::newRow("bfloat16 block") << hfBf16 << ""
                                        << "deprecated-key"
                                        << "/bfloat16"
                                        << "warning";
        QTest::newRow("fp16 weights on save") << hfBf16 << ""
                                              << "deprecated-key"
                                              << "/zero_optimization/stage3_gather_fp16_weights_on_model_save"
                                              << "warning";

        // 9. Keys DeepSpeed's top level never reads (§2.0: unknown top-level keys are silently ignored).
        QTest::newRow("LLaMA-Factory comms_config")
            << "hiyouga__LLaMA-Factory__examples__deepspeed__ds_z3_fp8_config.json"
            << ""
            << "unknown-key-ignored"
            << "/comms_config"
            << "warning";
        QTest::newRow("imagenet cuda_visible_devices")
            << "deepspeedai__DeepSpeedExamples__training__imagenet__config__ds_fp16_z1_config.json"
            << ""
            << "unknown-key-ignored"
            << "/cuda_visible_devices"
            << "warning";
        QTest::newRow("eigenvalue model_name") << "deepspeedai__DeepSpeed__tests__model__BingBertSquad__deepspeed_"
                                                  "bsz24_fp16_eigenvalue_quantize_config.json"
                                               << ""
                                               << "unknown-key-ignored"
                                               << "/eigenvalue/model_name"
                                               << "warning";
        // Megatron perf config: disable_allgather is still read by runtime/config.py, so it is not unknown.
        QTest::newRow("disable_allgather known")
            << "deepspeedai__DeepSpeed__tests__model__Megatron_GPT2__ds_config_perf_bs16.json"
            << ""
            << "unknown-key-ignored"
            << "/disable_allgather"
            << "absent";

        // 10. A Megatron template: bare placeholders are hjson quoteless strings ("CONFIG_BATCH_SIZE,").
        QTest::newRow("template placeholder")
            << "deepspeedai__Megatron-DeepSpeed__examples_deepspeed__MoE__ds_config_gpt_TEMPLATE.json"
            << ""
            << "unquoted-value"
            << "/train_batch_size"
            << "error";
        // 11. Chinese-LLaMA-Alpaca: fp16.min_loss_scale 1e-10 for an int field (§2.3, int_from_float).
        QTest::newRow("min_loss_scale 1e-10")
            << "ymcui__Chinese-LLaMA-Alpaca__scripts__training__ds_zero2_no_offload.json"
            << ""
            << "wrong-type"
            << "/fp16/min_loss_scale"
            << "error";
        // 12. axolotl: compile {disable, backend} but CompileConfig (extra="forbid", §2.0) has neither field.
        QTest::newRow("axolotl compile.backend")
            << "axolotl-ai-cloud__axolotl__deepspeed_configs__zero2_torch_compile.json"
            << ""
            << "unknown-key-rejected"
            << "/compile/backend"
            << "error";
        // 13. Curriculum-learning config with Adam's max_grad_norm in optimizer.params (§2.2 ValueError).
        QTest::newRow("max_grad_norm in Adam") << "deepspeedai__Megatron-DeepSpeed__examples_deepspeed__curriculum_"
                                                  "learning__ds_zero_stage_1_config_curriculum_fixed_linear.json"
                                               << ""
                                               << "max-grad-norm-in-optimizer"
                                               << "/optimizer/params/max_grad_norm"
                                               << "error";
        // 14. Sparse attention (with Lamb) on PyTorch 2.x: the op requires torch < 2.0 (§2.11).
        QTest::newRow("sparse attention on torch 2")
            << "deepspeedai__DeepSpeedExamples__training__bing_bert__deepspeed_bsz64k_lamb_config_seq128.json"
            << "software.torch_version=2.1.0"
            << "sparse-attention-unsupported-torch"
            << "/sparse_attention"
            << "error";
        //    Its fp16.loss_scale is 0 (dynamic), which Lamb requires (§2.10): no finding.
        QTest::newRow("Lamb with dynamic scale")
            << "deepspeedai__DeepSpeedExamples__training__bing_bert__deepspeed_bsz64k_lamb_config_seq128.json"
            << ""
            << "lamb-needs-dynamic-loss-scale"
            << "/fp16/loss_scale"
            << "absent";
        // 15. Accelerate ZeRO-3 template: stage3_gather_16bit_weights_on_model_save "auto" is filled by the
        //     DeepSpeedPlugin (fill_match, accelerate utils/dataclasses.py L1279-L1296), also the one the Trainer's
        //     TrainingArguments builds, with zero3_save_16bit_model: false unless `accelerate config` set it.
        const QString accelerateZ3 =
            "huggingface__accelerate__examples__deepspeed_config_templates__zero_stage3_offload_config.json";
        QTest::newRow("16-bit save auto, Accelerate") << accelerateZ3 << "software.launcher=accelerate"
                                                      << "auto-value"
                                                      << "/zero_optimization/stage3_gather_16bit_weights_on_model_save"
                                                      << "info";
        QTest::newRow("16-bit save auto, Trainer") << accelerateZ3 << "software.launcher=hf-trainer"
                                                   << "auto-value"
                                                   << "/zero_optimization/stage3_gather_16bit_weights_on_model_save"
                                                   << "info";
        QTest::newRow("16-bit save auto saves nothing")
            << accelerateZ3 << "software.launcher=hf-trainer"
            << "zero3-save-not-gathered"
            << "/zero_optimization/stage3_gather_16bit_weights_on_model_save"
            << "warning";
        // 16. axolotl ZeRO-3: unprefixed field names accepted by populate_by_name (§2.6).
        QTest::newRow("axolotl unprefixed")
            << "axolotl-ai-cloud__axolotl__deepspeed_configs__zero3_bf16_cpuoffload_all.json"
            << ""
            << "noncanonical-key"
            << "/zero_optimization/max_live_parameters"
            << "info";
        // 17. gradient_clipping absent on 0.19.5: clipping at 1.0 since 0.19.3 (§2.2).
        QTest::newRow("clipping default")
            << "deepspeedai__DeepSpeedExamples__training__pipeline_parallelism__ds_config.json"
            << "software.deepspeed_version=0.19.5"
            << "default-changed"
            << ""
            << "warning";
    }

    void sample()
    {
        QFETCH(QString, file);
        QFETCH(QString, context);
        QFETCH(QString, code);
        QFETCH(QString, path);
        QFETCH(QString, level);
        const auto parsed = parseConfigText(readFile(corpusDir() + "/" + file));
        QVERIFY2(parsed.ok(), qPrintable(file));
        const auto all = lintConfig(parsed.value(), contextFrom(context));
        auto it = std::find_if(all.begin(), all.end(), [&](const LintFinding& f) {
            return f.code == code.toStdString() && f.path == path.toStdString();
        });
        std::string got;
        for (const LintFinding& f : all)
            got += "\n  " + toString(f.level) + " " + f.code + " " + f.path;
        if (level == "absent") {
            QVERIFY2(it == all.end(), qPrintable("unexpected " + code + QString::fromStdString(got)));
            return;
        }
        QVERIFY2(it != all.end(), qPrintable("missing " + code + " " + path + "; got:" + QString::fromStdString(got)));
        QCOMPARE(QString::fromStdString(toString(it->level)), level);
    }

    void mutatedFilesNeverCrash()
    {
        // Deterministic damage (a fixed linear congruential sequence): replaced, inserted and deleted
        // bytes, including quotes, brackets, comment starts and invalid UTF-8. Reading and linting must
        // return, whatever comes out.
        const char* alphabet = "{}[]:,\"/*#\\ \n\t0123456789.eE+-aztrufnl\xC3\xA9\xFF\x80";
        const std::size_t alphabetSize = std::char_traits<char>::length(alphabet);
        std::uint32_t seed = 12345;
        auto next = [&seed] { return seed = seed * 1664525u + 1013904223u; };
        int parsedOk = 0;
        const QStringList files = QDir(corpusDir()).entryList({"*.json"}, QDir::Files, QDir::Name);
        for (int f = 0; f < files.size(); f += 6) {
            const std::string original = readFile(corpusDir() + "/" + files[f]);
            for (int round = 0; round < 150; ++round) {
                std::string text = original;
                for (int edits = 1 + next() % 4; edits > 0 && !text.empty(); --edits) {
                    const std::size_t at = next() % text.size();
                    const char c = alphabet[next() % alphabetSize];
                    switch (next() % 3) {
                    case 0: text[at] = c; break;
                    case 1: text.insert(text.begin() + static_cast<std::ptrdiff_t>(at), c); break;
                    default: text.erase(at, 1); break;
                    }
                }
                const auto parsed = parseConfigText(text);
                if (parsed.ok()) {
                    ++parsedOk;
                    lintConfig(parsed.value(), contextFrom("software.launcher=deepspeed;hardware.gpus_per_node=8"));
                } else {
                    QVERIFY(!parsed.error().empty());
                }
            }
        }
        QVERIFY(parsedOk > 0); // some damage (inside strings, whitespace) leaves a readable config
    }

    void bigIntegerStaysExact()
    {
        // LMFlow's steps_per_print 20000000000000000 is above 2^53: a double would not hold it exactly.
        const auto parsed =
            parseConfigText(readFile(corpusDir() + "/OptimalScale__LMFlow__configs__archive__ds_config_chatbot.json"));
        QVERIFY(parsed.ok());
        QVERIFY(parsed.value().json["steps_per_print"].is_number_integer());
        QCOMPARE(parsed.value().json["steps_per_print"].get<std::int64_t>(), std::int64_t(20000000000000000));
    }
};

QTEST_APPLESS_MAIN(TestLintCorpus)
#include "TestLintCorpus.moc"
