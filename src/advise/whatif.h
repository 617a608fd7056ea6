/* whatif.h - a "what-if": a structured change to a model, applied to a copy of a prediction's inputs while the
 * passes run (nnperf_predict_options.whatif), so that the effect of a design change is predicted by the same model
 * as everything else: gain = latency(without) - latency(with). Built by the advice module (src/advise/advise.c),
 * one per finding; consumed by small hooks in the passes (src/passes/fuse.c, align.c, memplan.c,
 * src/perf/roofline.c, src/perf/predict.c). The analysis and the model are never modified. Every query below
 * returns the neutral answer (1.0, 0, "no") for a NULL what-if, so the passes behave exactly as before without one.
 *
 * Changes are approximations of editing the graph (docs/advise.md): a channel change scales costs and bytes by
 * new/old instead of re-running shape inference; a grouped conv divides its MACs and weights by the groups. */
#ifndef NNPERF_WHATIF_H
#define NNPERF_WHATIF_H

#include "../ir/ir.h"

enum adv_wi_kind {
    WI_SUPPORT_OP, /* op: the accelerator runs it (no fallback, fusion allowed) */
    WI_FUSE, /* nodes[0..n_nodes): one fused layer (e.g. Conv, Relu, Add with the Relu moved after the Add) */
    WI_CHANNELS, /* v: its channel axis becomes n (alignment of the layer producing it; bytes scale by factor) */
    WI_SCALE_NODE, /* node: MACs x mac, other FLOPs x vec, weights x params */
    WI_GROUPED,    /* node: a grouped convolution (operator class conv_grouped) */
    WI_PIN,        /* v: kept in SRAM beside the plan (never spilled, not counted against the capacity) */
    WI_DROP,       /* node: folded away (no work, no bytes: treated as a view) */
};

struct adv_change {
    int kind;         /* enum adv_wi_kind */
    int node;         /* node index in the top graph (SCALE_NODE, GROUPED, DROP) */
    const int *nodes; /* FUSE: node indices in execution order */
    int n_nodes;
    const struct ir_value *v; /* CHANNELS, PIN */
    const char *op;           /* SUPPORT_OP */
    double mac, vec, params;  /* SCALE_NODE factors */
    double factor;            /* CHANNELS: new / old channels */
    int64_t n;                /* CHANNELS: the new channel count */
};

/* The public handle (include/nnperf.h declares it opaque). Owned by the advice that built it. */
struct nnperf_whatif {
    struct adv_change *c;
    int n, cap;
    int batch;         /* > 0: frames per run instead of the options' */
    const char *dtype; /* non-NULL: the dtype instead of the options' */
};

/* Appends a change (memory from ar); returns it zeroed apart from kind and the neutral factors, or NULL. */
struct adv_change *adv_wi_add(struct arena *ar, struct nnperf_whatif *w, int kind);

/* ---- queries used by the passes (NULL w = no change) ---- */
int adv_wi_supports(const struct nnperf_whatif *w, const char *op_type);
/* When node k starts a forced fusion: its node indices and count; else 0. */
int adv_wi_fuse_group(const struct nnperf_whatif *w, int k, const int **nodes);
/* Factors for a node's MACs, other FLOPs and weights (1 when unchanged, 0 when dropped). */
void adv_wi_node_scales(const struct nnperf_whatif *w, const struct ir_node *nd, double *mac, double *vec,
                        double *params);
int adv_wi_grouped(const struct nnperf_whatif *w, const struct ir_node *nd);
int adv_wi_dropped(const struct nnperf_whatif *w, const struct ir_node *nd);
/* The new channel count of v (0: unchanged) and the scale of its bytes (1: unchanged). */
int64_t adv_wi_channels(const struct nnperf_whatif *w, const struct ir_value *v);
double adv_wi_bytes_scale(const struct nnperf_whatif *w, const struct ir_value *v);
int adv_wi_pinned(const struct nnperf_whatif *w, const struct ir_value *v);

#endif
