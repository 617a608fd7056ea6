/* schedule.c - pass 5: layers run one after another in graph order; each layer's active period (HBDK's "active
 * period of time") is [start, end); the run's latency is the end of the last layer. (A real compiler overlaps
 * neighbouring layers; this schedule is the sequential bound, documented in docs/prediction.md.) */
#include "../perf/predict.h"

void pass_schedule(struct nnperf_prediction *p)
{
    double t = 0;
    p->mac_ops = p->vec_ops = p->w_bytes = p->load_bytes = p->store_bytes = p->spill_bytes = 0;
    for (int l = 0; l < p->n_layers; l++) {
        struct pr_layer *L = &p->layers[l];
        L->start = t;
        t += L->t_total;
        L->end = t;
        p->mac_ops += L->mac_ops;
        p->vec_ops += L->vec_ops;
        p->w_bytes += L->w_bytes;
        p->load_bytes += L->load_bytes;
        p->store_bytes += L->store_bytes;
        p->spill_bytes += L->spill_store_bytes + L->spill_load_bytes;
    }
    p->latency = t;
}
