// Any bytes as a ds_config: read, lint with a context, import and re-export — never a crash.
#include "Plan.h"
#include "config/ConfigImporter.h"
#include "config/ConfigText.h"
#include "lint/ConfigLinter.h"

#include <cstddef>
#include <cstdint>
#include <string>

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size)
{
    const std::string bytes(reinterpret_cast<const char*>(data), size);
    auto parsed = dsw::parseConfigText(bytes);
    if (!parsed)
        return 0;
    dsw::Answers context;
    context.set("hardware.gpus_per_node", 8);
    context.set("software.launcher", "deepspeed");
    context.set("software.deepspeed_version", "0.19.5");
    (void)dsw::lintConfig(parsed.value(), context);
    const auto imported = dsw::importConfig(parsed.value());
    (void)dsw::makePlan(imported.project).config.dump();
    return 0;
}
