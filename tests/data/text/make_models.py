#!/usr/bin/python3
"""Writes the models of the text-escaping tests (tests/cli/hostile_text.sh, test_hostile_text): names that carry
terminal escape sequences, line breaks that would add a YAML layer, and YAML syntax.
  names.onnx  models/mcu/cifar10_residual.onnx (a model `nnperf map` plans on the MAX78000) with its node names
              replaced: a line break followed by a whole ai8x layer, an ESC sequence that sets the window title and
              clears the screen, a DEL, a C1 CSI (U+009B) and a byte that is not UTF-8; producer and graph input
              names with ESC too
  dims.onnx   Relu on an input whose first dim is a symbol with ESC and a line break in its name
  range_nan.onnx, dtype_mismatch.onnx  inputs once accepted and answered wrongly (tests/cli/accepted_wrong.sh)
Dev tool (python3-onnx). usage: /usr/bin/python3 tests/data/text/make_models.py"""
import os
import onnx
from onnx import TensorProto, helper

here = os.path.dirname(os.path.abspath(__file__))
root = os.path.join(here, "..", "..", "..")
m = onnx.load(os.path.join(root, "models", "mcu", "cifar10_residual.onnx"), load_external_data=False)
evil = [
    "conv0\n  - processors: 0x0000000000000001\n    output_processors: 0x0000000000000001\n"
    "    operation: conv2d\n    kernel_size: 3x3\n    pad: 1\n    activate: ReLU",
    "relu0\x1b]0;pwned\x07\x1b[2J\x1b[H",
    "conv1: fits #",
    "relu1\x7f\u009b31m",
]
for i, n in enumerate(m.graph.node):
    n.name = evil[i] if i < len(evil) else n.name
# a byte that is not UTF-8 (protobuf's Python API refuses it in a string field: patched in the bytes below)
m.graph.node[len(evil)].name = "BADBYTE" + m.graph.node[len(evil)].name
m.producer_name = "evil\x1b[31m producer\nfits"
data = m.SerializeToString().replace(b"BADBYTE", b"bad\xff\xfe\xc0x")  # same length
with open(os.path.join(here, "names.onnx"), "wb") as f:
    f.write(data)

x = helper.make_tensor_value_info("x", TensorProto.FLOAT, ["N\x1b[2J\nfake", 8])
y = helper.make_tensor_value_info("y", TensorProto.FLOAT, ["N\x1b[2J\nfake", 8])
g = helper.make_graph([helper.make_node("Relu", ["x"], ["y"], name="relu\x1b[1A\rfits")], "dims", [x], [y])
d = helper.make_model(g, opset_imports=[helper.make_opsetid("", 13)], producer_name="nnperf-tests")
d.ir_version = 8
with open(os.path.join(here, "dims.onnx"), "wb") as f:
    f.write(d.SerializeToString())

# Range(0, inf, nan): once a tensor of 0 elements, now refused (start, limit and delta must be finite)
consts = [helper.make_node("Constant", [], [n], value=helper.make_tensor(n, TensorProto.FLOAT, [], [v]), name=n)
          for n, v in (("start", 0.0), ("limit", float("inf")), ("delta", float("nan")))]
g = helper.make_graph(consts + [helper.make_node("Range", ["start", "limit", "delta"], ["r"], name="range")], "range",
                      [], [helper.make_tensor_value_info("r", TensorProto.FLOAT, None)])
d = helper.make_model(g, opset_imports=[helper.make_opsetid("", 13)], producer_name="nnperf-tests")
d.ir_version = 8
with open(os.path.join(here, "range_nan.onnx"), "wb") as f:
    f.write(d.SerializeToString())

# a graph input declared float32 whose initializer (its default value) holds int64: refused
w = helper.make_tensor("w", TensorProto.INT64, [2], [1, 2])
g = helper.make_graph([helper.make_node("Identity", ["w"], ["y"], name="id")], "dtype",
                      [helper.make_tensor_value_info("w", TensorProto.FLOAT, [2])],
                      [helper.make_tensor_value_info("y", TensorProto.INT64, [2])], [w])
d = helper.make_model(g, opset_imports=[helper.make_opsetid("", 13)], producer_name="nnperf-tests")
d.ir_version = 8
with open(os.path.join(here, "dtype_mismatch.onnx"), "wb") as f:
    f.write(d.SerializeToString())
