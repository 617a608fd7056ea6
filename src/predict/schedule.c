/* schedule.c - stage 5: when each layer runs. The memory model chooses the schedule (memory.c):
 *
 * sequential: layers run one after another in graph order; each layer's active period is [start, end); the run's
 * latency is the end of the last layer (a real compiler overlaps neighbouring layers; docs/prediction.md).
 * overlapped: the whole model is one roofline point (QuTiBench, docs/sources.md [QUTIBENCH]): latency = max(sum of
 * compute, sum of memory time); layer times are scaled to add up to it, then laid out one after another.
 * grouped: as sequential, but the layers of a depth-first group (tiled memory model) interleave tile by tile, so each
 * is active over the whole group's span (HBDK's overlapping "active period of time").
 * dataflow (compute.dataflow, a FINN accelerator): every layer has an engine of its own and all stream at once; a
 * frame passes the layers one after another, the next frame follows at the pace of the slowest, so a run of B frames
 * takes the sum of the layers' times per frame plus B - 1 times the slowest (pipe_s), and a layer's per-run overhead
 * (a fallback segment's call) once; layer l is active from its first frame's start to its last frame's end.
 * compute.dataflow.fill < 1: a frame's pass takes the slowest layer's frame time and that share of each other layer's
 * (a layer starts on its predecessor's first outputs).
 * calibration.time_scale (a user's calibration) multiplies every time of the run before the layout.
 * Before the first layer: the host stages of every frame (overhead.host_per_frame_s: pre-/post-processing on the
 * host CPU, in series with the run in one thread; overhead.host_serial_s, the part the threads cannot overlap, too)
 * and the per-call cost once per accelerator call (a batch on an accelerator that takes compute.frames_per_call
 * frames a call is that many calls). */
#include <math.h>

#include "predict.h"

double pr_calls(const struct nnperf_prediction *p)
{
    int f = p->hw->frames_per_call;
    return f > 0 && p->batch > f ? ceil((double)p->batch / f) : 1;
}

static double run_fixed_s(const struct nnperf_prediction *p)
{
    return p->hw->run_overhead_s * pr_calls(p) + (p->hw->host_frame_s + p->hw->host_serial_s) * p->batch;
}

/* A dataflow layer's time per frame: its time less the per-run overhead (a fallback segment's call), which a run
 * pays once whatever its frames, in series with the pass */
static double pipe_frame_s(const struct pr_layer *L, double frames)
{
    return (L->t_total - L->t_overhead) / frames;
}

enum nnperf_status pr_schedule(struct nnperf_prediction *p)
{
    if (pr_memory_models[p->memory_model].schedule == PR_SCHED_OVERLAPPED) {
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
    /* a calibrated time scale (calibration.time_scale) applies to every time of the run */
    double k = p->hw->cal_time_scale > 0 ? p->hw->cal_time_scale : 1;
    if (k != 1)
        for (int l = 0; l < p->n_layers; l++) {
            struct pr_layer *L = &p->layers[l];
            L->t_compute *= k, L->t_memory *= k, L->t_overhead *= k, L->t_total *= k;
            if (L->x) L->x->t_transfer *= k;
        }
    double t = run_fixed_s(p) * k; /* the host stages and the per-call cost come first */
    int pipe = p->hw->dataflow_hz > 0;
    double frames = p->batch > 0 ? p->batch : 1;
    p->pipe_s = 0;
    int slowest = -1;
    for (int l = 0; pipe && l < p->n_layers; l++)
        if (pipe_frame_s(&p->layers[l], frames) > p->pipe_s)
            p->pipe_s = pipe_frame_s(&p->layers[l], frames), slowest = l;
    double rest = pipe ? (frames - 1) * p->pipe_s : 0; /* the later frames, behind the slowest layer */
    /* compute.dataflow.fill: a frame's pass takes the slowest layer's frame time and that share of the others' */
    double fill = pipe && p->hw->df_fill < 1 ? p->hw->df_fill : 1;
    p->mac_ops = p->vec_ops = p->w_bytes = p->load_bytes = p->store_bytes = p->spill_bytes = 0;
    for (int l = 0; l < p->n_layers; l++) {
        struct pr_layer *L = &p->layers[l];
        L->start = t;
        t += !pipe ? L->t_total : (l == slowest ? 1 : fill) * pipe_frame_s(L, frames) + L->t_overhead;
        L->end = t + rest;
        p->mac_ops += L->mac_ops;
        p->vec_ops += L->vec_ops;
        p->w_bytes += L->w_bytes;
        p->load_bytes += L->load_bytes;
        p->store_bytes += L->store_bytes;
        p->spill_bytes += pr_lx(L)->spill_store_bytes + pr_lx(L)->spill_load_bytes;
    }
    p->latency = t + rest;
    if (pr_memory_models[p->memory_model].schedule == PR_SCHED_GROUPED)
        for (int a = 0, b; a < p->n_layers; a = b) {
            for (b = a + 1; b < p->n_layers && p->layers[b].group == p->layers[a].group; b++) {
            }
            for (int l = a; l < b; l++) {
                p->layers[l].start = p->layers[a].start;
                p->layers[l].end = p->layers[b - 1].end;
            }
        }
    return NNPERF_OK;
}
