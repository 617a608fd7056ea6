#!/usr/bin/env python3
"""profile_compare.py - the per-kernel profile of PyTorch forward passes on the H100 (bench/gpu/h100_profile.json,
measured by profile_torch.py; not dataset rows) against nnperf's per-layer times, by kind of work.

For each network and batch of the profile, `nnperf analyze models/NET.onnx --hw PLATFORM --dtype fp16 --batch B
--format json` is run and its `layers` are summed by kind; the profile's kernels are summed by the same kinds from
their names. Printed as Markdown: per kind the measured and predicted time (ms) and the error.

Kinds (the profile's kernel names -> kind; nnperf's layers -> kind):
  conv/GEMM   cuDNN/xmma/CUTLASS convolutions, cuDNN's padding kernel and workspace memsets, cuBLAS `nvjet` GEMMs,
              cuDNN's fused attention (sdpa)
              | Conv, ConvTranspose, MatMul, Gemm layers (their time less the bias pass below; a fused attention is
                a MatMul-led layer)
  bias/BN     ATen `batch_norm_transform_input*` kernels
              | the compute.bias_kernel pass of a Conv with a bias (the layer's overhead above the per-layer one:
                one more per-layer cost and 2 x stored bytes over DDR) and BatchNormalization layers; the two
                kernels on BatchNorm's parameters that PyTorch runs before each `batch_norm_transform` kernel
                (a `direct_copy_kernel` and a `vectorized_elementwise_kernel<4, ...>`) count as bias/BN too
  eltwise     ATen's vectorized element-wise kernels (ReLU, Clamp, Add, GELU, ...)
              | Relu, Clip, Add, Mul, Sub, Div, Sigmoid, HardSwish, HardSigmoid, Gelu, Erf, Tanh, SiLU, ... layers
  copy        ATen's generic strided `elementwise_kernel<128, 4, gpu_kernel_impl_nocast ...>` (a .contiguous() copy
              of a permuted or rolled view: the kernel name does not say which; read as a copy), CatArrayBatchedCopy,
              direct_copy_kernel, DtoD memcpy, roll, index/gather kernels
              | Concat, and layers of views (compute.view_ops: 0, PyTorch's views launch no kernel; the copies a later
                operator makes are not counted by the runtime file)
  other       LayerNorm, softmax, pooling, reductions, everything else | every other layer (LayerNorm: ReduceMean-led)

usage: python3 bench/gpu/profile_compare.py [--nnperf build/nnperf] [--hw presets/runtimes/h100-sxm-pytorch.yaml]
       [--profile bench/gpu/h100_profile.json] [--set KEY=VALUE ...] [--counts]
--counts prints the number of kernels per kind instead of their time (measured / nnperf's), all kinds together
first. Below the time table: the sums of |ln(predicted / measured)| over the 8 cells (the CUDA-graph time), over the
batch-1 cells, and per kind over the cells where both are above 0 (the numbers the adoption rules in
bench/RESULTS.md judge).
"""
import argparse
import json
import math
import os
import subprocess
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from rows_from_measure import model_path  # noqa: E402  (models/ or bench/fidelity/data/models/)

