#!/usr/bin/env python3
"""calibrate_rows.py - calibration with what a user has (issue 24, item 7): for every preset with 6 or more test
rows in bench/fidelity/data, draws 1 and 3 of its test rows (seeded), writes them as a user's measured table (no
split column: the user's own rows), runs `nnperf calibrate --hw PRESET --table` on them (keys chosen from the number
of rows), and predicts the preset's OTHER test rows with the calibrated platform. Prints, per preset and draw size,
the median |error| on those other rows uncalibrated and calibrated (median over the draws), and checks the
acceptance of the issue: calibrated <= 10%, and never worse than uncalibrated by more than 2 points.

usage: bench/fidelity/calibrate_rows.py NNPERF [--draws N] [--seed S] [--preset NAME] [--report-only]
Needs the Python package and the library: PYTHONPATH=python NNPERF_LIBRARY=build/libnnperf.so. Exit 1 when a
preset misses the acceptance (the numbers are in bench/RESULTS.md, "Calibration on a few rows")."""
import argparse
import os
import random
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import fidelity  # noqa: E402


def predict_on(rows, platform):
    saved = [r["preset"] for r in rows]
    for r in rows:
        r["preset"] = platform
    try:
        fidelity.predict_rows(rows)
    finally:
        for r, p in zip(rows, saved):
            r["preset"] = p
    return [r["error"] for r in rows]


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("nnperf")
    ap.add_argument("--draws", type=int, default=5)
    ap.add_argument("--seed", type=int, default=24)
    ap.add_argument("--preset", default="")
    ap.add_argument("--report-only", action="store_true", help="exit 0 whatever the acceptance gives")
    a = ap.parse_args()
    opts = {"--preset": a.preset}
    nnperf = os.path.abspath(a.nnperf)
    draws, rng = a.draws, random.Random(a.seed)
    rows = [r for r in fidelity.read_rows() if r["split"] == "test"]
    # the CLI is a program of its own: a sanitizer runtime preloaded into this python is not for it
    cli_env = {k: v for k, v in os.environ.items() if k != "LD_PRELOAD"}
    presets = sorted({r["preset"] for r in rows})
    status = 0
    print(f"{'preset':14s} {'test':>4s} {'drawn':>5s} {'uncalibrated':>12s} {'calibrated':>10s} {'change':>7s}  "
          f"{'keys (per draw)'}")
    with tempfile.TemporaryDirectory() as tmp:
        for p in presets:
            if opts["--preset"] and p != opts["--preset"]:
                continue
            mine = [r for r in rows if r["preset"] == p]
            if len(mine) < 6:
                continue
            for k in (1, 3):
                unc, cal, keys = [], [], []
                for d in range(draws):
                    pick = rng.sample(range(len(mine)), k)
                    table = os.path.join(tmp, f"{p}-{k}-{d}.csv")
                    with open(table, "w") as f:
                        f.write("model,input,dtype,batch,quantity,value,unit\n")
                        for i in pick:
                            r = mine[i]
                            f.write(f"{os.path.join(fidelity.ROOT, r['model'])},{r['input']},{r['dtype']},"
                                    f"{r['batch']},{r['quantity']},{r['value']},{r['unit']}\n")
                    out = os.path.join(tmp, f"{p}-{k}-{d}.yaml")
                    run = subprocess.run([nnperf, "calibrate", "--hw", p, "--table", table, "-o", out],
                                         capture_output=True, text=True, env=cli_env)
                    if run.returncode:
                        sys.exit(f"{p}: calibrate failed: {run.stderr.strip()}")
                    keys.append(",".join(l.split()[0].replace("calibration.", "") for l in run.stderr.splitlines()
                                         if l.startswith("  ") and "->" in l))
                    others = [dict(r) for i, r in enumerate(mine) if i not in pick]
                    unc.append(fidelity.median_abs(predict_on([dict(r) for r in others], p)))
                    cal.append(fidelity.median_abs(predict_on(others, out)))
                u, c = fidelity.median_abs(unc), fidelity.median_abs(cal)
                ok = c <= 0.10 and c <= u + 0.02
                status |= not ok
                print(f"{p:14s} {len(mine):4d} {k:5d} {100 * u:11.1f}% {100 * c:9.1f}% {100 * (c - u):+6.1f}  "
                      f"{'ok  ' if ok else 'MISS'} {' | '.join(sorted(set(keys)))}")
    return 0 if a.report_only else status


if __name__ == "__main__":
    sys.exit(main())
