#!/bin/sh
# HTML escaping: a model whose node names are markup (tests/data/html/escape.onnx) gives pages with exactly one
# <script> element (nnperf's own) and none of the names' tags, in the prediction, analysis and SVG outputs.
# usage: check_escape.sh NNPERF
set -u
NN=$1
cd "$(dirname "$0")/../.." || exit 2
m=tests/data/html/escape.onnx
fail=0
for args in "--hw zcu102-dpu --format html" "--format html" "--hw zcu102-dpu --plot roofline" \
  "--hw zcu102-dpu --plot timeline" "--hw zcu102-dpu --plot memory"; do
  # shellcheck disable=SC2086
  out=$("$NN" analyze "$m" $args 2>/dev/null) || { echo "FAIL: nnperf analyze $m $args"; fail=1; continue; }
  n=$(printf '%s' "$out" | grep -o '<script' | wc -l)
  case "$args" in *html*) want=1 ;; *) want=0 ;; esac
  if [ "$n" -ne "$want" ] || printf '%s' "$out" | grep -q '<img\|<b>graph\|onerror=alert(2)>\|"quoted"'; then
    echo "FAIL: unescaped markup in 'nnperf analyze $m $args'"
    fail=1
  fi
  printf '%s' "$out" | grep -q '&lt;script&gt;alert(1)&lt;/script&gt;' || {
    echo "FAIL: the layer name is missing from 'nnperf analyze $m $args'"
    fail=1
  }
done
[ "$fail" -eq 0 ] && echo "escaping ok"
exit "$fail"
