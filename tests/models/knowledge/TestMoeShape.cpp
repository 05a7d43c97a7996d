// knowledge/MoeShape: a mixture of experts' total and per-token parameters from its shape, against the counts its
// makers published (the Mixtral paper; Qwen3-30B-A3B's 30.5B / 3.3B; every MoE preset of models.tsv), and the block
// ZeRO-3 gathers whole.
#include "knowledge/ModelCatalog.h"
#include "knowledge/MoeShape.h"
#include "knowledge/ParameterCount.h"

#include <QTest>

#include <cmath>

using namespace dsw;

namespace {

// Qwen3-30B-A3B's shape (sources.tsv qwen3-30b-a3b-counts): 48 layers of hidden 2048, 32 query and 4 KV heads of 128,
// vocabulary 151936, untied; every layer routes to 8 of 128 experts of width 768.
TransformerShape qwen3MoeShape()
{
    TransformerShape s;
    s.hidden = 2048;
    s.layers = 48;
    s.heads = 32;
    s.kvHeads = 4;
    s.headDim = 128;
    s.intermediate = 6144; // the dense MLP width of the family; no layer of this model has one
    s.vocab = 151936;
    s.mlp = MlpKind::SwiGlu;
    s.norm = NormKind::RmsNorm;
    return s;
}

double billions(std::int64_t n) { return static_cast<double>(n) / 1e9; }

} // namespace

class TestMoeShape : public QObject {
    Q_OBJECT
private slots:
    void mixtralAsItsPaperCountsIt()
    {
        const ModelSpec* mixtral = ModelCatalog::instance().find("mixtral-8x7b-v0.1");
        QVERIFY(mixtral);
        QCOMPARE(mixtral->moe.experts, std::int64_t(8));
        MoeSpec spec;
        spec.experts = 8;
        spec.expertsPerToken = 2; // each expert is the config's intermediate_size wide
        const MoeCounts c = moeCounts(mixtral->shape, spec);
        // "each token has access to 47B parameters, but only uses 13B active parameters"
        QCOMPARE(std::lround(billions(c.total)), 47L);
        QCOMPARE(std::lround(billions(c.active)), 13L);
        QCOMPARE(c.moeLayers, std::int64_t(32));
        QCOMPARE(c.expert, std::int64_t(3) * 4096 * 14336);
        QCOMPARE(c.leafBlock, 8 * c.expert + 4096 * 8); // the experts and the router
    }

    void qwen3MoeAsPublished()
    {
        MoeSpec spec;
        spec.experts = 128;
        spec.expertsPerToken = 8;
        spec.expertIntermediate = 768;
        const MoeCounts c = moeCounts(qwen3MoeShape(), spec);
        // "30.5B total parameters with 3.3B activated per token": within 2% (the rounding is not stated; the
        // per-head q/k norms, 12,288 parameters, are not counted).
        QVERIFY2(std::abs(billions(c.total) - 30.5) <= 0.02 * 30.5, qPrintable(QString::number(billions(c.total))));
        QVERIFY2(std::abs(billions(c.active) - 3.3) <= 0.02 * 3.3, qPrintable(QString::number(billions(c.active))));
        // The routed experts hold 28.99B of it; ZeRO-3 gathers a layer's 128 experts at once: 1.125 GiB in 16 bits.
        QCOMPARE(c.routed, std::int64_t(28991029248));
        QCOMPARE((c.leafBlock - 2048 * 128) * 2, std::int64_t(1125) * 1073741824 / 1000);
    }

    // Every mixture-of-experts preset counts, from its shape, the total and per-token parameters its makers publish
    // (models.tsv params and active_params): within 2%, the published figures being rounded to two or three digits.
    // gpt-oss's card counts the active parameters without the input embedding (a lookup, not a multiply).
    void everyMoePresetAsPublished()
    {
        int presets = 0;
        for (const ModelSpec& m : ModelCatalog::instance().all()) {
            if (!m.moe.moe())
                continue;
            ++presets;
            const MoeCounts c = moeCounts(m.shape, m.moe);
            QVERIFY2(m.publishedParams, m.id.c_str());
            const auto near = [](std::int64_t counted, std::int64_t published) {
                return std::abs(double(counted - published)) <= 0.02 * double(published);
            };
            QVERIFY2(near(c.total, *m.publishedParams),
                     qPrintable(QStringLiteral("%1: counted %2").arg(m.id.c_str()).arg(billions(c.total))));
            QVERIFY2(c.active < c.total, m.id.c_str());
            if (!m.publishedActive)
                continue;
            const bool withoutInputEmbedding = m.modelType == "gpt_oss";
            const std::int64_t active = c.active - (withoutInputEmbedding ? m.shape.vocab * m.shape.hidden : 0);
            QVERIFY2(near(active, *m.publishedActive),
                     qPrintable(QStringLiteral("%1: counted %2 active").arg(m.id.c_str()).arg(billions(active))));
        }
        QVERIFY(presets >= 6);
        // The presets carry what import reads from their config.json: Qwen1.5-MoE's four shared experts, Qwen3's width.
        const ModelSpec* qwen15 = ModelCatalog::instance().find("qwen1.5-moe-a2.7b");
        QVERIFY(qwen15);
        QCOMPARE(qwen15->moe.sharedExperts, std::int64_t(4));
        QCOMPARE(ModelCatalog::instance().find("qwen3-30b-a3b")->moe.expertIntermediate, std::int64_t(768));
    }

    void denseLayersAndIntervalsRouteFewerLayers()
    {
        MoeSpec spec;
        spec.experts = 64;
        spec.expertsPerToken = 6;
        spec.expertIntermediate = 1408;
        spec.sharedExperts = 2;
        spec.denseLayers = 1; // DeepSeek's first_k_dense_replace
        const TransformerShape shape = qwen3MoeShape();
        const MoeCounts first = moeCounts(shape, spec);
        QCOMPARE(first.moeLayers, std::int64_t(47));
        spec.layerInterval = 2; // every second layer after the dense one
        const MoeCounts half = moeCounts(shape, spec);
        QCOMPARE(half.moeLayers, std::int64_t(23));
        QVERIFY(half.total < first.total);
        // Shared experts are used by every token: in the active count with the k routed ones.
        const std::int64_t dense = parameterCount(shape);
        QCOMPARE(half.active - (dense - half.moeLayers * countParameters(shape).mlpPerLayer),
                 half.moeLayers * ((6 + 2) * half.expert + 2048 * 64));
    }

    void aDenseSpecIsTheDenseCount()
    {
        const MoeCounts c = moeCounts(qwen3MoeShape(), MoeSpec{});
        QCOMPARE(c.total, parameterCount(qwen3MoeShape()));
        QCOMPARE(c.active, c.total);
        QCOMPARE(c.moeLayers, std::int64_t(0));
    }
};

QTEST_APPLESS_MAIN(TestMoeShape)
#include "TestMoeShape.moc"
