#pragma once
#include "knowledge/DeepSpeedSchema.h"

#include <string>

namespace dsw {

// The C++ source of DeepSpeedSchema::instance() that builds `schema` from literals: the schema file is
// read and checked once, when ds-wizard is built, and a run parses no JSON. Every field of the schema
// is written; DeepSpeedSchema's operator== (TestCompiledSchema) proves the two equal.
std::string compiledSchemaSource(const DeepSpeedSchema& schema, const std::string& inputName);

} // namespace dsw
