/* cli_table.c - the command table and the option table (rows in options.def): what the parser, the help, the man
 * page and the completion read. No code here. */
#include <string.h>

#include "cli.h"

const struct cli_option cli_options[OPT_COUNT] = {
#define OPT(id, ...) [OPT_##id] = __VA_ARGS__,
#include "options.def"
#undef OPT
};

const char *const cli_group_titles[CLI_G_COUNT] = {
    [CLI_G_OPTIONS] = "options", [CLI_G_SHAPES] = "shapes",   [CLI_G_PREDICT] = "platform and prediction",
    [CLI_G_OUTPUT] = "output",   [CLI_G_GENERAL] = "general",
};

#define EXIT_NOTE "exit codes: 0 ok, 2 bad input or usage"

const struct cli_cmd cli_cmds[CMD_COUNT] = {
    [CMD_ANALYZE] =
        {"analyze", "shapes, types and per-node costs of an ONNX model; with --hw, its latency",
         "nnperf analyze MODEL.onnx [options]",
         "Infers every tensor's shape and type and counts per-node MACs, FLOPs, parameters and bytes. "
         "With --hw, predicts latency and throughput on a platform (docs/prediction.md). The html "
         "format is a self-contained page with plots (it needs no network); with --hw it has an "
         "Advice tab. With --hw, the trace format is the predicted timeline as Chrome trace-event JSON "
         "(open it in ui.perfetto.dev or chrome://tracing beside a measured profile).",
         "exit codes: 0 ok, 1 warnings under --strict, 2 bad input or usage", "table,json,csv,html,trace",
         CLI_OPERAND_MODEL, "model", 1, 1},
    [CMD_ANNOTATE] =
        {"annotate",
         "write the model with every inferred shape (and with --costs each node's cost) for Netron",
         "nnperf annotate MODEL.onnx -o OUT.onnx [--costs --hw P] [options]",
         "Writes the model with what the analysis inferred: every node output's type and shape as value_info "
         "(symbols by name as dim_param, concrete dims as dim_value), the inputs and outputs with their "
         "inferred types, If/Loop bodies too, so that Netron shows a shape on every edge. With --costs --hw "
         "P, "
         "each node's doc_string also holds its predicted time per run, share of the latency, bound and "
         "layer "
         "(after fusion), which Netron shows when the node is clicked, and the model's metadata the summary "
         "(nnperf.latency_ms, nnperf.time_by_bound, ...). Everything else is copied byte for byte: weights "
         "are "
         "untouched; external data locations are rewritten relative to OUT.onnx's folder when it is another "
         "folder, and refused when a data file lies outside it (ONNX reads external data only inside a "
         "model's "
         "folder: write OUT.onnx beside the model or above it, or copy the data files beside it). -o is "
         "required "
         "(- for standard output, where locations stay as they are).",
         "exit codes: 0 ok, 1 warnings under --strict, 2 bad input or usage", NULL, CLI_OPERAND_MODEL,
         "model", 1, 1},
    [CMD_COMPARE] =
        {"compare", "FPS and latency of models x platforms",
         "nnperf compare MODEL.onnx... --hw P1,P2,... [options]",
         "The model x platform matrix of FPS and latency (QuTiBench's heatmap). A platform without "
         "the dtype shows n/a. The html report adds latency-vs-throughput lines over batches 1, 2, 4, "
         "8, 16 and, with --accuracy, the accuracy pareto front.",
         EXIT_NOTE, "table,json,csv,html", CLI_OPERAND_MODEL, "model", 1, CLI_MAX_LIST},
    [CMD_SWEEP] = {"sweep", "latency vs throughput over batch sizes and dtypes",
                   "nnperf sweep MODEL.onnx --hw P[,P2...] --batch 1,2,4,8 [--dtype int8,fp16] [options]",
                   "Latency and throughput for every (platform, dtype, batch) configuration; the model is "
                   "analysed once.",
                   EXIT_NOTE, "table,json,csv", CLI_OPERAND_MODEL, "model", 1, 1},
    [CMD_ROOFLINE] =
        {"roofline", "per-layer intensity and attained performance vs ceilings",
         "nnperf roofline MODEL.onnx --hw P [options]",
         "Each layer's arithmetic intensity (ops per DDR byte) and attained ops/s against the "
         "platform's ceilings. For a picture: nnperf analyze MODEL --hw P --plot roofline -o r.svg",
         EXIT_NOTE, "table,json,csv", CLI_OPERAND_MODEL, "model", 1, 1},
    [CMD_HW] =
        {"hw", "list the built-in platforms, show one as YAML",
         "nnperf hw list\nnnperf hw show NAME|FILE.yaml",
         "Platform descriptions (docs/platform-format.md). list: the built-in presets with name, peak "
         "INT4/INT8/FP16/FP32 (TOPS, 1 MAC = 2 ops), DDR GB/s and description. show: a preset's YAML text "
         "as shipped (with its sources), or a YAML file checked and written back in normal form (every "
         "error names file, line and key); keys whose values are assumptions are marked.",
         EXIT_NOTE, NULL, CLI_OPERAND_WORD, "argument", 1, 2},
    [CMD_PROBE] =
        {"probe", "measure this machine's peak ops/s and memory bandwidth, write a platform YAML",
         "nnperf probe [-o host.yaml] [--seconds N]",
         "Measures this machine on one thread and writes a platform description named 'host' (YAML, "
         "docs/platform-format.md): fp32 peak (a vectorized FMA loop, AVX-512 or AVX2 when the CPU "
         "has them), int8 (a compiled int8 multiply-accumulate loop, not the VNNI/AMX peak), "
         "element-wise throughput (vector_ops), L2 size and bandwidth (sram) and memory bandwidth (a "
         "STREAM triad over arrays at least 4x the last-level cache). Efficiencies are 1: calibrate "
         "the file against measured latencies before trusting its predictions. Keep the machine "
         "otherwise idle while it runs; progress goes to standard error.",
         "exit codes: 0 ok, 2 bad usage or the probe failed", NULL, CLI_OPERAND_NONE, NULL, 0, 0},
    [CMD_CALIBRATE] =
        {"calibrate", "fit a platform's efficiencies to ONNX Runtime profiles or measured latencies",
         "nnperf calibrate --hw PLATFORM -o OUT.yaml [--dtype DT] MODEL.onnx=PROFILE.json...\n"
         "nnperf calibrate --hw PLATFORM -o OUT.yaml --table MEASURED.csv [--fit KEY,KEY...]",
         "Fits the platform's per-operator-class efficiencies and per-layer overhead to ONNX "
         "Runtime profiles (per-node kernel times and whole-run times; bench/validate/measure.js "
         "writes them) and writes the calibrated platform as YAML. PLATFORM is typically the "
         "output of 'nnperf probe'. Each profile must belong to its model: at least half of its "
         "kernels must match nodes of the model (--force to use it anyway). With --table: fits the "
         "platform's free parameters to measured whole-model latencies or FPS and prints each "
         "row's error before, after, and when the row is left out of the fit; one row frees one "
         "scale on every time, a row more than 10x off the others is named and left out, test "
         "rows of the fidelity dataset (split test) are never fitted. The YAML is the platform's "
         "own text with the fitted values edited in and a calibration: record of the fit. The fit "
         "is printed on standard error.",
         EXIT_NOTE, NULL, CLI_OPERAND_PAIR, "MODEL.onnx=PROFILE.json pair", 0, CLI_MAX_LIST},
    [CMD_VALIDATE] =
        {"validate", "predicted vs measured time per layer and in total",
         "nnperf validate MODEL.onnx --hw PLATFORM --measured PROFILE.json [options]",
         "Predicted vs measured time per layer (ONNX Runtime's fused nodes matched to nnperf's "
         "layers by name) and in total. The profile must belong to the model: at least half of its "
         "kernels must match nodes of the model (--force to use it anyway); the share matched is "
         "printed on standard error. The trace format writes the predicted timeline and the measured layers "
         "as two processes of one Chrome trace (ui.perfetto.dev, chrome://tracing).",
         "exit codes: 0 whatever the error of the prediction (it is printed, and in JSON "
         "error_pct), 2 bad input or usage",
         "table,json,csv,trace", CLI_OPERAND_MODEL, "model", 1, 1},
    [CMD_LLM] =
        {"llm", "LLM inference: time to first token, tokens/s, KV cache, memory fit",
         "nnperf llm MODEL.onnx|--config CONFIG.json --hw P [--prompt N[,N...]] [--generate M] [--batch "
         "B[,B...]] "
         "[options]",
         "Predicts LLM inference of a decoder-only model (input_ids, attention_mask, "
         "past_key_values.N.key/value -> present.N.key/value; HF Optimum and ONNX Runtime GenAI "
         "layouts): the prefill of N prompt tokens (time to first token) and M decode steps (one token "
         "each, past N to N+M-1; predicted at K past lengths and summed by linear interpolation), "
         "tokens/s, end-to-end time, the KV cache, and weights + KV cache + activations against the "
         "device memory (docs/llm.md); --config CONFIG.json instead of a model builds the decoder from a "
         "Hugging "
         "Face configuration (Llama, Mistral, Mixtral, Qwen2/2.5/3 and their MoE, Gemma 1/2/3, Phi-3). A "
         "configuration over the device memory exits 2 unless --allow-offload. csv has one row per prompt "
         "and "
         "batch; html has tabs and plots.",
         EXIT_NOTE, "table,json,csv,html", CLI_OPERAND_MODEL, "model", 0, 1},
    [CMD_MAP] =
        {"map", "plan a model on a MAX78000/MAX78002 CNN accelerator",
         "nnperf map MODEL.onnx [--target max78000|max78002] [--weight-bits 8|4|2|1] [options]",
         "Plans the model on a MAX78000 or MAX78002 CNN accelerator: ONNX nodes grouped into "
         "accelerator layers (pooling in front of a convolution, element-wise operations and activation "
         "in flight, flatten + linear), processor masks, data-memory offsets from tensor lifetimes, "
         "streaming (FIFO) mode when the first layers' data does not fit, kernel-memory placement (a "
         "kernel map), bias placement, pass-through layers with write_gap for residual connections, "
         "memory usage and a latency estimate. The plan is checked against every device rule before it "
         "is written; the yaml format is a network description the vendor's ai8xize.py reads as written "
         "(docs/map.md).",
         "exit codes: 0 it fits, 1 it does not fit (the problems are printed on standard error), 2 bad "
         "input or usage",
         "table,json,yaml", CLI_OPERAND_MODEL, "model", 1, 1},
    [CMD_ADVISE] =
        {"advise", "which layers waste compute or bandwidth, what to change, and the predicted gain",
         "nnperf advise MODEL.onnx --hw P [options]\nnnperf advise --explain [RULE]",
         "Checks the model on the platform against efficient-model design advice: CPU fallback, "
         "unfused patterns, alignment padding, memory-bound wide convs, spilled shortcuts, large "
         "weights, Transpose on the accelerator, batching of small inputs, dtype. Each finding names "
         "the layers, the evidence, the change and its predicted gain: the prediction re-run with the "
         "change applied to a copy of the model (docs/advise.md). html is the prediction's report "
         "with an Advice tab.",
         EXIT_NOTE, "table,json,html", CLI_OPERAND_MODEL, "model", 0, 1},
    [CMD_OPS] = {"ops", "list the supported operators", "nnperf ops [--format table|csv]",
                 "Lists the supported operators: domain, name, opset range and class.", EXIT_NOTE,
                 "table,csv", CLI_OPERAND_NONE, NULL, 0, 0},
};

int cli_cmd_find(const char *name)
{
    for (int i = 0; i < CMD_COUNT; i++)
        if (!strcmp(cli_cmds[i].name, name)) return i;
    return -1;
}
