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
    # weights keep dims and dtype; their bytes point to a file that is not shipped (nnperf never reads them); an
    # integer tensor (a Reshape's shape) keeps its values
    off = 0
    for t in m.graph.initializer:
        if t.data_type == TensorProto.INT64:
            continue
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
# 5b. the same with its output quantized (a graph that delivers an int8 tensor: no float output to dequantize)
save("silu_q", [
    helper.make_node("Conv", ["x", "w"], ["c"], name="conv"),
    helper.make_node("Sigmoid", ["c"], ["s"], name="sig"),
    helper.make_node("Mul", ["c", "s"], ["m"], name="mul"),
    helper.make_node("QuantizeLinear", ["m", "qs", "qz"], ["y"], name="quant")],
    [helper.make_tensor_value_info("x", F, [1, 32, 16, 16])], [helper.make_tensor_value_info("y", TensorProto.INT8, [])],
    [w("w", [32, 32, 1, 1]), numpy_helper.from_array(np.array(0.05, dtype=np.float32), "qs"),
     numpy_helper.from_array(np.array(0, dtype=np.int8), "qz")])
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
# 10. what PyTorch eager runs as one kernel each, as torch.onnx writes it: LayerNorm decomposed (x [1, 16, 32] over
# its last axis, then scale and bias), a Linear (MatMul, Add), GELU decomposed (Div, Erf, Add, Mul, Mul), a Transpose
# and a Reshape (views), a 1x1 Conv with a bias, SiLU (Sigmoid, Mul) and HardSwish (HardSigmoid, Mul)
def const(name, value):
    return numpy_helper.from_array(np.array(value, dtype=np.float32), name)


def layernorm(out):
    """LayerNorm of x over its last axis as torch.onnx decomposes it, to `out` (no scale or bias)"""
    return [
        helper.make_node("ReduceMean", ["x"], ["mean"], axes=[-1], name="ln_mean"),
        helper.make_node("Sub", ["x", "mean"], ["d"], name="ln_sub"),
        helper.make_node("Pow", ["d", "two"], ["sq"], name="ln_pow"),
        helper.make_node("ReduceMean", ["sq"], ["var"], axes=[-1], name="ln_var"),
        helper.make_node("Add", ["var", "eps"], ["ve"], name="ln_eps"),
        helper.make_node("Sqrt", ["ve"], ["sd"], name="ln_sqrt"),
        helper.make_node("Div", ["d", "sd"], [out], name="ln_div")]


save("eager_block", layernorm("nrm") + [
    helper.make_node("Mul", ["nrm", "gamma"], ["sc"], name="ln_scale"),
    helper.make_node("Add", ["sc", "beta"], ["ln"], name="ln_bias"),
    helper.make_node("MatMul", ["ln", "wl"], ["mm"], name="fc"),
    helper.make_node("Add", ["mm", "bl"], ["h"], name="fc_bias"),
    helper.make_node("Div", ["h", "sqrt2"], ["g1"], name="gelu_div"),
    helper.make_node("Erf", ["g1"], ["g2"], name="gelu_erf"),
    helper.make_node("Add", ["g2", "one"], ["g3"], name="gelu_add"),
    helper.make_node("Mul", ["h", "g3"], ["g4"], name="gelu_mul"),
    helper.make_node("Mul", ["g4", "half"], ["g"], name="gelu_half"),
    helper.make_node("Transpose", ["g"], ["t"], perm=[0, 2, 1], name="transpose"),
    helper.make_node("Reshape", ["t", "shape"], ["r"], name="reshape"),
    helper.make_node("Conv", ["r", "wc", "bc"], ["c"], name="conv"),
    helper.make_node("Sigmoid", ["c"], ["sg"], name="silu_sig"),
    helper.make_node("Mul", ["c", "sg"], ["si"], name="silu_mul"),
    helper.make_node("HardSigmoid", ["si"], ["hs"], name="hswish_sig"),
    helper.make_node("Mul", ["si", "hs"], ["y"], name="hswish_mul")],
    [helper.make_tensor_value_info("x", F, [1, 16, 32])], [helper.make_tensor_value_info("y", F, [])],
    [const("two", 2.0), const("eps", 1e-5), w("gamma", [32]), w("beta", [32]), w("wl", [32, 64]), w("bl", [64]),
     const("sqrt2", 1.4142135), const("one", 1.0), const("half", 0.5),
     numpy_helper.from_array(np.array([1, 64, 4, 4], dtype=np.int64), "shape"), w("wc", [8, 64, 1, 1]),
     w("bc", [8])])
# 11. two fully connected layers: x [1, 300] -> MatMul [300, 20] -> Relu -> MatMul [20, 300] (compute.array.fc_tile:
# the first layer's input and the second's output longer than a 256 tile)
save("fc_pad", [
    helper.make_node("MatMul", ["x", "w1"], ["h"], name="fc1"),
    helper.make_node("Relu", ["h"], ["r"], name="relu"),
    helper.make_node("MatMul", ["r", "w2"], ["y"], name="fc2")],
    [helper.make_tensor_value_info("x", F, [1, 300])], [helper.make_tensor_value_info("y", F, [])],
    [w("w1", [300, 20]), w("w2", [20, 300])])
