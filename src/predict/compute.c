/* compute.c - stage 4, the compute model: how long each layer takes. One function per model and one row in
 * pr_compute_models (indexed by enum pr_compute_model).
 *
 * "roofline" (Williams, Waterman, Patterson, "Roofline", CACM 2009; docs/sources.md [ROOFLINE], [QUTIBENCH]):
 *   compute = aligned MAC ops / (peak[dtype] x efficiency[class]) + other ops / vector rate
 *   memory  = max(DDR bytes / (DDR bandwidth x DDR efficiency), on-chip bytes / SRAM bandwidth)
 *   time    = max(compute, memory) when loads overlap compute, else their sum; + per-layer overhead
 *   (overhead.per_layer_overlap: max(that time, per-layer overhead), the launch hidden behind the previous layer)
 *   (overhead.per_layer_class_s: the per-layer overhead by the layer's operator class)
 *   (compute.bias_kernel: a convolution with a bias adds one more per-layer overhead and a pass reading and writing
 *   its output where that goes to DDR: 2 x stored bytes / DDR bandwidth)
 * Fallback layers run on the fallback unit and add the boundary transfer and (de)quantization.
 *
 * "array" (the platform describes the MAC array's lanes for the dtype, hw.h struct hw_array; docs/prediction.md):
 *   utilization = prod over (reduction, output channels, output pixels) of dim / round_up(dim, lanes)
 *   mac         = aligned MAC ops / (peak per inference x efficiency[class] x utilization)
 *   vector      = vector work / vector rate (activations fused into a MAC layer are free: they run in its
 *                 output stage; element-wise Add/Mul and standalone layers use the vector unit)
 *   strided     = a strided conv's input bytes / strided_input_bandwidth (re-laid out before the conv)
 *   compute     = max(mac, vector) + strided; time = max(compute, memory) + overhead as in the roofline.
 * "kernels" (a CPU's kernels; the platform gives compute.kernel_costs, which `nnperf calibrate` fits):
 *   mac     = MAC ops / (peak x efficiency): the class's, depthwise convs theirs, convs with at most 4 input
 *             channels per group compute.kernel_costs.narrow_input_efficiency
 *   compute = mac + output elements x output_s + non-Relu fused activation elements x activation_pass_s (MAC
 *             layers); elements read and written x element_s (other layers; reshapes move nothing)
 *   time    = compute + weight bytes / DDR bandwidth + per-layer overhead
 * "dataflow" (a FINN accelerator; the platform gives compute.dataflow; docs/prediction.md, Dataflow accelerators):
 *   a conv/matmul layer runs on an engine of its own folded to PE output channels x SIMD reduction elements per
 *   cycle (FINN's matrix-vector unit; a depthwise conv's: channels x kernel taps):
 *   compute = groups x ceil(channels / PE) x ceil(reduction / SIMD) x output pixels / clock; every other layer and
 *   the memory time as in the roofline. The schedule streams all layers at once (schedule.c).
 * The peak per inference is peak_ops x cores_per_inference / cores (all cores unless the platform says one inference runs on fewer:
 * splits layers across cores), or peak_ops x parallel_speedup / cores where the platform says its cores reach less
 * together than their number. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

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
    return p->hw->ddr_bw * (p->hw->ddr_eff > 0 ? p->hw->ddr_eff : 1.0);
}

int pr_inference_cores(const struct hw_desc *hw)
{
    int cores = hw->cores > 0 ? hw->cores : 1;
    return hw->cores_per_inference > 0 && hw->cores_per_inference < cores ? hw->cores_per_inference : cores;
}

/* The threads one inference runs on: the cores of one inference where the platform's cores are a CPU runtime's
 * threads (compute.threaded; nnperf_predict_options.threads sets them), else 1 (no thread model). */
static int pr_threads(const struct nnperf_prediction *p)
{
    return p->hw->threaded ? pr_inference_cores(p->hw) : 1;
}

double pr_layer_ddr_bw(const struct nnperf_prediction *p)
{
    double bw = pr_ddr_bw(p);
    if (!(p->hw->core_bw > 0)) return bw;
    /* the cores of one inference: a CPU runtime's threads (compute.threaded), or an accelerator's cores of one
     * inference, each reaching the DDR through its own ports (a Zynq DPU core's two AXI data ports, [PG338]) */
    double t = pr_inference_cores(p->hw) * p->hw->core_bw;
    return t < bw ? t : bw;
}

/* one kernel's fixed cost for a layer of class k: overhead.per_layer_class_s where it lists the class (a depthwise
 * conv: the grouped conv's, then the conv's, as compute.efficiency), else overhead.per_layer_s */
static double class_overhead(const struct hw_desc *hw, int k)
{
    if (k >= 0 && k < OC_COUNT && hw->layer_class_s[k] >= 0) return hw->layer_class_s[k];
    if (k == OC_CONV_DEPTHWISE) return class_overhead(hw, OC_CONV_GROUPED);
    if (k == OC_CONV_GROUPED) return class_overhead(hw, OC_CONV);
    return hw->layer_overhead_s;
}

/* a fixed cost per kernel in a run: once per frame where the runtime runs a batch frame by frame
 * (compute.frame_serial), else once per accelerator call (compute.frames_per_call) */
static double per_run_of(const struct nnperf_prediction *p, double per)
{
    /* overhead.thread_sync_s: the barrier that ends a layer run on 2 or more threads */
    if (pr_threads(p) > 1) per += p->hw->thread_sync_s;
    return per * (p->hw->frame_serial && p->runs > 1 ? p->runs : pr_calls(p));
}

/* a layer's fixed cost in a run: its class's per-kernel cost (class_overhead) */
static double layer_overhead(const struct nnperf_prediction *p, const struct pr_layer *L)
{
    return per_run_of(p, class_overhead(p->hw, L->klass));
}

/* compute.thread_tile: the fraction of a layer's threads kept busy when the channels of its 4-D (NCHW) output split
 * over them in tiles of that many channels (ncnn, docs/sources.md [NCNN-CONV]): u tiles on T threads take
 * ceil(u / T) tiles' time; 1 with one thread, no tile, no known channel count or another rank (a transformer's
 * rows and heads: an even split) */
static double thread_busy(const struct nnperf_prediction *p, const struct pr_layer *L)
{
    int t = pr_threads(p);
    const struct ir_value *y = pr_layer_out(L);
    if (t <= 1 || !(p->hw->thread_tile > 0) || !y || y->rank != 4 || y->dims[1].val <= 0) return 1.0;
    double u = ceil((double)y->dims[1].val / p->hw->thread_tile);
    return u / (ceil(u / t) * t);
}

/* overhead.per_weight_s: the runtime converts every weight element of an accelerator layer to its own layout once
 * per run (a software bit-serial runtime packing its weight matrices into bit planes), whatever the batch */
static double weight_prep(const struct nnperf_prediction *p, const struct pr_layer *L)
{
    return L->fallback ? 0 : p->hw->weight_prep_s * L->params;
}

/* how many times one core's rate the cores of one inference reach together: compute.parallel_speedup, or their
 * number */
static double inference_speedup(const struct hw_desc *hw)
{
    int per = pr_inference_cores(hw);
    return hw->par_speedup > 0 && hw->par_speedup < per ? hw->par_speedup : per;
}

/* The cores of one inference's share of an all-cores rate. */
static double inference_rate(const struct hw_desc *hw, double all_cores)
{
    int cores = hw->cores > 0 ? hw->cores : 1;
    return all_cores * inference_speedup(hw) / cores;
}

/* The rate of a layer's MACs: the peak at its own dtype (pr_layer.dtype), or the TF32 rate where the runtime runs
 * that FP32 layer's class as TF32 (compute.tf32_ops) */
static double layer_peak(const struct nnperf_prediction *p, const struct pr_layer *L)
{
    const struct hw_desc *hw = p->hw;
    if (hw_tf32(hw, L->dtype, L->klass)) return inference_rate(hw, hw->tf32_ops);
    return L->dtype >= 0 && L->dtype < HW_NDT ? inference_rate(hw, hw->peak_ops[L->dtype]) : 0;
}

double pr_peak(const struct nnperf_prediction *p)
{
    return inference_rate(p->hw, hw_dtype_peak(p->hw, p->dtype));
}

