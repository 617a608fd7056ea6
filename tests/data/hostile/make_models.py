#!/usr/bin/python3
"""Models for the file-safety tests of issue 19 (dev tool, python3-onnx):
- ext/model.onnx + ext/weights.bin: a Conv whose 16x3x3x3 float weight (1,728 bytes) lives in weights.bin next to
  the model, then a Reshape: `annotate`/`analyze -o` must not replace weights.bin (nor create it when it is missing:
  the model analyses without it);
- late_shape.onnx: 16 KiB of a float initializer no node needs first, then a Reshape whose int64 shape [1, -1] is an
  initializer at the end of the file (beyond the first pages): a model rewritten shorter under a loaded model must
  not be read there (a SIGBUS with the file mapped)."""
import os

import numpy as np
from onnx import TensorProto, helper, numpy_helper

here = os.path.dirname(os.path.abspath(__file__))


def save(m, name):
    m.ir_version = 8
    with open(os.path.join(here, name), "wb") as f:
        f.write(m.SerializeToString())


def external(t, location, offset, length):
    t.ClearField("raw_data")
    t.data_location = TensorProto.EXTERNAL
    for k, v in (("location", location), ("offset", str(offset)), ("length", str(length))):
        e = t.external_data.add()
        e.key, e.value = k, v


# 1. external weights and an external shape
w = np.linspace(-1, 1, 16 * 3 * 3 * 3, dtype=np.float32).reshape(16, 3, 3, 3)
shape = np.array([1, -1], dtype=np.int64)
os.makedirs(os.path.join(here, "ext"), exist_ok=True)
with open(os.path.join(here, "ext", "weights.bin"), "wb") as f:
    f.write(w.tobytes())
wt = numpy_helper.from_array(w, "w")
external(wt, "weights.bin", 0, w.nbytes)
st = numpy_helper.from_array(shape, "shape")
g = helper.make_graph([helper.make_node("Conv", ["x", "w"], ["c"], name="conv", pads=[1, 1, 1, 1]),
                       helper.make_node("Reshape", ["c", "shape"], ["y"], name="flat")], "ext",
                      [helper.make_tensor_value_info("x", TensorProto.FLOAT, [1, 3, 8, 8])],
                      [helper.make_tensor_value_info("y", TensorProto.FLOAT, None)], [wt, st])
save(helper.make_model(g, opset_imports=[helper.make_opsetid("", 13)]), "ext/model.onnx")

# 2. the shape at the end of a 16 KiB file
pad = numpy_helper.from_array(np.zeros(4096, dtype=np.float32), "unused")
st = numpy_helper.from_array(shape, "shape")
g = helper.make_graph([helper.make_node("Reshape", ["x", "shape"], ["y"], name="flat")], "late",
                      [helper.make_tensor_value_info("x", TensorProto.FLOAT, [2, 3, 4])],
                      [helper.make_tensor_value_info("y", TensorProto.FLOAT, None)], [pad, st])
save(helper.make_model(g, opset_imports=[helper.make_opsetid("", 13)]), "late_shape.onnx")
