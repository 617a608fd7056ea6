#!/usr/bin/env bash
# run_all.sh - measures the real single-thread ONNX Runtime latency of every model of models/reference.csv on this
# host (the validation loop of issue 3).
#
# For each model: exports the full-weight ONNX file (models/make_models.py --full --full-all, random weights, seed 0;
# the same graphs as models/*.onnx) into bench/out/full/ when missing, then runs bench/validate/measure.js, which
# writes bench/out/profiles/<model>.json (the ORT profile) and <model>.json.timing.json (median/min/max of the timed
# runs). Finally writes bench/out/measured.csv: model,median_ms,min_ms,runs.
#
# Needs: node + npm (onnxruntime-node is installed here on first use), /usr/bin/python3 with python3-torchvision and
# python3-onnx for the exports. Takes tens of minutes; keep the machine otherwise idle: the numbers are wall-clock.
#
# usage: bash bench/validate/run_all.sh [MODEL...]      (default: every model of models/reference.csv)
#        RUNS=50 bash bench/validate/run_all.sh         (timed runs per model, default 30, at least 20)
set -euo pipefail
cd "$(dirname "$0")/../.."
OUT=bench/out
FULL=$OUT/full
PROF=$OUT/profiles
RUNS=${RUNS:-30}
mkdir -p "$FULL" "$PROF"

if [ ! -d bench/validate/node_modules/onnxruntime-node ]; then
  (cd bench/validate && ONNXRUNTIME_NODE_INSTALL_CUDA=skip npm ci --no-audit --no-fund)
fi

if [ $# -gt 0 ]; then
  models=("$@")
else
  mapfile -t models < <(tail -n +2 models/reference.csv | cut -d, -f1)
fi

missing=()
for m in "${models[@]}"; do [ -s "$FULL/$m.onnx" ] || missing+=("$m"); done
if [ ${#missing[@]} -gt 0 ]; then
  echo "exporting ${#missing[@]} full-weight model(s): ${missing[*]}"
  # --out: the stripped copies (and a reference.csv) go to a scratch folder, models/ is left alone
  /usr/bin/python3 models/make_models.py --full "$FULL" --full-all --out "$OUT/stripped" --no-readme "${missing[@]}"
fi

failed=()
for m in "${models[@]}"; do
  if [ ! -s "$FULL/$m.onnx" ]; then
    echo "$m: no full-weight export, skipped" >&2
    failed+=("$m")
    continue
  fi
  if ! node bench/validate/measure.js "$FULL/$m.onnx" "$PROF/$m.json" --runs "$RUNS"; then
    echo "$m: measurement failed" >&2
    failed+=("$m")
  fi
done

# measured.csv from every timing sidecar present (so a partial re-run keeps the other models' rows)
tmp=$OUT/measured.csv.tmp.$$
mapfile -t all < <(tail -n +2 models/reference.csv | cut -d, -f1)
node -e '
const fs = require("fs");
const [prof, ...names] = process.argv.slice(1);
const rows = ["model,median_ms,min_ms,runs"];
for (const m of names) {
  const f = `${prof}/${m}.json.timing.json`;
  if (!fs.existsSync(f)) continue;
  const t = JSON.parse(fs.readFileSync(f, "utf8"));
  rows.push(`${m},${t.median_ms.toFixed(3)},${t.min_ms.toFixed(3)},${t.runs}`);
}
process.stdout.write(rows.join("\n") + "\n");
' "$PROF" "${all[@]}" >"$tmp"
mv "$tmp" "$OUT/measured.csv"
echo "wrote $OUT/measured.csv ($(($(wc -l <"$OUT/measured.csv") - 1)) models)"
if [ ${#failed[@]} -gt 0 ]; then
  echo "failed: ${failed[*]}" >&2
  exit 1
fi
