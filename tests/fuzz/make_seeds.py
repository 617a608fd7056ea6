#!/usr/bin/python3
"""make_seeds.py - writes a few small valid models to tests/fuzz/corpus/fuzz_onnx/ that the ONNX backend test models
do not cover: initializers in every encoding (raw_data, typed fields packed and unpacked, external data), value
propagation into Reshape/Slice, a model-local function, value_info and symbolic dims. Dev tool (needs /usr/bin/python3
with python3-onnx); deterministic. Run: /usr/bin/python3 tests/fuzz/make_seeds.py"""
import os

from onnx import TensorProto, helper

HERE = os.path.join(os.path.dirname(os.path.abspath(__file__)), "corpus", "fuzz_onnx")
OPSET = [helper.make_opsetid("", 17), helper.make_opsetid("local", 1)]


def vi(name, shape, dt=TensorProto.FLOAT):
    return helper.make_tensor_value_info(name, dt, shape)


def save(name, graph, functions=()):
    m = helper.make_model(graph, opset_imports=OPSET, producer_name="make_seeds", functions=list(functions))
    m.ir_version = 8
    with open(os.path.join(HERE, name), "wb") as f:
        f.write(m.SerializeToString())


# initializers in different encodings feeding shape arithmetic
shape_raw = helper.make_tensor("shape_raw", TensorProto.INT64, [2], [6, -1], raw=False)
starts = helper.make_tensor("starts", TensorProto.INT32, [1], [1])
ends = helper.make_tensor("ends", TensorProto.INT64, [1], [5])
ends.raw_data = (5).to_bytes(8, "little")
del ends.int64_data[:]
scale = helper.make_tensor("scale", TensorProto.FLOAT, [1], [2.0])
half = helper.make_tensor("half", TensorProto.FLOAT16, [1], [15360])
ext = TensorProto(name="w_ext", data_type=TensorProto.FLOAT, data_location=TensorProto.EXTERNAL)
ext.dims.extend([4, 4])
for k, v in (("location", "weights.bin"), ("offset", "0"), ("length", "64")):
    e = ext.external_data.add()
    e.key, e.value = k, v
nodes = [
    helper.make_node("Reshape", ["x", "shape_raw"], ["r"], name="reshape"),
    helper.make_node("Slice", ["r", "starts", "ends"], ["s"], name="slice"),
    helper.make_node("Mul", ["s", "scale"], ["m"], name="mul"),
    helper.make_node("Shape", ["m"], ["sh"], name="shape"),
    helper.make_node("ConstantOfShape", ["sh"], ["z"], name="cos",
                     value=helper.make_tensor("v", TensorProto.FLOAT, [1], [0.0])),
    helper.make_node("MatMul", ["w_ext", "w_ext"], ["mm"], name="matmul"),
    helper.make_node("Cast", ["half"], ["hc"], name="cast", to=TensorProto.FLOAT),
]
g = helper.make_graph(nodes, "encodings", [vi("x", ["batch", 4])], [vi("z", None), vi("mm", [4, 4]), vi("hc", [1])],
                      [shape_raw, starts, ends, scale, half, ext],
                      value_info=[vi("r", [6, "n"])])
save("seed_encodings.onnx", g)

# a model-local function with an attribute reference
fn = helper.make_function("local", "ScaledRelu", ["a"], ["b"],
                          [helper.make_node("Relu", ["a"], ["t"]),
                           helper.make_node("LeakyRelu", ["t"], ["b"], alpha=0.1)],
                          [OPSET[0]], attributes=["unused"])
g = helper.make_graph([helper.make_node("ScaledRelu", ["x"], ["y"], domain="local", name="call")], "fn",
                      [vi("x", [1, 3, 8, 8])], [vi("y", None)])
save("seed_function.onnx", g, [fn])

# Conv + BatchNorm + Gemm with attributes of every kind
w = helper.make_tensor("w", TensorProto.FLOAT, [4, 3, 3, 3], [0.1] * 108)
bn = [helper.make_tensor(n, TensorProto.FLOAT, [4], [1.0] * 4) for n in ("g", "b", "mu", "var")]
fc = helper.make_tensor("fc", TensorProto.FLOAT, [4, 2], [0.5] * 8)
nodes = [
    helper.make_node("Conv", ["x", "w"], ["c"], name="conv", pads=[1, 1, 1, 1], strides=[2, 2], group=1),
    helper.make_node("BatchNormalization", ["c", "g", "b", "mu", "var"], ["n"], name="bn", epsilon=1e-5),
    helper.make_node("GlobalAveragePool", ["n"], ["p"], name="gap"),
    helper.make_node("Flatten", ["p"], ["f"], name="flatten", axis=1),
    helper.make_node("Gemm", ["f", "fc"], ["y"], name="gemm", transB=0, alpha=1.0),
]
g = helper.make_graph(nodes, "cnn", [vi("x", ["N", 3, 16, 16])], [vi("y", None)], [w] + bn + [fc])
save("seed_cnn.onnx", g)
print("wrote seeds to", HERE)
