#!/usr/bin/env python3
"""Bytes autograd saves for backward in one transformer layer, measured on the CPU with torch.

Writes tests/data/activation-reference.tsv, the table estimate/ActivationModel is tested against
(tests/models/estimate/TestActivationModel.cpp, +-10% per layer).

Layers are written here in the style of Hugging Face's GPT2Block and LlamaDecoderLayer (our own code, no
transformers import), in bf16 on the CPU. Every tensor autograd saves is seen by
torch.autograd.graph.saved_tensors_hooks; bytes are counted once per storage (q, k, v split from one fused
projection are one storage), parameters and the causal mask (built once per model) excluded. Each saved
storage is attributed to the operation that saved it first, under the names estimate/ActivationModel uses.
GPT-2's layers have one fused q/k/v projection and biases, Llama's separate projections (with RoPE a saved
v view of a fused output would keep q and k's part too). The GELU is
F.gelu(approximate="tanh"), one op saving its input (HF's "gelu_pytorch_tanh"); HF GPT-2's default
"gelu_new" is a Python composition that saves four s*b*I tensors instead of one (+24 s*b*h at I = 4h).

Two byte columns:
  measured_saved_bytes  what this torch on this CPU saved.
  gpu_saved_bytes       the same tensors as CUDA and torch 2.x keep them:
    - dropout masks 1 byte per element (CUDA's native_dropout keeps a bool mask; the CPU path multiplies by
      a noise tensor of the input's dtype, 2 bytes in bf16, on torch 1.13 and 2.x alike);
    - LayerNorm mean and 1/sigma 4 bytes per token each (CUDA keeps them in fp32 for 16-bit inputs; the CPU
      kernel keeps them in bf16);
    - `mean` keeps only sizes on torch 2.x (derivatives.yaml: mean_backward(grad, self.sym_sizes(), ...)),
      torch 1.13 saves its input: HF's RMSNorm `hidden.pow(2).mean(-1)` costs 4 bytes/element more there;
    - RoPE cos/sin: HF computes them once per model (LlamaModel.rotary_emb), not once per layer, so they
      are not part of a layer.

Attention kernels:
  eager  HF's eager_attention_forward: q.k^T, scale, causal mask, softmax (fp32 then cast back for the
         Llama family, the element type for GPT-2), dropout, probabilities.v. repeat_kv is forced to copy
         (a real GQA model's reshape copies; with one KV head torch returns a stride-0 view instead).
  flash  FlashAttention-2 as flash_attn_func: an autograd.Function that saves exactly q, k, v (KV heads, GQA
         native), out and the fp32 log-sum-exp [b, heads, s], plus the 16-byte RNG state when dropout > 0.
  sdpa   torch 2.x F.scaled_dot_product_attention on CUDA, as HF calls it with an attention mask or on torch
         < 2.5: k, v are repeat_kv'd to all heads first (copies), then the memory-efficient kernel saves q,
         k, v, out, the fp32 log-sum-exp padded to a multiple of 32 queries, and the philox seed and offset
         (two int64) when dropout > 0. (Torch 1.13 has no SDPA: this emulates what 2.x saves. With torch >=
         2.5 and no mask HF passes enable_gqa and SDPA saves what the flash row saves.)

Dropout > 0 means dropout on the attention probabilities and on the output of both residual branches (the
GPT-2/Megatron placement Korthikanti et al. count; HF's Llama has only the first).

The loss rows: HF's ForCausalLMLoss after lm_head: bf16 logits, `.float()`, cross-entropy (log-softmax saves
its fp32 output); measured_peak_bytes is the peak of the CPU allocator over the loss step's forward and
backward (torch.profiler memory events) plus the hidden states it starts from, the logits dropped before
backward as Trainer does.

Usage:
  python3 tests/reference/saved_activations.py > tests/data/activation-reference.tsv
  python3 tests/reference/saved_activations.py --check     # regenerate, compare with the committed table
Exit 1 when a published coefficient (the research notes' table) is not reproduced within 0.5%, when the
flash-like attention's gradients differ from eager's, or with --check, when a row differs from the committed
table. Under another torch than the table's, --check compares the GPU columns only and the published torch
1.13 CPU coefficients are not checked (their GPU/torch-2 figures are).
"""
import argparse
import contextlib
import math
import os
import subprocess
import sys

import torch
import torch.nn as nn
import torch.nn.functional as F

