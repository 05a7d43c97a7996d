#include "config/ConfigImporter.h"
#include "util/JsonAccess.h"

#include "project/InputRegistry.h"

#include <algorithm>
#include <cctype>
#include <map>

namespace dsw {

namespace {

using oj = nlohmann::ordered_json;

// Finds a value by JSON pointer without throwing.
const oj* at(const oj& root, const std::string& pointer)
{
    try {
        const auto p = oj::json_pointer(pointer);
        return root.contains(p) ? &root.at(p) : nullptr;
    } catch (const nlohmann::json::exception&) {
        return nullptr;
    }
}

std::string lower(std::string s)
{
    std::transform(s.begin(), s.end(), s.begin(), [](unsigned char c) { return std::tolower(c); });
    return s;
}

class AnswerWriter {
public:
    explicit AnswerWriter(ImportedProject& out)
        : m_out(out)
    {
    }

    // Sets `id` from the value at `pointer` when there is one that the registry accepts.
    void take(const oj& config, const std::string& pointer, const std::string& id)
    {
        if (const oj* v = at(config, pointer))
            set(id, nlohmann::json(*v), pointer);
    }

    void set(const std::string& id, const nlohmann::json& value, const std::string& from)
    {
        if (value.is_string() && value.get<std::string>() == "auto") {
            m_out.notes.push_back(from + " is \"auto\" (filled in by the launcher); " + id + " keeps its default");
            return;
        }
        auto r = InputRegistry::instance().validate(id, value);
        if (r)
            m_out.project.answers.set(id, r.value());
        else
            m_out.notes.push_back(from + " not carried into " + id + ": " + r.error());
    }

private:
    ImportedProject& m_out;
};

bool enabled(const oj& config, const char* block) { return isEnabled(config, block); }

} // namespace

ImportedProject importConfig(const ParsedConfig& parsed)
{
    ImportedProject out;
    const oj& c = parsed.json;
    out.project.importedConfig = c;
    // The file's own problems stay with the project (Plan lints them again); a key written twice keeps its last
    // value, as a loader that builds a dict does, and the note says so.
    for (std::size_t i = 0; i < parsed.duplicates.size(); ++i) {
        const ParsedConfig::Duplicate& d = parsed.duplicates[i];
        out.project.importedText.duplicates.push_back({d.pointer, d.line});
        if (std::any_of(parsed.duplicates.begin() + static_cast<std::ptrdiff_t>(i) + 1, parsed.duplicates.end(),
                        [&](const ParsedConfig::Duplicate& later) { return later.pointer == d.pointer; }))
            continue; // written again further down: that one is kept
        const oj* kept = at(c, d.pointer);
        out.notes.push_back(d.pointer + " is written more than once; the value on line " + std::to_string(d.line)
                            + (kept ? " (" + kept->dump() + ")" : std::string()) + " is the one kept");
    }
    out.project.importedText.hjsonSyntax = parsed.hjsonSyntax;
    out.project.importedText.quotelessValues = parsed.quotelessValues;
    AnswerWriter w(out);

    w.take(c, "/train_micro_batch_size_per_gpu", "training.micro_batch_size");
    w.take(c, "/gradient_accumulation_steps", "training.gradient_accumulation_steps");
    w.take(c, "/train_batch_size", "training.global_batch_size");
    w.take(c, "/gradient_clipping", "training.gradient_clipping");
    w.take(c, "/optimizer/params/lr", "training.learning_rate");
    if (const oj* type = at(c, "/optimizer/type"); type && type->is_string()) {
        static const std::map<std::string, std::string> ids = {{"adamw", "adamw"},
                                                               {"adam", "adam"},
                                                               {"lamb", "lamb"},
                                                               {"adagrad", "adagrad"},
                                                               {"lion", "lion"},
                                                               {"onebitadam", "onebit-adam"},
                                                               {"zerooneadam", "zero-one-adam"},
                                                               {"onebitlamb", "onebit-lamb"}};
        const auto it = ids.find(lower(type->get<std::string>()));
        if (it != ids.end())
            w.set("training.optimizer", it->second, "/optimizer/type");
        else
            out.notes.push_back("/optimizer/type \"" + type->get<std::string>()
                                + "\" is not one the wizard models; kept as is");
    }
    w.take(c, "/optimizer/params/comm_backend_name", "onebit.comm_backend");

    if (enabled(c, "bf16") || enabled(c, "bfloat16"))
        w.set("training.precision", "bf16", "/bf16/enabled");
    else if (enabled(c, "fp16"))
        w.set("training.precision", "fp16", "/fp16/enabled");
    else if (!at(c, "/fp16") && !at(c, "/bf16") && !at(c, "/bfloat16"))
        w.set("training.precision", "fp32", "(no fp16 or bf16 block)");

    if (const oj* zero = at(c, "/zero_optimization")) {
        if (zero->is_object() && zero->contains("stage") && (*zero)["stage"].is_number_integer())
            w.set("zero.stage", std::to_string((*zero)["stage"].get<int>()), "/zero_optimization/stage");
        if (valueOr(*zero, "cpu_offload", false) && !zero->contains("offload_optimizer")) // deprecated spelling
            w.set("zero.offload_optimizer", "cpu", "/zero_optimization/cpu_offload");
        if (zero->is_boolean()) // legacy form: true means stage 1
            w.set("zero.stage", *zero ? "1" : "0", "/zero_optimization");
        for (const char* block : {"offload_optimizer", "offload_param"}) {
            const oj* off = at(c, std::string("/zero_optimization/") + block);
            const std::string device = off ? valueOr(*off, "device", std::string()) : std::string();
            if (!device.empty())
                w.set(std::string("zero.") + block, device, std::string("/zero_optimization/") + block + "/device");
            if (device != "nvme")
                continue;
            w.set("hardware.nvme", "nvme", std::string("/zero_optimization/") + block + "/device");
            if (off->contains("nvme_path"))
                w.set("hardware.nvme_path", (*off)["nvme_path"],
                      std::string("/zero_optimization/") + block + "/nvme_path");
        }
    }
    // How the config runs a mixture of experts, as the wizard's own exports write it (advise/MoeAdvice.cpp): AutoEP's
    // block (auto_ep_config.py: enabled, autoep_size, preset_model) or ZeRO-3 leaf modules. A dense model ignores them.
    if (const oj* ep = at(c, "/expert_parallel"); ep && ep->is_object() && valueOr(*ep, "enabled", false)) {
        w.set("moe.mode", "autoep", "/expert_parallel/enabled");
        if (const oj* size = at(c, "/expert_parallel/autoep_size"); size && size->is_number_integer())
            w.set("moe.expert_parallel_size", std::to_string(size->get<long long>()), "/expert_parallel/autoep_size");
        w.take(c, "/expert_parallel/preset_model", "moe.autoep_preset");
    } else if (const oj* leaf = at(c, "/zero_optimization/leaf_module"); leaf && leaf->is_object()) {
        w.set("moe.mode", "leaf", "/zero_optimization/leaf_module");
    }
    // A Ulysses degree the registry offers (a power of two up to 256); another is the lint's to report.
    if (const oj* sp = at(c, "/sequence_parallel_size"); sp && sp->is_number_integer()) {
        const long long n = sp->get<long long>();
        if (n >= 1 && n <= 256 && (n & (n - 1)) == 0)
            w.set("parallel.sequence_parallel_size", std::to_string(n), "/sequence_parallel_size");
    }
    if (const oj* sparse = at(c, "/sparse_attention"); sparse && sparse->is_object()) {
        w.set("sparse.pattern", valueOr(*sparse, "mode", std::string("fixed")), "/sparse_attention/mode");
        w.take(c, "/sparse_attention/block", "sparse.block");
    }
    if (containsString(c, "auto")) { // "auto" only makes sense where the Hugging Face integration fills it in
        w.set("software.launcher", "hf-trainer", "(\"auto\" values)");
        // A round trip through a bundle loses what launch.sh carried: the import reads the chosen file only.
        out.notes.push_back(
            "the values behind \"auto\" are the launcher's arguments (the --per_device_train_batch_size, "
            "--gradient_accumulation_steps, --learning_rate and --bf16/--fp16 flags of a ds-wizard bundle's "
            "launch.sh, or your script's TrainingArguments); the import reads only this file, so the answers they "
            "set keep their defaults until you give them");
    }
    return out;
}

} // namespace dsw
