#!/usr/bin/python3
"""Sweeps the configs ds-wizard writes and judges each with DeepSpeed's own code (ds_full_oracle.py).

For a deterministic grid of answer sets (every registry choice that changes the config: optimizer,
precision and its states, ZeRO stage and offload forcing, NVMe with and without a path, pipeline stages,
GPUs, nodes, micro and global batch, 1-bit optimizers and their backend, sparse attention, GPU, model,
checkpointing, launcher) it runs the built `ds-wizard recommend --set ... --format json` (the "config" of
that output is what `--format config` prints) and, for the hf-trainer / accelerate launchers,
`ds-wizard export --set ... --to bundle` (ds_config.json with "auto" + launch.sh). The strict config is
judged at world size gpus x nodes (dp = world / stages for a pipeline); the "auto" form with the oracle's
--hf-fill, given the values launch.sh passes to the Trainer (or, for Accelerate, the values the script is
told to supply). Every rejection is listed with whether the plan carries a failed check.

usage (from the repository root; the oracle set up once as its docstring says):
  /usr/bin/python3 tests/reference/wizard_output_verdicts.py --wizard build/app/ds-wizard \\
      --oracle ../shared/tools/ds_full_oracle.py \\
      --corpus ../shared/corpus/ds_configs \\
      --out tests/data/deepspeed-verdicts/wizard-output.jsonl [--full /tmp/wizard-sweep.jsonl]

Exit status 1 when a config DeepSpeed rejects comes with no failed check in its plan.
--out keeps at most --keep (200) representative lines: every rejection first, then one line per distinct
(optimizer, stage, offload, precision, pipeline, launcher form) until the limit.
"""
import argparse
import itertools
import json
import os
import random
import re
import shlex
import subprocess
import sys
import tempfile

OPTIMIZERS = ["adamw", "adam", "lamb", "adagrad", "lion", "onebit-adam", "zero-one-adam", "onebit-lamb"]
PRECISIONS = ["auto", "fp16", "bf16", "fp8", "fp32"]
STAGES = ["auto", "0", "1", "2", "3"]
OFFLOADS = ["auto", "none", "cpu", "nvme"]
LAUNCHERS = ["deepspeed", "hf-trainer", "accelerate"]
SPARSE = ["none", "auto", "fixed", "variable", "bigbird", "bslongformer"]
GPUS = ["A100-80GB", "H100-80GB", "V100-32GB", "T4", "A10G", "MI300X"]
MODELS = ["none", "llama-3.2-1b", "qwen2.5-0.5b", "llama-3.1-8b", "gpt2-xl", "bert-large", "llama-2-70b"]


def bases():
    """Three starting points: a small model on one node, 7B on one node, 8B on two nodes."""
    return [
        {"model.preset": "qwen2.5-0.5b", "hardware.gpus_per_node": "4"},
        {},
        {"model.preset": "llama-3.1-8b", "hardware.nodes": "2"},
    ]


def one_axis(add):
    """Each registry choice that changes the config, one at a time, on each base."""
    for base in bases():
        for v in OPTIMIZERS:
            add({**base, "training.optimizer": v})
        for v in PRECISIONS:
            add({**base, "training.precision": v})
        add({**base, "training.precision": "bf16", "training.precision_states": "bf16"})
        for v in STAGES[1:]:
            add({**base, "zero.stage": v})
        for a, b in itertools.product(OFFLOADS[1:], OFFLOADS[1:]):
            add({**base, "zero.offload_optimizer": a, "zero.offload_param": b})
        add({**base, "hardware.nvme": "nvme"})
        add({**base, "hardware.nvme": "nvme", "hardware.nvme_path": "/local_nvme", "zero.offload_optimizer": "nvme"})
        for v in ["2", "4"]:
            add({**base, "pipeline.stages": v})
        for v in SPARSE[1:]:
            add({**base, "sparse.pattern": v})
        for v in LAUNCHERS[1:]:
            add({**base, "software.launcher": v})
        for v in ["on", "off"]:
            add({**base, "training.activation_checkpointing": v})
        add({**base, "training.micro_batch_size": "2", "training.gradient_accumulation_steps": "8"})
        add({**base, "training.global_batch_size": "256"})
        add({**base, "training.optimizer": "onebit-adam", "onebit.comm_backend": "mpi"})
        add({**base, "training.optimizer": "onebit-lamb", "onebit.comm_backend": "compressed"})
        add({**base, "training.gradient_clipping": "0"})


