#!/bin/sh
# cli.sh - the CLI side of LLM support: `nnperf llm` (formats, bad options with exit 2 and one line naming the
# problem, nothing half-written) and sweep/compare refusing unbound symbolic dims.
# usage: cli.sh NNPERF DATA_DIR WORKDIR
set -u
nnperf=$1
dir=$2
work=$3/nnperf-llm-cli.$$
mkdir -p "$work" || exit 1
trap 'rm -rf "$work"' EXIT
fail=0
pass=0

# expect RC SUBSTRING-ON-STDERR -- command...
expect() {
    rc=$1
    msg=$2
    shift 2
    "$@" >"$work/out" 2>"$work/err"
    got=$?
    if [ "$got" -ne "$rc" ]; then
        echo "FAIL ($*): exit $got, expected $rc"; cat "$work/err"; fail=$((fail + 1)); return
    fi
    if [ -n "$msg" ] && ! grep -qF -- "$msg" "$work/err"; then
        echo "FAIL ($*): stderr lacks '$msg':"; cat "$work/err"; fail=$((fail + 1)); return
    fi
    pass=$((pass + 1))
}

m=$dir/tiny-llama-hf.onnx
expect 2 "sweep: $m: unbound symbolic input dims 'batch_size' (input 'input_ids' dim 0), 'sequence_length' (input 'input_ids' dim 1)" \
    "$nnperf" sweep "$m" --hw a100-80gb
expect 2 "compare: $m: unbound symbolic input dims 'batch_size'" "$nnperf" compare "$m" --hw a100-80gb
expect 0 "" "$nnperf" sweep "$m" --hw a100-80gb --dim batch_size=1 --dim sequence_length=4 \
    --dim past_sequence_length=2 --dim "past_sequence_length + sequence_length=6"
expect 2 "llm: --hw is required" "$nnperf" llm "$m"
expect 2 "llm: --prompt 'x': expected a whole number from 1 to 16777216" "$nnperf" llm "$m" --hw a100-80gb --prompt x
expect 2 "llm: --generate takes one value" "$nnperf" llm "$m" --hw a100-80gb --generate 3,4
expect 2 "weight dtype 'int3': unknown format (a dtype: int4, int8, fp8" "$nnperf" llm "$m" --hw a100-80gb --weights int3
expect 2 "has no input named 'input_ids'" "$nnperf" llm "$dir/../../../models/resnet18.onnx" --hw a100-80gb
expect 2 "llm: unknown format 'xml'" "$nnperf" llm "$m" --hw a100-80gb --format xml
# a failed run leaves no output file
expect 2 "" "$nnperf" llm "$m" --hw a100-80gb --kv fp7 -o "$work/x.json"
if [ -e "$work/x.json" ]; then echo "FAIL: -o file left behind"; fail=$((fail + 1)); fi
# memory: a model over the device memory (less the runtime's reserve) exits 2 naming both sizes; --allow-offload
# streams the weights that do not fit over the host link; a context over the rotary table's 512 positions exits 2
expect 2 "at batch 16 needs 4.73 MB (weights 271 kB + KV cache 1.05 MB + activations 3.41 MB) but 'a100-80gb' has 1 MB: it" \
    "$nnperf" llm "$m" --hw a100-80gb --prompt 256 --batch 16 --generate 1 --set memory.ddr_bytes=1MB \
    --set memory.reserved_bytes=0
expect 2 "has 2 MB (1 MB after the runtime's reserve of 1 MB): it does not fit" \
    "$nnperf" llm "$m" --hw a100-80gb --prompt 256 --batch 16 --generate 1 --set memory.ddr_bytes=2MB \
    --set memory.reserved_bytes=1MB
expect 0 "" "$nnperf" llm "$m" --hw a100-80gb --prompt 8 --generate 1 --set memory.ddr_bytes=2MB \
    --set memory.reserved_bytes=1.95MB --allow-offload
grep -q "230 kB of weights stream from host memory every forward pass" "$work/out" ||
    { echo "FAIL: no offload"; fail=$((fail + 1)); }
expect 2 "520 tokens is over the model's position limit of 512 tokens (rotary table 'model.rotary_emb.cos_cached'" \
    "$nnperf" llm "$m" --hw a100-80gb --prompt 512 --generate 8
# from a Hugging Face config.json (issue 20's acceptance): models over the memory exit 2 with the sizes
c=$dir/configs
expect 2 "llama-3.1-8b.json: prompt 512 + 128 generated at batch 1 needs 16.2 GB (weights 16.1 GB + KV cache 83.9 MB + activations 33.6 MB) but 'jetson-orin-nano' has 8.59 GB (6.98 GB after the runtime's reserve of 1.61 GB): it does not fit" \
    "$nnperf" llm --config "$c/llama-3.1-8b.json" --hw jetson-orin-nano
expect 2 "llama-2-70b.json: prompt 512 + 128 generated at batch 1 needs 138 GB (weights 138 GB + KV cache 210 MB + activations 67.1 MB) but 'a100-80gb' has 85.9 GB" \
    "$nnperf" llm --config "$c/llama-2-70b.json" --hw a100-80gb
