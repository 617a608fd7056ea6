/* pipeline.c - nnperf_predict: fills the pipeline's inputs (the platform copy, the options, per-node work with the
 * what-if applied) and runs the ordered table of stages over the pipeline state (predict.h). */
#include "predict.h"

#include <math.h>

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

/* The stages, in order. Each reads what earlier stages wrote and adds its own. The structure stages depend on the
 * analysis, the platform, the dtypes and the what-if, never on the batch (nnperf_predict_batch shares what they
 * made); the batch stages compute everything the batch changes. */
struct stage {
    const char *name;
    enum nnperf_status (*run)(struct nnperf_prediction *p);
};
static const struct stage structure_stages[] = {{"lower", pr_lower}, {"fuse", pr_fuse}};
static const struct stage batch_stages[] = {
    {"work", pr_work},       {"align", pr_align},       {"memory", pr_memory},
    {"compute", pr_compute}, {"schedule", pr_schedule}, {"throughput", pr_throughput},
    {"power", pr_power},     {"timeline", pr_timeline},
};

static enum nnperf_status run_stages(struct nnperf_prediction *p, const struct stage *s, size_t n)
{
    enum nnperf_status st = NNPERF_OK;
    for (size_t i = 0; !st && i < n; i++) {
        st = s[i].run(p);
        if (!st && p->lx_nomem) st = diag_set(&p->d, NNPERF_E_NOMEM, "out of memory"); /* pr_lx_make */
    }
    return st;
}

static void fail(char *err, size_t errlen, const char *msg)
{
    if (err && errlen) snprintf(err, errlen, "%s", msg);
}

/* the batch asked for (0: the platform's frames per run) and the what-if's (> 0 replaces it); st: the status so far */
static enum nnperf_status read_batch(struct nnperf_prediction *p, int batch, int whatif_batch,
                                     enum nnperf_status st)
{
    p->batch = p->hw->frames_per_run > 0 ? p->hw->frames_per_run : 1;
    p->batch_given = 0;
    if (batch < 0 || batch > 1000000)
        st = diag_set(&p->d, NNPERF_E_USAGE, "batch %d is out of range (1 to 1000000)", batch);
    else if (batch > 0)
        p->batch = batch, p->batch_given = 1;
    p->whatif_batch = whatif_batch > 0 ? whatif_batch : 0;
    if (p->whatif_batch) p->batch = p->whatif_batch, p->batch_given = 1;
    return st;
}

/* nnperf_predict_options.threads on the prediction's own copy of the platform: the cores of one inference, and the
 * speedup they reach, 1 + (s - 1) x (N - 1) / (P - 1) of the platform's s over its P cores (linear where s is 0) */
static enum nnperf_status read_threads(struct nnperf_prediction *p, int threads, enum nnperf_status st)
{
    struct hw_desc *hw = p->hw_own;
    int per = pr_inference_cores(hw);
    if (!hw->threaded)
        return diag_set(&p->d, NNPERF_E_USAGE,
                        "threads %d: platform '%s' does not run an inference on a CPU runtime's threads "
                        "(compute.threaded)",
                        threads, hw->name);
    if (threads < 0 || threads > per)
        return diag_set(&p->d, NNPERF_E_USAGE,
                        "threads %d: platform '%s' runs one inference on 1 to %d threads", threads, hw->name,
                        per);
    if (hw->par_speedup > 0 && per > 1)
        hw->par_speedup = threads > 1 ? 1 + (fmin(hw->par_speedup, per) - 1) * (threads - 1) / (per - 1) : 0;
    hw->cores_per_inference = threads;
    return st;
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
    st = read_batch(p, opts->batch, opts->whatif ? opts->whatif->batch : 0, st);
    if (opts->memory_model < 0 || opts->memory_model >= pr_n_memory_models)
        st = diag_set(&p->d, NNPERF_E_USAGE, "unknown memory model %d", opts->memory_model);
    else if (opts->memory_model != NNPERF_MEMORY_DEFAULT)
        p->memory_model = opts->memory_model;
    if (opts->interval_s < 0)
        st = diag_set(&p->d, NNPERF_E_USAGE, "the timeline interval must be positive");
    else if (opts->interval_s > 0)
        p->interval_s = p->interval_opt = opts->interval_s;
    p->causal = opts->causal != 0;
    p->no_timeline = opts->no_timeline != 0;
    const char *sd[3] = {opts->weight_dtype, opts->activation_dtype, opts->kv_dtype};
    double *se[3] = {&p->w_elem, &p->a_elem, &p->kv_elem};
    static const char *const what[3] = {"weight", "activation", "KV cache"};
    for (int i = 0; i < 3; i++)
        if (sd[i] && (*se[i] = pr_dtype_bytes(sd[i])) <= 0)
            st = diag_set(&p->d, NNPERF_E_USAGE,
                          "unknown %s dtype '%s' (int4, int8, fp8, fp16, bf16 or fp32)", what[i], sd[i]);
    if (opts->threads) st = read_threads(p, opts->threads, st);
    if (opts->streams < 0)
        st = diag_set(&p->d, NNPERF_E_USAGE,
                      "streams %d: give 1 or more application threads (0: every unit busy)", opts->streams);
    else
        p->streams = opts->streams;
    const struct nnperf_whatif *w = opts->whatif;
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
    if (!p->hw->weight_only || p->hw->peak_ops[p->dtype] > 0 || p->hw->peak_ops[p->hw->default_dtype] <= 0)
        return;
    int stored = p->dtype;
    p->dtype = p->hw->default_dtype;
    if (!opts || !opts->weight_dtype) p->w_elem = pr_dtype_bytes(hw_dtype_name(stored));
    pr_warn(p, "%s has no peak on %s: weights stored at %s, computed at %s (compute.weight_only)",
            hw_dtype_name(stored), p->hw->name, hw_dtype_name(stored), hw_dtype_name(p->dtype));
}

