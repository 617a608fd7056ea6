#!/usr/bin/python3
"""Dev-time oracle for `nnperf map`: runs the vendor's own network loader (ai8xize.py of a local copy of the public
analogdevicesinc/ai8x-synthesis repository) on the YAML that nnperf writes, and prints nnperf's and the vendor's
verdicts side by side (accepted / refused, layers, processors per layer, kernel words, weight and bias bytes, cycles).

Not part of CI and not part of the product: it needs a local copy of ai8x-synthesis and Debian's python3-torch,
python3-yaml, python3-rich, python3-xxhash, python3-git, python3-github and python3-onnx; no network.

    /usr/bin/python3 bench/mcu/ai8x_oracle.py /path/to/ai8x-synthesis [--nnperf build/nnperf] [--only NAME] [--keep DIR]
                                              [--rules | --extra] [--exports FORM|all]

For every case (a model of models/mcu/ai8x/ on the device the vendor builds it for) the script:
  1. runs `nnperf map MODEL --target DEV --format yaml` and `--format json`;
  2. writes a PyTorch checkpoint with random integer weights of the shapes in the ONNX file (the ONNX weights are
     stripped; only their dims matter to the loader) and the per-layer weight bits of nnperf's plan, and a random
     8-bit sample input of the model's input shape;
  3. runs ai8xize.py --no-version-check --verbose on nnperf's YAML unedited (with --fifo when nnperf's plan
     streams), and reads its log: the processors per layer, the kernel map, weight / bias memory and the latency
     estimate (MAX78000 only: the vendor tool estimates no other device).
"""
import argparse
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile

import numpy as np
import onnx
import torch
import yaml

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
M = os.path.join(ROOT, "models", "mcu", "ai8x")

# the vendor's own network description of each case (networks/ of ai8x-synthesis)
PUBLISHED = {
    "mnist": "mnist-chw-ai85.yaml", "cifar10-ai85net5": "cifar10-hwc-ai85.yaml", "cifar-10": "cifar10-nas.yaml",
    "cifar-100": "cifar100-nas.yaml", "cifar-100-simple-8bit": "cifar100-simple.yaml",
    "cifar-100-mixed": "cifar100-simple.yaml", "cifar-100-simplewide2x-mixed": "cifar100-simplewide2x.yaml",
    "cifar-100-residual": "cifar100-ressimplenet.yaml", "kws20_v3": "kws20-v3-hwc.yaml",
    "kws20_v3_1": "ai87-kws20-v3-hwc.yaml", "faceid": "faceid.yaml", "cats-dogs": "cats-dogs-hwc.yaml",
}

# (name, model, device, extra nnperf args)
CASES = [
    ("mnist", "ai85net5_mnist", "max78000", []),
    ("mnist", "ai85net5_mnist", "max78002", []),
    ("cifar10-ai85net5", "ai85net5_cifar10", "max78000", []),
    ("cifar-10", "ai85nascifarnet_cifar10", "max78000", []),
    ("cifar-10", "ai85nascifarnet_cifar10", "max78002", []),
    ("cifar-100", "ai85nascifarnet_cifar100", "max78000", []),
    ("cifar-100", "ai85nascifarnet_cifar100", "max78002", []),
    ("cifar-100-simple-8bit", "ai85simplenet_cifar100", "max78000", []),
    ("cifar-100-mixed", "ai85simplenet_cifar100", "max78000", ["--weight-bits-file", "QAT"]),
    ("cifar-100-mixed", "ai85simplenet_cifar100", "max78002", ["--weight-bits-file", "QAT"]),
    ("cifar-100-simplewide2x-mixed", "ai85simplenetwide2x_cifar100", "max78000", ["--weight-bits-file", "QAT"]),
    ("cifar-100-simplewide2x-mixed", "ai85simplenetwide2x_cifar100", "max78002", ["--weight-bits-file", "QAT"]),
    ("cifar-100-residual", "ai85ressimplenet_cifar100", "max78000", []),
    ("cifar-100-residual", "ai85ressimplenet_cifar100", "max78002", []),
    ("kws20_v3", "ai85kws20netv3", "max78000", []),
    ("kws20_v3_1", "ai87kws20netv3", "max78002", []),
    ("faceid", "ai85faceidnet", "max78000", []),
    ("faceid", "ai85faceidnet", "max78002", []),
    ("cats-dogs", "ai85cdnet", "max78000", []),
    ("cats-dogs", "ai85cdnet", "max78002", []),
]

# --rules: each device rule's pair (models/mcu/rules/), on the device the rule holds on: nnperf refuses NAME_bad
# and the vendor's tool should refuse its YAML too; both accept NAME_ok
RULE_CASES = [(f"rule-{r}-{s}", f"../rules/{r}_{s}", d, []) for r, d in (
    ("conv1d_pad_multipass", "max78002"), ("pad_kernel", "max78000"), ("flatten_pool", "max78000"),
    ("eltwise_passes", "max78000"), ("pool_passes", "max78000"), ("eltwise_bias", "max78002")) for s in ("bad", "ok")]