ROOT = os.path.normpath(os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", ".."))
KINDS = ["conv/GEMM", "bias/BN", "eltwise", "copy", "other"]

MATMUL_OPS = {"Conv", "ConvTranspose", "MatMul", "Gemm", "ConvInteger", "MatMulInteger", "QLinearConv",
              "QLinearMatMul"}
ELTWISE_OPS = {"Relu", "LeakyRelu", "PRelu", "Clip", "Add", "Mul", "Sub", "Div", "Sigmoid", "HardSwish",
               "HardSigmoid", "Gelu", "Erf", "Tanh", "SiLU", "Swish", "Mish", "Pow", "Sqrt", "Neg", "Abs", "Exp",
               "Where", "Max", "Min", "Cast", "Elu", "Selu", "Softplus"}
COPY_OPS = {"Concat", "Transpose", "Reshape", "Flatten", "Squeeze", "Unsqueeze", "Slice", "Split", "Expand",
            "Identity", "Gather", "Pad", "Tile"}


def kernel_kind(name):
    """the kind of one profiled kernel, from its (truncated) name"""
    n = name
    if ("xmma" in n or "cutlass" in n or "nvjet" in n or "cudnn" in n or "conv2d_" in n or "convolve_" in n
            or "nhwcAddPadding" in n or n.startswith("Memset")):
        return "conv/GEMM"
    if "batch_norm" in n:
        return "bias/BN"
    if ("gpu_kernel_impl_nocast" in n or "CatArray" in n or "direct_copy" in n or "Memcpy" in n or "roll_" in n
            or "index_elementwise" in n or "gather" in n):
        return "copy"
    if "elementwise" in n:
        return "eltwise"
    return "other"


def kinds_of(kernels):
    """(name, us, kind) of each kernel in order; the two kernels PyTorch runs on BatchNorm's parameters just before
    its `batch_norm_transform` kernel (a `direct_copy_kernel` then a `vectorized_elementwise_kernel<4, ...>`) are
    bias/BN (they are part of the BatchNorm, not of the network's element-wise or copy work)"""
    out = [[n, us, kernel_kind(n)] for n, us in kernels]
    for i, (n, _, k) in enumerate(out):
        if k == "bias/BN" and i >= 2 and "direct_copy" in out[i - 2][0] and \
                "vectorized_elementwise_kernel<4" in out[i - 1][0]:
            out[i - 2][2] = out[i - 1][2] = "bias/BN"
    return out


def per_layer_s(a):
    """a function of a layer's class giving its per-kernel cost in us: overhead.per_layer_class_s where it lists the
    class (conv_depthwise: conv_grouped's, then conv's), else overhead.per_layer_s (`nnperf hw show`)"""
    r = subprocess.run([a.nnperf, "hw", "show", a.hw] + sum((["--set", s] for s in a.set), []),
                       capture_output=True, text=True)
    base, by_class = None, {}
    for line in r.stdout.splitlines():
        t = line.split("#")[0].strip()
        if t.startswith("per_layer_s:"):
            base = float(t.split(":")[1])
        elif t.startswith("per_layer_class_s:"):
            for kv in filter(None, t.split(":", 1)[1].strip(" {}").split(",")):
                k, v = kv.split(":")
                by_class[k.strip()] = float(v)
    if base is None:
        sys.exit(f"{a.nnperf} hw show {a.hw}: no overhead.per_layer_s (exit {r.returncode}: {r.stderr.strip()})")

    def of(klass):
        for k in {"conv_depthwise": [klass, "conv_grouped", "conv"], "conv_grouped": [klass, "conv"]}.get(klass,
                                                                                                        [klass]):
            if k in by_class:
                return by_class[k] * 1e6
        return base * 1e6
    return of


def analyze_json(a, model, batch):
    """nnperf's JSON report of models/MODEL.onnx at FP16 and this batch on a.hw (with a.set's --set keys)"""
    cmd = [a.nnperf, "analyze", os.path.join(ROOT, model_path(model)), "--hw", a.hw, "--dtype", "fp16",
           "--batch", str(batch), "--format", "json"]
    for s in a.set:
        cmd += ["--set", s]
    r = subprocess.run(cmd, capture_output=True, text=True)
    if r.returncode != 0:
        sys.exit(f"{' '.join(cmd)}: exit {r.returncode}: {r.stderr.strip()}")
    return json.loads(r.stdout)


def predicted(a, model, batch, base_us):
    d = analyze_json(a, model, batch)
    t = dict.fromkeys(KINDS, 0.0)
    n = dict.fromkeys(KINDS, 0)  # kernels: a layer that takes time is one, a conv's bias pass one more
    for L in d["layers"]:
        ops = [L["op"]]
        if L["op"] in MATMUL_OPS:
            bias = max(L["overhead_us"] - base_us(L["class"]), 0.0) if L["op"] in ("Conv", "ConvTranspose") else 0.0
            t["conv/GEMM"] += L["time_us"] - bias
            t["bias/BN"] += bias
            n["conv/GEMM"] += 1
            n["bias/BN"] += bias > 0
            continue
        if L["op"] == "BatchNormalization":
            k = "bias/BN"
        elif all(o in ELTWISE_OPS for o in ops):
            k = "eltwise"
        elif all(o in COPY_OPS for o in ops):
            k = "copy"
        else:
            k = "other"
        t[k] += L["time_us"]
        n[k] += L["time_us"] > 0
    return {k: v / 1e3 for k, v in t.items()}, d["summary"]["latency_ms"], n


def err(p, m):
    return f"{(p / m - 1) * 100:+.0f}%" if m > 0 else "-"


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--nnperf", default=os.path.join(ROOT, "build", "nnperf"))
    ap.add_argument("--hw", default=os.path.join(ROOT, "presets", "runtimes", "h100-sxm-pytorch.yaml"))
    ap.add_argument("--profile", default=os.path.join(ROOT, "bench", "gpu", "h100_profile.json"))
    ap.add_argument("--set", action="append", default=[], help="KEY=VALUE passed to nnperf (repeat it)")
    ap.add_argument("--counts", action="store_true",
                    help="kernels per kind (measured / predicted: layers that take time, a bias pass one more)")
    a = ap.parse_args()
    base_us = per_layer_s(a)
    with open(a.profile) as f:
        prof = json.load(f)
    cell = "{} meas / pred" if a.counts else "{} meas / pred (err)"
    print("| network | batch | graph ms | predicted ms | " + ("kernels meas / pred" if a.counts else "error") + " | "
          + " | ".join(cell.format(k) for k in KINDS) + " |")
    print("|---|---:|---:|---:|---:|" + "---:|" * len(KINDS))
    lg = {"all": 0.0, "batch 1": 0.0}
    lk = dict.fromkeys(KINDS, 0.0)
    for e in prof:
        meas = dict.fromkeys(KINDS, 0.0)
        count = dict.fromkeys(KINDS, 0)
        for name, us, kind in kinds_of(e["kernels"]):
            meas[kind] += us / 1e3
            count[kind] += 1
        pred, total, npred = predicted(a, e["model"], e["batch"], base_us)
        if a.counts:
            cells = [f"{count[k]} / {npred[k]}" for k in KINDS]
            print(f"| {e['model']} | {e['batch']} | {e['graph_ms']:.3f} | {total:.3f} | {len(e['kernels'])} / "
                  f"{sum(npred.values())} | " + " | ".join(cells) + " |")
            continue
        d = abs(math.log(total / e["graph_ms"]))
        lg["all"] += d
        lg["batch 1"] += d if e["batch"] == 1 else 0
        for k in KINDS:
            lk[k] += abs(math.log(pred[k] / meas[k])) if pred[k] > 0 and meas[k] > 0 else 0
        cells = [f"{meas[k]:.3f} / {pred[k]:.3f} ({err(pred[k], meas[k])})" for k in KINDS]
        print(f"| {e['model']} | {e['batch']} | {e['graph_ms']:.3f} | {total:.3f} | {err(total, e['graph_ms'])} | "
              + " | ".join(cells) + " |")
    if not a.counts:
        print(f"\nsum |ln(pred/graph)|: {len(prof)} cells {lg['all']:.3f}, batch-1 cells {lg['batch 1']:.3f}; "
              "per kind " + ", ".join(f"{k} {lk[k]:.2f}" for k in KINDS))


if __name__ == "__main__":
    main()
