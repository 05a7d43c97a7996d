#include "config/ImportedConfigPlan.h"
#include "knowledge/CombinationRules.h"
#include "knowledge/DeepSpeedSchema.h"
#include "util/JsonAccess.h"
#include "util/Version.h"

namespace dsw {

namespace {

using oj = nlohmann::ordered_json;

std::string workflowOf(const std::string& topKey)
{
    if (topKey == "zero_optimization" || topKey == "aio")
        return "zero";
    if (topKey == "fp16" || topKey == "bf16" || topKey == "bfloat16")
        return "precision";
    if (topKey == "pipeline" || topKey == "sparse_attention")
        return topKey == "pipeline" ? "pipeline" : "sparse";
    return "base";
}

void diff(const oj& imported, const oj& wizard, const std::string& pointer, const std::string& top,
          std::vector<Suggestion>& out)
{
    for (const auto& [key, value] : wizard.items()) {
        const std::string path = pointer + "/" + pointerToken(key);
        const std::string block = top.empty() ? key : top;
        if (!imported.is_object() || !imported.contains(key)) {
            out.push_back({path, nullptr, value, workflowOf(block), "", false});
            continue;
        }
        const oj& mine = imported.at(key);
        if (mine.is_object() && value.is_object())
            diff(mine, value, path, block, out);
        else if (mine != value)
            out.push_back({path, mine, value, workflowOf(block), "", false});
    }
}

bool enabled(const oj& config, const char* key) { return isEnabled(config, key); }

bool startsWith(const std::string& text, const std::string& prefix) { return text.rfind(prefix, 0) == 0; }

// The base keys the wizard writes from training answers: given ones only (advise/BatchKeys: the ZeRO search picks
// micro-batch x accumulation for a given global batch, so that one answer carries all three).
bool baseAnswersGiven(const std::string& pointer, const Answers& a)
{
    const bool global = a.has("training.global_batch_size");
    const bool micro = a.has("training.micro_batch_size");
    const bool accumulation = a.has("training.gradient_accumulation_steps");
    if (pointer == "/train_batch_size")
        return global || (micro && accumulation);
    if (pointer == "/train_micro_batch_size_per_gpu")
        return global || micro;
    if (pointer == "/gradient_accumulation_steps")
        return global || accumulation;
    if (pointer == "/gradient_clipping")
        return a.has("training.gradient_clipping");
    if (pointer == "/optimizer")
        return a.has("training.optimizer") && a.has("training.learning_rate");
    if (startsWith(pointer, "/optimizer/params"))
        return a.has("training.learning_rate");
    if (startsWith(pointer, "/optimizer/"))
        return a.has("training.optimizer");
    return true;
}

// What DeepSpeed runs for a key the file leaves out: the schema's default at the answers' DeepSpeed version; for a batch
// key, what _set_batch_related_parameters infers from the other two and the data-parallel size (BatchLint's rule).
std::optional<oj> absentValue(const std::string& pointer, const oj& imported, const Answers& a)
{
    const auto number = [&](const char* key) { return valueOr(imported, key, std::int64_t{0}); };
    const std::int64_t t = number("train_batch_size"), m = number("train_micro_batch_size_per_gpu"),
                       g = number("gradient_accumulation_steps"), dp = a.dataParallelSize();
    if (pointer == "/gradient_accumulation_steps")
        return t > 0 && m > 0 ? oj(t / m / dp) : oj(1);
    if (pointer == "/train_micro_batch_size_per_gpu")
        return t > 0 ? std::optional<oj>(t / dp / std::max<std::int64_t>(1, g)) : std::nullopt;
    if (pointer == "/train_batch_size")
        return m > 0 ? std::optional<oj>(m * std::max<std::int64_t>(1, g) * dp) : std::nullopt;
    const DeepSpeedSchema& schema = DeepSpeedSchema::instance();
    auto value = schema.defaultValue(pointer);
    if (const auto where = schema.locate(pointer); value && where)
        if (const SchemaKey* key = schema.key(where->first, where->second))
            for (const auto& change : key->changes)
                if (!versionAtLeast(a.text("software.deepspeed_version"), change.from))
                    value = change.oldValue;
    return value;
}

// The batch keys' one rule for an import: DeepSpeed infers train_batch_size from the micro-batch, so a file with one
// never gets it added, and one that contradicts the identity (DeepSpeed stops) has it removed, not rewritten.
void inferTrainBatchSize(Suggestion& s, const oj& imported)
{
    if (s.pointer != "/train_batch_size" || !imported.contains("train_micro_batch_size_per_gpu") || s.from.is_null())
        return;
    s.reason = "train_batch_size " + s.from.dump()
        + " is not micro-batch × accumulation × data-parallel size = " + s.to.dump()
        + ", so DeepSpeed stops at its batch assertion (source ds-batch-assert); without it DeepSpeed infers "
        + s.to.dump() + " and follows the GPU count.";
    s.to = nullptr;
}

// A change without which DeepSpeed refuses the file (fp16 and bf16 both on, a batch identity that fails): offered
// before the model and cluster are known, as the linter reports it then.
bool makesFileLoad(const Suggestion& s, const oj& imported, const Answers& a)
{
    const bool precision = s.pointer == "/fp16" || s.pointer == "/bf16" || s.pointer == "/bfloat16";
    if (precision && s.to.is_null())
        return fp16Bf16Break(enabled(imported, "fp16"), enabled(imported, "bf16") || enabled(imported, "bfloat16"))
            .has_value();
    return s.pointer == "/train_batch_size" && s.to.is_null() && !s.from.is_null() && a.has("hardware.gpus_per_node");
}

} // namespace

std::vector<Suggestion> suggestionsFor(const oj& imported, const oj& wizard)
{
    std::vector<Suggestion> out;
    diff(imported, wizard, "", "", out);
    // Switching precision also means turning the other mode off: fp16 and bf16 are never both enabled.
    for (const char* from : {"fp16", "bf16", "bfloat16"}) {
        const bool wizardUsesOther = (std::string(from) == "fp16")
            ? enabled(wizard, "bf16") || enabled(wizard, "bfloat16")
            : enabled(wizard, "fp16");
        if (enabled(imported, from) && wizardUsesOther && !wizard.contains(from))
            out.push_back({std::string("/") + from, imported.at(from), nullptr, "precision", "", false});
    }
    return out;
}

std::vector<std::string> suggestionInputsMissing(const Answers& answers)
{
    std::vector<std::string> out;
    if (!answers.has("model.params") && !answers.describesShape())
        out.push_back("model.params");
    for (const char* id : {"hardware.gpu", "hardware.gpus_per_node", "hardware.nodes"})
        if (!answers.has(id))
            out.push_back(id);
    return out;
}

bool suggestionAllowed(const Suggestion& suggestion, const Answers& answers)
{
    if (answers.text("software.launcher") != "deepspeed" && containsString(suggestion.from, "auto"))
        return false;
    return baseAnswersGiven(suggestion.pointer, answers);
}

std::vector<Suggestion> suggestionsFor(const oj& imported, const oj& wizard, const Answers& answers)
{
    const bool inputsGiven = suggestionInputsMissing(answers).empty();
    std::vector<Suggestion> out;
    for (Suggestion& s : suggestionsFor(imported, wizard)) {
        inferTrainBatchSize(s, imported);
        if (const auto runs = absentValue(s.pointer, imported, answers); s.from.is_null() && runs && *runs == s.to)
            continue; // adding a key as DeepSpeed already runs it changes nothing
        if ((inputsGiven || makesFileLoad(s, imported, answers)) && suggestionAllowed(s, answers))
            out.push_back(std::move(s));
    }
    return out;
}

std::string suggestionReason(const Suggestion& s, const oj& imported)
{
    const oj* zero =
        imported.is_object() && imported.contains("zero_optimization") && imported.at("zero_optimization").is_object()
        ? &imported.at("zero_optimization")
        : nullptr;
    const bool deprecatedOffload = zero && valueOr(*zero, "cpu_offload", false);
    const bool deprecatedParam = zero && valueOr(*zero, "cpu_offload_param", false);
    if (s.pointer == "/zero_optimization/offload_optimizer" && s.from.is_null() && deprecatedOffload)
        return "zero_optimization.cpu_offload is deprecated; offload_optimizer {\"device\": \"cpu\"} is its "
               "replacement, the same optimizer offload (DeepSpeed reads cpu_offload: true as it, source "
               "ds-zero-config). Accepting it changes the spelling, not the plan; cpu_offload stays as you wrote it.";
    if (s.pointer == "/zero_optimization/offload_param" && s.from.is_null() && deprecatedParam)
        return "zero_optimization.cpu_offload_param is deprecated; offload_param {\"device\": \"cpu\"} is its "
               "replacement, the same parameter offload (source ds-zero-config).";
    if (s.pointer == "/zero_optimization/overlap_comm" && s.to == true)
        return "overlap_comm true overlaps the gradient reduction with the backward pass (DeepSpeed's default is "
               "off below stage 3, source ds-overlap-comm); it costs a second reduce bucket (source "
               "ds-mem-z12-ipg-buckets), which the page's memory figures count.";
    if (s.pointer == "/zero_optimization/contiguous_gradients" && s.to == true)
        return "contiguous_gradients true copies each rank's reduced gradients into one buffer of its partition "
               "(source ds-mem-z12-grads-in-partition), so the backward pass does not fragment memory; it is "
               "DeepSpeed's default, written explicitly.";
    return "";
}

oj applySuggestions(oj config, const std::vector<Suggestion>& suggestions)
{
    for (const auto& s : suggestions) {
        if (!s.accepted)
            continue;
        const oj::json_pointer p(s.pointer);
        if (s.to.is_null()) {
            if (config.contains(p))
                config.at(p.parent_pointer()).erase(p.back());
        } else {
            config[p] = s.to; // creates missing parent objects; existing keys keep their place
        }
    }
    return config;
}

} // namespace dsw
