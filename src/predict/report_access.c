/* report_access.c - the public accessors reports need beyond the summary and the layers (include/nnperf.h):
 * the prediction's setup and schedule, each layer's fused nodes, output shape and busy periods per lane, and the
 * timeline series. Reports (src/report) read predictions only through these, so the prediction's internals can
 * change without touching them. */
#include <string.h>

#include "predict.h"

void nnperf_prediction_setup(const struct nnperf_prediction *p, struct nnperf_prediction_setup *s)
{
    memset(s, 0, sizeof *s);
    const struct pr_memory_model *mm = &pr_memory_models[p->memory_model];
    s->memory_model = mm->name;
    switch (mm->schedule) {
    case PR_SCHED_OVERLAPPED:
        s->schedule =
            "Weights-only memory model (QuTiBench): activations stay on chip, and the layers, one after "
            "another, are scaled so that the run takes the longer of all compute and all weight traffic.";
        break;
    case PR_SCHED_GROUPED:
        s->schedule =
            p->hw->overlap
                ? "Layers run one after another, except that the layers of a depth-first group (tiled "
                  "memory model) interleave tile by tile: each is active over the whole group's span, and "
                  "the lanes show its share of the group's time. Within a layer, DDR loads and stores "
                  "overlap its compute."
                : "Layers run one after another, except that the layers of a depth-first group (tiled "
                  "memory model) interleave tile by tile: each is active over the whole group's span, and "
                  "the lanes show its share of the group's time. Within a layer, loads, compute and stores "
                  "follow each other.";
        break;
    default:
        s->schedule = p->hw->overlap
                          ? "Layers run one after another in execution order (no two layers overlap)."
                            " Within a layer, DDR loads and stores overlap its compute."
                          : "Layers run one after another in execution order (no two layers overlap)."
                            " Within a layer, loads, compute and stores follow each other.";
    }
/* the two schedules of compute.dataflow, which differ only in how a frame passes the layers */
#define DF_SCHEDULE(mode, pass)                                                                              \
    "A dataflow pipeline (compute.dataflow" mode                                                             \
    "): every layer has an engine of its own and all stream at "                                             \
    "once; a frame " pass                                                                                    \
    " and the next follows at the pace of the slowest layer, so each layer is active from "                  \
    "its first frame to its last."
    if (p->hw->dataflow_hz > 0)
        s->schedule = p->hw->df_streaming
                          ? DF_SCHEDULE(", streaming", "streams through them row by row (a layer "
                                                       "starts on the rows its window reaches)")
                          : DF_SCHEDULE("", "passes the layers one after another");
#undef DF_SCHEDULE
    s->description = p->hw->description;
    s->fallback = p->hw->fb.name[0] ? p->hw->fb.name : (p->fallback_layers ? "cpu" : NULL);
    nnperf_prediction_ceilings(p, &s->peak_ops, &s->ddr_bandwidth);
    s->ddr_nominal = p->hw->ddr_bw;
    s->ddr_efficiency = p->hw->ddr_eff > 0 ? p->hw->ddr_eff : 1.0;
    s->sram_bytes = p->hw->sram_bytes;
    s->interval_s = p->interval_s;
}

const struct nnperf_analysis *nnperf_prediction_analysis(const struct nnperf_prediction *p)
{
    /* the prediction keeps the analysis state, the first member of the analysis handle */
    return (const struct nnperf_analysis *)(const void *)p->an;
}

void nnperf_prediction_layer_detail(const struct nnperf_prediction *p, int i, struct nnperf_layer_detail *d)
{
    memset(d, 0, sizeof *d);
    d->rank = -1;
    if (i < 0 || i >= p->n_layers) return;
    const struct pr_layer *L = &p->layers[i];
    d->cost_known = L->cost_known;
    d->unit = L->fallback ? "fallback" : "accelerator";
    const struct pr_layer_x *x = pr_lx(L);
    d->spill_load_bytes = x->spill_load_bytes;
    d->spill_store_bytes = x->spill_store_bytes;
    d->transfer_bytes = x->transfer_bytes;
    d->t_transfer = x->t_transfer;
    d->t_overhead = L->t_overhead;
    static const char *const mem[] = {"ddr", "sram", "link"};
    d->memory = mem[pr_memory_bound(p, L, &d->memory_bytes, &d->memory_bandwidth)];
    const struct ir_value *out = pr_layer_out(L);
    if (!out || out->rank < 0) return;
    d->rank = out->rank < NNPERF_MAX_RANK ? out->rank : NNPERF_MAX_RANK;
    for (int k = 0; k < d->rank; k++) {
        int64_t v = out->dims[k].val;
        d->dims[k] = v >= 0 ? v : -1;
        d->aligned_dims[k] = v < 0 ? -1 : pr_out_rank(L) == out->rank ? pr_aligned_dims(L)[k] : v;
    }
}

const char *nnperf_prediction_layer_node(const struct nnperf_prediction *p, int i, int k, const char **op)
{
    if (op) *op = NULL;
    if (i < 0 || i >= p->n_layers || k < 0 || k >= p->layers[i].n_nodes) return NULL;
    const struct ir_node *nd = p->layers[i].nodes[k];
    if (op) *op = nd->op_type;
    return nd->name;
}

