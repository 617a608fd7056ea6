/* compute.c - stage 4, the compute model: how long each layer takes. One function per model and one row in
 * pr_compute_models (indexed by enum pr_compute_model).
 *
 * "roofline" (Williams, Waterman, Patterson, "Roofline", CACM 2009; docs/sources.md [ROOFLINE], [QUTIBENCH]):
 *   compute = aligned MAC ops / (peak[dtype] x efficiency[class]) + other ops / vector rate
 *   memory  = max(DDR bytes / (DDR bandwidth x DDR efficiency), on-chip bytes / SRAM bandwidth)
 *   time    = max(compute, memory) when loads overlap compute, else their sum; + per-layer overhead
 * Fallback layers run on the fallback unit and add the boundary transfer and (de)quantization. */
#include "predict.h"

double pr_attainable(double ops, double bytes, double peak, double bandwidth)
{
    if (peak <= 0 || bandwidth <= 0) return 0;
    if (bytes <= 0) return peak;
    double mem = bandwidth * (ops / bytes);
    return mem < peak ? mem : peak;
}

static double safe_div(double a, double b)
{
    return b > 0 ? a / b : 0;
}

double pr_ddr_bw(const struct nnperf_prediction *p)
{
    return p->hw.ddr_bw * (p->hw.ddr_eff > 0 ? p->hw.ddr_eff : 1.0);
}

static void roofline_layer(struct nnperf_prediction *p, struct pr_layer *L)
{
    const struct hw_desc *hw = &p->hw;
    double peak = hw->peak_ops[p->dtype];
    double ddr = pr_ddr_bw(p);
    double ddr_bytes =
        L->w_bytes + L->load_bytes + L->store_bytes + L->spill_store_bytes + L->spill_load_bytes;
    int has_work = L->mac_ops > 0 || L->vec_ops > 0 || ddr_bytes > 0 || L->transfer_bytes > 0;
    if (L->fallback) {
        const struct hw_fallback *fb = &hw->fb;
        double rate = fb->peak_ops * (fb->efficiency > 0 ? fb->efficiency : 1.0);
        L->t_compute = safe_div(L->mac_ops + L->vec_ops, rate);
        L->t_memory = safe_div(ddr_bytes, fb->bandwidth);
        L->t_transfer = safe_div(L->transfer_bytes, fb->transfer_bw) +
                        safe_div(L->quant_elems * fb->quant_ops_per_elem, fb->peak_ops);
        L->t_overhead = has_work ? fb->overhead_s : 0;
    } else {
        double eff = hw_eff(hw, L->klass);
        double rate = peak * eff;
        double vrate = hw->vector_ops > 0 ? hw->vector_ops : rate;
        L->t_compute = safe_div(L->mac_ops_aligned, rate) + safe_div(L->vec_ops_aligned, vrate);
        double t_ddr = safe_div(ddr_bytes, ddr);
        double t_sram = safe_div(L->sram_bytes, hw->sram_bw);
        L->t_memory = t_ddr > t_sram ? t_ddr : t_sram;
        /* layers without arithmetic (copies: Concat, Transpose, Slice, ...): a class efficiency given by the
         * platform applies to their memory time (a copy reaches efficiency x bandwidth) */
        if (L->t_compute <= 0 && L->klass != OC_VIEW && L->klass >= 0 && L->klass < OC_COUNT &&
            hw->eff[L->klass] > 0)
            L->t_memory /= hw->eff[L->klass];
        L->t_transfer = 0;
        L->t_overhead = has_work ? hw->layer_overhead_s : 0;
    }
    double body =
        hw->overlap ? (L->t_compute > L->t_memory ? L->t_compute : L->t_memory) : L->t_compute + L->t_memory;
    L->t_total = body + L->t_transfer + L->t_overhead;
    if (!L->cost_known)
        L->bound = PB_UNKNOWN;
    else if (L->t_overhead > body && L->t_overhead >= L->t_transfer)
        L->bound = PB_OVERHEAD;
    else if (L->t_compute >= L->t_memory)
        L->bound = PB_COMPUTE;
    else
        L->bound = PB_MEMORY;
}

const struct pr_compute_model_row pr_compute_models[] = {
    [PR_COMPUTE_ROOFLINE] = {"roofline", roofline_layer},
};
const int pr_n_compute_models = (int)(sizeof pr_compute_models / sizeof pr_compute_models[0]);

enum nnperf_status pr_compute(struct nnperf_prediction *p)
{
    for (int l = 0; l < p->n_layers; l++) pr_compute_models[p->compute_model].layer_time(p, &p->layers[l]);
    return NNPERF_OK;
}
