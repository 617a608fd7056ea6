/* annotate.c - nnperf_annotate_opts: the annotated model (src/analysis/annotate.c, src/onnx/annotate.c) with a
 * prediction's costs: each node of the main graph gets its layer's predicted time, share of the latency, bound and
 * the layer (after fusion) in its doc_string, which Netron shows when the node is clicked, and the model gets the
 * prediction's summary in metadata_props (Netron's model properties). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../analysis/analysis.h"
#include "../onnx/annotate.h"
#include "predict.h"

#define N_META 9

struct costs {
    const struct nnperf_prediction *p;
    char setup[160]; /* "on rdk-s100 (int8, batch 1)" */
    char doc[1024];
    char val[N_META][512];
    const char *meta[2 * N_META];
};

/* The layer of the node whose first output is out: -1 folded, -2 none (lowered into a neighbour). The lowered
 * graph (lower.c) names its values by the analysis's name table, so the value found is the analysis's and its
 * producer a node of the analysis's graph, at the index its lowered twin has. */
static int layer_of_output(const struct nnperf_prediction *p, const char *out)
{
    const struct ir_value *v = ir_find(p->g, out);
    if (!v || !v->producer || v->producer->graph != an_graph(p->an) || v->producer->index < 0 ||
        v->producer->index >= p->g->n_nodes || p->node_in[v->producer->index].gone)
        return -2;
    int l = p->layer_of[v->producer->index];
    return l >= 0 && l < p->n_layers ? l : -1;
}

static const char *node_doc(void *ctx, const char *out, const char *name)
{
    struct costs *c = ctx;
    const struct nnperf_prediction *p = c->p;
    (void)name;
    int l = layer_of_output(p, out);
    if (l == -1) {
        snprintf(c->doc, sizeof c->doc,
                 "nnperf: 0 ms per run %s: folded before it runs (a constant, a shape "
                 "computation or a no-op)",
                 c->setup);
        return c->doc;
    }
    if (l < 0) {
        snprintf(c->doc, sizeof c->doc,
                 "nnperf: 0 ms of its own per run %s: the deployment compiler's lowering "
                 "merges it into a neighbouring layer",
                 c->setup);
        return c->doc;
    }
    struct nnperf_layer_info li;
    nnperf_prediction_layer(p, l, &li);
    double share = p->latency > 0 ? 100.0 * li.t_total / p->latency : 0;
    c_snprintf(
        c->doc, sizeof c->doc,
        "nnperf: %.4g ms per run %s, %.3g%% of the %.4g ms latency, %s-bound%s; layer %d of %d '%.300s' "
        "(%s, %d node%s)",
        li.t_total * 1e3, c->setup, share, p->latency * 1e3, li.bound,
        li.fallback ? " on the fallback unit" : "", l + 1, p->n_layers, li.name, li.op, li.nodes,
        li.nodes == 1 ? "" : "s fused");
    return c->doc;
}

