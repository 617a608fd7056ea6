"""fit_x5.py - fits the declared residuals of presets/rdk-x5.yaml (the RDK X5's Bayes-e BPU as the zoo's
`hrt_model_exec perf` loop runs it) on the `fit` rows of bench/fidelity/data/rdk_x5_zoo.csv only; a test row is
refused (fidelity.fit_rows).

  PYTHONPATH=python NNPERF_LIBRARY=build/libnnperf.so python3 bench/fidelity/fit_x5.py [FORM ...]
  ... fit_x5.py --leave-out FORM ...   each fit network's rows predicted by the form fitted on the other fit
                                       networks' rows (the adoption rule's score, bench/RESULTS.md)
  ... fit_x5.py --convnext [--leave-out] FORM ...   the fit rows of rdk_x5_zoo_convnext.csv too (ConvNeXt
                                       atto/femto/pico/nano: 34 fit rows, 17 networks)
  ... fit_x5.py --convnext --yolo FORM ...   and the fit rows of rdk_x5_zoo_yolo.csv (YOLOv8, YOLO11, YOLO12 n-x at
                                       640: 64 fit rows, 32 networks)
  ... fit_x5.py --convnext --yolo --yolov5u [--leave-out] FORM ...   and the X5's YOLOv5u fit rows of zoo_yolov5u.csv
                                       (74 fit rows, 37 networks)
  ... fit_x5.py --convnext --yolo --yolov5u --pose [--leave-out] FORM ...   and the X5's Pose fit rows of
                                       rdk_x5_zoo_yolo_pose.csv (94 fit rows, 47 networks)
  The data flags may come in any order; the rows are read in the order above whatever their order.

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
  o   overhead.host_per_output_element_s: the per-frame stage's part per element of the model's outputs
A form prefixed "K:" (e.g. K:o) keeps presets/rdk-x5.yaml's numbers for the parts outside it (not the placeholders).
A form prefixed "L:" (e.g. L:e+v+h+d) predicts on structure L instead of the preset's: SiLU not fused into its conv
(compute.fusion without [Conv, SiLU]), compute.composite_kernels [Gelu, SiLU] and compute.lut_chains (each exported
GELU or SiLU one table lookup, as the X5 compiler's logs show: bench/RESULTS.md, "RDK X5: element-wise functions as
the X5 compiler's lookup tables"; "L:0" is structure L with every number at its placeholder).
Start values: e 0.3, v 10e9, h 100 us, d 0.6, s 20e9. The fit minimises the sum of |ln(predicted / measured)| over
the fit rows (multiplicative steps on each number in turn, halved until under 0.5%: fit_qutibench_dpu.step_fit).
Prints each form's numbers, its sum and median |error|; writes nothing (the numbers go into the preset by hand, with
a comment naming this script).
"""
import os
import sys
import tempfile
import warnings

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import fidelity  # noqa: E402

DATA = os.path.join(fidelity.DATA, "rdk_x5_zoo.csv")
CONVNEXT = os.path.join(fidelity.DATA, "rdk_x5_zoo_convnext.csv")
YOLO = os.path.join(fidelity.DATA, "rdk_x5_zoo_yolo.csv")
YOLOV5U = os.path.join(fidelity.DATA, "zoo_yolov5u.csv")
POSE = os.path.join(fidelity.DATA, "rdk_x5_zoo_yolo_pose.csv")
# structure L: presets/rdk-x5.yaml's compute.fusion less [Conv, SiLU], and each GELU / SiLU one lookup-table pass
FUSION_L = ["Conv, BatchNormalization, Add, Relu", "Conv, BatchNormalization, Relu", "Conv, BatchNormalization, Add",
            "Conv, Add, Relu", "Conv, BatchNormalization", "Conv, Relu", "Conv, Add", "Conv, Clip", "Conv, Sigmoid",
            "Conv, HardSwish", "Conv, HardSigmoid", "Conv, LeakyRelu", "Conv, PRelu", "Gemm, Relu", "MatMul, Add"]
STRUCTURE_L = ("  fusion:\n" + "".join(f"    - [{f}]\n" for f in FUSION_L)
               + "  composite_kernels: [Gelu, SiLU]\n  lut_chains: true\n")
