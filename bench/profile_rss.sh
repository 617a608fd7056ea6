#!/bin/sh
# profile_rss.sh - peak memory (RSS) of reading a large ONNX Runtime profile, under /usr/bin/time -v:
#   real: a profile of about SIZE_MB megabytes made from tests/data/ort_profile_small.json (squeezenet1_1, its 40
#         kernels per run repeated over as many runs as it takes, timestamps shifted per run), through `nnperf
#         validate` (which reads it twice: the match check and the comparison);
#   tiny: SIZE_MB megabytes of minimal events ({"name":"a"}, more than the 4,194,304-event limit), which must be
#         refused.
# usage: bench/profile_rss.sh [NNPERF] [SIZE_MB]      (default build/nnperf, 60)
set -eu
root=$(cd "$(dirname "$0")/.." && pwd)
nn=${1:-$root/build/nnperf}
size=${2:-60}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
python3 - "$root/tests/data/ort_profile_small.json" "$work/big.json" "$size" <<'PY'
import json, sys
src, dst, mb = sys.argv[1], sys.argv[2], float(sys.argv[3])
ev = json.load(open(src))
runs = [e for e in ev if e["name"] == "model_run"]
first = min(r["ts"] for r in runs)
last = max(r["ts"] + r["dur"] for r in runs)
span = last - first + 1000
body = [e for e in ev if e["ts"] >= first]
with open(dst, "w") as f:
    f.write("[\n")
    n, k = 0, 0
    while f.tell() < mb * 1e6:
        for e in body:
            e2 = dict(e)
            e2["ts"] = e["ts"] + k * span
            f.write(("," if n else "") + json.dumps(e2, separators=(",", ":")) + "\n")
            n += 1
        k += 1
    f.write("]\n")
    size = f.tell()
print(f"profile: {size / 1e6:.1f} MB, {n} events, {k * len(runs)} runs", file=sys.stderr)
PY
ls -l "$work/big.json" | awk '{print "bytes:", $5}'
/usr/bin/time -v "$nn" validate "$root/models/squeezenet1_1.onnx" --hw "$root/bench/validate/host-cal.yaml" \
    --measured "$work/big.json" >"$work/out" 2>"$work/time" || { cat "$work/time"; exit 1; }
echo "real profile:"
grep -E "Maximum resident set size|Elapsed \(wall clock\)|User time" "$work/time"
tail -1 "$work/out"
python3 -c "
import sys
n = int(float(sys.argv[2]) * 1e6 / 13)
with open(sys.argv[1], 'w') as f:
    f.write('[' + ','.join(['{\"name\":\"a\"}'] * n) + ']')
print('tiny profile:', n, 'events')" "$work/tiny.json" "$size"
/usr/bin/time -v "$nn" validate "$root/models/squeezenet1_1.onnx" --hw "$root/bench/validate/host-cal.yaml" \
    --measured "$work/tiny.json" >"$work/out" 2>"$work/time" && { echo "tiny profile accepted?"; exit 1; }
grep -E "nnperf:|Maximum resident set size|Elapsed \(wall clock\)" "$work/time"
