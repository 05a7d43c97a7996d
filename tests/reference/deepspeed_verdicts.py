#!/usr/bin/python3
"""Builds the regression suite tests/data/deepspeed-verdicts/corpus-mutations.jsonl: mutations of the real
configs in ../shared/corpus/ds_configs, each judged by DeepSpeed's own code (../shared/tools/ds_full_oracle.py).

usage (from the repository root, with the oracle set up once as its docstring says):
  /usr/bin/python3 tests/reference/deepspeed_verdicts.py \\
      --oracle ../shared/tools/ds_full_oracle.py --corpus ../shared/corpus/ds_configs \\
      --out tests/data/deepspeed-verdicts/corpus-mutations.jsonl

Each output line: {"id", "source" (corpus file + mutation), "world_size", "dp", "pipeline_stages",
"hf_fill", "config", "deepspeed": {"accepted", "error", "warnings"}}. Nothing of DeepSpeed is written but
its verdict and its messages. The C++ test TestDeepSpeedVerdicts reads the file; it needs neither torch nor
the oracle.
"""
import argparse
import copy
import json
import os
import subprocess
import sys

WORLD = 8


def load_corpus(folder):
    configs = {}
    for name in sorted(os.listdir(folder)):
        if not name.endswith(".json"):
            continue
        try:
            with open(os.path.join(folder, name), encoding="utf-8") as f:
                configs[name] = json.load(f)
        except (ValueError, UnicodeDecodeError):
            pass  # hjson files: the oracle reads strict JSON only
    return configs


def has_auto(value):
    if isinstance(value, dict):
        return any(has_auto(v) for v in value.values())
    if isinstance(value, list):
        return any(has_auto(v) for v in value)
    return value == "auto"


def zero(cfg):
    z = cfg.get("zero_optimization")
    if not isinstance(z, dict):
        z = {}
        cfg["zero_optimization"] = z
    return z


def with_batch(cfg):
    """A triad DeepSpeed can resolve at world size 8 (mutations are about something else)."""
    for k in ("train_batch_size", "train_micro_batch_size_per_gpu", "gradient_accumulation_steps"):
        cfg.pop(k, None)
    cfg["train_micro_batch_size_per_gpu"] = 2
    cfg["gradient_accumulation_steps"] = 2
    return cfg


def set_stage(cfg, stage):
    zero(cfg)["stage"] = stage
    return cfg


def optimizer(cfg, type_, params=None):
    cfg["optimizer"] = {"type": type_, "params": params if params is not None else {"lr": 1e-4}}
    return cfg


def scheduler(cfg, type_, params):
    cfg["scheduler"] = {"type": type_, "params": params}
    return cfg


def precision(cfg, fp16=False, bf16=False):
    cfg.pop("fp16", None)
    cfg.pop("bf16", None)
    cfg.pop("bfloat16", None)
    if fp16:
        cfg["fp16"] = {"enabled": True, "loss_scale": 0}
    if bf16:
        cfg["bf16"] = {"enabled": True}
    return cfg


def plain(cfg):
    """Drop what other rules judge (scheduler, "auto" values elsewhere) so the mutation is what decides."""
    cfg = copy.deepcopy(cfg)
    cfg.pop("scheduler", None)
    with_batch(cfg)
    if isinstance(cfg.get("optimizer"), dict) and has_auto(cfg["optimizer"]):
        optimizer(cfg, "AdamW", {"lr": 1e-4})
    if has_auto(cfg.get("fp16")) or has_auto(cfg.get("bf16")):
        precision(cfg, bf16=True)
    if cfg.get("gradient_clipping") == "auto":
        cfg["gradient_clipping"] = 1.0
    z = cfg.get("zero_optimization")
    if isinstance(z, dict):
        for k in [k for k, v in z.items() if v == "auto"]:
            del z[k]
    return cfg


