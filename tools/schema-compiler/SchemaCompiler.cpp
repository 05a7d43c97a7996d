// dsw-schema-compiler SCHEMA.json OUT.cpp: reads DeepSpeed's config schema as ds-wizard describes it
// (resources/knowledge/deepspeed-schema.json) with DeepSpeedSchema::fromJson, and writes the C++ that
// builds the same schema without parsing JSON. Run by the build: a schema file fromJson rejects fails
// the build with the file's name and what is wrong, instead of a run that checks nothing.
#include "SchemaSourceWriter.h"

#include "common/GeneratedSource.h"

#include <iostream>
#include <optional>

int main(int argc, char** argv)
{
    if (argc != 3) {
        std::cerr << "usage: dsw-schema-compiler SCHEMA.json OUT.cpp\n";
        return 2;
    }
    const std::string input = argv[1], output = argv[2];
    const std::optional<std::string> text = dsw::readInputFile(input);
    if (!text)
        return 1;
    const auto schema = dsw::DeepSpeedSchema::fromJson(*text, input);
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
    return dsw::writeGeneratedSource(output, source);
}
