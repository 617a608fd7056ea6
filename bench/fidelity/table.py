#!/usr/bin/python3
"""table.py - whole-model fidelity against a published FPS table: predicts every row (model, input shape) on a
platform and prints predicted vs published FPS, the error, and the medians over all rows and over the rows not used
for fitting (--fit MODEL@INPUT,...).

usage: bench/fidelity/table.py NNPERF TABLE.csv PLATFORM [--column NAME] [--fit model@input,...] [--models DIR]

--column: the measured column to compare (default: fps, else latency_ms); a name ending in _ms is a latency per
inference, throughput_fps is compared with nnperf's throughput (every core busy), anything else with its FPS."""
import csv, json, os, statistics, subprocess, sys


def main():
    args = sys.argv[1:]
    opts = {}
    for k in ("--fit", "--models", "--column"):
        if k in args:
            i = args.index(k)
            opts[k] = args[i + 1]
            del args[i:i + 2]
    if len(args) != 3:
        sys.exit(__doc__)
    nnperf, table, plat = args
    fit = set(opts.get("--fit", "").split(",")) - {""}
    here = os.path.dirname(os.path.abspath(__file__))
    mdir = opts.get("--models", os.path.join(here, "..", "..", "models"))
    with open(table) as f:
        rows = list(csv.DictReader(line for line in f if not line.startswith("#")))
    col = opts.get("--column") or ("fps" if "fps" in rows[0] else "latency_ms")
    if col not in rows[0]:
        sys.exit(f"{table}: no column '{col}'")
    print(f"{'model':18s} {'input':14s} {col:>14s} {'nnperf':>9s} {'error':>7s}  {'latency':>10s} "
          f"{'DDR/frame':>10s}")
    errs, val = [], []
    for r in rows:
        path = os.path.join(mdir, r["model"] + ".onnx")
        cmd = [nnperf, "analyze", path, "--hw", plat, "--format", "json", "--input", "input=" + r["input"]]
        out = subprocess.run(cmd, capture_output=True, text=True)
        if out.returncode not in (0, 1):
            sys.exit(f"{r['model']}: nnperf failed: {out.stderr.strip()}")
        s = json.loads(out.stdout)["summary"]
        meas = float(r[col])
        if col.endswith("_ms"):
            pred = s["latency_ms"] / s.get("frames_per_run", 1)
        elif col == "throughput_fps":
            pred = s["throughput_fps"]
        else:
            pred = s["fps"]
        e = pred / meas - 1
        key = f"{r['model']}@{r['input']}"
        errs.append(e)
        if key not in fit:
            val.append(e)
        print(f"{r['model']:18s} {r['input']:14s} {meas:14.2f} {pred:9.2f} {e * 100:+6.1f}%  "
              f"{s['latency_ms']:8.3f}ms {s['ddr_bytes_per_frame'] / 1e6:8.2f}MB{' (fit)' if key in fit else ''}")

    def summary(name, es):
        print(f"{name}: {len(es)} rows, median |error| {statistics.median(abs(e) for e in es) * 100:.1f}%, "
              f"worst {max(es, key=abs) * 100:+.1f}%, {sum(abs(e) <= 0.2 for e in es)} within 20%")

    summary("all", errs)
    if fit:
        summary("not used for fitting", val)


if __name__ == "__main__":
    main()
