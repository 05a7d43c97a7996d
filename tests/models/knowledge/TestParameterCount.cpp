// knowledge/ParameterCount: the parameters a shape implies, against the counts the models' cards and papers publish
// (the catalog's params column) and two counts known to the parameter (GPT-2 small, Llama-2-7B).
#include "knowledge/ModelCatalog.h"
#include "knowledge/ParameterCount.h"

#include <QTest>

#include <cmath>

using namespace dsw;

class TestParameterCount : public QObject {
    Q_OBJECT
private slots:
    // Tolerance: the cards round to three significant digits (Qwen2.5 "7.61B", Llama 3.2 "1.23B"), and the count
    // leaves out a few small parts (ParameterCount.h), so 1%; BERT-Large 2%: its paper's "340M" is rounded from
    // 335M and its pooler and token-type embeddings are not counted.
    void matchesPublishedCounts_data()
    {
        QTest::addColumn<QString>("id");
        QTest::addColumn<double>("tolerance");
        for (const char* id : {"qwen2.5-0.5b", "qwen2.5-1.5b", "qwen2.5-3b", "qwen2.5-7b", "qwen2.5-14b", "qwen2.5-32b",
                               "qwen2.5-72b", "llama-3.2-1b", "llama-3.2-3b", "llama-3.1-405b", "gpt2-xl", "gpt3-175b",
                               "phi-3-mini-4k"})
            QTest::newRow(id) << QString(id) << 0.01;
        QTest::newRow("bert-large") << "bert-large" << 0.02;
    }
    void matchesPublishedCounts()
    {
        QFETCH(QString, id);
        QFETCH(double, tolerance);
        const ModelSpec* model = ModelCatalog::instance().find(id.toStdString());
        QVERIFY(model);
        QVERIFY(model->publishedParams);
        const double published = static_cast<double>(*model->publishedParams);
        const double counted = static_cast<double>(parameterCount(model->shape));
        QVERIFY2(std::abs(counted - published) <= tolerance * published,
                 qPrintable(QStringLiteral("%1: counted %2, published %3").arg(id).arg(counted, 0, 'f', 0).arg(published, 0, 'f', 0)));
    }

    void exactCounts()
    {
        // GPT-2 small (openai-community/gpt2): 124,439,808 parameters, tied head, biases everywhere, 1024 positions.
        TransformerShape gpt2{768, 12, 12, 12, 3072, 50257, MlpKind::Gelu, NormKind::LayerNorm, true};
        gpt2.bias = LinearBias::All;
        gpt2.learnedPositions = 1024;
        QCOMPARE(parameterCount(gpt2), 124439808LL);
        // Llama-2-7B: 32 × (4·4096² + 3·4096·11008 + 2·4096) + 2·32000·4096 + 4096 = 6,738,415,616.
        const ModelSpec* llama = ModelCatalog::instance().find("llama-2-7b");
        QVERIFY(llama);
        QCOMPARE(parameterCount(llama->shape), 6738415616LL);
    }

    void partsFollowTheShape()
    {
        TransformerShape s{4096, 32, 32, 8, 14336, 128256, MlpKind::SwiGlu, NormKind::RmsNorm, false};
        const ParameterBreakdown b = countParameters(s);
        QCOMPARE(b.embedding, 128256LL * 4096);
        QCOMPARE(b.outputHead, 128256LL * 4096); // untied
        QCOMPARE(b.attentionPerLayer, 2 * 4096LL * 4096 + 2 * 4096LL * 1024); // q, o full; k, v for 8 of 32 heads
        QCOMPARE(b.mlpPerLayer, 3 * 4096LL * 14336);
        QCOMPARE(b.normsPerLayer, 2 * 4096LL);
        s.tiedEmbeddings = true;
        QCOMPARE(countParameters(s).outputHead, 0LL);
        s.mlp = MlpKind::Gelu;
        QCOMPARE(countParameters(s).mlpPerLayer, 2 * 4096LL * 14336);
        s.headDim = 256; // a head width apart from h/a widens q, k, v and o
        QCOMPARE(countParameters(s).attentionPerLayer, 2 * 4096LL * 32 * 256 + 2 * 4096LL * 8 * 256);
    }

    void absurdShapesSaturate()
    {
        // Beyond what the registry accepts (its largest shape counts 3.4e17, well inside 64 bits).
        TransformerShape s{4000000000, 1000000, 1, 1, 4000000000, 10000000, MlpKind::SwiGlu, NormKind::RmsNorm, false};
        QCOMPARE(parameterCount(s), std::numeric_limits<std::int64_t>::max());
    }
};

QTEST_APPLESS_MAIN(TestParameterCount)
#include "TestParameterCount.moc"
