#pragma once
#include <string>
#include <string_view>

namespace dsw {

// The text of a file from resources/knowledge/, embedded at build time; empty if unknown.
const std::string& knowledgeFile(std::string_view name);

} // namespace dsw