/* time on the fallback unit */
static void fallback_layer(struct nnperf_prediction *p, struct pr_layer *L, double ddr_bytes, int has_work)
{
    const struct hw_fallback *fb = &p->hw->fb;
    double rate = fb->peak_ops * (fb->efficiency > 0 ? fb->efficiency : 1.0);
    L->t_compute = safe_div(L->mac_ops + L->vec_ops, rate);
    L->t_memory = safe_div(ddr_bytes, fb->bandwidth);
    const struct pr_layer_x *x = pr_lx(L);
    double tt = safe_div(x->transfer_bytes, fb->transfer_bw) +
                safe_div(x->quant_elems * fb->quant_ops_per_elem, fb->peak_ops);
    if (tt != 0 || L->x) pr_lx_make(p, L)->t_transfer = tt;
    L->t_overhead = has_work ? fb->overhead_s : 0;
}

static double ddr_bytes_of(const struct pr_layer *L)
{
    return L->w_bytes + L->load_bytes + L->store_bytes + pr_lx(L)->spill_store_bytes +
           pr_lx(L)->spill_load_bytes;
}

enum pr_memory pr_memory_bound(const struct nnperf_prediction *p, const struct pr_layer *L, double *bytes,
                               double *bw)
{
    if (L->fallback) {
        *bytes = ddr_bytes_of(L), *bw = p->hw->fb.bandwidth;
        return PM_DDR;
    }
    double b[3] = {ddr_bytes_of(L), L->sram_bytes, pr_lx(L)->link_bytes};
    double w[3] = {pr_layer_ddr_bw(p), p->hw->sram_bw, p->hw->link_bw};
    int k = PM_DDR; /* the slowest of the three; DDR on a tie */
    for (int m = PM_SRAM; m <= PM_LINK; m++)
        if (safe_div(b[m], w[m]) > safe_div(b[k], w[k])) k = m;
    /* none takes time (on-chip traffic at an unlimited bandwidth): the first that moves bytes */
    for (int m = PM_DDR; m <= PM_LINK && safe_div(b[k], w[k]) <= 0 && b[k] <= 0; m++) k = m;
    *bytes = b[k], *bw = w[k];
    return (enum pr_memory)k;
}

/* memory time on the accelerator: DDR (and the host link), or on-chip traffic when that is slower */
static double memory_time(const struct nnperf_prediction *p, const struct pr_layer *L)
{
    double bytes, bw;
    pr_memory_bound(p, L, &bytes, &bw);
    return safe_div(bytes, bw);
}

/* total and bound from the parts */
double pr_body(const struct nnperf_prediction *p, const struct pr_layer *L, double t_compute)
{
    unsigned scope = p->hw->overlap_exp_classes;
    int in_scope = !scope || (L->klass >= 0 && L->klass < OC_COUNT && (scope & (1u << L->klass)));
    if (p->hw->overlap && p->hw->overlap_exp > 0 && in_scope && t_compute > 0 && L->t_memory > 0) {
        /* partial overlap near the ridge point: (compute^k + memory^k)^(1/k), scaled by the larger part */
        double hi = t_compute > L->t_memory ? t_compute : L->t_memory, k = p->hw->overlap_exp;
        return hi * pow(pow(t_compute / hi, k) + pow(L->t_memory / hi, k), 1 / k);
    }
    if (p->hw->overlap) return t_compute > L->t_memory ? t_compute : L->t_memory;
    /* without overlap, the activations a layer loads and stores add to its compute (a CPU writes and re-reads its
     * tensors around each kernel) while its weights still stream alongside (sequential, prefetched) */
    double tw = L->fallback ? 0 : safe_div(L->w_bytes, pr_layer_ddr_bw(p));
    if (tw > L->t_memory) tw = L->t_memory;
    double t = t_compute + (L->t_memory - tw);
    return t > tw ? t : tw;
}

static void finish(const struct nnperf_prediction *p, struct pr_layer *L)
{
    double body = pr_body(p, L, L->t_compute);
    double t_transfer = pr_lx(L)->t_transfer;
    /* overhead.per_layer_overlap: the launch runs while the previous layer works, so a layer takes the longer of its
     * work and its launch interval (a layer shorter than its launch still waits for it) */
    L->t_total =
        p->hw->layer_overlap ? fmax(body + t_transfer, L->t_overhead) : body + t_transfer + L->t_overhead;
    if (!L->cost_known)
        L->bound = PB_UNKNOWN;
    else if (L->t_overhead > body && L->t_overhead >= t_transfer)
        L->bound = PB_OVERHEAD;
    else if (L->t_compute >= L->t_memory)
        L->bound = PB_COMPUTE;
    else
        L->bound = PB_MEMORY;
}

static int has_work(const struct pr_layer *L)
{
    return L->mac_ops > 0 || L->vec_ops > 0 || ddr_bytes_of(L) > 0 || pr_lx(L)->transfer_bytes > 0 ||
           pr_lx(L)->link_bytes > 0;
}

/* the time a kernel of layer L takes to move elems elements of the layer's dtype in every frame of the run at a
 * measured rate (bytes/s; 0: no time) */
static double rate_time(const struct nnperf_prediction *p, const struct pr_layer *L, double elems,
                        double rate)
{
    return safe_div(elems * pr_elem_bytes_at(p, L->dtype, 0) * p->runs, rate);
}

/* compute.bias_kernel: a convolution's bias added by a kernel of its own after it (PyTorch's cuDNN path: cuDNN's
 * convolution takes no bias, docs/sources.md [PYTORCH-CONV]): one more per-layer cost and a pass that reads and
 * writes the output where it goes to DDR (on chip it costs the launch only), counted in the layer's overhead; with
 * compute.bias_kernel_bandwidth the pass reads and writes the whole output at that rate wherever it is kept */
static double bias_pass(const struct nnperf_prediction *p, const struct pr_layer *L)
{
    const struct ir_node *c = L->main;
    if (!p->hw->bias_kernel || L->fallback || !c || (c->op != OPID_CONV && c->op != OPID_CONV_TRANSPOSE) ||
        c->n_in < 3 || !c->in[2])
        return 0;
    int64_t n;
    const struct ir_value *out = pr_layer_out(L);
    /* compute.bias_kernel_s: the bias kernel's own fixed cost (PyTorch's BatchNorm: three kernels) */
    double fixed = p->hw->bias_kernel_s > 0 ? per_run_of(p, p->hw->bias_kernel_s) : layer_overhead(p, L);
    if (p->hw->bias_kernel_bw > 0 && out && ir_numel(out, &n))
        return fixed + rate_time(p, L, 2 * (double)n, p->hw->bias_kernel_bw);
    return fixed + safe_div(2 * (L->store_bytes + pr_lx(L)->spill_store_bytes), pr_layer_ddr_bw(p));
}

/* Whether reading the Transpose t's output as shape (dims[0..rank)) merges two of its axes longer than 1 that are
 * not next to each other in memory (PyTorch's reshape of a permuted view then copies: it cannot stride over them).
 * The output's axes are walked beside the view's in runs of equal products; in a run, consecutive axes of the view
 * longer than 1 must come from consecutive axes of t's input (its perm: reversed when absent). */
static int merges_strided(const struct ir_node *t, const int64_t *dims, int rank)
{
    const struct ir_value *x = t->n_in > 0 ? t->in[0] : NULL, *v = t->n_out > 0 ? t->out[0] : NULL;
    if (!x || !v || x->rank != v->rank || x->rank <= 1 || x->rank > 16) return 0;
    const struct ir_attr *a = pr_attr(t, "perm");
    int n = v->rank, perm[16];
    for (int i = 0; i < n; i++) {
        int64_t ax = a && a->n == n ? a->ints[i] : n - 1 - i;
        if (ax < 0 || ax >= n || v->dims[i].val <= 0) return 0;
        perm[i] = (int)ax;
    }
    int i = 0, j = 0;
    while (i < n && j < rank) {
        double pi = (double)v->dims[i].val, pj = (double)dims[j];
        int i0 = i++;
        j++;
        while (pi != pj && (i < n || j < rank)) {
            if (pi < pj && i < n)
                pi *= (double)v->dims[i++].val;
            else if (j < rank)
                pj *= (double)dims[j++];
            else
                return 0;
        }
        int prev = -1; /* the input axis of the last axis longer than 1 in this run */
        for (int k = i0; k < i; k++) {
            if (v->dims[k].val == 1) continue;
            if (prev >= 0) {
                for (int q = prev + 1; q < perm[k]; q++)
                    if (x->dims[q].val != 1) return 1;
                if (perm[k] < prev) return 1;
            }
            prev = perm[k];
        }
    }
    return 0;
}

