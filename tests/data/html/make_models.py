#!/usr/bin/python3
"""Writes the tiny model of the HTML escaping test (tests/golden: escape_*): node, tensor and graph names that are
markup (<script>, quotes, ampersands) must come out of the HTML and SVG writers as text. Weights keep dims and dtype;
their bytes point to a file that is not shipped (nnperf never reads them). Dev tool (python3-onnx).
usage: /usr/bin/python3 tests/data/html/make_models.py"""
import os
import numpy as np
import onnx
from onnx import TensorProto, helper, numpy_helper

here = os.path.dirname(os.path.abspath(__file__))
F = TensorProto.FLOAT


def w(name, shape):
    return numpy_helper.from_array(np.zeros(shape, dtype=np.float32), name)


nodes = [
    helper.make_node("Conv", ["x", "w1"], ["c1"], pads=[1, 1, 1, 1], name="<script>alert(1)</script>"),
    helper.make_node("Relu", ["c1"], ["r1"], name="relu \"quoted\" & 'single'"),
    helper.make_node("Conv", ["r1", "w2"], ["c2"], pads=[1, 1, 1, 1], name="</td><img src=x onerror=alert(2)>"),
    helper.make_node("Add", ["c2", "r1"], ["y"], name="add]]><!--"),
]
g = helper.make_graph(nodes, "<b>graph</b>", [helper.make_tensor_value_info("x", F, [1, 16, 16, 16])],
                      [helper.make_tensor_value_info("y", F, [])], [w("w1", [16, 16, 3, 3]), w("w2", [16, 16, 3, 3])])
m = helper.make_model(g, opset_imports=[helper.make_opsetid("", 13)], producer_name="<nnperf-tests>")
m.ir_version = 7
onnx.checker.check_model(m)
off = 0
for t in m.graph.initializer:
    n = len(t.raw_data)
    t.ClearField("raw_data")
    t.data_location = TensorProto.EXTERNAL
    for k, v in (("location", "escape.weights"), ("offset", str(off)), ("length", str(n))):
        e = t.external_data.add()
        e.key, e.value = k, v
    off += n
with open(os.path.join(here, "escape.onnx"), "wb") as f:
    f.write(m.SerializeToString())
