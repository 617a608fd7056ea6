/* render_prediction.c - a prediction as people and programs read it: an HBDK-style summary ([HB-PERF] in
 * docs/sources.md: ops per frame and run, DDR bytes per frame / run / second, loaded and stored bytes, latency, FPS,
 * utilization), the layer details (ops, original and aligned output shape, compute and load/store time, active
 * period, bound, share) and the timeline; JSON adds the same to the analysis document; CSV has one row per layer; HTML is a page
 * with Summary, Layer details, Timeline, Roofline and Memory tabs. Predictions are read through view.h only. */
#include <math.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "render.h"

/* ---- JSON ---- */

static void json_dims(struct rep_json *j, const char *key, const struct rep_layer *L, int aligned)
{
    if (L->d.rank < 0) {
        rj_null(j, key);
        return;
    }
    rj_arr(j, key, 0);
    for (int i = 0; i < L->d.rank; i++) {
        int64_t v = aligned ? L->d.aligned_dims[i] : L->d.dims[i];
        if (v < 0)
            rj_null(j, NULL);
        else
            rj_int(j, NULL, (long long)v);
    }
    rj_end(j);
}

/* ---- the layer columns of every format ---- */

#define LI(m) offsetof(struct rep_layer, li.m)
#define LD(m) offsetof(struct rep_layer, d.m)

static void json_nodes(const void *ctx, const void *row, struct rep_json *j, const char *key)
{
    const struct rep_view *v = ctx;
    const struct rep_layer *L = row;
    rj_arr(j, key, 0);
    for (int k = 0; k < L->li.nodes; k++)
        rj_str(j, NULL, nnperf_prediction_layer_node(v->p, L->index, k, NULL));
    rj_end(j);
}

static void json_shape(const void *ctx, const void *row, struct rep_json *j, const char *key)
{
    (void)ctx;
    json_dims(j, key, row, 0);
}

static void json_aligned_shape(const void *ctx, const void *row, struct rep_json *j, const char *key)
{
    (void)ctx;
    json_dims(j, key, row, 1);
}

static void text_shape(const void *ctx, const void *row, struct rf_cell *c)
{
    (void)ctx;
    rep_layer_shape(c->buf, sizeof c->buf, row, 0);
    c->s = c->buf;
}

static void text_aligned_shape(const void *ctx, const void *row, struct rf_cell *c)
{
    (void)ctx;
    rep_layer_shape(c->buf, sizeof c->buf, row, 1);
    c->s = c->buf;
}

static void text_load_store(const void *ctx, const void *row, struct rf_cell *c)
{
    (void)ctx;
    const struct rep_layer *L = row;
    rep_time(c->buf, sizeof c->buf, L->li.t_memory + L->d.t_transfer);
    c->s = c->buf;
}

static void text_time(const void *ctx, const void *row, struct rf_cell *c)
{
    (void)ctx;
    const struct rep_layer *L = row;
    if (L->d.cost_known)
        rep_time(c->buf, sizeof c->buf, L->li.t_total);
    else
        snprintf(c->buf, sizeof c->buf, "?");
    c->s = c->buf;
}

static void text_active(const void *ctx, const void *row, struct rf_cell *c)
{
    (void)ctx;
    const struct rep_layer *L = row;
    c_snprintf(c->buf, sizeof c->buf, "%.1f ~ %.1f", L->li.start * 1e6, L->li.end * 1e6);
    c->s = c->buf;
}

static void nodes_cell(struct strbuf *sb, const struct rep_view *v, const struct rep_layer *L)
{
    sb_puts(sb, "<td class=\"nodes\">");
    if (L->li.nodes <= 1) {
        sb_puts(sb, "1</td>");
        return;
    }
    sb_printf(sb, "<details><summary>%d nodes</summary><ol>", L->li.nodes);
    for (int k = 0; k < L->li.nodes; k++) {
        const char *op;
        const char *nm = nnperf_prediction_layer_node(v->p, L->index, k, &op);
        sb_puts(sb, "<li>");
        rep_esc(sb, nm ? nm : "?");
        sb_puts(sb, " (");
        rep_esc(sb, op ? op : "?");
        sb_puts(sb, ")</li>");
    }
    sb_puts(sb, "</ol></details></td>");
}

/* the page's composite cells */
static void html_nodes(const void *ctx, const void *row, struct strbuf *sb)
{
    nodes_cell(sb, ctx, row);
}

static void html_op(const void *ctx, const void *row, struct strbuf *sb)
{
    (void)ctx;
    const struct nnperf_layer_info *li = &((const struct rep_layer *)row)->li;
    sb_puts(sb, "<td>");
    rep_esc(sb, li->op);
    sb_puts(sb, "<br><span class=\"muted\">");
    rep_esc(sb, li->klass);
    sb_puts(sb, ", ");
    rep_esc(sb, li->dtype);
    sb_puts(sb, "</span></td>");
}

static void html_bound(const void *ctx, const void *row, struct strbuf *sb)
{
    (void)ctx;
    const char *bd = rep_layer_bound(row);
    sb_printf(sb, "<td class=\"b-%s\">%s</td>", bd, bd);
}

static void html_active(const void *ctx, const void *row, struct strbuf *sb)
{
    (void)ctx;
    const struct nnperf_layer_info *li = &((const struct rep_layer *)row)->li;
    char b[96];
    c_snprintf(b, sizeof b, "%.1f ~ %.1f", li->start * 1e6, li->end * 1e6);
    sb_printf(sb, "<td class=\"n\" data-v=\"%.6g\" style=\"white-space:normal\">", li->start * 1e6);
    rep_esc(sb, b);
    sb_puts(sb, "</td>");
}

static void html_shape(const void *ctx, const void *row, struct strbuf *sb)
{
    (void)ctx;
    char b[96], c[96];
    rep_layer_shape(b, sizeof b, row, 0);
    rep_layer_shape(c, sizeof c, row, 1);
    sb_puts(sb, "<td class=\"sh\">");
    rep_esc(sb, b);
    if (strcmp(b, c)) {
        sb_puts(sb, "<br>&rarr; ");
        rep_esc(sb, c);
    }
    sb_puts(sb, "</td>");
}

/* the time for people ("?" when unknown), sorted by its microseconds */
static void page_time(const void *ctx, const void *row, struct rf_cell *c)
{
    (void)ctx;
    const struct rep_layer *L = row;
    c->x = L->li.t_total, c->is_num = 1;
    if (!L->d.cost_known) c->text = "?";
}

