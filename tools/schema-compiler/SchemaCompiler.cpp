// dsw-schema-compiler SCHEMA.json OUT.cpp: reads DeepSpeed's config schema as ds-wizard describes it
// (resources/knowledge/deepspeed-schema.json) with DeepSpeedSchema::fromJson, and writes the C++ that
// builds the same schema without parsing JSON. Run by the build: a schema file fromJson rejects fails
// the build with the file's name and what is wrong, instead of a run that checks nothing.
#include "SchemaSourceWriter.h"

#include <cstdio>
#include <fstream>
#include <iostream>
#include <sstream>

int main(int argc, char** argv)
{
    if (argc != 3) {
        std::cerr << "usage: dsw-schema-compiler SCHEMA.json OUT.cpp\n";
        return 2;
    }
    const std::string input = argv[1], output = argv[2];
    std::ifstream in(input, std::ios::binary);
    std::ostringstream text;
    if (in.is_open())
        text << in.rdbuf();
    if (!in.is_open() || in.bad()) {
        std::cerr << input << ": cannot be read\n";
        return 1;
    }
    const auto schema = dsw::DeepSpeedSchema::fromJson(text.str(), input);
    if (!schema) {
        std::cerr << "error: " << schema.error() << "\n";
        return 1;
    }
    std::string source;
    try {
        source = dsw::compiledSchemaSource(schema.value(), input);
    } catch (const std::exception& e) {
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
