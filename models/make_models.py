#!/usr/bin/python3
"""Generate the weight-stripped ONNX test models in models/ and models/reference.csv.

Developer tool only: CI never runs it.  The generated files are committed.
Requires the Debian packages python3-torchvision (torch 1.13 / torchvision 0.14)
and python3-onnx (onnx 1.12); run it with the system interpreter:

    /usr/bin/python3 models/make_models.py                  # all models
    /usr/bin/python3 models/make_models.py resnet18 alexnet # a subset
    /usr/bin/python3 models/make_models.py --full /tmp/nnperf-full

Models (torchvision classification models, random weights, eval mode, exported
with torch.onnx.export at opset 13 with constant folding; input named "input",
output named "output"; input 1x3x224x224 unless stated otherwise):

    resnet18, resnet34, resnet50, resnet101,
    mobilenet_v2, mobilenet_v3_small, mobilenet_v3_large,
    efficientnet_b0, efficientnet_b1,
    googlenet           (aux_logits=False, init_weights=False),
    inception_v3        (1x3x299x299, aux_logits=False, init_weights=False),
    shufflenet_v2_x0_5, shufflenet_v2_x1_0,
    squeezenet1_0, squeezenet1_1,
    alexnet, vgg11, vgg16, densenet121, mnasnet1_0,
    regnet_y_400mf, regnet_x_400mf, resnext50_32x4d, wide_resnet50_2,
    convnext_tiny, vit_b_16, swin_t

Skipped models and why: none -- every model in the list exports with
torch 1.13.  (Models that fail to export are reported on stdout and left out of
the outputs; if that ever happens, record the reason here.)

Outputs
-------
models/<name>.onnx
    The exported graph, unchanged except that every initializer whose data is
    larger than 1024 bytes has its bytes removed: name, dims and data_type are
    kept, data_location is EXTERNAL and the external_data entries point into
    "<name>.weights" (offset = running offset of the concatenated stripped
    tensors, each aligned to 64 bytes; length = byte size).  That .weights file
    is NOT written and not shipped.  Initializers of <= 1024 bytes (shape
    constants, small biases, ...) stay inline.  No shape inference is run.

models/reference.csv
    model,input,gmacs,macs,params: multiply-accumulate counts obtained with
    the same method as torchvision's test/common_extended_utils.py (a
    TorchDispatchMode that counts aten convolution, mm/matmul, addmm and bmm;
    bias, BN, activations, pooling, softmax and elementwise adds are not
    counted), running the model in eval mode under torch.no_grad() on the same
    input that is exported.  params = sum(p.numel() for p in model.parameters()).

--full DIR
    Additionally writes the full-weight exports (weights inline) of resnet50 and
    vit_b_16 to DIR (used by the benchmarks; not committed).  With --full-all,
    every model processed is written there (bench/validate/run_all.sh uses it).
"""

import argparse
import csv
import io
import os
import sys
import time
import traceback

import numpy as np
import onnx
import torch
import torchvision
from onnx import numpy_helper
from torch.utils._python_dispatch import TorchDispatchMode

MODELS = [
    "resnet18", "resnet34", "resnet50", "resnet101",
    "mobilenet_v2", "mobilenet_v3_small", "mobilenet_v3_large",
    "efficientnet_b0", "efficientnet_b1",
    "googlenet", "inception_v3",
    "shufflenet_v2_x0_5", "shufflenet_v2_x1_0",
    "squeezenet1_0", "squeezenet1_1",
    "alexnet", "vgg11", "vgg16", "densenet121", "mnasnet1_0",
    "regnet_y_400mf", "regnet_x_400mf", "resnext50_32x4d", "wide_resnet50_2",
    "convnext_tiny", "vit_b_16", "swin_t",
]

FULL_MODELS = ["resnet50", "vit_b_16"]

INLINE_LIMIT = 1024   # initializers with more bytes than this are stripped
ALIGN = 64            # alignment of the (virtual) offsets in <name>.weights
SEED = 0

HERE = os.path.dirname(os.path.abspath(__file__))


# --------------------------------------------------------------------------
# model construction / export
# --------------------------------------------------------------------------

def input_shape(name):
    if name == "inception_v3":
        return (1, 3, 299, 299)
    return (1, 3, 224, 224)


def build(name):
    torch.manual_seed(SEED)
    kwargs = {}
    if name in ("googlenet", "inception_v3"):
        kwargs = dict(aux_logits=False, init_weights=False)
    model = torchvision.models.get_model(name, weights=None, **kwargs)
    return model.eval()


