# Writes OUT: a C++ file with each of FILES as a constant array, looked up by file name. Nothing is copied or
# built at start-up: a file's pages are read only by the process that reads the file.
set(body "#include \"knowledge/KnowledgeFiles.h\"\n\nnamespace dsw {\n\nnamespace {\n")
set(table "")
set(index 0)
string(REPLACE "|" ";" FILES "${FILES}")
foreach(f IN LISTS FILES)
    get_filename_component(name ${f} NAME)
    file(READ ${f} content HEX)
    string(REGEX REPLACE "([0-9a-f][0-9a-f])" "\\\\x\\1" content "${content}")
    # Split the escaped string every 4000 bytes to stay within compiler limits on literal length.
    string(REGEX REPLACE "((\\\\x[0-9a-f][0-9a-f]){1000})" "\\1\"\n\"" content "${content}")
    string(APPEND body "constexpr char file${index}[] = \"${content}\";\n")
    string(APPEND table "        {\"${name}\", std::string_view(file${index}, sizeof file${index} - 1)},\n")
    math(EXPR index "${index} + 1")
endforeach()
string(APPEND body "} // namespace\n\nstd::string_view knowledgeFile(std::string_view name)\n{\n    static constexpr std::pair<std::string_view, std::string_view> files[] = {\n${table}    };\n    for (const auto& [fileName, text] : files)\n        if (fileName == name)\n            return text;\n    return {};\n}\n\n} // namespace dsw\n")
file(WRITE ${OUT} "${body}")