# Each mutation: (name, function(cfg) -> cfg, extra request fields). The function gets a plain copy.
def mutations():
    m = []

    def add(name, fn, **extra):
        m.append((name, fn, extra))

    # Optimizer names: DeepSpeed lower-cases its own names; anything else must be a torch.optim attribute.
    add("optimizer AdamX", lambda c: optimizer(c, "AdamX"))
    add("optimizer sgd (lowercase) at stage 0", lambda c: optimizer(set_stage(c, 0), "sgd"))
    add("optimizer ADAMW (upper case)", lambda c: optimizer(c, "ADAMW"))
    add("optimizer adam", lambda c: optimizer(c, "adam"))
    add("optimizer Lion", lambda c: optimizer(c, "Lion"))
    add("optimizer Adagrad at stage 2", lambda c: optimizer(set_stage(c, 2), "Adagrad"))
    add("optimizer SGD at stage 0", lambda c: optimizer(set_stage(c, 0), "SGD", {"lr": 0.1, "momentum": 0.9}))
    for stage in (1, 2, 3):
        add(f"optimizer SGD at stage {stage}", lambda c, s=stage: optimizer(set_stage(c, s), "SGD", {"lr": 0.1}))
        add(f"optimizer Lamb at stage {stage}", lambda c, s=stage: optimizer(set_stage(c, s), "Lamb"))
    add("optimizer RMSprop at stage 2", lambda c: optimizer(set_stage(c, 2), "RMSprop"))
    add("optimizer RMSprop at stage 2 with zero_allow_untested_optimizer",
        lambda c: dict(optimizer(set_stage(c, 2), "RMSprop"), zero_allow_untested_optimizer=True))
    add("optimizer Lamb at stage 1 with zero_allow_untested_optimizer",
        lambda c: dict(optimizer(set_stage(c, 1), "Lamb"), zero_allow_untested_optimizer=True))
    add("optimizer Lamb at stage 0", lambda c: optimizer(set_stage(c, 0), "Lamb"))
    add("optimizer Adadelta at stage 0", lambda c: optimizer(set_stage(c, 0), "Adadelta"))
    add("optimizer OneBitAdam at stage 2", lambda c: optimizer(set_stage(c, 2), "OneBitAdam"))
    # Optimizer parameters the constructor does not take.
    add("optimizer Adam params betaz", lambda c: optimizer(c, "Adam", {"lr": 1e-4, "betaz": [0.9, 0.95]}))
    add("optimizer AdamW params betas", lambda c: optimizer(c, "AdamW", {"lr": 1e-4, "betas": [0.9, 0.95]}))
    add("optimizer AdamW params momentum", lambda c: optimizer(c, "AdamW", {"lr": 1e-4, "momentum": 0.9}))
    add("optimizer AdamW params torch_adam", lambda c: optimizer(c, "AdamW", {"lr": 1e-4, "torch_adam": True}))
    add("optimizer Adam params adam_w_mode false",
        lambda c: optimizer(c, "Adam", {"lr": 1e-4, "adam_w_mode": False, "bias_correction": True}))
    add("optimizer AdamW params fp32_optimizer_states without offload",
        lambda c: optimizer(set_stage(c, 2), "AdamW", {"lr": 1e-4, "fp32_optimizer_states": False}))
    add("optimizer AdamW params fp32_optimizer_states with cpu offload",
        lambda c: optimizer(offload_opt(set_stage(c, 2), "cpu"), "AdamW", {"lr": 1e-4, "fp32_optimizer_states": False}))
    add("optimizer Lion params eps", lambda c: optimizer(c, "Lion", {"lr": 1e-4, "eps": 1e-8}))
    add("optimizer Lamb params max_coeff at stage 0",
        lambda c: optimizer(set_stage(c, 0), "Lamb", {"lr": 1e-4, "max_coeff": 0.3}))
    add("optimizer SGD params betas at stage 0",
        lambda c: optimizer(set_stage(c, 0), "SGD", {"lr": 0.1, "betas": [0.9, 0.99]}))
    add("optimizer Adagrad params lr_decay at stage 2 (torch Adagrad)",
        lambda c: optimizer(set_stage(c, 2), "Adagrad", {"lr": 0.01, "lr_decay": 0.0}))
    add("optimizer Adagrad params lr_decay with cpu offload (DeepSpeedCPUAdagrad)",
        lambda c: optimizer(offload_opt(set_stage(c, 2), "cpu"), "Adagrad", {"lr": 0.01, "lr_decay": 0.0}))
    add("optimizer params max_grad_norm", lambda c: optimizer(c, "AdamW", {"lr": 1e-4, "max_grad_norm": 1.0}))
    # Schedulers: DeepSpeed's lr_schedules, else torch.optim.lr_scheduler; the constructor takes the params.
    add("scheduler WarmupCosine", lambda c: scheduler(optimizer(c, "AdamW"), "WarmupCosine", {"warmup_num_steps": 10}))
    add("scheduler WarmupCosineLR", lambda c: scheduler(optimizer(c, "AdamW"), "WarmupCosineLR",
                                                        {"total_num_steps": 100, "warmup_num_steps": 10}))
    add("scheduler WarmupCosineLR without total_num_steps",
        lambda c: scheduler(optimizer(c, "AdamW"), "WarmupCosineLR", {"warmup_num_steps": 10}))
    add("scheduler WarmupLR", lambda c: scheduler(optimizer(c, "AdamW"), "WarmupLR", {"warmup_num_steps": 10}))
    add("scheduler WarmupLR with total_num_steps",
        lambda c: scheduler(optimizer(c, "AdamW"), "WarmupLR", {"warmup_num_steps": 10, "total_num_steps": 100}))
    add("scheduler WarmupDecayLR", lambda c: scheduler(optimizer(c, "AdamW"), "WarmupDecayLR",
                                                       {"total_num_steps": 100, "warmup_num_steps": 10}))
    add("scheduler OneCycle", lambda c: scheduler(optimizer(c, "AdamW"), "OneCycle",
                                                  {"cycle_min_lr": 1e-5, "cycle_max_lr": 1e-4}))
    add("scheduler OneCycle without cycle_max_lr",
        lambda c: scheduler(optimizer(c, "AdamW"), "OneCycle", {"cycle_min_lr": 1e-5}))
    add("scheduler LRRangeTest", lambda c: scheduler(optimizer(c, "AdamW"), "LRRangeTest", {"lr_range_test_min_lr": 1e-5}))
    add("scheduler StepLR", lambda c: scheduler(optimizer(c, "AdamW"), "StepLR", {"step_size": 10}))
    add("scheduler StepLR without step_size", lambda c: scheduler(optimizer(c, "AdamW"), "StepLR", {"gamma": 0.5}))
    add("scheduler CosineAnnealingLR", lambda c: scheduler(optimizer(c, "AdamW"), "CosineAnnealingLR", {"T_max": 100}))
    add("scheduler cosine (lowercase)", lambda c: scheduler(optimizer(c, "AdamW"), "cosine", {}))
    add("scheduler warmuplr (lowercase)", lambda c: scheduler(optimizer(c, "AdamW"), "warmuplr", {"warmup_num_steps": 10}))
    for steps in (0, -5, 1, 2.0, "100"):
        add(f"scheduler WarmupLR warmup_num_steps {json.dumps(steps)}",
            lambda c, s=steps: scheduler(optimizer(c, "AdamW"), "WarmupLR", {"warmup_num_steps": s}))
    add("scheduler WarmupDecayLR warmup_num_steps 0",
        lambda c: scheduler(optimizer(c, "AdamW"), "WarmupDecayLR", {"total_num_steps": 100, "warmup_num_steps": 0}))
    add("scheduler WarmupCosineLR warmup_num_steps 0",
        lambda c: scheduler(optimizer(c, "AdamW"), "WarmupCosineLR", {"total_num_steps": 100, "warmup_num_steps": 0}))
    add("scheduler WarmupLR warmup_num_steps auto (no launcher fills it)",
        lambda c: scheduler(optimizer(c, "AdamW"), "WarmupLR", {"warmup_num_steps": "auto"}))
    # data_types.param_dtype against the enabled precision.
    for dtype, fp16, bf16 in (("fp16", False, True), ("bf16", False, True), ("fp32", False, False),
                              ("fp32", True, False), ("bfloat16", False, True), ("half", True, False),
                              ("bf16", False, False)):
        add(f"data_types.param_dtype {dtype} with {'fp16' if fp16 else 'bf16' if bf16 else 'fp32'}",
            lambda c, d=dtype, f=fp16, b=bf16: dict(precision(c, f, b), data_types={"param_dtype": d}))
    add("data_types.grad_accum_dtype fp32 with bf16",
        lambda c: dict(precision(c, bf16=True), data_types={"grad_accum_dtype": "fp32"}))
    # managed_gradient_accumulation false.
    for stage, overlap in ((1, True), (1, False), (2, True), (3, True), (0, True)):
        add(f"managed_gradient_accumulation false, stage {stage}, overlap_comm {str(overlap).lower()}",
            lambda c, s=stage, o=overlap: mga(c, s, o))
    add("managed_gradient_accumulation false with 2 pipeline stages",
        lambda c: dict(set_stage(c, 1), managed_gradient_accumulation=False), pipeline_stages=2)
    # Numbers written as strings: pydantic reads plain digits, rejects exponents for int fields.
    add("zero_optimization.reduce_bucket_size \"2e8\"", lambda c: zstr(c, 2, "reduce_bucket_size", "2e8"))
    add("zero_optimization.reduce_bucket_size \"200000000\"", lambda c: zstr(c, 2, "reduce_bucket_size", "200000000"))
    add("zero_optimization.reduce_bucket_size 2e8 (a number)", lambda c: zstr(c, 2, "reduce_bucket_size", 2e8))
    add("zero_optimization.allgather_bucket_size \"5e8\"", lambda c: zstr(c, 2, "allgather_bucket_size", "5e8"))
    add("zero_optimization.stage3_max_live_parameters \"1e9\"", lambda c: zstr(c, 3, "stage3_max_live_parameters", "1e9"))
    add("zero_optimization.stage3_max_live_parameters \"1000000000\"",
        lambda c: zstr(c, 3, "stage3_max_live_parameters", "1000000000"))
    add("zero_optimization.stage3_prefetch_bucket_size \"5e7\"", lambda c: zstr(c, 3, "stage3_prefetch_bucket_size", "5e7"))
    add("zero_optimization.reduce_bucket_size 2.5e8 (fraction-free float)", lambda c: zstr(c, 2, "reduce_bucket_size", 2.5e8))
    add("zero_optimization.reduce_bucket_size 1.5 (a fraction)", lambda c: zstr(c, 2, "reduce_bucket_size", 1.5))
    add("zero_optimization.stage \"2\"", lambda c: zstr(c, None, "stage", "2"))
    add("zero_optimization.stage 4", lambda c: zstr(c, None, "stage", 4))
    add("zero_optimization.stage 2.0", lambda c: zstr(c, None, "stage", 2.0))
    add("zero_optimization.overlap_comm \"true\"", lambda c: zstr(c, 2, "overlap_comm", "true"))
    add("zero_optimization.overlap_comm \"maybe\"", lambda c: zstr(c, 2, "overlap_comm", "maybe"))
    # gradient_clipping.
    for clip in (-1, 0, 1.0, 0.5):
        add(f"gradient_clipping {json.dumps(clip)}", lambda c, v=clip: dict(c, gradient_clipping=v))
    # Batch triad at world size 8.
    add("batch: train_batch_size only", lambda c: batch(c, tbs=64))
    add("batch: micro-batch only", lambda c: batch(c, micro=4))
    add("batch: consistent triad", lambda c: batch(c, tbs=64, micro=4, gas=2))
    add("batch: inconsistent triad", lambda c: batch(c, tbs=64, micro=4, gas=4))
    add("batch: train_batch_size not divisible", lambda c: batch(c, tbs=12, micro=1))
    add("batch: none of the three", lambda c: batch(c))
    add("batch: train_batch_size and gas", lambda c: batch(c, tbs=64, gas=2))
    add("batch: gradient_accumulation_steps 0", lambda c: batch(c, micro=4, gas=0))
    add("batch: micro-batch \"4\" (string)", lambda c: batch(c, micro="4", gas=1))
    add("batch: micro-batch 4.0 (float)", lambda c: batch(c, micro=4.0, gas=1))
    add("batch: consistent triad with dp 4 (2 pipeline stages)", lambda c: set_stage(batch(c, tbs=32, micro=4, gas=2), 1),
        pipeline_stages=2)
    add("batch: world-size triad with 2 pipeline stages", lambda c: set_stage(batch(c, tbs=64, micro=4, gas=2), 1),
        pipeline_stages=2)
    # Precision.
    add("fp16 and bf16 both enabled", lambda c: dict(precision(c), fp16={"enabled": True}, bf16={"enabled": True}))
    add("fp16 only", lambda c: precision(c, fp16=True))
    add("bf16 only", lambda c: precision(c, bf16=True))
    add("bfloat16 (legacy key) only", lambda c: dict(precision(c), bfloat16={"enabled": True}))
    add("fp16 with loss_scale_window \"1000\"",
        lambda c: dict(precision(c), fp16={"enabled": True, "loss_scale_window": "1000"}))
    add("fp16 with an unknown key", lambda c: dict(precision(c), fp16={"enabled": True, "loss_scal": 0}))
    add("Lamb with static fp16 loss scale at stage 0",
        lambda c: dict(optimizer(set_stage(precision(c), 0), "Lamb"), fp16={"enabled": True, "loss_scale": 128}))
    add("amp with ZeRO 2", lambda c: dict(set_stage(precision(c), 2), amp={"enabled": True}))
    # Offload variants.
    add("offload_optimizer cpu at stage 2", lambda c: offload_opt(set_stage(c, 2), "cpu"))
    add("offload_optimizer nvme at stage 3 without nvme_path", lambda c: offload_opt(set_stage(c, 3), "nvme"))
    add("offload_optimizer nvme at stage 3 with nvme_path", lambda c: offload_opt(set_stage(c, 3), "nvme", "/local_nvme"))
    add("offload_optimizer nvme at stage 3 with nvme_path \"\"", lambda c: offload_opt(set_stage(c, 3), "nvme", ""))
    add("offload_param cpu at stage 2", lambda c: offload_par(set_stage(c, 2), "cpu"))
    add("offload_param cpu at stage 3", lambda c: offload_par(set_stage(c, 3), "cpu"))
    add("offload_param nvme at stage 3 without nvme_path", lambda c: offload_par(set_stage(c, 3), "nvme"))
    add("offload_param device gpu", lambda c: offload_par(set_stage(c, 3), "gpu"))
    add("offload_optimizer ratio 0.5 at stage 2",
        lambda c: dict_in(offload_opt(set_stage(c, 2), "cpu"), ("zero_optimization", "offload_optimizer"), ratio=0.5))
    add("offload_optimizer ratio 0.5 at stage 3",
        lambda c: dict_in(offload_opt(set_stage(c, 3), "cpu"), ("zero_optimization", "offload_optimizer"), ratio=0.5))
    add("offload_optimizer pin_memory \"yes\"",
        lambda c: dict_in(offload_opt(set_stage(c, 2), "cpu"), ("zero_optimization", "offload_optimizer"),
                          pin_memory="yes"))
    add("cpu_offload true (deprecated) at stage 2", lambda c: zstr(c, 2, "cpu_offload", True))
    add("cpu_offload next to offload_optimizer",
        lambda c: dict_in(offload_opt(set_stage(c, 2), "cpu"), ("zero_optimization",), cpu_offload=True))
    # Stage and pipeline.
    for stage in (0, 1, 2, 3):
        add(f"stage {stage} with 2 pipeline stages", lambda c, s=stage: set_stage(c, s), pipeline_stages=2)
    add("stage 1 with overlap_comm and 2 pipeline stages", lambda c: zstr(c, 1, "overlap_comm", True), pipeline_stages=2)
    # Types and unknown keys.
    add("zero_optimization unknown key", lambda c: zstr(c, 2, "stage3_gather_fp16_weights_on_model_saving", True))
    add("zero_optimization legacy true", lambda c: dict(c, zero_optimization=True))
    add("zero_optimization legacy_stage1", lambda c: zstr(c, 1, "legacy_stage1", True))
    add("top-level unknown key", lambda c: dict(c, train_batch_sise=8))
    add("steps_per_print \"10\"", lambda c: dict(c, steps_per_print="10"))
    add("wall_clock_breakdown \"false\"", lambda c: dict(c, wall_clock_breakdown="false"))
    add("communication_data_type int8", lambda c: dict(c, communication_data_type="int8"))
    add("communication_data_type fp32", lambda c: dict(c, communication_data_type="fp32"))
    return m


