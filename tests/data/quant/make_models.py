#!/usr/bin/python3
"""Generate the quantized test models of tests/data/quant/ (developer tool; CI never runs it, the files are
committed). Needs only python3-onnx (Debian): the QDQ and QOperator forms are rewritten from the float exports in
models/ (weight-stripped, see models/README.md), and the transformer encoder is built with onnx.helper.

    /usr/bin/python3 tests/data/quant/make_models.py

For each float model F (resnet18, mobilenet_v2, efficientnet_b0 from models/, and encoder.onnx written here):

  F_qdq.onnx   ONNX Runtime's QDQ format as its static quantizer emits it for the operators it quantizes:
               QuantizeLinear -> DequantizeLinear (int8, per-tensor scale) on every activation input of Conv, Gemm
               and MatMul (one pair per tensor, shared by its readers); int8 weights and int32 biases behind
               DequantizeLinear (per-tensor scales: one scale and zero point initializer shared by the whole model,
               which keeps the files small). Everything else stays as exported.
  F_qop.onnx   the QOperator format: Conv -> QLinearConv, MatMul -> QLinearMatMul, Gemm -> com.microsoft QGemm,
               Add of two activations -> com.microsoft QLinearAdd; QuantizeLinear / DequantizeLinear where a float
               operator reads a quantized tensor or the other way round.
  encoder_dyn.onnx
               ONNX Runtime's dynamic quantization of the encoder: DynamicQuantizeLinear -> MatMulInteger -> Cast ->
               Mul by the scales, for the MatMuls with a constant weight (the attention MatMuls stay float).
  encoder_qdq_w.onnx
               its QDQ twin: Q/DQ on the MatMuls with a constant weight only.
  resnet18_qdq_float1.onnx
               resnet18_qdq with one Conv in the middle (FLOAT_CONV) left float: no Q/DQ on its input, float weights
               (as ONNX Runtime's nodes_to_exclude leaves a layer).

Weights are stripped as in models/: every initializer over 1024 bytes, and every quantized weight and bias, keeps
name, dims and type and points at external data in a <name>.weights file that does not exist (nnperf never reads
weight bytes).
"""

import os

import numpy as np
import onnx
from onnx import TensorProto, helper, numpy_helper

HERE = os.path.dirname(os.path.abspath(__file__))
MODELS = os.path.join(HERE, "..", "..", "..", "models")
FLOAT_CONV = 8  # the index (among Convs, in graph order) of the Conv resnet18_qdq_float1 leaves float

QUANT_OPS = ("Conv", "Gemm", "MatMul")


ELEM = {TensorProto.FLOAT: 4, TensorProto.INT8: 1, TensorProto.UINT8: 1, TensorProto.INT32: 4, TensorProto.INT64: 8}


def strip(model, name):
    """Weight-strip like models/make_models.py: initializers over 1024 bytes point at missing external data."""
    off = 0
    for t in model.graph.initializer:
        nbytes = int(np.prod(t.dims)) * ELEM[t.data_type] if t.dims else ELEM[t.data_type]
        if nbytes <= 1024 and t.data_location != TensorProto.EXTERNAL:
            continue
        for f in ("raw_data", "float_data", "int32_data", "int64_data", "external_data"):
            t.ClearField(f)
        t.data_location = TensorProto.EXTERNAL
        for k, v in (("location", name + ".weights"), ("offset", str(off)), ("length", str(nbytes))):
            e = t.external_data.add()
            e.key, e.value = k, v
        off += (nbytes + 63) // 64 * 64
    return model


def stripped_init(name, dtype, dims):
    """An initializer of dtype and dims without data (strip() points it at the .weights, whatever its size)"""
    np_t = {TensorProto.INT8: np.int8, TensorProto.INT32: np.int32, TensorProto.FLOAT: np.float32}[dtype]
    t = TensorProto()
    t.name, t.data_type = name, dtype
    t.dims.extend(dims)
    t.data_location = TensorProto.EXTERNAL
    return t


