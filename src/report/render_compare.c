/* render_compare.c - `nnperf compare`: the model x platform matrix of FPS and latency (QuTiBench's heatmap, see
 * [QUTIBENCH] in docs/sources.md) with the dtype each platform ran, as a table, JSON (schema "nnperf.compare",
 * docs/json-schema.md), CSV or an HTML page (heatmap, tables, whole-model roofline, latency-vs-throughput lines,
 * accuracy pareto fronts). */
#include <math.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "render.h"

static const char *dtype_of(const struct nnperf_compare_data *d, int p)
{
    return d->dtypes && d->dtypes[p] ? d->dtypes[p] : "?";
}

static double ceiling(const double *v, int p)
{
    return v ? v[p] : NAN;
}

/* platform p's expected error as a prediction's summary gives it (only the expected_error_* and family* members) */
static struct nnperf_prediction_summary xe_of(const struct nnperf_compare_data *d, int p)
{
    struct nnperf_prediction_summary s;
    memset(&s, 0, sizeof s);
    s.expected_error_rows = d->expected_error_rows[p];
    s.expected_error_median = d->expected_error_median[p];
    s.expected_error_p90 = d->expected_error_p90[p];
    if (d->family && d->family[p].family) {
        s.family = d->family[p].family;
        s.family_test_rows = d->family[p].test_rows;
        s.family_median = d->family[p].median, s.family_p90 = d->family[p].p90;
    }
    return s;
}

static int sweep_bend(const struct nnperf_compare_data *d, int m, int p, int b, char *r, size_t n);

/* what a platform's FPS per watt holds: "static and dynamic", "dynamic only" or NULL (no power described) */
static const char *power_basis(const struct nnperf_compare_data *d, int p)
{
    return d->power_basis ? d->power_basis[p] : NULL;
}

static int dynamic_only(const struct nnperf_compare_data *d, int p)
{
    const char *b = power_basis(d, p);
    return b && !strcmp(b, "dynamic only");
}

/* the caveat under an FPS per watt table: which platforms' watts leave out the idle power; 0 when none do */
static int power_caveat(const struct nnperf_compare_data *d, struct strbuf *sb)
{
    int n = 0;
    for (int p = 0; p < d->n_platforms; p++)
        if (dynamic_only(d, p))
            sb_printf(sb, "%s%s", n++ ? ", " : "dynamic power only (no idle power given): ", d->platforms[p]);
    if (n)
        sb_puts(
            sb,
            ". Their watts leave out what the board draws at rest, so their FPS per watt is an upper bound "
            "and flatters them next to platforms with static power.");
    return n;
}

/* the platform's expected error, short ("+-21% n=11", "not valid.": also for transformer-style models where none of
 * the rows is one), or long; 0 when not given */
static int expected_error(const struct nnperf_compare_data *d, int p, int lng, char *b, size_t n)
{
    if (!d->expected_error_rows) return 0;
    struct nnperf_prediction_summary s = xe_of(d, p);
    struct rep_xe_band x = rep_expected_band(&s);
    if (s.expected_error_rows <= 0 || (!lng && x.family_unvalidated)) /* a 12-character cell */
        snprintf(b, n, lng ? "expected error: not validated" : "not valid.");
    else if (lng) {
        c_snprintf(b, n, "expected error +-%.0f%% median, +-%.0f%% p90 (%d %s%stest rows%s)", 100 * x.median,
                   100 * x.p90, x.rows, x.family ? x.family : "", x.family ? " " : "",
                   x.family_unvalidated ? "; none " NNPERF_FAMILY_TRANSFORMER ": not validated for it" : "");
    } else
        rep_expected_error_short(&s, b, n);
    return 1;
}

/* ---- the machine-readable rows: one field table each for JSON and CSV (fields.h) ----
 * The table and the HTML page are model x platform matrices (a column per platform), written below. */

/* one model on one platform: a member of "cells" and a CSV row */
struct cell_row {
    const char *model, *platform, *dtype, *error, *power_basis;
    double fps, throughput_fps, latency_ms, ops_per_frame, ddr_bytes_per_frame, attained, fps_per_w, accuracy;
};

#define C(m) offsetof(struct cell_row, m)

