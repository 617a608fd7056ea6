"""fit_ncs2.py - fits the declared residuals of the NCS2 preset (presets/ncs2.yaml) on its `fit` rows only
(QuTiBench's own runs at batch 2-64 in bench/fidelity/data/qutibench_fit_ncs2_finn.csv and Intel's OpenVINO 2022.1
throughput table in ncs2_openvino.csv); a test row is refused.

  PYTHONPATH=python NNPERF_LIBRARY=build/libnnperf.so python3 bench/fidelity/fit_ncs2.py [FORM ...]
  ... fit_ncs2.py --leave-out FORM     each network's fit rows predicted by the form fitted on the other networks'

Each row is predicted as fidelity.py predicts it, on a platform file with `base: ncs2`, the form's numbers set and
every other fitted part at the value the preset held before the fit. A form is a set of parts joined by '+':
  l      overhead.per_layer_s (the MYRIAD plugin's dispatch of one stage, paid once a frame)
  r      overhead.per_run_s (one inference request over XLink)
  s      a factor on the compute.efficiency map (every class; the ratios between classes stay assumptions)
  d      memory.ddr_efficiency (at most 1)
  F      nothing free: compute.array.fc_tile 256, the MYRIAD compiler's hardware FC tiles (docs/sources.md
         [OPENVINO-VPU-FC]): an FC input or output longer than 256 padded to whole tiles, weights stored padded, a
         padded input copied by an expand stage of its own
  0      nothing free: the preset as it was before the fit (PRE_FIT below: main e68dcea, FC tiles off)
The free numbers start from those values, and a part outside the form keeps them. The fit minimises the sum of
|ln(predicted / measured)| over the fit rows (multiplicative steps on each number in turn, halved until under 0.5%),
as fit_qutibench_dpu.py does. Prints each form's numbers, its sum and median |error|; writes nothing (the numbers go
into the preset by hand, with a comment naming this script).
"""
import os
import sys
import tempfile
import warnings

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import fidelity  # noqa: E402
from fit_qutibench_dpu import step_fit  # noqa: E402

FREE = {"l": ("per_layer_s", "overhead"), "r": ("per_run_s", "overhead"), "s": ("scale", "compute"),
        "d": ("ddr_efficiency", "memory")}


# the numbers presets/ncs2.yaml held before the fit that adopted F+l+r+s+d (main e68dcea; bench/RESULTS.md "The
# NCS2's hardware FC tiles"): every form starts from them and a part outside the form keeps them, and the FC tiles
# are off unless the form has F, so the recorded scores are reproduced after the adoption (the preset now holds the
# fitted numbers and fc_tile 256: read from it, form 0 would be the fitted preset and l+r+s+d would have the tiles)
PRE_FIT = {"eff": {"default": 0.449, "conv": 0.748, "gemm": 0.598, "matmul": 0.598, "eltwise": 0.224,
                   "activation": 0.299},
           "per_layer_s": 5.58e-5, "per_run_s": 1.40e-3, "ddr_efficiency": 0.987}


def form_of(name):
    """'F+l+r' -> (free parts [(part, key)], fc_tile on)"""
    parts = fidelity.form_parts(name, list(FREE) + ["F"], "fit_ncs2.py")
    return [p for p in parts if p in FREE], "F" in parts


def platform_text(pv, values, fc_tile):
    eff = pv["eff"]
    scale = values.get("s", 1.0)
    comp = "  efficiency: {" + ", ".join(f"{k}: {min(1.0, v * scale):.4g}" for k, v in eff.items()) + "}\n"
    comp += f"  array:\n    fc_tile: {256 if fc_tile else 0}\n"
    mem = f"memory:\n  ddr_efficiency: {min(1.0, values.get('d', pv['ddr_efficiency'])):.4g}\n"
    over = (f"overhead:\n  per_layer_s: {values.get('l', pv['per_layer_s']):.4g}\n"
            f"  per_run_s: {values.get('r', pv['per_run_s']):.4g}\n")
    return f"format: 1\nbase: ncs2\nname: ncs2-fit\ncompute:\n{comp}{mem}{over}"