def export_bytes(model, shape):
    """torch.onnx.export into memory; returns the serialized ModelProto."""
    torch.manual_seed(SEED)
    x = torch.randn(*shape)
    buf = io.BytesIO()
    torch.onnx.export(model, x, buf, opset_version=13, do_constant_folding=True,
                      input_names=["input"], output_names=["output"])
    return buf.getvalue()


# --------------------------------------------------------------------------
# weight stripping
# --------------------------------------------------------------------------

def tensor_nbytes(t):
    if len(t.raw_data):
        return len(t.raw_data)
    return numpy_helper.to_array(t).nbytes


def strip_weights(model, name):
    """Replace the data of every initializer > INLINE_LIMIT bytes by an
    external-data reference into '<name>.weights' (not written); INT64
    initializers (shapes, indices a Gather reads) keep their values.
    Returns (number of stripped tensors, total stripped bytes)."""
    location = name + ".weights"
    offset = 0
    count = 0
    for t in model.graph.initializer:
        nbytes = tensor_nbytes(t)
        if nbytes <= INLINE_LIMIT or t.data_type == onnx.TensorProto.INT64:
            continue
        offset = (offset + ALIGN - 1) // ALIGN * ALIGN
        for field in ("raw_data", "float_data", "int32_data", "string_data",
                      "int64_data", "double_data", "uint64_data"):
            t.ClearField(field)
        del t.external_data[:]
        t.data_location = onnx.TensorProto.EXTERNAL
        for k, v in (("location", location), ("offset", str(offset)),
                     ("length", str(nbytes))):
            e = t.external_data.add()
            e.key = k
            e.value = v
        offset += nbytes
        count += 1
    return count, offset


def big_constant_nodes(model):
    """Constant nodes with large tensors (should not happen; reported)."""
    out = []
    for n in model.graph.node:
        if n.op_type != "Constant":
            continue
        for a in n.attribute:
            if a.type == onnx.AttributeProto.TENSOR and tensor_nbytes(a.t) > INLINE_LIMIT:
                out.append((n.output[0], tensor_nbytes(a.t)))
    return out


# --------------------------------------------------------------------------
# MAC counting (after torchvision test/common_extended_utils.py)
# --------------------------------------------------------------------------

aten = torch.ops.aten


def _shape(t):
    return tuple(t.shape)


def _prod(xs):
    r = 1
    for x in xs:
        r *= int(x)
    return r


def matmul_macs(args, out):
    a, b = _shape(args[0]), _shape(args[1])
    assert a[-1] == b[-2], (a, b)
    return _prod(a) * b[-1]


def addmm_macs(args, out):
    a, b = _shape(args[1]), _shape(args[2])
    assert len(a) == 2 and len(b) == 2, (a, b)
    return a[0] * a[1] * b[1]


def bmm_macs(args, out):
    a, b = _shape(args[0]), _shape(args[1])
    n, c, t = a
    return n * c * t * b[-1]


def conv_macs(args, out):
    x, w = _shape(args[0]), _shape(args[1])
    transposed = bool(args[6])
    y = _shape(out[0])
    # weight is [Cout, Cin/groups, kh, kw] -> out elems * Cin/groups * kh * kw
    conv_shape = (x if transposed else y)[2:]
    return x[0] * _prod(w) * _prod(conv_shape)


def native_mha_macs(args, out):
    """aten._native_multi_head_attention (the nn.MultiheadAttention inference
    fast path, taken under no_grad in eval mode) is a single fused op, so the
    dispatch mode does not see the matmuls inside it.  Count exactly what the
    regular (slow) path counts: packed in-projection L*N*E*3E, Q@K^T and
    attn@V N*H*L*S*hd each, out-projection L*N*E*E.  Checked against the
    slow path (grad enabled) for vit_b_16."""
    q, k = _shape(args[0]), _shape(args[1])
    embed_dim, num_heads = int(args[3]), int(args[4])
    n, l, e = q                      # batch_first
    s = k[1]
    assert e == embed_dim
    hd = e // num_heads
    in_proj = n * l * e * 3 * e
    attn = 2 * n * num_heads * l * s * hd
    out_proj = n * l * e * e
    return in_proj + attn + out_proj


MAC_OPS = {
    aten.mm: matmul_macs,
    aten.matmul: matmul_macs,
    aten.addmm: addmm_macs,
    aten.bmm: bmm_macs,
    aten.convolution: conv_macs,
    aten._convolution: conv_macs,
    aten._native_multi_head_attention: native_mha_macs,
}


class MacCounter(TorchDispatchMode):
    def __init__(self):
        super().__init__()
        self.macs = 0
        self.by_op = {}

    def __torch_dispatch__(self, func, types, args=(), kwargs=None):
        out = func(*args, **(kwargs or {}))
        packet = func._overloadpacket
        fn = MAC_OPS.get(packet)
        if fn is not None:
            outs = out if isinstance(out, tuple) else (out,)
            m = fn(args, outs)
            self.macs += m
            self.by_op[str(packet)] = self.by_op.get(str(packet), 0) + m
        return out


