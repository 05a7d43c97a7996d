// Sparse attention advice (models/advise/SparseAdvisor.h).
//
// Expected values are worked out by hand from deepspeed-facts §2.11 and the op's sources, never copied from output:
//   blocks per row = ceil(seq_len / block)      (the op needs seq_len % block == 0; ceil is the padded row)
//   keys per mode (the ds_config parser's table, global_block_end_indices left out because its default is None):
//     fixed:        mode, block, different_layout_per_head, num_local_blocks (4), num_global_blocks (1), attention,
//                   horizontal_global_attention (false), num_different_global_patterns (1)
//     variable:     mode, block, different_layout_per_head, num_random_blocks (0), local_window_blocks ([4]),
//                   global_block_indices ([0]), attention, horizontal_global_attention
//     bigbird:      mode, block, different_layout_per_head, num_random_blocks (0), num_sliding_window_blocks (3),
//                   num_global_blocks (1)
//     bslongformer: mode, block, different_layout_per_head, num_sliding_window_blocks (3), global_block_indices ([0])
//   op checks: torch passes iff major == 1 and minor >= 5; CUDA passes iff (10, >= 1) or major >= 11; AMD is ROCm;
//   DeepSpeed >= 0.19.5 requires torch>=2.0.0 (fail), 0.3.0 <= v < 0.19.5 unknown (warn), < 0.3.0 has no op (fail).
//   auto (the wizard's own rule): decoder -> fixed unidirectional; encoder -> bigbird from 4096 tokens, else
//   bslongformer; encoder-decoder -> fixed bidirectional.
// Defaults from the registry: DeepSpeed 0.19.5, torch 2.8.0, CUDA 12.4, A100-80GB, 32 heads, block 16.
#include "PlanFor.h"
#include "TestAnswers.h"
#include "knowledge/SourceCatalog.h"
#include "project/Answers.h"
#include "project/InputRegistry.h"

#include <QTest>

#include <algorithm>

using namespace dsw;
using namespace dsw::test;
using oj = nlohmann::ordered_json;

namespace {

const Check* findCheck(const Advice& adv, const std::string& code)
{
    auto it = std::find_if(adv.checks.begin(), adv.checks.end(), [&](const Check& c) { return c.code == code; });
    return it == adv.checks.end() ? nullptr : &*it;
}

bool containsNull(const oj& j)
{
    if (j.is_null())
        return true;
    if (j.is_structured())
        for (const auto& [key, value] : j.items())
            if (containsNull(value))
                return true;
    return false;
}

const QStringList kFixed = {"mode",
                            "block",
                            "different_layout_per_head",
                            "num_local_blocks",
                            "num_global_blocks",
                            "attention",
                            "horizontal_global_attention",
                            "num_different_global_patterns"};
const QStringList kVariable = {"mode",
                               "block",
                               "different_layout_per_head",
                               "num_random_blocks",
                               "local_window_blocks",
                               "global_block_indices",
                               "attention",
                               "horizontal_global_attention"};
const QStringList kBigBird = {"mode",
                              "block",
                              "different_layout_per_head",
                              "num_random_blocks",
                              "num_sliding_window_blocks",
                              "num_global_blocks"};
const QStringList kLongformer = {"mode", "block", "different_layout_per_head", "num_sliding_window_blocks",
                                 "global_block_indices"};
const QStringList kLegacy = {"software.torch_version=1.13.1", "software.deepspeed_version=0.9.0",
                             "software.cuda_version=11.1"};

} // namespace

class TestSparseAdvisor : public QObject {
    Q_OBJECT
private slots:
    void scenarios_data();
    void scenarios();
    void fixedDecoderBlockValues();
    void torchCheckQuotesTheOpBuilder_data();
    void torchCheckQuotesTheOpBuilder();
    void layoutErrorsUseTheOpsText();
    void ulyssesDegreesDivideHeadsAndSequence();
    void causalBigBirdSnippet();
    void gainsAreQuotedWithTheirSources();
    void citedSourcesExist();
};