class Builder:
    def __init__(self, model):
        self.m = model
        self.g = model.graph
        self.inits = {t.name: t for t in self.g.initializer}
        for n in self.g.node:  # torch's exporter shares equal initializers through Identity nodes
            if n.op_type == "Identity" and n.input[0] in self.inits:
                self.inits[n.output[0]] = self.inits[n.input[0]]
        self.new_inits = []
        self.n = 0

    def uniq(self, base):
        self.n += 1
        return "%s%d" % (base, self.n)

    def scalar(self, base, value, dtype):
        """one shared scalar initializer per (base, value, dtype): every Q/DQ of the model reads the same scale"""
        name = "%s_%s" % (base, {TensorProto.FLOAT: "f", TensorProto.INT8: "i8", TensorProto.INT32: "i32"}[dtype])
        if any(t.name == name for t in self.new_inits):
            return name
        arr = np.array(value, dtype={TensorProto.FLOAT: np.float32, TensorProto.INT8: np.int8,
                                     TensorProto.INT32: np.int32}[dtype])
        self.new_inits.append(numpy_helper.from_array(arr, name))
        return name

    def quant_weight(self, wname, dtype=TensorProto.INT8):
        """the initializer wname as int8 (int32 for a bias): the name of the quantized initializer"""
        t = self.inits[wname]
        qn = wname + "_q"
        if qn not in {x.name for x in self.new_inits}:
            self.new_inits.append(stripped_init(qn, dtype, list(t.dims)))
        return qn, list(t.dims)

    def finish(self, nodes, used_inits_from):
        del self.g.node[:]
        self.g.node.extend(nodes)
        keep = {i for n in nodes for i in n.input}
        old = [t for t in self.g.initializer if t.name in keep]
        del self.g.initializer[:]
        self.g.initializer.extend(old + [t for t in self.new_inits if t.name in keep])
        del self.g.value_info[:]
        return self.m


def act_inputs(node, inits, weighted_only=False):
    """indices of a quantizable node's activation inputs (weighted_only: none for a MatMul of two activations)"""
    if node.op_type == "Conv" or node.op_type == "Gemm":
        return [0] if node.input[0] not in inits else []
    acts = [i for i in (0, 1) if node.input[i] not in inits]
    return [] if weighted_only and len(acts) == 2 else acts


def weight_inputs(node, inits):
    if node.op_type in ("Conv", "Gemm"):
        return [i for i in (1,) if node.input[i] in inits]
    return [i for i in (0, 1) if node.input[i] in inits]


def to_qdq(model, float_conv=None, weighted_only=False):
    b = Builder(model)
    nodes, qdq_of = [], {}
    conv_i = -1
    for node in list(b.g.node):
        if node.op_type not in QUANT_OPS:
            nodes.append(node)
            continue
        if node.op_type == "Conv":
            conv_i += 1
            if conv_i == float_conv:
                nodes.append(node)
                continue
        ins = list(node.input)
        if weighted_only and not act_inputs(node, b.inits, True):
            nodes.append(node)
            continue
        for i in act_inputs(node, b.inits):
            x = ins[i]
            if x not in qdq_of:
                s, z = b.scalar("scale", 0.05, TensorProto.FLOAT), b.scalar("zp", 0, TensorProto.INT8)
                q, dq = b.uniq("q"), b.uniq("dq")
                nodes.append(helper.make_node("QuantizeLinear", [x, s, z], [q], name=q))
                nodes.append(helper.make_node("DequantizeLinear", [q, s, z], [dq], name=dq))
                qdq_of[x] = dq
            ins[i] = qdq_of[x]
        for i in weight_inputs(node, b.inits):
            qn, dims = b.quant_weight(ins[i])
            s, z = b.scalar("wscale", 0.01, TensorProto.FLOAT), b.scalar("wzp", 0, TensorProto.INT8)
            dq = b.uniq("dq")
            nodes.append(helper.make_node("DequantizeLinear", [qn, s, z], [dq], name=dq))
            ins[i] = dq
        if node.op_type in ("Conv", "Gemm") and len(ins) > 2 and ins[2] in b.inits:
            qn, dims = b.quant_weight(ins[2], TensorProto.INT32)
            s = b.scalar("bscale", 0.0005, TensorProto.FLOAT)
            dq = b.uniq("dq")
            nodes.append(helper.make_node("DequantizeLinear", [qn, s], [dq], name=dq))
            ins[2] = dq
        del node.input[:]
        node.input.extend(ins)
        nodes.append(node)
    return b.finish(nodes, None)


