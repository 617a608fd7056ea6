/* hw.h - a platform description (struct hw_desc): compute units, memory levels, fallback unit, alignment and
 * fusion rules; loaded from a YAML file or a built-in preset (presets/NAME.yaml, embedded in the binary), validated,
 * and written back as YAML (probe, calibrate). Every YAML key is one row of the key table (keys.h, keys.c), which
 * drives the reader (yaml.c), the defaults, the validation and the writer (hw.c) and the key table of
 * docs/platform-format.md; the format is described there.
 *
 * Numbers may be written with SI/IEC suffixes and the key's unit: 19.2GB/s, 4MiB, 2us (hw_parse_value). */
#ifndef NNPERF_HW_H
#define NNPERF_HW_H

#include "../core/core.h"
#include "../ops/ops.h"

#define HW_MAX_NAME     64
#define HW_MAX_SET      16 /* --set overrides remembered for the reports */
#define HW_MAX_SET_TEXT 160
#define HW_MAX_OPS      256
#define HW_MAX_ALIGN    8
#define HW_MAX_FUSION   32
#define HW_MAX_PATTERN  8
#define HW_MAX_FOLD     64 /* compute.dataflow.folding entries */
#define HW_MAX_OPK      16 /* compute.op_kernels entries */
#define HW_MAX_COMP     8  /* compute.composite_kernels entries */
#define HW_MAX_VIEW     16 /* compute.view_ops entries */
/* In a fusion pattern, SiLU stands for Mul(x, Sigmoid(x)) (how exporters write SiLU / Swish). */
#define HW_SILU       "SiLU"
#define HW_MAX_KEY    64 /* a dotted key path ("compute.efficiency.conv") */
#define HW_MAX_ASSUME 64

enum hw_dtype { HW_INT4, HW_INT8, HW_FP16, HW_BF16, HW_FP32, HW_FP8, HW_NDT }; /* fp8: e4m3 or e5m2 */

const char *hw_dtype_name(int dt);     /* "int8", ... */
int hw_dtype_from_name(const char *s); /* -1 when unknown; fp8_e4m3, fp8_e5m2, e4m3 and e5m2 are fp8 */
int hw_dtype_bytes_x2(int dt);         /* bytes per element × 2 (int4 = 1) */

struct hw_align {
    unsigned class_mask; /* bit (1u << OC_xxx) per operator class */
    int64_t n, c, h, w;  /* multiples; 0 or 1 = no padding on that axis */
    int pow2;            /* pad every dim to the next power of two */
    int products;        /* only outputs derived from a product of two activations (attention scores) */
};

/* the folding of one layer's engine in a dataflow accelerator (compute.dataflow.folding[]) */
struct hw_fold {
    char node[HW_MAX_NAME]; /* the ONNX node that leads the layer */
    int64_t pe, simd;       /* output channels and reduction elements it computes per cycle */
};

/* the kernels a runtime runs for one node of an operator (compute.op_kernels[]) */
struct hw_opk {
    char op[HW_MAX_NAME]; /* the ONNX operator type (a contrib one: its name alone) */
    int kernels;          /* >= 1 */
};

struct hw_pattern {
    int len;
    char ops[HW_MAX_PATTERN][HW_MAX_NAME];
};

/* A compute unit's MAC array per dtype: parallel lanes over the reduction (input channels / groups x kernel taps, a
 * matmul's inner dim), over output channels (per group), and over output pixels (a matmul's rows). A layer's
 * utilization is the product of dim / round_up(dim, lanes) over the three; reduce 0 = not described for that dtype
 * (the roofline compute model with per-class efficiencies is used instead). */
#define HW_MAX_MODES 8
#define HW_MAX_TILES 8

/* one way an array's lanes split (compute.array.modes): input channels over `blocks` blocks, the lanes / blocks
 * output channels of a descriptor; `overhead` cycles per descriptor and output pixel */
struct hw_mode {
    int64_t blocks;
    double overhead;
};

/* one output tile shape a GPU runtime's kernels offer (compute.array.tiles) */
struct hw_tile {
    int64_t channels, pixels; /* output channels (a GEMM's columns) x output pixels (its rows) */
    double efficiency;        /* the shape's rate against the others'; 0 = 1 */
};

