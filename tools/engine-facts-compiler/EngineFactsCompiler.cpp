// dsw-engine-facts-compiler DEEPSPEED.json OUT.cpp: reads the "optimizers", "lr_schedulers" and "version_facts"
// members of resources/knowledge/deepspeed.json, checks them, and writes the C++ tables knowledge/EngineFacts reads. Run by
// the build: a malformed member fails the build with the file's name and what is wrong, in one line.
#include "EngineFactsSourceWriter.h"

#include "common/GeneratedSource.h"

#include <iostream>
#include <optional>

int main(int argc, char** argv)
{
    if (argc != 3) {
        std::cerr << "usage: dsw-engine-facts-compiler DEEPSPEED.json OUT.cpp\n";
        return 2;
    }
    const std::string input = argv[1], output = argv[2];
    const std::optional<std::string> text = dsw::readInputFile(input);
    if (!text)
        return 1;
    std::string source;
    try {
        source = dsw::compiledEngineFactsSource(nlohmann::ordered_json::parse(*text));
    } catch (const std::exception& e) { // nlohmann's parse and type errors are one line too
        std::cerr << "error: " << input << ": " << e.what() << "\n";
        return 1;
    }
    return dsw::writeGeneratedSource(output, source);
}
