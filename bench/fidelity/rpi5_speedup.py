#!/usr/bin/env python3
"""rpi5_speedup.py - derives a raspberry-pi-5 platform's compute.parallel_speedup (the rate four threads reach on a layer they
split evenly, in units of one core's) from ncnn's measured 4- over 1-thread speedup of networks that are not dataset
rows (median 1.66 over 16 networks, [NCNN-BENCH]; presets/raspberry-pi-5.yaml names them). That measured ratio is a
whole network's: it includes the layers the four threads split unevenly (compute.thread_tile), the barrier after
every layer (overhead.thread_sync_s) and the DDR the cores share. So the speedup of an even split is the value at
which the preset's own predicted median 1-thread / 4-thread ratio, over the networks of the fit rows
(data/rpi5_ncnn_1t.csv: their models and dtypes, no measured value of any row), equals the measured 1.66 of the
other networks. Bisection; prints each step and the value. Nothing here reads a test row.

usage: PYTHONPATH=python NNPERF_LIBRARY=build/libnnperf.so bench/fidelity/rpi5_speedup.py [PLATFORM.yaml] [RATIO]
       (defaults: bench/fidelity/rpi5_fit_1t.yaml, the candidate whose parallel_speedup it gave, and 1.66)"""
import csv
import os
import re
import sys
import tempfile
import warnings

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.normpath(os.path.join(HERE, "..", ".."))


def median(a):
    a = sorted(a)
    n = len(a)
    return a[n // 2] if n % 2 else (a[n // 2 - 1] + a[n // 2]) / 2


def main():
    sys.path.insert(0, os.path.join(ROOT, "python"))
    import nnperf
    warnings.simplefilter("ignore", nnperf.PredictionWarning)
    preset = sys.argv[1] if len(sys.argv) > 1 else os.path.join(HERE, "rpi5_fit_1t.yaml")
    target = float(sys.argv[2]) if len(sys.argv) > 2 else 1.66
    with open(preset) as f:
        text = f.read()
    with open(os.path.join(HERE, "data", "rpi5_ncnn_1t.csv")) as f:
        rows = [r for r in csv.DictReader(line for line in f if not line.startswith("#"))]
    assert all(r["split"] == "fit" for r in rows)
    cases, analyses = sorted({(r["model"], r["input"], r["dtype"]) for r in rows}), {}
    for model, inp, _ in cases:
        if (model, inp) not in analyses:
            dims = [int(d) for d in inp.split("x")]
            analyses[model, inp] = nnperf.load(os.path.join(ROOT, model)).analyze(inputs={"input": dims})
    with tempfile.TemporaryDirectory() as tmp:
        path = os.path.join(tmp, "rpi5.yaml")
        # a file with `base: raspberry-pi-5` finds its base by name (a built-in preset) from anywhere

        def ratios(s):
            with open(path, "w") as f:
                f.write(re.sub(r"^  parallel_speedup: \S+", f"  parallel_speedup: {s:.6g}", text, count=1,
                               flags=re.M))
            out = []
            for model, inp, dt in cases:
                a = analyses[model, inp]
                t1 = a.predict(path, dtype=dt, threads=1).summary["latency_ms"]
                t4 = a.predict(path, dtype=dt, threads=4).summary["latency_ms"]
                out.append(t1 / t4)
            return out

        lo, hi = 1.0, 4.0
        for _ in range(14):
            mid = (lo + hi) / 2
            r = ratios(mid)
            print(f"parallel_speedup {mid:.4f}: predicted 1T/4T median {median(r):.4f} "
                  f"(min {min(r):.3f}, max {max(r):.3f})")
            lo, hi = (mid, hi) if median(r) < target else (lo, mid)
        s = round((lo + hi) / 2, 2)
        r = ratios(s)
        print(f"compute.parallel_speedup {s}: the predicted 1-thread / 4-thread median over the {len(cases)} fit-row "
              f"networks is {median(r):.3f} (target {target}, the measured median of networks that are not rows)")


if __name__ == "__main__":
    main()
