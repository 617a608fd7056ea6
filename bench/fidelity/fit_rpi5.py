"""fit_rpi5.py - fits the declared residuals of presets/raspberry-pi-5.yaml (ncnn's benchncnn on the Pi 5) on the
1-thread rows of bench/fidelity/data/rpi5_ncnn_1t.csv only; every selected row must be a `fit` row, a test row is
refused (fidelity.fit_rows). The 4-thread rows (rpi5_ncnn.csv) are test rows and never read here.

  PYTHONPATH=python NNPERF_LIBRARY=build/libnnperf.so python3 bench/fidelity/fit_rpi5.py [FORM ...]
  ... fit_rpi5.py --leave-out FORM ...   each fit network's rows predicted by the form fitted on the other fit
                                         networks' rows (the adoption rule's score, bench/RESULTS.md "ncnn's GEMM
                                         rate by size on the Pi 5")

Each row is predicted as fidelity.py predicts it (1 thread: --threads 1) on a platform file with `base:
raspberry-pi-5`, the form's numbers set and every other part at the number the preset held before the fit (c 0.5,
g 0, m 0.6, d 0.2, w 0.5, i 1: form 0 is the preset as it was, whatever it holds now). A form is a set of parts
joined by '+':
  c   compute.efficiency.conv: a dense (and grouped) convolution's GEMM rate, a fraction of one core's FMLA/SDOT peak
  g   compute.gemm_output_s: one core's time per GEMM output element beyond its MACs (docs/prediction.md)
  m   compute.efficiency.gemm and .matmul, one number (Gemm/InnerProduct and MatMul layers)
  d   compute.efficiency.default: the rate of the layers without MACs (pooling, element-wise, activations apart)
  w   compute.efficiency.conv_depthwise: ncnn's direct depthwise kernels (the conv's 0.5 by fallback before the fit;
      pinned at 0.5 outside this part, so that c moves the GEMMs only)
  i   compute.dtype_efficiency.int8: a factor on every efficiency at INT8 (SDOT GEMMs with their quantize and
      requantize passes against FP16's FMLA GEMMs; at most 1)
Start values: c 0.5, g 0.5 ns, m 0.6, d 0.2, w 0.5, i 1; the efficiencies and i are capped at 1. The fit minimises
the sum of |ln(predicted / measured)| over the fit rows (multiplicative steps on each number in turn, halved until
under 0.5%: fit_qutibench_dpu.step_fit). Prints each form's numbers, its sum and median |error|; writes nothing (the
numbers go into the preset by hand, with a comment naming this script).
"""
import os
import sys
import tempfile
import warnings

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import fidelity  # noqa: E402

DATA = os.path.join(fidelity.DATA, "rpi5_ncnn_1t.csv")
# part: (key as written, start value, upper bound or None, unit scale for printing, unit)
PARTS = {"c": ("efficiency.conv", 0.5, 1.0, 1, ""), "g": ("gemm_output_s", 5e-10, None, 1e9, " ns"),
         "m": ("efficiency.gemm/matmul", 0.6, 1.0, 1, ""), "d": ("efficiency.default", 0.2, 1.0, 1, ""),
         "w": ("efficiency.conv_depthwise", 0.5, 1.0, 1, ""), "i": ("dtype_efficiency.int8", 1.0, 1.0, 1, "")}
# the numbers presets/raspberry-pi-5.yaml held before the fit (conv_depthwise: the conv's, by fallback): a part
# outside the form keeps it, so the recorded scores are reproduced after an adoption
PLACEHOLDER = {"c": 0.5, "g": 0.0, "m": 0.6, "d": 0.2, "w": 0.5, "i": 1.0}


def form_of(name):
    """'c+g' -> ['c', 'g']; '0' -> []"""
    return fidelity.form_parts(name, list(PARTS), "fit_rpi5.py")


def bounded(form, x):
    return [min(v, PARTS[p][2]) if PARTS[p][2] else v for p, v in zip(form, x)]


def platform_text(form, x):
    v = dict(PLACEHOLDER, **dict(zip(form, bounded(form, x))))
    return ("format: 1\nbase: raspberry-pi-5\nname: raspberry-pi-5-fit\ncompute:\n"
            f"  efficiency: {{default: {v['d']:.6g}, conv: {v['c']:.6g}, conv_depthwise: {v['w']:.6g}, "
            f"gemm: {v['m']:.6g}, matmul: {v['m']:.6g}}}\n  dtype_efficiency: {{int8: {v['i']:.6g}}}\n"
            f"  gemm_output_s: {v['g']:.6g}\n")


def make_fit(rows, tmp):
    return fidelity.FileFit(rows, tmp, "raspberry-pi-5", "raspberry-pi-5-fit.yaml", platform_text,
                            lambda form: [PARTS[p][1] for p in form], bounded)


def describe(form, x):
    return ", ".join(f"{PARTS[p][0]} {v * PARTS[p][3]:.4g}{PARTS[p][4]}" for p, v in zip(form, x)) or \
        "the preset as it was before the fit (the rule's baseline)"


def main():
    warnings.simplefilter("ignore")
    rows = fidelity.fit_rows(DATA, keep=lambda r: r["preset"] == "raspberry-pi-5")
    args = sys.argv[1:]
    loo = args[:1] == ["--leave-out"]
    forms = ["c+g", "c+g+m", "c+g+d", "c+g+w", "c+g+i"]
    names = (args[1:] if loo else args) or (forms if loo else ["0"] + forms)
    with tempfile.TemporaryDirectory() as tmp:
        fidelity.print_forms(rows, names, loo, lambda rs: make_fit(rs, tmp), form_of, describe, "dtype",
                             ("fp16", "int8"), 5)


if __name__ == "__main__":
    main()
