#!/usr/bin/python3
"""Build weight-free decoder-only LLM graphs (ONNX) from public model configurations, in two layouts.

Developer and bench tool (CI never runs it; ctest uses the tiny graphs it wrote into tests/llm/). Requires Debian's
python3-onnx (onnx 1.12) and python3-numpy; run it with the system interpreter:

    /usr/bin/python3 bench/llm/make_graphs.py --model llama-7b --layout hf -o bench/out/llama-7b-hf.onnx
    /usr/bin/python3 bench/llm/make_graphs.py --all bench/out/llm          # every model in both layouts
    /usr/bin/python3 bench/llm/make_graphs.py --tiny tests/llm             # the small graphs ctest reads

Layouts
-------
hf      What torch.onnx.export makes of a Hugging Face eager decoder with past key/values (Optimum's I/O names):
        inputs input_ids [batch_size, sequence_length], attention_mask [batch_size, past_sequence_length +
        sequence_length], position_ids [batch_size, sequence_length] (Llama, GPT-2), past_key_values.N.key/value
        [batch_size, kv_heads, past_sequence_length, head_dim]; outputs logits and present.N.key/value. Every
        .view()/.reshape() gets its target shape from Shape -> Gather -> Unsqueeze -> Concat on runtime tensors,
        the causal mask is built from Range/ConstantOfShape/Where, RMSNorm is decomposed (Pow, ReduceMean, Add,
        Sqrt, Div, Mul), rotary embedding slices a cos/sin cache and gathers it by position_ids, grouped-query
        attention materialises the K/V repeat (Unsqueeze -> Expand -> Reshape), and the past is concatenated with
        the new token(s) into present.
genai   The layout of ONNX Runtime GenAI's model builder: inputs input_ids [batch_size, sequence_length],
        attention_mask [batch_size, total_sequence_length], past_key_values.N.key/value [batch_size, kv_heads,
        past_sequence_length, head_size]; SimplifiedLayerNormalization (default domain) for the first norm,
        com.microsoft SkipSimplifiedLayerNormalization for the others, com.microsoft GroupQueryAttention with the
        rotary embedding inside (do_rotary, cos/sin caches), MatMul (fp16) or com.microsoft MatMulNBits (int4,
        block 32) projections, seqlens_k / total_sequence_length from the attention mask. Llama-family models only.

Weights are never materialised: every initializer above 1024 bytes is written as an external-data reference to
"<name>.weights", which is never written (like models/make_models.py's stripped exports). nnperf never needs it.

Configurations (the models' published config.json values):
    llama-7b        hidden 4096, 32 layers, 32 heads, 32 KV heads, FFN 11008, vocab 32000, RMSNorm, RoPE
    llama-3-8b      hidden 4096, 32 layers, 32 heads, 8 KV heads, FFN 14336, vocab 128256
    tinyllama-1.1b  hidden 2048, 22 layers, 32 heads, 4 KV heads, FFN 5632, vocab 32000
    opt-13b         hidden 5120, 40 layers, 40 heads, FFN 20480, vocab 50272, LayerNorm, learned positions (2050),
                    ReLU, biases, tied embeddings (hf only)
    gpt2            hidden 768, 12 layers, 12 heads, FFN 3072, vocab 50257, 1024 positions, gelu_new, fused QKV,
                    tied embeddings (hf only)
"""

import argparse
import math
import os
import sys

import numpy as np
import onnx
from onnx import TensorProto, helper, numpy_helper

