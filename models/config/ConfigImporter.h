#pragma once
#include "config/ConfigText.h"
#include "project/ProjectFile.h"

#include <string>
#include <vector>

namespace dsw {

// A project made from an existing ds_config: the answers the config implies (stage, offload, precision,
// batch keys, optimizer, ...) and the config itself, kept whole so that re-export without edits gives
// back every key and value. `notes` says what could not be carried into answers, and why.
struct ImportedProject {
    Project project;
    std::vector<std::string> notes;
};

ImportedProject importConfig(const ParsedConfig& config);

} // namespace dsw
