#!/usr/bin/python3
"""Rewrite the published ai8x networks of models/mcu/ai8x/ into the ONNX that ai8x-training's own export writes.

Developer tool only (python3-onnx, no PyTorch): CI never runs it; the generated .onnx files in
tests/data/mcu/vendor/ are committed and tests/unit/test_mcu.c plans each one against its plain twin.

    /usr/bin/python3 tests/data/mcu/make_vendor_exports.py

ai8x-training exports with `train.py --summary onnx` or `--summary onnx_simplified`, after `ai8x.onnx_export_prep()`
swaps its quantization modules for ONNX-exportable ones ([AI8X-TRAINING] in docs/sources.md: ai8x.py,
QuantizationAwareModule.forward, onnx_export_prep, quantize_clamp, quantize_clamp_pool, Eltwise).  Per layer module
the export then holds, in this order:

  pooling      MaxPool / AveragePool; after an average pool in the plain export: Clip(min -1), Clip(max 127/128)
               (clamp_pool), and with QAT Mul(128), Floor, Div(128) before it (FloorQatONNX)
  weights      float: the initializer (the weight x One() multiply is folded by torch's constant folding);
               QAT: the output shift computed from the weights and bias (Reshape, Concat, Abs, ReduceMax, Div(1, x),
               Log, Div(ln 2), Floor, Clip(-15, 15), Neg: OutputShiftONNX), the weight scale Pow(2, -shift), the
               weight x scale, and in the plain export QuantizeONNX (Mul(2^(bits-1)), Round, Div(2^(bits-1))) and
               the clamp Clip(min -1), Clip(max (2^(bits-1)-1)/2^(bits-1)); the bias the same
  Conv / Gemm  (a Linear without bias: MatMul with the transposed weight, as torch exports F.linear)
  BN           float models trained with batch normalization: BatchNormalization, Div(4) (BN is folded into the
               weights when QAT starts; the layers with a bias in models/mcu/ai8x are the BN layers)
  output shift Mul(x, Pow(2, shift)) unless the layer is wide (the last one): the output-scaling multiply
  activation   Relu
  quantize     QAT in the plain export: Mul(128), Round, Div(128) (wide: 2^14)
  clamp        plain export: Clip(min -1), Clip(max 127/128) (wide: +-2^15)
  Add          ai8x.Add: Add, then the clamp (plain export)
  view         x.view(x.size(0), -1) in the plain export: Shape, Gather, Unsqueeze, Concat(-1) and Reshape, as torch
               traces it (the simplified forms keep the constant shape)

Four forms of every network: float and 8-bit QAT, each as `onnx` (plain) and `onnx_simplified` export; and the
mixed-precision QAT export (models/mcu/ai8x/qat_policy_cifar100.yaml: 8 / 4 / 2 bits per layer) of the two
simplenets, whose rounding steps say each layer's weight bits.  The
vendor's ONNX loader (ai8x-synthesis izer/onnxcp.py) reads only the Conv / Gemm weights and ignores every other
node: nnperf map must plan each form exactly as the network itself.
"""

import math
import os
import sys

import onnx
import yaml
from onnx import TensorProto, helper

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(os.path.dirname(HERE)))
SRC = os.path.join(ROOT, "models", "mcu", "ai8x")
OUT = os.path.join(HERE, "vendor")

NETWORKS = ["ai85net5_mnist", "ai85net5_cifar10", "ai85nascifarnet_cifar10", "ai85nascifarnet_cifar100",
            "ai85simplenet_cifar100", "ai85simplenetwide2x_cifar100", "ai85ressimplenet_cifar100",
            "ai85kws20netv3", "ai87kws20netv3", "ai85faceidnet", "ai85cdnet"]
FORMS = [("float", False), ("float", True), ("qat8", False), ("qat8", True)]
VIEWS = ("Reshape", "Flatten", "Identity")


