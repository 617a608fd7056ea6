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

#endif
