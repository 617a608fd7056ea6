/* calibrate.c - fitting a platform to measurements, and comparing a prediction with a measurement.
 *
 * Measurements are ONNX Runtime profiles (profile.h): per-node kernel times and whole-run times. ORT names
 * the nodes of the graph it ran: an unfused node keeps its ONNX name, a fused or re-laid-out node is named after its
 * output value plus a suffix ("/features.1/Relu_output_0_nchwc"). Each profile node is matched to the nnperf layer
 * that contains that node or produces that value; nodes ORT inserted itself (ReorderInput/Output) stay unmatched and
 * count as overhead.
 *
 * Fit: for every operator class, efficiency = predicted compute time at efficiency 1 / measured kernel time, summed
 * over the matched layers of all calibration models (for classes without arithmetic, copies such as Concat, their
 * memory time), alternating with a per-layer overhead fitted to what the efficiencies leave. Then the per-layer overhead is what remains of
 * the measured whole-run time (framework dispatch, unmatched kernels) spread over the layers that do work. */
#include "calibrate.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char *const suffixes[] = {"_nchwc", "_fused", "_token", NULL};

struct name_ix {
    const char *name;
    int node;
};

static int cmp_name_ix(const void *a, const void *b)
{
    return strcmp(((const struct name_ix *)a)->name, ((const struct name_ix *)b)->name);
}

/* the layer of a node or value named buf, or -2 when nothing has that name (-1: a folded node) */
static int lookup_layer(const struct nnperf_prediction *p, const struct name_ix *ix, int n, const char *buf)
{
    struct name_ix key = {buf, 0};
    const struct name_ix *hit = bsearch(&key, ix, (size_t)n, sizeof *ix, cmp_name_ix);
    if (hit) return p->layer_of[hit->node] >= 0 ? p->layer_of[hit->node] : -1;
    const struct ir_value *v = ir_find(an_graph(p->an), buf);
    if (v && v->producer) return p->layer_of[v->producer->index] >= 0 ? p->layer_of[v->producer->index] : -1;
    return -2;
}

/* The layer a profile node designates: ORT keeps an unfused node's name, names a re-laid-out node after its output
 * value plus a suffix ("/features.1/Relu_output_0_nchwc"), and a fused node after the first node plus the fusion's
 * name ("/encoder/.../MatMul/MatMulAddFusion", ".../MatMul_1/MatmulTransposeFusion//MatMulScaleFusion/"): try the
 * name, then without the suffix, then without trailing path components. -1: a folded node, -2: no node or value
 * of the model has any of these names. */
static int match_layer(const struct nnperf_prediction *p, const struct name_ix *ix, int n, const char *name)
{
    char buf[PERF_MATCH_NAME];
    snprintf(buf, sizeof buf, "%s", name);
    int l = lookup_layer(p, ix, n, buf);
    if (l != -2) return l;
    for (int s = 0; suffixes[s]; s++) {
        char *at = strstr(buf, suffixes[s]);
        if (at && at != buf) {
            *at = 0;
            if ((l = lookup_layer(p, ix, n, buf)) != -2) return l;
            snprintf(buf, sizeof buf, "%s", name);
        }
    }
    for (;;) {
        char *slash = strrchr(buf, '/');
        if (!slash || slash == buf) return -2;
        *slash = 0;
        if ((l = lookup_layer(p, ix, n, buf)) != -2) return l;
    }
}

/* the graph's named nodes sorted by name (*n of them), or NULL when out of memory */
static struct name_ix *node_index(const struct ir_graph *g, int *n)
{
    struct name_ix *ix = malloc((size_t)(g->n_nodes ? g->n_nodes : 1) * sizeof *ix);
    *n = 0;
    for (int k = 0; ix && k < g->n_nodes; k++)
        if (g->nodes[k]->name[0]) ix[(*n)++] = (struct name_ix){g->nodes[k]->name, k};
    if (ix) qsort(ix, (size_t)*n, sizeof *ix, cmp_name_ix);
    return ix;
}

int perf_match_count(const struct nnperf_prediction *p, const struct perf_profile *prof)
{
    int n, matched = 0;
    struct name_ix *ix = node_index(an_graph(p->an), &n);
    for (int i = 0; ix && i < prof->n_nodes; i++) matched += match_layer(p, ix, n, prof->nodes[i].name) != -2;
    free(ix);
    return matched;
}

