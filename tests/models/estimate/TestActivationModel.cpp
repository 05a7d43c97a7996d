// The per-operation activation model against the bytes torch saved (tests/data/activation-reference.tsv, made
// by tests/reference/saved_activations.py), Korthikanti's formula, and the properties a user relies on.
#include "estimate/ActivationModel.h"
#include "util/CheckedMath.h"
#include "util/TsvTable.h"

#include <QFile>
#include <QTest>

#include <cmath>
#include <cstdio>
#include <map>
#include <string>

using namespace dsw;

Q_DECLARE_METATYPE(dsw::ActivationCase)

namespace {

using Row = std::map<std::string, std::string>;

// The table without its '#' comment lines (the command and torch version that made it).
std::vector<Row> referenceRows()
{
    QFile file(QStringLiteral(DSW_TEST_DATA_DIR "/activation-reference.tsv"));
    if (!file.open(QIODevice::ReadOnly))
        return {};
    std::string text;
    while (!file.atEnd()) {
        const QByteArray line = file.readLine();
        if (!line.startsWith('#'))
            text += line.toStdString();
    }
    return parseTsv(text);
}

std::int64_t number(const Row& row, const char* column) { return std::stoll(row.at(column)); }

ActivationCase caseOf(const Row& row)
{
    ActivationCase c;
    c.shape.hidden = number(row, "h");
    c.shape.layers = 1;
    c.shape.heads = row.at("kind") == "layer" ? number(row, "heads") : 1;
    c.shape.kvHeads = row.at("kind") == "layer" ? number(row, "kv_heads") : 1;
    c.shape.intermediate = row.at("kind") == "layer" ? number(row, "intermediate") : 4 * c.shape.hidden;
    c.shape.vocab = std::max<std::int64_t>(1, number(row, "vocab"));
    c.shape.mlp = mlpKindFrom(row.at("mlp")).value_or(MlpKind::Gelu);
    c.shape.norm = normKindFrom(row.at("norm")).value_or(NormKind::LayerNorm);
    c.attention = attentionImplFrom(row.at("attention")).value_or(AttentionImpl::Flash);
    c.dropout = std::stod(row.at("dropout")) > 0;
    c.seqLen = number(row, "s");
    c.microBatch = number(row, "b");
    return c;
}

// ±10% per layer: the model leaves out tensors of a few bytes per layer (a 0-d scale, an int64 scalar), and
// an HF version or kernel can differ from the generator's layer by a tensor of s·b·h elements (≈ 2-4% of a
// layer); a missing or doubled s·b·I or s²-sized tensor is 10-40%, so the bound still catches a wrong term.
constexpr double kTolerance = 0.10;

double relativeError(std::int64_t model, std::int64_t reference)
{
    return (static_cast<double>(model) - static_cast<double>(reference)) / static_cast<double>(reference);
}

ActivationCase gpt2Small(AttentionImpl attention, std::int64_t s, bool dropout = true)
{
    ActivationCase c;
    c.shape = {768, 12, 12, 12, 3072, 50257, MlpKind::Gelu, NormKind::LayerNorm, true};
    c.seqLen = s;
    c.microBatch = 4;
    c.attention = attention;
    c.dropout = dropout;
    return c;
}

ActivationCase llama70b(AttentionImpl attention, std::int64_t kvHeads = 8)
{
    ActivationCase c;
    c.shape = {8192, 80, 64, kvHeads, 28672, 128256, MlpKind::SwiGlu, NormKind::RmsNorm, false};
    c.seqLen = 8192;
    c.microBatch = 1;
    c.attention = attention;
    return c;
}

std::int64_t bytesOf(const LayerActivations& layer, const std::string& operation)
{
    for (const auto& op : layer.operations)
        if (op.operation == operation)
            return op.bytes;
    return 0;
}

} // namespace

class TestActivationModel : public QObject {
    Q_OBJECT
private slots:
    void referenceTableIsComplete()
    {
        const auto rows = referenceRows();
        int layers = 0, losses = 0;
        for (const auto& row : rows)
            (row.at("kind") == "layer" ? layers : losses) += 1;
        QVERIFY2(layers >= 30, qPrintable(QString::number(layers) + " layer rows"));
        QVERIFY(losses >= 3);
    }