struct hw_array {
    double reduce[HW_NDT], channels[HW_NDT], pixels[HW_NDT];
    int span_groups; /* output-channel lanes fill across a grouped conv's groups (channel-parallel depthwise) */
    double units;    /* output tiles (pixels x channels lanes) computed at once, a GPU's SMs; 0 = one tile */
    int batch_rows; /* the pixel lanes take the output pixels of every frame of a run together (implicit GEMM) */
    int matmul_rows_untiled; /* the pixel lanes tile a convolution's rows only, not a MatMul's or Gemm's */
    int n_modes; /* > 0: a dense layer's utilization from its cheapest mode (the Myriad X NCE's) */
    struct hw_mode modes[HW_MAX_MODES];
    double block_reduce_max; /* input channels per block x kernel taps a descriptor holds; 0 = no limit */
    double fc_tile; /* a fully connected layer's input and output run in tiles of this many; 0 = not tiled */
    int n_tiles; /* > 0: each conv or matmul takes the tile of least padded work instead of channels x pixels */
    struct hw_tile tiles[HW_MAX_TILES];
};

/* Winograd convolution of 3x3 stride-1 dense convs (a CPU runtime's choice, ncnn's rule): per dtype the largest output
 * tile m of F(m x m, 3 x 3) (2, 4 or 6; 0 = direct convolution for that dtype), used when both channel counts are at
 * most large_channels; else F(4,3) when both are at least min_channels, else F(2,3); no Winograd when neither
 * channel count reaches min_channels */
struct hw_winograd {
    double tile[HW_NDT];
    double min_channels, large_channels;
};

/* per-element costs of a CPU's kernels (the kernel-cost compute model; all 0 = not that model) */
struct hw_kernel_costs {
    double output_s;   /* per output element of a MAC layer */
    double pass_s;     /* per element of a fused activation other than Relu (a pass after the kernel) */
    double element_s;  /* per element read or written by a layer without MACs */
    double narrow_eff; /* efficiency of a conv with at most 4 input channels per group; 0 = the class's */
};

struct hw_fallback {
    int present;
    char name[HW_MAX_NAME];
    double peak_ops, bandwidth, efficiency, transfer_bw, quant_ops_per_elem, overhead_s;
};

enum { HW_FAM_TRANSFORMER, HW_FAM_CNN }; /* hw_desc.val_fam */

