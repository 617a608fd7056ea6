/* keys.c - the platform key table (see keys.h): every YAML key of a platform description, in the order the writer
 * and docs/platform-format.md list them; key lookups; units and the unit-checked number parser.
 *
 * Ranges are physical: the smallest and largest value a real device could have, so that no description can make a
 * prediction divide by almost nothing (a bandwidth of 1e-300 B/s) or overflow. Rates start at 1 M/s (an 8-bit MCU),
 * efficiencies at 1e-4 (what calibration clamps to), per-layer times end at 1 s. */
#include <math.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "keys.h"

/* field offset and size in struct hw_desc, in an alignment rule, in a fusion pattern */
#define D(m)   offsetof(struct hw_desc, m)
#define DS(m)  sizeof(((struct hw_desc *)0)->m)
#define AL(m)  offsetof(struct hw_align, m)
#define PT(m)  offsetof(struct hw_pattern, m)
#define FO(m)  offsetof(struct hw_fold, m)
#define OPK(m) offsetof(struct hw_opk, m)
#define MO(m)  offsetof(struct hw_mode, m)
#define TI(m)  offsetof(struct hw_tile, m)

#define RATE_MIN 1e6  /* ops/s or bytes/s */
#define OPS_MAX  1e18 /* ops/s: 1000 x a 2024 GPU's dense peak */
#define BW_MAX   1e17 /* bytes/s: 100 PB/s, above any on-chip SRAM fabric */
#define EFF_MIN  1e-4
#define DIM_MAX  1048576.0

static const char *align_rule_check(const void *elem)
{
    const struct hw_align *a = elem;
    if (!a->n && !a->c && !a->h && !a->w && !a->pow2) return "rule sets nothing (give n, c, h, w or pow2)";
    return NULL;
}

