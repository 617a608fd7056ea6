#!/usr/bin/env python3
"""pytorch_rates.py - two kernel rates of PyTorch on a GPU, read from a kernel profile (profile_torch.py; not dataset
rows), for the runtime file of that GPU (bench/gpu/README.md, "Seventh run"):

- compute.pool_element_s: PyTorch's channels-last window pooling kernels (max_pool_forward_nhwc,
  avg_pool2d_out_cuda_frame_nhwc) at batch 128, each matched in order to nnperf's MaxPool and AveragePool layers of
  the same network: the median over those kernels of (device time - the per-kernel cost) / output elements.
- compute.grouped_transform_bandwidth: cuDNN's channels-last grouped convolutions (1 < groups < channels) at batch
  128 run beside the convolution kernels that re-lay their tensors out (tensorTransformGeneric, nhwcSliceCKernel):
  per network, those kernels' device time less two per-kernel costs per grouped convolution, against 2 x (input +
  output bytes) of nnperf's grouped convolutions (each tensor read and written once more); the median over the
  networks that have grouped convolutions.

usage: python3 bench/gpu/pytorch_rates.py [--nnperf build/nnperf] [--hw presets/runtimes/h200-sxm-pytorch.yaml]
       [--profile bench/gpu/h200_profile.json]
"""
import argparse
import json
import os
import statistics
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from profile_compare import analyze_json  # noqa: E402  (nnperf's JSON report of a network at FP16 and a batch)

ROOT = os.path.normpath(os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", ".."))
POOL_KERNELS = ("max_pool_forward_nhwc", "avg_pool2d_out_cuda_frame_nhwc")
LAYOUT_KERNELS = ("tensorTransformGeneric", "nhwcSliceCKernel")


def numel(shape, batch):
    n = batch
    for d in shape[1:]:
        n *= d
    return n


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--nnperf", default=os.path.join(ROOT, "build", "nnperf"))
    ap.add_argument("--hw", default=os.path.join(ROOT, "presets", "runtimes", "h200-sxm-pytorch.yaml"))
    ap.add_argument("--profile", default=os.path.join(ROOT, "bench", "gpu", "h200_profile.json"))
    ap.add_argument("--per-kernel-us", type=float, default=5.0, help="overhead.per_layer_s of the runtime file, us")
    a = ap.parse_args()
    a.set = []  # analyze_json's --set keys: none
    pools, grouped = [], []
    for e in json.load(open(a.profile)):
        if e["batch"] != 128:
            continue
        ls = analyze_json(a, e["model"], e["batch"])["layers"]
        kern = [(n, us) for n, us in e["kernels"]]
        pk = [us for n, us in kern if any(k in n for k in POOL_KERNELS)]
        # a window of one element (an adaptive pool that keeps the size) runs another kernel: not matched
        pl = [L for L in ls
              if L["op"] in ("MaxPool", "AveragePool") and L["ops"] > numel(L["output_shape"], e["batch"])]
        if len(pk) != len(pl):
            print(f"{e['model']}: {len(pk)} pooling kernels, {len(pl)} pooling layers: not matched, left out")
        else:
            for us, L in zip(pk, pl):
                pools.append((us - a.per_kernel_us) * 1e-6 / numel(L["output_shape"], e["batch"]))
        g = [L for L in ls if L["class"] == "conv_grouped"]
        if not g:
            continue
        t = sum(us for n, us in kern if any(k in n for k in LAYOUT_KERNELS)) - 2 * a.per_kernel_us * len(g)
        # a grouped convolution's input: its load bytes less its weights where the plan reads it from DDR; here the
        # input from the layer before it in the list (nnperf's layers are in execution order)
        nbytes = 0
        for i, L in enumerate(ls):
            if L["class"] != "conv_grouped":
                continue
            nbytes += 2 * 2 * (numel(ls[i - 1]["output_shape"], e["batch"]) + numel(L["output_shape"], e["batch"]))
        grouped.append(nbytes / (t * 1e-6))
        print(f"{e['model']}: {len(g)} grouped convolutions, layout kernels {t / 1e3:.3f} ms beyond their per-kernel "
              f"costs, {nbytes / 1e9:.3f} GB: {nbytes / (t * 1e-6) / 1e12:.3f} TB/s")
    print(f"compute.pool_element_s: median of {len(pools)} kernels {statistics.median(pools):.4g} s "
          f"(range {min(pools):.3g}-{max(pools):.3g})")
    if grouped:
        print(f"compute.grouped_transform_bandwidth: median of {len(grouped)} networks "
              f"{statistics.median(grouped):.4g} B/s")


if __name__ == "__main__":
    main()