/* the JSON and CSV place fps_per_w differently: two fields, one per place */
static const struct rf_field cell_fields[] = {
    {.key = "model", .in = RF_MACHINE, .kind = RF_STR, .off = C(model)},
    {.key = "platform", .in = RF_MACHINE, .kind = RF_STR, .off = C(platform)},
    {.key = "dtype", .in = RF_MACHINE, .kind = RF_STR, .off = C(dtype)},
    {.key = "fps", .in = RF_MACHINE, .kind = RF_NUM, .off = C(fps)},
    {.key = "throughput_fps", .in = RF_MACHINE, .kind = RF_NUM, .off = C(throughput_fps)},
    {.key = "latency_ms", .in = RF_MACHINE, .kind = RF_NUM, .off = C(latency_ms)},
    {.key = "ops_per_frame", .in = RF_MACHINE, .kind = RF_NUM, .off = C(ops_per_frame)},
    {.key = "ddr_bytes_per_frame", .in = RF_MACHINE, .kind = RF_NUM, .off = C(ddr_bytes_per_frame)},
    {.key = "attained_ops_per_s", .in = RF_JSON, .kind = RF_NUM, .off = C(attained)},
    {.key = "fps_per_w", .in = RF_JSON, .kind = RF_NUM, .off = C(fps_per_w)},
    {.key = "accuracy_percent", .in = RF_MACHINE, .kind = RF_NUM, .off = C(accuracy)},
    {.key = "error", .in = RF_MACHINE, .kind = RF_STR, .off = C(error)},
    {.key = "fps_per_w", .in = RF_CSV, .kind = RF_NUM, .off = C(fps_per_w)},
    {.key = "power_basis", .in = RF_CSV, .kind = RF_STR, .off = C(power_basis)},
};

static struct cell_row cell_row(const struct nnperf_compare_data *d, int m, int p)
{
    const struct nnperf_compare_cell *c = &d->cells[m * d->n_platforms + p];
    int ok = isfinite(c->fps);
    return (struct cell_row){
        .model = d->models[m],
        .platform = d->platforms[p],
        .dtype = d->dtypes ? d->dtypes[p] : NULL,
        .error = ok         ? NULL
                 : c->error ? c->error
                            : "not predicted",
        .power_basis = power_basis(d, p),
        .fps = c->fps,
        .throughput_fps = ok ? c->throughput_fps : NAN,
        .latency_ms = ok ? c->latency_ms : NAN,
        .ops_per_frame = ok ? c->ops_per_frame : NAN,
        .ddr_bytes_per_frame = ok ? c->ddr_bytes_per_frame : NAN,
        .attained = ok ? c->ops_per_frame * c->fps : NAN,
        .fps_per_w = ok ? c->fps_per_w : NAN,
        .accuracy = d->accuracy ? d->accuracy[m] : NAN,
    };
}

/* one platform: a member of "platform_details" */
struct platform_row {
    const char *name, *dtype, *power_basis;
    double peak_ops, ddr_bandwidth;
    int p;
};

#define P(m) offsetof(struct platform_row, m)

static void xe_json(const void *ctx, const void *row, struct rep_json *j, const char *key)
{
    const struct nnperf_compare_data *d = ctx;
    if (d->expected_error_rows) {
        struct nnperf_prediction_summary s = xe_of(d, ((const struct platform_row *)row)->p);
        rep_json_expected_error(j, &s);
    } else {
        rj_null(j, key);
    }
}

static const struct rf_field platform_fields[] = {
    {.key = "name", .in = RF_JSON, .kind = RF_STR, .off = P(name)},
    {.key = "dtype", .in = RF_JSON, .kind = RF_STR, .off = P(dtype)},
    {.key = "peak_ops_per_s", .in = RF_JSON, .kind = RF_NUM, .off = P(peak_ops)},
    {.key = "ddr_bytes_per_s", .in = RF_JSON, .kind = RF_NUM, .off = P(ddr_bandwidth)},
    {.key = "power_basis", .in = RF_JSON, .kind = RF_STR, .off = P(power_basis)},
    {.key = "expected_error", .in = RF_JSON, .kind = RF_FN, .json = xe_json},
};

/* one point of the batch sweep: a member of "sweep" */
struct sweep_row {
    const char *model, *platform, *bend;
    int batch;
    double fps, latency_ms, ddr_bytes_per_frame, spill_bytes_per_frame;
    char why[320];
};

#define S(m) offsetof(struct sweep_row, m)

