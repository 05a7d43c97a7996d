# dsw_compile_knowledge_tables(OUT_VAR): resources/knowledge/sources.tsv and gpus.tsv, read with util/TsvTable and
# checked at build time by the host tool dsw-knowledge-table-compiler (tools/knowledge-table-compiler), become
# CompiledSourceTable.cpp and CompiledGpuTable.cpp in the current build folder: compiledSourceRows(),
# compiledSourceIdOrder() and compiledGpuRows() as constant tables, so no run parses the files, and a malformed row
# fails the build naming the file and the line. OUT_VAR receives the generated sources. Used by models/ and the fuzz
# build.
get_filename_component(_dsw_compile_knowledge_tables_root ${CMAKE_CURRENT_LIST_DIR}/.. ABSOLUTE)
function(dsw_compile_knowledge_tables out_var)
    set(root ${_dsw_compile_knowledge_tables_root})
    set(tool ${root}/tools/knowledge-table-compiler)
    add_executable(dsw-knowledge-table-compiler
        ${root}/tools/common/GeneratedSource.cpp
        ${root}/tools/common/GeneratedSource.h
        ${tool}/CheckedTsv.cpp
        ${tool}/CheckedTsv.h
        ${tool}/GpuTableWriter.cpp
        ${tool}/GpuTableWriter.h
        ${tool}/KnowledgeTableCompiler.cpp
        ${tool}/SourceTableWriter.cpp
        ${tool}/SourceTableWriter.h
        ${root}/models/util/TsvTable.cpp
        ${root}/models/util/TsvTable.h)
    target_include_directories(dsw-knowledge-table-compiler PRIVATE ${root}/models ${root}/tools)
    set_target_properties(dsw-knowledge-table-compiler PROPERTIES AUTOMOC OFF)

    set(outs "")
    foreach(table IN ITEMS "sources;sources.tsv;CompiledSourceTable.cpp" "gpus;gpus.tsv;CompiledGpuTable.cpp")
        list(GET table 0 kind)
        list(GET table 1 file)
        list(GET table 2 name)
        set(in ${root}/resources/knowledge/${file})
        set(out ${CMAKE_CURRENT_BINARY_DIR}/${name})
        add_custom_command(
            OUTPUT ${out}
            COMMAND dsw-knowledge-table-compiler ${kind} ${in} ${out}
            DEPENDS dsw-knowledge-table-compiler ${in}
            COMMENT "Compiling resources/knowledge/${file}"
            VERBATIM)
        list(APPEND outs ${out})
    endforeach()
    set(${out_var} ${outs} PARENT_SCOPE)
endfunction()
