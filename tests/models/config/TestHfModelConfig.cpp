// config/HfModelConfig: Hugging Face config.json files (real ones, tests/data/hf-configs/SOURCES.tsv) fill the model
// answers; MoE configs are recognised and keep their expert count; a DeepSpeed config, an HF config and neither are
// told apart; a config whose shape contradicts itself or lacks a key is refused naming it.
#include "config/HfModelConfig.h"
#include "knowledge/MoeShape.h"
#include "knowledge/ParameterCount.h"

#include <QFile>
#include <QTest>

#include <cmath>
#include <map>

using namespace dsw;
using oj = nlohmann::ordered_json;

namespace {

oj sample(const QString& name)
{
    QFile f(QStringLiteral(DSW_TEST_DATA_DIR "/hf-configs/") + name);
    if (!f.open(QIODevice::ReadOnly))
        qFatal("cannot read %s", qPrintable(name));
    return oj::parse(f.readAll().toStdString());
}

std::map<std::string, nlohmann::json> answersOf(const HfModelImport& m)
{
    std::map<std::string, nlohmann::json> out;
    for (const auto& [id, value] : m.answers)
        out[id] = value;
    return out;
}

bool mentions(const std::vector<std::string>& notes, const std::string& text)
{
    for (const auto& n : notes)
        if (n.find(text) != std::string::npos)
            return true;
    return false;
}

} // namespace

class TestHfModelConfig : public QObject {
    Q_OBJECT
private slots:
    void realConfigs_data()
    {
        QTest::addColumn<QString>("file");
        QTest::addColumn<qint64>("hidden");
        QTest::addColumn<qint64>("layers");
        QTest::addColumn<qint64>("heads");
        QTest::addColumn<qint64>("kvHeads");
        QTest::addColumn<qint64>("intermediate");
        QTest::addColumn<qint64>("vocab");
        QTest::addColumn<QString>("mlp");
        QTest::addColumn<QString>("norm");
        QTest::addColumn<bool>("tied");
        QTest::addColumn<qint64>("experts");
        // clang-format off
        QTest::newRow("llama-2-7b") << "llama-2-7b.json" << 4096LL << 32LL << 32LL << 32LL << 11008LL << 32000LL
                                    << "swiglu" << "rmsnorm" << false << 1LL;
        QTest::newRow("llama-3.2-1b") << "llama-3.2-1b-instruct.json" << 2048LL << 16LL << 32LL << 8LL << 8192LL
                                      << 128256LL << "swiglu" << "rmsnorm" << true << 1LL;
        QTest::newRow("qwen2.5-7b") << "qwen2.5-7b.json" << 3584LL << 28LL << 28LL << 4LL << 18944LL << 152064LL
                                    << "swiglu" << "rmsnorm" << false << 1LL;
        // GPT-2: n_embd / n_layer / n_head, no n_inner (4h), tied by PretrainedConfig's default.
        QTest::newRow("gpt2") << "gpt2.json" << 768LL << 12LL << 12LL << 12LL << 3072LL << 50257LL << "gelu"
                              << "layernorm" << true << 1LL;
        // Gemma 2: GeGLU is gated (three matrices), tied by Gemma2Config's default.
        QTest::newRow("gemma-2-2b") << "gemma-2-2b.json" << 2304LL << 26LL << 8LL << 4LL << 9216LL << 256000LL
                                    << "swiglu" << "rmsnorm" << true << 1LL;
        QTest::newRow("mixtral") << "mixtral-8x7b-v0.1.json" << 4096LL << 32LL << 32LL << 8LL << 14336LL << 32000LL
                                 << "swiglu" << "rmsnorm" << false << 8LL;
        QTest::newRow("qwen3-moe") << "qwen3-30b-a3b.json" << 2048LL << 48LL << 32LL << 4LL << 6144LL << 151936LL
                                   << "swiglu" << "rmsnorm" << false << 128LL;
        // clang-format on
    }
    void realConfigs()
    {
        QFETCH(QString, file);
        QFETCH(qint64, hidden);
        QFETCH(qint64, layers);
        QFETCH(qint64, heads);
        QFETCH(qint64, kvHeads);
        QFETCH(qint64, intermediate);
        QFETCH(qint64, vocab);
        QFETCH(QString, mlp);
        QFETCH(QString, norm);
        QFETCH(bool, tied);
        QFETCH(qint64, experts);
        const oj json = sample(file);
        QVERIFY(classifyConfigFile(json) == ConfigFileKind::HuggingFaceModel);
        auto read = readHfModelConfig(json);
        QVERIFY2(read, read ? "" : read.error().c_str());
        auto a = answersOf(read.value());
        QCOMPARE(a.at("model.hidden_size").get<qint64>(), hidden);
        QCOMPARE(a.at("model.layers").get<qint64>(), layers);
        QCOMPARE(a.at("model.attention_heads").get<qint64>(), heads);
        QCOMPARE(a.at("model.kv_heads").get<qint64>(), kvHeads);
        QCOMPARE(a.at("model.intermediate_size").get<qint64>(), intermediate);
        QCOMPARE(a.at("model.vocab_size").get<qint64>(), vocab);
        QCOMPARE(QString::fromStdString(a.at("model.mlp").get<std::string>()), mlp);
        QCOMPARE(QString::fromStdString(a.at("model.norm").get<std::string>()), norm);
        QCOMPARE(a.at("model.tied_embeddings").get<bool>(), tied);
        // A mixture of experts keeps its expert count (model.experts), and the note says every page sizes its experts.
        QCOMPARE(read.value().experts, experts);
        QCOMPARE(a.at("model.experts").get<qint64>(), experts);
        QCOMPARE(mentions(read.value().notes, "sizes all its experts"), experts > 1);
    }

