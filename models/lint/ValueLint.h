#pragma once
#include "knowledge/DeepSpeedSchema.h"

#include <nlohmann/json.hpp>
#include <string>

namespace dsw {

class LintReport;

// Checks one value against its schema key the way DeepSpeed reads it (deepspeed-facts §2.0):
// pydantic blocks convert numeric strings and integral floats and reject fractions for int fields;
// plain-dict blocks hand the value over as written. Reports wrong types, numbers written as
// strings, values out of range and strings outside an enum.
void lintValue(LintReport& report, const std::string& pointer, const SchemaBlock& block, const SchemaKey& spec,
               const nlohmann::ordered_json& value);

} // namespace dsw
