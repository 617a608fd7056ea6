#!/bin/bash
# wide_node.sh - time of `nnperf analyze --hw --summary` (the prediction, not the writing of a million-row report) on
# one node with N distinct inputs (a Sum of N Relu outputs, bench/make_wide.py), for each N given (default 25000
# 100000 1000000): wall seconds and CPU seconds (user + system; the number that counts on a shared machine).
# Needs python3-onnx.
# usage: bash bench/wide_node.sh [NNPERF] [N...]
set -eu
here=$(cd "$(dirname "$0")" && pwd)
nnperf=${1:-$here/../build/nnperf}
shift || true
sizes=${*:-25000 100000 1000000}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
for n in $sizes; do
    /usr/bin/python3 "$here/make_wide.py" "$n" "$tmp/wide.onnx" >/dev/null
    /usr/bin/time -f "%e %U %S" -o "$tmp/time" \
        "$nnperf" analyze "$tmp/wide.onnx" --hw zcu102-dpu --set memory.sram_bytes=0 --summary -o "$tmp/out.txt"
    read -r wall user sys <"$tmp/time"
    printf '%8d inputs: %6.2f s wall, %6.2f s CPU\n' "$n" "$wall" "$(echo "$user + $sys" | bc)"
done
