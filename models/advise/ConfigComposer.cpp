#include "advise/ConfigComposer.h"

#include <algorithm>

namespace dsw {

namespace {

using oj = nlohmann::ordered_json;

struct Origin {
    std::string pointer;
    std::string workflow;
};

void merge(oj& into, const oj& from, const std::string& pointer, const std::string& workflow,
           std::vector<Origin>& origins, std::vector<Finding>& findings)
{
    for (const auto& [key, value] : from.items()) {
        const std::string path = pointer + "/" + key;
        if (!into.contains(key)) {
            into[key] = value;
            origins.push_back({path, workflow});
            continue;
        }
        if (into[key].is_object() && value.is_object()) {
            merge(into[key], value, path, workflow, origins, findings);
            continue;
        }
        if (into[key] == value)
            continue;
        // The deepest key already set at or above `path` (recorded last), matched on whole path segments.
        auto first = std::find_if(origins.rbegin(), origins.rend(), [&](const Origin& o) {
            return path == o.pointer || path.rfind(o.pointer + "/", 0) == 0;
        });
        const std::string firstWorkflow = first == origins.rend() ? "base" : first->workflow;
        findings.push_back({CheckLevel::Fail,
                            "conflicting-fragments",
                            path + ": " + firstWorkflow + " sets " + into[key].dump() + " but " + workflow + " sets "
                                + value.dump() + "; the config keeps " + into[key].dump() + ".",
                            {firstWorkflow, workflow}});
    }
}

} // namespace

const std::vector<std::string>& composedKeyOrder()
{
    static const std::vector<std::string> order = {"train_batch_size",
                                                   "train_micro_batch_size_per_gpu",
                                                   "gradient_accumulation_steps",
                                                   "gradient_clipping",
                                                   "optimizer",
                                                   "scheduler",
                                                   "fp16",
                                                   "bf16",
                                                   "zero_optimization",
                                                   "aio",
                                                   "activation_checkpointing",
                                                   "pipeline",
                                                   "sparse_attention"};
    return order;
}

namespace {

template <typename Fragments, typename Each>
ComposedConfig composeEach(const Fragments& fragments, Each each)
{
    ComposedConfig out;
    oj merged = oj::object();
    std::vector<Origin> origins;
    for (const auto& f : fragments)
        each(f, [&](const std::string& workflow, const oj& fragment) {
            merge(merged, fragment, "", workflow, origins, out.findings);
        });
    for (const auto& key : composedKeyOrder())
        if (auto it = merged.find(key); it != merged.end())
            out.config[key] = std::move(*it);
    for (auto it = merged.begin(); it != merged.end(); ++it)
        if (!out.config.contains(it.key()))
            out.config[it.key()] = std::move(it.value());
    return out;
}

} // namespace

ComposedConfig composeConfig(const std::vector<std::pair<std::string, nlohmann::ordered_json>>& fragments)
{
    return composeEach(fragments, [](const auto& f, auto merge) { merge(f.first, f.second); });
}

ComposedConfig composeConfig(const std::vector<FragmentRef>& fragments)
{
    return composeEach(fragments, [](const FragmentRef& f, auto merge) { merge(*f.workflow, *f.fragment); });
}

} // namespace dsw
