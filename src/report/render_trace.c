/* render_trace.c - a prediction's timeline as a Chrome trace-event document (the JSON object format that
 * chrome://tracing and ui.perfetto.dev open, and that ONNX Runtime's and TensorRT's profilers write; [TRACE-EVENT]
 * in docs/sources.md), so a predicted run can be laid beside a measured one in the tool people already use.
 *
 * One process per prediction ("nnperf: <model> on <platform>"), one thread per unit and lane (accelerator compute,
 * DDR loads, DDR stores, other: the fixed per-layer cost and fallback transfers; then the fallback unit's lanes),
 * one complete event ("ph": "X") per busy period of a layer with the layer's name, operator, bound, ops, bytes and
 * the fused nodes as args. Timestamps are microseconds from the start of the run. The layers that do no work are
 * left out, as in every report meant for people. */
#include "render.h"
#include "json.h"
#include "view.h"

#include <stdio.h>
#include <stdlib.h>

static const char *const lane_name[] = {"compute", "DDR load", "DDR store", "other"};

/* the thread of a unit's lane: 1.. in the order units and lanes are listed */
static int lane_tid(int unit, int lane)
{
    return 1 + unit * 4 + lane;
}

/* a metadata event: "process_name" / "thread_name" with args.name = name, or "thread_sort_index" (name NULL) with
 * args.sort_index = index */
static void meta(struct rep_json *j, const char *what, int pid, int tid, const char *name, int index)
{
    rj_obj(j, NULL, 0);
    rj_str(j, "name", what);
    rj_str(j, "ph", "M");
    rj_int(j, "pid", pid);
    rj_int(j, "tid", tid);
    rj_obj(j, "args", 0);
    if (name)
        rj_str(j, "name", name);
    else
        rj_int(j, "sort_index", index);
    rj_end(j);
    rj_end(j);
}

/* The events of one prediction into an open JSON array: process pid named process, a thread per unit and lane, a
 * complete event per busy period of each shown layer. */
static void rep_trace_events(const struct rep_view *v, struct rep_json *j, int pid, const char *process)
{
    meta(j, "process_name", pid, 0, process, 0);
    int units = v->su.fallback ? 2 : 1;
    for (int u = 0; u < units; u++)
        for (int lane = 0; lane < 4; lane++) {
            char name[96];
            snprintf(name, sizeof name, "%s %s", u ? v->su.fallback : "accelerator", lane_name[lane]);
            meta(j, "thread_name", pid, lane_tid(u, lane), name, 0);
            meta(j, "thread_sort_index", pid, lane_tid(u, lane), NULL, lane_tid(u, lane));
        }
    for (int i = 0; i < v->n; i++) {
        if (!v->shown[i]) continue;
        struct rep_layer row;
        const struct rep_layer *L = rep_view_layer(v, i, &row);
        struct nnperf_busy busy[8];
        int nb = nnperf_prediction_layer_busy(v->p, L->index, busy, 8);
        if (nb > 8) nb = 8;
        for (int b = 0; b < nb; b++) {
            if (!(busy[b].end > busy[b].start)) continue;
            int u = busy[b].unit ? 1 : 0, lane = busy[b].lane;
            if (u >= units || lane < 0 || lane > 3) continue;
            rj_obj(j, NULL, 0);
            rj_str(j, "name", L->li.name);
            rj_str(j, "cat", L->li.klass ? L->li.klass : "layer");
            rj_str(j, "ph", "X");
            rj_num(j, "ts", busy[b].start * 1e6);
            rj_num(j, "dur", (busy[b].end - busy[b].start) * 1e6);
            rj_int(j, "pid", pid);
            rj_int(j, "tid", lane_tid(u, lane));
            rj_obj(j, "args", 0);
            rj_int(j, "layer", L->index);
            rj_str(j, "op", L->li.op);
            rj_str(j, "dtype", L->li.dtype);
            rj_str(j, "bound", rep_layer_bound(L));
            rj_num(j, "time_us", L->li.t_total * 1e6);
            rj_num(j, "share", L->share);
            rj_num(j, "ops", L->li.ops);
            rj_num(j, "ddr_bytes", L->li.ddr_bytes);
            rj_arr(j, "nodes", 0);
            for (int k = 0; k < L->li.nodes; k++)
                rj_str(j, NULL, nnperf_prediction_layer_node(v->p, L->index, k, NULL));
            rj_end(j);
            rj_end(j);
            rj_end(j);
        }
    }
}

