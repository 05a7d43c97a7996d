#pragma once
// What the ZeRO page says and writes for a long-context plan (ALST: DeepSpeed-Ulysses for Hugging Face models,
// TiledMLP, a tiled loss, checkpoint offload; knowledge/UlyssesRules.h): the degree and why, tokens per GPU, the
// all-to-all time, the checkpoints in host memory, the config keys, the code each launcher needs and the versions.
// The sparse-attention and out-of-memory pages point to the same plan (longContextSummary).
#include "advise/Advice.h"
#include "advise/Job.h"
#include "advise/ZeroDecision.h"

#include <cstdint>
#include <string>

namespace dsw {

// Versions the HF paths need (ulysses-hf-versions): the Trainer's parallelism_config from Transformers 5.0,
// Accelerate's ParallelismConfig with sp_backend "deepspeed" from 1.12, with DeepSpeed 0.18.1.
inline constexpr const char* kUlyssesTrainerTransformers = "5.0.0";
inline constexpr const char* kUlyssesAccelerate = "1.12.0";
inline constexpr const char* kUlyssesDeepSpeed = "0.18.1";

// Tokens of one sequence on one GPU: ⌈s / sp⌉.
std::int64_t tokensPerGpu(const StepJob& job, const StepCandidate& c);

// Whether `c` uses any of ALST's pieces (a Ulysses degree above 1, TiledMLP, a tiled loss, checkpoint offload).
bool usesAlst(const StepJob& job, const StepCandidate& c);

// The code a training script needs for `c`'s Ulysses degree under software.launcher `launcher`: the registration and
// data-loader adapter for plain DeepSpeed, Accelerate's ParallelismConfig for the Trainer and Accelerate.
std::string ulyssesCode(const StepJob& job, const StepCandidate& c, const std::string& launcher);
// DeepSpeed's TiledMLP patched into a Llama-style MLP; ArcticTraining's checkpoint offload.
std::string tiledMlpCode();
std::string checkpointOffloadCode();

// What plan `c` asks of the training script, as launch.sh's FILL IN lines (each ending in a newline), for
// software.launcher; empty when it uses none of ALST's pieces.
std::string longContextLaunchNote(const StepJob& job, const StepCandidate& c, const Answers& a);

// Adds the long-context checks, estimates, config keys and snippets of `d`'s chosen plan to `adv`; also says when a
// parallel.sequence_parallel_size the rules refuse was set aside. Nothing for a plan without ALST's pieces.
void addLongContextAdvice(Advice& adv, const Job& job, const ZeroDecision& d, const Answers& a);

// From this many tokens the sparse-attention and out-of-memory pages name the best plan with ALST's pieces even when
// the chosen plan needs none: a stated wizard threshold, the shortest length of the HF blog's SP table (32K).
inline constexpr std::int64_t kLongContextTokens = 32768;

// One paragraph for the sparse-attention and out-of-memory pages: the chosen plan's degree, tokens per GPU, memory
// and step time, or (from kLongContextTokens) the best plan with ALST's pieces when the chosen one has none; empty
// otherwise.
std::string longContextSummary(const Job& job, const ZeroDecision& d);

} // namespace dsw
