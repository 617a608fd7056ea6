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
    double measured_tp_fps; /* with every core busy (or with `streams` threads), 0 when not given */
    int threads; /* the threads column: the application threads of the throughput (0: empty or multi, saturated),
                  * and on a platform whose cores are a CPU runtime's threads those of the latency's inference */
    struct nnperf_model *m;
    struct nnperf_analysis *a;
    int line;     /* in the table */
    int excluded; /* an outlier: left out of the fit */
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
    int shrink;      /* a lone time scale is shrunk toward 1 (shrink_scale): keys chosen without --fit */
    double spread;   /* the platform's validation spread (validation.log_spread), 0 when it has none */
    int spread_rows; /* the rows it is the spread of (validation.test_rows) */
    int hold;        /* the time scale held at 1: the rows do not tell the platform's bias (choose_keys) */
    double lr[CT_MAX_ROWS]
             [2]; /* per row, ln(measured / predicted time) of its latency and throughput on the base */
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
    /* no timeline: the fit reads the latency and throughput only, on each of its hundreds of predictions */
    struct nnperf_predict_options o = {.dtype = r->dtype,
                                       .batch = r->batch,
                                       .no_timeline = 1,
                                       .threads = r->measured_s > 0 && hw->threaded ? r->threads : 0,
                                       .streams = r->measured_tp_fps > 0 ? r->threads : 0};
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
        if (i == f->skip || f->rows[i].excluded) continue;
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

/* what a table gave besides its rows: rows left out because they are test rows or another platform's */
struct ct_read {
    int test_rows, other_rows;
};

enum {
    C_MODEL,
    C_INPUT,
    C_DTYPE,
    C_BATCH,
    C_LAT,
    C_FPS,
    C_TP,
    C_PRESET,
    C_QTY,
    C_VALUE,
    C_UNIT,
    C_SPLIT,
    C_THREADS,
    C_N
};

/* Reads a measured table. Columns: model, input, dtype, batch and latency_ms / fps / throughput_fps, or the
 * fidelity dataset's (bench/fidelity/data/README.md): preset (rows of other platforms are skipped), quantity +
 * value + unit, split (test rows are never fitted: skipped and counted), threads (a number N: the throughput was
 * measured with N application threads, predicted with nnperf_predict_options.streams N; empty or multi: every unit
 * busy; a latency or fps on a platform whose cores are a CPU runtime's threads, compute.threaded, was measured with
 * one inference on N threads, nnperf_predict_options.threads N, as bench/fidelity/fidelity.py predicts the dataset's
 * rows), and includes, board, software, source (ignored). A model path is relative to the table's folder, else to
 * the current directory. */
static enum nnperf_status read_table(const char *path, const char *platform, struct ct_row **out, int *n_out,
                                     struct ct_read *info, struct diag *d)
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
    int col[C_N];
    for (int i = 0; i < C_N; i++) col[i] = -1;
    static const char *const names[C_N] = {"model", "input",          "dtype",  "batch",    "latency_ms",
                                           "fps",   "throughput_fps", "preset", "quantity", "value",
                                           "unit",  "split",          "threads"};
    static const char *const ignored[] = {"includes", "board", "software", "source"};
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
            for (int i = 0; i < nf && !st; i++) {
                int k = -1, skip = 0;
                for (int j = 0; j < C_N; j++)
                    if (!strcmp(f[i], names[j])) k = j;
                for (size_t j = 0; j < sizeof ignored / sizeof *ignored; j++)
                    skip |= !strcmp(f[i], ignored[j]);
                if (k < 0 && !skip)
                    st = diag_set(
                        d, NNPERF_E_PARSE,
                        "%s:%d: unknown column '%s' (model, input, dtype, batch, latency_ms, fps, "
                        "throughput_fps; or the fidelity dataset's: preset, quantity, value, unit, split, "
                        "threads, includes, board, software, source)",
                        path, lineno, f[i]);
                else if (k >= 0)
                    col[k] = i;
            }
            if (!st && col[C_QTY] >= 0 && (col[C_VALUE] < 0 || col[C_LAT] >= 0 || col[C_FPS] >= 0))
                st = diag_set(d, NNPERF_E_PARSE,
                              "%s:%d: a 'quantity' column goes with 'value' and without latency_ms or fps",
                              path, lineno);
            else if (!st && col[C_QTY] < 0 && (col[C_MODEL] < 0 || (col[C_LAT] < 0) == (col[C_FPS] < 0)))
                st = diag_set(d, NNPERF_E_PARSE,
                              "%s:%d: the header needs 'model' and exactly one of 'latency_ms' or 'fps' (or "
                              "'quantity' and 'value')",
                              path, lineno);
            else if (!st && col[C_MODEL] < 0)
                st = diag_set(d, NNPERF_E_PARSE, "%s:%d: the header needs 'model'", path, lineno);
            continue;
        }
        const char *fv[C_N];
        for (int i = 0; i < C_N; i++) fv[i] = col[i] >= 0 && col[i] < nf ? f[col[i]] : "";
        if (*fv[C_SPLIT] && strcmp(fv[C_SPLIT], "fit") && strcmp(fv[C_SPLIT], "test")) {
            st = diag_set(d, NNPERF_E_PARSE, "%s:%d: split '%s' is not fit or test", path, lineno,
                          fv[C_SPLIT]);
            break;
        }
        if (*fv[C_PRESET] && strcmp(fv[C_PRESET], platform)) {
            info->other_rows++;
            continue;
        }
        if (!strcmp(fv[C_SPLIT], "test")) { /* measured to test predictions: never fitted */
            info->test_rows++;
            continue;
        }
        if (n == CT_MAX_ROWS) {
            st = diag_set(d, NNPERF_E_LIMIT, "%s:%d: more than %d rows", path, lineno, CT_MAX_ROWS);
            break;
        }
        struct ct_row *r = &rows[n];
        r->line = lineno;
        r->batch = 1;
        if (*fv[C_BATCH]) {
            double b;
            if (!hw_parse_number(fv[C_BATCH], &b) || b < 1 || b > 1000000 || b != floor(b)) {
                st = diag_set(d, NNPERF_E_PARSE, "%s:%d: batch '%s' is not a whole number from 1 to 1000000",
                              path, lineno, fv[C_BATCH]);
                break;
            }
            r->batch = (int)b;
        }
        if (*fv[C_THREADS] && strcmp(fv[C_THREADS], "multi")) {
            double t;
            if (!hw_parse_number(fv[C_THREADS], &t) || t < 1 || t > 4096 || t != floor(t)) {
                st = diag_set(
                    d, NNPERF_E_PARSE,
                    "%s:%d: threads '%s' is not a whole number from 1 to 4096 or 'multi' (the application "
                    "threads of the measurement)",
                    path, lineno, fv[C_THREADS]);
                break;
            }
            r->threads = (int)t;
        }
        double v = 0, tpv = 0;
        int q = -1; /* C_LAT, C_FPS or C_TP */
        if (col[C_QTY] >= 0) {
            static const char *const qn[3] = {"latency", "fps", "throughput"}, *const un[3] = {"ms", "fps",
                                                                                               "fps"};
            for (int i = 0; i < 3; i++)
                if (!strcmp(fv[C_QTY], qn[i])) q = C_LAT + i;
            if (q < 0 || (*fv[C_UNIT] && strcmp(fv[C_UNIT], un[q - C_LAT]))) {
                st = diag_set(d, NNPERF_E_PARSE,
                              "%s:%d: quantity '%s' with unit '%s' (latency in ms, fps or throughput in fps)",
                              path, lineno, fv[C_QTY], fv[C_UNIT]);
                break;
            }
            if (!*fv[C_MODEL] || !hw_parse_number(fv[C_VALUE], &v) || !(v > 0)) {
                st = diag_set(d, NNPERF_E_PARSE, "%s:%d: a row needs a model and a positive value", path,
                              lineno);
                break;
            }
            if (q == C_TP) tpv = v, v = 0;
        } else {
            int lc = col[C_LAT] >= 0 ? C_LAT : C_FPS;
            const char *mv = fv[lc], *tv = fv[C_TP];
            int has_v = *mv != 0, has_tp = *tv != 0;
            if (!*fv[C_MODEL] || (!has_v && !has_tp) || (has_v && (!hw_parse_number(mv, &v) || !(v > 0))) ||
                (has_tp && (!hw_parse_number(tv, &tpv) || !(tpv > 0)))) {
                st = diag_set(d, NNPERF_E_PARSE, "%s:%d: a row needs a model and a positive %s", path, lineno,
                              names[lc]);
                break;
            }
            q = has_v ? lc : C_TP;
        }
        r->measured_s = !(v > 0) ? 0 : q == C_LAT ? v * 1e-3 / r->batch : 1.0 / v;
        r->measured_tp_fps = tpv;
        const char *model = fv[C_MODEL];
        char buf[4096];
        snprintf(buf, sizeof buf, "%s%s", model[0] == '/' ? "" : dir, model);
        FILE *probe = model[0] == '/' || !dir[0] ? NULL : fopen(buf, "rb");
        if (probe)
            fclose(probe);
        else if (model[0] != '/' && dir[0]) /* not beside the table: relative to the current directory */
            snprintf(buf, sizeof buf, "%s", model);
        r->model = strdup(buf);
        r->input = *fv[C_INPUT] ? strdup(fv[C_INPUT]) : NULL;
        r->dtype = *fv[C_DTYPE] ? strdup(fv[C_DTYPE]) : NULL;
        if (!r->model) st = diag_set(d, NNPERF_E_NOMEM, "out of memory");
        n++;
    }
    free(text);
    if (!st && n == 0 && info->test_rows)
        st = diag_set(
            d, NNPERF_E_USAGE,
            "%s: no fit rows for %s: its %d rows are test rows (split test), which fitting never reads "
            "(bench/fidelity/data/README.md); measure the board yourself and give rows without a split",
            path, platform, info->test_rows);
    else if (!st && n == 0)
        st = diag_set(d, NNPERF_E_PARSE, "%s: no rows%s%s", path, info->other_rows ? " for " : "",
                      info->other_rows ? platform : "");
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
        /* a key the platform leaves unset starts where it does something: a time scale at 1, a time at 100 us */
        if (!(p->init > 0) && !strcmp(path, "calibration.time_scale")) p->init = 1;
        if (!(p->init > 0) && p->key->unit == HW_U_SECONDS) p->init = 1e-4;
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

