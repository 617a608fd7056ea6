/* calibrate_table.c - fitting a platform's free parameters to a table of measured whole-model latencies or FPS
 * (what vendors publish and users measure): `nnperf calibrate --hw P --table measured.csv`.
 *
 * Table (CSV with a header; '#' lines are comments): model (path, relative to the table's folder unless absolute),
 * input (optional: "NAME=DIMS" or "DIMS" for the first input, several separated by ';'), dtype (optional), batch
 * (optional), and one of latency_ms (per run) or fps (frames per second).
 *
 * Free parameters: numeric platform keys (any NUM row of the key table, a map entry included:
 * "memory.ddr_efficiency", "compute.vector_ops", "compute.efficiency.conv"), plus "efficiency", which scales every
 * operator class's efficiency at once. The fit minimises the sum over rows of (ln predicted - ln measured)^2 with a
 * Nelder-Mead simplex over the parameters' logarithms, each kept inside its key's physical range. Every row is
 * also predicted by a fit that left it out (leave-one-out), the honest estimate of the error on a new model. */
#include <ctype.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../hw/keys.h"
#include "calibrate.h"

#define CT_MAX_ROWS   256
#define CT_MAX_PARAMS 8
#define CT_MAX_FIELDS 16

struct ct_row {
    char *model, *input, *dtype;
    int batch;
    double measured_s;      /* per frame, 0 when the row gives only a throughput */
    double measured_tp_fps; /* with every core busy, 0 when not given */
    struct nnperf_model *m;
    struct nnperf_analysis *a;
};

struct ct_param {
    char path[HW_MAX_KEY];
    const struct hw_key *key; /* NULL: "efficiency" (scales every class) */
    int entry;                /* map entry, or -1 */
    double lo, hi, init;
};

struct ct_fit {
    struct hw_desc base;
    struct ct_row *rows;
    int n_rows;
    struct ct_param par[CT_MAX_PARAMS];
    int n_par;
    int skip; /* row left out, or -1 */
    int evals;
    struct diag *d;
};

static char *trim(char *s)
{
    while (isspace((unsigned char)*s)) s++;
    size_t n = strlen(s);
    while (n && isspace((unsigned char)s[n - 1])) s[--n] = 0;
    return s;
}

/* splits a CSV line on commas (no quoting: paths and shapes have no commas) */
static int split(char *line, char **f, int cap)
{
    int n = 0;
    for (char *p = line;;) {
        char *c = strchr(p, ',');
        if (n == cap) return -1;
        if (c) *c = 0;
        f[n++] = trim(p);
        if (!c) return n;
        p = c + 1;
    }
}

static double *slot(struct hw_desc *hw, const struct ct_param *p)
{
    return (double *)((char *)hw + p->key->off) + (p->entry >= 0 ? p->entry : 0);
}

static double get_param(const struct hw_desc *hw, const struct ct_param *p)
{
    if (!p->key) return 1.0;
    return *slot((struct hw_desc *)hw, p);
}

/* the platform with parameter values x (natural logs) applied to the base */
static void apply(const struct ct_fit *f, const double *x, struct hw_desc *hw)
{
    *hw = f->base;
    for (int i = 0; i < f->n_par; i++) {
        double v = exp(x[i]);
        if (v < f->par[i].lo) v = f->par[i].lo;
        if (v > f->par[i].hi) v = f->par[i].hi;
        if (!f->par[i].key) {
            /* every class's efficiency scaled, kept at most 1 */
            hw->eff_default = fmin(1.0, hw->eff_default * v);
            for (int c = 0; c < OC_COUNT; c++)
                if (hw->eff[c] > 0) hw->eff[c] = fmin(1.0, hw->eff[c] * v);
        } else {
            *slot(hw, &f->par[i]) = v;
        }
    }
}

/* predicted seconds per frame of row r on hw (and the throughput in *tp when tp is not NULL); <0 on failure */
static double predict_row(const struct ct_row *r, const struct hw_desc *hw, struct diag *d, double *tp)
{
    struct nnperf_platform plat = {*hw};
    struct nnperf_predict_options o = {.dtype = r->dtype, .batch = r->batch};
    struct nnperf_prediction *p;
    char err[512];
    if (nnperf_predict(r->a, &plat, &o, &p, err, sizeof err) != NNPERF_OK) {
        if (d && !d->status) diag_set(d, NNPERF_E_INVALID, "%s: %s", r->model, err);
        return -1;
    }
    double t = p->latency / p->batch;
    if (tp) {
        struct nnperf_prediction_summary sum;
        nnperf_prediction_summary(p, &sum);
        *tp = sum.throughput_fps;
    }
    nnperf_prediction_free(p);
    return t;
}

