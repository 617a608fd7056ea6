#!/usr/bin/env python3
"""rows_from_measure.py - dataset rows from measure_torch.py's output (bench/gpu/README.md says which rows, and why
every one is a test row).

usage: python3 bench/gpu/rows_from_measure.py [--h200] [MEASURE_JSON [LATER_RUN_JSON...]]
  H100 (default bench/gpu/h100_measure.json and h100_measure_2/3/4.json): writes bench/fidelity/data/h100_torch.csv
  (the first run's networks), bench/fidelity/data/h100_torch_unseen.csv (the later runs': networks never measured
  before) and bench/llm/measured_h100.csv (the decoders of every run)
  --h200 (default bench/gpu/h200_measure.json and h200_measure_2.json, the fifth run): writes
  bench/fidelity/data/h200_torch.csv (every network) and bench/llm/measured_h200.csv; and from h200_measure_fp32.json
  (the sixth run) bench/fidelity/data/h200_torch_fp32.csv
"""
import json
import math
import os
import sys

ROOT = os.path.normpath(os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", ".."))
CNN_HEAD = "preset,model,input,dtype,batch,threads,quantity,value,unit,includes,board,software,source,split\n"
LLM_HEAD = "model,gpu,dtype,batch,prompt,generate,quantity,value,eager_value,software,split\n"
# per GPU: its preset, the board as the rows name it, the run's date, the raw outputs, and the files written
GPUS = {
    "h100": dict(preset="h100-sxm", board="{gpu} (SXM5; 700 W power limit; 1980 MHz max SM clock)", date="2026-11-27",
                 runs=["h100_measure.json", "h100_measure_2.json", "h100_measure_3.json", "h100_measure_4.json"]),
    "h200": dict(preset="h200-sxm", date="2026-11-28", runs=["h200_measure.json", "h200_measure_2.json"],
                 board="{gpu} (SXM 141GB; 700 W power limit; 1980 MHz max SM clock; driver 580.159.04)"),
}


def dtype(env):
    """the run's precision as the dataset names it (the sixth run's --fp32; fp16 before)"""
    return "fp32" if env.get("dtype") == "float32" else "fp16"


def software(env):
    prec = "FP32 (PyTorch's defaults: TF32 convolutions and FP32 matrix products)" if dtype(env) == "fp32" else "FP16"
    return (f"PyTorch {env['torch']} torchvision {env['torchvision']} CUDA {env['cuda']} cuDNN {env['cudnn']}; "
            f"{prec} channels-last; cudnn.benchmark; CUDA graph")


def model_path(name):
    """the network's weight-stripped ONNX file: models/ or, for those it lacks, bench/fidelity/data/models/"""
    p = f"models/{name}.onnx"
    return p if os.path.exists(os.path.join(ROOT, p)) else f"bench/fidelity/data/models/{name}.onnx"


def write_cnns(path, head, runs, g):
    src = f"bench/gpu/measure_torch.py (this repository; run {g['date']})"
    with open(path, "w") as f:
        f.write(head + CNN_HEAD)
        for m in runs:
            board = g["board"].format(gpu=m["env"]["gpu"])
            for r in m["cnn"]:
                f.write(f"{g['preset']},{model_path(r['model'])},1x3x{r['size']}x{r['size']},{dtype(m['env'])},{r['batch']},1,"
                        f"latency,{r['graph_ms']:.4f},ms,one forward pass of the batch replayed as a CUDA graph (input "
                        f"in GPU memory; no copy or pre-processing; median of 7 trials),{board},{software(m['env'])},"
                        f"{src},test\n")


def write_llms(path, head, runs, gpu):
    with open(path, "w") as f:
        f.write(head + LLM_HEAD)
        for m in runs:
            env = m["env"]
            sw = (f"PyTorch {env['torch']} CUDA {env['cuda']}; FP16; scaled_dot_product_attention; eager prefill; "
                  "decode steps as CUDA graphs")
            for r in m.get("llm", []):
                cfg = r.get("model", "llama-3.1-8b")
                if r["kind"] == "first_token":
                    f.write(f"{cfg},{gpu},fp16,1,{r['prompt']},1,ttft_ms,{r['ms']:.3f},{r['ms']:.3f},{sw},test\n")
                else:
                    eager = "" if math.isnan(r["out_tok_s"]) else f"{r['out_tok_s']:.2f}"
                    f.write(f"{cfg},{gpu},fp16,{r['batch']},{r['prompt']},{r['generate']},out_tok_s,"
                            f"{r['graph_out_tok_s']:.2f},{eager},{sw},test\n")


def main():
    args = sys.argv[1:]
    gpu = "h200" if "--h200" in args else "h100"
    g = GPUS[gpu]
    paths = [a for a in args if a != "--h200"] or [os.path.join(ROOT, "bench", "gpu", n) for n in g["runs"]]
    runs = [json.load(open(p)) for p in paths]
    data = os.path.join(ROOT, "bench", "fidelity", "data")
    llm_csv = os.path.join(ROOT, "bench", "llm", f"measured_{gpu}.csv")
    if gpu == "h200":
        fp32 = os.path.join(ROOT, "bench", "gpu", "h200_measure_fp32.json")
        write_cnns(os.path.join(data, "h200_torch_fp32.csv"),
                   "# Measured on an NVIDIA H200 SXM 141GB with PyTorch in FP32: the sixth run (bench/gpu/README.md, \"Sixth\n"
                   "# run\": the rule fixed and committed before the run). The first run's 16 torchvision networks with PyTorch's\n"
                   "# default TF32 settings, a test of the runtime files' compute.tf32_classes; every row `test`.\n"
                   "# Generated by bench/gpu/rows_from_measure.py --h200 from bench/gpu/h200_measure_fp32.json.\n",
                   [json.load(open(fp32))], g)
        write_cnns(os.path.join(data, "h200_torch.csv"),
                   "# Measured on an NVIDIA H200 SXM 141GB with PyTorch: the fifth run (bench/gpu/README.md, \"Fifth run\": the\n"
                   "# rule fixed and committed before the run and before any H200 prediction). The 39 torchvision networks the\n"
                   "# H100 runs measured, a blind test of presets/h200-sxm.yaml and presets/runtimes/h200-sxm-pytorch.yaml,\n"
                   "# written from documents; every row `test`, the CUDA-graph time.\n"
                   "# Generated by bench/gpu/rows_from_measure.py --h200 from bench/gpu/h200_measure.json and h200_measure_2.json.\n",
                   runs, g)
        write_llms(llm_csv,
                   "# Decoders (random FP16 weights) measured on an NVIDIA H200 SXM 141GB with PyTorch, the fifth run\n"
                   "# (bench/gpu/README.md; every row `test`): Llama-3.1-8B, Qwen2.5-7B, Mistral-7B, Phi-3-mini-4k, Llama-2-7B,\n"
                   "# the H100 rows' quantities (bench/llm/measured_h100.csv says what each is).\n"
                   "# Generated by bench/gpu/rows_from_measure.py --h200; predicted by bench/gpu/predict_llm.py --gpu h200.\n",
                   runs, gpu)
        return
    write_cnns(os.path.join(data, "h100_torch.csv"),
               "# Measured on an NVIDIA H100 SXM5 80GB with PyTorch (bench/gpu/README.md: how, and the rule fixed before\n"
               "# the measurement: every row is `test`, one latency row per network and batch, the CUDA-graph time).\n"
               "# Generated by bench/gpu/rows_from_measure.py from bench/gpu/h100_measure.json.\n", runs[:1], g)
    if len(runs) > 1:
        write_cnns(os.path.join(data, "h100_torch_unseen.csv"),
                   "# The second and third H100 runs (bench/gpu/README.md, \"Second run\", \"Third run\": each rule fixed and\n"
                   "# committed before its run): the 11 torchvision networks of models/ that the first run left out, then 12\n"
                   "# more torchvision networks (ONNX files in bench/fidelity/data/models/), none measured or scored before, a\n"
                   "# blind test of presets/runtimes/h100-sxm-pytorch.yaml; every row `test`, the CUDA-graph time.\n"
                   "# Generated by bench/gpu/rows_from_measure.py from bench/gpu/h100_measure_2.json and h100_measure_3.json.\n",
                   runs[1:], g)
    write_llms(llm_csv,
               "# Decoders (random FP16 weights) measured on an NVIDIA H100 SXM5 80GB with PyTorch (bench/gpu/README.md;\n"
               "# every row `test`): Llama-3.1-8B in the first run; Phi-3-mini-4k and Qwen2.5-7B in the second, Mistral-7B\n"
               "# and Llama-2-7B in the fourth (each never measured before its run). ttft_ms: the prompt's prefill at\n"
               "# batch 1, eager (the host's kernel launches included); out_tok_s: a static batch, the prefill then each\n"
               "# decode step as a CUDA graph; eager_value: every step launched from Python (empty where the run left it\n"
               "# out).\n"
               "# Generated by bench/gpu/rows_from_measure.py; predicted by bench/gpu/predict_llm.py.\n", runs, gpu)


if __name__ == "__main__":
    main()
