"""fit_s100_hrt.py - fits the runtime around the RDK S100's BPU as the zoo's `hrt_model_exec perf` loop runs it
(presets/runtimes/rdk-s100-hrt.yaml, `base: rdk-s100`) on the `fit` rows of bench/fidelity/data/s100_zoo.csv only;
a test row is refused.

  PYTHONPATH=python NNPERF_LIBRARY=build/libnnperf.so python3 bench/fidelity/fit_s100_hrt.py [FORM ...]
  ... fit_s100_hrt.py --leave-out FORM ...   each network's fit rows predicted by the form fitted on the other
                                             networks' fit rows (the adoption rule's score, bench/RESULTS.md)
  ... fit_s100_hrt.py --yolo [--leave-out] FORM ...   with the S100's fit rows of zoo_yolov5u.csv too (YOLOv5u n-x)
  ... fit_s100_hrt.py --s100p [--leave-out] FORM ...  the RDK S100P's runtime (presets/runtimes/rdk-s100p-hrt.yaml,
                                             `base: rdk-s100p`) on the S100P's fit rows of zoo_yolov5u.csv
  ... --pose (with --yolo or --s100p)       with the board's fit rows of s100_zoo_yolo_pose.csv too (YOLOv8/11-Pose)

Each row is predicted as fidelity.py predicts it (a 3-thread row with streams=3: the library's throughput of 3
application threads), on a platform file with `base: rdk-s100`, overhead.host_cores 6 (the board's six Cortex-A78AE,
[RDK-ZOO]) and the form's numbers set. A form is a set of parts joined by '+':
  h      overhead.host_per_frame_s: a per-frame host stage in series with one thread's BPU run, which other threads
         overlap (it lengthens the one-thread latency, not the saturated throughput)
  r      overhead.per_run_s: a per-run cost in series with the BPU (it lowers the throughput too)
  o      overhead.host_per_output_element_s: the host stage's part per element of the graph's outputs (paid as h is)
  i      overhead.host_per_input_element_s: the host stage's part per element of the graph's inputs (paid as h is)
  0      nothing free: the preset as it is
The free numbers start at 100 us (o and i: 1e-10 s an element). The fit minimises the sum of |ln(predicted / measured)|
over the fit rows (multiplicative steps on each number in turn, halved until under 0.5%: fit_qutibench_dpu.step_fit).
Prints each form's numbers, its sum and median |error|; writes nothing (the numbers go into the runtime file by hand,
with a comment naming this script).
"""
import os
import sys
import tempfile
import warnings

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import fidelity  # noqa: E402

DATA = os.path.join(fidelity.DATA, "s100_zoo.csv")
YOLO = os.path.join(fidelity.DATA, "zoo_yolov5u.csv")
POSE = os.path.join(fidelity.DATA, "s100_zoo_yolo_pose.csv")
FREE = {"h": "host_per_frame_s", "r": "per_run_s", "o": "host_per_output_element_s", "i": "host_per_input_element_s"}
START = {"h": 1e-4, "r": 1e-4, "o": 1e-10, "i": 1e-10}
BASE = "rdk-s100"  # --s100p: rdk-s100p
HOST_CORES = 6  # [RDK-ZOO]: the S100's CPU, 6 x Cortex-A78AE @ 1.5 GHz


def form_of(name):
    """'h+r' -> ['h', 'r']; '0' -> []"""
    return fidelity.form_parts(name, list(FREE), "fit_s100_hrt.py")


def platform_text(values):
    over = "".join(f"  {FREE[p]}: {v:.4g}\n" for p, v in values.items())
    return (f"format: 1\nbase: {BASE}\nname: {BASE}-hrt-fit\noverhead:\n  host_cores: {HOST_CORES}\n{over}"
            if over else f"format: 1\nbase: {BASE}\nname: {BASE}-hrt-fit\n")


def make_fit(rows, tmp):
    return fidelity.FileFit(rows, tmp, BASE, f"{BASE}-hrt-fit.yaml",
                            lambda form, x: platform_text(dict(zip(form, x))), lambda form: [START[p] for p in form])


def describe(form, x):
    return ", ".join(f"{FREE[p]} {v * 1e9:.3f} ns" if p in "oi" else f"{FREE[p]} {v * 1e6:.1f} us"
                     for p, v in zip(form, x)) or "the preset as it is"


def by_quantity(rows, errs):
    return "; ".join(f"{q} {fidelity.pct(fidelity.median_abs([e for r, e in zip(rows, errs) if r['quantity'] == q]))}"
                     for q in ("latency", "fps", "throughput"))


def leave_networks_out(rows, make_fit, name, form, describe):
    """each network's fit rows predicted with the form fitted on the other networks' fit rows (make_fit(rows): an
    object with fit(form) -> (x, cost) and errors(form, x)); prints each network's and the whole score"""
    held = []
    for net, out, errs, x in fidelity.held_out_networks(rows, make_fit, form):
        held += errs
        print(f"  {os.path.basename(net)} ({len(out)} rows): sum |ln| {fidelity.sum_abs_log(errs):.3f}, errors "
              f"{', '.join(f'{e * 100:+.1f}%' for e in errs)} with {describe(form, x)}", flush=True)
    print(f"{name} left out one network at a time, {len(held)} fit rows: sum |ln| {fidelity.sum_abs_log(held):.3f}, "
          f"median |error| {fidelity.pct(fidelity.median_abs(held))}", flush=True)


def leave_out(rows, tmp, name):
    """each network's fit rows predicted with the form fitted on the other networks' fit rows"""
    leave_networks_out(rows, lambda rs: make_fit(rs, tmp), name, form_of(name), describe)


def main():
    global BASE
    warnings.simplefilter("ignore")
    args = sys.argv[1:]
    flags = set()
    while args[:1] in (["--yolo"], ["--s100p"], ["--pose"]):
        flags.add(args.pop(0))
    yolo = "--yolo" in flags
    if "--s100p" in flags:  # the S100P's fit rows are its YOLOv5u (and pose) rows (6 cores too: [RDK-ZOO-S-YOLO])
        BASE, yolo, rows = "rdk-s100p", True, []
    else:
        rows = fidelity.fit_rows(DATA, keep=lambda r: r["preset"] == "rdk-s100" and r["split"] == "fit")
    if yolo:
        rows += fidelity.fit_rows(YOLO, keep=lambda r: r["preset"] == BASE and r["split"] == "fit")
    if "--pose" in flags:
        rows += fidelity.fit_rows(POSE, keep=lambda r: r["preset"] == BASE and r["split"] == "fit")
    with tempfile.TemporaryDirectory() as tmp:
        if args[:1] == ["--leave-out"]:
            for name in args[1:] or ["h", "r", "h+r"]:
                leave_out(rows, tmp, name)
            return
        fit = make_fit(rows, tmp)
        for name in args or ["0", "h", "r", "h+r"]:
            form = form_of(name)
            x, c = fit.fit(form)
            errs = fit.errors(form, x)
            print(f"{name}: sum |ln| {c:.3f}, {len(rows)} fit rows, median |error| "
                  f"{fidelity.pct(fidelity.median_abs(errs))} ({by_quantity(rows, errs)}); {describe(form, x)}",
                  flush=True)


if __name__ == "__main__":
    main()
