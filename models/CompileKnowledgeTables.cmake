# dsw_compile_knowledge_tables(OUT_VAR): resources/knowledge/sources.tsv, read with util/TsvTable and checked at
# build time by the host tool dsw-knowledge-table-compiler (tools/knowledge-table-compiler), becomes
# CompiledSourceTable.cpp in the current build folder: compiledSourceRows() and compiledSourceIdOrder() as constant
# tables, so no run parses the file, and a malformed row fails the build naming the file and the line. OUT_VAR
# receives the generated source. Used by models/ and the fuzz build.
get_filename_component(_dsw_compile_knowledge_tables_root ${CMAKE_CURRENT_LIST_DIR}/.. ABSOLUTE)
function(dsw_compile_knowledge_tables out_var)
    set(root ${_dsw_compile_knowledge_tables_root})
    add_executable(dsw-knowledge-table-compiler
        ${root}/tools/knowledge-table-compiler/KnowledgeTableCompiler.cpp
        ${root}/tools/knowledge-table-compiler/SourceTableWriter.cpp
        ${root}/tools/knowledge-table-compiler/SourceTableWriter.h
        ${root}/models/util/TsvTable.cpp
        ${root}/models/util/TsvTable.h)
    target_include_directories(dsw-knowledge-table-compiler PRIVATE ${root}/models)
    set_target_properties(dsw-knowledge-table-compiler PROPERTIES AUTOMOC OFF)

    set(sources ${root}/resources/knowledge/sources.tsv)
    set(out ${CMAKE_CURRENT_BINARY_DIR}/CompiledSourceTable.cpp)
    add_custom_command(
        OUTPUT ${out}
        COMMAND dsw-knowledge-table-compiler ${sources} ${out}
        DEPENDS dsw-knowledge-table-compiler ${sources}
        COMMENT "Compiling resources/knowledge/sources.tsv"
        VERBATIM)
    set(${out_var} ${out} PARENT_SCOPE)
endfunction()
