#!/bin/sh
# files.sh - -o never replaces a file the command reads (issue 19): a model's external data (weights.bin, also when
# it is missing: a weight-stripped model) is an input like the model itself; the weights are byte-identical after
# the refused run. A SIGTERM or SIGINT while the output is being written removes its temporary (strace injects the
# signal at the fsync of the temporary; skipped where strace cannot trace).
# usage: files.sh NNPERF WORKDIR      (run from the repository root)
set -u
nn=$1
work=$2/nnperf-files.$$
rm -rf "$work"
mkdir -p "$work" || exit 1
trap 'rm -rf "$work"' EXIT
fail=0
pass=0
. "$(dirname "$0")/expect.sh"
case $nn in /*) ;; *) nn=$(pwd)/$nn ;; esac

mkdir -p "$work/ext" || exit 1
cp tests/data/hostile/ext/model.onnx tests/data/hostile/ext/weights.bin "$work/ext/" || exit 1
W=$work/ext/weights.bin
expect 2 "cannot write '$W': it is an input of this command ('$W'); choose another output file" \
    "$nn" annotate "$work/ext/model.onnx" -o "$W"
check "annotate: the weights are byte-identical" cmp -s tests/data/hostile/ext/weights.bin "$W"
expect 2 "cannot write '$W': it is an input of this command ('$W'); choose another output file" \
    "$nn" analyze "$work/ext/model.onnx" --format json -o "$W"
check "analyze: the weights are byte-identical" cmp -s tests/data/hostile/ext/weights.bin "$W"
expect 2 "" "$nn" analyze "$work/ext/model.onnx" --hw horizon-j5 --format csv -o "$W"
check "analyze --hw: the weights are byte-identical" cmp -s tests/data/hostile/ext/weights.bin "$W"
# through a link to the weights, and from another folder
ln -s ext/weights.bin "$work/w-link.bin"
expect 2 "" "$nn" annotate "$work/ext/model.onnx" -o "$work/w-link.bin"
check "through a link: the weights are byte-identical" cmp -s tests/data/hostile/ext/weights.bin "$W"
expect 2 "" sh -c "cd '$work/ext' && '$nn' annotate model.onnx -o weights.bin"
check "relative names: the weights are byte-identical" cmp -s tests/data/hostile/ext/weights.bin "$W"
# the annotated model beside the original, under another name: written, and it still reads its weights
expect 0 "" "$nn" annotate "$work/ext/model.onnx" -o "$work/ext/model-shapes.onnx"
expect 0 "" "$nn" analyze "$work/ext/model-shapes.onnx"
# a weight-stripped copy (weights.bin missing): -o must not create the file its tensors name either
mkdir -p "$work/stripped" && cp tests/data/hostile/ext/model.onnx "$work/stripped/" || exit 1
S=$work/stripped/weights.bin
expect 2 "cannot write '$S': it is an input of this command ('$S'); choose another output file" \
    "$nn" annotate "$work/stripped/model.onnx" -o "$S"
check "no weights.bin created" test ! -e "$work/stripped/weights.bin"
check "no temporary left" sh -c "! ls -A '$work' '$work/ext' '$work/stripped' | grep -q '\.tmp$'"

# calibrate --table: the models the table names (loaded inside the library) and their weights are inputs too (the
# fit's log comes first on standard error; the refusal is its last line)
printf 'model,input,dtype,batch,latency_ms\next/model.onnx,,int8,1,0.5\n' >"$work/table.csv"
for o in "$W" "$work/ext/model.onnx"; do
    expect 2 "" "$nn" calibrate --hw zcu102-dpu --table "$work/table.csv" -o "$o"
    check "calibrate --table -o $o: refused as an input" \
        test "$(tail -n 1 "$work/err")" = "nnperf: cannot write '$o': it is an input of this command ('$o'); choose another output file"
done
check "calibrate --table: the weights are byte-identical" cmp -s tests/data/hostile/ext/weights.bin "$W"
expect 0 "" "$nn" calibrate --hw zcu102-dpu --table "$work/table.csv" -o "$work/cal.yaml"
check "calibrate --table writes elsewhere" test -s "$work/cal.yaml"

# a signal while the output is written: the temporary goes with the command
if command -v strace >/dev/null 2>&1 && strace -f -q -o /dev/null true 2>/dev/null; then
    for sig in TERM INT; do
        printf 'old\n' >"$work/out.json"
        strace -f -q -o /dev/null -e trace=fsync -e inject=fsync:signal=$sig \
            "$nn" analyze models/squeezenet1_1.onnx --format json -o "$work/out.json" >/dev/null 2>&1
        rc=$?
        check "SIG$sig at the fsync ends the command (exit $rc)" test "$rc" -ne 0
        check "SIG$sig: the old output is kept" test "$(cat "$work/out.json")" = old
        check "SIG$sig: no temporary left" sh -c "! ls -A '$work' | grep -q '\.tmp$'"
    done
else
    echo "strace cannot trace here: the signal checks are skipped"
fi

echo "$pass passed, $fail failed"
[ "$fail" -eq 0 ]