def fit_rows():
    """the ncs2 rows whose split is `fit`; any other row here is refused"""
    return fidelity.fit_rows(keep=lambda r: r["preset"] == "ncs2" and r["split"] == "fit")


class Fit:
    def __init__(self, rows, tmp):
        fidelity.refuse_test(rows)
        self.rows, self.tmp, self.pv, self.analyses = rows, tmp, PRE_FIT, {}

    def errors(self, form, x):
        free, fc_tile = form
        path = os.path.join(self.tmp, "ncs2-fit.yaml")
        with open(path, "w") as f:
            f.write(platform_text(self.pv, dict(zip(free, x)), fc_tile))
        return fidelity.errors_on(self.rows, {"ncs2": path}, self.analyses)

    def cost(self, form, x):
        return fidelity.sum_abs_log(self.errors(form, x))

    def start(self, form):
        pv = self.pv
        return [{"l": pv["per_layer_s"], "r": pv["per_run_s"], "s": 1.0, "d": pv["ddr_efficiency"]}[p]
                for p in form[0]]

    def fit(self, form):
        x0 = self.start(form)
        if not form[0]:
            return x0, self.cost(form, x0)

        def cost(y):
            # ddr_efficiency at most 1: a step beyond it costs what 1 costs
            return self.cost(form, [min(v, 1.0) if p == "d" else v for p, v in zip(form[0], y)])
        x, c = step_fit(cost, x0, 0.16)
        return [min(v, 1.0) if p == "d" else v for p, v in zip(form[0], x)], c


def describe(form, x):
    return ", ".join(f"{FREE[p][0]} {v:.4g}" for p, v in zip(form[0], x))


def by_source(rows, errs):
    q = [e for r, e in zip(rows, errs) if "qutibench" in r["where"]]
    i = [e for r, e in zip(rows, errs) if "qutibench" not in r["where"]]
    return (f"QuTiBench {len(q)} rows {fidelity.pct(fidelity.median_abs(q))} (p90 "
            f"{fidelity.pct(fidelity.percentile_abs(q, 0.9))}), Intel {len(i)} rows {fidelity.pct(fidelity.median_abs(i))}")


def leave_out(rows, tmp, name):
    """each network's fit rows predicted with the form fitted on the other networks' fit rows"""
    form = form_of(name)
    held = []
    for net in sorted({r["model"] for r in rows}):
        x, _ = Fit([r for r in rows if r["model"] != net], tmp).fit(form)
        out = [r for r in rows if r["model"] == net]
        errs = Fit(out, tmp).errors(form, x)
        held += errs
        print(f"  {os.path.basename(net)} ({len(out)} rows): median |error| {fidelity.pct(fidelity.median_abs(errs))} "
              f"with {describe(form, x)}", flush=True)
    print(f"{name} left out one network at a time, {len(held)} fit rows: median |error| "
          f"{fidelity.pct(fidelity.median_abs(held))}, sum |ln| {fidelity.sum_abs_log(held):.2f}")


def main():
    warnings.simplefilter("ignore")
    rows = fit_rows()
    with tempfile.TemporaryDirectory() as tmp:
        if sys.argv[1:2] == ["--leave-out"] and len(sys.argv) == 3:
            return leave_out(rows, tmp, sys.argv[2])
        fit = Fit(rows, tmp)
        for name in sys.argv[1:] or ["0", "l+r+s+d", "F+l+r+s+d"]:
            form = form_of(name)
            x, c = fit.fit(form)
            errs = fit.errors(form, x)
            print(f"{name}: sum |ln| {c:.3f}, {len(rows)} fit rows, median |error| "
                  f"{fidelity.pct(fidelity.median_abs(errs))} ({by_source(rows, errs)}); {describe(form, x)}",
                  flush=True)


if __name__ == "__main__":
    main()