void perf_match(const struct nnperf_prediction *p, const struct perf_profile *prof, double *layer_us,
                double *unmatched_us)
{
    int runs = prof->runs > 0 ? prof->runs : 1;
    int n;
    struct name_ix *ix = node_index(an_graph(p->an), &n);
    for (int l = 0; l < p->n_layers; l++) layer_us[l] = 0;
    *unmatched_us = 0;
    for (int i = 0; i < prof->n_nodes; i++) {
        const struct perf_profile_node *pn = &prof->nodes[i];
        double per_run = pn->total_us / runs; /* every profiled run executes each node once */
        int l = ix ? match_layer(p, ix, n, pn->name) : -1;
        if (l >= 0)
            layer_us[l] += per_run;
        else
            *unmatched_us += per_run;
    }
    free(ix);
}

/* What ONNX Runtime's CPU provider fuses at graph optimization level "all" (ConvActivationFusion, the NCHWc
 * Conv+Sum+activation fusion, ConvAddFusion, MatMulAddFusion, GemmActivationFusion): a platform without fusion
 * patterns that is calibrated against ORT profiles gets these, so layers line up with ORT's kernels. */
static const char *const ort_fusions[][4] = {
    {"Conv", "Add", "Relu", NULL}, {"Conv", "Relu", NULL},    {"Conv", "Clip", NULL},  {"Conv", "Add", NULL},
    {"Conv", "HardSigmoid", NULL}, {"Conv", "Sigmoid", NULL}, {"MatMul", "Add", NULL}, {"Gemm", "Relu", NULL},
    {"Conv", "LeakyRelu", NULL},   {"Conv", "Tanh", NULL},
};

static void add_ort_fusions(struct hw_desc *hw)
{
    for (size_t i = 0; i < sizeof ort_fusions / sizeof ort_fusions[0] && hw->n_fusion < HW_MAX_FUSION; i++) {
        struct hw_pattern *pt = &hw->fusion[hw->n_fusion++];
        memset(pt, 0, sizeof *pt);
        for (int k = 0; k < 4 && ort_fusions[i][k]; k++) {
            snprintf(pt->ops[k], sizeof pt->ops[k], "%s", ort_fusions[i][k]);
            pt->len = k + 1;
        }
    }
}

/* The class whose efficiency a layer's measurement informs: convolutions, GEMMs, matmuls and attention run on the
 * same MAC unit (the same SIMD/tensor kernels), so they share one efficiency (what differs between them, the shape,
 * is the array model's utilization); other classes have their own. */
static int fit_class(int klass)
{
    switch (klass) {
    case OC_GEMM:
    case OC_MATMUL:
    case OC_ATTENTION: return OC_CONV;
    default: return klass;
    }
}

/* ---- the kernel-cost model's fit ---- */

enum { KC_MAC, KC_DW, KC_NARROW, KC_OUT, KC_PASS, KC_ELEM, KC_OVERHEAD, KC_N };

static void kc_row(const struct pr_kterms *t, double *x)
{
    x[KC_MAC] = t->mac_s, x[KC_DW] = t->dw_mac_s, x[KC_NARROW] = t->narrow_mac_s, x[KC_OUT] = t->outputs;
    x[KC_PASS] = t->pass_elems, x[KC_ELEM] = t->elements, x[KC_OVERHEAD] = t->overhead;
}

/* Solves the n x n system a x = b (row-major, destroyed) by Gaussian elimination with partial pivoting; an unknown
 * whose pivot vanishes is left at 0 and flagged in det[] (1: determined). */
static void solve(double *a, double *b, double *x, int n, int *det)
{
    for (int c = 0; c < n; c++) {
        int piv = c;
        for (int r = c + 1; r < n; r++)
            if (fabs(a[r * n + c]) > fabs(a[piv * n + c])) piv = r;
        if (fabs(a[piv * n + c]) < 1e-12) {
            det[c] = 0;
            continue;
        }
        det[c] = 1;
        if (piv != c) {
            for (int k = 0; k < n; k++) {
                double s = a[c * n + k];
                a[c * n + k] = a[piv * n + k], a[piv * n + k] = s;
            }
            double s = b[c];
            b[c] = b[piv], b[piv] = s;
        }
        for (int r = 0; r < n; r++) {
            if (r == c || a[r * n + c] == 0) continue;
            double f = a[r * n + c] / a[c * n + c];
            for (int k = c; k < n; k++) a[r * n + k] -= f * a[c * n + k];
            b[r] -= f * b[c];
        }
    }
    for (int c = 0; c < n; c++) x[c] = det[c] ? b[c] / a[c * n + c] : 0;
}