void rep_pred_trace(const struct rep_view *v, struct strbuf *sb)
{
    struct rep_json j;
    rj_init(&j, sb);
    rj_obj(&j, NULL, 1);
    rj_header(&j, "nnperf.trace", 1);
    rj_str(&j, "displayTimeUnit", "ns");
    rj_obj(&j, "otherData", 0);
    rj_str(&j, "generator", "nnperf " NNPERF_VERSION);
    rj_str(&j, "model", v->model);
    rj_str(&j, "platform", v->s.platform);
    rj_num(&j, "latency_ms", v->s.latency_s * 1e3);
    rj_end(&j);
    rj_arr(&j, "traceEvents", 1);
    char process[512];
    snprintf(process, sizeof process, "nnperf: %s on %s (predicted)", v->model ? v->model : "model",
             v->s.platform);
    rep_trace_events(v, &j, 1, process);
    rj_end(&j);
    rj_end(&j);
}

/* the measured profile's layers end to end in execution order, as process pid */
static void measured_events(const struct rep_view *v, struct rep_json *j, int pid, const char *profile,
                            const double *us, double unmatched_us, double run_us)
{
    char name[512];
    c_snprintf(name, sizeof name, "measured: %s (median run %.3f ms)", profile, run_us / 1e3);
    meta(j, "process_name", pid, 0, name, 0);
    meta(j, "thread_name", pid, 1, "kernels (measured, end to end)", 0);
    double t = 0;
    for (int i = 0; i <= v->n; i++) {
        double d = i < v->n ? us[i] : unmatched_us;
        if (!(d > 0)) continue;
        struct nnperf_layer_info li;
        nnperf_prediction_layer(v->p, i, &li); /* zeroed past the last layer */
        rj_obj(j, NULL, 0);
        rj_str(j, "name", i < v->n ? li.name : "(kernels no layer matched)");
        rj_str(j, "cat", i < v->n && li.klass ? li.klass : "measured");
        rj_str(j, "ph", "X");
        rj_num(j, "ts", t);
        rj_num(j, "dur", d);
        rj_int(j, "pid", pid);
        rj_int(j, "tid", 1);
        rj_obj(j, "args", 0);
        if (i < v->n) {
            rj_int(j, "layer", i);
            rj_num(j, "predicted_us", li.t_total * 1e6);
        }
        rj_num(j, "measured_us", d);
        rj_end(j);
        rj_end(j);
        t += d;
    }
}

enum nnperf_status nnperf_validate_trace(const struct nnperf_prediction *p, const char *profile, char **out,
                                         size_t *len, char *err, size_t errlen)
{
    if (!out) return NNPERF_E_USAGE;
    *out = NULL;
    if (len) *len = 0;
    struct rep_view v;
    enum nnperf_status st = rep_view_open(&v, p, err, errlen);
    if (st) return st;
    double *us = calloc((size_t)v.n + 1, sizeof *us), unmatched = 0, run = 0;
    if (!us) {
        rep_view_free(&v);
        if (err && errlen) snprintf(err, errlen, "out of memory");
        return NNPERF_E_NOMEM;
    }
    st = nnperf_profile_layer_times(p, profile, us, v.n, &unmatched, &run, NULL, err, errlen);
    if (st) {
        free(us);
        rep_view_free(&v);
        return st;
    }
    struct strbuf sb;
    sb_init(&sb, REP_CAP);
    struct rep_json j;
    rj_init(&j, &sb);
    rj_obj(&j, NULL, 1);
    rj_header(&j, "nnperf.trace", 1);
    rj_str(&j, "displayTimeUnit", "ns");
    rj_obj(&j, "otherData", 0);
    rj_str(&j, "generator", "nnperf " NNPERF_VERSION);
    rj_str(&j, "model", v.model);
    rj_str(&j, "platform", v.s.platform);
    rj_num(&j, "predicted_ms", v.s.latency_s * 1e3);
    rj_num(&j, "measured_ms", run / 1e3);
    rj_end(&j);
    rj_arr(&j, "traceEvents", 1);
    char process[512];
    snprintf(process, sizeof process, "nnperf: %s on %s (predicted)", v.model ? v.model : "model",
             v.s.platform);
    rep_trace_events(&v, &j, 1, process);
    measured_events(&v, &j, 2, profile, us, unmatched, run);
    rj_end(&j);
    rj_end(&j);
    free(us);
    rep_view_free(&v);
    return rep_finish(&sb, out, len, err, errlen);
}
