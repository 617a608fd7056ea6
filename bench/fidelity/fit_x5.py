"""fit_x5.py - fits the declared residuals of presets/rdk-x5.yaml (the RDK X5's Bayes-e BPU as the zoo's
`hrt_model_exec perf` loop runs it) on the `fit` rows of bench/fidelity/data/rdk_x5_zoo.csv only; a test row is
refused (fidelity.fit_rows).

  PYTHONPATH=python NNPERF_LIBRARY=build/libnnperf.so python3 bench/fidelity/fit_x5.py [FORM ...]
  ... fit_x5.py --leave-out FORM ...   each fit network's rows predicted by the form fitted on the other fit
                                       networks' rows (the adoption rule's score, bench/RESULTS.md)

Each row is predicted as fidelity.py predicts it (a 4-thread throughput row with streams=4) on a platform file with
`base: rdk-x5`, the form's numbers set and every other part at the placeholder the preset held before the fit (e 0.3,
v 10e9, h 0, d 0.6, s 0: form 0 is that placeholder preset, not the fitted one). A form is a set of parts joined by
'+':
  e   compute.efficiency (default): the fraction of the 10 TOPS the array reaches on a dense layer (at most 1)
  v   compute.vector_ops: the vector unit's rate (element-wise, pooling, depthwise-bound layers), elements/s
  h   overhead.host_per_frame_s: the runtime's per-frame stage, in series with one thread's BPU run, beside it when
      several threads run (lengthens the one-thread latency, not the saturated throughput)
  d   memory.ddr_efficiency: the fraction of the LPDDR4's 17.06 GB/s the BPU gets (at most 1)
  s   compute.strided_input_bandwidth: a strided conv's input re-layout rate, bytes/s
Start values: e 0.3, v 10e9, h 100 us, d 0.6, s 20e9. The fit minimises the sum of |ln(predicted / measured)| over the
fit rows (multiplicative steps on each number in turn, halved until under 0.5%: fit_qutibench_dpu.step_fit). Prints
each form's numbers, its sum and median |error|; writes nothing (the numbers go into the preset by hand, with a
comment naming this script).
"""
import os
import sys
import tempfile
import warnings

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import fidelity  # noqa: E402
from fit_qutibench_dpu import step_fit  # noqa: E402

DATA = os.path.join(fidelity.DATA, "rdk_x5_zoo.csv")
# part: (section, key, start value, upper bound or None, unit scale for printing, unit)
PARTS = {"e": ("compute", "efficiency", 0.3, 1.0, 1, ""), "v": ("compute", "vector_ops", 10e9, None, 1e-9, " G/s"),
         "h": ("overhead", "host_per_frame_s", 1e-4, None, 1e6, " us"),
         "d": ("memory", "ddr_efficiency", 0.6, 1.0, 1, ""),
         "s": ("compute", "strided_input_bandwidth", 20e9, None, 1e-9, " GB/s")}


def form_of(name):
    """'e+v+h' -> ['e', 'v', 'h']; '0' -> []"""
    return fidelity.form_parts(name, list(PARTS), "fit_x5.py")


def bounded(form, x):
    return [min(v, PARTS[p][3]) if PARTS[p][3] else v for p, v in zip(form, x)]


# the numbers presets/rdk-x5.yaml held before the fit (the rule's baseline, bench/RESULTS.md "RDK X5: a preset from
# its own rows"): a part outside the form keeps its placeholder, not the fitted value the preset holds now, so the
# recorded scores are reproduced after the adoption
PLACEHOLDER = {"e": 0.3, "v": 10e9, "h": 0, "d": 0.6, "s": 0}


def platform_text(form, x):
    sections = {}
    values = dict(PLACEHOLDER, **dict(zip(form, bounded(form, x))))
    for p, v in ((p, values[p]) for p in PARTS):
        sec, key = PARTS[p][:2]
        sections.setdefault(sec, []).append(f"  {key}: {{default: {v:.6g}}}\n" if key == "efficiency"
                                            else f"  {key}: {v:.6g}\n")
    return "format: 1\nbase: rdk-x5\nname: rdk-x5-fit\n" + "".join(f"{s}:\n" + "".join(k) for s, k in sections.items())


class Fit:
    def __init__(self, rows, tmp):
        self.rows, self.tmp, self.analyses = fidelity.refuse_test(rows), tmp, {}

    def errors(self, form, x):
        path = os.path.join(self.tmp, "rdk-x5-fit.yaml")
        with open(path, "w") as f:
            f.write(platform_text(form, x))
        return fidelity.errors_on(self.rows, {"rdk-x5": path}, self.analyses)

    def fit(self, form):
        x0 = [PARTS[p][2] for p in form]
        if not form:
            return x0, fidelity.sum_abs_log(self.errors(form, x0))
        x, c = step_fit(lambda y: fidelity.sum_abs_log(self.errors(form, y)), x0, 0.5)
        return bounded(form, x), c


def describe(form, x):
    return ", ".join(f"{PARTS[p][1]} {v * PARTS[p][4]:.4g}{PARTS[p][5]}" for p, v in zip(form, x)) or \
        "the placeholder preset (the rule's baseline)"


def report(name, rows, errs, tail):
    """one line: the form's sum |ln| and median |error| over the rows, by quantity, and what it was fitted with"""
    parts = [f"{q} {fidelity.pct(fidelity.median_abs([e for r, e in zip(rows, errs) if r['quantity'] == q]))}"
             for q in ("latency", "throughput")]
    print(f"{name}: {len(rows)} fit rows, sum |ln| {fidelity.sum_abs_log(errs):.3f}, median |error| "
          f"{fidelity.pct(fidelity.median_abs(errs))} ({'; '.join(parts)}){tail}", flush=True)


def main():
    warnings.simplefilter("ignore")
    rows = fidelity.fit_rows(DATA, keep=lambda r: r["preset"] == "rdk-x5" and r["split"] == "fit")
    args = sys.argv[1:]
    loo = args[:1] == ["--leave-out"]
    names = (args[1:] if loo else args) or (["e+v+h", "e+v+h+d", "e+v+h+s"] if loo else
                                              ["0", "e+v+h", "e+v+h+d", "e+v+h+s"])
    with tempfile.TemporaryDirectory() as tmp:
        for name in names:
            form = form_of(name)
            if loo:
                order, errs = [], []
                for net, mine, e, x in fidelity.held_out_networks(rows, lambda rs: Fit(rs, tmp), form):
                    order += mine
                    errs += e
                    print(f"  {os.path.basename(net)}: {', '.join(f'{v * 100:+.1f}%' for v in e)} with "
                          f"{describe(form, x)}", flush=True)
                report(name + " left out one network at a time", order, errs, "")
                continue
            fit = Fit(rows, tmp)
            x = fit.fit(form)[0]
            errs = fit.errors(form, x)
            report(name, rows, errs, "; " + describe(form, x))
            for r, e in zip(rows, errs):
                print(f"  {os.path.basename(r['model'])[:-5]:24s} {r['quantity']:10s} {e * 100:+6.1f}%")


if __name__ == "__main__":
    main()
