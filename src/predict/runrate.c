/* runrate.c - the stages after the schedule that turn one run into rates (docs/prediction.md, sections 5 and Power):
 *
 * throughput: as many threads as it takes to keep every unit busy (published multi-thread numbers run more threads
 * than cores). Each core runs an inference of its own (cores / cores_per_inference in flight), each taking a whole
 * run with its per-call cost; the inferences in flight share the DDR, so each layer's memory time grows by their
 * number (where each core reaches less than the whole DDR alone, memory.core_bandwidth, by as much as their cores
 * together ask more than the DDR gives); the host stages of the frames (pre-/post-processing) run beside them on the
 * host cores, except their serial part (overhead.host_serial_s), which passes one frame at a time; and DDR and the
 * host link must carry the traffic. Which limit binds is recorded: cores (perfect scaling), shared DDR, host CPU or
 * host link.
 * With N application threads (nnperf_predict_options.streams), each running one run after another (the DNNDK
 * samples' loop, hrt_model_exec --thread_num N), at most N runs finish per one-thread latency, and where a host stage
 * no two threads overlap (overhead.host_serial_s) each thread's run also waits for the other N - 1 threads' serial
 * parts: N x frames / (latency + (N - 1) x serial part of a run), when that is below the saturated throughput (limit
 * "application threads").
 * power: with any power key, the energy of a run (static power over the latency plus each layer's dynamic energy)
 * and the average power. */
#include <math.h>

#include "predict.h"

const char *const pr_tp_limit_names[] = {"accelerator cores", "shared DDR", "host link", "host CPU",
                                         "application threads"};

/* the accelerator's time of one run when n inferences run at once on cores of their own and share the DDR: each
 * layer's memory time g times as long (g = n, or with memory.core_bandwidth what n inferences' cores ask of the
 * shared DDR, at least 1), combined with its compute as the layer's own time was */
static double shared_ddr_run_s(const struct nnperf_prediction *p, int n, double alone)
{
    double shared_bw = pr_ddr_bw(p);
    double g = shared_bw > 0 ? fmax(1, n * pr_layer_ddr_bw(p) / shared_bw) : n;
    if (n <= 1 || pr_memory_models[p->memory_model].schedule == PR_SCHED_OVERLAPPED ||
        p->compute_model == PR_COMPUTE_KERNELS) {
        if (n <= 1) return alone;
        double tc = 0,
               tm = 0; /* one roofline point for the whole run, or compute and memory added (kernels) */
        for (int l = 0; l < p->n_layers; l++) tc += p->layers[l].t_compute, tm += p->layers[l].t_memory;
        double before = p->compute_model == PR_COMPUTE_KERNELS ? tc + tm : fmax(tc, tm);
        double after = p->compute_model == PR_COMPUTE_KERNELS ? tc + g * tm : fmax(tc, g * tm);
        return before > 0 ? alone + (after - before) : alone;
    }
    double t = alone;
    for (int l = 0; l < p->n_layers; l++) {
        struct pr_layer shared = p->layers[l];
        shared.t_memory *= g;
        t += pr_body(p, &shared, shared.t_compute) - pr_body(p, &p->layers[l], p->layers[l].t_compute);
    }
    return t;
}

enum nnperf_status pr_throughput(struct nnperf_prediction *p)
{
    double b = p->batch > 0 ? p->batch : 1;
    double ts = p->hw->cal_time_scale > 0 ? p->hw->cal_time_scale : 1;
    int cores = p->hw->cores > 0 ? p->hw->cores : 1;
    int per = pr_inference_cores(p->hw);
    int n = cores / per;
    double host = pr_host_frame_s(p) * b * ts;     /* the host stages of the run's frames */
    double serial = p->hw->host_serial_s * b * ts; /* the part of them no two threads overlap */
    /* the accelerator's part of one run; a dataflow pipeline's runs follow each other at its slowest layer's pace */
    double alone = p->pipe_s > 0 ? p->pipe_s * b : p->latency - host - serial;
    double shared = shared_ddr_run_s(p, n, alone); /* the same with n inferences sharing the DDR */
    p->throughput_fps = shared > 0 ? n * b / shared : 0;
    p->throughput_limit = shared > alone * 1.01 ? PR_TP_DDR : PR_TP_CORES;
    int hc = p->hw->host_cores > 0 ? p->hw->host_cores : 1;
    if (host > 0 && hc * b / host < p->throughput_fps)
        p->throughput_fps = hc * b / host, p->throughput_limit = PR_TP_HOST;
    if (serial > 0 && b / serial < p->throughput_fps) /* one frame at a time through the serial stage */
        p->throughput_fps = b / serial, p->throughput_limit = PR_TP_HOST;
    double run_ddr = p->w_bytes + p->load_bytes + p->store_bytes + p->spill_bytes, link = 0;
    for (int l = 0; l < p->n_layers; l++) link += pr_lx(&p->layers[l])->link_bytes;
    if (run_ddr > 0 && pr_ddr_bw(p) * b / run_ddr < p->throughput_fps)
        p->throughput_fps = pr_ddr_bw(p) * b / run_ddr, p->throughput_limit = PR_TP_DDR;
    if (link > 0 && p->hw->link_bw * b / link < p->throughput_fps)
        p->throughput_fps = p->hw->link_bw * b / link, p->throughput_limit = PR_TP_LINK;
    if (p->streams > 0) { /* N threads, each waiting for the other threads' serial parts */
        double n_s = p->streams, t = n_s * b / (p->latency + (n_s - 1) * serial);
        if (t < p->throughput_fps) p->throughput_fps = t, p->throughput_limit = PR_TP_STREAMS;
    }
    return NNPERF_OK;
}

enum nnperf_status pr_power(struct nnperf_prediction *p)
{
    p->energy_per_run = NAN;
    if (!pr_has_power(p->hw) || !(p->latency > 0)) return NNPERF_OK;
    double e = p->hw->static_w * p->latency; /* static power over the whole run */
    for (int l = 0; l < p->n_layers; l++) e += pr_layer_energy(p, &p->layers[l]);
    p->energy_per_run = e;
    return NNPERF_OK;
}