static double objective(struct ct_fit *f, const double *x)
{
    struct hw_desc hw;
    apply(f, x, &hw);
    double s = 0;
    f->evals++;
    for (int i = 0; i < f->n_rows; i++) {
        if (i == f->skip) continue;
        double tp = 0, t = predict_row(&f->rows[i], &hw, NULL, &tp);
        if (t <= 0) return 1e300;
        if (f->rows[i].measured_s > 0) {
            double e = log(t / f->rows[i].measured_s);
            s += e * e;
        }
        if (f->rows[i].measured_tp_fps > 0) {
            if (tp <= 0) return 1e300;
            double e = log(tp / f->rows[i].measured_tp_fps);
            s += e * e;
        }
    }
    return s;
}

/* Nelder-Mead over x[n] (in place); a few hundred evaluations at most */
static void minimise(struct ct_fit *f, double *x, int n)
{
    double simplex[CT_MAX_PARAMS + 1][CT_MAX_PARAMS] = {{0}}, val[CT_MAX_PARAMS + 1] = {0};
    for (int i = 0; i <= n; i++) {
        for (int j = 0; j < n; j++) simplex[i][j] = x[j] + (i == j + 1 ? 0.5 : 0);
        val[i] = objective(f, simplex[i]);
    }
    for (int it = 0; it < 60 * (n + 1); it++) {
        int hi = 0, lo = 0;
        for (int i = 1; i <= n; i++) {
            if (val[i] > val[hi]) hi = i;
            if (val[i] < val[lo]) lo = i;
        }
        int nh = lo;
        for (int i = 0; i <= n; i++)
            if (i != hi && val[i] > val[nh]) nh = i;
        if (val[hi] - val[lo] < 1e-12 * (1 + val[lo])) break;
        double c[CT_MAX_PARAMS] = {0}, r[CT_MAX_PARAMS], e[CT_MAX_PARAMS];
        for (int i = 0; i <= n; i++)
            if (i != hi)
                for (int j = 0; j < n; j++) c[j] += simplex[i][j] / n;
        for (int j = 0; j < n; j++) r[j] = c[j] + (c[j] - simplex[hi][j]);
        double fr = objective(f, r);
        if (fr < val[lo]) {
            for (int j = 0; j < n; j++) e[j] = c[j] + 2 * (c[j] - simplex[hi][j]);
            double fe = objective(f, e);
            memcpy(simplex[hi], fe < fr ? e : r, sizeof r);
            val[hi] = fe < fr ? fe : fr;
        } else if (fr < val[nh]) {
            memcpy(simplex[hi], r, sizeof r);
            val[hi] = fr;
        } else {
            for (int j = 0; j < n; j++) e[j] = c[j] + 0.5 * (simplex[hi][j] - c[j]);
            double fc = objective(f, e);
            if (fc < val[hi]) {
                memcpy(simplex[hi], e, sizeof e);
                val[hi] = fc;
            } else {
                for (int i = 0; i <= n; i++)
                    if (i != lo) {
                        for (int j = 0; j < n; j++)
                            simplex[i][j] = simplex[lo][j] + 0.5 * (simplex[i][j] - simplex[lo][j]);
                        val[i] = objective(f, simplex[i]);
                    }
            }
        }
    }
    int lo = 0;
    for (int i = 1; i <= n; i++)
        if (val[i] < val[lo]) lo = i;
    memcpy(x, simplex[lo], (size_t)n * sizeof *x);
}