static const struct rf_field sweep_fields[] = {
    {.key = "model", .in = RF_JSON, .kind = RF_STR, .off = S(model)},
    {.key = "platform", .in = RF_JSON, .kind = RF_STR, .off = S(platform)},
    {.key = "batch", .in = RF_JSON, .kind = RF_INT, .off = S(batch)},
    {.key = "fps", .in = RF_JSON, .kind = RF_NUM, .off = S(fps)},
    {.key = "latency_ms", .in = RF_JSON, .kind = RF_NUM, .off = S(latency_ms)},
    {.key = "ddr_bytes_per_frame", .in = RF_JSON, .kind = RF_NUM, .off = S(ddr_bytes_per_frame)},
    {.key = "spill_bytes_per_frame", .in = RF_JSON, .kind = RF_NUM, .off = S(spill_bytes_per_frame)},
    {.key = "bend", .in = RF_JSON, .kind = RF_STR, .off = S(bend)},
};

#define NF(f) ((int)(sizeof f / sizeof f[0]))

static void render_json(const struct nnperf_compare_data *d, struct strbuf *sb)
{
    int M = d->n_models, P = d->n_platforms;
    struct rep_json j;
    rj_init(&j, sb);
    rj_obj(&j, NULL, 1);
    rj_header(&j, "nnperf.compare", 1);
    rj_arr(&j, "models", 0);
    for (int m = 0; m < M; m++) rj_str(&j, NULL, d->models[m]);
    rj_end(&j);
    rj_arr(&j, "platforms", 0);
    for (int p = 0; p < P; p++) rj_str(&j, NULL, d->platforms[p]);
    rj_end(&j);
    struct rf_rows w;
    rf_begin(&w, NNPERF_FORMAT_JSON, platform_fields, NF(platform_fields), d, sb, &j, "platform_details");
    for (int p = 0; p < P; p++) {
        struct platform_row r = {d->platforms[p],         d->dtypes ? d->dtypes[p] : NULL, power_basis(d, p),
                                 ceiling(d->peak_ops, p), ceiling(d->ddr_bandwidth, p),    p};
        rf_row(&w, &r);
    }
    rf_end(&w, sb, 0, 0, NULL);
    rf_begin(&w, NNPERF_FORMAT_JSON, cell_fields, NF(cell_fields), d, sb, &j, "cells");
    for (int m = 0; m < M; m++)
        for (int p = 0; p < P; p++) {
            struct cell_row r = cell_row(d, m, p);
            rf_row(&w, &r);
        }
    rf_end(&w, sb, 0, 0, NULL);
    if (d->n_batches) { /* the batch sweep: one entry per model, platform and batch */
        rf_begin(&w, NNPERF_FORMAT_JSON, sweep_fields, NF(sweep_fields), d, sb, &j, "sweep");
        for (int m = 0; m < M; m++)
            for (int p = 0; p < P; p++)
                for (int b = 0; b < d->n_batches; b++) {
                    size_t k = ((size_t)m * (size_t)P + (size_t)p) * (size_t)d->n_batches + (size_t)b;
                    struct sweep_row r;
                    int ok = isfinite(d->sweep_fps[k]);
                    r.model = d->models[m], r.platform = d->platforms[p], r.batch = d->batches[b];
                    r.fps = d->sweep_fps[k];
                    r.latency_ms = ok ? d->sweep_latency_ms[k] : NAN;
                    r.ddr_bytes_per_frame = ok && d->sweep_ddr_bytes ? d->sweep_ddr_bytes[k] : NAN;
                    r.spill_bytes_per_frame = ok && d->sweep_spill_bytes ? d->sweep_spill_bytes[k] : NAN;
                    r.bend = sweep_bend(d, m, p, b, r.why, sizeof r.why) ? r.why : NULL;
                    rf_row(&w, &r);
                }
        rf_end(&w, sb, 0, 0, NULL);
    }
    rj_arr(&j, "warnings", 1);
    for (int i = 0; d->warnings && i < d->n_warnings; i++) rj_str(&j, NULL, d->warnings[i]);
    rj_end(&j);
    rj_end(&j);
}

/* the tables: FPS, latency, FPS per watt where a platform describes power, and the throughput with the streams asked
 * for (nnperf_compare_data.streams) */
static const char *const pass_title[] = {"FPS", "latency per run (ms)", "FPS per watt", "throughput with"};