/* compute.copy_bandwidth: a permuted view (a Transpose of compute.view_ops) read by a node that needs its tensor
 * contiguous is copied first by a kernel of its own: one more per-layer cost and 2 x the tensor's bytes at that
 * rate, wherever the plan keeps it (PyTorch's .contiguous()). Those nodes: a Reshape or Flatten that merges axes
 * the view does not hold next to each other in memory (torch.reshape copies where it cannot view,
 * docs/sources.md [PYTORCH-VIEWS]) and a LayerNorm or ReduceMean (their kernels read contiguous memory,
 * [PYTORCH-LAYERNORM]). Counted on the layer that reads the view, once. */
static double contiguous_copy(const struct nnperf_prediction *p, const struct pr_layer *L)
{
    const struct hw_desc *hw = p->hw;
    if (!(hw->copy_bw > 0) || L->fallback || !hw_is_view(hw, "Transpose")) return 0;
    for (int i = 0; i < L->n_nodes; i++) {
        const struct ir_node *nd = L->nodes[i];
        const struct ir_value *x = nd->n_in > 0 ? nd->in[0] : NULL, *y = nd->n_out > 0 ? nd->out[0] : NULL;
        const struct ir_node *t = x ? x->producer : NULL;
        int64_t n, d[16];
        if (!t || t->op != OPID_TRANSPOSE || !ir_numel(x, &n)) continue;
        int copy = nd->op == OPID_REDUCE_MEAN || nd->op == OPID_LAYER_NORMALIZATION;
        if ((nd->op == OPID_RESHAPE || nd->op == OPID_FLATTEN) && y && y->rank > 0 && y->rank <= 16) {
            int known = 1;
            for (int k = 0; k < y->rank; k++) known &= (d[k] = y->dims[k].val) > 0;
            copy = known && merges_strided(t, d, y->rank);
        }
        if (copy) /* a copy kernel: the data class's per-kernel cost */
            return per_run_of(p, class_overhead(hw, OC_DATA)) + rate_time(p, L, 2 * (double)n, hw->copy_bw);
    }
    return 0;
}

/* compute.norm_bandwidth: a layer that normalises or reduces over an axis (a LayerNormalization or ReduceMean node,
 * no matrix product: an exported LayerNorm's composite layer) reads the tensor it normalises and writes its output
 * at no more than that rate wherever the plan keeps them. compute.norm_row_s: a LayerNorm layer (a
 * LayerNormalization node, or two ReduceMean nodes: the composite) takes at least that long per row it normalises
 * (its input's elements over its last axis), as PyTorch's LayerNorm kernel runs one thread block per row
 * (docs/sources.md [PYTORCH-LAYERNORM]). The larger of the two is the least memory time of the layer. */
static double norm_floor(const struct nnperf_prediction *p, const struct pr_layer *L)
{
    const struct hw_desc *hw = p->hw;
    if ((!(hw->norm_bw > 0) && !(hw->norm_row_s > 0)) || L->fallback || L->mac_ops > 0) return 0;
    const struct ir_node *first = NULL;
    int means = 0, ln = 0;
    for (int i = 0; i < L->n_nodes; i++) {
        const struct ir_node *nd = L->nodes[i];
        int r = nd->op == OPID_REDUCE_MEAN, l = nd->op == OPID_LAYER_NORMALIZATION;
        means += r, ln += l;
        if ((r || l) && !first && nd->n_in > 0 && nd->in[0]) first = nd;
    }
    const struct ir_value *x = first ? first->in[0] : NULL, *y = pr_layer_out(L);
    int64_t n, m;
    if (!x || !y || !ir_numel(x, &n) || !ir_numel(y, &m)) return 0;
    double t = rate_time(p, L, (double)n + (double)m, hw->norm_bw);
    int64_t last = x->rank > 0 ? x->dims[x->rank - 1].val : 0;
    if ((ln || means >= 2) && last > 0) {
        double rows = (double)n / (double)last * p->runs * hw->norm_row_s;
        if (rows > t) t = rows;
    }
    return t;
}

/* compute.concat_bandwidth: a Concat layer is one kernel of its own (PyTorch's torch.cat, docs/sources.md
 * [PYTORCH-CAT]) that reads every input and writes the output: 2 x the output's bytes at no more than that rate,
 * wherever the plan keeps them (on chip too). Returns that time, 0 for another layer or without the key. */
static double concat_floor(const struct nnperf_prediction *p, const struct pr_layer *L)
{
    const struct ir_value *y = pr_layer_out(L);
    int64_t n;
    if (!(p->hw->concat_bw > 0) || L->fallback || !L->main || L->main->op != OPID_CONCAT || !y ||
        !ir_numel(y, &n))
        return 0;
    return rate_time(p, L, 2 * (double)n, p->hw->concat_bw);
}

/* compute.pool_element_s: a MaxPool or AveragePool layer whose window holds more than one element (more operations
 * than output elements: nnperf counts one per window element) takes at least that long per output element, wherever
 * the plan keeps its tensors (PyTorch's channels-last pooling kernels, bench/gpu/README.md "Seventh run"). */
static double pool_floor(const struct nnperf_prediction *p, const struct pr_layer *L)
{
    const struct ir_value *y = pr_layer_out(L);
    int64_t n;
    if (!(p->hw->pool_elem_s > 0) || L->fallback || !L->main ||
        (L->main->op != OPID_MAX_POOL && L->main->op != OPID_AVERAGE_POOL) || !y || !ir_numel(y, &n) ||
        n <= 0 || !(L->vec_ops > (double)n * p->runs)) /* vec_ops: per run; n: per execution of the graph */
        return 0;
    return (double)n * p->runs * p->hw->pool_elem_s;
}

/* compute.op_kernels: the kernels a layer's nodes run beyond one each */
static int layer_extra_kernels(const struct hw_desc *hw, const struct pr_layer *L)
{
    int extra = 0;
    for (int i = 0; hw->n_opk && i < L->n_nodes; i++) extra += hw_op_kernels(hw, L->nodes[i]->op_type) - 1;
    return extra;
}

double pr_kernel_count(const struct nnperf_prediction *p)
{
    double n = 0;
    for (int i = 0; i < p->n_layers; i++)
        if (p->layers[i].t_overhead > 0) n += 1 + layer_extra_kernels(p->hw, &p->layers[i]);
    return n;
}

/* compute.op_kernels with overhead.small_kernel_s: a node the runtime runs as several kernels (PyTorch eager's
 * RMSNorm: 8 element-wise kernels) pays each one beyond the first */
static double op_kernels_cost(const struct nnperf_prediction *p, const struct pr_layer *L)
{
    if (!(p->hw->small_kernel_s > 0) || L->fallback) return 0;
    return per_run_of(p, layer_extra_kernels(p->hw, L) * p->hw->small_kernel_s);
}

/* a Conv node whose weight [M, C/group, ...] gives a power of two of input channels per group */
static int pow2_group(const struct ir_node *nd)
{
    const struct ir_value *w = nd->n_in > 1 ? nd->in[1] : NULL;
    if (!w || w->rank < 2 || !ir_dim_is_known(w->dims[1])) return 0;
    int64_t c = w->dims[1].val;
    return c > 0 && (c & (c - 1)) == 0;
}

/* compute.grouped_transform_bandwidth: a grouped convolution (OC_CONV_GROUPED: more than one group, more than one
 * input channel per group) runs beside kernels that re-lay out its input and output (cuDNN's channels-last grouped
 * path: tensorTransformGeneric, nhwcSliceCKernel, bench/gpu/README.md "Seventh run"): two more per-layer costs and
 * each tensor read and written once more at that rate, wherever the plan keeps it; with
 * compute.grouped_transform_skip_pow2 not where a group holds 2^k input channels ("Eighth run"). */
static double grouped_layout(const struct nnperf_prediction *p, const struct pr_layer *L)
{
    const struct ir_value *x = L->main && L->main->n_in > 0 ? L->main->in[0] : NULL, *y = pr_layer_out(L);
    int64_t nx, ny;
    if (!(p->hw->group_xform_bw > 0) || L->fallback || L->klass != OC_CONV_GROUPED || !x || !y ||
        !ir_numel(x, &nx) || !ir_numel(y, &ny) || (p->hw->group_xform_skip_pow2 && pow2_group(L->main)))
        return 0;
    return 2 * layer_overhead(p, L) + rate_time(p, L, 2 * ((double)nx + (double)ny), p->hw->group_xform_bw);
}

/* The rest of a layer on the accelerator once its compute time is set (the roofline and array models): memory time,
 * no transfer, the per-layer overhead when it has work. Layers without arithmetic (copies: Concat, Transpose,
 * Slice, ...) take a class efficiency given by the platform on their memory time (a copy reaches efficiency x
 * bandwidth). */