void TestSparseAdvisor::scenarios_data()
{
    QTest::addColumn<QStringList>("settings");
    QTest::addColumn<QString>("status");
    QTest::addColumn<QString>("pattern");
    QTest::addColumn<QStringList>("keys");
    QTest::addColumn<QString>("attention"); // the block's `attention`, empty where the mode has none
    QTest::addColumn<int>("blocksPerRow");
    QTest::addColumn<bool>("opCanRun");
    QTest::addColumn<QStringList>("checks"); // code=level, all present
    QTest::addColumn<QStringList>("absent"); // codes that must not appear

    const QString torchFail = "sparse-attention-unsupported-torch=fail",
                  dsFail = "sparse-attention-unsupported-deepspeed=fail";
    const QString layoutOk = "sparse-layout-valid=pass", legacyOnly = "sparse-fragment-legacy-only=warn";

    // 4096 / 16 = 256 blocks per row; torch 2.8 and DeepSpeed 0.19.5 both rule the op out.
    QTest::newRow("decoder 4096 auto, current stack")
        << QStringList{"model.seq_len=4096", "model.architecture=decoder", "sparse.pattern=auto"} << "complete"
        << "fixed" << kFixed << "unidirectional" << 256 << false
        << QStringList{torchFail,
                       dsFail,
                       "sparse-attention-triton-pin=warn",
                       "sparse-attention-cuda=pass",
                       "sparse-attention-rocm=pass",
                       "sparse-attention-tested-gpus=pass",
                       layoutOk,
                       legacyOnly}
        << QStringList{"sparse-seq-len-not-divisible", "sparse-layout-dense", "sparse-pattern-bidirectional-only"};
    // 8192 >= 4096 -> bigbird; 8192 / 64 = 128; parser's num_random_blocks 0 -> warning.
    QTest::newRow("encoder 8192 auto, block 64")
        << QStringList{"model.seq_len=8192", "model.architecture=encoder", "sparse.pattern=auto", "sparse.block=64"}
        << "complete"
        << "bigbird" << kBigBird << "" << 128 << false
        << QStringList{torchFail, layoutOk, "sparse-bigbird-no-random-blocks=warn"}
        << QStringList{"sparse-pattern-bidirectional-only", "sparse-blocks-exceed-row"};
    // 2048 < 4096 -> bslongformer; 2048 / 16 = 128.
    QTest::newRow("encoder 2048 auto")
        << QStringList{"model.seq_len=2048", "model.architecture=encoder", "sparse.pattern=auto"} << "complete"
        << "bslongformer" << kLongformer << "" << 128 << false << QStringList{torchFail, layoutOk}
        << QStringList{"sparse-bigbird-no-random-blocks", "sparse-pattern-bidirectional-only"};
    QTest::newRow("encoder-decoder 4096 auto")
        << QStringList{"model.seq_len=4096", "model.architecture=encoder-decoder", "sparse.pattern=auto"} << "complete"
        << "fixed" << kFixed << "bidirectional" << 256 << false
        << QStringList{layoutOk, "sparse-encoder-decoder-causal=warn"}
        << QStringList{"sparse-pattern-bidirectional-only"};
    QTest::newRow("decoder variable 4096")
        << QStringList{"model.seq_len=4096", "model.architecture=decoder", "sparse.pattern=variable"} << "complete"
        << "variable" << kVariable << "unidirectional" << 256 << false << QStringList{layoutOk}
        << QStringList{"sparse-encoder-decoder-causal"};
    // The parser never reads `attention` for bigbird, so a decoder is warned.
    QTest::newRow("decoder bigbird 4096")
        << QStringList{"model.seq_len=4096", "model.architecture=decoder", "sparse.pattern=bigbird"} << "complete"
        << "bigbird" << kBigBird << "" << 256 << false
        << QStringList{"sparse-pattern-bidirectional-only=warn", "sparse-bigbird-no-random-blocks=warn", layoutOk}
        << QStringList{};
    // 1000 / 16 = 62.5 -> not divisible; ceil = 63 blocks (1008 tokens padded).
    QTest::newRow("decoder fixed 1000 tokens, block 16")
        << QStringList{"model.seq_len=1000", "model.architecture=decoder", "sparse.pattern=fixed"} << "complete"
        << "fixed" << kFixed << "unidirectional" << 63 << false << QStringList{"sparse-seq-len-not-divisible=fail"}
        << QStringList{"sparse-layout-valid"};
    // 32 / 16 = 2 blocks < 3 sliding window blocks -> the op raises; 2 <= 3 also means dense.
    QTest::newRow("encoder bigbird 32 tokens")
        << QStringList{"model.seq_len=32", "model.architecture=encoder", "sparse.pattern=bigbird"} << "complete"
        << "bigbird" << kBigBird << "" << 2 << false
        << QStringList{"sparse-blocks-exceed-row=fail", "sparse-layout-dense=warn"}
        << QStringList{"sparse-layout-valid", "sparse-seq-len-not-divisible"};
    // 64 / 16 = 4 blocks = num_local_blocks 4: valid but dense.
    QTest::newRow("decoder fixed 64 tokens")
        << QStringList{"model.seq_len=64", "model.architecture=decoder", "sparse.pattern=fixed"} << "complete"
        << "fixed" << kFixed << "unidirectional" << 4 << false << QStringList{layoutOk, "sparse-layout-dense=warn"}
        << QStringList{"sparse-blocks-exceed-row"};
    // torch 1.13: major 1, minor 13 >= 5 -> pass; DeepSpeed 0.9.0 is below 0.19.5 -> warn; CUDA 11.1 -> pass.
    // 2048 / 32 = 64.
    QTest::newRow("legacy stack, V100, block 32")
        << (kLegacy
            + QStringList{"hardware.gpu=V100-32GB", "model.seq_len=2048", "model.architecture=decoder",
                          "sparse.pattern=fixed", "sparse.block=32"})
        << "complete"
        << "fixed" << kFixed << "unidirectional" << 64 << true
        << QStringList{"sparse-attention-unsupported-torch=pass",
                       "sparse-attention-unsupported-deepspeed=warn",
                       "sparse-attention-triton-pin=warn",
                       "sparse-attention-cuda=pass",
                       "sparse-attention-rocm=pass",
                       "sparse-attention-tested-gpus=pass",
                       layoutOk}
        << QStringList{"sparse-fragment-legacy-only", "sparse-attention-not-in-deepspeed"};
    QTest::newRow("legacy stack on H100: outside the tutorial's GPUs")
        << (kLegacy
            + QStringList{"hardware.gpu=H100-80GB", "model.seq_len=2048", "model.architecture=decoder",
                          "sparse.pattern=fixed"})
        << "complete"
        << "fixed" << kFixed << "unidirectional" << 128 << true << QStringList{"sparse-attention-tested-gpus=warn"}
        << QStringList{"sparse-fragment-legacy-only"};
    QTest::newRow("legacy stack on MI300X: ROCm")
        << (kLegacy
            + QStringList{"hardware.gpu=MI300X", "model.seq_len=2048", "model.architecture=encoder",
                          "sparse.pattern=fixed"})
        << "complete"
        << "fixed" << kFixed << "bidirectional" << 128 << false
        << QStringList{"sparse-attention-rocm=fail", "sparse-attention-unsupported-torch=pass", legacyOnly}
        << QStringList{"sparse-attention-tested-gpus"};
    // CUDA 10.0: major 10, minor 0 < 1 -> fail.
    QTest::newRow("CUDA 10.0") << QStringList{"software.torch_version=1.8.0", "software.deepspeed_version=0.5.0",
                                              "software.cuda_version=10.0",   "hardware.gpu=V100-32GB",
                                              "model.seq_len=2048",           "model.architecture=decoder",
                                              "sparse.pattern=fixed"}
                               << "complete"
                               << "fixed" << kFixed << "unidirectional" << 128 << false
                               << QStringList{"sparse-attention-cuda=fail", "sparse-attention-unsupported-torch=pass"}
                               << QStringList{};
    // torch 1.4: minor 4 < 5 -> fail; DeepSpeed 0.3.0 is the first with the op -> unknown torch pin, warn.
    QTest::newRow("torch 1.4") << QStringList{"software.torch_version=1.4.0", "software.deepspeed_version=0.3.0",
                                              "software.cuda_version=10.1",   "model.seq_len=2048",
                                              "model.architecture=decoder",   "sparse.pattern=fixed"}
                               << "complete"
                               << "fixed" << kFixed << "unidirectional" << 128 << false
                               << QStringList{torchFail, "sparse-attention-unsupported-deepspeed=warn",
                                              "sparse-attention-cuda=pass"}
                               << QStringList{"sparse-attention-not-in-deepspeed"};
    QTest::newRow("DeepSpeed 0.2.0 has no sparse attention")
        << QStringList{"software.torch_version=1.5.0", "software.deepspeed_version=0.2.0", "software.cuda_version=10.2",
                       "model.seq_len=2048",           "model.architecture=decoder",       "sparse.pattern=fixed"}
        << "complete"
        << "fixed" << kFixed << "unidirectional" << 128 << false
        << QStringList{"sparse-attention-not-in-deepspeed=fail", "sparse-attention-unsupported-torch=pass"}
        << QStringList{"sparse-attention-unsupported-deepspeed"};
    // none: dense attention, no block; the op checks are shown as warnings (nothing builds the op). 2048 / 16 = 128.
    QTest::newRow("pattern none") << QStringList{"model.seq_len=2048", "model.architecture=decoder"} << "not_applicable"
                                  << "none" << QStringList{} << "" << 128 << false
                                  << QStringList{"sparse-attention-unsupported-torch=warn",
                                                 "sparse-attention-unsupported-deepspeed=warn",
                                                 "sparse-attention-cuda=pass", "sparse-attention-rocm=pass"}
                                  << QStringList{"sparse-layout-valid", "sparse-fragment-legacy-only"};
    QTest::newRow("pattern none on MI300X: ROCm is a warning only")
        << QStringList{"hardware.gpu=MI300X"} << "not_applicable"
        << "none" << QStringList{} << "" << 128 << false << QStringList{"sparse-attention-rocm=warn"} << QStringList{};
    // Sequence length and architecture not given: the block is still built from the defaults (2048, decoder).
    QTest::newRow("auto without sequence length or architecture")
        << QStringList{"sparse.pattern=auto"} << "needs_input"
        << "fixed" << kFixed << "unidirectional" << 128 << false << QStringList{torchFail} << QStringList{};
}

