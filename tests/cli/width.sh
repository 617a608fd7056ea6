#!/bin/sh
# Every line of `hw list`, `--help`, `help analyze`, a sweep, compare and roofline table fits the width (80 and 100
# columns: $COLUMNS for the first three, --width for the tables), and the sweep leaves out its constant columns (named in the note)
# before a column that varies (issue 21).
# usage: width.sh NNPERF WORKDIR   (run from the source root)
set -u
nn=$1
work=$2/width
mkdir -p "$work"
fail=0
fits() { # WIDTH WHAT FILE
    long=$(awk -v w="$1" 'length > w { n++ } END { print n + 0 }' "$3")
    lines=$(wc -l <"$3")
    if [ "$lines" -lt 3 ] || [ "$long" -ne 0 ]; then
        echo "FAIL: $2 at $1 columns: $long of $lines lines are wider"
        fail=1
    fi
}
for w in 80 100; do
    COLUMNS=$w "$nn" hw list >"$work/hw" 2>&1 || { echo "FAIL: hw list exit $?"; fail=1; }
    fits "$w" "hw list" "$work/hw"
    COLUMNS=$w "$nn" --help >"$work/help" 2>&1
    fits "$w" "--help" "$work/help"
    COLUMNS=$w "$nn" help analyze >"$work/analyze" 2>&1
    fits "$w" "help analyze" "$work/analyze"
    "$nn" sweep models/resnet18.onnx --hw rdk-s100 --batch 1,2 --set memory.sram_bytes=1MiB,16MiB --width "$w" \
        >"$work/sweep" 2>&1 || { echo "FAIL: sweep exit $?"; fail=1; }
    fits "$w" "sweep" "$work/sweep"
    grep -q '^batch ' "$work/sweep" || { echo "FAIL: sweep at $w: the constant platform and dtype columns stay"; fail=1; }
    grep -q 'settings' "$work/sweep" || { echo "FAIL: sweep at $w: the varying settings column is left out"; fail=1; }
    grep -q 'In every row: platform rdk-s100, dtype int8' "$work/sweep" ||
        { echo "FAIL: sweep at $w: the note does not name the constant columns"; fail=1; }
    # compare: six platforms in blocks, a long model name, a cell that cannot be predicted (its reason wrapped), the
    # power caveat; roofline: long layer names
    "$nn" compare models/resnet50.onnx models/mobilenet_v3_large.onnx --hw zcu102-dpu,horizon-j5,jetson-orin-nano,coral-usb,a100-80gb,tx2-maxn \
        --width "$w" -q >"$work/compare" 2>&1 || { echo "FAIL: compare exit $?"; fail=1; }
    fits "$w" "compare" "$work/compare"
    test "$(grep -c '^FPS$' "$work/compare")" -ge 2 || { echo "FAIL: compare at $w: the platforms are not in blocks"; fail=1; }
    grep -q 'dynamic power only (no idle power given): a100-80gb, tx2-maxn' "$work/compare" ||
        { echo "FAIL: compare at $w: no power caveat"; fail=1; }
    "$nn" compare models/resnet50.onnx --hw zcu102-dpu,l4 --dtype fp16 --width "$w" -q >"$work/compare2" 2>&1 ||
        { echo "FAIL: compare --dtype fp16 exit $?"; fail=1; }
    fits "$w" "compare with a cell that cannot be predicted" "$work/compare2"
    grep -q "has no fp16 peak" "$work/compare2" || { echo "FAIL: compare at $w: the reason is lost"; fail=1; }
    "$nn" roofline models/swin_t.onnx --hw zcu102-dpu --width "$w" >"$work/roofline" 2>/dev/null ||
        { echo "FAIL: roofline exit $?"; fail=1; }
    fits "$w" "roofline" "$work/roofline"
done
# a preset name is the first word of a line that does not start with a blank (the bash completion relies on it)
COLUMNS=80 "$nn" hw list | awk 'NR>1 && /^[^ ]/ && NF>1 { print $1 }' >"$work/names"
grep -qx 'rdk-s100' "$work/names" || { echo "FAIL: hw list at 80: rdk-s100 not a line's first word"; fail=1; }
# no limit into a file / without a terminal: the lines as before, one per preset
env -u COLUMNS "$nn" hw list >"$work/wide"
test "$(grep -c '^rdk-s100 .*[A-Za-z]' "$work/wide")" -eq 1 || { echo "FAIL: hw list without a width"; fail=1; }
[ $fail = 0 ] && echo "width: ok"
exit $fail
