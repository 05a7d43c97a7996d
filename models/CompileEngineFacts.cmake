# dsw_compile_engine_facts(OUT_VAR): the "optimizers", "lr_schedulers" and "version_facts" members of
# resources/knowledge/deepspeed.json, read and checked at build time by the host tool dsw-engine-facts-compiler
# (tools/engine-facts-compiler), become CompiledEngineFacts.cpp in the current build folder: optimizerSpecs(),
# schedulerSpecs() and versionFactEntries() as constant tables, so no run parses them, and a malformed member fails the build naming the
# file. OUT_VAR receives the generated source. Used by models/ and the fuzz build.
get_filename_component(_dsw_compile_engine_facts_root ${CMAKE_CURRENT_LIST_DIR}/.. ABSOLUTE)
function(dsw_compile_engine_facts out_var)
    set(root ${_dsw_compile_engine_facts_root})
    add_executable(dsw-engine-facts-compiler
        ${root}/tools/common/GeneratedSource.cpp
        ${root}/tools/common/GeneratedSource.h
        ${root}/tools/engine-facts-compiler/EngineFactsCompiler.cpp
        ${root}/tools/engine-facts-compiler/EngineFactsSourceWriter.cpp
        ${root}/tools/engine-facts-compiler/EngineFactsSourceWriter.h)
    target_include_directories(dsw-engine-facts-compiler PRIVATE ${root}/tools)
    target_link_libraries(dsw-engine-facts-compiler PRIVATE nlohmann_json::nlohmann_json)
    set_target_properties(dsw-engine-facts-compiler PROPERTIES AUTOMOC OFF)

    set(facts ${root}/resources/knowledge/deepspeed.json)
    set(out ${CMAKE_CURRENT_BINARY_DIR}/CompiledEngineFacts.cpp)
    add_custom_command(
        OUTPUT ${out}
        COMMAND dsw-engine-facts-compiler ${facts} ${out}
        DEPENDS dsw-engine-facts-compiler ${facts}
        COMMENT "Compiling the optimizers, lr_schedulers and version_facts of resources/knowledge/deepspeed.json"
        VERBATIM)
    set(${out_var} ${out} PARENT_SCOPE)
endfunction()
