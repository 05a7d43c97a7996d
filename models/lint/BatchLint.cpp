// train_batch_size = train_micro_batch_size_per_gpu × gradient_accumulation_steps × data-parallel
// size, checked the way DeepSpeed's _set_batch_related_parameters and _batch_assertion do it
// (deepspeed-facts §2.1): two of the three may be given and the third is inferred by floor
// division, then the identity is asserted.
#include "lint/ConfigRules.h"

#include "knowledge/SourceCatalog.h"
#include "lint/LintReport.h"

#include <array>
#include <cmath>

namespace dsw {

namespace {

using oj = nlohmann::ordered_json;

struct BatchValue {
    bool present = false;
    std::optional<long long> value; // set when it is a positive whole number
};

// The data-parallel size from the answers: GPUs per node × nodes ÷ pipeline stages ÷ the config's
// sequence_parallel_size. Only answers the user gave are used.
struct DataParallel {
    long long size = 0;
    std::string how;
};

std::optional<DataParallel> dataParallelSize(const LintReport& r)
{
    const Answers& a = r.context();
    if (!a.has("hardware.gpus_per_node"))
        return std::nullopt;
    const long long perNode = a.integer("hardware.gpus_per_node");
    const long long nodes = a.has("hardware.nodes") ? a.integer("hardware.nodes") : 1;
    const long long stages = a.has("pipeline.stages") ? a.integer("pipeline.stages") : 1;
    long long sequence = 1;
    if (const oj* sp = r.at("/sequence_parallel_size"); sp && sp->is_number_integer() && sp->get<long long>() > 0)
        sequence = sp->get<long long>();
    if (perNode <= 0 || nodes <= 0 || stages <= 0 || (perNode * nodes) % (stages * sequence) != 0)
        return std::nullopt;
    DataParallel dp;
    dp.size = perNode * nodes / (stages * sequence);
    dp.how = std::to_string(perNode) + " GPUs per node × " + std::to_string(nodes) + (nodes == 1 ? " node" : " nodes");
    if (stages > 1)
        dp.how += " ÷ " + std::to_string(stages) + " pipeline stages";
    if (sequence > 1)
        dp.how += " ÷ sequence_parallel_size " + std::to_string(sequence);
    if (!a.has("hardware.nodes"))
        dp.how += "; hardware.nodes not given, so 1 node";
    return dp;
}

std::string n(long long v) { return std::to_string(v); }

class BatchCheck {
public:
    explicit BatchCheck(LintReport& r)
        : m_r(r)
    {
    }

    void run()
    {
        const BatchValue tbs = read("train_batch_size");
        const BatchValue mbs = read("train_micro_batch_size_per_gpu");
        const BatchValue gas = read("gradient_accumulation_steps");
        if (m_unusable)
            return; // "auto", strings, fractions or non-positive values: reported key by key
        if (elasticityEnabled()) {
            if (tbs.present || mbs.present || gas.present)
                elasticityConflict();
            return; // elastic training computes the three itself
        }
        if (!tbs.present && !mbs.present) {
            m_r.add(LintLevel::Error, "batch-size-missing", gas.present ? "/gradient_accumulation_steps" : "",
                    std::string("Neither train_batch_size nor train_micro_batch_size_per_gpu is set")
                        + (gas.present ? " (only gradient_accumulation_steps)" : "") + ": DeepSpeed stops with "
                        + quoteOf("ds-batch-missing") + ".",
                    "set train_micro_batch_size_per_gpu (and gradient_accumulation_steps)", "ds-batch-missing");
            return;
        }
        m_dp = dataParallelSize(m_r);
        if (tbs.present && mbs.present && gas.present)
            allThree(*tbs.value, *mbs.value, *gas.value);
        else if (tbs.present && mbs.present)
            inferred("gradient_accumulation_steps", "train_batch_size // train_micro_batch_size_per_gpu // world_size",
                     [&](long long dp) {
                         return std::array<long long, 3>{*tbs.value, *mbs.value, *tbs.value / *mbs.value / dp};
                     });
        else if (tbs.present && gas.present)
            inferred("train_micro_batch_size_per_gpu", "train_batch_size // world_size // gradient_accumulation_steps",
                     [&](long long dp) {
                         return std::array<long long, 3>{*tbs.value, *tbs.value / dp / *gas.value, *gas.value};
                     });
        else if (tbs.present)
            inferred("train_micro_batch_size_per_gpu", "train_batch_size // world_size", [&](long long dp) {
                return std::array<long long, 3>{*tbs.value, *tbs.value / dp, 1};
            });
        else
            fromMicroBatch(*mbs.value, gas.present ? *gas.value : 1, gas.present);
    }

private:
    BatchValue read(const char* key)
    {
        BatchValue b;
        const oj* v = m_r.at(std::string("/") + key);
        if (!v || v->is_null())
            return b;
        b.present = true;
        const auto number = numberValue(*v);
        if (!number || *number != std::floor(*number) || *number < 1 || *number > 9.0e15)
            m_unusable = true;
        else
            b.value = static_cast<long long>(*number);
        return b;
    }

