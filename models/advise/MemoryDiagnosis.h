#pragma once
// The likely cause of an out-of-memory message, and the steps that address it, for each kind of message
// (MemoryAdvisor.h shows them). Each function adds its steps and checks to the planner.
#include "advise/MemoryPlan.h"
#include "advise/OomMessage.h"

#include <string>

namespace dsw::memory {

struct Cause {
    std::string id;     // stable: activations, model-states, fragmentation, host-ram-load, batch-config, ...
    std::string text;   // why, with the numbers
    std::string source; // source id, or empty
};

// PyTorch's CUDA message: from the phase, the message's numbers and the estimates.
Cause diagnoseCuda(const OomReport& report, RemedyPlanner& planner);
// A host kill: host RAM at load, with offload, or while saving.
Cause diagnoseHostKill(RemedyPlanner& planner);
// DeepSpeed's batch assertion: the identity with the printed numbers, and consistent values.
Cause diagnoseBatch(const OomReport& report, RemedyPlanner& planner, const Answers& answers);

std::string setupLabel(const Setup& setup); // "ZeRO-2, optimizer on CPU, activation checkpointing on, micro-batch 4"
std::string causeLabel(const std::string& causeId); // a short phrase for the headline

} // namespace dsw::memory
