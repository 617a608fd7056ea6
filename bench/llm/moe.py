#!/usr/bin/python3
"""A Mixtral-8x7B-shaped decoder (ONNX Runtime GenAI's attention, fp16) with its mixture of experts in three forms
(bench/llm/make_graphs.py --moe): com.microsoft MoE (contrib), a dense export (every expert on every token,
weighted by the scattered routing weights) and the eager export (TopK -> NonZero -> Gather -> expert -> ScatterND),
predicted by `nnperf llm` on a100-80gb (device memory set to 1 PB: 93 GB of fp16 weights do not fit in 80 GB, and
the times do not depend on it), prompt 128, 16 generated tokens, batch 1 and 8. Prints TTFT, TPOT, the decode
step's expert weight traffic (DDR bytes of its MoE layers) against E x (1 - (1 - k/E)^tokens) experts, and at
batch 1 the 2-active-experts analytic cost: (the weights one token reads: everything but the experts, the
embedding's one row, 2 of 8 experts per layer; and the KV cache) / (2,039 GB/s x 0.8) + the decode step's kernels
x 5 us (the preset's assumptions).

    python3 bench/llm/moe.py [NNPERF]        (default build/nnperf; builds the graphs when missing)
"""
import json
import os
import subprocess
import sys

NN = sys.argv[1] if len(sys.argv) > 1 else "build/nnperf"
OUT = "bench/out/llm/moe"
FORMS = ["contrib", "dense", "eager"]
D, L, F, E, K, V, KVH, HD = 4096, 32, 14336, 8, 2, 32000, 8, 128
PROMPT, GEN = 128, 16
BW = 2039e9 * 0.8


def run(form, batch):
    out = subprocess.run([NN, "llm", f"{OUT}/mixtral-8x7b-{form}.onnx", "--hw", "a100-80gb", "--set",
                          "memory.ddr_bytes=1e15", "--prompt", str(PROMPT), "--generate", str(GEN), "--batch",
                          str(batch), "--format", "json"], capture_output=True, text=True, check=True)
    return json.loads(out.stdout)


def main():
    os.chdir(os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", ".."))
    for f in FORMS:
        if not os.path.exists(f"{OUT}/mixtral-8x7b-{f}.onnx"):
            subprocess.run(["/usr/bin/python3", "bench/llm/make_graphs.py", "--model", "mixtral-8x7b", "--layout",
                            "genai", "--moe", f, "-o", f"{OUT}/mixtral-8x7b-{f}.onnx"], check=True,
                           stdout=subprocess.DEVNULL)
    expert = 3 * D * F * 2  # one expert's fp16 weights
    print("| form | batch | TTFT ms | TPOT ms | expert weight bytes per decode step | expected | layers |")
    print("|---|---:|---:|---:|---:|---:|---:|")
    base = {}
    for batch in (1, 8):
        touched = E * (1 - (1 - K / E) ** batch)
        want = touched * expert * L
        for f in FORMS:
            d = run(f, batch)
            r = d["rows"][0]
            moe = sum(x["ddr_bytes"] for x in d["decode"]["layers"] if x["op"] == "MoE")
            print(f"| {f} | {batch} | {r['ttft_ms']:.3f} | {r['tpot_ms']:.3f} | {moe:,.0f} | {want:,.0f} "
                  f"({touched:.3f} experts) | {len(d['decode']['layers'])} |")
            base[(f, batch)] = (r, len(d["decode"]["layers"]))
    # the 2-active-experts analytic decode step at batch 1 (the first step: past PROMPT tokens, PROMPT + 1 read)
    attn = D * D * 2 + D * KVH * HD * 2
    per_layer = attn + D * E + 2 * D + K * 3 * D * F
    weights = (L * per_layer + D * V + D + D) * 2
    kv = 2 * L * KVH * HD * (PROMPT + 1) * 2
    kernels = base[("contrib", 1)][1]
    t = (weights + kv) / BW * 1e3
    print(f"\n2 active experts, batch 1: {weights + kv:,.0f} bytes / {BW / 1e9:.1f} GB/s = {t:.3f} ms; "
          f"+ {kernels} kernels x 5 us = {t + kernels * 5e-3:.3f} ms")
    for f in FORMS:
        r = base[(f, 1)][0]
        print(f"  {f}: TPOT first {r['tpot_first_ms']:.3f} ms: {100 * (r['tpot_first_ms'] / t - 1):+.1f}% of the "
              f"bytes alone, {100 * (r['tpot_first_ms'] / (t + kernels * 5e-3) - 1):+.1f}% with the kernels")


if __name__ == "__main__":
    main()