static enum nnperf_status read_table(const char *path, struct ct_row **out, int *n_out, struct diag *d)
{
    size_t len;
    char *text = NULL;
    enum nnperf_status st = core_read_file(path, 16u << 20, &text, &len, d);
    if (st) return st;
    struct ct_row *rows = calloc(CT_MAX_ROWS, sizeof *rows);
    if (!rows) {
        free(text);
        return diag_set(d, NNPERF_E_NOMEM, "out of memory");
    }
    char dir[4096];
    snprintf(dir, sizeof dir, "%s", path);
    char *slash = strrchr(dir, '/');
    if (slash)
        slash[1] = 0;
    else
        dir[0] = 0;
    int col[7] = {-1, -1, -1, -1, -1, -1, -1}; /* model input dtype batch latency_ms fps throughput_fps */
    static const char *const names[7] = {"model",      "input", "dtype",         "batch",
                                         "latency_ms", "fps",   "throughput_fps"};
    int n = 0, header = 0, lineno = 0;
    for (char *line = text, *next; line && !st; line = next) {
        next = strchr(line, '\n');
        if (next) *next++ = 0;
        lineno++;
        char *l = trim(line);
        if (!*l || *l == '#') continue;
        char *f[CT_MAX_FIELDS];
        int nf = split(l, f, CT_MAX_FIELDS);
        if (nf < 0) {
            st = diag_set(d, NNPERF_E_PARSE, "%s:%d: more than %d columns", path, lineno, CT_MAX_FIELDS);
            break;
        }
        if (!header) {
            header = 1;
            for (int i = 0; i < nf; i++) {
                int k = -1;
                for (int j = 0; j < 7; j++)
                    if (!strcmp(f[i], names[j])) k = j;
                if (k < 0) {
                    st = diag_set(d, NNPERF_E_PARSE,
                                  "%s:%d: unknown column '%s' (model, input, dtype, batch, latency_ms, fps)",
                                  path, lineno, f[i]);
                    break;
                }
                col[k] = i;
            }
            if (!st && (col[0] < 0 || (col[4] < 0) == (col[5] < 0)))
                st = diag_set(d, NNPERF_E_PARSE,
                              "%s:%d: the header needs 'model' and exactly one of 'latency_ms' or 'fps'",
                              path, lineno);
            continue;
        }
        if (n == CT_MAX_ROWS) {
            st = diag_set(d, NNPERF_E_LIMIT, "%s:%d: more than %d rows", path, lineno, CT_MAX_ROWS);
            break;
        }
        struct ct_row *r = &rows[n];
        const char *model = col[0] < nf ? f[col[0]] : "";
        int lc = col[4] >= 0 ? col[4] : col[5];
        const char *mv = lc >= 0 && lc < nf ? f[lc] : "", *tv = col[6] >= 0 && col[6] < nf ? f[col[6]] : "";
        double v = 0, tpv = 0;
        int has_v = *mv != 0, has_tp = *tv != 0;
        if (!*model || (!has_v && !has_tp) || (has_v && (!hw_parse_number(mv, &v) || !(v > 0))) ||
            (has_tp && (!hw_parse_number(tv, &tpv) || !(tpv > 0)))) {
            st = diag_set(d, NNPERF_E_PARSE, "%s:%d: a row needs a model and a positive %s", path, lineno,
                          lc < 0        ? "throughput_fps"
                          : col[4] >= 0 ? "latency_ms"
                                        : "fps");
            break;
        }
        r->batch = 1;
        if (col[3] >= 0 && col[3] < nf && *f[col[3]]) {
            double b;
            if (!hw_parse_number(f[col[3]], &b) || b < 1 || b > 1000000 || b != floor(b)) {
                st = diag_set(d, NNPERF_E_PARSE, "%s:%d: batch '%s' is not a whole number from 1 to 1000000",
                              path, lineno, f[col[3]]);
                break;
            }
            r->batch = (int)b;
        }
        r->measured_s = !has_v ? 0 : col[4] >= 0 ? v * 1e-3 / r->batch : 1.0 / v;
        r->measured_tp_fps = tpv;
        char buf[4096];
        snprintf(buf, sizeof buf, "%s%s", model[0] == '/' ? "" : dir, model);
        r->model = strdup(buf);
        r->input = col[1] >= 0 && col[1] < nf && *f[col[1]] ? strdup(f[col[1]]) : NULL;
        r->dtype = col[2] >= 0 && col[2] < nf && *f[col[2]] ? strdup(f[col[2]]) : NULL;
        if (!r->model) st = diag_set(d, NNPERF_E_NOMEM, "out of memory");
        n++;
    }
    free(text);
    if (!st && n == 0) st = diag_set(d, NNPERF_E_PARSE, "%s: no rows", path);
    *out = rows;
    *n_out = n;
    return st;
}

/* loads and analyses a row's model with its input shapes */
static enum nnperf_status load_row(struct ct_row *r, struct diag *d)
{
    char err[1024];
    if (nnperf_model_load(r->model, NULL, &r->m, err, sizeof err)) return diag_set(d, NNPERF_E_IO, "%s", err);
    const char *shapes[16];
    int ns = 0;
    char *in = r->input ? strdup(r->input) : NULL;
    char names[16][256];
    for (char *tok = in ? strtok(in, ";") : NULL; tok && ns < 16; tok = strtok(NULL, ";")) {
        tok = trim(tok);
        const struct ir_graph *g = ((const struct ir_model *)r->m)->graph;
        if (!strchr(tok, '=') && g->n_inputs > 0) {
            /* DIMS alone: the first input that is not an initializer */
            const char *first = NULL;
            for (int i = 0; i < g->n_inputs && !first; i++)
                if (!(g->inputs[i]->flags & IR_V_INIT)) first = g->inputs[i]->name;
            snprintf(names[ns], sizeof names[ns], "%s=%s", first ? first : "", tok);
        } else {
            snprintf(names[ns], sizeof names[ns], "%s", tok);
        }
        shapes[ns] = names[ns];
        ns++;
    }
    struct nnperf_analyze_options ao = {.input_shapes = shapes, .n_input_shapes = ns};
    enum nnperf_status st = nnperf_analyze(r->m, &ao, &r->a, err, sizeof err);
    free(in);
    if (st) return diag_set(d, st, "%s", err);
    return NNPERF_OK;
}

