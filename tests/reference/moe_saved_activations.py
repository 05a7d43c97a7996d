#!/usr/bin/env python3
"""Bytes autograd saves for backward in one mixture-of-experts MLP block, measured with torch.

Writes the "loop" rows of tests/data/moe-activation-reference.tsv, which estimate/ActivationModel's MoE terms are
tested against (tests/models/estimate/TestActivationModel.cpp); its "fused" rows, Transformers 5's own Mixtral block,
come from tests/reference/moe_step_measure.py.

The block is written here in the style of Hugging Face's MixtralSparseMoeBlock as Transformers 4.x runs it (our own
code, no transformers import): a router linear, softmax in fp32, top-k, renormalised weights cast back, then for each
expert the tokens routed to it gathered by index, a SwiGLU MLP (w2(silu(w1 x) * w3 x)), the product with the routing
weight and index_add_ into the output; optionally shared experts applied to every token (DeepSeek's layout). Every
tensor autograd saves is seen by torch.autograd.graph.saved_tensors_hooks, counted once per storage, parameters
excluded. The block's input is the post-attention norm's output, which the dense MLP's row counts too.

Usage (a CUDA GPU, bf16):
  python3 tests/reference/moe_saved_activations.py
Columns: name, tokens, hidden, expert_intermediate, experts, k, shared, experts_impl (loop), measured_saved_bytes,
torch, transformers (what the block stands for), device.
"""
import sys

import torch
import torch.nn.functional as F


class Expert(torch.nn.Module):
    def __init__(self, h, f, dtype, device):
        super().__init__()
        self.w1 = torch.nn.Linear(h, f, bias=False, dtype=dtype, device=device)
        self.w3 = torch.nn.Linear(h, f, bias=False, dtype=dtype, device=device)
        self.w2 = torch.nn.Linear(f, h, bias=False, dtype=dtype, device=device)

    def forward(self, x):
        return self.w2(F.silu(self.w1(x)) * self.w3(x))


class SparseMoeBlock(torch.nn.Module):
    def __init__(self, h, f, experts, k, shared, dtype, device):
        super().__init__()
        self.k = k
        self.gate = torch.nn.Linear(h, experts, bias=False, dtype=dtype, device=device)
        self.experts = torch.nn.ModuleList(Expert(h, f, dtype, device) for _ in range(experts))
        self.shared = torch.nn.ModuleList(Expert(h, f, dtype, device) for _ in range(shared))

    def forward(self, x):
        logits = self.gate(x)
        weights = F.softmax(logits, dim=1, dtype=torch.float)
        weights, selected = torch.topk(weights, self.k, dim=-1)
        weights = weights / weights.sum(dim=-1, keepdim=True)
        weights = weights.to(x.dtype)
        out = torch.zeros_like(x)
        mask = F.one_hot(selected, num_classes=len(self.experts)).permute(2, 1, 0)
        for e, expert in enumerate(self.experts):
            idx, top = torch.where(mask[e])
            current = x[None, top].reshape(-1, x.shape[-1])
            y = expert(current) * weights[top, idx, None]
            out.index_add_(0, top, y.to(x.dtype))
        for expert in self.shared:
            out = out + expert(x)
        return out


def saved_bytes(block, x):
    """Bytes autograd saves in one forward of `block` on `x`, once per storage, the block's parameters excluded; a
    block that returns a tuple (Transformers' sparse MoE blocks return their router logits too) is read by its first."""
    params = {p.untyped_storage().data_ptr() for p in block.parameters()}
    seen = {}

    def pack(t):
        s = t.untyped_storage()
        if s.data_ptr() not in params and s.data_ptr() not in seen:
            seen[s.data_ptr()] = s.nbytes()
        return t

    with torch.autograd.graph.saved_tensors_hooks(pack, lambda t: t):
        out = block(x)
    y = out[0] if isinstance(out, tuple) else out
    y.float().sum().backward()
    return sum(seen.values())


def main():
    if not torch.cuda.is_available():
        print("no CUDA device", file=sys.stderr)
        return 1
    torch.manual_seed(0)
    dev, dt = "cuda", torch.bfloat16
    cases = [  # name, tokens, hidden, expert width, experts, k, shared
        ("mixtral-like", 4096, 1024, 3584, 8, 2, 0),
        ("qwen3-moe-like", 4096, 512, 256, 32, 4, 0),
        ("deepseek-like-shared", 2048, 512, 384, 16, 2, 2),
        ("top1", 2048, 768, 2048, 4, 1, 0),
    ]
    print("name\ttokens\thidden\texpert_intermediate\texperts\tk\tshared\texperts_impl\tmeasured_saved_bytes\ttorch\t"
          "transformers\tdevice")
    for name, tokens, h, f, e, k, shared in cases:
        block = SparseMoeBlock(h, f, e, k, shared, dt, dev)
        x = torch.randn(tokens, h, dtype=dt, device=dev, requires_grad=True)
        n = saved_bytes(block, x)
        print(f"{name}\t{tokens}\t{h}\t{f}\t{e}\t{k}\t{shared}\tloop\t{n}\t{torch.__version__}\t"
              f"4.x loop, re-written\t{torch.cuda.get_device_name()}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
