// dsw-knowledge-table-compiler sources|gpus FILE.tsv OUT.cpp: reads resources/knowledge/sources.tsv or gpus.tsv with
// util/TsvTable (the reader a run used), checks it, and writes the constant tables knowledge/SourceCatalog or
// knowledge/GpuCatalog reads. Run by the build: a malformed file fails the build with the file's name, the line and
// what is wrong, in one line.
#include "GpuTableWriter.h"
#include "SourceTableWriter.h"

#include "common/GeneratedSource.h"

#include <iostream>
#include <optional>
#include <stdexcept>

int main(int argc, char** argv)
{
    const std::string kind = argc == 4 ? argv[1] : "";
    if (kind != "sources" && kind != "gpus") {
        std::cerr << "usage: dsw-knowledge-table-compiler sources|gpus FILE.tsv OUT.cpp\n";
        return 2;
    }
    const std::string input = argv[2], output = argv[3];
    const std::optional<std::string> text = dsw::readInputFile(input);
    if (!text)
        return 1;
    std::string source;
    try {
        source = kind == "sources" ? dsw::compiledSourceTableSource(*text) : dsw::compiledGpuTableSource(*text);
    } catch (const std::invalid_argument& e) {
        std::cerr << "error: " << input << ": " << e.what() << "\n";
        return 1;
    }
    return dsw::writeGeneratedSource(output, source);
}
