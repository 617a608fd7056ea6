#!/usr/bin/env python3
"""make_nolimit.py - tiny-llama-genai-nolimit.onnx: tiny-llama-genai.onnx with its rotary tables behind an Identity
(and renamed), so that nothing in the graph tells the model's position limit: `nnperf llm` then knows the largest
context only from the memory (tests/data/llm/cli.sh checks that the HTML context plot stops at 2x the generation's
end and says why). The weights stay stripped, as in the model it is made from.
usage: python3 make_nolimit.py   (in tests/data/llm; needs python3-onnx)"""
import onnx
from onnx import helper

m = onnx.load("tiny-llama-genai.onnx", load_external_data=False)
g = m.graph
raw = {"cos_cache": "rot_c_table_raw", "sin_cache": "rot_s_table_raw"}
for init in g.initializer:
    if init.name in raw:
        init.name = raw[init.name]
for name in ("sin_cache", "cos_cache"):
    g.node.insert(0, helper.make_node("Identity", [raw[name]], [name], name="/rotary/" + name))
onnx.save(m, "tiny-llama-genai-nolimit.onnx")
