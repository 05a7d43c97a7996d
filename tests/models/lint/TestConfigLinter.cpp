// The linter against what DeepSpeed v0.19.5 does. Every row is a small config, the answers it is
// linted with, and one finding expected (or expected absent), derived by hand from
// ../shared/knowledge/deepspeed-facts.md (section numbers in the comments).
#include "lint/ConfigLinter.h"
#include "lint/LintReport.h"

#include <QTest>
#include <algorithm>

using namespace dsw;

namespace {

// "a=b;c=8": numbers become integers, anything else stays text.
Answers contextFrom(const QString& text)
{
    Answers a;
    for (const QString& part : text.split(';', Qt::SkipEmptyParts)) {
        const QString key = part.section('=', 0, 0);
        const QString value = part.section('=', 1);
        bool isInt = false;
        const qlonglong n = value.toLongLong(&isInt);
        if (isInt)
            a.set(key.toStdString(), n);
        else
            a.set(key.toStdString(), value.toStdString());
    }
    return a;
}

std::vector<LintFinding> lint(const QString& config, const QString& context)
{
    const auto parsed = parseConfigText(config.toStdString());
    if (!parsed.ok())
        qFatal("test config does not parse: %s", parsed.error().c_str());
    return lintConfig(parsed.value(), contextFrom(context));
}

const LintFinding* find(const std::vector<LintFinding>& all, const std::string& code, const std::string& path)
{
    auto it =
        std::find_if(all.begin(), all.end(), [&](const LintFinding& f) { return f.code == code && f.path == path; });
    return it == all.end() ? nullptr : &*it;
}

std::string listing(const std::vector<LintFinding>& all)
{
    std::string s;
    for (const LintFinding& f : all)
        s += "\n  " + toString(f.level) + " " + f.code + " " + f.path + ": " + f.message;
    return s;
}

} // namespace

