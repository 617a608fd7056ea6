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
 * compute.dataflow.streaming: a frame's pass streams row by row (stream_pass below); the later frames as above.
 * calibration.time_scale (a user's calibration) multiplies every time of the run before the layout.
 * Before the first layer: the host stages of every frame (overhead.host_per_frame_s: pre-/post-processing on the
 * host CPU, in series with the run in one thread, with overhead.host_per_input_element_s per element of the graph's
 * inputs; overhead.host_serial_s, the part the threads cannot overlap, too)
 * and the per-call cost once per accelerator call (a batch on an accelerator that takes compute.frames_per_call
 * frames a call is that many calls). */
#include <math.h>
#include <stdlib.h>

#include "../ops/ops.h"
#include "predict.h"

double pr_calls(const struct nnperf_prediction *p)
{
    int f = p->hw->frames_per_call;
    return f > 0 && p->batch > f ? ceil((double)p->batch / f) : 1;
}

double pr_host_frame_s(const struct nnperf_prediction *p)
{
    double t = p->hw->host_frame_s;
    if (!(p->hw->host_elem_s > 0 || p->hw->host_out_elem_s > 0) || !p->g) return t;
    /* the elements of the graph's inputs (its initializers aside) and of its floating-point outputs in one execution
     * (an output the graph delivers quantized, an integer tensor, is not dequantized on the host) */
    double in = 0, out = 0;
    for (int i = 0; i < p->g->n_inputs; i++) {
        int64_t n = 0;
        if (!(p->g->inputs[i]->flags & IR_V_INIT) && ir_numel(p->g->inputs[i], &n) && n > 0) in += (double)n;
    }
    /* the outputs as the model declares them: lowering may put a quantized output's float source in its place */
    const struct ir_graph *og = p->an && p->an->g ? p->an->g : p->g;
    for (int i = 0; i < og->n_outputs; i++) {
        int64_t n = 0;
        if (ir_dtype_is_float(og->outputs[i]->dtype) && ir_numel(og->outputs[i], &n) && n > 0)
            out += (double)n;
    }
    double frames = p->graph_batch > 0 ? p->graph_batch : 1;
    return t + (p->hw->host_elem_s * in + p->hw->host_out_elem_s * out) / frames;
}

static double run_fixed_s(const struct nnperf_prediction *p)
{
    return p->hw->run_overhead_s * pr_calls(p) + (pr_host_frame_s(p) + p->hw->host_serial_s) * p->batch;
}

/* A dataflow layer's time per frame: its time less the per-run overhead (a fallback segment's call), which a run
 * pays once whatever its frames, in series with the pass */
static double pipe_frame_s(const struct pr_layer *L, double frames)
{
    double t =
        L->t_total - L->t_overhead; /* < 0 where overhead.per_layer_overlap hides the work in the overhead */
    return (t > 0 ? t : 0) / frames;
}

/* ---- compute.dataflow.streaming: a frame's pass row by row ----
 * A layer's output is H rows (dim 2 of a 4-D NCHW output; else one row: a vector), taken in at most STREAM_UNITS
 * units of whole rows, each unit taking its share of the layer's frame time. Unit u of layer l is done at
 *     max(unit u - 1 of l done, every producer unit it reads done) + l's frame time / units
 * (the per-run overhead before its first unit). The rows a unit reads: for a conv or a pool, the rows its window
 * reaches, r x stride + (kernel - 1) x dilation - pad (FINN's sliding-window generator emits output row r once it
 * holds those input rows); for an element-wise node of the same height, the same row; otherwise (a flatten, a matmul
 * over a vector, a global pool, a fallback layer) the whole input. */
enum { STREAM_UNITS = 256 };

static double stream_height(const struct ir_value *v)
{
    return pr_dims_known(v) && v->rank == 4 && v->dims[2].val > 0 ? (double)v->dims[2].val : 1;
}

/* units of a layer and the first output row past unit u */
static int stream_units(const struct pr_layer *L)
{
    double h = L->fallback ? 1 : stream_height(pr_layer_out(L));
    return h < STREAM_UNITS ? (int)h : STREAM_UNITS;
}

static double stream_row_end(const struct pr_layer *L, int units, int u)
{
    return ceil((u + 1) * (L->fallback ? 1 : stream_height(pr_layer_out(L))) / units);
}

/* the input row of nd's input k that output row r needs, or -1: the whole input */
static double stream_need(const struct ir_node *nd, int k, double r)
{
    const struct ir_value *x = nd->in[k], *y = nd->n_out > 0 ? nd->out[0] : NULL;
    if (!pr_dims_known(x) || !pr_dims_known(y) || x->rank != 4 || y->rank != 4) return -1;
    double hin = (double)x->dims[2].val, hout = (double)y->dims[2].val;
    int klass = nd->op >= 0 ? op_table[nd->op].klass : OC_OTHER;
    if (k == 0 && (nd->op == OPID_CONV || nd->op == OPID_MAX_POOL || nd->op == OPID_AVERAGE_POOL)) {
        const struct ir_attr *ks = pr_attr(nd, "kernel_shape"), *st = pr_attr(nd, "strides"),
                             *dl = pr_attr(nd, "dilations"), *pd = pr_attr(nd, "pads");
        const struct ir_value *w = nd->op == OPID_CONV && nd->n_in > 1 ? nd->in[1] : NULL;
        double kh = ks && ks->n > 0                    ? (double)ks->ints[0]
                    : pr_dims_known(w) && w->rank == 4 ? (double)w->dims[2].val
                                                       : -1;
        if (kh < 1) return -1;
        double s = st && st->n > 0 ? (double)st->ints[0] : 1, d = dl && dl->n > 0 ? (double)dl->ints[0] : 1;
        double pad = pd && pd->n > 0 ? (double)pd->ints[0] : 0;
        double need = r * s + (kh - 1) * d - pad;
        return need < 0 ? 0 : need > hin - 1 ? hin - 1 : need;
    }
    if ((klass == OC_ACT || klass == OC_ELTWISE || klass == OC_NORM || klass == OC_QUANT ||
         nd->op == OPID_IDENTITY) &&
        hin == hout)
        return r;
    if ((klass == OC_ELTWISE || klass == OC_QUANT) && hin == 1) return 0; /* a broadcast operand */
    return -1;
}

/* the layer of the activation v (through nodes lowered away or folded), or -1: a graph input or a constant */
static int stream_producer(const struct nnperf_prediction *p, const struct ir_value *v)
{
    for (int guard = 0; v && !v->is_const && v->producer && guard <= p->g->n_nodes; guard++) {
        const struct ir_node *nd = v->producer;
        if (nd->index < 0 || nd->index >= p->g->n_nodes) return -1;
        if (!p->node_in[nd->index].gone && p->layer_of[nd->index] >= 0) return p->layer_of[nd->index];
        v = nd->n_in > 0 ? nd->in[0] : NULL;
    }
    return -1;
}

/* When unit u of layer l may start: the latest done time of the producer units its last row reads (t0 for graph
 * inputs). need[] is scratch of the layer's node count: the last row of each node's output the unit needs; pos[]
 * (by node index) each node's position in layer l. */
static double stream_ready(const struct nnperf_prediction *p, int l, int u, const double *done,
                           const int *off, double t0, double *need, const int *pos)
{
    const struct pr_layer *L = &p->layers[l];
    int units = stream_units(L);
    for (int i = 0; i < L->n_nodes; i++) need[i] = -2; /* not needed */
    if (L->n_nodes > 0) need[L->n_nodes - 1] = L->fallback ? -1 : stream_row_end(L, units, u) - 1;
    double ready = t0;
    for (int i = L->n_nodes - 1; i >= 0; i--) {
        const struct ir_node *nd = L->nodes[i];
        if (need[i] == -2) continue;
        for (int k = 0; k < nd->n_in; k++) {
            const struct ir_value *v = nd->in[k];
            if (!v || v->is_const) continue;
            double r = need[i] < 0 || L->fallback ? -1 : stream_need(nd, k, need[i]);
            int x = v->producer ? v->producer->index : -1;
            int j = x >= 0 && x < p->g->n_nodes && p->layer_of[x] == l && pos[x] < i ? pos[x] : -1;
            if (j >= 0) {
                need[j] = need[j] == -1 || r < 0 ? -1 : fmax(need[j], r);
                continue;
            }
            int q = stream_producer(p, v);
            if (q < 0 || q >= l) continue;
            const struct pr_layer *Q = &p->layers[q];
            int qu = stream_units(Q), w = qu - 1;
            if (r >= 0 && !Q->fallback) {
                double h = stream_height(pr_layer_out(Q));
                w = (int)floor(fmin(r, h - 1) * qu / h);
            }
            ready = fmax(ready, done[off[q] + w]);
        }
    }
    return ready;
}

/* The pass of one frame through a streaming dataflow pipeline from t0: each layer's start and the end of its
 * frame (end), the pass's end returned; -1 when out of memory */
static double stream_pass(struct nnperf_prediction *p, double t0, double frames)
{
    int n = p->n_layers, cap_nodes = 1;
    int *off = malloc(sizeof *off * (size_t)(n + 1));
    if (off) off[0] = 0;
    for (int l = 0; off && l < n; l++) {
        off[l + 1] = off[l] + stream_units(&p->layers[l]);
        if (p->layers[l].n_nodes > cap_nodes) cap_nodes = p->layers[l].n_nodes;
    }
    double *done = off ? malloc(sizeof *done * (size_t)(off[n] > 0 ? off[n] : 1)) : NULL;
    double *need = malloc(sizeof *need * (size_t)cap_nodes), end = t0;
    int *pos = malloc(sizeof *pos * (size_t)(p->g->n_nodes > 0 ? p->g->n_nodes : 1));
    if (!off || !done || !need || !pos) {
        free(off), free(done), free(need), free(pos);
        return -1;
    }
    for (int l = 0; l < n; l++) {
        struct pr_layer *L = &p->layers[l];
        int units = stream_units(L);
        for (int i = 0; i < L->n_nodes; i++)
            if (L->nodes[i]->index >= 0 && L->nodes[i]->index < p->g->n_nodes) pos[L->nodes[i]->index] = i;
        double per = pipe_frame_s(L, frames) / units, c = t0;
        for (int u = 0; u < units; u++) {
            double ready = stream_ready(p, l, u, done, off, t0, need, pos);
            if (u == 0) L->start = fmax(c, ready);
            c = fmax(c, ready) + per + (u == 0 ? L->t_overhead : 0);
            done[off[l] + u] = c;
        }
        L->end = c;
        end = fmax(end, c);
    }
    free(off), free(done), free(need), free(pos);
    return end;
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
    double t0 = t;
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
    if (pipe && p->hw->df_streaming) {
        double end = stream_pass(p, t0, frames);
        if (end < 0) return diag_set(&p->d, NNPERF_E_NOMEM, "out of memory");
        for (int l = 0; l < p->n_layers; l++) p->layers[l].end += rest;
        p->latency = end + rest;
    }
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
