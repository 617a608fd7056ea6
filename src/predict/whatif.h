/* whatif.h - a "what-if": a structured change to a model, given to the prediction pipeline as an input
 * (nnperf_predict_options.whatif). The pipeline applies it to its own copy of the inputs before any stage runs
 * (whatif.c: pr_inputs), so the stages never see it: the effect of a design change is predicted by the same model
 * as everything else, gain = latency(without) - latency(with). The advice module (src/advise/) builds one per
 * finding with pr_whatif_add. The analysis and the model are never modified.
 *
 * Changes are approximations of editing the graph (docs/advise.md): a channel change scales costs and bytes by
 * new/old instead of re-running shape inference; a grouped conv divides its MACs and weights by the groups. */
#ifndef NNPERF_WHATIF_H
#define NNPERF_WHATIF_H

#include "../ir/ir.h"

enum pr_change_kind {
    WI_SUPPORT_OP, /* op: the accelerator runs it (no fallback, fusion allowed) */
    WI_FUSE, /* nodes[0..n_nodes): one fused layer (e.g. Conv, Relu, Add with the Relu moved after the Add) */
    WI_CHANNELS, /* v: its channel axis becomes n (alignment of the layer producing it; bytes scale by factor) */
    WI_SCALE_NODE, /* node: MACs x mac, other FLOPs x vec, weights x params */
    WI_GROUPED,    /* node: a grouped convolution (operator class conv_grouped) */
    WI_PIN,        /* v: kept in SRAM beside the plan (never spilled, not counted against the capacity) */
    WI_DROP,       /* node: folded away (no work, no bytes: treated as a view) */
    WI_UNPAD, /* node: the layer whose output it makes is not padded by the alignment (aligned = real shape) */
};

struct pr_change {
    int kind;         /* enum pr_change_kind */
    int node;         /* node index in the top graph (SCALE_NODE, GROUPED, DROP, UNPAD) */
    const int *nodes; /* FUSE: node indices in execution order */
    int n_nodes;
    const struct ir_value *v; /* CHANNELS, PIN */
    const char *op;           /* SUPPORT_OP */
    double mac, vec, params;  /* SCALE_NODE factors */
    double factor;            /* CHANNELS: new / old channels */
    int64_t n;                /* CHANNELS: the new channel count */
};

/* The public handle (include/nnperf.h declares it opaque). Owned by whoever built it (the advice). */
struct nnperf_whatif {
    struct pr_change *c;
    int n, cap;
    int batch;         /* > 0: frames per run instead of the options' */
    const char *dtype; /* non-NULL: the dtype instead of the options' */
};

/* Appends a change (memory from ar); returns it zeroed apart from kind and the neutral factors, or NULL. */
struct pr_change *pr_whatif_add(struct arena *ar, struct nnperf_whatif *w, int kind);

#endif