def mga(cfg, stage, overlap):
    cfg = set_stage(cfg, stage)
    cfg["managed_gradient_accumulation"] = False
    zero(cfg)["overlap_comm"] = overlap
    return cfg


def zstr(cfg, stage, key, value):
    if stage is not None:
        set_stage(cfg, stage)
    zero(cfg)[key] = value
    return cfg


def offload_opt(cfg, device, path=None):
    block = {"device": device}
    if path is not None:
        block["nvme_path"] = path
    zero(cfg)["offload_optimizer"] = block
    return cfg


def offload_par(cfg, device, path=None):
    block = {"device": device}
    if path is not None:
        block["nvme_path"] = path
    zero(cfg)["offload_param"] = block
    return cfg


def dict_in(cfg, path, **values):
    d = cfg
    for k in path:
        d = d[k]
    d.update(values)
    return cfg


def batch(cfg, tbs=None, micro=None, gas=None):
    for k in ("train_batch_size", "train_micro_batch_size_per_gpu", "gradient_accumulation_steps"):
        cfg.pop(k, None)
    for k, v in (("train_batch_size", tbs), ("train_micro_batch_size_per_gpu", micro), ("gradient_accumulation_steps", gas)):
        if v is not None:
            cfg[k] = v
    return cfg


# Mutations DeepSpeed accepts at load and engine init but that fail at the first training step, re-stated here
# from DeepSpeed v0.19.5's code (not run), as the oracle re-states its later_errors.
FIRST_STEP_FAILURES = {
    "steps_per_print \"10\"": "engine.py:3347 (self.global_steps + 1) % self.steps_per_print() with the string "
                                "\"10\" -> TypeError at the first optimizer step",
}


