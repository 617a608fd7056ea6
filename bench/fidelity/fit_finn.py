"""fit_finn.py - fits the declared residuals of zcu104-finn's derived folding (compute.dataflow: lut_fraction,
memory_fraction and, in form "lmf", fill) on the `fit` rows of bench/fidelity/data/qutibench_fit_ncs2_finn.csv only
(QuTiBench's FINN INT4 runs at batch 2-256); a test row is refused.

  PYTHONPATH=python NNPERF_LIBRARY=build/libnnperf.so python3 bench/fidelity/fit_finn.py [FORM ...]

Forms: "lm" fits lut_fraction and memory_fraction (fill 1: the dataflow schedule as it was, a frame passes the
layers one after another), "lmf" also fill, "lms" the two fractions with compute.dataflow.streaming: true (a frame's
pass streams row by row through the engines: docs/prediction.md, Dataflow accelerators). Every other key is public (PUBLIC below: the ZU7EV's LUTs, BRAM
and UltraRAM from Xilinx DS891, the 200 MHz clock of finn-examples' ZCU104 builds) or a stated assumption
(lut_per_lane_bit); the fitted numbers are written by hand into presets/zcu104-finn.yaml. The folding, and so
the frame period, changes only where a budget crosses a
design's needs, so the fit is a grid: lut_fraction on a log grid, memory_fraction linear, each point predicted by
nnperf on a platform file with `base: zcu104-finn` (batch 1: the frame's pass through the pipeline with fill 1;
batch 2 - batch 1: the slowest layer's frame time); a row of batch B is then pass + (B - 1) x period with the pass
fill x (sum - slowest) + slowest (docs/prediction.md, Dataflow accelerators); the errors printed are nnperf's own
predictions of every row at the chosen point. The cost is the sum of |ln(predicted / measured)| over the fit rows; among the
grid points of the least cost, the middle one of each key (of the points that keep the least cost). Prints the
fitted numbers, the fit rows' median |error| and each design's predicted vs measured frame period; writes nothing.
"""
import math
import os
import sys
import tempfile
import warnings

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import fidelity  # noqa: E402

PRESET = "zcu104-finn"
DATA = "qutibench_fit_ncs2_finn.csv"


# the public keys (docs/sources.md): Xilinx DS891's ZU7EV (230,400 LUTs, 312 BRAM36 = 624 BRAM18, 96 UltraRAM),
# finn-examples' ZCU104 clock (200 MHz); lut_per_lane_bit 1 is the stated assumption (only lut_fraction / it matters)
PUBLIC = {"clock_hz": 200e6, "luts": 230400, "bram18": 624, "uram": 96, "lut_per_lane_bit": 1}


def platform_text(lut, mem, fill, streaming=False):
    return (f"format: 1\nbase: {PRESET}\nname: {PRESET}-fit\ncompute:\n  dataflow:\n"
            + "".join(f"    {k}: {v:g}\n" for k, v in PUBLIC.items())
            + f"    lut_fraction: {lut:.6g}\n    memory_fraction: {mem:.6g}\n    fill: {fill:.6g}\n"
            + f"    streaming: {'true' if streaming else 'false'}\n")


class Fit:
    def __init__(self, rows, tmp):
        import nnperf
        self.rows, self.tmp, self.cache, self.streaming = rows, tmp, {}, False
        self.models = sorted({r["model"] for r in rows})
        self.analyses = {m: nnperf.load(os.path.join(fidelity.ROOT, m)).analyze(
            inputs={"input": [int(d) for d in next(r for r in rows if r["model"] == m)["input"].split("x")]})
            for m in self.models}
        self.path = os.path.join(tmp, "p.yaml")

    def design(self, lut, mem):
        """{model: (a frame's pass, slowest layer's frame time), seconds} at these budgets (fill 1: the pass is the
        sum of the layers' frame times, or with streaming the streamed pass)"""
        with open(self.path, "w") as f:
            f.write(platform_text(lut, mem, 1, self.streaming))
        out = {}
        for m in self.models:
            one, two = (self.analyses[m].predict(self.path, dtype="int4", batch=b).summary["latency_ms"] / 1e3
                        for b in (1, 2))
            out[m] = (one, two - one)
        return out

    def errors(self, d, fill):
        out = []
        for r in self.rows:
            total, slowest = d[r["model"]]
            pred = (slowest + fill * (total - slowest) + (int(r["batch"]) - 1) * slowest) * 1e3
            out.append(pred / float(r["value"]) - 1)
        return out

    def cost(self, d, fill):
        return fidelity.sum_abs_log(self.errors(d, fill))

    def best_fill(self, d, fit_fill):
        if not fit_fill:
            return 1.0, self.cost(d, 1.0)
        return min(((f / 100, self.cost(d, f / 100)) for f in range(101)), key=lambda t: t[1])

    def grid(self, luts, mems, fit_fill):
        res = []
        for lut in luts:
            for mem in mems:
                d = self.design(lut, mem)
                fill, c = self.best_fill(d, fit_fill)
                res.append((c, lut, mem, fill))
        return res


