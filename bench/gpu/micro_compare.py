#!/usr/bin/env python3
"""micro_compare.py - the H100 microbenchmarks (bench/gpu/h100_micro.json, measured by micro_torch.py; not dataset
rows) against nnperf's per-layer kernel model: each measured kernel is built as a one-node ONNX model of exactly its
shape (python3-onnx, in a temporary folder), predicted with `nnperf analyze --hw PLATFORM --dtype fp16 --batch B`,
and printed as a Markdown table row with the measured time, the predicted time and the error.

The kernels: one tiny kernel (a 1-element ReLU; measured in a replayed CUDA graph), the FP16 GEMMs (cuBLAS; both
operands are graph inputs, as torch's A @ B reads both from device memory), the matrix-vector product (1 x 4096 by
4096 x 14336), ReLU on 128 x 256 x 56 x 56, and ResNet-50's convolutions (cuDNN, channels-last, no bias) at batch 1
and 128. The 4 GiB device copy has no one-node ONNX equivalent (Identity is a view): it is shown as the bandwidth it
measured, beside the preset's memory.ddr_bandwidth x memory.ddr_efficiency.

usage: python3 bench/gpu/micro_compare.py [--nnperf build/nnperf] [--hw h100-sxm] [--micro bench/gpu/h100_micro.json]
       [--set KEY=VALUE ...]
"""
import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile

import onnx
from onnx import TensorProto, helper, numpy_helper
import numpy as np

ROOT = os.path.normpath(os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", ".."))

# micro_torch.py's convolutions: name, input channels, output channels, input size, kernel, stride (padding k // 2)
CONVS = [("conv1_7x7s2", 3, 64, 224, 7, 2), ("l1_3x3", 64, 64, 56, 3, 1), ("l1_1x1_expand", 64, 256, 56, 1, 1),
         ("l2_3x3", 128, 128, 28, 3, 1), ("l3_3x3", 256, 256, 14, 3, 1), ("l4_3x3", 512, 512, 7, 3, 1),
         ("l4_1x1_reduce", 2048, 512, 7, 1, 1)]
GEMMS = [(8192, 8192, 8192), (4096, 4096, 4096), (2048, 2048, 2048), (1024, 1024, 1024), (128, 4096, 4096)]


def save(graph, path):
    m = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 17)])
    m.ir_version = 8
    onnx.save(m, path)


def conv_model(path, ci, co, hw, k, s):
    x = helper.make_tensor_value_info("x", TensorProto.FLOAT, [1, ci, hw, hw])
    ho = (hw + 2 * (k // 2) - k) // s + 1
    y = helper.make_tensor_value_info("y", TensorProto.FLOAT, [1, co, ho, ho])
    w = numpy_helper.from_array(np.zeros((co, ci, k, k), np.float32), "w")
    n = helper.make_node("Conv", ["x", "w"], ["y"], kernel_shape=[k, k], strides=[s, s], pads=[k // 2] * 4)
    save(helper.make_graph([n], "conv", [x], [y], [w]), path)


def matmul_model(path, m, k, n):
    a = helper.make_tensor_value_info("a", TensorProto.FLOAT, [m, k])
    b = helper.make_tensor_value_info("b", TensorProto.FLOAT, [k, n])
    y = helper.make_tensor_value_info("y", TensorProto.FLOAT, [m, n])
    save(helper.make_graph([helper.make_node("MatMul", ["a", "b"], ["y"])], "gemm", [a, b], [y]), path)


def relu_model(path, shape):
    x = helper.make_tensor_value_info("x", TensorProto.FLOAT, shape)
    y = helper.make_tensor_value_info("y", TensorProto.FLOAT, shape)
    save(helper.make_graph([helper.make_node("Relu", ["x"], ["y"])], "relu", [x], [y]), path)


def predict(a, path, batch):
    cmd = [a.nnperf, "analyze", path, "--hw", a.hw, "--dtype", "fp16", "--batch", str(batch), "--format", "json"]
    for s in a.set:
        cmd += ["--set", s]
    r = subprocess.run(cmd, capture_output=True, text=True)
    if r.returncode != 0:
        sys.exit(f"{' '.join(cmd)}: exit {r.returncode}: {r.stderr.strip()}")
    return json.loads(r.stdout)["summary"]["latency_ms"] / 1e3


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--nnperf", default=os.path.join(ROOT, "build", "nnperf"))
    ap.add_argument("--hw", default="h100-sxm")
    ap.add_argument("--micro", default=os.path.join(ROOT, "bench", "gpu", "h100_micro.json"))
    ap.add_argument("--set", action="append", default=[], help="KEY=VALUE passed to nnperf (repeat it)")
    a = ap.parse_args()
    mic = json.load(open(a.micro))
    rows = []  # (kernel, batch, measured s, model path)
    with tempfile.TemporaryDirectory() as tmp:
        p = os.path.join(tmp, "tiny.onnx")
        relu_model(p, [1])
        rows.append(("tiny kernel (1-element ReLU), CUDA graph", 1, mic["launch_graph_s_per_kernel"], p))
        for m, k, n in GEMMS:
            key = f"gemm_fp16_{m}x{k}x{n}_ops_per_s"
            if key in mic:
                p = os.path.join(tmp, f"gemm_{m}_{k}_{n}.onnx")
                matmul_model(p, m, k, n)
                rows.append((f"GEMM {m}x{k}x{n}", 1, 2 * m * k * n / mic[key], p))
        p = os.path.join(tmp, "gemv.onnx")
        matmul_model(p, 1, 4096, 14336)
        rows.append(("GEMV 1x4096x14336", 1, 14336 * 4096 * 2 / mic["gemv_weight_bytes_per_s"], p))
        p = os.path.join(tmp, "relu.onnx")
        relu_model(p, [1, 256, 56, 56])
        rows.append(("ReLU 256x56x56", 128, 2 * 128 * 256 * 56 * 56 * 2 / mic["eltwise_relu_bytes_per_s"], p))
        for name, ci, co, hw, k, s in CONVS:
            p = os.path.join(tmp, f"conv_{name}.onnx")
            conv_model(p, ci, co, hw, k, s)
            for b in (1, 128):
                key = f"conv_{name}_b{b}"
                if key in mic:
                    rows.append((f"conv {name} {ci}->{co} at {hw}", b, mic[key]["s"], p))
        print(f"platform `{a.hw}`" + "".join(f" --set {s}" for s in a.set) + f"; measured: {os.path.relpath(a.micro, ROOT)}"
              f" ({mic.get('gpu', '?')})\n")
        print("| kernel | batch | measured us | predicted us | error |")
        print("|---|---:|---:|---:|---:|")
        errs = []
        for name, b, meas, path in rows:
            pred = predict(a, path, b)
            e = pred / meas - 1
            errs.append(abs(e))
            print(f"| {name} | {b} | {meas * 1e6:.1f} | {pred * 1e6:.1f} | {e * 100:+.1f}% |")
    print(f"\nmedian |error| {statistics.median(errs) * 100:.1f}% over {len(errs)} kernels; "
          f"{sum(e <= 0.25 for e in errs)} within 25%")
    print(f"device copy measured {mic['copy_bytes_per_s'] / 1e12:.2f} TB/s (read + written)")


if __name__ == "__main__":
    main()