/* Weighted least squares over the matched layers of every model: measured - weight time = sum of the terms x their
 * coefficients, each layer weighted by 1 / sqrt(its measured time) (a kernel's timing spread grows with its time;
 * the big layers count more than in a relative fit, less than in an absolute one). Columns are scaled to unit
 * norm; a coefficient that comes out negative is fixed at 0 (an inverse efficiency at 1) and the rest fitted
 * again; a term no calibration layer has keeps the platform's value. */
struct kc_obs {
    double f[KC_N]; /* the layer's terms */
    double target;  /* measured - weight time, seconds */
    double w;       /* 1 / sqrt(measured) */
};

static double clamp_key(double v, double lo, double hi)
{
    return v < lo ? lo : v > hi ? hi : v;
}

static enum nnperf_status fit_kernels(struct hw_desc *hw, struct nnperf_prediction **preds, double **lus,
                                      int n, struct strbuf *log, const char *dt, struct diag *d)
{
    int fixed[KC_N];
    double fixval[KC_N] = {0}, scale[KC_N] = {0}, x[KC_N] = {0};
    double eff_mac = hw_eff(hw, OC_CONV), eff_dw = hw_eff(hw, OC_CONV_DEPTHWISE);
    double cur[KC_N] = {
        1 / eff_mac,         1 / eff_dw,    1 / (hw->kc.narrow_eff > 0 ? hw->kc.narrow_eff : eff_mac),
        hw->kc.output_s,     hw->kc.pass_s, hw->kc.element_s,
        hw->layer_overhead_s};
    int rows = 0, cap = 0;
    for (int i = 0; i < n; i++) cap += preds[i]->n_layers;
    struct kc_obs *obs = malloc((size_t)(cap > 0 ? cap : 1) * sizeof *obs);
    if (!obs) return diag_set(d, NNPERF_E_NOMEM, "out of memory");
    for (int i = 0; i < n; i++)
        for (int l = 0; l < preds[i]->n_layers; l++) {
            struct pr_kterms t;
            if (lus[i][l] <= 0) continue;
            pr_kernel_terms(preds[i], &preds[i]->layers[l], &t);
            struct kc_obs *o = &obs[rows++];
            kc_row(&t, o->f);
            double m = lus[i][l] * 1e-6;
            o->target = m - t.weight_s;
            o->w = 1 / sqrt(fmax(m, 5e-6));
        }
    for (int k = 0; k < KC_N; k++) {
        fixed[k] = 0;
        for (int r = 0; r < rows; r++) scale[k] += obs[r].f[k] * obs[r].w * obs[r].f[k] * obs[r].w;
        scale[k] = sqrt(scale[k]);
        if (scale[k] <= 0) fixed[k] = 1, fixval[k] = cur[k]; /* no layer has this term */
    }
    for (int round = 0; round <= KC_N; round++) {
        double a[KC_N * KC_N] = {0}, b[KC_N] = {0}, y[KC_N];
        int det[KC_N];
        for (int r = 0; r < rows; r++) {
            const struct kc_obs *o = &obs[r];
            double res = o->target;
            for (int k = 0; k < KC_N; k++)
                if (fixed[k]) res -= o->f[k] * fixval[k];
            for (int j = 0; j < KC_N; j++) {
                if (fixed[j]) continue;
                double fj = o->f[j] / scale[j] * o->w;
                b[j] += fj * res * o->w;
                for (int k = 0; k < KC_N; k++)
                    if (!fixed[k]) a[j * KC_N + k] += fj * o->f[k] / scale[k] * o->w;
            }
        }
        for (int k = 0; k < KC_N; k++)
            if (fixed[k]) a[k * KC_N + k] = 1, b[k] = 0;
        solve(a, b, y, KC_N, det);
        int worst = -1;
        for (int k = 0; k < KC_N; k++) {
            if (fixed[k]) {
                x[k] = fixval[k];
                continue;
            }
            x[k] = det[k] ? y[k] / scale[k] : cur[k];
            double floor = k <= KC_NARROW ? 1 : 0; /* an inverse efficiency is at least 1 */
            if (x[k] < floor && (worst < 0 || x[k] - floor < x[worst] - (worst <= KC_NARROW ? 1 : 0)))
                worst = k;
        }
        if (worst < 0) break;
        fixed[worst] = 1, fixval[worst] = worst <= KC_NARROW ? 1 : 0;
    }
    static const int mac_classes[] = {OC_CONV, OC_CONV_GROUPED, OC_GEMM, OC_MATMUL, OC_ATTENTION};
    for (size_t c = 0; c < sizeof mac_classes / sizeof mac_classes[0]; c++)
        hw->eff[mac_classes[c]] = clamp_key(1 / x[KC_MAC], 1e-4, 1);
    hw->eff[OC_CONV_DEPTHWISE] = clamp_key(1 / x[KC_DW], 1e-4, 1);
    hw->kc.narrow_eff = clamp_key(1 / x[KC_NARROW], 1e-4, 1);
    /* inside the keys' ranges (a cost under 1e-15 s is none) */
    double *costs[] = {&hw->kc.output_s, &hw->kc.pass_s, &hw->kc.element_s};
    for (int k = 0; k < 3; k++) *costs[k] = x[KC_OUT + k] < 1e-15 ? 0 : clamp_key(x[KC_OUT + k], 1e-15, 1e-3);
    hw->layer_overhead_s = clamp_key(x[KC_OVERHEAD], 0, 1);
    hw->vector_ops = 0;
    if (log) {
        sb_printf(log, "calibrated %s on %d model%s (dtype %s), kernel-cost model, %d layers:\n", hw->name, n,
                  n == 1 ? "" : "s", dt, rows);
        sb_printf(log,
                  "  MAC efficiency %.4f (conv, grouped conv, gemm, matmul, attention), depthwise %.4f, "
                  "narrow-input conv %.4f\n",
                  hw->eff[OC_CONV], hw->eff[OC_CONV_DEPTHWISE], hw->kc.narrow_eff);
        sb_printf(log,
                  "  per output element %.3f ns, per activation-pass element %.3f ns, per element of other "
                  "layers %.3f ns, per layer %.2f us\n",
                  x[KC_OUT] * 1e9, x[KC_PASS] * 1e9, x[KC_ELEM] * 1e9, x[KC_OVERHEAD] * 1e6);
    }
    if (hw->kc.output_s <= 0 && hw->kc.pass_s <= 0 && hw->kc.element_s <= 0) hw->kc.element_s = 1e-12;
    free(obs);
    return NNPERF_OK;
}

