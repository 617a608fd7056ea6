"""fit_vai_host.py - fits the Vitis AI Library's per-frame host stage on the ZCU102 DPU (presets/zcu102-dpu.yaml) on
the `fit` rows of bench/fidelity/data/vitis_ai_1.4.csv only (the 7 ZCU102 one-thread latencies); a test row is
refused. The rule that decides between the forms is in bench/RESULTS.md, "Vitis AI host stage by input size".

  PYTHONPATH=python NNPERF_LIBRARY=build/libnnperf.so python3 bench/fidelity/fit_vai_host.py [FORM ...]
  ... fit_vai_host.py --leave-out FORM ...   each network's fit row predicted by the form fitted on the other
                                             networks' fit rows (the adoption rule's score)

Each row is predicted as fidelity.py predicts it, on a platform file with `base: zcu102-dpu` and the form's numbers
set. A form names the host stage's parts, joined by '+':
  c      overhead.host_per_frame_s: a constant per frame (the preset's form today)
  p      overhead.host_per_input_element_s: seconds per element of the graph's inputs per frame (the mean/scale of
         each input pixel into the DPU's INT8 tensor, docs/sources.md [VAI-LIB-1.4])
A part outside the form is 0. In every form compute.efficiency (at most 1) and memory.ddr_efficiency (at most 1) are
fitted with it, from the preset's 0.805 and 0.539. The host parts start from the preset's 2.135 ms a frame: c 2.135
ms; p 2.135 ms / 150,528 (a 224 x 224 RGB input); c+p half of each. The fit minimises the sum of |ln(predicted /
measured)| over the rows (multiplicative steps on each number in turn, halved until under 0.5%:
fit_qutibench_dpu.step_fit). Prints each form's numbers, its sum and median |error|; writes nothing (the numbers go
into the presets by hand, with a comment naming this script).
"""
import os
import sys
import tempfile
import warnings

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import fidelity  # noqa: E402
from fit_s100_hrt import leave_networks_out  # noqa: E402

DATA = os.path.join(fidelity.DATA, "vitis_ai_1.4.csv")
PRESET = "zcu102-dpu"
HOST = {"c": "host_per_frame_s", "p": "host_per_input_element_s"}
EFF, DDR = 0.805, 0.539  # the preset's fitted values before this fit: the starting point
FRAME = 2.135e-3  # the preset's host_per_frame_s before this fit
ELEMS_224 = 3 * 224 * 224


def form_of(name):
    """'c+p' -> ['c', 'p']"""
    parts = fidelity.form_parts(name, list(HOST), "fit_vai_host.py")
    if not parts:
        sys.exit("fit_vai_host.py: a form needs c, p or both")
    return parts


def start(form):
    """the numbers a fit starts from: efficiency, ddr_efficiency, then the form's host parts"""
    share = 1 / len(form)
    return [EFF, DDR] + [FRAME * share if p == "c" else FRAME * share / ELEMS_224 for p in form]


def platform_text(form, x):
    eff, ddr = min(x[0], 1.0), min(x[1], 1.0)
    host = dict.fromkeys(HOST.values(), 0.0)
    host.update({HOST[p]: v for p, v in zip(form, x[2:])})
    over = "".join(f"  {k}: {v:.6g}\n" for k, v in host.items())
    return (f"format: 1\nbase: {PRESET}\nname: {PRESET}-host-fit\ncompute:\n  efficiency: {{default: {eff:.6g}}}\n"
            f"memory:\n  ddr_efficiency: {ddr:.6g}\noverhead:\n{over}")


def make_fit(rows, tmp):
    return fidelity.FileFit(rows, tmp, PRESET, f"{PRESET}-host-fit.yaml", platform_text, start,
                            lambda form, x: [min(x[0], 1.0), min(x[1], 1.0)] + x[2:])


def describe(form, x):
    host = ", ".join(f"{HOST[p]} {v * 1e3:.4g} ms" if p == "c" else f"{HOST[p]} {v * 1e9:.4g} ns" for p, v in
                     zip(form, x[2:]))
    return f"efficiency {x[0]:.4g}, ddr_efficiency {x[1]:.4g}, {host}"


def main():
    warnings.simplefilter("ignore")
    rows = fidelity.fit_rows(DATA, keep=lambda r: r["preset"] == PRESET and r["split"] == "fit")
    args = sys.argv[1:]
    with tempfile.TemporaryDirectory() as tmp:
        if args[:1] == ["--leave-out"]:
            for name in args[1:] or ["c", "p", "c+p"]:
                leave_networks_out(rows, lambda rs: make_fit(rs, tmp), name, form_of(name), describe)
            return
        fit = make_fit(rows, tmp)
        for name in args or ["c", "p", "c+p"]:
            form = form_of(name)
            x, c = fit.fit(form)
            errs = fit.errors(form, x)
            print(f"{name}: sum |ln| {c:.3f}, {len(rows)} fit rows, median |error| "
                  f"{fidelity.pct(fidelity.median_abs(errs))}, errors "
                  f"{', '.join(f'{e * 100:+.1f}%' for e in errs)}; {describe(form, x)}", flush=True)


if __name__ == "__main__":
    main()
