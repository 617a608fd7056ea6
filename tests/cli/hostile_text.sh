#!/bin/sh
# hostile_text.sh - text written for people and for tools by the command line, from models whose names carry
# terminal escapes, line breaks and YAML syntax (tests/data/text/, issue 19): tables, CSV and stderr have no control
# character but the line break (ESC shows as the text \x1b); `map --format yaml` has as many layers as the model
# with plain names (read with python3's yaml where it is installed), also for a file named "a: b #c.onnx".
# usage: hostile_text.sh NNPERF WORKDIR      (run from the repository root)
set -u
nn=$1
work=$2/nnperf-text.$$
rm -rf "$work"
mkdir -p "$work" || exit 1
trap 'rm -rf "$work"' EXIT
fail=0
pass=0
N=tests/data/text/names.onnx
D=tests/data/text/dims.onnx

# clean FILE WHAT: FILE has no byte below 0x20 but the line break, no DEL, no C1 U+009B, no 0xff
clean() {
    if LC_ALL=C grep -q "$(printf '[\001-\011\013-\037\177\377]')" "$1" || LC_ALL=C grep -q "$(printf '\302\233')" "$1"; then
        echo "FAIL: control characters in $2:"; LC_ALL=C grep -n "$(printf '[\001-\011\013-\037\177]')" "$1" | head -3 | od -c | head -5
        fail=$((fail + 1))
    else
        pass=$((pass + 1))
    fi
}
# lines FILE WHAT: no line of FILE starts with what a name's line break would have started
lines() {
    if grep -q -e '^fits' -e '^fake' -e '^  - processors: 0x0000000000000001' "$1"; then
        echo "FAIL: a name started a line in $2"; grep -n -e '^fits' -e '^fake' -e '^  - processors: 0x0000000000000001' "$1" | head -3
        fail=$((fail + 1))
    else
        pass=$((pass + 1))
    fi
}
run() { # run NAME args...: stdout and stderr of nnperf args into $work/NAME.out/.err, then both checked
    name=$1
    shift
    "$nn" "$@" >"$work/$name.out" 2>"$work/$name.err"
    for f in out err; do
        clean "$work/$name.$f" "nnperf $* (std$f)"
        lines "$work/$name.$f" "nnperf $* (std$f)"
    done
}
for m in "$N" "$D"; do
    b=$(basename "$m" .onnx)
    run "$b-table" analyze "$m"
    run "$b-csv" analyze "$m" --format csv
    run "$b-hw" analyze "$m" --hw zcu102-dpu
    run "$b-hwcsv" analyze "$m" --hw zcu102-dpu --format csv
    run "$b-roof" roofline "$m" --hw zcu102-dpu
    run "$b-advise" advise "$m" --hw zcu102-dpu
    run "$b-sweep" sweep "$m" --hw zcu102-dpu --batch 1,2
    run "$b-compare" compare "$m" --hw zcu102-dpu,horizon-j5
done
run map-table map "$N" --target max78000
grep -q 'relu0\\x1b\]0;pwned\\x07' "$work/names-csv.out" && pass=$((pass + 1)) || {
    echo "FAIL: the ESC of a node name is not shown as \\x1b"; fail=$((fail + 1)); }

# the ai8x-synthesis description: one layer per layer, whatever the names and the file name
"$nn" map "$N" --target max78000 --format yaml >"$work/names.yaml" 2>/dev/null
clean "$work/names.yaml" "map --format yaml"
cp models/mcu/cifar10_residual.onnx "$work/a: b #c.onnx"
"$nn" map models/mcu/cifar10_residual.onnx --target max78000 --format yaml >"$work/plain.yaml" 2>/dev/null
"$nn" map "$work/a: b #c.onnx" --target max78000 --format yaml >"$work/colon.yaml" 2>/dev/null
if command -v python3 >/dev/null && python3 -c 'import yaml' 2>/dev/null; then
    for y in names colon; do
        if python3 - "$work/plain.yaml" "$work/$y.yaml" <<'PY'; then pass=$((pass + 1)); else fail=$((fail + 1)); fi
import sys, yaml
want = yaml.safe_load(open(sys.argv[1]))
try:
    got = yaml.safe_load(open(sys.argv[2], encoding="utf-8"))
except Exception as e:
    print(f"FAIL: {sys.argv[2]} is not YAML: {e}")
    sys.exit(1)
if got["layers"] != want["layers"]:
    print(f"FAIL: {sys.argv[2]}: {len(got['layers'])} layers, expected {len(want['layers'])} (the same as the plain model)")
    sys.exit(1)
if sys.argv[2].endswith("colon.yaml") and got["arch"] != "a: b #c":
    print(f"FAIL: arch is {got['arch']!r}, expected 'a: b #c'")
    sys.exit(1)
PY
    done
else
    echo "python3 yaml missing: the YAML layer checks are left to test_hostile_text (libyaml)"
fi
echo "hostile_text: $pass passed, $fail failed"
[ "$fail" -eq 0 ]