static void page_load_store(const void *ctx, const void *row, struct rf_cell *c)
{
    (void)ctx;
    const struct rep_layer *L = row;
    c->x = L->li.t_memory + L->d.t_transfer, c->is_num = 1;
}

#define J  RF_JSON
#define C  RF_CSV
#define T  RF_TABLE
#define H  RF_HTML
#define JC (RF_JSON | RF_CSV)
#define US(k_, in_, m_)                                                                                      \
    {                                                                                                        \
        .key = k_, .in = in_, .kind = RF_NUM, .off = m_, .scale = 1e6                                        \
    }
/* JSON members, CSV columns and table columns of a layer, in each format's order (a column placed differently in
 * two formats is two rows) */
static const struct rf_field layer_fields[] = {
    {.key = "index",
     .col = {"#", 1, 2, 0, 0},
     .in = C | T,
     .kind = RF_INT,
     .off = offsetof(struct rep_layer, index)},
    {.key = "name", .in = J, .kind = RF_STR, .off = LI(name)},
    {.key = "layer", .col = {"layer", 0, 0, 40, 12}, .in = C | T, .kind = RF_STR, .off = LI(name)},
    {.key = "op", .col = {"op", 0, 3, 16, 0}, .in = RF_ALL, .kind = RF_STR, .off = LI(op)},
    {.key = "class", .in = JC, .kind = RF_STR, .off = LI(klass)},
    {.key = "dtype", .col = {"dtype", 0, 3, 0, 0}, .in = J | T, .kind = RF_STR, .off = LI(dtype)},
    {.key = "nodes", .in = J, .kind = RF_FN, .json = json_nodes},
    {.key = "unit", .in = JC, .kind = RF_STR, .off = LD(unit)},
    {.key = "nodes", .in = C, .kind = RF_INT, .off = LI(nodes)},
    {.key = "cost_known", .in = J, .kind = RF_BOOL, .off = LD(cost_known)},
    {.key = "ops", .col = {"ops", 1, 4, 0, 0}, .in = RF_ALL, .kind = RF_NUM, .off = LI(ops)},
    {.key = "aligned_ops", .in = JC, .kind = RF_NUM, .off = LI(aligned_ops)},
    {.key = "output_shape",
     .col = {"output shape", 0, 7, 22, 0},
     .in = J | T,
     .kind = RF_FN,
     .fn = text_shape,
     .json = json_shape},
    {.key = "aligned_output_shape",
     .col = {"aligned shape", 0, 9, 22, 0},
     .in = J | T,
     .kind = RF_FN,
     .fn = text_aligned_shape,
     .json = json_aligned_shape},
    {.key = "weight_bytes", .in = JC, .kind = RF_NUM, .off = LI(weight_bytes)},
    {.key = "load_bytes", .in = JC, .kind = RF_NUM, .off = LI(load_bytes)},
    {.key = "store_bytes", .in = JC, .kind = RF_NUM, .off = LI(store_bytes)},
    {.key = "spill_store_bytes", .in = J, .kind = RF_NUM, .off = LD(spill_store_bytes)},
    {.key = "spill_load_bytes", .in = J, .kind = RF_NUM, .off = LD(spill_load_bytes)},
    {.key = "spill_bytes", .in = C, .kind = RF_NUM, .off = LI(spill_bytes)},
    {.key = "transfer_bytes", .in = J, .kind = RF_NUM, .off = LD(transfer_bytes)},
    {.key = "compute_us",
     .col = {"compute", 1, 5, 0, 0},
     .in = RF_ALL,
     .kind = RF_NUM,
     .off = LI(t_compute),
     .scale = 1e6,
     .people = RF_P_TIME},
    US("memory_us", JC, LI(t_memory)),
    {.col = {"load/store", 1, 6, 0, 0}, .in = T, .kind = RF_FN, .fn = text_load_store},
    US("transfer_us", JC, LD(t_transfer)),
    US("overhead_us", J, LD(t_overhead)),
    US("time_us", JC, LI(t_total)),
    {.col = {"time", 1, 0, 0, 0}, .in = T, .kind = RF_FN, .fn = text_time},
    US("start_us", JC, LI(start)),
    US("end_us", JC, LI(end)),
    {.col = {"active (us)", 0, 8, 0, 0}, .in = T, .kind = RF_FN, .fn = text_active},
    {.key = "bound", .in = JC, .kind = RF_STR, .off = LI(bound)},
    {.col = {"bound", 0, 0, 0, 0}, .in = T, .kind = RF_FN, .fn = rep_layer_bound_cell},
    {.key = "share",
     .col = {"share", 1, 0, 0, 0},
     .in = RF_ALL,
     .kind = RF_NUM,
     .off = offsetof(struct rep_layer, share),
     .people = RF_P_PCT},
    {.key = "intensity", .in = J, .kind = RF_NUM, .off = LI(intensity)},
    {.key = "attained_ops_per_s", .in = J, .kind = RF_NUM, .off = LI(attained)},
    {.key = "energy_j", .in = C, .kind = RF_NUM, .off = LI(energy_j)},
    {.key = "dtype", .in = C, .kind = RF_STR, .off = LI(dtype)},
    /* the page's table: the heaviest first, in its own order */
    {.col = {"#", 1, 0, 0, 0},
     .in = H,
     .kind = RF_INT,
     .off = offsetof(struct rep_layer, index),
     .hkey = "index"},
    {.col = {"layer", 0, 0, 0, 0}, .in = H, .kind = RF_STR, .off = LI(name), .hkey = "name", .hcls = "name"},
    {.col = {"op", 0, 0, 0, 0}, .in = H, .hkey = "op", .html = html_op},
    {.col = {"time", 1, 0, 0, 0},
     .in = H,
     .kind = RF_FN,
     .fn = page_time,
     .scale = 1e6,
     .people = RF_P_TIME,
     .hkey = "time"},
    {.col = {"share", 1, 0, 0, 0},
     .in = H,
     .kind = RF_NUM,
     .off = offsetof(struct rep_layer, share),
     .scale = 100,
     .people = RF_P_PCT,
     .hkey = "share"},
    {.col = {"bound", 0, 0, 0, 0}, .in = H, .hkey = "bound", .html = html_bound},
    {.col = {"ops", 1, 0, 0, 0}, .in = H, .kind = RF_NUM, .off = LI(ops), .hkey = "ops"},
    {.col = {"compute", 1, 0, 0, 0},
     .in = H,
     .kind = RF_NUM,
     .off = LI(t_compute),
     .scale = 1e6,
     .people = RF_P_TIME,
     .hkey = "compute"},
    {.col = {"load/store", 1, 0, 0, 0},
     .in = H,
     .kind = RF_FN,
     .fn = page_load_store,
     .scale = 1e6,
     .people = RF_P_TIME,
     .hkey = "memory"},
    {.col = {"active (us)", 1, 0, 0, 0}, .in = H, .hkey = "start", .html = html_active},
    {.col = {"output shape (aligned)", 0, 0, 0, 0}, .in = H, .hkey = "shape", .html = html_shape},
    {.col = {"fused nodes", 1, 0, 0, 0}, .in = H, .hkey = "nodes", .html = html_nodes},
};
#undef J
#undef C
#undef T
#undef H
#undef JC
#undef US
#define N_LAYER_FIELDS ((int)(sizeof layer_fields / sizeof layer_fields[0]))