void TestSparseAdvisor::scenarios()
{
    QFETCH(QStringList, settings);
    QFETCH(QString, status);
    QFETCH(QString, pattern);
    QFETCH(QStringList, keys);
    QFETCH(QString, attention);
    QFETCH(int, blocksPerRow);
    QFETCH(bool, opCanRun);
    QFETCH(QStringList, checks);
    QFETCH(QStringList, absent);

    const Advice adv = adviceFor("sparse", answersFrom(settings));
    QCOMPARE(q(adv.workflow), QStringLiteral("sparse"));
    QCOMPARE(q(toString(adv.status)), status);
    QCOMPARE(q(adv.details.at("pattern").get<std::string>()), pattern);
    QCOMPARE(adv.details.at("blocks_per_row").get<int>(), blocksPerRow);
    QCOMPARE(adv.details.at("op_can_run").get<bool>(), opCanRun);
    QCOMPARE(adv.details.at("why_not").empty(), opCanRun);

    // The op's torch requirement comes first, in the headline and as the first check.
    QVERIFY(!adv.checks.empty());
    QCOMPARE(q(adv.checks.front().code), QStringLiteral("sparse-attention-unsupported-torch"));
    QVERIFY2(adv.headline.find("PyTorch < 2.0") != std::string::npos
                 && adv.headline.find("triton 1.0.0") != std::string::npos
                 && adv.headline.find("torch>=2.0.0") != std::string::npos,
             adv.headline.c_str());

    if (keys.isEmpty()) {
        QVERIFY(adv.fragment.empty());
    } else {
        const oj& block = adv.fragment.at("sparse_attention");
        QStringList actual;
        for (const auto& [key, value] : block.items())
            actual << q(key);
        QCOMPARE(actual, keys);
        QCOMPARE(q(block.at("mode").get<std::string>()), pattern);
        QVERIFY2(!containsNull(adv.fragment), adv.fragment.dump().c_str());
        if (!attention.isEmpty())
            QCOMPARE(q(block.at("attention").get<std::string>()), attention);
    }

    for (const QString& expected : checks) {
        const QString code = expected.section('=', 0, 0), level = expected.section('=', 1);
        const Check* c = findCheck(adv, code.toStdString());
        QVERIFY2(c, qPrintable("missing check " + code));
        QCOMPARE(q(toString(c->level)), level);
    }
    for (const QString& code : absent)
        QVERIFY2(!findCheck(adv, code.toStdString()), qPrintable("unexpected check " + code));
    // Nothing fails on a page the user does not use (the sidebar would show a conflict).
    if (status == "not_applicable")
        QVERIFY(!adv.hasFailedCheck());
    if (status == "needs_input")
        QCOMPARE(adv.missing, (std::vector<std::string>{"model.seq_len", "model.architecture"}));
    else
        QVERIFY(adv.missing.empty());
}