static double cell_value(const struct nnperf_compare_cell *c, int pass)
{
    return pass == 0 ? c->fps : pass == 1 ? c->latency_ms : pass == 2 ? c->fps_per_w : c->throughput_fps;
}

/* whether a platform in [p0, p1) has an FPS per watt for some model */
static int power_in(const struct nnperf_compare_data *d, int p0, int p1)
{
    for (int m = 0; m < d->n_models; m++)
        for (int p = p0; p < p1; p++)
            if (isfinite(d->cells[m * d->n_platforms + p].fps_per_w)) return 1;
    return 0;
}

static int any_power(const struct nnperf_compare_data *d)
{
    return power_in(d, 0, d->n_platforms);
}

static void render_csv(const struct nnperf_compare_data *d, struct strbuf *sb)
{
    struct rf_rows w;
    rf_begin(&w, NNPERF_FORMAT_CSV, cell_fields, NF(cell_fields), d, sb, NULL, NULL);
    for (int m = 0; m < d->n_models; m++)
        for (int p = 0; p < d->n_platforms; p++) {
            struct cell_row r = cell_row(d, m, p);
            rf_row(&w, &r);
        }
    rf_end(&w, sb, 0, 0, NULL);
}

/* FPS and latency: a table per block of platforms that fits the width */
static void render_table(const struct nnperf_compare_data *d, const struct nnperf_render_options *o,
                         struct strbuf *sb)
{
    int M = d->n_models, P = d->n_platforms;
    size_t name_w = 5;
    for (int m = 0; m < M; m++)
        if (strlen(d->models[m]) > name_w) name_w = strlen(d->models[m]);
    if (name_w > 32) name_w = 32;
    int col_w = 12;
    for (int p = 0; p < P; p++)
        if ((int)strlen(d->platforms[p]) > col_w)
            col_w = (int)strlen(d->platforms[p]) > 20 ? 20 : (int)strlen(d->platforms[p]);
    int per = P;
    if (o->width > 0) {
        per = (o->width - (int)name_w) / (col_w + 1);
        if (per < 1) per = 1;
    }
    for (int h0 = 0; h0 < P; h0 += per) {
        int h1 = h0 + per < P ? h0 + per : P;
        for (int pass = 0; pass < 4; pass++) {
            if ((pass == 2 && !power_in(d, h0, h1)) || (pass == 3 && d->streams <= 0))
                continue; /* FPS per watt where a platform has it; the throughput with streams asked for */
            sb_printf(sb, "%s%s", h0 || pass ? "\n" : "", pass_title[pass]);
            if (pass == 3) sb_printf(sb, " %d stream%s (FPS)", d->streams, d->streams == 1 ? "" : "s");
            sb_putc(sb, '\n');
            sb_printf(sb, "%-*s", (int)name_w, "model");
            for (int p = h0; p < h1; p++) {
                size_t l = strlen(d->platforms[p]);
                sb_printf(sb, " %*.*s", col_w, col_w,
                          l > (size_t)col_w ? d->platforms[p] + l - col_w : d->platforms[p]);
            }
            sb_printf(sb, "\n%-*s", (int)name_w, "dtype");
            for (int p = h0; p < h1; p++) sb_printf(sb, " %*s", col_w, dtype_of(d, p));
            char x[64];
            if (!pass && expected_error(d, 0, 0, x, sizeof x)) { /* under the FPS: how far to trust it */
                sb_printf(sb, "\n%-*s", (int)name_w, "exp. error");
                for (int p = h0; p < h1; p++) {
                    expected_error(d, p, 0, x, sizeof x);
                    sb_printf(sb, " %*s", col_w, x);
                }
            }
            if (pass == 2) { /* under the FPS per watt: what the watts hold */
                sb_printf(sb, "\n%-*s", (int)name_w, "power");
                for (int p = h0; p < h1; p++)
                    sb_printf(sb, " %*s", col_w,
                              !power_basis(d, p)   ? "-"
                              : dynamic_only(d, p) ? "dynamic only"
                                                   : "static+dyn.");
            }
            sb_putc(sb, '\n');
            for (int m = 0; m < M; m++) {
                size_t l = strlen(d->models[m]);
                sb_printf(sb, "%-*s", (int)name_w, l > name_w ? d->models[m] + l - name_w : d->models[m]);
                for (int p = h0; p < h1; p++) {
                    const struct nnperf_compare_cell *c = &d->cells[m * P + p];
                    if (!isfinite(c->fps))
                        sb_printf(sb, " %*s", col_w, "n/a");
                    else if (!isfinite(cell_value(c, pass)))
                        sb_printf(sb, " %*s", col_w, "-");
                    else
                        sb_printf(sb, " %*.2f", col_w, cell_value(c, pass));
                }
                sb_putc(sb, '\n');
            }
            if (pass == 2 && !power_in(d, h1, P)) { /* the caveat after the last FPS per watt table */
                struct strbuf c;
                sb_init(&c, 4096);
                if (power_caveat(d, &c) && c.p) rt_wrap_indent(sb, c.p, o->width, 0);
                if (c.overflow) sb->overflow = 1;
                sb_free(&c);
            }
        }
    }
    int bad = 0;
    for (int i = 0; i < M * P; i++) bad += !isfinite(d->cells[i].fps);
    if (bad) {
        sb_printf(sb, "\nn/a (%d):\n", bad);
        for (int m = 0; m < M; m++)
            for (int p = 0; p < P; p++) {
                const struct nnperf_compare_cell *c = &d->cells[m * P + p];
                if (!isfinite(c->fps)) { /* word-wrapped to the width, continued 4 columns in */
                    char line[1024];
                    snprintf(line, sizeof line, "%s on %s: %s", d->models[m], d->platforms[p],
                             c->error ? c->error : "not predicted");
                    sb_puts(sb, "  ");
                    rt_wrap_indent(sb, line, o->width, 4);
                }
            }
    }
}

