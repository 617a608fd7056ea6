#!/usr/bin/python3
"""Models for tests/unit/test_loader.c (dev tool, python3-onnx):
- big_external.onnx: a MatMul whose 2^20 x 2^12 float weight (16 GiB) lives in external data that is not shipped:
  models over 2 GB load through external data, and weights are never read;
- local_function.onnx: a model-local function (Conv + Relu as "ConvRelu" in domain "local") called twice: inlined;
- external_shape.onnx / shape.bin: a Reshape whose shape input (int64) lives in an external file next to the model;
- subdir/escape.onnx: external data location "../shape.bin" (escapes the model's folder): refused."""
import os
import numpy as np
import onnx
from onnx import TensorProto, helper

here = os.path.dirname(os.path.abspath(__file__))


def empty_tensor(name, dtype, dims):
    t = TensorProto()
    t.name, t.data_type = name, dtype
    t.dims.extend(dims)
    return t


def external(t, location, offset, length):
    t.data_location = TensorProto.EXTERNAL
    for k, v in (("location", location), ("offset", str(offset)), ("length", str(length))):
        e = t.external_data.add()
        e.key, e.value = k, v


def save(m, name):
    m.ir_version = 8
    with open(os.path.join(here, name), "wb") as f:
        f.write(m.SerializeToString())


# 1. 16 GiB of weights, never read
w = empty_tensor("w", TensorProto.FLOAT, [1 << 12, 1 << 20])
external(w, "big_external.weights", 3 << 30, (1 << 32) * 4)
g = helper.make_graph([helper.make_node("MatMul", ["x", "w"], ["y"], name="mm")], "big",
                      [helper.make_tensor_value_info("x", TensorProto.FLOAT, [1, 1 << 12])],
                      [helper.make_tensor_value_info("y", TensorProto.FLOAT, None)], [w])
save(helper.make_model(g, opset_imports=[helper.make_opsetid("", 13)]), "big_external.onnx")

# 2. a model-local function called twice
fn = helper.make_function("local", "ConvRelu", ["X", "W"], ["Y"],
                          [helper.make_node("Conv", ["X", "W"], ["C"], pads=[1, 1, 1, 1]),
                           helper.make_node("Relu", ["C"], ["Y"])],
                          [helper.make_opsetid("", 13)])
wt = helper.make_tensor("w", TensorProto.FLOAT, [8, 8, 3, 3], np.zeros(8 * 8 * 9, dtype=np.float32))
g = helper.make_graph([helper.make_node("ConvRelu", ["x", "w"], ["a"], domain="local", name="block1"),
                       helper.make_node("ConvRelu", ["a", "w"], ["y"], domain="local", name="block2")], "fn",
                      [helper.make_tensor_value_info("x", TensorProto.FLOAT, [1, 8, 16, 16])],
                      [helper.make_tensor_value_info("y", TensorProto.FLOAT, None)], [wt])
m = helper.make_model(g, opset_imports=[helper.make_opsetid("", 13), helper.make_opsetid("local", 1)],
                      functions=[fn])
save(m, "local_function.onnx")

# 3. a shape input in an external file (read, because Reshape needs its value)
shape = np.array([1, 64, 4], dtype=np.int64)
with open(os.path.join(here, "shape.bin"), "wb") as f:
    f.write(b"\0" * 16 + shape.tobytes())
s = empty_tensor("s", TensorProto.INT64, [3])
external(s, "shape.bin", 16, 24)
g = helper.make_graph([helper.make_node("Reshape", ["x", "s"], ["y"], name="reshape")], "ext",
                      [helper.make_tensor_value_info("x", TensorProto.FLOAT, [1, 16, 16])],
                      [helper.make_tensor_value_info("y", TensorProto.FLOAT, None)], [s])
save(helper.make_model(g, opset_imports=[helper.make_opsetid("", 13)]), "external_shape.onnx")

# 4. the same with a location escaping the model's folder
os.makedirs(os.path.join(here, "subdir"), exist_ok=True)
s2 = empty_tensor("s", TensorProto.INT64, [3])
external(s2, "../shape.bin", 16, 24)
g = helper.make_graph([helper.make_node("Reshape", ["x", "s"], ["y"], name="reshape")], "esc",
                      [helper.make_tensor_value_info("x", TensorProto.FLOAT, [1, 16, 16])],
                      [helper.make_tensor_value_info("y", TensorProto.FLOAT, None)], [s2])
save(helper.make_model(g, opset_imports=[helper.make_opsetid("", 13)]), "subdir/escape.onnx")
# 5. an empty initializer whose other dims multiply past int64: valid (no elements, no data), nothing multiplies them
e = empty_tensor("w", TensorProto.FLOAT, [1 << 40, 1 << 40, 0])
g = helper.make_graph([helper.make_node("Relu", ["w"], ["y"], name="relu")], "empty", [],
                      [helper.make_tensor_value_info("y", TensorProto.FLOAT, None)], [e])
save(helper.make_model(g, opset_imports=[helper.make_opsetid("", 13)]), "empty_huge_dims.onnx")
print("ok")