void TestSparseAdvisor::fixedDecoderBlockValues()
{
    // The parser's fixed defaults with the decoder's causal attention and the user's block.
    const Advice adv = adviceFor(
        "sparse",
        answersFrom({"model.seq_len=4096", "model.architecture=decoder", "sparse.pattern=fixed", "sparse.block=32"}));
    const oj expected = oj{{"sparse_attention",
                            {{"mode", "fixed"},
                             {"block", 32},
                             {"different_layout_per_head", false},
                             {"num_local_blocks", 4},
                             {"num_global_blocks", 1},
                             {"attention", "unidirectional"},
                             {"horizontal_global_attention", false},
                             {"num_different_global_patterns", 1}}}};
    QVERIFY2(adv.fragment == expected, adv.fragment.dump().c_str());
    // The JSON snippet is the fragment itself.
    QVERIFY(std::any_of(adv.snippets.begin(), adv.snippets.end(),
                        [&](const Snippet& s) { return s.language == "json" && oj::parse(s.code) == expected; }));
}

void TestSparseAdvisor::torchCheckQuotesTheOpBuilder_data()
{
    QTest::addColumn<QString>("torch");
    QTest::addColumn<QString>("level");
    QTest::addColumn<QString>("quote"); // empty: the check passes and quotes nothing
    // TORCH_MAJOR.TORCH_MINOR filled in as the op builder does.
    QTest::newRow("2.8.0") << "2.8.0"
                           << "fail"
                           << "sparse_attn requires a torch version >= 1.5 and < 2.0 but detected 2.8";
    QTest::newRow("2.0.1+cu118") << "2.0.1+cu118"
                                 << "fail"
                                 << "sparse_attn requires a torch version >= 1.5 and < 2.0 but detected 2.0";
    QTest::newRow("1.4.0") << "1.4.0"
                           << "fail"
                           << "sparse_attn requires a torch version >= 1.5 and < 2.0 but detected 1.4";
    QTest::newRow("1.5.0") << "1.5.0"
                           << "pass"
                           << "";
    QTest::newRow("1.13.1") << "1.13.1"
                            << "pass"
                            << "";
}

