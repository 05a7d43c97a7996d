// LoRA and QLoRA sized against published runs with their conditions (issue 24): each run's plan as ds-wizard sizes it,
// its peak per GPU against the figure the source gives, within the target (±15%); a full fine-tune of the same job
// needs more; and the README's table is the one this test computes.
#include "Plan.h"
#include "TestAnswers.h"

#include <QFile>
#include <QTest>

#include <cmath>
#include <string>

using namespace dsw;
using dsw::test::answersFrom;

namespace {

struct Run {
    const char* id;
    const char* source; // sources.tsv
    const char* conditions;
    double measuredGB; // the source's "GB", read as 10^9 bytes
    QStringList settings;
};

// Both from the PEFT docs' DeepSpeed guide (examples/sft, launched with Accelerate, flash attention, packed
// 2,048-token sequences, LoRA r 8, alpha 16, dropout 0.1 on all linear layers, zero3_init). P3's "2X40GB GPUs" are
// read as A100 40GB, the 40 GB card of the catalog (an assumption: the guide does not name the GPU).
const QStringList kRecipe = {
    "model.preset=llama-2-70b",    "model.seq_len=2048",           "model.attention_impl=flash",
    "model.loss_impl=standard",    "software.launcher=accelerate", "zero.stage=3",
    "zero.offload_optimizer=none", "zero.offload_param=none",      "training.activation_checkpointing=on"};
const Run kRuns[] = {
    {"P2", "peft-deepspeed-lora-70b", "Llama 2 70B, LoRA, 8 × H100 80GB, ZeRO-3, micro-batch 8 × 4 steps", 64,
     kRecipe
         + QStringList{"training.method=lora", "hardware.gpu=H100-80GB", "hardware.gpus_per_node=8",
                       "training.micro_batch_size=8", "training.gradient_accumulation_steps=4"}},
    {"P3", "peft-deepspeed-qlora-70b", "Llama 2 70B, QLoRA, 2 × A100 40GB, ZeRO-3, micro-batch 2 × 2 steps", 36.6,
     kRecipe
         + QStringList{"training.method=qlora", "hardware.gpu=A100-40GB", "hardware.gpus_per_node=2",
                       "training.micro_batch_size=2", "training.gradient_accumulation_steps=2"}},
};
constexpr double kTarget = 0.15;

const StepPrediction& planOf(const Plan& plan)
{
    if (!plan.zero || !plan.job.step)
        throw std::logic_error("the job is not sized");
    return plan.zero->plan();
}

std::string fixed(double v, int digits)
{
    char text[32];
    std::snprintf(text, sizeof text, "%.*f", digits, v);
    return text;
}

std::string tableLine(const Run& run, const StepPrediction& p)
{
    const double gb = static_cast<double>(p.gpu.total) / 1e9;
    const double error = gb / run.measuredGB - 1;
    return "| " + std::string(run.id) + " | " + run.source + " | " + run.conditions + " | " + fixed(run.measuredGB, 1)
        + " GB | " + fixed(gb, 1) + " GB | " + (error >= 0 ? "+" : "−") + fixed(std::abs(error) * 100, 0) + "% |";
}

} // namespace

class TestFineTuneRuns : public QObject {
    Q_OBJECT
private slots:
    void peakPerGpuWithinTarget_data()
    {
        QTest::addColumn<int>("row");
        for (int i = 0; i < static_cast<int>(std::size(kRuns)); ++i)
            QTest::newRow(kRuns[i].id) << i;
    }
    void peakPerGpuWithinTarget()
    {
        QFETCH(int, row);
        const Run& run = kRuns[row];
        const Plan plan = makePlan(answersFrom(run.settings));
        const StepPrediction& p = planOf(plan);
        QVERIFY2(p.fits(), p.whyNot().c_str());
        const double gb = static_cast<double>(p.gpu.total) / 1e9;
        qInfo("%s", tableLine(run, p).c_str());
        QVERIFY2(std::abs(gb / run.measuredGB - 1) <= kTarget, tableLine(run, p).c_str());
        // The same job trained in full needs more per GPU: the adapters are what makes it fit.
        const Plan full = makePlan(answersFrom(run.settings + QStringList{"training.method=full"}));
        QVERIFY(planOf(full).gpu.total > p.gpu.total + p.gpu.total / 4);
    }

