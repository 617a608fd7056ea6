"""fit_tx2.py - fits the declared residuals of the Jetson TX2 presets (presets/tx2-max{n,p,q}.yaml) on the `fit` rows
of bench/fidelity/data/qutibench_fit_tx2.csv only (QuTiBench's own TensorRT runs at batches 2-64); a test row is
refused.

  PYTHONPATH=python NNPERF_LIBRARY=build/libnnperf.so python3 bench/fidelity/fit_tx2.py [FORM ...]
  ... fit_tx2.py --leave-out FORM     each network's fit rows predicted by the form fitted on the other networks'
  ... fit_tx2.py --before RULE [--leave-out] FORM ...   on the presets as they were before the fit that adopted
                                      RULE (f+s or T+e+f+s; BEFORE below), the baseline its recorded table was
                                      computed on: form 0 is that preset, a part outside the form keeps its number

Each row is predicted as fidelity.py predicts it, on a platform file with `base:` the row's preset and the form's
numbers set. A form is a set of free numbers:
  f      compute.dtype_efficiency.fp16 (the FP16 kernels' rate against FP32's), one number shared by the three modes
         (the same kernels at other clocks)
  s      a factor on the preset's conv/gemm/matmul (and default) compute.efficiency, one per power mode
  T      nothing free: compute.array.tiles set to TILES (each conv takes the tile of least padded work, TensorRT's
         per-layer choice of kernel), in place of the preset's one tile
  e      with T: the efficiency of the smallest tile (32x32) against the others', one number shared by the modes
  l      a factor on the preset's overhead.per_layer_s (TensorRT's per-kernel launch cost), one number shared by the
         modes (each keeps its CPU-clock ratio to MAXN's)
  o      nothing free: overhead.per_layer_overlap set (a layer takes max(its work, its launch), CUDA's asynchronous
         launch hiding the next layer's launch behind this one's work), in place of their sum
  P      nothing free: compute.fuse_pointwise set (TensorRT's pointwise fusion, [TRT-FUSION])
  B      nothing free: a BatchNormalization followed by a Relu fused into one layer (TensorRT's scale and activation)
  M      nothing free: a MatMul or Gemm fuses a following BatchNormalization and Relu, as a Conv does
  0      nothing free: the presets as they are (with --before RULE: as they were before that fit)
The fit minimises the sum of |ln(predicted / measured)| over the fit rows (multiplicative steps on each number in
turn, halved until under 0.5%), as fit_qutibench_dpu.py does. Prints each form's numbers and its fit median |error|
per mode; writes nothing (the numbers go into the presets by hand, with a comment naming this script).
"""
import math
import os
import re
import sys
import tempfile
import warnings

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import fidelity  # noqa: E402
from fit_qutibench_dpu import step_fit  # noqa: E402

MODES = ["tx2-maxn", "tx2-maxp", "tx2-maxq"]
# output tiles (channels x pixels) NVIDIA's guides list for GEMM kernels ([NV-GEMM-GUIDE]; 32x32 the smallest)
TILES = [(32, 32), (64, 64), (128, 64), (64, 128)]
FIXED = ("tiles", "pointwise", "overlap", "fuseB", "fuseM")  # form parts with no free number
# --before RULE: the numbers the presets held before the fit that adopted RULE (bench/RESULTS.md), pinned in every
# platform file so that a part outside the form keeps them (read from the presets, they are the fitted ones since the
# adoption): the compute.efficiency map of each mode (s scales it), the FP16 factor and one 64x64 tile (T replaces it)
#   f+s      "The Jetson TX2 on QuTiBench's own fit rows" (13bbec0): 0.8 / 0.4 in every mode, no FP16 factor
#   T+e+f+s  "The TX2's per-layer tile" (b97a36b): the efficiencies x 1.040 / 1.080 / 1.102 and FP16 0.873 of f+s
BEFORE = {"f+s": {"eff": {m: {"default": 0.4, "conv": 0.8, "gemm": 0.8, "matmul": 0.8} for m in MODES}, "fp16": 1.0},
          "T+e+f+s": {"eff": {m: {"default": d, "conv": 2 * d, "gemm": 2 * d, "matmul": 2 * d}
                              for m, d in zip(MODES, (0.416, 0.432, 0.441))}, "fp16": 0.873}}