void TestSparseAdvisor::torchCheckQuotesTheOpBuilder()
{
    QFETCH(QString, torch);
    QFETCH(QString, level);
    QFETCH(QString, quote);
    const Advice adv = adviceFor(
        "sparse",
        answersFrom({"software.torch_version=" + torch, "software.deepspeed_version=0.9.0", "sparse.pattern=fixed"}));
    const Check* c = findCheck(adv, "sparse-attention-unsupported-torch");
    QVERIFY(c);
    QCOMPARE(q(toString(c->level)), level);
    QCOMPARE(q(c->source), QStringLiteral("ds-sparse-op"));
    const QString message = q(c->message);
    QVERIFY2(message.contains("TORCH_MAJOR == 1 and TORCH_MINOR >= 5") && message.contains("triton == 1.0.0")
                 && message.contains("DeepSpeed 0.19.5 requires torch>=2.0.0"),
             qPrintable(message));
    if (!quote.isEmpty())
        QVERIFY2(message.contains("\"" + quote + "\""), qPrintable(message));
    else
        QVERIFY2(message.contains("triton must still be exactly 1.0.0"), qPrintable(message));
    const bool inWhyNot =
        std::any_of(adv.details.at("why_not").begin(), adv.details.at("why_not").end(),
                    [&](const oj& r) { return !quote.isEmpty() && q(r.get<std::string>()) == quote; });
    QCOMPARE(inWhyNot, !quote.isEmpty());
}