/* ---- HTML ---- */

static void html_tables(const struct nnperf_compare_data *d, struct strbuf *sb)
{
    int M = d->n_models, P = d->n_platforms;
    static const char *const ids[] = {"fps", "latency", "fpsw"};
    for (int pass = 0; pass < 2 + any_power(d); pass++) {
        if (pass == 2) { /* the caveat above the FPS per watt table */
            struct strbuf c;
            sb_init(&c, 4096);
            if (power_caveat(d, &c) && c.p) rh_note(sb, NULL, NULL, c.p);
            if (c.overflow) sb->overflow = 1;
            sb_free(&c);
        }
        sb_printf(
            sb,
            "<h3>%s</h3>\n<div class=\"tablewrap\"><table class=\"sortable\" id=\"%s-table\">\n<thead><tr>"
            "<th data-key=\"name\">model</th>",
            pass_title[pass], ids[pass]);
        for (int p = 0; p < P; p++) {
            sb_puts(sb, "<th class=\"n\" data-key=\"p\">");
            rep_esc(sb, d->platforms[p]);
            sb_puts(sb, "<br><span class=\"muted\">");
            rep_esc(sb, dtype_of(d, p));
            char x[128];
            if (expected_error(d, p, 1, x, sizeof x)) {
                sb_puts(sb, "<br>");
                rep_esc(sb, x);
            }
            if (pass == 2 && power_basis(d, p))
                sb_puts(sb, dynamic_only(d, p) ? "<br>dynamic power only" : "<br>static and dynamic power");
            sb_puts(sb, "</span></th>");
        }
        sb_puts(sb, "</tr></thead>\n<tbody>\n");
        for (int m = 0; m < M; m++) {
            sb_puts(sb, "<tr>");
            rh_td_text(sb, "name", d->models[m]);
            for (int p = 0; p < P; p++) {
                const struct nnperf_compare_cell *c = &d->cells[m * P + p];
                double x = cell_value(c, pass);
                char b[32];
                if (isfinite(x))
                    c_snprintf(b, sizeof b, "%.2f", x);
                else
                    snprintf(b, sizeof b, isfinite(c->fps) ? "-" : "n/a");
                rh_td_num(sb, b, isfinite(x) ? x : (double)NAN);
            }
            sb_puts(sb, "</tr>\n");
        }
        sb_puts(sb, "</tbody></table></div>\n");
    }
    const char **errs = calloc((size_t)(M * P > 0 ? M * P : 1), sizeof *errs);
    char(*lines)[512] = calloc((size_t)(M * P > 0 ? M * P : 1), sizeof *lines);
    int ne = 0;
    for (int m = 0; errs && lines && m < M; m++)
        for (int p = 0; p < P; p++) {
            const struct nnperf_compare_cell *c = &d->cells[m * P + p];
            if (isfinite(c->fps)) continue;
            snprintf(lines[ne], sizeof lines[ne], "%s on %s: %s", d->models[m], d->platforms[p],
                     c->error ? c->error : "not predicted");
            errs[ne] = lines[ne];
            ne++;
        }
    rh_warnings(sb, "not predicted", errs, ne);
    free(errs), free(lines);
}

