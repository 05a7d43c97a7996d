#include "PlanText.h"

#include "knowledge/SourceCatalog.h"

namespace dsw {

std::string planText(const Plan& plan, const std::string& onlyWorkflow)
{
    std::string out;
    for (const auto& e : plan.inputErrors)
        out += "✗ input: " + e + "\n";
    for (const auto& advice : plan.workflows) {
        if (!onlyWorkflow.empty() && advice.workflow != onlyWorkflow)
            continue;
        out += "== " + workflowTitle(advice.workflow) + " (" + toString(advice.status) + ")\n";
        out += advice.headline + "\n";
        for (const auto& m : advice.missing)
            out += "  needs: " + m + "\n";
        for (const auto& c : advice.checks)
            out += "  " + mark(c.level) + " " + c.code + ": " + c.message + "\n";
        for (const auto& t : advice.tradeoffs)
            out += "  • " + t.title + ": " + t.text + "\n";
        for (const auto& s : advice.sources)
            if (const Source* src = SourceCatalog::instance().find(s))
                out += "  source [" + s + "] " + src->title + (src->url.empty() ? "" : " <" + src->url + ">") + "\n";
        out += "\n";
    }
    for (const auto& f : plan.findings)
        out += mark(f.level) + " " + f.code + ": " + f.message + "\n";
    out += "== ds_config.json\n" + plan.config.dump(2) + "\n\n" + plan.basis + "\n";
    return out;
}

} // namespace dsw
