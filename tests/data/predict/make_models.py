#!/usr/bin/python3
"""Writes the tiny models of the prediction tests (tests/unit/test_predict.c). Dev tool (python3-onnx).
usage: /usr/bin/python3 tests/data/predict/make_models.py"""
import os
import numpy as np
import onnx
from onnx import TensorProto, helper, numpy_helper

here = os.path.dirname(os.path.abspath(__file__))


def w(name, shape):
    return numpy_helper.from_array(np.zeros(shape, dtype=np.float32), name)


def save(name, nodes, inputs, outputs, inits, opset=13):
    g = helper.make_graph(nodes, name, inputs, outputs, inits)
    m = helper.make_model(g, opset_imports=[helper.make_opsetid("", opset)], producer_name="nnperf-tests")
    m.ir_version = 7
    onnx.checker.check_model(m)
    for o in m.graph.output:
        o.type.tensor_type.ClearField("shape")  # the tests infer it
    # weights keep dims and dtype; their bytes point to a file that is not shipped (nnperf never reads them)
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


F = TensorProto.FLOAT
# 1. alignment: conv output 6x128x64x120 (W=120 pads to 128 on a W16 platform)
save("conv_align", [helper.make_node("Conv", ["x", "w"], ["y"], pads=[1, 1, 1, 1], name="conv")],
     [helper.make_tensor_value_info("x", F, [6, 16, 64, 120])], [helper.make_tensor_value_info("y", F, [])],
     [w("w", [128, 16, 3, 3])])
# 2. fusion: Conv -> BatchNormalization -> Add(shortcut) -> Relu
save("fuse_block", [
    helper.make_node("Conv", ["x", "w"], ["c"], pads=[1, 1, 1, 1], name="conv"),
    helper.make_node("BatchNormalization", ["c", "s", "b", "m", "v"], ["n"], name="bn"),
    helper.make_node("Add", ["n", "x"], ["a"], name="add"),
    helper.make_node("Relu", ["a"], ["y"], name="relu")],
    [helper.make_tensor_value_info("x", F, [1, 32, 16, 16])], [helper.make_tensor_value_info("y", F, [])],
    [w("w", [32, 32, 3, 3]), w("s", [32]), w("b", [32]), w("m", [32]), w("v", [32])])
# 3. a long shortcut: a = conv1(x) is read again by the final Add, four layers later
save("shortcut", [
    helper.make_node("Conv", ["x", "w1"], ["a"], pads=[1, 1, 1, 1], name="conv1"),
    helper.make_node("Conv", ["a", "w2"], ["b"], pads=[1, 1, 1, 1], name="conv2"),
    helper.make_node("Conv", ["b", "w3"], ["c"], pads=[1, 1, 1, 1], name="conv3"),
    helper.make_node("Conv", ["c", "w4"], ["d"], pads=[1, 1, 1, 1], name="conv4"),
    helper.make_node("Add", ["a", "d"], ["y"], name="add")],
    [helper.make_tensor_value_info("x", F, [1, 64, 32, 32])], [helper.make_tensor_value_info("y", F, [])],
    [w("w1", [64, 64, 3, 3]), w("w2", [64, 64, 3, 3]), w("w3", [64, 64, 3, 3]), w("w4", [64, 64, 3, 3])])
# 4. an operator the accelerator lacks between two convs: Erf runs on the fallback unit
save("fallback", [
    helper.make_node("Conv", ["x", "w1"], ["a"], pads=[1, 1, 1, 1], name="conv1"),
    helper.make_node("Erf", ["a"], ["e"], name="erf"),
    helper.make_node("Conv", ["e", "w2"], ["y"], pads=[1, 1, 1, 1], name="conv2")],
    [helper.make_tensor_value_info("x", F, [1, 32, 32, 32])], [helper.make_tensor_value_info("y", F, [])],
    [w("w1", [32, 32, 3, 3]), w("w2", [32, 32, 3, 3])])
# 5. SiLU after a conv (written as Mul(x, Sigmoid(x)), as exporters do)
save("silu", [
    helper.make_node("Conv", ["x", "w"], ["c"], name="conv"),
    helper.make_node("Sigmoid", ["c"], ["s"], name="sig"),
    helper.make_node("Mul", ["c", "s"], ["y"], name="mul")],
    [helper.make_tensor_value_info("x", F, [1, 32, 16, 16])], [helper.make_tensor_value_info("y", F, [])],
    [w("w", [32, 32, 1, 1])])
# 6. a strided 1x1 conv 32->32 (input 1x32x32x32, output 1x32x16x16), then a depthwise 3x3 conv over 32 channels
save("strided_dw", [
    helper.make_node("Conv", ["x", "w1"], ["a"], strides=[2, 2], name="down"),
    helper.make_node("Conv", ["a", "w2"], ["y"], pads=[1, 1, 1, 1], group=32, name="dw")],
    [helper.make_tensor_value_info("x", F, [1, 32, 32, 32])], [helper.make_tensor_value_info("y", F, [])],
    [w("w1", [32, 32, 1, 1]), w("w2", [32, 1, 3, 3])])
# 7. three 3x3 convs 64->64 at 72x72: each activation (331,776 B int8) is larger than a 256 KiB SRAM
save("chain3", [
    helper.make_node("Conv", ["x", "w1"], ["a"], pads=[1, 1, 1, 1], name="conv1"),
    helper.make_node("Conv", ["a", "w2"], ["b"], pads=[1, 1, 1, 1], name="conv2"),
    helper.make_node("Conv", ["b", "w3"], ["y"], pads=[1, 1, 1, 1], name="conv3")],
    [helper.make_tensor_value_info("x", F, [1, 64, 72, 72])], [helper.make_tensor_value_info("y", F, [])],
    [w("w1", [64, 64, 3, 3]), w("w2", [64, 64, 3, 3]), w("w3", [64, 64, 3, 3])])
# 8. an image stem: a 3x3 conv 3->8 at 16x16 (at most 4 input channels: the narrow-input kernel) and its Relu
save("stem", [
    helper.make_node("Conv", ["x", "w"], ["c"], pads=[1, 1, 1, 1], name="stem"),
    helper.make_node("Relu", ["c"], ["y"], name="relu")],
    [helper.make_tensor_value_info("x", F, [1, 3, 16, 16])], [helper.make_tensor_value_info("y", F, [])],
    [w("w", [8, 3, 3, 3])])
# 9. attention: MatMul(Q, K) -> Div (scale) -> Softmax -> MatMul(., V), 2 heads, 8 queries over 8 keys, head size 4
save("attention", [
    helper.make_node("MatMul", ["q", "k"], ["s"], name="qk"),
    helper.make_node("Div", ["s", "scale"], ["d"], name="scale"),
    helper.make_node("Softmax", ["d"], ["p"], axis=-1, name="softmax"),
    helper.make_node("MatMul", ["p", "v"], ["y"], name="pv")],
    [helper.make_tensor_value_info("q", F, [1, 2, 8, 4]), helper.make_tensor_value_info("k", F, [1, 2, 4, 8]),
     helper.make_tensor_value_info("v", F, [1, 2, 8, 4])], [helper.make_tensor_value_info("y", F, [])],
    [numpy_helper.from_array(np.array(2.0, dtype=np.float32), "scale")])
print("ok")