class Writer:
    def __init__(self, model, qat, simplified):
        self.m = model
        self.qat, self.simplified = qat, simplified
        self.nodes, self.inits = [], [self.strip(t) for t in model.graph.initializer]
        self.dims = {t.name: list(t.dims) for t in model.graph.initializer}
        self.n = 0

    def strip(self, t):
        """an inline initializer of more than 64 bytes becomes an external reference (never written)"""
        numel = 1
        for d in t.dims:
            numel *= d
        if t.data_location == TensorProto.EXTERNAL or t.data_type != TensorProto.FLOAT or numel <= 16:
            return t
        c = TensorProto()
        c.name, c.data_type = t.name, t.data_type
        c.dims.extend(t.dims)
        c.data_location = TensorProto.EXTERNAL
        for k, v in (("location", self.m.graph.name + ".weights"), ("offset", "0"), ("length", str(numel * 4))):
            e = c.external_data.add()
            e.key, e.value = k, v
        return c

    def name(self, base):
        self.n += 1
        return f"{base}{self.n}"

    def const(self, base, value, dims=()):
        t = self.name(base)
        numel = 1
        for d in dims:
            numel *= d
        self.inits.append(self.strip(helper.make_tensor(t, TensorProto.FLOAT, list(dims), [float(value)] * numel)))
        return t

    def op(self, mod, op, inputs, name=None, **attrs):
        y = self.name("t")
        self.nodes.append(helper.make_node(op, inputs, [y], name=name or f"/{mod}/{op}_{self.n}", **attrs))
        return y

    def clamp(self, mod, x, lo, hi):
        """ai8x Clamp: x.clamp(min=lo) then x.clamp(max=hi), two Clip nodes as torch exports them"""
        x = self.op(mod, "Clip", [x, self.const("min", lo)])
        return self.op(mod, "Clip", [x, "", self.const("max", hi)])

    def quantize(self, mod, x, bits, rounding="Round"):
        f = 2.0 ** (bits - 1)
        x = self.op(mod, "Mul", [x, self.const("factor", f)])
        x = self.op(mod, rounding, [x])
        return self.op(mod, "Div", [x, self.const("factor", f)])

    def out_shift(self, mod, w, b):
        """OutputShiftONNX on the flattened weights and bias: -floor(log2(1 / max|params|)), clamped to +-15"""
        parts = [self.op(mod, "Reshape", [p, self.name_int64("flat", [-1])]) for p in (w, b) if p]
        x = self.op(mod, "Concat", parts, axis=0) if len(parts) > 1 else parts[0]
        x = self.op(mod, "Abs", [x])
        x = self.op(mod, "ReduceMax", [x], keepdims=0)
        x = self.op(mod, "Div", [self.const("one", 1.0), x])
        x = self.op(mod, "Log", [x])
        x = self.op(mod, "Div", [x, self.const("ln2", math.log(2.0))])
        x = self.op(mod, "Floor", [x])
        x = self.op(mod, "Clip", [x, self.const("min", -15.0), self.const("max", 15.0)])
        return self.op(mod, "Neg", [x])

    def name_int64(self, base, vals):
        t = self.name(base)
        self.inits.append(helper.make_tensor(t, TensorProto.INT64, [len(vals)], vals))
        return t

    def param(self, mod, p, shift, bits):
        """a QAT weight or bias as the export computes it from the trained one"""
        scale = self.op(mod, "Pow", [self.const("two", 2.0), self.op(mod, "Neg", [shift])])
        x = self.op(mod, "Mul", [p, scale])
        if not self.simplified:
            x = self.quantize(mod, x, bits)
            x = self.clamp(mod, x, -1.0, (2.0 ** (bits - 1) - 1) / 2.0 ** (bits - 1))
        return x


