#!/bin/sh
# Real-browser test of the HTML reports: headless Debian chromium opens the reports of zoo models (CNNs and
# transformers; swin_t on the ZCU102, whose timeline has lanes for the DPU and for its CPU fallback) and a compare
# report. Each page runs its own self-test (URL fragment #selftest: every tab's elements exist, sorting the layer
# table by time works, no script error, no blocked request) and writes PASS/FAIL into the DOM, which chromium dumps.
# A copy of each page with checks.js added is opened in a 1400 x 900 and in a 1024 x 768 window and checked as laid
# out: tick labels increase evenly, no plot element outside its plot area, layer counts agree across tabs, the
# timeline is at most one screen high and zooms, neither the page nor any table is wider than the window, no plot
# is wider than the page. The test also fails on any console message of level error and on any network request in chromium's net
# log (the pages may only load themselves). Screenshots of every tab of the resnet50 and compare pages go to OUTDIR
# (NNPERF_SCREENSHOTS=all: of every page).
# usage: run.sh NNPERF OUTDIR      exit 77 (skipped) when chromium is not installed
set -u
NN=$1
OUT=${2:-build/browser}
CHROME=${CHROMIUM:-}
[ -n "$CHROME" ] || CHROME=$(command -v chromium || command -v chromium-browser || true)
if [ -z "$CHROME" ]; then
  echo "chromium not found: skipped (Debian: apt-get install chromium)"
  exit 77
fi
root=$(cd "$(dirname "$0")/../.." && pwd)
cd "$root" || exit 2
mkdir -p "$OUT"
OUT=$(cd "$OUT" && pwd)
export LC_ALL=C
fail=0

chrome() { # chrome PROFILE ARGS... : headless chromium that cannot reach anything
  prof=$1
  shift
  timeout 120 "$CHROME" --headless --no-sandbox --disable-gpu --disable-quic --no-first-run \
    --disable-background-networking --disable-component-update --disable-sync --disable-extensions \
    --disable-default-apps --metrics-recording-only --no-default-browser-check --hide-scrollbars \
    --user-data-dir="$prof" --enable-logging=stderr --v=0 "$@"
}

"$NN" analyze models/resnet50.onnx --hw zcu102-dpu --format html -o "$OUT/resnet50.html" || fail=1
"$NN" analyze models/vit_b_16.onnx --hw horizon-j5 --format html -o "$OUT/vit_b_16.html" || fail=1
"$NN" compare models/resnet50.onnx models/vit_b_16.onnx models/mobilenet_v2.onnx models/squeezenet1_1.onnx \
  --hw zcu102-dpu,horizon-j5,jetson-orin-nano --format html --quiet -o "$OUT/compare.html" \
  --accuracy resnet50=76.13 --accuracy vit_b_16=81.07 --accuracy mobilenet_v2=71.88 \
  --accuracy squeezenet1_1=58.18 || fail=1
"$NN" analyze models/swin_t.onnx --hw zcu102-dpu --format html --quiet -o "$OUT/swin_t.html" || fail=1
"$NN" analyze models/resnet50.onnx --hw horizon-j5 --format html --quiet -o "$OUT/resnet50_j5.html" || fail=1
"$NN" analyze models/vit_b_16.onnx --hw jetson-orin-nano --format html --quiet -o "$OUT/vit_b_16_orin.html" || fail=1
# the README's link-bound device: its roofline points spread by the memory that bounds them (link, DDR)
"$NN" analyze models/resnet50.onnx --hw edgetpu-fast --format html --quiet -o "$OUT/resnet50_edgetpu.html" || fail=1
# the other HTML pages: an LLM report (its context plot), advice, an analysis without a platform
"$NN" llm tests/data/llm/tiny-llama-hf.onnx --hw a100-80gb --prompt 64,128 --batch 1,4 --generate 32 --format html \
  -o "$OUT/llm.html" || fail=1
"$NN" advise models/resnet50.onnx --hw horizon-j5 --batch 4 --format html -o "$OUT/advise.html" || fail=1
"$NN" analyze models/efficientnet_b0.onnx --format html --quiet -o "$OUT/analysis.html" || fail=1
[ "$fail" -eq 0 ] || { echo "FAIL: could not write the reports"; exit 1; }

