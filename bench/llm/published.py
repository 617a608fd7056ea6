#!/usr/bin/env python3
"""published.py - `nnperf llm --config` against TensorRT-LLM's published numbers (bench/llm/published.csv,
docs/sources.md [TRTLLM-PERF-061], [TRTLLM-PERF-OVERVIEW]): one row per published number with the prediction and
the error, then the median |error| of the fit rows and of the test rows, in all and per table (issue 20's
acceptance: test median <= 15%).

Static-batch rows (tables throughput, first_token) run `nnperf llm --config CONFIG --hw PRESET [--tp N] --prompt P
--generate G --batch B [--compute fp8 --kv fp8] --format json`; TP above 1 runs on the 8-GPU preset. Throughput =
batch x generate / end-to-end time (a static batch, as gptSessionBenchmark measures it), per GPU where the table
gives it per GPU. Rows of table trtllm-bench (every request queued at once, in-flight batching) run the serving
simulation with all `batch` requests in flight (`--serve --concurrency B --requests B`) at the batch and token
limits trtllm-bench derives for the lengths (bench_limits) and compare its output tokens/s. Rows of table
edge-llm-0.10 (TensorRT Edge-LLM's llm_bench on Jetsons, [TRT-EDGE-LLM-PERF]) run `--prompt 2048 --generate 1
--batch B --weights int4 --compute fp16`: prefill_ms against its TTFT (the batch's prefill), decode_tok_s against
its decode tokens/s (the batch's decode step at 2048 tokens of past KV). The runtime column adds the --set keys of
RUNTIMES.

usage: python3 bench/llm/published.py [--nnperf build/nnperf] [--write] [--write-presets DIR] [--check-presets DIR]
  --write              the table into bench/RESULTS.md
  --write-presets DIR  each preset's `llm_validation:` section (the median and 90th-percentile |error| of its test
                       rows and their number: `nnperf llm` shows them as its expected error) into DIR/PRESET.yaml
  --check-presets DIR  exit 1 unless every preset's `llm_validation:` equals what the test rows give (ctest
                       llm_published)
The PyTorch runtime files of the H100 and the H200 get theirs from the decoders measured on those GPUs
(bench/llm/measured_h100.csv, measured_h200.csv, every row `test`; predicted as bench/gpu/predict_llm.py does).
"""
import argparse
import csv
import json
import math
import os
import re
import statistics
import subprocess
import sys

