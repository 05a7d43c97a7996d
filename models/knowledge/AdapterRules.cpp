// The adapter rules; see AdapterRules.h. Sources (resources/knowledge/sources.tsv): trl-zero3-empty-adapter,
// peft-qlora-quant-storage, peft-ds-merge, ds-modules-to-save-zero3, peft-ds-offload-gain, peft-ds-qlora-offload,
// ds-pipe-empty-params, ds-pipe-peft-lora.
#include "knowledge/AdapterRules.h"

#include "knowledge/SourceCatalog.h"
#include "util/Version.h"

namespace dsw {

std::string torchDtypeOf(const std::string& precisionRuns)
{
    return precisionRuns == "fp16" ? "float16" : precisionRuns == "fp32" ? "float32" : "bfloat16";
}

std::vector<RuleBreak> adapterRules(const AdapterSetup& s)
{
    std::vector<RuleBreak> out;
    if (s.method == TrainingMethod::Full)
        return out;
    const bool qlora = s.method == TrainingMethod::Qlora;
    const std::string name = qlora ? "QLoRA" : "LoRA";
    if (s.stage == 3 && qlora)
        out.push_back({kQloraQuantStorageRule,
                       "QLoRA at ZeRO-3: load the model with bnb_4bit_quant_storage equal to the dtype it trains in ("
                           + s.dtype
                           + ", so ZeRO-3 partitions the packed 4-bit weights as it does the rest) and build it under "
                             "zero.Init (zero3_init_flag: true with Accelerate; the Trainer's from_pretrained does it "
                             "under a ZeRO-3 config). PEFT's guide: "
                           + quoteOf("peft-qlora-quant-storage")
                           + " It needs bitsandbytes>=0.43.3, accelerate>=1.0.1, transformers>4.44.2, trl>0.11.4 and "
                             "peft>0.13.0. peft_setup.py in the bundle does both.",
                       "peft-qlora-quant-storage"});
    if (s.stage == 3 && s.modulesToSave)
        out.push_back({kModulesToSaveZero3Rule,
                       "lora.modules_to_save at ZeRO-3: PEFT trains a whole copy of each module named; build the "
                       "model under zero.Init (zero3_init_flag: true, or from_pretrained under a ZeRO-3 config) with "
                       "a PEFT that has pull request #1450 (February 2024), which gathers the copies. Without "
                       "zero.Init, DeepSpeed issue #7669 (open) reports "
                           + quoteOf("ds-modules-to-save-zero3") + " and much higher GPU memory.",
                       "ds-modules-to-save-zero3"});
    if (s.stage == 3 && qlora && (s.offloadsOptimizer || s.offloadsParams))
        out.push_back({kQloraOffloadRule,
                       "QLoRA at ZeRO-3 with offload: PEFT's guide warns " + quoteOf("peft-ds-qlora-offload")
                           + " It gives no figure, so the step model does not count the extra memory: prefer a "
                             "plan without offload where one fits.",
                       "peft-ds-qlora-offload"});
    else if (s.offloadsOptimizer)
        out.push_back({kAdapterOffloadRule,
                       name + " with optimizer offload: the adapters' optimizer states and gradients are small "
                           + "already, so offload moves little; the frozen base stays on the GPU"
                           + (s.stage == 3 ? " unless offload_param moves it" : std::string())
                           + ". PEFT's guide: " + quoteOf("peft-ds-offload-gain"),
                       "peft-ds-offload-gain"});
    if (s.pipelineStages > 1) {
        const bool oldEngine = !s.deepspeedVersion.empty() && !versionAtLeast(s.deepspeedVersion, "0.15.4");
        out.push_back({kAdapterPipelineRule,
                       name + " with " + std::to_string(s.pipelineStages)
                           + " pipeline stages: build the PipelineModule from the layers after get_peft_model has "
                             "added the adapters, and give every stage trainable parameters (adapters on its "
                             "layers): a stage without any stops deepspeed.initialize with "
                           + quoteOf("ds-pipe-empty-params") + " (DeepSpeed issue #5071)."
                           + (oldEngine ? " DeepSpeed " + s.deepspeedVersion
                                      + " also lacks the pipeline engine's fix for frozen tied weights (pull request "
                                        "#5477, in 0.15.4 and newer): upgrade."
                                        : std::string()),
                       oldEngine ? "ds-pipe-peft-lora" : "ds-pipe-empty-params"});
    }
    if (s.stage == 3)
        out.push_back({kAdapterSaveGatherRule,
                       "Saving the adapter at ZeRO-3: each GPU holds a slice of it, and with transformers before "
                       "v5.0.0 the Trainer's save_model() writes an empty adapter_model.safetensors (40 bytes) "
                       "unless stage3_gather_16bit_weights_on_model_save is true. TRL's maintainers: "
                           + quoteOf("trl-zero3-empty-adapter")
                           + ". transformers v5.0.0 and newer gather only the adapter (pull request #41416). With "
                             "plain DeepSpeed, gather the trainable parameters before save_pretrained (peft_setup.py "
                             "in the bundle does).",
                       "trl-zero3-empty-adapter"});
    out.push_back({kAdapterMergeRule,
                   "Merging the adapter into the base (merge_and_unload, merge_adapter) during training: PEFT says "
                       + quoteOf("peft-ds-merge")
                       + (s.stage == 3 ? " At ZeRO-3 gather the parameters first (deepspeed.zero.GatheredParameters), "
                                         "or merge after training, on one process, from the saved adapter."
                                       : " Merge after training, on one process, from the saved adapter."),
                   "peft-ds-merge"});
    return out;
}

} // namespace dsw