/* clang-format off */
const struct hw_key hw_keys[] = {
    {"format", HW_T_FORMAT, .min = 1, .max = 1, .def = 1, .flags = HW_F_IDENTITY,
     .doc = "format version; this version reads 1"},
    {"base", HW_T_BASE, .flags = HW_F_IDENTITY,
     .doc = "a preset name or a platform file (relative to this file's folder) to start from: this file's keys "
            "override its values (lists are replaced), its assumptions hold for the keys not overridden"},
    {"name", HW_T_NAME, .flags = HW_F_REQUIRED | HW_F_OWN | HW_F_IDENTITY, .off = D(name), .size = DS(name),
     .doc = "identifier shown in reports (no spaces); a platform on a base gives its own"},
    {"description", HW_T_TEXT, .flags = HW_F_IDENTITY, .off = D(description), .size = DS(description),
     .doc = "one line for `nnperf hw list`"},
    {"source", HW_T_TEXT, .flags = HW_F_IDENTITY, .off = D(source), .size = DS(source),
     .doc = "where the numbers come from"},
    {"assumptions", HW_T_KEYS, .min = 1, .max = HW_MAX_ASSUME, .flags = HW_F_UNIQUE | HW_F_IDENTITY, .off = D(assume),
     .size = HW_MAX_KEY, .count_off = D(n_assume),
     .doc = "keys of this table whose values here are assumptions rather than published facts (a section or map "
            "covers its keys); reports show them"},
    {"frames_per_run", HW_T_INT, .min = 1, .max = DIM_MAX, .off = D(frames_per_run), .def = 1,
     .doc = "frames one run processes (batch, or cameras as in HBDK's \"frame per run\")"},

    {"compute", HW_T_SECTION, .doc = "the accelerator"},
    {"compute.cores", HW_T_INT, .min = 1, .max = 4096, .off = D(cores), .def = 1,
     .doc = "accelerator cores (informative; `peak_ops` is for all cores together)"},
    {"compute.peak_ops", HW_T_NUM, HW_MAP_DTYPE, HW_U_OPS_S, RATE_MIN, OPS_MAX, HW_F_ZERO_OFF, D(peak_ops),
     .doc = "peak per data type (1 MAC = 2 ops); 0 or absent = the accelerator does not run that type; at least "
            "one must be positive"},
    {"compute.default_dtype", HW_T_DTYPE, .off = D(default_dtype), .def = HW_INT8,
     .doc = "the type a prediction uses unless told otherwise; must have a peak (absent: the first of int8, fp16, "
            "bf16, fp32, int4 with one)"},
    {"compute.vector_ops", HW_T_NUM, .unit = HW_U_OPS_S, RATE_MIN, OPS_MAX, HW_F_ZERO_OFF, D(vector_ops),
     .doc = "rate for non-MAC work (element-wise FLOPs); 0 = peak x efficiency"},
    {"compute.tf32_ops", HW_T_NUM, .unit = HW_U_OPS_S, RATE_MIN, OPS_MAX, HW_F_ZERO_OFF, D(tf32_ops),
     .doc = "rate at which the runtime runs FP32 layers of `tf32_classes` as TF32 on tensor cores (TensorRT's "
            "default on Ampere and later GPUs): their MACs take this rate x their efficiency, their element-wise "
            "work stays on `vector_ops`; 0 = none (FP32 at `peak_ops.fp32`)"},
    {"compute.tf32_classes", HW_T_CLASSES, .off = D(tf32_classes),
     .doc = "the operator classes whose FP32 layers run as TF32 (PyTorch's defaults: convolutions only); absent: "
            "every class"},
    {"compute.cores_per_inference", HW_T_INT, .min = 0, .max = 4096,
     .off = D(cores_per_inference),
     .doc = "cores one inference runs on (1: each core runs an inference of its own and `throughput_fps` counts "
            "them all); 0 = all cores (the compiler splits layers)"},
    {"compute.parallel_speedup", HW_T_NUM, .unit = HW_U_NONE, 1, 4096, HW_F_ZERO_OFF, D(par_speedup),
     .doc = "how many times one core's rate the cores of one inference reach together (a CPU runtime's threads: "
            "fewer than their number, for shared caches, shared memory and per-layer synchronisation); at most "
            "the cores per inference; 0 = their number (linear)"},
    {"compute.threaded", HW_T_BOOL, .off = D(threaded),
     .doc = "the cores are a CPU runtime's threads: one inference runs on `--threads N` of them (nnperf_predict_options"
            ".threads; default all the cores of one inference), at a speedup of 1 + (parallel_speedup - 1) x (N - 1) / "
            "(cores - 1)"},
    {"compute.thread_tile", HW_T_NUM, .unit = HW_U_NONE, 1, 65536, HW_F_ZERO_OFF, D(thread_tile),
     .doc = "with 2 or more threads: a layer with a 4-D (NCHW) output splits its channels over them in units of "
            "this many (ncnn: a GEMM's tiles of 8), so a layer of u units keeps u / (ceil(u / threads) x threads) of "
            "them busy; 0 = an even split (other ranks: always)"},
    {"compute.frames_per_call", HW_T_INT, .min = 0, .max = DIM_MAX, .off = D(frames_per_call),
     .doc = "frames one call of the accelerator takes (1: a batch runs frame by frame, each call paying "
            "`overhead.per_run_s`); 0 = any batch in one call"},
    {"compute.array", HW_T_SECTION,
     .doc = "the MAC array's parallel lanes per dtype; a layer's utilization follows from its shape (array compute "
            "model, docs/prediction.md); absent: the roofline model with per-class efficiencies"},
    {"compute.array.reduce", HW_T_NUM, HW_MAP_DTYPE, HW_U_NONE, 1, 65536, HW_F_ZERO_OFF, D(array.reduce),
     .doc = "lanes over the reduction: input channels per group x kernel taps (a matmul's inner dimension)"},
    {"compute.array.channels", HW_T_NUM, HW_MAP_DTYPE, HW_U_NONE, 1, 65536, HW_F_ZERO_OFF, D(array.channels),
     .doc = "lanes over output channels per group (a matmul's columns); 0 = not a limit"},
    {"compute.array.pixels", HW_T_NUM, HW_MAP_DTYPE, HW_U_NONE, 1, 65536, HW_F_ZERO_OFF, D(array.pixels),
     .doc = "lanes over output pixels (a matmul's rows); 0 = not a limit (alignment pads pixels instead)"},
    {"compute.array.units", HW_T_NUM, HW_MAP_NONE, HW_U_NONE, 1, 65536, HW_F_ZERO_OFF, D(array.units),
     .doc = "output tiles (pixels x channels lanes) computed at once, each on its own unit (a GPU's SMs): a layer's "
            "tiles run in waves and a last partial wave idles the other units; 0 = not a limit"},
    {"compute.array.batch_rows", HW_T_BOOL, .off = D(array.batch_rows),
     .doc = "the pixel lanes take the output pixels of all frames of a run together, as the rows of one matrix product "
            "(a GPU's implicit-GEMM convolution: rows = batch x output height x width); false = each frame's pixels "
            "are padded to the lanes on their own (an NPU's array)"},
    {"compute.array.matmul_rows_untiled", HW_T_BOOL, .off = D(array.matmul_rows_untiled),
     .doc = "the pixel lanes tile a convolution's rows only: a MatMul's or Gemm's rows (a fully connected layer's "
            "batch) are neither padded to them nor cut into tiles over them (a GPU runtime runs a product of a few rows "
            "as a matrix-vector kernel, not in an implicit-GEMM convolution's tiles)"},
    {"compute.array.span_groups", HW_T_BOOL, .off = D(array.span_groups),
     .doc = "depthwise convolutions run channel-parallel: their output-channel lanes take the channels of several "
            "groups at once (CPUs, DPUs); other grouped convolutions, and all of them when false, fill the lanes group "
            "by group"},
    {"compute.array.modes", HW_T_LIST, .max = HW_MAX_MODES, .off = D(array.modes), .size = sizeof(struct hw_mode),
     .count_off = D(array.n_modes),
     .doc = "ways the array's `channels` lanes split, one mapping each (the Myriad X NCE's modes): a dense conv or "
            "matmul takes the cheapest, (input channels rounded up to the blocks / blocks) x kernel taps + overhead "
            "cycles per output pixel for each descriptor of lanes / blocks output channels; its utilization is its "
            "MACs per pixel / (those cycles x lanes) (docs/prediction.md); a depthwise conv runs as ceil(C / t) dense "
            "t x t convs of the cheapest tile t (OpenVINO's MYRIAD compiler); other grouped convs are not described "
            "by it"},
    {"compute.array.modes[].blocks", HW_T_I64, .min = 1, .max = 4096, .flags = HW_F_REQUIRED, .off = MO(blocks),
     .doc = "blocks the input channels are split over (each with its share of the lanes)"},
    {"compute.array.modes[].overhead", HW_T_NUM, .unit = HW_U_NONE, 0, 1e6, 0, MO(overhead),
     .doc = "extra cycles per descriptor and output pixel in this mode"},
    {"compute.array.block_reduce_max", HW_T_NUM, .unit = HW_U_NONE, 1, 1e6, HW_F_ZERO_OFF, D(array.block_reduce_max),
     .doc = "input channels per block x kernel taps a descriptor holds (the NCE's coefficients per block); a layer "
            "above it in a mode runs its input channels in that many more passes; 0 = no limit"},
    {"compute.array.fc_tile", HW_T_NUM, .unit = HW_U_NONE, 1, 65536, HW_F_ZERO_OFF, D(array.fc_tile),
     .doc = "a fully connected layer (a MatMul or Gemm with constant weights) runs in tiles of this many input and "
            "output elements (the MYRIAD compiler's hardware FC): an input or output longer than one tile is padded "
            "to whole tiles, the weights are stored padded (the layer reads padded inputs x padded outputs weights) "
            "and a padded input is first copied into its longer buffer by a stage of its own (one more "
            "`overhead.per_layer_s`); 0 = not tiled"},
    {"compute.array.tiles", HW_T_LIST, .max = HW_MAX_TILES, .off = D(array.tiles), .size = sizeof(struct hw_tile),
     .count_off = D(array.n_tiles),
     .doc = "output tile shapes the runtime's kernels offer (a GPU runtime times several kernels per layer and keeps the "
            "fastest, TensorRT's tactic selection): each conv or matmul takes the shape of least padded work, ceil(K / "
            "channels) x channels x ceil(P / pixels) x pixels / efficiency, ties to the larger tile; replaces the "
            "`channels` and `pixels` lanes (docs/prediction.md); absent: one tile, those lanes"},
    {"compute.array.tiles[].channels", HW_T_I64, .min = 1, .max = 65536, .flags = HW_F_REQUIRED, .off = TI(channels),
     .doc = "the tile's output channels (a GEMM's columns)"},
    {"compute.array.tiles[].pixels", HW_T_I64, .min = 1, .max = 65536, .flags = HW_F_REQUIRED, .off = TI(pixels),
     .doc = "the tile's output pixels (a GEMM's rows)"},
    {"compute.array.tiles[].efficiency", HW_T_NUM, .unit = HW_U_FRACTION, EFF_MIN, 1, HW_F_ZERO_OFF, TI(efficiency),
     .doc = "the shape's rate against the others' (a factor on the layer's utilization); 0 = 1"},
    {"compute.strided_input_bandwidth", HW_T_NUM, .unit = HW_U_BYTES_S, RATE_MIN, BW_MAX, HW_F_ZERO_OFF,
     D(strided_in_bw),
     .doc = "rate at which a strided convolution's input is re-laid out before it runs (adds input bytes / rate); "
            "0 = no cost"},
    {"compute.winograd", HW_T_SECTION,
     .doc = "3x3 stride-1 dense convolutions run as Winograd F(m x m, 3 x 3) (a CPU runtime's choice, ncnn's rule; "
            "roofline compute model): (m + 2)^2 MACs per m x m output tile and input channel x output channel, plus "
            "the input and output transforms as vector work (docs/prediction.md)"},
    {"compute.winograd.tile", HW_T_NUM, HW_MAP_DTYPE, HW_U_NONE, 2, 6, HW_F_ZERO_OFF, D(wino.tile),
     .doc = "the largest output tile m (2, 4 or 6) per dtype, used when both channel counts are at most "
            "`large_channels`; 0 or absent = direct convolution for that dtype"},
    {"compute.winograd.min_channels", HW_T_NUM, .unit = HW_U_NONE, 1, DIM_MAX, HW_F_ZERO_OFF,
     D(wino.min_channels),
     .doc = "Winograd only when the input or the output channels reach this; F(4,3) rather than F(2,3) (for "
            "channels above `large_channels`) only when both do"},
    {"compute.winograd.large_channels", HW_T_NUM, .unit = HW_U_NONE, 1, DIM_MAX, HW_F_ZERO_OFF,
     D(wino.large_channels),
     .doc = "above this many input or output channels the tile is at most 4; 0 = no limit"},
    {"compute.gemm_output_s", HW_T_NUM, .unit = HW_U_SECONDS, 1e-15, 1e-3, HW_F_ZERO_OFF, D(gemm_output_s),
     .doc = "roofline model: one core's time per output element of a layer the runtime runs as a GEMM (a dense or "
            "grouped convolution, Gemm, MatMul; a Winograd convolution's transformed outputs; not a depthwise "
            "convolution) beyond its MACs, so a short reduction runs below the class efficiency; shared by the "
            "threads of one inference as its MACs are; 0 = none"},
    {"compute.kernel_costs", HW_T_SECTION,
     .doc = "per-element costs of a CPU's kernels: with any of them set, a layer's time is the sum of its terms "
            "(kernel-cost compute model, docs/prediction.md); `nnperf calibrate` fits them from ONNX Runtime profiles"},
    {"compute.kernel_costs.output_s", HW_T_NUM, .unit = HW_U_SECONDS, 1e-15, 1e-3, HW_F_ZERO_OFF, D(kc.output_s),
     .doc = "time per output element of a convolution or matmul beyond its MACs (accumulators stored and reloaded: "
            "what makes a short reduction slow)"},
    {"compute.kernel_costs.activation_pass_s", HW_T_NUM, .unit = HW_U_SECONDS, 1e-15, 1e-3, HW_F_ZERO_OFF,
     D(kc.pass_s),
     .doc = "time per element of an activation other than Relu fused into a convolution or matmul (applied in a pass "
            "over the output after the kernel)"},
    {"compute.kernel_costs.element_s", HW_T_NUM, .unit = HW_U_SECONDS, 1e-15, 1e-3, HW_F_ZERO_OFF, D(kc.element_s),
     .doc = "time per element read or written by a layer without MACs (pooling, element-wise, copies; reshapes "
            "move nothing)"},
    {"compute.kernel_costs.narrow_input_efficiency", HW_T_NUM, .unit = HW_U_FRACTION, EFF_MIN, 1, HW_F_ZERO_OFF,
     D(kc.narrow_eff),
     .doc = "efficiency of a convolution with at most 4 input channels per group (an image stem, read as laid out); "
            "0 = its class's"},
    {"compute.efficiency", HW_T_NUM, HW_MAP_CLASS, HW_U_FRACTION, EFF_MIN, 1, HW_F_UNSET, D(eff), .def = -1,
     .doc = "fraction of peak reached per operator class (`nnperf ops` shows each operator's class); classes "
            "not listed use `default` (conv_grouped: conv's)"},
    {"compute.efficiency.default", HW_T_NUM, .unit = HW_U_FRACTION, EFF_MIN, 1, 0, D(eff_default), .def = 1,
     .doc = "efficiency of the classes not listed"},
    {"compute.dtype_efficiency", HW_T_NUM, HW_MAP_DTYPE, HW_U_FRACTION, EFF_MIN, 1, HW_F_ZERO_OFF, D(dtype_eff),
     .doc = "a factor on every class's efficiency at that dtype (a kernel whose instruction mix differs by dtype: "
            "Pascal's paired FP16 FMAs issue half the FMA instructions of FP32 against the same loads); 0 = 1"},
    {"compute.supported", HW_T_OPS, .min = 1, .max = HW_MAX_OPS, .flags = HW_F_UNIQUE, .off = D(supported),
     .size = HW_MAX_NAME, .count_off = D(n_supported),
     .doc = "the only operators the accelerator runs (absent: all)"},
    {"compute.unsupported", HW_T_OPS, .min = 1, .max = HW_MAX_OPS, .flags = HW_F_UNIQUE, .off = D(unsupported),
     .size = HW_MAX_NAME, .count_off = D(n_unsupported),
     .doc = "operators the accelerator does not run (they go to `fallback`)"},
    {"compute.alignment", HW_T_LIST, .max = HW_MAX_ALIGN, .off = D(align), .size = sizeof(struct hw_align),
     .count_off = D(n_align), .check = align_rule_check,
     .doc = "output shape padding rules, one mapping each; a rule sets at least one of n, c, h, w, pow2"},
    {"compute.alignment[].classes", HW_T_CLASSES, .flags = HW_F_REQUIRED, .off = AL(class_mask),
     .doc = "the operator classes the rule applies to"},
    {"compute.alignment[].n", HW_T_I64, .max = DIM_MAX, .off = AL(n),
     .doc = "pad the batch axis of the output (NCHW) up to a multiple; 0 or 1 = no padding"},
    {"compute.alignment[].c", HW_T_I64, .max = DIM_MAX, .off = AL(c),
     .doc = "pad the channel axis up to a multiple (rank-2/3 outputs: the last axis)"},
    {"compute.alignment[].h", HW_T_I64, .max = DIM_MAX, .off = AL(h), .doc = "pad the height up to a multiple"},
    {"compute.alignment[].w", HW_T_I64, .max = DIM_MAX, .off = AL(w), .doc = "pad the width up to a multiple"},
    {"compute.alignment[].pow2", HW_T_BOOL, .off = AL(pow2), .doc = "pad every axis to the next power of two"},
    {"compute.alignment[].products", HW_T_BOOL, .off = AL(products),
     .doc = "the rule applies only to outputs derived from a product of two activations (a MatMul of two "
            "activations, as attention's scores and their product with the values, and the element-wise, "
            "activation, normalisation, reduction, softmax, data and view layers whose activation inputs all so "
            "derive); a later rule serves the others"},
    {"compute.fusion", HW_T_LIST, .max = HW_MAX_FUSION, .off = D(fusion), .size = sizeof(struct hw_pattern),
     .count_off = D(n_fusion), .doc = "node chains that run as one layer, longest match first"},
    {"compute.fusion[]", HW_T_OPS, .min = 2, .max = HW_MAX_PATTERN, .off = PT(ops), .size = HW_MAX_NAME,
     .count_off = PT(len), .doc = "one chain of operator names"},
    {"compute.fuse_pointwise", HW_T_BOOL, .off = D(fuse_pointwise),
     .doc = "element-wise, activation, normalisation, reduction, data-movement and view operators next to each other "
            "or to the layer that produces their input run in one kernel with it (a GPU compiler's pointwise and "
            "epilogue fusion; docs/prediction.md)"},
    {"compute.fused_attention", HW_T_BOOL, .off = D(fused_attention),
     .doc = "MatMul(Q, K) -> element-wise -> Softmax -> MatMul(., V) runs as one kernel: the scores never leave the "
            "chip and, for a decoder's causal attention, the masked half is skipped (docs/prediction.md)"},
    {"compute.fuse_sibling_products", HW_T_BOOL, .off = D(fuse_sibling_products),
     .doc = "matrix products (MatMul, Gemm) that read the same activation tensor with constant weights run as one "
            "kernel over their weights side by side: one layer, one per-layer cost (TensorRT's horizontal fusion "
            "of GEMMs sharing an input; packed q/k/v and gate/up projections; docs/prediction.md)"},
    {"compute.lut_chains", HW_T_BOOL, .off = D(lut_chains),
     .doc = "the vector unit computes element-wise functions by table lookup and the compiler composes a chain of "
            "them into one table (array compute model): in a layer, a node that applies one function to every "
            "element (an activation, or an element-wise node whose constant inputs are scalars) and whose other "
            "inputs are all, through such nodes of the layer, one tensor costs nothing of its own, nor does a Mul "
            "or Div by a scalar constant of an earlier node's output; with `composite_kernels` [Gelu, SiLU] each "
            "exported GELU or SiLU is one pass (docs/prediction.md)"},
    {"compute.composite_kernels", HW_T_OPS, .min = 1, .max = HW_MAX_COMP, .flags = HW_F_UNIQUE,
     .off = D(composite), .size = HW_MAX_NAME, .count_off = D(n_composite),
     .doc = "operators the runtime runs as one kernel each where the exporter wrote them as several nodes: "
            "`LayerNormalization` (ReduceMean, Sub, Pow, ReduceMean, Add, Sqrt, Div, then Mul and Add by weights), "
            "`Gelu` (Div or Mul, Erf, Add, Mul, Mul), `HardSwish` (HardSigmoid, Mul), `SiLU` (Sigmoid, Mul); each "
            "such group is one layer (PyTorch's eager kernels, docs/prediction.md)"},
    {"compute.bias_kernel", HW_T_BOOL, .off = D(bias_kernel),
     .doc = "a convolution's bias is added by a kernel of its own after it (PyTorch's cuDNN path): the layer pays "
            "one more `overhead.per_layer_s` and a pass reading and writing its output where that goes to DDR; a "
            "BatchNormalization the exporter folded into the convolution (its bias) stands for PyTorch's own "
            "BatchNorm kernel"},
    {"compute.bias_kernel_bandwidth", HW_T_NUM, .unit = HW_U_BYTES_S, RATE_MIN, BW_MAX, HW_F_ZERO_OFF,
     D(bias_kernel_bw),
     .doc = "with `bias_kernel`: the rate at which that kernel reads and writes the convolution's whole output, "
            "wherever the memory plan keeps it (adds 2 x output bytes / rate; a measured rate of the runtime's "
            "kernel, e.g. PyTorch's channels-last BatchNorm); 0 = the DDR bandwidth x efficiency, for the bytes "
            "that go to DDR only"},
    {"compute.bias_kernel_s", HW_T_NUM, .unit = HW_U_SECONDS, 1e-9, 1, HW_F_ZERO_OFF, D(bias_kernel_s),
     .doc = "with `bias_kernel`: the fixed cost of that kernel in place of the convolution's per-layer cost (PyTorch's "
            "BatchNorm runs as three kernels, a copy and an element-wise kernel on its parameters, then the "
            "transform); 0 = the convolution's (`overhead.per_layer_class_s`, else `per_layer_s`)"},
    {"compute.copy_bandwidth", HW_T_NUM, .unit = HW_U_BYTES_S, RATE_MIN, BW_MAX, HW_F_ZERO_OFF, D(copy_bw),
     .doc = "with `view_ops` listing Transpose: a permuted view (a Transpose that moves an axis longer than 1) read "
            "by a Reshape or Flatten (no view of its merged axes) or by a LayerNorm or ReduceMean (their kernels "
            "read contiguous memory) is copied first, by a kernel of its own: one more `overhead.per_layer_s` and "
            "2 x the tensor's bytes / this rate, wherever the memory plan keeps it (PyTorch's `.contiguous()`); "
            "0 = no copy"},
    {"compute.norm_bandwidth", HW_T_NUM, .unit = HW_U_BYTES_S, RATE_MIN, BW_MAX, HW_F_ZERO_OFF, D(norm_bw),
     .doc = "a layer that normalises or reduces over an axis (one holding a LayerNormalization or ReduceMean node, "
            "no matrix product) reads its inputs and writes its output at no more than this rate, wherever the "
            "memory plan keeps them (a measured rate of the runtime's kernel, e.g. PyTorch's LayerNorm); 0 = the "
            "memory plan's rates only"},
    {"compute.norm_row_s", HW_T_NUM, .unit = HW_U_SECONDS, 1e-15, 1, HW_F_ZERO_OFF, D(norm_row_s),
     .doc = "a LayerNorm layer (a LayerNormalization node, or an exported LayerNorm's composite: two ReduceMean "
            "nodes) takes at least this time per row it normalises (its input's elements / its last axis), as a "
            "kernel that runs one thread block per row does (PyTorch's LayerNorm); a measured time of the "
            "runtime's kernel; 0 = none"},
    {"compute.concat_bandwidth", HW_T_NUM, .unit = HW_U_BYTES_S, RATE_MIN, BW_MAX, HW_F_ZERO_OFF, D(concat_bw),
     .doc = "a Concat layer runs as one kernel of its own (PyTorch's `torch.cat`) that reads its inputs and writes "
            "its output, 2 x output bytes, at no more than this rate wherever the memory plan keeps them (also "
            "where the plan keeps them on chip), with its `overhead.per_layer_s`; a measured rate of the runtime's "
            "kernel; 0 = the memory plan's rates only"},
    {"compute.pool_element_s", HW_T_NUM, .unit = HW_U_SECONDS, 1e-15, 1, HW_F_ZERO_OFF, D(pool_elem_s),
     .doc = "a MaxPool or AveragePool layer whose window holds more than one element takes at least this time per "
            "output element (a measured time of the runtime's kernel, e.g. PyTorch's channels-last pooling "
            "kernels); 0 = the memory plan's rates only"},
    {"compute.grouped_transform_bandwidth", HW_T_NUM, .unit = HW_U_BYTES_S, RATE_MIN, BW_MAX, HW_F_ZERO_OFF,
     D(group_xform_bw),
     .doc = "a grouped convolution (more than one group, more than one input channel per group) runs beside two "
            "more kernels that re-lay out its input and output (cuDNN's channels-last grouped convolution): two "
            "more `overhead.per_layer_s` and 2 x (input + output bytes) / this rate, wherever the memory plan keeps "
            "them; a measured rate of the runtime's kernels; 0 = no such kernels"},
    {"compute.grouped_transform_skip_pow2", HW_T_BOOL, .off = D(group_xform_skip_pow2),
     .doc = "the kernels of `compute.grouped_transform_bandwidth` run only where a group's input channels are not a "
            "power of two (cuDNN 9 takes its channels-last grouped path without them for 4, 8, 16, 32 or 64 "
            "channels a group); false = for every grouped convolution"},
    {"compute.view_ops", HW_T_OPS, .min = 1, .max = HW_MAX_VIEW, .flags = HW_F_UNIQUE, .off = D(view),
     .size = HW_MAX_NAME, .count_off = D(n_view),
     .doc = "operators the runtime runs as views of their input (PyTorch: Reshape, Flatten, Squeeze, Unsqueeze, "
            "Identity, Transpose, Slice, Split, Expand): a layer of them launches no kernel, moves no bytes and pays "
            "no `overhead.per_layer_s`; absent: none"},
    {"compute.kv_per_query_head", HW_T_BOOL, .off = D(kv_per_query_head),
     .doc = "a decode step's attention (GroupQueryAttention over one new token) reads each KV head's cache once per "
            "query head sharing it, as a kernel with one thread block per query head does (TensorRT-LLM's masked "
            "multi-head attention without its XQA kernel, docs/llm.md): the cache reads are query heads / KV heads "
            "times larger; false: once per KV head (XQA, FlashAttention, FlashInfer)"},

    {"compute.weight_only", HW_T_BOOL, .off = D(weight_only),
     .doc = "a dtype without a peak of its own (compute.peak_ops) is weight-only quantization: its weights are "
            "stored at that dtype and the layers compute at compute.default_dtype (int4 on a GPU: W4A16)"},
    {"compute.frame_serial", HW_T_BOOL, .off = D(frame_serial),
     .doc = "the runtime runs a batch one frame at a time: every layer runs once per frame, paying "
            "`overhead.per_layer_s` and reading its streamed weights for each frame (`overhead.per_run_s` once per "
            "run; a layer finishes every frame before the next layer starts, so the tensors between layers hold the "
            "whole batch); false: a layer computes the whole batch in one pass"},
    {"compute.dataflow", HW_T_SECTION,
     .doc = "a dataflow accelerator (FINN): every conv/matmul layer has an engine of its own, folded to compute PE "
            "output channels x SIMD reduction elements per cycle, and all layers stream at once: a layer takes "
            "ceil(channels / PE) x ceil(reduction / SIMD) x output pixels cycles per frame, a run of B frames the "
            "sum of one frame's layer times plus B - 1 times the slowest (docs/prediction.md, Dataflow accelerators)"},
    {"compute.dataflow.clock_hz", HW_T_NUM, .unit = HW_U_HZ, 1e6, 1e10, HW_F_ZERO_OFF, D(dataflow_hz),
     .doc = "the engines' clock; 0 = not a dataflow accelerator"},
    {"compute.dataflow.folding", HW_T_LIST, .max = HW_MAX_FOLD, .off = D(fold), .size = sizeof(struct hw_fold),
     .count_off = D(n_fold),
     .doc = "the folding of each layer's engine, one mapping each (a FINN folding_config.json's PE and SIMD); a layer "
            "not listed is fully folded (PE = SIMD = 1, FINN's default)"},
    {"compute.dataflow.luts", HW_T_NUM, .unit = HW_U_NONE, 1, 1e9, HW_F_ZERO_OFF, D(df_luts),
     .doc = "without a folding list: the fabric's LUTs; the folding is then derived as FINN's SetFolding does (each "
            "engine's SIMD, then PE, raised through divisors of its reduction and channels until it meets a target "
            "cycles per frame), at the smallest target whose folding fits these LUTs and the weight memories "
            "(docs/prediction.md, Dataflow accelerators); 0 = not derived (a layer not listed is fully folded)"},
    {"compute.dataflow.lut_fraction", HW_T_NUM, .unit = HW_U_FRACTION, EFF_MIN, 1, 0, D(df_lut_fraction),
     .def = 1, .doc = "the share of compute.dataflow.luts the engines' lanes may use"},
    {"compute.dataflow.lut_per_lane_bit", HW_T_NUM, .unit = HW_U_NONE, 1e-3, 1e3, 0, D(df_lut_per_lane_bit),
     .def = 1, .doc = "LUTs of one lane (a PE x SIMD multiply-accumulate) per weight bit x activation bit"},
    {"compute.dataflow.bram18", HW_T_NUM, .unit = HW_U_NONE, 1, 1e7, HW_F_ZERO_OFF, D(df_bram18),
     .doc = "18 Kb block RAMs for the weights (a BRAM36 is two); each PE's weights are a memory of their own, SIMD x "
            "weight bits wide, in whole blocks of one aspect (16K x 1 ... 512 x 36); bram18 and uram both 0: the weight "
            "memories are no limit"},
    {"compute.dataflow.uram", HW_T_NUM, .unit = HW_U_NONE, 1, 1e6, HW_F_ZERO_OFF, D(df_uram),
     .doc = "288 Kb UltraRAMs for the weights, each counted as 16 18 Kb blocks"},
    {"compute.dataflow.memory_fraction", HW_T_NUM, .unit = HW_U_FRACTION, EFF_MIN, 1, 0, D(df_mem_fraction),
     .def = 1, .doc = "the share of the weight memory blocks (bram18 + 16 x uram) the engines may use"},
    {"compute.dataflow.fill", HW_T_NUM, .unit = HW_U_FRACTION, 0, 1, 0, D(df_fill), .def = 1,
     .doc = "a frame's pass through the pipeline: the slowest layer's frame time plus this share of the other "
            "layers' (1: they follow each other; less: a layer starts on its predecessor's first outputs)"},
    {"compute.dataflow.streaming", HW_T_BOOL, .off = D(df_streaming),
     .doc = "a frame's pass streams through the engines row by row (FINN's sliding-window generators and "
            "matrix-vector units): an output row of a conv or pool starts once the input rows its window reaches "
            "are done, a layer over a flattened vector once its whole input is (docs/prediction.md, Dataflow "
            "accelerators); fill is then unused; false: a frame passes the layers one after another"},
    {"compute.dataflow.folding[].node", HW_T_TEXT, .flags = HW_F_REQUIRED, .off = FO(node),
     .size = sizeof(((struct hw_fold *)0)->node), .doc = "the ONNX node that leads the layer (`nnperf analyze` shows it)"},
    {"compute.dataflow.folding[].pe", HW_T_I64, .min = 1, .max = DIM_MAX, .flags = HW_F_REQUIRED, .off = FO(pe),
     .doc = "output channels per cycle (a depthwise conv: channels)"},
    {"compute.dataflow.folding[].simd", HW_T_I64, .min = 1, .max = DIM_MAX, .flags = HW_F_REQUIRED, .off = FO(simd),
     .doc = "reduction elements per cycle: input channels x kernel taps of a conv, a matmul's inner dimension"},
    {"compute.op_kernels", HW_T_LIST, .max = HW_MAX_OPK, .off = D(opk), .size = sizeof(struct hw_opk),
     .count_off = D(n_opk),
     .doc = "operators the runtime runs as several kernels, one mapping each (PyTorch eager runs an RMSNorm written "
            "as one node as 8 element-wise kernels); each kernel beyond the first takes `overhead.small_kernel_s`"},
    {"compute.op_kernels[].op", HW_T_NAME, .flags = HW_F_REQUIRED, .off = OPK(op),
     .size = sizeof(((struct hw_opk *)0)->op), .doc = "the operator type (`nnperf ops` lists them)"},
    {"compute.op_kernels[].kernels", HW_T_INT, .min = 1, .max = 1000, .flags = HW_F_REQUIRED, .off = OPK(kernels),
     .doc = "the kernels one node of it runs"},
    {"memory", HW_T_SECTION, .doc = "memories"},
    {"memory.sram_bytes", HW_T_NUM, .unit = HW_U_BYTES, 1, 1e15, HW_F_ZERO_OFF, D(sram_bytes),
     .doc = "on-chip buffer for activations; 0 = none (tensors go to DDR)"},
    {"memory.sram_bandwidth", HW_T_NUM, .unit = HW_U_BYTES_S, RATE_MIN, BW_MAX, HW_F_ZERO_OFF, D(sram_bw),
     .doc = "on-chip bandwidth; 0 = not a limit"},
    {"memory.ddr_bandwidth", HW_T_NUM, .unit = HW_U_BYTES_S, RATE_MIN, BW_MAX, HW_F_REQUIRED, D(ddr_bw),
     .doc = "external memory bandwidth"},
    {"memory.ddr_efficiency", HW_T_NUM, .unit = HW_U_FRACTION, EFF_MIN, 1, 0, D(ddr_eff), .def = 1,
     .doc = "fraction of `ddr_bandwidth` reached"},
    {"memory.core_bandwidth", HW_T_NUM, .unit = HW_U_BYTES_S, RATE_MIN, BW_MAX, HW_F_ZERO_OFF, D(core_bw),
     .doc = "DDR bandwidth one core reaches alone (a CPU thread; an accelerator core through its own ports, a Zynq "
            "DPU core's two AXI data ports); the N cores of one inference reach N times it, at most `ddr_bandwidth` x "
            "`ddr_efficiency` (the cores share the DDR), and inferences in flight on other cores slow each other only "
            "by as much as together they ask more than that; 0 = the shared DDR's whatever the cores"},
    {"memory.ddr_bytes", HW_T_NUM, .unit = HW_U_BYTES, 1, 1e15, HW_F_ZERO_OFF, D(ddr_bytes),
     .doc = "device memory capacity (weights + KV cache + activations must fit: `nnperf llm`); 0 = unknown"},
    {"memory.reserved_bytes", HW_T_NUM, .unit = HW_U_BYTES, 1, 1e15, HW_F_ZERO_OFF, D(reserved_bytes),
     .doc = "of `ddr_bytes`, what the runtime and the operating system hold before the model (CUDA context, "
            "workspaces; on unified memory the OS): `nnperf llm` fits the model into the rest; 0 = none"},
    {"memory.kv_fraction", HW_T_NUM, .unit = HW_U_FRACTION, EFF_MIN, 1, 0, D(kv_fraction), .def = 1,
     .doc = "fraction of the memory left after the reserve, weights and activations that the runtime gives the "
            "KV cache (TensorRT-LLM's kv_cache_free_gpu_mem_fraction): the largest batch and context of `nnperf "
            "llm` and the paged KV cache of `nnperf llm --serve`"},
    {"memory.host_bandwidth", HW_T_NUM, .unit = HW_U_BYTES_S, RATE_MIN, BW_MAX, HW_F_ZERO_OFF, D(host_bw),
     .doc = "link to the host's memory (PCIe) over which weights that do not fit stream every forward pass "
            "(`nnperf llm --allow-offload`); 0 = none (unified memory)"},
    {"memory.overlap", HW_T_BOOL, .off = D(overlap), .def = 1,
     .doc = "loads and stores overlap compute (layer time = max); false: a layer's activation loads and stores "
            "add to its compute while its weights still stream alongside (CPUs)"},
    {"memory.overlap_exponent", HW_T_NUM, .unit = HW_U_NONE, 1, 64, HW_F_ZERO_OFF, D(overlap_exp),
     .doc = "with `overlap`, a layer takes (compute^k + memory^k)^(1/k): kernels near the ridge point overlap "
            "loads and arithmetic only in part (1 = no overlap); 0 = max(compute, memory)"},
    {"memory.overlap_exponent_classes", HW_T_CLASSES, .off = D(overlap_exp_classes),
     .doc = "the operator classes `overlap_exponent` applies to (a fitted exponent covers the kernels it was fitted "
            "on); the other layers take max(compute, memory); absent: every class"},
    {"memory.model", HW_T_NAME, .off = D(memory_model), .size = DS(memory_model),
     .doc = "`planned` (whole tensors in SRAM or DDR), `tiled` (depth-first: chains of layers stay on chip tile by "
            "tile) or `weights-only` (QuTiBench: only weights move); absent: planned"},
    {"memory.weight_sram_bytes", HW_T_NUM, .unit = HW_U_BYTES, 1, 1e15, HW_F_ZERO_OFF, D(weight_sram_bytes),
     .doc = "on-chip memory for weights: those that fit (in layer order) stay resident across inferences, the rest "
            "stream every inference; 0 = none"},
    {"memory.link_bandwidth", HW_T_NUM, .unit = HW_U_BYTES_S, RATE_MIN, BW_MAX, HW_F_ZERO_OFF, D(link_bw),
     .doc = "host link (USB, PCIe) of an accelerator card or stick: graph inputs, outputs and streamed weights cross "
            "it; 0 = none"},

    {"interconnect", HW_T_SECTION,
     .doc = "several devices of this kind joined by a link, for tensor and pipeline parallelism (`nnperf llm --tp "
            "--pp`, docs/llm.md, Parallelism); every other key describes one device; absent: one device"},
    {"interconnect.devices", HW_T_INT, .min = 1, .max = 1024, .off = D(devices), .def = 1,
     .doc = "devices of the platform (GPUs of a server)"},
    {"interconnect.bandwidth", HW_T_NUM, .unit = HW_U_BYTES_S, RATE_MIN, BW_MAX, HW_F_ZERO_OFF, D(ic_bw),
     .doc = "what one device sends (and receives) per second over the link, one direction (NVLink, PCIe); 0 = none"},
    {"interconnect.efficiency", HW_T_NUM, .unit = HW_U_FRACTION, EFF_MIN, 1, 0, D(ic_eff), .def = 1,
     .doc = "fraction of `bandwidth` a collective reaches"},
    {"interconnect.latency_s", HW_T_NUM, .unit = HW_U_SECONDS, 0, 1, 0, D(ic_lat_s),
     .doc = "fixed cost of one collective or send (launch, synchronisation)"},
    {"interconnect.hop_latency_s", HW_T_NUM, .unit = HW_U_SECONDS, 0, 1, 0, D(ic_hop_s),
     .doc = "per step of a ring collective (an all-reduce over N devices takes 2(N-1) steps)"},

    {"fallback", HW_T_SECTION, .flags = HW_F_PRESENCE, .off = D(fb.present),
     .doc = "the CPU that runs what the accelerator cannot; absent: none (GPUs, CPUs)"},
    {"fallback.name", HW_T_TEXT, .flags = HW_F_REQUIRED, .off = D(fb.name), .size = DS(fb.name),
     .doc = "e.g. `cortex-a53-x4`"},
    {"fallback.peak_ops", HW_T_NUM, .unit = HW_U_OPS_S, RATE_MIN, OPS_MAX, HW_F_REQUIRED, D(fb.peak_ops),
     .doc = "the CPU's peak for this work"},
    {"fallback.bandwidth", HW_T_NUM, .unit = HW_U_BYTES_S, RATE_MIN, BW_MAX, HW_F_REQUIRED, D(fb.bandwidth),
     .doc = "the CPU's memory bandwidth"},
    {"fallback.efficiency", HW_T_NUM, .unit = HW_U_FRACTION, EFF_MIN, 1, 0, D(fb.efficiency), .def = 1,
     .doc = "fraction of `peak_ops` reached"},
    {"fallback.transfer_bandwidth", HW_T_NUM, .unit = HW_U_BYTES_S, RATE_MIN, BW_MAX, HW_F_ZERO_OFF,
     D(fb.transfer_bw),
     .doc = "across the accelerator/CPU boundary (USB for sticks, shared DDR for SoCs); 0 = no separate cost"},
    {"fallback.quantize_ops_per_element", HW_T_NUM, .unit = HW_U_NONE, 0, 1000, 0, D(fb.quant_ops_per_elem),
     .doc = "(de)quantize work at each boundary crossing, ops per element"},
    {"fallback.overhead_s", HW_T_NUM, .unit = HW_U_SECONDS, 0, 1, 0, D(fb.overhead_s),
     .doc = "per fallback layer (dispatch, synchronisation)"},

    {"overhead", HW_T_SECTION, .doc = "fixed costs"},
    {"overhead.per_layer_s", HW_T_NUM, .unit = HW_U_SECONDS, 0, 1, 0, D(layer_overhead_s),
     .doc = "fixed cost per accelerator layer (kernel launch, instruction dispatch)"},
    {"overhead.per_layer_class_s", HW_T_NUM, HW_MAP_CLASS, HW_U_SECONDS, 0, 1, HW_F_UNSET, D(layer_class_s),
     .def = -1,
     .doc = "fixed cost per accelerator layer of that operator class (`nnperf ops` shows each operator's class), "
            "in place of `per_layer_s` (a runtime whose kernels' own start and tail differ by kind: PyTorch's "
            "element-wise kernels against its cuDNN convolutions); classes not listed pay `per_layer_s` "
            "(conv_depthwise: conv_grouped's, then conv's); the copy `compute.copy_bandwidth` adds pays data's"},
    {"overhead.per_layer_overlap", HW_T_BOOL, .off = D(layer_overlap),
     .doc = "the runtime launches each layer's kernel while the previous one runs (CUDA's asynchronous launches): a "
            "layer takes the longer of its work and its fixed cost (`per_layer_s` and the other per-layer costs), "
            "not their sum; false: the sum"},
    {"overhead.small_kernel_s", HW_T_NUM, .unit = HW_U_SECONDS, 0, 1, HW_F_ZERO_OFF, D(small_kernel_s),
     .doc = "device time of each kernel a node runs beyond its first (`compute.op_kernels`): a small element-wise "
            "kernel's start, run and tail, and the gap to the next one in a replayed CUDA graph"},
    {"overhead.prefill_host_kernel_s", HW_T_NUM, .unit = HW_U_SECONDS, 0, 1, HW_F_ZERO_OFF,
     D(prefill_host_kernel_s),
     .doc = "the runtime launches a decoder's prefill eagerly (PyTorch without CUDA graphs; a server that captures "
            "graphs for decode steps only): host time to dispatch one kernel; `nnperf llm`'s prefill takes at least "
            "its kernels (launching layers, with `compute.op_kernels`) x this; 0 = not limited by the host"},
    {"overhead.thread_sync_s", HW_T_NUM, .unit = HW_U_SECONDS, 0, 1, HW_F_ZERO_OFF, D(thread_sync_s),
     .doc = "per layer of an inference run on 2 or more threads (`compute.threaded`): the barrier that ends it (the "
            "threads wait for the last; an OpenMP parallel loop's join)"},
    {"overhead.per_run_s", HW_T_NUM, .unit = HW_U_SECONDS, 0, 1, 0, D(run_overhead_s),
     .doc = "fixed cost per run before the first layer (runtime call, input pre-processing and output handling that "
            "end-to-end measurements include); paid once per accelerator call (`compute.frames_per_call`), on the "
            "accelerator's core"},
    {"overhead.per_weight_s", HW_T_NUM, .unit = HW_U_SECONDS, 0, 1e-3, 0, D(weight_prep_s),
     .doc = "time per weight element, once per run: a software runtime that converts every weight to its own layout "
            "each run (bit-packing into bit planes) before the layer's product; in each layer's overhead"},
    {"overhead.host_per_frame_s", HW_T_NUM, .unit = HW_U_SECONDS, 0, 10, 0, D(host_frame_s),
     .doc = "host CPU time per frame around the run (pre-processing, post-processing) that the measured numbers "
            "include: in series with the run in one thread, beside the accelerator when several threads run"},
    {"overhead.host_per_input_element_s", HW_T_NUM, .unit = HW_U_SECONDS, 0, 1e-3, 0, D(host_elem_s),
     .doc = "host CPU time per element of the graph's inputs, per frame (the per-pixel pre-processing: mean/scale "
            "of the image into the accelerator's input tensor), added to `host_per_frame_s` wherever that is paid: "
            "in series with the run in one thread, beside the accelerator on `host_cores` when several threads run"},
    {"overhead.host_per_output_element_s", HW_T_NUM, .unit = HW_U_SECONDS, 0, 1e-3, 0, D(host_out_elem_s),
     .doc = "host CPU time per element of the graph's floating-point outputs, per frame (the runtime's handling of "
            "the output tensors: dequantize, convert, copy out; an output the graph delivers quantized, ending in "
            "QuantizeLinear, costs none), added to `host_per_frame_s` wherever that is paid, as "
            "`host_per_input_element_s` is"},
    {"overhead.host_serial_s", HW_T_NUM, .unit = HW_U_SECONDS, 0, 10, 0, D(host_serial_s),
     .doc = "host time per frame that the application's threads cannot overlap with one another (a lock the runtime "
            "holds, one shared stage): in series with the run in one thread; with several threads at most one frame "
            "per this time, and each thread's frame waits for the other threads' (docs/prediction.md, section 5)"},
    {"overhead.host_cores", HW_T_INT, .min = 1, .max = 4096, .off = D(host_cores), .def = 1,
     .doc = "host CPU cores the per-frame host stages run on at once when several threads run (throughput)"},

    {"power", HW_T_SECTION,
     .doc = "energy (docs/prediction.md, Power): with any of these, predictions report energy per frame, average "
            "power and FPS per watt; absent: power is not described"},
    {"power.static_w", HW_T_NUM, .unit = HW_U_WATTS, 1e-6, 1e5, HW_F_ZERO_OFF, D(static_w),
     .doc = "power drawn whatever the work (leakage, clocks, the rest of the board), over the whole run"},
    {"power.op_j", HW_T_NUM, HW_MAP_DTYPE, HW_U_JOULES, 1e-18, 1e-6, HW_F_ZERO_OFF, D(op_j),
     .doc = "energy per operation per data type (1 MAC = 2 ops, as `peak_ops`), e.g. 0.5e-12 for 2 TOPS per watt"},
    {"power.ddr_j_per_byte", HW_T_NUM, .unit = HW_U_JOULES, 1e-15, 1e-6, HW_F_ZERO_OFF, D(ddr_j),
     .doc = "energy per byte moved to or from DDR (or the host link)"},
    {"power.sram_j_per_byte", HW_T_NUM, .unit = HW_U_JOULES, 1e-16, 1e-6, HW_F_ZERO_OFF, D(sram_j),
     .doc = "energy per byte of on-chip buffer traffic"},

    {"validation", HW_T_SECTION, .flags = HW_F_BAND,
     .doc = "how far the platform's predictions were off on published measurements no number of it was fitted to "
            "(the test rows of bench/fidelity/data, written by bench/fidelity/fidelity.py --write-presets): reports "
            "show them as the expected error; absent: not validated (also a file on a base that sets other keys "
            "and no validation of its own: the base's test rows did not validate it)"},
    {"validation.test_rows", HW_T_INT, .flags = HW_F_BAND, .min = 0, .max = 1e6, .off = D(val_rows),
     .doc = "number of test rows behind the two errors below"},
    {"validation.median_error", HW_T_NUM, .unit = HW_U_NONE, 0, 1e6, HW_F_BAND, D(val_median),
     .doc = "median of |predicted / measured - 1| over those rows (0.25: 25%)"},
    {"validation.p90_error", HW_T_NUM, .unit = HW_U_NONE, 0, 1e6, HW_F_BAND, D(val_p90),
     .doc = "90th percentile (nearest rank) of the same |errors|"},
    {"validation.log_spread", HW_T_NUM, .unit = HW_U_NONE, 0, 100, HW_F_BAND, D(val_spread),
     .doc = "standard deviation of ln(predicted time / measured time) over the same rows around their mean: how far "
            "one model's error strays from the platform's common bias; `nnperf calibrate --table` holds or "
            "shrinks a time scale fitted on one row by it"},
    {"validation.transformer_test_rows", HW_T_INT, .flags = HW_F_BAND, .min = 0, .max = 1e6,
     .off = D(val_fam[HW_FAM_TRANSFORMER].rows),
     .doc = "how many of the test rows are of a transformer-style model (attention, LayerNorm or GELU: "
            "docs/prediction.md, Expected error); with cnn_test_rows they add up to test_rows, else (both absent "
            "included) the rows are not given by family and reports show the band of all of them"},
    {"validation.transformer_median_error", HW_T_NUM, .unit = HW_U_NONE, 0, 1e6, HW_F_BAND,
     D(val_fam[HW_FAM_TRANSFORMER].median), .doc = "median |error| over the transformer-style test rows"},
    {"validation.transformer_p90_error", HW_T_NUM, .unit = HW_U_NONE, 0, 1e6, HW_F_BAND,
     D(val_fam[HW_FAM_TRANSFORMER].p90),
     .doc = "90th percentile (nearest rank) |error| over the transformer-style test rows"},
    {"validation.cnn_test_rows", HW_T_INT, .flags = HW_F_BAND, .min = 0, .max = 1e6, .off = D(val_fam[HW_FAM_CNN].rows),
     .doc = "how many of the test rows are of any other model (the family `cnn`)"},
    {"validation.cnn_median_error", HW_T_NUM, .unit = HW_U_NONE, 0, 1e6, HW_F_BAND, D(val_fam[HW_FAM_CNN].median),
     .doc = "median |error| over the cnn test rows"},
    {"validation.cnn_p90_error", HW_T_NUM, .unit = HW_U_NONE, 0, 1e6, HW_F_BAND, D(val_fam[HW_FAM_CNN].p90),
     .doc = "90th percentile (nearest rank) |error| over the cnn test rows"},

    {"llm_validation", HW_T_SECTION, .flags = HW_F_LLM_BAND,
     .doc = "how far `nnperf llm` was off on the platform's published LLM numbers (the test rows of "
            "bench/llm/published.csv; for the H100's and H200's PyTorch runtime files the decoders measured on them, "
            "bench/llm/measured_GPU.csv; written by bench/llm/published.py --write-presets): `nnperf llm` shows them as "
            "its expected error; absent: not validated for decoders (also a file on a base that sets other keys and "
            "no llm_validation of its own)"},
    {"llm_validation.test_rows", HW_T_INT, .flags = HW_F_LLM_BAND, .min = 0, .max = 1e6, .off = D(val_llm.rows),
     .doc = "number of LLM test rows (a prefill time, a decode rate, a batch's throughput) behind the two errors "
            "below"},
    {"llm_validation.median_error", HW_T_NUM, .unit = HW_U_NONE, 0, 1e6, HW_F_LLM_BAND, D(val_llm.median),
     .doc = "median of |predicted / published - 1| over those rows"},
    {"llm_validation.p90_error", HW_T_NUM, .unit = HW_U_NONE, 0, 1e6, HW_F_LLM_BAND, D(val_llm.p90),
     .doc = "90th percentile (nearest rank) of the same |errors|"},

    {"calibration", HW_T_SECTION,
     .doc = "what `nnperf calibrate --table` fitted to a user's measurements (docs/prediction.md, Calibration): a "
            "time scale, and the record of the fit"},
    {"calibration.time_scale", HW_T_NUM, .unit = HW_U_NONE, 1e-3, 1e3, HW_F_ZERO_OFF, D(cal_time_scale),
     .doc = "factor on every predicted time (each layer's and the per-run cost): the one scale a single "
            "measurement determines; absent: 1"},
    {"calibration.rows", HW_T_INT, .min = 0, .max = 1e6, .off = D(cal_rows),
     .doc = "measurements the calibration was fitted on"},
    {"calibration.error_before", HW_T_NUM, .unit = HW_U_NONE, 0, 1e6, 0, D(cal_error_before),
     .doc = "median |predicted / measured - 1| over those measurements before the fit"},
    {"calibration.error_after", HW_T_NUM, .unit = HW_U_NONE, 0, 1e6, 0, D(cal_error_after),
     .doc = "the same after the fit"},
    {"calibration.loo_error", HW_T_NUM, .unit = HW_U_NONE, 0, 1e6, 0, D(cal_loo_error),
     .doc = "median |error| of each measurement predicted by a fit that left it out (the honest estimate for a new "
            "model); absent: too few measurements"},
};
/* clang-format on */
const int hw_n_keys = (int)(sizeof hw_keys / sizeof hw_keys[0]);
_Static_assert(sizeof hw_keys / sizeof hw_keys[0] <= HW_KEY_CAP, "raise HW_KEY_CAP");

