#!/usr/bin/python3
"""hbdk.py - per-layer fidelity against the HBDK report: predicts each rebuilt backbone layer
(bench/fidelity/make_hbdk_layers.py) on a platform and compares its compute time (compute + per-layer overhead, no
DDR: the report's "computing cost (no DDR)") with the report's. Prints one row per layer, the median |error| and how
many layers are within 25%. Rows named in --fit are the ones the platform's free parameters were taken from; the
summary line counts them apart.

usage: bench/fidelity/hbdk.py NNPERF MODELDIR PLATFORM [--fit NAME,NAME...]"""
import csv, json, os, statistics, subprocess, sys


def main():
    args = sys.argv[1:]
    fit = set()
    if "--fit" in args:
        i = args.index("--fit")
        fit = set(args[i + 1].split(","))
        del args[i:i + 2]
    if len(args) != 3:
        sys.exit(__doc__)
    nnperf, mdir, plat = args
    here = os.path.dirname(os.path.abspath(__file__))
    with open(os.path.join(here, "hbdk_layers.csv")) as f:
        rows = list(csv.DictReader(line for line in f if not line.startswith("#")))
    print(f"{'layer':48s} {'k':>2s} {'s':>2s} {'g':>2s} {'cin':>4s} {'cout':>4s} {'report us':>9s} "
          f"{'nnperf us':>9s} {'error':>7s}")
    errs, errs_val = [], []
    for r in rows:
        out = subprocess.run([nnperf, "analyze", os.path.join(mdir, r["name"] + ".onnx"), "--hw", plat, "--format",
                              "json"], capture_output=True, text=True)
        if out.returncode not in (0, 1):
            sys.exit(f"{r['name']}: nnperf failed: {out.stderr.strip()}")
        d = json.loads(out.stdout)
        t = sum(l["compute_us"] + l["overhead_us"] for l in d["layers"])
        meas = float(r["cost_us"])
        e = t / meas - 1
        errs.append(e)
        tag = " (fit)" if r["name"] in fit else ""
        if not tag:
            errs_val.append(e)
        print(f"{r['name']:48s} {r['k']:>2s} {r['stride']:>2s} {r['groups']:>2s} {r['cin']:>4s} {r['cout']:>4s} "
              f"{meas:9.0f} {t:9.1f} {e * 100:+6.1f}%{tag}")

    def summary(name, es):
        within = sum(abs(e) <= 0.25 for e in es)
        print(f"{name}: {len(es)} layers, median |error| {statistics.median(abs(e) for e in es) * 100:.1f}%, "
              f"{within} of {len(es)} within 25%, worst {max(es, key=abs) * 100:+.1f}%")

    summary("all", errs)
    if fit:
        summary("not used for fitting", errs_val)


if __name__ == "__main__":
    main()