expect 2 "32896 tokens is over the model's position limit of 8192 tokens (rotary table 'cos_cache' [8192, 64])" \
    "$nnperf" llm --config "$c/llama-3-70b.json" --hw a100-80gb --prompt 32768 --weights int4
expect 0 "" "$nnperf" llm --config "$c/llama-3.1-8b.json" --hw jetson-orin-nano --weights int4 --generate 16
expect 2 "llm: give a model or --config, not both" "$nnperf" llm "$m" --config "$c/tiny-llama.json" --hw a100-80gb
expect 2 "llm: no model given" "$nnperf" llm --hw a100-80gb
expect 2 "nope.json: cannot" "$nnperf" llm --config "$c/nope.json" --hw a100-80gb
for f in table json csv html; do
    expect 0 "" "$nnperf" llm "$m" --hw a100-40gb --prompt 8,16 --batch 1,2 --generate 4 --format $f -o "$work/r.$f"
    [ -s "$work/r.$f" ] || { echo "FAIL: empty $f report"; fail=$((fail + 1)); }
done
grep -q '"ttft_ms"' "$work/r.json" || { echo "FAIL: no ttft_ms in JSON"; fail=$((fail + 1)); }
[ "$(wc -l <"$work/r.csv")" -eq 5 ] || { echo "FAIL: CSV has not 4 rows"; fail=$((fail + 1)); }
grep -q "largest batch that fits" "$work/r.table" || { echo "FAIL: table lacks the fit"; fail=$((fail + 1)); }
# the context plot stops at the model's context (issue 21): its position limit, or 2x the generation's end where the
# model has no rotary table to read it from (tiny-llama-genai-nolimit.onnx: the tables behind an Identity)
for x in "$m:512:up to the model's position limit: 512 tokens" \
         "$dir/tiny-llama-genai-nolimit.onnx:96:up to 2x the generation's end (96 tokens)"; do
    f=${x%%:*}; r=${x#*:}; lim=${r%%:*}; note=${r#*:}
    expect 0 "" "$nnperf" llm "$f" --hw a100-80gb --prompt 32 --generate 16 --format html -o "$work/ctx.html"
    python3 - "$work/ctx.html" "$lim" "$note" <<'PY' || { echo "FAIL: context plot of $f"; fail=$((fail + 1)); }
import html, re, sys
page, lim, note = open(sys.argv[1]).read(), int(sys.argv[2]), sys.argv[3]
svg = page[page.index("<title>KV cache against the context</title>"):]
svg = html.unescape(svg[:svg.index("</svg>")])
ticks = re.findall(r'class="tick"[^>]*>([0-9.]+)( [kMGT])?</text>', svg)
xs = [float(v) * {'': 1, ' k': 1e3, ' M': 1e6, ' G': 1e9, ' T': 1e12}[k] for v, k in ticks]
assert note in svg, "no note '%s'" % note
assert xs and max(xs) <= 1.25 * lim, (max(xs), lim)
PY
done
expect 0 "" "$nnperf" llm "$dir/tiny-llama-genai-nolimit.onnx" --hw a100-80gb --prompt 32 --generate 16 -o "$work/nl.txt"
grep -q "tokens (memory only: the model's position limit is unknown)" "$work/nl.txt" ||
    { echo "FAIL: the largest context of a model without a position limit"; fail=$((fail + 1)); }
# --serve: a closed loop of 8 requests runs near the static batch-8 prediction of the same report (8 x 128 tokens
# over its end-to-end time), every one of 1000 requests finishes, and the options are checked
s="$nnperf llm --config $c/llama-3.1-8b.json --hw a100-80gb --batch 8 --generate 128 --serve --concurrency 8"
expect 0 "" $s --format json -o "$work/serve.json"
python3 - "$work/serve.json" <<'PY' || { echo "FAIL: serving at concurrency 8"; fail=$((fail + 1)); }
import json, sys
d = json.load(open(sys.argv[1]))
s, r = d["serve"], d["summary"]
static = r["batch"] * r["generate"] / (r["e2e_ms"] / 1e3)
assert s["requests"] == 1000 and s["concurrency"] == 8, s
assert abs(s["output_tokens_per_s"] / static - 1) < 0.10, (s["output_tokens_per_s"], static)
assert s["ttft_ms"]["p50"] <= s["ttft_ms"]["p99"] and 0 < s["kv_occupancy_peak"] <= 1, s
PY
expect 0 "" $s -o "$work/serve.txt"
grep -q "time to first token .* ms .* ms .* ms" "$work/serve.txt" && grep -q "KV cache occupancy" "$work/serve.txt" ||
    { echo "FAIL: serving table"; fail=$((fail + 1)); }
expect 2 "llm: --serve needs --rate R (requests/s), --concurrency C or --trace FILE" "$nnperf" llm --config "$c/tiny-llama.json" \
    --hw a100-80gb --serve
expect 2 "go with --serve" "$nnperf" llm --config "$c/tiny-llama.json" --hw a100-80gb --rate 3
expect 2 "llm: --rate '0': expected" "$nnperf" llm --config "$c/tiny-llama.json" --hw a100-80gb --serve --rate 0
expect 0 "" "$nnperf" llm --config "$c/tiny-llama.json" --hw a100-80gb --prompt 64 --generate 32 --serve --rate 50 --requests 200 \
    --lengths exponential --seed 7 --block-size 16 --chunk 512 --max-batch 32
# a trace file of requests, and the largest rate meeting a latency target
expect 0 "" "$nnperf" llm --config "$c/llama-3.1-8b.json" --hw a100-80gb --serve --trace "$dir/trace.csv" \
    --slo-ttft 200 --slo-tpot 40 --slo-percentile 99 -o "$work/trace.txt"
grep -q "arrivals and lengths of the trace" "$work/trace.txt" &&
    grep -q "latency target           p99 TTFT <= 200.000 ms TPOT <= 40.000 ms: met up to" "$work/trace.txt" ||
    { echo "FAIL: trace and latency target"; cat "$work/trace.txt"; fail=$((fail + 1)); }
expect 2 "llm: --serve needs --rate R (requests/s), --concurrency C or --trace FILE, one of them" "$nnperf" llm \
    --config "$c/tiny-llama.json" --hw a100-80gb --serve --trace "$dir/trace.csv" --rate 3
expect 2 "llm: unknown slo percentile '95' (90 or 99" "$nnperf" llm --config "$c/tiny-llama.json" --hw a100-80gb --serve --rate 3 \
    --slo-ttft 100 --slo-percentile 95
expect 2 "go with --serve" "$nnperf" llm --config "$c/tiny-llama.json" --hw a100-80gb --slo-ttft 100
expect 2 "cli.sh:5: the CSV header has no 'arrival_s' column" "$nnperf" llm --config "$c/tiny-llama.json" \
    --hw a100-80gb --prompt 64 --generate 8 --serve --trace "$dir/cli.sh"
# speculative decoding: a draft model and an acceptance rate
expect 0 "" "$nnperf" llm --config "$c/llama-3.1-8b.json" --hw a100-80gb --generate 16 --draft "$c/gemma-3-1b.json" \
    --accept 0.8 -o "$work/spec.txt"
grep -q "speculative decoding     4 draft tokens accepted at 0.8: 3.362 tokens per target step" "$work/spec.txt" ||
    { echo "FAIL: speculative decoding"; cat "$work/spec.txt"; fail=$((fail + 1)); }
expect 2 "llm: --draft MODEL and --accept A go together" "$nnperf" llm --config "$c/tiny-llama.json" \
    --hw a100-80gb --accept 0.5
# tensor and pipeline parallelism (issue 20's acceptance): Llama-3-70B fp16 on the 8x H100 preset exits 2 with the
# sizes on one device and fits with --tp 2 and --tp 4
expect 2 "llama-3-70b.json: prompt 512 + 128 generated at batch 1 needs 141 GB (weights 141 GB + KV cache 210 MB + activations 67.1 MB) but '8x-h100-sxm' has 85.9 GB per device" \
    "$nnperf" llm --config "$c/llama-3-70b.json" --hw 8x-h100-sxm
for tp in 2 4; do
    expect 0 "" "$nnperf" llm --config "$c/llama-3-70b.json" --hw 8x-h100-sxm --tp $tp -o "$work/tp$tp.txt"
    grep -q "memory per device .*: fits" "$work/tp$tp.txt" && grep -q "(tensor $tp x pipeline 1 = $tp devices)" "$work/tp$tp.txt" ||
        { echo "FAIL: --tp $tp"; cat "$work/tp$tp.txt"; fail=$((fail + 1)); }
done
expect 2 "tensor parallelism 2 needs the decoder built as one device's shard" "$nnperf" llm "$m" --hw 8x-h100-sxm --tp 2
expect 2 "= 16 devices, but '8x-h100-sxm' has 8 (interconnect.devices" "$nnperf" llm --config "$c/llama-3-70b.json" \
    --hw 8x-h100-sxm --tp 8 --pp 2
expect 2 "tensor parallelism 2 x pipeline parallelism 1 = 2 devices, but 'a100-80gb' has 1" "$nnperf" llm \
    --config "$c/tiny-llama.json" --hw a100-80gb --tp 2
# pipeline micro-batches: as many as stages unless --microbatches; refused without --pp
expect 0 "" "$nnperf" llm --config "$c/llama-3-70b.json" --hw 8x-h100-sxm --tp 2 --pp 2 --batch 8 -o "$work/pp.txt"
grep -q "(tensor 2 x pipeline 2 = 4 devices; 2 micro-batches)" "$work/pp.txt" ||
    { echo "FAIL: --pp 2 micro-batches"; cat "$work/pp.txt"; fail=$((fail + 1)); }
expect 2 "micro-batches (4) need pipeline parallelism (--pp above 1)" "$nnperf" llm --config "$c/tiny-llama.json" \
    --hw a100-80gb --microbatches 4
echo "$pass passed, $fail failed"
[ "$fail" -eq 0 ]