/* Why the sweep line of model m on platform p bends back at batch index b (throughput falls as the batch grows): 1
 * and the reason in r, from the DDR and spilled bytes per frame of the two batches; 0 where it does not bend. */
static int sweep_bend(const struct nnperf_compare_data *d, int m, int p, int b, char *r, size_t n)
{
    int nb = d->n_batches;
    size_t k = ((size_t)m * (size_t)d->n_platforms + (size_t)p) * (size_t)nb + (size_t)b;
    if (b < 1 || !isfinite(d->sweep_fps[k]) || !isfinite(d->sweep_fps[k - 1]) ||
        !(d->sweep_fps[k] < 0.99 * d->sweep_fps[k - 1])) /* flat within 1%: no bend */
        return 0;
    int b0 = d->batches[b - 1], b1 = d->batches[b];
    char f0[32], f1[32], x0[32], x1[32];
    rep_si(f0, sizeof f0, d->sweep_fps[k - 1], "");
    rep_si(f1, sizeof f1, d->sweep_fps[k], "");
    double s0 = d->sweep_spill_bytes ? d->sweep_spill_bytes[k - 1] : NAN,
           s1 = d->sweep_spill_bytes ? d->sweep_spill_bytes[k] : NAN;
    double d0 = d->sweep_ddr_bytes ? d->sweep_ddr_bytes[k - 1] : NAN,
           d1 = d->sweep_ddr_bytes ? d->sweep_ddr_bytes[k] : NAN;
    int len = snprintf(r, n, "throughput falls from %s FPS at batch %d to %s at batch %d: ", f0, b0, f1, b1);
    if (len < 0 || (size_t)len >= n) return 1;
    r += len, n -= (size_t)len;
    if (isfinite(s1) && isfinite(s0) && s1 > s0 * 1.05 + 1024) {
        rep_si(x0, sizeof x0, s0, "B");
        rep_si(x1, sizeof x1, s1, "B");
        snprintf(r, n, "memory limit, its activations spill to DDR (%s per frame, %s at batch %d)", x1, x0,
                 b0);
    } else if (isfinite(d1) && isfinite(d0) && d1 > d0 * 1.05) {
        rep_si(x0, sizeof x0, d0, "B");
        rep_si(x1, sizeof x1, d1, "B");
        snprintf(
            r, n,
            "memory limit, DDR traffic per frame rises from %s to %s (the working set leaves the on-chip "
            "memory)",
            x0, x1);
    } else {
        snprintf(r, n, "the latency grows faster than the batch");
    }
    return 1;
}