const struct hw_key *hw_key_find(const char *path)
{
    for (int i = 0; path && i < hw_n_keys; i++)
        if (!strcmp(hw_keys[i].path, path)) return &hw_keys[i];
    return NULL;
}

int hw_key_map_size(const struct hw_key *k)
{
    return k->map == HW_MAP_DTYPE ? HW_NDT : k->map == HW_MAP_CLASS ? OC_COUNT : 0;
}

const char *hw_key_map_name(const struct hw_key *k, int n)
{
    if (n < 0 || n >= hw_key_map_size(k)) return NULL;
    return k->map == HW_MAP_DTYPE ? hw_dtype_name(n) : op_class_name(n);
}

size_t hw_key_parent_len(const struct hw_key *k)
{
    const char *dot = strrchr(k->path, '.');
    size_t n = dot ? (size_t)(dot - k->path) : 0;
    /* "compute.fusion[]": the parent is the list row "compute.fusion" */
    size_t len = strlen(k->path);
    if (len > 2 && !strcmp(k->path + len - 2, "[]") && (!dot || dot < k->path + len - 2)) return len - 2;
    return n;
}

const struct hw_key *hw_key_parent(const struct hw_key *k)
{
    char parent[HW_MAX_KEY];
    size_t n = hw_key_parent_len(k);
    if (!n || n >= sizeof parent) return NULL;
    memcpy(parent, k->path, n);
    parent[n] = 0;
    const struct hw_key *up = hw_key_find(parent);
    if (!up && n > 2 && !strcmp(parent + n - 2, "[]")) { /* an element's key: its parent is the list */
        parent[n - 2] = 0;
        up = hw_key_find(parent);
    }
    return up;
}