def count_macs(model, shape, no_grad=True):
    torch.manual_seed(SEED)
    x = torch.randn(*shape)
    counter = MacCounter()
    with torch.set_grad_enabled(not no_grad), counter:
        model(x)
    return counter.macs, counter.by_op


def count_params(model):
    return sum(p.numel() for p in model.parameters())


# --------------------------------------------------------------------------

def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("models", nargs="*", help="subset of models (default: all)")
    ap.add_argument("--out", default=HERE, help="output directory (default: models/)")
    ap.add_argument("--full", metavar="DIR",
                    help="also save full-weight exports of %s to DIR" % ", ".join(FULL_MODELS))
    ap.add_argument("--full-all", action="store_true",
                    help="with --full: save full-weight exports of every model processed")
    ap.add_argument("--no-readme", action="store_true", help="do not rewrite README.md")
    args = ap.parse_args()

    names = args.models or MODELS
    for n in names:
        if n not in MODELS:
            ap.error("unknown model %r" % n)
    os.makedirs(args.out, exist_ok=True)
    if args.full:
        os.makedirs(args.full, exist_ok=True)

    rows = {}      # name -> reference row
    info = {}      # name -> (nodes, size, initializers, stripped)
    skipped = {}   # name -> reason

    for name in names:
        t0 = time.time()
        shape = input_shape(name)
        try:
            model = build(name)
            macs, _ = count_macs(model, shape)
            params = count_params(model)
            data = export_bytes(model, shape)
        except Exception as e:  # record and skip
            traceback.print_exc()
            reason = "%s: %s" % (type(e).__name__, str(e).splitlines()[0] if str(e) else "")
            skipped[name] = reason
            print("SKIP %-20s %s" % (name, reason), flush=True)
            continue

        proto = onnx.load_from_string(data)
        onnx.checker.check_model(proto)
        if args.full and (args.full_all or name in FULL_MODELS):
            with open(os.path.join(args.full, name + ".onnx"), "wb") as f:
                f.write(data)

        bigc = big_constant_nodes(proto)
        if bigc:
            print("  warning: %s has %d large Constant nodes (%d bytes)"
                  % (name, len(bigc), sum(b for _, b in bigc)))
        ninit = len(proto.graph.initializer)
        nstrip, nbytes = strip_weights(proto, name)
        path = os.path.join(args.out, name + ".onnx")
        with open(path, "wb") as f:
            f.write(proto.SerializeToString())
        size = os.path.getsize(path)
        nodes = len(proto.graph.node)

        rows[name] = dict(model=name, input="x".join(map(str, shape)),
                          gmacs="%.3f" % round(macs / 1e9, 3), macs=macs, params=params)
        info[name] = (nodes, size, ninit, nstrip, nbytes)
        print("%-20s nodes=%5d size=%9d B  init=%4d stripped=%4d (%d B)  GMACs=%.3f params=%d  (%.1fs)"
              % (name, nodes, size, ninit, nstrip, nbytes, macs / 1e9, params,
                 time.time() - t0), flush=True)

    # reference.csv: merge with an existing file when only a subset was run
    csv_path = os.path.join(args.out, "reference.csv")
    fields = ["model", "input", "gmacs", "macs", "params"]
    old = {}
    if args.models and os.path.exists(csv_path):
        with open(csv_path, newline="") as f:
            old = {r["model"]: r for r in csv.DictReader(f)}
    old.update(rows)
    with open(csv_path, "w", newline="") as f:
        w = csv.DictWriter(f, fieldnames=fields, lineterminator="\n")
        w.writeheader()
        for n in MODELS:
            if n in old:
                w.writerow(old[n])

    if not args.no_readme:
        write_readme(args.out, skipped)

    total = sum(os.path.getsize(os.path.join(args.out, f)) for f in os.listdir(args.out)
                if os.path.isfile(os.path.join(args.out, f)))
    print("total size of %s: %d bytes (%.2f MB)" % (args.out, total, total / 1e6))
    if skipped:
        print("skipped:")
        for n, r in skipped.items():
            print("  %s: %s" % (n, r))
    return 0