    // Each family's key for the routed experts (Mixtral and Qwen-MoE above): DeepSeek's n_routed_experts; 0 or 1 is a
    // dense model; a count that is not a whole number is refused naming the key.
    void expertKeys_data()
    {
        QTest::addColumn<QString>("key");
        QTest::addColumn<QString>("value");
        QTest::addColumn<qint64>("experts"); // -1: refused
        QTest::newRow("deepseek n_routed_experts") << "n_routed_experts"
                                                   << "64" << 64LL;
        QTest::newRow("num_experts 0 is dense") << "num_experts"
                                                << "0" << 1LL;
        QTest::newRow("num_local_experts 1 is dense") << "num_local_experts"
                                                      << "1" << 1LL;
        QTest::newRow("num_experts null is dense") << "num_experts"
                                                   << "null" << 1LL;
        QTest::newRow("a boolean is refused") << "num_experts"
                                              << "true" << -1LL;
        QTest::newRow("a fraction is refused") << "n_routed_experts"
                                               << "2.5" << -1LL;
    }
    void expertKeys()
    {
        QFETCH(QString, key);
        QFETCH(QString, value);
        QFETCH(qint64, experts);
        oj config = oj::parse(R"({"model_type": "deepseek_v2", "hidden_size": 64, "num_hidden_layers": 2,
            "num_attention_heads": 4, "vocab_size": 100, "intermediate_size": 256})");
        config[key.toStdString()] = oj::parse(value.toStdString());
        auto read = readHfModelConfig(config);
        if (experts < 0) {
            QVERIFY(!read);
            QVERIFY2(read.error().find(key.toStdString()) != std::string::npos, read.error().c_str());
            return;
        }
        QVERIFY2(read, read ? "" : read.error().c_str());
        QCOMPARE(read.value().experts, experts);
        QCOMPARE(answersOf(read.value()).at("model.experts").get<qint64>(), experts);
    }

    // The rest of an MoE shape comes with it (knowledge/MoeShape.h): top-k, the experts' width, shared experts,
    // leading dense layers and the routing interval, as each family spells them; a dense model resets them.
    void moeShapeFromTheConfig()
    {
        const auto mixtral = answersOf(readHfModelConfig(sample("mixtral-8x7b-v0.1.json")).value());
        QCOMPARE(mixtral.at("model.experts_per_token").get<qint64>(), 2LL);
        QCOMPARE(mixtral.at("model.expert_intermediate_size").get<qint64>(), 0LL); // the intermediate size
        const auto qwen = answersOf(readHfModelConfig(sample("qwen3-30b-a3b.json")).value());
        QCOMPARE(qwen.at("model.experts_per_token").get<qint64>(), 8LL);
        QCOMPARE(qwen.at("model.expert_intermediate_size").get<qint64>(), 768LL);
        QCOMPARE(qwen.at("model.moe_layer_interval").get<qint64>(), 1LL);
        oj deepseek = oj::parse(R"({"model_type": "deepseek_v2", "hidden_size": 64, "num_hidden_layers": 4,
            "num_attention_heads": 4, "vocab_size": 100, "intermediate_size": 256, "n_routed_experts": 16,
            "num_experts_per_tok": 2, "moe_intermediate_size": 32, "n_shared_experts": 2, "first_k_dense_replace": 1})");
        const auto ds = answersOf(readHfModelConfig(deepseek).value());
        QCOMPARE(ds.at("model.shared_experts").get<qint64>(), 2LL);
        QCOMPARE(ds.at("model.dense_layers").get<qint64>(), 1LL);
        // Qwen-MoE's mlp_only_layers are counted as leading dense layers.
        deepseek.erase("first_k_dense_replace");
        deepseek["mlp_only_layers"] = oj::array({0, 3});
        QCOMPARE(answersOf(readHfModelConfig(deepseek).value()).at("model.dense_layers").get<qint64>(), 2LL);
        const auto dense = answersOf(readHfModelConfig(sample("llama-2-7b.json")).value());
        QCOMPARE(dense.at("model.experts_per_token").get<qint64>(), 1LL);
        QCOMPARE(dense.at("model.shared_experts").get<qint64>(), 0LL);
    }

    // Qwen2-MoE writes its shared expert as one MLP of shared_expert_intermediate_size: 5632 is four experts of the
    // routed width 1408. The import then counts Qwen1.5-MoE-A2.7B as its makers do (sources.tsv
    // qwen15-moe-a27b-counts: 14.3B in total, 2.7B activated), within 1%; without the shared expert it would be
    // 13.5B and 1.9B.
    void qwenSharedExpertFromItsWidth()
    {
        const auto read = readHfModelConfig(sample("qwen1.5-moe-a2.7b.json"));
        QVERIFY2(read, read ? "" : read.error().c_str());
        const auto a = answersOf(read.value());
        QCOMPARE(a.at("model.shared_experts").get<qint64>(), 4LL);
        MoeSpec spec;
        spec.experts = a.at("model.experts").get<std::int64_t>();
        spec.expertsPerToken = a.at("model.experts_per_token").get<std::int64_t>();
        spec.expertIntermediate = a.at("model.expert_intermediate_size").get<std::int64_t>();
        spec.sharedExperts = a.at("model.shared_experts").get<std::int64_t>();
        const MoeCounts c = moeCounts(read.value().shape, spec);
        QVERIFY2(std::abs(c.total / 1e9 - 14.3) <= 0.01 * 14.3, qPrintable(QString::number(c.total / 1e9)));
        QVERIFY2(std::abs(c.active / 1e9 - 2.7) <= 0.01 * 2.7, qPrintable(QString::number(c.active / 1e9)));

        // A width that is no multiple of the routed one is rounded to whole experts, and said so.
        oj odd = sample("qwen1.5-moe-a2.7b.json");
        odd["shared_expert_intermediate_size"] = 5000;
        const auto rounded = readHfModelConfig(odd).value();
        QCOMPARE(answersOf(rounded).at("model.shared_experts").get<qint64>(), 4LL);
        QVERIFY(mentions(rounded.notes, "not a multiple"));
        // n_shared_experts, where given, is the count.
        odd["n_shared_experts"] = 2;
        QCOMPARE(answersOf(readHfModelConfig(odd).value()).at("model.shared_experts").get<qint64>(), 2LL);
    }

    void headWidthAndCountsFromTheConfig()
    {
        auto gemma = readHfModelConfig(sample("gemma-2-2b.json")).value();
        QCOMPARE(answersOf(gemma).at("model.head_dim").get<qint64>(), 256LL); // 2304 / 8 would be 288
        // GPT-2 small has 124,439,808 parameters: biases, 1024 learned positions and the tied head read from config.json.
        QCOMPARE(parameterCount(readHfModelConfig(sample("gpt2.json")).value().shape), 124439808LL);
        QVERIFY(!answersOf(readHfModelConfig(sample("qwen2.5-7b.json")).value()).count("model.head_dim"));
    }

    // max_position_embeddings | n_positions fill model.max_position (0 when absent); the dropout keys of each family
    // fill model.dropout with the largest, the config class's default 0.1 where BERT, GPT-2 or T5 leave them out.
    void positionsAndDropout_data()
    {
        QTest::addColumn<QString>("json");
        QTest::addColumn<qint64>("maxPosition");
        QTest::addColumn<double>("dropout");
        QTest::newRow("gpt2: n_positions, resid/attn/embd_pdrop") << "@gpt2.json" << 1024LL << 0.1;
        QTest::newRow("qwen2.5: attention_dropout 0.0") << "@qwen2.5-7b.json" << 131072LL << 0.0;
        QTest::newRow("llama 2: no dropout key") << "@llama-2-7b.json" << 2048LL << 0.0;
        QTest::newRow("bert: hidden and attention dropout") << R"({"model_type": "bert", "hidden_size": 64,
            "num_hidden_layers": 2, "num_attention_heads": 4, "vocab_size": 100, "intermediate_size": 256,
            "hidden_dropout_prob": 0.1, "attention_probs_dropout_prob": 0.05, "max_position_embeddings": 512})"
                                                            << 512LL << 0.1;
        QTest::newRow("t5 without dropout_rate: T5Config's 0.1") << R"({"model_type": "t5", "d_model": 64,
            "num_layers": 2, "num_heads": 4, "vocab_size": 100, "d_ff": 256, "is_encoder_decoder": true})"
                                                                 << 0LL << 0.1;
    }
    void positionsAndDropout()
    {
        QFETCH(QString, json);
        QFETCH(qint64, maxPosition);
        QFETCH(double, dropout);
        const oj config = json.startsWith('@') ? sample(json.mid(1)) : oj::parse(json.toStdString());
        auto read = readHfModelConfig(config);
        QVERIFY2(read, read ? "" : read.error().c_str());
        const auto a = answersOf(read.value());
        QCOMPARE(a.at("model.max_position").get<qint64>(), maxPosition);
        QCOMPARE(a.at("model.dropout").get<double>(), dropout);
        QCOMPARE(read.value().dropout, dropout);
    }
    void aDropoutThatIsNotAProbabilityIsNamed()
    {
        auto read = readHfModelConfig(oj::parse(R"({"model_type": "gpt2", "n_embd": 64, "n_layer": 2, "n_head": 4,
            "vocab_size": 100, "resid_pdrop": 1.5})"));
        QVERIFY(!read);
        QVERIFY2(read.error().find("resid_pdrop") != std::string::npos, read.error().c_str());
    }

    void encoderDecoder()
    {
        // T5-3B's keys (google-t5/t5-3b config.json): d_model, d_kv, d_ff, num_heads, num_layers, relu MLP.
        const oj t5 = oj::parse(R"({"architectures": ["T5WithLMHeadModel"], "d_ff": 16384, "d_kv": 128, "d_model": 1024,
            "is_encoder_decoder": true, "layer_norm_epsilon": 1e-06, "model_type": "t5", "n_positions": 512,
            "num_heads": 32, "num_layers": 24, "vocab_size": 32128})");
        auto read = readHfModelConfig(t5);
        QVERIFY2(read, read ? "" : read.error().c_str());
        const auto a = answersOf(read.value());
        QCOMPARE(a.at("model.layers").get<qint64>(), 48LL);
        QCOMPARE(a.at("model.architecture").get<std::string>(), std::string("encoder-decoder"));
        QCOMPARE(a.at("model.mlp").get<std::string>(), std::string("gelu")); // two matrices (ReLU)
        QCOMPARE(read.value().shape.crossAttentionLayers, 24LL);
        const double count = static_cast<double>(parameterCount(read.value().shape));
        QVERIFY2(count > 2.82e9 && count < 2.88e9, qPrintable(QString::number(count))); // T5-3B: 2.85B
    }

    void kinds_data()
    {
        QTest::addColumn<QString>("json");
        QTest::addColumn<int>("kind");
        QTest::newRow("ds_config") << R"({"train_batch_size": 8, "zero_optimization": {"stage": 2}})"
                                   << int(ConfigFileKind::DeepSpeed);
        QTest::newRow("empty object") << "{}" << int(ConfigFileKind::DeepSpeed);
        QTest::newRow("misspelt ds key") << R"({"zero_optimisation": {"stage": 2}})" << int(ConfigFileKind::DeepSpeed);
        QTest::newRow("architectures only")
            << R"({"architectures": ["LlamaForCausalLM"]})" << int(ConfigFileKind::HuggingFaceModel);
        QTest::newRow("neither") << R"({"name": "my-package", "version": "1.0.0", "dependencies": {}})"
                                 << int(ConfigFileKind::Neither);
    }
    void kinds()
    {
        QFETCH(QString, json);
        QFETCH(int, kind);
        QCOMPARE(int(classifyConfigFile(oj::parse(json.toStdString()))), kind);
    }

    void badConfigsNameTheKey_data()
    {
        QTest::addColumn<QString>("json");
        QTest::addColumn<QString>("names");
        QTest::newRow("no hidden size") << R"({"model_type": "llama", "num_hidden_layers": 2, "num_attention_heads": 4,
            "vocab_size": 10})"
                                        << "hidden_size";
        QTest::newRow("hidden not divisible") << R"({"model_type": "llama", "hidden_size": 100, "num_hidden_layers": 2,
            "num_attention_heads": 3, "vocab_size": 10, "intermediate_size": 10})"
                                              << "model.hidden_size";
        QTest::newRow("kv heads do not divide") << R"({"model_type": "llama", "hidden_size": 96, "num_hidden_layers": 2,
            "num_attention_heads": 12, "num_key_value_heads": 5, "vocab_size": 10, "intermediate_size": 10})"
                                                << "model.kv_heads";
        QTest::newRow("intermediate 0") << R"({"model_type": "llama", "hidden_size": 96, "num_hidden_layers": 2,
            "num_attention_heads": 12, "vocab_size": 10, "intermediate_size": 0})"
                                        << "intermediate_size";
        QTest::newRow("layers a string") << R"({"model_type": "llama", "hidden_size": 96, "num_hidden_layers": "2",
            "num_attention_heads": 12, "vocab_size": 10})"
                                         << "num_hidden_layers";
        QTest::newRow("beyond the registry")
            << R"({"model_type": "llama", "hidden_size": 2000000, "num_hidden_layers": 2,
            "num_attention_heads": 1, "vocab_size": 10, "intermediate_size": 10})"
            << "model.hidden_size";
    }
    void badConfigsNameTheKey()
    {
        QFETCH(QString, json);
        QFETCH(QString, names);
        auto read = readHfModelConfig(oj::parse(json.toStdString()));
        QVERIFY(!read);
        QVERIFY2(QString::fromStdString(read.error()).contains(names), read.error().c_str());
        QVERIFY(read.error().find('\n') == std::string::npos);
    }
};

QTEST_APPLESS_MAIN(TestHfModelConfig)
#include "TestHfModelConfig.moc"
