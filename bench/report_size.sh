#!/bin/sh
# HTML report size and load time: the report of swin_t (about 6,600 nodes) must stay under 5 MB and open in under
# 2 s in headless chromium. Prints the numbers; copy them to bench/RESULTS.md ("HTML report size and load time").
# The load time is the page's own performance.now() when its script has run (parse, style, the table and every
# inline SVG built; the self-test's tab switching and two sorts of the layer table come after and are reported
# separately), and the wall time of a headless chromium run minus that of an empty page.
# usage: bench/report_size.sh [NNPERF] [MODEL] [PLATFORM]
set -u
root=$(cd "$(dirname "$0")/.." && pwd)
NN=${1:-$root/build/nnperf}
MODEL=${2:-$root/models/swin_t.onnx}
HW=${3:-zcu102-dpu}
CHROME=$(command -v chromium || command -v chromium-browser || true)
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
t0=$(date +%s.%N)
"$NN" analyze "$MODEL" --hw "$HW" --format html --quiet -o "$out/report.html" || exit 2
t1=$(date +%s.%N)
bytes=$(wc -c <"$out/report.html")
nodes=$(grep -o '[0-9]* nodes in [0-9]* layers' "$out/report.html" | head -1)
echo "model $(basename "$MODEL") on $HW: $nodes"
echo "report bytes: $bytes ($(awk "BEGIN{printf \"%.2f\", $bytes/1e6}") MB; limit 5 MB)"
echo "write time: $(awk "BEGIN{printf \"%.2f\", $t1-$t0}") s (nnperf analyze --format html)"
[ -n "$CHROME" ] || { echo "chromium not found: no load time"; exit 0; }
run() { # run URL -> wall seconds; DOM in $out/dom.html
  prof=$(mktemp -d)
  s=$(date +%s.%N)
  timeout 120 "$CHROME" --headless --no-sandbox --disable-gpu --disable-quic --no-first-run \
    --disable-background-networking --disable-component-update --disable-sync --user-data-dir="$prof" \
    --dump-dom "$1" >"$out/dom.html" 2>/dev/null
  e=$(date +%s.%N)
  rm -rf "$prof"
  awk "BEGIN{printf \"%.2f\", $e-$s}"
}
echo '<!DOCTYPE html><title>empty</title><p>empty' >"$out/empty.html"
for i in 1 2 3; do
  base=$(run "file://$out/empty.html")
  wall=$(run "file://$out/report.html")
  script_ms=$(run "file://$out/report.html#selftest" >/dev/null; grep -o 'script ms [0-9][0-9]*' "$out/dom.html")
  plain=$(run "file://$out/report.html#loadtime" >/dev/null; grep -o 'script ms [0-9][0-9]*' "$out/dom.html")
  echo "run $i: chromium wall $wall s (empty page $base s), page script done at ${plain:-?} (plain load), ${script_ms:-?} after the self-test"
done