/* measurements (a latency and/or a throughput per row) of the rows taking part in the fit */
static int count_measurements(const struct ct_fit *f)
{
    int n = 0;
    for (int i = 0; i < f->n_rows; i++)
        if (!f->rows[i].excluded) n += (f->rows[i].measured_s > 0) + (f->rows[i].measured_tp_fps > 0);
    return n;
}

/* errors of the fitted rows' measurements predicted as t / tp (latency per frame, throughput) into e; their count */
static int errors_of(const struct ct_fit *f, const double *t, const double *tp, double *e)
{
    int n = 0;
    for (int i = 0; i < f->n_rows; i++) {
        const struct ct_row *r = &f->rows[i];
        if (r->excluded) continue;
        if (r->measured_s > 0) e[n++] = t[i] / r->measured_s - 1;
        if (r->measured_tp_fps > 0) e[n++] = tp[i] / r->measured_tp_fps - 1;
    }
    return n;
}

/* Student's t at 95% (two-sided) for dof degrees of freedom (1.96 + 2.5 / dof above 10: within 1%) */
static double t95(int dof)
{
    static const double t[] = {0, 12.71, 4.30, 3.18, 2.78, 2.57, 2.45, 2.36, 2.31, 2.26, 2.23};
    return dof <= 10 ? t[dof] : 1.96 + 2.5 / dof;
}

static const char *or_empty(const char *s)
{
    return s ? s : "";
}

/* whether two rows measure one model: the same file, input and dtype */
static int same_model(const struct ct_row *a, const struct ct_row *b)
{
    return !strcmp(a->model, b->model) && !strcmp(or_empty(a->input), or_empty(b->input)) &&
           !strcmp(or_empty(a->dtype), or_empty(b->dtype));
}

/* The spread s of one model's ln ratio (measured / predicted time) around the common bias, for a lone time scale
 * fitted on the rows in the fit, and the critical value for its mean (Student's t at 95%). Two estimates of the
 * same model-to-model spread are pooled, each with its degrees of freedom: the platform's validation spread
 * (validation.log_spread over validation.test_rows rows: rows the user's are not; N rows, N - 1 degrees of freedom)
 * and the sample spread of the user's n measurements around their mean (n - 1). s^2 = (sum of squares of both) /
 * (N - 1 + n - 1) and the critical value is Student's t with that many degrees of freedom: a spread known from many
 * rows needs less of a bar than one from three. Without a validation spread, the user's rows alone (as with one
 * row on a validated platform, the validation alone). Measurements of one configuration (the same model, input,
 * dtype, batch and quantity: two sources measuring the same thing) share that configuration's deviation: they are
 * averaged into one before the mean, the spread and n, so two of them count as one model, not two. Returns the
 * number of configurations n; 0 when nothing can be said (no degree of freedom). */