# --extra: the residual Add in front of a biased convolution on the MAX78002 (nnperf gives the Add a layer of its
# own) and a streaming first layer with a bias on the MAX78000 (ai8xize warns "Combining streaming and a bias")
EXTRA_CASES = [("residual-bias", "../cifar10_residual", "max78002", []),
               ("stream-bias", "../../../tests/data/mcu/stream_bias", "max78000", [])]

# --exports FORM: the same cases on ai8x-training's own ONNX export of each network (tests/data/mcu/vendor/, made by
# tests/data/mcu/make_vendor_exports.py); the checkpoint's weight shapes come from the plain model
VENDOR = os.path.join(ROOT, "tests", "data", "mcu", "vendor")
FORMS = ["float", "float_simplified", "qat8", "qat8_simplified"]

QAT = os.path.join(ROOT, "models", "mcu", "ai8x", "qat_policy_cifar100.yaml")


def run(cmd, cwd=None, timeout=1200):
    p = subprocess.run(cmd, cwd=cwd, capture_output=True, text=True, timeout=timeout)
    return p.returncode, p.stdout, p.stderr


def weight_shapes(path):
    """(name, dims, has_bias) of every Conv / Gemm / MatMul weight, in graph order."""
    m = onnx.load(path, load_external_data=False)
    inits = {t.name: list(t.dims) for t in m.graph.initializer}
    out = []
    for n in m.graph.node:
        if n.op_type in ("Conv", "ConvTranspose", "Gemm", "MatMul") and len(n.input) > 1 and n.input[1] in inits:
            out.append((n.name, inits[n.input[1]], len(n.input) > 2 and n.input[2] in inits))
    shape = [d.dim_value for d in m.graph.input[0].type.tensor_type.shape.dim][1:]
    return out, shape


def make_checkpoint(path, arch, shapes, bits, rng):
    sd = {}
    for i, (name, dims, has_bias) in enumerate(shapes):
        b = bits[i] if i < len(bits) else 8
        lo, hi = -(2 ** (b - 1)), 2 ** (b - 1)
        w = rng.integers(lo, hi, size=dims)
        w[(w == 0)] = 1  # all-zero weights change the loader's quantization guess
        key = f"layer{i}"
        sd[f"{key}.op.weight"] = torch.tensor(w, dtype=torch.float32)
        sd[f"{key}.weight_bits"] = torch.tensor([b], dtype=torch.float32)
        sd[f"{key}.output_shift"] = torch.tensor([0.0])
        if has_bias:
            sd[f"{key}.op.bias"] = torch.tensor(rng.integers(-64, 64, size=[dims[0]]) * 2 ** (b - 1),
                                                dtype=torch.float32)
    torch.save({"arch": arch, "epoch": 0, "state_dict": sd}, path)


def kernel_words(text):
    """words per layer in the vendor's kernel map (64 rows, one cell per word: the layer, or X / . when free)"""
    k = text.find("Kernel map:")
    if k < 0:
        return None
    rows = text[k:].split("\n")[2:66]
    words = {}
    for row in rows:
        cells = row.split() if " " in row.strip() else list(row.strip())
        for c in cells:
            if c.isdigit():
                words[int(c)] = words.get(int(c), 0) + 1
    return words


