// Any text pasted as an out-of-memory message: parse it and diagnose — never a crash or a hang.
#include "advise/Job.h"
#include "advise/MemoryAdvisor.h"
#include "advise/OomMessage.h"

#include <cstddef>
#include <cstdint>
#include <string>

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size)
{
    const std::string text(reinterpret_cast<const char*>(data), size);
    (void)dsw::parseOomMessage(text);
    dsw::Answers answers;
    answers.set("memory.oom_message", text);
    (void)dsw::adviseMemory(dsw::resolveJob(answers), nullptr, answers);
    return 0;
}
