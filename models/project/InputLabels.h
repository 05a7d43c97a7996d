#pragma once
#include "project/InputRegistry.h"

#include <nlohmann/json.hpp>
#include <string>
#include <vector>

namespace dsw {

// Words, not ids: what the window says about an input uses the registry's label; ids stay in tooltips and on the
// command line.

// The label of a registered input ("hardware.nvme" → "Local NVMe"); the id itself when it is not registered.
std::string inputLabel(const std::string& id);

// The step that asks the input, where the window links a message about it: "setup" or a workflow id (an input
// shared by several workflows is asked once, on Setup). Empty when the id is not registered.
std::string inputPage(const std::string& id);

// A piece of a message: plain text, or (`inputId` not empty) the label of that registered input.
struct LabelledPart {
    std::string text;
    std::string inputId;
};

// `text` split where registered input ids occur, each id's part holding its label (without quotes) and the id; the
// rules of withInputLabels decide what is an id. Adjacent plain text is one part.
std::vector<LabelledPart> labelledParts(const std::string& text);

// `text` with every registered input id in it replaced by its label in quotes ("set hardware.nvme = nvme" →
// "set “Local NVMe” = nvme"). Other dotted names (ds_config keys, file names) are left as they are.
std::string withInputLabels(const std::string& text);

// A value as a form shows it: a parameter count in its short form when that reads back exactly (13B, not
// 13000000000), else in groups of three digits (6,738,415,616); a number without a trailing ".0", text as it is; empty for null.
std::string displayValue(const InputSpec& spec, const nlohmann::json& value);

// The field's label with its unit, where the unit adds something: "CPU memory per node (GiB)".
std::string labelWithUnit(const InputSpec& spec);

// The group a Setup field is shown in: Model, Cluster, Training or Software (by the id's prefix); empty for others.
std::string inputSection(const InputSpec& spec);

} // namespace dsw
