#!/usr/bin/env bash
# Issue 3's sweep speed target: `nnperf sweep` over 1,000 configurations of ResNet-50 (batch 1..250 x int8, fp16 x jetson-orin-nano,
# jetson-agx-orin) in under 1 s. The model is analysed once; only the passes re-run per configuration.
# usage: bash bench/sweep.sh [BUILD_DIR]     (prints hyperfine's summary; record it in bench/RESULTS.md)
set -euo pipefail
cd "$(dirname "$0")/.."
NN=${1:-build-release}/nnperf
[ -x "$NN" ] || { cmake -S . -B build-release -DCMAKE_BUILD_TYPE=Release >/dev/null && cmake --build build-release -j2 --target nnperf_cli >/dev/null; NN=build-release/nnperf; }
batches=$(seq -s, 1 250)
n=$("$NN" sweep models/resnet50.onnx --hw jetson-orin-nano,jetson-agx-orin --dtype int8,fp16 --batch "$batches" --format csv | tail -n +2 | wc -l)
echo "configurations: $n"
hyperfine -N --warmup 2 --min-runs 10 "$NN sweep models/resnet50.onnx --hw jetson-orin-nano,jetson-agx-orin --dtype int8,fp16 --batch $batches --format csv"