def to_qop(model):
    b = Builder(model)
    nodes = []
    q_of = {}  # float tensor -> (quantized tensor, scale, zero point)
    graph_out = {o.name for o in b.g.output}

    def quantized(x):
        if x not in q_of:
            s, z = b.scalar("scale", 0.05, TensorProto.FLOAT), b.scalar("zp", 0, TensorProto.INT8)
            q = b.uniq("q")
            nodes.append(helper.make_node("QuantizeLinear", [x, s, z], [q], name=q))
            q_of[x] = (q, s, z)
        return q_of[x]

    def output(y):
        """a QLinear node's output: quantized name, its scale and zp, and a DequantizeLinear back to y"""
        s, z = b.scalar("scale", 0.05, TensorProto.FLOAT), b.scalar("zp", 0, TensorProto.INT8)
        yq = b.uniq("y")
        q_of[y] = (yq, s, z)
        return yq, s, z

    pending = []  # DequantizeLinear nodes back to float names, emitted after their producer
    for node in list(b.g.node):
        ins = list(node.input)
        op = node.op_type
        acts = [i for i in range(len(ins)) if ins[i] and ins[i] not in b.inits]
        if op == "Conv" and len(acts) == 1:
            x, xs, xz = quantized(ins[0])
            wq, dims = b.quant_weight(ins[1])
            ws, wz = b.scalar("wscale", 0.01, TensorProto.FLOAT), b.scalar("wzp", 0, TensorProto.INT8)
            yq, ys, yz = output(node.output[0])
            qin = [x, xs, xz, wq, ws, wz, ys, yz]
            if len(ins) > 2 and ins[2]:
                qin.append(b.quant_weight(ins[2], TensorProto.INT32)[0])
            new = helper.make_node("QLinearConv", qin, [yq], name=node.name)
            new.attribute.extend(node.attribute)
        elif op == "Gemm" and len(acts) == 1:
            x, xs, xz = quantized(ins[0])
            wq, dims = b.quant_weight(ins[1])
            ws, wz = b.scalar("wscale", 0.01, TensorProto.FLOAT), b.scalar("wzp", 0, TensorProto.INT8)
            yq, ys, yz = output(node.output[0])
            c = b.quant_weight(ins[2], TensorProto.INT32)[0] if len(ins) > 2 and ins[2] else ""
            new = helper.make_node("QGemm", [x, xs, xz, wq, ws, wz, c, ys, yz], [yq], name=node.name,
                                   domain="com.microsoft")
            new.attribute.extend([a for a in node.attribute if a.name in ("transA", "transB", "alpha")])
        elif op == "MatMul":
            qin = []
            for i in (0, 1):
                if ins[i] in b.inits:
                    wq, dims = b.quant_weight(ins[i])
                    qin += [wq, b.scalar("wscale", 0.01, TensorProto.FLOAT), b.scalar("wzp", 0, TensorProto.INT8)]
                else:
                    qin += list(quantized(ins[i]))
            yq, ys, yz = output(node.output[0])
            new = helper.make_node("QLinearMatMul", qin + [ys, yz], [yq], name=node.name)
        elif op == "Add" and len(acts) == 2:
            a, as_, az = quantized(ins[0])
            c, cs, cz = quantized(ins[1])
            yq, ys, yz = output(node.output[0])
            new = helper.make_node("QLinearAdd", [a, as_, az, c, cs, cz, ys, yz], [yq], name=node.name,
                                   domain="com.microsoft")
        else:
            nodes.append(node)
            continue
        nodes.append(new)
        y = node.output[0]
        nodes.append(helper.make_node("DequantizeLinear", [q_of[y][0], q_of[y][1], q_of[y][2]], [y],
                                      name=b.uniq("dq")))
    # drop the DequantizeLinear nodes nothing reads (every reader took the quantized tensor)
    while True:
        read = {i for n in nodes for i in n.input} | graph_out
        keep = [n for n in nodes if n.op_type != "DequantizeLinear" or n.output[0] in read]
        if len(keep) == len(nodes):
            break
        nodes = keep
    m = b.finish(nodes, None)
    if not any(o.domain == "com.microsoft" for o in m.opset_import):
        m.opset_import.append(helper.make_opsetid("com.microsoft", 1))
    return m