enum nnperf_status perf_calibrate(struct hw_desc *hw, int dtype, struct perf_cal_input *in, int n,
                                  struct strbuf *log, struct diag *d)
{
    if (n <= 0) return diag_set(d, NNPERF_E_USAGE, "calibrate: no model=profile pairs given");
    if (hw->n_fusion == 0) add_ort_fusions(hw);
    int kernels = pr_compute_model_of(hw, dtype) == PR_COMPUTE_KERNELS;
    struct hw_desc base = *hw;
    for (int c = 0; c < OC_COUNT; c++) base.eff[c] = -1;
    base.eff_default = 1.0;
    base.layer_overhead_s = 0;
    base.vector_ops = 0; /* one efficiency per class covers the class's whole work */
    struct nnperf_platform plat = {base};
    double meas[OC_COUNT] = {0}, comp[OC_COUNT] = {0};
    struct nnperf_prediction **preds = calloc((size_t)n, sizeof *preds);
    double **lus = calloc((size_t)n, sizeof *lus);
    if (!preds || !lus) {
        free(preds), free(lus);
        return diag_set(d, NNPERF_E_NOMEM, "out of memory");
    }
    enum nnperf_status st = NNPERF_OK;
    const char *dt = hw_dtype_name(dtype);
    for (int i = 0; i < n && !st; i++) {
        struct nnperf_predict_options o = {.dtype = dt, .batch = 0, .memory_model = 0, .no_timeline = 1};
        char err[512];
        st = nnperf_predict(in[i].analysis, &plat, &o, &preds[i], err, sizeof err);
        if (st) {
            diag_set(d, st, "%s: %s", in[i].name, err);
            break;
        }
        lus[i] = calloc((size_t)(preds[i]->n_layers + 1), sizeof *lus[i]);
        if (!lus[i]) {
            st = diag_set(d, NNPERF_E_NOMEM, "out of memory");
            break;
        }
        double unmatched;
        perf_match(preds[i], in[i].profile, lus[i], &unmatched);
        for (int l = 0; l < preds[i]->n_layers; l++) {
            const struct pr_layer *L = &preds[i]->layers[l];
            double ideal = L->t_compute > 0 ? L->t_compute : L->t_memory;      /* copies: their memory time */
            if (lus[i][l] <= 0 || ideal <= 0 || L->klass == OC_VIEW) continue; /* views: overhead */
            meas[fit_class(L->klass)] += lus[i][l] * 1e-6;
            comp[fit_class(L->klass)] += ideal;
        }
    }
    if (!st && kernels) st = fit_kernels(hw, preds, lus, n, log, dt, d);
    if (!st && !kernels) {
        /* Alternating fit over the matched layers of every model: with a per-layer overhead o, a layer of class c
         * takes max(compute / eff_c, memory) + o. Given o, eff_c = sum of compute / sum of (measured - o);
         * given eff, o = mean of (measured - max(compute / eff_c, memory)) over the layers, at least 0. */
        double eff[OC_COUNT], o = 0;
        for (int c = 0; c < OC_COUNT; c++) eff[c] = (meas[c] > 0 && comp[c] > 0) ? comp[c] / meas[c] : -1;
        for (int iter = 0; iter < 20; iter++) {
            double num[OC_COUNT] = {0}, den[OC_COUNT] = {0}, res = 0;
            int cnt = 0;
            for (int i = 0; i < n; i++)
                for (int l = 0; l < preds[i]->n_layers; l++) {
                    const struct pr_layer *L = &preds[i]->layers[l];
                    double m = lus[i][l] * 1e-6;
                    int copy = L->t_compute <= 0;
                    double ideal = copy ? L->t_memory : L->t_compute;
                    int fc = fit_class(L->klass);
                    if (m <= 0 || ideal <= 0 || eff[fc] <= 0) continue;
                    double tc = ideal / eff[fc];
                    /* the platform's own layer time (pr_body); for a copy the memory time is the work */
                    double body = copy ? tc : pr_body(preds[i], L, tc);
                    res += m - body;
                    cnt++;
                    /* what the compute took: the measured time less overhead and what does not overlap it */
                    double left = m - o - (copy || base.overlap ? 0 : body - tc > 0 ? body - tc : 0);
                    if (left < 0.05 * m) left = 0.05 * m;
                    num[fc] += ideal;
                    den[fc] += left;
                }
            for (int c = 0; c < OC_COUNT; c++)
                if (eff[c] > 0 && den[c] > 0) eff[c] = num[c] / den[c];
            o = cnt && res > 0 ? res / cnt : 0;
        }
        for (int c = 0; c < OC_COUNT; c++) {
            if (eff[c] > 1)
                eff[c] = 1; /* a class faster than the probed peak: cap (the peak was underestimated) */
            if (eff[c] > 0 && eff[c] < 1e-4) eff[c] = 1e-4;
        }
        /* what the kernels do not explain (framework dispatch, kernels ORT inserted such as layout reorders):
         * measured whole-run time minus the sum of matched kernel times, spread over the layers that do work */
        double rest = 0, layers = 0;
        for (int i = 0; i < n; i++) {
            double matched = 0;
            int nl = 0;
            for (int l = 0; l < preds[i]->n_layers; l++) {
                matched += lus[i][l] * 1e-6;
                if (preds[i]->layers[l].t_compute > 0 || preds[i]->layers[l].t_memory > 0) nl++;
            }
            rest += in[i].profile->run_median_us * 1e-6 - matched;
            layers += nl;
        }
        double extra = layers > 0 && rest > 0 ? rest / layers : 0;
        for (int c = 0; c < OC_COUNT; c++) hw->eff[c] = eff[fit_class(c)] > 0 ? eff[fit_class(c)] : -1;
        /* classes never measured keep the mean of the measured ones as their default */
        double sum = 0;
        int cnt = 0;
        for (int c = 0; c < OC_COUNT; c++)
            if (eff[c] > 0) sum += eff[c], cnt++;
        hw->eff_default = cnt ? sum / cnt : base.eff_default;
        hw->layer_overhead_s = o + extra;
        hw->vector_ops = 0;
        if (log) {
            sb_printf(log, "calibrated %s on %d model%s (dtype %s):\n", hw->name, n, n == 1 ? "" : "s", dt);
            for (int c = 0; c < OC_COUNT; c++)
                if (eff[c] > 0)
                    sb_printf(log, "  %-14s efficiency %.4f  (measured %.3f ms, ideal %.3f ms)%s\n",
                              op_class_name(c), eff[c], meas[c] * 1e3, comp[c] * 1e3,
                              c == OC_CONV ? " [also gemm, matmul, attention: one MAC unit]" : "");
            sb_printf(log,
                      "  default        efficiency %.4f\n  per-layer overhead %.2f us (kernel fit %.2f us + "
                      "unexplained run time %.2f us)\n",
                      hw->eff_default, (o + extra) * 1e6, o * 1e6, extra * 1e6);
        }
    }
    for (int i = 0; i < n; i++) {
        nnperf_prediction_free(preds[i]);
        free(lus[i]);
    }
    free(preds);
    free(lus);
    return st;
}
