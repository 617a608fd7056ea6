#!/usr/bin/python3
"""Writes an ONNX graph with one very wide node for the wide-node benchmark (bench/wide_node.sh; dev tool, needs
python3-onnx): N Relu nodes on one input x (1x8 float32) and a Sum of their N outputs, so one node has N distinct
inputs (issue 19: the prediction's duplicate scan of a layer's reads was quadratic in N).
usage: make_wide.py N OUT.onnx"""
import sys
from onnx import TensorProto, helper

n = int(sys.argv[1])
out = sys.argv[2]
nodes = [helper.make_node("Relu", ["x"], [f"r{i}"], name=f"relu{i}") for i in range(n)]
nodes.append(helper.make_node("Sum", [f"r{i}" for i in range(n)], ["y"], name="sum"))
g = helper.make_graph(nodes, "wide", [helper.make_tensor_value_info("x", TensorProto.FLOAT, [1, 8])],
                      [helper.make_tensor_value_info("y", TensorProto.FLOAT, [1, 8])])
m = helper.make_model(g, opset_imports=[helper.make_opsetid("", 13)], producer_name="nnperf-bench")
m.ir_version = 8
with open(out, "wb") as f:
    f.write(m.SerializeToString())
print(f"{out}: one Sum of {n} Relu outputs")