    bool elasticityEnabled() const
    {
        const oj* e = m_r.at("/elasticity/enabled");
        return e && e->is_boolean() && e->get<bool>();
    }

    void elasticityConflict()
    {
        const oj* ignore = m_r.at("/elasticity/ignore_non_elastic_batch_info");
        if (ignore && ignore->is_boolean() && ignore->get<bool>())
            return;
        m_r.add(
            LintLevel::Error, "elasticity-with-batch-keys", "/elasticity",
            "Elastic training is enabled and the config also sets batch sizes: DeepSpeed raises ElasticityConfigError ("
                + quoteExcerpt("ds-elasticity-batch", "These parameters", "is enabled") + ").",
            "remove the batch keys, or set \"ignore_non_elastic_batch_info\": true in elasticity",
            "ds-elasticity-batch");
    }

    std::string dpText() const { return "data-parallel size " + n(m_dp->size) + " (" + m_dp->how + ")"; }

    // DeepSpeed's own assertion text, with the three numbers it would print.
    std::string assertion(long long t, long long m, long long g) const
    {
        std::string text = quoteOf("ds-batch-assert");
        text.insert(text.size() - 1, " " + n(t) + " != " + n(m) + " * " + n(g) + " * " + n(m_dp->size));
        return text;
    }

    void allThree(long long t, long long m, long long g)
    {
        if (!m_dp) {
            if (t % (m * g) != 0)
                m_r.add(LintLevel::Error, "batch-identity", "/train_batch_size",
                        "train_batch_size " + n(t) + " is not a multiple of micro-batch " + n(m) + " × accumulation "
                            + n(g) + " = " + n(m * g)
                            + ", so no data-parallel size satisfies train_batch_size = micro-batch × "
                              "accumulation × data-parallel size.",
                        "remove train_batch_size and let DeepSpeed infer it", "ds-batch-assert");
            else {
                // With sequence parallelism DeepSpeed's data-parallel size is the GPUs ÷ sequence_parallel_size.
                const oj* sp = m_r.at("/sequence_parallel_size");
                const long long spSize =
                    sp && sp->is_number_integer() && sp->get<long long>() > 1 ? sp->get<long long>() : 1;
                m_r.add(LintLevel::Info, "batch-implied-world-size", "/train_batch_size",
                        "The three batch keys fit only a data-parallel size of " + n(t) + " / (" + n(m) + " × " + n(g)
                            + ") = " + n(t / (m * g))
                            + (spSize > 1 ? " (" + n(t / (m * g) * spSize) + " GPUs with sequence_parallel_size "
                                       + n(spSize) + ")"
                                          : std::string())
                            + "; on any other GPU count DeepSpeed stops at its batch assertion.",
                        "remove train_batch_size so that it follows the GPU count", "ds-batch-assert");
            }
            return;
        }
        if (t == m * g * m_dp->size)
            return;
        // The import's suggestion says the same (config/ImportedConfigPlan.h): remove it, never rewrite it.
        std::string fix = "remove train_batch_size and let DeepSpeed infer it (" + n(m * g * m_dp->size) + ")";
        if (t % (m * m_dp->size) == 0)
            fix += ", or set gradient_accumulation_steps to " + n(t / (m * m_dp->size)) + " to keep " + n(t);
        m_r.add(LintLevel::Error, "batch-identity", "/train_batch_size",
                "train_batch_size " + n(t) + " ≠ micro-batch " + n(m) + " × accumulation " + n(g) + " × " + dpText()
                    + " = " + n(m * g * m_dp->size) + ": DeepSpeed stops with " + assertion(t, m, g) + ".",
                fix, "ds-batch-assert");
    }