DTYPE = torch.bfloat16
HERE = os.path.dirname(os.path.abspath(__file__))
TABLE = os.path.join(HERE, "..", "data", "activation-reference.tsv")
COLUMNS = ["kind", "h", "heads", "kv_heads", "intermediate", "vocab", "mlp", "norm", "attention", "dropout", "s",
           "b", "dtype", "measured_saved_bytes", "gpu_saved_bytes", "measured_peak_bytes", "gpu_breakdown"]


def storage_of(t):
    """(pointer, bytes, elements) of the storage under t: views of one tensor count once."""
    if hasattr(t, "untyped_storage"):  # torch >= 2.0
        st = t.untyped_storage()
        return st.data_ptr(), st.nbytes(), st.nbytes() // t.element_size()
    st = t.storage()
    return st.data_ptr(), st.nbytes(), st.size()


class SavedBytes:
    """Counts saved-for-backward storages by operation; see the module docstring for the GPU column."""

    def __init__(self, dims, excluded=(), once_per_model=()):
        self.dims = dims  # b, s, heads, head_dim: tells a layer's probabilities from its v in one matmul
        self.excluded = {storage_of(t)[0] for t in excluded}
        self.once_per_model = {storage_of(t)[0] for t in once_per_model}
        self.tags = {}
        self.label = "unlabelled"
        self.seen = {}  # storage pointer -> (operation, measured bytes, GPU bytes)

    @contextlib.contextmanager
    def op(self, label):
        """Tensors first saved inside this scope are the named operation's."""
        before, self.label = self.label, label
        try:
            yield
        finally:
            self.label = before

    def tag(self, tensor, label):
        self.tags[storage_of(tensor)[0]] = label

    def operation(self, t, ptr):
        if ptr in self.tags:
            return self.tags[ptr]
        if ptr in self.once_per_model:
            return "RoPE cos/sin (once per model)"
        b, s, heads, _ = self.dims
        if self.label.endswith("norm input") and t.dim() > 0 and t.shape[-1] == 1:
            return self.label.replace("input", "statistics")
        if self.label == "attention probabilities" and t.numel() != b * heads * s * s:
            return "attention q, k, v"
        return self.label

    def pack(self, t):
        ptr, nbytes, numel = storage_of(t)
        if ptr in self.excluded or ptr in self.seen:
            return t
        name = self.operation(t, ptr)
        gpu = nbytes
        if name.endswith("dropout mask"):
            gpu = numel
        elif name.endswith("norm statistics") and t.dtype != torch.float32 and "layernorm" in self.norm_kind:
            gpu = numel * 4
        elif "(torch 1.13 only)" in name or name == "RoPE cos/sin (once per model)":
            gpu = 0
        self.seen[ptr] = (name, nbytes, gpu)
        return t

    def hooks(self, norm_kind=""):
        self.norm_kind = norm_kind
        return torch.autograd.graph.saved_tensors_hooks(self.pack, lambda t: t)

    def totals(self):
        measured = sum(m for _, m, _ in self.seen.values())
        gpu = sum(g for _, _, g in self.seen.values())
        by_op = {}
        for name, _, g in self.seen.values():
            if g:
                by_op[name] = by_op.get(name, 0) + g
        return measured, gpu, by_op


