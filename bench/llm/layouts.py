#!/usr/bin/python3
"""The same decoder in two layouts: a torch-style export (hf: repeat-KV as Unsqueeze -> Expand -> Reshape, the KV
cache as Concat(past, new), decomposed rotary and RMSNorm, a 4-D attention mask) and ONNX Runtime GenAI's layout
(GroupQueryAttention), predicted by `nnperf llm` on a100-80gb at batch 1, 8, 64, 128 and prompt 128, 2048, 32768
(16 generated tokens). Prints one markdown row per model, batch and context: TTFT, TPOT (mean of the 16 steps) and
memory (weights + KV cache + peak activations) of both layouts and their differences (hf vs genai).

The graphs are long-context variants (bench/llm/make_graphs.py --max-pos 32896, into bench/out/llm/long): the
published rotary tables stop at 2048 to 8192 positions, which `nnperf llm` enforces. Most of the grid does not fit
in 80 GB (LLaMA-7B's cache at batch 128 and 32k tokens is 2.2 TB), which `nnperf llm` refuses: the device memory is
set to 1 PB (--set memory.ddr_bytes=1e15) so that every configuration is predicted; the times do not depend on it.

    python3 bench/llm/layouts.py [NNPERF]        (default build/nnperf; builds the graphs when missing)
"""
import json
import os
import subprocess
import sys

NN = sys.argv[1] if len(sys.argv) > 1 else "build/nnperf"
OUT = "bench/out/llm/long"
MODELS = ["llama-7b", "llama-3-8b", "tinyllama-1.1b"]


def rows(model, layout):
    out = subprocess.run([NN, "llm", f"{OUT}/{model}-{layout}.onnx", "--hw", "a100-80gb", "--prompt",
                          "128,2048,32768", "--generate", "16", "--batch", "1,8,64,128", "--set", "memory.ddr_bytes=1e15",
                          "--format", "json"],
                         capture_output=True, text=True, check=True)
    return {(r["batch"], r["prompt"]): r for r in json.loads(out.stdout)["rows"]}


def main():
    os.chdir(os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", ".."))
    for m in MODELS:
        for layout in ("hf", "genai"):
            if not os.path.exists(f"{OUT}/{m}-{layout}.onnx"):
                subprocess.run(["/usr/bin/python3", "bench/llm/make_graphs.py", "--model", m, "--layout", layout,
                                "--max-pos", "32896", "-o", f"{OUT}/{m}-{layout}.onnx"], check=True,
                               stdout=subprocess.DEVNULL)
    print("| model | batch | context | TTFT ms hf / genai | diff | TPOT ms hf / genai | diff "
          "| memory GB hf / genai | diff |")
    print("|---|---:|---:|---:|---:|---:|---:|---:|---:|")
    worst = 0.0
    for m in MODELS:
        hf, ga = rows(m, "hf"), rows(m, "genai")
        for key in sorted(hf):
            h, g = hf[key], ga[key]
            cells = []
            for k, scale, fmt in (("ttft_ms", 1, ".2f"), ("tpot_ms", 1, ".3f"), ("memory_bytes", 1e-9, ".2f")):
                d = 100 * (h[k] - g[k]) / g[k]
                worst = max(worst, abs(d))
                cells.append(f"{h[k] * scale:{fmt}} / {g[k] * scale:{fmt}} | {d:+.1f}%")
            print(f"| {m} | {key[0]} | {key[1]} | " + " | ".join(cells) + " |")
    print(f"\nlargest difference: {worst:.1f}%")


if __name__ == "__main__":
    main()