static void json_summary(const struct rep_view *v, struct rep_json *j)
{
    const struct nnperf_prediction_summary *s = &v->s;
    rj_str(j, "platform", s->platform);
    rj_str(j, "dtype", s->dtype);
    rj_int(j, "frames_per_run", s->frames_per_run);
    rj_str(j, "memory_model", s->memory_model);
    rj_str(j, "compute_model", s->compute_model);
    rj_num(j, "latency_ms", s->latency_s * 1e3);
    rj_num(j, "fps", s->fps);
    rj_num(j, "throughput_fps", s->throughput_fps);
    rj_str(j, "throughput_limit", s->throughput_limit);
    rj_int(j, "streams", s->streams);
    rj_int(j, "cores", s->cores);
    rj_int(j, "cores_per_inference", s->cores_per_inference);
    rj_num(j, "ops_per_frame", s->ops_per_frame);
    rj_num(j, "ops_per_run", s->ops_per_run);
    rj_num(j, "aligned_ops_per_frame", s->aligned_ops_per_frame);
    rj_num(j, "ddr_bytes_per_frame", s->ddr_bytes_per_frame);
    rj_num(j, "ddr_bytes_per_run", s->ddr_bytes_per_run);
    rj_num(j, "ddr_bytes_per_second", s->ddr_bytes_per_second);
    rj_num(j, "loaded_bytes_per_frame", s->loaded_bytes_per_frame);
    rj_num(j, "stored_bytes_per_frame", s->stored_bytes_per_frame);
    rj_num(j, "weight_bytes_per_frame", s->weight_bytes_per_frame);
    rj_num(j, "spill_bytes_per_frame", s->spill_bytes_per_frame);
    rj_num(j, "avg_utilization", s->avg_utilization);
    const char *pk[3] = {"energy_j_per_frame", "power_w", "fps_per_w"};
    double pv[3] = {s->energy_j_per_frame, s->power_w, s->fps_per_w};
    for (int i = 0; i < 3; i++) {
        if (isfinite(pv[i]))
            rj_num(j, pk[i], pv[i]);
        else
            rj_null(j, pk[i]);
    }
    rj_str(j, "power_basis", s->power_basis);
    rj_str(j, "family", s->family);
    rep_json_expected_error(j, s);
    rj_obj(j, "why", 0);
    rj_obj(j, "time_by_bound", 0);
    for (int k = 0; k < REP_N_BOUNDS; k++) {
        rj_obj(j, rep_bound_names[k], 0);
        rj_num(j, "time_us", v->why.t[k] * 1e6);
        rj_num(j, "share", v->why.share[k]);
        rj_end(j);
    }
    rj_end(j);
    rj_obj(j, "memory_by_kind", 0);
    for (int m = 0; m < 3; m++) {
        rj_obj(j, rep_memory_names[m], 0);
        rj_num(j, "time_us", v->why.mem_t[m] * 1e6);
        rj_num(j, "share", v->why.total > 0 ? v->why.mem_t[m] / v->why.total : 0);
        rj_end(j);
    }
    rj_end(j);
    rj_arr(j, "top", 0);
    for (int i = 0; i < v->why.n_top; i++) {
        struct rep_layer row;
        const struct rep_layer *L = rep_view_layer(v, v->why.top[i], &row);
        rj_obj(j, NULL, 0);
        rj_str(j, "layer", L->li.name);
        rj_str(j, "bound", rep_layer_bound(L));
        if (!strcmp(rep_layer_bound(L), "memory"))
            rj_str(j, "memory", L->d.memory);
        else
            rj_null(j, "memory");
        rj_num(j, "time_us", L->li.t_total * 1e6);
        rj_num(j, "share", L->share);
        if (v->why.rule[i])
            rj_str(j, "rule", v->why.rule[i]);
        else
            rj_null(j, "rule");
        rj_end(j);
    }
    rj_end(j);
    rj_end(j);
    rj_int(j, "layers", s->layers);
    rj_int(j, "fallback_layers", s->fallback_layers);
    rj_int(j, "spilled_tensors", s->spilled_tensors);
    rj_int(j, "unknown_layers", s->unknown_layers);
    rj_arr(j, "assumptions", 0);
    for (int i = 0; i < nnperf_prediction_assumption_count(v->p); i++)
        rj_str(j, NULL, nnperf_prediction_assumption(v->p, i));
    rj_end(j);
    rj_arr(j, "overrides", 0);
    for (int i = 0; i < nnperf_prediction_override_count(v->p); i++)
        rj_str(j, NULL, nnperf_prediction_override(v->p, i));
    rj_end(j);
}

static void json_tail(const struct rep_view *v, struct rep_json *j)
{
    rj_obj(j, "platform", 0);
    rj_str(j, "name", v->s.platform);
    rj_str(j, "description", v->su.description);
    rj_num(j, "peak_ops", v->su.peak_ops);
    rj_num(j, "ddr_bandwidth", v->su.ddr_nominal);
    rj_num(j, "ddr_efficiency", v->su.ddr_efficiency);
    rj_num(j, "sram_bytes", v->su.sram_bytes);
    rj_str(j, "schedule", v->su.schedule);
    rj_end(j);
    struct rf_rows w;
    rf_begin(&w, NNPERF_FORMAT_JSON, layer_fields, N_LAYER_FIELDS, v, NULL, j, "layers");
    for (int l = 0; l < v->n; l++) {
        struct rep_layer row;
        rf_row(&w, rep_view_layer(v, l, &row));
    }
    rf_end(&w, NULL, 0, 0, NULL);
    rj_obj(j, "timeline", 0);
    rj_num(j, "interval_ms", v->su.interval_s * 1e3);
    int n = nnperf_prediction_interval_count(v->p);
    static const char *const keys[3] = {"utilization", "load_bandwidth", "store_bandwidth"};
    for (int k = 0; k < 3; k++) {
        rj_arr(j, keys[k], 0);
        for (int i = 0; i < n; i++) {
            struct nnperf_interval iv;
            nnperf_prediction_interval(v->p, i, &iv);
            rj_num(j, NULL, k == 0 ? iv.utilization : k == 1 ? iv.load_bandwidth : iv.store_bandwidth);
        }
        rj_end(j);
    }
    rj_end(j);
    rj_arr(j, "prediction_warnings", 1);
    for (int i = 0; i < v->s.warnings; i++) rj_str(j, NULL, v->warn[i]);
    rj_end(j);
}

