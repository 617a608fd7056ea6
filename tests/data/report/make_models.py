#!/usr/bin/python3
"""Writes the tiny model of the CSV quoting test (tests/schema/check_csv.py): node names with commas, quotes and a
line break, one pair fused into a layer, so every CSV writer must quote names (RFC 4180) to keep its columns. Dev
tool (python3-onnx).
usage: /usr/bin/python3 tests/data/report/make_models.py"""
import os
import numpy as np
import onnx
from onnx import TensorProto, helper, numpy_helper

here = os.path.dirname(os.path.abspath(__file__))
F = TensorProto.FLOAT


def w(name, shape):
    return numpy_helper.from_array(np.full(shape, 0.01, dtype=np.float32), name)


nodes = [
    helper.make_node("Conv", ["x", "w1"], ["c1"], pads=[1, 1, 1, 1], name="conv,a"),
    helper.make_node("Relu", ["c1"], ["r1"], name="relu,b"),
    helper.make_node("Conv", ["r1", "w2"], ["c2"], pads=[1, 1, 1, 1], name="conv \"q\",c"),
    helper.make_node("Add", ["c2", "r1"], ["y"], name="add,\nd"),
]
g = helper.make_graph(nodes, "comma,graph", [helper.make_tensor_value_info("x", F, [1, 8, 8, 8])],
                      [helper.make_tensor_value_info("y", F, [1, 8, 8, 8])], [w("w1", [8, 8, 3, 3]), w("w2", [8, 8, 3, 3])])
m = helper.make_model(g, opset_imports=[helper.make_opsetid("", 13)], producer_name="nnperf-tests")
m.ir_version = 7
onnx.checker.check_model(m)
with open(os.path.join(here, "comma.onnx"), "wb") as f:
    f.write(m.SerializeToString())