static int scale_spread(const struct ct_fit *f, double *s, double *crit, double *mean)
{
    double l[2 * CT_MAX_ROWS], m = 0, ss = 0;
    int n = 0, row[2 * CT_MAX_ROWS], q[2 * CT_MAX_ROWS], k[2 * CT_MAX_ROWS];
    for (int i = 0; i < f->n_rows; i++) {
        if (f->rows[i].excluded || i == f->skip) continue;
        for (int j = 0; j < 2; j++) {
            if (!((j ? f->rows[i].measured_tp_fps : f->rows[i].measured_s) > 0)) continue;
            int c = 0;
            while (c < n && !(q[c] == j && f->rows[row[c]].batch == f->rows[i].batch &&
                              same_model(&f->rows[row[c]], &f->rows[i])))
                c++;
            if (c == n) row[n] = i, q[n] = j, k[n] = 0, l[n++] = 0;
            l[c] += (f->lr[i][j] - l[c]) / ++k[c]; /* the running mean of the configuration's measurements */
        }
    }
    for (int i = 0; i < n; i++) m += l[i] / n;
    for (int i = 0; i < n; i++) ss += (l[i] - m) * (l[i] - m);
    int dof = n > 0 ? n - 1 : 0;
    if (f->spread > 0 && f->spread_rows > 1) { /* the validation's population spread over its rows */
        ss += f->spread * f->spread * f->spread_rows;
        dof += f->spread_rows - 1;
    }
    if (n == 0 || dof == 0) return 0;
    *mean = m;
    *s = sqrt(ss / dof);
    *crit = t95(dof);
    return n;
}

/* With the time scale the only key: one model's ln ratio is the board's common bias plus the model's own
 * deviation, of spread s (scale_spread); the mean m of the n measurements' ln ratios estimates the bias with standard
 * error se = s / sqrt(n). The scale is held at 1 unless |m| > crit x se (a bias that many standard errors from none:
 * a new model within the spread of the platform is what any model does on it, and tells nothing of the board), and
 * otherwise the fitted ln scale x is shrunk toward 1 by the positive-part James-Stein factor max(0, 1 - se^2 / m^2).
 * Rows that agree with each other on a factor get nearly all of it. The test reads m, what the rows say, and not x:
 * where a throughput is bounded by a rate the scale does not change (the shared DDR), the fit pushes x past m. */
static void shrink_scale(const struct ct_fit *f, double *x)
{
    if (!f->shrink || f->n_par != 1 || strcmp(f->par[0].path, "calibration.time_scale")) return;
    if (f->hold) x[0] = 0;
    double s, crit, m;
    int n = scale_spread(f, &s, &crit, &m);
    if (x[0] == 0 || n == 0) return;
    double se = s / sqrt(n);
    x[0] *= fabs(m) > crit * se ? fmax(0, 1 - se * se / (m * m)) : 0;
}

/* fits the parameters from their initial values into x */
static void fit_all(struct ct_fit *f, double *x)
{
    for (int i = 0; i < f->n_par; i++) x[i] = log(f->par[i].init);
    f->skip = -1;
    minimise(f, x, f->n_par);
    shrink_scale(f, x);
}

/* every fitted row predicted by a fit that left it out (t, tp), from the full fit x; the median |error|, or NAN when
 * a fit without one row would have fewer measurements than parameters */
static double leave_one_out(struct ct_fit *f, const double *x, double *t, double *tp)
{
    int n_res = count_measurements(f);
    for (int i = 0; i < f->n_rows; i++) {
        const struct ct_row *r = &f->rows[i];
        if (r->excluded) continue;
        if (n_res - (r->measured_s > 0) - (r->measured_tp_fps > 0) < f->n_par) return NAN;
    }
    for (int i = 0; i < f->n_rows; i++) {
        if (f->rows[i].excluded) continue;
        double xl[CT_MAX_PARAMS];
        memcpy(xl, x, sizeof xl);
        f->skip = i;
        minimise(f, xl, f->n_par);
        shrink_scale(f, xl);
        struct hw_desc hl;
        apply(f, xl, &hl);
        t[i] = predict_row(&f->rows[i], &hl, NULL, &tp[i]);
    }
    f->skip = -1;
    double e[2 * CT_MAX_ROWS];
    return median_abs(e, errors_of(f, t, tp, e));
}

/* whether the rows in the fit other than row skip measure one model (the same file, input and dtype) at two batch
 * sizes: the pair's ratio tells a cost paid once per run from the work of each frame, the model's own deviation from
 * the platform cancelling between them */
static int batch_pair(const struct ct_fit *f, int skip)
{
    for (int i = 0; i < f->n_rows; i++)
        for (int j = i + 1; j < f->n_rows; j++) {
            const struct ct_row *a = &f->rows[i], *b = &f->rows[j];
            if (i == skip || j == skip || a->excluded || b->excluded || a->batch == b->batch) continue;
            if (same_model(a, b)) return 1;
        }
    return 0;
}

/* Three or four measurements with one model at two batch sizes among them: the cost paid once per run
 * (overhead.per_run_s: driver, launch, synchronisation) joins the scale when a fit without a row predicts it better
 * by a tenth and a point than the scale alone (both as the other rows fit them, not shrunk) and than the platform
 * as it is (median |error|), over the rows whose leaving out still leaves such a pair (the others' fits could not tell the
 * per-run cost: they would score a guess); otherwise the scale alone. */