struct hw_desc {
    char name[HW_MAX_NAME];
    char description[256];
    char source[512];
    int frames_per_run;
    int cores;
    double peak_ops[HW_NDT]; /* ops/s (2 per MAC); 0 = dtype unsupported */
    int default_dtype;
    double vector_ops;     /* ops/s for non-MAC work; 0 = peak x efficiency */
    double tf32_ops;       /* ops/s of FP32 layers run as TF32 on tensor cores; 0 = none */
    unsigned tf32_classes; /* operator classes (1u << enum op_class) tf32_ops applies to; 0 = all */
    double eff_default;
    double eff[OC_COUNT];     /* < 0: use eff_default */
    double dtype_eff[HW_NDT]; /* a factor on every class's efficiency at that dtype; 0 = 1 */
    int n_supported, n_unsupported;
    char supported[HW_MAX_OPS][HW_MAX_NAME];
    char unsupported[HW_MAX_OPS][HW_MAX_NAME];
    int n_align;
    struct hw_align align[HW_MAX_ALIGN];
    int n_fusion;
    struct hw_pattern fusion[HW_MAX_FUSION];
    struct hw_array array;
    struct hw_kernel_costs kc;
    int cores_per_inference; /* cores one inference runs on (1: each core runs its own); 0 = all (layers split) */
    double par_speedup;      /* how many times one core's rate those cores reach together; 0 = their number */
    int threaded;            /* 1: the cores are a CPU runtime's threads (nnperf_predict_options.threads) */
    double thread_tile;   /* output channels per unit of a layer's work split over threads; 0 = even split */
    double thread_sync_s; /* per layer run on 2 or more threads: the barrier that ends it */
    /* a node of these operators runs as that many kernels (compute.op_kernels[]): each beyond the first takes
     * small_kernel_s (overhead.small_kernel_s); an eager prefill takes at least its kernels x
     * prefill_host_kernel_s of host time (overhead.prefill_host_kernel_s; 0: none) */
    struct hw_opk opk[HW_MAX_OPK];
    int n_opk;
    double small_kernel_s, prefill_host_kernel_s;
    double core_bw; /* bytes/s one core (thread) reaches from DDR; 0 = the shared DDR's */
    struct hw_winograd wino;
    double gemm_output_s; /* roofline: one core's seconds per output element of a GEMM-run layer; 0 = none */
    double strided_in_bw; /* bytes/s at which a strided conv's input is re-laid out first (0 = no cost) */
    double sram_bytes, sram_bw, ddr_bw, ddr_eff;
    double ddr_bytes;      /* device (DDR/HBM) memory capacity, bytes; 0 = not given */
    double reserved_bytes; /* of ddr_bytes, held by the runtime and OS before the model (`nnperf llm`) */
    double
        kv_fraction; /* of the memory left after weights, activations and reserve: the KV cache's (1 = all) */
    double host_bw;  /* host memory link (PCIe) for weights offloaded to host memory; 0 = none */
    int devices;     /* interconnect.devices: devices joined by the link (tensor/pipeline parallelism) */
    double ic_bw, ic_eff, ic_lat_s,
        ic_hop_s; /* the link: bytes/s one direction, its efficiency, fixed and per-step
                                                 latency of a collective */
    int overlap;
    double overlap_exp; /* compute and memory combine as (c^k + m^k)^(1/k) when overlapping; 0 = max */
    unsigned overlap_exp_classes; /* operator classes (1u << enum op_class) overlap_exp applies to; 0 = all */
    int fuse_pointwise;        /* adjacent element-wise, norm, reduce, data and view nodes join one kernel */
    int fused_attention;       /* MatMul(Q,K) -> pointwise -> Softmax -> MatMul(.,V) is one kernel */
    int fuse_sibling_products; /* constant-weight MatMuls/Gemms reading one tensor run as one kernel */
    int lut_chains;            /* a chain of one-tensor element-wise nodes in one layer is one table lookup */
    int kv_per_query_head;     /* decode attention reads a grouped-query KV head once per query head */
    int weight_only;  /* a dtype without a peak is weight-only quantization: computed at default_dtype */
    int frame_serial; /* a batch runs frame by frame: per-layer cost and streamed weights once per frame */
    /* a dataflow accelerator (FINN): one engine per layer at this clock, folded as fold[] says (absent: PE = SIMD =
     * 1); all layers stream at once. 0 = not a dataflow accelerator */
    double dataflow_hz;
    int n_fold;
    struct hw_fold fold[HW_MAX_FOLD];
    /* without a folding list: the folding a FINN designer reaches on this fabric (compute.c, df_derive): the
     * smallest target cycles per frame whose folding fits the LUTs and the weight memories. luts 0 = not derived */
    double df_luts, df_lut_fraction,
        df_lut_per_lane_bit;                    /* LUTs; the share the lanes may use; LUTs per lane bit^2 */
    double df_bram18, df_uram, df_mem_fraction; /* 18 Kb block RAMs, 288 Kb UltraRAMs, the usable share */
    double df_fill;   /* a frame's pass: the slowest layer + df_fill x the other layers' frame times */
    int df_streaming; /* a frame's pass streams row by row through the engines (schedule.c; df_fill unused) */
    char memory_model[HW_MAX_NAME]; /* a name of src/hw/memory_models.def; "" = planned */
    double weight_sram_bytes; /* on-chip weight memory: weights that fit stay resident across inferences */
    double link_bw; /* host link (USB, PCIe) bytes/s: inputs, outputs and streamed weights; 0 = none */
    double layer_overhead_s;
    double layer_class_s[OC_COUNT]; /* overhead.per_layer_class_s: < 0 = layer_overhead_s */
    int layer_overlap; /* overhead.per_layer_overlap: a layer takes max(its work, per_layer_s), not their sum */
    double run_overhead_s; /* fixed cost per accelerator call: runtime call, driver */
    double
        weight_prep_s; /* per weight element, once per run: the runtime converts every weight to its layout */
    double host_frame_s;    /* host CPU time per frame around the run (pre-/post-processing) */
    double host_elem_s;     /* host CPU time per frame per element of the graph's inputs (pre-processing) */
    double host_out_elem_s; /* host CPU time per frame per element of the graph's outputs (post-processing) */
    int host_cores;         /* host cores the host stages use at once (throughput) */
    double host_serial_s;   /* host time per frame that the application's threads cannot overlap (a lock) */
    int frames_per_call;    /* frames one accelerator call takes; 0 = the whole run */
    /* power: static watts, joules per op per dtype, per DDR byte and per on-chip byte (all 0: not described) */
    double static_w, op_j[HW_NDT], ddr_j, sram_j;
    /* validation: the median and 90th-percentile |error| of the platform's test rows in bench/fidelity/data and their
     * number (0: not validated); reports show them as the prediction's expected error */
    int val_rows;
    double val_median, val_p90;
    double
        val_spread; /* standard deviation of ln(predicted / measured time) over those rows (0: not given) */
    /* the same over the test rows of each model family (HW_FAM_*: docs/prediction.md, "Expected error"): rows 0 and
     * 0 for both: not given by family */
    struct hw_val_family {
        int rows;
        double median, p90;
    } val_fam[2];
    /* the same over the platform's LLM test rows (bench/llm/published.csv, or the decoders measured on a lent GPU:
     * bench/llm/published.py --write-presets): `nnperf llm` reports them as its expected error; rows 0: not
     * validated for decoders */
    struct hw_val_family val_llm;
    /* calibration (nnperf calibrate --table): a factor on every predicted time (0: none) and the record of the fit:
     * rows fitted, median |error| before and after, leave-one-out median |error| (0: not available) */
    double cal_time_scale;
    int cal_rows;
    double cal_error_before, cal_error_after, cal_loo_error;
    struct hw_fallback fb;
    /* keys whose values are assumptions rather than published facts (key paths, validated against the table) */
    int n_assume;
    /* values the user changed after loading (nnperf_platform_set, --set): "key=value" each, as given */
    char set[HW_MAX_SET][HW_MAX_SET_TEXT];
    int n_set;
    char assume[HW_MAX_ASSUME][HW_MAX_KEY];
    /* the runtime's kernels (docs/prediction.md, Runtimes): operators (LayerNormalization, Gelu, HardSwish, SiLU) run
     * as one kernel where the exporter wrote them as several nodes (compute.composite_kernels); a convolution's bias
     * added by a kernel of its own (compute.bias_kernel); operators run as views of their input, no kernel
     * (compute.view_ops); the rate at which the bias kernel reads and writes the convolution's whole output
     * wherever the memory plan keeps it (compute.bias_kernel_bandwidth, bytes/s; 0: DDR's, only where it goes to
     * DDR); the rate at which a copy that makes a permuted view contiguous reads and writes its tensor
     * (compute.copy_bandwidth, bytes/s; 0: no copy); the rate at which a LayerNorm or ReduceMean kernel reads and
     * writes its tensors wherever the plan keeps them (compute.norm_bandwidth, bytes/s; 0: the memory plan's); the
     * least time a LayerNorm kernel takes per row it normalises (compute.norm_row_s, seconds; 0: none); the rate at
     * which a Concat kernel reads its inputs and writes its output wherever the plan keeps them
     * (compute.concat_bandwidth, bytes/s; 0: the memory plan's); the least time a window pooling kernel takes per
     * output element (compute.pool_element_s, seconds; 0: none); the rate at which the kernels that re-lay out a
     * grouped convolution's input and output read and write them (compute.grouped_transform_bandwidth, bytes/s; 0:
     * no such kernels); 1: those kernels do not run where a group holds a power of two of input channels
     * (compute.grouped_transform_skip_pow2) */
    double concat_bw;
    double pool_elem_s;
    double group_xform_bw;
    int group_xform_skip_pow2;
    double copy_bw;
    double norm_bw;
    double norm_row_s;
    int n_composite;
    char composite[HW_MAX_COMP][HW_MAX_NAME];
    int bias_kernel;
    double bias_kernel_bw;
    double bias_kernel_s; /* the bias kernel's fixed cost; 0 = the layer's per-layer cost */
    int n_view;
    char view[HW_MAX_VIEW][HW_MAX_NAME];
};

