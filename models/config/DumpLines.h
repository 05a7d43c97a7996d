#pragma once
#include "config/ConfigLines.h"

#include <nlohmann/json.hpp>
#include <optional>

namespace dsw {

// The lines parseConfigText gives every key and array element of `json.dump(2)`, computed from the JSON
// without writing and reading the text: the 2-space dump puts each member and element on a line of its
// own, and an empty object or array on one line. Nothing (std::nullopt) where that read would not give
// `json` back or would fail, so the caller dumps and parses as before: a non-finite number (dumped as null),
// a string that is not UTF-8 (dump throws), a dump that might exceed kMaxConfigBytes or a nesting near
// kMaxConfigDepth.
std::optional<ConfigLines> dumpLines(const nlohmann::ordered_json& json);

} // namespace dsw
