#!/usr/bin/env python3
"""kernel_costs.py - the fixed cost of one PyTorch kernel by kind, measured at batch 1 on the H100's per-kernel
profile (bench/gpu/h100_profile.json, profile_torch.py; not dataset rows): the values of the runtime file's
`overhead.per_layer_class_s` and `compute.bias_kernel_s` candidates (bench/RESULTS.md, "Per-kernel cost by kind").

For a kind: median device time of its kernels in the 4 batch-1 cells, less the median work nnperf already gives
those layers at batch 1 (compute, memory and, for the bias pass, its bytes at compute.bias_kernel_bandwidth), plus
the graph's idle time per kernel (the median over the batch-1 cells of (CUDA-graph time - sum of kernel times) /
kernels: a replayed graph still leaves a gap between kernels). Kinds:
  eltwise, activation  ATen's `vectorized_elementwise_kernel<8, ...>` (ReLU, ReLU6, Add, GELU, ... of the network;
                       the `<4, ...>` ones work on BatchNorm's parameters) | nnperf's eltwise and activation layers
  conv                 the convolution kernels (profile_compare.py's conv/GEMM kind less memsets and cuDNN's
                       padding kernel) of the two CNNs, ResNet-50 and MobileNet v2 | their Conv layers less the bias
  bias (BatchNorm)     each `batch_norm_transform_input_channels_last` kernel with the two parameter kernels before
                       it (`direct_copy_kernel`, `vectorized_elementwise_kernel<4, ...>`): 3 gaps | the bias pass's
                       bytes at the runtime file's bias_kernel_bandwidth

usage: python3 bench/gpu/kernel_costs.py [--nnperf build/nnperf] [--hw presets/runtimes/h100-sxm-pytorch.yaml]
"""
import argparse
import json
import os
import statistics
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import profile_compare  # noqa: E402  (kernel kinds, shared with the comparison)

ROOT = profile_compare.ROOT


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--nnperf", default=os.path.join(ROOT, "build", "nnperf"))
    ap.add_argument("--hw", default=os.path.join(ROOT, "presets", "runtimes", "h100-sxm-pytorch.yaml"))
    ap.add_argument("--profile", default=os.path.join(ROOT, "bench", "gpu", "h100_profile.json"))
    a = ap.parse_args()
    a.set = []
    base = profile_compare.per_layer_s(a)
    with open(a.profile) as f:
        cells = [e for e in json.load(f) if e["batch"] == 1]
    med = statistics.median
    gap = med([(e["graph_ms"] * 1e3 - sum(us for _, us in e["kernels"])) / len(e["kernels"]) for e in cells])
    elt, conv, bn = [], [], []
    for e in cells:
        k = e["kernels"]
        for i, (n, us) in enumerate(k):
            if n.startswith("void at::native::vectorized_elementwise_kernel<8"):
                elt.append(us)
            elif "batch_norm_transform" in n and i >= 2:
                bn.append(k[i - 2][1] + k[i - 1][1] + us)
            elif (e["model"] in ("resnet50", "mobilenet_v2") and profile_compare.kernel_kind(n) == "conv/GEMM"
                  and not n.startswith("Memset") and "AddPadding" not in n):
                conv.append(us)
    w_elt, w_conv, w_bias = [], [], []
    for e in cells:
        for L in profile_compare.analyze_json(a, e["model"], 1)["layers"]:
            work = L["time_us"] - L["overhead_us"]
            if L["class"] in ("eltwise", "activation") and L["time_us"] > 0:
                w_elt.append(work)
            elif L["op"] == "Conv" and e["model"] in ("resnet50", "mobilenet_v2"):
                w_conv.append(work)
                extra = L["overhead_us"] - base(L["class"])
                if extra > 0:  # the bias pass: its fixed cost (the conv's own per-kernel cost) and its bytes
                    w_bias.append(extra - base(L["class"]))
    print(f"graph idle time per kernel at batch 1: {gap:.3f} us (cells: "
          + ", ".join(f"{e['model']} {(e['graph_ms'] * 1e3 - sum(u for _, u in e['kernels'])) / len(e['kernels']):.3f}"
                      for e in cells) + ")")
    rows = [("eltwise, activation", elt, w_elt, 1), ("conv", conv, w_conv, 1), ("bias (BatchNorm)", bn, w_bias, 3)]
    print("| kind | kernels | median device us | nnperf's work us (median) | gaps | fixed cost us |")
    print("|---|---:|---:|---:|---:|---:|")
    for name, dev, work, gaps in rows:
        fixed = med(dev) - med(work) + gaps * gap
        print(f"| {name} | {len(dev)} | {med(dev):.3f} | {med(work):.3f} ({len(work)} layers) | {gaps} | "
              f"{fixed:.3f} |")


if __name__ == "__main__":
    main()
