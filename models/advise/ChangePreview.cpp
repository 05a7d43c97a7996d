// The preview behind every Apply button; see ChangePreview.h.
#include "advise/ChangePreview.h"

#include "advise/BatchKeys.h"
#include "advise/Job.h"
#include "advise/MemoryPlan.h"
#include "advise/ZeroDecision.h"
#include "project/InputRegistry.h"

#include <algorithm>
#include <exception>

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

void push(std::vector<AnswerEdit>& edits, const std::string& id, nlohmann::json value)
{
    for (auto& e : edits)
        if (e.id == id) {
            e.value = std::move(value);
            return;
        }
    edits.push_back({id, std::move(value)});
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

ChangePreview previewRemedy(const Answers& answers, const std::vector<memory::Remedy>& steps, std::size_t index)
{
    if (index >= steps.size()) {
        ChangePreview p;
        p.cannotApply = "no such step";
        return p;
    }
    const memory::RanSetup ran = memory::ranSetupFrom(answers);
    memory::Setup s = ran.setup;
    std::string attention, loss;
    std::vector<std::string> notes;
    for (std::size_t i = 0; i <= index; ++i) {
        const memory::Remedy& step = steps[i];
        if (step.setupAfter)
            s = *step.setupAfter;
        if (step.attentionAfter)
            attention = toString(*step.attentionAfter);
        if (step.lossAfter)
            loss = toString(*step.lossAfter);
        if (!step.setupAfter && !step.attentionAfter && !step.lossAfter)
            notes.push_back("Step " + std::to_string(i + 1) + " (" + step.change
                            + ") is not an answer: put its snippet into the config or the code by hand.");
    }
    std::vector<AnswerEdit> edits;
    const memory::Setup& r = ran.setup;
    auto given = [&](const std::string& ranId) {
        return std::find(ran.notGiven.begin(), ran.notGiven.end(), ranId) == ran.notGiven.end();
    };
    // The failed run stays what it was where its memory.ran_* answer followed the answer this change moves.
    auto pin = [&](const std::string& ranId, nlohmann::json value) {
        if (follows(answers, ranId) && given(ranId))
            edits.push_back({ranId, std::move(value)});
    };
    if (s.stage != r.stage) {
        pin("memory.ran_stage", std::to_string(r.stage));
        push(edits, "zero.stage", std::to_string(s.stage));
    }
    if (s.offloadOptimizer != r.offloadOptimizer) {
        pin("memory.ran_offload_optimizer", r.offloadOptimizer);
        push(edits, "zero.offload_optimizer", s.offloadOptimizer);
    }
    if (s.offloadParam != r.offloadParam) {
        pin("memory.ran_offload_param", r.offloadParam);
        push(edits, "zero.offload_param", s.offloadParam);
    }
    if (s.checkpointing != r.checkpointing) {
        pin("memory.ran_checkpointing", r.checkpointing ? "on" : "off");
        push(edits, "training.activation_checkpointing", s.checkpointing ? "on" : "off");
    }
    if (s.micro != r.micro || s.accumulation != r.accumulation) {
        if (!answers.has("memory.ran_micro_batch")) // it follows training.micro_batch_size
            edits.push_back({"memory.ran_micro_batch", r.micro});
        push(edits, "training.micro_batch_size", s.micro);
        if (!answers.has("training.gradient_accumulation_steps")) {
            // The failed run's accumulation is that answer's: it stays unset, and the global batch (kept the same)
            // makes the config's accumulation follow the new micro-batch (advise/BatchKeys.h).
            push(edits, "training.global_batch_size", batchKeys(answers).trainBatchSize);
        } else {
            push(edits, "training.gradient_accumulation_steps", s.accumulation);
            notes.push_back("The diagnosis reads the failed run's gradient accumulation from the same answer: after "
                            "Apply it sizes the failed run with "
                            + std::to_string(s.accumulation) + ".");
        }
    }
    if (!attention.empty() || !loss.empty())
        notes.push_back("The diagnosis sizes the failed run with the kernels the answers name: after Apply it assumes "
                        "the new kernel ran, too.");
    if (!attention.empty())
        push(edits, "model.attention_impl", attention);
    if (!loss.empty())
        push(edits, "model.loss_impl", loss);
    const std::string& change = steps[index].change;
    ChangePreview p =
        previewEdits(answers, index == 0 ? "Step 1: " + change : "Steps 1–" + std::to_string(index + 1) + ": " + change,
                     std::move(edits));
    p.notes.insert(p.notes.begin(), notes.begin(), notes.end());
    if (p.edits.empty())
        p.cannotApply = notes.empty() ? "the answers already hold this change"
                                      : "no answer holds this change: copy its snippet by hand";
    return p;
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
