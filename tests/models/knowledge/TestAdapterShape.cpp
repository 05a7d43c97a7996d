// knowledge/AdapterShape: the adapters' parameters a shape implies, against counts PEFT-style runs published, and what
// each training method trains and freezes.
#include "knowledge/AdapterShape.h"
#include "knowledge/ModelCatalog.h"
#include "knowledge/ParameterCount.h"

#include <QTest>

#include <stdexcept>

using namespace dsw;

namespace {

const TransformerShape& shapeOf(const char* id)
{
    const ModelSpec* model = ModelCatalog::instance().find(id);
    if (!model)
        throw std::logic_error(std::string("no preset ") + id);
    return model->shape;
}

AdapterSpec spec(std::int64_t rank, const char* targets, MlpKind mlp = MlpKind::SwiGlu)
{
    AdapterSpec s;
    s.rank = rank;
    s.targets = adapterTargetsFrom(targets, mlp);
    return s;
}

} // namespace

class TestAdapterShape : public QObject {
    Q_OBJECT
private slots:
    // Raschka's Lit-GPT runs on Llama 2 7B (raschka-lora-count): r 8 on query and value, 4,194,304 trainable
    // parameters; on every linear layer and the output head, 20,277,248. The same article gives the whole model as
    // 6,738,415,616, which the shape's count matches.
    void llama2SevenBAsPublished()
    {
        const TransformerShape& s = shapeOf("llama-2-7b");
        const std::int64_t total = parameterCount(s);
        QCOMPARE(total, std::int64_t{6'738'415'616});
        QCOMPARE(methodSizes(s, total, TrainingMethod::Lora, spec(8, "q_proj,v_proj")).trainable,
                 std::int64_t{4'194'304});
        QCOMPARE(methodSizes(s, total, TrainingMethod::Lora,
                             spec(8, "q_proj,k_proj,v_proj,o_proj,gate_proj,up_proj,down_proj,lm_head"))
                     .adapters,
                 std::int64_t{20'277'248});
    }

    // The PEFT docs' 70B recipe (r 8, all-linear, GQA with 8 key/value heads): k and v project to 1,024, so a block
    // gains 1,294,336 and the model 103,546,880 (next-capabilities.md §1.3, derived).
    void gqaProjectionsAreNarrow()
    {
        const TransformerShape& s = shapeOf("llama-2-70b");
        const AdapterSpec r8 = spec(8, "all-linear");
        QCOMPARE(adapterParamsPerLayer(s, r8), std::int64_t{1'294'336});
        const MethodSizes m = methodSizes(s, parameterCount(s), TrainingMethod::Lora, r8);
        QCOMPARE(m.adapters, std::int64_t{103'546'880});
        QCOMPARE(m.frozen, parameterCount(s));
        QCOMPARE(m.quantized, std::int64_t{0});
    }

    // all-linear leaves the output head out (PEFT's shorthand); attention is q, k, v and o; a GELU MLP has no gate.
    void namedSets()
    {
        QCOMPARE(adapterTargetsFrom("all-linear", MlpKind::SwiGlu).size(), std::size_t{7});
        QCOMPARE(adapterTargetsFrom("all-linear", MlpKind::Gelu).size(), std::size_t{6});
        QCOMPARE(adapterTargetsFrom("attention", MlpKind::SwiGlu).size(), std::size_t{4});
        QCOMPARE(adapterTargetsFrom(" q_proj , q_proj,fc2", MlpKind::Gelu).size(), std::size_t{2});
        for (const char* bad : {"gate_proj", "c_attn", "", " , "}) {
            try {
                adapterTargetsFrom(bad, MlpKind::Gelu);
                QFAIL(bad);
            } catch (const std::invalid_argument& e) {
                QVERIFY(std::string(e.what()).rfind("lora.targets:", 0) == 0);
            }
        }
        QVERIFY_THROWS_EXCEPTION(std::invalid_argument, modulesToSaveFrom("embed_tokens,score"));
        QCOMPARE(modulesToSaveFrom("embed_tokens, lm_head").size(), std::size_t{2});
    }

    // modules_to_save trains a copy of each named module beside its frozen original; QLoRA stores the blocks' linear
    // weights in 4 bits, with 0.127 bits of constants per weight with double quantization and 0.5 without
    // (qlora-paper).
    void methodsTrainAndFreeze()
    {
        const TransformerShape& s = shapeOf("llama-2-7b");
        const std::int64_t total = parameterCount(s);
        AdapterSpec r16 = spec(16, "attention");
        r16.modulesToSave = {"lm_head"};
        const MethodSizes lora = methodSizes(s, total, TrainingMethod::Lora, r16);
        QCOMPARE(lora.saved, s.vocab * s.hidden);
        QCOMPARE(lora.trainable, lora.adapters + lora.saved);
        const MethodSizes full = methodSizes(s, total, TrainingMethod::Full, r16);
        QCOMPARE(full.trainable, total);
        QCOMPARE(full.frozen, std::int64_t{0});
        const MethodSizes qlora = methodSizes(s, total, TrainingMethod::Qlora, r16);
        QCOMPARE(qlora.quantized, s.layers * linearWeightsPerLayer(s));
        QVERIFY(qlora.quantized < total && qlora.quantized > total * 9 / 10); // embeddings and head stay 16-bit
        QCOMPARE(nf4ConstantBytesPerWeight(true) * 8, 0.126953125);           // the paper's "0.127 bits"
        QCOMPARE(nf4ConstantBytesPerWeight(false) * 8, 0.5);
    }
};

QTEST_APPLESS_MAIN(TestAdapterShape)
#include "TestAdapterShape.moc"