def rewrite(src, qat, simplified, policy=None):
    m = onnx.load(src, load_external_data=False)
    g = m.graph
    W = Writer(m, qat, simplified)
    consumers = {}
    for n in g.node:
        for i in n.input:
            consumers.setdefault(i, []).append(n)
    outputs = {o.name for o in g.output}

    def wide(y):
        """the layer's output reaches the model output through views only (ai8x: wide=True on the last layer)"""
        while y not in outputs:
            c = consumers.get(y, [])
            if len(c) != 1 or c[0].op_type not in VIEWS:
                return False
            y = c[0].output[0]
        return True

    rename = {}
    nodes = list(g.node)
    i = 0
    while i < len(nodes):
        n = nodes[i]
        ins = [rename.get(x, x) for x in n.input]
        mod = n.name.split("/")[1] if n.name.count("/") >= 2 else n.name.strip("/")
        if n.op_type in ("Conv", "Gemm"):
            relu = i + 1 < len(nodes) and nodes[i + 1].op_type == "Relu" and nodes[i + 1].input[0] == n.output[0]
            y_last = nodes[i + 1].output[0] if relu else n.output[0]
            is_wide = not relu and wide(y_last)
            w, b = ins[1], ins[2] if len(ins) > 2 else ""
            if qat:
                bits = 8
                if policy:  # ai8x.initiate_qat: the policy's weight_bits, a layer's override; the bias the same
                    bits = policy.get("overrides", {}).get(mod, {}).get("weight_bits", policy["weight_bits"])
                shift = W.out_shift(mod, w, b)
                w = W.param(mod, w, shift, bits)
                if b:
                    b = W.param(mod, b, shift, bits)
            else:
                shift = W.const("output_shift", 0.0, [1])  # OutputShiftPassthrough: the module's parameter
            attrs = {a.name: helper.get_attribute_value(a) for a in n.attribute}
            if n.op_type == "Gemm" and not b:
                # F.linear without bias: MatMul(x, weight^T)
                if qat:
                    wt = W.op(mod, "Transpose", [w], perm=[1, 0])
                else:
                    wt = W.name(f"onnx::MatMul_{mod}")
                    d = W.dims[w]
                    t = next(t for t in W.inits if t.name == w)
                    c = onnx.TensorProto()
                    c.CopyFrom(t)
                    c.name = wt
                    del c.dims[:]
                    c.dims.extend([d[1], d[0]])
                    W.inits.append(c)
                y = W.op(mod, "MatMul", [ins[0], wt])
            else:
                y = W.op(mod, n.op_type, [ins[0], w] + ([b] if b else []), name=n.name, **attrs)
            if not qat and b and n.op_type == "Conv":
                cout = W.dims[n.input[1]][0]
                bn = [W.const("bn_scale", 1.0, [cout]), W.const("bn_bias", 0.0, [cout]),
                      W.const("bn_mean", 0.0, [cout]), W.const("bn_var", 1.0, [cout])]
                y = W.op(mod, "BatchNormalization", [y] + bn, epsilon=1e-5)
                y = W.op(mod, "Div", [y, W.const("four", 4.0)])
            if not is_wide:
                y = W.op(mod, "Mul", [y, W.op(mod, "Pow", [W.const("two", 2.0), shift])])
            if relu:
                y = W.op(mod, "Relu", [y])
            if qat and not simplified:
                y = W.quantize(mod, y, 15 if is_wide else 8)
            if not simplified:
                y = W.clamp(mod, y, -2.0 ** 15, 2.0 ** 15) if is_wide else W.clamp(mod, y, -1.0, 127.0 / 128.0)
            rename[y_last] = y
            i += 2 if relu else 1
            continue
        if n.op_type == "AveragePool" and n.name.endswith("/pool/AveragePool"):
            y = W.op(mod, "AveragePool", ins, **{a.name: helper.get_attribute_value(a) for a in n.attribute})
            if qat and not simplified:
                y = W.quantize(mod, y, 8, "Floor")
            if not simplified:
                y = W.clamp(mod, y, -1.0, 127.0 / 128.0)
            rename[n.output[0]] = y
        elif n.op_type == "Reshape" and not simplified and n.input[1] in W.dims:
            # x.view(x.size(0), -1) as torch traces it: the batch size read from the tensor's shape
            zero = W.name("zero")
            W.inits.append(helper.make_tensor(zero, TensorProto.INT64, [], [0]))
            batch = W.op(mod, "Gather", [W.op(mod, "Shape", [ins[0]]), zero], axis=0)
            batch = W.op(mod, "Unsqueeze", [batch, W.name_int64("axes", [0])])
            shape = W.op(mod, "Concat", [batch, W.name_int64("minus_one", [-1])], axis=0)
            y = W.op(mod, "Reshape", [ins[0], shape])
            rename[n.output[0]] = y
        elif n.op_type == "Add":
            y = W.op(mod, "Add", ins)
            if not simplified:
                y = W.clamp(mod, y, -1.0, 127.0 / 128.0)
            rename[n.output[0]] = y
        else:
            c = onnx.NodeProto()
            c.CopyFrom(n)
            del c.input[:]
            c.input.extend(ins)
            W.nodes.append(c)
        i += 1
    graph = helper.make_graph(W.nodes, g.name, list(g.input), list(g.output), initializer=W.inits)
    out = helper.make_model(graph, producer_name="make_vendor_exports.py",
                            opset_imports=[helper.make_opsetid("", 13)])
    out.ir_version = 7
    return out