ROOT = os.path.normpath(os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", ".."))
sys.path.insert(0, os.path.join(ROOT, "bench", "fidelity"))
import fidelity  # noqa: E402  (the presets' bands are computed and written as fidelity.py writes `validation`)
PRESETS = {("a100", False): "a100-80gb", ("a100", True): "8x-a100-80gb",
           ("h100", False): "h100-sxm", ("h100", True): "8x-h100-sxm", ("h200", False): "h200-sxm",
           # TensorRT Edge-LLM's Jetson runs (table edge-llm-0.10): each module in its fastest mode (the CSV's header)
           ("thor", False): "jetson-agx-thor", ("agx-orin", False): "jetson-agx-orin",
           ("orin-nx", False): "jetson-orin-nx-16gb-super", ("orin-nano", False): "jetson-orin-nano-super"}
# What each runtime's kernels do that the presets do not assume (docs/llm.md, "Published numbers"): TensorRT-LLM
# v0.6.1's benchmark commands for Llama-2-70B do not set TRTLLM_ENABLE_XQA, so its decode attention is the masked
# multi-head attention kernel, one thread block per query head ([TRTLLM-GPT-ATTENTION], [TRTLLM-XQA])
RUNTIMES = {"trtllm-0.5": [], "trtllm-0.6.1": ["compute.kv_per_query_head=true"],
            # TensorRT-LLM 1.0's perf-overview runs give the KV cache 0.95 of the free memory
            # ([TRTLLM-PERF-OVERVIEW]); its decode attention is XQA (GQA-aware)
            "trtllm-1.0": ["memory.kv_fraction=0.95"],
            # TensorRT Edge-LLM 0.10.0's llm_bench: the presets as they are
            "edge-llm-0.10": []}
# the runtime files whose band comes from the decoders measured on that GPU (bench/llm/measured_GPU.csv)
MEASURED = {"h100": "h100-sxm-pytorch", "h200": "h200-sxm-pytorch"}
BEGIN, END = "<!-- llm-published:begin -->", "<!-- llm-published:end -->"
# the group each table's rows are summarised in: TensorRT-LLM's performance.md (0), trtllm-bench (1), Edge-LLM (2)
TABLE_KIND = {"trtllm-bench": 1, "edge-llm-0.10": 2}


def rows():
    with open(os.path.join(ROOT, "bench", "llm", "published.csv")) as f:
        return list(csv.DictReader(line for line in f if not line.startswith("#")))


def base_cmd(nnperf, r):
    tp = int(r["tp"])
    cmd = [nnperf, "llm", "--config", os.path.join(ROOT, "tests", "data", "llm", "configs", r["model"] + ".json"),
           "--hw", PRESETS[(r["gpu"], tp > 1)], "--prompt", r["prompt"], "--generate", r["generate"], "--format",
           "json"]
    if tp > 1:
        cmd += ["--tp", str(tp)]
    if r["dtype"] == "fp8":
        cmd += ["--compute", "fp8", "--kv", "fp8"]
    elif r["dtype"] == "int4":  # INT4 AWQ / GPTQ: weight-only INT4, FP16 compute and KV cache
        cmd += ["--weights", "int4", "--compute", "fp16"]
    for kv in RUNTIMES[r["runtime"]]:
        cmd += ["--set", kv]
    return cmd


def run(cmd):
    p = subprocess.run(cmd, capture_output=True, text=True)
    if p.returncode:
        return None, p.stderr.strip().splitlines()[-1]
    return json.loads(p.stdout), None


def round_up(x, step):
    return step * math.ceil(x / step)


def tiered(x, tiers, least):
    """x rounded up to the step of the first (bound, step) tier it is under, at least `least`"""
    return max(least, next(round_up(x, step) for bound, step in tiers if x < bound))


def bench_limits(d, tp, isl, osl, fraction=0.95):
    """trtllm-bench's max batch size and max tokens per step for a dataset of isl + osl tokens (docs/sources.md
    [TRTLLM-BENCH-TUNING]): the requests that fit in `fraction` of the GPUs' memory less the weights, at most
    4,096, rounded up (to 32 below 256, at least 64; to 128 below 1,024; else to 256); tokens per step that batch
    times 1 + isl / osl, at most 32,768, rounded up (to 256 below 4,096, at least 2,048; to 512 below 8,192; else to
    1,024). Sizes from nnperf's own JSON (weights and KV bytes per token per device, the device memory)."""
    s = d["summary"]
    gib = 1024 ** 3
    free = (d["device_bytes"] - s["weight_bytes"]) * tp / gib
    per_request = s["kv_bytes_per_token"] * tp * (isl + osl) / gib
    raw_bs = min(free * fraction / per_request, 4096)
    raw_tok = min(raw_bs * (1 + isl / osl), 32768)
    return (tiered(raw_bs, ((256, 32), (1024, 128), (math.inf, 256)), 64),
            tiered(raw_tok, ((4096, 256), (8192, 512), (math.inf, 1024)), 2048))


def predict(nnperf, r):
    tp = int(r["tp"])
    cmd = base_cmd(nnperf, r)
    if r["quantity"] == "out_tok_s":
        # every request queued at once (trtllm-bench throughput): the serving simulation with all of them in flight,
        # at trtllm-bench's own batch and token limits
        d, why = run(cmd)
        if d is None:
            return None, why
        bs, tok = bench_limits(d, tp, int(r["prompt"]), int(r["generate"]))
        cmd += ["--serve", "--concurrency", r["batch"], "--requests", r["batch"], "--max-batch", str(bs), "--chunk",
                str(tok)]
        d, why = run(cmd)
        return (None, why) if d is None else (d["serve"]["output_tokens_per_s"], cmd)
    d, why = run(cmd + ["--batch", r["batch"]])
    if d is None:
        return None, why
    s = d["summary"]
    if r["quantity"] in ("ttft_ms", "prefill_ms"):  # the batch's prefill (llm_bench's "Prefill E2E")
        return s["ttft_ms"], cmd
    if r["quantity"] == "decode_tok_s":  # the batch's tokens/s of the decode step after the prompt (generate 1)
        return s["decode_tokens_per_s"], cmd
    tps = s["batch"] * s["generate"] / (s["e2e_ms"] / 1e3)
    return (tps / tp if r["quantity"] == "out_tok_s_per_gpu" else tps), cmd


LLM_VALIDATION_RE = re.compile(r"^llm_validation:.*\n(?:[ #].*\n|\n)*", re.M)


def measured_errors(nnperf):
    """|error| of every decoder row measured on a lent GPU, per runtime file it is predicted on"""
    sys.path.insert(0, os.path.join(ROOT, "bench", "gpu"))
    import predict_llm  # noqa: E402  (its rows and its prediction; it imports run from this file)
    per = {}
    for gpu, name in MEASURED.items():
        hw = os.path.join(ROOT, "presets", "runtimes", name + ".yaml")
        for r in predict_llm.read_rows(gpu):
            per.setdefault(name, []).append(abs(predict_llm.predict(nnperf, hw, r) / float(r["value"]) - 1))
    return per


def presets_band(per_preset, directory, write):
    """--write-presets / --check-presets: each preset's llm_validation section from its test rows' |errors|;
    returns the number of presets whose section differs (check) or 0"""
    bad = 0
    for path in fidelity.preset_files(directory):
        name = os.path.basename(path)[:-5]
        e = per_preset.get(name, [])
        with open(path) as f:
            text = f.read()
        block = ""
        src = next((f"bench/llm/measured_{g}.csv" for g, n in MEASURED.items() if n == name), "bench/llm/published.csv")
        if e:
            block = (f"llm_validation:                    # {src} test rows (written by bench/llm/published.py)\n"
                     f"  test_rows: {len(e)}\n  median_error: {fidelity.median_abs(e):.4f}\n"
                     f"  p90_error: {fidelity.percentile_abs(e, 0.9):.4f}\n")
        m = LLM_VALIDATION_RE.search(text)
        have = m.group(0) if m else ""
        if have == block:
            continue
        if not write:
            print(f"FAIL {path}: llm_validation {have.strip() or 'absent'!r} but the published rows give "
                  f"{block.strip() or 'none'!r} (python3 bench/llm/published.py --write-presets {directory})")
            bad += 1
            continue
        with open(path, "w") as f:
            f.write(fidelity.put_section(text, LLM_VALIDATION_RE, block))
        print(f"wrote {path}")
    return bad


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--nnperf", default=os.path.join(ROOT, "build", "nnperf"))
    ap.add_argument("--write", action="store_true")
    ap.add_argument("--write-presets", metavar="DIR")
    ap.add_argument("--check-presets", metavar="DIR")
    a = ap.parse_args()
    per_preset = {}
    out = ["| table | GPU | model | dtype | TP | batch | in / out | quantity | published | predicted | error | split |",
           "|---|---|---|---|---:|---:|---|---|---:|---:|---:|---|"]
    errs = {"fit": [], "test": []}
    by_table = {}
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
        if r["split"] == "test":
            per_preset.setdefault(PRESETS[(r["gpu"], int(r["tp"]) > 1)], []).append(abs(e))
        by_table.setdefault((TABLE_KIND.get(r["table"], 0), r["split"]), []).append(abs(e))
        out.append(f"| {r['table']} | {r['gpu']} | {r['model']} | {r['dtype']} | {r['tp']} | {r['batch']} | "
                   f"{r['prompt']} / {r['generate']} | {r['quantity']} | {pub:g} | {q:.4g} | {100 * e:+.1f}% | "
                   f"{r['split']} |")
    out.append("")
    for split in ("fit", "test"):
        v = errs[split]
        if v:
            out.append(f"{split}: {len(v)} rows, median |error| {100 * statistics.median(v):.1f}%, "
                       f"max {100 * max(v):.1f}%")
    for kind, what in enumerate(("performance.md rows (v0.5 / v0.6.1)", "trtllm-bench rows (TensorRT-LLM 1.0)",
                                 "edge-llm-0.10 rows (TensorRT Edge-LLM 0.10.0 on Jetsons)")):
        for split in ("fit", "test"):
            v = by_table.get((kind, split))
            if v:
                out.append(f"{what}, {split}: {len(v)} rows, median |error| {100 * statistics.median(v):.1f}%, "
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
    if a.write_presets or a.check_presets:
        per_preset.update(measured_errors(a.nnperf))
    if a.write_presets:
        presets_band(per_preset, a.write_presets, True)
    if a.check_presets:
        if presets_band(per_preset, a.check_presets, False):
            sys.exit(1)
        print(f"check: every preset's llm_validation section equals the published rows ({a.check_presets})")


if __name__ == "__main__":
    main()
