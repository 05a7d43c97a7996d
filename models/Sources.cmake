# The sources of dsw_models by folder, listed by hand, not globbed: a new file goes into the folder
# the layering rule allows (README, "Code map"). Read by models/CMakeLists.txt and tests/fuzz/.
set(DSW_KNOWLEDGE_FILES
    ${CMAKE_CURRENT_LIST_DIR}/../resources/knowledge/deepspeed-schema.json
    ${CMAKE_CURRENT_LIST_DIR}/../resources/knowledge/deepspeed.json
    ${CMAKE_CURRENT_LIST_DIR}/../resources/knowledge/gpus.tsv
    ${CMAKE_CURRENT_LIST_DIR}/../resources/knowledge/models.tsv
    ${CMAKE_CURRENT_LIST_DIR}/../resources/knowledge/networks.tsv
    ${CMAKE_CURRENT_LIST_DIR}/../resources/knowledge/sources.tsv
)

# util/: value types and text helpers
set(DSW_MODELS_UTIL_SOURCES
    util/CheckedMath.h
    util/Count.cpp
    util/Count.h
    util/JsonAccess.h
    util/JsonLimits.cpp
    util/JsonLimits.h
    util/OrderedJsonReader.cpp
    util/OrderedJsonReader.h
    util/OrderedObjectBuilder.h
    util/RegexLimits.cpp
    util/RegexLimits.h
    util/Result.h
    util/TsvTable.cpp
    util/TsvTable.h
    util/Utf8.cpp
    util/Utf8.h
    util/Version.cpp
    util/Version.h
)

# knowledge/: readers of resources/knowledge/
set(DSW_MODELS_KNOWLEDGE_SOURCES
    knowledge/AdapterShape.cpp
    knowledge/AdapterShape.h
    knowledge/AdapterRules.cpp
    knowledge/AdapterRules.h
    knowledge/AttentionDefault.cpp
    knowledge/AttentionDefault.h
    knowledge/CombinationRules.cpp
    knowledge/CombinationRules.h
    knowledge/LauncherRules.cpp
    knowledge/LauncherRules.h
    knowledge/DeepSpeedFacts.cpp
    knowledge/DeepSpeedFacts.h
    knowledge/DeepSpeedSchema.cpp
    knowledge/DeepSpeedSchema.h
    knowledge/EngineFacts.cpp
    knowledge/EngineFacts.h
    knowledge/GpuCatalog.cpp
    knowledge/GpuCatalog.h
    knowledge/KnowledgeFiles.h
    knowledge/KnowledgeTable.cpp
    knowledge/KnowledgeTable.h
    knowledge/ModelCatalog.cpp
    knowledge/ModelCatalog.h
    knowledge/MoeShape.cpp
    knowledge/MoeShape.h
    knowledge/NetworkCatalog.cpp
    knowledge/NetworkCatalog.h
    knowledge/ParameterCount.cpp
    knowledge/ParameterCount.h
    knowledge/SourceCatalog.cpp
    knowledge/SourceCatalog.h
    knowledge/TransformerShape.cpp
    knowledge/TransformerShape.h
)

# project/: the answers, their registry, the .dswiz format
set(DSW_MODELS_PROJECT_SOURCES
    project/Answers.cpp
    project/Answers.h
    project/InputLabels.cpp
    project/InputLabels.h
    project/InputRegistry.cpp
    project/InputRegistry.h
    project/ModelChecks.cpp
    project/ModelChecks.h
    project/ProjectFile.cpp
    project/ProjectFile.h
)

# estimate/: arithmetic with published formulas
set(DSW_MODELS_ESTIMATE_SOURCES
    estimate/ActivationModel.cpp
    estimate/ActivationModel.h
    estimate/DeepSpeedEstimator.cpp
    estimate/DeepSpeedEstimator.h
    estimate/OnebitCost.cpp
    estimate/OnebitCost.h
    estimate/PartitionMemo.cpp
    estimate/PartitionMemo.h
    estimate/PipelinePartition.cpp
    estimate/PipelinePartition.h
    estimate/PlacementMemory.cpp
    estimate/PlacementMemory.h
    estimate/StateMemory.cpp
    estimate/StateMemory.h
    estimate/StepModel.cpp
    estimate/StepModel.h
    estimate/StepTime.cpp
    estimate/StepTime.h
    estimate/ZeroPaperMemory.cpp
    estimate/ZeroPaperMemory.h
)

