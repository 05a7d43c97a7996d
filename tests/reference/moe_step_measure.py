#!/usr/bin/env python3
"""A mixture-of-experts training step measured with Hugging Face Transformers on one GPU, no DeepSpeed.

Builds small Mixtral-shaped models from a config (random weights, bf16, SDPA attention), and for each prints:
  - saved_moe_block_bytes: what autograd saves in one MixtralSparseMoeBlock as this Transformers runs it
    (saved_tensors_hooks, once per storage, parameters excluded), for tests/data/moe-activation-reference.tsv's
    companion rows;
  - fwd_bwd_seconds: the median of 5 forward + backward passes (after 2 warm-up passes) of the whole model at
    micro-batch b and sequence s, loss included, no optimizer step, synchronised;
  - peak_bytes / weights_bytes: torch.cuda.max_memory_allocated over one forward + backward, and the bf16 weights.
Rows: name, layers, hidden, heads, kv_heads, expert_intermediate, experts, k, vocab, seq, micro_batch, then the
measurements, torch, transformers, device.

Usage: python3 tests/reference/moe_step_measure.py   (a CUDA GPU with torch and transformers)
"""
import statistics
import sys
import time

import torch

from moe_saved_activations import saved_bytes  # the same counting, beside this file


def build(layers, hidden, heads, kv, inter, experts, k, vocab):
    from transformers import MixtralConfig, MixtralForCausalLM
    cfg = MixtralConfig(hidden_size=hidden, num_hidden_layers=layers, num_attention_heads=heads,
                        num_key_value_heads=kv, intermediate_size=inter, num_local_experts=experts,
                        num_experts_per_tok=k, vocab_size=vocab, max_position_embeddings=8192,
                        tie_word_embeddings=False, attn_implementation="sdpa")
    with torch.device("cuda"):
        model = MixtralForCausalLM(cfg).to(torch.bfloat16)
    model.train()
    return model


def saved_block_bytes(model, tokens, hidden):
    x = torch.randn(1, tokens, hidden, dtype=torch.bfloat16, device="cuda", requires_grad=True)
    return saved_bytes(model.model.layers[0].mlp, x)


def step_time_and_peak(model, b, s, vocab):
    ids = torch.randint(0, vocab, (b, s), device="cuda")

    def once():
        out = model(input_ids=ids, labels=ids)
        out.loss.backward()
        model.zero_grad(set_to_none=True)

    for _ in range(2):
        once()
    times = []
    for _ in range(5):
        torch.cuda.synchronize()
        t = time.perf_counter()
        once()
        torch.cuda.synchronize()
        times.append(time.perf_counter() - t)
    torch.cuda.reset_peak_memory_stats()
    base = torch.cuda.memory_allocated()
    out = model(input_ids=ids, labels=ids)
    out.loss.backward()
    peak = torch.cuda.max_memory_allocated()
    model.zero_grad(set_to_none=True)
    del out
    return statistics.median(times), peak, base


def main():
    import transformers
    cases = [  # name, layers, hidden, heads, kv, expert width, experts, k, vocab, seq, micro-batch
        ("mixtral-small", 8, 2048, 16, 4, 5632, 8, 2, 32000, 2048, 4),
        ("qwen3moe-small", 8, 1024, 16, 4, 512, 64, 8, 32000, 2048, 4),
    ]
    print("name\tlayers\thidden\theads\tkv_heads\texpert_intermediate\texperts\tk\tvocab\tseq\tmicro_batch\t"
          "saved_moe_block_bytes\tfwd_bwd_seconds\tpeak_bytes\tweights_bytes\ttorch\ttransformers\tdevice")
    for name, L, h, a, kv, f, e, k, v, s, b in cases:
        torch.manual_seed(0)
        model = build(L, h, a, kv, f, e, k, v)
        weights = sum(p.numel() * p.element_size() for p in model.parameters())
        try:
            saved = saved_block_bytes(model, b * s, h)
        except Exception as err:  # noqa: BLE001 - a failed part is reported, the rest still measured
            print(f"# {name}: saved bytes failed: {err}", file=sys.stderr)
            saved = -1
        model.zero_grad(set_to_none=True)
        seconds, peak, base = step_time_and_peak(model, b, s, v)
        print(f"{name}\t{L}\t{h}\t{a}\t{kv}\t{f}\t{e}\t{k}\t{v}\t{s}\t{b}\t{saved}\t{seconds:.4f}\t{peak}\t{weights}\t"
              f"{torch.__version__}\t{transformers.__version__}\t{torch.cuda.get_device_name()}")
        del model
        torch.cuda.empty_cache()
    return 0


if __name__ == "__main__":
    sys.exit(main())