static enum nnperf_status try_per_run(struct ct_fit *f, const double *t0, const double *tp0,
                                      struct strbuf *lg)
{
    double e[3][2 * CT_MAX_ROWS];
    int ne = 0;
    enum nnperf_status st = NNPERF_OK;
    for (int i = 0; i < f->n_rows && !st; i++) {
        const struct ct_row *r = &f->rows[i];
        if (r->excluded || !batch_pair(f, i)) continue;
        int k = ne;
        for (int m = 0; m < 3 && !st; m++) {
            double t = t0[i], tp = tp0[i];
            if (m > 0) { /* 1: the scale alone; 2: with the per-run cost */
                if (m == 2 && (st = add_param(f, "overhead.per_run_s"))) break;
                double x[CT_MAX_PARAMS];
                for (int j = 0; j < f->n_par; j++) x[j] = log(f->par[j].init);
                /* both fitted as the rows say (how far a lone scale is trusted is decided later) */
                f->skip = i;
                minimise(f, x, f->n_par);
                f->skip = -1;
                struct hw_desc h;
                apply(f, x, &h);
                t = predict_row(r, &h, NULL, &tp);
                if (m == 2) f->n_par--;
            }
            k = ne;
            if (r->measured_s > 0) e[m][k++] = t / r->measured_s - 1;
            if (r->measured_tp_fps > 0) e[m][k++] = tp / r->measured_tp_fps - 1;
        }
        ne = k;
    }
    if (st || !ne) return st;
    double none = median_abs(e[0], ne), one = median_abs(e[1], ne), two = median_abs(e[2], ne);
    /* better by a tenth, and by a point at least (rows the scale fits already leave nothing to tell) */
    int keep = two < fmin(0.9 * one, one - 0.01) && two < fmin(0.9 * none, none - 0.01);
    if (keep) st = add_param(f, "overhead.per_run_s");
    if (lg)
        sb_printf(
            lg,
            "; one model at two batch sizes: leave-one-out median |error| over the %d measurement%s whose "
            "fit without it still has such a pair: with overhead.per_run_s %.1f%%, the scale alone %.1f%%, "
            "the platform as it is %.1f%%: %s",
            ne, ne == 1 ? "" : "s", 100 * two, 100 * one, 100 * none,
            keep ? "overhead.per_run_s joins the scale" : "the scale alone");
    return st;
}

/* The keys a calibration without --fit frees, from the number of measurements. Up to four: one scale on every time
 * (all so few can tell), moved only as far as the rows agree on it (shrink_scale); with three or four that include one
 * model at two batch sizes, the per-run cost may join it (try_per_run). From five on, by leave-one-out
 * on the user's own rows (each row predicted by a fit that left it out: the honest estimate of the error on a new
 * model): the candidates are the platform as it is (nothing fitted: its own errors on the rows), the scale, one
 * physical residual that matters on this platform in the scale's place (the efficiency of its compute, its DDR
 * efficiency, the fixed cost per run, the host's cost per frame, its host link when it has one), then keys joining
 * it (forward selection) while a fit without one row keeps more measurements than keys; three keys at most. Each
 * step must lower the leave-one-out median |error| by a tenth; when the chosen keys do not lower the platform's own
 * error by a tenth, the scale is held at 1 (f->hold: the rows differ from the platform no more than from each
 * other). On the fidelity rows, three rows choosing among physical keys or two keys by leave-one-out did worse than
 * the scale (bench/RESULTS.md, "Calibration on a few rows"). */
static enum nnperf_status choose_keys(struct ct_fit *f, const double *t0, const double *tp0,
                                      struct strbuf *lg)
{
    enum nnperf_status st = add_param(f, "calibration.time_scale");
    int n_res = count_measurements(f);
    f->shrink = 1;
    if (f->base.val_rows > 0 && f->base.n_set == 0)
        f->spread = f->base.val_spread, f->spread_rows = f->base.val_rows;
    if (st || n_res < 5) {
        if (!st && lg)
            sb_printf(
                lg,
                "keys: calibration.time_scale (%d measurement%s: one scale on every time, moved only as far "
                "as the rows agree on it)",
                n_res, n_res == 1 ? "" : "s");
        if (!st && n_res >= 3 && batch_pair(f, -1)) st = try_per_run(f, t0, tp0, lg);
        if (!st && lg) sb_puts(lg, "\n");
        return st;
    }
    static const char *const cand[] = {"efficiency", "memory.ddr_efficiency", "overhead.per_run_s",
                                       "overhead.host_per_frame_s", "memory.link_bandwidth"};
    enum { NC = sizeof cand / sizeof *cand };
    int used[NC] = {0};
    used[NC - 1] = f->base.link_bw > 0 ? 0 : 1;
    double x[CT_MAX_PARAMS], t[CT_MAX_ROWS], tp[CT_MAX_ROWS], e[2 * CT_MAX_ROWS];
    double none = median_abs(e, errors_of(f, t0, tp0, e));
    fit_all(f, x);
    double best = leave_one_out(f, x, t, tp);
    if (lg)
        sb_printf(lg,
                  "keys by leave-one-out median |error| on these rows: the platform as it is %.1f%%; "
                  "calibration.time_scale %.1f%%",
                  100 * none, 100 * best);
    /* one physical residual in the scale's place */
    int pick = -1;
    for (int c = 0; c < NC && !st; c++) {
        if (used[c]) continue;
        f->n_par = 0;
        if ((st = add_param(f, cand[c]))) break;
        fit_all(f, x);
        double l = leave_one_out(f, x, t, tp);
        if (l < 0.9 * best) best = l, pick = c;
    }
    f->n_par = 0;
    if (!st) st = add_param(f, pick < 0 ? "calibration.time_scale" : cand[pick]);
    if (pick >= 0) {
        used[pick] = 1;
        if (lg) sb_printf(lg, "; instead %s alone (%.1f%%)", cand[pick], 100 * best);
    }
    while (!st && f->n_par < 3 && f->n_par + 1 < n_res - 1) {
        pick = -1;
        double pb = best;
        for (int c = 0; c < NC && !st; c++) {
            if (used[c]) continue;
            if ((st = add_param(f, cand[c]))) break;
            fit_all(f, x);
            double l = leave_one_out(f, x, t, tp);
            f->n_par--;
            if (l < 0.9 * pb) pb = l, pick = c;
        }
        if (st || pick < 0) break;
        st = add_param(f, cand[pick]);
        used[pick] = 1;
        if (lg) sb_printf(lg, ", %s (%.1f%%)", cand[pick], 100 * pb);
        best = pb;
    }
    if (!st && !(best < 0.9 * none)) { /* no fit predicts a left-out row better than the platform does */
        f->n_par = 0;
        st = add_param(f, "calibration.time_scale");
        f->hold = 1;
        if (lg)
            sb_printf(lg, "; none lowers the platform's own %.1f%% by a tenth: time scale held at 1",
                      100 * none);
    }
    if (lg) sb_printf(lg, "\n");
    return st;
}

/* Leaves out a row whose measurement is more than 10x off what the other rows say (measured / predicted against
 * their median), with three measurements or more; with one or two and the keys left to the rows (own_keys 0: a
 * scale on every time, the board's bias), more than 10x off the platform itself (no other rows to say more: a
 * factor no board is off its description by, a model the accelerator does not run as described, such as one run
 * mostly on the CPU, or an artifact); names it in the log. With two, warns when they disagree that much. Returns
 * how many rows were left out. */
