// The model inputs of the registry and how Answers resolves them: a preset supplies what the user did not give,
// derived defaults (KV heads, MLP size, head width, parameter count, attention kernel), an unknown preset names
// the nearest ones, and project/ModelChecks reports a shape that contradicts itself or a count 5% off.
#include "Plan.h"
#include "TestAnswers.h"
#include "estimate/StepModel.h"
#include "knowledge/ParameterCount.h"
#include "project/Answers.h"
#include "project/InputRegistry.h"
#include "project/ModelChecks.h"

#include <QTest>

#include <algorithm>

using namespace dsw;
using namespace dsw::test;

class TestModelAnswers : public QObject {
    Q_OBJECT
private slots:
    void newInputsAreDeclared()
    {
        const InputRegistry& reg = InputRegistry::instance();
        for (const char* id :
             {"model.preset", "model.kv_heads", "model.head_dim", "model.mlp", "model.intermediate_size", "model.norm",
              "model.tied_embeddings", "model.attention_impl", "model.loss_impl", "training.precision_states"}) {
            const InputSpec* spec = reg.find(id);
            QVERIFY2(spec, id);
            QCOMPARE(spec->page, std::string("setup"));
            QVERIFY2(!spec->help.empty() && !spec->workflows.empty(), id);
        }
        QCOMPARE(reg.find("model.mlp")->values, (std::vector<std::string>{"gelu", "swiglu"}));
        QCOMPARE(reg.find("model.attention_impl")->values, (std::vector<std::string>{"eager", "sdpa", "flash"}));
        QCOMPARE(reg.find("model.loss_impl")->values, (std::vector<std::string>{"auto", "standard", "fused", "tiled"}));
        QCOMPARE(reg.find("training.precision_states")->values, (std::vector<std::string>{"fp32", "bf16"}));
        QVERIFY(reg.find("model.preset")->values.size() > 25);
    }

    void presetParsesAnyCaseAndNamesTheNearest()
    {
        auto ok = InputRegistry::instance().parse("model.preset", "Llama-3.1-8B");
        QVERIFY(ok);
        QCOMPARE(ok.value().get<std::string>(), std::string("llama-3.1-8b"));
        auto bad = InputRegistry::instance().parse("model.preset", "llama-3.1-9b");
        QVERIFY(!bad);
        QVERIFY2(bad.error().find("model.preset") != std::string::npos, bad.error().c_str());
        QVERIFY2(bad.error().find("nearest: llama-3.1-8b") != std::string::npos, bad.error().c_str());
        QVERIFY(InputRegistry::instance().parse("model.preset", "none"));
    }

    void presetSuppliesWhatIsNotGiven()
    {
        Answers a = answersFrom({"model.preset=llama-3.1-8b", "model.layers=16"});
        QCOMPARE(a.integer("model.hidden_size"), 4096LL);
        QCOMPARE(a.integer("model.kv_heads"), 8LL);
        QCOMPARE(a.integer("model.intermediate_size"), 14336LL);
        QCOMPARE(a.integer("model.vocab_size"), 128256LL);
        QCOMPARE(a.text("model.mlp"), std::string("swiglu"));
        QCOMPARE(a.text("model.norm"), std::string("rmsnorm"));
        QCOMPARE(a.integer("model.layers"), 16LL); // the user's answer wins
        QVERIFY(a.presetSupplies("model.hidden_size"));
        QVERIFY(!a.presetSupplies("model.layers"));
        QVERIFY(!a.presetSupplies("model.seq_len")); // not the preset's to say
        // The count follows the shape, with the user's 16 layers.
        TransformerShape s = a.modelShape();
        QCOMPARE(s.layers, 16LL);
        QCOMPARE(a.integer("model.params"), parameterCount(s));
        const Answers full = answersFrom({"model.preset=llama-3.1-8b"});
        QVERIFY(full.integer("model.params") > 8.0e9 && full.integer("model.params") < 8.1e9);
    }

