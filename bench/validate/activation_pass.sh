#!/usr/bin/env bash
# activation_pass.sh - what a fused activation costs in ONNX Runtime's CPU convolution (docs/sources.md [ORT-MLAS]):
# 1x1 convolutions 16 -> 48 and 16 -> 96 channels at 112x112, followed by Relu or Clip (which ORT fuses into the
# Conv), profiled alternately with one thread; prints each kernel's median and minimum time. Relu runs inside the
# convolution kernel, Clip in a pass over its output (bench/RESULTS.md, "Host CPU: what was tried").
# Needs /usr/bin/python3 with python3-onnx and node with bench/validate's onnxruntime-node (run_all.sh installs it).
# usage: bash bench/validate/activation_pass.sh
set -euo pipefail
cd "$(dirname "$0")"
[ -d node_modules/onnxruntime-node ] || (ONNXRUNTIME_NODE_INSTALL_CUDA=skip npm ci --no-audit --no-fund)
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
/usr/bin/python3 - "$dir" <<'PY'
import sys
import numpy as np
import onnx
from onnx import helper as h, numpy_helper as nh, TensorProto as T
out = sys.argv[1]
rng = np.random.default_rng(0)
for cout in (48, 96):
    for act in ("Relu", "Clip"):
        inits = [nh.from_array((rng.random((cout, 16, 1, 1)) * 0.1).astype(np.float32), "W"),
                 nh.from_array(np.zeros(cout, np.float32), "B")]
        nodes = [h.make_node("Conv", ["x", "W", "B"], ["c"], name="conv")]
        if act == "Relu":
            nodes.append(h.make_node("Relu", ["c"], ["y"], name="act"))
        else:
            inits += [nh.from_array(np.array(0, np.float32), "lo"), nh.from_array(np.array(6, np.float32), "hi")]
            nodes.append(h.make_node("Clip", ["c", "lo", "hi"], ["y"], name="act"))
        g = h.make_graph(nodes, "g", [h.make_tensor_value_info("x", T.FLOAT, [1, 16, 112, 112])],
                         [h.make_tensor_value_info("y", T.FLOAT, [1, cout, 112, 112])], inits)
        m = h.make_model(g, opset_imports=[h.make_opsetid("", 17)])
        m.ir_version = 8
        onnx.save(m, f"{out}/conv16x{cout}_{act}.onnx")
PY
node - "$dir" <<'JS'
const fs = require('fs');
const path = require('path');
const ort = require(path.resolve('node_modules/onnxruntime-node'));
const dir = process.argv[2];
(async () => {
    const names = fs.readdirSync(dir).filter((f) => f.endsWith('.onnx')).map((f) => f.slice(0, -5)).sort();
    const opts = (n) => ({intraOpNumThreads: 1, interOpNumThreads: 1, executionMode: 'sequential',
        graphOptimizationLevel: 'all', enableProfiling: true, profileFilePrefix: path.join(dir, 'prof_' + n)});
    const s = {};
    for (const n of names) s[n] = await ort.InferenceSession.create(path.join(dir, n + '.onnx'), opts(n));
    const x = new ort.Tensor('float32', Float32Array.from({length: 16 * 112 * 112}, (_, i) => (i % 97) / 97),
        [1, 16, 112, 112]);
    for (let r = 0; r < 60; r++) for (const n of names) await s[n].run({x});
    console.log('model                conv kernel median us   min us');
    for (const n of names) {
        s[n].endProfiling();
        const f = fs.readdirSync(dir).find((g) => g.startsWith('prof_' + n + '_'));
        const t = JSON.parse(fs.readFileSync(path.join(dir, f))).filter(
            (e) => e.cat === 'Node' && e.args && e.args.op_name === 'Conv' && e.name.endsWith('_kernel_time'))
            .slice(10).map((e) => e.dur).sort((a, b) => a - b);
        console.log(`${n.padEnd(20)} ${String(t[t.length >> 1]).padStart(18)} ${String(t[0]).padStart(8)}`);
    }
})();
JS
