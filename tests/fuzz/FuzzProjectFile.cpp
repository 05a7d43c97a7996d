// Any bytes as a project file: load, and when it loads, plan and save again — never a crash, and
// what is saved opens again. Seeded with deep nesting (run.sh): a 17 KB file of nested arrays once
// overflowed the stack.
#include "Plan.h"
#include "project/ProjectFile.h"

#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <string>

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size)
{
    auto project = dsw::parseProject(std::string(reinterpret_cast<const char*>(data), size));
    if (!project)
        return 0;
    (void)dsw::makePlan(project.value());
    const std::string saved = dsw::serializeProject(project.value());
    if (saved.size() <= dsw::kMaxProjectBytes && !dsw::parseProject(saved))
        std::abort(); // a saved project that does not open again
    return 0;
}
