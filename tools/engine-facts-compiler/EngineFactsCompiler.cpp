// dsw-engine-facts-compiler DEEPSPEED.json OUT.cpp: reads the "optimizers", "lr_schedulers" and "version_facts"
// members of resources/knowledge/deepspeed.json, checks them, and writes the C++ tables knowledge/EngineFacts reads. Run by
// the build: a malformed member fails the build with the file's name and what is wrong, in one line.
#include "EngineFactsSourceWriter.h"

#include <cstdio>
#include <fstream>
#include <iostream>
#include <sstream>

int main(int argc, char** argv)
{
    if (argc != 3) {
        std::cerr << "usage: dsw-engine-facts-compiler DEEPSPEED.json OUT.cpp\n";
        return 2;
    }
    const std::string input = argv[1], output = argv[2];
    std::ifstream in(input, std::ios::binary);
    std::ostringstream text;
    if (in.is_open())
        text << in.rdbuf();
    if (!in.is_open() || in.bad()) {
        std::cerr << "error: " << input << ": cannot be read\n";
        return 1;
    }
    std::string source;
    try {
        source = dsw::compiledEngineFactsSource(nlohmann::ordered_json::parse(text.str()));
    } catch (const std::exception& e) { // nlohmann's parse and type errors are one line too
        std::cerr << "error: " << input << ": " << e.what() << "\n";
        return 1;
    }
    // Written whole beside the output and renamed, so a failed run leaves no half-written source.
    const std::string partial = output + ".partial";
    {
        std::ofstream out(partial, std::ios::binary | std::ios::trunc);
        out << source;
        if (!out.flush()) {
            std::cerr << "error: " << partial << ": cannot be written\n";
            return 1;
        }
    }
    if (std::rename(partial.c_str(), output.c_str()) != 0) {
        std::cerr << "error: " << output << ": cannot be written\n";
        return 1;
    }
    return 0;
}