    void layerMatchesTorch_data()
    {
        QTest::addColumn<ActivationCase>("c");
        QTest::addColumn<qint64>("reference");
        QTest::addColumn<QString>("breakdown"); // torch's bytes by operation: "name=bytes;name=bytes"
        for (const auto& row : referenceRows()) {
            if (row.at("kind") != "layer")
                continue;
            const std::string name = row.at("norm") + "/" + row.at("mlp") + " " + row.at("attention") + " h"
                + row.at("h") + " a" + row.at("heads") + " kv" + row.at("kv_heads") + " s" + row.at("s") + " b"
                + row.at("b") + " p" + row.at("dropout");
            QTest::newRow(name.c_str()) << caseOf(row) << qint64(number(row, "gpu_saved_bytes"))
                                        << QString::fromStdString(row.at("gpu_breakdown"));
        }
    }

    void layerMatchesTorch()
    {
        QFETCH(ActivationCase, c);
        QFETCH(qint64, reference);
        const double error = relativeError(layerActivations(c).bytes, reference);
        QVERIFY2(std::abs(error) <= kTolerance, qPrintable(QString("model off by %1%").arg(100 * error, 0, 'f', 2)));
    }

    // Operation by operation the model names what torch saved and agrees to a few bytes: it leaves out the
    // 0-d scale GPT-2 divides the scores by and the scalar Llama's multiply wraps (2 and 8 bytes).
    void operationsMatchTorch_data() { layerMatchesTorch_data(); }

    void operationsMatchTorch()
    {
        QFETCH(ActivationCase, c);
        QFETCH(QString, breakdown);
        std::map<std::string, std::int64_t> torchOps;
        for (const QString& item : breakdown.split(';', Qt::SkipEmptyParts)) {
            const qsizetype eq = item.lastIndexOf('=');
            torchOps[item.left(eq).toStdString()] = item.mid(eq + 1).toLongLong();
        }
        QVERIFY(!torchOps.empty());
        std::map<std::string, std::int64_t> modelOps;
        for (const auto& op : layerActivations(c).operations)
            modelOps[op.operation] = op.bytes;
        for (const auto& [name, bytes] : torchOps)
            QVERIFY2(modelOps.count(name) && std::abs(modelOps[name] - bytes) <= 8,
                     qPrintable(QString::fromStdString(name) + ": torch " + QString::number(bytes) + ", model "
                                + QString::number(modelOps.count(name) ? modelOps[name] : -1)));
        for (const auto& [name, _] : modelOps)
            QVERIFY2(torchOps.count(name), qPrintable(QString::fromStdString(name) + " not saved by torch"));
    }

    void lossMatchesTorch_data()
    {
        QTest::addColumn<ActivationCase>("c");
        QTest::addColumn<qint64>("saved");
        QTest::addColumn<qint64>("peak");
        for (const auto& row : referenceRows())
            if (row.at("kind") == "loss")
                QTest::newRow(("h" + row.at("h") + " v" + row.at("vocab") + " s" + row.at("s")).c_str())
                    << caseOf(row) << qint64(number(row, "gpu_saved_bytes"))
                    << qint64(number(row, "measured_peak_bytes"));
    }

    void lossMatchesTorch()
    {
        QFETCH(ActivationCase, c);
        QFETCH(qint64, saved);
        QFETCH(qint64, peak);
        const auto loss = lossActivations(c, LossImpl::Standard);
        QVERIFY(std::abs(relativeError(loss.savedBytes, saved)) <= kTolerance);
        QVERIFY(std::abs(relativeError(loss.peakBytes, peak)) <= kTolerance);
    }

