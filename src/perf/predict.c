/* predict.c - nnperf_predict: runs the passes over an analysis for one platform configuration, and the accessors
 * of the public prediction API. */
#include "predict.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define PR_MAX_WARNINGS 500

void pr_warn(struct nnperf_prediction *p, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    ar_append_msg(&p->ar, &p->warn, &p->n_warn, &p->cap_warn, PR_MAX_WARNINGS, fmt, ap);
    va_end(ap);
}

static void fail(char *err, size_t errlen, const char *msg)
{
    if (err && errlen) snprintf(err, errlen, "%s", msg);
}

enum nnperf_status nnperf_predict(const struct nnperf_analysis *a, const struct nnperf_platform *plat,
                                  const struct nnperf_predict_options *opts, struct nnperf_prediction **out,
                                  char *err, size_t errlen)
{
    *out = NULL;
    if (!a || !plat) {
        fail(err, errlen, "nnperf_predict: no analysis or platform");
        return NNPERF_E_USAGE;
    }
    struct nnperf_prediction *p = calloc(1, sizeof *p);
    if (!p) {
        fail(err, errlen, "out of memory");
        return NNPERF_E_NOMEM;
    }
    ar_init(&p->ar, 0);
    p->an = &a->st;
    p->hw = plat->hw;
    p->dtype = p->hw.default_dtype;
    p->batch = p->hw.frames_per_run > 0 ? p->hw.frames_per_run : 1;
    p->interval_s = 0.5e-3;
    enum nnperf_status st = NNPERF_OK;
    if (opts) {
        if (opts->dtype) {
            p->dtype = hw_dtype_from_name(opts->dtype);
            if (p->dtype < 0)
                st = diag_set(&p->d, NNPERF_E_USAGE, "unknown dtype '%s' (int4, int8, fp16, bf16 or fp32)",
                              opts->dtype);
        }
        if (opts->batch < 0 || opts->batch > 1000000)
            st = diag_set(&p->d, NNPERF_E_USAGE, "batch %d is out of range (1 to 1000000)", opts->batch);
        else if (opts->batch > 0)
            p->batch = opts->batch;
        if (opts->memory_model < 0 || opts->memory_model > 1)
            st = diag_set(&p->d, NNPERF_E_USAGE, "unknown memory model %d", opts->memory_model);
        p->memory_model = opts->memory_model;
        if (opts->interval_s < 0)
            st = diag_set(&p->d, NNPERF_E_USAGE, "the timeline interval must be positive");
        else if (opts->interval_s > 0)
            p->interval_s = opts->interval_s;
        /* what-if (advice, issue 6): the passes consult p->wi; its batch and dtype replace the options' */
        p->wi = opts->whatif;
        if (p->wi && p->wi->batch > 0) p->batch = p->wi->batch;
        if (p->wi && p->wi->dtype) {
            p->dtype = hw_dtype_from_name(p->wi->dtype);
            if (p->dtype < 0)
                st = diag_set(&p->d, NNPERF_E_USAGE, "unknown dtype '%s' in the what-if", p->wi->dtype);
        }
    }
    if (!st && p->hw.peak_ops[p->dtype] <= 0)
        st = diag_set(&p->d, NNPERF_E_USAGE, "platform '%s' has no %s peak (compute.peak_ops.%s)", p->hw.name,
                      hw_dtype_name(p->dtype), hw_dtype_name(p->dtype));
    if (!st) st = pass_fuse(p);
    if (!st) st = pass_align(p);
    if (!st) st = pass_memplan(p);
    if (!st) {
        perf_roofline(p);
        pass_schedule(p);
        st = perf_timeline(p);
    }
    if (st) {
        fail(err, errlen, p->d.msg[0] ? p->d.msg : nnperf_status_name(st));
        nnperf_prediction_free(p);
        return st;
    }
    if (p->unknown_layers)
        pr_warn(
            p,
            "%d of %d layers have an unknown cost (unsupported operators or unknown shapes) and count as 0 s",
            p->unknown_layers, p->n_layers);
    if (p->fallback_layers)
        pr_warn(
            p,
            "%d layers run on the fallback unit (%s): each crossing pays the transfer and (de)quantization",
            p->fallback_layers, p->hw.fb.name[0] ? p->hw.fb.name : "cpu");
    if (p->spilled_tensors)
        pr_warn(p,
                "%d tensors do not stay in the %.0f KiB on-chip memory and are spilled to DDR and read back",
                p->spilled_tensors, p->hw.sram_bytes / 1024);
    *out = p;
    return NNPERF_OK;
}

