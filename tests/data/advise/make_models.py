#!/usr/bin/python3
"""Writes the tiny models of the advice tests (tests/unit/test_advise.c): for each rule of `nnperf advise` a model
that breaks it (<rule>_yes) and a near-identical one that does not (<rule>_no). Dev tool (python3-onnx); weights
keep their dims and dtype but point to a file that is not shipped (nnperf never reads them).
usage: /usr/bin/python3 tests/data/advise/make_models.py"""
import os
import numpy as np
import onnx
from onnx import TensorProto, helper, numpy_helper

here = os.path.dirname(os.path.abspath(__file__))
F = TensorProto.FLOAT


def w(name, shape):
    return numpy_helper.from_array(np.zeros(shape, dtype=np.float32), name)


def vi(name, shape):
    return helper.make_tensor_value_info(name, F, shape)


def save(name, nodes, inputs, inits, outputs=("y",), opset=13, ir_version=7):
    g = helper.make_graph(nodes, name, inputs, [vi(o, []) for o in outputs], inits)
    m = helper.make_model(g, opset_imports=[helper.make_opsetid("", opset)], producer_name="nnperf-tests")
    m.ir_version = ir_version
    if ir_version <= 8:  # the checker of python3-onnx 1.12 knows no 4-bit type (IR 10)
        onnx.checker.check_model(m)
    for o in m.graph.output:
        o.type.tensor_type.ClearField("shape")  # the tests infer it
    off = 0
    for t in m.graph.initializer:
        n = len(t.raw_data)
        t.ClearField("raw_data")
        t.data_location = TensorProto.EXTERNAL
        for k, v in (("location", name + ".weights"), ("offset", str(off)), ("length", str(n))):
            e = t.external_data.add()
            e.key, e.value = k, v
        off += n
    with open(os.path.join(here, name + ".onnx"), "wb") as f:
        f.write(m.SerializeToString())


def conv(i, wname, o, name, pads=1, group=1):
    return helper.make_node("Conv", [i, wname], [o], pads=[pads] * 4, group=group, name=name)


# fallback: an operator the accelerator lacks (Erf) between two convs; no: Tanh, which it runs
for tag, op in (("yes", "Erf"), ("no", "Tanh")):
    save("fallback_" + tag, [conv("x", "w1", "a", "conv1"), helper.make_node(op, ["a"], ["e"], name="act"),
                             conv("e", "w2", "y", "conv2")],
         [vi("x", [1, 32, 32, 32])], [w("w1", [32, 32, 3, 3]), w("w2", [32, 32, 3, 3])])

# fusion-blocked: Conv -> Relu -> Add(shortcut) cannot fuse; no: Conv -> Add -> Relu fuses
save("fusion_yes", [conv("x", "w", "c", "conv"), helper.make_node("Relu", ["c"], ["r"], name="relu"),
                    helper.make_node("Add", ["r", "x"], ["y"], name="add")],
     [vi("x", [1, 32, 64, 64])], [w("w", [32, 32, 3, 3])])
save("fusion_no", [conv("x", "w", "c", "conv"), helper.make_node("Add", ["c", "x"], ["a"], name="add"),
                   helper.make_node("Relu", ["a"], ["y"], name="relu")],
     [vi("x", [1, 32, 64, 64])], [w("w", [32, 32, 3, 3])])

# align-channels: conv1 makes 33 channels (padded to 64), conv2 reads them; no: 32 channels
for tag, c in (("yes", 33), ("no", 32)):
    save("align_" + tag, [conv("x", "w1", "a", "conv1"), conv("a", "w2", "y", "conv2")],
         [vi("x", [1, 32, 64, 64])], [w("w1", [c, 32, 3, 3]), w("w2", [32, c, 3, 3])])

# grouped-conv: a dense 3x3 conv with 256 channels on a 4x4 map is memory-bound (weights); no: 128 channels
for tag, c in (("yes", 256), ("no", 128)):
    save("grouped_" + tag, [conv("x", "w", "y", "conv")], [vi("x", [1, c, 4, 4])], [w("w", [c, c, 3, 3])])

# grouped_edit: grouped_yes with the change its finding suggests made by hand (4 groups of 64 channels); the test
# checks that the finding's what-if predicts exactly this graph. (For fusion, align-channels and data-transform the
# _no model is the edited graph.)
save("grouped_edit", [conv("x", "w", "y", "conv", group=4)], [vi("x", [1, 256, 4, 4])], [w("w", [256, 64, 3, 3])])