def write_readme(out, skipped):
    """README.md with a table built from the files present in `out`."""
    ref = {}
    csv_path = os.path.join(out, "reference.csv")
    if os.path.exists(csv_path):
        with open(csv_path, newline="") as f:
            ref = {r["model"]: r for r in csv.DictReader(f)}
    lines = []
    for n in MODELS:
        p = os.path.join(out, n + ".onnx")
        if not os.path.exists(p):
            continue
        m = onnx.load(p, load_external_data=False)
        r = ref.get(n, {})
        lines.append("| %s | %s | %d | %d | %d | %s | %s |" % (
            n, r.get("input", "?"), len(m.graph.node), len(m.graph.initializer),
            os.path.getsize(p), r.get("gmacs", "?"),
            "{:,}".format(int(r["params"])) if "params" in r else "?"))
    skip_txt = ""
    if skipped:
        skip_txt = "\nSkipped (failed to export with torch %s):\n\n" % torch.__version__ + \
            "".join("- %s: %s\n" % (k, v) for k, v in skipped.items())
    text = README_TEMPLATE.format(
        torch=torch.__version__, torchvision=torchvision.__version__,
        onnx=onnx.__version__, table="\n".join(lines), skipped=skip_txt,
        limit=INLINE_LIMIT, align=ALIGN)
    with open(os.path.join(out, "README.md"), "w") as f:
        f.write(text)


README_TEMPLATE = """\
# Test models

ONNX exports of torchvision classification models, used as test inputs and
reference data for nnperf.  Generated by `make_models.py` (a developer tool;
CI never runs it).

## What the files are

- `<name>.onnx`: the model exported with `torch.onnx.export` (opset 13,
  `do_constant_folding=True`, eval mode, random weights, input `input`,
  output `output`, batch 1; input 1x3x224x224 except inception_v3 at
  1x3x299x299).  The graph is exactly what torch emitted (no shape inference,
  no extra value_info), **but the weights are stripped**: every initializer
  larger than {limit} bytes keeps its name, dims and data_type, has no data,
  and has `data_location = EXTERNAL` with `external_data` entries
  `location=<name>.weights`, `offset` (running offset over all stripped
  tensors, {align}-byte aligned) and `length` (byte size).  The `<name>.weights`
  files do **not** exist and are not shipped (`*.weights` is git-ignored).
  Initializers of at most {limit} bytes (shape constants, small biases, ...)
  and INT64 initializers of any size (indices nnperf reads) stay inline.
- `reference.csv`: columns `model,input,gmacs,macs,params`.  `macs` is the
  exact multiply-accumulate count computed the way torchvision computes its
  published `_ops` numbers (test/common_extended_utils.py: a
  TorchDispatchMode counting aten convolution (output elements x Cin/groups x
  kh x kw), mm/matmul, addmm and bmm; no bias, BN, activations, pooling,
  softmax or adds), running the model in eval mode under `torch.no_grad()` on
  the input listed; `gmacs` = macs/1e9 rounded to 3 decimals; `params` =
  number of parameters.  Under `no_grad`, nn.MultiheadAttention (vit_b_16)
  runs the fused `aten._native_multi_head_attention`, which the counter
  expands into the MACs of the unfused path (in-/out-projections, Q@K^T,
  attn@V; checked equal to counting the unfused path).  Note: these numbers are for the listed input size,
  which for efficientnet_b1 (224) differs from the 240x240 crop torchvision
  uses for its published number.
{skipped}
Quirks of the exports worth knowing (they are what torch 1.13 emits, kept
as is):

- swin_t: 6623 nodes, most of them shape arithmetic (Shape/Gather/Slice/
  Concat/Range/ScatterND...) for the shifted-window masks; 24 `Dropout`
  nodes with ratio 0 and `training_mode=True` (torchvision 0.14 calls
  `F.dropout` without `training=`), both outputs present; the graph output
  has a symbolic first dim (`Gemmoutput_dim_0`) instead of 1.
- vit_b_16: attention is exported unfused (MatMul/Softmax/Reshape/Transpose);
  all its initializers are stripped.
- Some models carry small `Constant` nodes (shape constants) besides the
  initializers.
- `onnx.checker.check_model` on these files fails because the `.weights`
  file is missing; load them with `onnx.load(path, load_external_data=False)`.

## Regenerating

    /usr/bin/python3 models/make_models.py

(Debian packages python3-torchvision and python3-onnx; the default `python3`
on PATH may lack them.)  `--full DIR` additionally writes full-weight exports
of resnet50 and vit_b_16 to DIR for the benchmarks (not committed), e.g.
`/usr/bin/python3 models/make_models.py --full /tmp/nnperf-full`.
Weights are random (seed 0), so only the graph structure is meaningful.

Generated with torch {torch}, torchvision {torchvision}, onnx {onnx}.

## Models

| model | input | nodes | initializers | file size (bytes) | GMACs | params |
|---|---|---:|---:|---:|---:|---:|
{table}
"""


if __name__ == "__main__":
    sys.exit(main())
