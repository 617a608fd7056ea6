"""fit_s100_bpu.py - fits the RDK S100 BPU's own numbers (presets/rdk-s100.yaml: compute.efficiency, vector_ops,
strided_input_bandwidth, memory.ddr_efficiency, compute.array.channels), which came from horizon-j5's fits scaled by
80/64, on the S100's own `fit` rows only: the 2 fit rows of bench/fidelity/data/s100.csv (the S100 FPS table,
predicted on the preset) and the 12 fit rows of s100_zoo.csv (hrt_model_exec perf, predicted on
presets/runtimes/rdk-s100-hrt.yaml, whose host_per_frame_s is refitted with them). A test row is refused.

  PYTHONPATH=python NNPERF_LIBRARY=build/libnnperf.so python3 bench/fidelity/fit_s100_bpu.py [FORM ...]
  ... fit_s100_bpu.py --leave-out FORM ...   each fit network's rows predicted by the form fitted on the other
                                             networks' fit rows (the adoption rule's score, bench/RESULTS.md)
  ... fit_s100_bpu.py --yolo [--leave-out] FORM ...   with the S100's YOLOv5u fit rows of zoo_yolov5u.csv too (on
                                             the runtime file, whose host_per_output_element_s is then part o)

A form is a set of parts joined by '+'; h is in every form but 0:
  E      compute.efficiency (the default class; at most 1)
  V      compute.vector_ops (the vector unit's elements/s)
  S      compute.strided_input_bandwidth (the strided conv's input re-layout)
  D      memory.ddr_efficiency (at most 1)
  L2, L8 compute.array.channels int8 lanes 2 or 8 in place of the preset's 4 (nothing free)
  h      overhead.host_per_frame_s of the runtime file (the zoo rows' per-frame stage)
  o      overhead.host_per_output_element_s of the runtime file (its part per output element; with --yolo, in every
         form but 0, as h is)
  0      nothing free: the preset and the runtime file as they are
The free numbers start from the preset's and the runtime file's values. The fit minimises the sum of
|ln(predicted / measured)| over the fit rows (fit_qutibench_dpu.step_fit: multiplicative steps on each number in turn,
halved until under 0.5%). Prints each form's numbers, its sum and median |error|; writes nothing (the numbers go into
the preset by hand, with a comment naming this script).
"""
import os
import re
import sys
import tempfile
import warnings

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import fidelity  # noqa: E402
from fit_qutibench_dpu import step_fit  # noqa: E402
from fit_s100_hrt import leave_networks_out  # noqa: E402

PRESET = os.path.join(fidelity.ROOT, "presets", "rdk-s100.yaml")
RUNTIME = os.path.join(fidelity.ROOT, "presets", "runtimes", "rdk-s100-hrt.yaml")
FILES = ("s100.csv", "s100_zoo.csv")
# part -> (key, the preset's line it is read from)
FREE = {"E": ("efficiency", r"^  efficiency:\s*\{default:\s*([0-9.eE+-]+)\}"),
        "V": ("vector_ops", r"^  vector_ops:\s*([0-9.eE+-]+)"),
        "S": ("strided_input_bandwidth", r"^  strided_input_bandwidth:\s*([0-9.eE+-]+)"),
        "D": ("ddr_efficiency", r"^  ddr_efficiency:\s*([0-9.eE+-]+)"),
        "h": ("host_per_frame_s", r"^  host_per_frame_s:\s*([0-9.eE+-]+)"),
        "o": ("host_per_output_element_s", r"^  host_per_output_element_s:\s*([0-9.eE+-]+)")}
RUNTIME_PARTS = ("h", "o")
YOLO = False  # --yolo: the YOLOv5u fit rows too, and the runtime's part o refitted with h
CAPPED = {"E", "D"}
LANES = {"L2": 2, "L8": 8}


def start_values():
    out = {}
    for p, (key, pat) in FREE.items():
        with open(RUNTIME if p in RUNTIME_PARTS else PRESET) as f:
            m = re.search(pat, f.read(), re.M)
        if not m:
            sys.exit(f"fit_s100_bpu.py: {key} not found in {RUNTIME if p in RUNTIME_PARTS else PRESET}")
        out[p] = float(m.group(1))
    return out


def form_of(name):
    """'E+V+h' -> (free parts, lanes or None)"""
    if name == "0":
        return [], None
    parts = name.split("+")
    if any(p not in FREE and p not in LANES for p in parts) or len(set(parts)) != len(parts) or "h" not in parts \
            or sum(p in LANES for p in parts) > 1 or ("o" in parts) != YOLO:
        sys.exit(f"fit_s100_bpu.py: form '{name}': parts are E, V, S, D, one of L2/L8 (each once) with h (and o "
                 "with --yolo, only then), or 0")
    return [p for p in parts if p in FREE], next((LANES[p] for p in parts if p in LANES), None)


