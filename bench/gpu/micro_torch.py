#!/usr/bin/env python3
"""micro_torch.py - microbenchmarks of an NVIDIA GPU through PyTorch: the numbers a GPU preset is made of, measured
apart from any network (bench/gpu/README.md: these are not dataset rows and no dataset row is used here).

  launch    seconds per kernel: a chain of 1,000 one-element kernels, replayed as a CUDA graph and launched eagerly
  copy      device memory bandwidth: a 4 GiB device-to-device copy (bytes read + written per second)
  h2d       host-to-device copy of 256 MiB from pinned memory
  gemm      FP16 matrix products (cuBLAS) of several shapes, and INT8 (torch._int_mm) where it exists: ops/s
  gemv      a decode-like product, 1 x 4096 by 4096 x 14336 FP16: bytes of the weight per second
  eltwise   ReLU on a 128 x 256 x 56 x 56 FP16 tensor: bytes read + written per second
  conv      FP16 channels-last convolutions of ResNet-50's shapes at batch 1 and 128 (cuDNN, autotuned): ops/s

usage: python3 bench/gpu/micro_torch.py OUTDIR [--quick]
"""
import json
import os
import sys

import torch
import torch.nn.functional as F

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from measure_torch import DEV, DT, OUT, QUICK, graph_of, timed as timed_n  # noqa: E402  (the same clock, args)


def timed(fn, min_s=0.05, trials=7):
    return timed_n(fn, min_s, trials)[0]


def main():
    os.makedirs(OUT, exist_ok=True)
    res = {"torch": torch.__version__}
    if DEV == "cuda":
        torch.backends.cudnn.benchmark = True
        res["gpu"] = torch.cuda.get_device_name(0)
    log = open(os.path.join(OUT, "micro.log"), "w")

    def put(k, v):
        res[k] = v
        line = json.dumps({k: v})
        print(line, flush=True)
        log.write(line + "\n")

    k = 100 if QUICK else 1000
    x = torch.zeros(1, device=DEV, dtype=DT)

    def chain():
        for _ in range(k):
            x.add_(1)
    put("launch_graph_s_per_kernel", timed(graph_of(chain)) / k)
    put("launch_eager_s_per_kernel", timed(chain) / k)

    n = (1 << 20) if QUICK else (1 << 31)  # elements of FP16: 4 GiB
    a = torch.empty(n, device=DEV, dtype=DT)
    b = torch.empty_like(a)
    put("copy_bytes_per_s", 2 * a.numel() * a.element_size() / timed(lambda: b.copy_(a)))
    del a, b
    if DEV == "cuda":
        h = torch.empty(128 << 20, dtype=DT).pin_memory()
        d = torch.empty(128 << 20, device=DEV, dtype=DT)
        put("h2d_bytes_per_s", h.numel() * 2 / timed(lambda: d.copy_(h, non_blocking=True)))
        del h, d
    shapes = [(8192, 8192, 8192), (4096, 4096, 4096), (2048, 2048, 2048), (1024, 1024, 1024), (128, 4096, 4096)]
    if QUICK:
        shapes = [(256, 256, 256)]
    for m, kk, nn in shapes:
        A = torch.randn(m, kk, device=DEV, dtype=DT)
        B = torch.randn(kk, nn, device=DEV, dtype=DT)
        put(f"gemm_fp16_{m}x{kk}x{nn}_ops_per_s", 2 * m * kk * nn / timed(lambda: A @ B))
        if DEV == "cuda" and hasattr(torch, "_int_mm"):
            Ai = torch.randint(-8, 8, (m, kk), device=DEV, dtype=torch.int8)
            Bi = torch.randint(-8, 8, (kk, nn), device=DEV, dtype=torch.int8)
            try:
                put(f"gemm_int8_{m}x{kk}x{nn}_ops_per_s", 2 * m * kk * nn / timed(lambda: torch._int_mm(Ai, Bi)))
            except RuntimeError as e:
                put(f"gemm_int8_{m}x{kk}x{nn}_error", str(e)[:200])
    W = torch.randn(14336, 4096, device=DEV, dtype=DT)
    v = torch.randn(1, 4096, device=DEV, dtype=DT)
    put("gemv_weight_bytes_per_s", W.numel() * 2 / timed(graph_of(lambda: v @ W.t())))
    t = torch.randn(8 if QUICK else 128, 256, 56, 56, device=DEV, dtype=DT)
    put("eltwise_relu_bytes_per_s", 2 * t.numel() * t.element_size() / timed(lambda: F.relu(t)))
    del t
    convs = [("conv1_7x7s2", 3, 64, 224, 7, 2), ("l1_3x3", 64, 64, 56, 3, 1), ("l1_1x1_expand", 64, 256, 56, 1, 1),
             ("l2_3x3", 128, 128, 28, 3, 1), ("l3_3x3", 256, 256, 14, 3, 1), ("l4_3x3", 512, 512, 7, 3, 1),
             ("l4_1x1_reduce", 2048, 512, 7, 1, 1)]
    for name, ci, co, hw, ks, st in convs:
        for bt in ([1, 2] if QUICK else [1, 128]):
            xx = torch.randn(bt, ci, hw, hw, device=DEV, dtype=DT).to(memory_format=torch.channels_last)
            ww = torch.randn(co, ci, ks, ks, device=DEV, dtype=DT).to(memory_format=torch.channels_last)
            ho = (hw + 2 * (ks // 2) - ks) // st + 1
            ops = 2 * bt * co * ho * ho * ci * ks * ks
            f = graph_of(lambda: F.conv2d(xx, ww, stride=st, padding=ks // 2))
            sec = timed(f)
            put(f"conv_{name}_b{bt}", {"s": sec, "ops_per_s": ops / sec})
    json.dump(res, open(os.path.join(OUT, "micro.json"), "w"), indent=1)


if __name__ == "__main__":
    main()
