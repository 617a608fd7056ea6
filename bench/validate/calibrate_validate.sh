#!/usr/bin/env bash
# Issue 3's host validation loop: probe this machine, calibrate on (at most) 5 models, validate on every other model
# measured by run_all.sh, and print the whole-model error table with the median |error| and the share within +-20%.
# usage: bash bench/validate/calibrate_validate.sh [BUILD_DIR]     (needs bench/out/profiles from run_all.sh)
set -euo pipefail
cd "$(dirname "$0")/../.."
NN=${1:-build}/nnperf
P=bench/out/profiles
CAL=${CAL:-"resnet18 mobilenet_v2 efficientnet_b0"}
HOST=${HOST:-bench/out/host.yaml}
HOSTCAL=${HOSTCAL:-bench/out/host-cal.yaml}
[ -f "$HOST" ] || "$NN" probe -o "$HOST"
args=()
for m in $CAL; do args+=("models/$m.onnx=$P/$m.json"); done
"$NN" calibrate --hw "$HOST" -o "$HOSTCAL" "${args[@]}"
printf '%-22s %12s %12s %9s\n' model predicted_ms measured_ms error
errs=()
for f in $P/*.json; do
  m=$(basename "$f" .json)
  case "$m" in *.timing) continue ;; esac
  case " $CAL " in *" $m "*) continue ;; esac
  [ -f "models/$m.onnx" ] || continue
  line=$("$NN" validate "models/$m.onnx" --hw "$HOSTCAL" --measured "$f" --format json | \
    /usr/bin/python3 -c 'import json,sys; d=json.load(sys.stdin); print(d["predicted_ms"], d["measured_ms"], d["error_pct"])')
  set -- $line
  printf '%-22s %12.2f %12.2f %+8.1f%%\n' "$m" "$1" "$2" "$3"
  errs+=("$3")
done
/usr/bin/python3 - "${errs[@]}" <<'PY'
import statistics, sys
e = [abs(float(x)) for x in sys.argv[1:]]
print(f"\n{len(e)} validation models: median |error| {statistics.median(e):.1f}%, "
      f"{sum(1 for x in e if x <= 20)}/{len(e)} ({100*sum(1 for x in e if x <= 20)/len(e):.0f}%) within +-20%")
PY
