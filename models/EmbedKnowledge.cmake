# Writes OUT: a C++ file with each of FILES as a string, looked up by file name.
set(body "#include \"knowledge/KnowledgeFiles.h\"\n#include <map>\n\nnamespace dsw {\n\nconst std::string& knowledgeFile(std::string_view name)\n{\n    static const std::map<std::string, std::string, std::less<>> files = {\n")
string(REPLACE "|" ";" FILES "${FILES}")
foreach(f IN LISTS FILES)
    get_filename_component(name ${f} NAME)
    file(READ ${f} content HEX)
    string(REGEX REPLACE "([0-9a-f][0-9a-f])" "\\\\x\\1" content "${content}")
    # Split the escaped string every 4000 bytes to stay within compiler limits on literal length.
    string(REGEX REPLACE "((\\\\x[0-9a-f][0-9a-f]){1000})" "\\1\"\n\"" content "${content}")
    string(APPEND body "        {\"${name}\", std::string(\"${content}\")},\n")
endforeach()
string(APPEND body "    };\n    static const std::string empty;\n    auto it = files.find(name);\n    return it == files.end() ? empty : it->second;\n}\n\n} // namespace dsw\n")
file(WRITE ${OUT} "${body}")