/* The public handle (include/nnperf.h) is a hw_desc; defined here so the passes reach it without casts.
 * (src/hw/platform_api.c must not define it again.) */
struct nnperf_platform {
    struct hw_desc hw;
};

/* Defaults for every optional field (efficiency 1, ddr_efficiency 1, frames_per_run 1, overlap on, ...). */
void hw_init(struct hw_desc *hw);
/* Parses YAML text; 'file' names it in messages ("file.yaml:12: key 'compute.peak_ops.int9' is not known"). */
enum nnperf_status hw_load_yaml(const char *text, size_t len, const char *file, struct hw_desc *hw,
                                struct diag *d);
enum nnperf_status hw_load_file(const char *path, struct hw_desc *hw, struct diag *d);
#define HW_MAX_BASE      8  /* base: chains at most this deep */
#define HW_LOAD_NO_FILES 1u /* base: may name presets only (a preset's base; fuzzing) */
/* the text is a built-in preset, the program's own: neither the event pass that guards against hostile YAML nor
 * hw_validate runs (test_hw runs both on every preset) */
#define HW_LOAD_PRESET 2u
/* hw_load_yaml with the description's identity for cycles of base: (a real path, "preset:NAME", or NULL) and
 * HW_LOAD_ flags. A base: file is read relative to the folder of 'file'. */
