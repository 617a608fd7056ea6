/* runrate.c - the stages after the schedule that turn one run into rates (docs/prediction.md, sections 5 and Power):
 *
 * throughput: every core busy with its own inference (cores / cores_per_inference in flight, each taking a whole
 * run with its per-run cost: published multi-thread numbers run one thread per core), as long as DDR and the host
 * link carry their traffic; which of the three limits is recorded.
 * power: with any power key, the energy of a run (static power over the latency plus each layer's dynamic energy)
 * and the average power. */
#include <math.h>

#include "predict.h"

enum nnperf_status pr_throughput(struct nnperf_prediction *p)
{
    double b = p->batch > 0 ? p->batch : 1;
    int cores = p->hw.cores > 0 ? p->hw.cores : 1;
    int per = p->hw.cores_per_inference > 0 && p->hw.cores_per_inference < cores ? p->hw.cores_per_inference
                                                                                 : cores;
    double fps = p->latency > 0 ? b / p->latency : 0;
    p->throughput_fps = fps * (cores / per);
    p->throughput_limit = PR_TP_CORES;
    double run_ddr = p->w_bytes + p->load_bytes + p->store_bytes + p->spill_bytes, link = 0;
    for (int l = 0; l < p->n_layers; l++) link += p->layers[l].link_bytes;
    if (run_ddr > 0 && pr_ddr_bw(p) * b / run_ddr < p->throughput_fps)
        p->throughput_fps = pr_ddr_bw(p) * b / run_ddr, p->throughput_limit = PR_TP_DDR;
    if (link > 0 && p->hw.link_bw * b / link < p->throughput_fps)
        p->throughput_fps = p->hw.link_bw * b / link, p->throughput_limit = PR_TP_LINK;
    return NNPERF_OK;
}

enum nnperf_status pr_power(struct nnperf_prediction *p)
{
    p->energy_per_run = NAN;
    if (!pr_has_power(&p->hw) || !(p->latency > 0)) return NNPERF_OK;
    double e = p->hw.static_w * p->latency; /* static power over the whole run */
    for (int l = 0; l < p->n_layers; l++) e += pr_layer_energy(p, &p->layers[l]);
    p->energy_per_run = e;
    return NNPERF_OK;
}
