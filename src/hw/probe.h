/* probe.h - measures this machine's single-thread compute and memory ceilings (`nnperf probe`) and describes them as
 * a platform (struct hw_desc) before any calibration. */
#ifndef NNPERF_HW_PROBE_H
#define NNPERF_HW_PROBE_H

#include "hw.h"

/* What the probe measured, beyond what struct hw_desc holds (for messages and the YAML's source line). */
struct hw_probe_info {
    const char *isa;      /* kernel variant used: "avx512", "avx2", "generic" */
    double fp32_ops;      /* ops/s of the FMA loop (1 FMA = 2 ops) */
    double int8_ops;      /* ops/s of the int8 dot-product loop (1 MAC = 2 ops) */
    double vector_ops;    /* FLOP/s of an element-wise fp32 kernel (mul, add, max) over L1-resident data */
    double l2_bw, ddr_bw; /* bytes/s of a STREAM triad in L2 and far past the last-level cache */
    double l2_bytes, llc_bytes; /* cache sizes found (L2 per core, last level) */
    double triad_bytes;         /* bytes of each of the three DDR triad arrays */
    double seconds;             /* wall time of the whole probe */
};

/* Measures this machine on one thread within about budget_s seconds (<= 0: 10 s; clamped to [1, 30]) and fills
 * out: name "host", the CPU model, peak_ops fp32 (FMA loop) and int8 (a compiled int8 multiply-accumulate loop:
 * what plain C code reaches, not the VNNI/AMX peak), vector_ops, ddr_bandwidth (triad over arrays >= 4x the
 * last-level cache), sram_bytes = L2 per core and sram_bandwidth (triad in L2); efficiency 1 everywhere, overlap on,
 * no fallback, per-layer overhead 0 (calibration fits it). default_dtype fp32.
 * progress (may be NULL) is called from this thread with the overall fraction done (0..1) and the phase's name.
 * info (may be NULL) receives the raw figures. Errors: NNPERF_E_NOMEM when the triad arrays cannot be allocated,
 * NNPERF_E_USAGE for a NULL out. */
enum nnperf_status hw_probe(struct hw_desc *out, double budget_s,
                            void (*progress)(void *arg, double fraction, const char *what), void *arg,
                            struct diag *d);
/* Same, also returning the raw figures. */
enum nnperf_status hw_probe_ex(struct hw_desc *out, double budget_s,
                               void (*progress)(void *arg, double fraction, const char *what), void *arg,
                               struct hw_probe_info *info, struct diag *d);

#endif