def files_text(values, lanes):
    """(the fit preset, the fit runtime file) for a form's values"""
    v = dict(values)
    comp = "".join([f"  efficiency: {{default: {v['E']:.6g}}}\n" if "E" in v else "",
                    f"  vector_ops: {v['V']:.6g}\n" if "V" in v else "",
                    f"  strided_input_bandwidth: {v['S']:.6g}\n" if "S" in v else "",
                    f"  array: {{reduce: {{int8: 32}}, channels: {{int8: {lanes}}}}}\n" if lanes else ""])
    preset = ("format: 1\nbase: rdk-s100\nname: rdk-s100-fit\n" + (f"compute:\n{comp}" if comp else "") +
              (f"memory:\n  ddr_efficiency: {v['D']:.6g}\n" if "D" in v else ""))
    runtime = ("format: 1\nbase: rdk-s100-fit.yaml\nname: rdk-s100-hrt-fit\noverhead:\n  host_cores: 6\n"
               f"  host_per_frame_s: {v['h']:.6g}\n"
               + (f"  host_per_output_element_s: {v['o']:.6g}\n" if "o" in v else ""))
    return preset, runtime


class Fit:
    def __init__(self, rows, tmp):
        self.rows, self.tmp, self.analyses, self.start = fidelity.refuse_test(rows), tmp, {}, start_values()

    def errors(self, form, x):
        free, lanes = form
        values = dict(self.start, **dict(zip(free, x))) if free else {}
        paths = [os.path.join(self.tmp, n) for n in ("rdk-s100-fit.yaml", "rdk-s100-hrt-fit.yaml")]
        if free:
            for path, text in zip(paths, files_text({p: values[p] for p in set(free + ["h"])}, lanes)):
                with open(path, "w") as f:
                    f.write(text)
        else:
            paths = [PRESET, RUNTIME]
        # the S100 table's rows on the preset, the zoo's (hrt_model_exec) rows on the runtime file
        errs = {}
        for path, zoo in zip(paths, (False, True)):
            part = [r for r in self.rows if r["software"].startswith("hrt_model_exec") == zoo]
            for r, e in zip(part, fidelity.errors_on(part, {"rdk-s100": path}, self.analyses)):
                errs[id(r)] = e
        return [errs[id(r)] for r in self.rows]

    def fit(self, form):
        free = form[0]
        x0 = [self.start[p] for p in free]
        if not free:
            return x0, fidelity.sum_abs_log(self.errors(form, x0))

        def capped(y):
            return [min(v, 1.0) if p in CAPPED else v for p, v in zip(free, y)]
        x, c = step_fit(lambda y: fidelity.sum_abs_log(self.errors(form, capped(y))), x0, 0.25)
        return capped(x), c


def describe(form, x):
    text = ", ".join(f"{FREE[p][0]} {v:.4g}" for p, v in zip(form[0], x)) or "the preset as it is"
    return text + (f", channels lanes {form[1]}" if form[1] else "")


def name_of(r):
    return f"{os.path.basename(r['model'])[:-5]}@{r['input']} {r['quantity']}{'/' + r['threads'] if r['threads'] else ''}"


def leave_out(rows, tmp, name):
    """each network's fit rows predicted with the form fitted on the other networks' fit rows"""
    leave_networks_out(rows, lambda rs: Fit(rs, tmp), name, form_of(name), describe)


def main():
    global YOLO
    warnings.simplefilter("ignore")
    keep = lambda r: r["preset"] == "rdk-s100" and r["split"] == "fit"  # noqa: E731
    args = sys.argv[1:]
    YOLO = args[:1] == ["--yolo"]
    if YOLO:
        args = args[1:]
    files = FILES + (("zoo_yolov5u.csv",) if YOLO else ())
    rows = [r for f in files for r in fidelity.fit_rows(os.path.join(fidelity.DATA, f), keep=keep)]
    with tempfile.TemporaryDirectory() as tmp:
        if args[:1] == ["--leave-out"]:
            for name in args[1:] or ["h", "E+h", "E+V+h", "E+V+S+h", "E+V+S+D+h"]:
                leave_out(rows, tmp, name)
            return
        fit = Fit(rows, tmp)
        for name in args or ["0", "h", "E+h", "E+V+h", "E+V+S+h", "E+V+S+D+h"]:
            form = form_of(name)
            x, c = fit.fit(form)
            errs = fit.errors(form, x)
            print(f"{name}: sum |ln| {c:.3f}, {len(rows)} fit rows, median |error| "
                  f"{fidelity.pct(fidelity.median_abs(errs))}; {describe(form, x)}", flush=True)
            print("  " + "; ".join(f"{name_of(r)} {e * 100:+.1f}%" for r, e in zip(rows, errs)), flush=True)


if __name__ == "__main__":
    main()
