#!/usr/bin/env python3
"""compare_gpus.py - the question of a user choosing between two GPUs: for every network and batch measured on both
(bench/fidelity/data/h100_torch*.csv and h200_torch.csv, the same command on each), the measured H200/H100 time ratio
against the ratio nnperf predicts on the two PyTorch runtime files (each row predicted as fidelity.py predicts it);
then the same for the decoder rows measured on both (bench/llm/measured_h100.csv and measured_h200.csv, predicted as
predict_llm.py predicts them, on the runtime files): the ratio of first-token latency or of output tokens/s.

usage: PYTHONPATH=python NNPERF_LIBRARY=build/libnnperf.so python3 bench/gpu/compare_gpus.py [--rows] [--nnperf BIN]
"""
import os
import statistics
import warnings
import sys

ROOT = os.path.normpath(os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", ".."))
sys.path.insert(0, os.path.join(ROOT, "bench", "fidelity"))
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import fidelity  # noqa: E402  (the dataset's rows, predicted as the fidelity bench predicts them)
import predict_llm  # noqa: E402  (the decoder rows, predicted as predict_llm.py predicts them)


def main():
    warnings.simplefilter("ignore")  # the library's per-prediction notes (spills to DDR), not this script's output
    by = {}
    rows = [r for r in fidelity.read_rows() if r["preset"] in ("h100-sxm", "h200-sxm")
            and r["software"].startswith("PyTorch")]
    for r in fidelity.predict_rows(rows):
        # keyed by dtype too: the H200's FP32 rows (h200_torch_fp32.csv) have no H100 twin and must not stand in
        # for its FP16 rows of the same network and batch
        key = (r["model"], (int(r["batch"]), r["dtype"]))
        by.setdefault(key, {})[r["preset"]] = (float(r["value"]), r["predicted"])
    report("CNN latency", "network | batch and dtype", by, "h100-sxm", "h200-sxm")
    nnperf = os.path.join(ROOT, "build", "nnperf")
    if "--nnperf" in sys.argv:
        nnperf = sys.argv[sys.argv.index("--nnperf") + 1]
    by = {}
    for gpu in ("h100", "h200"):
        hw = os.path.join(ROOT, "presets", "runtimes", f"{gpu}-sxm-pytorch.yaml")
        for r in predict_llm.read_rows(gpu):
            key = (r["model"], f"{r['quantity']} {r['batch']} {r['prompt']}/{r['generate']}")
            by.setdefault(key, {})[gpu] = (float(r["value"]), predict_llm.predict(nnperf, hw, r))
    report("decoder (ttft_ms or out_tok_s)", "decoder | row", by, "h100", "h200")


def report(what, head, by, a, b):
    """each pair's measured b/a ratio beside the predicted one; the summary line"""
    pairs = sorted((k, v) for k, v in by.items() if len(v) == 2)
    errs, ms, ps = [], [], []
    if "--rows" in sys.argv:
        print(f"| {head} | measured H200/H100 | predicted | error |")
        print("|---|---:|---:|---:|---:|")
    for (model, row), v in pairs:
        m = v[b][0] / v[a][0]
        p = v[b][1] / v[a][1]
        errs.append(abs(p / m - 1))
        ms.append(m)
        ps.append(p)
        if "--rows" in sys.argv:
            name = os.path.basename(model).replace(".onnx", "")
            label = " ".join(map(str, row)) if isinstance(row, tuple) else row
            print(f"| {name} | {label} | {m:.3f} | {p:.3f} | {100 * (p / m - 1):+.1f}% |")
    print(f"{what}, {len(pairs)} pairs: measured H200/H100 median {statistics.median(ms):.3f} (range {min(ms):.3f}-"
          f"{max(ms):.3f}), predicted median {statistics.median(ps):.3f} (range {min(ps):.3f}-{max(ps):.3f}); "
          f"|error| of the predicted ratio median {100 * statistics.median(errs):.1f}%, "
          f"p90 {100 * fidelity.percentile_abs(errs, 0.9):.1f}%")


if __name__ == "__main__":
    main()
