#!/usr/bin/python3
"""make_hbdk_layers.py - rebuilds the backbone layers of bench/fidelity/hbdk_layers.csv as single-layer ONNX models
(batch 6, NCHW): a Conv (+ Relu for the conv_0_0 layers, + Add of a shortcut input for the short_add layers), and
checks that each model's ops (2 x MACs) equal the report's. Weights are zeros (their values do not matter).

usage: /usr/bin/python3 bench/fidelity/make_hbdk_layers.py OUTDIR      (needs python3-onnx)"""
import csv, os, sys

import numpy as np
import onnx
from onnx import TensorProto, helper, numpy_helper


def rows(path):
    with open(path) as f:
        return list(csv.DictReader(line for line in f if not line.startswith("#")))


def build(r):
    cin, cout, k, s, g = (int(r[x]) for x in ("cin", "cout", "k", "stride", "groups"))
    h, w, n = int(r["h_in"]), int(r["w_in"]), 6
    oh, ow = (h + 2 * (k // 2) - k) // s + 1, (w + 2 * (k // 2) - k) // s + 1
    x = helper.make_tensor_value_info("x", TensorProto.FLOAT, [n, cin, h, w])
    y = helper.make_tensor_value_info("y", TensorProto.FLOAT, [n, cout, oh, ow])
    wt = numpy_helper.from_array(np.zeros((cout, cin // g, k, k), np.float32), "w")
    b = numpy_helper.from_array(np.zeros((cout,), np.float32), "b")
    p = k // 2
    nodes = [helper.make_node("Conv", ["x", "w", "b"], ["c"], name=r["name"], kernel_shape=[k, k],
                              strides=[s, s], pads=[p, p, p, p], group=g)]
    inputs = [x]
    if r["add"] == "1":
        inputs.append(helper.make_tensor_value_info("shortcut", TensorProto.FLOAT, [n, cout, oh, ow]))
        nodes.append(helper.make_node("Add", ["c", "shortcut"], ["y"], name=r["name"] + "_add"))
    else:
        nodes.append(helper.make_node("Relu", ["c"], ["y"], name=r["name"] + "_relu"))
    graph = helper.make_graph(nodes, r["name"], inputs, [y], [wt, b])
    m = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 13)], producer_name="make_hbdk_layers")
    onnx.checker.check_model(m)
    ops = 2 * n * oh * ow * cout * (cin // g) * k * k
    if ops != int(r["ops"]):
        sys.exit(f"{r['name']}: rebuilt ops {ops} != report {r['ops']}")
    return m


def main():
    if len(sys.argv) != 2:
        sys.exit(__doc__)
    out = sys.argv[1]
    os.makedirs(out, exist_ok=True)
    here = os.path.dirname(os.path.abspath(__file__))
    rs = rows(os.path.join(here, "hbdk_layers.csv"))
    for r in rs:
        onnx.save(build(r), os.path.join(out, r["name"] + ".onnx"))
    print(f"{len(rs)} layers written to {out}; ops equal the report's")


if __name__ == "__main__":
    main()