    // Korthikanti et al.'s sbh(34 + 5as/h) counts a GPT-2 block's 16-bit tensors and 1-byte masks; it leaves
    // out LayerNorm's fp32 mean and 1/σ, 8 bytes per token for each of the two norms.
    void gpt2EagerIsKorthikanti()
    {
        for (const std::int64_t s : {512, 1024, 2048}) {
            const auto c = gpt2Small(AttentionImpl::Eager, s);
            const std::int64_t sbh = s * c.microBatch * c.shape.hidden;
            const std::int64_t korthikanti = 34 * sbh + 5 * c.shape.heads * s * s * c.microBatch;
            QCOMPARE(layerActivations(c).bytes, korthikanti + 2 * 8 * s * c.microBatch);
        }
    }

    void fusedKernelsHaveNoQuadraticTerm()
    {
        for (const auto attention : {AttentionImpl::Flash, AttentionImpl::Sdpa}) {
            const auto one = layerActivations(gpt2Small(attention, 1024)).bytes;
            const auto two = layerActivations(gpt2Small(attention, 2048)).bytes;
            QCOMPARE(two, 2 * one - 16); // the 16-byte RNG state is per layer, not per token
        }
        const auto one = layerActivations(gpt2Small(AttentionImpl::Eager, 1024)).bytes;
        const auto two = layerActivations(gpt2Small(AttentionImpl::Eager, 2048)).bytes;
        QVERIFY(two > 2 * one + one / 2); // the s² probabilities: 5·a·s²·b is most of it at s = 1024
    }

    void gqaSavesKeysAndValuesOnlyWithFlash()
    {
        const auto mha = layerActivations(llama70b(AttentionImpl::Flash, 64));
        const auto gqa = layerActivations(llama70b(AttentionImpl::Flash, 8));
        const std::int64_t sbh = 8192LL * 8192;
        QCOMPARE(bytesOf(mha, "attention q, k, v"), 3 * 2 * sbh);
        QCOMPARE(bytesOf(gqa, "attention q, k, v"), 2 * sbh + 2 * 2 * sbh / 8);
        QVERIFY(gqa.bytes < mha.bytes);
        // eager and SDPA (after HF's repeat_kv) keep k and v at every head
        for (const auto attention : {AttentionImpl::Eager, AttentionImpl::Sdpa})
            QCOMPARE(bytesOf(layerActivations(llama70b(attention, 8)), "attention q, k, v"), 3 * 2 * sbh);
    }

    void fusedLossIsSmaller()
    {
        for (const auto& c : {gpt2Small(AttentionImpl::Flash, 1024), llama70b(AttentionImpl::Flash)}) {
            const auto standard = lossActivations(c, LossImpl::Standard);
            const auto fused = lossActivations(c, LossImpl::Fused);
            QVERIFY(fused.savedBytes < standard.savedBytes);
            QVERIFY(fused.peakBytes * 10 < standard.peakBytes);
            // HF's standard loss peaks at 12 bytes per logit (fp32 log-softmax output and two gradients)
            QVERIFY(standard.peakBytes >= 12 * c.seqLen * c.microBatch * c.shape.vocab);
        }
    }

    void checkpointingKeepsOnlyInputs()
    {
        for (const auto& c : {gpt2Small(AttentionImpl::Eager, 1024), llama70b(AttentionImpl::Flash)}) {
            QCOMPARE(checkpointedLayerBytes(c), 2 * c.seqLen * c.microBatch * c.shape.hidden);
            const auto full = modelActivations(c, LossImpl::Fused, false);
            const auto checkpointed = modelActivations(c, LossImpl::Fused, true);
            QCOMPARE(full.perLayerCheckpointedBytes, checkpointedLayerBytes(c));
            QVERIFY(checkpointed.peakBytes * 5 < full.peakBytes);
            QCOMPARE(full.peakBytes, c.shape.layers * full.perLayerBytes + full.logitsBytes);
            QCOMPARE(checkpointed.peakBytes,
                     c.shape.layers * checkpointed.perLayerCheckpointedBytes
                         + std::max(checkpointed.perLayerBytes, checkpointed.logitsBytes));
            // The bool forms are 0 and L layers checkpointed.
            QCOMPARE(modelActivations(c, LossImpl::Fused, std::int64_t{0}).peakBytes, full.peakBytes);
            QCOMPARE(modelActivations(c, LossImpl::Fused, c.shape.layers).peakBytes, checkpointed.peakBytes);
        }
    }