def to_dynamic(model):
    """ONNX Runtime's dynamic quantization (quantize_dynamic) of the MatMuls with a constant weight:
    DynamicQuantizeLinear(x) -> MatMulInteger(x_q, W_q, x_zp, W_zp) -> Cast(float) -> Mul(by x_scale * W_scale)"""
    b = Builder(model)
    nodes = []
    for node in list(b.g.node):
        if node.op_type != "MatMul" or node.input[1] not in b.inits or node.input[0] in b.inits:
            nodes.append(node)
            continue
        x, y = node.input[0], node.output[0]
        xq, xs, xz, yi, sc, yf = (b.uniq(n) for n in ("xq", "xs", "xz", "yi", "sc", "yf"))
        wq, _ = b.quant_weight(node.input[1])
        ws, wz = b.scalar("wscale", 0.01, TensorProto.FLOAT), b.scalar("wzp", 0, TensorProto.INT8)
        nodes.append(helper.make_node("DynamicQuantizeLinear", [x], [xq, xs, xz], name=b.uniq("dql")))
        nodes.append(helper.make_node("MatMulInteger", [xq, wq, xz, wz], [yi], name=node.name))
        nodes.append(helper.make_node("Mul", [xs, ws], [sc], name=b.uniq("scale")))
        nodes.append(helper.make_node("Cast", [yi], [yf], name=b.uniq("cast"), to=TensorProto.FLOAT))
        nodes.append(helper.make_node("Mul", [yf, sc], [y], name=b.uniq("rescale")))
    return b.finish(nodes, None)