static void accel_memory(const struct nnperf_prediction *p, struct pr_layer *L, int work)
{
    const struct hw_desc *hw = p->hw;
    L->t_memory = memory_time(p, L);
    double floor = norm_floor(p, L);
    if (floor > L->t_memory) L->t_memory = floor;
    if (L->t_compute <= 0 && L->klass != OC_VIEW && L->klass >= 0 && L->klass < OC_COUNT &&
        hw->eff[L->klass] > 0)
        L->t_memory /= hw->eff[L->klass];
    /* a measured kernel's rate: no class efficiency on it; the kernel runs (a launch) wherever the plan keeps it */
    double cat = concat_floor(p, L), pool = pool_floor(p, L);
    if (cat > L->t_memory) L->t_memory = cat;
    if (pool > L->t_memory) L->t_memory = pool;
    work |= cat > 0;
    if (L->x) L->x->t_transfer = 0;
    int expand;
    pr_fc_pad(p, L, &expand);
    L->t_overhead = work ? (1 + expand) * layer_overhead(p, L) + bias_pass(p, L) + weight_prep(p, L) : 0;
    /* compute.view_ops: a layer of views launches no kernel */
    int view = hw->n_view > 0;
    for (int i = 0; view && i < L->n_nodes; i++) view = hw_is_view(hw, L->nodes[i]->op_type);
    if (view) L->t_memory = L->t_overhead = 0;
    L->t_overhead += contiguous_copy(p, L) + grouped_layout(p, L) + op_kernels_cost(p, L);
}

/* Winograd F(m x m, 3 x 3) of a 3x3 stride-1 dense convolution (compute.winograd, ncnn's choice of m): an output tile
 * of m x m pixels takes (m + 2)^2 MACs per input and output channel (Lavin and Gray, docs/sources.md [WINOGRAD]); the
 * input transform B^T d B and the output transform A^T M A are vector work, per transformed element two passes of
 * (non-zeros per row of B^T or A^T - 1) operations: F(2,3) 2 and 1.5, F(4,3) 5.33 and 3.89, F(6,3) 9 and 7 (the
 * weights are transformed once, when the model is loaded). Returns 0 when the layer runs as a direct convolution, else
 * sets *mac_ratio (Winograd MACs / direct MACs) and *xform_per_mac (transform operations per direct MAC). */
static int winograd(const struct nnperf_prediction *p, const struct pr_layer *L, double *mac_ratio,
                    double *xform_per_mac)
{
    const struct hw_winograd *wg = &p->hw->wino;
    const struct ir_node *nd = L->main;
    if (L->dtype < 0 || L->dtype >= HW_NDT || wg->tile[L->dtype] < 2 || !nd || nd->op != OPID_CONV ||
        nd->n_in < 2 || nd->n_out < 1)
        return 0;
    const struct ir_value *w = nd->in[1], *y = nd->out[0];
    if (!pr_dims_known(w) || !pr_dims_known(y) || w->rank != 4 || y->rank != 4 || w->dims[2].val != 3 ||
        w->dims[3].val != 3)
        return 0;
    const struct ir_attr *a = pr_attr(nd, "group");
    if (a && a->i > 1) return 0;
    static const char *const unit_attrs[] = {"strides", "dilations"};
    for (int k = 0; k < 2; k++)
        if ((a = pr_attr(nd, unit_attrs[k])) != NULL)
            for (int i = 0; i < a->n; i++)
                if (a->ints[i] != 1) return 0;
    double cout = (double)w->dims[0].val, cin = (double)w->dims[1].val;
    if (cin < wg->min_channels && cout < wg->min_channels) return 0;
    int m = wg->tile[L->dtype] >= 6 ? 6 : wg->tile[L->dtype] >= 4 ? 4 : 2;
    if (m == 6 && wg->large_channels > 0 && (cin > wg->large_channels || cout > wg->large_channels))
        m = cin >= wg->min_channels && cout >= wg->min_channels ? 4 : 2;
    if (m == 4 && !(cin >= wg->min_channels && cout >= wg->min_channels)) m = 2;
    static const double in_ops[7] = {[2] = 2, [4] = 16.0 / 3, [6] = 9};
    static const double out_ops[7] = {[2] = 1.5, [4] = 140.0 / 36, [6] = 7};
    double oh = (double)y->dims[2].val, ow = (double)y->dims[3].val, t = (double)(m + 2) * (m + 2);
    double tiles = ceil(oh / m) * ceil(ow / m), direct = oh * ow * cout * cin * 9;
    if (!(direct > 0)) return 0;
    *mac_ratio = tiles * t * cin * cout / direct;
    *xform_per_mac = tiles * t * (cin * in_ops[m] + cout * out_ops[m]) / direct;
    return 1;
}

/* the layer's class efficiency at its dtype (compute.efficiency x compute.dtype_efficiency) */
static double layer_eff(const struct hw_desc *hw, const struct pr_layer *L)
{
    double f = L->dtype >= 0 && L->dtype < HW_NDT ? hw->dtype_eff[L->dtype] : 0;
    return hw_eff(hw, L->klass) * (f > 0 ? f : 1);
}

static double numel_of(const struct ir_value *v)
{
    int64_t n;
    return v && ir_numel(v, &n) ? (double)n : 0;
}

/* compute.gemm_output_s: the time a layer run as a GEMM spends per output element beyond its MACs (packing, the
 * accumulators' store, the short K loop: ncnn's im2col and Winograd GEMMs, docs/sources.md [NCNN-GEMM]), one core's
 * cost shared by the cores of the inference as its MACs are. The GEMM's outputs: the layer's (every frame of the
 * run, its main node's), or a Winograd convolution's transformed tiles (tiles x (m + 2)^2 x output channels =
 * its direct outputs x 9 x mac_ratio); a depthwise convolution is no GEMM (0) */
static double gemm_outputs_time(const struct nnperf_prediction *p, const struct pr_layer *L,
                                double wino_ratio)
{
    const struct ir_node *m = L->main;
    if (!(p->hw->gemm_output_s > 0) || !(L->mac_ops > 0) || L->klass == OC_CONV_DEPTHWISE || !m ||
        m->n_out < 1)
        return 0;
    double out = numel_of(m->out[0]) * p->runs * (wino_ratio > 0 ? 9 * wino_ratio : 1);
    return out * p->hw->gemm_output_s / inference_speedup(p->hw);
}

static void roofline_layer(struct nnperf_prediction *p, struct pr_layer *L)
{
    const struct hw_desc *hw = p->hw;
    double peak = layer_peak(p, L);
    double ddr_bytes = ddr_bytes_of(L);
    int work = has_work(L);
    if (L->fallback) {
        fallback_layer(p, L, ddr_bytes, work);
    } else {
        double eff = layer_eff(hw, L);
        double rate = peak * eff;
        double vrate = hw->vector_ops > 0 ? hw->vector_ops : rate;
        double mac = pr_mac_aligned(L), vec = pr_vec_aligned(L), ratio = 0, xform;
        if (winograd(p, L, &ratio, &xform)) {
            vec += mac / 2 * xform;
            mac *= ratio;
        }
        L->t_compute =
            (safe_div(mac, rate) + safe_div(vec, vrate) + gemm_outputs_time(p, L, ratio)) / thread_busy(p, L);
        accel_memory(p, L, work);
    }
    finish(p, L);
}

/* ---- the array model ---- */

const struct ir_attr *pr_attr(const struct ir_node *nd, const char *name)
{
    for (int a = 0; a < nd->n_attr; a++)
        if (!strcmp(nd->attrs[a].name, name)) return &nd->attrs[a];
    return NULL;
}

static double lane_fill(double dim, double lanes)
{
    if (lanes <= 1 || dim <= 0) return 1.0;
    return dim / (ceil(dim / lanes) * lanes);
}

/* Wave quantization: a layer's output tiles (pixels and channels each rounded up to their lanes) run `units` at a
 * time (a GPU's SMs, one thread block per tile); a last partial wave leaves units idle. Returns the busy fraction
 * tiles / (ceil(tiles / units) x units), 1 when units is not described. */
static double wave_fill(double pix, double chan, double lanes_p, double lanes_k, double units)
{
    if (units <= 1 || pix <= 0 || chan <= 0) return 1.0;
    double tiles = (lanes_p > 1 ? ceil(pix / lanes_p) : pix) * (lanes_k > 1 ? ceil(chan / lanes_k) : chan);
    return tiles / (ceil(tiles / units) * units);
}

int pr_dims_known(const struct ir_value *v)
{
    if (!v || v->rank < 0) return 0;
    for (int i = 0; i < v->rank; i++)
        if (v->dims[i].val < 0) return 0;
    return 1;
}

/* The loop sizes of a MAC node: reduction per output, output channels per group, output pixels (rows). Returns 0
 * when the node is not a conv/matmul with known shapes. *stride_in: input elements of a strided conv (else 0). */
