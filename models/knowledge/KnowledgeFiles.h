#pragma once
#include <string_view>
#include <utility>

namespace dsw {

// The text of a file from resources/knowledge/, embedded at build time (it lives as long as the program); empty
// if unknown.
std::string_view knowledgeFile(std::string_view name);

} // namespace dsw