CONFIGS = {
    "llama-7b": dict(family="llama", hidden=4096, layers=32, heads=32, kv_heads=32, ffn=11008, vocab=32000,
                     max_pos=4096, eps=1e-6, tied=False),
    "llama-3-8b": dict(family="llama", hidden=4096, layers=32, heads=32, kv_heads=8, ffn=14336, vocab=128256,
                       max_pos=8192, eps=1e-5, tied=False),
    "tinyllama-1.1b": dict(family="llama", hidden=2048, layers=22, heads=32, kv_heads=4, ffn=5632, vocab=32000,
                           max_pos=2048, eps=1e-5, tied=False),
    "opt-13b": dict(family="opt", hidden=5120, layers=40, heads=40, kv_heads=40, ffn=20480, vocab=50272,
                    max_pos=2048, eps=1e-5, tied=True),
    "gpt2": dict(family="gpt2", hidden=768, layers=12, heads=12, kv_heads=12, ffn=3072, vocab=50257, max_pos=1024,
                 eps=1e-5, tied=True),
    # issue 20's acceptance models (the Hugging Face config.json values, as in tests/data/llm/configs/): the genai
    # layout of each, to compare with `nnperf llm --config` (bench/llm/config_vs_onnx.sh)
    "llama-3.1-8b": dict(family="llama", hidden=4096, layers=32, heads=32, kv_heads=8, ffn=14336, vocab=128256,
                         max_pos=131072, eps=1e-5, tied=False),
    "llama-3-70b": dict(family="llama", hidden=8192, layers=80, heads=64, kv_heads=8, ffn=28672, vocab=128256,
                        max_pos=8192, eps=1e-5, tied=False),
    "qwen2.5-7b": dict(family="llama", hidden=3584, layers=28, heads=28, kv_heads=4, ffn=18944, vocab=152064,
                       max_pos=131072, eps=1e-6, tied=False, qkv_bias=True),
    "mixtral-8x7b": dict(family="llama", hidden=4096, layers=32, heads=32, kv_heads=8, ffn=14336, vocab=32000,
                         max_pos=32768, eps=1e-5, tied=False, experts=8, top_k=2),
    # the 2-active-experts reference of Mixtral-8x7B: 2 experts, both run on every token (with --moe dense)
    "mixtral-8x7b-2e": dict(family="llama", hidden=4096, layers=32, heads=32, kv_heads=8, ffn=14336, vocab=32000,
                            max_pos=32768, eps=1e-5, tied=False, experts=2, top_k=2),
    # tiny configurations for ctest (same structure, small dims)
    "tiny-llama": dict(family="llama", hidden=64, layers=2, heads=4, kv_heads=2, ffn=160, vocab=256, max_pos=512,
                       eps=1e-5, tied=False),
    "tiny-mixtral": dict(family="llama", hidden=64, layers=2, heads=4, kv_heads=2, ffn=96, vocab=256, max_pos=512,
                         eps=1e-5, tied=False, experts=4, top_k=2),
    "tiny-opt": dict(family="opt", hidden=64, layers=2, heads=4, kv_heads=4, ffn=256, vocab=256, max_pos=512,
                     eps=1e-5, tied=True),
    "tiny-gpt2": dict(family="gpt2", hidden=64, layers=2, heads=4, kv_heads=4, ffn=256, vocab=256, max_pos=512,
                      eps=1e-5, tied=True),
    # small configurations for the layout-equality tests (tests/unit/test_decoder.c): big enough that the KV cache
    # traffic of a long context dominates a decode step, grouped-query (4 query heads per KV head) and multi-head
    "small-gqa": dict(family="llama", hidden=512, layers=2, heads=8, kv_heads=2, ffn=1024, vocab=1024,
                      max_pos=4096, eps=1e-5, tied=False),
    "small-mha": dict(family="llama", hidden=512, layers=2, heads=8, kv_heads=8, ffn=1024, vocab=1024,
                      max_pos=4096, eps=1e-5, tied=False),
}

B, S, P = "batch_size", "sequence_length", "past_sequence_length"
TOTAL_HF = "past_sequence_length + sequence_length"
TOTAL_GENAI = "total_sequence_length"


class G:
    """A graph under construction: nodes, initializers (stripped above 1 KiB), inputs and outputs."""

    def __init__(self, name, weights_file):
        self.name = name
        self.nodes, self.inits, self.inputs, self.outputs = [], [], [], []
        self.n = 0
        self.weights_file = weights_file
        self.offset = 0
        self.consts = {}

    def node(self, op, inputs, n_out=1, name=None, domain="", outputs=None, **attrs):
        self.n += 1
        name = name or f"/{op}_{self.n}"
        outs = outputs or [f"{name}/output_{i}" for i in range(n_out)]
        self.nodes.append(helper.make_node(op, inputs, outs, name=name, domain=domain or None, **attrs))
        return outs[0] if len(outs) == 1 else outs

    def weight(self, name, dims, dtype):
        t = TensorProto()
        t.name = name
        t.dims.extend(dims)
        t.data_type = dtype
        size = int(np.prod(dims)) * {TensorProto.FLOAT16: 2, TensorProto.FLOAT: 4, TensorProto.UINT8: 1,
                                     TensorProto.INT64: 8, TensorProto.BOOL: 1}[dtype]
        if size <= 1024:
            arr = np.zeros(dims, dtype=onnx.mapping.TENSOR_TYPE_TO_NP_TYPE[dtype])
            t = numpy_helper.from_array(arr, name)
        else:
            t.data_location = TensorProto.EXTERNAL
            for k, v in (("location", self.weights_file), ("offset", str(self.offset)), ("length", str(size))):
                e = t.external_data.add()
                e.key, e.value = k, v
            self.offset += (size + 63) // 64 * 64
        self.inits.append(t)
        return name

    def const(self, values, dtype=TensorProto.INT64):
        key = (tuple(np.ravel(values).tolist()), dtype, np.shape(values))
        if key not in self.consts:
            name = f"const_{len(self.consts)}"
            arr = np.array(values, dtype=onnx.mapping.TENSOR_TYPE_TO_NP_TYPE[dtype])
            self.inits.append(numpy_helper.from_array(arr, name))
            self.consts[key] = name
        return self.consts[key]

    def model(self, opset=17, ms=False):
        graph = helper.make_graph(self.nodes, self.name, self.inputs, self.outputs, self.inits)
        ops = [helper.make_opsetid("", opset)]
        if ms:
            ops.append(helper.make_opsetid("com.microsoft", 1))
        m = helper.make_model(graph, opset_imports=ops, producer_name="nnperf-bench-llm")
        m.ir_version = 8
        return m


# ---------------------------------------------------------------- HF eager layout