# The corpus configs each mutation is applied to: strict JSON, with and without "auto", several stages.
BASES = [
    "deepspeedai__DeepSpeed__examples__sdma_allgather__ds_config_zero3.json",
    "THUDM__GLM__config__config_block_10B.json",
    "huggingface__transformers__tests__deepspeed__ds_config_zero2.json",
]


def requests(corpus):
    out = []
    bases = [b for b in BASES if b in corpus]
    if len(bases) != len(BASES):
        sys.exit("corpus files missing: " + ", ".join(sorted(set(BASES) - set(bases))))
    for i, (name, fn, extra) in enumerate(mutations()):
        # Every mutation on the first base; every third also on the others, so each base meets each kind.
        for j, base in enumerate(bases):
            if j > 0 and (i + j) % 3:
                continue
            cfg = fn(plain(corpus[base]))
            out.append({"id": f"m{i:03d}-{j}", "source": f"{base} + {name}", "world_size": WORLD,
                        "dp": None, "pipeline_stages": extra.get("pipeline_stages"), "hf_fill": False,
                        "config": cfg, "first_step_failure": FIRST_STEP_FAILURES.get(name)})
    # The corpus as written, "auto" filled as the Trainer does with default TrainingArguments (warmup 0).
    for k, (name, cfg) in enumerate(sorted(corpus.items())):
        out.append({"id": f"c{k:03d}", "source": f"{name} (as written)", "world_size": WORLD, "dp": None,
                    "pipeline_stages": None, "hf_fill": has_auto(cfg), "config": cfg})
    # Warmup "auto" filled by the Trainer: 0 without --warmup_steps/--warmup_ratio.
    hf = "huggingface__transformers__tests__deepspeed__ds_config_zero2.json"
    out.append({"id": "h000", "source": f"{hf} (as written, Trainer defaults: warmup 0)", "world_size": WORLD,
                "dp": None, "pipeline_stages": None, "hf_fill": True, "config": corpus[hf]})
    return out


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--oracle", required=True)
    ap.add_argument("--corpus", required=True)
    ap.add_argument("--out", required=True)
    a = ap.parse_args()
    reqs = requests(load_corpus(a.corpus))
    lines = []
    for r in reqs:
        q = {"id": r["id"], "config": r["config"], "world_size": r["world_size"], "hf_fill": r["hf_fill"]}
        if r["pipeline_stages"]:
            q["pipeline_stages"] = r["pipeline_stages"]
        lines.append(json.dumps(q))
    proc = subprocess.run(["/usr/bin/python3", a.oracle, "--jsonl"], input="\n".join(lines) + "\n",
                          capture_output=True, text=True, check=True)
    verdicts = {}
    for line in proc.stdout.splitlines():
        v = json.loads(line)
        verdicts[v["id"]] = v
    with open(a.out, "w", encoding="utf-8") as f:
        for r in reqs:
            v = verdicts[r["id"]]
            if v.get("accepted") is None:
                print(f"{r['id']} not judged: {v.get('harness_error')}", file=sys.stderr)
                continue
            error = v.get("config_error") or v.get("engine_error")
            accepted = bool(v["accepted"])
            # What DeepSpeed raises later in engine init (the oracle re-states it from the code): a rejection too.
            if accepted and v.get("later_errors"):
                accepted = False
                error = "later in engine init (re-stated by the oracle from the code, not run): " + v["later_errors"][0]
            later = r.pop("first_step_failure", None)
            if accepted and later:
                accepted = False
                error = "at the first step (re-stated by the generator from the code, not run): " + later
            r["deepspeed"] = {"accepted": accepted, "error": error, "warnings": v.get("warnings", [])}
            f.write(json.dumps(r, ensure_ascii=False) + "\n")
    print(f"{len(verdicts)} judged, written to {a.out}", file=sys.stderr)


if __name__ == "__main__":
    main()