int hw_key_live(const struct hw_desc *hw, const struct hw_key *k)
{
    for (const struct hw_key *p = hw_key_parent(k); p; p = hw_key_parent(p))
        if (p->type == HW_T_SECTION && (p->flags & HW_F_PRESENCE)) {
            int v;
            memcpy(&v, (const char *)hw + p->off, sizeof v);
            if (!v) return 0;
        }
    return 1;
}

const char *hw_key_leaf(const struct hw_key *k)
{
    const char *dot = strrchr(k->path, '.');
    return dot ? dot + 1 : k->path;
}

const struct hw_key *hw_key_resolve(const char *path, int *entry)
{
    if (entry) *entry = -1;
    if (!path || strchr(path, '[')) return NULL;
    const struct hw_key *k = hw_key_find(path);
    if (!k) {
        const char *dot = strrchr(path, '.');
        if (!dot) return NULL;
        char parent[HW_MAX_KEY];
        size_t n = (size_t)(dot - path);
        if (n >= sizeof parent) return NULL;
        memcpy(parent, path, n);
        parent[n] = 0;
        k = hw_key_find(parent);
        if (!k || k->map == HW_MAP_NONE) return NULL;
        for (int i = 0; i < hw_key_map_size(k); i++)
            if (!strcmp(dot + 1, hw_key_map_name(k, i))) {
                if (entry) *entry = i;
                return k;
            }
        return NULL;
    }
    if (k->type == HW_T_FORMAT || k->type == HW_T_BASE || k->type == HW_T_KEYS) return NULL;
    return k;
}