/* Each layer keeps the unit busy for its own time, t_total, laid out one after another (in a depth-first group the
 * layers interleave tile by tile; their busy time is shown as consecutive shares of the group's span). Within that
 * slot: the fixed overhead first, then the fallback transfer, then the body: with overlap, loads start with the
 * compute and stores end with it; without, loads, compute and stores follow each other. The parts are scaled to the
 * slot (the weights-only model scales layer times). */
int nnperf_prediction_layer_busy(const struct nnperf_prediction *p, int i, struct nnperf_busy *out, int cap)
{
    if (i < 0 || i >= p->n_layers) return 0;
    const struct pr_layer *L = &p->layers[i];
    double slot0 = 0;
    for (int k = 0; k < i; k++) slot0 += p->layers[k].t_total;
    double load_b = L->w_bytes + L->load_bytes + pr_lx(L)->spill_load_bytes;
    double store_b = L->store_bytes + pr_lx(L)->spill_store_bytes;
    double t_load = load_b + store_b > 0 ? L->t_memory * load_b / (load_b + store_b) : L->t_memory;
    double t_store = L->t_memory - t_load;
    double body = p->hw->overlap ? (L->t_compute > L->t_memory ? L->t_compute : L->t_memory)
                                 : L->t_compute + L->t_memory;
    double t_transfer = pr_lx(L)->t_transfer;
    double nominal = L->t_overhead + t_transfer + body;
    if (nominal <= 0 || L->t_total <= 0) return 0;
    double k = L->t_total / nominal, t = slot0, end = slot0 + L->t_total;
    struct nnperf_busy b[8];
    int n = 0, unit = L->fallback ? 1 : 0;
    if (L->t_overhead + t_transfer > 0) {
        b[n++] = (struct nnperf_busy){unit, NNPERF_LANE_OTHER, t, t + (L->t_overhead + t_transfer) * k};
        t = b[n - 1].end;
    }
    if (p->hw->overlap) {
        if (t_load > 0) b[n++] = (struct nnperf_busy){unit, NNPERF_LANE_LOAD, t, t + t_load * k};
        if (L->t_compute > 0)
            b[n++] = (struct nnperf_busy){unit, NNPERF_LANE_COMPUTE, t, t + L->t_compute * k};
        if (t_store > 0)
            b[n++] = (struct nnperf_busy){unit, NNPERF_LANE_STORE, t + (body - t_store) * k, t + body * k};
    } else {
        if (t_load > 0) b[n++] = (struct nnperf_busy){unit, NNPERF_LANE_LOAD, t, t + t_load * k};
        t += t_load * k;
        if (L->t_compute > 0)
            b[n++] = (struct nnperf_busy){unit, NNPERF_LANE_COMPUTE, t, t + L->t_compute * k};
        t += L->t_compute * k;
        if (t_store > 0) b[n++] = (struct nnperf_busy){unit, NNPERF_LANE_STORE, t, t + t_store * k};
    }
    for (int j = 0; j < n && j < cap; j++) {
        if (b[j].end > end) b[j].end = end; /* rounding */
        out[j] = b[j];
    }
    return n;
}

int nnperf_prediction_interval_count(const struct nnperf_prediction *p)
{
    return p->n_iv;
}

void nnperf_prediction_interval(const struct nnperf_prediction *p, int i, struct nnperf_interval *iv)
{
    memset(iv, 0, sizeof *iv);
    if (i < 0 || i >= p->n_iv) return;
    iv->start = i * p->interval_s;
    iv->end = (i + 1) * p->interval_s;
    if (iv->end > p->latency && p->latency > 0) iv->end = p->latency;
    iv->utilization = p->iv[i].util;
    iv->load_bandwidth = p->iv[i].load_bw;
    iv->store_bandwidth = p->iv[i].store_bw;
}

void nnperf_prediction_why(const struct nnperf_prediction *p, struct nnperf_why *w)
{
    memset(w, 0, sizeof *w);
    for (int i = 0; i < p->n_layers; i++) {
        const struct pr_layer *L = &p->layers[i];
        double t = L->t_total > 0 ? L->t_total : 0, bytes, bw;
        int k = L->fallback               ? NNPERF_WHY_FALLBACK
                : L->bound == PB_COMPUTE  ? NNPERF_WHY_COMPUTE
                : L->bound == PB_MEMORY   ? NNPERF_WHY_MEMORY
                : L->bound == PB_OVERHEAD ? NNPERF_WHY_OVERHEAD
                                          : NNPERF_WHY_UNKNOWN;
        w->t[k] += t;
        if (k == NNPERF_WHY_MEMORY) w->memory_t[pr_memory_bound(p, L, &bytes, &bw)] += t;
        w->total += t;
        if (t <= 0) continue;
        /* the three longest, the earlier first on a tie */
        int j = w->n_top < 3 ? w->n_top++ : 3;
        while (j > 0 && p->layers[w->top[j - 1]].t_total < t) {
            if (j < 3) w->top[j] = w->top[j - 1];
            j--;
        }
        if (j < 3) w->top[j] = i;
    }
    w->outside = p->latency > w->total ? p->latency - w->total : 0;
    w->t[NNPERF_WHY_OVERHEAD] += w->outside;
    w->total += w->outside;
}
