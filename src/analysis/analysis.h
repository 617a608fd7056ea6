/* analysis.h - the running analysis: shape/type inference over the graph in execution order, counting, and the
 * result handed to reports. One arena per analysis holds warnings and report rows; inferred dims live in the
 * model's arena next to the values they describe. */
#ifndef NNPERF_ANALYSIS_H
#define NNPERF_ANALYSIS_H

#include "../ops/ops.h"

#define AN_MAX_WARNINGS 2000
#define AN_MAX_UNBOUND  64

struct an_state {
    struct ir_model *m;
    struct arena ar;
    struct diag d;
    const char **warn;
    int n_warn, cap_warn, dropped_warn;
    struct nnperf_summary sum;
    int sub_depth;                       /* > 0 while inferring a subgraph */
    const char *unbound[AN_MAX_UNBOUND]; /* symbolic input dims left unbound (names in the model arena) */
    int n_unbound;
};

struct nnperf_analysis {
    struct an_state st;
};

void an_warn(struct an_state *an, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 2, 3)))
#endif
    ;
/* Infers and counts every node of g in execution order (topologically sorted first). */
enum nnperf_status an_run_graph(struct an_state *an, struct ir_graph *g, int64_t repeat);
/* Sorts g->nodes topologically; a cycle is an error naming a node on it. */
enum nnperf_status an_topo_sort(struct ir_graph *g, struct arena *ar, struct diag *d);

#endif