def dim_of(g, x, i):
    """Shape(x)[i] as a 1-D tensor (Shape -> Gather -> Unsqueeze), as torch exports x.size(i)."""
    s = g.node("Shape", [x])
    d = g.node("Gather", [s, g.const(i)], axis=0)
    return g.node("Unsqueeze", [d, g.const([0])])


def scalar_dim(g, x, i):
    s = g.node("Shape", [x])
    return g.node("Gather", [s, g.const(i)], axis=0)


def view(g, x, parts):
    """x.view(*parts): parts are 1-D int64 tensors or ints."""
    ins = [p if isinstance(p, str) else g.const([p]) for p in parts]
    return g.node("Reshape", [x, g.node("Concat", ins, axis=0)])


def rmsnorm_hf(g, x, w, eps, dt):
    x32 = g.node("Cast", [x], to=TensorProto.FLOAT) if dt != TensorProto.FLOAT else x
    p = g.node("Pow", [x32, g.const(2.0, TensorProto.FLOAT)])
    m = g.node("ReduceMean", [p], axes=[-1], keepdims=1)
    a = g.node("Add", [m, g.const(eps, TensorProto.FLOAT)])
    r = g.node("Div", [g.const(1.0, TensorProto.FLOAT), g.node("Sqrt", [a])])
    y = g.node("Mul", [x32, r])
    if dt != TensorProto.FLOAT:
        y = g.node("Cast", [y], to=dt)
    return g.node("Mul", [w, y])


def layernorm(g, x, pre, d, dt, eps):
    w = g.weight(f"{pre}.weight", [d], dt)
    b = g.weight(f"{pre}.bias", [d], dt)
    return g.node("LayerNormalization", [x, w, b], axis=-1, epsilon=eps)


def linear(g, x, pre, din, dout, dt, bias):
    y = g.node("MatMul", [x, g.weight(f"{pre}.weight_t", [din, dout], dt)])
    if bias:
        y = g.node("Add", [g.weight(f"{pre}.bias", [dout], dt), y])
    return y