static int guard_outliers(struct ct_fit *f, const double *t, const double *tp, int own_keys,
                          struct strbuf *lg)
{
    double lr[2 * CT_MAX_ROWS], sorted[2 * CT_MAX_ROWS];
    int owner[2 * CT_MAX_ROWS], n = 0, out = 0;
    for (int i = 0; i < f->n_rows; i++) {
        const struct ct_row *r = &f->rows[i];
        if (r->measured_s > 0) lr[n] = log(r->measured_s / t[i]), owner[n++] = i;
        if (r->measured_tp_fps > 0) lr[n] = log(tp[i] / r->measured_tp_fps), owner[n++] = i;
    }
    memcpy(sorted, lr, (size_t)n * sizeof *lr);
    for (int i = 1; i < n; i++)
        for (int j = i; j > 0 && sorted[j] < sorted[j - 1]; j--) {
            double s = sorted[j];
            sorted[j] = sorted[j - 1];
            sorted[j - 1] = s;
        }
    double med = n % 2 ? sorted[n / 2] : (sorted[n / 2 - 1] + sorted[n / 2]) / 2;
    if (n == 2 && fabs(lr[0] - lr[1]) > log(10) && lg)
        sb_printf(lg,
                  "warning: the two measurements disagree by %.0fx against the platform (lines %d and %d of "
                  "the table): one of them may be a measurement artifact\n",
                  exp(fabs(lr[0] - lr[1])), f->rows[owner[0]].line, f->rows[owner[1]].line);
    int few = n < 3; /* against the platform: the reference is a ratio of 1 */
    if (few && own_keys) return 0;
    if (few) med = 0;
    for (int k = 0; k < n; k++) {
        struct ct_row *r = &f->rows[owner[k]];
        if (r->excluded || fabs(lr[k] - med) <= log(10)) continue;
        r->excluded = 1;
        out++;
        const char *base = strrchr(r->model, '/');
        if (lg && few)
            sb_printf(
                lg,
                "outlier: line %d (%s %s) is %.0fx %s than the platform predicts: left out of the fit (no "
                "board is off its description by that much: a model the accelerator does not run as "
                "described, e.g. mostly on the CPU, or a measurement artifact; --fit KEYS fits it all the "
                "same)\n",
                r->line, base ? base + 1 : r->model, r->input ? r->input : "", exp(fabs(lr[k])),
                lr[k] > 0 ? "slower" : "faster");
        else if (lg)
            sb_printf(
                lg,
                "outlier: line %d (%s %s) is %.0fx %s than the other rows say (measured / predicted %.3g "
                "against their median %.3g): left out of the fit (a measurement artifact?)\n",
                r->line, base ? base + 1 : r->model, r->input ? r->input : "", exp(fabs(lr[k] - med)),
                lr[k] > med ? "slower" : "faster", exp(lr[k]), exp(med));
    }
    if (out && lg && !count_measurements(f))
        sb_printf(lg, "no measurement is left: the platform is written as it is\n");
    return out;
}

/* text with every control character but newline made '?' (a path in a YAML comment) */
static void put_clean(struct strbuf *sb, const char *s)
{
    for (; *s; s++) sb_printf(sb, "%c", (unsigned char)*s < 32 || *s == 127 ? '?' : *s);
}

/* the parameter's section and leaf ("memory", "ddr_efficiency"; "efficiency" is compute.efficiency); 0 when the
 * key is not two levels deep (the text editor below leaves it to the writer) */
static int param_place(const struct ct_param *p, char *sec, size_t cs, char *leaf, size_t ls)
{
    const char *path = p->key ? p->path : "compute.efficiency";
    const char *dot = strchr(path, '.');
    if (!dot || strchr(dot + 1, '.') || (p->key && p->key->map)) return 0;
    snprintf(sec, cs, "%.*s", (int)(dot - path), path);
    snprintf(leaf, ls, "%s", dot + 1);
    return 1;
}

/* whether line (not NUL-terminated, n bytes) is "<indent spaces>key:" followed by a space, end or comment */
static int line_is_key(const char *line, size_t n, size_t indent, const char *key)
{
    size_t k = strlen(key);
    for (size_t i = 0; i < indent; i++)
        if (i >= n || line[i] != ' ') return 0;
    if (indent + k + 1 > n || line[indent + k] != ':' || strncmp(line + indent, key, k)) return 0;
    return indent + k + 1 == n || line[indent + k + 1] == ' ' || line[indent + k + 1] == '#';
}

/* The calibrated platform as the original text with the fitted values edited in place (each marked CALIBRATED,
 * its old value and comment kept), the name given a -cal suffix, the fitted keys taken off `assumptions:`, the
 * `validation:` section dropped (it described the platform before calibration) and a `calibration:` section
 * recording the fit appended (record: its comment lines). Returns 0 when the text cannot be edited that way. */