static void render_json(const struct rep_view *v, struct strbuf *sb)
{
    struct rep_json j;
    rj_init(&j, sb);
    rj_obj(&j, NULL, 1);
    rep_an_json_head(v->a, &j);
    json_summary(v, &j);
    rep_an_json_body(v->a, &j);
    json_tail(v, &j);
    rj_end(&j);
}

/* the power line of the summary: energy per frame, average power, FPS/W, or that the platform has no power keys */
static void power_text(const struct nnperf_prediction_summary *s, char *b, size_t n)
{
    if (!isfinite(s->power_w)) {
        snprintf(b, n, "not described (the platform has no power keys)");
        return;
    }
    char e[48], w[48];
    /* energies and powers between 1 m and 1 read best in milli (rep_si keeps 0.001 to 999 unprefixed) */
    double ej = s->energy_j_per_frame, pw = s->power_w;
    int me = ej >= 1e-3 && ej < 1, mw = pw >= 1e-3 && pw < 1;
    rep_si(e, sizeof e, me ? ej * 1e3 : ej, me ? "mJ" : "J");
    rep_si(w, sizeof w, mw ? pw * 1e3 : pw, mw ? "mW" : "W");
    c_snprintf(b, n, "%s average, %s per frame, %.4g FPS/W%s", w, e, s->fps_per_w,
               s->power_basis && !strcmp(s->power_basis, "dynamic only")
                   ? " (dynamic only: the platform gives no idle power, so FPS/W is an upper bound)"
                   : " (static and dynamic)");
}

/* the band the texts show (render.h): a family's where it is not all the rows' */
struct rep_xe_band rep_expected_band(const struct nnperf_prediction_summary *s)
{
    struct rep_xe_band x = {s->expected_error_rows, s->expected_error_median, s->expected_error_p90, NULL, 0};
    if (s->expected_error_rows <= 0 || !s->family || s->family_test_rows < 0) return x;
    int tf = !strcmp(s->family, NNPERF_FAMILY_TRANSFORMER);
    if (tf && s->family_test_rows == 0)
        x.family_unvalidated = 1;
    else if (s->family_test_rows >= (tf ? 1 : REP_XE_MIN_CNN_ROWS) &&
             s->family_test_rows < s->expected_error_rows)
        x.rows = s->family_test_rows, x.median = s->family_median, x.p90 = s->family_p90,
        x.family = tf ? NNPERF_FAMILY_TRANSFORMER : NNPERF_FAMILY_CNN;
    return x;
}

/* the expected error of the prediction: the platform's validation on test rows, or that there is none */
static void expected_error_text(const struct rep_view *v, char *b, size_t n)
{
    rep_expected_error_text(v->p, &v->s, b, n);
}

/* the throughput line's label and text, when it differs from one stream's FPS or streams were asked for: frames per
 * second with every unit busy (or with the streams), the inferences in flight and what limits it; 0 when there is
 * nothing to say */
static int throughput_text(const struct nnperf_prediction_summary *s, char *key, size_t kn, char *b, size_t n)
{
    snprintf(key, kn, "throughput");
    if (s->streams > 0) {
        snprintf(key, kn, "throughput with %d stream%s", s->streams, s->streams == 1 ? "" : "s");
        c_snprintf(
            b, n,
            "%.2f FPS (%d application thread%s, each running one inference after another; limited by the "
            "%s)",
            s->throughput_fps, s->streams, s->streams == 1 ? "" : "s", s->throughput_limit);
        return 1;
    }
    if (s->cores <= s->cores_per_inference && !(fabs(s->throughput_fps - s->fps) > 1e-9 * s->fps)) return 0;
    c_snprintf(b, n, "%.2f FPS (%d inference%s in flight, one per %d core%s; limited by the %s)",
               s->throughput_fps, s->cores / s->cores_per_inference,
               s->cores / s->cores_per_inference == 1 ? "" : "s", s->cores_per_inference,
               s->cores_per_inference == 1 ? "" : "s", s->throughput_limit);
    return 1;
}

/* ---- CSV ---- */

static void render_csv(const struct rep_view *v, struct strbuf *sb)
{
    struct rf_rows w;
    rf_begin(&w, NNPERF_FORMAT_CSV, layer_fields, N_LAYER_FIELDS, v, sb, NULL, NULL);
    for (int l = 0; l < v->n; l++) {
        struct rep_layer row;
        rf_row(&w, rep_view_layer(v, l, &row));
    }
    rf_end(&w, sb, 0, 0, NULL);
}

/* ---- text ---- */

/* "  key                       value", the value word-wrapped under itself */
static void kv_line(struct strbuf *sb, int width, const char *key, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 4, 5)))
#endif
    ;
static void kv_line(struct strbuf *sb, int width, const char *key, const char *fmt, ...)
{
    char text[1024];
    va_list ap;
    va_start(ap, fmt);
    c_vsnprintf(text, sizeof text, fmt, ap);
    va_end(ap);
    sb_printf(sb, "  %-25s ", key);
    rt_wrap_indent(sb, text, width, 28);
}

/* the prediction's assumptions (which 0) or overrides (1) joined by ", " into t (emptied first), then note;
 * returns how many there are */
static int platform_notes(const struct nnperf_prediction *p, int which, const char *note, struct strbuf *t)
{
    int n = which ? nnperf_prediction_override_count(p) : nnperf_prediction_assumption_count(p);
    t->len = 0;
    if (t->p) t->p[0] = 0;
    for (int i = 0; i < n; i++)
        sb_printf(t, "%s%s", i ? ", " : "",
                  which ? nnperf_prediction_override(p, i) : nnperf_prediction_assumption(p, i));
    sb_printf(t, " (%s)", note);
    return n;
}