/* ---- units ---- */

struct unit_info {
    const char *name, *what;
    const char *sym[4]; /* unit symbols that may follow a multiplier, or stand alone */
    int big;            /* SI/IEC multipliers k M G T P, Ki Mi Gi Ti Pi allowed */
    int small;          /* m u n p allowed (only before a symbol) */
};

static const struct unit_info units[HW_U_COUNT] = {
    [HW_U_NONE] = {"", "a plain number", {NULL}, 1, 0},
    [HW_U_FRACTION] = {"fraction", "a fraction", {NULL}, 0, 0},
    [HW_U_OPS_S] = {"ops/s", "a rate in ops/s", {"ops/s", "OPS", "FLOPS", "ops"}, 1, 0},
    [HW_U_BYTES] = {"bytes", "a size in bytes", {"B"}, 1, 0},
    [HW_U_BYTES_S] = {"bytes/s", "a bandwidth in bytes/s", {"B/s"}, 1, 0},
    [HW_U_SECONDS] = {"seconds", "a time in seconds", {"s"}, 0, 1},
    [HW_U_HZ] = {"Hz", "a frequency in Hz", {"Hz"}, 1, 0},
    [HW_U_WATTS] = {"watts", "a power in watts", {"W"}, 1, 1},
    [HW_U_JOULES] = {"joules", "an energy in joules", {"J"}, 0, 1},
};