    template <typename Infer>
    void inferred(const std::string& key, const std::string& formula, Infer infer)
    {
        if (!m_dp) {
            m_r.add(LintLevel::Info, "batch-inferred", "/train_batch_size",
                    key + " is not set: DeepSpeed infers " + key + " = " + formula
                        + " (floor division); the division "
                          "must come out exact or its batch assertion fails.",
                    "set hardware.gpus_per_node (and nodes) to check it", "ds-batch-floor");
            return;
        }
        const auto [t, m, g] = infer(m_dp->size);
        if (m < 1 || g < 1) {
            const std::string which =
                m < 1 ? "Micro batch size per gpu: " + n(m) : "Gradient accumulation steps: " + n(g);
            m_r.add(LintLevel::Error, "batch-identity", "/train_batch_size",
                    "With " + dpText() + ", DeepSpeed infers " + key + " = " + formula + " = " + n(m < 1 ? m : g)
                        + " and stops with \"" + which + " has to be greater than 0\".",
                    "raise train_batch_size to at least " + n(m_dp->size * (m < 1 ? g : m)), "ds-batch-floor");
            return;
        }
        if (t != m * g * m_dp->size) {
            m_r.add(LintLevel::Error, "batch-identity", "/train_batch_size",
                    "With " + dpText() + ", DeepSpeed infers " + key + " = " + formula + " = "
                        + n(key == "gradient_accumulation_steps" ? g : m) + " (floor division) and then stops with "
                        + assertion(t, m, g) + ".",
                    "make train_batch_size a multiple of "
                        + n((key == "gradient_accumulation_steps" ? m : g) * m_dp->size),
                    "ds-batch-floor");
            return;
        }
        m_r.add(LintLevel::Info, "batch-inferred", "/train_batch_size",
                "With " + dpText() + ", DeepSpeed infers " + key + " = "
                    + n(key == "gradient_accumulation_steps" ? g : m) + " (train_batch_size " + n(t) + " = " + n(m)
                    + " × " + n(g) + " × " + n(m_dp->size) + ").",
                std::nullopt, "ds-batch-floor");
    }

    void fromMicroBatch(long long m, long long g, bool gasGiven)
    {
        const std::string from =
            gasGiven ? "micro-batch × accumulation × world size" : "micro-batch × world size, with accumulation 1";
        if (!m_dp) {
            m_r.add(LintLevel::Info, "batch-inferred", "/train_micro_batch_size_per_gpu",
                    "train_batch_size is not set: DeepSpeed infers it as " + from + ", so it follows the GPU count.",
                    std::nullopt, "ds-batch-floor");
            return;
        }
        m_r.add(LintLevel::Info, "batch-inferred", "/train_micro_batch_size_per_gpu",
                "With " + dpText() + ", DeepSpeed infers train_batch_size = " + n(m) + " × " + n(g) + " × "
                    + n(m_dp->size) + " = " + n(m * g * m_dp->size) + ".",
                std::nullopt, "ds-batch-floor");
    }

    LintReport& m_r;
    std::optional<DataParallel> m_dp;
    bool m_unusable = false;
};

} // namespace

void lintBatchSizes(LintReport& report) { BatchCheck(report).run(); }

} // namespace dsw