/* a prediction with no inputs yet (NULL when out of memory, said in err) */
static struct nnperf_prediction *new_prediction(char *err, size_t errlen)
{
    struct nnperf_prediction *p = calloc(1, sizeof *p);
    if (!p) {
        fail(err, errlen, "out of memory");
        return NULL;
    }
    ar_init(&p->ar, 0);
    p->refs = 1;
    p->graph_dtype = -1;
    p->interval_s = 0.5e-3;
    return p;
}

/* the batch stages and the closing warnings; frees p on error */
static enum nnperf_status finish(struct nnperf_prediction *p, enum nnperf_status st,
                                 struct nnperf_prediction **out, char *err, size_t errlen)
{
    if (!st) st = run_stages(p, batch_stages, sizeof batch_stages / sizeof batch_stages[0]);
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
            p->fallback_layers, p->hw->fb.name[0] ? p->hw->fb.name : "cpu");
    if (p->spilled_tensors)
        pr_warn(p,
                "%d tensors do not stay in the %.0f KiB on-chip memory and are spilled to DDR and read back",
                p->spilled_tensors, p->hw->sram_bytes / 1024);
    *out = p;
    return NNPERF_OK;
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
    struct nnperf_prediction *p = new_prediction(err, errlen);
    if (!p) return NNPERF_E_NOMEM;
    p->an = &a->st;
    p->g = an_graph(&a->st);
    p->hw_own = ar_alloc(&p->ar, sizeof *p->hw_own);
    if (!p->hw_own) {
        fail(err, errlen, "out of memory");
        nnperf_prediction_free(p);
        return NNPERF_E_NOMEM;
    }
    *p->hw_own = plat->hw;
    p->hw = p->hw_own;
    p->dtype = p->hw->default_dtype;
    p->batch = p->hw->frames_per_run > 0 ? p->hw->frames_per_run : 1;
    int mm = hw_memory_model_from_name(p->hw->memory_model); /* validated when the platform loaded */
    p->memory_model = mm > 0 ? mm : NNPERF_MEMORY_PLANNED;
    enum nnperf_status st = read_options(p, opts);
    if (!st && (!opts || !opts->allow_unbound)) {
        char msg[sizeof p->d.msg];
        if (nnperf_analysis_check_bound(a, msg, sizeof msg)) st = diag_set(&p->d, NNPERF_E_USAGE, "%s", msg);
    }
    if (!st) st = frames_per_run(p);
    if (!st) weight_only_dtype(p, opts);
    /* the compute model: the MAC array's when the platform describes one for this dtype */
    p->compute_model = !st ? pr_compute_model_of(p->hw, p->dtype) : PR_COMPUTE_ROOFLINE;
    if (!st && p->hw->peak_ops[p->dtype] <= 0)
        st = diag_set(&p->d, NNPERF_E_USAGE, "platform '%s' has no %s peak (compute.peak_ops.%s)",
                      p->hw->name, hw_dtype_name(p->dtype), hw_dtype_name(p->dtype));
    /* a node whose counts saturated has no cost the analysis can state: pricing its tensors would give a time
     * (exabytes at DDR speed) that says nothing, so the prediction refuses and names it (such a node is one the
     * analysis could not count: none to look for when it counted every node) */
    for (int k = 0; !st && p->an->sum.unknown_nodes && k < p->g->n_nodes; k++)
        if (p->g->nodes[k]->cost.saturated)
            st = diag_set(
                &p->d, NNPERF_E_USAGE,
                "node '%s' (%s): its FLOPs or bytes pass 2^64 - 1 (the counts saturated): no time can be "
                "predicted for it; check the model's dimensions",
                p->g->nodes[k]->name, p->g->nodes[k]->op_type);
    if (!st) st = pr_inputs(p, opts ? opts->whatif : NULL);
    if (!st) st = run_stages(p, structure_stages, sizeof structure_stages / sizeof structure_stages[0]);
    p->n_warn_shared = p->n_warn;
    return finish(p, st, out, err, errlen);
}

