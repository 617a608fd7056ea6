#!/bin/sh
# batch_from_input.sh - issue 18's "--input input=8x3x224x224 and --batch 8 give the same FPS", on every preset:
# for each model and preset, the JSON summary of both runs must have frames_per_run 8 and the same fps (the same
# double). Prints one line per pair that differs and a count. Not a timing; about 2 minutes on a loaded machine.
# usage: bench/batch_from_input.sh [NNPERF] [MODEL...]   (run from the repository root; default resnet50,
#        mobilenet_v2, efficientnet_b0 from models/)
set -u
NN=${1:-build/nnperf}
[ $# -gt 0 ] && shift
MODELS=${*:-models/resnet50.onnx models/mobilenet_v2.onnx models/efficientnet_b0.onnx}
same=0 diff=0
summary() { # fps and frames per run of one run, or the error
  "$NN" analyze "$@" --format json -q 2>&1 | python3 -c '
import json, sys
t = sys.stdin.read()
try:
    s = json.loads(t)["summary"]
    print(repr(s["fps"]), s["frames_per_run"])
except ValueError:
    print("error:", t.strip()[:200])'
}
for m in $MODELS; do
  for h in $("$NN" hw list | awk 'NR > 1 && NF > 1 && $1 ~ /^[a-z]/ { print $1 }'); do
    a=$(summary "$m" --hw "$h" --input input=8x3x224x224)
    b=$(summary "$m" --hw "$h" --batch 8)
    if [ "$a" = "$b" ] && [ "${a##* }" = 8 ]; then
      same=$((same + 1))
    else
      diff=$((diff + 1))
      echo "DIFFERENT $m $h: --input [$a] --batch [$b]"
    fi
  done
done
echo "$same pairs equal, $diff different"
[ "$diff" -eq 0 ]