static int mac_geometry(const struct ir_node *nd, int span_groups, double *red, double *chan, double *pix,
                        double *stride_in)
{
    *stride_in = 0;
    const struct ir_value *x = nd->n_in > 0 ? nd->in[0] : NULL, *w = nd->n_in > 1 ? nd->in[1] : NULL;
    const struct ir_value *y = nd->n_out > 0 ? nd->out[0] : NULL;
    if (!pr_dims_known(x) || !pr_dims_known(w) || !pr_dims_known(y)) return 0;
    if (nd->op == OPID_CONV && x->rank >= 3 && w->rank == x->rank && y->rank == x->rank) {
        const struct ir_attr *ga = pr_attr(nd, "group");
        double g = ga && ga->i > 1 ? (double)ga->i : 1;
        double taps = 1;
        for (int i = 2; i < w->rank; i++) taps *= (double)w->dims[i].val;
        *red = (double)w->dims[1].val * taps; /* input channels per group x kernel */
        /* output channels per group, or all of them for a depthwise conv (one input channel per group) when the
         * platform runs depthwise convs channel-parallel; other grouped convs fill the lanes group by group */
        *chan = span_groups && w->dims[1].val == 1 ? (double)w->dims[0].val : (double)w->dims[0].val / g;
        double n = 1;
        for (int i = 0; i < y->rank; i++) n *= i == 1 ? 1 : (double)y->dims[i].val;
        *pix = n;
        const struct ir_attr *st = pr_attr(nd, "strides");
        int strided = 0;
        for (int i = 0; st && i < st->n; i++) strided |= st->ints[i] > 1;
        if (strided) {
            int64_t e;
            if (ir_numel(x, &e)) *stride_in = (double)e;
        }
        return 1;
    }
    if ((nd->op == OPID_MAT_MUL || nd->op == OPID_GEMM) && x->rank >= 1 && w->rank >= 1 && y->rank >= 1) {
        const struct ir_attr *ta = pr_attr(nd, "transA"), *tb = pr_attr(nd, "transB");
        int tra = ta && ta->i, trb = tb && tb->i;
        *red = (double)(x->rank >= 2 && tra ? x->dims[x->rank - 2].val : x->dims[x->rank - 1].val);
        *chan = (double)(w->rank >= 2 && !trb ? w->dims[w->rank - 1].val
                                              : w->dims[w->rank > 1 ? w->rank - 2 : 0].val);
        int64_t e;
        *pix = ir_numel(y, &e) && *chan > 0 ? (double)e / *chan : 0;
        return *pix > 0;
    }
    return 0;
}

/* vector work of one node, per frame: its non-MAC FLOPs, except that an activation is one operation per output
 * element (a lookup table on an NPU's vector unit, whatever its FLOP count) */
static double node_vector_ops(const struct nnperf_prediction *p, const struct ir_node *nd)
{
    int k = nd->op >= 0 ? op_table[nd->op].klass : OC_OTHER;
    int64_t n;
    if (k == OC_ACT && nd->n_out > 0 && ir_numel(nd->out[0], &n) && !p->node_in[nd->index].dropped)
        return (double)n;
    return pr_node_vec(p, nd->index);
}

/* the most nodes of a layer lut_folds looks at (a larger layer folds nothing) */
enum { LUT_MAX_NODES = 64 };

/* whether nd applies one function to every element (an activation or an element-wise node whose constant inputs are
 * scalars: what one lookup table can hold), and has an input that is not a constant */
static int lut_like(const struct ir_node *nd)
{
    int k = nd->op >= 0 ? op_table[nd->op].klass : OC_OTHER, live = 0;
    if (k != OC_ACT && k != OC_ELTWISE) return 0;
    for (int i = 0; i < nd->n_in; i++) {
        const struct ir_value *v = nd->in[i];
        int64_t n;
        if (!v) continue;
        if (pr_const_like(v) && (!ir_numel(v, &n) || n != 1)) return 0;
        live += !pr_const_like(v);
    }
    return live > 0;
}

/* compute.lut_chains: which nodes of L a table lookup folds into the node before them (fold[i] = 1). A node that
 * applies one function to every element is a function of one tensor (root[i]) when each of its inputs that is not a
 * constant is that tensor or the output of such a node of L of the same root: x, x / sqrt(2), erf(.), 1 + .,
 * x * (.) and 0.5 * (.) of a GELU are all functions of x, as sigmoid(x) and x * sigmoid(x) of a SiLU are, and the
 * compiler composes them into one table, paid by the first; a node that scales by a scalar constant (Mul, Div) the
 * output of any earlier node of L is absorbed by that node's output requantisation. */
static void lut_folds(const struct nnperf_prediction *p, const struct pr_layer *L,
                      const struct ir_value **root, char *fold)
{
    for (int i = 0; i < L->n_nodes; i++) {
        const struct ir_node *nd = L->nodes[i];
        root[i] = NULL, fold[i] = 0;
        if (!lut_like(nd)) continue;
        const struct ir_value *r = NULL;
        int chained = 0, scaled = 0, same = 1, live = 0;
        for (int k = 0; k < nd->n_in; k++) {
            const struct ir_value *v = nd->in[k], *rv = v;
            if (!v || pr_const_like(v)) continue;
            live++;
            const struct ir_node *src = pr_producer(p, v);
            for (int j = 0; src && j < i; j++)
                if (L->nodes[j] == src) {
                    scaled = 1;
                    if (root[j]) rv = root[j], chained = 1;
                }
            if (r && rv != r) same = 0;
            r = rv;
        }
        if (same) root[i] = r;
        fold[i] = (same && chained) || (scaled && live == 1 && (nd->op == OPID_MUL || nd->op == OPID_DIV));
    }
}

/* vector work of a layer, per run and aligned like the layer: in a layer led by a MAC node, the work of the other
 * nodes except activations (and SiLU's Mul) and BatchNormalization, which the array's output stage applies for
 * free, as it adds the MAC node's own bias; in any other layer, the work of all its nodes but those a table lookup
 * folds into the node before them (compute.lut_chains) */
static double vector_work(const struct nnperf_prediction *p, const struct pr_layer *L)
{
    double v = 0;
    const struct ir_value *root[LUT_MAX_NODES];
    char fold[LUT_MAX_NODES] = {0};
    if (p->hw->lut_chains && L->n_nodes <= LUT_MAX_NODES) lut_folds(p, L, root, fold);
    for (int i = 0; i < L->n_nodes; i++) {
        const struct ir_node *nd = L->nodes[i];
        int k = nd->op >= 0 ? op_table[nd->op].klass : OC_OTHER;
        int silu_mul = nd->op == OPID_MUL && i >= 2 && L->nodes[i - 1]->op == OPID_SIGMOID;
        if (L->mac_ops > 0 &&
            (nd == L->main || k == OC_ACT || silu_mul || nd->op == OPID_BATCH_NORMALIZATION))
            continue;
        if (i < LUT_MAX_NODES && fold[i]) continue;
        v += node_vector_ops(p, nd) * p->runs;
    }
    double ratio = L->vec_ops > 0 ? pr_vec_aligned(L) / L->vec_ops : pr_align_factor(L);
    return v * ratio;
}

/* Cycles per output pixel of a dense conv of cin input and chan output channels (taps kernel taps) on an array whose
 * lanes split by mode (compute.array.modes, the Myriad X NCE as OpenVINO's compiler costs it, docs/sources.md
 * [OPENVINO-VPU-NCE]), in the cheapest mode: in a mode of B blocks a descriptor computes lanes / B output channels (at
 * most the output channels rounded up to 8) and takes (input channels rounded up to B) / B x taps + overhead cycles;
 * input channels beyond block_reduce_max per block run in more passes. */
static double mode_cycles(const struct hw_array *ar, double lanes, double cin, double chan, double taps)
{
    double best = 0;
    for (int i = 0; i < ar->n_modes; i++) {
        double b = (double)ar->modes[i].blocks;
        if (b > lanes) continue;
        double per = fmin(floor(lanes / b), ceil(chan / 8) * 8), passes = 1, c_in = cin;
        if (ar->block_reduce_max > 0)
            while (ceil(c_in / b) * taps > ar->block_reduce_max && passes < cin) c_in = ceil(cin / ++passes);
        double cycles = passes * ceil(chan / per) * (ceil(c_in / b) * taps + ar->modes[i].overhead);
        if (best <= 0 || cycles < best) best = cycles;
    }
    return best;
}

