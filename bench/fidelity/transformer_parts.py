#!/usr/bin/python3
"""transformer_parts.py - where the predicted time of a transformer-style network goes on a preset (issue 24 item 4,
bench/RESULTS.md "Transformer parts on the RDK X5's BPU"). Reads `nnperf analyze MODEL --hw PRESET --format csv`
and sums each layer's time into parts: Conv, Linear (a MatMul or Gemm with weights), attention MatMul (both inputs
activations), Softmax, LayerNorm (the ReduceMean/Sub/Pow/Sqrt/Div pieces torch.onnx writes for one LayerNorm: the
layers of a module path that holds a Pow and a Sqrt), GELU (the Div/Erf/Add/Mul pieces of a module path that holds
an Erf), the rest; and the run's time outside the layers (the predicted latency minus the layers' sum). Softmax's
alignment: its aligned ops over its ops (1.0: no padding).

    /usr/bin/python3 bench/fidelity/transformer_parts.py build/nnperf rdk-x5 MODEL.onnx [MODEL.onnx ...]
"""
import csv
import io
import os
import re
import subprocess
import sys

PARTS = ("conv", "linear", "attn_matmul", "softmax", "layernorm", "gelu", "other", "outside")


def path_of(layer):
    """the module path of a layer name ('/36/f/f.1/Softmax' -> '/36/f/f.1'; a fused 'a/MatMul+1' the same)"""
    return layer.rsplit("/", 1)[0]


def parts(nnperf, preset, model):
    out = subprocess.run([nnperf, "analyze", model, "--hw", preset, "--format", "csv"], check=True,
                         capture_output=True, text=True).stdout
    rows = list(csv.DictReader(io.StringIO(out)))
    text = subprocess.run([nnperf, "analyze", model, "--hw", preset], check=True, capture_output=True,
                          text=True).stdout
    latency_us = 1000 * float(re.search(r"latency\s+([0-9.]+) ms per run", text).group(1))
    ops_by_path = {}
    for r in rows:
        ops_by_path.setdefault(path_of(r["layer"]), set()).add(r["op"])
    t = dict.fromkeys(PARTS, 0.0)
    soft_ops = soft_aligned = 0
    for r in rows:
        op, us, held = r["op"], float(r["time_us"]), ops_by_path[path_of(r["layer"])]
        if op == "Softmax":
            part = "softmax"
            soft_ops += int(r["ops"])
            soft_aligned += int(r["aligned_ops"])
        elif op in ("MatMul", "Gemm"):
            part = "linear" if int(r["weight_bytes"]) else "attn_matmul"
        elif op == "Conv":
            part = "conv"
        elif "Pow" in held and "Sqrt" in held:
            part = "layernorm"
        elif "Erf" in held:
            part = "gelu"
        else:
            part = "other"
        t[part] += us
    t["outside"] = latency_us - sum(t[p] for p in PARTS if p != "outside")
    return latency_us, t, (soft_aligned / soft_ops if soft_ops else None)


def main(argv):
    if len(argv) < 4:
        print(__doc__.strip().splitlines()[-1].strip(), file=sys.stderr)
        return 2
    nnperf, preset = argv[1], argv[2]
    print("%-22s %9s " % ("model", "latency") + " ".join("%11s" % p for p in PARTS) + "  softmax aligned/ops")
    for model in argv[3:]:
        latency_us, t, align = parts(nnperf, preset, model)
        shares = " ".join("%10.1f%%" % (100 * t[p] / latency_us) for p in PARTS)
        name = os.path.splitext(os.path.basename(model))[0]
        print("%-22s %6.3f ms %s  %s" % (name, latency_us / 1000, shares, "-" if align is None else "%.2f" % align))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
