# dsw_compile_schema(OUT_VAR): resources/knowledge/deepspeed-schema.json, read and checked at build time by the
# host tool dsw-schema-compiler (tools/schema-compiler, DeepSpeedSchema::fromJson), becomes
# CompiledDeepSpeedSchema.cpp in the current build folder: DeepSpeedSchema::instance() built from literals, so no
# run parses the schema, and a schema file fromJson rejects fails the build naming the file. OUT_VAR receives
# the generated source, for the library that defines instance(). Used by models/ and the fuzz build.
get_filename_component(_dsw_compile_schema_root ${CMAKE_CURRENT_LIST_DIR}/.. ABSOLUTE)
function(dsw_compile_schema out_var)
    set(root ${_dsw_compile_schema_root})
    add_executable(dsw-schema-compiler
        ${root}/tools/common/GeneratedSource.cpp
        ${root}/tools/common/GeneratedSource.h
        ${root}/tools/schema-compiler/SchemaCompiler.cpp
        ${root}/tools/schema-compiler/SchemaSourceWriter.cpp
        ${root}/tools/schema-compiler/SchemaSourceWriter.h
        ${root}/models/knowledge/DeepSpeedSchema.cpp) # the reader itself, not dsw_models: no link cycle
    target_include_directories(dsw-schema-compiler PRIVATE ${root}/models ${root}/tools)
    target_link_libraries(dsw-schema-compiler PRIVATE nlohmann_json::nlohmann_json)
    set_target_properties(dsw-schema-compiler PROPERTIES AUTOMOC OFF)

    set(schema ${root}/resources/knowledge/deepspeed-schema.json)
    set(out ${CMAKE_CURRENT_BINARY_DIR}/CompiledDeepSpeedSchema.cpp)
    add_custom_command(
        OUTPUT ${out}
        COMMAND dsw-schema-compiler ${schema} ${out}
        DEPENDS dsw-schema-compiler ${schema}
        COMMENT "Compiling resources/knowledge/deepspeed-schema.json"
        VERBATIM)
    set(${out_var} ${out} PARENT_SCOPE)
endfunction()