/* Utilization of a dense conv or matmul on a moded array: MACs per pixel / (the cheapest mode's cycles x lanes).
 * A depthwise conv (C groups of one input and one output channel) runs as the MYRIAD compiler runs it
 * ([OPENVINO-VPU-DW], pass splitHwDepthConv): ceil(C / T) dense T x T convs whose weights are zero off the diagonal,
 * T from 1 to C - 1 the tile of least total cost; other grouped convs are not described (1). */
static double mode_utilization(const struct hw_array *ar, double lanes, double red, double chan,
                               const struct ir_node *nd)
{
    const struct ir_attr *g = pr_attr(nd, "group");
    const struct ir_value *w = nd->n_in > 1 ? nd->in[1] : NULL;
    if (g && g->i > 1) {
        if (nd->op != OPID_CONV || !w || w->rank < 3 || w->dims[1].val != 1 || w->dims[0].val != g->i)
            return 1.0;
        double c = (double)g->i, best = 0;
        for (double t = 1; t <= fmax(1, c - 1); t++) {
            double cycles = ceil(c / t) * mode_cycles(ar, lanes, t, t, red);
            if (best <= 0 || cycles < best) best = cycles;
        }
        return best > 0 ? fmin(1.0, c * red / (best * lanes)) : 1.0;
    }
    double cin = red, taps = 1;
    if (nd->op == OPID_CONV && w && w->rank >= 3 && w->dims[1].val > 0) {
        cin = (double)w->dims[1].val;
        taps = red / cin;
    }
    double best = mode_cycles(ar, lanes, cin, chan, taps);
    return best > 0 ? fmin(1.0, red * chan / (best * lanes)) : 1.0;
}

/* compute.array.tiles: the tile shape a runtime that times several kernels per layer would keep (TensorRT's tactic
 * selection, docs/sources.md [TRT-BUILDER]): the least padded work, ceil(chan / k) x k x ceil(rows / p) x p /
 * efficiency (rows untiled when !rows_tiled), ties to the larger tile. Sets the channel and pixel lanes (0 pixel
 * lanes when the rows are untiled) and returns the shape's efficiency. */
static double pick_tile(const struct hw_array *ar, double chan, double rows, int rows_tiled, double *lanes_k,
                        double *lanes_p)
{
    double best = 0, best_area = 0, eff = 1;
    for (int i = 0; i < ar->n_tiles; i++) {
        double k = (double)ar->tiles[i].channels, px = (double)ar->tiles[i].pixels;
        double e = ar->tiles[i].efficiency > 0 ? ar->tiles[i].efficiency : 1;
        double work = ceil(chan / k) * k * (rows_tiled ? ceil(rows / px) * px : rows) / e, area = k * px;
        if (best <= 0 || work < best * (1 - 1e-12) || (work <= best * (1 + 1e-12) && area > best_area)) {
            best = work;
            best_area = area;
            eff = e;
            *lanes_k = k;
            *lanes_p = rows_tiled ? px : 0;
        }
    }
    return eff;
}

double pr_array_util(const struct nnperf_prediction *p, const struct pr_layer *L, double *t_strided)
{
    const struct hw_desc *hw = p->hw;
    double lanes_r = hw->array.reduce[L->dtype], lanes_k = hw->array.channels[L->dtype];
    double lanes_p = hw->array.pixels[L->dtype];
    double red, chan, pix, sin;
    double util = 1;
    *t_strided = 0;
    if (mac_geometry(L->main, hw->array.span_groups, &red, &chan, &pix, &sin)) {
        /* the lanes hold one frame's pixels: a graph of several frames fills them as a batch of single
         * frames would; with batch_rows they hold the run's pixels, every frame's together */
        double pix_frame = pix / p->graph_batch,
               pix_lanes = hw->array.batch_rows ? pix_frame * p->batch : pix_frame;
        /* a matrix product's rows (an FC layer's batch) untiled: its pixel lanes are not a limit */
        int rows_untiled = hw->array.matmul_rows_untiled && L->main->op != OPID_CONV;
        if (rows_untiled) lanes_p = 0;
        double tile_eff = 1;
        if (hw->array.n_tiles > 0 && hw->array.n_modes <= 0)
            tile_eff = pick_tile(&hw->array, chan, pix_lanes, !rows_untiled, &lanes_k, &lanes_p);
        if (hw->array.n_modes > 0 && lanes_k > 0)
            util = mode_utilization(&hw->array, lanes_k, red, chan, L->main);
        else
            util = tile_eff * lane_fill(red, lanes_r) * lane_fill(chan, lanes_k) *
                   lane_fill(pix_lanes, lanes_p) *
                   wave_fill(pix_frame * p->batch, chan, lanes_p, lanes_k, hw->array.units);
        if (sin > 0 && hw->strided_in_bw > 0) *t_strided = rate_time(p, L, sin, hw->strided_in_bw);
    }
    return util;
}

/* compute.array.fc_tile: a fully connected layer as OpenVINO's MYRIAD compiler runs it on the NCE (docs/sources.md
 * [OPENVINO-VPU-FC], pass hwFullyConnectedTiling): in one mode of t input and t output elements a descriptor, an
 * input (or output) longer than t is padded to whole tiles, the weights are stored padded, and a padded input is
 * copied into its longer buffer by an expand stage before the layer */
static double fc_padded(double n, double t)
{
    return n > t ? ceil(n / t) * t : n;
}

double pr_fc_pad(const struct nnperf_prediction *p, const struct pr_layer *L, int *expand)
{
    double t = p->hw->array.fc_tile, red, chan, pix, sin;
    const struct ir_node *nd = L->main;
    *expand = 0;
    if (!(t > 0) || L->fallback || !nd || (nd->op != OPID_MAT_MUL && nd->op != OPID_GEMM) || nd->n_in < 2 ||
        !nd->in[1] || !((nd->in[1]->flags & IR_V_INIT) || nd->in[1]->is_const == 1) ||
        !mac_geometry(nd, 0, &red, &chan, &pix, &sin))
        return 0;
    double k = fc_padded(red, t), n = fc_padded(chan, t);
    *expand = k > red;
    return k * n - red * chan;
}

static void array_layer(struct nnperf_prediction *p, struct pr_layer *L)
{
    const struct hw_desc *hw = p->hw;
    double ddr_bytes = ddr_bytes_of(L);
    int work = has_work(L);
    if (L->fallback) {
        fallback_layer(p, L, ddr_bytes, work);
        finish(p, L);
        return;
    }
    double peak = layer_peak(p, L) * layer_eff(hw, L);
    double vrate = hw->vector_ops > 0 ? hw->vector_ops : peak;
    double t_mac = 0, t_strided = 0;
    if (pr_mac_aligned(L) > 0) t_mac = safe_div(pr_mac_aligned(L), peak * pr_array_util(p, L, &t_strided));
    double t_vec = safe_div(vector_work(p, L), vrate);
    L->t_compute = (t_mac > t_vec ? t_mac : t_vec) + t_strided;
    accel_memory(p, L, work);
    finish(p, L);
}

/* ---- power ---- */

int pr_has_power(const struct hw_desc *hw)
{
    int any = hw->static_w > 0 || hw->ddr_j > 0 || hw->sram_j > 0;
    for (int d = 0; d < HW_NDT; d++) any |= hw->op_j[d] > 0;
    return any;
}

double pr_layer_energy(const struct nnperf_prediction *p, const struct pr_layer *L)
{
    const struct hw_desc *hw = p->hw;
    double op_j = hw->op_j[L->dtype], mac_j = op_j;
    /* a TF32 layer's MACs: the FP32 energy per second at full load (op_j x peak_ops.fp32) over the TF32 rate */
    if (hw_tf32(hw, L->dtype, L->klass) && hw->peak_ops[HW_FP32] > 0)
        mac_j = op_j * hw->peak_ops[HW_FP32] / hw->tf32_ops;
    return pr_mac_aligned(L) * mac_j + pr_vec_aligned(L) * op_j +
           (ddr_bytes_of(L) + pr_lx(L)->link_bytes + pr_lx(L)->transfer_bytes) * hw->ddr_j +
           L->sram_bytes * hw->sram_j;
}

/* ---- the kernel-cost model ---- */