def parse_log(text):
    r = {}
    kw = kernel_words(text)
    if kw is not None:
        r["kernel_words"] = sum(kw.values())
        r["layer_words"] = kw
    m = re.search(r"Weight memory:\s*([\d,]+) bytes out of ([\d,]+)", text)
    if m:
        r["weight_bytes"] = int(m.group(1).replace(",", ""))
    m = re.search(r"Bias memory:\s*([\d,]+) bytes out of", text)
    if m:
        r["bias_bytes"] = int(m.group(1).replace(",", ""))
    m = re.search(r"ESTIMATED LATENCY\n(.*?)\nTotal\s+([\d,]+) cycles", text, re.S)
    if m:
        r["cycles"] = int(m.group(2).replace(",", ""))
        r["layer_cycles"] = [int(x.replace(",", "")) for x in re.findall(r"^Layer \d+\s+([\d,]+)", m.group(1), re.M)]
    return r


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("synthesis", help="local copy of analogdevicesinc/ai8x-synthesis")
    ap.add_argument("--nnperf", default=os.path.join(ROOT, "build", "nnperf"))
    ap.add_argument("--only", help="run the cases whose name or model contains this")
    ap.add_argument("--keep", help="keep the work files in this folder")
    ap.add_argument("--verbose", action="store_true", help="print per-layer cycles and kernel words")
    ap.add_argument("--rules", action="store_true", help="run the device-rule model pairs instead")
    ap.add_argument("--extra", action="store_true", help="run the residual-bias and streaming-bias cases instead")
    ap.add_argument("--exports", choices=FORMS + ["all"],
                    help="plan ai8x-training's export of each network (tests/data/mcu/vendor/) instead")
    a = ap.parse_args()
    work = a.keep or tempfile.mkdtemp(prefix="ai8x-oracle-")
    os.makedirs(work, exist_ok=True)
    rng = np.random.default_rng(0)
    rows = []
    cases = RULE_CASES if a.rules else EXTRA_CASES if a.extra else CASES
    forms = [None] if not a.exports else FORMS if a.exports == "all" else [a.exports]
    cases = [(n, m, d, e, f) for n, m, d, e in cases for f in forms]
    for name, model, dev, extra, form in cases:
        if a.only and a.only not in name and a.only not in model:
            continue
        tag = f"{name}-{dev}" + (f"-{form}" if form else "")
        d = os.path.join(work, tag)
        shutil.rmtree(d, ignore_errors=True)
        os.makedirs(d)
        onnx_path = os.path.join(M, model + ".onnx")
        plan_path = os.path.join(VENDOR, f"{model}_{form}.onnx") if form else onnx_path
        extra = [QAT if e == "QAT" else e for e in extra]
        ypath = os.path.join(d, "nnperf.yaml")
        rc_y, _, err_y = run([a.nnperf, "map", plan_path, "--target", dev, "--format", "yaml", "-o", ypath] + extra)
        rc_j, js, _ = run([a.nnperf, "map", plan_path, "--target", dev, "--format", "json"] + extra)
        if rc_j not in (0, 1):
            print(f"{tag}: nnperf failed: {err_y.strip()}", file=sys.stderr)
            continue
        plan = json.loads(js)
        layers = plan["layers"]
        bits = [l.get("weight_bits", plan["weight_bits"]) for l in layers if l["kernel_words"] > 0]
        shapes, in_shape = weight_shapes(onnx_path)
        ck = os.path.join(d, "checkpoint.pth.tar")
        arch = yaml.safe_load(open(ypath))["arch"] if os.path.exists(ypath) else model
        make_checkpoint(ck, arch, shapes, bits, rng)
        sample = os.path.join(d, "sample.npy")
        np.save(sample, rng.integers(-128, 128, size=in_shape).astype(np.int64))
        fifo = ["--fifo"] if any(l.get("streaming") for l in layers) else []
        cmd = [sys.executable, "ai8xize.py", "--no-version-check", "--device", dev.upper(), "--test-dir", d,
               "--prefix", "out", "--checkpoint-file", ck, "--config-file", ypath, "--sample-input", sample,
               "--verbose", "--timer", "0", "--display-checkpoint"] + fifo
        rc, out, err = run(cmd, cwd=a.synthesis)
        with open(os.path.join(d, "ai8xize.txt"), "w") as f:
            f.write(" ".join(cmd) + "\n" + out + "\n--- stderr\n" + err)
        log = out
        lp = os.path.join(d, "out", "log.txt")
        if os.path.exists(lp):
            log += open(lp).read()
        v = parse_log(log)
        verdict = "accepted" if rc == 0 else "refused"
        if "Combining streaming and a bias" in out + err:
            verdict += " (warns: Combining streaming and a bias)"
        if plan.get("warnings"):
            verdict += f" | nnperf warns: {len(plan['warnings'])}"
        pub = yaml.safe_load(open(os.path.join(a.synthesis, "networks", PUBLISHED[name])))["layers"] \
            if name in PUBLISHED else []
        pub_procs = [bin(int(x.get("processors", 0))).count("1") for x in pub]
        our_procs = [bin(int(x["processors"], 16)).count("1") for x in layers]
        same_procs = "same" if pub_procs == our_procs else f"differ {our_procs} vs {pub_procs}" if pub else "-"
        reason = ""
        if rc:
            text = err or out
            k = text.find("ERROR:")
            reason = " ".join(text[k + 6:].strip().split("\n\n")[0].split()) if k >= 0 else text.strip()[-200:]
        rows.append((tag, plan, v, verdict, reason))
        kw = plan["usage"]["kernel_words"]
        cyc = plan["latency"]["cycles"]
        dc = f"{100.0 * (cyc - v['cycles']) / v['cycles']:+.1f}%" if v.get("cycles") else "-"
        print(f"{tag:36} nnperf {'fits' if plan['fits'] else 'NO FIT':6} layers {len(layers):2} (vendor {len(pub):2}) "
              f"processors {same_procs}; words {kw:6} vs {v.get('kernel_words', '-')}; weights "
              f"{plan['usage']['weight_bytes']:7} vs {v.get('weight_bytes', '-')}; bias {plan['usage']['bias_bytes']:5} "
              f"vs {v.get('bias_bytes', '-')}; cycles {cyc:8} vs {v.get('cycles', '-')} ({dc}) | ai8xize {verdict} "
              f"{reason[:200]}", flush=True)
        if a.verbose and v.get("layer_cycles"):
            ours = [l["cycles"] for l in layers]
            print("    layer cycles nnperf", ours, "\n    layer cycles vendor", v["layer_cycles"])
            print("    layer words nnperf ", [l["kernel_words"] * bin(int(l["processors"], 16)).count("1") for l in layers],
                  "\n    layer words vendor ", [v["layer_words"].get(i, 0) for i in range(len(layers))])
    if not a.keep:
        shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    main()