# 12. permuted views read as PyTorch reads them (compute.copy_bandwidth, compute.norm_bandwidth): x [1, 4, 6, 8] ->
# Transpose (0, 2, 1, 3) -> [1, 6, 4, 8] -> Reshape [1, 6, 32] (merges axes 1 and 3 of x: a copy) -> ReduceMean over
# the last axis; the same view -> Reshape [1, 6, 4, 2, 4] (splits an axis: a view); Transpose (0, 2, 3, 1) ->
# ReduceMean (reads contiguous memory: a copy)
save("permute_copy", [
    helper.make_node("Transpose", ["x"], ["t1"], perm=[0, 2, 1, 3], name="t1"),
    helper.make_node("Reshape", ["t1", "s1"], ["r1"], name="merge"),
    helper.make_node("ReduceMean", ["r1"], ["m1"], axes=[-1], name="mean1"),
    helper.make_node("Reshape", ["t1", "s2"], ["r2"], name="split"),
    helper.make_node("Transpose", ["x"], ["t3"], perm=[0, 2, 3, 1], name="t3"),
    helper.make_node("ReduceMean", ["t3"], ["m3"], axes=[-1], name="mean3")],
    [helper.make_tensor_value_info("x", F, [1, 4, 6, 8])],
    [helper.make_tensor_value_info("m1", F, []), helper.make_tensor_value_info("r2", F, []),
     helper.make_tensor_value_info("m3", F, [])],
    [numpy_helper.from_array(np.array([1, 6, 32], dtype=np.int64), "s1"),
     numpy_helper.from_array(np.array([1, 6, 4, 2, 4], dtype=np.int64), "s2")])
print("ok")
# 13. a Concat as PyTorch runs it (compute.concat_bandwidth): x [1, 8, 4, 4] -> Relu a, Relu b -> Concat on the
# channels -> c [1, 16, 4, 4] -> Relu -> y
save("concat", [
    helper.make_node("Relu", ["x"], ["a"], name="relu_a"),
    helper.make_node("Relu", ["x"], ["b"], name="relu_b"),
    helper.make_node("Concat", ["a", "b"], ["c"], axis=1, name="cat"),
    helper.make_node("Relu", ["c"], ["y"], name="relu_y")],
    [helper.make_tensor_value_info("x", F, [1, 8, 4, 4])], [helper.make_tensor_value_info("y", F, [])], [])
# 14. PyTorch's pooling and grouped-convolution kernels (compute.pool_element_s, compute.grouped_transform_bandwidth):
# x [1, 8, 6, 6] -> MaxPool 3x3 stride 1 pad 1 -> m [1, 8, 6, 6] -> Conv 3x3 pad 1, 2 groups of 4 channels -> g
# [1, 8, 6, 6] -> AveragePool 1x1 (a window of one element) -> y
save("pool_group", [
    helper.make_node("MaxPool", ["x"], ["m"], kernel_shape=[3, 3], pads=[1, 1, 1, 1], name="maxpool"),
    helper.make_node("Conv", ["m", "gw"], ["g"], kernel_shape=[3, 3], pads=[1, 1, 1, 1], group=2, name="gconv"),
    helper.make_node("AveragePool", ["g"], ["y"], kernel_shape=[1, 1], name="avgpool1")],
    [helper.make_tensor_value_info("x", F, [1, 8, 6, 6])], [helper.make_tensor_value_info("y", F, [])],
    [w("gw", [8, 4, 3, 3])])
# 27. the model family (docs/prediction.md, "Expected error"; test_predict.c test_family), one feature each over
# x [1, 8, 16]: LayerNorm as torch.onnx decomposes it (no scale or bias), the LayerNormalization operator (opset 17),
# GELU through Erf; and a cnn: a Linear whose weight is transposed in the graph (MatMul of x and a value computed
# from a weight only: no attention) before a Relu
X8 = [helper.make_tensor_value_info("x", F, [1, 8, 16])]
save("family_ln", layernorm("y"),
    X8, [helper.make_tensor_value_info("y", F, [])], [const("two", 2.0), const("eps", 1e-5)])
save("family_lnop", [helper.make_node("LayerNormalization", ["x", "gamma"], ["y"], axis=-1, name="ln")],
     X8, [helper.make_tensor_value_info("y", F, [])], [w("gamma", [16])], opset=17)
save("family_gelu", [
    helper.make_node("Div", ["x", "sqrt2"], ["g1"], name="gelu_div"),
    helper.make_node("Erf", ["g1"], ["g2"], name="gelu_erf"),
    helper.make_node("Add", ["g2", "one"], ["g3"], name="gelu_add"),
    helper.make_node("Mul", ["x", "g3"], ["g4"], name="gelu_mul"),
    helper.make_node("Mul", ["g4", "half"], ["y"], name="gelu_half")],
    X8, [helper.make_tensor_value_info("y", F, [])], [const("sqrt2", 2 ** 0.5), const("one", 1.0), const("half", 0.5)])
save("family_linear", [
    helper.make_node("Transpose", ["wt"], ["wl"], perm=[1, 0], name="w_t"),
    helper.make_node("MatMul", ["x", "wl"], ["h"], name="fc"),
    helper.make_node("Relu", ["h"], ["y"], name="relu")],
    X8, [helper.make_tensor_value_info("y", F, [])], [w("wt", [32, 16])])
# sibling products (compute.fuse_sibling_products): x [1, 8, 16] read by three products with constant weights (q, k,
# v: 16 -> 16, 8, 8) and by a product of x with its own transpose (not a weight: never a sibling)
save("siblings", [
    helper.make_node("MatMul", ["x", "wq"], ["q"], name="q_proj"),
    helper.make_node("MatMul", ["x", "wk"], ["k"], name="k_proj"),
    helper.make_node("MatMul", ["x", "wv"], ["v"], name="v_proj"),
    helper.make_node("Transpose", ["x"], ["xt"], perm=[0, 2, 1], name="x_t"),
    helper.make_node("MatMul", ["x", "xt"], ["s"], name="gram")],
    X8, [helper.make_tensor_value_info(n, F, []) for n in ("q", "k", "v", "s")],
    [w("wq", [16, 16]), w("wk", [16, 8]), w("wv", [16, 8])])
