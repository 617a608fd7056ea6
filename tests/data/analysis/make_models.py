#!/usr/bin/python3
"""Model for tests/unit/test_analysis.c (dev tool, python3-onnx):
- batch.onnx: input x [batch, 3, 32, 32] (symbolic batch) -> Conv 3->8 3x3 pad 1 -> Relu -> GlobalAveragePool ->
  Reshape to [batch, 8] with the shape computed in the graph (Shape -> Gather -> Unsqueeze -> Concat) -> Loop of 3
  trips whose body adds an outer-scope value to the carried one -> Gemm 8->10 -> y [batch, 10]. One model with a
  symbol, propagated shape values and a subgraph that reads the outer scope: what analyses must not share."""
import os
import numpy as np
import onnx
from onnx import TensorProto, helper, numpy_helper

here = os.path.dirname(os.path.abspath(__file__))
f = TensorProto.FLOAT
rng = np.random.default_rng(0)
inits = [
    numpy_helper.from_array(rng.standard_normal((8, 3, 3, 3)).astype(np.float32), "w"),
    numpy_helper.from_array(np.zeros(8, np.float32), "b"),
    numpy_helper.from_array(np.array(0, np.int64), "zero"),
    numpy_helper.from_array(np.array([0], np.int64), "axes0"),
    numpy_helper.from_array(np.array([-1], np.int64), "minus1"),
    numpy_helper.from_array(np.array(3, np.int64), "trips"),
    numpy_helper.from_array(np.array(True), "cond"),
    numpy_helper.from_array(rng.standard_normal((10, 8)).astype(np.float32), "w2"),
]
body = helper.make_graph(
    [helper.make_node("Identity", ["cond_in"], ["cond_out"], name="body_cond"),
     helper.make_node("Add", ["carry_in", "flat"], ["carry_out"], name="body_add")],
    "body",
    [helper.make_tensor_value_info("i", TensorProto.INT64, []),
     helper.make_tensor_value_info("cond_in", TensorProto.BOOL, []),
     helper.make_tensor_value_info("carry_in", f, ["batch", 8])],
    [helper.make_tensor_value_info("cond_out", TensorProto.BOOL, []),
     helper.make_tensor_value_info("carry_out", f, ["batch", 8])])
nodes = [
    helper.make_node("Conv", ["x", "w", "b"], ["c"], pads=[1, 1, 1, 1], name="conv"),
    helper.make_node("Relu", ["c"], ["r"], name="relu"),
    helper.make_node("GlobalAveragePool", ["r"], ["p"], name="gap"),
    helper.make_node("Shape", ["p"], ["s"], name="shape"),
    helper.make_node("Gather", ["s", "zero"], ["n"], axis=0, name="gather"),
    helper.make_node("Unsqueeze", ["n", "axes0"], ["n1"], name="unsqueeze"),
    helper.make_node("Concat", ["n1", "minus1"], ["shp"], axis=0, name="concat"),
    helper.make_node("Reshape", ["p", "shp"], ["flat"], name="reshape"),
    helper.make_node("Loop", ["trips", "cond", "flat"], ["acc"], body=body, name="loop"),
    helper.make_node("Gemm", ["acc", "w2"], ["y"], transB=1, name="fc"),
]
g = helper.make_graph(nodes, "batch", [helper.make_tensor_value_info("x", f, ["batch", 3, 32, 32])],
                      [helper.make_tensor_value_info("y", f, ["batch", 10])], inits)
m = helper.make_model(g, opset_imports=[helper.make_opsetid("", 13)], producer_name="nnperf make_models.py")
m.ir_version = 8
onnx.checker.check_model(m)
onnx.save(m, os.path.join(here, "batch.onnx"))

# unknown_op.onnx: x [1, 4] -> Frobnicate (domain com.example, an operator nnperf does not know) -> y [1, 4]; the
# library's "unknown operator" warning in every report and in Python (tests/cli/cli.sh, python/tests)
frob = helper.make_node("Frobnicate", ["x"], ["y"], name="frob", domain="com.example")
ug = helper.make_graph([frob], "g", [helper.make_tensor_value_info("x", f, [1, 4])],
                       [helper.make_tensor_value_info("y", f, [1, 4])])
um = helper.make_model(ug, opset_imports=[helper.make_opsetid("", 17), helper.make_opsetid("com.example", 1)])
um.ir_version = 8
onnx.save(um, os.path.join(here, "unknown_op.onnx"))
