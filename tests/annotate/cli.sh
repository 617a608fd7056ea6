#!/bin/sh
# nnperf annotate on the command line: the output is written whole or not at all; bad input and usage exit 2 with
# a message naming the problem and leave no file behind.
# usage: cli.sh NNPERF REPO_ROOT WORKDIR
set -u
NN=$1 ROOT=$2 W=$3
rm -rf "$W" && mkdir -p "$W"
pass=0 fail=0
# expect EXIT MESSAGE-SUBSTRING ARGS... (an empty MESSAGE-SUBSTRING: anything on stderr, nothing included)
expect() {
  want=$1 msg=$2
  shift 2
  "$NN" "$@" >"$W/out" 2>"$W/err"
  got=$?
  if [ "$got" -ne "$want" ] || { [ -n "$msg" ] && ! grep -qF -- "$msg" "$W/err"; }; then
    echo "FAIL: nnperf $*: exit $got (want $want), stderr: $(head -c 300 "$W/err") (want '$msg')"
    fail=$((fail + 1))
  else
    pass=$((pass + 1))
  fi
}
check() { if eval "$1"; then pass=$((pass + 1)); else echo "FAIL: $2"; fail=$((fail + 1)); fi; }

M=$ROOT/models/resnet18.onnx
expect 2 "no output given" annotate "$M"
expect 2 "option '--format' does not apply to annotate" annotate "$M" --format json -o "$W/x.onnx"
expect 2 "no model given" annotate -o "$W/x.onnx"
expect 2 "README.md: not an ONNX model" annotate "$ROOT/README.md" -o "$W/readme.onnx"
check "[ ! -e '$W/readme.onnx' ]" "a refused model left an output file"
expect 2 "no input named 'nope'" annotate "$M" --input nope=1x3x8x8 -o "$W/x.onnx"
expect 2 "cannot write" annotate "$M" -o "$W/no/such/dir/x.onnx"
expect 2 "input" annotate "$M" -o "$M"
# an existing output is replaced only by a complete one
printf 'old' >"$W/keep.onnx"
expect 2 "README.md" annotate "$ROOT/README.md" -o "$W/keep.onnx"
check "[ \"\$(cat '$W/keep.onnx')\" = old ]" "a failed run changed the existing output"
# a bound input: the annotated model says so; written to standard output with -o -
expect 0 "" annotate "$M" --input input=4x3x224x224 -o "$W/b4.onnx"
"$NN" annotate "$M" --input input=4x3x224x224 -o - >"$W/b4-stdout.onnx" 2>/dev/null
check "cmp -s '$W/b4.onnx' '$W/b4-stdout.onnx'" "-o - wrote other bytes than -o FILE"
"$NN" analyze "$W/b4.onnx" --format json -o "$W/b4.json" 2>/dev/null
check "grep -q '\"name\":\"output\",\"dtype\":\"float32\",\"shape\":\[4,1000\]' '$W/b4.json'" \
  "the annotated model's output is not 4x1000"
# strict: the decoder's unbound dims are warnings
expect 1 "unbound symbolic input dims" annotate "$ROOT/tests/data/llm/tiny-llama-hf.onnx" --strict -o "$W/llama.onnx"
# --costs and --hw go together
expect 2 "--costs needs --hw" annotate "$M" --costs -o "$W/c.onnx"
expect 2 "--hw is for --costs" annotate "$M" --hw rdk-s100 -o "$W/c.onnx"
expect 2 "rdk-s10" annotate "$M" --costs --hw rdk-s10 -o "$W/c.onnx"
check "[ ! -e '$W/c.onnx' ]" "a refused --costs run left an output file"
expect 0 "" annotate "$M" --costs --hw rdk-s100 --batch 2 -o "$W/c.onnx"
check "grep -q 'ms per run on rdk-s100 (int8, batch 2)' '$W/c.onnx'" "no cost with the batch in the costed model"
echo "$pass passed, $fail failed"
[ "$fail" -eq 0 ]