class FlashLike(torch.autograd.Function):
    """Attention that saves what FlashAttention-2 / SDPA's fused kernels save: q, k, v, out, fp32 lse.

    q, k, v: [b, s, heads or KV heads, d] as flash_attn_func takes them. The backward recomputes the
    probabilities from lse (FlashAttention-2, Algorithm 2), so a gradient check can run against eager."""

    @staticmethod
    def forward(ctx, q, k, v, counter, lse_multiple, dropout):
        b, s, heads, d = q.shape
        rep = heads // k.shape[2]
        qf = q.float().transpose(1, 2)
        kf = k.float().transpose(1, 2).repeat_interleave(rep, dim=1)
        vf = v.float().transpose(1, 2).repeat_interleave(rep, dim=1)
        scores = qf @ kf.transpose(-1, -2) / math.sqrt(d)
        scores = scores.masked_fill(torch.ones(s, s, dtype=torch.bool).triu(1), float("-inf"))
        lse = torch.logsumexp(scores, dim=-1)  # [b, heads, s], fp32 as the kernels keep it
        out = (torch.exp(scores - lse[..., None]) @ vf).transpose(1, 2).contiguous().to(q.dtype)
        padded = -(-s // lse_multiple) * lse_multiple
        lse_saved = torch.zeros(b, heads, padded, dtype=torch.float32)
        lse_saved[..., :s] = lse
        saved = [q, k, v, out, lse_saved]
        if counter is not None:
            counter.tag(out, "attention output (output-projection input)")
            counter.tag(lse_saved, "attention log-sum-exp (fp32)")
        if dropout:  # the kernels keep the RNG seed and offset and regenerate the mask in backward
            rng = torch.zeros(2, dtype=torch.int64)
            saved.append(rng)
            if counter is not None:
                counter.tag(rng, "attention dropout RNG state")
        ctx.save_for_backward(*saved)
        return out

    @staticmethod
    def backward(ctx, grad_out):
        q, k, v, out, lse = ctx.saved_tensors[:5]
        b, s, heads, d = q.shape
        rep = heads // k.shape[2]
        qf, kf, vf = (x.float().transpose(1, 2) for x in (q, k, v))
        kf, vf = kf.repeat_interleave(rep, dim=1), vf.repeat_interleave(rep, dim=1)
        go, of = grad_out.float().transpose(1, 2), out.float().transpose(1, 2)
        scores = qf @ kf.transpose(-1, -2) / math.sqrt(d)
        scores = scores.masked_fill(torch.ones(s, s, dtype=torch.bool).triu(1), float("-inf"))
        p = torch.exp(scores - lse[..., :s, None])
        dv = p.transpose(-1, -2) @ go
        dp = go @ vf.transpose(-1, -2)
        ds = p * (dp - (go * of).sum(-1, keepdim=True)) / math.sqrt(d)
        dq, dk = ds @ kf, ds.transpose(-1, -2) @ qf

        def fold(x):  # sum the gradients of repeated KV heads back onto their KV head
            return x.view(b, heads // rep, rep, s, d).sum(2) if rep > 1 else x

        return (dq.transpose(1, 2).to(q.dtype), fold(dk).transpose(1, 2).to(k.dtype),
                fold(dv).transpose(1, 2).to(v.dtype), None, None, None)


class Norm(nn.Module):
    """nn.LayerNorm in the module's dtype (GPT-2), or HF's LlamaRMSNorm (fp32 upcast)."""

    def __init__(self, kind, h, name, counter):
        super().__init__()
        self.kind, self.name, self.counter = kind, name, counter
        self.weight = nn.Parameter(torch.ones(h, dtype=DTYPE))
        self.bias = nn.Parameter(torch.zeros(h, dtype=DTYPE)) if kind == "layernorm" else None

    def forward(self, x):
        op = self.counter.op
        if self.kind == "layernorm":
            with op(self.name + " norm input"):
                return F.layer_norm(x, x.shape[-1:], self.weight, self.bias, 1e-5)
        with op(self.name + " norm fp32 input"):
            hidden = x.to(torch.float32)
            squares = hidden.pow(2)
        with op(self.name + " norm mean input (torch 1.13 only)"):
            variance = squares.mean(-1, keepdim=True)
        with op(self.name + " norm statistics"):
            hidden = hidden * torch.rsqrt(variance + 1e-6)
        with op(self.name + " norm normalized"):
            return self.weight * hidden.to(x.dtype)


def dropout(x, p, counter, label):
    if p == 0:
        return x
    with counter.op(label):
        return F.dropout(x, p, training=True)


class Layer(nn.Module):
    """One decoder layer: norm, attention, residual, norm, MLP, residual (GPT2Block / LlamaDecoderLayer)."""

    def __init__(self, row, counter, rope=None):
        super().__init__()
        h, heads, kv, inter = row["h"], row["heads"], row["kv_heads"], row["intermediate"]
        self.row, self.counter, self.rope = row, counter, rope
        self.d = h // heads
        bias = row["norm"] == "layernorm"  # GPT-2's Conv1D layers have biases, Llama's have none

        def linear(i, o):
            return nn.Linear(i, o, bias=bias).to(DTYPE)

        self.norm1 = Norm(row["norm"], h, "attention", counter)
        self.norm2 = Norm(row["norm"], h, "MLP", counter)
        # GPT-2's one fused c_attn; Llama's separate q_proj, k_proj, v_proj (with RoPE, q and k are new tensors
        # and a saved v view of a fused output would keep all of it)
        self.fused = row["norm"] == "layernorm"
        if self.fused:
            self.qkv = linear(h, (heads + 2 * kv) * self.d)
        else:
            self.q, self.k, self.v = linear(h, heads * self.d), linear(h, kv * self.d), linear(h, kv * self.d)
        self.o = linear(h, h)
        if row["mlp"] == "swiglu":
            self.gate, self.up, self.down = linear(h, inter), linear(h, inter), linear(inter, h)
        else:
            self.up, self.down = linear(h, inter), linear(inter, h)

    def attention(self, x):
        row, op, d = self.row, self.counter.op, self.d
        b, s, h = x.shape
        heads, kv, p = row["heads"], row["kv_heads"], row["dropout"]
        with op("attention input (norm output)"):
            if self.fused:
                q, k, v = self.qkv(x).split([heads * d, kv * d, kv * d], dim=-1)
            else:
                q, k, v = self.q(x), self.k(x), self.v(x)
        q, k, v = q.view(b, s, heads, d), k.view(b, s, kv, d), v.view(b, s, kv, d)
        if self.rope is not None:  # HF applies RoPE in [b, heads, s, d]
            cos, sin = self.rope
            with op("attention q, k, v"):
                q, k = (rotate(t.transpose(1, 2), cos, sin).transpose(1, 2) for t in (q, k))
        if row["attention"] == "flash":
            with op("attention q, k, v"):
                out = FlashLike.apply(q, k, v, self.counter, 1, p > 0)
        else:
            with op("attention q, k, v"):
                q, k, v = (t.transpose(1, 2) for t in (q, k, v))  # [b, heads, s, d]
                k, v = repeat_kv(k, heads // kv), repeat_kv(v, heads // kv)
            if row["attention"] == "sdpa":
                with op("attention q, k, v"):
                    out = FlashLike.apply(q.transpose(1, 2), k.transpose(1, 2), v.transpose(1, 2), self.counter, 32,
                                          p > 0)
            else:
                out = self.eager(q, k, v, p)
        with op("attention output (output-projection input)"):
            out = self.o(out.reshape(b, s, h))
        return dropout(out, p, self.counter, "attention output dropout mask")

    def eager(self, q, k, v, p):
        op, d = self.counter.op, self.d
        llama = self.row["norm"] == "rmsnorm"
        with op("attention q, k, v"):
            scores = torch.matmul(q, k.transpose(-1, -2))
            scores = scores * (d ** -0.5) if llama else scores / torch.full([], d ** 0.5, dtype=scores.dtype)
            scores = scores + self.counter.causal_mask
        with op("attention softmax output"):
            if llama:  # HF's Llama: softmax in fp32, cast back
                probs = F.softmax(scores, dim=-1, dtype=torch.float32).to(q.dtype)
            else:
                probs = F.softmax(scores, dim=-1)
        probs = dropout(probs, p, self.counter, "attention dropout mask")
        with op("attention probabilities"):
            out = torch.matmul(probs, v)
        with op("attention output (output-projection input)"):
            return out.transpose(1, 2).contiguous()

    def mlp(self, x):
        op = self.counter.op
        with op("MLP input (norm output)"):
            if self.row["mlp"] == "swiglu":
                gate, up = self.gate(x), self.up(x)
                with op("MLP gate output (SiLU input)"):
                    act = F.silu(gate)
                with op("MLP SiLU output, up output"):
                    inner = act * up
            else:
                up = self.up(x)
                with op("MLP GELU input"):
                    inner = F.gelu(up, approximate="tanh")
        with op("MLP down-projection input"):
            out = self.down(inner)
        return dropout(out, self.row["dropout"], self.counter, "MLP output dropout mask")

    def forward(self, x):
        x = x + self.attention(self.norm1(x))
        return x + self.mlp(self.norm2(x))


def repeat_kv(x, rep):
    """HF's repeat_kv, always copying (see the module docstring)."""
    if rep == 1:
        return x
    b, kv, s, d = x.shape
    return x[:, :, None].expand(b, kv, rep, s, d).contiguous().view(b, kv * rep, s, d)


def rotate(x, cos, sin):
    half = x.shape[-1] // 2
    rotated = torch.cat((-x[..., half:], x[..., :half]), dim=-1)
    return x * cos + rotated * sin


def measure_layer(row):
    torch.manual_seed(0)
    b, s, h, heads = row["b"], row["s"], row["h"], row["heads"]
    d = h // heads
    mask = torch.full((s, s), float("-inf"), dtype=DTYPE).triu(1)  # HF builds it once per model
    rope = None
    if row["norm"] == "rmsnorm":  # Llama family: RoPE, cos/sin [b, 1, s, d] from position_ids [b, s]
        inv = 1.0 / (10000 ** (torch.arange(0, d, 2).float() / d))
        angles = torch.outer(torch.arange(s).float(), inv)
        emb = torch.cat((angles, angles), dim=-1)
        rope = tuple(f(emb)[None, None].expand(b, 1, s, d).contiguous().to(DTYPE) for f in (torch.cos, torch.sin))
    counter = SavedBytes((b, s, heads, d), excluded=[mask], once_per_model=rope if rope else ())
    counter.causal_mask = mask
    layer = Layer(row, counter, rope)
    for param in layer.parameters():
        counter.excluded.add(storage_of(param)[0])
    x = torch.randn(b, s, h, dtype=DTYPE, requires_grad=True)
    with counter.hooks(row["norm"]):
        y = layer(x)
    measured, gpu, by_op = counter.totals()
    del y
    return measured, gpu, by_op


def measure_loss(row):
    """Saved bytes and allocator peak of HF's standard loss over bf16 logits."""
    from torch.profiler import ProfilerActivity, profile
    torch.manual_seed(0)
    b, s, h, v = row["b"], row["s"], row["h"], row["vocab"]
    weight = nn.Parameter(torch.randn(v, h, dtype=DTYPE) * 0.02)
    hidden = torch.randn(b, s, h, dtype=DTYPE, requires_grad=True)
    labels = torch.randint(0, v, (b, s))
    counter = SavedBytes((b, s, 1, 1), excluded=[weight, labels])
    with profile(activities=[ProfilerActivity.CPU], profile_memory=True) as prof:
        with counter.hooks():
            with counter.op("loss: lm_head input"):
                logits = F.linear(hidden, weight)
            with counter.op("loss: fp32 log-softmax output"):
                shift = F.pad(labels, (0, 1), value=-100)[..., 1:].contiguous()
                loss = F.cross_entropy(logits.float().view(-1, v), shift.view(-1), ignore_index=-100,
                                       reduction="sum") / (b * (s - 1))
        measured, gpu, by_op = counter.totals()
        del logits
        loss.backward()
    current = peak = 0
    order = [e for e in prof.profiler.kineto_results.events() if e.name() == "[memory]"]
    order.sort(key=lambda e: e.start_us())  # stable: events of one microsecond keep their recorded order
    for e in order:
        current += e.nbytes()
        peak = max(peak, current)
    # the hidden states existed before the profile started and stay live through the step
    return measured, gpu, by_op, peak + hidden.numel() * hidden.element_size()


def layer_rows():
    """>= 30 shapes: GPT-2-like (LayerNorm, GELU 4h, head_dim 64) and Llama-like (RMSNorm, SwiGLU,
    head_dim 128), MHA and GQA, three kernels, with and without dropout, two sequence lengths, b 1 and 2,
    plus mixed norm/MLP pairs. Scaled down (h 512-1024): the coefficient per s.b.h is what is compared."""
    rows = []

    def add(h, heads, kv, inter, mlp, norm, attention, p, s, b):
        rows.append(dict(kind="layer", h=h, heads=heads, kv_heads=kv, intermediate=inter, vocab=0, mlp=mlp,
                         norm=norm, attention=attention, dropout=p, s=s, b=b))

    for attention in ("eager", "sdpa", "flash"):
        for s in (512, 1024):
            add(512, 8, 8, 2048, "gelu", "layernorm", attention, 0.1, s, 1)  # the published GPT-2 block
        add(768, 12, 12, 3072, "gelu", "layernorm", attention, 0.0, 512, 2)
        add(1024, 16, 16, 4096, "gelu", "layernorm", attention, 0.1, 256, 2)
        add(512, 8, 8, 2048, "gelu", "layernorm", attention, 0.0, 1000, 1)  # s not a multiple of 32
        for s in (512, 1024):
            add(512, 4, 4, 1376, "swiglu", "rmsnorm", attention, 0.0, s, 1)  # Llama-7B-shaped, I = 2.6875h
            add(1024, 8, 1, 3584, "swiglu", "rmsnorm", attention, 0.0, s, 1)  # Llama-70B-shaped, GQA 8:1
        add(1024, 8, 2, 2816, "swiglu", "rmsnorm", attention, 0.0, 512, 2)  # GQA 4:1
        add(1024, 8, 4, 2816, "swiglu", "rmsnorm", attention, 0.1, 256, 1)  # GQA 2:1, dropout
        add(768, 12, 12, 2048, "swiglu", "layernorm", attention, 0.0, 512, 1)  # LayerNorm + SwiGLU
        add(512, 4, 4, 2048, "gelu", "rmsnorm", attention, 0.0, 512, 1)  # RMSNorm + GELU
    return rows


def loss_rows():
    rows = []
    for h, v, s, b in ((512, 8192, 256, 1), (512, 32000, 256, 1), (768, 50257, 128, 2), (1024, 32000, 512, 1)):
        rows.append(dict(kind="loss", h=h, heads=0, kv_heads=0, intermediate=0, vocab=v, mlp="-", norm="-",
                         attention="-", dropout=0.0, s=s, b=b))
    return rows


# The research notes' figures (shared/knowledge/ground-truth.md, "Activation memory"): coefficient of s.b.h,
# measured on the CPU with torch 1.13, and the corrected GPU/torch-2 figure where one is given.
PUBLISHED = [
    (dict(h=512, heads=8, kv_heads=8, intermediate=2048, mlp="gelu", norm="layernorm", attention="eager",
          dropout=0.1, s=512, b=1), 84.02, 74.02),
    (dict(h=512, heads=8, kv_heads=8, intermediate=2048, mlp="gelu", norm="layernorm", attention="eager",
          dropout=0.1, s=1024, b=1), 132.02, 114.02),
    (dict(h=512, heads=4, kv_heads=4, intermediate=1376, mlp="swiglu", norm="rmsnorm", attention="eager",
          dropout=0.0, s=512, b=1), 78.52, None),
    (dict(h=512, heads=4, kv_heads=4, intermediate=1376, mlp="swiglu", norm="rmsnorm", attention="eager",
          dropout=0.0, s=1024, b=1), 102.52, None),
    (dict(h=512, heads=4, kv_heads=4, intermediate=1376, mlp="swiglu", norm="rmsnorm", attention="flash",
          dropout=0.0, s=512, b=1), 54.55, 45.6),
    (dict(h=1024, heads=8, kv_heads=1, intermediate=3584, mlp="swiglu", norm="rmsnorm", attention="eager",
          dropout=0.0, s=512, b=1), 84.51, None),
    (dict(h=1024, heads=8, kv_heads=1, intermediate=3584, mlp="swiglu", norm="rmsnorm", attention="flash",
          dropout=0.0, s=512, b=1), 57.04, 48.5),
]


def check_published(results):
    failures = 0
    for shape, cpu_coeff, gpu_coeff in PUBLISHED:
        key = tuple(shape[c] for c in ("h", "heads", "kv_heads", "intermediate", "mlp", "norm", "attention",
                                       "dropout", "s", "b"))
        measured, gpu = results[key]
        sbh = shape["s"] * shape["b"] * shape["h"]
        pairs = [("measured", measured / sbh, cpu_coeff)] if torch.__version__.startswith("1.13") else []
        if gpu_coeff is not None:
            pairs.append(("GPU/torch-2", gpu / sbh, gpu_coeff))
        for what, got, want in pairs:
            ok = abs(got - want) <= 0.005 * want
            failures += not ok
            print(f"# published {shape['norm']}/{shape['mlp']} {shape['attention']} h={shape['h']} "
                  f"kv={shape['kv_heads']} s={shape['s']}: {what} {got:.2f} sbh, published {want}"
                  f" {'ok' if ok else 'NOT REPRODUCED'}", file=sys.stderr)
    return failures


def check_flash_gradients():
    """FlashLike is a real attention: its output and gradients match autograd through the plain formula."""
    torch.manual_seed(0)
    b, s, heads, kv, d = 2, 16, 4, 2, 8
    q, k, v = (torch.randn(b, s, n, d, dtype=torch.float64, requires_grad=True) for n in (heads, kv, kv))
    out = FlashLike.apply(q, k, v, None, 32, False)
    grads = torch.autograd.grad(out.square().sum(), (q, k, v))
    qt, kt, vt = (t.transpose(1, 2) for t in (q, k, v))
    kt, vt = kt.repeat_interleave(heads // kv, 1), vt.repeat_interleave(heads // kv, 1)
    scores = (qt @ kt.transpose(-1, -2) / math.sqrt(d)).masked_fill(torch.ones(s, s).triu(1).bool(), -math.inf)
    want = (F.softmax(scores, -1) @ vt).transpose(1, 2)
    want_grads = torch.autograd.grad(want.square().sum(), (q, k, v))
    # FlashLike computes in fp32 whatever its inputs, as the kernels do
    close = [torch.allclose(x, y, rtol=1e-4, atol=1e-5) for x, y in zip((out,) + grads, (want,) + want_grads)]
    ok = all(close)
    print("# flash-like attention: output and gradients match eager: " + ("ok" if ok else "NO"), file=sys.stderr)
    return 0 if ok else 1


def debian_version():
    try:
        return subprocess.run(["dpkg-query", "-W", "-f=${Version}", "python3-torch"], capture_output=True,
                              text=True, check=True).stdout.strip()
    except (OSError, subprocess.CalledProcessError):
        return "unknown"


def generate():
    torch.set_num_threads(1)
    lines, results = [], {}
    for row in layer_rows():
        measured, gpu, by_op = measure_layer(row)
        key = tuple(row[c] for c in ("h", "heads", "kv_heads", "intermediate", "mlp", "norm", "attention",
                                     "dropout", "s", "b"))
        results[key] = (measured, gpu)
        lines.append(format_row(row, measured, gpu, "-", by_op))
    for row in loss_rows():
        measured, gpu, by_op, peak = measure_loss(row)
        lines.append(format_row(row, measured, gpu, peak, by_op))
    return lines, results


def format_row(row, measured, gpu, peak, by_op):
    breakdown = ";".join(f"{name}={n}" for name, n in by_op.items())
    cells = [row["kind"], row["h"], row["heads"], row["kv_heads"], row["intermediate"], row["vocab"], row["mlp"],
             row["norm"], row["attention"], row["dropout"], row["s"], row["b"], "bf16", measured, gpu, peak,
             breakdown]
    return "\t".join(str(c) for c in cells)


def header():
    return [
        f"# Generated by: {sys.executable} tests/reference/saved_activations.py > tests/data/activation-reference.tsv",
        f"# torch {torch.__version__} (Debian python3-torch {debian_version()}), CPU, bf16. Bytes saved for "
        "backward per layer (kind=layer, one micro-batch of b x s) or by the loss step (kind=loss).",
        "# measured_saved_bytes: this torch on the CPU. gpu_saved_bytes: the same tensors as CUDA and torch 2.x "
        "keep them (1-byte dropout masks, fp32 LayerNorm statistics, `mean` saving no input, RoPE cos/sin once "
        "per model). measured_peak_bytes: allocator peak of the loss step (loss rows). gpu_breakdown: "
        "gpu_saved_bytes by operation. See the script's docstring.",
        "\t".join(COLUMNS),
    ]


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--check", action="store_true", help="compare with the committed table instead of printing")
    args = parser.parse_args()
    lines, results = generate()
    failures = check_published(results) + check_flash_gradients()
    if not args.check:
        print("\n".join(header() + lines))
        return 1 if failures else 0
    with open(TABLE, encoding="utf-8") as f:
        text = f.read().splitlines()
    committed = [line for line in text if line.strip() and not line.startswith("#")][1:]
    if f"# torch {torch.__version__} " not in text[1] + " ":
        # another torch saves other tensors on the CPU (1.13's `mean`): compare what stands for the GPU only
        print(f"# {text[1][2:40]}... committed, torch {torch.__version__} here: comparing the GPU columns",
              file=sys.stderr)
        measured = {COLUMNS.index(c) for c in ("measured_saved_bytes", "measured_peak_bytes")}

        def gpu_only(row):
            return [c for i, c in enumerate(row.split("\t")) if i not in measured]

        committed, lines = [gpu_only(r) for r in committed], [gpu_only(r) for r in lines]
    if committed != lines:
        for n, (want, got) in enumerate(zip(committed, lines)):
            if want != got:
                print(f"row {n + 1} differs:\n  committed: {want}\n  generated: {got}", file=sys.stderr)
        if len(committed) != len(lines):
            print(f"{len(committed)} rows committed, {len(lines)} generated", file=sys.stderr)
        failures += 1
    print("activation reference: " + ("OK" if not failures else "FAILED"), file=sys.stderr)
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