void pr_kernel_terms(const struct nnperf_prediction *p, const struct pr_layer *L, struct pr_kterms *t)
{
    memset(t, 0, sizeof *t);
    if (L->n_nodes <= 0) return;
    const struct ir_node *last = L->nodes[L->n_nodes - 1];
    double out = 0;
    for (int o = 0; o < last->n_out; o++) out += numel_of(last->out[o]);
    out *= p->runs;
    t->overhead = 1;
    double peak = layer_peak(p, L);
    if (L->mac_ops > 0 && L->main && peak > 0) {
        double s = L->mac_ops / peak;
        const struct ir_node *m = L->main;
        const struct ir_value *w = m->n_in > 1 ? m->in[1] : NULL;
        if (L->klass == OC_CONV_DEPTHWISE)
            t->dw_mac_s = s;
        else if (m->op == OPID_CONV && w && w->rank >= 2 && w->dims[1].val > 0 && w->dims[1].val <= 4)
            t->narrow_mac_s = s;
        else
            t->mac_s = s;
        t->outputs = out;
        for (int i = 0; i < L->n_nodes; i++) {
            const struct ir_node *nd = L->nodes[i];
            if (nd != m && nd->op >= 0 && op_table[nd->op].klass == OC_ACT && nd->op != OPID_RELU)
                t->pass_elems += out;
        }
        t->weight_s = safe_div(L->w_bytes, pr_ddr_bw(p));
    } else if (L->klass != OC_VIEW) {
        double in = 0;
        for (int i = 0; i < L->n_nodes; i++)
            for (int k = 0; k < L->nodes[i]->n_in; k++) {
                const struct ir_value *v = L->nodes[i]->in[k];
                if (v && !(v->flags & IR_V_INIT) && !v->is_const) in += numel_of(v);
            }
        t->elements = in * p->runs + out;
    }
}

static void kernels_layer(struct nnperf_prediction *p, struct pr_layer *L)
{
    const struct hw_desc *hw = p->hw;
    if (L->fallback) {
        fallback_layer(p, L, ddr_bytes_of(L), has_work(L));
        finish(p, L);
        return;
    }
    struct pr_kterms t;
    pr_kernel_terms(p, L, &t);
    double eff = layer_eff(hw, L);
    double narrow = hw->kc.narrow_eff > 0 ? hw->kc.narrow_eff : eff;
    L->t_compute = safe_div(t.mac_s + t.dw_mac_s, eff) + safe_div(t.narrow_mac_s, narrow) +
                   t.outputs * hw->kc.output_s + t.pass_elems * hw->kc.pass_s + t.elements * hw->kc.element_s;
    L->t_memory = t.weight_s;
    if (L->x) L->x->t_transfer = 0;
    L->t_overhead = t.overhead ? layer_overhead(p, L) + weight_prep(p, L) : 0;
    /* a CPU's single thread streams the weights inside its kernel: compute and weight time add up */
    L->t_total = L->t_compute + L->t_memory + L->t_overhead;
    if (!L->cost_known)
        L->bound = PB_UNKNOWN;
    else if (L->t_overhead > L->t_compute + L->t_memory)
        L->bound = PB_OVERHEAD;
    else
        L->bound = L->t_compute >= L->t_memory ? PB_COMPUTE : PB_MEMORY;
}

/* ---- the dataflow model ---- */

/* the compute.dataflow.folding entry of the layer (by its first or its main node), or -1: fully folded */
static int layer_fold(const struct hw_desc *hw, const struct pr_layer *L)
{
    for (int i = 0; i < hw->n_fold; i++)
        if ((L->n_nodes > 0 && L->nodes[0]->name && !strcmp(hw->fold[i].node, L->nodes[0]->name)) ||
            (L->main && L->main->name && !strcmp(hw->fold[i].node, L->main->name)))
            return i;
    return -1;
}

/* A dataflow engine (a conv/matmul layer's matrix-vector unit) as its folding sees it, per execution of the graph:
 * groups x (chan / PE) x taps x (simd_base / SIMD) x pix cycles. SIMD divides the input channels per kernel tap
 * (simd_base; the sliding window streams a pixel's channels tap by tap, finn-hlslib's ConvLayer), PE the output
 * channels. */
struct df_engine {
    double groups, chan, taps, simd_base, pix;
    double bits; /* weight and activation bits (the layer's dtype) */
    int ds, ns, dk,
        nk; /* df_derive: its simd_base's and its chan's ascending divisors, dv[ds..ds+ns), dv[dk..dk+nk) */
};

/* groups computed one after another: the layer's MACs over one group's loops (per = reduction x channels x pixels);
 * 1 but for grouped convs */
static double df_groups(const struct nnperf_prediction *p, const struct pr_layer *L, double per)
{
    return per > 0 ? fmax(1, round(L->mac_ops / 2 / p->runs / per)) : 1;
}

/* the engine of layer L, or 0 when L is no engine (no MACs, a fallback layer, unknown shapes) */
static int df_engine_of(const struct nnperf_prediction *p, const struct pr_layer *L, struct df_engine *e)
{
    double red, chan, pix, sin;
    if (L->fallback || !(L->mac_ops > 0) || !L->main || !mac_geometry(L->main, 1, &red, &chan, &pix, &sin))
        return 0;
    if (!(red >= 1 && chan >= 1 && pix > 0)) return 0;
    e->groups = df_groups(p, L, red * chan * pix);
    e->chan = chan, e->pix = pix, e->taps = 1, e->simd_base = red;
    const struct ir_value *w = L->main->n_in > 1 ? L->main->in[1] : NULL;
    if (L->main->op == OPID_CONV && w && w->rank >= 3) {
        double taps = 1;
        for (int i = 2; i < w->rank; i++) taps *= (double)w->dims[i].val;
        /* a depthwise conv (one input channel per group) folds its kernel taps */
        if (w->dims[1].val > 1 && taps >= 1) e->taps = taps, e->simd_base = red / taps;
    }
    int bx2 = hw_dtype_bytes_x2(L->dtype >= 0 ? L->dtype : p->dtype);
    e->bits = bx2 > 0 ? 4.0 * bx2 : 8;
    return 1;
}

static double df_cycles(const struct df_engine *e, double pe, double simd)
{
    return e->groups * ceil(e->chan / pe) * e->taps * ceil(e->simd_base / simd) * e->pix;
}

/* the ascending divisors of n (at most cap of them; n <= 2^31 has fewer than 1600); beyond 2^31 (no real layer) only
 * 1 and n, so that a hostile shape costs no long search */
static int df_divisors(double n, double *out, int cap)
{
    int lo = 0, hi = 0;
    double high[1024];
    if (n > 2147483648.0) {
        out[lo++] = 1;
        if (cap > 1) out[lo++] = n;
        return lo;
    }
    for (double d = 1; d * d <= n && lo < cap; d++)
        if (fmod(n, d) == 0) {
            out[lo++] = d;
            if (d * d != n && hi < 1024) high[hi++] = n / d;
        }
    while (hi > 0 && lo < cap) out[lo++] = high[--hi];
    return lo;
}

/* FINN's SetFolding for one engine and a target of T cycles per frame: SIMD raised through the divisors of its base
 * until the engine meets T, then (at the largest SIMD) PE through the divisors of the channels (dv: df_derive's) */
static void df_fold(const struct df_engine *e, const double *dv, double T, double *pe, double *simd)
{
    *pe = 1, *simd = 1;
    for (int i = 0; i < e->ns; i++) {
        *simd = dv[e->ds + i];
        if (df_cycles(e, 1, *simd) <= T) return;
    }
    for (int i = 0; i < e->nk; i++) {
        *pe = dv[e->dk + i];
        if (df_cycles(e, *pe, *simd) <= T) return;
    }
}

/* 18 Kb blocks of a memory w bits wide and d words deep, in the aspect that needs fewest (UG573: 16K x 1 to
 * 512 x 36) */
static double df_bram18(double w, double d)
{
    static const double aw[] = {1, 2, 4, 9, 18, 36}, ad[] = {16384, 8192, 4096, 2048, 1024, 512};
    double best = 0;
    for (int i = 0; i < 6; i++) {
        double b = ceil(w / aw[i]) * ceil(d / ad[i]);
        if (i == 0 || b < best) best = b;
    }
    return best;
}

/* The LUTs and the 18 Kb memory blocks an engine folded PE x SIMD takes: its lanes at bits^2 LUTs per lut_per_lane_bit,
 * and each PE's weights (groups x chan / PE x taps x simd_base values) as a memory of its own SIMD x bits wide */
static void df_cost(const struct hw_desc *hw, const struct df_engine *e, double pe, double simd, double *luts,
                    double *blocks)
{
    double lpb = hw->df_lut_per_lane_bit > 0 ? hw->df_lut_per_lane_bit : 1;
    *luts += pe * simd * e->bits * e->bits * lpb;
    double depth = e->groups * ceil(e->chan / pe) * e->taps * ceil(e->simd_base / simd);
    *blocks += pe * df_bram18(simd * e->bits, depth);
}