const char *hw_unit_name(enum hw_unit u)
{
    return u < HW_U_COUNT ? units[u].name : "";
}

const char *hw_unit_what(enum hw_unit u)
{
    return u < HW_U_COUNT ? units[u].what : "a number";
}

struct mult {
    const char *s;
    double mul;
};

static const struct mult bigs[] = {
    {"Ki", 1024.0},
    {"Mi", 1048576.0},
    {"Gi", 1073741824.0},
    {"Ti", 1099511627776.0},
    {"Pi", 1125899906842624.0},
    {"k", 1e3},
    {"M", 1e6},
    {"G", 1e9},
    {"T", 1e12},
    {"P", 1e15},
};
static const struct mult smalls[] = {{"m", 1e-3}, {"u", 1e-6}, {"n", 1e-9}, {"p", 1e-12}};

static int is_sym(const struct unit_info *ui, const char *s)
{
    for (int i = 0; i < 4 && ui->sym[i]; i++)
        if (!strcmp(s, ui->sym[i])) return 1;
    return 0;
}

/* Whether suffix p fits unit u; *mul gets its multiplier. */
static int suffix_fits(const char *p, enum hw_unit u, double *mul)
{
    const struct unit_info *ui = &units[u];
    *mul = 1;
    if (!*p || is_sym(ui, p)) return 1;
    for (size_t i = 0; ui->big && i < sizeof bigs / sizeof bigs[0]; i++) {
        size_t l = strlen(bigs[i].s);
        if (!strncmp(p, bigs[i].s, l) && (!p[l] || is_sym(ui, p + l))) {
            *mul = bigs[i].mul;
            return 1;
        }
    }
    for (size_t i = 0; ui->small && i < sizeof smalls / sizeof smalls[0]; i++)
        if (p[0] == smalls[i].s[0] && p[1] && is_sym(ui, p + 1)) {
            *mul = smalls[i].mul;
            return 1;
        }
    return 0;
}

