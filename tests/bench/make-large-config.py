#!/usr/bin/env python3
"""Writes a large, valid DeepSpeed config for the reader benchmark (tests/bench/run-all.sh): about 4 MiB
(just under ds-wizard's 4 MiB limit) and about 134,000 keys, pretty-printed with one-space indents so that
every key is on its own line, as a generated config would be.

The bulk is compression_training.weight_quantization.different_groups, whose group names are free-form
(DeepSpeed reads any name there), each group with its params and a list of module names. One key near the
end is written twice, so that the duplicate-key finding and its line number are exercised at scale.
Deterministic: the same file on every run. Standard library only.

Usage: make-large-config.py OUT.json [TARGET_BYTES]
"""
import json
import sys


def main():
    if len(sys.argv) not in (2, 3):
        sys.exit(__doc__.strip().splitlines()[-1])
    out = sys.argv[1]
    target = int(sys.argv[2]) if len(sys.argv) == 3 else 4 * 1024 * 1024 - 64 * 1024
    head = {
        "train_batch_size": 64,
        "train_micro_batch_size_per_gpu": 4,
        "gradient_accumulation_steps": 2,
        "bf16": {"enabled": True},
        "zero_optimization": {"stage": 2, "overlap_comm": True},
        "optimizer": {"type": "AdamW", "params": {"lr": 0.0001, "betas": [0.9, 0.95], "weight_decay": 0.1}},
    }
    group = lambda i: {
        "params": {
            "start_bits": 8,
            "target_bits": 4 + i % 5,
            "quantization_period": 50 * (1 + i % 7),
        },
        "modules": ["layer.%d.attn" % i],
        "related_modules": None,
    }
    groups = {}
    text = ""
    i = 0
    # Grow in chunks and measure the real dump, so the file lands just under the target.
    while True:
        for _ in range(1000):
            groups["wq_group_%06d" % i] = group(i)
            i += 1
        config = dict(head)
        config["compression_training"] = {
            "weight_quantization": {
                "shared_parameters": {"enabled": True, "quantizer_kernel": False, "schedule_offset": 0},
                "different_groups": groups,
            }
        }
        candidate = json.dumps(config, indent=1) + "\n"
        if len(candidate.encode()) > target:
            break
        text = candidate
    # The duplicate: the last top-level key again, with another value (the later one wins, as in Python).
    closing = text.rstrip().rfind("}")
    text = text[:closing].rstrip() + ',\n "gradient_accumulation_steps": 2\n}\n'
    with open(out, "w") as f:
        f.write(text)


if __name__ == "__main__":
    main()
