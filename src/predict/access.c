/* access.c - the public accessors of a prediction (include/nnperf.h): summary, layers, warnings, ceilings. Reports
 * and bindings read predictions through these. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "predict.h"

void nnperf_prediction_free(struct nnperf_prediction *p)
{
    /* a prediction others derive from (nnperf_predict_batch) lives on until the last of them is freed */
    if (!p || --p->refs > 0) return;
    struct nnperf_prediction *base = p->base;
    pr_cons_free(&p->cons);
    ar_free(&p->ar);
    free(p);
    nnperf_prediction_free(base);
}

void nnperf_prediction_summary(const struct nnperf_prediction *p, struct nnperf_prediction_summary *s)
{
    memset(s, 0, sizeof *s);
    double b = p->batch;
    s->platform = p->hw->name;
    s->dtype = hw_dtype_name(p->dtype);
    s->frames_per_run = p->batch;
    s->latency_s = p->latency;
    s->fps = p->latency > 0 ? b / p->latency : 0;
    s->memory_model = pr_memory_models[p->memory_model].name;
    s->compute_model = pr_compute_models[p->compute_model].name;
    int cores = p->hw->cores > 0 ? p->hw->cores : 1;
    int per = pr_inference_cores(p->hw);
    s->cores = cores;
    s->cores_per_inference = per;
    s->throughput_fps = p->throughput_fps; /* the throughput stage (runrate.c) */
    s->throughput_limit = pr_tp_limit_names[p->throughput_limit];
    s->streams = p->streams;
    s->ops_per_run = p->mac_ops + p->vec_ops;
    s->ops_per_frame = s->ops_per_run / b;
    double aligned = 0;
    for (int l = 0; l < p->n_layers; l++)
        aligned += pr_mac_aligned(&p->layers[l]) + pr_vec_aligned(&p->layers[l]);
    s->aligned_ops_per_frame = aligned / b;
    double ddr = p->w_bytes + p->load_bytes + p->store_bytes + p->spill_bytes;
    s->ddr_bytes_per_run = ddr;
    s->ddr_bytes_per_frame = ddr / b;
    s->ddr_bytes_per_second = p->latency > 0 ? ddr / p->latency : 0;
    double spill_load = 0, spill_store = 0;
    for (int l = 0; l < p->n_layers; l++) {
        spill_load += pr_lx(&p->layers[l])->spill_load_bytes;
        spill_store += pr_lx(&p->layers[l])->spill_store_bytes;
    }
    s->loaded_bytes_per_frame = (p->w_bytes + p->load_bytes + spill_load) / b;
    s->stored_bytes_per_frame = (p->store_bytes + spill_store) / b;
    s->weight_bytes_per_frame = p->w_bytes / b;
    s->spill_bytes_per_frame = p->spill_bytes / b;
    s->avg_utilization = p->avg_util;
    s->layers = p->n_layers;
    s->fallback_layers = p->fallback_layers;
    s->spilled_tensors = p->spilled_tensors;
    s->unknown_layers = p->unknown_layers;
    s->warnings = p->n_warn;
    /* a platform changed after loading is no longer the one the rows validated */
    s->expected_error_rows = p->hw->n_set ? 0 : p->hw->val_rows;
    s->expected_error_median = s->expected_error_rows ? p->hw->val_median : NAN;
    s->expected_error_p90 = s->expected_error_rows ? p->hw->val_p90 : NAN;
    s->family = p->family ? p->family : NNPERF_FAMILY_CNN;
    const struct hw_val_family *fam =
        &p->hw->val_fam[strcmp(s->family, NNPERF_FAMILY_TRANSFORMER) ? HW_FAM_CNN : HW_FAM_TRANSFORMER];
    int by_family = p->hw->val_fam[HW_FAM_TRANSFORMER].rows + p->hw->val_fam[HW_FAM_CNN].rows;
    /* by family only where the two families' rows are the platform's test rows (a file that changed test_rows
     * alone, as bench/fidelity/calibrate_rows.py's draws do, gives no rows by family) */
    s->family_test_rows = s->expected_error_rows > 0 && by_family == s->expected_error_rows ? fam->rows : -1;
    s->family_median = s->family_test_rows > 0 ? fam->median : NAN;
    s->family_p90 = s->family_test_rows > 0 ? fam->p90 : NAN;
    s->energy_j_per_frame = s->power_w = s->fps_per_w = NAN;
    s->power_basis = NULL;
    if (isfinite(p->energy_per_run)) { /* the power stage (runrate.c) */
        s->power_basis = p->hw->static_w > 0 ? "static and dynamic" : "dynamic only";
        s->energy_j_per_frame = p->energy_per_run / b;
        s->power_w = p->energy_per_run / p->latency;
        s->fps_per_w = s->power_w > 0 ? s->fps / s->power_w : NAN;
    }
}

