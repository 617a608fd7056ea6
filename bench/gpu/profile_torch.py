#!/usr/bin/env python3
"""profile_torch.py - the GPU time of every kernel inside a network's forward pass (PyTorch profiler, CUDA
activity), for the kernel model of a GPU preset: how far a network's kernels are from the same kernels timed alone
(bench/gpu/micro_torch.py) and where the time between them goes. Not dataset rows (bench/gpu/README.md).

For each (network, batch): 3 profiled eager passes after warm-up (cuDNN autotuned, FP16 channels-last); per pass the
kernels in order with their device durations; the sum of kernel time against the pass's CUDA-graph time.

usage: python3 bench/gpu/profile_torch.py OUTDIR [--quick] [--cnns LIST] [--llms LIST] [--prefill LIST]
       (--cnns: those torchvision networks instead of the four below, at batches 1 and 128; --llms: also one decode
       step of each decoder of tests/data/llm/configs/ in LIST, measure_torch.py's Llama-shaped code, at the middle
       context of three of its static batches, written to decode.json; --prefill: the eager prefill of each decoder
       in LIST at batch 1 and prompts of 16 and 64 tokens (no row's prompt): its host wall time, kernels and their
       device time, and the same pass replayed as a CUDA graph, written to prefill.json; --cnns "" profiles no
       network)
"""
import json
import os
import sys

import torch
from torch.profiler import ProfilerActivity, profile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from measure_torch import CFG, DEV, DT, OUT, QUICK, Decoder, build, cfg_of, graph_of, opt, timed  # noqa: E402

NETS = [("resnet50", 224), ("mobilenet_v2", 224), ("vit_b_16", 224), ("swin_t", 224)]
BATCHES = [1, 128]
if opt("--cnns"):
    NETS = [(n, 299 if n == "inception_v3" else 224) for n in opt("--cnns") if n]
if QUICK:
    NETS, BATCHES = [(n, 64) for n, _ in NETS[:1]] if opt("--cnns") else [("resnet18", 64)], [1]


def kernels_of(fn):
    """(name, device us) of each kernel of one call of fn, from 3 profiled calls (fn warmed up by the caller)"""
    acts = [ProfilerActivity.CPU] + ([ProfilerActivity.CUDA] if DEV == "cuda" else [])
    with profile(activities=acts) as prof:
        for _ in range(3):
            fn()
        if DEV == "cuda":
            torch.cuda.synchronize()
    kern = [(e.name, e.time_range.elapsed_us())
            for e in prof.events() if DEV == "cuda" and e.device_type.name == "CUDA"]
    return kern[:len(kern) // 3]


def row_of(head, graph_s, one):
    row = dict(head, graph_ms=graph_s * 1e3, kernels_per_pass=len(one), kernel_sum_ms=sum(t for _, t in one) / 1e3,
               kernels=[[n[:80], round(t, 2)] for n, t in one])
    print(json.dumps({k: v for k, v in row.items() if k != "kernels"}), flush=True)
    return row


# one decode step (batch, context) of each decoder: the middle contexts of the static batches (1, 128, 128),
# (64, 128, 128) and (16, 2048, 128) of measure_torch.py's rows
STEPS = [(1, 192), (64, 192), (16, 2112)] if not QUICK else [(1, 8), (2, 8)]


def decode_profiles():
    res = []
    for name in opt("--llms") or []:
        if not name:
            continue
        d = Decoder(CFG if QUICK else cfg_of(name), max(b for b, _ in STEPS), max(c for _, c in STEPS) + 1)
        for b, ctx in STEPS:
            one = torch.zeros(b, 1, dtype=torch.long, device=DEV)
            with torch.inference_mode():
                step = lambda: d.forward(one, ctx)  # noqa: E731
                for _ in range(3):
                    step()
                graph_s = timed(graph_of(step, warm=2), min_s=0.1, trials=5)[0]
                res.append(row_of({"model": name, "batch": b, "context": ctx}, graph_s, kernels_of(step)))
        del d
        if DEV == "cuda":
            torch.cuda.empty_cache()
    return res


# prompts of the eager prefill profile: shorter than any row's (128, 512, 2048), so that the host's dispatch shows
PROMPTS = [16, 64] if not QUICK else [4]


def prefill_profiles():
    """every eager and graph timing first, then the profiles: once the profiler has run, CUPTI stays attached and each
    later eager launch costs the host more (the eighth run's first prefill profile timed some cells after a profile)"""
    timed_cells, decs = [], []
    for name in opt("--prefill") or []:
        if not name:
            continue
        d = Decoder(CFG if QUICK else cfg_of(name), 1, max(PROMPTS))
        decs.append(d)
        for p in PROMPTS:
            tok = torch.zeros(1, p, dtype=torch.long, device=DEV)
            with torch.inference_mode():
                fwd = lambda d=d, tok=tok: d.forward(tok, 0)  # noqa: E731
                for _ in range(3):
                    fwd()
                eager_s = timed(fwd, min_s=0.2)[0]
                graph_s = timed(graph_of(fwd, warm=2), min_s=0.1, trials=5)[0]
            timed_cells.append((name, p, fwd, eager_s, graph_s))
    res = []
    for name, p, fwd, eager_s, graph_s in timed_cells:
        with torch.inference_mode():
            res.append(row_of({"model": name, "batch": 1, "prompt": p, "eager_ms": eager_s * 1e3}, graph_s,
                              kernels_of(fwd)))
    del decs
    if DEV == "cuda":
        torch.cuda.empty_cache()
    return res


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
                one = kernels_of(lambda: net(x))
            res.append(row_of({"model": name, "batch": b}, graph_s, one))
        del net
        json.dump(res, open(os.path.join(OUT, "profile.json"), "w"))
    if opt("--llms"):
        json.dump(decode_profiles(), open(os.path.join(OUT, "decode.json"), "w"))
    if opt("--prefill"):
        json.dump(prefill_profiles(), open(os.path.join(OUT, "prefill.json"), "w"))


if __name__ == "__main__":
    main()
