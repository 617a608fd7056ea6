#!/usr/bin/python3
"""kernel_fit_weights.py - how much the host validation depends on the weighting of the kernel-cost fit.

`nnperf calibrate` fits the kernel-cost model (docs/prediction.md, "kernels") by weighted least squares over the
matched layers of the calibration profiles, each layer weighted by 1 / measured^0.5. This script rebuilds the same
terms per layer from nnperf's JSON (layers, their nodes, weight bytes) and the ONNX graph (weight shapes, groups),
redoes the fit for other exponents (0 = absolute error, 1 = relative error per layer) and prints the validation
result of each, so that a reader can see whether 0.5 is a knife edge. At 0.5 it gives calibrate_validate.sh's
result to within a few tenths of a point (the activation set and a Gemm's bias ops are counted slightly apart).

usage: /usr/bin/python3 bench/validate/kernel_fit_weights.py HOST-CAL.yaml [BUILD_DIR]
  HOST-CAL.yaml: the platform calibrate_validate.sh wrote (its fusions give the layering);
  needs bench/out/profiles (bench/validate/run_all.sh), python3-numpy, python3-onnx.
"""
import glob, json, os, statistics, subprocess, sys

import numpy as np
import onnx

ROOT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..")
CAL = ["resnet18", "mobilenet_v2", "efficientnet_b0"]
ACT = {"Clip", "HardSigmoid", "HardSwish", "Sigmoid", "LeakyRelu", "Tanh", "Elu", "Selu", "Softplus", "Gelu"}


def run_json(*args):
    return json.loads(subprocess.run(list(args), capture_output=True, text=True, check=True).stdout)


def peak_and_bw(path):
    peak = bw = None
    for line in open(path):
        s = line.strip()
        if s.startswith("peak_ops:") and "fp32:" in s:
            peak = float(s.split("fp32:")[1].split("}")[0].split(",")[0])
        if s.startswith("ddr_bandwidth:"):
            bw = float(s.split(":")[1])
    return peak, bw


def terms(nn, hw, m, peak, bw):
    """rows of (terms[7], weight time s, measured s) per layer, and the whole-run measured time"""
    prof = f"{ROOT}/bench/out/profiles/{m}.json"
    v = run_json(nn, "validate", f"{ROOT}/models/{m}.onnx", "--hw", hw, "--measured", prof, "--format", "json")
    a = run_json(nn, "analyze", f"{ROOT}/models/{m}.onnx", "--hw", hw, "--format", "json")
    meas = {L["layer"]: L["measured_us"] * 1e-6 for L in v["layers"]}
    g = onnx.load(f"{ROOT}/models/{m}.onnx", load_external_data=False).graph
    nodes = {n.name: n for n in g.node}
    tens = {t["name"]: t for t in a["tensors"]}

    def numel(name):
        t = tens.get(name)
        if not t or t.get("kind") in ("initializer", "constant") or not isinstance(t.get("shape"), list):
            return 0
        n = 1
        for d in t["shape"]:
            if not isinstance(d, int):
                return 0
            n *= d
        return n

    rows = []
    for L in a["layers"]:
        nds = [nodes[x] for x in L["nodes"] if x in nodes]
        if not nds:
            continue
        f = np.zeros(7)
        main = nds[0]
        out = sum(numel(o) for o in nds[-1].output)
        wt = 0.0
        if main.op_type in ("Conv", "Gemm", "MatMul") and L["ops"] > 0:
            macs_s = L["ops"] / peak  # a Gemm/MatMul: its ops (2 x MACs, and a fused bias)
            if main.op_type == "Conv":
                w = tens[main.input[1]]["shape"]
                at = {x.name: onnx.helper.get_attribute_value(x) for x in main.attribute}
                k = 1
                for d in w[2:]:
                    k *= d
                macs_s = 2 * numel(main.output[0]) * w[1] * k / peak
                if at.get("group", 1) > 1 and w[1] == 1:
                    f[1] = macs_s
                elif w[1] <= 4:
                    f[2] = macs_s
                else:
                    f[0] = macs_s
            else:
                f[0] = macs_s
            f[3] = out
            f[4] = sum(out for n in nds[1:] if n.op_type in ACT)
            wt = L.get("weight_bytes", 0) / bw
        elif L.get("class") != "view":
            f[5] = out + sum(numel(i) for n in nds for i in n.input)
        f[6] = 1
        rows.append((f, wt, meas.get(L["name"], 0)))
    return rows, v["measured_ms"] * 1e-3


def fit(data, exponent):
    A, b, w = [], [], []
    for m in CAL:
        for f, wt, ms in data[m][0]:
            if ms > 0:
                A.append(f), b.append(ms - wt), w.append(1 / max(ms, 5e-6) ** exponent)
    A, b, w = np.array(A), np.array(b), np.array(w)
    scale = np.linalg.norm(A * w[:, None], axis=0)
    scale[scale == 0] = 1
    free = list(range(7))
    x = np.zeros(7)
    while free:
        c, *_ = np.linalg.lstsq((A[:, free] / scale[free]) * w[:, None], b * w, rcond=None)
        c = c / scale[free]
        floor = np.array([1.0 if k <= 2 else 0.0 for k in free])
        worst = np.argmin(c - floor)
        if c[worst] - floor[worst] >= 0:
            x[free] = c
            break
        x[free[worst]] = floor[worst]
        b = b - A[:, free[worst]] * floor[worst]
        free.pop(worst)
    return x


def main():
    if len(sys.argv) < 2:
        sys.exit(__doc__)
    hw = sys.argv[1]
    nn = os.path.join(sys.argv[2] if len(sys.argv) > 2 else f"{ROOT}/build", "nnperf")
    peak, bw = peak_and_bw(hw)
    data = {}
    for prof in sorted(glob.glob(f"{ROOT}/bench/out/profiles/*.json")):
        m = os.path.basename(prof)[:-5]
        if not m.endswith(".timing") and os.path.exists(f"{ROOT}/models/{m}.onnx"):
            data[m] = terms(nn, hw, m, peak, bw)
    print(f"{'exponent':>8} {'median |error|':>15} {'within 20%':>11}   worst")
    for e in (0, 0.25, 0.5, 0.75, 1):
        x = fit(data, e)
        errs = {}
        for m, (rows, total) in data.items():
            if m in CAL:
                continue
            p = sum(f @ x + wt for f, wt, _ in rows)
            errs[m] = (p / total - 1) * 100
        a = [abs(v) for v in errs.values()]
        worst = max(errs, key=lambda k: abs(errs[k]))
        print(f"{e:8.2f} {statistics.median(a):14.1f}% {sum(v <= 20 for v in a):5d} of {len(a):<3d}  "
              f"{worst} {errs[worst]:+.1f}%")


if __name__ == "__main__":
    main()