static int is_digit(char ch)
{
    return ch >= '0' && ch <= '9';
}

int hw_parse_value(const char *s, enum hw_unit u, double *out, enum hw_unit *other)
{
    enum hw_unit dummy;
    if (!other) other = &dummy;
    *other = HW_U_COUNT;
    if (!s || !out) return 0;
    const char *p = s;
    if (*p == '+' || *p == '-') p++;
    size_t ndig = 0;
    while (is_digit(*p)) p++, ndig++;
    if (*p == '.') {
        p++;
        while (is_digit(*p)) p++, ndig++;
    }
    if (!ndig) return 0;
    if (*p == 'e' || *p == 'E') {
        const char *q = p + 1;
        if (*q == '+' || *q == '-') q++;
        if (!is_digit(*q)) return 0;
        while (is_digit(*q)) q++;
        p = q;
    }
    char num[64];
    size_t nlen = (size_t)(p - s);
    if (nlen >= sizeof num) return 0;
    memcpy(num, s, nlen);
    num[nlen] = 0;
    if (*p == ' ' && p[1]) p++; /* "19.2 GB/s" */
    double mul = 1;
    int fits = 0;
    for (int i = 0; !fits && u >= HW_U_COUNT && i < HW_U_COUNT; i++)
        fits = suffix_fits(p, (enum hw_unit)i, &mul);
    if (u < HW_U_COUNT && !(fits = suffix_fits(p, u, &mul))) {
        for (int i = 0; i < HW_U_COUNT; i++)
            if (units[i].sym[0] && suffix_fits(p, (enum hw_unit)i, &mul)) *other = (enum hw_unit)i;
        return 0;
    }
    if (!fits) return 0;
    char *end;
    double v = c_strtod(num, &end);
    if (*end || !isfinite(v)) return 0;
    v *= mul;
    if (!isfinite(v)) return 0;
    *out = v;
    return 1;
}