static enum nnperf_status add_param(struct ct_fit *f, const char *path)
{
    if (f->n_par == CT_MAX_PARAMS)
        return diag_set(f->d, NNPERF_E_USAGE, "at most %d free parameters", CT_MAX_PARAMS);
    struct ct_param *p = &f->par[f->n_par];
    memset(p, 0, sizeof *p);
    snprintf(p->path, sizeof p->path, "%s", path);
    if (!strcmp(path, "efficiency")) {
        p->key = NULL;
        p->lo = 1e-3;
        p->hi = 1e3;
        p->init = 1;
    } else {
        p->key = hw_key_resolve(path, &p->entry);
        if (!p->key || p->key->type != HW_T_NUM || (p->key->map && p->entry < 0))
            return diag_set(f->d, NNPERF_E_USAGE,
                            "'%s' is not a numeric platform key (docs/platform-format.md; or 'efficiency')",
                            path);
        p->lo = p->key->min > 0 ? p->key->min : 1e-12;
        p->hi = p->key->max;
        p->init = get_param(&f->base, p);
        if (!(p->init > 0)) p->init = p->lo > 1e-12 ? p->lo : 1e-6;
    }
    f->n_par++;
    return NNPERF_OK;
}

static double median_abs(double *e, int n)
{
    double a[CT_MAX_ROWS];
    for (int i = 0; i < n; i++) a[i] = fabs(e[i]);
    for (int i = 1; i < n; i++)
        for (int j = i; j > 0 && a[j] < a[j - 1]; j--) {
            double t = a[j];
            a[j] = a[j - 1];
            a[j - 1] = t;
        }
    return n ? (n % 2 ? a[n / 2] : (a[n / 2 - 1] + a[n / 2]) / 2) : 0;
}