/* The prediction's summary as metadata_props. */
static void summary_meta(struct costs *c)
{
    const struct nnperf_prediction *p = c->p;
    struct nnperf_prediction_summary s;
    nnperf_prediction_summary(p, &s);
    struct nnperf_why w; /* as every report's why block has it */
    nnperf_prediction_why(p, &w);
    static const char *const keys[N_META] = {
        "nnperf.platform", "nnperf.dtype",  "nnperf.batch",         "nnperf.latency_ms",
        "nnperf.fps",      "nnperf.layers", "nnperf.time_by_bound", "nnperf.heaviest_layers",
        "nnperf.version"};
    snprintf(c->val[0], sizeof c->val[0], "%s", s.platform);
    snprintf(c->val[1], sizeof c->val[1], "%s", s.dtype);
    snprintf(c->val[2], sizeof c->val[2], "%d", s.frames_per_run);
    c_snprintf(c->val[3], sizeof c->val[3], "%.6g", s.latency_s * 1e3);
    c_snprintf(c->val[4], sizeof c->val[4], "%.6g", s.fps);
    snprintf(c->val[5], sizeof c->val[5], "%d", s.layers);
    static const char *const bn[NNPERF_WHY_BOUNDS] = {"compute", "memory", "overhead", "fallback", "unknown"};
    static const char *const mem[3] = {"DDR", "SRAM", "link"};
    size_t n = 0;
    for (int b = 0; b < NNPERF_WHY_BOUNDS && w.total > 0; b++) {
        if (w.t[b] <= 0 || n >= sizeof c->val[6]) continue;
        n += (size_t)c_snprintf(c->val[6] + n, sizeof c->val[6] - n, "%s%s %.3g%%", n ? ", " : "", bn[b],
                                100 * w.t[b] / w.total);
        char mb[128] = "";
        size_t o = 0;
        for (int m = 0; b == NNPERF_WHY_MEMORY && m < 3; m++)
            if (w.memory_t[m] > 0)
                o += (size_t)c_snprintf(mb + o, sizeof mb - o, "%s%s %.3g%%", o ? ", " : "", mem[m],
                                        100 * w.memory_t[m] / w.total);
        if (o && n < sizeof c->val[6])
            n += (size_t)snprintf(c->val[6] + n, sizeof c->val[6] - n, " (%s)", mb);
    }
    n = 0;
    for (int k = 0; k < w.n_top && n < sizeof c->val[7]; k++) {
        struct nnperf_layer_info li;
        struct nnperf_layer_detail d;
        nnperf_prediction_layer(p, w.top[k], &li);
        nnperf_prediction_layer_detail(p, w.top[k], &d);
        int memory = !li.fallback && !strcmp(li.bound, "memory");
        n += (size_t)c_snprintf(c->val[7] + n, sizeof c->val[7] - n, "%s'%.100s' %.4g ms (%s-bound%s%s)",
                                n ? ", " : "", li.name, li.t_total * 1e3, li.fallback ? "fallback" : li.bound,
                                memory ? " on " : "", memory ? d.memory : "");
    }
    snprintf(c->val[8], sizeof c->val[8], "%s", nnperf_version());
    for (int i = 0; i < N_META; i++) c->meta[2 * i] = keys[i], c->meta[2 * i + 1] = c->val[i];
}

static enum nnperf_status prepare(const struct nnperf_analysis *a, const struct nnperf_annotate_options *o,
                                  struct costs *c, struct ox_annotate_opts *xo, char *err, size_t errlen)
{
    memset(xo, 0, sizeof *xo);
    if (!o || !o->costs) return NNPERF_OK;
    if (nnperf_prediction_analysis(o->costs) != a) {
        if (err && errlen) snprintf(err, errlen, "the costs are a prediction of another analysis");
        return NNPERF_E_USAGE;
    }
    memset(c, 0, sizeof *c);
    c->p = o->costs;
    struct nnperf_prediction_summary s;
    nnperf_prediction_summary(c->p, &s);
    snprintf(c->setup, sizeof c->setup, "on %.60s (%s, batch %d)", s.platform, s.dtype, s.frames_per_run);
    summary_meta(c);
    xo->node_doc = node_doc;
    xo->ctx = c;
    xo->meta = c->meta;
    xo->n_meta = N_META;
    return NNPERF_OK;
}

/* The model with costs into a buffer (path NULL) or written to path. */
static enum nnperf_status annotate(const struct nnperf_analysis *a, const struct nnperf_annotate_options *o,
                                   const char *path, const struct nnperf_write_options *wo, void **out,
                                   size_t *len, char *err, size_t errlen)
{
    struct costs *c = malloc(sizeof *c);
    struct ox_annotate_opts xo;
    if (!c) {
        if (err && errlen) snprintf(err, errlen, "out of memory");
        return NNPERF_E_NOMEM;
    }
    enum nnperf_status st = prepare(a, o, c, &xo, err, errlen);
    if (!st)
        st = path ? an_annotate_write(a, &xo, path, wo, err, errlen)
                  : an_annotate(a, &xo, o ? o->dest : NULL, out, len, err, errlen);
    free(c);
    return st;
}

enum nnperf_status nnperf_annotate_opts(const struct nnperf_analysis *a,
                                        const struct nnperf_annotate_options *o, void **out, size_t *len,
                                        char *err, size_t errlen)
{
    if (out) *out = NULL;
    if (!out || !len) return an_annotate(a, NULL, NULL, out, len, err, errlen); /* its usage error */
    return annotate(a, o, NULL, NULL, out, len, err, errlen);
}

enum nnperf_status nnperf_annotate_write_opts(const struct nnperf_analysis *a,
                                              const struct nnperf_annotate_options *o, const char *path,
                                              const struct nnperf_write_options *opts, char *err,
                                              size_t errlen)
{
    if (!path) return an_annotate_write(a, NULL, path, opts, err, errlen); /* its usage error */
    return annotate(a, o, path, opts, NULL, NULL, err, errlen);
}
