#!/usr/bin/env bash
# Speed and memory of `nnperf analyze --format json` on big models (issue 2's targets: ResNet-50 with inline weights
# <= 5 ms and <= 16 MB peak RSS; vit_b_16 <= 10 ms; a 100,000-node graph in linear time, under 1 s).
# Needs: a Release build in build-release/, hyperfine, GNU time; the full-weight models are made once with
# models/make_models.py --full (python3-torchvision, a dev tool) into bench/out/.
# usage: bash bench/speed.sh      (prints a table; append it to bench/RESULTS.md by hand with the date)
set -euo pipefail
cd "$(dirname "$0")/.."
OUT=bench/out
mkdir -p "$OUT"
cmake -S . -B build-release -DCMAKE_BUILD_TYPE=Release -DNNPERF_CONFORMANCE=OFF >/dev/null
cmake --build build-release -j2 --target nnperf_cli >/dev/null
NN=build-release/nnperf
if [ ! -f "$OUT/resnet50.onnx" ] || [ ! -f "$OUT/vit_b_16.onnx" ]; then
  if [ -f /tmp/nnperf-full/resnet50.onnx ]; then cp /tmp/nnperf-full/resnet50.onnx /tmp/nnperf-full/vit_b_16.onnx "$OUT/";
  else /usr/bin/python3 models/make_models.py --full "$OUT" resnet50 vit_b_16 --out "$OUT/stripped" --no-readme; fi
fi
for n in 25000 50000 100000; do
  [ -f "$OUT/chain_$n.onnx" ] || /usr/bin/python3 bench/make_chain.py $n "$OUT/chain_$n.onnx" >/dev/null
done
printf '%-28s %10s %12s %12s %10s\n' model file_MB median_ms min_ms peak_RSS_MB
for m in resnet50 vit_b_16 chain_25000 chain_50000 chain_100000; do
  f="$OUT/$m.onnx"
  mb=$(awk "BEGIN{printf \"%.1f\", $(stat -c %s "$f")/1e6}")
  hyperfine -N --warmup 3 --min-runs 20 --export-json "$OUT/$m.json" "$NN analyze $f --format json" >/dev/null 2>&1
  med=$(/usr/bin/python3 -c "import json;r=json.load(open('$OUT/$m.json'))['results'][0];print('%.2f'%(r['median']*1e3))")
  mn=$(/usr/bin/python3 -c "import json;r=json.load(open('$OUT/$m.json'))['results'][0];print('%.2f'%(r['min']*1e3))")
  rss=$(/usr/bin/time -f %M "$NN" analyze "$f" --format json 2>&1 >/dev/null | tail -1)
  printf '%-28s %10s %12s %12s %10s\n' "$m" "$mb" "$med" "$mn" "$(awk "BEGIN{printf \"%.1f\", $rss/1024}")"
done
