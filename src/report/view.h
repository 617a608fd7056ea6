/* view.h - a prediction as the reports read it, through the public accessors of include/nnperf.h (never the
 * prediction's internals): the summary, the setup and which layers are shown, gathered once; a layer with its details
 * is read when a report writes it (rep_view_layer), so the view holds a byte and an index per layer, not a copy. A layer that does no work (no ops and no predicted time, e.g. a Flatten the platform executes as a view) is
 * hidden from the tables and plots of people's reports; every report says how many it hid and why, so the layer
 * counts agree everywhere. Layers of unknown cost are shown. */
#ifndef NNPERF_REPORT_VIEW_H
#define NNPERF_REPORT_VIEW_H

#include "fields.h"

struct rep_layer {
    int index;
    struct nnperf_layer_info li;
    struct nnperf_layer_detail d;
    int shown;
    double share; /* of the run's latency, 0..1 */
};

/* Why the run takes its time, computed once for every writer: the layers' time by bound (the layer's
 * nnperf_layer_info.bound, or "fallback" for a layer on the fallback unit: rep_layer_bound) and the three heaviest
 * shown layers (by_time). total is the run's latency, or the summed layer time when that is larger (layers that
 * overlap); the run's time outside every layer (latency - summed layer time, when positive: a per-run launch cost)
 * counts as overhead. The shares sum to 1 when the run takes time; a top layer's share is its rep_layer.share, of
 * the run's latency, as in the layer tables. */
#define REP_N_BOUNDS NNPERF_WHY_BOUNDS
extern const char *const rep_bound_names[REP_N_BOUNDS]; /* compute, memory, overhead, fallback, unknown */
struct rep_why {
    double t[REP_N_BOUNDS];     /* seconds per run */
    double share[REP_N_BOUNDS]; /* of total, 0..1; all 0 when total is 0 */
    double total;               /* max(latency, summed layer time), seconds per run */
    double outside;             /* of t[overhead]: the run's time outside every layer */
    int top[3], n_top;          /* indices of the heaviest shown layers, longest first */
    const char *rule[3]; /* the advice rule that addresses each (nnperf_advice_rule_for_layer), or NULL */
    double mem_t[3];     /* of t[memory]: the memory-bound layers' time by the memory that bounds them */
};
extern const char *const rep_memory_names[3];  /* ddr, sram, link (nnperf_layer_detail.memory) */
extern const char *const rep_memory_labels[3]; /* DDR, SRAM, link: as people read them */
/* the index in rep_memory_names of the memory that bounds the layer's memory time */
int rep_layer_memory(const struct rep_layer *L);

struct rep_view {
    const struct nnperf_prediction *p;
    const char *model; /* the model's path, for titles */
    const struct nnperf_analysis *a;
    struct nnperf_prediction_summary s;
    struct nnperf_prediction_setup su;
    unsigned char *shown;                /* per layer: 1 when shown */
    int n, n_shown, n_hidden, n_unknown; /* layers; shown; hidden (no work); shown with unknown cost */
    int *by_time;                        /* indices of the shown layers, longest time first */
    const char **warn;                   /* the prediction's warnings */
    struct rep_why why;
};

/* model: the model's path (titles). 0, or NNPERF_E_NOMEM. */
int rep_view_init(struct rep_view *v, const struct nnperf_prediction *p, const char *model);
void rep_view_free(struct rep_view *v);
/* Layer i (0 <= i < v->n) with its details, read through the accessors into *L; returns L. */
const struct rep_layer *rep_view_layer(const struct rep_view *v, int i, struct rep_layer *L);
/* "57 layers; 56 shown, 1 that does no work is not (Flatten)" style sentence about hidden layers, appended to sb;
 * nothing when none is hidden. */
void rep_view_hidden_note(const struct rep_view *v, struct strbuf *sb);
/* The layer's output shape, aligned or not, as "1x64x56x56" ("?" for unknown dims or rank). */
void rep_layer_shape(char *b, size_t n, const struct rep_layer *L, int aligned);
/* "fallback" for a layer on the fallback unit, else its bound */
const char *rep_layer_bound(const struct rep_layer *L);
/* A field's cell (fields.h, RF_FN) of a struct rep_layer row: rep_layer_bound, as the layer tables show it. */
void rep_layer_bound_cell(const void *ctx, const void *row, struct rf_cell *c);
/* The why block as one line: "compute-bound 62%, memory-bound 30% (DDR 25%, link 5%), ... of 2.1 ms" (which == 0)
 * or "'conv1' 1.2 ms memory-bound on DDR (14%; advise rule large-weights), ..." (which == 1), appended to sb. */
void rep_why_text(const struct rep_view *v, int which, struct strbuf *sb);

#endif