# part: (section, key, start value, upper bound or None, unit scale for printing, unit)
PARTS = {"e": ("compute", "efficiency", 0.3, 1.0, 1, ""), "v": ("compute", "vector_ops", 10e9, None, 1e-9, " G/s"),
         "h": ("overhead", "host_per_frame_s", 1e-4, None, 1e6, " us"),
         "d": ("memory", "ddr_efficiency", 0.6, 1.0, 1, ""),
         "s": ("compute", "strided_input_bandwidth", 20e9, None, 1e-9, " GB/s"),
         "o": ("overhead", "host_per_output_element_s", 1e-10, None, 1e9, " ns")}


def form_of(name):
    """'e+v+h' -> ['e', 'v', 'h']; '0' -> []; 'L:e+v' -> ['L', 'e', 'v'] (structure L, not a fitted part); 'K:o' ->
    ['K', 'o'] (the parts outside the form keep presets/rdk-x5.yaml's numbers, not the placeholders)"""
    for prefix in ("L", "K"):
        if name.startswith(prefix + ":"):
            return [prefix] + fidelity.form_parts(name[2:], list(PARTS), "fit_x5.py")
    return fidelity.form_parts(name, list(PARTS), "fit_x5.py")


def numbers(form):
    """the fitted parts of a form (structure L and the keep marker K are not ones)"""
    return [p for p in form if p not in ("L", "K")]


def bounded(form, x):
    return [min(v, PARTS[p][3]) if PARTS[p][3] else v for p, v in zip(numbers(form), x)]


# the numbers presets/rdk-x5.yaml held before the fit (the rule's baseline, bench/RESULTS.md "RDK X5: a preset from
# its own rows"): a part outside the form keeps its placeholder, not the fitted value the preset holds now, so the
# recorded scores are reproduced after the adoption
PLACEHOLDER = {"e": 0.3, "v": 10e9, "h": 0, "d": 0.6, "s": 0, "o": 0}


def platform_text(form, x):
    sections = {}
    values = dict({} if "K" in form else PLACEHOLDER, **dict(zip(numbers(form), bounded(form, x))))
    for p, v in ((p, values[p]) for p in PARTS if p in values):
        sec, key = PARTS[p][:2]
        sections.setdefault(sec, []).append(f"  {key}: {{default: {v:.6g}}}\n" if key == "efficiency"
                                            else f"  {key}: {v:.6g}\n")
    if "L" in form:
        sections.setdefault("compute", []).append(STRUCTURE_L)
    return "format: 1\nbase: rdk-x5\nname: rdk-x5-fit\n" + "".join(f"{s}:\n" + "".join(k) for s, k in sections.items())


def make_fit(rows, tmp):
    return fidelity.FileFit(rows, tmp, "rdk-x5", "rdk-x5-fit.yaml", platform_text,
                            lambda form: [PARTS[p][2] for p in numbers(form)], bounded)


def describe(form, x):
    parts = ", ".join(f"{PARTS[p][1]} {v * PARTS[p][4]:.4g}{PARTS[p][5]}" for p, v in zip(numbers(form), x))
    if "K" in form:
        return "the preset's numbers" + (f" and {parts}" if parts else " (presets/rdk-x5.yaml as it is)")
    return ("structure L: " if "L" in form else "") + (parts or "the placeholder numbers (the rule's baseline)")


def fit_row(r):
    return r["preset"] == "rdk-x5" and r["split"] == "fit"


def main():
    warnings.simplefilter("ignore")
    args = sys.argv[1:]
    data = (("--convnext", CONVNEXT), ("--yolo", YOLO), ("--yolov5u", YOLOV5U), ("--pose", POSE))
    flags = set()
    while args[:1] and args[0] in dict(data):  # the data flags in any order, their rows in one order
        flags.add(args.pop(0))
    rows = fidelity.fit_rows(DATA, keep=fit_row)
    for flag, path in data:
        if flag in flags:
            rows += fidelity.fit_rows(path, keep=fit_row)
    loo = args[:1] == ["--leave-out"]
    names = (args[1:] if loo else args) or (["e+v+h", "e+v+h+d", "e+v+h+s"] if loo else
                                              ["0", "e+v+h", "e+v+h+d", "e+v+h+s"])
    with tempfile.TemporaryDirectory() as tmp:
        fidelity.print_forms(rows, names, loo, lambda rs: make_fit(rs, tmp), form_of, describe, "quantity",
                             ("latency", "throughput"), 10)


if __name__ == "__main__":
    main()