def random_mix(add, n, seed=11):
    """Combinations of every axis, drawn with a fixed seed."""
    rng = random.Random(seed)
    for _ in range(n):
        s = {}
        s["model.preset"] = rng.choice(MODELS)
        s["hardware.gpu"] = rng.choice(GPUS)
        s["hardware.gpus_per_node"] = rng.choice(["1", "2", "4", "8"])
        s["hardware.nodes"] = rng.choice(["1", "1", "2", "4"])
        s["training.optimizer"] = rng.choice(OPTIMIZERS)
        s["training.precision"] = rng.choice(PRECISIONS)
        if rng.random() < 0.2:
            s["training.precision_states"] = "bf16"
        s["zero.stage"] = rng.choice(STAGES)
        s["zero.offload_optimizer"] = rng.choice(OFFLOADS)
        s["zero.offload_param"] = rng.choice(OFFLOADS)
        nv = rng.choice(["none", "nvme", "nvme-path"])
        if nv != "none":
            s["hardware.nvme"] = "nvme"
        if nv == "nvme-path":
            s["hardware.nvme_path"] = "/local_nvme"
        gpus = int(s["hardware.gpus_per_node"]) * int(s["hardware.nodes"])
        stages = rng.choice([1, 1, 2, 4])
        if stages > 1 and gpus % stages == 0:
            s["pipeline.stages"] = str(stages)
        mb = rng.choice([None, "1", "2", "8"])
        if mb:
            s["training.micro_batch_size"] = mb
        if rng.random() < 0.3:
            s["training.global_batch_size"] = rng.choice(["64", "256", "1024"])
        elif rng.random() < 0.3:
            s["training.gradient_accumulation_steps"] = rng.choice(["2", "4"])
        s["sparse.pattern"] = rng.choice(SPARSE + ["none"] * 4)
        s["training.activation_checkpointing"] = rng.choice(["auto", "auto", "on", "off"])
        s["software.launcher"] = rng.choice(LAUNCHERS)
        if s["training.optimizer"].startswith(("onebit", "zero-one")):
            s["onebit.comm_backend"] = rng.choice(["nccl", "mpi", "compressed"])
        add(s)


def scenarios(n_random):
    seen, out = set(), []

    def add(s):
        key = tuple(sorted(s.items()))
        if key not in seen:
            seen.add(key)
            out.append(dict(s))

    one_axis(add)
    random_mix(add, n_random)
    return out


def set_args(s):
    args = []
    for k, v in s.items():
        args += ["--set", f"{k}={v}"]
    return args


def command_text(words):
    return " ".join(shlex.quote(w) for w in words)


def has_fail(plan):
    for advice in plan.get("workflows", {}).values():
        for c in advice.get("checks", []):
            if c.get("level") == "fail":
                return True
    return any(f.get("level") == "fail" for f in plan.get("findings", []))


def fail_codes(plan):
    codes = [c["code"] for a in plan.get("workflows", {}).values() for c in a.get("checks", []) if c["level"] == "fail"]
    return codes + [f["code"] for f in plan.get("findings", []) if f.get("level") == "fail"]


def trainer_args(launch_sh):
    """The TrainingArguments launch.sh passes, as the oracle's hf_fill keywords."""
    words = shlex.split(re.sub(r"\\\n", " ", "\n".join(l for l in launch_sh.splitlines() if not l.startswith("#"))))
    out = {}
    keys = {"--per_device_train_batch_size": ("micro", int), "--gradient_accumulation_steps": ("gas", int),
            "--learning_rate": ("lr", float), "--warmup_steps": ("warmup", int)}
    for i, w in enumerate(words):
        if w in keys and i + 1 < len(words):
            name, conv = keys[w]
            out[name] = conv(words[i + 1])
        elif w == "--bf16":
            out["bf16"] = True
        elif w == "--fp16":
            out["fp16"] = True
    return out


