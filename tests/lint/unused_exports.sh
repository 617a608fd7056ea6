#!/usr/bin/env bash
# unused_exports.sh BUILD_DIR - every function the library (libnnperf's objects) or the CLI (nnperf_cli's objects)
# defines with external linkage is used by another object file: fails naming each global function (nnperf_* public
# API and main excepted) that no other object of the build references (library, CLI, tests, fuzz harnesses). A
# function used only in its own file is static; one used nowhere is deleted.
set -euo pipefail
dir=$1
# (the web page's WebAssembly objects, web-wasm/, are not the host's: nm cannot read them)
objs=$(find "$dir" -path "$dir/web-wasm" -prune -o -name '*.o' -type f -print | sort)
[ -n "$objs" ] || { echo "no object files under $dir"; exit 1; }
# "object symbol" for each defined global function of the library and the CLI, and for each reference (nm -A
# prefixes each line with "file:")
lib=$(printf '%s\n' "$objs" | grep -E '/(nnperf_objs|nnperf_cli)\.dir/')
def=$(nm -A -g --defined-only $lib | awk '$2 ~ /^[TW]$/ { o = $1; sub(/:[^:]*$/, "", o); print o, $3 }')
ref=$(nm -A -u $objs | awk '{ o = $1; sub(/:[^:]*$/, "", o); print o, $NF }')
bad=$(awk 'NR == FNR { users[$2] = users[$2] " " $1; next }
  $2 ~ /^nnperf_/ || $2 == "main" { next }
  { n = split(users[$2], u, " "); used = 0; for (i = 1; i <= n; i++) if (u[i] != $1) used = 1; if (!used) print "  " $1 ": " $2 }' \
  <(printf '%s\n' "$ref") <(printf '%s\n' "$def"))
if [ -n "$bad" ]; then
  echo "global functions no other object file uses (make them static, or delete them when their own file does not use them):"
  echo "$bad"
  exit 1
fi
echo "every global function of the library and the CLI is used by another object file ($(printf '%s\n' "$def" | wc -l) checked)"
