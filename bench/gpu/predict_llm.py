#!/usr/bin/env python3
"""predict_llm.py - `nnperf llm --config` against the decoder rows measured on an H100 or an H200 with PyTorch
(bench/llm/measured_h100.csv, measured_h200.csv; bench/gpu/README.md): first-token latency and static-batch output
tokens/s, each row with the prediction and its error, then the median |error| (every row is a test row).

usage: python3 bench/gpu/predict_llm.py [--nnperf build/nnperf] [--gpu h100|h200] [--hw PLATFORM]
"""
import argparse
import csv
import os
import statistics
import sys

ROOT = os.path.normpath(os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", ".."))
sys.path.insert(0, os.path.join(ROOT, "bench", "llm"))
from published import run  # noqa: E402  (one way to run nnperf and read its JSON)


def read_rows(gpu):
    """the decoder rows measured on that GPU (bench/llm/measured_GPU.csv)"""
    with open(os.path.join(ROOT, "bench", "llm", f"measured_{gpu}.csv")) as f:
        return list(csv.DictReader(line for line in f if not line.startswith("#")))


def predict(nnperf, hw, r):
    """nnperf's value of the row's quantity: first-token ms, or the static batch's output tokens/s; a row whose code
    runs separate q/k/v and gate/up products is predicted with sibling products unfused"""
    cmd = [nnperf, "llm", "--config", os.path.join(ROOT, "tests", "data", "llm", "configs", r["model"] + ".json"),
           "--hw", hw, "--prompt", r["prompt"], "--generate", r["generate"], "--batch", r["batch"], "--format", "json"]
    if "separate q/k/v" in r["software"]:  # the tenth run's code: no packed products (bench/gpu/README.md)
        cmd += ["--set", "compute.fuse_sibling_products=false"]
    d, why = run(cmd)
    if d is None:
        sys.exit(f"{r}: {why}")
    s = d["summary"]
    return s["ttft_ms"] if r["quantity"] == "ttft_ms" else s["batch"] * s["generate"] / (s["e2e_ms"] / 1e3)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--nnperf", default=os.path.join(ROOT, "build", "nnperf"))
    ap.add_argument("--gpu", default="h100", choices=["h100", "h200"],
                    help="whose rows: bench/llm/measured_GPU.csv (the H200's: the fifth run)")
    ap.add_argument("--hw", help="the platform: the GPU's preset (default: h100-sxm or h200-sxm, TensorRT-LLM's "
                    "kernels) or its PyTorch runtime, presets/runtimes/h100-sxm-pytorch.yaml (h200-sxm-pytorch.yaml)")
    a = ap.parse_args()
    a.hw = a.hw or f"{a.gpu}-sxm"
    rows = read_rows(a.gpu)
    print("| model | quantity | batch | prompt / generate | measured | eager | predicted | error |")
    print("|---|---|---:|---|---:|---:|---:|---:|")
    errs = []
    for r in rows:
        q = predict(a.nnperf, a.hw, r)
        e = q / float(r["value"]) - 1
        errs.append(abs(e))
        print(f"| {r['model']} | {r['quantity']} | {r['batch']} | {r['prompt']} / {r['generate']} | "
              f"{float(r['value']):.4g} | {float(r['eager_value'] or 'nan'):.4g} | {q:.4g} | {100 * e:+.1f}% |")
    print(f"\ntest: {len(errs)} rows, median |error| {100 * statistics.median(errs):.1f}%, max {100 * max(errs):.1f}%")


if __name__ == "__main__":
    main()
