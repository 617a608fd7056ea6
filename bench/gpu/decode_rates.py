#!/usr/bin/env python3
"""decode_rates.py - what PyTorch eager launches for a decoder layer, and what each small kernel costs, read from the
decode-step kernel profile (profile_torch.py --llms; not dataset rows), for the runtime file of that GPU
(bench/gpu/README.md, "Eighth run"):

- the kernels between a layer's matrix products, by place: from the QKV product to attention (rotary embedding of q
  and k, the KV cache writes), from the output projection to the gate/up product (the residual add and the RMSNorm),
  from the down projection to the next layer's QKV product (the same); the median over the layers and cells: the
  kernels `compute.op_kernels` gives GroupQueryAttention (those + the attention kernel) and
  SkipSimplifiedLayerNormalization (those; SimplifiedLayerNormalization one fewer, no residual add). A cuBLAS split-K
  reduction kernel after a product is the product's, not counted.
- overhead.small_kernel_s: the median device time of the kernels that are neither matrix products nor attention,
  over every cell, plus the median over the cells of the graph's time between kernels ((graph time - kernel time) /
  kernels).
- overhead.per_layer_class_s.matmul: the matrix products' kernels (cuBLAS) against the weight bytes each streams
  (the config's QKV, output, gate/up and down matrices of every layer and the LM head, FP16): the intercept of a
  least-squares line of device time on bytes, per cell; the median over the cells (the slope's bandwidth printed).

- overhead.prefill_host_kernel_s: from the eager prefill profile (profile_torch.py --prefill), each 16-token cell's
  host wall time over the kernels it launched (host-bound: its CUDA-graph time is far shorter); their median.

--steps PLATFORM instead: each cell's decode step as `nnperf llm --config` predicts it on PLATFORM (the first step
after a prompt of the cell's context, at its batch) against the cell's CUDA-graph step, and the sum of
|ln(predicted / graph)| over the cells (the number the adoption rules of bench/gpu/README.md judge); --set KEY=VALUE
(repeatable) changes a key of PLATFORM for it.

usage: python3 bench/gpu/decode_rates.py [--profile bench/gpu/h200_profile_decode.json]
       [--prefill bench/gpu/h200_profile_prefill.json] [--steps PLATFORM [--set KEY=VALUE ...] [--nnperf BIN]]
"""
import argparse
import json
import math
import os
import statistics
import subprocess

