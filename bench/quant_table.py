#!/usr/bin/python3
"""Quantized models (tests/data/quant/) against their float twins on every preset: latency and layers of the float
model at --dtype int8 (fp16 where a preset has no int8 peak), of its QDQ and its QOperator form, with an older
binary beside the current one. Prints a markdown table (bench/RESULTS.md, issue 18).

usage: python3 bench/quant_table.py OLD_NNPERF NEW_NNPERF > table.md
"""
import json
import subprocess
import sys

OLD, NEW = sys.argv[1], sys.argv[2]


def run(b, path, hw, extra=()):
    o=subprocess.run([b,"analyze",path,"--hw",hw,"--format","json"]+list(extra),capture_output=True,text=True)
    if o.returncode: return None
    return json.loads(o.stdout)['summary']
hws=[l.split()[0] for l in subprocess.run([NEW,"hw","list"],capture_output=True,text=True).stdout.splitlines()[1:] if len(l.split())>3]
print("| model | preset | float @int8 ms (layers) | QDQ before | QDQ now | QOperator before | QOperator now |")
print("|---|---|---|---|---|---|---|")
for m in ("resnet18","mobilenet_v2","efficientnet_b0","encoder"):
    fl="models/%s.onnx"%m if m!="encoder" else "tests/data/quant/encoder.onnx"
    for hw in hws:
        f=run(NEW,fl,hw,["--dtype","int8"])
        if not f:
            f=run(NEW,fl,hw,["--dtype","fp16"])
            if not f: continue
        cells=[]
        for form in ("qdq","qop"):
            for b in (OLD,NEW):
                s=run(b,"tests/data/quant/%s_%s.onnx"%(m,form),hw)
                cells.append("-" if not s else "%.4f (%d) %+.1f%%"%(s['latency_ms'],s['layers'],100*(s['latency_ms']/f['latency_ms']-1)))
        print("| %s | %s | %.4f (%d) @%s | %s |"%(m,hw,f['latency_ms'],f['layers'],f['dtype']," | ".join(cells)))
