/* hw.h - a platform description (struct hw_desc): compute units, memory levels, fallback unit, alignment and
 * fusion rules; loaded from a YAML file (docs/platform-format.md) or a built-in preset (presets/NAME.yaml, embedded in
 * the binary), validated, and written back as YAML (probe, calibrate).
 *
 * YAML format, version 1 (every key optional unless marked; unknown keys are errors naming file, line and key):
 *
 *   format: 1
 *   name: zcu102-dpu                 # required
 *   description: "..."
 *   source: "..."                    # where the numbers come from
 *   frames_per_run: 1                # frames processed per run (batch), default 1
 *   compute:
 *     cores: 3
 *     peak_ops: {int8: 6.71e12, int4: 0, fp16: 0, bf16: 0, fp32: 0}   # ops/s, 1 MAC = 2 ops; 0/absent = unsupported
 *     default_dtype: int8
 *     vector_ops: 1e12               # ops/s for non-MAC work (element-wise FLOPs); absent: peak x efficiency
 *     efficiency: {default: 0.7, conv: 0.85, matmul: 0.8, eltwise: 0.3}   # keys: op classes (ops.h class names)
 *     supported: [Conv, Relu, ...]   # operators run on the unit (absent: all, minus 'unsupported')
 *     unsupported: [NonMaxSuppression, TopK]
 *     alignment:                     # output shape padding per operator class (NCHW; rank-2/3: last dim is C)
 *       - {classes: [conv, pool, gemm, matmul], n: 1, c: 32, h: 8, w: 16}
 *       - {classes: [eltwise, activation], pow2: true}    # every dim to the next power of two
 *     fusion:                        # node sequences that become one layer (longest match first)
 *       - [Conv, BatchNormalization, Add, Relu]
 *       - [Conv, Relu]
 *   memory:
 *     sram_bytes: 4194304            # on-chip buffer for activations (0 = none)
 *     sram_bandwidth: 1e12           # bytes/s
 *     ddr_bandwidth: 19.2e9          # bytes/s, required
 *     ddr_efficiency: 0.8            # fraction of ddr_bandwidth reached, default 1
 *     ddr_bytes: 80e9                # device memory capacity (weights, KV cache, activations); 0/absent = unknown
 *     overlap: true                  # loads/stores overlap compute (time = max), else they add
 *   fallback:                        # CPU for operators the accelerator lacks
 *     name: cortex-a53
 *     peak_ops: 1.92e11
 *     bandwidth: 4e9
 *     efficiency: 0.5
 *     transfer_bandwidth: 2e9        # bytes/s across the accelerator/CPU boundary
 *     quantize_ops_per_element: 2    # (de)quantize work at each boundary crossing, ops per element
 *     overhead_s: 5e-5               # per fallback layer (dispatch)
 *   overhead:
 *     per_layer_s: 1e-6
 *
 * Numbers may be written with SI/IEC suffixes: 19.2G, 4MiB, 2us (parsed by hw_parse_number).
 */
#ifndef NNPERF_HW_H
#define NNPERF_HW_H

#include "../core/core.h"
#include "../ops/ops.h"

#define HW_MAX_NAME    64
#define HW_MAX_OPS     256
#define HW_MAX_ALIGN   8
#define HW_MAX_FUSION  32
#define HW_MAX_PATTERN 8

enum hw_dtype { HW_INT4, HW_INT8, HW_FP16, HW_BF16, HW_FP32, HW_NDT };

const char *hw_dtype_name(int dt);     /* "int8", ... */
int hw_dtype_from_name(const char *s); /* -1 when unknown */
int hw_dtype_bytes_x2(int dt);         /* bytes per element × 2 (int4 = 1) */

struct hw_align {
    unsigned class_mask; /* bit (1u << OC_xxx) per operator class */
    int64_t n, c, h, w;  /* multiples; 0 or 1 = no padding on that axis */
    int pow2;            /* pad every dim to the next power of two */
};

struct hw_pattern {
    int len;
    char ops[HW_MAX_PATTERN][HW_MAX_NAME];
};

struct hw_fallback {
    int present;
    char name[HW_MAX_NAME];
    double peak_ops, bandwidth, efficiency, transfer_bw, quant_ops_per_elem, overhead_s;
};

struct hw_desc {
    char name[HW_MAX_NAME];
    char description[256];
    char source[512];
    int frames_per_run;
    int cores;
    double peak_ops[HW_NDT]; /* ops/s (2 per MAC); 0 = dtype unsupported */
    int default_dtype;
    double vector_ops; /* ops/s for non-MAC work; 0 = peak x efficiency */
    double eff_default;
    double eff[OC_COUNT]; /* < 0: use eff_default */
    int n_supported, n_unsupported;
    char supported[HW_MAX_OPS][HW_MAX_NAME];
    char unsupported[HW_MAX_OPS][HW_MAX_NAME];
    int n_align;
    struct hw_align align[HW_MAX_ALIGN];
    int n_fusion;
    struct hw_pattern fusion[HW_MAX_FUSION];
    double sram_bytes, sram_bw, ddr_bw, ddr_eff;
    double ddr_bytes; /* device (DDR/HBM) memory capacity, bytes; 0 = not given */
    int overlap;
    double layer_overhead_s;
    struct hw_fallback fb;
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
/* A preset name (see hw_preset_*) or a path to a YAML file. */
enum nnperf_status hw_resolve(const char *name_or_path, struct hw_desc *hw, struct diag *d);
/* Checks ranges and consistency (positive peaks and bandwidths, efficiencies in (0,1], default dtype supported). */
enum nnperf_status hw_validate(const struct hw_desc *hw, const char *file, struct diag *d);
/* Writes hw as YAML in the format above (round-trips through hw_load_yaml). */
void hw_write_yaml(const struct hw_desc *hw, struct strbuf *sb);
/* Parses "19.2e9", "19.2G", "4MiB", "2us" into SI units; returns 0 when malformed. */
int hw_parse_number(const char *s, double *out);

/* Built-in presets. */
int hw_preset_count(void);
const char *hw_preset_name(int i);
const char *hw_preset_yaml(const char *name, size_t *len); /* NULL when unknown */

/* Efficiency of an operator class on the accelerator. */
double hw_eff(const struct hw_desc *hw, int klass);
/* Whether the accelerator runs operator op_type (domain-less name). */
int hw_supports(const struct hw_desc *hw, const char *op_type);

#endif
