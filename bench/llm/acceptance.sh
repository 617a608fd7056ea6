#!/usr/bin/env bash
# acceptance.sh - predicted vs published LLM inference numbers (docs/llm.md, docs/sources.md): builds the
# weight-free decoder graphs into bench/out/llm (bench/llm/make_graphs.py, Debian's python3-onnx) when missing,
# runs `nnperf llm` and prints one row per published number with the error.
# usage: bash bench/llm/acceptance.sh [NNPERF]      (default build/nnperf)
set -euo pipefail
cd "$(dirname "$0")/../.."
nnperf=${1:-build/nnperf}
out=bench/out/llm
[ -f $out/opt-13b-hf.onnx ] || /usr/bin/python3 bench/llm/make_graphs.py --all $out >/dev/null
# field of the JSON summary: llm MODEL HW PROMPT GENERATE KEY
get() {
    "$nnperf" llm "$out/$1.onnx" --hw "$2" --prompt "$3" --generate "$4" --format json |
        python3 -c "import json,sys; print(json.load(sys.stdin)['summary']['$5'])"
}
row() { # name published predicted
    python3 -c "p=$2; q=$3; print(f'| $1 | {p:g} | {q:.2f} | {100*(q-p)/p:+.1f}% |')"
}
echo "| row | published | predicted | error |"
echo "|---|---:|---:|---:|"
for layout in hf genai; do
    row "TensorRT-LLM v0.5 LLaMA-7B fp16 A100, TTFT ms, 128 tokens ($layout layout)" 16 \
        "$(get llama-7b-$layout a100-80gb 128 1 ttft_ms)"
    row "TensorRT-LLM v0.5 LLaMA-7B fp16 A100, TTFT ms, 2048 tokens ($layout layout)" 133 \
        "$(get llama-7b-$layout a100-80gb 2048 1 ttft_ms)"
done
row "FasterTransformer OPT-13B shape A100-40GB, prefill ms, 512 tokens" 63.17 \
    "$(get opt-13b-hf a100-40gb 512 10 ttft_ms)"
row "FasterTransformer OPT-13B shape A100-40GB, decode ms per token" 22.0 \
    "$(get opt-13b-hf a100-40gb 512 10 tpot_ms)"
row "LLaMA-7B fp16 KV cache bytes after 512 + 128 tokens (exact)" 335544320 \
    "$(get llama-7b-hf a100-80gb 512 128 kv_cache_bytes)"
row "Llama-3-8B (8 KV heads) fp16 KV cache bytes after 512 + 128 tokens (exact: a quarter)" 83886080 \
    "$(get llama-3-8b-hf a100-80gb 512 128 kv_cache_bytes)"
echo
echo "| model, a100-80gb | hf layout | genai layout | difference |"
echo "|---|---:|---:|---:|"
for m in llama-7b tinyllama-1.1b llama-3-8b; do
    for what in "ttft_ms 512" "tpot_ms 512"; do
        set -- $what
        h=$(get $m-hf a100-80gb $2 128 $1)
        g=$(get $m-genai a100-80gb $2 128 $1)
        python3 -c "h=$h; g=$g; print(f'| $m $1 (prompt $2) | {h:.3f} | {g:.3f} | {100*(h-g)/g:+.1f}% |')"
    done
done