def edge_models():
    """Two small models beside the exports: stream_bias.onnx streams its first layer, which has a bias (the vendor's
    tool warns on the MAX78000); scale_not_pow2.onnx scales a layer's output by 0.3, which is no output shift."""
    sys.path.insert(0, os.path.join(ROOT, "models", "mcu"))
    from make_ai8x_models import Net  # pylint: disable=import-outside-toplevel

    g = Net("stream_bias", (3, 160, 120))
    x = g.conv(g.x, 16, 3, 1, "conv1", bias=True)
    x = g.conv(x, 32, 3, 1, "conv2", bias=False, pool=("max", 2))
    x = g.conv(x, 32, 3, 1, "conv3", bias=False, pool=("max", 2))
    x = g.conv(x, 64, 3, 1, "conv4", bias=False, pool=("max", 2))
    x = g.conv(x, 10, 1, 0, "conv5", bias=False, relu=False, pool=("max", 2))
    g.save(x, os.path.join(HERE, "stream_bias.onnx"))

    g = Net("scale_not_pow2", (3, 16, 16))
    x = g.conv(g.x, 16, 3, 1, "conv1")
    g.inits.append(helper.make_tensor("k", TensorProto.FLOAT, [], [0.3]))
    g.nodes.append(helper.make_node("Mul", [x[0], "k"], ["scaled"], name="/conv1/Mul"))
    x = g.conv(("scaled", x[1]), 16, 3, 1, "conv2", relu=False)
    g.save(x, os.path.join(HERE, "scale_not_pow2.onnx"))


def main():
    edge_models()
    os.makedirs(OUT, exist_ok=True)
    with open(os.path.join(SRC, "qat_policy_cifar100.yaml"), encoding="utf-8") as f:
        policy = yaml.safe_load(f)
    todo = [(net, kind, simplified, None) for net in NETWORKS for kind, simplified in FORMS]
    # the mixed-precision CIFAR-100 demos trained with the vendor's QAT policy (8 / 4 / 2 bits per layer)
    todo += [(net, "qat_mixed", False, policy) for net in ("ai85simplenet_cifar100", "ai85simplenetwide2x_cifar100")]
    for net, kind, simplified, pol in todo:
        m = rewrite(os.path.join(SRC, net + ".onnx"), kind.startswith("qat"), simplified, pol)
        path = os.path.join(OUT, f"{net}_{kind}{'_simplified' if simplified else ''}.onnx")
        with open(path, "wb") as f:
            f.write(m.SerializeToString())
        print(f"{os.path.relpath(path, ROOT)}: {os.path.getsize(path)} bytes, {len(m.graph.node)} nodes")


if __name__ == "__main__":
    main()