    // The first n layers checkpointed (Transformers' per-layer flag): their inputs, every other layer's saved
    // tensors and the loss step; each layer checkpointed saves its tensors less its input.
    void selectiveCheckpointingKeepsTheOtherLayers()
    {
        const ActivationCase c = llama70b(AttentionImpl::Flash);
        const std::int64_t L = c.shape.layers;
        std::int64_t before = modelActivations(c, LossImpl::Standard, std::int64_t{0}).peakBytes;
        for (const std::int64_t n : {std::int64_t{1}, L / 2, L - 1}) {
            const ModelActivations m = modelActivations(c, LossImpl::Standard, n);
            QCOMPARE(m.peakBytes, n * m.perLayerCheckpointedBytes + (L - n) * m.perLayerBytes + m.logitsBytes);
            QVERIFY(m.peakBytes < before);
            before = m.peakBytes;
        }
        QVERIFY(modelActivations(c, LossImpl::Standard, L).peakBytes < before);
    }

    // A mixture of experts' MLP block against what torch saved for the same block on an H200 (torch 2.11, bf16,
    // tests/data/moe-activation-reference.tsv): Transformers 4.x's loop over the experts, re-written
    // (tests/reference/moe_saved_activations.py), and Transformers 5.17's own fused Mixtral block
    // (tests/reference/moe_step_measure.py). The MoE operations of a layer add up to the measured bytes within 0.1%:
    // a token-wide tensor per routed expert more or less is 3-24% of these rows, a router term 0.1-0.5%.
    void moeBlockMatchesTorch()
    {
        QFile file(QStringLiteral(DSW_TEST_DATA_DIR "/moe-activation-reference.tsv"));
        QVERIFY(file.open(QIODevice::ReadOnly));
        const std::vector<Row> rows = parseTsv(file.readAll().toStdString());
        QCOMPARE(rows.size(), std::size_t(6));
        for (const Row& row : rows) {
            ActivationCase c;
            c.shape.hidden = number(row, "hidden");
            c.shape.layers = 1;
            c.shape.heads = c.shape.kvHeads = 8;
            c.shape.intermediate = 4 * c.shape.hidden; // the dense width, which an MoE layer does not use
            c.shape.vocab = 32000;
            c.shape.mlp = MlpKind::SwiGlu;
            c.shape.norm = NormKind::RmsNorm;
            c.seqLen = number(row, "tokens");
            c.microBatch = 1;
            c.experts = number(row, "experts");
            c.expertsPerToken = number(row, "k");
            c.expertIntermediate = number(row, "expert_intermediate");
            c.sharedExperts = number(row, "shared");
            c.fusedExperts = row.at("experts_impl") == "fused";
            std::int64_t moe = 0;
            for (const SavedActivation& op : layerActivations(c).operations)
                if (op.operation.rfind("MoE", 0) == 0)
                    moe += op.bytes;
            const double measured = static_cast<double>(number(row, "measured_saved_bytes"));
            const double error = static_cast<double>(moe) / measured - 1;
            QVERIFY2(
                std::abs(error) < 0.001,
                qPrintable(QString::fromStdString(row.at("name")) + ": " + QString::number(error * 100, 'f', 4) + "%"));
        }
    }

    void operationsAddUp()
    {
        const auto layer = layerActivations(gpt2Small(AttentionImpl::Eager, 1024));
        std::int64_t sum = 0;
        for (const auto& op : layer.operations) {
            QVERIFY(op.bytes > 0);
            sum += op.bytes;
        }
        QCOMPARE(layer.bytes, sum);
        QCOMPARE(bytesOf(layer, "attention dropout mask"), 12LL * 1024 * 1024 * 4); // 1 byte per probability
    }

