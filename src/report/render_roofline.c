/* render_roofline.c - `nnperf roofline`: every layer with predicted time, its arithmetic intensity (aligned ops per
 * DDR byte) and attained ops/s against the platform's ceilings ([ROOFLINE] in docs/sources.md), as a table,
 * JSON (schema "nnperf.roofline", docs/json-schema.md) or CSV. */
#include <stdio.h>

#include "render.h"

static const struct rep_col cols[] = {
    {"layer", 0, 0, 44, 12},  {"op", 0, 3, 16, 0},  {"ops", 1, 2, 0, 0},   {"ops/B", 1, 1, 0, 0},
    {"attained", 1, 0, 0, 0}, {"time", 1, 0, 0, 0}, {"bound", 0, 0, 0, 0},
};

static void render(const struct rep_view *v, enum nnperf_format fmt, const struct nnperf_render_options *o,
                   struct strbuf *sb)
{
    double peak = v->su.peak_ops, bw = v->su.ddr_bandwidth, ridge = bw > 0 ? peak / bw : 0;
    struct rep_json j;
    struct rep_csv c;
    struct rep_table t;
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
        rj_arr(&j, "layers", 1);
    } else if (fmt == NNPERF_FORMAT_CSV) {
        rc_init(&c, sb);
        rc_header(&c, "layer,op,class,ops,ddr_bytes,intensity,attained_ops_per_s,time_us,bound");
    } else {
        char a[3][40];
        rep_si(a[0], sizeof a[0], peak, "ops/s");
        rep_si(a[1], sizeof a[1], bw, "B/s");
        rep_si(a[2], sizeof a[2], ridge, "");
        char line[512];
        snprintf(line, sizeof line, "%s on %s (%s): ceilings peak %s, DDR %s, ridge point %s ops/B", v->model,
                 v->s.platform, v->s.dtype, a[0], a[1], a[2]);
        rt_wrap_indent(sb, line, o->width, 2);
        rt_init(&t, cols, 7);
    }
    int rows = 0;
    for (int i = 0; i < v->n; i++) {
        const struct nnperf_layer_info *li = &v->L[i].li;
        if (li->t_total <= 0) continue;
        rows++;
        if (fmt == NNPERF_FORMAT_JSON) {
            rj_obj(&j, NULL, 0);
            rj_str(&j, "layer", li->name);
            rj_str(&j, "op", li->op);
            rj_str(&j, "class", li->klass);
            rj_num(&j, "ops", li->aligned_ops);
            rj_num(&j, "ddr_bytes", li->ddr_bytes);
            rj_num(&j, "intensity", li->intensity);
            rj_num(&j, "attained_ops_per_s", li->attained);
            rj_num(&j, "time_us", li->t_total * 1e6);
            rj_str(&j, "bound", li->bound);
            rj_end(&j);
        } else if (fmt == NNPERF_FORMAT_CSV) {
            rc_str(&c, li->name);
            rc_str(&c, li->op);
            rc_str(&c, li->klass);
            rc_num(&c, li->aligned_ops);
            rc_num(&c, li->ddr_bytes);
            rc_num(&c, li->intensity);
            rc_num(&c, li->attained);
            rc_num(&c, li->t_total * 1e6);
            rc_str(&c, li->bound);
            rc_end(&c);
        } else {
            char f[4][40];
            rep_si(f[0], sizeof f[0], li->aligned_ops, "");
            rep_si(f[1], sizeof f[1], li->intensity, "");
            rep_si(f[2], sizeof f[2], li->attained, "ops/s");
            rep_time(f[3], sizeof f[3], li->t_total);
            const char *cells[7] = {li->name, li->op, f[0], f[1], f[2], f[3], rep_layer_bound(&v->L[i])};
            rt_row(&t, cells);
        }
    }
    if (fmt == NNPERF_FORMAT_JSON) {
        rj_end(&j);
        rep_json_warnings(&j, v->a, v->p);
        rj_end(&j);
    } else if (fmt == NNPERF_FORMAT_TABLE) {
        struct strbuf note;
        sb_init(&note, 1 << 12);
        sb_printf(&note, "%d of the %d layers have a predicted time. ", rows, v->n);
        rt_finish(&t, o->width, 0, sb, &note);
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