void nnperf_prediction_free(struct nnperf_prediction *p)
{
    if (!p) return;
    ar_free(&p->ar);
    free(p);
}

void nnperf_prediction_summary(const struct nnperf_prediction *p, struct nnperf_prediction_summary *s)
{
    memset(s, 0, sizeof *s);
    double b = p->batch;
    s->platform = p->hw.name;
    s->dtype = hw_dtype_name(p->dtype);
    s->frames_per_run = p->batch;
    s->latency_s = p->latency;
    s->fps = p->latency > 0 ? b / p->latency : 0;
    s->ops_per_run = p->mac_ops + p->vec_ops;
    s->ops_per_frame = s->ops_per_run / b;
    double aligned = 0;
    for (int l = 0; l < p->n_layers; l++)
        aligned += p->layers[l].mac_ops_aligned + p->layers[l].vec_ops_aligned;
    s->aligned_ops_per_frame = aligned / b;
    double ddr = p->w_bytes + p->load_bytes + p->store_bytes + p->spill_bytes;
    s->ddr_bytes_per_run = ddr;
    s->ddr_bytes_per_frame = ddr / b;
    s->ddr_bytes_per_second = p->latency > 0 ? ddr / p->latency : 0;
    double spill_load = 0, spill_store = 0;
    for (int l = 0; l < p->n_layers; l++) {
        spill_load += p->layers[l].spill_load_bytes;
        spill_store += p->layers[l].spill_store_bytes;
    }
    s->loaded_bytes_per_frame = (p->w_bytes + p->load_bytes + spill_load) / b;
    s->stored_bytes_per_frame = (p->store_bytes + spill_store) / b;
    s->weight_bytes_per_frame = p->w_bytes / b;
    s->spill_bytes_per_frame = p->spill_bytes / b;
    s->avg_utilization = p->avg_util;
    s->layers = p->n_layers;
    s->fallback_layers = p->fallback_layers;
    s->spilled_tensors = p->spilled_tensors;
    s->unknown_layers = p->unknown_layers;
    s->warnings = p->n_warn;
}

const char *nnperf_prediction_warning(const struct nnperf_prediction *p, int i)
{
    return i >= 0 && i < p->n_warn ? p->warn[i] : NULL;
}

int nnperf_prediction_layer_count(const struct nnperf_prediction *p)
{
    return p->n_layers;
}

static const char *bound_name(int b)
{
    switch (b) {
    case PB_COMPUTE: return "compute";
    case PB_MEMORY: return "memory";
    case PB_OVERHEAD: return "overhead";
    default: return "unknown";
    }
}

void nnperf_prediction_layer(const struct nnperf_prediction *p, int i, struct nnperf_layer_info *li)
{
    memset(li, 0, sizeof *li);
    if (i < 0 || i >= p->n_layers) return;
    const struct pr_layer *L = &p->layers[i];
    li->name = L->name;
    li->op = L->main->op_type;
    li->klass = op_class_name(L->klass);
    li->bound = bound_name(L->bound);
    li->nodes = L->n_nodes;
    li->fallback = L->fallback;
    li->ops = L->mac_ops + L->vec_ops;
    li->aligned_ops = L->mac_ops_aligned + L->vec_ops_aligned;
    li->weight_bytes = L->w_bytes;
    li->load_bytes = L->load_bytes;
    li->store_bytes = L->store_bytes;
    li->spill_bytes = L->spill_load_bytes + L->spill_store_bytes;
    li->ddr_bytes = li->weight_bytes + li->load_bytes + li->store_bytes + li->spill_bytes;
    li->t_compute = L->t_compute;
    li->t_memory = L->t_memory;
    li->t_total = L->t_total;
    li->start = L->start;
    li->end = L->end;
    li->intensity = li->ddr_bytes > 0 ? li->aligned_ops / li->ddr_bytes : 0;
    li->attained = L->t_total > 0 ? li->aligned_ops / L->t_total : 0;
}

void nnperf_prediction_ceilings(const struct nnperf_prediction *p, double *peak_ops, double *ddr_bw)
{
    if (peak_ops) *peak_ops = p->hw.peak_ops[p->dtype];
    if (ddr_bw) *ddr_bw = p->hw.ddr_bw * (p->hw.ddr_eff > 0 ? p->hw.ddr_eff : 1.0);
}