enum nnperf_status nnperf_calibrate_table(const char *platform, const char *table, const char *fit,
                                          char **yaml, size_t *yaml_len, char **logp, char *err,
                                          size_t errlen)
{
    *yaml = NULL;
    *yaml_len = 0;
    if (logp) *logp = NULL;
    struct diag d = {0};
    struct ct_fit f;
    memset(&f, 0, sizeof f);
    f.d = &d;
    f.skip = -1;
    hw_init(&f.base);
    enum nnperf_status st = hw_resolve(platform, &f.base, &d);
    if (!st) st = read_table(table, &f.rows, &f.n_rows, &d);
    for (int i = 0; !st && i < f.n_rows; i++) st = load_row(&f.rows[i], &d);
    char *keys = strdup(fit && *fit ? fit : "efficiency,memory.ddr_efficiency,overhead.per_layer_s");
    if (!keys && !st) st = diag_set(&d, NNPERF_E_NOMEM, "out of memory");
    for (char *tok = keys ? strtok(keys, ",") : NULL; tok && !st; tok = strtok(NULL, ","))
        st = add_param(&f, trim(tok));
    free(keys);
    int n_res = 0; /* measurements: a latency and/or a throughput per row */
    for (int i = 0; i < f.n_rows; i++) n_res += (f.rows[i].measured_s > 0) + (f.rows[i].measured_tp_fps > 0);
    if (!st && f.n_par >= n_res)
        st = diag_set(&d, NNPERF_E_USAGE,
                      "%d free parameters need more than %d measurements (the table has %d)", f.n_par,
                      f.n_par, n_res);
    double x[CT_MAX_PARAMS];
    for (int i = 0; i < f.n_par; i++) x[i] = log(f.par[i].init);
    /* per row: latency and throughput before, fitted, and with the row left out */
    double t[3][CT_MAX_ROWS] = {{0}}, tp[3][CT_MAX_ROWS] = {{0}};
    struct hw_desc hw;
    for (int i = 0; i < f.n_rows && !st; i++)
        if ((t[0][i] = predict_row(&f.rows[i], &f.base, &d, &tp[0][i])) <= 0)
            st = d.status ? d.status : NNPERF_E_INVALID;
    if (!st) {
        minimise(&f, x, f.n_par);
        apply(&f, x, &hw);
        for (int i = 0; i < f.n_rows; i++) t[1][i] = predict_row(&f.rows[i], &hw, NULL, &tp[1][i]);
        for (int i = 0; i < f.n_rows; i++) {
            double xl[CT_MAX_PARAMS];
            memcpy(xl, x, sizeof xl);
            f.skip = i;
            minimise(&f, xl, f.n_par);
            struct hw_desc hl;
            apply(&f, xl, &hl);
            t[2][i] = predict_row(&f.rows[i], &hl, NULL, &tp[2][i]);
        }
        f.skip = -1;
        char name[HW_MAX_NAME];
        snprintf(name, sizeof name, "%.50s-cal", hw.name);
        memcpy(hw.name, name, sizeof name);
        struct strbuf y;
        sb_init(&y, 1 << 20);
        st = hw_write_yaml_checked(&hw, "the calibrated platform", &y, &d);
        if (st)
            sb_free(&y);
        else {
            *yaml = y.p;
            *yaml_len = y.len;
        }
    }
    if (!st && logp) {
        struct strbuf lg;
        sb_init(&lg, 1 << 20);
        sb_printf(&lg, "calibrated %s on %d rows of %s (%d predictions):\n", f.base.name, f.n_rows, table,
                  f.evals);
        for (int i = 0; i < f.n_par; i++) {
            char v0[40], v1[40];
            hw_fmt_num(f.par[i].key ? f.par[i].init : 1.0, v0, sizeof v0);
            hw_fmt_num(f.par[i].key ? get_param(&hw, &f.par[i]) : exp(x[i]), v1, sizeof v1);
            sb_printf(&lg, "  %-34s %s -> %s%s\n", f.par[i].path, v0, v1, f.par[i].key ? "" : " (scale)");
        }
        sb_printf(&lg, "%-32s %-22s %-10s %11s %11s %8s %11s %8s %11s %8s\n", "model", "input", "quantity",
                  "measured", "before", "error", "fitted", "error", "left out", "error");
        double e[2][3][CT_MAX_ROWS];
        int ne[2] = {0, 0};
        for (int i = 0; i < f.n_rows; i++) {
            const struct ct_row *r = &f.rows[i];
            const char *base = strrchr(r->model, '/');
            for (int q = 0; q < 2; q++) {
                double meas = q ? r->measured_tp_fps : r->measured_s;
                if (!(meas > 0)) continue;
                for (int k = 0; k < 3; k++) e[q][k][ne[q]] = (q ? tp[k][i] : t[k][i]) / meas - 1;
                double sc = q ? 1 : 1e3;
                sb_printf(&lg,
                          "%-32.32s %-22.22s %-10s %9.3f%-2s %9.3f%-2s %+7.1f%% %9.3f%-2s %+7.1f%% %9.3f%-2s "
                          "%+7.1f%%\n",
                          base ? base + 1 : r->model, r->input ? r->input : "", q ? "throughput" : "latency",
                          meas * sc, q ? "/s" : "ms", (q ? tp[0][i] : t[0][i]) * sc, q ? "/s" : "ms",
                          100 * e[q][0][ne[q]], (q ? tp[1][i] : t[1][i]) * sc, q ? "/s" : "ms",
                          100 * e[q][1][ne[q]], (q ? tp[2][i] : t[2][i]) * sc, q ? "/s" : "ms",
                          100 * e[q][2][ne[q]]);
                ne[q]++;
            }
        }
        for (int q = 0; q < 2; q++)
            if (ne[q])
                sb_printf(
                    &lg,
                    "median |error| of the %s (%d rows): before %.1f%%, fitted %.1f%%, left out %.1f%%\n",
                    q ? "throughput (frames/s, every core busy)" : "latency per frame", ne[q],
                    100 * median_abs(e[q][0], ne[q]), 100 * median_abs(e[q][1], ne[q]),
                    100 * median_abs(e[q][2], ne[q]));
        *logp = lg.p;
    }
    for (int i = 0; f.rows && i < f.n_rows; i++) {
        nnperf_analysis_free(f.rows[i].a);
        nnperf_model_free(f.rows[i].m);
        free(f.rows[i].model), free(f.rows[i].input), free(f.rows[i].dtype);
    }
    free(f.rows);
    if (st) {
        free(*yaml);
        *yaml = NULL;
        *yaml_len = 0;
        if (err && errlen) snprintf(err, errlen, "%s", d.msg[0] ? d.msg : nnperf_status_name(st));
    }
    return st;
}