static void text_summary(const struct rep_view *v, int width, struct strbuf *sb)
{
    const struct nnperf_prediction_summary *s = &v->s;
    char a[8][48], line[512];
    snprintf(line, sizeof line,
             "platform: %s (%s), dtype %s, %d frame%s per run, memory model %s, compute model %s",
             s->platform, v->su.description[0] ? v->su.description : "no description", s->dtype,
             s->frames_per_run, s->frames_per_run == 1 ? "" : "s", s->memory_model, s->compute_model);
    sb_putc(sb, '\n');
    rt_wrap_indent(sb, line, width, 2);
    struct strbuf why;
    sb_init(&why, 1 << 16);
    for (int k = 0; k < 2; k++) {
        why.len = 0;
        if (why.p) why.p[0] = 0;
        rep_why_text(v, k, &why);
        kv_line(sb, width, k ? "heaviest layers" : "time by bound", "%s", why.p ? why.p : "");
    }
    sb_free(&why);
    rep_si(a[0], 48, s->ops_per_frame, "");
    rep_si(a[1], 48, s->ops_per_run, "");
    rep_si(a[2], 48, s->aligned_ops_per_frame, "");
    kv_line(sb, width, "ops per frame", "%s (aligned %s; ops = 2 x MACs + other FLOPs)", a[0], a[2]);
    kv_line(sb, width, "ops per run", "%s", a[1]);
    rep_si(a[3], 48, s->ddr_bytes_per_frame, "B");
    rep_si(a[4], 48, s->ddr_bytes_per_run, "B");
    rep_si(a[5], 48, s->ddr_bytes_per_second, "B/s");
    kv_line(sb, width, "DDR bytes per frame", "%s (per run %s, per second %s)", a[3], a[4], a[5]);
    rep_si(a[0], 48, s->loaded_bytes_per_frame, "B");
    rep_si(a[1], 48, s->stored_bytes_per_frame, "B");
    rep_si(a[2], 48, s->weight_bytes_per_frame, "B");
    rep_si(a[3], 48, s->spill_bytes_per_frame, "B");
    kv_line(sb, width, "loaded / stored per frame", "%s / %s (weights %s, spills %s)", a[0], a[1], a[2],
            a[3]);
    rep_time(a[6], 48, s->latency_s);
    kv_line(sb, width, "latency", "%s per run", a[6]);
    kv_line(sb, width, "FPS", "%.2f", s->fps);
    char xe[400];
    expected_error_text(v, xe, sizeof xe);
    kv_line(sb, width, "expected error", "%s", xe);
    char tp[200], tk[48];
    if (throughput_text(s, tk, sizeof tk, tp, sizeof tp)) kv_line(sb, width, tk, "%s", tp);
    rep_pct(a[7], 48, s->avg_utilization);
    kv_line(sb, width, "average utilization", "%s", a[7]);
    char pw[256];
    power_text(s, pw, sizeof pw);
    kv_line(sb, width, "power", "%s", pw);
    if (v->n_hidden)
        kv_line(sb, width, "layers",
                "%d (%d shown, %d that do%s no work; %d on the fallback unit; %d spilled tensors)", s->layers,
                v->n_shown, v->n_hidden, v->n_hidden == 1 ? "es" : "", s->fallback_layers,
                s->spilled_tensors);
    else
        kv_line(sb, width, "layers", "%d (all shown; %d on the fallback unit; %d spilled tensors)", s->layers,
                s->fallback_layers, s->spilled_tensors);
    kv_line(sb, width, "schedule", "%s", v->su.schedule);
    struct strbuf t;
    sb_init(&t, 1 << 16);
    if (platform_notes(v->p, 0, "not published: the platform assumes them", &t))
        kv_line(sb, width, "assumptions", "%s", t.p ? t.p : "");
    if (platform_notes(v->p, 1, "changed after loading the platform", &t))
        kv_line(sb, width, "overrides", "%s", t.p ? t.p : "");
    sb_free(&t);
}

static void text_report(const struct rep_view *v, const struct nnperf_render_options *o, struct strbuf *sb)
{
    rep_an_table(v->a, o, sb);
    text_summary(v, o->width, sb);
    if (!o->summary_only) {
        struct rf_rows w;
        rf_begin(&w, NNPERF_FORMAT_TABLE, layer_fields, N_LAYER_FIELDS, v, sb, NULL, NULL);
        int rows = 0;
        if (o->top > 0) {
            for (int i = 0; i < v->n_shown && i < o->top; i++, rows++) {
                struct rep_layer row;
                rf_row(&w, rep_view_layer(v, v->by_time[i], &row));
            }
        } else {
            for (int l = 0; l < v->n; l++)
                if (v->shown[l] || o->all) {
                    struct rep_layer row;
                    rf_row(&w, rep_view_layer(v, l, &row));
                    rows++;
                }
        }
        sb_putc(sb, '\n');
        struct strbuf note;
        sb_init(&note, 1 << 16);
        if (o->top > 0) sb_printf(&note, "The %d heaviest of %d shown layers, by time. ", rows, v->n_shown);
        int fused = 0;
        for (int l = 0; l < v->n && !fused; l++) {
            struct nnperf_layer_info li;
            nnperf_prediction_layer(v->p, l, &li);
            fused = li.nodes > 1;
        }
        if (fused)
            sb_puts(&note,
                    "A layer named X+N is node X with N more ONNX nodes fused into it (--format json or html "
                    "lists them). ");
        if (v->n_hidden && !o->all && o->top <= 0) {
            rep_view_hidden_note(v, &note);
            sb_puts(&note, " --all shows them. ");
        }
        rf_end(&w, sb, o->width, 0, &note);
    }
    int n = nnperf_prediction_interval_count(v->p);
    char head[160];
    c_snprintf(head, sizeof head, "timeline (interval %.3g ms): compute utilization | DDR load | DDR store",
               v->su.interval_s * 1e3);
    sb_putc(sb, '\n');
    rt_wrap_indent(sb, head, o->width, 2);
    int step = n > 40 ? (n + 39) / 40 : 1;
    for (int i = 0; i < n; i += step) {
        struct nnperf_interval iv;
        nnperf_prediction_interval(v->p, i, &iv);
        char t0[32], u[16], ld[32], stb[32];
        rep_time(t0, sizeof t0, iv.start);
        rep_pct(u, sizeof u, iv.utilization);
        rep_si(ld, sizeof ld, iv.load_bandwidth, "B/s");
        rep_si(stb, sizeof stb, iv.store_bandwidth, "B/s");
        sb_printf(sb, "  %10s  %6s  %11s  %11s\n", t0, u, ld, stb);
    }
    if (step > 1) sb_printf(sb, "  (every %dth of %d intervals shown; JSON has them all)\n", step, n);
    if (v->s.warnings) {
        sb_printf(sb, "\nprediction warnings (%d):\n", v->s.warnings);
        for (int i = 0; i < v->s.warnings; i++) {
            sb_puts(sb, "  ");
            rt_wrap_indent(sb, v->warn[i], o->width, 4);
        }
    }
}

