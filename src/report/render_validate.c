/* render_validate.c - `nnperf validate`: a prediction against a measured ONNX Runtime profile, per layer (matched
 * by name, nnperf_profile_layer_times) and for the whole run, as a table, JSON (schema "nnperf.validate",
 * docs/json-schema.md) or CSV; the trace of both is nnperf_validate_trace (render_trace.c). */
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>

#include "render.h"

/* one layer (or the CSV's whole-run row "(total)") */
struct row {
    const char *layer, *op;
    double predicted_us, measured_us;
};

#define R(m) offsetof(struct row, m)

/* the table's error column: predicted against measured, where a kernel was matched */
static void error_cell(const void *ctx, const void *row, struct rf_cell *c)
{
    (void)ctx;
    const struct row *r = row;
    if (r->measured_us > 0)
        c_snprintf(c->buf, sizeof c->buf, "%+.0f%%",
                   100.0 * (r->predicted_us - r->measured_us) / r->measured_us);
    else
        c->buf[0] = 0;
    c->s = c->buf;
}

/* the columns of every format: JSON members and CSV columns by key, the table's by heading */
static const struct rf_field fields[] = {
    {.key = "layer", .col = {"layer", 0, 0, 44, 12}, .in = RF_ALL, .kind = RF_STR, .off = R(layer)},
    {.key = "op", .col = {"op", 0, 0, 0, 0}, .in = RF_CSV | RF_TABLE, .kind = RF_STR, .off = R(op)},
    {.key = "predicted_us",
     .col = {"predicted us", 1, 0, 0, 0},
     .in = RF_ALL,
     .kind = RF_NUM,
     .off = R(predicted_us),
     .people = RF_P_FIX1},
    {.key = "measured_us",
     .col = {"measured us", 1, 0, 0, 0},
     .in = RF_ALL,
     .kind = RF_NUM,
     .off = R(measured_us),
     .people = RF_P_FIX1},
    {.col = {"error", 1, 0, 0, 0}, .in = RF_TABLE, .kind = RF_FN, .fn = error_cell},
};

static void render(const struct rep_view *v, enum nnperf_format fmt, const double *lus, double unmatched,
                   double run_us, int runs, struct strbuf *sb)
{
    double pred = v->s.latency_s, meas = run_us * 1e-6, err_pct = meas > 0 ? 100.0 * (pred - meas) / meas : 0;
    struct rep_json j;
    if (fmt == NNPERF_FORMAT_JSON) {
        rj_init(&j, sb);
        rj_obj(&j, NULL, 1);
        rj_header(&j, "nnperf.validate", 1);
        rj_str(&j, "platform", v->s.platform);
        rj_num(&j, "predicted_ms", pred * 1e3);
        rj_num(&j, "measured_ms", run_us / 1e3);
        rj_num(&j, "error_pct", err_pct);
        rj_num(&j, "unmatched_measured_ms", unmatched * 1e-3);
    }
    struct rf_rows w;
    rf_begin(&w, fmt, fields, (int)(sizeof fields / sizeof fields[0]), NULL, sb, &j, "layers");
    for (int l = 0; l < v->n; l++) {
        struct nnperf_layer_info li_row;
        nnperf_prediction_layer(v->p, l, &li_row);
        const struct nnperf_layer_info *li = &li_row;
        struct row r = {li->name, li->op, li->t_total * 1e6, lus[l]};
        /* the table leaves out the layers without a time on either side */
        if (fmt != NNPERF_FORMAT_TABLE || li->t_total > 0 || lus[l] > 0) rf_row(&w, &r);
    }
    if (fmt == NNPERF_FORMAT_CSV) {
        struct row total = {"(total)", NULL, pred * 1e6, run_us};
        rf_row(&w, &total);
    }
    rf_end(&w, sb, 0, 0, NULL);
    if (fmt == NNPERF_FORMAT_TABLE) {
        sb_printf(sb, "\nkernels ORT added or nnperf could not match: %.1f us per run\n", unmatched);
        sb_printf(
            sb,
            "whole run: predicted %.3f ms, measured %.3f ms (median of %d profiled runs): error %+.1f%%\n",
            pred * 1e3, meas * 1e3, runs, err_pct);
    }
    if (fmt == NNPERF_FORMAT_JSON) {
        rep_json_warnings(&j, v->a, v->p);
        rj_end(&j);
    }
}

enum nnperf_status nnperf_validate(const struct nnperf_prediction *p, const char *profile,
                                   enum nnperf_format fmt, char **out, size_t *len, double *predicted_s,
                                   double *measured_s, char *err, size_t errlen)
{
    if (!out) return NNPERF_E_USAGE;
    *out = NULL;
    if (len) *len = 0;
    if (fmt != NNPERF_FORMAT_TABLE && fmt != NNPERF_FORMAT_JSON && fmt != NNPERF_FORMAT_CSV)
        return rep_bad_format("validate", fmt, "table, json or csv", err, errlen);
    struct rep_view v;
    enum nnperf_status st = rep_view_open(&v, p, err, errlen);
    if (st) return st;
    double *lus = calloc((size_t)v.n + 1, sizeof *lus), unmatched = 0, run_us = 0;
    int runs = 0;
    st = lus ? nnperf_profile_layer_times(p, profile, lus, v.n, &unmatched, &run_us, &runs, err, errlen)
             : NNPERF_E_NOMEM;
    if (st == NNPERF_E_NOMEM && !lus && err && errlen) snprintf(err, errlen, "out of memory");
    if (!st) {
        if (predicted_s) *predicted_s = v.s.latency_s;
        if (measured_s) *measured_s = run_us * 1e-6;
        struct strbuf sb;
        sb_init(&sb, REP_CAP);
        render(&v, fmt, lus, unmatched, run_us, runs, &sb);
        st = rep_finish_as(&sb, fmt, out, len, err, errlen);
    }
    free(lus);
    rep_view_free(&v);
    return st;
}