def rotate_half(g, x, hd):
    x1 = g.node("Slice", [x, g.const([0]), g.const([hd // 2]), g.const([3])])
    x2 = g.node("Slice", [x, g.const([hd // 2]), g.const([hd]), g.const([3])])
    return g.node("Concat", [g.node("Neg", [x2]), x1], axis=-1)


def rope_hf(g, x, cos, sin, hd):
    return g.node("Add", [g.node("Mul", [x, cos]), g.node("Mul", [rotate_half(g, x, hd), sin])])


def causal_mask_hf(g, c, ids, past0, attn_mask, dt):
    """HF's _prepare_decoder_attention_mask: a [seq, past+seq] causal mask plus the expanded padding mask."""
    minv = float(np.finfo(np.float16 if dt == TensorProto.FLOAT16 else np.float32).min)
    bsz, seq = dim_of(g, ids, 0), dim_of(g, ids, 1)
    seq_s = scalar_dim(g, ids, 1)
    past = dim_of(g, past0, 2)
    total = g.node("Add", [seq, past])
    full = g.node("ConstantOfShape", [g.node("Concat", [seq, seq], axis=0)],
                  value=helper.make_tensor("v", dt, [1], [minv]))
    cond = g.node("Range", [g.const(0), seq_s, g.const(1)])
    cond1 = g.node("Add", [cond, g.const(1)])
    less = g.node("Less", [cond, g.node("Reshape", [cond1, g.node("Concat", [seq, g.const([1])], axis=0)])])
    causal = g.node("Where", [less, g.const(0.0, dt), full])
    zeros = g.node("ConstantOfShape", [g.node("Concat", [seq, past], axis=0)],
                   value=helper.make_tensor("v", dt, [1], [0.0]))
    causal = g.node("Concat", [zeros, causal], axis=-1)
    causal = g.node("Unsqueeze", [causal, g.const([0, 1])])
    shape4 = g.node("Concat", [bsz, g.const([1]), seq, total], axis=0)
    causal = g.node("Expand", [causal, shape4])
    em = g.node("Unsqueeze", [attn_mask, g.const([1, 2])])
    em = g.node("Expand", [em, shape4])
    em = g.node("Cast", [em], to=dt)
    inv = g.node("Sub", [g.const(1.0, dt), em])
    invb = g.node("Cast", [inv], to=TensorProto.BOOL)
    inv = g.node("Where", [invb, g.const(minv, dt), inv])
    return g.node("Add", [inv, causal])


def attention_hf(g, c, i, x, mask, cos, sin, dt, n_kv_outputs):
    d, h, kvh = c["hidden"], c["heads"], c["kv_heads"]
    hd = d // h
    fam = c["family"]
    pre = f"model.layers.{i}.self_attn"
    bias = fam in ("opt", "gpt2")
    bsz, seq = dim_of(g, x, 0), dim_of(g, x, 1)
    if fam == "gpt2":
        qkv = linear(g, x, f"transformer.h.{i}.attn.c_attn", d, 3 * d, dt, True)
        q, k, v = g.node("Split", [qkv, g.const([d, d, d])], n_out=3, axis=2)
    else:
        q = linear(g, x, f"{pre}.q_proj", d, h * hd, dt, bias)
        k = linear(g, x, f"{pre}.k_proj", d, kvh * hd, dt, bias)
        v = linear(g, x, f"{pre}.v_proj", d, kvh * hd, dt, bias)
    if fam == "opt":
        q = g.node("Mul", [q, g.const(hd ** -0.5, dt)])
    q = g.node("Transpose", [view(g, q, [bsz, seq, h, hd])], perm=[0, 2, 1, 3])
    k = g.node("Transpose", [view(g, k, [bsz, seq, kvh, hd])], perm=[0, 2, 1, 3])
    v = g.node("Transpose", [view(g, v, [bsz, seq, kvh, hd])], perm=[0, 2, 1, 3])
    if fam == "llama":
        q = rope_hf(g, q, cos, sin, hd)
        k = rope_hf(g, k, cos, sin, hd)
    pk, pv = f"past_key_values.{i}.key", f"past_key_values.{i}.value"
    k = g.node("Concat", [pk, k], axis=2, outputs=[f"present.{i}.key"], name=f"/layers.{i}/Concat_k")
    v = g.node("Concat", [pv, v], axis=2, outputs=[f"present.{i}.value"], name=f"/layers.{i}/Concat_v")
    n_kv_outputs.extend([k, v])
    if kvh != h:  # repeat_kv: hidden[:, :, None].expand(b, kvh, n_rep, slen, hd).reshape(b, h, slen, hd)
        rep = h // kvh

        def repeat(t):
            tb, tl = dim_of(g, t, 0), dim_of(g, t, 2)
            e = g.node("Unsqueeze", [t, g.const([2])])
            e = g.node("Expand", [e, g.node("Concat", [tb, g.const([kvh]), g.const([rep]), tl, g.const([hd])],
                                            axis=0)])
            return view(g, e, [tb, g.const([h]), tl, g.const([hd])])

        k, v = repeat(k), repeat(v)
    kt = g.node("Transpose", [k], perm=[0, 1, 3, 2])
    s = g.node("MatMul", [q, kt])
    if fam != "opt":
        s = g.node("Div", [s, g.const(math.sqrt(hd), dt)])
    s = g.node("Add", [s, mask])
    if dt != TensorProto.FLOAT and fam == "llama":
        s = g.node("Cast", [g.node("Softmax", [g.node("Cast", [s], to=TensorProto.FLOAT)], axis=-1)], to=dt)
    else:
        s = g.node("Softmax", [s], axis=-1)
    o = g.node("MatMul", [s, v])
    o = g.node("Transpose", [o], perm=[0, 2, 1, 3])
    o = view(g, o, [bsz, seq, g.const([d])])
    if fam == "gpt2":
        return linear(g, o, f"transformer.h.{i}.attn.c_proj", d, d, dt, True)
    return linear(g, o, f"{pre}.o_proj" if fam == "llama" else f"{pre}.out_proj", d, d, dt, bias)


def gelu_new(g, x, dt):
    x3 = g.node("Pow", [x, g.const(3.0, dt)])
    inner = g.node("Add", [x, g.node("Mul", [g.const(0.044715, dt), x3])])
    t = g.node("Tanh", [g.node("Mul", [g.const(math.sqrt(2 / math.pi), dt), inner])])
    return g.node("Mul", [g.node("Mul", [g.const(0.5, dt), x]), g.node("Add", [g.const(1.0, dt), t])])


def build_hf(c, dt, weights_file):
    fam = c["family"]
    d, L, V, kvh, h = c["hidden"], c["layers"], c["vocab"], c["kv_heads"], c["heads"]
    hd = d // h
    g = G(f"{fam}-hf", weights_file)
    g.inputs.append(helper.make_tensor_value_info("input_ids", TensorProto.INT64, [B, S]))
    g.inputs.append(helper.make_tensor_value_info("attention_mask", TensorProto.INT64, [B, TOTAL_HF]))
    if fam != "opt":
        g.inputs.append(helper.make_tensor_value_info("position_ids", TensorProto.INT64, [B, S]))
    for i in range(L):
        for kv in ("key", "value"):
            g.inputs.append(helper.make_tensor_value_info(f"past_key_values.{i}.{kv}", dt, [B, kvh, P, hd]))
    emb_name = {"llama": "model.embed_tokens.weight", "opt": "model.decoder.embed_tokens.weight",
                "gpt2": "transformer.wte.weight"}[fam]
    emb = g.weight(emb_name, [V, d], dt)
    x = g.node("Gather", [emb, "input_ids"], name="/embed_tokens/Gather")
    cos = sin = None
    if fam == "llama":
        cc = g.weight("model.rotary_emb.cos_cached", [1, 1, c["max_pos"], hd], dt)
        sc = g.weight("model.rotary_emb.sin_cached", [1, 1, c["max_pos"], hd], dt)
        kv_len = g.node("Add", [dim_of(g, "input_ids", 1), dim_of(g, "past_key_values.0.key", 2)])

        def cs(cache):
            t = g.node("Slice", [cache, g.const([0]), kv_len, g.const([2])])
            t = g.node("Squeeze", [g.node("Squeeze", [t, g.const([1])]), g.const([0])])
            t = g.node("Gather", [t, "position_ids"], axis=0)
            return g.node("Unsqueeze", [t, g.const([1])])

        cos, sin = cs(cc), cs(sc)
    elif fam == "opt":  # OPTLearnedPositionalEmbedding: cumsum of the mask, offset 2
        m = g.node("CumSum", ["attention_mask", g.const(1)])
        pos = g.node("Sub", [g.node("Mul", [m, "attention_mask"]), g.const(1)])
        past_len = scalar_dim(g, "past_key_values.0.key", 2)
        pos = g.node("Slice", [pos, g.node("Unsqueeze", [past_len, g.const([0])]), g.const([2 ** 62]),
                               g.const([1])])
        pos = g.node("Add", [pos, g.const(2)])
        pe = g.weight("model.decoder.embed_positions.weight", [c["max_pos"] + 2, d], dt)
        x = g.node("Add", [x, g.node("Gather", [pe, pos], axis=0)])
    else:
        pe = g.weight("transformer.wpe.weight", [c["max_pos"], d], dt)
        x = g.node("Add", [x, g.node("Gather", [pe, "position_ids"], axis=0)])
    mask = causal_mask_hf(g, c, "input_ids", "past_key_values.0.key", "attention_mask", dt)
    kv_out = []
    for i in range(L):
        pre = f"model.layers.{i}"
        if fam == "llama":
            n = rmsnorm_hf(g, x, g.weight(f"{pre}.input_layernorm.weight", [d], dt), c["eps"], dt)
        else:
            n = layernorm(g, x, f"{pre}.ln_1", d, dt, c["eps"])
        x = g.node("Add", [x, attention_hf(g, c, i, n, mask, cos, sin, dt, kv_out)])
        if fam == "llama":
            n = rmsnorm_hf(g, x, g.weight(f"{pre}.post_attention_layernorm.weight", [d], dt), c["eps"], dt)
            gate = linear(g, n, f"{pre}.mlp.gate_proj", d, c["ffn"], dt, False)
            up = linear(g, n, f"{pre}.mlp.up_proj", d, c["ffn"], dt, False)
            a = g.node("Mul", [gate, g.node("Sigmoid", [gate])])
            y = linear(g, g.node("Mul", [a, up]), f"{pre}.mlp.down_proj", c["ffn"], d, dt, False)
        else:
            n = layernorm(g, x, f"{pre}.ln_2", d, dt, c["eps"])
            f1 = linear(g, n, f"{pre}.fc1", d, c["ffn"], dt, True)
            a = g.node("Relu", [f1]) if fam == "opt" else gelu_new(g, f1, dt)
            y = linear(g, a, f"{pre}.fc2", c["ffn"], d, dt, True)
        x = g.node("Add", [x, y])
    if fam == "llama":
        x = rmsnorm_hf(g, x, g.weight("model.norm.weight", [d], dt), c["eps"], dt)
    else:
        x = layernorm(g, x, "model.final_layer_norm", d, dt, c["eps"])
    if c["tied"]:  # lm_head shares the embedding table: F.linear(x, wte) exports as MatMul(x, Transpose(wte))
        wt = g.node("Transpose", [emb], perm=[1, 0], name="/lm_head/Transpose")
        logits = g.node("MatMul", [x, wt], outputs=["logits"], name="/lm_head/MatMul")
    else:
        logits = g.node("MatMul", [x, g.weight("lm_head.weight_t", [d, V], dt)], outputs=["logits"],
                        name="/lm_head/MatMul")
    g.outputs.append(helper.make_tensor_value_info(logits, dt, [B, S, V]))
    for i in range(L):
        for kv in ("key", "value"):
            g.outputs.append(helper.make_tensor_value_info(f"present.{i}.{kv}", dt, [B, kvh, TOTAL_HF, hd]))
    return g.model(opset=17)


# ---------------------------------------------------------------- ORT GenAI layout


def proj_genai(g, x, name, din, dout, dt, int4):
    if not int4:
        return g.node("MatMul", [x, g.weight(f"{name}.weight", [din, dout], dt)], name=f"{name}/MatMul")
    blk = 32
    kb = (din + blk - 1) // blk
    w = g.weight(f"{name}.weight.quant", [dout, kb, blk // 2], TensorProto.UINT8)
    s = g.weight(f"{name}.weight.scales", [dout * kb], dt)
    return g.node("MatMulNBits", [x, w, s], name=f"{name}/MatMulNBits", domain="com.microsoft", K=din, N=dout,
                  bits=4, block_size=blk, accuracy_level=4)


def build_genai(c, dt, weights_file, int4):
    if c["family"] != "llama":
        raise SystemExit("the genai layout is built for Llama-family configurations only")
    d, L, V, kvh, h = c["hidden"], c["layers"], c["vocab"], c["kv_heads"], c["heads"]
    hd = d // h
    g = G("llama-genai", weights_file)
    g.inputs.append(helper.make_tensor_value_info("input_ids", TensorProto.INT64, [B, S]))
    g.inputs.append(helper.make_tensor_value_info("attention_mask", TensorProto.INT64, [B, TOTAL_GENAI]))
    for i in range(L):
        for kv in ("key", "value"):
            g.inputs.append(helper.make_tensor_value_info(f"past_key_values.{i}.{kv}", dt, [B, kvh, P, hd]))
    # attention mask reformatting for GroupQueryAttention
    rs = g.node("ReduceSum", ["attention_mask", g.const([1])], keepdims=1, name="/model/attn_mask_reformat/ReduceSum")
    sk = g.node("Sub", [rs, g.const(1)], name="/model/attn_mask_reformat/Sub")
    seqlens_k = g.node("Cast", [sk], to=TensorProto.INT32, name="/model/attn_mask_reformat/Cast")
    tl = g.node("Gather", [g.node("Shape", ["attention_mask"], name="/model/attn_mask_reformat/Shape"),
                           g.const(1)], axis=0, name="/model/attn_mask_reformat/Gather")
    total = g.node("Cast", [tl], to=TensorProto.INT32, name="/model/attn_mask_reformat/Cast_1")
    cos = g.weight("cos_cache", [c["max_pos"], hd // 2], dt)
    sin = g.weight("sin_cache", [c["max_pos"], hd // 2], dt)
    emb = g.weight("model.embed_tokens.weight", [V, d], dt)
    x = g.node("Gather", [emb, "input_ids"], name="/model/embed_tokens/Gather")
    resid = None
    n = g.node("SimplifiedLayerNormalization", [x, g.weight("model.layers.0.input_layernorm.weight", [d], dt)],
               name="/model/layers.0/input_layernorm/LayerNorm", axis=-1, epsilon=c["eps"], stash_type=1)
    resid = x
    for i in range(L):
        pre = f"/model/layers.{i}"
        q = proj_genai(g, n, f"{pre}/attn/q_proj", d, h * hd, dt, int4)
        k = proj_genai(g, n, f"{pre}/attn/k_proj", d, kvh * hd, dt, int4)
        v = proj_genai(g, n, f"{pre}/attn/v_proj", d, kvh * hd, dt, int4)
        if c.get("qkv_bias"):  # Qwen2: biases on q, k and v (the builder adds them after the MatMul)
            q, k, v = (g.node("Add", [t, g.weight(f"{pre}/attn/{p}.bias", [o], dt)]) for t, p, o in
                       ((q, "q_proj", h * hd), (k, "k_proj", kvh * hd), (v, "v_proj", kvh * hd)))
        a = g.node("GroupQueryAttention",
                   [q, k, v, f"past_key_values.{i}.key", f"past_key_values.{i}.value", seqlens_k, total, cos, sin],
                   name=f"{pre}/attn/GroupQueryAttention", domain="com.microsoft",
                   outputs=[f"{pre}/attn/GroupQueryAttention/output_0", f"present.{i}.key", f"present.{i}.value"],
                   num_heads=h, kv_num_heads=kvh, do_rotary=1, rotary_interleaved=0, scale=1.0 / math.sqrt(hd),
                   local_window_size=-1)[0]
        o = proj_genai(g, a, f"{pre}/attn/o_proj", h * hd, d, dt, int4)
        outs = g.node("SkipSimplifiedLayerNormalization",
                      [o, resid, g.weight(f"model.layers.{i}.post_attention_layernorm.weight", [d], dt)],
                      name=f"{pre}/post_attention_layernorm/SkipLayerNorm", domain="com.microsoft", n_out=4,
                      epsilon=c["eps"])
        n, resid = outs[0], outs[3]
        if c.get("experts") and c.get("moe", "contrib") != "contrib":
            y = MOE_FORMS[c["moe"]](g, c, n, pre, dt)
        elif c.get("experts"):  # the builder's MoE: router logits, com.microsoft MoE over SwiGLU experts
            e, f = c["experts"], c["ffn"]
            router = proj_genai(g, n, f"{pre}/mlp/gate", d, e, dt, False)
            y = g.node("MoE", [n, router, g.weight(f"{pre}/mlp/experts.fc1", [e, f, d], dt), "",
                               g.weight(f"{pre}/mlp/experts.fc2", [e, d, f], dt), "",
                               g.weight(f"{pre}/mlp/experts.fc3", [e, f, d], dt)],
                       name=f"{pre}/mlp/MoE", domain="com.microsoft", k=c["top_k"], activation_type="silu",
                       normalize_routing_weights=1)
        else:
            gate = proj_genai(g, n, f"{pre}/mlp/gate_proj", d, c["ffn"], dt, int4)
            up = proj_genai(g, n, f"{pre}/mlp/up_proj", d, c["ffn"], dt, int4)
            act = g.node("Mul", [gate, g.node("Sigmoid", [gate], name=f"{pre}/mlp/act_fn/Sigmoid")],
                         name=f"{pre}/mlp/act_fn/Mul")
            y = proj_genai(g, g.node("Mul", [act, up], name=f"{pre}/mlp/Mul"), f"{pre}/mlp/down_proj", c["ffn"], d,
                           dt, int4)
        wname = (f"model.layers.{i + 1}.input_layernorm.weight" if i + 1 < L else "model.norm.weight")
        outs = g.node("SkipSimplifiedLayerNormalization", [y, resid, g.weight(wname, [d], dt)],
                      name=(f"/model/layers.{i + 1}/input_layernorm/SkipLayerNorm" if i + 1 < L
                            else "/model/norm/SkipLayerNorm"), domain="com.microsoft", n_out=4, epsilon=c["eps"])
        n, resid = outs[0], outs[3]
    logits = proj_genai(g, n, "/lm_head", d, V, dt, False)
    g.nodes[-1].output[0] = "logits"
    g.outputs.append(helper.make_tensor_value_info("logits", dt, [B, S, V]))
    for i in range(L):
        for kv in ("key", "value"):
            g.outputs.append(helper.make_tensor_value_info(f"present.{i}.{kv}", dt, [B, kvh, TOTAL_GENAI, hd]))
    return g.model(opset=17, ms=True)


def expert_genai(g, c, x, pre, e, dt):
    """one SwiGLU expert of Mixtral (w1 gate, w3 up, w2 down) on the rows x"""
    d, f = c["hidden"], c["ffn"]
    gate = g.node("MatMul", [x, g.weight(f"{pre}/mlp/experts.{e}.w1", [d, f], dt)], name=f"{pre}/mlp/experts.{e}/w1")
    up = g.node("MatMul", [x, g.weight(f"{pre}/mlp/experts.{e}.w3", [d, f], dt)], name=f"{pre}/mlp/experts.{e}/w3")
    act = g.node("Mul", [gate, g.node("Sigmoid", [gate])])
    return g.node("MatMul", [g.node("Mul", [act, up]), g.weight(f"{pre}/mlp/experts.{e}.w2", [f, d], dt)],
                  name=f"{pre}/mlp/experts.{e}/w2")


def router_topk(g, c, x, pre, dt):
    """router logits -> softmax -> top-k probabilities (renormalised) and expert indices"""
    e, k = c["experts"], c["top_k"]
    logits = g.node("MatMul", [x, g.weight(f"{pre}/mlp/gate.weight", [c["hidden"], e], dt)], name=f"{pre}/mlp/gate")
    probs = g.node("Softmax", [logits], axis=-1)
    topv, topi = g.node("TopK", [probs, g.const([k])], n_out=2, axis=-1, name=f"{pre}/mlp/TopK")
    topv = g.node("Div", [topv, g.node("ReduceSum", [topv, g.const([-1])], keepdims=1)])
    return probs, topv, topi


def moe_dense(g, c, n, pre, dt):
    """a dense export: every expert on every token, weighted by the routing weights scattered into [.., E] (zero
    for the experts a token is not routed to) and summed over the experts"""
    e = c["experts"]
    probs, topv, topi = router_topk(g, c, n, pre, dt)
    zeros = g.node("Mul", [probs, g.const(0.0, dt)])
    dense_w = g.node("ScatterElements", [zeros, topi, topv], axis=-1)
    outs = [g.node("Unsqueeze", [expert_genai(g, c, n, pre, i, dt), g.const([2])]) for i in range(e)]
    stack = g.node("Concat", outs, axis=2)
    y = g.node("Mul", [stack, g.node("Unsqueeze", [dense_w, g.const([-1])])])
    return g.node("ReduceSum", [y, g.const([2])], keepdims=0, name=f"{pre}/mlp/ReduceSum")


def moe_eager(g, c, n, pre, dt):
    """torch.onnx.export of Hugging Face's MixtralSparseMoeBlock: one_hot(selected) -> per expert NonZero -> Gather
    of its tokens -> expert -> times its routing weights -> ScatterND (index_add_) into the output"""
    e, d = c["experts"], c["hidden"]
    x2 = g.node("Reshape", [n, g.const([-1, d])])
    probs, topv, topi = router_topk(g, c, x2, pre, dt)
    mask = g.node("OneHot", [topi, g.const([e]), g.const([0, 1])], axis=-1)       # [T, k, E]
    mask = g.node("Transpose", [mask], perm=[2, 1, 0])                             # [E, k, T]
    out = g.node("Mul", [x2, g.const(0.0, dt)])                                      # zeros [T, d]
    for i in range(e):
        nz = g.node("NonZero", [g.node("Gather", [mask, g.const(i)], axis=0)])      # [2, n_i]: slot, token
        idx = g.node("Gather", [nz, g.const(0)], axis=0)
        top_x = g.node("Gather", [nz, g.const(1)], axis=0)
        cur = g.node("Gather", [x2, top_x], axis=0)
        y = expert_genai(g, c, cur, pre, i, dt)
        pair = g.node("Concat", [g.node("Unsqueeze", [top_x, g.const([1])]), g.node("Unsqueeze", [idx, g.const([1])])],
                      axis=1)
        w = g.node("GatherND", [topv, pair])
        y = g.node("Mul", [y, g.node("Unsqueeze", [w, g.const([1])])])
        out = g.node("ScatterND", [out, g.node("Unsqueeze", [top_x, g.const([1])]), y], reduction="add")
    return g.node("Reshape", [out, g.node("Shape", [n])], name=f"{pre}/mlp/Reshape_out")


def moe_qmoe(g, c, n, pre, dt):
    """ONNX Runtime GenAI's int4 MoE: com.microsoft QMoE with 4-bit expert weights (two per uint8) and per-row
    scales"""
    e, f, d = c["experts"], c["ffn"], c["hidden"]
    router = proj_genai(g, n, f"{pre}/mlp/gate", d, e, dt, False)
    ins = [n, router]
    for name, rows, cols in (("fc1", f, d), ("fc2", d, f), ("fc3", f, d)):
        ins += [g.weight(f"{pre}/mlp/experts.{name}.quant", [e, rows, cols // 2], TensorProto.UINT8),
                g.weight(f"{pre}/mlp/experts.{name}.scales", [e, rows], dt), ""]
    return g.node("QMoE", ins[:-1], name=f"{pre}/mlp/QMoE", domain="com.microsoft", k=c["top_k"],
                  activation_type="silu", normalize_routing_weights=1, expert_weight_bits=4)


MOE_FORMS = {"dense": moe_dense, "eager": moe_eager, "qmoe": moe_qmoe}


def build(model, layout, path, weights="fp16", max_pos=None, moe="contrib"):
    c = dict(CONFIGS[model])
    c["moe"] = moe
    if max_pos:  # a longer rotary / position table than the published one (a long-context variant)
        c["max_pos"] = max_pos
    dt = TensorProto.FLOAT16 if weights in ("fp16", "int4") else TensorProto.FLOAT
    wf = os.path.splitext(os.path.basename(path))[0] + ".weights"
    if layout == "hf":
        m = build_hf(c, dt, wf)
    else:
        m = build_genai(c, dt, wf, weights == "int4")
    os.makedirs(os.path.dirname(os.path.abspath(path)), exist_ok=True)
    onnx.save(m, path)
    return len(m.graph.node)


ALL = [("llama-7b", "hf", "fp16"), ("llama-7b", "genai", "fp16"), ("llama-7b", "genai", "int4"),
       ("llama-3-8b", "hf", "fp16"), ("llama-3-8b", "genai", "fp16"), ("tinyllama-1.1b", "hf", "fp16"),
       ("tinyllama-1.1b", "genai", "fp16"), ("tinyllama-1.1b", "genai", "int4"), ("opt-13b", "hf", "fp16"),
       ("gpt2", "hf", "fp16"), ("gpt2", "hf", "fp32")]
TINY = [("tiny-llama", "hf", "fp16"), ("tiny-llama", "genai", "fp16"), ("tiny-llama", "genai", "int4"),
        ("tiny-opt", "hf", "fp16"), ("tiny-gpt2", "hf", "fp32"), ("small-gqa", "hf", "fp16"),
        ("small-gqa", "genai", "fp16"), ("small-mha", "hf", "fp16"), ("small-mha", "genai", "fp16")]
TINY_MOE = [("tiny-mixtral", "dense"), ("tiny-mixtral", "eager"), ("tiny-mixtral", "qmoe")]  # the contrib form is tiny-mixtral-genai.onnx


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--model", choices=sorted(CONFIGS))
    ap.add_argument("--layout", choices=["hf", "genai"], default="hf")
    ap.add_argument("--weights", choices=["fp16", "fp32", "int4"], default="fp16")
    ap.add_argument("-o", "--output")
    ap.add_argument("--all", metavar="DIR", help="every model and layout into DIR")
    ap.add_argument("--tiny", metavar="DIR", help="the tiny ctest graphs into DIR")
    ap.add_argument("--max-pos", type=int, help="positions of the rotary / position table (default: the config's)")
    ap.add_argument("--moe", choices=["contrib", "dense", "eager", "qmoe"], default="contrib",
                    help="a mixture of experts as com.microsoft MoE (default), a dense export (every expert on "
                         "every token, weighted by the scattered routing weights) or the eager export (TopK -> "
                         "NonZero -> Gather -> expert -> ScatterND) or com.microsoft QMoE with 4-bit experts")
    a = ap.parse_args()
    jobs = []
    if a.all:
        jobs += [(m, l, w, os.path.join(a.all, f"{m}-{l}{'-' + w if w != 'fp16' else ''}.onnx")) for m, l, w in ALL]
    if a.tiny:
        jobs += [(m, l, w, os.path.join(a.tiny, f"{m}-{l}{'-' + w if w != 'fp16' else ''}.onnx")) for m, l, w in TINY]
        jobs += [(m, "genai", "fp16", os.path.join(a.tiny, f"{m}-genai-{f}.onnx"), f) for m, f in TINY_MOE]
    if a.model:
        if not a.output:
            ap.error("--model needs -o")
        jobs.append((a.model, a.layout, a.weights, a.output))
    if not jobs:
        ap.error("nothing to do: --model M -o FILE, --all DIR or --tiny DIR")
    for m, l, w, path, *moe in jobs:
        n = build(m, l, path, w, a.max_pos, moe[0] if moe else a.moe)
        print(f"{path}: {m} {l} {w}, {n} nodes")


if __name__ == "__main__":
    sys.exit(main())
