/* render_sweep.c - `nnperf sweep`: one row per configuration of one model (platform, dtype, batch and any other
 * setting): latency per run, FPS, throughput (every unit busy, or the streams asked for) and what limits it, DDR bytes
 * per frame, utilization, how many layers are memory-bound and the expected error of the row's platform (its validation on test rows, or not validated), as a table, JSON (schema
 * "nnperf.sweep", docs/json-schema.md) or CSV. */
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "render.h"

struct row {
    const char *platform, *dtype, *settings; /* in the sweep's arena */
    const char *throughput_limit;            /* a static name (pr_tp_limit_names) */
    int batch, memory_bound, streams;
    double latency_s, fps, throughput_fps, ddr_bytes_per_frame, avg_utilization;
    struct nnperf_prediction_summary xe; /* only the expected_error_* and family* members are kept */
};

#define R(m) offsetof(struct row, m)

static void xe_cell(const void *ctx, const void *row, struct rf_cell *c)
{
    (void)ctx;
    rep_expected_error_short(&((const struct row *)row)->xe, c->buf, sizeof c->buf);
    c->s = c->buf;
}

static void xe_json(const void *ctx, const void *row, struct rep_json *j, const char *key)
{
    (void)ctx, (void)key;
    rep_json_expected_error(j, &((const struct row *)row)->xe);
}

/* the columns of every format: JSON members and CSV columns by key, the table's by heading */
static const struct rf_field fields[] = {
    {.key = "platform", .col = {"platform", 0, 0, 28, 10}, .in = RF_ALL, .kind = RF_STR, .off = R(platform)},
    {.key = "dtype", .col = {"dtype", 0, 0, 0, 0}, .in = RF_ALL, .kind = RF_STR, .off = R(dtype)},
    {.key = "batch", .col = {"batch", 1, 0, 0, 0}, .in = RF_ALL, .kind = RF_INT, .off = R(batch)},
    {.key = "latency_ms",
     .col = {"latency", 1, 0, 0, 0},
     .in = RF_ALL,
     .kind = RF_NUM,
     .off = R(latency_s),
     .scale = 1e3,
     .people = RF_P_TIME},
    {.key = "fps",
     .col = {"FPS", 1, 0, 0, 0},
     .in = RF_ALL,
     .kind = RF_NUM,
     .off = R(fps),
     .people = RF_P_FIX2},
    {.key = "throughput_fps",
     .col = {"throughput", 1, 1, 0, 0},
     .in = RF_ALL,
     .kind = RF_NUM,
     .off = R(throughput_fps),
     .people = RF_P_FIX2},
    {.key = "throughput_limit", .in = RF_MACHINE, .kind = RF_STR, .off = R(throughput_limit)},
    {.key = "streams", .in = RF_MACHINE, .kind = RF_INT, .off = R(streams)},
    {.key = "ddr_bytes_per_frame",
     .col = {"DDR per frame", 1, 2, 0, 0},
     .in = RF_ALL,
     .kind = RF_NUM,
     .off = R(ddr_bytes_per_frame),
     .unit = "B"},
    {.key = "avg_utilization",
     .col = {"utilization", 1, 3, 0, 0},
     .in = RF_ALL,
     .kind = RF_NUM,
     .off = R(avg_utilization),
     .people = RF_P_PCT},
    {.key = "memory_bound_layers",
     .col = {"memory-bound layers", 1, 4, 0, 0},
     .in = RF_ALL,
     .kind = RF_INT,
     .off = R(memory_bound)},
    {.key = "expected_error",
     .col = {"expected error", 0, 2, 0, 0},
     .in = RF_JSON | RF_TABLE,
     .kind = RF_FN,
     .fn = xe_cell,
     .json = xe_json},
    {.key = "expected_error_median", .in = RF_CSV, .kind = RF_NUM, .off = R(xe.expected_error_median)},
    {.key = "expected_error_p90", .in = RF_CSV, .kind = RF_NUM, .off = R(xe.expected_error_p90)},
    {.key = "expected_error_test_rows", .in = RF_CSV, .kind = RF_INT, .off = R(xe.expected_error_rows)},
    {.key = "settings", .col = {"settings", 0, 1, 40, 0}, .in = RF_ALL, .kind = RF_STR, .off = R(settings)},
};
#define N_FIELDS ((int)(sizeof fields / sizeof fields[0]))

struct nnperf_sweep {
    struct arena ar;
    const char *model;
    struct row *rows;
    int n, cap;
    const char *
        *warn; /* the analysis's warnings (of the first prediction added; every row has the same model) */
    int n_warn;
};

static enum nnperf_status fail(enum nnperf_status st, const char *msg, char *err, size_t errlen)
{
    if (err && errlen) snprintf(err, errlen, "%s", msg);
    return st;
}

enum nnperf_status nnperf_sweep_new(const char *model, struct nnperf_sweep **out, char *err, size_t errlen)
{
    if (!out) return fail(NNPERF_E_USAGE, "sweep: no output handle", err, errlen);
    *out = calloc(1, sizeof **out);
    if (!*out) return fail(NNPERF_E_NOMEM, "out of memory", err, errlen);
    ar_init(&(*out)->ar, 0);
    (*out)->model = ar_strdup(&(*out)->ar, model ? model : "");
    if (!(*out)->model) {
        nnperf_sweep_free(*out);
        *out = NULL;
        return fail(NNPERF_E_NOMEM, "out of memory", err, errlen);
    }
    return NNPERF_OK;
}