static int edit_yaml(const char *text, size_t len, const struct ct_fit *f, const struct hw_desc *hw,
                     const char *record, struct strbuf *out)
{
    int n = f->n_par, found[CT_MAX_PARAMS] = {0};
    char sec[CT_MAX_PARAMS][HW_MAX_KEY], leaf[CT_MAX_PARAMS][HW_MAX_KEY];
    for (int i = 0; i < n; i++) {
        if (f->par[i].key && !strcmp(f->par[i].path, "calibration.time_scale")) {
            found[i] = 1; /* written with the record */
            continue;
        }
        if (!param_place(&f->par[i], sec[i], sizeof sec[i], leaf[i], sizeof leaf[i])) return 0;
    }
    char cur[HW_MAX_KEY] = "";
    int skipping = 0;
    for (const char *line = text; line < text + len;) {
        const char *nl = memchr(line, '\n', (size_t)(text + len - line));
        size_t ln = nl ? (size_t)(nl - line) : (size_t)(text + len - line);
        const char *next = nl ? nl + 1 : text + len;
        if (ln && line[0] != ' ' && line[0] != '#') { /* a top-level key */
            const char *colon = memchr(line, ':', ln);
            snprintf(cur, sizeof cur, "%.*s", colon ? (int)(colon - line) : 0, line);
            skipping = !strcmp(cur, "validation") || !strcmp(cur, "calibration");
        } else if (skipping && ln && line[0] == '#') {
            skipping = 0;
        }
        if (skipping) {
            line = next;
            continue;
        }
        if (line_is_key(line, ln, 0, "name")) {
            sb_printf(out, "name: %s\n", hw->name);
        } else if (line_is_key(line, ln, 0, "assumptions") && memchr(line, '[', ln) &&
                   memchr(line, ']', ln)) {
            const char *o = memchr(line, '[', ln), *c = memchr(line, ']', ln);
            sb_puts(out, "assumptions: [");
            int first = 1;
            for (const char *p = o + 1; p < c;) {
                const char *e = memchr(p, ',', (size_t)(c - p));
                if (!e) e = c;
                const char *a = p, *b = e;
                while (a < b && *a == ' ') a++;
                while (b > a && b[-1] == ' ') b--;
                int drop = 0;
                for (int i = 0; i < n; i++)
                    drop |= f->par[i].key && strlen(f->par[i].path) == (size_t)(b - a) &&
                            !strncmp(f->par[i].path, a, (size_t)(b - a));
                if (b > a && !drop) {
                    sb_printf(out, "%s%.*s", first ? "" : ", ", (int)(b - a), a);
                    first = 0;
                }
                p = e + 1;
            }
            sb_printf(out, "]%.*s\n", (int)(line + ln - c - 1), c + 1);
        } else {
            int done = 0;
            for (int i = 0; i < n && !done; i++) {
                if (found[i] || strcmp(cur, sec[i]) || !line_is_key(line, ln, 2, leaf[i])) continue;
                const char *hash = memchr(line, '#', ln);
                if (!f->par[i].key && (!memchr(line, '{', ln) || !memchr(line, '}', ln))) return 0;
                struct strbuf v;
                sb_init(&v, 4096);
                hw_key_get(hw, f->par[i].key ? f->par[i].path : "compute.efficiency", &v);
                /* the value as the line wrote it, whole (a flow map of every class can be long) */
                const char *o = line + 3 + strlen(leaf[i]), *oe = hash ? hash : line + ln;
                while (o < oe && isspace((unsigned char)*o)) o++;
                while (oe > o && isspace((unsigned char)oe[-1])) oe--;
                size_t at = out->len;
                sb_printf(out, "  %s: %s", leaf[i], v.p ? v.p : "");
                sb_free(&v);
                for (size_t w = out->len - at; w < 35; w++) sb_puts(out, " ");
                const char *c = hash ? hash + 1 : line + ln; /* the line's own comment, kept after ours */
                while (c < line + ln && *c == ' ') c++;
                sb_printf(out, " # CALIBRATED (was %.*s; calibration: below)%s%.*s\n", (int)(oe - o), o,
                          c < line + ln ? " " : "", (int)(line + ln - c), c);
                found[i] = done = 1;
            }
            if (!done) sb_printf(out, "%.*s\n", (int)ln, line);
            /* a fitted key its section does not state: right after the section's header */
            if (!done && ln && line[0] != ' ' && line[0] != '#')
                for (int i = 0; i < n; i++) {
                    if (found[i] || strcmp(cur, sec[i]) || !f->par[i].key) continue;
                    int later = 0; /* stated further down in this section? */
                    for (const char *q = next; q < text + len && !later;) {
                        const char *qn = memchr(q, '\n', (size_t)(text + len - q));
                        size_t qlen = qn ? (size_t)(qn - q) : (size_t)(text + len - q);
                        if (qlen && q[0] != ' ' && q[0] != '#') break;
                        later = line_is_key(q, qlen, 2, leaf[i]);
                        q = qn ? qn + 1 : text + len;
                    }
                    if (later) continue;
                    char v[40];
                    hw_fmt_num(get_param(hw, &f->par[i]), v, sizeof v);
                    sb_printf(out, "  %s: %s # CALIBRATED (unset before; calibration: below)\n", leaf[i], v);
                    found[i] = 1;
                }
        }
        line = next;
    }
    for (int i = 0; i < n; i++) /* a section the text does not have */
        if (!found[i] && f->par[i].key) {
            char v[40];
            hw_fmt_num(get_param(hw, &f->par[i]), v, sizeof v);
            sb_printf(out, "%s:\n  %s: %s # CALIBRATED (unset before; calibration: below)\n", sec[i], leaf[i],
                      v);
            found[i] = 1;
        }
    for (int i = 0; i < n; i++)
        if (!found[i]) return 0;
    sb_puts(out, record);
    return !out->overflow;
}

/* the calibration record: `calibration:` with the fit's keys and one comment line per fitted key and row */
static void write_record(const struct ct_fit *f, const struct hw_desc *hw, const double *x, const char *table,
                         double t[3][CT_MAX_ROWS], double tp[3][CT_MAX_ROWS], int loo, struct strbuf *r)
{
    sb_puts(r, "calibration:                       # nnperf calibrate --table ");
    put_clean(r, table);
    sb_printf(r, " (%d row%s fitted)\n", hw->cal_rows, hw->cal_rows == 1 ? "" : "s");
    for (int i = 0; i < f->n_par; i++) {
        char v0[40], v1[40];
        hw_fmt_num(f->par[i].key ? f->par[i].init : 1.0, v0, sizeof v0);
        hw_fmt_num(f->par[i].key ? get_param(hw, &f->par[i]) : exp(x[i]), v1, sizeof v1);
        sb_printf(r, "  # fitted %s: %s -> %s%s\n", f->par[i].path, v0, v1, f->par[i].key ? "" : " (scale)");
    }
    for (int i = 0; i < f->n_rows; i++) {
        const struct ct_row *w = &f->rows[i];
        const char *base = strrchr(w->model, '/');
        for (int q = 0; q < 2; q++) {
            double meas = q ? w->measured_tp_fps : w->measured_s;
            if (!(meas > 0)) continue;
            double(*a)[CT_MAX_ROWS] = q ? tp : t;
            sb_printf(r, "  # line %d ", w->line);
            put_clean(r, base ? base + 1 : w->model);
            sb_printf(r, " %s %s: ", w->input ? w->input : "", q ? "throughput" : "latency");
            if (w->excluded) {
                sb_printf(r, "outlier, left out (before %+.1f%%)\n", 100 * (a[0][i] / meas - 1));
                continue;
            }
            sb_printf(r, "before %+.1f%%, after %+.1f%%", 100 * (a[0][i] / meas - 1),
                      100 * (a[1][i] / meas - 1));
            if (loo) sb_printf(r, ", left out %+.1f%%", 100 * (a[2][i] / meas - 1));
            sb_puts(r, "\n");
        }
    }
    char b[40];
    if (hw->cal_time_scale > 0) {
        hw_fmt_num(hw->cal_time_scale, b, sizeof b);
        sb_printf(r, "  time_scale: %s\n", b);
    }
    sb_printf(r, "  rows: %d\n", hw->cal_rows);
    hw_fmt_num(hw->cal_error_before, b, sizeof b);
    sb_printf(r, "  error_before: %s\n", b);
    hw_fmt_num(hw->cal_error_after, b, sizeof b);
    sb_printf(r, "  error_after: %s\n", b);
    if (hw->cal_loo_error > 0) {
        hw_fmt_num(hw->cal_loo_error, b, sizeof b);
        sb_printf(r, "  loo_error: %s\n", b);
    }
}