def accelerate_args(strict):
    """Accelerate's script is told to supply the wizard's values (launch.sh lists them)."""
    out = {"micro": strict.get("train_micro_batch_size_per_gpu"), "gas": strict.get("gradient_accumulation_steps")}
    lr = strict.get("optimizer", {}).get("params", {}).get("lr")
    if isinstance(lr, (int, float)):
        out["lr"] = lr
    warm = strict.get("scheduler", {}).get("params", {}).get("warmup_num_steps")
    if isinstance(warm, int):
        out["warmup"] = warm
    return {k: v for k, v in out.items() if isinstance(v, (int, float)) and not isinstance(v, bool)}


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--wizard", required=True)
    ap.add_argument("--oracle", default="../shared/tools/ds_full_oracle.py")
    ap.add_argument("--out", required=True)
    ap.add_argument("--full", default=None, help="every judged config with the verdict and the plan's failed checks")
    ap.add_argument("--random", type=int, default=260, help="random combinations beyond the one-axis grid")
    ap.add_argument("--keep", type=int, default=200)
    ap.add_argument("--exclude", action="append", default=[], help="an id left out of --out (still listed and in "
                    "--full): a verdict the linter does not reach yet, reported instead of recorded")
    ap.add_argument("--corpus", default=None, help="also export imported configs of this folder that have a "
                    "scheduler warmup, for the hf-trainer and accelerate launchers")
    a = ap.parse_args()

    requests, meta = [], {}
    tmp = tempfile.mkdtemp(prefix="wizard-sweep-")
    grid = scenarios(a.random)
    input_refused = 0
    for i, s in enumerate(grid):
        rec = [a.wizard, "recommend"] + set_args(s) + ["--format", "json"]
        r = subprocess.run(rec, capture_output=True, text=True)
        if r.returncode != 0:
            input_refused += 1
            continue
        plan = json.loads(r.stdout)
        if plan.get("input_errors"):
            input_refused += 1
            continue
        gpus = int(s.get("hardware.gpus_per_node", "8")) * int(s.get("hardware.nodes", "1"))
        stages = int(s.get("pipeline.stages", "1"))
        pipe = {"dp": gpus // stages, "pipeline_stages": stages} if stages > 1 else {"dp": None, "pipeline_stages": None}
        strict = plan["config"]
        sid = f"w{i:03d}"
        shown = ["ds-wizard", "recommend"] + set_args(s) + ["--format", "config"]
        forms = [(sid, command_text(shown), strict, False, {})]
        launcher = s.get("software.launcher", "deepspeed")
        if launcher != "deepspeed":
            out_dir = os.path.join(tmp, sid)
            exp = [a.wizard, "export"] + set_args(s) + ["--to", "bundle", "-o", out_dir]
            e = subprocess.run(exp, capture_output=True, text=True)
            if e.returncode != 0:
                print(f"{sid}: export failed: {e.stderr.strip()}", file=sys.stderr)
            else:
                with open(os.path.join(out_dir, "ds_config.json"), encoding="utf-8") as f:
                    auto_cfg = json.load(f)
                with open(os.path.join(out_dir, "launch.sh"), encoding="utf-8") as f:
                    launch = f.read()
                hf_args = trainer_args(launch) if launcher == "hf-trainer" else accelerate_args(strict)
                shown = ["ds-wizard", "export"] + set_args(s) + ["--to", "bundle", "-o", "OUT"]
                forms.append((sid + "-hf", command_text(shown) + " (OUT/ds_config.json)", auto_cfg, True, hf_args))
        for fid, source, cfg, hf, hf_args in forms:
            req = {"id": fid, "config": cfg, "world_size": gpus, "hf_fill": hf, **{k: v for k, v in pipe.items() if v}}
            if hf_args:
                req["hf_args"] = hf_args
            requests.append(req)
            meta[fid] = {"id": fid, "source": source, "world_size": gpus, "dp": pipe["dp"],
                         "pipeline_stages": pipe["pipeline_stages"], "hf_fill": hf, "config": cfg,
                         "scenario": s, "has_fail": has_fail(plan), "fail_codes": fail_codes(plan)}

    # Export forms of imported configs with a scheduler warmup (the wizard's own configs have no scheduler): the
    # Hugging Face export must leave a warmup DeepSpeed accepts (not "auto", which the launcher fills with 0).
    imported = []
    if a.corpus:
        for name in sorted(os.listdir(a.corpus)):
            path = os.path.join(a.corpus, name)
            try:
                with open(path, encoding="utf-8") as f:
                    cfg = json.load(f)
            except (ValueError, UnicodeDecodeError):
                continue
            sch = cfg.get("scheduler") if isinstance(cfg, dict) else None
            if not isinstance(sch, dict) or "warmup_num_steps" not in (sch.get("params") or {}):
                continue
            project = os.path.join(tmp, name + ".dswiz")
            if subprocess.run([a.wizard, "import", path, "-o", project], capture_output=True).returncode != 0:
                continue
            for launcher in ("hf-trainer", "accelerate"):
                fid = f"imp-{len(imported):03d}-{launcher}"
                out_dir = os.path.join(tmp, fid)
                exp = [a.wizard, "export", "--project", project, "--set", f"software.launcher={launcher}",
                       "--to", "bundle", "-o", out_dir]
                if subprocess.run(exp, capture_output=True).returncode != 0:
                    continue
                with open(os.path.join(out_dir, "ds_config.json"), encoding="utf-8") as f:
                    auto_cfg = json.load(f)
                with open(os.path.join(out_dir, "launch.sh"), encoding="utf-8") as f:
                    launch = f.read()
                hf_args = trainer_args(launch) if launcher == "hf-trainer" else accelerate_args(auto_cfg)
                requests.append({"id": fid, "config": auto_cfg, "world_size": 8, "hf_fill": True, "hf_args": hf_args})
                imported.append(fid)
                meta[fid] = {"id": fid, "source": command_text(["ds-wizard", "import", name, "-o", "P.dswiz"]) + "; "
                             + command_text(["ds-wizard", "export", "--project", "P.dswiz", "--set",
                                             f"software.launcher={launcher}", "--to", "bundle", "-o", "OUT"])
                             + " (OUT/ds_config.json)", "world_size": 8, "dp": None, "pipeline_stages": None,
                             "hf_fill": True, "config": auto_cfg, "scenario": {}, "has_fail": False, "fail_codes": [],
                             "imported": True}

    proc = subprocess.run(["/usr/bin/python3", a.oracle, "--jsonl"], input="".join(json.dumps(r) + "\n" for r in requests),
                          capture_output=True, text=True)
    if proc.returncode != 0:
        print("oracle failed:\n" + proc.stderr[-2000:], file=sys.stderr)
    verdicts = {}
    for line in proc.stdout.splitlines():
        v = json.loads(line)
        verdicts[v["id"]] = v
    rows, uncovered = [], []
    for fid, m in meta.items():
        v = verdicts.get(fid, {"accepted": None, "harness_error": "no verdict"})
        later = v.get("later_errors") or []
        surprises = v.get("surprises") or []
        error = v.get("config_error") or v.get("engine_error") or v.get("harness_error") or (later[0] if later else None)
        accepted = bool(v.get("accepted")) and not later and not surprises
        if surprises and not error:
            error = surprises[0]
        m["deepspeed"] = {"accepted": accepted, "error": error, "warnings": v.get("warnings", [])}
        rows.append(m)
        if not accepted:
            print(f"REJECTED {fid} fail-check={m['has_fail']} {m['fail_codes'][:3]}: {error}\n    {m['source']}")
            if not m["has_fail"] and not m.get("imported"):
                uncovered.append(fid)
    own = [r for r in rows if not r.get("imported")]
    rejected = sum(1 for r in own if not r["deepspeed"]["accepted"])
    print(f"{len(grid)} scenarios ({input_refused} refused as input), {len(own)} configs judged, "
          f"{rejected} rejected, {len(uncovered)} of them without a failed check")
    if imported:
        imp = [r for r in rows if r.get("imported")]
        warm = [r for r in imp if "warmup_num_steps" in (r["deepspeed"]["error"] or "")]
        print(f"imported configs with a scheduler warmup, Hugging Face exports: {len(imp)} judged, "
              f"{sum(1 for r in imp if not r['deepspeed']['accepted'])} rejected, {len(warm)} for warmup_num_steps")

    if a.full:
        with open(a.full, "w", encoding="utf-8") as f:
            for r in rows:
                f.write(json.dumps(r) + "\n")
    keep, signatures = [], set()
    for r in sorted((r for r in rows if r["id"] not in a.exclude), key=lambda r: (r["deepspeed"]["accepted"], r["id"])):
        c = r["config"]
        z = c.get("zero_optimization", {})
        sig = (c.get("optimizer", {}).get("type"), z.get("stage"), json.dumps(z.get("offload_optimizer", {}).get("device")),
               json.dumps(z.get("offload_param", {}).get("device")), "bf16" in c, "fp16" in c, r["pipeline_stages"],
               r["hf_fill"], "sparse_attention" in c, r["deepspeed"]["accepted"])
        if not r["deepspeed"]["accepted"] or sig not in signatures:
            signatures.add(sig)
            keep.append(r)
    keep = sorted(keep[: a.keep], key=lambda r: r["id"])
    with open(a.out, "w", encoding="utf-8") as f:
        for r in keep:
            line = {k: r[k] for k in ("id", "source", "world_size", "dp", "pipeline_stages", "hf_fill", "config")}
            line["deepspeed"] = r["deepspeed"]
            f.write(json.dumps(line) + "\n")
    print(f"wrote {len(keep)} lines to {a.out}")
    return 1 if uncovered else 0


if __name__ == "__main__":
    sys.exit(main())
