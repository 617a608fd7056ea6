#!/usr/bin/env python3
"""Generates docs/ops.md from src/ops/op_list.def (the one list of operators). Dev tool: run after editing the
.def, commit both. usage: python3 tools/dev/gen_ops_doc.py > docs/ops.md"""
import os
import re

root = os.path.join(os.path.dirname(__file__), "..", "..")
rows = []
for line in open(os.path.join(root, "src/ops/op_list.def")):
    m = re.match(r'OP\((\w+), "([^"]*)", "(\w+)", (\d+), (\d+), (\w+), ([\d.]+), (\w+), (\w+)\)', line)
    if m:
        rows.append(m.groups())
print("# Supported operators\n")
print("Generated from `src/ops/op_list.def` by `tools/dev/gen_ops_doc.py`; `nnperf ops` prints the same list.")
print("*fpe* is the FLOPs charged per element by the shared counting rules (see conventions.md); operators with")
print("their own count function (conv, matmul, ...) say how they count in conventions.md.\n")
print(f"{len(rows)} operators.\n")
print("| domain | operator | opsets | class | fpe | count rule |")
print("|---|---|---|---|---|---|")
for _id, dom, name, since, until, klass, fpe, infer, count in rows:
    rng = f"{since}-{until}" if until != "0" else f"{since}+"
    print(f"| {dom or 'ai.onnx'} | {name} | {rng} | {klass[3:].lower()} | {fpe} | {count} |")