enum nnperf_status nnperf_predict_batch(const struct nnperf_prediction *like, int batch,
                                        struct nnperf_prediction **out, char *err, size_t errlen)
{
    *out = NULL;
    if (!like) {
        fail(err, errlen, "nnperf_predict_batch: no prediction");
        return NNPERF_E_USAGE;
    }
    struct nnperf_prediction *b = (struct nnperf_prediction *)like; /* only its reference count changes */
    if (b->base) b = b->base;                                       /* share the first one's structure */
    struct nnperf_prediction *p = new_prediction(err, errlen);
    if (!p) return NNPERF_E_NOMEM;
    p->base = b;
    b->refs++;
    /* the inputs as the structure stages left them */
    p->an = b->an;
    p->g = b->g;
    p->hw = b->hw;
    p->dtype = b->dtype, p->dtype_given = b->dtype_given, p->graph_dtype = b->graph_dtype;
    p->causal = b->causal;
    p->w_elem = b->w_elem, p->a_elem = b->a_elem, p->kv_elem = b->kv_elem;
    p->memory_model = b->memory_model, p->compute_model = b->compute_model;
    p->family = b->family;
    if (b->interval_opt > 0) p->interval_s = p->interval_opt = b->interval_opt;
    p->no_timeline = b->no_timeline;
    p->streams = b->streams;
    p->node_in = b->node_in;
    p->node_work = b->node_work;
    p->val_in = b->val_in, p->n_val_in = b->n_val_in;
    p->groups = b->groups, p->n_groups = b->n_groups;
    p->layer_of = b->layer_of;
    p->fallback_layers = b->fallback_layers, p->unknown_layers = b->unknown_layers;
    enum nnperf_status st = read_batch(p, batch, b->whatif_batch, NNPERF_OK);
    if (!st) st = frames_per_run(p);
    p->n_layers = b->n_layers;
    p->layers = !st ? ar_calloc(&p->ar, (size_t)(p->n_layers ? p->n_layers : 1), sizeof *p->layers) : NULL;
    if (!st && !p->layers) st = diag_set(&p->d, NNPERF_E_NOMEM, "out of memory");
    for (int l = 0; !st && l < p->n_layers; l++) {
        memcpy(&p->layers[l], &b->layers[l], PR_LAYER_SHARED);
        const struct pr_layer_x *bx = b->layers[l].x; /* and what fusion put in its record */
        if (bx && (bx->packed_bytes != 0 || bx->work_scale != 0)) {
            struct pr_layer_x *x = pr_lx_make(p, &p->layers[l]);
            x->packed_bytes = bx->packed_bytes, x->work_scale = bx->work_scale;
        }
    }
    if (!st && p->lx_nomem) st = diag_set(&p->d, NNPERF_E_NOMEM, "out of memory");
    p->n_warn_shared = b->n_warn_shared;
    if (!st && b->n_warn_shared) {
        p->cap_warn = b->n_warn_shared;
        p->warn = ar_calloc(&p->ar, (size_t)p->cap_warn, sizeof *p->warn);
        if (!p->warn) st = diag_set(&p->d, NNPERF_E_NOMEM, "out of memory");
        for (int i = 0; !st && i < b->n_warn_shared; i++) p->warn[p->n_warn++] = b->warn[i];
    }
    return finish(p, st, out, err, errlen);
}
