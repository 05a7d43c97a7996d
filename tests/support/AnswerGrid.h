#pragma once
// A deterministic grid of answer sets the registry accepts (every choice that changes the config: optimizer,
// precision and its states, ZeRO stage and offload forcing, NVMe with and without a path, pipeline stages, GPUs,
// nodes, micro and global batch, 1-bit optimizers, sparse attention, GPU, model, checkpointing, launcher): each
// choice alone on three bases, then 420 drawn with every axis at once. Shared by the tests that sweep the plan.
#include <QString>
#include <QStringList>

#include <cstdint>
#include <vector>

namespace dsw::test {

namespace answer_grid {

inline const QStringList kOptimizers = {"adamw", "adam",        "lamb",          "adagrad",
                                        "lion",  "onebit-adam", "zero-one-adam", "onebit-lamb"};
inline const QStringList kPrecisions = {"auto", "fp16", "bf16", "fp8", "fp32"};
inline const QStringList kStages = {"auto", "0", "1", "2", "3"};
inline const QStringList kOffloads = {"auto", "none", "cpu", "nvme"};
inline const QStringList kSparse = {"none", "auto", "fixed", "variable", "bigbird", "bslongformer"};
inline const QStringList kLaunchers = {"deepspeed", "hf-trainer", "accelerate"};
inline const QStringList kGpus = {"A100-80GB", "H100-80GB", "V100-32GB", "T4", "A10G", "MI300X"};
inline const QStringList kModels = {"none", "llama-3.2-1b", "qwen2.5-0.5b", "llama-3.1-8b", "gpt2-xl", "bert-large"};

// A fixed linear congruential sequence (the same numbers on every platform, unlike std distributions).
struct Draw {
    std::uint64_t state = 11;
    int below(int n)
    {
        state = state * 6364136223846793005ULL + 1442695040888963407ULL;
        return static_cast<int>((state >> 33) % static_cast<std::uint64_t>(n));
    }
    QString pick(const QStringList& from) { return from.at(below(static_cast<int>(from.size()))); }
};

} // namespace answer_grid

inline std::vector<QStringList> answerGrid()
{
    using namespace answer_grid;
    std::vector<QStringList> out;
    const std::vector<QStringList> bases = {{"model.preset=qwen2.5-0.5b", "hardware.gpus_per_node=4"},
                                            {},
                                            {"model.preset=llama-3.1-8b", "hardware.nodes=2"}};
    for (const QStringList& base : bases) { // every choice alone, on each base
        auto with = [&](QStringList more) { out.push_back(base + more); };
        for (const auto& v : kOptimizers)
            with({"training.optimizer=" + v});
        for (const auto& v : kPrecisions)
            with({"training.precision=" + v});
        with({"training.precision=bf16", "training.precision_states=bf16"});
        for (const auto& v : kStages)
            with({"zero.stage=" + v});
        for (const auto& o : kOffloads)
            for (const auto& p : kOffloads)
                with({"zero.offload_optimizer=" + o, "zero.offload_param=" + p});
        with({"hardware.nvme=nvme"});
        with({"hardware.nvme=nvme", "hardware.nvme_path=/local_nvme", "zero.offload_optimizer=nvme"});
        for (const auto& v : kSparse)
            with({"sparse.pattern=" + v});
        for (const auto& v : kLaunchers)
            with({"software.launcher=" + v});
        with({"pipeline.stages=2"});
        with({"pipeline.stages=4"});
        with({"training.optimizer=lamb", "zero.offload_optimizer=cpu"});
        with({"training.optimizer=lamb", "zero.stage=3"});
        with({"training.optimizer=onebit-adam", "zero.stage=2"});
        with({"training.micro_batch_size=2", "training.gradient_accumulation_steps=8"});
        with({"training.global_batch_size=256"});
    }
    Draw d;
    for (int i = 0; i < 420; ++i) { // every axis at once
        QStringList s = {"model.preset=" + d.pick(kModels),
                         "hardware.gpu=" + d.pick(kGpus),
                         "hardware.gpus_per_node=" + d.pick({"1", "2", "4", "8"}),
                         "hardware.nodes=" + d.pick({"1", "1", "2", "4"}),
                         "training.optimizer=" + d.pick(kOptimizers),
                         "training.precision=" + d.pick(kPrecisions),
                         "zero.stage=" + d.pick(kStages),
                         "zero.offload_optimizer=" + d.pick(kOffloads),
                         "zero.offload_param=" + d.pick(kOffloads),
                         "sparse.pattern=" + d.pick(kSparse),
                         "training.activation_checkpointing=" + d.pick({"auto", "on", "off"}),
                         "software.launcher=" + d.pick(kLaunchers)};
        if (d.below(5) == 0)
            s << "training.precision_states=bf16";
        const int nvme = d.below(3);
        if (nvme > 0)
            s << "hardware.nvme=nvme";
        if (nvme == 2)
            s << "hardware.nvme_path=/local_nvme";
        const int gpus = s.at(2).section('=', 1).toInt() * s.at(3).section('=', 1).toInt();
        const int stages = QList<int>{1, 1, 2, 4}.at(d.below(4));
        if (stages > 1 && gpus % stages == 0)
            s << QStringLiteral("pipeline.stages=%1").arg(stages);
        if (const int micro = d.below(4))
            s << QStringLiteral("training.micro_batch_size=%1").arg(1 << (micro - 1) * 2);
        if (d.below(3) == 0)
            s << "training.global_batch_size=" + d.pick({"64", "256", "1024"});
        if (s.at(4).contains("onebit") || s.at(4).contains("zero-one"))
            s << "onebit.comm_backend=" + d.pick({"nccl", "mpi", "compressed"});
        out.push_back(s);
    }
    return out;
}

} // namespace dsw::test