static void html_sweep(const struct nnperf_compare_data *d, struct strbuf *sb)
{
    int M = d->n_models, P = d->n_platforms, nb = d->n_batches;
    sb_puts(sb, "<p class=\"muted\">One line per platform; points are batch sizes ");
    for (int b = 0; b < nb; b++) sb_printf(sb, "%s%d", b ? ", " : "", d->batches[b]);
    sb_puts(
        sb,
        " (labels b1, b2, ...). Up and to the right costs latency for throughput; a line that bends back "
        "(less throughput for a larger batch) is marked * and the reason is written under its plot.</p>\n");
    struct rep_series *s = calloc((size_t)(P > 0 ? P : 1), sizeof *s);
    double *x = calloc((size_t)(P * nb + 1), sizeof *x), *y = calloc((size_t)(P * nb + 1), sizeof *y);
    /* per platform and batch: the point's label ("b16", "b16 *" where the line bends back) */
    char(*lab)[24] = calloc((size_t)(P * nb + 1), sizeof *lab);
    const char **labp = calloc((size_t)(P * nb + 1), sizeof *labp);
    char(*why)[400] = calloc((size_t)(P * nb + 1), sizeof *why); /* the notes under the plot */
    const char **whyp = calloc((size_t)(P * nb + 1), sizeof *whyp);
    if (!s || !x || !y || !lab || !labp || !why || !whyp) sb->overflow = 1;
    for (int m = 0; s && x && y && lab && labp && why && whyp && m < M; m++) {
        int nw = 0;
        for (int p = 0; p < P; p++) {
            for (int b = 0; b < nb; b++) {
                size_t k = ((size_t)m * (size_t)P + (size_t)p) * (size_t)nb + (size_t)b;
                char r[320];
                int bent = sweep_bend(d, m, p, b, r, sizeof r);
                x[p * nb + b] = d->sweep_fps[k];
                y[p * nb + b] = d->sweep_latency_ms[k];
                snprintf(lab[p * nb + b], sizeof lab[0], "b%d%s", d->batches[b], bent ? " *" : "");
                labp[p * nb + b] = lab[p * nb + b];
                if (bent) {
                    snprintf(why[nw], sizeof why[0], "* %s: %s", d->platforms[p], r);
                    whyp[nw] = why[nw];
                    nw++;
                }
            }
            s[p] = (struct rep_series){d->platforms[p], nb, x + p * nb, y + p * nb, labp + p * nb};
        }
        char t[256];
        snprintf(t, sizeof t, "%s: latency vs throughput", d->models[m]);
        struct rep_plot pl = {t, "throughput (frames/s, log)", "latency per run (ms, log)", 1, 1, 0, 1, whyp,
                              nw};
        sb_puts(sb, "<div class=\"plot\">");
        rp_lines(&pl, s, P, sb, 0);
        sb_puts(sb, "</div>\n");
    }
    free(s), free(x), free(y), free(lab), free(labp), free(why), free(whyp);
}

static void html_accuracy(const struct nnperf_compare_data *d, struct strbuf *sb)
{
    int M = d->n_models, P = d->n_platforms;
    rh_note(
        sb, NULL, NULL,
        "Each point is a model on a platform; the staircase is each platform's pareto front (no other model "
        "there is both faster and more accurate).");
    struct rep_series *s = calloc((size_t)(P > 0 ? P : 1), sizeof *s);
    double *x = calloc((size_t)(P * M + 1), sizeof *x), *y = calloc((size_t)(P * M + 1), sizeof *y);
    if (s && x && y) {
        for (int p = 0; p < P; p++) {
            for (int m = 0; m < M; m++) {
                x[p * M + m] = d->cells[m * P + p].fps;
                y[p * M + m] = d->accuracy[m];
            }
            s[p] = (struct rep_series){d->platforms[p], M, x + p * M, y + p * M, d->models};
        }
        struct rep_plot pl = {
            "Accuracy vs throughput", "throughput (FPS, log)", "accuracy (%)", 1, 0, 1, 0, NULL, 0};
        sb_puts(sb, "<div class=\"plot\">");
        rp_lines(&pl, s, P, sb, 0);
        sb_puts(sb, "</div>\n");
    } else {
        sb->overflow = 1;
    }
    free(s), free(x), free(y);
    rh_kv_open(sb);
    for (int m = 0; m < M; m++) {
        char b[32];
        if (isfinite(d->accuracy[m]))
            c_snprintf(b, sizeof b, "%.2f%%", d->accuracy[m]);
        else
            snprintf(b, sizeof b, "not given");
        rh_kv(sb, d->models[m], b);
    }
    rh_kv_close(sb);
}