enum nnperf_status hw_load_text(const char *text, size_t len, const char *file, const char *id,
                                unsigned flags, struct hw_desc *hw, struct diag *d);
/* Sets one key (a path of the key table, or a map entry "compute.peak_ops.int8") from YAML text ("16MiB",
 * "[Conv, Relu]", "{conv: 0.5}"), checked like the file's keys and then the whole description; the key's
 * assumption mark, if any, is dropped. On error hw is unchanged: "--set memory.sram_bytes: must be ...". */
enum nnperf_status hw_set(struct hw_desc *hw, const char *key, const char *value, struct diag *d);
/* Reads a regular file of at most 1 MiB into *buf (malloc'd, NUL-terminated; the caller frees it). FIFOs, folders
 * and devices are refused before any read: NNPERF_E_IO "PATH: cannot read: not a regular file (a FIFO)". */
enum nnperf_status hw_read_file(const char *path, char **buf, size_t *len, struct diag *d);
/* strerror(err) starting lowercase, for messages. */
void hw_errno_text(int err, char *buf, size_t cap);
/* A preset name (see hw_preset_*) or a path to a YAML file. */
enum nnperf_status hw_resolve(const char *name_or_path, struct hw_desc *hw, struct diag *d);
/* Checks ranges and consistency (positive peaks and bandwidths, efficiencies in (0,1], default dtype supported). */
enum nnperf_status hw_validate(const struct hw_desc *hw, const char *file, struct diag *d);
/* Writes hw as YAML in the format above (round-trips through hw_load_yaml). */
void hw_write_yaml(const struct hw_desc *hw, struct strbuf *sb);
/* hw_write_yaml for a description a program made (calibrate's fit), then read back with the reader of `--hw FILE`:
 * NNPERF_OK, or NNPERF_E_INVALID naming what (e.g. "the calibrated platform") and the reader's message, so that
 * nothing is written that nnperf itself would refuse. */
enum nnperf_status hw_write_yaml_checked(const struct hw_desc *hw, const char *what, struct strbuf *sb,
                                         struct diag *d);
/* Parses "19.2e9", "19.2G", "4MiB", "2us" into SI units; returns 0 when malformed. */
int hw_parse_number(const char *s, double *out);

/* Built-in presets. */
int hw_preset_count(void);
const char *hw_preset_name(int i);
const char *hw_preset_yaml(const char *name, size_t *len); /* NULL when unknown */

/* The memory model (enum nnperf_memory_model) of a name (a row of src/hw/memory_models.def): -1 when unknown; "" is
 * the default, 0. */
int hw_memory_model_from_name(const char *s);
/* Efficiency of an operator class on the accelerator. */
double hw_eff(const struct hw_desc *hw, int klass);
/* Drop the platform's expected-error bands (reports then say "not validated"): the CNN band (validation) when cnn,
 * the LLM band (llm_validation) when llm; for a description that is no longer the one the test rows validated. */
void hw_drop_bands(struct hw_desc *hw, int cnn, int llm);
/* Whether an operator class's layers at dtype dt run as TF32 (compute.tf32_ops, compute.tf32_classes). */
int hw_tf32(const struct hw_desc *hw, int dt, int klass);
/* The fastest rate at dtype dt: peak_ops, or for FP32 the TF32 rate when that is higher (the run's peak). */
double hw_dtype_peak(const struct hw_desc *hw, int dt);
/* Whether the platform's runtime runs operator op_type as a view of its input (compute.view_ops). */
int hw_is_view(const struct hw_desc *hw, const char *op_type);
/* the kernels the runtime runs for one node of that operator (compute.op_kernels; 1 when not listed) */
int hw_op_kernels(const struct hw_desc *hw, const char *op_type);
/* Whether the accelerator runs operator op_type (domain-less name). */
int hw_supports(const struct hw_desc *hw, const char *op_type);

#endif
