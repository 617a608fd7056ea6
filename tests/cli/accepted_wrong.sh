#!/bin/sh
# accepted_wrong.sh - inputs nnperf once took and answered wrongly (issue 19), each now refused with a message that
# names the problem (exit 2): llm dim bindings that are negative, not numbers or past 2^40; a --set key given
# twice; more --set keys than the reports list; more cores per inference than the platform has; a YAML tag; a
# weight-bits file with two defaults; calibrate fitting values its own reader refuses; Range(0, inf, nan); a graph
# input declared with another type than its initializer's data. And --set 'name="a,b"' is one value, not two.
# usage: accepted_wrong.sh NNPERF WORKDIR      (run from the repository root)
set -u
nn=$1
work=$2/nnperf-wrong.$$
rm -rf "$work"
mkdir -p "$work" || exit 1
trap 'rm -rf "$work"' EXIT
fail=0
pass=0
M=models/squeezenet1_1.onnx
L=tests/data/llm/tiny-llama-hf.onnx
HOST=bench/validate/host-cal.yaml

EXPECT_TIMEOUT=120
. "$(dirname "$0")/expect.sh"

for v in batch_size=-7 n=abc n=99999999999999999999 n=-1 "n=1 " =3; do
    expect_has 2 "dim binding '$v'" "$nn" llm "$L" --hw a100-80gb --dim "$v"
done
expect_has 2 "batch_size is one of the LLM's own dims" "$nn" llm "$L" --hw a100-80gb --dim batch_size=4
expect_has 2 "dim 'n' is bound twice" "$nn" llm "$L" --hw a100-80gb --dim n=4 --dim n=5
expect_has 0 "" "$nn" llm "$L" --hw a100-80gb --prompt 64 --generate 8 --dim n=4

expect_has 2 "--set memory.ddr_bandwidth is given twice" "$nn" sweep "$M" --hw zcu102-dpu --set memory.ddr_bandwidth=1G,2G --set memory.ddr_bandwidth=3G,4G
expect_has 2 "--set memory.ddr_bandwidth is given twice" "$nn" analyze "$M" --hw zcu102-dpu --set memory.ddr_bandwidth=1G --set memory.ddr_bandwidth=3G
set --
for k in compute.efficiency.conv compute.efficiency.gemm compute.efficiency.matmul compute.efficiency.attention \
    compute.efficiency.rnn compute.efficiency.eltwise compute.efficiency.activation compute.efficiency.pool \
    compute.efficiency.norm compute.efficiency.reduce compute.efficiency.softmax compute.efficiency.resize \
    compute.efficiency.data compute.efficiency.view compute.efficiency.quant compute.efficiency.generator \
    compute.efficiency.control; do
    set -- "$@" --set "$k=0.5"
done
expect_has 2 "more than 16 platform keys set" "$nn" analyze "$M" --hw zcu102-dpu "$@"
expect_has 2 "compute.cores_per_inference: 4096 cores per inference, but the platform has 3" "$nn" analyze "$M" --hw zcu102-dpu --set compute.cores_per_inference=4096
expect_has 0 "" "$nn" analyze "$M" --hw zcu102-dpu --set 'name="a,b"' --format json -o "$work/q.json"
grep -q '"platform": *"a,b"' "$work/q.json" && pass=$((pass + 1)) || { echo "FAIL: --set name=\"a,b\" is not the name a,b"; fail=$((fail + 1)); }
expect_has 0 "" "$nn" sweep "$M" --hw zcu102-dpu --set "name=\"a,b\",'c,d'" --format csv -o "$work/q.csv"
[ "$(grep -c '^"a,b",\|^"c,d",' "$work/q.csv")" -eq 2 ] && pass=$((pass + 1)) || { echo "FAIL: sweep name=\"a,b\",'c,d' is not two names"; cat "$work/q.csv"; fail=$((fail + 1)); }

expect_has 2 "yaml tags (tag:yaml.org,2002:str) are not supported" "$nn" analyze "$M" --hw zcu102-dpu --set 'memory.ddr_bandwidth=!!str 16G'
sed 's/^\(  *ddr_bandwidth:\) /\1 !!str /' presets/zcu102-dpu.yaml >"$work/tag.yaml"
grep -q '!!str' "$work/tag.yaml" && expect_has 2 "yaml tags" "$nn" hw show "$work/tag.yaml"

printf 'default: 4\nconv1: 8\ndefault: 2\n' >"$work/bits.yaml"
expect_has 2 "bits.yaml:3: key 'default': the default is already given on line 1" "$nn" map models/mcu/mnist_ai85net5.onnx --weight-bits-file "$work/bits.yaml"

# a profile whose runs last 200 s: the unexplained time per layer is past overhead.per_layer_s's 1 s
sed 's/"dur":[0-9]*,\("ts":[0-9]*,"ph":"X","name":"model_run"\)/"dur":200000000,\1/' tests/data/ort_profile_small.json >"$work/slow.json"
expect_has 2 "overhead.per_layer_s: must be between 0 and 1 seconds" "$nn" calibrate --hw "$HOST" -o "$work/cal.yaml" "$M=$work/slow.json"
[ ! -e "$work/cal.yaml" ] && pass=$((pass + 1)) || { echo "FAIL: calibrate wrote a file its reader refuses"; fail=$((fail + 1)); }
expect_has 0 "" "$nn" calibrate --hw "$HOST" -o "$work/cal.yaml" "$M=tests/data/ort_profile_small.json"
expect_has 0 "" "$nn" hw show "$work/cal.yaml"

# a Range of non-finite bounds, and a graph input declared float32 whose initializer holds int64 (tests/data/text)
expect_has 2 "node 'range' (Range): start 0, limit inf and delta nan must be finite" "$nn" analyze tests/data/text/range_nan.onnx
expect_has 2 "graph input 'w' is declared float32, but its initializer holds int64" "$nn" analyze tests/data/text/dtype_mismatch.onnx

echo "accepted_wrong: $pass passed, $fail failed"
[ "$fail" -eq 0 ]