int hw_parse_number(const char *s, double *out)
{
    return hw_parse_value(s, HW_U_ANY, out, NULL);
}

/* ---- checks of stored values ---- */

/* Shortest "%.Ng" that reads back as exactly v, exponent without '+' and leading zeros: 1.28e14, 5e-5. */
void hw_fmt_num(double v, char *b, size_t cap)
{
    char t[40];
    for (int prec = 6; prec <= 17; prec++) {
        c_snprintf(t, sizeof t, "%.*g", prec, v);
        if (c_strtod(t, NULL) == v) break;
    }
    char *e = strchr(t, 'e');
    if (e) {
        char *q = e + 1, *r = e + 1;
        if (*r == '+')
            r++;
        else if (*r == '-')
            *q++ = *r++;
        while (*r == '0' && r[1]) r++;
        memmove(q, r, strlen(r) + 1);
    }
    snprintf(b, cap, "%s", t);
}

const char *hw_key_check_num(const struct hw_key *k, double v, char *buf, size_t cap)
{
    if (isfinite(v) && v >= k->min && v <= k->max) return NULL;
    if ((k->flags & HW_F_ZERO_OFF) && v == 0) return NULL;
    char lo[40], hi[40];
    hw_fmt_num(k->min, lo, sizeof lo);
    hw_fmt_num(k->max, hi, sizeof hi);
    const char *un = k->unit == HW_U_FRACTION ? "" : hw_unit_name(k->unit);
    snprintf(buf, cap, "must be %sbetween %s and %s%s%s", (k->flags & HW_F_ZERO_OFF) ? "0 or " : "", lo, hi,
             un[0] ? " " : "", un);
    return buf;
}

static int op_known(const char *name)
{
    return op_find_name(name) >= 0;
}

/* Whether name is a composite operator compute.composite_kernels may list. */
static int hw_composite_known(const char *name)
{
    static const char *const names[] = {"LayerNormalization", "Gelu", "HardSwish", HW_SILU};
    for (size_t i = 0; i < sizeof names / sizeof names[0]; i++)
        if (!strcmp(name, names[i])) return 1;
    return 0;
}

/* Whether name may stand in a fusion pattern: an operator nnperf knows, or HW_SILU. */
static int hw_pattern_op_known(const char *name)
{
    return op_known(name) || !strcmp(name, HW_SILU);
}

/* Control characters (and for names, spaces) that a string value may not hold. */
static int text_bad(const char *s, size_t cap, int allow_space)
{
    size_t n = strnlen(s, cap);
    if (n == cap) return 1;
    for (size_t i = 0; i < n; i++) {
        unsigned char ch = (unsigned char)s[i];
        if (ch < 0x20 && !(allow_space && (ch == '\n' || ch == '\t'))) return 1;
        if (ch == 0x7f || (!allow_space && ch == ' ')) return 1;
    }
    return 0;
}

const char *hw_key_check_item(const struct hw_key *k, const char *item, char *buf, size_t cap)
{
    int entry;
    if (k->type == HW_T_OPS && !strcmp(k->path, "compute.composite_kernels")) {
        if (!hw_composite_known(item)) {
            snprintf(buf, cap,
                     "'%.*s' is not a composite operator nnperf recognises (LayerNormalization, Gelu, "
                     "HardSwish, SiLU)",
                     HW_MAX_NAME, item);
            return buf;
        }
        return NULL;
    }
    if (k->type == HW_T_OPS && !(strstr(k->path, "fusion") ? hw_pattern_op_known(item) : op_known(item))) {
        snprintf(buf, cap, "unknown operator '%.*s' (names as in 'nnperf ops')", HW_MAX_NAME, item);
        return buf;
    }
    if (k->type == HW_T_KEYS && !hw_key_resolve(item, &entry)) {
        snprintf(buf, cap, "unknown key '%.*s' (keys as in docs/platform-format.md)", HW_MAX_KEY, item);
        return buf;
    }
    return NULL;
}

const char *hw_key_check(const struct hw_key *k, const void *base, int *bad, char *buf, size_t cap)
{
    const char *p = (const char *)base + k->off;
    const char *why = NULL;
    *bad = -1;
    switch (k->type) {
    case HW_T_NUM:
        for (int i = 0; !why && i < (k->map ? hw_key_map_size(k) : 1); i++) {
            double v;
            memcpy(&v, p + (size_t)i * sizeof v, sizeof v);
            if ((k->flags & HW_F_UNSET) && v == k->def) continue;
            if (!(why = hw_key_check_num(k, v, buf, cap))) continue;
            if (k->map) *bad = i;
            char got[40];
            hw_fmt_num(v, got, sizeof got);
            size_t used = strlen(buf);
            snprintf(buf + used, cap - used, ", got %s", got);
        }
        return why;
    case HW_T_INT:
    case HW_T_I64:
    case HW_T_BOOL:
    case HW_T_DTYPE: {
        int iv;
        int64_t lv = 0;
        if (k->type == HW_T_I64)
            memcpy(&lv, p, sizeof lv);
        else
            memcpy(&iv, p, sizeof iv), lv = iv;
        double lo = k->type == HW_T_BOOL || k->type == HW_T_DTYPE ? 0 : k->min;
        double hi = k->type == HW_T_BOOL ? 1 : k->type == HW_T_DTYPE ? HW_NDT - 1 : k->max;
        if ((double)lv >= lo && (double)lv <= hi) return NULL;
        c_snprintf(buf, cap, "must be between %.0f and %.0f, got %lld", lo, hi, (long long)lv);
        return buf;
    }
    case HW_T_TEXT:
    case HW_T_NAME:
        if (!text_bad(p, k->size, k->type == HW_T_TEXT)) return NULL;
        snprintf(buf, cap,
                 k->type == HW_T_NAME ? "must be a name without spaces or control characters"
                                      : "contains control characters");
        return buf;
    case HW_T_CLASSES: {
        unsigned m;
        memcpy(&m, p, sizeof m);
        if (!(m >> OC_COUNT)) return NULL; /* 0: absent (a required list is checked apart) */
        snprintf(buf, cap, "bad class set 0x%x", m);
        return buf;
    }
    case HW_T_OPS:
    case HW_T_KEYS:
    case HW_T_LIST: {
        int n;
        memcpy(&n, (const char *)base + k->count_off, sizeof n);
        int element = strstr(k->path, "[]") != NULL; /* a list inside a list element: its minimum applies */
        if (n < 0 || n > k->max || (n < k->min && (n || element))) {
            c_snprintf(buf, cap, "%d entries, expected %.0f to %.0f", n, k->min, k->max);
            return buf;
        }
        if (k->type == HW_T_LIST) return NULL;
        for (int i = 0; i < n; i++) {
            const char *item = p + (size_t)i * k->size;
            *bad = i;
            if (!item[0] || text_bad(item, k->size, 0)) {
                snprintf(buf, cap, "entry %d is empty or not a plain name", i);
                return buf;
            }
            if ((why = hw_key_check_item(k, item, buf, cap))) return why;
            for (int j = 0; (k->flags & HW_F_UNIQUE) && j < i; j++)
                if (!strcmp(item, p + (size_t)j * k->size)) {
                    snprintf(buf, cap, "'%s' is listed twice", item);
                    return buf;
                }
        }
        *bad = -1;
        return NULL;
    }
    default: return NULL;
    }
}
