/* render_roofline.c - `nnperf roofline`: every layer with predicted time, its arithmetic intensity (aligned ops per
 * DDR byte) and attained ops/s against the platform's ceilings ([ROOFLINE] in docs/sources.md), as a table,
 * JSON (schema "nnperf.roofline", docs/json-schema.md) or CSV; the table and JSON carry the prediction's expected
 * error (the CSV has only the layers). */
#include <stddef.h>
#include <stdio.h>

#include "render.h"

#define LI(m) offsetof(struct rep_layer, li.m)

/* the columns of every format: JSON members and CSV columns by key, the table's by heading */
static const struct rf_field fields[] = {
    {.key = "layer", .col = {"layer", 0, 0, 44, 12}, .in = RF_ALL, .kind = RF_STR, .off = LI(name)},
    {.key = "op", .col = {"op", 0, 3, 16, 0}, .in = RF_ALL, .kind = RF_STR, .off = LI(op)},
    {.key = "class", .in = RF_JSON | RF_CSV, .kind = RF_STR, .off = LI(klass)},
    {.key = "ops", .col = {"ops", 1, 2, 0, 0}, .in = RF_ALL, .kind = RF_NUM, .off = LI(aligned_ops)},
    {.key = "ddr_bytes", .in = RF_JSON | RF_CSV, .kind = RF_NUM, .off = LI(ddr_bytes)},
    {.key = "intensity", .col = {"ops/B", 1, 1, 0, 0}, .in = RF_ALL, .kind = RF_NUM, .off = LI(intensity)},
    {.key = "attained_ops_per_s",
     .col = {"attained", 1, 0, 0, 0},
     .in = RF_ALL,
     .kind = RF_NUM,
     .off = LI(attained),
     .unit = "ops/s"},
    {.key = "time_us",
     .col = {"time", 1, 0, 0, 0},
     .in = RF_ALL,
     .kind = RF_NUM,
     .off = LI(t_total),
     .scale = 1e6,
     .people = RF_P_TIME},
    {.key = "bound", .in = RF_JSON | RF_CSV, .kind = RF_STR, .off = LI(bound)},
    {.col = {"bound", 0, 0, 0, 0}, .in = RF_TABLE, .kind = RF_FN, .fn = rep_layer_bound_cell},
};

static void render(const struct rep_view *v, enum nnperf_format fmt, const struct nnperf_render_options *o,
                   struct strbuf *sb)
{
    double peak = v->su.peak_ops, bw = v->su.ddr_bandwidth, ridge = bw > 0 ? peak / bw : 0;
    struct rep_json j;
    if (fmt == NNPERF_FORMAT_JSON) {
        rj_init(&j, sb);
        rj_obj(&j, NULL, 1);
        rj_header(&j, "nnperf.roofline", 1);
        rj_str(&j, "model", v->model);
        rj_str(&j, "platform", v->s.platform);
        rj_str(&j, "dtype", v->s.dtype);
        rj_num(&j, "peak_ops_per_s", peak);
        rj_num(&j, "ddr_bytes_per_s", bw);
        rj_num(&j, "ridge_ops_per_byte", ridge);
        rep_json_expected_error(&j, &v->s);
    } else if (fmt == NNPERF_FORMAT_TABLE) {
        char a[3][40];
        rep_si(a[0], sizeof a[0], peak, "ops/s");
        rep_si(a[1], sizeof a[1], bw, "B/s");
        rep_si(a[2], sizeof a[2], ridge, "");
        char line[512];
        snprintf(line, sizeof line, "%s on %s (%s): ceilings peak %s, DDR %s, ridge point %s ops/B", v->model,
                 v->s.platform, v->s.dtype, a[0], a[1], a[2]);
        rt_wrap_indent(sb, line, o->width, 2);
        char xe[400];
        rep_expected_error_text(v->p, &v->s, xe, sizeof xe);
        snprintf(line, sizeof line, "expected error of the prediction: %s", xe);
        rt_wrap_indent(sb, line, o->width, 2);
    }
    struct rf_rows w;
    rf_begin(&w, fmt, fields, (int)(sizeof fields / sizeof fields[0]), v, sb, &j, "layers");
    int rows = 0;
    for (int i = 0; i < v->n; i++) {
        struct rep_layer row;
        if (rep_view_layer(v, i, &row)->li.t_total > 0) rf_row(&w, &row), rows++;
    }
    struct strbuf note;
    sb_init(&note, 1 << 12);
    sb_printf(&note, "%d of the %d layers have a predicted time. ", rows, v->n);
    rf_end(&w, sb, o->width, 0, &note);
    if (fmt != NNPERF_FORMAT_TABLE) sb_free(&note);
    if (fmt == NNPERF_FORMAT_JSON) {
        rep_json_warnings(&j, v->a, v->p);
        rj_end(&j);
    }
}

enum nnperf_status nnperf_roofline_render(const struct nnperf_prediction *p, enum nnperf_format fmt,
                                          const struct nnperf_render_options *opts, char **out, size_t *len,
                                          char *err, size_t errlen)
{
    static const struct nnperf_render_options none = {0, 0, 0, 0};
    if (!out) return NNPERF_E_USAGE;
    *out = NULL;
    if (len) *len = 0;
    if (fmt != NNPERF_FORMAT_TABLE && fmt != NNPERF_FORMAT_JSON && fmt != NNPERF_FORMAT_CSV)
        return rep_bad_format("roofline", fmt, "table, json or csv; analyze --plot roofline draws it", err,
                              errlen);
    struct rep_view v;
    enum nnperf_status st = rep_view_open(&v, p, err, errlen);
    if (st) return st;
    struct strbuf sb;
    sb_init(&sb, REP_CAP);
    render(&v, fmt, opts ? opts : &none, &sb);
    rep_view_free(&v);
    return rep_finish_as(&sb, fmt, out, len, err, errlen);
}