void TestSparseAdvisor::layoutErrorsUseTheOpsText()
{
    // 1000 % 16 = 8; padded to 63 · 16 = 1008 tokens.
    const Advice odd = adviceFor("sparse", answersFrom({"model.seq_len=1000", "sparse.pattern=fixed"}));
    const Check* c = findCheck(odd, "sparse-seq-len-not-divisible");
    QVERIFY(c);
    QVERIFY2(c->message.find("\"Sequence Length, 1000, needs to be dividable by Block size 16!\"") != std::string::npos,
             c->message.c_str());
    QVERIFY2(c->message.find("1008 tokens") != std::string::npos, c->message.c_str());
    QCOMPARE(odd.details.at("padded_seq_len").get<int>(), 1008);

    // bslongformer with 32 tokens: 2 blocks per row < 3 sliding window blocks.
    const Advice shortRow = adviceFor(
        "sparse", answersFrom({"model.seq_len=32", "model.architecture=encoder", "sparse.pattern=bslongformer"}));
    const Check* r = findCheck(shortRow, "sparse-blocks-exceed-row");
    QVERIFY(r);
    QVERIFY2(r->message.find("\"Number of sliding window blocks, 3, must be smaller than overall number of blocks in a "
                             "row, 2!\"")
                 != std::string::npos,
             r->message.c_str());
    // 48 / 16 = 3 = the sliding window: the op accepts it (it raises only when the count exceeds the row).
    const Advice exact = adviceFor(
        "sparse", answersFrom({"model.seq_len=48", "model.architecture=encoder", "sparse.pattern=bslongformer"}));
    QVERIFY(!findCheck(exact, "sparse-blocks-exceed-row"));
    QVERIFY(findCheck(exact, "sparse-layout-dense"));
}

void TestSparseAdvisor::ulyssesDegreesDivideHeadsAndSequence()
{
    // 12 heads: divisors 2, 3, 4, 6, 12; of those 2048 = 2^11 divides by 2 and 4 only.
    const Advice adv = adviceFor("sparse", answersFrom({"model.attention_heads=12", "model.seq_len=2048"}));
    auto it = std::find_if(adv.tradeoffs.begin(), adv.tradeoffs.end(),
                           [](const Tradeoff& t) { return t.source == "ds-ulysses"; });
    QVERIFY(it != adv.tradeoffs.end());
    QVERIFY2(it->text.find("12 heads, 12 KV heads and 2048 tokens: 2, 4 (") != std::string::npos, it->text.c_str());
    QVERIFY(it->title.find("Megatron-DeepSpeed only") != std::string::npos);
    QVERIFY(it->text.find("v0.10.2") != std::string::npos);
    // KV heads split too: 32 heads and 4 KV heads leave 2 and 4.
    const Advice gqa = adviceFor(
        "sparse",
        answersFrom({"model.attention_heads=32", "model.kv_heads=4", "model.hidden_size=4096", "model.seq_len=2048"}));
    const auto megatron = std::find_if(gqa.tradeoffs.begin(), gqa.tradeoffs.end(),
                                       [](const Tradeoff& t) { return t.source == "ds-ulysses"; });
    QVERIFY2(megatron->text.find("32 heads, 4 KV heads and 2048 tokens: 2, 4 (") != std::string::npos,
             megatron->text.c_str());
    // For Hugging Face models the page points to ALST with DeepSpeed's current rules.
    const auto alst = std::find_if(gqa.tradeoffs.begin(), gqa.tradeoffs.end(),
                                   [](const Tradeoff& t) { return t.source == "ulysses-rules"; });
    QVERIFY(alst != gqa.tradeoffs.end() && alst->text.find("ulysses_sp.py") != std::string::npos);
    QVERIFY(it->text.find("predates") == std::string::npos); // 0.19.5 >= 0.10.2
    const Advice old = adviceFor("sparse", answersFrom({"software.deepspeed_version=0.9.0"}));
    QVERIFY(std::any_of(old.tradeoffs.begin(), old.tradeoffs.end(), [](const Tradeoff& t) {
        return t.source == "ds-ulysses" && t.text.find("DeepSpeed 0.9.0 predates it") != std::string::npos;
    }));
}

