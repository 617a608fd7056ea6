/* analysis.h - the running analysis: shape/type inference over the graph in execution order, counting, and the
 * result handed to reports. An analysis owns everything it infers: its arena holds its own copy of the model's
 * graph records (ir_clone_graph) with the inferred dtypes, dims, values and costs, and its warnings. The model is
 * never written, so any number of analyses of one model (other input shapes, other dims) live side by side, also in
 * different threads; except a model loaded with NNPERF_LOAD_ANALYZE_ONCE, whose one analysis infers on the model's
 * own records (no copy; what it infers still lives in its arena). Consumers read the analysis's graph through
 * an_graph(), never the model's graph. */
#ifndef NNPERF_ANALYSIS_H
#define NNPERF_ANALYSIS_H

#include "../ops/ops.h"

#define AN_MAX_WARNINGS 2000
#define AN_MAX_UNBOUND  64

struct an_state {
    const struct ir_model *m; /* read only: path, producer, opsets, external data folder */
    struct ir_graph *g; /* this analysis's copy of m->graph (or m->graph itself: NNPERF_LOAD_ANALYZE_ONCE) */
    const struct ir_value
        *decl_in; /* the graph inputs as the model declared them (n_decl_in), before binding */
    int n_decl_in;
    struct arena ar; /* the copy, everything inferred, warnings */
    struct diag d;
    const char **warn;
    int n_warn, cap_warn, dropped_warn;
    struct nnperf_summary sum;
    int sub_depth; /* > 0 while inferring a subgraph */
    const char
        *unbound[AN_MAX_UNBOUND]; /* symbolic input dims left unbound (names in the model's or this arena) */
    int n_unbound;
    int unbound_input[AN_MAX_UNBOUND], unbound_axis[AN_MAX_UNBOUND]; /* where each first sits */
    int warn_unknown_op, warn_unbound; /* index of those warnings (nnperf_analysis_warning_kind), -1 none */
    int64_t batch;                     /* frames one run computes, from a bound input batch; 0 = none bound */
    const char *batch_input;           /* the input it came from */
};

struct nnperf_analysis {
    struct an_state st;
};

/* The graph this analysis inferred: node and value records with their dims, values and costs. */
static inline const struct ir_graph *an_graph(const struct an_state *an)
{
    return an->g;
}

/* Infers and counts every node of g in execution order (topologically sorted first). g's records are written: it
 * must be the analysis's own (an->g or one of its subgraphs), or a graph a test built for the purpose. */
enum nnperf_status an_run_graph(struct an_state *an, struct ir_graph *g, int64_t repeat);

/* nnperf_annotate and nnperf_annotate_write with what the writer adds (xo, src/onnx/annotate.h; its out_dir is
 * set here: dest's folder, none for NULL or "-"); the prediction's costs come this way (src/predict/annotate.c). */
struct ox_annotate_opts;
enum nnperf_status an_annotate(const struct nnperf_analysis *a, const struct ox_annotate_opts *xo,
                               const char *dest, void **out, size_t *len, char *err, size_t errlen);
enum nnperf_status an_annotate_write(const struct nnperf_analysis *a, const struct ox_annotate_opts *xo,
                                     const char *path, const struct nnperf_write_options *opts, char *err,
                                     size_t errlen);

#endif
