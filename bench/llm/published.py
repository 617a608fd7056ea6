#!/usr/bin/env python3
"""published.py - `nnperf llm --config` against TensorRT-LLM's published batched throughput and first-token latency
(bench/llm/published.csv, docs/sources.md [TRTLLM-PERF-061]): one row per published number with the prediction and
the error, then the median |error| of the fit rows and of the test rows (issue 20's acceptance: test median <= 15%).
Each row runs `nnperf llm --config CONFIG --hw PRESET [--tp N] --prompt P --generate G --batch B [--compute fp8
--kv fp8] --format json`; TP above 1 runs on the 8-GPU preset. Throughput = batch x generate / end-to-end time (a
static batch, as gptSessionBenchmark measures it), per GPU where the table gives it per GPU.

usage: python3 bench/llm/published.py [--nnperf build/nnperf] [--write]   (--write: the table into bench/RESULTS.md)
"""
import argparse
import csv
import json
import os
import statistics
import subprocess
import sys

ROOT = os.path.normpath(os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", ".."))
PRESETS = {("a100", False): "a100-80gb", ("a100", True): "8x-a100-80gb",
           ("h100", False): "h100-sxm", ("h100", True): "8x-h100-sxm"}
# What each runtime's kernels do that the presets do not assume (docs/llm.md, "Published numbers"): TensorRT-LLM
# v0.6.1's benchmark commands for Llama-2-70B do not set TRTLLM_ENABLE_XQA, so its decode attention is the masked
# multi-head attention kernel, one thread block per query head ([TRTLLM-GPT-ATTENTION], [TRTLLM-XQA])
RUNTIMES = {"trtllm-0.5": [], "trtllm-0.6.1": ["compute.kv_per_query_head=true"]}
BEGIN, END = "<!-- llm-published:begin -->", "<!-- llm-published:end -->"


def rows():
    with open(os.path.join(ROOT, "bench", "llm", "published.csv")) as f:
        return list(csv.DictReader(line for line in f if not line.startswith("#")))


def predict(nnperf, r):
    tp = int(r["tp"])
    cmd = [nnperf, "llm", "--config", os.path.join(ROOT, "tests", "data", "llm", "configs", r["model"] + ".json"),
           "--hw", PRESETS[(r["gpu"], tp > 1)], "--prompt", r["prompt"], "--generate", r["generate"], "--batch",
           r["batch"], "--format", "json"]
    if tp > 1:
        cmd += ["--tp", str(tp)]
    if r["dtype"] == "fp8":
        cmd += ["--compute", "fp8", "--kv", "fp8"]
    for kv in RUNTIMES[r["runtime"]]:
        cmd += ["--set", kv]
    p = subprocess.run(cmd, capture_output=True, text=True)
    if p.returncode:
        return None, p.stderr.strip().splitlines()[-1]
    s = json.loads(p.stdout)["summary"]
    if r["quantity"] == "ttft_ms":
        return s["ttft_ms"], cmd
    tps = s["batch"] * s["generate"] / (s["e2e_ms"] / 1e3)
    return (tps / tp if r["quantity"] == "out_tok_s_per_gpu" else tps), cmd


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--nnperf", default=os.path.join(ROOT, "build", "nnperf"))
    ap.add_argument("--write", action="store_true")
    a = ap.parse_args()
    out = ["| table | GPU | model | dtype | TP | batch | in / out | quantity | published | predicted | error | split |",
           "|---|---|---|---|---:|---:|---|---|---:|---:|---:|---|"]
    errs = {"fit": [], "test": []}
    for r in rows():
        q, why = predict(a.nnperf, r)
        pub = float(r["value"])
        if q is None:
            out.append(f"| {r['table']} | {r['gpu']} | {r['model']} | {r['dtype']} | {r['tp']} | {r['batch']} | "
                       f"{r['prompt']} / {r['generate']} | {r['quantity']} | {pub:g} | refused | - | {r['split']} |")
            print(f"refused: {why}", file=sys.stderr)
            continue
        e = q / pub - 1
        errs[r["split"]].append(abs(e))
        out.append(f"| {r['table']} | {r['gpu']} | {r['model']} | {r['dtype']} | {r['tp']} | {r['batch']} | "
                   f"{r['prompt']} / {r['generate']} | {r['quantity']} | {pub:g} | {q:.4g} | {100 * e:+.1f}% | "
                   f"{r['split']} |")
    out.append("")
    for split in ("fit", "test"):
        v = errs[split]
        if v:
            out.append(f"{split}: {len(v)} rows, median |error| {100 * statistics.median(v):.1f}%, "
                       f"max {100 * max(v):.1f}%")
    text = "\n".join(out)
    print(text)
    if a.write:
        path = os.path.join(ROOT, "bench", "RESULTS.md")
        doc = open(path).read()
        if BEGIN not in doc or END not in doc:
            sys.exit(f"{path}: no '{BEGIN}' ... '{END}' section")
        head, rest = doc.split(BEGIN, 1)
        doc = head + BEGIN + "\n" + text + "\n" + END + rest.split(END, 1)[1]
        open(path, "w").write(doc)


if __name__ == "__main__":
    main()
