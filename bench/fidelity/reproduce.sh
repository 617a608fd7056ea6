#!/usr/bin/env bash
# reproduce.sh - do the fit scripts still print what their rules recorded? Runs each command of
# bench/fidelity/reproduce.tsv once (a fit script of bench/fidelity, or `nnperf calibrate` on the platform file and
# table the preset's comment names) and checks that its output still holds each recorded text: the numbers
# bench/RESULTS.md records for that rule, the section named in the file. A bench script, not a ctest: its commands
# took about 30 minutes in all, one at a time on the loaded 2-core build machine (bench/RESULTS.md, "Do the fit
# scripts still print what their rules recorded?").
#   usage: bash bench/fidelity/reproduce.sh [BUILD_DIR] [SCRIPT ...]   (SCRIPT: only the commands of those, e.g.
#          fit_ncs2.py calibrate); exit 1 when a recorded text is missing, printing the lines that differ.
# Needs /usr/bin/python3, the Python package (python/) and BUILD_DIR's library and CLI (default build).
set -uo pipefail
cd "$(dirname "$0")/../.."
BUILD=build
if [ $# -gt 0 ] && [ -d "$1" ]; then BUILD=$1; shift; fi
export PYTHONPATH=python NNPERF_LIBRARY="$BUILD/libnnperf.so"
F=bench/fidelity
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT

# The platform files and tables the calibrate checks start from ($T in reproduce.tsv): the fitted keys at the values
# the presets held before each fit (the rest of each preset as it is), and the tables as the fits read them.
prefit() { # NAME EFFICIENCY DDR_EFFICIENCY: the preset NAME with those two numbers
  printf '%s\n' 'format: 1' "base: $1" "name: $1" 'compute:' "  efficiency: {default: $2}" 'memory:' \
    "  ddr_efficiency: $3" >"$T/$1-prefit.yaml"
}
prefit zcu102-dpu 0.765 0.7
prefit ultra96-dpu 0.805 0.7
printf '%s\n' 'format: 1' 'base: ncs2' 'name: ncs2' 'compute:' \
  '  efficiency: {default: 0.3, conv: 0.5, gemm: 0.4, matmul: 0.4, eltwise: 0.15, activation: 0.2}' \
  '  array:' '    fc_tile: 0' 'memory:' '  ddr_efficiency: 0.7' 'overhead:' '  per_layer_s: 5e-6' '  per_run_s: 5e-4' \
  >"$T/ncs2-prefit.yaml"
{
  grep -v '^#' $F/data/ncs2_openvino.csv | head -1
  for f in qutibench_fit_ncs2_finn.csv ncs2_openvino.csv; do
    grep -v '^#' $F/data/$f | tail -n +2 | awk -F, '$1 == "ncs2" && $NF == "fit"'
  done
} >"$T/ncs2-fit.csv"
# the Orin Nano Super before its fit (the assumed efficiencies, per-layer cost and CUDA-core FP32 rate) and its fit rows
printf '%s\n' 'format: 1' 'base: jetson-orin-nano-super' 'name: jetson-orin-nano-super' 'compute:' \
  '  peak_ops: {fp32: 2.09e12}' '  tf32_ops: 0' \
  '  efficiency: {default: 0.35, conv: 0.5, gemm: 0.6, matmul: 0.6, attention: 0.4}' \
  'overhead:' '  per_layer_s: 1e-5' >"$T/orin-nano-super-prefit.yaml"
grep -v '^#' $F/data/ultralytics_jetson.csv >"$T/orin-nano-super-fit.csv"
for col in 3 4; do
  { echo "model,input,dtype,batch,latency_ms"
    grep -v '^#' $F/coral.csv | tail -n +2 | awk -F, -v c=$col '{print "models/" $1 ".onnx," $2 ",int8,1," $c}'
  } >"$T/coral-$col.csv"
done

fail=0 checked=0 prev=""
while IFS=$'\t' read -r section cmd want; do
  case "$section" in '#'* | '') continue ;; esac
  script=${cmd%% *}
  if [ $# -gt 0 ] && ! printf '%s\n' "$@" | grep -qxF "$script"; then continue; fi
  cmd=${cmd//\$T/$T}
  if [ "$cmd" != "$prev" ]; then
    prev=$cmd
    echo "== $cmd"
    if [ "$script" = calibrate ]; then
      # shellcheck disable=SC2086
      "$BUILD/nnperf" calibrate ${cmd#calibrate } -o "$T/out.yaml" >"$T/log" 2>&1
    else
      # shellcheck disable=SC2086
      /usr/bin/python3 $F/$cmd >"$T/log" 2>&1
    fi
  fi
  checked=$((checked + 1))
  if grep -qF -- "$want" "$T/log"; then
    echo "   same:    $want"
  else
    fail=$((fail + 1))
    echo "   DIFFERS: recorded '$want' ($section); printed now:"
    lead=${want%%[0-9]*}
    grep -F -- "${lead:-$want}" "$T/log" | head -3 | sed 's/^/            /'
  fi
done <$F/reproduce.tsv
echo "$checked recorded texts checked, $fail differ"
[ "$fail" -eq 0 ]
