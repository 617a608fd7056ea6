/* roofline.c - time of each layer by the roofline model (Williams, Waterman, Patterson, "Roofline", CACM 2009;
 * QuTiBench, seed 001; the theoretical-performance note, seed 002):
 *   compute = aligned MAC ops / (peak[dtype] x efficiency[class]) + other ops / vector rate
 *   memory  = max(DDR bytes / (DDR bandwidth x DDR efficiency), on-chip bytes / SRAM bandwidth)
 *   time    = max(compute, memory) when loads overlap compute, else their sum; + per-layer overhead
 * Fallback layers run on the fallback unit and add the boundary transfer and (de)quantization. */
#include "predict.h"

double perf_attainable(double ops, double bytes, double peak, double bandwidth)
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

void perf_roofline(struct nnperf_prediction *p)
{
    const struct hw_desc *hw = &p->hw;
    double peak = hw->peak_ops[p->dtype];
    double ddr = hw->ddr_bw * (hw->ddr_eff > 0 ? hw->ddr_eff : 1.0);
    for (int l = 0; l < p->n_layers; l++) {
        struct pr_layer *L = &p->layers[l];
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
        double body = hw->overlap ? (L->t_compute > L->t_memory ? L->t_compute : L->t_memory)
                                  : L->t_compute + L->t_memory;
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
    if (p->memory_model == 1) {
        /* weights-only: the whole model is one roofline point (QuTiBench): latency = max(sum of compute, sum of
         * weight traffic); layer times are scaled to add up to it */
        double tc = 0, tm = 0, sum = 0;
        for (int l = 0; l < p->n_layers; l++) {
            tc += p->layers[l].t_compute;
            tm += p->layers[l].t_memory;
            sum += p->layers[l].t_total;
        }
        double lat = (tc > tm ? tc : tm);
        for (int l = 0; l < p->n_layers; l++) {
            struct pr_layer *L = &p->layers[l];
            L->t_total = sum > 0 ? L->t_total * lat / sum : 0;
        }
    }
}