const char *nnperf_prediction_warning(const struct nnperf_prediction *p, int i)
{
    return i >= 0 && i < p->n_warn ? p->warn[i] : NULL;
}

int nnperf_prediction_layer_count(const struct nnperf_prediction *p)
{
    return p->n_layers;
}

static const char *bound_name(int b)
{
    switch (b) {
    case PB_COMPUTE: return "compute";
    case PB_MEMORY: return "memory";
    case PB_OVERHEAD: return "overhead";
    default: return "unknown";
    }
}

void nnperf_prediction_layer(const struct nnperf_prediction *p, int i, struct nnperf_layer_info *li)
{
    memset(li, 0, sizeof *li);
    if (i < 0 || i >= p->n_layers) return;
    const struct pr_layer *L = &p->layers[i];
    li->name = L->name;
    li->op = L->main->op_type;
    li->klass = op_class_name(L->klass);
    li->dtype = hw_dtype_name(L->dtype);
    li->bound = bound_name(L->bound);
    li->nodes = L->n_nodes;
    li->fallback = L->fallback;
    li->ops = L->mac_ops + L->vec_ops;
    li->aligned_ops = pr_mac_aligned(L) + pr_vec_aligned(L);
    li->weight_bytes = L->w_bytes;
    li->load_bytes = L->load_bytes;
    li->store_bytes = L->store_bytes;
    li->spill_bytes = pr_lx(L)->spill_load_bytes + pr_lx(L)->spill_store_bytes;
    li->ddr_bytes = li->weight_bytes + li->load_bytes + li->store_bytes + li->spill_bytes;
    li->t_compute = L->t_compute;
    li->t_memory = L->t_memory;
    li->t_total = L->t_total;
    li->energy_j = pr_has_power(p->hw) ? pr_layer_energy(p, L) + p->hw->static_w * L->t_total : NAN;
    li->start = L->start;
    li->end = L->end;
    li->intensity = li->ddr_bytes > 0 ? li->aligned_ops / li->ddr_bytes : 0;
    li->attained = L->t_total > 0 ? li->aligned_ops / L->t_total : 0;
}

int nnperf_prediction_bound_layers(const struct nnperf_prediction *p, const char *bound)
{
    int n = 0;
    for (int i = 0; p && bound && i < p->n_layers; i++) {
        const char *b = bound_name(p->layers[i].bound);
        n += b[0] == bound[0] && !strcmp(b, bound);
    }
    return n;
}

void nnperf_prediction_ceilings(const struct nnperf_prediction *p, double *peak_ops, double *ddr_bw)
{
    if (peak_ops) *peak_ops = pr_peak(p);
    if (ddr_bw) *ddr_bw = pr_layer_ddr_bw(p); /* what one inference's layers reach */
}

int nnperf_prediction_override_count(const struct nnperf_prediction *p)
{
    return p ? p->hw->n_set : 0;
}

const char *nnperf_prediction_override(const struct nnperf_prediction *p, int i)
{
    return p && i >= 0 && i < p->hw->n_set ? p->hw->set[i] : NULL;
}

int nnperf_prediction_assumption_count(const struct nnperf_prediction *p)
{
    return p ? p->hw->n_assume : 0;
}

const char *nnperf_prediction_assumption(const struct nnperf_prediction *p, int i)
{
    return p && i >= 0 && i < p->hw->n_assume ? p->hw->assume[i] : NULL;
}
