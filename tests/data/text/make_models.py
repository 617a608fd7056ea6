#!/usr/bin/python3
"""Writes the models of the text-escaping tests (tests/cli/hostile_text.sh, test_hostile_text): names that carry
terminal escape sequences, line breaks that would add a YAML layer, and YAML syntax.
  names.onnx  models/mcu/cifar10_residual.onnx (a model `nnperf map` plans on the MAX78000) with its node names
              replaced: a line break followed by a whole ai8x layer, an ESC sequence that sets the window title and
              clears the screen, a DEL, a C1 CSI (U+009B) and a byte that is not UTF-8; producer and graph input
              names with ESC too
  dims.onnx   Relu on an input whose first dim is a symbol with ESC and a line break in its name
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
