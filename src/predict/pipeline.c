/* pipeline.c - nnperf_predict: fills the pipeline's inputs (the platform copy, the options, per-node work with the
 * what-if applied) and runs the ordered table of stages over the pipeline state (predict.h). */
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

/* The stages, in order. Each reads what earlier stages wrote and adds its own. */
static const struct {
    const char *name;
    enum nnperf_status (*run)(struct nnperf_prediction *p);
} stages[] = {
    {"lower", pr_lower},           {"fuse", pr_fuse},       {"align", pr_align},
    {"memory", pr_memory},         {"compute", pr_compute}, {"schedule", pr_schedule},
    {"throughput", pr_throughput}, {"power", pr_power},     {"timeline", pr_timeline},
};

static void fail(char *err, size_t errlen, const char *msg)
{
    if (err && errlen) snprintf(err, errlen, "%s", msg);
}

/* the options (and the what-if's batch and dtype, which replace the options') into the state */
static enum nnperf_status read_options(struct nnperf_prediction *p, const struct nnperf_predict_options *opts)
{
    enum nnperf_status st = NNPERF_OK;
    if (!opts) return st;
    if (opts->dtype) {
        p->dtype = hw_dtype_from_name(opts->dtype);
        p->dtype_given = 1;
        if (p->dtype < 0)
            st = diag_set(&p->d, NNPERF_E_USAGE, "unknown dtype '%s' (int4, int8, fp16, bf16 or fp32)",
                          opts->dtype);
    }
    if (opts->batch < 0 || opts->batch > 1000000)
        st = diag_set(&p->d, NNPERF_E_USAGE, "batch %d is out of range (1 to 1000000)", opts->batch);
    else if (opts->batch > 0)
        p->batch = opts->batch, p->batch_given = 1;
    if (opts->memory_model < 0 || opts->memory_model >= pr_n_memory_models)
        st = diag_set(&p->d, NNPERF_E_USAGE, "unknown memory model %d", opts->memory_model);
    else if (opts->memory_model != NNPERF_MEMORY_DEFAULT)
        p->memory_model = opts->memory_model;
    if (opts->interval_s == NNPERF_NO_TIMELINE)
        p->interval_s = 0; /* pr_timeline: no series */
    else if (opts->interval_s < 0)
        st = diag_set(&p->d, NNPERF_E_USAGE, "the timeline interval must be positive");
    else if (opts->interval_s > 0)
        p->interval_s = opts->interval_s;
    p->causal = opts->causal != 0;
    const char *sd[3] = {opts->weight_dtype, opts->activation_dtype, opts->kv_dtype};
    double *se[3] = {&p->w_elem, &p->a_elem, &p->kv_elem};
    static const char *const what[3] = {"weight", "activation", "KV cache"};
    for (int i = 0; i < 3; i++)
        if (sd[i] && (*se[i] = pr_dtype_bytes(sd[i])) <= 0)
            st = diag_set(&p->d, NNPERF_E_USAGE,
                          "unknown %s dtype '%s' (int4, int8, fp8, fp16, bf16 or fp32)", what[i], sd[i]);
    const struct nnperf_whatif *w = opts->whatif;
    if (w && w->batch > 0) p->batch = w->batch, p->batch_given = 1;
    if (w && w->dtype) {
        p->dtype = hw_dtype_from_name(w->dtype);
        p->dtype_given = 1;
        if (p->dtype < 0) st = diag_set(&p->d, NNPERF_E_USAGE, "unknown dtype '%s' in the what-if", w->dtype);
    }
    return st;
}

/* Frames per run and executions of the graph per run: the graph computes the frames of its inputs' batch M
 * (nnperf_analysis_batch); a batch asked for runs it batch / M times, and must be a multiple of M; none asked for
 * takes M, or the platform's frames_per_run when that is a multiple of M. */
static enum nnperf_status frames_per_run(struct nnperf_prediction *p)
{
    int m = p->an->batch > 0 && p->an->batch <= 1000000 ? (int)p->an->batch : 1;
    p->graph_batch = m;
    if (!p->batch_given && p->batch % m) p->batch = m;
    if (p->batch % m)
        return diag_set(
            &p->d, NNPERF_E_USAGE,
            "batch %d is not a multiple of the %d frames the graph computes (input '%s' has batch %d): "
            "leave the batch out for %d frames per run, or give a multiple of %d",
            p->batch, m, p->an->batch_input ? p->an->batch_input : "?", m, m, m);
    p->runs = (double)p->batch / m;
    return NNPERF_OK;
}

/* a dtype without a peak on a platform that declares weight-only quantization (compute.weight_only): the
 * weights are stored at it (unless weight_dtype says otherwise) and the layers compute at the default dtype */
static void weight_only_dtype(struct nnperf_prediction *p, const struct nnperf_predict_options *opts)
{
    if (!p->hw.weight_only || p->hw.peak_ops[p->dtype] > 0 || p->hw.peak_ops[p->hw.default_dtype] <= 0)
        return;
    int stored = p->dtype;
    p->dtype = p->hw.default_dtype;
    if (!opts || !opts->weight_dtype) p->w_elem = pr_dtype_bytes(hw_dtype_name(stored));
    pr_warn(p, "%s has no peak on %s: weights stored at %s, computed at %s (compute.weight_only)",
            hw_dtype_name(stored), p->hw.name, hw_dtype_name(stored), hw_dtype_name(p->dtype));
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
    p->g = an_graph(&a->st);
    p->hw = plat->hw;
    p->dtype = p->hw.default_dtype;
    p->graph_dtype = -1;
    p->batch = p->hw.frames_per_run > 0 ? p->hw.frames_per_run : 1;
    p->interval_s = 0.5e-3;
    int mm = hw_memory_model_from_name(p->hw.memory_model); /* validated when the platform loaded */
    p->memory_model = mm > 0 ? mm : NNPERF_MEMORY_PLANNED;
    enum nnperf_status st = read_options(p, opts);
    if (!st && (!opts || !opts->allow_unbound)) {
        char msg[sizeof p->d.msg];
        if (nnperf_analysis_check_bound(a, msg, sizeof msg)) st = diag_set(&p->d, NNPERF_E_USAGE, "%s", msg);
    }
    if (!st) st = frames_per_run(p);
    if (!st) weight_only_dtype(p, opts);
    /* the compute model: the MAC array's when the platform describes one for this dtype */
    p->compute_model = !st ? pr_compute_model_of(&p->hw, p->dtype) : PR_COMPUTE_ROOFLINE;
    if (!st && p->hw.peak_ops[p->dtype] <= 0)
        st = diag_set(&p->d, NNPERF_E_USAGE, "platform '%s' has no %s peak (compute.peak_ops.%s)", p->hw.name,
                      hw_dtype_name(p->dtype), hw_dtype_name(p->dtype));
    /* a node whose counts saturated has no cost the analysis can state: pricing its tensors would give a time
     * (exabytes at DDR speed) that says nothing, so the prediction refuses and names it */
    for (int k = 0; !st && k < p->g->n_nodes; k++)
        if (p->g->nodes[k]->cost.saturated)
            st = diag_set(
                &p->d, NNPERF_E_USAGE,
                "node '%s' (%s): its FLOPs or bytes pass 2^64 - 1 (the counts saturated): no time can be "
                "predicted for it; check the model's dimensions",
                p->g->nodes[k]->name, p->g->nodes[k]->op_type);
    if (!st) st = pr_inputs(p, opts ? opts->whatif : NULL);
    for (size_t i = 0; !st && i < sizeof stages / sizeof stages[0]; i++) st = stages[i].run(p);
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