/* the platform's own text: a preset's, or the file's (NULL when unreadable) */
static char *platform_text(const char *platform, size_t *len)
{
    const char *pre = hw_preset_yaml(platform, len);
    if (pre) {
        char *c = malloc(*len + 1);
        if (c) memcpy(c, pre, *len + 1);
        return c;
    }
    struct diag d = {0};
    char *buf = NULL;
    if (hw_read_file(platform, &buf, len, &d)) return NULL;
    return buf;
}

static double round4(double v)
{
    return round(v * 1e4) / 1e4;
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
    struct ct_read info = {0};
    struct strbuf lg;
    sb_init(&lg, 1 << 20);
    enum nnperf_status st = hw_resolve(platform, &f.base, &d);
    if (!st) st = read_table(table, f.base.name, &f.rows, &f.n_rows, &info, &d);
    for (int i = 0; !st && i < f.n_rows; i++) st = load_row(&f.rows[i], &d);
    sb_printf(&lg, "calibrating %s on %d rows of %s", f.base.name, f.n_rows, table);
    if (info.test_rows || info.other_rows)
        sb_printf(&lg, " (%d test rows never fitted, %d rows of other platforms skipped)", info.test_rows,
                  info.other_rows);
    sb_puts(&lg, "\n");
    /* per row: latency and throughput before, fitted, and with the row left out */
    double t[3][CT_MAX_ROWS] = {{0}}, tp[3][CT_MAX_ROWS] = {{0}};
    for (int i = 0; i < f.n_rows && !st; i++)
        if ((t[0][i] = predict_row(&f.rows[i], &f.base, &d, &tp[0][i])) <= 0)
            st = d.status ? d.status : NNPERF_E_INVALID;
    if (!st) guard_outliers(&f, t[0], tp[0], fit && *fit, &lg);
    for (int i = 0; !st && i < f.n_rows; i++) {
        if (f.rows[i].measured_s > 0) f.lr[i][0] = log(f.rows[i].measured_s / t[0][i]);
        if (f.rows[i].measured_tp_fps > 0 && tp[0][i] > 0)
            f.lr[i][1] = log(tp[0][i] / f.rows[i].measured_tp_fps);
    }
    int n_res = count_measurements(&f);
    if (!st && fit && *fit) {
        char *keys = strdup(fit);
        if (!keys) st = diag_set(&d, NNPERF_E_NOMEM, "out of memory");
        for (char *tok = keys ? strtok(keys, ",") : NULL; tok && !st; tok = strtok(NULL, ","))
            st = add_param(&f, trim(tok));
        free(keys);
        if (!st && f.n_par > n_res)
            st = diag_set(
                &d, NNPERF_E_USAGE,
                "%d free parameters need at least %d measurements (the table has %d): free fewer keys, "
                "or leave --fit out to let the number of rows choose (1 row: one scale on every time)",
                f.n_par, f.n_par, n_res);
    } else if (!st) {
        st = choose_keys(&f, t[0], tp[0], &lg); /* on a validated platform, a lone scale is shrunk */
    }
    double x[CT_MAX_PARAMS] = {0}, loo = NAN;
    struct hw_desc hw;
    if (!st) {
        fit_all(&f, x);
        double sp = 0, crit = 0, mean = 0;
        int ns = scale_spread(&f, &sp, &crit, &mean);
        if (f.shrink && f.n_par == 1 && !strcmp(f.par[0].path, "calibration.time_scale") && (ns || f.hold)) {
            double raw[CT_MAX_PARAMS];
            struct ct_fit g = f;
            g.shrink = 0;
            fit_all(&g, raw);
            if (f.hold)
                sb_printf(
                    &lg,
                    "held at 1: the rows say time_scale %.4g, but a fit without one of them predicts it "
                    "worse than the platform as it is (leave-one-out, above)\n",
                    exp(raw[0]));
            else {
                int pooled = f.spread > 0 && f.spread_rows > 1;
                char from[160];
                if (pooled)
                    snprintf(
                        from, sizeof from,
                        "pooled from the spread of the platform's %d test rows (validation.log_spread)%s",
                        f.spread_rows, ns >= 2 ? " and these measurements' own" : "");
                else
                    snprintf(from, sizeof from, "the spread of these measurements' ratios");
                sb_printf(
                    &lg,
                    "shrunk toward the platform: the rows say time_scale %.4g; %.4g is written (their "
                    "mean ln ratio m = %+.3g; held at 1 unless |m| > %.3g se, else ln x max(0, 1 - se^2 / "
                    "m^2); se = s / sqrt(%d), s = %.3g %s; Student's t at 95%% with %d degrees of freedom: "
                    "a few measurements within that spread do not move it)\n",
                    exp(raw[0]), exp(x[0]), mean, crit, ns, sp, from,
                    ns - 1 + (pooled ? f.spread_rows - 1 : 0));
            }
        }
        apply(&f, x, &hw);
        for (int i = 0; i < f.n_rows; i++) t[1][i] = predict_row(&f.rows[i], &hw, NULL, &tp[1][i]);
        loo = leave_one_out(&f, x, t[2], tp[2]);
        char name[HW_MAX_NAME];
        snprintf(name, sizeof name, "%.50s-cal", f.base.name);
        memcpy(hw.name, name, sizeof name);
        double e[2 * CT_MAX_ROWS];
        int ne = errors_of(&f, t[0], tp[0], e);
        hw.cal_rows = 0;
        for (int i = 0; i < f.n_rows; i++) hw.cal_rows += !f.rows[i].excluded;
        hw.cal_error_before = round4(median_abs(e, ne));
        hw.cal_error_after = round4(median_abs(e, errors_of(&f, t[1], tp[1], e)));
        hw.cal_loo_error = isnan(loo) ? 0 : fmax(1e-4, round4(loo));
        hw_drop_bands(&hw, 1, 1); /* the validation was of the platform before */
        /* the keys, their bounds, the record */
        for (int i = 0; i < f.n_par; i++) {
            char v0[40], v1[40], raw[40];
            double want = exp(x[i]);
            hw_fmt_num(f.par[i].key ? f.par[i].init : 1.0, v0, sizeof v0);
            hw_fmt_num(f.par[i].key ? get_param(&hw, &f.par[i]) : want, v1, sizeof v1);
            hw_fmt_num(want, raw, sizeof raw);
            sb_printf(&lg, "  %-34s %s -> %s%s", f.par[i].path, v0, v1, f.par[i].key ? "" : " (scale)");
            if (want < f.par[i].lo || want > f.par[i].hi)
                sb_printf(&lg, "  (at its bound: the fit wanted %s; %s is written)", raw, v1);
            if (!f.par[i].key) {
                int capped = 0;
                for (int c = 0; c < OC_COUNT; c++) capped += f.base.eff[c] > 0 && f.base.eff[c] * want > 1;
                if (f.base.eff_default * want > 1 || capped)
                    sb_printf(&lg, "  (efficiencies above 1 are written as 1)");
            }
            sb_puts(&lg, "\n");
        }
        struct strbuf rec, y;
        sb_init(&rec, 1 << 20);
        write_record(&f, &hw, x, table, t, tp, !isnan(loo), &rec);
        sb_init(&y, 1 << 20);
        size_t tlen = 0;
        char *text = rec.overflow ? NULL : platform_text(platform, &tlen);
        int edited = text && edit_yaml(text, tlen, &f, &hw, rec.p ? rec.p : "", &y);
        if (edited) { /* the edited text must load as the fitted platform */
            struct hw_desc back;
            struct diag d2 = {0};
            const char *file = hw_preset_yaml(platform, NULL) ? "calibrated.yaml" : platform;
            edited = !hw_load_yaml(y.p, y.len, file, &back, &d2);
            for (int i = 0; edited && i < f.n_rows; i++) {
                double tb = 0, b = predict_row(&f.rows[i], &back, NULL, &tb);
                edited = fabs(b - t[1][i]) <= 1e-9 * t[1][i] && fabs(tb - tp[1][i]) <= 1e-9 * (tp[1][i] + 1);
            }
        }
        free(text);
        if (!edited) { /* the writer: every key, the preset's comments lost */
            sb_free(&y);
            sb_init(&y, 1 << 20);
            st = hw_write_yaml_checked(&hw, "the calibrated platform", &y, &d);
            sb_puts(&y, "# (written by the YAML writer: the platform's text could not be edited in place)\n");
            for (const char *c = rec.p ? strchr(rec.p, '\n') : NULL; c && c[1];) { /* the record's comments */
                const char *e2 = strchr(c + 1, '\n');
                const char *h = memchr(c + 1, '#', e2 ? (size_t)(e2 - c - 1) : strlen(c + 1));
                if (h) sb_printf(&y, "%.*s\n", e2 ? (int)(e2 - h) : (int)strlen(h), h);
                c = e2;
            }
        }
        sb_printf(&lg, "written: %s\n",
                  edited ? "the platform's text with the fitted values edited in (comments kept) and a "
                           "calibration: record"
                         : "every key by the YAML writer (the platform's text could not be edited in place)");
        sb_free(&rec);
        if (st)
            sb_free(&y);
        else if (y.overflow || !y.p)
            st = diag_set(&d, NNPERF_E_NOMEM, "out of memory");
        else {
            *yaml = y.p;
            *yaml_len = y.len;
        }
    }
    if (!st && logp) {
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
                double v[3], er[3];
                for (int k = 0; k < 3; k++) v[k] = q ? tp[k][i] : t[k][i], er[k] = v[k] / meas - 1;
                double sc = q ? 1 : 1e3;
                const char *u = q ? "/s" : "ms";
                sb_printf(&lg, "%-32.32s %-22.22s %-10s %9.3f%-2s %9.3f%-2s %+7.1f%% %9.3f%-2s %+7.1f%% ",
                          base ? base + 1 : r->model, r->input ? r->input : "", q ? "throughput" : "latency",
                          meas * sc, u, v[0] * sc, u, 100 * er[0], v[1] * sc, u, 100 * er[1]);
                if (r->excluded)
                    sb_printf(&lg, "%11s\n", "outlier");
                else if (isnan(loo))
                    sb_printf(&lg, "%11s\n", "-");
                else
                    sb_printf(&lg, "%9.3f%-2s %+7.1f%%\n", v[2] * sc, u, 100 * er[2]);
                if (r->excluded) continue;
                for (int k = 0; k < 3; k++) e[q][k][ne[q]] = er[k];
                ne[q]++;
            }
        }
        for (int q = 0; q < 2; q++)
            if (ne[q]) {
                sb_printf(&lg, "median |error| of the %s (%d rows): before %.1f%%, fitted %.1f%%",
                          q ? "throughput (frames/s, every core busy or the row's threads)"
                            : "latency per frame",
                          ne[q], 100 * median_abs(e[q][0], ne[q]), 100 * median_abs(e[q][1], ne[q]));
                if (isnan(loo))
                    sb_printf(&lg, ", left out: not available (a fit without one row would have fewer "
                                   "measurements than keys)\n");
                else
                    sb_printf(&lg, ", left out %.1f%%\n", 100 * median_abs(e[q][2], ne[q]));
            }
        *logp = lg.p;
    } else {
        sb_free(&lg);
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

enum nnperf_status nnperf_calibrate_table_inputs(const char *platform, const char *table,
                                                 int (*add)(void *ctx, const char *path), void *ctx,
                                                 char *err, size_t errlen)
{
    struct diag d = {0};
    struct hw_desc hw;
    hw_init(&hw);
    struct ct_row *rows = NULL;
    int n = 0;
    struct ct_read info = {0};
    enum nnperf_status st =
        !add ? diag_set(&d, NNPERF_E_USAGE, "no callback given") : hw_resolve(platform, &hw, &d);
    if (!st) st = read_table(table, hw.name, &rows, &n, &info, &d);
    for (int i = 0; !st && i < n; i++) {
        if (add(ctx, rows[i].model)) st = diag_set(&d, NNPERF_E_NOMEM, "out of memory");
        struct nnperf_model *m = NULL;
        /* a model that does not load names no further files (calibrating will say why it does not load) */
        if (!st && nnperf_model_load(rows[i].model, NULL, &m, NULL, 0) == NNPERF_OK)
            for (int k = 0; !st && k < nnperf_model_file_count(m); k++)
                if (add(ctx, nnperf_model_file(m, k))) st = diag_set(&d, NNPERF_E_NOMEM, "out of memory");
        nnperf_model_free(m);
    }
    for (int i = 0; rows && i < n; i++) free(rows[i].model), free(rows[i].input), free(rows[i].dtype);
    free(rows);
    if (st && err && errlen) snprintf(err, errlen, "%s", d.msg[0] ? d.msg : nnperf_status_name(st));
    return st;
}
