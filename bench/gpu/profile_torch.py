#!/usr/bin/env python3
"""profile_torch.py - the GPU time of every kernel inside a network's forward pass (PyTorch profiler, CUDA
activity), for the kernel model of a GPU preset: how far a network's kernels are from the same kernels timed alone
(bench/gpu/micro_torch.py) and where the time between them goes. Not dataset rows (bench/gpu/README.md).

For each (network, batch): 3 profiled eager passes after warm-up (cuDNN autotuned, FP16 channels-last); per pass the
kernels in order with their device durations; the sum of kernel time against the pass's CUDA-graph time.

usage: python3 bench/gpu/profile_torch.py OUTDIR [--quick] [--cnns LIST]
       (--cnns: those torchvision networks instead of the four below, at batches 1 and 128)
"""
import json
import os
import sys

import torch
from torch.profiler import ProfilerActivity, profile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from measure_torch import DEV, DT, OUT, QUICK, build, graph_of, opt, timed  # noqa: E402

NETS = [("resnet50", 224), ("mobilenet_v2", 224), ("vit_b_16", 224), ("swin_t", 224)]
BATCHES = [1, 128]
if opt("--cnns"):
    NETS = [(n, 299 if n == "inception_v3" else 224) for n in opt("--cnns") if n]
if QUICK:
    NETS, BATCHES = [(n, 64) for n, _ in NETS[:1]] if opt("--cnns") else [("resnet18", 64)], [1]


def main():
    os.makedirs(OUT, exist_ok=True)
    if DEV == "cuda":
        torch.backends.cudnn.benchmark = True
    res = []
    for name, size in NETS:
        net = build(name).to(DEV, DT).to(memory_format=torch.channels_last)
        for b in BATCHES:
            x = torch.randn(b, 3, size, size, device=DEV, dtype=DT).to(memory_format=torch.channels_last)
            with torch.inference_mode():
                for _ in range(3):
                    net(x)
                graph_s = timed(graph_of(lambda: net(x), warm=2))[0]
                acts = [ProfilerActivity.CPU] + ([ProfilerActivity.CUDA] if DEV == "cuda" else [])
                with profile(activities=acts) as prof:
                    for _ in range(3):
                        net(x)
                    if DEV == "cuda":
                        torch.cuda.synchronize()
            kern = [(e.name, e.time_range.elapsed_us())
                    for e in prof.events() if DEV == "cuda" and e.device_type.name == "CUDA"]
            per = len(kern) // 3 if kern else 0
            one = kern[:per]
            row = {"model": name, "batch": b, "graph_ms": graph_s * 1e3, "kernels_per_pass": per,
                   "kernel_sum_ms": sum(t for _, t in one) / 1e3, "kernels": [[n[:80], round(t, 2)] for n, t in one]}
            res.append(row)
            print(json.dumps({k: v for k, v in row.items() if k != "kernels"}), flush=True)
        del net
    json.dump(res, open(os.path.join(OUT, "profile.json"), "w"))


if __name__ == "__main__":
    main()