    // Frozen weights have no optimizer states and no gradients: with LoRA they stay as stored, and ZeRO-3 splits them.
    void frozenBaseBySTage()
    {
        const QStringList job = {"model.preset=llama-2-7b",     "hardware.gpu=A100-80GB",
                                 "hardware.gpus_per_node=8",    "training.method=lora",
                                 "training.micro_batch_size=1", "training.gradient_accumulation_steps=1",
                                 "zero.offload_optimizer=none", "zero.offload_param=none"};
        const Plan z2 = makePlan(answersFrom(job + QStringList{"zero.stage=2"}));
        const Plan z3 = makePlan(answersFrom(job + QStringList{"zero.stage=3"}));
        const std::int64_t base = z2.job.step->frozenBytes;
        QCOMPARE(base, 2 * z2.job.step->frozenParams);
        QVERIFY(planOf(z2).gpu.params >= base);
        QVERIFY(planOf(z3).gpu.params < base / 7);
        QVERIFY(planOf(z2).gpu.optimizer < 16 * z2.job.step->trainableParams / 8 + 1);
    }

    // P1 (the PEFT README @5d602fdb, https://github.com/huggingface/peft/blob/main/README.md, "| bigscience/bloomz-7b1
    // (7B params) | OOM GPU | 32GB GPU / 3.8GB CPU | 18.1GB GPU / 35GB CPU |"): bloomz-7b1 on one A100 80GB ran out of memory fully fine-tuned and trained with LoRA
    // in plain PyTorch (32 GB; the batch and sequence length are not given, so only the sides are checked, at the
    // smallest batch). BLOOM's shape from its config.json: 30 layers of 4096, 32 heads, a GELU 4h MLP, LayerNorm,
    // tied embeddings, 250,880 tokens; PEFT targets its fused query_key_value (read here as q, k and v).
    void bloomz7b1SidesOfTheLine()
    {
        const QStringList job = {"model.params=7069016064", "model.layers=30", "model.hidden_size=4096",
                                 "model.attention_heads=32", "model.vocab_size=250880", "model.mlp=gelu",
                                 "model.norm=layernorm", "model.tied_embeddings=true", "model.seq_len=512",
                                 "hardware.gpu=A100-80GB", "hardware.gpus_per_node=1", "zero.stage=0",
                                 "zero.offload_optimizer=none", "zero.offload_param=none",
                                 "training.micro_batch_size=1", "training.gradient_accumulation_steps=1",
                                 "lora.targets=q_proj,k_proj,v_proj"};
        QVERIFY(!planOf(makePlan(answersFrom(job + QStringList{"training.method=full"}))).fits());
        const StepPrediction lora = planOf(makePlan(answersFrom(job + QStringList{"training.method=lora"})));
        QVERIFY(lora.fits());
        QVERIFY(static_cast<double>(lora.gpu.total) < 32e9 * (1 + kTarget)); // the batch 1 run needs no more
    }

    // A pipeline stage holds its share of the adapters and of the 4-bit base, not the whole model's.
    void aPipelineStageSizesItsShare()
    {
        StepJob job = stepJobFrom(answersFrom({"model.preset=llama-2-7b", "training.method=qlora"}));
        const std::int64_t trainable = job.trainableParams, frozenBytes = job.frozenBytes, params = job.params;
        sizeStage(job, params / 4);
        QVERIFY(std::llabs(job.trainableParams - trainable / 4) <= 1);
        QVERIFY(std::llabs(job.frozenBytes - frozenBytes / 4) <= 4);
        QCOMPARE(job.frozenParams, params / 4);
        QVERIFY(job.frozenBytes < job.frozenParams); // mostly 4-bit: under a byte a weight
    }

    void theReadmeShowsTheseFigures()
    {
        QFile readme(DSW_SOURCE_DIR "/README.md");
        QVERIFY(readme.open(QIODevice::ReadOnly));
        const QString text = QString::fromUtf8(readme.readAll());
        for (const Run& run : kRuns) {
            const Plan plan = makePlan(answersFrom(run.settings));
            const std::string line = tableLine(run, planOf(plan));
            QVERIFY2(text.contains(QString::fromStdString(line)), ("README.md lacks: " + line).c_str());
        }
    }
};

QTEST_GUILESS_MAIN(TestFineTuneRuns)
#include "TestFineTuneRuns.moc"
