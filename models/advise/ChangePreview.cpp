// The preview behind every Apply button; see ChangePreview.h.
#include "advise/ChangePreview.h"

#include "advise/BatchKeys.h"
#include "advise/Job.h"
#include "advise/MemoryPlan.h"
#include "advise/ZeroDecision.h"
#include "project/InputRegistry.h"

#include <algorithm>
#include <exception>
#include <optional>
#include <stdexcept>

namespace dsw {

namespace {

using oj = nlohmann::ordered_json;

// An answer that is not given or says auto: it follows another answer or a default.
bool follows(const Answers& a, const std::string& id) { return !a.has(id) || a.value(id) == "auto"; }

std::string device(const oj& block)
{
    if (block.is_null())
        return "none";
    if (block.is_object() && block.contains("device") && block["device"].is_string())
        return block["device"].get<std::string>();
    return {};
}

} // namespace

PlanFigures planFigures(const Answers& answers)
{
    PlanFigures f;
    const Job job = resolveJob(answers);
    if (!job.sized()) {
        f.label = job.unsizedCheck().message;
        return f;
    }
    try {
        const ZeroDecision zero = decideZero(job, answers);
        const StepPrediction& p = zero.plan();
        f.sized = true;
        f.gpuBytes = p.gpu.total;
        f.stepSeconds = p.time.total;
        f.fits = p.fits();
        f.label = p.label();
    } catch (const std::exception& e) { // answers the step model cannot size: said, not a crash
        f.sized = false;
        f.label = e.what();
    }
    return f;
}

Answers withEdits(Answers answers, const std::vector<AnswerEdit>& edits)
{
    for (const auto& e : edits) {
        if (e.value.is_null())
            answers.unset(e.id);
        else
            answers.set(e.id, e.value);
    }
    return answers;
}

ChangePreview previewEdits(const Answers& answers, std::string title, std::vector<AnswerEdit> edits)
{
    ChangePreview p;
    p.title = std::move(title);
    for (auto& e : edits) {
        const bool same = e.value.is_null() ? !answers.has(e.id) : answers.has(e.id) && answers.value(e.id) == e.value;
        if (same)
            continue;
        if (!e.value.is_null())
            if (auto valid = InputRegistry::instance().validate(e.id, e.value); !valid) {
                p.notes.push_back(valid.error());
                continue;
            }
        p.edits.push_back(std::move(e));
    }
    p.before = planFigures(answers);
    p.after = p.edits.empty() ? p.before : planFigures(withEdits(answers, p.edits));
    return p;
}

namespace {

PlanFigures figuresOf(const StepPrediction& p) { return {true, p.gpu.total, p.time.total, p.fits(), p.label()}; }

// The memory.ran_* answers that are not given, set to the failed run's values.
std::vector<AnswerEdit> freezeEdits(const memory::RanSetup& ran)
{
    std::vector<AnswerEdit> edits;
    for (auto& [id, value] : memory::ranAnswers(ran.setup))
        if (std::find(ran.fromConfig.begin(), ran.fromConfig.end(), id) != ran.fromConfig.end())
            edits.push_back({id, std::move(value)});
    return edits;
}

} // namespace

ChangePreview previewRemedy(const Answers& answers, const memory::FailedRun& failed,
                            const std::vector<memory::Remedy>& steps, std::size_t index)
{
    ChangePreview p;
    p.againstFailedRun = true;
    p.before = p.after = figuresOf(failed.predicted);
    if (index >= steps.size()) {
        p.cannotApply = "no such step";
        return p;
    }
    const memory::Remedy& step = steps[index];
    const std::string title = "Step " + std::to_string(index + 1) + ": " + step.change;
    if (!step.setupAfter) {
        p.title = title;
        p.cannotApply = "no answer holds this change: copy its snippet by hand";
        if (step.after)
            p.after = figuresOf(*step.after);
        return p;
    }
    const memory::Setup& s = *step.setupAfter;
    std::vector<AnswerEdit> edits = freezeEdits(failed.ran);
    edits.insert(edits.end(),
                 {{"zero.stage", std::to_string(s.stage)},
                  {"zero.offload_optimizer", s.offloadOptimizer},
                  {"zero.offload_param", s.offloadParam},
                  {"training.activation_checkpointing", s.checkpointing ? "on" : "off"},
                  {"training.micro_batch_size", s.micro},
                  {"training.gradient_accumulation_steps", s.accumulation},
                  {"model.attention_impl", std::string(toString(s.attention))},
                  {"model.loss_impl", std::string(toString(s.loss))},
                  {"parallel.sequence_parallel_size", std::to_string(s.sequenceParallel)},
                  {"training.tiled_mlp", s.tiledMlp ? "on" : "off"},
                  {"training.checkpoint_offload", s.checkpointOffload ? "on" : "off"}});
    // An answer whose value (its default included) is already the run's is left as it is.
    std::erase_if(edits,
                  [&](const AnswerEdit& e) { return !e.id.starts_with("memory.") && answers.value(e.id) == e.value; });
    p = previewEdits(answers, title, std::move(edits));
    p.againstFailedRun = true;
    p.before = figuresOf(failed.predicted);
    p.after = step.after ? figuresOf(*step.after) : p.before;
    if (std::any_of(p.edits.begin(), p.edits.end(),
                    [&](const AnswerEdit& e) { return !e.id.starts_with("memory.") && follows(answers, e.id); }))
        p.notes.push_back("Answers left to the wizard are set to what the failed run had, so the ZeRO page keeps its "
                          "setup apart from this step.");
    if (!step.code.empty() || !step.env.empty())
        p.notes.push_back("The answers record the change; its snippet goes into the training script or its "
                          "environment by hand.");
    if (p.edits.empty())
        p.cannotApply = "the answers already hold this change";
    return p;
}

std::vector<AnswerEdit> pasteMessageEdits(const Answers& answers, const std::string& message)
{
    std::vector<AnswerEdit> edits = {{"memory.oom_message", message}};
    if (answers.text("memory.oom_message").empty() && !message.empty()) {
        const Job job = resolveJob(answers);
        std::optional<ZeroDecision> zero;
        if (job.sized())
            try {
                zero = decideZero(job, answers);
            } catch (const std::invalid_argument&) { // not sized: the config's defaults describe the run
            }
        const auto frozen =
            freezeEdits(memory::ranSetupFrom(answers, memory::configSetup(job, zero ? &*zero : nullptr)));
        edits.insert(edits.end(), frozen.begin(), frozen.end());
    }
    return edits;
}

ChangePreview previewConfigChange(const Answers& answers, const std::string& pointer, const oj& to)
{
    std::vector<AnswerEdit> edits;
    auto offload = [&](const std::string& id, const oj& block) {
        if (const std::string d = device(block); d == "none" || d == "cpu" || d == "nvme")
            edits.push_back({id, d});
    };
    auto integer = [&](const std::string& id) {
        if (to.is_number_integer())
            edits.push_back({id, to.get<std::int64_t>()});
    };
    auto number = [&](const std::string& id) {
        if (to.is_number())
            edits.push_back({id, to.get<double>()});
    };
    auto stage = [&](const oj& v) {
        if (v.is_number_integer() && v.get<int>() >= 0 && v.get<int>() <= 3)
            edits.push_back({"zero.stage", std::to_string(v.get<int>())});
    };
    if (pointer == "/zero_optimization/stage")
        stage(to);
    else if (pointer == "/zero_optimization/offload_optimizer" || pointer == "/zero_optimization/offload_param")
        offload(pointer.ends_with("optimizer") ? "zero.offload_optimizer" : "zero.offload_param", to);
    else if (pointer == "/zero_optimization/offload_optimizer/device" && to.is_string())
        offload("zero.offload_optimizer", oj{{"device", to}});
    else if (pointer == "/zero_optimization/offload_param/device" && to.is_string())
        offload("zero.offload_param", oj{{"device", to}});
    else if (pointer == "/zero_optimization" && to.is_object()) {
        if (to.contains("stage"))
            stage(to["stage"]);
        offload("zero.offload_optimizer", to.value("offload_optimizer", oj()));
        offload("zero.offload_param", to.value("offload_param", oj()));
    } else if (pointer == "/train_micro_batch_size_per_gpu")
        integer("training.micro_batch_size");
    else if (pointer == "/gradient_accumulation_steps")
        integer("training.gradient_accumulation_steps");
    else if (pointer == "/train_batch_size")
        integer("training.global_batch_size");
    else if (pointer == "/gradient_clipping")
        number("training.gradient_clipping");
    else if (pointer == "/optimizer/params/lr")
        number("training.learning_rate");
    else if ((pointer == "/bf16" || pointer == "/fp16") && to.is_object() && to.value("enabled", false) == true)
        edits.push_back({"training.precision", pointer.substr(1)});
    else if ((pointer == "/bf16/enabled" || pointer == "/fp16/enabled") && to == true)
        edits.push_back({"training.precision", pointer.substr(1, 4)});
    ChangePreview p = previewEdits(answers, pointer + " → " + (to.is_null() ? "(removed)" : to.dump()), edits);
    if (edits.empty())
        p.notes.push_back("No answer holds " + pointer + ": the step model's memory and time do not change.");
    return p;
}

} // namespace dsw
