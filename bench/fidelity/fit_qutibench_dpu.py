"""fit_qutibench_dpu.py - fits the runtime description of QuTiBench's DNNDK application loop on the three DPU boards
(presets/runtimes/{ultra96,zcu102,zcu104}-dpu-qutibench.yaml) on the `fit` rows of
bench/fidelity/data/qutibench_fit_dpu.csv only (QuTiBench's own runs with 2 to 7 threads); a test row is refused.

  PYTHONPATH=python NNPERF_LIBRARY=build/libnnperf.so python3 bench/fidelity/fit_qutibench_dpu.py [FORM ...]

Each row is predicted as fidelity.py predicts it (throughput with the row's thread count), on a platform file with
`base:` the row's preset and the form's keys set. A form is a set of free numbers, each shared by a set of boards:
  h      overhead.host_per_frame_s (the A53 host stage per frame)
  s      a factor on the preset's compute.efficiency (the DPU layers as QuTiBench's build runs them)
  r      overhead.per_run_s (per DPU call: one per frame on the Zynq DPU)
  _b     one number per board instead of one shared by the three.
The fit minimises the sum of |ln(predicted / measured)| over the fit rows (multiplicative steps on each number in
turn, halved until under 0.5%); the form is chosen by that sum (bench/RESULTS.md, "QuTiBench's DNNDK loop on the
DPU boards"). `nnperf calibrate --table` is not used: it predicts a throughput row at the saturated thread count,
and most of these rows are below it. Prints each form's numbers and per-row errors; writes nothing.
"""
import math
import os
import sys
import tempfile
import warnings

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import fidelity  # noqa: E402

BOARDS = ["ultra96-dpu", "zcu102-dpu", "zcu104-dpu"]
KEYS = {"h": "host_per_frame_s", "r": "per_run_s", "s": "efficiency"}


def preset_efficiency(board):
    """the preset's compute.efficiency default, read from its YAML"""
    with open(os.path.join(fidelity.ROOT, "presets", board + ".yaml")) as f:
        for line in f:
            if line.strip().startswith("efficiency: {default:"):
                return float(line.split("default:")[1].strip(" }\n"))
    sys.exit(f"presets/{board}.yaml: no compute.efficiency default")


def form_of(name):
    """'h+s+r_b' -> [(number name, key, boards)]"""
    out = []
    for part in name.split("+"):
        key = KEYS[part[0]]
        out += [(f"{part[0]}_{b}", key, [b]) for b in BOARDS] if part.endswith("_b") else [(part, key, BOARDS)]
    return out


def platform_text(board, values):
    comp = f"compute:\n  efficiency: {{default: {values['efficiency']:.4g}}}\n" if "efficiency" in values else ""
    over = "".join(f"  {k}: {values[k]:.4g}\n" for k in ("host_per_frame_s", "per_run_s") if k in values)
    return f"format: 1\nbase: {board}\nname: {board}-qutibench-fit\n{comp}" + (f"overhead:\n{over}" if over else "")


def values_of(form, x, eff):
    v = {b: {} for b in BOARDS}
    for (_, key, bs), xi in zip(form, x):
        for b in bs:
            v[b][key] = min(1.0, eff[b] * xi) if key == "efficiency" else xi
    return v


class Fit:
    def __init__(self, rows, tmp):
        self.rows, self.tmp, self.analyses = rows, tmp, {}
        self.eff = {b: preset_efficiency(b) for b in BOARDS}

    def errors(self, form, x):
        import nnperf
        paths = {}
        for b, v in values_of(form, x, self.eff).items():
            paths[b] = os.path.join(self.tmp, b + ".yaml")
            with open(paths[b], "w") as f:
                f.write(platform_text(b, v))
        out = []
        for r in self.rows:
            if r["model"] not in self.analyses:
                dims = [int(d) for d in r["input"].split("x")]
                self.analyses[r["model"]] = nnperf.load(os.path.join(fidelity.ROOT, r["model"])).analyze(
                    inputs={"input": dims})
            s = self.analyses[r["model"]].predict(paths[r["preset"]], dtype=r["dtype"]).summary
            out.append(fidelity.throughput_with_threads(s, r["threads"]) / float(r["value"]) - 1)
        return out

    def cost(self, form, x):
        return sum(abs(math.log(1 + e)) for e in self.errors(form, x))

    def fit(self, form):
        x = [{"host_per_frame_s": 3e-3, "per_run_s": 1e-3, "efficiency": 0.7}[k] for _, k, _ in form]
        c, step = self.cost(form, x), 0.5
        while step > 0.005:
            better = False
            for i in range(len(x)):
                for d in (1 + step, 1 / (1 + step)):
                    y = list(x)
                    y[i] *= d
                    cy = self.cost(form, y)
                    if cy < c - 1e-12:
                        x, c, better = y, cy, True
            if not better:
                step /= 2
        return x, c


def main():
    warnings.simplefilter("ignore")
    sys.path.insert(0, os.path.join(fidelity.ROOT, "python"))
    path = os.path.join(fidelity.DATA, "qutibench_fit_dpu.csv")
    rows = [r for r in fidelity.read_rows() if r["where"].startswith(os.path.relpath(path, fidelity.ROOT) + ":")]
    if any(r["split"] != "fit" for r in rows):
        sys.exit(f"{path}: a test row; this fit reads fit rows only")
    forms = sys.argv[1:] or ["h+s", "h+r_b", "h+s_b", "h+s+r_b"]
    with tempfile.TemporaryDirectory() as tmp:
        fit = Fit(rows, tmp)
        for name in forms:
            form = form_of(name)
            x, c = fit.fit(form)
            errs = fit.errors(form, x)
            print(f"{name}: sum |ln| {c:.3f} (mean {100 * (math.exp(c / len(rows)) - 1):.1f}%), median |error| "
                  f"{fidelity.pct(fidelity.median_abs(errs))}, {len(rows)} fit rows: "
                  + ", ".join(f"{n} {v:.4g}" for (n, _, _), v in zip(form, x)))
            for b in BOARDS:
                print(f"  {b}: " + " ".join(f"{os.path.basename(r['model'])[:-5]}/{r['threads']} {100 * e:+.0f}%"
                                            for r, e in zip(rows, errs) if r["preset"] == b))


if __name__ == "__main__":
    main()