def middle(res):
    """the middle lut and mem of the least-cost points (the one nearest it that keeps the least cost)"""
    c0 = min(r[0] for r in res)
    best = [r for r in res if r[0] <= c0 + 1e-9]
    luts, mems = sorted({r[1] for r in best}), sorted({r[2] for r in best})
    lm, mm = luts[len(luts) // 2], mems[len(mems) // 2]
    return min(best, key=lambda r: (abs(math.log(r[1] / lm)) + abs(math.log(r[2] / mm)), r[1], r[2]))


def main():
    warnings.simplefilter("ignore")
    sys.path.insert(0, os.path.join(fidelity.ROOT, "python"))
    path = os.path.join(fidelity.DATA, DATA)
    rows = fidelity.fit_rows(path, lambda r: r["preset"] == PRESET)
    forms = sys.argv[1:] or ["lm", "lmf"]
    with tempfile.TemporaryDirectory() as tmp:
        fit = Fit(rows, tmp)
        for form in forms:
            if form not in ("lm", "lmf", "lms"):
                sys.exit(f"fit_finn.py: unknown form {form!r} (lm, lmf, lms)")
            fit_fill, fit.streaming = form == "lmf", form == "lms"
            # coarse: lut_fraction 0.02-1 (log, 40 points), memory_fraction 0.30-1 (0.01); then 4x finer around
            luts = [0.02 * 50 ** (i / 39) for i in range(40)]
            mems = [0.30 + 0.01 * i for i in range(71)]
            c, lut, mem, fill = middle(fit.grid(luts, mems, fit_fill))
            luts = [lut * (50 ** (1 / 39)) ** (i / 4) for i in range(-4, 5)]
            mems = [m for m in (mem + 0.0025 * i for i in range(-4, 5)) if 0 < m <= 1]
            c, lut, mem, fill = middle(fit.grid(luts, mems, fit_fill))
            d = fit.design(lut, mem)
            grid_errs = fit.errors(d, fill)
            # the errors reported are nnperf's own predictions of every row at the fitted point (the grid's formula
            # leaves out the layers outside the engines, whose DDR traffic grows with the batch: pooling)
            with open(fit.path, "w") as f:
                f.write(platform_text(lut, mem, fill, fit.streaming))
            errs = [fit.analyses[r["model"]].predict(fit.path, dtype="int4", batch=int(r["batch"])).summary[
                "latency_ms"] / float(r["value"]) - 1 for r in rows]
            off = max(abs((1 + e) / (1 + g) - 1) for e, g in zip(errs, grid_errs))
            nn_cost = fidelity.sum_abs_log(errs)
            print(f"{form}: lut_fraction {lut:.4g}, memory_fraction {mem:.4g}, fill {fill:.2f}; nnperf's sum |ln| "
                  f"{nn_cost:.3f}; grid sum |ln| "
                  f"{c:.3f}; nnperf's predictions: median |error| {fidelity.pct(fidelity.median_abs(errs))}, "
                  f"p90 {fidelity.pct(fidelity.percentile_abs(errs, 0.9))} over {len(rows)} fit rows (the grid's "
                  f"formula within {100 * off:.1f}% of them)")
            for m in fit.models:
                mr = [(int(r["batch"]), float(r["value"])) for r in rows if r["model"] == m]
                (b0, v0), (b1, v1) = min(mr), max(mr)
                period = (v1 - v0) / (b1 - b0)
                me = [e for r, e in zip(rows, errs) if r["model"] == m]
                print(f"  {os.path.basename(m)[:-5]:11s} period {1e3 * d[m][1]:.4g} ms (fit rows' slope "
                      f"{period:.4g} ms, {100 * (1e3 * d[m][1] / period - 1):+.0f}%), pass "
                      f"{1e3 * (d[m][1] + fill * (d[m][0] - d[m][1])):.4g} ms; rows "
                      + " ".join(f"{100 * e:+.0f}%" for e in me))


if __name__ == "__main__":
    main()