/* ---- HTML ---- */

static void layer_counts_attr(const struct rep_view *v, struct strbuf *sb)
{
    sb_printf(sb, " data-layers-total=\"%d\" data-layers-shown=\"%d\"", v->n, v->n_shown);
}

static void html_summary(const struct rep_view *v, struct strbuf *sb)
{
    const struct nnperf_prediction_summary *s = &v->s;
    struct nnperf_summary as;
    nnperf_analysis_summary(v->a, &as);
    char b[400], c1[48], c2[48], c3[48];
    rh_cards_open(sb);
    rep_time(b, sizeof b, s->latency_s);
    struct rep_xe_band xb = rep_expected_band(s);
    if (xb.rows > 0) c_snprintf(b + strlen(b), sizeof b - strlen(b), " (+-%.0f%%)", 100 * xb.median);
    rh_card(sb, "latency per run", b);
    c_snprintf(b, sizeof b, "%.2f", s->fps);
    rh_card(sb, "FPS", b);
    rep_si(b, sizeof b, s->ops_per_frame, "");
    rh_card(sb, "ops per frame", b);
    rep_si(b, sizeof b, s->ddr_bytes_per_frame, "B");
    rh_card(sb, "DDR bytes per frame", b);
    rep_pct(b, sizeof b, s->avg_utilization);
    rh_card(sb, "average utilization", b);
    snprintf(b, sizeof b, "%d", v->n_shown);
    rh_card(sb, "layers shown", b);
    rh_cards_close(sb);
    rh_kv_open(sb);
    struct strbuf t;
    sb_init(&t, 1 << 20);
    rep_why_text(v, 0, &t);
    rh_kv(sb, "time by bound", t.p ? t.p : "");
    t.len = 0;
    if (t.p) t.p[0] = 0;
    rep_why_text(v, 1, &t);
    rh_kv(sb, "heaviest layers", t.p ? t.p : "");
    rh_kv(sb, "model", v->model);
    snprintf(b, sizeof b, "%s%s%s", s->platform, v->su.description[0] ? ": " : "", v->su.description);
    rh_kv(sb, "platform", b);
    snprintf(b, sizeof b, "%s, memory model %s, compute model %s", s->dtype, s->memory_model,
             s->compute_model);
    rh_kv(sb, "dtype", b);
    t.len = 0;
    if (t.p) t.p[0] = 0;
    rep_an_inputs(v->a, &t);
    rh_kv(sb, "inputs", t.p ? t.p : "");
    snprintf(b, sizeof b, "%d", s->frames_per_run);
    rh_kv(sb, "frames per run", b);
    expected_error_text(v, b, sizeof b);
    rh_kv(sb, "expected error", b);
    rep_si(c1, sizeof c1, s->ops_per_frame, "");
    rep_si(c2, sizeof c2, s->aligned_ops_per_frame, "");
    rep_si(c3, sizeof c3, s->ops_per_run, "");
    snprintf(b, sizeof b, "%s (aligned %s; per run %s; ops = 2 x MACs + other FLOPs)", c1, c2, c3);
    rh_kv(sb, "ops per frame", b);
    rep_si(c1, sizeof c1, (double)as.macs, "");
    rep_si(c2, sizeof c2, (double)as.params, "");
    snprintf(b, sizeof b, "%s MACs, %s parameters, %d nodes in %d layers", c1, c2, as.nodes, s->layers);
    rh_kv(sb, "model size", b);
    rep_si(c1, sizeof c1, s->ddr_bytes_per_frame, "B");
    rep_si(c2, sizeof c2, s->ddr_bytes_per_run, "B");
    rep_si(c3, sizeof c3, s->ddr_bytes_per_second, "B/s");
    snprintf(b, sizeof b, "%s per frame, %s per run, %s", c1, c2, c3);
    rh_kv(sb, "DDR traffic", b);
    rep_si(c1, sizeof c1, s->loaded_bytes_per_frame, "B");
    rep_si(c2, sizeof c2, s->stored_bytes_per_frame, "B");
    snprintf(b, sizeof b, "%s / %s", c1, c2);
    rh_kv(sb, "loaded / stored per frame", b);
    rep_si(c1, sizeof c1, s->weight_bytes_per_frame, "B");
    rep_si(c2, sizeof c2, s->spill_bytes_per_frame, "B");
    snprintf(b, sizeof b, "weights %s, spills %s (%d spilled tensors)", c1, c2, s->spilled_tensors);
    rh_kv(sb, "of which per frame", b);
    rep_time(c1, sizeof c1, s->latency_s);
    c_snprintf(b, sizeof b, "%s per run, %.2f FPS", c1, s->fps);
    rh_kv(sb, "latency", b);
    char tk[48];
    if (throughput_text(s, tk, sizeof tk, b, sizeof b)) rh_kv(sb, tk, b);
    rep_pct(b, sizeof b, s->avg_utilization);
    rh_kv(sb, "average compute utilization", b);
    char pw[256];
    power_text(s, pw, sizeof pw);
    rh_kv(sb, "power", pw);
    if (platform_notes(v->p, 0, "not published: the platform assumes these values", &t))
        rh_kv(sb, "assumptions", t.p ? t.p : "");
    if (platform_notes(v->p, 1, "changed after loading the platform", &t))
        rh_kv(sb, "overrides", t.p ? t.p : "");
    t.len = 0;
    if (t.p) t.p[0] = 0;
    sb_printf(&t, "%d: %d shown in every tab", s->layers, v->n_shown);
    if (v->n_unknown) sb_printf(&t, " (%d of unknown cost)", v->n_unknown);
    if (v->n_hidden) {
        sb_puts(&t, "; ");
        rep_view_hidden_note(v, &t);
    }
    sb_puts(sb, "<tr><td>layers</td><td class=\"layer-counts\"");
    layer_counts_attr(v, sb);
    sb_puts(sb, ">");
    rep_esc(sb, t.p ? t.p : "");
    sb_puts(sb, "</td></tr>\n");
    sb_free(&t);
    rh_kv(sb, "schedule", v->su.schedule);
    snprintf(b, sizeof b, "%d fallback layers, %d layers of unknown cost, %d nodes of unknown operators",
             s->fallback_layers, s->unknown_layers, as.unknown_nodes);
    rh_kv(sb, "attention", b);
    rh_kv_close(sb);
    const char **aw = calloc((size_t)(as.warnings > 0 ? as.warnings : 1), sizeof *aw);
    for (int i = 0; aw && i < as.warnings; i++) aw[i] = nnperf_analysis_warning(v->a, i);
    rh_warnings(sb, "analysis warnings", aw, aw ? as.warnings : 0);
    free(aw);
    rh_warnings(sb, "prediction warnings", v->warn, v->s.warnings);
}