static void render_html(const struct nnperf_compare_data *d, struct strbuf *sb)
{
    int M = d->n_models, P = d->n_platforms;
    struct strbuf sub;
    sb_init(&sub, 1 << 16);
    sb_printf(&sub, "%d model%s x %d platform%s; dtype: ", M, M == 1 ? "" : "s", P, P == 1 ? "" : "s");
    for (int p = 0; p < P; p++) sb_printf(&sub, "%s%s %s", p ? ", " : "", d->platforms[p], dtype_of(d, p));
    rh_page_open(sb, "nnperf: model x platform comparison", sub.p ? sub.p : "");
    sb_free(&sub);
    struct rep_tab tabs[4];
    int nt = 0;
    tabs[nt++] = (struct rep_tab){"summary", "Summary"};
    tabs[nt++] = (struct rep_tab){"roofline", "Roofline"};
    if (d->n_batches) tabs[nt++] = (struct rep_tab){"sweep", "Latency vs throughput"};
    if (d->accuracy) tabs[nt++] = (struct rep_tab){"accuracy", "Accuracy"};
    rh_nav(sb, tabs, nt);
    rh_tab_open(sb, "summary", "FPS and latency", 1);
    double *fps = malloc((size_t)(M * P > 0 ? M * P : 1) * sizeof *fps);
    char(*cols)[160] = calloc((size_t)P, sizeof *cols); /* "platform (dtype)" */
    const char **colp = calloc((size_t)P, sizeof *colp);
    if (fps && cols && colp) {
        for (int i = 0; i < M * P; i++) fps[i] = d->cells[i].fps;
        for (int p = 0; p < P; p++) {
            snprintf(cols[p], sizeof cols[p], "%s (%s)", d->platforms[p], dtype_of(d, p));
            colp[p] = cols[p];
        }
        struct rep_heat h = {M, P, d->models, colp, fps, "FPS"};
        sb_puts(sb, "<div class=\"plot\">");
        rp_heatmap(&h, sb, 0);
        sb_puts(sb, "</div>\n");
        if (any_power(d)) { /* efficiency where the platforms describe power */
            for (int i = 0; i < M * P; i++) fps[i] = d->cells[i].fps_per_w;
            for (int p = 0; p < P; p++)
                if (dynamic_only(d, p))
                    snprintf(cols[p], sizeof cols[p], "%s (%s, dynamic only)", d->platforms[p],
                             dtype_of(d, p));
            struct rep_heat hw = {M, P, d->models, colp, fps, "FPS per watt"};
            sb_puts(sb, "<div class=\"plot\">");
            rp_heatmap(&hw, sb, 0);
            sb_puts(sb, "</div>\n");
        }
    } else {
        sb->overflow = 1;
    }
    free(fps), free(cols), free(colp);
    html_tables(d, sb);
    rh_tab_close(sb);
    rh_tab_open(sb, "roofline", "Whole-model roofline", 0);
    rh_note(
        sb, NULL, NULL,
        "QuTiBench's view of a comparison: each model on each platform is one point, x = the model's ops per "
        "DDR byte of a frame, y = the ops per second it attains (ops per frame x FPS). Each platform's line "
        "is "
        "its DDR bandwidth rising to the ridge, then its peak at the dtype it ran. A point far below its "
        "platform's line leaves the platform idle (overheads, layers that map badly).");
    sb_puts(sb, "<div class=\"plot\">");
    rp_compare_roofline(d, sb, 0);
    sb_puts(sb, "</div>\n");
    rh_tab_close(sb);
    if (d->n_batches) {
        rh_tab_open(sb, "sweep", "Latency vs throughput over a batch sweep", 0);
        html_sweep(d, sb);
        rh_tab_close(sb);
    }
    if (d->accuracy) {
        rh_tab_open(sb, "accuracy", "Accuracy vs throughput", 0);
        html_accuracy(d, sb);
        rh_tab_close(sb);
    }
    rh_page_close(sb);
}

enum nnperf_status nnperf_compare_render(const struct nnperf_compare_data *d, enum nnperf_format fmt,
                                         const struct nnperf_render_options *opts, char **out, size_t *len,
                                         char *err, size_t errlen)
{
    static const struct nnperf_render_options none = {0, 0, 0, 0};
    if (!out) return NNPERF_E_USAGE;
    *out = NULL;
    if (len) *len = 0;
    if (!d || d->n_models < 1 || d->n_platforms < 1 || !d->models || !d->platforms || !d->cells ||
        (d->n_batches > 0 && (!d->batches || !d->sweep_fps || !d->sweep_latency_ms))) {
        if (err && errlen) snprintf(err, errlen, "incomplete compare data");
        return NNPERF_E_USAGE;
    }
    struct strbuf sb;
    sb_init(&sb, REP_CAP);
    switch (fmt) {
    case NNPERF_FORMAT_JSON: render_json(d, &sb); break;
    case NNPERF_FORMAT_CSV: render_csv(d, &sb); break;
    case NNPERF_FORMAT_TABLE: render_table(d, opts ? opts : &none, &sb); break;
    case NNPERF_FORMAT_HTML: render_html(d, &sb); break;
    default: sb_free(&sb); return rep_bad_format("compare", fmt, "table, json, csv or html", err, errlen);
    }
    return rep_finish_as(&sb, fmt, out, len, err, errlen);
}