for page in resnet50 vit_b_16 compare swin_t resnet50_j5 vit_b_16_orin resnet50_edgetpu llm advise analysis; do
  f="$OUT/$page.html"
  if grep -Eiq '<[a-z][^>]*[[:space:]](src|href|action)=|https?://|@import|url\(' "$f"; then
    echo "FAIL $page: the page references something outside itself"
    grep -Eio '.{30}(<[a-z][^>]*[[:space:]](src|href|action)=|https?://|@import|url\().{30}' "$f" | head -3
    fail=1
  fi
  # the page with the layout checks (checks.js) added, opened once at 1400 x 900 with its own self-test
  sed 's#</body>#<script>\n__CHECKS__\n</script>\n</body>#' "$f" | awk -v js="tests/browser/checks.js" '
    $0 == "__CHECKS__" { while ((getline line < js) > 0) print line; next } { print }' >"$OUT/$page.checks.html"
  prof=$(mktemp -d)
  chrome "$prof" --window-size=1400,900 --log-net-log="$OUT/$page.netlog.json" \
    --dump-dom "file://$OUT/$page.checks.html#selftest" >"$OUT/$page.dom.html" 2>"$OUT/$page.log"
  rm -rf "$prof"
  # the same layout checks in a window of 1024 x 768 (a small laptop): the page, its tables and the timeline fit
  prof=$(mktemp -d)
  chrome "$prof" --window-size=1024,768 --dump-dom "file://$OUT/$page.checks.html" >"$OUT/$page.1024.dom.html" \
    2>"$OUT/$page.1024.log"
  rm -rf "$prof"
  res=$(sed -n '/<pre id="checks-result">/,/<\/pre>/p' "$OUT/$page.1024.dom.html")
  case "$res" in
  *'>PASS'*) echo "ok   $page layout at 1024 px: $(echo "$res" | tail -1 | sed 's/<[^>]*>//g')" ;;
  *) echo "FAIL $page layout at 1024 px: ${res:-no result (checks did not run)}" | sed 's/<[^>]*>//g'; fail=1 ;;
  esac
  res=$(sed -n '/<pre id="selftest-result">/,/<\/pre>/p' "$OUT/$page.dom.html")
  case "$res" in
  *'>PASS'*) echo "ok   $page: $(echo "$res" | tail -1 | sed 's/<[^>]*>//g')" ;;
  *) echo "FAIL $page: self-test: ${res:-no result (script did not run)}"; fail=1 ;;
  esac
  res=$(sed -n '/<pre id="checks-result">/,/<\/pre>/p' "$OUT/$page.dom.html")
  case "$res" in
  *'>PASS'*) echo "ok   $page layout: $(echo "$res" | tail -1 | sed 's/<[^>]*>//g')" ;;
  *) echo "FAIL $page layout: ${res:-no result (checks did not run)}" | sed 's/<[^>]*>//g'; fail=1 ;;
  esac
  if grep -E 'CONSOLE|Uncaught|Refused to' "$OUT/$page.log" >/dev/null; then
    echo "FAIL $page: console messages:"
    grep -E 'CONSOLE|Uncaught|Refused to' "$OUT/$page.log" | head -5
    fail=1
  fi
  # every URL the page requested (the net log's requests with an initiator: the browser's own update and time
  # checks have none): only the page itself (file://), nothing over the network
  urls=$(python3 - "$OUT/$page.netlog.json" <<'PY'
import json, sys
try:
    with open(sys.argv[1]) as f:
        ev = json.load(f)["events"]
except (OSError, ValueError, KeyError) as e:
    print("no net log: %s" % e)
    sys.exit(0)
for e in ev:
    p = e.get("params") or {}
    if "url" in p and "initiator" in p and p["initiator"] != "not an origin" and not p["url"].startswith("file:"):
        print(p["url"])
PY
)
  if [ -n "$urls" ]; then
    echo "FAIL $page: network requests:"
    echo "$urls" | head -5
    fail=1
  fi
  if [ "$page" = resnet50_edgetpu ] && [ "$(grep -c 'data-mem="link"' "$f")" -lt 5 ]; then
    echo "FAIL $page: fewer than 5 roofline points bound by the host link"
    fail=1
  fi
  case "$page" in resnet50 | compare) ;; *) [ "${NNPERF_SCREENSHOTS:-}" = all ] || continue ;; esac
  tabs=$(grep -o 'data-tab="[a-z0-9-]*"' "$f" | sed 's/data-tab="//; s/"//')
  for t in $tabs; do
    prof=$(mktemp -d)
    chrome "$prof" --window-size=1280,1600 --screenshot="$OUT/$page-$t.png" "file://$f#tab=$t" \
      >/dev/null 2>&1 || { echo "FAIL $page: no screenshot of tab $t"; fail=1; }
    rm -rf "$prof"
  done
done
[ "$fail" -eq 0 ] && echo "browser test passed; screenshots in $OUT"
exit "$fail"