enum nnperf_status nnperf_sweep_add(struct nnperf_sweep *sw, const struct nnperf_prediction *p,
                                    const char *settings, char *err, size_t errlen)
{
    if (!sw || !p) return fail(NNPERF_E_USAGE, "sweep: no sweep or prediction", err, errlen);
    if (sw->n == sw->cap) {
        int cap = sw->cap ? sw->cap * 2 : 64;
        struct row *r = realloc(sw->rows, (size_t)cap * sizeof *r);
        if (!r) return fail(NNPERF_E_NOMEM, "out of memory", err, errlen);
        sw->rows = r, sw->cap = cap;
    }
    struct nnperf_prediction_summary s;
    nnperf_prediction_summary(p, &s);
    if (!sw->n) {
        const struct nnperf_analysis *a = nnperf_prediction_analysis(p);
        struct nnperf_summary as;
        nnperf_analysis_summary(a, &as);
        sw->n_warn = 0;
        sw->warn = as.warnings ? ar_calloc(&sw->ar, (size_t)as.warnings, sizeof *sw->warn) : NULL;
        if (as.warnings && !sw->warn) return fail(NNPERF_E_NOMEM, "out of memory", err, errlen);
        for (int i = 0; i < as.warnings; i++)
            if (!(sw->warn[sw->n_warn++] = ar_strdup(&sw->ar, nnperf_analysis_warning(a, i))))
                return fail(NNPERF_E_NOMEM, "out of memory", err, errlen);
    }
    struct row *r = &sw->rows[sw->n];
    r->platform = ar_strdup(&sw->ar, s.platform);
    r->dtype = ar_strdup(&sw->ar, s.dtype);
    r->settings = settings ? ar_strdup(&sw->ar, settings) : NULL;
    if (!r->platform || !r->dtype || (settings && !r->settings))
        return fail(NNPERF_E_NOMEM, "out of memory", err, errlen);
    r->batch = s.frames_per_run;
    r->latency_s = s.latency_s;
    r->fps = s.fps;
    r->throughput_fps = s.throughput_fps;
    r->throughput_limit = s.throughput_limit;
    r->streams = s.streams;
    r->ddr_bytes_per_frame = s.ddr_bytes_per_frame;
    r->avg_utilization = s.avg_utilization;
    memset(&r->xe, 0, sizeof r->xe);
    r->xe.expected_error_rows = s.expected_error_rows;
    r->xe.expected_error_median = s.expected_error_median;
    r->xe.expected_error_p90 = s.expected_error_p90;
    r->xe.family = s.family; /* a static name */
    r->xe.family_test_rows = s.family_test_rows;
    r->xe.family_median = s.family_median;
    r->xe.family_p90 = s.family_p90;
    r->memory_bound = nnperf_prediction_bound_layers(p, "memory");
    sw->n++;
    return NNPERF_OK;
}

int nnperf_sweep_count(const struct nnperf_sweep *sw)
{
    return sw ? sw->n : 0;
}

void nnperf_sweep_free(struct nnperf_sweep *sw)
{
    if (!sw) return;
    free(sw->rows);
    ar_free(&sw->ar);
    free(sw);
}

enum nnperf_status nnperf_sweep_render(const struct nnperf_sweep *d, enum nnperf_format fmt,
                                       const struct nnperf_render_options *opts, char **out, size_t *len,
                                       char *err, size_t errlen)
{
    static const struct nnperf_render_options none = {0, 0, 0, 0};
    if (!opts) opts = &none;
    if (!out) return NNPERF_E_USAGE;
    *out = NULL;
    if (len) *len = 0;
    if (!d) return fail(NNPERF_E_USAGE, "no sweep given", err, errlen);
    if (fmt != NNPERF_FORMAT_TABLE && fmt != NNPERF_FORMAT_JSON && fmt != NNPERF_FORMAT_CSV)
        return rep_bad_format("sweep", fmt, "table, json or csv", err, errlen);
    struct strbuf sb;
    sb_init(&sb, REP_CAP);
    struct rep_json j;
    int any_setting = 0;
    for (int i = 0; i < d->n; i++) any_setting |= d->rows[i].settings != NULL;
    if (fmt == NNPERF_FORMAT_JSON) {
        rj_init(&j, &sb);
        rj_obj(&j, NULL, 1);
        rj_header(&j, "nnperf.sweep", 1);
        rj_str(&j, "model", d->model);
    } else if (fmt == NNPERF_FORMAT_TABLE) {
        sb_printf(&sb, "%s: %d configuration%s\n", d->model, d->n, d->n == 1 ? "" : "s");
    }
    /* the table leaves out the settings column (the last) when no row has settings */
    struct rf_rows w;
    rf_begin(&w, fmt, fields, fmt == NNPERF_FORMAT_TABLE && !any_setting ? N_FIELDS - 1 : N_FIELDS, NULL, &sb,
             &j, "rows");
    for (int i = 0; i < d->n; i++) rf_row(&w, &d->rows[i]);
    rf_end(&w, &sb, opts->width, 0, NULL);
    if (fmt == NNPERF_FORMAT_JSON) {
        rj_arr(&j, "warnings", 1);
        for (int i = 0; i < d->n_warn; i++) rj_str(&j, NULL, d->warn[i]);
        rj_end(&j);
        rj_end(&j);
    }
    return rep_finish_as(&sb, fmt, out, len, err, errlen);
}
