// dsw-knowledge-table-compiler sources|gpus FILE.tsv OUT.cpp: reads resources/knowledge/sources.tsv or gpus.tsv with
// util/TsvTable (the reader a run used), checks it, and writes the constant tables knowledge/SourceCatalog or
// knowledge/GpuCatalog reads. Run by the build: a malformed file fails the build with the file's name, the line and
// what is wrong, in one line.
#include "GpuTableWriter.h"
#include "SourceTableWriter.h"

#include <cstdio>
#include <fstream>
#include <iostream>
#include <sstream>
#include <stdexcept>

int main(int argc, char** argv)
{
    const std::string kind = argc == 4 ? argv[1] : "";
    if (kind != "sources" && kind != "gpus") {
        std::cerr << "usage: dsw-knowledge-table-compiler sources|gpus FILE.tsv OUT.cpp\n";
        return 2;
    }
    const std::string input = argv[2], output = argv[3];
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
        source =
            kind == "sources" ? dsw::compiledSourceTableSource(text.str()) : dsw::compiledGpuTableSource(text.str());
    } catch (const std::invalid_argument& e) {
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
