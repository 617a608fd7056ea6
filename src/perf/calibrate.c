/* calibrate.c - fitting a platform to measurements, and comparing a prediction with a measurement.
 *
 * Measurements are ONNX Runtime profiles (src/perf/profile.h): per-node kernel times and whole-run times. ORT names
 * the nodes of the graph it ran: an unfused node keeps its ONNX name, a fused or re-laid-out node is named after its
 * output value plus a suffix ("/features.1/Relu_output_0_nchwc"). Each profile node is matched to the nnperf layer
 * that contains that node or produces that value; nodes ORT inserted itself (ReorderInput/Output) stay unmatched and
 * count as overhead.
 *
 * Fit: for every operator class, efficiency = predicted compute time at efficiency 1 / measured kernel time, summed
 * over the matched layers of all calibration models, refined by a few fixed-point steps so that the roofline's
 * max(compute, memory) of the class adds up to the measured time. Then the per-layer overhead is what remains of
 * the measured whole-run time (framework dispatch, unmatched kernels) spread over the layers that do work. */
#include "calibrate.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char *const suffixes[] = {"_nchwc", "_fused", "_token", NULL};

/* the layer of the graph that a profile node name designates, or -1 */
static int match_layer(const struct nnperf_prediction *p, const char *name)
{
    const struct ir_graph *g = p->an->m->graph;
    char buf[PERF_MATCH_NAME];
    snprintf(buf, sizeof buf, "%s", name);
    for (int attempt = 0; attempt < 2; attempt++) {
        /* a node of that name */
        for (int k = 0; k < g->n_nodes; k++)
            if (!strcmp(g->nodes[k]->name, buf)) return p->layer_of[k] >= 0 ? p->layer_of[k] : -1;
        /* a value of that name: its producer */
        const struct ir_value *v = ir_find(g, buf);
        if (v && v->producer)
            return p->layer_of[v->producer->index] >= 0 ? p->layer_of[v->producer->index] : -1;
        /* strip an ORT suffix and try again */
        int stripped = 0;
        for (int s = 0; suffixes[s] && !stripped; s++) {
            char *at = strstr(buf, suffixes[s]);
            if (at && at != buf) {
                *at = 0;
                stripped = 1;
            }
        }
        if (!stripped) break;
    }
    return -1;
}

void perf_match(const struct nnperf_prediction *p, const struct perf_profile *prof, double *layer_us,
                double *unmatched_us)
{
    int runs = prof->runs > 0 ? prof->runs : 1;
    for (int l = 0; l < p->n_layers; l++) layer_us[l] = 0;
    *unmatched_us = 0;
    for (int i = 0; i < prof->n_nodes; i++) {
        const struct perf_profile_node *pn = &prof->nodes[i];
        double per_run = pn->total_us / runs; /* every profiled run executes each node once */
        int l = match_layer(p, pn->name);
        if (l >= 0)
            layer_us[l] += per_run;
        else
            *unmatched_us += per_run;
    }
}

enum nnperf_status perf_calibrate(struct hw_desc *hw, int dtype, struct perf_cal_input *in, int n,
                                  struct strbuf *log, struct diag *d)
{
    if (n <= 0) return diag_set(d, NNPERF_E_USAGE, "calibrate: no model=profile pairs given");
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
            if (lus[i][l] <= 0 || L->t_compute <= 0) continue;
            meas[L->klass] += lus[i][l] * 1e-6;
            comp[L->klass] += L->t_compute;
        }
    }
    if (!st) {
        /* efficiency per class, then fixed-point steps on the roofline's max(compute/eff, memory) */
        double eff[OC_COUNT];
        for (int c = 0; c < OC_COUNT; c++) eff[c] = (meas[c] > 0 && comp[c] > 0) ? comp[c] / meas[c] : -1;
        for (int iter = 0; iter < 8; iter++) {
            double pred[OC_COUNT] = {0};
            for (int i = 0; i < n; i++)
                for (int l = 0; l < preds[i]->n_layers; l++) {
                    const struct pr_layer *L = &preds[i]->layers[l];
                    if (lus[i][l] <= 0 || L->t_compute <= 0 || eff[L->klass] <= 0) continue;
                    double tc = L->t_compute / eff[L->klass];
                    pred[L->klass] += tc > L->t_memory ? tc : L->t_memory;
                }
            for (int c = 0; c < OC_COUNT; c++)
                if (eff[c] > 0 && pred[c] > 0) eff[c] *= pred[c] / meas[c];
        }
        for (int c = 0; c < OC_COUNT; c++) {
            if (eff[c] > 1)
                eff[c] = 1; /* a class faster than the probed peak: cap (the peak was underestimated) */
            if (eff[c] > 0 && eff[c] < 1e-4) eff[c] = 1e-4;
        }
        /* overhead: measured whole-run time minus the calibrated layer times, over the layers with work */
        double rest = 0, layers = 0;
        for (int i = 0; i < n; i++) {
            double t = 0;
            int nl = 0;
            for (int l = 0; l < preds[i]->n_layers; l++) {
                const struct pr_layer *L = &preds[i]->layers[l];
                double e = eff[L->klass] > 0 ? eff[L->klass] : 1;
                double tc = L->t_compute / e;
                double tl = tc > L->t_memory ? tc : L->t_memory;
                if (tl > 0) nl++;
                t += tl;
            }
            rest += in[i].profile->run_median_us * 1e-6 - t;
            layers += nl;
        }
        double overhead = layers > 0 && rest > 0 ? rest / layers : 0;
        for (int c = 0; c < OC_COUNT; c++) hw->eff[c] = eff[c] > 0 ? eff[c] : -1;
        /* classes never measured keep the mean of the measured ones as their default */
        double sum = 0;
        int cnt = 0;
        for (int c = 0; c < OC_COUNT; c++)
            if (eff[c] > 0) sum += eff[c], cnt++;
        hw->eff_default = cnt ? sum / cnt : base.eff_default;
        hw->layer_overhead_s = overhead;
        hw->vector_ops = 0;
        if (log) {
            sb_printf(log, "calibrated %s on %d model%s (dtype %s):\n", hw->name, n, n == 1 ? "" : "s", dt);
            for (int c = 0; c < OC_COUNT; c++)
                if (eff[c] > 0)
                    sb_printf(log, "  %-14s efficiency %.4f  (measured %.3f ms, ideal %.3f ms)\n",
                              op_class_name(c), eff[c], meas[c] * 1e3, comp[c] * 1e3);
            sb_printf(log, "  default        efficiency %.4f\n  per-layer overhead %.2f us\n",
                      hw->eff_default, overhead * 1e6);
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