void TestSparseAdvisor::causalBigBirdSnippet()
{
    // The parser cannot make bigbird causal, the class can: the snippet passes attention="unidirectional".
    const Advice decoder = adviceFor(
        "sparse", answersFrom({"model.architecture=decoder", "sparse.pattern=bigbird", "model.attention_heads=16"}));
    const Advice encoder = adviceFor("sparse", answersFrom({"model.architecture=encoder", "sparse.pattern=bigbird"}));
    auto code = [](const Advice& adv) {
        auto it = std::find_if(adv.snippets.begin(), adv.snippets.end(),
                               [](const Snippet& s) { return s.code.find("SparsityConfig(") != std::string::npos; });
        return it == adv.snippets.end() ? std::string() : it->code;
    };
    QVERIFY2(code(decoder).find("BigBirdSparsityConfig(num_heads=16, block=16, different_layout_per_head=False, "
                                "num_random_blocks=0, num_sliding_window_blocks=3, num_global_blocks=1, "
                                "attention=\"unidirectional\")")
                 != std::string::npos,
             code(decoder).c_str());
    QVERIFY(!code(encoder).empty());
    QVERIFY(code(encoder).find("attention=") == std::string::npos);
}

void TestSparseAdvisor::gainsAreQuotedWithTheirSources()
{
    const Advice adv = adviceFor("sparse", answersFrom({"sparse.pattern=fixed"}));
    auto has = [&](const std::string& source, const std::string& quote) {
        return std::any_of(adv.tradeoffs.begin(), adv.tradeoffs.end(), [&](const Tradeoff& t) {
            return t.source == source && t.text.find(quote) != std::string::npos;
        });
    };
    QVERIFY(has("ds-sparse-news",
                "\"it powers an order-of-magnitude longer input sequence and obtains up to 6x faster "
                "execution with comparable accuracy. It also outperforms state-of-the-art sparse "
                "implementations with 1.5-3x faster execution.\""));
    QVERIFY(has("ds-sparse-blog", "\"up to 6.3x faster for BERT base, 5.3x for BERT large, and 6.1x for GPT2.\""));
    QVERIFY(has("flashattention",
                "\"Algorithm 1 returns O = softmax(QKᵀ)V with O(N²d) FLOPs and requires O(N) "
                "additional memory beyond inputs and output.\""));
    QVERIFY(std::none_of(adv.tradeoffs.begin(), adv.tradeoffs.end(), [](const Tradeoff& t) {
        return t.title.find("Expected gains") != std::string::npos
            && t.title.find("not a promise") == std::string::npos;
    }));
    // With the pattern at none there is no sparse block, so no gains are shown, but the alternatives are.
    const Advice none = adviceFor("sparse", Answers{});
    QVERIFY(std::none_of(none.tradeoffs.begin(), none.tradeoffs.end(),
                         [](const Tradeoff& t) { return t.source == "ds-sparse-news"; }));
    QVERIFY(std::any_of(none.tradeoffs.begin(), none.tradeoffs.end(),
                        [](const Tradeoff& t) { return t.source == "ds-ulysses"; }));
}

void TestSparseAdvisor::citedSourcesExist()
{
    // Every id a check, trade-off or estimate cites is listed, and every listed id is in resources/knowledge/sources.tsv.
    for (const QStringList& settings : {QStringList{}, QStringList{"sparse.pattern=auto", "hardware.gpu=MI300X"},
                                        QStringList{"sparse.pattern=bigbird", "software.deepspeed_version=0.2.0"}}) {
        const Advice adv = adviceFor("sparse", answersFrom(settings));
        std::vector<std::string> cited;
        for (const auto& c : adv.checks)
            cited.push_back(c.source);
        for (const auto& t : adv.tradeoffs)
            cited.push_back(t.source);
        for (const auto& id : cited)
            QVERIFY2(id.empty() || std::find(adv.sources.begin(), adv.sources.end(), id) != adv.sources.end(),
                     id.c_str());
        for (const auto& id : adv.sources)
            QVERIFY2(SourceCatalog::instance().find(id), qPrintable("not in sources.tsv: " + q(id)));
    }
}

QTEST_APPLESS_MAIN(TestSparseAdvisor)
#include "TestSparseAdvisor.moc"
