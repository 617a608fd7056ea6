/* view.h - a prediction as the reports read it, gathered once through the public accessors of include/nnperf.h
 * (never the prediction's internals): the summary, the setup, every layer with its details, and which layers are
 * shown. A layer that does no work (no ops and no predicted time, e.g. a Flatten the platform executes as a view) is
 * hidden from the tables and plots of people's reports; every report says how many it hid and why, so the layer
 * counts agree everywhere. Layers of unknown cost are shown. */
#ifndef NNPERF_REPORT_VIEW_H
#define NNPERF_REPORT_VIEW_H

#include "fmt.h"

struct rep_layer {
    int index;
    struct nnperf_layer_info li;
    struct nnperf_layer_detail d;
    int shown;
    double share; /* of the run's latency, 0..1 */
};

struct rep_view {
    const struct nnperf_prediction *p;
    const char *model; /* the model's path, for titles */
    const struct nnperf_analysis *a;
    struct nnperf_prediction_summary s;
    struct nnperf_prediction_setup su;
    struct rep_layer *L;
    int n, n_shown, n_hidden, n_unknown; /* layers; shown; hidden (no work); shown with unknown cost */
    int *by_time;                        /* indices of the shown layers, longest time first */
    const char **warn;                   /* the prediction's warnings */
};

/* model: the model's path (titles). 0, or NNPERF_E_NOMEM. */
int rep_view_init(struct rep_view *v, const struct nnperf_prediction *p, const char *model);
void rep_view_free(struct rep_view *v);
/* "57 layers; 56 shown, 1 that does no work is not (Flatten)" style sentence about hidden layers, appended to sb;
 * nothing when none is hidden. */
void rep_view_hidden_note(const struct rep_view *v, struct strbuf *sb);
/* The layer's output shape, aligned or not, as "1x64x56x56" ("?" for unknown dims or rank). */
void rep_layer_shape(char *b, size_t n, const struct rep_layer *L, int aligned);
/* "fallback" for a layer on the fallback unit, else its bound */
const char *rep_layer_bound(const struct rep_layer *L);

#endif
