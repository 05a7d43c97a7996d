// Any bytes as a project file: load, and when it loads, plan and save again — never a crash.
#include "Plan.h"
#include "ProjectFile.h"

#include <cstddef>
#include <cstdint>
#include <string>

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size)
{
    auto project = dsw::parseProject(std::string(reinterpret_cast<const char*>(data), size));
    if (!project)
        return 0;
    (void)dsw::makePlan(project.value());
    (void)dsw::serializeProject(project.value());
    return 0;
}