    void derivedDefaults()
    {
        Answers a; // nothing given: the historic 7B default and the registry's shape
        QCOMPARE(a.integer("model.params"), 7000000000LL);
        QCOMPARE(a.integer("model.kv_heads"), a.integer("model.attention_heads"));
        QCOMPARE(a.integer("model.intermediate_size"), 4 * a.integer("model.hidden_size"));
        QCOMPARE(a.integer("model.head_dim"), a.integer("model.hidden_size") / a.integer("model.attention_heads"));
        QCOMPARE(a.text("model.attention_impl"), std::string("flash")); // A100-80GB, PyTorch 2.8.0
        QCOMPARE(a.text("model.loss_impl"), std::string("auto"));       // the ZeRO page may choose the fused one
        QCOMPARE(a.text("training.precision_states"), std::string("fp32"));
        a = answersFrom({"model.mlp=swiglu", "model.hidden_size=4096"});
        QCOMPARE(a.integer("model.intermediate_size"), 11008LL);             // Llama's 8h/3 rounded to 256
        QCOMPARE(a.integer("model.params"), parameterCount(a.modelShape())); // a dimension given: counted
        a = answersFrom({"hardware.gpu=V100-32GB"});
        QCOMPARE(a.text("model.attention_impl"), std::string("sdpa"));
        a = answersFrom({"hardware.gpu=V100-32GB", "software.torch_version=1.13.1"});
        QCOMPARE(a.text("model.attention_impl"), std::string("eager"));
    }

    void contradictionsNameTheInput_data()
    {
        QTest::addColumn<QStringList>("settings");
        QTest::addColumn<QString>("names");
        QTest::newRow("hidden not divisible") << QStringList{"model.hidden_size=4100"} << "model.hidden_size";
        QTest::newRow("kv heads do not divide") << QStringList{"model.kv_heads=5"} << "model.kv_heads";
        QTest::newRow("preset with bad kv heads")
            << QStringList{"model.preset=llama-3.1-8b", "model.kv_heads=3"} << "model.kv_heads";
    }
    void contradictionsNameTheInput()
    {
        QFETCH(QStringList, settings);
        QFETCH(QString, names);
        const auto error = modelShapeError(answersFrom(settings));
        QVERIFY(error);
        QVERIFY2(QString::fromStdString(*error).contains(names), error->c_str());
        QVERIFY(!modelShapeError(Answers{}));
        QVERIFY(!modelShapeError(answersFrom({"model.preset=qwen3-32b"})));
        // intermediate size 0 is refused by the registry itself, naming the input
        auto zero = InputRegistry::instance().parse("model.intermediate_size", "0");
        QVERIFY(!zero && zero.error().find("model.intermediate_size") != std::string::npos);
    }

    void givenCountFarFromTheShapeIsReported()
    {
        auto warning = paramsShapeMismatch(answersFrom({"model.preset=llama-3.1-8b", "model.params=7B"}));
        QVERIFY(warning);
        QVERIFY2(warning->find("7B") != std::string::npos && warning->find("8.03B") != std::string::npos,
                 warning->c_str());
        QVERIFY(!paramsShapeMismatch(answersFrom({"model.preset=llama-3.1-8b", "model.params=8B"}))); // 0.4%
        QVERIFY(!paramsShapeMismatch(answersFrom({"model.params=70B"}))); // no shape described
        // Layers, hidden, heads and vocabulary alone: GELU, untied and MHA are the registry's guesses, not the user's.
        const QStringList llama70 = {"model.params=70B", "model.layers=80", "model.hidden_size=8192",
                                     "model.attention_heads=64", "model.vocab_size=32000"};
        QVERIFY(!paramsShapeMismatch(answersFrom(llama70)));
        QVERIFY(paramsShapeMismatch(answersFrom(llama70 + QStringList{"model.mlp=gelu"}))); // 65B against 70B
        QVERIFY(!paramsShapeMismatch(answersFrom(
            llama70 + QStringList{"model.mlp=swiglu", "model.kv_heads=8", "model.intermediate_size=28672"})));
        QVERIFY(!paramsShapeMismatch(answersFrom({"model.preset=llama-3.1-8b"}))); // not given
    }

