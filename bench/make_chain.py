#!/usr/bin/python3
"""Writes a generated N-node ONNX graph for the linear-time benchmark (dev tool; needs python3-onnx).
The graph is a chain of blocks Conv -> Relu -> Add(shortcut) -> Reshape(shape from Shape/Gather/Concat), so that it
exercises inference, value propagation and counting, not only a trivial op.
usage: make_chain.py N OUT.onnx"""
import sys
import onnx
from onnx import TensorProto, helper

n_target = int(sys.argv[1])
out = sys.argv[2]
nodes, inits = [], []
inits.append(helper.make_tensor("w", TensorProto.FLOAT, [8, 8, 3, 3], [0.0] * (8 * 8 * 9)))
inits.append(helper.make_tensor("idx", TensorProto.INT64, [], [0]))
inits.append(helper.make_tensor("rest", TensorProto.INT64, [3], [8, 16, 16]))
x = "x"
i = 0
while len(nodes) < n_target:
    p = f"b{i}_"
    nodes += [
        helper.make_node("Conv", [x, "w"], [p + "c"], pads=[1, 1, 1, 1], name=p + "conv"),
        helper.make_node("Relu", [p + "c"], [p + "r"], name=p + "relu"),
        helper.make_node("Add", [p + "r", x], [p + "a"], name=p + "add"),
        helper.make_node("Shape", [p + "a"], [p + "s"], name=p + "shape"),
        helper.make_node("Gather", [p + "s", "idx"], [p + "g"], axis=0, name=p + "gather"),
        helper.make_node("Unsqueeze", [p + "g"], [p + "u"], axes=[0], name=p + "unsq"),
        helper.make_node("Concat", [p + "u", "rest"], [p + "shape"], axis=0, name=p + "concat"),
        helper.make_node("Reshape", [p + "a", p + "shape"], [p + "y"], name=p + "reshape"),
    ]
    x = p + "y"
    i += 1
g = helper.make_graph(nodes, "chain", [helper.make_tensor_value_info("x", TensorProto.FLOAT, [1, 8, 16, 16])],
                      [helper.make_tensor_value_info(x, TensorProto.FLOAT, None)], inits)
m = helper.make_model(g, opset_imports=[helper.make_opsetid("", 11)], producer_name="nnperf-bench")
m.ir_version = 6
with open(out, "wb") as f:
    f.write(m.SerializeToString())
print(f"{out}: {len(nodes)} nodes")