/* the page's rows open with the layer's index (the plots link to it) */
static void html_tr(const void *ctx, const void *row, struct strbuf *sb)
{
    (void)ctx;
    sb_printf(sb, "<tr data-l=\"%d\">", ((const struct rep_layer *)row)->index);
}

static void html_layers(const struct rep_view *v, struct strbuf *sb)
{
    struct strbuf note;
    sb_init(&note, 1 << 16);
    sb_puts(
        &note,
        "Every layer that does work, heaviest first. A layer named X+N is the ONNX node X with N more nodes "
        "fused into it (for example a Conv with its BatchNormalization and Relu): the last column lists "
        "them. The aligned shape is the output padded to the platform's alignment.");
    if (v->n_hidden) {
        sb_putc(&note, ' ');
        rep_view_hidden_note(v, &note);
    }
    rh_note(sb, NULL, NULL, note.p ? note.p : "");
    sb_free(&note);
    struct rf_rows w;
    rf_begin_html(&w, layer_fields, N_LAYER_FIELDS, v, sb, "layer-table", "layers", v->n_shown, 3);
    w.tr = html_tr;
    for (int i = 0; i < v->n_shown; i++) {
        struct rep_layer row;
        rf_row(&w, rep_view_layer(v, v->by_time[i], &row));
    }
    rf_end(&w, sb, 0, 0, NULL);
    /* the table's layer counts for the browser test (tests/browser) */
    sb_puts(sb, "<p class=\"muted layer-counts\"");
    layer_counts_attr(v, sb);
    sb_printf(sb, ">%d rows: the %d layers that do work", v->n_shown, v->n_shown);
    if (v->n_hidden) sb_printf(sb, " (%d of %d layers do none)", v->n_hidden, v->n);
    sb_puts(sb, ".</p>\n");
}

void rep_pred_html(const struct rep_view *v, const struct rep_extra_tab *extra, int n_extra,
                   struct strbuf *sb)
{
    char title[512], sub[512];
    snprintf(title, sizeof title, "nnperf: %s on %s", v->model, v->s.platform);
    snprintf(sub, sizeof sub, "predicted latency and throughput, %s, %d frame%s per run", v->s.dtype,
             v->s.frames_per_run, v->s.frames_per_run == 1 ? "" : "s");
    rh_page_open(sb, title, sub);
    struct rep_tab tabs[16] = {{"summary", "Summary"},
                               {"layers", "Layer details"},
                               {"timeline", "Timeline"},
                               {"roofline", "Roofline"},
                               {"memory", "Memory"}};
    int nt = 5;
    for (int i = 0; i < n_extra && nt < 16; i++) tabs[nt].id = extra[i].id, tabs[nt++].title = extra[i].title;
    rh_nav(sb, tabs, nt);
    rh_tab_open(sb, "summary", "Summary", 1);
    html_summary(v, sb);
    rh_tab_close(sb);
    rh_tab_open(sb, "layers", "Layer details (heaviest first)", 0);
    html_layers(v, sb);
    rh_tab_close(sb);
    rh_tab_open(sb, "timeline", "Timeline", 0);
    struct strbuf cap;
    sb_init(&cap, 1 << 16);
    sb_printf(
        &cap,
        "%s Each unit has a compute lane and DDR load and store lanes showing when a layer keeps them busy; "
        "the ten heaviest layers have their own colours (legend below), every layer names itself on "
        "hover. Under the lanes: the compute utilization and the DDR bandwidth per interval of %.3g ms, "
        "with the DDR ceiling. Zoom with the buttons or ctrl + wheel; scroll sideways.",
        v->su.schedule, v->su.interval_s * 1e3);
    rh_note(sb, "caption", NULL, cap.p ? cap.p : "");
    sb_free(&cap);
    sb_puts(sb,
            "<div class=\"tl\"><div class=\"tools\"><button type=\"button\" data-zoom=\"2\">zoom in</button>"
            "<button type=\"button\" data-zoom=\"0.5\">zoom out</button><button type=\"button\" "
            "data-zoom=\"0\">reset</button></div>\n<div class=\"tl-scroll\">");
    rp_timeline(v, sb, 0);
    sb_puts(sb, "</div></div>\n");
    rh_tab_close(sb);
    rh_tab_open(sb, "roofline", "Roofline", 0);
    rh_note(sb, NULL, NULL,
            "Every layer with ops is a point: x = aligned ops per DDR byte, y = attained ops/s; area grows "
            "with the "
            "layer's time, colour is its operator class. Hover a point for the layer.");
    sb_puts(sb, "<div class=\"plot\">");
    rp_roofline(v, sb, 0);
    sb_puts(sb, "</div>\n");
    rh_tab_close(sb);
    rh_tab_open(sb, "memory", "Memory", 0);
    rh_note(
        sb, NULL, NULL,
        "DDR bytes per run of each layer, in execution order: weights read, activations loaded and stored, "
        "spills (tensors that did not fit on chip, stored and read back). A layer without a bar keeps its "
        "data "
        "on chip.");
    sb_puts(sb, "<div class=\"plot\">");
    rp_memory(v, sb, 0);
    sb_puts(sb, "</div>\n");
    rh_tab_close(sb);
    for (int i = 0; i < n_extra; i++) {
        rh_tab_open(sb, extra[i].id, extra[i].title, 0);
        sb_puts(sb, extra[i].html ? extra[i].html : "");
        sb_putc(sb, '\n');
        rh_tab_close(sb);
    }
    rh_page_close(sb);
}

/* ---- entry points ---- */

