// knowledge/ModelCatalog and resources/knowledge/models.tsv: every row parses and its shape agrees with itself,
// ids are unique, the models the issue names are there, and an unknown id finds its nearest names.
#include "knowledge/ModelCatalog.h"

#include <QTest>

#include <set>

using namespace dsw;

class TestModelCatalog : public QObject {
    Q_OBJECT
private slots:
    void everyRowIsValid()
    {
        const ModelCatalog& catalog = ModelCatalog::instance();
        for (const auto& p : catalog.problems())
            qWarning("%s", p.c_str());
        QVERIFY(catalog.problems().empty());
        QVERIFY(catalog.all().size() >= 25);
        std::set<std::string> ids;
        for (const auto& m : catalog.all()) {
            QVERIFY2(ids.insert(m.id).second, m.id.c_str());
            QVERIFY2(!shapeError(m.shape), m.id.c_str());
            QVERIFY2(m.sourceUrl.rfind("https://", 0) == 0, m.id.c_str());
            QVERIFY2(!m.verification.empty() && !m.name.empty(), m.id.c_str());
            QVERIFY2(m.maxPosition > 0, m.id.c_str());
            QVERIFY2(m.dropout >= 0 && m.dropout < 1, m.id.c_str());
            QVERIFY2(m.verification.find("dropout") != std::string::npos, m.id.c_str()); // its value's source
        }
    }

    void namedModelsArePresent()
    {
        for (const char* id :
             {"llama-2-7b",        "llama-2-13b",   "llama-2-70b",       "llama-3.2-1b",    "llama-3.2-3b",
              "llama-3.1-8b",      "llama-3.1-70b", "llama-3.1-405b",    "mistral-7b-v0.1", "qwen2.5-0.5b",
              "qwen2.5-1.5b",      "qwen2.5-3b",    "qwen2.5-7b",        "qwen2.5-14b",     "qwen2.5-32b",
              "qwen2.5-72b",       "qwen3-0.6b",    "qwen3-1.7b",        "qwen3-4b",        "qwen3-8b",
              "qwen3-14b",         "qwen3-32b",     "gemma-2-2b",        "gemma-2-9b",      "gemma-2-27b",
              "phi-3-mini-4k",     "gpt2-xl",       "gpt3-175b",         "bert-large",      "t5-3b",
              "mixtral-8x7b-v0.1", "qwen3-30b-a3b", "qwen1.5-moe-a2.7b", "gpt-oss-20b",     "gpt-oss-120b",
              "olmoe-1b-7b"})
            QVERIFY2(ModelCatalog::instance().find(id), id);
    }

    void shapesAsTheConfigsSayThem()
    {
        const ModelSpec* llama = ModelCatalog::instance().find("LLAMA-3.1-8B"); // case-insensitive
        QVERIFY(llama);
        QCOMPARE(llama->id, std::string("llama-3.1-8b"));
        QCOMPARE(llama->shape.hidden, 4096LL);
        QCOMPARE(llama->shape.kvHeads, 8LL);
        QCOMPARE(llama->shape.intermediate, 14336LL);
        QCOMPARE(llama->shape.vocab, 128256LL);
        QVERIFY(llama->shape.mlp == MlpKind::SwiGlu && llama->shape.norm == NormKind::RmsNorm);
        QVERIFY(!llama->shape.tiedEmbeddings);
        const ModelSpec* qwen3 = ModelCatalog::instance().find("qwen3-0.6b");
        QCOMPARE(qwen3->shape.headWidth(), 128LL); // head_dim, not 1024 / 16
        const ModelSpec* bert = ModelCatalog::instance().find("bert-large");
        QCOMPARE(bert->architecture, std::string("encoder"));
        QVERIFY(bert->shape.mlp == MlpKind::Gelu && bert->shape.norm == NormKind::LayerNorm);
        // Dropout as their config.json (or paper) trains them: BERT and GPT-2 with 0.1, Llama without.
        QCOMPARE(bert->dropout, 0.1);
        QCOMPARE(ModelCatalog::instance().find("gpt2-xl")->dropout, 0.1);
        QCOMPARE(llama->dropout, 0.0);
        QCOMPARE(llama->maxPosition, 131072LL);
        // A mixture of experts keeps its expert count (num_local_experts); dense models have 1.
        QCOMPARE(ModelCatalog::instance().find("mixtral-8x7b-v0.1")->moe.experts, 8LL);
        QCOMPARE(llama->moe.experts, 1LL);
        const ModelSpec* t5 = ModelCatalog::instance().find("t5-3b");
        QCOMPARE(t5->architecture, std::string("encoder-decoder"));
        QCOMPARE(t5->shape.crossAttentionLayers, 24LL);
    }

    void nearestNames_data()
    {
        QTest::addColumn<QString>("text");
        QTest::addColumn<QString>("first");
        QTest::newRow("missing last letter") << "llama-3.1-8"
                                             << "llama-3.1-8b";
        QTest::newRow("a typo") << "lama-3.1-8b"
                                << "llama-3.1-8b";
        QTest::newRow("a family") << "gemma"
                                  << "gemma-2-2b";
        QTest::newRow("part of a name") << "mistral"
                                        << "mistral-7b-v0.1";
    }
    void nearestNames()
    {
        QFETCH(QString, text);
        QFETCH(QString, first);
        const auto nearest = ModelCatalog::instance().nearest(text.toStdString());
        QCOMPARE(nearest.size(), std::size_t(5));
        QCOMPARE(QString::fromStdString(nearest.front()), first);
    }