def encoder():
    """a 2-layer transformer encoder (post-attention residuals, pre-norm), d=256, 4 heads, MLP 1024, 128 tokens"""
    d, h, ff, s, layers = 256, 4, 1024, 128, 2
    hd = d // h
    inits, nodes = [], []

    def w(name, dims):
        inits.append(stripped_init(name, TensorProto.FLOAT, dims))
        return name

    def const(name, arr):
        inits.append(numpy_helper.from_array(np.array(arr), name))
        return name

    const("shape_heads", np.array([1, s, h, hd], np.int64))
    const("shape_model", np.array([1, s, d], np.int64))
    const("scale", np.array(1.0 / np.sqrt(hd), np.float32))
    x = "input"
    for L in range(layers):
        p = "l%d_" % L
        ln1 = p + "ln1"
        nodes.append(helper.make_node("LayerNormalization", [x, w(p + "ln1_g", [d]), w(p + "ln1_b", [d])], [ln1],
                                      name=ln1, axis=-1))
        heads = {}
        for t in "qkv":
            mm, add, rs, tr = p + t + "_mm", p + t + "_add", p + t + "_rs", p + t + "_tr"
            nodes.append(helper.make_node("MatMul", [ln1, w(p + "W" + t, [d, d])], [mm], name=mm))
            nodes.append(helper.make_node("Add", [mm, w(p + "b" + t, [d])], [add], name=add))
            nodes.append(helper.make_node("Reshape", [add, "shape_heads"], [rs], name=rs))
            perm = [0, 2, 3, 1] if t == "k" else [0, 2, 1, 3]
            nodes.append(helper.make_node("Transpose", [rs], [tr], name=tr, perm=perm))
            heads[t] = tr
        sc, scl, sm, ctx = p + "scores", p + "scaled", p + "softmax", p + "context"
        nodes.append(helper.make_node("MatMul", [heads["q"], heads["k"]], [sc], name=sc))
        nodes.append(helper.make_node("Mul", [sc, "scale"], [scl], name=scl))
        nodes.append(helper.make_node("Softmax", [scl], [sm], name=sm, axis=-1))
        nodes.append(helper.make_node("MatMul", [sm, heads["v"]], [ctx], name=ctx))
        ct, cr, om, oa, r1 = p + "ctx_tr", p + "ctx_rs", p + "o_mm", p + "o_add", p + "res1"
        nodes.append(helper.make_node("Transpose", [ctx], [ct], name=ct, perm=[0, 2, 1, 3]))
        nodes.append(helper.make_node("Reshape", [ct, "shape_model"], [cr], name=cr))
        nodes.append(helper.make_node("MatMul", [cr, w(p + "Wo", [d, d])], [om], name=om))
        nodes.append(helper.make_node("Add", [om, w(p + "bo", [d])], [oa], name=oa))
        nodes.append(helper.make_node("Add", [x, oa], [r1], name=r1))
        ln2, f1, a1, rl, f2, a2, r2 = (p + n for n in ("ln2", "ff1_mm", "ff1_add", "relu", "ff2_mm", "ff2_add",
                                                       "res2"))
        nodes.append(helper.make_node("LayerNormalization", [r1, w(p + "ln2_g", [d]), w(p + "ln2_b", [d])], [ln2],
                                      name=ln2, axis=-1))
        nodes.append(helper.make_node("MatMul", [ln2, w(p + "W1", [d, ff])], [f1], name=f1))
        nodes.append(helper.make_node("Add", [f1, w(p + "b1", [ff])], [a1], name=a1))
        nodes.append(helper.make_node("Relu", [a1], [rl], name=rl))
        nodes.append(helper.make_node("MatMul", [rl, w(p + "W2", [ff, d])], [f2], name=f2))
        nodes.append(helper.make_node("Add", [f2, w(p + "b2", [d])], [a2], name=a2))
        nodes.append(helper.make_node("Add", [r1, a2], [r2], name=r2))
        x = r2
    nodes.append(helper.make_node("Identity", [x], ["output"], name="output"))
    g = helper.make_graph(nodes, "encoder", [helper.make_tensor_value_info("input", TensorProto.FLOAT, [1, s, d])],
                          [helper.make_tensor_value_info("output", TensorProto.FLOAT, [1, s, d])], inits)
    return helper.make_model(g, opset_imports=[helper.make_opsetid("", 17)], producer_name="make_models.py")


def save(model, name):
    strip(model, name)
    path = os.path.join(HERE, name + ".onnx")
    onnx.save(model, path)
    print("%-28s %7d bytes, %d nodes" % (name + ".onnx", os.path.getsize(path), len(model.graph.node)))


def load(name):
    return onnx.load(os.path.join(MODELS, name + ".onnx"), load_external_data=False)


def main():
    enc = encoder()
    save(enc, "encoder")
    for name in ("resnet18", "mobilenet_v2", "efficientnet_b0", "encoder"):
        src = (lambda: onnx.load(os.path.join(HERE, "encoder.onnx"), load_external_data=False)) \
            if name == "encoder" else (lambda n=name: load(n))
        save(to_qdq(src()), name + "_qdq")
        save(to_qop(src()), name + "_qop")
    save(to_qdq(load("resnet18"), float_conv=FLOAT_CONV), "resnet18_qdq_float1")
    enc = lambda: onnx.load(os.path.join(HERE, "encoder.onnx"), load_external_data=False)  # noqa: E731
    save(to_dynamic(enc()), "encoder_dyn")
    save(to_qdq(enc(), weighted_only=True), "encoder_qdq_w")


if __name__ == "__main__":
    main()