    // model.max_position: from the preset (max_position_embeddings), 0 = unknown; a sequence past it is warned about,
    // naming both numbers and what it means for the model's kind of positions.
    void aSequencePastTheModelsPositionsIsWarned()
    {
        QCOMPARE(answersFrom({"model.preset=llama-2-7b"}).integer("model.max_position"), 4096LL);
        QCOMPARE(Answers{}.integer("model.max_position"), 0LL);
        QVERIFY(answersFrom({"model.preset=gpt2-xl"}).presetSupplies("model.max_position"));

        const auto rope = seqLenBeyondMaxPosition(answersFrom({"model.preset=llama-2-7b", "model.seq_len=8192"}));
        QVERIFY(rope);
        for (const char* part : {"8192", "4096", "RoPE scaling", "position interpolation", "max_position_embeddings"})
            QVERIFY2(rope->find(part) != std::string::npos, rope->c_str());
        const auto learned = seqLenBeyondMaxPosition(answersFrom({"model.preset=gpt2-xl", "model.seq_len=2048"}));
        QVERIFY(learned);
        for (const char* part : {"2048", "1024", "learned position embeddings", "fails"})
            QVERIFY2(learned->find(part) != std::string::npos, learned->c_str());
        QVERIFY(!seqLenBeyondMaxPosition(answersFrom({"model.preset=llama-2-7b", "model.seq_len=4096"})));
        QVERIFY(!seqLenBeyondMaxPosition(answersFrom({"model.seq_len=1000000"}))); // the maximum is not known
        QVERIFY(seqLenBeyondMaxPosition(answersFrom({"model.max_position=2048", "model.seq_len=4096"})));

        // Shown where the model checks are: a finding of the plan, on the pages that size the sequence.
        const Plan plan = makePlan(answersFrom({"model.preset=llama-2-7b", "model.seq_len=8192"}));
        const auto f = std::find_if(plan.findings.begin(), plan.findings.end(),
                                    [](const Finding& f) { return f.code == "seq-len-exceeds-max-position"; });
        QVERIFY(f != plan.findings.end());
        QVERIFY(f->level == CheckLevel::Warn);
        QVERIFY(std::find(f->workflows.begin(), f->workflows.end(), "zero") != f->workflows.end());
        QVERIFY(std::none_of(makePlan(answersFrom({"model.preset=llama-2-7b"})).findings.begin(),
                             makePlan(answersFrom({"model.preset=llama-2-7b"})).findings.end(),
                             [](const Finding& f) { return f.code == "seq-len-exceeds-max-position"; }));
    }

    // model.params is the whole model's count: a LoRA user must not type the adapter's.
    void theParameterCountIsTheWholeModels()
    {
        const InputSpec* params = InputRegistry::instance().find("model.params");
        QCOMPARE(params->label, std::string("Total parameters"));
        QVERIFY2(params->help.find("trainable") == std::string::npos, params->help.c_str());
        QVERIFY2(params->help.find("LoRA") != std::string::npos && params->help.find("adapter") != std::string::npos,
                 params->help.c_str());
        // "trainable" is said only where trainable parameters are meant: the pipeline's "parameters" method (DeepSpeed
        // counts those) and the adapters'.
        for (const InputSpec& spec : InputRegistry::instance().all())
            if ((spec.label + spec.help).find("trainable") != std::string::npos)
                QVERIFY2(spec.id == "pipeline.partition_method" || spec.id == "training.method"
                             || spec.id.rfind("lora.", 0) == 0,
                         spec.id.c_str());
    }

    // model.dropout: from the preset, 0 by default; a model trained with dropout sizes its activations with it.
    void dropoutComesFromThePresetAndSizesTheActivations()
    {
        const InputSpec* spec = InputRegistry::instance().find("model.dropout");
        QVERIFY(spec && spec->type == InputType::Number && spec->min == 0 && spec->max < 1);
        QCOMPARE(Answers{}.number("model.dropout"), 0.0);
        QCOMPARE(answersFrom({"model.preset=bert-large"}).number("model.dropout"), 0.1);
        QCOMPARE(answersFrom({"model.preset=gpt2-xl"}).number("model.dropout"), 0.1);
        QCOMPARE(answersFrom({"model.preset=llama-3.1-8b"}).number("model.dropout"), 0.0);
        QVERIFY(!InputRegistry::instance().parse("model.dropout", "1"));

        const StepCandidate candidate{{2, "none", "none"}, false, 4, 1};
        auto activations = [&](const QStringList& settings) {
            return stepActivations(stepJobFrom(answersFrom(settings)), candidate).peakBytes;
        };
        // BERT-Large and GPT-2 XL train with dropout 0.1: eager attention saves a mask and the dropped probabilities.
        for (const char* preset : {"bert-large", "gpt2-xl"}) {
            const QStringList base{QStringLiteral("model.preset=%1").arg(preset), "model.seq_len=512",
                                   "model.attention_impl=eager"};
            QVERIFY(stepJobFrom(answersFrom(base)).dropout);
            const std::int64_t with = activations(base), without = activations(base + QStringList{"model.dropout=0"});
            QVERIFY2(with > without * 1.25,
                     qPrintable(QStringLiteral("%1: %2 against %3").arg(preset).arg(with).arg(without)));
        }
        // Llama 3.1 8B trains without: the same bytes as with dropout said to be 0.
        const QStringList llama{"model.preset=llama-3.1-8b", "model.attention_impl=eager"};
        QVERIFY(!stepJobFrom(answersFrom(llama)).dropout);
        QCOMPARE(activations(llama), activations(llama + QStringList{"model.dropout=0"}));
        QVERIFY(activations(llama + QStringList{"model.dropout=0.1"}) > activations(llama));
    }
};

QTEST_APPLESS_MAIN(TestModelAnswers)
#include "TestModelAnswers.moc"