class TestConfigLinter : public QObject {
    Q_OBJECT
private slots:
    void findings_data()
    {
        QTest::addColumn<QString>("config");
        QTest::addColumn<QString>("context");
        QTest::addColumn<QString>("code");
        QTest::addColumn<QString>("path");
        QTest::addColumn<QString>("level");    // error | warning | info | absent
        QTest::addColumn<QString>("mentions"); // text the suggestion (or, if none, the message) contains

        // --- unknown keys (§2.0): rejected in pydantic blocks, silently ignored in plain dicts.
        // gradient_clipp1ng is one substitution from gradient_clipping (DeepSpeed issue #653).
        QTest::newRow("top-level typo") << R"({"train_micro_batch_size_per_gpu": 1, "gradient_clipp1ng": 1.0})"
                                        << ""
                                        << "unknown-key-ignored"
                                        << "/gradient_clipp1ng"
                                        << "warning"
                                        << "gradient_clipping";
        // §2.6: "Unknown keys are rejected, for example a typo like stage3_prefetch_bucket" (a prefix of the real key).
        QTest::newRow("zero typo") << R"({"zero_optimization": {"stage": 3, "stage3_prefetch_bucket": 1}})"
                                   << ""
                                   << "unknown-key-rejected"
                                   << "/zero_optimization/stage3_prefetch_bucket"
                                   << "error"
                                   << "stage3_prefetch_bucket_size";
        QTest::newRow("offload typo")
            << R"({"zero_optimization": {"stage": 3, "offload_param": {"device": "cpu", "pin_memroy": true}}})"
            << ""
            << "unknown-key-rejected"
            << "/zero_optimization/offload_param/pin_memroy"
            << "error"
            << "pin_memory";
        // fp16 is DeepSpeedFP16Config (extra="forbid"); Apex's opt_level is not a field.
        QTest::newRow("fp16 apex key") << R"({"fp16": {"enabled": true, "opt_level": "O2"}})"
                                       << ""
                                       << "unknown-key-rejected"
                                       << "/fp16/opt_level"
                                       << "error"
                                       << "remove it";
        // §2.4 trap: check_overflow is in constants.py only; [verified] Extra inputs are not permitted.
        QTest::newRow("bf16 check_overflow") << R"({"bf16": {"enabled": true, "check_overflow": true}})"
                                             << ""
                                             << "unknown-key-rejected"
                                             << "/bf16/check_overflow"
                                             << "error"
                                             << "check_grad_overflow";
        // §2.6: the docs list grad_hooks but it is rejected [verified].
        QTest::newRow("grad_hooks") << R"({"zero_optimization": {"stage": 1, "grad_hooks": true}})"
                                    << ""
                                    << "unknown-key-rejected"
                                    << "/zero_optimization/grad_hooks"
                                    << "error"
                                    << "remove it";
        // §2.7: aio is a plain dict; queue_dept is one deletion from queue_depth.
        QTest::newRow("aio typo") << R"({"aio": {"queue_dept": 8}})"
                                  << ""
                                  << "unknown-key-ignored"
                                  << "/aio/queue_dept"
                                  << "warning"
                                  << "queue_depth";
        // config_utils.py#L54-L57 removes "auto" values before pydantic validates, unknown keys included.
        QTest::newRow("unknown key with auto") << R"({"fp16": {"enabled": true, "opt_level": "auto"}})"
                                               << ""
                                               << "unknown-key-ignored"
                                               << "/fp16/opt_level"
                                               << "warning"
                                               << "removes before validation";
        QTest::newRow("compile strict") << R"({"compile": {"disable": false, "backend": "inductor"}})"
                                        << ""
                                        << "unknown-key-rejected"
                                        << "/compile/backend"
                                        << "error"
                                        << "remove it";
        // Keys written at the wrong level: DeepSpeed reads checkpoint.load_universal and zero_optimization.stage.
        QTest::newRow("misplaced universal") << R"({"load_universal_checkpoint": true})"
                                             << ""
                                             << "unknown-key-ignored"
                                             << "/load_universal_checkpoint"
                                             << "warning"
                                             << "checkpoint.load_universal";
        QTest::newRow("misplaced stage") << R"({"stage": 2})"
                                         << ""
                                         << "unknown-key-ignored"
                                         << "/stage"
                                         << "warning"
                                         << "zero_optimization.stage";
        QTest::newRow("key of another block") << R"({"use_node_local_storage": true})"
                                              << ""
                                              << "unknown-key-ignored"
                                              << "/use_node_local_storage"
                                              << "warning"
                                              << "checkpoint";
        QTest::newRow("comment key") << R"({"_comment": "x"})"
                                     << ""
                                     << "comment-key"
                                     << "/_comment"
                                     << "info"
                                     << "comment";
        // §2.11: bigbird mode does not read num_local_blocks.
        QTest::newRow("sparse mode keys") << R"({"sparse_attention": {"mode": "bigbird", "num_local_blocks": 4}})"
                                          << ""
                                          << "key-not-read"
                                          << "/sparse_attention/num_local_blocks"
                                          << "warning"
                                          << "remove it";
        QTest::newRow("sparse bad mode") << R"({"sparse_attention": {"mode": "longformer"}})"
                                         << ""
                                         << "invalid-value"
                                         << "/sparse_attention/mode"
                                         << "error"
                                         << "bslongformer";
        // §2.9: stages/partition/seed_layers of the pipeline block are never read.
        QTest::newRow("pipeline stages key") << R"({"pipeline": {"stages": 4}})"
                                             << ""
                                             << "key-not-read"
                                             << "/pipeline/stages"
                                             << "warning"
                                             << "remove it";

        // --- deprecated and renamed keys (§2.4, §2.6, §2.7, §2.8)
        QTest::newRow("cpu_offload") << R"({"zero_optimization": {"stage": 2, "cpu_offload": true}})"
                                     << ""
                                     << "deprecated-key"
                                     << "/zero_optimization/cpu_offload"
                                     << "warning"
                                     << "offload_optimizer";
        QTest::newRow("cpu_offload with replacement")
            << R"({"zero_optimization": {"stage": 2, "cpu_offload": true, "offload_optimizer": {"device": "cpu"}}})"
            << ""
            << "deprecated-with-replacement"
            << "/zero_optimization/cpu_offload"
            << "error"
            << "remove cpu_offload";
        QTest::newRow("cpu_offload_param") << R"({"zero_optimization": {"stage": 3, "cpu_offload_param": true}})"
                                           << ""
                                           << "deprecated-key"
                                           << "/zero_optimization/cpu_offload_param"
                                           << "warning"
                                           << "offload_param";
        QTest::newRow("fp16 weights on save")
            << R"({"zero_optimization": {"stage": 3, "stage3_gather_fp16_weights_on_model_save": true}})"
            << ""
            << "deprecated-key"
            << "/zero_optimization/stage3_gather_fp16_weights_on_model_save"
            << "warning"
            << "stage3_gather_16bit_weights_on_model_save";
        QTest::newRow("bfloat16") << R"({"bfloat16": {"enabled": true}})"
                                  << ""
                                  << "deprecated-key"
                                  << "/bfloat16"
                                  << "warning"
                                  << "bf16";
        QTest::newRow("bfloat16 shadowed") << R"({"bf16": {"enabled": true}, "bfloat16": {"enabled": false}})"
                                           << ""
                                           << "deprecated-key-shadowed"
                                           << "/bfloat16"
                                           << "warning"
                                           << "remove it";
        QTest::newRow("aio thread_count") << R"({"aio": {"thread_count": 4}})"
                                          << ""
                                          << "renamed-key-ignored"
                                          << "/aio/thread_count"
                                          << "warning"
                                          << "intra_op_parallelism";
        // §2.7/§5: thread_count was renamed in 0.16.4; older DeepSpeed still reads it.
        QTest::newRow("aio thread_count on 0.16.3") << R"({"aio": {"thread_count": 4}})"
                                                    << "software.deepspeed_version=0.16.3"
                                                    << "deprecated-key"
                                                    << "/aio/thread_count"
                                                    << "info"
                                                    << "when you upgrade";
        QTest::newRow("aio thread_count on 0.16.4") << R"({"aio": {"thread_count": 4}})"
                                                    << "software.deepspeed_version=0.16.4"
                                                    << "renamed-key-ignored"
                                                    << "/aio/thread_count"
                                                    << "warning"
                                                    << "intra_op_parallelism";
        QTest::newRow("partitioned_activations") << R"({"activation_checkpointing": {"partitioned_activations": true}})"
                                                 << ""
                                                 << "renamed-key-ignored"
                                                 << "/activation_checkpointing/partitioned_activations"
                                                 << "warning"
                                                 << "partition_activations";
        // populate_by_name: both spellings are accepted; the stage3_ alias is the documented one.
        QTest::newRow("unprefixed alias") << R"({"zero_optimization": {"stage": 3, "max_live_parameters": 1e9}})"
                                          << ""
                                          << "noncanonical-key"
                                          << "/zero_optimization/max_live_parameters"
                                          << "info"
                                          << "stage3_max_live_parameters";
        QTest::newRow("both spellings")
            << R"({"zero_optimization": {"stage": 3, "max_live_parameters": 1, "stage3_max_live_parameters": 2}})"
            << ""
            << "alias-conflict"
            << "/zero_optimization/max_live_parameters"
            << "warning"
            << "stage3_max_live_parameters";

        // --- types (§2.0): pydantic converts in strict blocks, the top level takes values as written.
        QTest::newRow("GAS as string top")
            << R"({"train_micro_batch_size_per_gpu": 1, "gradient_accumulation_steps": "8"})"
            << ""
            << "number-as-string"
            << "/gradient_accumulation_steps"
            << "error"
            << "write 8";
        // pydantic parses digit strings for int fields and refuses exponents (measured with the oracle).
        QTest::newRow("bucket 2e8 as string") << R"({"zero_optimization": {"stage": 2, "reduce_bucket_size": "2e8"}})"
                                              << ""
                                              << "number-as-string"
                                              << "/zero_optimization/reduce_bucket_size"
                                              << "error"
                                              << "unable to parse string as an integer";
        QTest::newRow("max live 1e9 as string")
            << R"({"zero_optimization": {"stage": 3, "stage3_max_live_parameters": "1e9"}})"
            << ""
            << "number-as-string"
            << "/zero_optimization/stage3_max_live_parameters"
            << "error"
            << "write 1000000000 as a number";
        QTest::newRow("bucket 2.0 as string") << R"({"zero_optimization": {"stage": 2, "reduce_bucket_size": "2.0"}})"
                                              << ""
                                              << "number-as-string"
                                              << "/zero_optimization/reduce_bucket_size"
                                              << "warning"
                                              << "converts";
        QTest::newRow("bucket as string zero")
            << R"({"zero_optimization": {"stage": 2, "reduce_bucket_size": "500000000"}})"
            << ""
            << "number-as-string"
            << "/zero_optimization/reduce_bucket_size"
            << "warning"
            << "write 500000000";
        QTest::newRow("5e8 fine in zero") << R"({"zero_optimization": {"stage": 2, "reduce_bucket_size": 5e8}})"
                                          << ""
                                          << "wrong-type"
                                          << "/zero_optimization/reduce_bucket_size"
                                          << "absent"
                                          << "";
        QTest::newRow("1e5 at top level") << R"({"train_micro_batch_size_per_gpu": 1, "steps_per_print": 1e5})"
                                          << ""
                                          << "float-for-int"
                                          << "/steps_per_print"
                                          << "info"
                                          << "write 100000";
        // [verified] 5.5 for an int field fails with int_from_float; min_loss_scale is int (§2.3).
        QTest::newRow("fractional min_loss_scale") << R"({"fp16": {"enabled": true, "min_loss_scale": 0.5}})"
                                                   << ""
                                                   << "wrong-type"
                                                   << "/fp16/min_loss_scale"
                                                   << "error"
                                                   << "int_from_float";
        QTest::newRow("integral float fine") << R"({"fp16": {"enabled": true, "initial_scale_power": 16.0}})"
                                             << ""
                                             << "wrong-type"
                                             << "/fp16/initial_scale_power"
                                             << "absent"
                                             << "";
        QTest::newRow("fractional batch") << R"({"train_batch_size": 8.5})"
                                          << ""
                                          << "wrong-type"
                                          << "/train_batch_size"
                                          << "error"
                                          << "not an integer";
        QTest::newRow("string false top") << R"({"train_micro_batch_size_per_gpu": 1, "prescale_gradients": "false"})"
                                          << ""
                                          << "wrong-type"
                                          << "/prescale_gradients"
                                          << "error"
                                          << "write true or false";
        QTest::newRow("string true strict") << R"({"fp16": {"enabled": "true"}})"
                                            << ""
                                            << "wrong-type"
                                            << "/fp16/enabled"
                                            << "warning"
                                            << "converts";
        QTest::newRow("fp16 as bool") << R"({"fp16": true})"
                                      << ""
                                      << "wrong-type"
                                      << "/fp16"
                                      << "error"
                                      << "an object";
        QTest::newRow("bad device") << R"({"zero_optimization": {"stage": 3, "offload_param": {"device": "gpu"}}})"
                                    << ""
                                    << "invalid-value"
                                    << "/zero_optimization/offload_param/device"
                                    << "error"
                                    << "none, cpu, nvme";
        QTest::newRow("comm data type") << R"({"communication_data_type": "fp8"})"
                                        << ""
                                        << "invalid-value"
                                        << "/communication_data_type"
                                        << "error"
                                        << "fp16, bf16, fp32";
        QTest::newRow("negative bucket") << R"({"zero_optimization": {"stage": 2, "reduce_bucket_size": -1}})"
                                         << ""
                                         << "value-out-of-range"
                                         << "/zero_optimization/reduce_bucket_size"
                                         << "error"
                                         << "at least 0";
        QTest::newRow("ratio above 1")
            << R"({"zero_optimization": {"stage": 3, "offload_optimizer": {"device": "cpu", "ratio": 1.5}}})"
            << ""
            << "value-out-of-range"
            << "/zero_optimization/offload_optimizer/ratio"
            << "error"
            << "between 0 and 1";
        QTest::newRow("batch zero") << R"({"train_batch_size": 0})"
                                    << ""
                                    << "value-out-of-range"
                                    << "/train_batch_size"
                                    << "error"
                                    << "at least 1";
        // §2.6: stage is ZeroStageEnum 0-3; stage 4 fails validation [verified].
        QTest::newRow("stage 4") << R"({"zero_optimization": {"stage": 4}})"
                                 << ""
                                 << "zero-stage-invalid"
                                 << "/zero_optimization/stage"
                                 << "error"
                                 << "0 to 3";
        QTest::newRow("stage -1") << R"({"zero_optimization": {"stage": -1}})"
                                  << ""
                                  << "zero-stage-invalid"
                                  << "/zero_optimization/stage"
                                  << "error"
                                  << "0 to 3";
        QTest::newRow("legacy zero bool") << R"({"zero_optimization": true})"
                                          << ""
                                          << "legacy-zero-bool"
                                          << "/zero_optimization"
                                          << "warning"
                                          << R"({"stage": 1})";
        QTest::newRow("legacy_stage1") << R"({"zero_optimization": {"stage": 1, "legacy_stage1": true}})"
                                       << ""
                                       << "legacy-stage1"
                                       << "/zero_optimization/legacy_stage1"
                                       << "error"
                                       << "remove it";
        // config_utils.py dict_raise_error_on_duplicate_keys
        QTest::newRow("duplicate") << "{\"train_batch_size\": 8,\n \"train_batch_size\": 16}"
                                   << ""
                                   << "duplicate-key"
                                   << "/train_batch_size"
                                   << "error"
                                   << "keep one";
        QTest::newRow("template placeholder") << "{\"train_batch_size\": GBSIZE,\n\"x\": 1}"
                                              << ""
                                              << "unquoted-value"
                                              << "/train_batch_size"
                                              << "error"
                                              << "replace it";
        QTest::newRow("comments") << "{\"train_batch_size\": 8 // per step\n}"
                                  << ""
                                  << "not-strict-json"
                                  << ""
                                  << "info"
                                  << "comments";

        // --- the batch identity (§2.1) with data-parallel size = GPUs per node × nodes / pipeline stages.
        // 4 × 4 × 8 = 128 ≠ 64; 64 / (4 × 8) = 2 would fit.
        QTest::newRow("identity broken")
            << R"({"train_batch_size": 64, "train_micro_batch_size_per_gpu": 4, "gradient_accumulation_steps": 4})"
            << "hardware.gpus_per_node=8"
            << "batch-identity"
            << "/train_batch_size"
            << "error"
            << "gradient_accumulation_steps to 2";
        // 2 nodes × 8 GPUs / 2 stages = 8: 32 ≠ 4 × 2 × 8 = 64.
        QTest::newRow("identity with pipeline")
            << R"({"train_batch_size": 32, "train_micro_batch_size_per_gpu": 4, "gradient_accumulation_steps": 2})"
            << "hardware.gpus_per_node=8;hardware.nodes=2;pipeline.stages=2"
            << "batch-identity"
            << "/train_batch_size"
            << "error"
            << "infer it (64)";
        // 1 node × 8 / 2 stages = 4: 4 × 2 × 4 = 32 holds.
        QTest::newRow("identity holds")
            << R"({"train_batch_size": 32, "train_micro_batch_size_per_gpu": 4, "gradient_accumulation_steps": 2})"
            << "hardware.gpus_per_node=8;hardware.nodes=1;pipeline.stages=2"
            << "batch-identity"
            << "/train_batch_size"
            << "absent"
            << "";
        // sequence_parallel_size divides the world: 8 / 2 = 4, 2 × 2 × 4 = 16 holds.
        QTest::newRow("identity with sequence parallel")
            << R"({"train_batch_size": 16, "train_micro_batch_size_per_gpu": 2, "gradient_accumulation_steps": 2, "sequence_parallel_size": 2})"
            << "hardware.gpus_per_node=8"
            << "batch-identity"
            << "/train_batch_size"
            << "absent"
            << "";
        // Floor division: GAS = 100 // 3 // 8 = 4, and 3 × 4 × 8 = 96 ≠ 100.
        QTest::newRow("inferred GAS breaks") << R"({"train_batch_size": 100, "train_micro_batch_size_per_gpu": 3})"
                                             << "hardware.gpus_per_node=8"
                                             << "batch-identity"
                                             << "/train_batch_size"
                                             << "error"
                                             << "multiple of 24";
        // GAS = 96 // 3 // 8 = 4 exactly.
        QTest::newRow("inferred GAS fits") << R"({"train_batch_size": 96, "train_micro_batch_size_per_gpu": 3})"
                                           << "hardware.gpus_per_node=8"
                                           << "batch-inferred"
                                           << "/train_batch_size"
                                           << "info"
                                           << "gradient_accumulation_steps = 4";
        // GAS = 8 // 4 // 8 = 0: "Gradient accumulation steps: 0 has to be greater than 0".
        QTest::newRow("inferred GAS zero") << R"({"train_batch_size": 8, "train_micro_batch_size_per_gpu": 4})"
                                           << "hardware.gpus_per_node=8"
                                           << "batch-identity"
                                           << "/train_batch_size"
                                           << "error"
                                           << "at least 32";
        // MBS = 64 // 8 // 2 = 4 exactly.
        QTest::newRow("inferred MBS fits") << R"({"train_batch_size": 64, "gradient_accumulation_steps": 2})"
                                           << "hardware.gpus_per_node=8"
                                           << "batch-inferred"
                                           << "/train_batch_size"
                                           << "info"
                                           << "train_micro_batch_size_per_gpu = 4";
        // TBS = 2 × 3 × 16 = 96.
        QTest::newRow("inferred TBS") << R"({"train_micro_batch_size_per_gpu": 2, "gradient_accumulation_steps": 3})"
                                      << "hardware.gpus_per_node=8;hardware.nodes=2"
                                      << "batch-inferred"
                                      << "/train_micro_batch_size_per_gpu"
                                      << "info"
                                      << "= 96";
        // No GPU count: 64 / (4 × 2) = 8 is the only data-parallel size that works.
        QTest::newRow("implied world size")
            << R"({"train_batch_size": 64, "train_micro_batch_size_per_gpu": 4, "gradient_accumulation_steps": 2})"
            << ""
            << "batch-implied-world-size"
            << "/train_batch_size"
            << "info"
            << "follows the GPU count";
        // With sequence parallelism the data-parallel size 8 is 16 GPUs.
        QTest::newRow("implied world size, sequence parallel")
            << R"({"train_batch_size": 64, "train_micro_batch_size_per_gpu": 4, "gradient_accumulation_steps": 2,
                  "sequence_parallel_size": 2})"
            << ""
            << "batch-implied-world-size"
            << "/train_batch_size"
            << "info"
            << "= 8 (16 GPUs with sequence_parallel_size 2)";
        // 65 is not a multiple of 4 × 2 = 8: no GPU count satisfies it.
        QTest::newRow("no world size fits")
            << R"({"train_batch_size": 65, "train_micro_batch_size_per_gpu": 4, "gradient_accumulation_steps": 2})"
            << ""
            << "batch-identity"
            << "/train_batch_size"
            << "error"
            << "infer it";
        QTest::newRow("no batch size") << R"({"zero_optimization": {"stage": 1}})"
                                       << ""
                                       << "batch-size-missing"
                                       << ""
                                       << "error"
                                       << "train_micro_batch_size_per_gpu";
        QTest::newRow("GAS only") << R"({"gradient_accumulation_steps": 4})"
                                  << ""
                                  << "batch-size-missing"
                                  << "/gradient_accumulation_steps"
                                  << "error"
                                  << "train_micro_batch_size_per_gpu";
        QTest::newRow("elastic with batch") << R"({"train_batch_size": 8, "elasticity": {"enabled": true}})"
                                            << ""
                                            << "elasticity-with-batch-keys"
                                            << "/elasticity"
                                            << "error"
                                            << "ignore_non_elastic_batch_info";

        // --- precision (§2.4)
        QTest::newRow("fp16 and bf16") << R"({"fp16": {"enabled": true}, "bf16": {"enabled": true}})"
                                       << ""
                                       << "fp16-and-bf16"
                                       << "/bf16/enabled"
                                       << "error"
                                       << "enable only one";
        // torch.cuda.is_bf16_supported() counts emulation from PyTorch 2.3: both sides of the boundary.
        QTest::newRow("bf16 on V100, torch 2.2") << R"({"bf16": {"enabled": true}})"
                                                 << "hardware.gpu=V100-32GB;software.torch_version=2.2.2"
                                                 << "bf16-unsupported-gpu"
                                                 << "/bf16/enabled"
                                                 << "error"
                                                 << "Type bf16 is not supported";
        QTest::newRow("bf16 on V100, torch 2.3") << R"({"bf16": {"enabled": true}})"
                                                 << "hardware.gpu=V100-32GB;software.torch_version=2.3.0"
                                                 << "bf16-unsupported-gpu"
                                                 << "/bf16/enabled"
                                                 << "warning"
                                                 << "emulated";
        QTest::newRow("bf16 on V100, torch unknown") << R"({"bf16": {"enabled": true}})"
                                                     << "hardware.gpu=V100-32GB"
                                                     << "bf16-unsupported-gpu"
                                                     << "/bf16/enabled"
                                                     << "warning"
                                                     << "software.torch_version";
        QTest::newRow("bf16 on A100") << R"({"bf16": {"enabled": true}})"
                                      << "hardware.gpu=A100-80GB"
                                      << "bf16-unsupported-gpu"
                                      << "/bf16/enabled"
                                      << "absent"
                                      << "";
        QTest::newRow("amp with zero") << R"({"amp": {"enabled": true}, "zero_optimization": {"stage": 2}})"
                                       << ""
                                       << "amp-with-zero"
                                       << "/amp/enabled"
                                       << "error"
                                       << "fp16 or bf16";
        QTest::newRow("amp with fp16") << R"({"amp": {"enabled": true}, "fp16": {"enabled": true}})"
                                       << ""
                                       << "amp-with-fp16-bf16"
                                       << "/amp/enabled"
                                       << "error"
                                       << "either amp";
        QTest::newRow("fp16 master weights stage 0")
            << R"({"fp16": {"enabled": true, "fp16_master_weights_and_grads": true}})"
            << ""
            << "master-weights-need-zero"
            << "/fp16/fp16_master_weights_and_grads"
            << "error"
            << "stage 1";
        QTest::newRow("bf16 optimizer states alone")
            << R"({"zero_optimization": {"stage": 2}, "bf16": {"enabled": true, "bf16_optimizer_states": true}})"
            << ""
            << "bf16-optimizer-states-need-master-weights"
            << "/bf16/bf16_optimizer_states"
            << "error"
            << "bf16_master_weights_and_grads";

        // --- options at the stage in use (§2.6, §3.2)
        QTest::newRow("offload_param at 2")
            << R"({"zero_optimization": {"stage": 2, "offload_param": {"device": "cpu"}}})"
            << ""
            << "offload-param-below-stage-3"
            << "/zero_optimization/offload_param"
            << "warning"
            << "stage 3";
        QTest::newRow("offload_param none at 2")
            << R"({"zero_optimization": {"stage": 2, "offload_param": {"device": "none"}}})"
            << ""
            << "offload-param-below-stage-3"
            << "/zero_optimization/offload_param"
            << "absent"
            << "";
        QTest::newRow("nvme at 2")
            << R"({"zero_optimization": {"stage": 2, "offload_optimizer": {"device": "nvme", "nvme_path": "/nvme"}}})"
            << ""
            << "nvme-below-stage-3"
            << "/zero_optimization/offload_optimizer/device"
            << "warning"
            << "cpu";
        QTest::newRow("nvme path empty")
            << R"({"zero_optimization": {"stage": 3, "offload_param": {"device": "nvme", "nvme_path": ""}}})"
            << ""
            << "nvme-path-empty"
            << "/zero_optimization/offload_param/nvme_path"
            << "warning"
            << "working directory";
        QTest::newRow("nvme path empty is not missing")
            << R"({"zero_optimization": {"stage": 3, "offload_optimizer": {"device": "nvme", "nvme_path": ""}}})"
            << ""
            << "nvme-path-missing"
            << "/zero_optimization/offload_optimizer"
            << "absent"
            << "";
        QTest::newRow("nvme without path")
            << R"({"zero_optimization": {"stage": 3, "offload_param": {"device": "nvme"}}})"
            << ""
            << "nvme-path-missing"
            << "/zero_optimization/offload_param"
            << "error"
            << "nvme_path";
        QTest::newRow("optimizer nvme without path")
            << R"({"zero_optimization": {"stage": 3, "offload_optimizer": {"device": "nvme", "nvme_path": null}}})"
            << ""
            << "nvme-path-missing"
            << "/zero_optimization/offload_optimizer"
            << "error"
            << "nvme_path";
        QTest::newRow("partial offload at 2")
            << R"({"zero_optimization": {"stage": 2, "offload_optimizer": {"device": "cpu", "ratio": 0.5}}})"
            << ""
            << "partial-offload-below-stage-3"
            << "/zero_optimization/offload_optimizer/ratio"
            << "error"
            << "stage 3";
        QTest::newRow("partial offload at 3")
            << R"({"zero_optimization": {"stage": 3, "offload_optimizer": {"device": "cpu", "ratio": 0.3}}})"
            << ""
            << "partial-offload-below-stage-3"
            << "/zero_optimization/offload_optimizer/ratio"
            << "absent"
            << "";
        QTest::newRow("knob at stage 0") << R"({"zero_optimization": {"stage": 0, "reduce_bucket_size": 7000000}})"
                                         << ""
                                         << "zero-option-at-stage-0"
                                         << "/zero_optimization/reduce_bucket_size"
                                         << "warning"
                                         << "stage 1";
        QTest::newRow("offload at stage 0")
            << R"({"zero_optimization": {"stage": 0, "offload_optimizer": {"device": "cpu"}}})"
            << ""
            << "zero-option-at-stage-0"
            << "/zero_optimization/offload_optimizer"
            << "warning"
            << "stage 1";
        QTest::newRow("stage-3 knob at 2") << R"({"zero_optimization": {"stage": 2, "sub_group_size": 1e9}})"
                                           << ""
                                           << "stage3-option-below-stage-3"
                                           << "/zero_optimization/sub_group_size"
                                           << "warning"
                                           << "stage 3";

        // --- pipeline (§2.9), 1-bit optimizers (§2.10), max_grad_norm (§2.2), sparse attention (§2.11)
        QTest::newRow("pipeline with ZeRO-2") << R"({"zero_optimization": {"stage": 2}})"
                                              << "pipeline.stages=4"
                                              << "pipeline-requires-zero-0-or-1"
                                              << "/zero_optimization/stage"
                                              << "error"
                                              << "0 or 1";
        QTest::newRow("pipeline block with ZeRO-3")
            << R"({"zero_optimization": {"stage": 3}, "pipeline": {"activation_checkpoint_interval": 1}})"
            << ""
            << "pipeline-requires-zero-0-or-1"
            << "/zero_optimization/stage"
            << "warning"
            << "0 or 1";
        QTest::newRow("pipeline with ZeRO-1 overlap") << R"({"zero_optimization": {"stage": 1, "overlap_comm": true}})"
                                                      << "pipeline.stages=2"
                                                      << "pipeline-disables-overlap-comm"
                                                      << "/zero_optimization/overlap_comm"
                                                      << "info"
                                                      << "will be disabled";
        QTest::newRow("1-bit Adam with ZeRO")
            << R"({"optimizer": {"type": "OneBitAdam"}, "zero_optimization": {"stage": 1}})"
            << ""
            << "onebit-requires-zero-0"
            << "/optimizer/type"
            << "error"
            << "stage to 0";
        QTest::newRow("0/1 Adam at stage 0")
            << R"({"optimizer": {"type": "ZeroOneAdam"}, "zero_optimization": {"stage": 0}})"
            << ""
            << "onebit-requires-zero-0"
            << "/optimizer/type"
            << "absent"
            << "";
        QTest::newRow("unknown backend")
            << R"({"optimizer": {"type": "OneBitLamb", "params": {"comm_backend_name": "gloo"}}})"
            << ""
            << "comm-backend-unknown"
            << "/optimizer/params/comm_backend_name"
            << "error"
            << "nccl";
        QTest::newRow("lamb static scale")
            << R"({"optimizer": {"type": "Lamb"}, "fp16": {"enabled": true, "loss_scale": 128}})"
            << ""
            << "lamb-needs-dynamic-loss-scale"
            << "/fp16/loss_scale"
            << "error"
            << "loss_scale";
        QTest::newRow("max_grad_norm")
            << R"({"optimizer": {"type": "Adam", "params": {"lr": 1e-4, "max_grad_norm": 1.0}}})"
            << ""
            << "max-grad-norm-in-optimizer"
            << "/optimizer/params/max_grad_norm"
            << "error"
            << R"("gradient_clipping": 1)";
        QTest::newRow("sparse on torch 2") << R"({"sparse_attention": {"mode": "fixed"}})"
                                           << "software.torch_version=2.4.0"
                                           << "sparse-attention-unsupported-torch"
                                           << "/sparse_attention"
                                           << "error"
                                           << "FlashAttention";
        QTest::newRow("sparse on DeepSpeed 0.19") << R"({"sparse_attention": {"mode": "fixed"}})"
                                                  << "software.deepspeed_version=0.19.5"
                                                  << "sparse-attention-unsupported-torch"
                                                  << "/sparse_attention"
                                                  << "error"
                                                  << "FlashAttention";
        QTest::newRow("sparse on torch 1.13") << R"({"sparse_attention": {"mode": "fixed"}})"
                                              << "software.torch_version=1.13.1"
                                              << "sparse-attention-legacy"
                                              << "/sparse_attention"
                                              << "warning"
                                              << "torch_version";

        // --- "auto" (§2.0; anchors §2.1): filled by the HF Trainer/Accelerate, a string to plain DeepSpeed,
        // and silently the default inside pydantic blocks.
        QTest::newRow("auto under Trainer") << R"({"train_batch_size": "auto"})"
                                            << "software.launcher=hf-trainer"
                                            << "auto-value"
                                            << "/train_batch_size"
                                            << "info"
                                            << "hf-trainer fills it in";
        QTest::newRow("auto under deepspeed") << R"({"train_batch_size": "auto"})"
                                              << "software.launcher=deepspeed"
                                              << "auto-value"
                                              << "/train_batch_size"
                                              << "error"
                                              << "write the value";
        QTest::newRow("auto, launcher unknown") << R"({"train_batch_size": "auto"})"
                                                << ""
                                                << "auto-value"
                                                << "/train_batch_size"
                                                << "warning"
                                                << "software.launcher";
        QTest::newRow("fp16 auto under deepspeed") << R"({"fp16": {"enabled": "auto"}})"
                                                   << "software.launcher=deepspeed"
                                                   << "auto-in-strict-block"
                                                   << "/fp16/enabled"
                                                   << "warning"
                                                   << "default false";
        QTest::newRow("fp16 auto under Trainer") << R"({"fp16": {"enabled": "auto"}})"
                                                 << "software.launcher=hf-trainer"
                                                 << "auto-value"
                                                 << "/fp16/enabled"
                                                 << "info"
                                                 << "fills it in";
        // Under the Trainer or Accelerate an "auto" neither fills stops accelerator.prepare() (fill_match raises),
        // before DeepSpeed could drop it; without an HF launcher DeepSpeed's pydantic drops it silently.
        QTest::newRow("sub_group_size auto, Trainer")
            << R"({"zero_optimization": {"stage": 3, "sub_group_size": "auto"}})"
            << "software.launcher=hf-trainer"
            << "auto-value"
            << "/zero_optimization/sub_group_size"
            << "error"
            << "not found in kwargs";
        QTest::newRow("betas auto, Accelerate") << R"({"optimizer": {"type": "AdamW", "params": {"betas": "auto"}}})"
                                                << "software.launcher=accelerate"
                                                << "auto-value"
                                                << "/optimizer/params/betas"
                                                << "error"
                                                << "not found in kwargs";
        QTest::newRow("train_batch_size auto without a micro-batch, Accelerate") << R"({"train_batch_size": "auto"})"
                                                                                 << "software.launcher=accelerate"
                                                                                 << "auto-value"
                                                                                 << "/train_batch_size"
                                                                                 << "error"
                                                                                 << "does not fill";
        QTest::newRow("sub_group_size auto, DeepSpeed")
            << R"({"zero_optimization": {"stage": 3, "sub_group_size": "auto"}})"
            << "software.launcher=deepspeed"
            << "auto-in-strict-block"
            << "/zero_optimization/sub_group_size"
            << "warning"
            << "silently drops";
        QTest::newRow("no zero block, Trainer") << R"({"train_batch_size": 8})"
                                                << "software.launcher=hf-trainer"
                                                << "hf-zero-block-missing"
                                                << ""
                                                << "error"
                                                << "Please specify the ZeRO optimization config";
        QTest::newRow("no zero block, DeepSpeed") << R"({"train_batch_size": 8})"
                                                  << "software.launcher=deepspeed"
                                                  << "hf-zero-block-missing"
                                                  << ""
                                                  << "absent"
                                                  << "";
        QTest::newRow("pipeline under the Trainer") << R"({"zero_optimization": {"stage": 1}})"
                                                    << "software.launcher=hf-trainer;pipeline.stages=2"
                                                    << "pipeline-needs-deepspeed-launcher"
                                                    << ""
                                                    << "error"
                                                    << "2 times the plan's batch";
        QTest::newRow("pipeline under DeepSpeed") << R"({"zero_optimization": {"stage": 1}})"
                                                  << "software.launcher=deepspeed;pipeline.stages=2"
                                                  << "pipeline-needs-deepspeed-launcher"
                                                  << ""
                                                  << "absent"
                                                  << "";
        QTest::newRow("ZeRO-3 save off, Accelerate")
            << R"({"zero_optimization": {"stage": 3, "stage3_gather_16bit_weights_on_model_save": false}})"
            << "software.launcher=accelerate"
            << "zero3-save-not-gathered"
            << "/zero_optimization/stage3_gather_16bit_weights_on_model_save"
            << "warning"
            << "zero_to_fp32.py";
        // Adapters at ZeRO-3 (knowledge/AdapterRules.h): without the gather the save writes an empty adapter, under
        // every launcher; the adapter rule speaks for it instead of the Hugging Face one.
        QTest::newRow("LoRA at ZeRO-3, no gather") << R"({"zero_optimization": {"stage": 3}})"
                                                   << "software.launcher=deepspeed;training.method=lora"
                                                   << "adapter-zero3-save-gather"
                                                   << "/zero_optimization"
                                                   << "warning"
                                                   << "stage3_gather_16bit_weights_on_model_save";
        QTest::newRow("QLoRA at ZeRO-3, gather off, Accelerate")
            << R"({"zero_optimization": {"stage": 3, "stage3_gather_16bit_weights_on_model_save": false}})"
            << "software.launcher=accelerate;training.method=qlora"
            << "adapter-zero3-save-gather"
            << "/zero_optimization"
            << "warning"
            << "stage3_gather_16bit_weights_on_model_save";
        QTest::newRow("QLoRA at ZeRO-3, gather off: one finding, the adapter's")
            << R"({"zero_optimization": {"stage": 3, "stage3_gather_16bit_weights_on_model_save": false}})"
            << "software.launcher=accelerate;training.method=qlora"
            << "zero3-save-not-gathered"
            << "/zero_optimization/stage3_gather_16bit_weights_on_model_save"
            << "absent"
            << "";
        QTest::newRow("LoRA at ZeRO-3 with the gather")
            << R"({"zero_optimization": {"stage": 3, "stage3_gather_16bit_weights_on_model_save": true}})"
            << "software.launcher=hf-trainer;training.method=lora"
            << "adapter-zero3-save-gather"
            << "/zero_optimization"
            << "absent"
            << "";
        QTest::newRow("LoRA at ZeRO-2 saves whole") << R"({"zero_optimization": {"stage": 2}})"
                                                    << "software.launcher=deepspeed;training.method=lora"
                                                    << "adapter-zero3-save-gather"
                                                    << "/zero_optimization"
                                                    << "absent"
                                                    << "";
        QTest::newRow("full fine-tune at ZeRO-3, deepspeed launcher") << R"({"zero_optimization": {"stage": 3}})"
                                                                      << "software.launcher=deepspeed"
                                                                      << "adapter-zero3-save-gather"
                                                                      << "/zero_optimization"
                                                                      << "absent"
                                                                      << "";
        // zenflow.select_interval defaults to "auto" itself: dropping "auto" changes nothing.
        QTest::newRow("zenflow auto is its default")
            << R"({"zero_optimization": {"stage": 2, "zenflow": {"select_interval": "auto"}}})"
            << "software.launcher=deepspeed"
            << "auto-in-strict-block"
            << "/zero_optimization/zenflow/select_interval"
            << "absent"
            << "";
        QTest::newRow("16-bit save auto under Accelerate")
            << R"({"zero_optimization": {"stage": 3, "stage3_gather_16bit_weights_on_model_save": "auto"}})"
            << "software.launcher=accelerate"
            << "auto-value"
            << "/zero_optimization/stage3_gather_16bit_weights_on_model_save"
            << "info"
            << "accelerate fills it in";

        // --- the engine's own checks (EngineRules): what the optimizer and scheduler constructors and
        // _do_sanity_check refuse. Verdicts confirmed with ds_full_oracle.py (DeepSpeed 0.19.5).
        const QString adam =
            R"("train_micro_batch_size_per_gpu": 1, "optimizer": {"type": "AdamW", "params": {"lr": 1e-4}})";
        QTest::newRow("optimizer AdamX") << R"({"optimizer": {"type": "AdamX"}})"
                                         << ""
                                         << "optimizer-unknown"
                                         << "/optimizer/type"
                                         << "error"
                                         << "AdamX is not a supported DeepSpeed Optimizer";
        QTest::newRow("optimizer sgd lowercase") << R"({"optimizer": {"type": "sgd"}})"
                                                 << ""
                                                 << "optimizer-unknown"
                                                 << "/optimizer/type"
                                                 << "error"
                                                 << "spelled exactly";
        QTest::newRow("sgd suggests SGD") << R"({"optimizer": {"type": "sgd"}})"
                                          << ""
                                          << "optimizer-unknown"
                                          << "/optimizer/type"
                                          << "error"
                                          << "write \"SGD\"";
        QTest::newRow("ADAMW any case") << R"({"optimizer": {"type": "ADAMW"}})"
                                        << ""
                                        << "optimizer-unknown"
                                        << "/optimizer/type"
                                        << "absent"
                                        << "";
        QTest::newRow("Adafactor before torch 2.5") << R"({"optimizer": {"type": "Adafactor"}})"
                                                    << "software.torch_version=2.4.1"
                                                    << "optimizer-unknown"
                                                    << "/optimizer/type"
                                                    << "error"
                                                    << "PyTorch 2.4.1";
        QTest::newRow("Adafactor in torch 2.5") << R"({"optimizer": {"type": "Adafactor"}})"
                                                << "software.torch_version=2.5.0"
                                                << "optimizer-unknown"
                                                << "/optimizer/type"
                                                << "absent"
                                                << "";
        QTest::newRow("SGD at stage 1") << R"({"optimizer": {"type": "SGD"}, "zero_optimization": {"stage": 1}})"
                                        << ""
                                        << "untested-optimizer-with-zero"
                                        << "/optimizer/type"
                                        << "error"
                                        << "zero_allow_untested_optimizer";
        QTest::newRow("Lamb at stage 2") << R"({"optimizer": {"type": "Lamb"}, "zero_optimization": {"stage": 2}})"
                                         << ""
                                         << "untested-optimizer-with-zero"
                                         << "/optimizer/type"
                                         << "error"
                                         << "FusedLamb";
        QTest::newRow("RMSprop allowed untested")
            << R"({"optimizer": {"type": "RMSprop"}, "zero_optimization": {"stage": 2}, "zero_allow_untested_optimizer": true})"
            << ""
            << "untested-optimizer-with-zero"
            << "/zero_allow_untested_optimizer"
            << "warning"
            << "check the loss";
        QTest::newRow("SGD at stage 0") << R"({"optimizer": {"type": "SGD"}, "zero_optimization": {"stage": 0}})"
                                        << ""
                                        << "untested-optimizer-with-zero"
                                        << "/optimizer/type"
                                        << "absent"
                                        << "";
        QTest::newRow("Adagrad at stage 2")
            << R"({"optimizer": {"type": "Adagrad"}, "zero_optimization": {"stage": 2}})"
            << ""
            << "untested-optimizer-with-zero"
            << "/optimizer/type"
            << "absent"
            << "";
        QTest::newRow("Adam betaz")
            << R"({"optimizer": {"type": "Adam", "params": {"lr": 1e-4, "betaz": [0.9, 0.95]}}})"
            << ""
            << "optimizer-param-unknown"
            << "/optimizer/params/betaz"
            << "error"
            << "did you mean \"betas\"?";
        QTest::newRow("fp32_optimizer_states without offload")
            << R"({"optimizer": {"type": "AdamW", "params": {"fp32_optimizer_states": false}}, "zero_optimization": {"stage": 2}})"
            << ""
            << "optimizer-param-unknown"
            << "/optimizer/params/fp32_optimizer_states"
            << "error"
            << "FusedAdam";
        QTest::newRow("fp32_optimizer_states with cpu offload")
            << R"({"optimizer": {"type": "AdamW", "params": {"fp32_optimizer_states": false}}, "zero_optimization": {"stage": 2, "offload_optimizer": {"device": "cpu"}}})"
            << ""
            << "optimizer-param-unknown"
            << "/optimizer/params/fp32_optimizer_states"
            << "absent"
            << "";
        QTest::newRow("torch_adam is DeepSpeed's")
            << R"({"optimizer": {"type": "Adam", "params": {"torch_adam": true, "fused": true}}})"
            << ""
            << "optimizer-param-unknown"
            << "/optimizer/params/torch_adam"
            << "absent"
            << "";
        QTest::newRow("Lion eps") << R"({"optimizer": {"type": "Lion", "params": {"eps": 1e-8}}})"
                                  << ""
                                  << "optimizer-param-unknown"
                                  << "/optimizer/params/eps"
                                  << "error"
                                  << "FusedLion";
        QTest::newRow("scheduler WarmupCosine")
            << "{" + adam + R"(, "scheduler": {"type": "WarmupCosine", "params": {}}})"
            << ""
            << "scheduler-unknown"
            << "/scheduler/type"
            << "error"
            << "write \"WarmupCosineLR\"";
        QTest::newRow("scheduler StepLR")
            << "{" + adam + R"(, "scheduler": {"type": "StepLR", "params": {"step_size": 10}}})"
            << ""
            << "scheduler-unknown"
            << "/scheduler/type"
            << "absent"
            << "";
        QTest::newRow("WarmupDecayLR needs total_num_steps")
            << "{" + adam + R"(, "scheduler": {"type": "WarmupDecayLR", "params": {"warmup_num_steps": 10}}})"
            << ""
            << "scheduler-param-missing"
            << "/scheduler/params"
            << "error"
            << "total_num_steps";
        QTest::newRow("WarmupLR takes no total_num_steps")
            << "{" + adam + R"(, "scheduler": {"type": "WarmupLR", "params": {"total_num_steps": 100}}})"
            << ""
            << "scheduler-param-unknown"
            << "/scheduler/params/total_num_steps"
            << "error"
            << "unexpected keyword argument";
        QTest::newRow("warmup 0 in 0.19.3")
            << "{" + adam + R"(, "scheduler": {"type": "WarmupLR", "params": {"warmup_num_steps": 0}}})"
            << "software.deepspeed_version=0.19.3"
            << "warmup-steps-invalid"
            << "/scheduler/params/warmup_num_steps"
            << "error"
            << "must be a positive integer";
        QTest::newRow("warmup 0 in 0.19.2")
            << "{" + adam + R"(, "scheduler": {"type": "WarmupLR", "params": {"warmup_num_steps": 0}}})"
            << "software.deepspeed_version=0.19.2"
            << "warmup-steps-invalid"
            << "/scheduler/params/warmup_num_steps"
            << "warning"
            << "max(2, warmup_num_steps)";
        QTest::newRow("warmup 0, version unknown") << "{" + adam
                + R"(, "scheduler": {"type": "WarmupCosineLR", "params": {"total_num_steps": 100, "warmup_num_steps": 0}}})"
                                                   << ""
                                                   << "warmup-steps-invalid"
                                                   << "/scheduler/params/warmup_num_steps"
                                                   << "error"
                                                   << "0.19.3 and later";
        QTest::newRow("warmup 2.0 float")
            << "{" + adam + R"(, "scheduler": {"type": "WarmupLR", "params": {"warmup_num_steps": 2.0}}})"
            << ""
            << "warmup-steps-invalid"
            << "/scheduler/params/warmup_num_steps"
            << "error"
            << "not a Python int";
        QTest::newRow("warmup 10 fine") << "{" + adam
                + R"(, "scheduler": {"type": "WarmupLR", "params": {"warmup_num_steps": 10}}})"
                                        << ""
                                        << "warmup-steps-invalid"
                                        << "/scheduler/params/warmup_num_steps"
                                        << "absent"
                                        << "";
        // The HF Trainer fills warmup_num_steps "auto" from --warmup_steps / --warmup_ratio, 0 by default.
        QTest::newRow("hf warmup auto") << "{" + adam
                + R"(, "scheduler": {"type": "WarmupLR", "params": {"warmup_num_steps": "auto"}}})"
                                        << "software.launcher=hf-trainer"
                                        << "hf-warmup-auto"
                                        << "/scheduler/params/warmup_num_steps"
                                        << "warning"
                                        << "--warmup_steps";
        QTest::newRow("accelerate warmup auto") << "{" + adam
                + R"(, "scheduler": {"type": "WarmupDecayLR", "params": {"total_num_steps": "auto", "warmup_num_steps": "auto"}}})"
                                                << "software.launcher=accelerate;software.deepspeed_version=0.19.5"
                                                << "hf-warmup-auto"
                                                << "/scheduler/params/warmup_num_steps"
                                                << "warning"
                                                << "--warmup_ratio";
        QTest::newRow("hf warmup auto, 0.19.2")
            << "{" + adam + R"(, "scheduler": {"type": "WarmupLR", "params": {"warmup_num_steps": "auto"}}})"
            << "software.launcher=hf-trainer;software.deepspeed_version=0.19.2"
            << "hf-warmup-auto"
            << "/scheduler/params/warmup_num_steps"
            << "info"
            << "accepts 0";
        QTest::newRow("param_dtype fp16 with bf16")
            << R"({"bf16": {"enabled": true}, "data_types": {"param_dtype": "fp16"}})"
            << ""
            << "param-dtype-conflict"
            << "/data_types/param_dtype"
            << "error"
            << "model dtype, bf16";
        QTest::newRow("param_dtype bfloat16 with bf16")
            << R"({"bf16": {"enabled": true}, "data_types": {"param_dtype": "bfloat16"}})"
            << ""
            << "param-dtype-conflict"
            << "/data_types/param_dtype"
            << "absent"
            << "";
        QTest::newRow("param_dtype bf16 without precision") << R"({"data_types": {"param_dtype": "bf16"}})"
                                                            << ""
                                                            << "param-dtype-conflict"
                                                            << "/data_types/param_dtype"
                                                            << "error"
                                                            << "fp32";
        QTest::newRow("managed accumulation off, overlap at stage 1")
            << R"({"managed_gradient_accumulation": false, "zero_optimization": {"stage": 1, "overlap_comm": true}})"
            << ""
            << "managed-grad-accum-unsupported"
            << "/managed_gradient_accumulation"
            << "error"
            << "only with ZeRO stage 2";
        QTest::newRow("managed accumulation off, overlap at stage 2")
            << R"({"managed_gradient_accumulation": false, "zero_optimization": {"stage": 2, "overlap_comm": true}})"
            << ""
            << "managed-grad-accum-unsupported"
            << "/managed_gradient_accumulation"
            << "absent"
            << "";
        QTest::newRow("managed accumulation off with a pipeline")
            << R"({"managed_gradient_accumulation": false, "zero_optimization": {"stage": 1}})"
            << "pipeline.stages=2"
            << "managed-grad-accum-unsupported"
            << "/managed_gradient_accumulation"
            << "error"
            << "pipeline";
        QTest::newRow("clipping -1 turns clipping off") << R"({"gradient_clipping": -1})"
                                                        << ""
                                                        << "gradient-clipping-negative"
                                                        << "/gradient_clipping"
                                                        << "warning"
                                                        << "never clipped";
        QTest::newRow("clipping -1 is no error") << R"({"gradient_clipping": -1})"
                                                 << ""
                                                 << "value-out-of-range"
                                                 << "/gradient_clipping"
                                                 << "absent"
                                                 << "";

        // --- defaults that changed (§5): only when the DeepSpeed version is known and the key is absent.
        QTest::newRow("clipping default 0.19.5") << R"({"train_micro_batch_size_per_gpu": 1})"
                                                 << "software.deepspeed_version=0.19.5"
                                                 << "default-changed"
                                                 << ""
                                                 << "warning"
                                                 << "gradient_clipping";
        QTest::newRow("clipping default 0.19.2") << R"({"train_micro_batch_size_per_gpu": 1})"
                                                 << "software.deepspeed_version=0.19.2"
                                                 << "default-changed"
                                                 << ""
                                                 << "info"
                                                 << "gradient_clipping";
        QTest::newRow("clipping default, no version") << R"({"train_micro_batch_size_per_gpu": 1})"
                                                      << ""
                                                      << "default-changed"
                                                      << ""
                                                      << "absent"
                                                      << "";
        QTest::newRow("pin_memory 0.19.5")
            << R"({"train_micro_batch_size_per_gpu": 1, "gradient_clipping": 1.0, "zero_optimization": {"stage": 2, "offload_optimizer": {"device": "cpu"}}})"
            << "software.deepspeed_version=0.19.5"
            << "default-changed"
            << "/zero_optimization/offload_optimizer"
            << "warning"
            << "pin_memory";
        QTest::newRow("pin_memory 0.19.4")
            << R"({"train_micro_batch_size_per_gpu": 1, "gradient_clipping": 1.0, "zero_optimization": {"stage": 2, "offload_optimizer": {"device": "cpu"}}})"
            << "software.deepspeed_version=0.19.4"
            << "default-changed"
            << "/zero_optimization/offload_optimizer"
            << "info"
            << "pin_memory";
        QTest::newRow("bf16 overflow check 0.19.3")
            << R"({"train_micro_batch_size_per_gpu": 1, "gradient_clipping": 1.0, "bf16": {"enabled": true}})"
            << "software.deepspeed_version=0.19.3"
            << "default-changed"
            << "/bf16"
            << "info"
            << "check_grad_overflow";
    }

    void findings()
    {
        QFETCH(QString, config);
        QFETCH(QString, context);
        QFETCH(QString, code);
        QFETCH(QString, path);
        QFETCH(QString, level);
        QFETCH(QString, mentions);
        const auto all = lint(config, context);
        const LintFinding* f = find(all, code.toStdString(), path.toStdString());
        if (level == "absent") {
            QVERIFY2(!f, ("unexpected " + code.toStdString() + listing(all)).c_str());
            return;
        }
        QVERIFY2(f, ("missing " + code.toStdString() + " at " + path.toStdString() + "; got:" + listing(all)).c_str());
        QCOMPARE(QString::fromStdString(toString(f->level)), level);
        const std::string text = f->suggestion ? *f->suggestion : f->message;
        QVERIFY2(
            text.find(mentions.toStdString()) != std::string::npos
                || f->message.find(mentions.toStdString()) != std::string::npos,
            ("'" + mentions.toStdString() + "' not in: " + f->message + " => " + f->suggestion.value_or("")).c_str());
        QVERIFY2(f->source && !f->source->empty(), "every finding names its source");
    }

    void cleanConfigHasNoFindingsAboveInfo()
    {
        // A complete config written the way DeepSpeed 0.19.5 reads it: 4 × 2 × 8 = 64, ZeRO-2, bf16 on H100,
        // clipping and pin_memory explicit.
        const auto all =
            lint(R"({
            "train_batch_size": 64, "train_micro_batch_size_per_gpu": 4, "gradient_accumulation_steps": 2,
            "gradient_clipping": 1.0, "bf16": {"enabled": true, "check_grad_overflow": true},
            "zero_optimization": {"stage": 2, "overlap_comm": true, "reduce_bucket_size": 5e8,
                                  "offload_optimizer": {"device": "cpu", "pin_memory": true}},
            "optimizer": {"type": "AdamW", "params": {"lr": 1e-4}}})",
                 "hardware.gpu=H100-80GB;hardware.gpus_per_node=8;hardware.nodes=1;software.launcher=deepspeed;"
                 "software.deepspeed_version=0.19.5;software.torch_version=2.8.0");
        for (const LintFinding& f : all)
            QVERIFY2(f.level == LintLevel::Info, listing(all).c_str());
    }

    void manyUnknownKeysStayCheap()
    {
        // About 3 MB of unknown top-level keys: each is reported, only the first ones get suggestions.
        std::string text = "{";
        const int keys = 150000;
        for (int i = 0; i < keys; ++i)
            text += (i ? ",\n\"gradient_clipp" : "\"gradient_clipp") + std::to_string(i) + "\": 1";
        text += "}";
        const auto parsed = parseConfigText(text);
        QVERIFY(parsed.ok());
        const auto all = lintConfig(parsed.value(), Answers());
        const auto unknown =
            std::count_if(all.begin(), all.end(), [](const LintFinding& f) { return f.code == "unknown-key-ignored"; });
        QCOMPARE(int(unknown), keys);
        const auto suggested =
            std::count_if(all.begin(), all.end(), [](const LintFinding& f) { return f.suggestion.has_value(); });
        QVERIFY(suggested > 0 && suggested <= 200 + 1); // + the batch-size finding's suggestion
    }

    void findingsCarryLines()
    {
        const auto all = lint("{\n"
                              "  \"train_micro_batch_size_per_gpu\": 1,\n"
                              "  \"zero_optimization\": {\n"
                              "    \"stage\": 2,\n"
                              "    \"stage3_prefetch_bucket\": 1\n"
                              "  },\n"
                              "  \"gradient_clipp1ng\": 1.0\n"
                              "}",
                              "");
        const LintFinding* zero = find(all, "unknown-key-rejected", "/zero_optimization/stage3_prefetch_bucket");
        const LintFinding* top = find(all, "unknown-key-ignored", "/gradient_clipp1ng");
        QVERIFY(zero && top);
        QCOMPARE(zero->line, 5);
        QCOMPARE(top->line, 7);
        QVERIFY(zero->line < top->line);
        QVERIFY(all.front().line <= all.back().line); // in file order
    }

    // LintReport::at walks a pointer's text instead of building a json_pointer: it finds exactly what
    // json_pointer's contains() and at() find, and nothing where the pointer or an array index is malformed.
    void pointerLookupMatchesJsonPointer_data()
    {
        QTest::addColumn<QString>("pointer");
        for (const char* p : {"",
                              "/",
                              "/a",
                              "/a/b",
                              "/a/b/c",
                              "/a/x",
                              "/arr",
                              "/arr/0",
                              "/arr/1",
                              "/arr/2",
                              "/arr/3",
                              "/arr/01",
                              "/arr/-",
                              "/arr/x",
                              "/arr/",
                              "/arr/1/k",
                              "/arr/99999999999999999999999",
                              "/t~0l",
                              "/s~1l",
                              "/s~1l/x",
                              "/~2",
                              "/a~",
                              "/a~/b",
                              "a",
                              "a/b",
                              "/n",
                              "/n/0",
                              "/e/",
                              "/e//",
                              "/zero_optimization/stage",
                              "/zero_optimization/stage/x",
                              "//"})
            QTest::newRow(*p ? p : "(empty)") << QString::fromUtf8(p);
    }
    void pointerLookupMatchesJsonPointer()
    {
        QFETCH(QString, pointer);
        const auto parsed = parseConfigText(R"({"a": {"b": {"c": 1}}, "arr": [10, {"k": true}, [3]], "t~l": 2,
            "s/l": {"x": "y"}, "n": null, "": {"": 5}, "e": {"": {"": 6}}, "zero_optimization": {"stage": 2}})");
        QVERIFY(parsed.ok());
        const nlohmann::ordered_json& json = parsed.value().json;
        const nlohmann::ordered_json* expected = nullptr;
        try {
            const nlohmann::ordered_json::json_pointer p(pointer.toStdString());
            expected = json.contains(p) ? &json.at(p) : nullptr;
        } catch (const nlohmann::json::exception&) {
        }
        const Answers none;
        const LintReport report(parsed.value(), none, DeepSpeedSchema::instance());
        QCOMPARE(report.at(pointer.toStdString()), expected);
    }

    void jsonShape()
    {
        LintFinding f;
        f.level = LintLevel::Warning;
        f.code = "unknown-key-ignored";
        f.path = "/gradient_clipp1ng";
        f.message = "m";
        f.suggestion = "did you mean \"gradient_clipping\"?";
        f.source = "ds-config-parse";
        f.line = 3;
        const auto j = toJson(f);
        QVERIFY(j["level"] == "warning");
        QVERIFY(j["code"] == "unknown-key-ignored");
        QVERIFY(j["path"] == "/gradient_clipp1ng");
        QVERIFY(j["line"] == 3);
        QVERIFY(j["suggestion"] == "did you mean \"gradient_clipping\"?");
        QVERIFY(j["source"] == "ds-config-parse");
        QCOMPARE(QString::fromStdString(toString(LintLevel::Error)), QString("error"));
        QCOMPARE(QString::fromStdString(toString(LintLevel::Info)), QString("info"));
        LintFinding bare; // one shape for every finding: absent parts are null
        QVERIFY(toJson(bare)["suggestion"].is_null());
        QVERIFY(toJson(bare)["source"].is_null());
    }
};

QTEST_APPLESS_MAIN(TestConfigLinter)
#include "TestConfigLinter.moc"
