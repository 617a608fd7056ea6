#!/usr/bin/env python3
"""rpi5_threads.py - the raspberry-pi-5 test rows (data/rpi5_ncnn.csv, benchncnn with 4 threads) beside the fit rows
of the same networks (data/rpi5_ncnn_1t.csv, the 1-thread run of the same public table, [NCNN-BENCH]), each predicted
on a platform with the thread count it ran (`--threads 4`, `--threads 1`): where a platform is off, in the per-core
model (1T column) or in the four threads (the 4T/1T ratios, measured and predicted). Nothing is fitted here.

usage: bench/fidelity/rpi5_threads.py [NNPERF] [PLATFORM]   (defaults: build/nnperf, raspberry-pi-5; e.g.
       bench/fidelity/rpi5_fit_1t.yaml, the candidate fitted on the 1-thread rows)"""
import csv
import json
import os
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.normpath(os.path.join(HERE, "..", ".."))
sys.path.insert(0, HERE)
from fidelity import median_abs  # noqa: E402


def rows_of(name):
    with open(os.path.join(HERE, "data", name)) as f:
        return [r for r in csv.DictReader(line for line in f if not line.startswith("#"))]


def bench_name(r):
    return r["includes"].rsplit("('", 1)[1].rstrip("')")


def predict(nnperf, model, inp, dtype, hw, extra):
    cmd = [nnperf, "analyze", os.path.join(ROOT, model), "--input", "input=" + inp, "--hw", hw, "--dtype", dtype,
           "-q", "--format", "json"] + extra
    out = subprocess.run(cmd, check=True, capture_output=True, text=True).stdout
    return json.loads(out)["summary"]["latency_ms"]


def main():
    nnperf = sys.argv[1] if len(sys.argv) > 1 else os.path.join(ROOT, "build", "nnperf")
    hw = sys.argv[2] if len(sys.argv) > 2 else "raspberry-pi-5"
    one = {(bench_name(r), r["dtype"]): r for r in rows_of("rpi5_ncnn_1t.csv")}
    print(f"{'model':22s} {'dtype':5s} {'4T ms':>8s} {'pred':>8s} {'err':>7s} {'1T ms':>8s} {'pred':>8s} {'err':>7s}"
          f" {'4T/1T':>6s} {'pred':>6s}")
    e4, e1 = [], []
    for r in rows_of("rpi5_ncnn.csv"):
        f = one[bench_name(r), r["dtype"]]
        m4, m1 = float(r["value"]), float(f["value"])
        p4 = predict(nnperf, r["model"], r["input"], r["dtype"], hw, ["--threads", r["threads"]])
        p1 = predict(nnperf, f["model"], f["input"], f["dtype"], hw, ["--threads", f["threads"]])
        e4.append(p4 / m4 - 1)
        e1.append(p1 / m1 - 1)
        model = os.path.splitext(os.path.basename(r["model"]))[0]
        print(f"{model:22s} {r['dtype']:5s} {m4:8.2f} {p4:8.2f} {100 * e4[-1]:+6.1f}% {m1:8.2f} {p1:8.2f}"
              f" {100 * e1[-1]:+6.1f}% {m1 / m4:6.2f} {p1 / p4:6.2f}")
    print(f"median |error|: 4 threads (test rows) {100 * median_abs(e4):.1f}%, 1 thread (the fit rows of these "
          f"networks) {100 * median_abs(e1):.1f}%")


if __name__ == "__main__":
    main()