    void invalidShapesThrow()
    {
        auto c = gpt2Small(AttentionImpl::Flash, 1024);
        c.shape.kvHeads = 5; // does not divide 12 heads
        QVERIFY_THROWS_EXCEPTION(std::invalid_argument, layerActivations(c));
        c = gpt2Small(AttentionImpl::Flash, 0);
        QVERIFY_THROWS_EXCEPTION(std::invalid_argument, lossActivations(c, LossImpl::Standard));
        c = gpt2Small(AttentionImpl::Flash, 1024);
        c.microBatch = 0;
        QVERIFY_THROWS_EXCEPTION(std::invalid_argument, modelActivations(c, LossImpl::Fused, true));
        c.microBatch = 1;
        c.elementBytes = 3;
        QVERIFY_THROWS_EXCEPTION(std::invalid_argument, checkpointedLayerBytes(c));
        c.elementBytes = 2;
        c.shape.hidden = 770; // not divisible by 12 heads
        try {
            layerActivations(c);
            QFAIL("no exception");
        } catch (const std::invalid_argument& e) {
            QVERIFY(std::string(e.what()).find("model.hidden_size") != std::string::npos);
        }
    }

    void hugeInputsSaturate()
    {
        ActivationCase c = llama70b(AttentionImpl::Eager);
        c.seqLen = 1'000'000;
        c.microBatch = 65536;
        c.shape.layers = 1'000'000;
        QCOMPARE(layerActivations(c).bytes, kSaturated);
        const auto m = modelActivations(c, LossImpl::Standard, false);
        QCOMPARE(m.peakBytes, kSaturated);
        QVERIFY(modelActivations(c, LossImpl::Fused, true).peakBytes > 0);
        c.attention = AttentionImpl::Flash; // no s² term: large but finite, and monotone in s
        c.microBatch = 1;
        c.shape.layers = 80;
        const auto flash = modelActivations(c, LossImpl::Fused, true);
        QVERIFY(flash.peakBytes > 0 && flash.peakBytes < kSaturated);
        c.seqLen *= 2;
        QVERIFY(modelActivations(c, LossImpl::Fused, true).peakBytes > flash.peakBytes);
    }