ONE_TILE = "    tiles: []\n    channels: {fp16: 64, fp32: 64}\n    pixels: {fp16: 64, fp32: 64}\n"


def preset_efficiency(mode):
    """the preset's compute.efficiency map as {class: value}, read from its YAML"""
    with open(os.path.join(fidelity.ROOT, "presets", mode + ".yaml")) as f:
        for line in f:
            m = re.match(r"\s*efficiency:\s*\{(.*)\}", line)
            if m:
                return {k.strip(): float(v) for k, v in (kv.split(":") for kv in m.group(1).split(","))}
    sys.exit(f"presets/{mode}.yaml: no compute.efficiency map")


def preset_per_layer(mode):
    """the preset's overhead.per_layer_s, read from its YAML"""
    with open(os.path.join(fidelity.ROOT, "presets", mode + ".yaml")) as f:
        for line in f:
            m = re.match(r"\s*per_layer_s:\s*([0-9.eE+-]+)", line)
            if m:
                return float(m.group(1))
    sys.exit(f"presets/{mode}.yaml: no overhead.per_layer_s")


def form_of(name):
    """'f+s' -> [(number name, key, modes)]"""
    if name == "0":
        return []
    out = []
    for part in name.split("+"):
        if part == "f":
            out.append(("f", "fp16", MODES))
        elif part == "s":
            out += [(f"s_{m}", "scale", [m]) for m in MODES]
        elif part == "T":
            out.append(("T", "tiles", []))
        elif part == "e":
            out.append(("e", "e32", MODES))
        elif part == "l":
            out.append(("l", "launch", MODES))
        elif part == "P":
            out.append(("P", "pointwise", []))
        elif part in ("B", "M"):
            out.append((part, "fuse" + part, []))
        elif part == "o":
            out.append(("o", "overlap", []))
        else:
            sys.exit(f"fit_tx2.py: unknown form part '{part}' (f, s, T, e, l, o, P, B, M, 0)")
    if any(key == "e32" for _, key, _ in out) and not any(key == "tiles" for _, key, _ in out):
        sys.exit("fit_tx2.py: e needs T")
    return [p for p in out if p[1] not in FIXED] + [p for p in out if p[1] in FIXED]  # the fixed parts last


def platform_text(mode, values, eff, per_layer, before=None):
    """the platform file of one mode; before: BEFORE[RULE], the pre-fit numbers a part outside the form keeps"""
    comp = ""
    if "scale" in values or before:
        comp += "  efficiency: {" + ", ".join(f"{k}: {min(1.0, v * values.get('scale', 1.0)):.4g}"
                                             for k, v in eff.items()) + "}\n"
    if "fp16" in values or before:
        comp += f"  dtype_efficiency: {{fp16: {min(1.0, values.get('fp16', before and before['fp16'])):.4g}}}\n"
    if "tiles" in values:
        e32 = min(1.0, values.get("e32", 1.0))
        comp += "  array:\n    tiles:\n" + "".join(
            f"      - {{channels: {c}, pixels: {px}" + (f", efficiency: {e32:.4g}" if (c, px) == (32, 32) else "") + "}\n"
            for c, px in TILES)
    elif before:
        comp += "  array:\n" + ONE_TILE
    if "fuseB" in values or "fuseM" in values:
        pats = ["[Conv, BatchNormalization, Relu]", "[Conv, Add, Relu]", "[Conv, Relu]"]
        if "fuseM" in values:
            pats += ["[MatMul, BatchNormalization, Relu]", "[Gemm, BatchNormalization, Relu]", "[MatMul, Relu]", "[Gemm, Relu]"]
        if "fuseB" in values:
            pats += ["[BatchNormalization, Relu]"]
        comp += "  fusion:\n" + "".join(f"    - {q}\n" for q in pats)
    if "pointwise" in values:
        comp += "  fuse_pointwise: true\n"
    over = f"  per_layer_s: {per_layer * values['launch']:.4g}\n" if "launch" in values else ""
    over += "  per_layer_overlap: true\n" if "overlap" in values else ""
    over = "overhead:\n" + over if over else ""
    return f"format: 1\nbase: {mode}\nname: {mode}-fit\n" + (f"compute:\n{comp}" if comp else "") + over