enum nnperf_status rep_view_open(struct rep_view *v, const struct nnperf_prediction *p, char *err,
                                 size_t errlen)
{
    if (!p) {
        if (err && errlen) snprintf(err, errlen, "no prediction given");
        return NNPERF_E_USAGE;
    }
    if (rep_view_init(v, p, rep_an_path(nnperf_prediction_analysis(p)))) {
        if (err && errlen) snprintf(err, errlen, "out of memory");
        return NNPERF_E_NOMEM;
    }
    return NNPERF_OK;
}

enum nnperf_status nnperf_prediction_render_opts(const struct nnperf_prediction *p, enum nnperf_format fmt,
                                                 const struct nnperf_render_options *opts, char **out,
                                                 size_t *len, char *err, size_t errlen)
{
    static const struct nnperf_render_options none = {0, 0, 0, 0};
    if (!out) return NNPERF_E_USAGE;
    *out = NULL;
    if (len) *len = 0;
    if (fmt != NNPERF_FORMAT_TABLE && fmt != NNPERF_FORMAT_JSON && fmt != NNPERF_FORMAT_CSV &&
        fmt != NNPERF_FORMAT_HTML && fmt != NNPERF_FORMAT_TRACE)
        return rep_bad_format("prediction", fmt, "table, json, csv, html or trace", err, errlen);
    struct rep_view v;
    enum nnperf_status st = rep_view_open(&v, p, err, errlen);
    if (st) return st;
    struct strbuf sb;
    sb_init(&sb, REP_CAP);
    switch (fmt) {
    case NNPERF_FORMAT_JSON: render_json(&v, &sb); break;
    case NNPERF_FORMAT_CSV: render_csv(&v, &sb); break;
    case NNPERF_FORMAT_TRACE: rep_pred_trace(&v, &sb); break;
    case NNPERF_FORMAT_TABLE: text_report(&v, opts ? opts : &none, &sb); break;
    default: rep_pred_html(&v, NULL, 0, &sb); break;
    }
    rep_view_free(&v);
    return rep_finish_as(&sb, fmt, out, len, err, errlen);
}

enum nnperf_status nnperf_prediction_render(const struct nnperf_prediction *p, enum nnperf_format fmt,
                                            char **out, size_t *len, char *err, size_t errlen)
{
    return nnperf_prediction_render_opts(p, fmt, NULL, out, len, err, errlen);
}

enum nnperf_status nnperf_plot_svg(const struct nnperf_prediction *p, const char *kind, char **out,
                                   size_t *len, char *err, size_t errlen)
{
    if (!out) return NNPERF_E_USAGE;
    *out = NULL;
    if (len) *len = 0;
    if (!kind) {
        if (err && errlen) snprintf(err, errlen, "no plot kind given");
        return NNPERF_E_USAGE;
    }
    void (*plot)(const struct rep_view *, struct strbuf *, int) = !strcmp(kind, "roofline")   ? rp_roofline
                                                                  : !strcmp(kind, "timeline") ? rp_timeline
                                                                  : !strcmp(kind, "memory")   ? rp_memory
                                                                                              : NULL;
    if (!plot) {
        if (err && errlen) snprintf(err, errlen, "unknown plot '%s' (roofline, timeline or memory)", kind);
        return NNPERF_E_USAGE;
    }
    struct rep_view v;
    enum nnperf_status st = rep_view_open(&v, p, err, errlen);
    if (st) return st;
    struct strbuf sb;
    sb_init(&sb, (size_t)1 << 30);
    sb_puts(&sb, "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n");
    plot(&v, &sb, 1);
    rep_view_free(&v);
    return rep_finish(&sb, out, len, err, errlen);
}

void rep_expected_error_text(const struct nnperf_prediction *p, const struct nnperf_prediction_summary *s,
                             char *b, size_t n)
{
    if (!s->expected_error_rows) {
        snprintf(b, n, "not validated (%s)",
                 p && nnperf_prediction_override_count(p) ? "the platform was changed with --set"
                                                          : "no test rows in bench/fidelity/data");
        return;
    }
    struct rep_xe_band x = rep_expected_band(s);
    c_snprintf(
        b, n,
        "+-%.0f%% median, +-%.0f%% at the 90th percentile (|error| over %d %s%stest rows, bench/fidelity)%s",
        100 * x.median, 100 * x.p90, x.rows, x.family ? x.family : "", x.family ? " " : "",
        x.family_unvalidated ? "; none of them is a " NNPERF_FAMILY_TRANSFORMER
                               " model: not validated for this one"
                             : "");
}

void rep_expected_error_short(const struct nnperf_prediction_summary *s, char *b, size_t n)
{
    struct rep_xe_band x = rep_expected_band(s);
    if (x.rows <= 0)
        snprintf(b, n, "not validated");
    else
        c_snprintf(b, n, "+-%.0f%% n=%d%s", 100 * x.median, x.rows,
                   x.family_unvalidated ? ", not validated for " NNPERF_FAMILY_TRANSFORMER : "");
}

void rep_json_expected_error(struct rep_json *j, const struct nnperf_prediction_summary *s)
{
    if (s->expected_error_rows <= 0) {
        rj_null(j, "expected_error");
        return;
    }
    rj_obj(j, "expected_error", 0);
    rj_num(j, "median", s->expected_error_median);
    rj_num(j, "p90", s->expected_error_p90);
    rj_int(j, "test_rows", s->expected_error_rows);
    /* the band the text reports show (rep_expected_band), so that a reader of the JSON (Python's repr, the browser
     * page) shows the same without choosing again */
    struct rep_xe_band x = rep_expected_band(s);
    rj_obj(j, "shown", 0);
    rj_num(j, "median", x.median);
    rj_num(j, "p90", x.p90);
    rj_int(j, "test_rows", x.rows);
    rj_str(j, "rows_of", x.family ? x.family : "all");
    rj_bool(j, "validated_for_model", !x.family_unvalidated);
    rj_end(j);
    if (!s->family) { /* no model's (nnperf compare's per-platform cells) */
        rj_end(j);
        return;
    }
    rj_str(j, "family", s->family);
    if (s->family_test_rows >= 0) {
        rj_int(j, "family_test_rows", s->family_test_rows);
        if (s->family_test_rows > 0) {
            rj_num(j, "family_median", s->family_median);
            rj_num(j, "family_p90", s->family_p90);
        } else {
            rj_null(j, "family_median");
            rj_null(j, "family_p90");
        }
        rj_bool(j, "validated_for_family", s->family_test_rows > 0);
    } else {
        rj_null(j, "family_test_rows");
        rj_null(j, "family_median");
        rj_null(j, "family_p90");
        rj_null(j, "validated_for_family");
    }
    rj_end(j);
}