    // The README's agreement table (markdown on stdout): every reference row, then the research notes' rows.
    void agreementTable()
    {
        std::printf("\n| layer | attention | h | heads:KV | I | dropout | s | b | torch (GPU-equivalent), sbh | "
                    "model, sbh | error |\n|---|---|---|---|---|---|---|---|---|---|---|\n");
        double worst = 0;
        for (const auto& row : referenceRows()) {
            if (row.at("kind") != "layer")
                continue;
            const auto c = caseOf(row);
            const double sbh = static_cast<double>(c.seqLen * c.microBatch * c.shape.hidden);
            const std::int64_t reference = number(row, "gpu_saved_bytes");
            const std::int64_t model = layerActivations(c).bytes;
            const double error = relativeError(model, reference);
            worst = std::max(worst, std::abs(error));
            std::printf("| %s/%s | %s | %s | %s:%s | %s | %s | %s | %s | %.2f | %.2f | %+.2f%% |\n",
                        row.at("norm").c_str(), row.at("mlp").c_str(), row.at("attention").c_str(), row.at("h").c_str(),
                        row.at("heads").c_str(), row.at("kv_heads").c_str(), row.at("intermediate").c_str(),
                        row.at("dropout").c_str(), row.at("s").c_str(), row.at("b").c_str(), reference / sbh,
                        model / sbh, 100 * error);
        }
        std::printf("\nLargest error: %.2f%%.\n", 100 * worst);

        std::printf("\n| standard loss | h | v | s | b | torch saved, sbv | model | torch peak, sbv | model |\n"
                    "|---|---|---|---|---|---|---|---|---|\n");
        for (const auto& row : referenceRows()) {
            if (row.at("kind") != "loss")
                continue;
            const auto c = caseOf(row);
            const double sbv = static_cast<double>(c.seqLen * c.microBatch * c.shape.vocab);
            const auto loss = lossActivations(c, LossImpl::Standard);
            const auto fused = lossActivations(c, LossImpl::Fused);
            std::printf(
                "| HF ForCausalLMLoss (fused: peak %.2f sbv) | %s | %s | %s | %s | %.3f | %.3f | %.3f | %.3f |\n",
                fused.peakBytes / sbv, row.at("h").c_str(), row.at("vocab").c_str(), row.at("s").c_str(),
                row.at("b").c_str(), number(row, "gpu_saved_bytes") / sbv, loss.savedBytes / sbv,
                number(row, "measured_peak_bytes") / sbv, loss.peakBytes / sbv);
        }

        struct Published {
            const char* layer;
            ActivationCase c;
            double cpuTorch113;
            double gpuTorch2; // 0: not published
        };
        const auto shaped = [](std::int64_t h, std::int64_t a, std::int64_t kv, std::int64_t inter, MlpKind mlp,
                               NormKind norm, AttentionImpl attention, bool dropout, std::int64_t s) {
            ActivationCase c;
            c.shape = {h, 1, a, kv, inter, 1, mlp, norm, false};
            c.attention = attention;
            c.dropout = dropout;
            c.seqLen = s;
            c.microBatch = 1;
            return c;
        };
        const auto gpt2 = [&](std::int64_t s) {
            return shaped(512, 8, 8, 2048, MlpKind::Gelu, NormKind::LayerNorm, AttentionImpl::Eager, true, s);
        };
        const auto llama = [&](std::int64_t h, std::int64_t a, std::int64_t kv, std::int64_t inter,
                               AttentionImpl attention, std::int64_t s) {
            return shaped(h, a, kv, inter, MlpKind::SwiGlu, NormKind::RmsNorm, attention, false, s);
        };
        const Published published[] = {
            {"GPT-2 block, h 512, 8 heads, dropout 0.1, eager", gpt2(512), 84.02, 74.02},
            {"same, s = 1024", gpt2(1024), 132.02, 114.02},
            {"Llama-7B-shaped (h/a 128, I 2.6875h), eager", llama(512, 4, 4, 1376, AttentionImpl::Eager, 512), 78.52,
             0},
            {"same, s = 1024", llama(512, 4, 4, 1376, AttentionImpl::Eager, 1024), 102.52, 0},
            {"same, flash-like", llama(512, 4, 4, 1376, AttentionImpl::Flash, 512), 54.55, 45.6},
            {"Llama-70B-shaped (GQA 8:1, I 3.5h), eager", llama(1024, 8, 1, 3584, AttentionImpl::Eager, 512), 84.51, 0},
            {"same, flash-like", llama(1024, 8, 1, 3584, AttentionImpl::Flash, 512), 57.04, 48.5},
        };
        std::printf("\n| research notes' row | s | torch 1.13 CPU, sbh | published GPU/torch 2, sbh | Korthikanti "
                    "34 + 5as/h | model, sbh | model vs GPU figure |\n|---|---|---|---|---|---|---|\n");
        for (const auto& p : published) {
            const auto& c = p.c;
            const double sbh = static_cast<double>(c.seqLen * c.microBatch * c.shape.hidden);
            const double model = layerActivations(c).bytes / sbh;
            char gpu[32] = "—", error[32] = "—", korthikanti[32] = "—";
            if (c.attention == AttentionImpl::Eager)
                std::snprintf(korthikanti, sizeof korthikanti, "%.0f",
                              34 + 5.0 * c.shape.heads * c.seqLen / c.shape.hidden);
            if (p.gpuTorch2 > 0) {
                std::snprintf(gpu, sizeof gpu, "%.2f", p.gpuTorch2);
                std::snprintf(error, sizeof error, "%+.2f%%", 100 * (model - p.gpuTorch2) / p.gpuTorch2);
                QVERIFY(std::abs(model - p.gpuTorch2) <= 0.005 * p.gpuTorch2);
            }
            std::printf("| %s | %lld | %.2f | %s | %s | %.2f | %s |\n", p.layer, static_cast<long long>(c.seqLen),
                        p.cpuTorch113, gpu, korthikanti, model, error);
        }
    }
};

QTEST_APPLESS_MAIN(TestActivationModel)
#include "TestActivationModel.moc"