    void badRowsAreReportedNotKept()
    {
        const std::string header =
            "id\tname\tarchitecture\thidden\tlayers\theads\tkv_heads\thead_dim\tintermediate\tvocab\t"
            "max_position\tdropout\tmlp\tnorm\ttied_embeddings\tbias\tlearned_positions\t"
            "cross_attention_layers\tparams\texperts\tsource_url\tverification\n";
        auto row = [](const std::string& id, const std::string& hidden, const std::string& kv, const std::string& mlp,
                      const std::string& dropout = "0", const std::string& experts = "1") {
            return id + "\tX\tdecoder\t" + hidden + "\t2\t4\t" + kv + "\t\t64\t100\t512\t" + dropout + "\t" + mlp
                + "\trmsnorm\tn\tnone\t0\t0\t\t" + experts + "\thttps://example.org\tA\n";
        };
        const ModelCatalog catalog(
            header + row("good", "64", "2", "swiglu") + row("good", "64", "2", "swiglu")
            + row("odd-hidden", "66", "2", "swiglu") + row("bad-kv", "64", "3", "swiglu")
            + row("bad-mlp", "64", "2", "relu") + row("bad-number", "6x4", "2", "gelu")
            + row("bad-dropout", "64", "2", "swiglu", "1.5") + row("no-dropout", "64", "2", "swiglu", "")
            + row("no-experts", "64", "2", "swiglu", "0", "0") + row("moe-as-a-flag", "64", "2", "swiglu", "0", "y"));
        QCOMPARE(catalog.all().size(), std::size_t(1));
        QCOMPARE(catalog.problems().size(), std::size_t(9));
        QVERIFY(catalog.problems()[5].find("dropout '1.5'") != std::string::npos);
        QVERIFY(catalog.problems()[6].find("dropout ''") != std::string::npos);
        QVERIFY2(catalog.problems()[7].find("experts '0'") != std::string::npos, catalog.problems()[7].c_str());
        QVERIFY2(catalog.problems()[8].find("experts 'y'") != std::string::npos, catalog.problems()[8].c_str());
        QVERIFY(catalog.problems()[0].find("repeated") != std::string::npos);
        QVERIFY(catalog.problems()[1].find("model.hidden_size") != std::string::npos);
        QVERIFY(catalog.problems()[2].find("model.kv_heads") != std::string::npos);
        QVERIFY(catalog.problems()[3].find("line 6") != std::string::npos);
        QVERIFY(catalog.problems()[4].find("hidden") != std::string::npos);
    }

    // The MoE columns belong to a mixture of experts, and its top-k and dense layers must fit its experts and layers.
    void moeColumnsAreCheckedWithTheirModel()
    {
        const std::string header =
            "id\tname\tarchitecture\thidden\tlayers\theads\tkv_heads\thead_dim\tintermediate\tvocab\t"
            "max_position\tdropout\tmlp\tnorm\ttied_embeddings\tbias\tlearned_positions\tcross_attention_layers\t"
            "params\texperts\texperts_per_token\texpert_intermediate\tshared_experts\tdense_layers\t"
            "moe_layer_interval\tactive_params\tmodel_type\tsource_url\tverification\n";
        // experts, top-k, expert width, shared, dense layers, interval, active
        auto row = [](const std::string& id, const std::string& moe) {
            return id + "\tX\tdecoder\t64\t2\t4\t2\t\t64\t100\t512\t0\tswiglu\trmsnorm\tn\tnone\t0\t0\t\t" + moe
                + "\tqwen3_moe\thttps://example.org\tA\n";
        };
        const ModelCatalog catalog(header + row("moe", "8\t2\t32\t1\t1\t1\t900000")
                                   + row("dense-with-active", "1\t\t\t\t\t\t900000")
                                   + row("top-k-beyond", "8\t9\t\t\t\t\t") + row("all-dense", "8\t2\t\t\t2\t\t"));
        QCOMPARE(catalog.all().size(), std::size_t(1));
        const ModelSpec& moe = catalog.all().front();
        QCOMPARE(moe.moe.expertsPerToken, std::int64_t(2));
        QCOMPARE(moe.moe.expertIntermediate, std::int64_t(32));
        QCOMPARE(moe.moe.sharedExperts, std::int64_t(1));
        QCOMPARE(moe.moe.denseLayers, std::int64_t(1));
        QCOMPARE(moe.publishedActive.value_or(0), std::int64_t(900000));
        QCOMPARE(moe.modelType, std::string("qwen3_moe"));
        QCOMPARE(catalog.problems().size(), std::size_t(3));
        for (const std::string& p : catalog.problems())
            QVERIFY2(p.find("mixture of experts") != std::string::npos, p.c_str());
    }
};

QTEST_APPLESS_MAIN(TestModelCatalog)
#include "TestModelCatalog.moc"
