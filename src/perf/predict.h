/* predict.h - a prediction: the analysed graph mapped onto a platform. The passes (src/passes/) fill it in
 * order: fuse -> align -> memory plan -> (roofline, src/perf/roofline.c) -> schedule -> timeline. Each pass reads
 * what earlier ones wrote and adds its own; the model and its analysis are never modified, so one analysis can be
 * predicted on many platforms. */
#ifndef NNPERF_PREDICT_H
#define NNPERF_PREDICT_H

#include "../analysis/analysis.h"
#include "../advise/whatif.h"
#include "../hw/hw.h"

enum pr_bound { PB_COMPUTE, PB_MEMORY, PB_OVERHEAD, PB_UNKNOWN };

/* A tensor passed between layers (an activation), after view aliasing. */
struct pr_tensor {
    const struct ir_value *v;
    int storage;  /* index of the tensor whose memory this one shares (views alias), else itself */
    int producer; /* layer index, -1 = graph input */
    int last_use; /* last consuming layer, or n_layers for graph outputs */
    double bytes; /* per run, at the prediction dtype, after alignment */
    int in_sram;  /* 1 when it lives on chip for its whole life */
    int spilled;  /* 1 when stored to DDR and read back */
};

struct pr_layer {
    const char *name;
    struct ir_node **nodes; /* in execution order; nodes[0] names the layer, main is the costliest */
    int n_nodes;
    const struct ir_node *main;
    int klass;    /* operator class of the main node */
    int fallback; /* runs on the fallback unit */
    int cost_known;
    /* work per run (frames_per_run frames) */
    double mac_ops, vec_ops; /* effective: 2 x MACs, other FLOPs */
    double align_factor;     /* aligned / original output elements (>= 1) */
    double mac_ops_aligned, vec_ops_aligned;
    const struct ir_value *out; /* the layer's (first) output */
    int64_t aligned_dims[NNPERF_MAX_RANK];
    int out_rank;
    /* DDR traffic per run, bytes */
    double w_bytes, load_bytes, store_bytes, spill_store_bytes, spill_load_bytes, sram_bytes;
    double transfer_bytes, quant_elems; /* fallback boundary crossing */
    /* times, seconds per run */
    double t_compute, t_memory, t_transfer, t_overhead, t_total;
    int bound;
    double start, end;
};

struct pr_interval {
    double util, load_bw, store_bw; /* utilization in [0,1]; bytes/s */
};

struct nnperf_prediction {
    struct arena ar;
    const struct an_state *an;
    struct hw_desc hw;
    int dtype; /* enum hw_dtype */
    int batch; /* frames per run */
    int memory_model;
    double interval_s;
    const struct nnperf_whatif *wi; /* a design change to apply (src/advise/whatif.h), NULL = none */
    struct pr_layer *layers;
    int n_layers;
    int *layer_of; /* node index -> layer index */
    struct pr_tensor *tensors;
    int n_tensors;
    struct pr_interval *iv;
    int n_iv;
    /* totals per run */
    double latency, mac_ops, vec_ops, w_bytes, load_bytes, store_bytes, spill_bytes;
    double avg_util;
    int fallback_layers, spilled_tensors, unknown_layers;
    const char **warn;
    int n_warn, cap_warn;
    struct diag d;
};

void pr_warn(struct nnperf_prediction *p, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 2, 3)))
#endif
    ;

/* The passes, in order. */
enum nnperf_status pass_fuse(struct nnperf_prediction *p);
enum nnperf_status pass_align(struct nnperf_prediction *p);
enum nnperf_status pass_memplan(struct nnperf_prediction *p);
void perf_roofline(struct nnperf_prediction *p);
void pass_schedule(struct nnperf_prediction *p);
enum nnperf_status perf_timeline(struct nnperf_prediction *p);

/* The roofline of one workload: attainable ops/s = min(peak, bandwidth x intensity) (Williams et al. 2009;
 * QuTiBench, seed 001). Returns 0 when peak or bandwidth is 0. */
double perf_attainable(double ops, double bytes, double peak, double bandwidth);
/* Bytes per element at the prediction dtype, x2 (int4 = 1). */
double pr_elem_bytes(const struct nnperf_prediction *p, int is_weight);

#endif
