// Any bytes as two ds_configs, split at the first NUL byte (no NUL: the second is "{}"): read both,
// diff them both ways and each with itself — never a crash, and a config never differs from itself.
#include "config/ConfigDiff.h"
#include "config/ConfigText.h"

#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <string>

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size)
{
    const std::string bytes(reinterpret_cast<const char*>(data), size);
    const std::size_t nul = bytes.find('\0');
    const auto a = dsw::parseConfigText(bytes.substr(0, nul));
    const auto b = dsw::parseConfigText(nul == std::string::npos ? std::string("{}") : bytes.substr(nul + 1));
    if (!a || !b)
        return 0;
    (void)dsw::diffConfigs(a.value().json, b.value().json);
    (void)dsw::diffConfigs(b.value().json, a.value().json);
    if (!dsw::diffConfigs(a.value().json, a.value().json).empty())
        std::abort(); // the diff is not reflexive
    return 0;
}