class Fit:
    def __init__(self, rows, tmp, before=None):
        self.rows, self.tmp, self.analyses, self.before = rows, tmp, {}, before
        self.eff = before["eff"] if before else {m: preset_efficiency(m) for m in MODES}
        self.per_layer = {m: preset_per_layer(m) for m in MODES}

    def errors(self, form, x):
        paths = {}
        for m in MODES:
            values = {key: xi for (_, key, ms), xi in zip(form, x) if m in ms}
            for _, key, _ in form:
                if key in FIXED:
                    values[key] = 1
            paths[m] = os.path.join(self.tmp, m + ".yaml")
            with open(paths[m], "w") as f:
                f.write(platform_text(m, values, self.eff[m], self.per_layer[m], self.before))
        return fidelity.errors_on(self.rows, paths, self.analyses)

    def cost(self, form, x):
        return fidelity.sum_abs_log(self.errors(form, x))

    def fit(self, form):
        free = [part for part in form if part[1] not in FIXED]
        fixed = [part for part in form if part[1] in FIXED]
        x, c = step_fit(lambda y: self.cost(free + fixed, y + [1.0] * len(fixed)), [1.0 for _ in free], 0.16)
        return x + [1.0] * len(fixed), c


def per_mode(pairs):
    """'tx2-maxn 7.2% (p90 34.0%, sum |ln| 30.12); ...' over (row, error) pairs"""
    out = []
    for m in MODES:
        e = [err for r, err in pairs if r["preset"] == m]
        out.append(f"{m} {fidelity.pct(fidelity.median_abs(e))} (p90 {fidelity.pct(fidelity.percentile_abs(e, 0.9))}, "
                   f"sum |ln| {sum(abs(math.log(1 + x)) for x in e):.2f})")
    return "; ".join(out)


def leave_out(rows, tmp, form, before=None):
    """each network's rows (all modes, dtypes and batches) predicted with the form fitted on the other networks' rows:
    how the fitted numbers carry to a network they were not fitted on"""
    held = []
    for net in sorted({r["model"] for r in rows}):
        x, _ = Fit([r for r in rows if r["model"] != net], tmp, before).fit(form)
        out = [r for r in rows if r["model"] == net]
        errs = Fit(out, tmp, before).errors(form, x)
        held += list(zip(out, errs))
        print(f"{os.path.basename(net)}: median |error| {fidelity.pct(fidelity.median_abs(errs))} with "
              + ", ".join(f"{n} {v:.3f}" for (n, _, _), v in zip(form, x)), flush=True)
    print(f"left out one network at a time, {len(held)} fit rows: median |error| "
          f"{fidelity.pct(fidelity.median_abs([e for _, e in held]))}: {per_mode(held)}")


def main():
    warnings.simplefilter("ignore")
    path = os.path.join(fidelity.DATA, "qutibench_fit_tx2.csv")
    rows = fidelity.fit_rows(path)
    args, before = sys.argv[1:], None
    if args[:1] == ["--before"]:
        if len(args) < 2 or args[1] not in BEFORE:
            sys.exit(f"fit_tx2.py: --before takes one of {', '.join(BEFORE)}")
        before, args = BEFORE[args[1]], args[2:]
    with tempfile.TemporaryDirectory() as tmp:
        if args[:1] == ["--leave-out"] and len(args) == 2:
            return leave_out(rows, tmp, form_of(args[1]), before)
        fit = Fit(rows, tmp, before)
        for name in args or ["0", "s", "f", "f+s"]:
            form = form_of(name)
            x, c = fit.fit(form)
            errs = fit.errors(form, x)
            per = per_mode(list(zip(rows, errs)))
            print(f"{name}: sum |ln| {c:.2f}, {len(rows)} fit rows, median |error| "
                  f"{fidelity.pct(fidelity.median_abs(errs))}: {per}; " + ", ".join(f"{n} {v:.3f}" for (n, _, _), v in zip(form, x)),
                  flush=True)


if __name__ == "__main__":
    main()
