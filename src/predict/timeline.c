/* timeline.c - HBDK-style temporal statistics: for intervals of interval_s seconds over one run, the compute
 * unit's utilization (ops done / (peak x time), in [0, 1]) and the DDR load and store bandwidth. Each layer's work
 * and bytes are spread evenly over its active period, so the series add up to the totals. With the option
 * no_timeline only the average utilization is computed (no series, and no warning about widening it). */
#include <math.h>

#include "predict.h"

enum nnperf_status pr_timeline(struct nnperf_prediction *p)
{
    double peak = pr_peak(p);
    double dt = p->interval_s;
    if (dt <= 0 || p->latency <= 0) {
        p->n_iv = 0;
        p->avg_util = 0;
        return NNPERF_OK;
    }
    double n = p->no_timeline ? 0 : ceil(p->latency / dt - 1e-9);
    if (n > PR_MAX_INTERVALS) {
        /* keep the series bounded (a tiny interval or a huge latency): widen the interval, and say so */
        double wide = p->latency / PR_MAX_INTERVALS;
        pr_warn(p,
                "timeline: an interval of %.4g ms gives %.4g intervals over the run; widened to %.4g ms (at "
                "most %d)",
                dt * 1e3, n, wide * 1e3, PR_MAX_INTERVALS);
        dt = wide;
        n = PR_MAX_INTERVALS;
        p->interval_s = dt;
    }
    p->n_iv = p->no_timeline ? 0 : n < 1 ? 1 : (int)n;
    p->iv = p->n_iv ? ar_calloc(&p->ar, (size_t)p->n_iv, sizeof *p->iv) : NULL;
    if (p->n_iv && !p->iv) return diag_set(&p->d, NNPERF_E_NOMEM, "out of memory");
    double util_time = 0;
    for (int l = 0; l < p->n_layers; l++) {
        const struct pr_layer *L = &p->layers[l];
        double len = L->end - L->start;
        if (len <= 0) continue;
        double util = (!L->fallback && peak > 0) ? (L->mac_ops + L->vec_ops) / (peak * len) : 0;
        if (util > 1) util = 1;
        double load = L->w_bytes + L->load_bytes + pr_lx(L)->spill_load_bytes;
        double store = L->store_bytes + pr_lx(L)->spill_store_bytes;
        util_time += util * len;
        if (!p->n_iv) continue;
        int a = (int)floor(L->start / dt), b = (int)floor(L->end / dt);
        if (b >= p->n_iv) b = p->n_iv - 1;
        for (int i = a; i <= b; i++) {
            double lo = i * dt > L->start ? i * dt : L->start;
            double hi = (i + 1) * dt < L->end ? (i + 1) * dt : L->end;
            if (i == p->n_iv - 1) hi = L->end;
            if (hi <= lo) continue;
            double frac = (hi - lo) / len;
            p->iv[i].util += util * (hi - lo);
            p->iv[i].load_bw += load * frac;
            p->iv[i].store_bw += store * frac;
        }
    }
    for (int i = 0; i < p->n_iv; i++) {
        double len = (i == p->n_iv - 1) ? p->latency - i * dt : dt;
        if (len <= 0) len = dt;
        p->iv[i].util /= len;
        if (p->iv[i].util > 1) p->iv[i].util = 1;
        p->iv[i].load_bw /= len;
        p->iv[i].store_bw /= len;
    }
    p->avg_util = util_time / p->latency;
    return NNPERF_OK;
}