# advise/: one advisor per workflow and what they share
set(DSW_MODELS_ADVISE_SOURCES
    advise/Advice.cpp
    advise/Advice.h
    advise/BatchKeys.cpp
    advise/BatchKeys.h
    advise/ChangePreview.cpp
    advise/ChangePreview.h
    advise/ConfigComposer.cpp
    advise/ConfigComposer.h
    advise/Job.cpp
    advise/Job.h
    advise/MemoryAdvisor.cpp
    advise/MemoryAdvisor.h
    advise/MemoryDiagnosis.cpp
    advise/MemoryDiagnosis.h
    advise/MemoryPlan.cpp
    advise/MemoryPlan.h
    advise/NvmeAdvisor.cpp
    advise/NvmeAdvisor.h
    advise/OnebitAdvisor.cpp
    advise/OnebitAdvisor.h
    advise/OnebitStep.cpp
    advise/OnebitStep.h
    advise/OomMessage.cpp
    advise/OomMessage.h
    advise/PipelineAdvisor.cpp
    advise/PipelineAdvisor.h
    advise/PrecisionAdvisor.cpp
    advise/PrecisionAdvisor.h
    advise/SparseAdvisor.cpp
    advise/SparseAdvisor.h
    advise/ZeroAdvisor.cpp
    advise/ZeroAdvisor.h
    advise/ZeroDecision.cpp
    advise/ZeroDecision.h
)

# config/: a ds_config as text: read, import, export, diff
set(DSW_MODELS_CONFIG_SOURCES
    config/ConfigDiff.cpp
    config/ConfigDiff.h
    config/ConfigExport.cpp
    config/ConfigExport.h
    config/ConfigImporter.cpp
    config/ConfigImporter.h
    config/ConfigLines.cpp
    config/ConfigLines.h
    config/ConfigScan.cpp
    config/ConfigScan.h
    config/ConfigText.cpp
    config/ConfigText.h
    config/HfAutoValues.cpp
    config/HfAutoValues.h
    config/HfModelConfig.cpp
    config/HfModelConfig.h
    config/ImportedConfigPlan.cpp
    config/ImportedConfigPlan.h
    config/LaunchScript.cpp
    config/LaunchScript.h
    config/PeftSetup.cpp
    config/PeftSetup.h
    config/YamlWriter.cpp
    config/YamlWriter.h
)

# lint/: what DeepSpeed rejects, ignores or reads differently
set(DSW_MODELS_LINT_SOURCES
    lint/BatchLint.cpp
    lint/ConfigLinter.cpp
    lint/ConfigLinter.h
    lint/ConfigRules.cpp
    lint/ConfigRules.h
    lint/EngineRules.cpp
    lint/EngineRules.h
    lint/LintReport.cpp
    lint/LintReport.h
    lint/ValueLint.cpp
    lint/ValueLint.h
)

# The root: they join the advice and the config wings.
set(DSW_MODELS_ROOT_SOURCES
    Plan.cpp
    Plan.h
    Pages.cpp
    Pages.h
)

set(DSW_MODEL_SOURCES
    ${DSW_MODELS_UTIL_SOURCES}
    ${DSW_MODELS_KNOWLEDGE_SOURCES}
    ${DSW_MODELS_PROJECT_SOURCES}
    ${DSW_MODELS_ESTIMATE_SOURCES}
    ${DSW_MODELS_ADVISE_SOURCES}
    ${DSW_MODELS_CONFIG_SOURCES}
    ${DSW_MODELS_LINT_SOURCES}
    ${DSW_MODELS_ROOT_SOURCES}
)
list(TRANSFORM DSW_MODEL_SOURCES PREPEND ${CMAKE_CURRENT_LIST_DIR}/)