# spilled-shortcut: conv1's output is read again by the Add after conv5 (fused with it) and does not fit beside the
# chain in a 1 MiB SRAM (3 x 512 KiB); no: a 64x64 map (3 x 128 KiB fit)
for tag, s in (("yes", 128), ("no", 64)):
    save("spill_" + tag, [conv("x", "w1", "a", "conv1", pads=0), conv("a", "w2", "b", "conv2", pads=0),
                          conv("b", "w3", "c", "conv3", pads=0), conv("c", "w4", "d", "conv4", pads=0),
                          conv("d", "w5", "e", "conv5", pads=0), helper.make_node("Add", ["e", "a"], ["y"], name="add")],
         [vi("x", [1, 32, s, s])], [w("w%d" % i, [32, 32, 1, 1]) for i in range(1, 6)])

# large-weights: a 1024 x 1024 fully-connected layer (1 MiB of int8 weights); no: 512 x 512 (256 KiB)
for tag, c in (("yes", 1024), ("no", 512)):
    save("weights_" + tag, [helper.make_node("MatMul", ["x", "w"], ["y"], name="fc")], [vi("x", [1, c])],
         [w("w", [c, c])])

# data-transform: a Transpose between two convs; no: an Identity (a view)
for tag, op in (("yes", "Transpose"), ("no", "Identity")):
    attrs = {"perm": [0, 1, 3, 2]} if op == "Transpose" else {}
    save("transform_" + tag, [conv("x", "w1", "a", "conv1"), helper.make_node(op, ["a"], ["t"], name="tr", **attrs),
                              conv("t", "w2", "y", "conv2")],
         [vi("x", [1, 64, 64, 64])], [w("w1", [64, 64, 3, 3]), w("w2", [64, 64, 3, 3])])

# batch-small-input: a 32x32 input whose 1.2 MiB of weights dominate; no: the same layers on a 288x288 input
for tag, s in (("yes", 32), ("no", 288)):
    save("batch_" + tag, [conv("x", "w1", "a", "conv1", pads=0), helper.make_node("GlobalAveragePool", ["a"], ["p"],
                                                                                    name="pool"),
                          helper.make_node("Flatten", ["p"], ["f"], name="flat"),
                          helper.make_node("MatMul", ["f", "w2"], ["y"], name="fc")],
         [vi("x", [1, 16, s, s])], [w("w1", [256, 16, 3, 3]), w("w2", [256, 4096])])

