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

enum nnperf_status perf_calibrate(struct hw_desc *hw, int dtype, struct perf_cal_input *in, int n,
                                  struct strbuf *log, struct diag *d)
{
    if (n <= 0) return diag_set(d, NNPERF_E_USAGE, "calibrate: no model=profile pairs given");
    if (hw->n_fusion == 0) add_ort_fusions(hw);
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
        struct nnperf_predict_options o = {.dtype = dt, .batch = 1, .memory_model = 0, .interval_s = 0};
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
    if (!st) {
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