/* Every engine folded for a target of T cycles per frame: the LUTs and blocks it takes (*luts, *blocks), and whether
 * they fit lut_max and mem_max (no memory budget where mem_max is 0) */
static int df_fits(const struct hw_desc *hw, const struct df_engine *e, int n, const double *dv, double T,
                   double lut_max, double mem_max, double *luts, double *blocks)
{
    *luts = *blocks = 0;
    for (int i = 0; i < n; i++) {
        double pe, simd;
        df_fold(&e[i], dv, T, &pe, &simd);
        df_cost(hw, &e[i], pe, simd, luts, blocks);
    }
    return *luts <= lut_max && (mem_max <= 0 || *blocks <= mem_max);
}

static int df_cmp(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

/* compute.dataflow without a folding list and with compute.dataflow.luts: every engine's folding is SetFolding's at
 * the smallest target cycles per frame whose folding fits lut_fraction x luts and memory_fraction x (bram18 + 16 x
 * uram) 18 Kb blocks (docs/prediction.md, Dataflow accelerators). The targets tried are the cycles an engine reaches
 * on SetFolding's path (the resources change nowhere else), from the fastest the slowest engine can run. */
static enum nnperf_status df_derive(struct nnperf_prediction *p)
{
    const struct hw_desc *hw = p->hw;
    int n = 0, n_dv = 0, cap_dv = 0;
    size_t cap = (size_t)(p->n_layers > 0 ? p->n_layers : 1);
    struct df_engine *e = malloc(sizeof *e * cap);
    int *lay = malloc(sizeof *lay * cap);
    double *dv = NULL, *t = NULL, floor_t = 0;
    enum nnperf_status st = NNPERF_OK;
    if (!e || !lay) goto oom;
    enum { CAP = 2048 };
    double d[CAP];
    for (int l = 0; l < p->n_layers; l++) {
        if (!df_engine_of(p, &p->layers[l], &e[n])) continue;
        for (int pass = 0; pass < 2; pass++) {
            int k = df_divisors(pass ? e[n].chan : e[n].simd_base, d, CAP);
            if (n_dv + k > cap_dv) {
                cap_dv = 2 * (n_dv + k);
                double *nd = realloc(dv, sizeof *dv * (size_t)cap_dv);
                if (!nd) goto oom;
                dv = nd;
            }
            memcpy(dv + n_dv, d, sizeof *d * (size_t)k);
            if (pass)
                e[n].dk = n_dv, e[n].nk = k;
            else
                e[n].ds = n_dv, e[n].ns = k;
            n_dv += k;
        }
        floor_t = fmax(floor_t, df_cycles(&e[n], e[n].chan, e[n].simd_base));
        lay[n++] = l;
    }
    if (n == 0) goto done;
    /* the targets: every engine's cycles on its path, SIMD raised at PE 1, then PE at the largest SIMD */
    t = malloc(sizeof *t * (size_t)(n_dv > 0 ? n_dv : 1));
    if (!t) goto oom;
    int n_t = 0;
    for (int i = 0; i < n; i++) {
        for (int j = 0; j < e[i].ns; j++) t[n_t++] = df_cycles(&e[i], 1, dv[e[i].ds + j]);
        for (int j = 0; j < e[i].nk; j++) t[n_t++] = df_cycles(&e[i], dv[e[i].dk + j], e[i].simd_base);
    }
    qsort(t, (size_t)n_t, sizeof *t, df_cmp);
    double lut_max = hw->df_luts * (hw->df_lut_fraction > 0 ? hw->df_lut_fraction : 1);
    double mem_max = (hw->df_bram18 + 16 * hw->df_uram) * (hw->df_mem_fraction > 0 ? hw->df_mem_fraction : 1);
    double target = t[n_t - 1], luts = 0, blocks = 0;
    int fits = 0;
    /* the slowest target first: when even that does not fit, nothing does */
    int any = df_fits(hw, e, n, dv, target, lut_max, mem_max, &luts, &blocks);
    for (int j = 0; j < n_t && !fits && any; j++) {
        if (t[j] < floor_t || (j > 0 && t[j] == t[j - 1])) continue;
        fits = df_fits(hw, e, n, dv, t[j], lut_max, mem_max, &luts, &blocks);
        if (fits) target = t[j];
    }
    if (!fits)
        pr_warn(p,
                "compute.dataflow: the network does not fit the fabric even fully folded (%.0f LUTs of %.0f, "
                "%.0f 18 Kb blocks of %.0f): predicted as if it did",
                luts, lut_max, blocks, mem_max);
    for (int i = 0; i < n; i++) {
        double pe, simd;
        df_fold(&e[i], dv, target, &pe, &simd);
        struct pr_layer_x *x = pr_lx_make(p, &p->layers[lay[i]]);
        x->df_pe = pe, x->df_simd = simd;
    }
    if (p->lx_nomem) st = NNPERF_E_NOMEM;
    goto done;
oom:
    st = NNPERF_E_NOMEM;
done:
    free(e);
    free(lay);
    free(dv);
    free(t);
    return st;
}

static void dataflow_layer(struct nnperf_prediction *p, struct pr_layer *L)
{
    roofline_layer(p, L);
    double red, chan, pix, sin;
    if (L->fallback || !(L->mac_ops > 0) || !L->main || !mac_geometry(L->main, 1, &red, &chan, &pix, &sin))
        return;
    int f = layer_fold(p->hw, L);
    double pe = f >= 0 ? (double)p->hw->fold[f].pe : 1, simd = f >= 0 ? (double)p->hw->fold[f].simd : 1;
    struct df_engine e;
    if (f < 0 && pr_lx(L)->df_pe > 0 && df_engine_of(p, L, &e)) {
        /* the folding derived from the fabric: SIMD over the channels of one kernel tap; the weights sit in the
         * engine's own memories (what memory_fraction budgets) and the activations stream engine to engine on chip,
         * so the engine waits on no DDR traffic and reads no weights from DDR */
        L->t_compute = df_cycles(&e, pr_lx(L)->df_pe, pr_lx(L)->df_simd) * p->runs / p->hw->dataflow_hz;
        L->t_memory = L->w_bytes = 0;
        finish(p, L);
        return;
    }
    double cycles = df_groups(p, L, red * chan * pix) * ceil(chan / pe) * ceil(red / simd) * pix * p->runs;
    L->t_compute = cycles / p->hw->dataflow_hz;
    finish(p, L);
}

int pr_compute_model_of(const struct hw_desc *hw, int dtype)
{
    if (hw->dataflow_hz > 0) return PR_COMPUTE_DATAFLOW;
    if (hw->kc.output_s > 0 || hw->kc.pass_s > 0 || hw->kc.element_s > 0) return PR_COMPUTE_KERNELS;
    int array = dtype >= 0 && dtype < HW_NDT &&
                (hw->array.reduce[dtype] > 0 || (hw->array.n_modes > 0 && hw->array.channels[dtype] > 0));
    return array ? PR_COMPUTE_ARRAY : PR_COMPUTE_ROOFLINE;
}

const struct pr_compute_model_row pr_compute_models[] = {
    [PR_COMPUTE_ROOFLINE] = {"roofline", roofline_layer},
    [PR_COMPUTE_ARRAY] = {"array", array_layer},
    [PR_COMPUTE_KERNELS] = {"kernels", kernels_layer},
    [PR_COMPUTE_DATAFLOW] = {"dataflow", dataflow_layer},
};
const int pr_n_compute_models = (int)(sizeof pr_compute_models / sizeof pr_compute_models[0]);

int nnperf_compute_model_count(void)
{
    return pr_n_compute_models;
}

const char *nnperf_compute_model_name(int i)
{
    return i >= 0 && i < pr_n_compute_models ? pr_compute_models[i].name : NULL;
}

enum nnperf_status pr_compute(struct nnperf_prediction *p)
{
    if (p->compute_model == PR_COMPUTE_DATAFLOW && p->hw->n_fold == 0 && p->hw->df_luts > 0) {
        enum nnperf_status st = df_derive(p);
        if (st != NNPERF_OK) return st;
    }
    for (int l = 0; l < p->n_layers; l++) pr_compute_models[p->compute_model].layer_time(p, &p->layers[l]);
    if (p->compute_model == PR_COMPUTE_DATAFLOW)
        for (int i = 0; i < p->hw->n_fold; i++) {
            int used = 0;
            for (int l = 0; l < p->n_layers && !used; l++) used = layer_fold(p->hw, &p->layers[l]) == i;
            if (!used)
                pr_warn(
                    p,
                    "compute.dataflow.folding: node '%s' leads no layer of this model: its folding is unused",
                    p->hw->fold[i].node);
        }
    return NNPERF_OK;
}