# dtype (advised in fp16 on a platform with 4x the int8 peak): a compute-bound conv; no: a tiny conv, dominated by
# the per-layer overhead
for tag, c, s, k in (("yes", 128, 64, 3), ("no", 8, 1, 1)):
    save("dtype_" + tag, [conv("x", "w", "y", "conv", pads=k // 2)], [vi("x", [1, c, s, s])], [w("w", [c, c, k, k])])
# padded-attention: Q K^T -> Softmax -> x V with 3 heads, which the alignment pads to 32 (10.7x the scores);
# no: 32 heads, which it does not pad
for tag, h in (("yes", 3), ("no", 32)):
    save("attention_" + tag, [helper.make_node("MatMul", ["q", "k"], ["s"], name="scores"),
                              helper.make_node("Softmax", ["s"], ["p"], axis=-1, name="softmax"),
                              helper.make_node("MatMul", ["p", "v"], ["y"], name="context")],
         [vi("q", [1, h, 49, 32]), vi("k", [1, h, 32, 49]), vi("v", [1, h, 49, 32])], [])
# lowered twins (test_advise.c, "what-ifs on a lowered graph"): spill_yes and align_yes as ONNX Runtime's QDQ format
# writes them (QuantizeLinear -> DequantizeLinear on every activation input of the Convs and the Add, one pair per
# tensor shared by its readers; int8 weights behind a DequantizeLinear), and spill_yes with a Dropout (inference: a
# view) on conv1's output. The prediction lowers them (Q/DQ and Dropout become views), so a what-if on a value of the
# analysis's graph must follow the lowering to the tensor that holds it.
def qdq_twin(name, nodes, inputs, inits):
    out, pair, winit = [], {}, []
    sc = numpy_helper.from_array(np.array(0.05, dtype=np.float32), "scale")
    zp = numpy_helper.from_array(np.array(0, dtype=np.int8), "zp")
    wsc = numpy_helper.from_array(np.array(0.01, dtype=np.float32), "wscale")
    names = {t.name for t in inits}
    for nd in nodes:
        ins = list(nd.input)
        for i, x in enumerate(ins):
            if x in names:  # a weight: int8 codes behind a DequantizeLinear
                q = numpy_helper.from_array(np.zeros(numpy_helper.to_array(
                    [t for t in inits if t.name == x][0]).shape, dtype=np.int8), x + "_q")
                winit.append(q)
                out.append(helper.make_node("DequantizeLinear", [x + "_q", "wscale", "zp"], [x + "_dq"],
                                            name=x + "_dq"))
                ins[i] = x + "_dq"
                continue
            if x not in pair:
                out.append(helper.make_node("QuantizeLinear", [x, "scale", "zp"], [x + "_q"], name=x + "_q"))
                out.append(helper.make_node("DequantizeLinear", [x + "_q", "scale", "zp"], [x + "_dq"],
                                            name=x + "_dq"))
                pair[x] = x + "_dq"
            ins[i] = pair[x]
        del nd.input[:]
        nd.input.extend(ins)
        out.append(nd)
    save(name, out, inputs, winit + [sc, zp, wsc])


qdq_twin("spill_yes_qdq", [conv("x", "w1", "a", "conv1", pads=0), conv("a", "w2", "b", "conv2", pads=0),
                           conv("b", "w3", "c", "conv3", pads=0), conv("c", "w4", "d", "conv4", pads=0),
                           conv("d", "w5", "e", "conv5", pads=0), helper.make_node("Add", ["e", "a"], ["y"], name="add")],
         [vi("x", [1, 32, 128, 128])], [w("w%d" % i, [32, 32, 1, 1]) for i in range(1, 6)])
qdq_twin("align_yes_qdq", [conv("x", "w1", "a", "conv1"), conv("a", "w2", "y", "conv2")],
         [vi("x", [1, 32, 64, 64])], [w("w1", [33, 32, 3, 3]), w("w2", [32, 33, 3, 3])])
save("spill_yes_drop", [conv("x", "w1", "a0", "conv1", pads=0), helper.make_node("Dropout", ["a0"], ["a"], name="drop"),
                        conv("a", "w2", "b", "conv2", pads=0), conv("b", "w3", "c", "conv3", pads=0),
                        conv("c", "w4", "d", "conv4", pads=0), conv("d", "w5", "e", "conv5", pads=0),
                        helper.make_node("Add", ["e", "a"], ["y"], name="add")],
     [vi("x", [1, 32, 128, 128])], [w("w%d" % i, [32, 32, 1, 1]) for i in range(1, 6)])
# QOperator twins: grouped_yes and weights_yes as QuantizeLinear -> QLinearConv / QLinearMatMul (int8 weights) ->
# DequantizeLinear; the lowering renames the QLinear node to its float twin and recounts its weights
def qop_twin(name, op, wshape, inputs, pads=None):
    sc = numpy_helper.from_array(np.array(0.05, dtype=np.float32), "scale")
    zp = numpy_helper.from_array(np.array(0, dtype=np.int8), "zp")
    wq = numpy_helper.from_array(np.zeros(wshape, dtype=np.int8), "w_q")
    attrs = {"pads": [pads] * 4} if pads is not None else {}
    nodes = [helper.make_node("QuantizeLinear", ["x", "scale", "zp"], ["x_q"], name="x_q"),
             helper.make_node(op, ["x_q", "scale", "zp", "w_q", "scale", "zp", "scale", "zp"], ["y_q"],
                              name="conv" if op == "QLinearConv" else "fc", **attrs),
             helper.make_node("DequantizeLinear", ["y_q", "scale", "zp"], ["y"], name="y_dq")]
    save(name, nodes, inputs, [wq, sc, zp])


qop_twin("grouped_yes_qop", "QLinearConv", [256, 256, 3, 3], [vi("x", [1, 256, 4, 4])], pads=1)
qop_twin("weights_yes_qop", "QLinearMatMul", [1024, 1024], [vi("x", [1, 1024])])
# weights_yes_qdq4: a 2048 x 1024 fully-connected layer with 4-bit weights (ONNX INT4, 22, opset 21) behind a
# DequantizeLinear and its input through a Q/DQ pair: 1 MiB of weights as weights_yes, stored at their width
t4 = onnx.TensorProto()
t4.name, t4.data_type, t4.raw_data = "w_q", 22, bytes(2048 * 1024 // 2)
t4.dims.extend([2048, 1024])
save("weights_yes_qdq4", [helper.make_node("QuantizeLinear", ["x", "scale", "zp"], ["x_q"], name="x_q"),
                          helper.make_node("DequantizeLinear", ["x_q", "scale", "zp"], ["x_dq"], name="x_dq"),
                          helper.make_node("DequantizeLinear", ["w_q", "scale"], ["w_dq"], name="w_dq"),
                          helper.make_node("MatMul", ["x_dq", "w_dq"], ["y"], name="fc")],
     [vi("x", [1, 2048])], [t4, numpy_helper.from_array(np.array(0.05, dtype=np.float32), "scale"),
                            numpy_helper.from_array(np.array(0, dtype=np.int8), "zp")], opset=21, ir_version=10)
print("ok")
