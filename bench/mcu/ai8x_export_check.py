#!/usr/bin/python3
"""Dev-time check of `nnperf map` on the ONNX that ai8x-training itself exports (not part of CI: needs PyTorch).

Builds each published network of models/mcu/ai8x/ from the model definitions of a local copy of the public
analogdevicesinc/ai8x-training repository (random weights), exports it the way `train.py --summary onnx` and
`--summary onnx_simplified` do (ai8x.onnx_export_prep, then torch.onnx.export), as a float model and after
ai8x.initiate_qat with 8-bit weights (BN fused first, as QAT does), and the two simplenets also with the vendor's
mixed-precision QAT policy (models/mcu/ai8x/qat_policy_cifar100.yaml), and compares nnperf's plan of each export with
its plan of the plain model in models/mcu/ai8x/ (with the policy file for the mixed exports) (every layer's operation, geometry, masks, offsets, kernel and bias
placement, bits and cycles; usage and latency).

    /usr/bin/python3 bench/mcu/ai8x_export_check.py /path/to/ai8x-training [--nnperf build/nnperf] [--keep DIR]

Needs Debian's python3-torch, python3-onnx and python3-yaml; no network.
"""
import argparse
import importlib.util
import json
import os
import shutil
import subprocess
import sys
import tempfile

import torch
import yaml

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))

# plain model -> (model file of ai8x-training, class, device, constructor arguments, input shape)
NETS = {
    "ai85net5_mnist": ("ai85net.py", "AI85Net5", 85, dict(num_classes=10, num_channels=1, dimensions=(28, 28),
                                                          bias=False), (1, 28, 28)),
    "ai85net5_cifar10": ("ai85net.py", "AI85Net5", 85, dict(num_classes=10, num_channels=3, dimensions=(32, 32),
                                                            bias=False), (3, 32, 32)),
    "ai85nascifarnet_cifar10": ("ai85net-nas-cifar.py", "AI85NASCifarNet", 85,
                                dict(num_classes=10, num_channels=3, dimensions=(32, 32), bias=True), (3, 32, 32)),
    "ai85nascifarnet_cifar100": ("ai85net-nas-cifar.py", "AI85NASCifarNet", 85,
                                 dict(num_classes=100, num_channels=3, dimensions=(32, 32), bias=True), (3, 32, 32)),
    "ai85simplenet_cifar100": ("ai85net-simplenet.py", "AI85SimpleNet", 85,
                               dict(num_classes=100, num_channels=3, dimensions=(32, 32), bias=True), (3, 32, 32)),
    "ai85simplenetwide2x_cifar100": ("ai85net-simplenet-wide2x.py", "AI85SimpleNetWide2x", 85,
                                     dict(num_classes=100, num_channels=3, dimensions=(32, 32), bias=True),
                                     (3, 32, 32)),
    "ai85ressimplenet_cifar100": ("ai85net-res-simplenet.py", "AI85ResidualSimpleNet", 85,
                                  dict(num_classes=100, num_channels=3, dimensions=(32, 32), bias=False),
                                  (3, 32, 32)),
    "ai85kws20netv3": ("ai85net-kws20-v3.py", "AI85KWS20Netv3", 85,
                       dict(num_classes=21, num_channels=128, dimensions=(128, 1), bias=False), (128, 128)),
    "ai87kws20netv3": ("ai87net-kws20-v3.py", "AI87KWS20Netv3", 87,
                       dict(num_classes=21, num_channels=128, dimensions=(128, 1), bias=False), (128, 128)),
    "ai85faceidnet": ("ai85net-faceid.py", "AI85FaceIDNet", 85,
                      dict(num_classes=None, num_channels=3, dimensions=(160, 120), bias=True), (3, 160, 120)),
    "ai85cdnet": ("ai85net-cd.py", "AI85CatsDogsNet", 85,
                  dict(num_classes=2, num_channels=3, dimensions=(128, 128), bias=False), (3, 128, 128)),
}
DROP_LAYER = ("name", "nodes", "index", "macs")
POLICY = os.path.join(ROOT, "models", "mcu", "ai8x", "qat_policy_cifar100.yaml")


def plan(nnperf, path, target, extra=()):
    p = subprocess.run([nnperf, "map", path, "--target", target, "--format", "json"] + list(extra),
                       capture_output=True, text=True)
    if p.returncode not in (0, 1):
        return None, p.stderr.strip()
    j = json.loads(p.stdout)
    layers = [{k: v for k, v in l.items() if k not in DROP_LAYER} for l in j["layers"]]
    return {"fits": j["fits"], "layers": layers, "usage": j["usage"], "latency": j["latency"],
            "problems": len(j["problems"])}, None


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("training", help="local copy of analogdevicesinc/ai8x-training")
    ap.add_argument("--nnperf", default=os.path.join(ROOT, "build", "nnperf"))
    ap.add_argument("--keep", help="keep the exported files in this folder")
    a = ap.parse_args()
    sys.path.insert(0, a.training)
    import ai8x  # pylint: disable=import-outside-toplevel,import-error
    with open(POLICY, encoding="utf-8") as f:
        policy = yaml.safe_load(f)
    work = a.keep or tempfile.mkdtemp(prefix="ai8x-export-")
    os.makedirs(work, exist_ok=True)
    same = total = 0
    for net, (src, cls, device, kw, shape) in NETS.items():
        target = "max78002" if device == 87 else "max78000"
        plain = os.path.join(ROOT, "models", "mcu", "ai8x", net + ".onnx")
        forms = [(k, s) for k in ("float", "qat8") for s in (False, True)]
        if "simplenet" in net:  # the mixed-precision demos: the vendor's QAT policy, exported with its rounding
            forms.append(("qat_mixed", False))
        for kind, simplified in forms:
            ref, err = plan(a.nnperf, plain, target, ["--weight-bits-file", POLICY] if kind == "qat_mixed" else [])
            torch.manual_seed(0)
            ai8x.set_device(device, False, False)
            spec = importlib.util.spec_from_file_location(cls, os.path.join(a.training, "models", src))
            mod = importlib.util.module_from_spec(spec)
            spec.loader.exec_module(mod)
            m = getattr(mod, cls)(**kw)
            if kind.startswith("qat"):
                ai8x.fuse_bn_layers(m)
                ai8x.initiate_qat(m, policy if kind == "qat_mixed" else {"weight_bits": 8})
            m.eval()
            ai8x.onnx_export_prep(m, simplify=simplified)
            form = kind + ("_simplified" if simplified else "")
            path = os.path.join(work, f"{net}_{form}.onnx")
            with torch.no_grad():
                torch.onnx.export(m, torch.randn(1, *shape), path)
            got, gerr = plan(a.nnperf, path, target)
            total += 1
            if got is not None and got == ref:
                same += 1
                verdict = "same plan"
            elif got is None:
                verdict = "nnperf failed: " + gerr
            else:
                diff = [k for k in got if got[k] != ref[k]]
                if "layers" in diff and len(got["layers"]) == len(ref["layers"]):
                    diff += [f"layer {i}: " + ", ".join(k for k in g if g[k] != r.get(k))
                             for i, (g, r) in enumerate(zip(got["layers"], ref["layers"])) if g != r][:3]
                verdict = "differs: " + "; ".join(diff)
            cyc = got["latency"]["cycles"] if got else "-"
            print(f"{net:30} {target} {form:17} {verdict} (cycles {cyc} vs {ref['latency']['cycles']})",
                  flush=True)
    print(f"{same} of {total} exports plan as the plain model")
    if not a.keep:
        shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    main()