ROOT = os.path.normpath(os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", ".."))


def kind(name):
    n = name.lower()
    if "splitkreduce" in n:
        return "reduce"
    if any(s in n for s in ("nvjet", "gemm", "cutlass", "xmma")):
        return "gemm"
    if any(s in n for s in ("sdpa", "flash", "fmha", "attention")):
        return "attn"
    return "small"


def segments(kernels):
    """per layer: small kernels from QKV to attention, from the output projection to gate/up, from down to the next
    QKV product"""
    ks = [kind(n) for n, _ in kernels]
    big = [i for i, k in enumerate(ks) if k in ("gemm", "attn")]
    rope, norm = [], []
    # a layer: gemm(qkv) attn gemm(o) gemm(gu) gemm(down); the last gemm of the pass is the LM head
    for j in range(len(big) - 5):
        a, b, c, d, e = (ks[big[j + t]] for t in range(5))
        if (a, b, c, d, e) != ("gemm", "attn", "gemm", "gemm", "gemm"):
            continue
        smalls = lambda lo, hi: sum(1 for i in range(lo + 1, hi) if ks[i] == "small")  # noqa: E731
        rope.append(smalls(big[j], big[j + 1]))
        norm.append(smalls(big[j + 2], big[j + 3]))
        if j + 5 < len(big):
            norm.append(smalls(big[j + 4], big[j + 5]))
    return rope, norm


def gemm_line(c):
    """(intercept us, bandwidth B/s) of the cell's product kernels' device time against their weight bytes"""
    d = json.load(open(os.path.join(ROOT, "tests", "data", "llm", "configs", c["model"] + ".json")))
    h, q = d["hidden_size"], d["num_attention_heads"]
    hd, kv, f = d.get("head_dim") or h // q, d.get("num_key_value_heads", q), d["intermediate_size"]
    xs = [2 * s for s in [h * (q + 2 * kv) * hd, h * q * hd, h * 2 * f, f * h] * d["num_hidden_layers"]]
    xs.append(2 * h * d["vocab_size"])
    ys = [t for name, t in c["kernels"] if kind(name) == "gemm"]
    if len(ys) != len(xs):
        raise SystemExit(f"{c['model']}: {len(ys)} product kernels, {len(xs)} matrices")
    mx, my = statistics.mean(xs), statistics.mean(ys)
    b = sum((x - mx) * (y - my) for x, y in zip(xs, ys)) / sum((x - mx) ** 2 for x in xs)
    return my - b * mx, 1e6 / b


def steps(cells, nnperf, hw, sets):
    """each cell's predicted decode step against its graph step; the sum of |ln| over the cells"""
    total = 0
    for c in cells:
        cmd = [nnperf, "llm", "--config", os.path.join(ROOT, "tests", "data", "llm", "configs", c["model"] + ".json"),
               "--hw", hw, "--prompt", str(c["context"]), "--generate", "2", "--batch", str(c["batch"]),
               "--format", "json"] + [a for kv in sets for a in ("--set", kv)]
        out = subprocess.run(cmd, capture_output=True, text=True)
        if out.returncode:
            raise SystemExit(f"{' '.join(cmd)}: {out.stderr.strip()}")
        pred = json.loads(out.stdout)["summary"]["tpot_first_ms"]
        total += abs(math.log(pred / c["graph_ms"]))
        print(f"{c['model']} batch {c['batch']} context {c['context']}: graph step {c['graph_ms']:.3f} ms, "
              f"predicted {pred:.3f} ms ({100 * (pred / c['graph_ms'] - 1):+.1f}%)")
    print(f"sum |ln(predicted / graph step)| over {len(cells)} cells: {total:.3f}")


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--profile", default=os.path.join(ROOT, "bench", "gpu", "h200_profile_decode.json"))
    ap.add_argument("--prefill", default=os.path.join(ROOT, "bench", "gpu", "h200_profile_prefill.json"))
    ap.add_argument("--steps", metavar="PLATFORM")
    ap.add_argument("--set", action="append", default=[], metavar="KEY=VALUE")
    ap.add_argument("--nnperf", default=os.path.join(ROOT, "build", "nnperf"))
    args = ap.parse_args()
    cells = json.load(open(args.profile))
    if args.steps:
        return steps(cells, args.nnperf, args.steps, args.set)
    rope, norm, small, gaps, icepts = [], [], [], [], []
    for c in cells:
        r, n = segments(c["kernels"])
        rope += r
        norm += n
        small += [t for name, t in c["kernels"] if kind(name) == "small"]
        gaps.append((c["graph_ms"] - c["kernel_sum_ms"]) * 1e3 / c["kernels_per_pass"])
        a, bw = gemm_line(c)
        icepts.append(a)
        print(f"{c['model']} batch {c['batch']} context {c['context']}: {c['kernels_per_pass']} kernels, "
              f"q/k rotary and cache {statistics.median(r):g}, add and norm {statistics.median(n):g} a layer; "
              f"products {a:.2f} us + bytes / {bw / 1e12:.2f} TB/s")
    print(f"GroupQueryAttention: {statistics.median(rope) + 1:g} kernels; SkipSimplifiedLayerNormalization: "
          f"{statistics.median(norm):g}; SimplifiedLayerNormalization: {statistics.median(norm) - 1:g}")
    s, g = statistics.median(small), statistics.median(gaps)
    print(f"overhead.small_kernel_s: {(s + g) * 1e-6:.3e} s (median small kernel {s:.2f} us of {len(small)}, "
          f"median gap {g:.2f} us)")
    print(f"overhead.per_layer_class_s.matmul: {statistics.median(icepts) * 1e-6:.3e} s")
    host = []
    for c in json.load(open(args.prefill)):
        per = c["eager_ms"] / c["kernels_per_pass"] * 1e3
        print(f"{c['model']} prefill of {c['prompt']} tokens: eager {c['eager_ms']:.2f} ms, "
              f"graph {c['graph_ms']:.2f} ms, "
              f"{c['kernels_per_pass']} kernels: {per:.2f} us a kernel")
        if c["prompt"] == 16:
            host.append(per)
    print(f"overhead.prefill_host_kernel_s: {statistics.median(host) * 1e-6:.3e} s (16-token cells)")


if __name__ == "__main__":
    main()
