/* memplan.c - pass 3: where each activation lives and what crosses DDR.
 *
 * Tensors are the values passed between layers (views such as Reshape share their input's storage). Walking the
 * layers in order, a new output stays in on-chip SRAM while it fits with everything still alive; when it does not,
 * the live tensor whose last use is farthest away (a long shortcut, typically) is spilled: written to DDR and read
 * back by its later consumers (Belady's rule on last use). A tensor larger than the SRAM goes to DDR directly. Graph
 * inputs are loaded from DDR and graph outputs stored to it. Weights are loaded once per run, so their DDR bytes per
 * frame fall as 1/frames_per_run. Layers on the fallback unit exchange their inputs and outputs through DDR and pay
 * the transfer and (de)quantization at the boundary.
 *
 * memory model "weights-only" (QuTiBench's assumption, seed 001): only weights move, once per frame; activations
 * stay on chip. */
#include <stdlib.h>
#include <string.h>

#include "../perf/predict.h"

struct vmap {
    const struct ir_value *v;
    int t;
};

static int cmp_vmap(const void *a, const void *b)
{
    const struct vmap *x = a, *y = b;
    return x->v == y->v ? 0 : (uintptr_t)x->v < (uintptr_t)y->v ? -1 : 1;
}

static int lookup(const struct vmap *m, int n, const struct ir_value *v)
{
    int lo = 0, hi = n - 1;
    while (lo <= hi) {
        int mid = (lo + hi) / 2;
        if (m[mid].v == v) return m[mid].t;
        if ((uintptr_t)m[mid].v < (uintptr_t)v)
            lo = mid + 1;
        else
            hi = mid - 1;
    }
    return -1;
}

double pr_elem_bytes(const struct nnperf_prediction *p, int is_weight)
{
    /* int4 packs weights two per byte; activations of an int4 model stay int8 (common NPU practice, documented) */
    switch (p->dtype) {
    case HW_INT4: return is_weight ? 0.5 : 1.0;
    case HW_INT8: return 1.0;
    case HW_FP16:
    case HW_BF16: return 2.0;
    default: return 4.0;
    }
}

/* a layer of views only (no bytes move); a what-if may fold a node away (dropped: treated as a view) */
static int is_view_layer(const struct nnperf_prediction *p, const struct pr_layer *L)
{
    for (int i = 0; i < L->n_nodes; i++)
        if ((L->nodes[i]->op < 0 || op_table[L->nodes[i]->op].klass != OC_VIEW) &&
            !adv_wi_dropped(p->wi, L->nodes[i]))
            return 0;
    return 1;
}

/* tensors a layer reads: inputs of its nodes not produced inside it (activations only) */
static int layer_reads(const struct nnperf_prediction *p, int l, const struct vmap *m, int nm, int *out,
                       int cap)
{
    const struct pr_layer *L = &p->layers[l];
    int n = 0;
    for (int i = 0; i < L->n_nodes; i++)
        for (int k = 0; k < L->nodes[i]->n_in; k++) {
            const struct ir_value *v = L->nodes[i]->in[k];
            if (!v) continue;
            int t = lookup(m, nm, v);
            if (t < 0 || p->tensors[t].producer == l) continue;
            int dup = 0;
            for (int j = 0; j < n; j++) dup |= out[j] == t;
            if (!dup && n < cap) out[n++] = t;
        }
    return n;
}

static int root(const struct nnperf_prediction *p, int t)
{
    while (p->tensors[t].storage != t) t = p->tensors[t].storage;
    return t;
}

#define MAX_IO 256

enum nnperf_status pass_memplan(struct nnperf_prediction *p)
{
    const struct ir_graph *g = p->an->m->graph;
    double eb = pr_elem_bytes(p, 0), wb = pr_elem_bytes(p, 1);
    /* weights per layer: initializer elements its nodes read (each initializer once per layer) */
    for (int l = 0; l < p->n_layers; l++) {
        struct pr_layer *L = &p->layers[l];
        double params = 0;
        for (int i = 0; i < L->n_nodes; i++) {
            double smac, svec, sw; /* what-if weight scale (channels, groups, pruning): 1 without one */
            adv_wi_node_scales(p->wi, L->nodes[i], &smac, &svec, &sw);
            params += (double)L->nodes[i]->cost.params * sw;
        }
        L->w_bytes = params * wb * (p->memory_model == 1 ? p->batch : 1);
    }
    if (p->memory_model == 1) return NNPERF_OK; /* weights-only: activations stay on chip */

    /* tensors: graph inputs, then every layer output that leaves its layer */
    int cap = g->n_inputs;
    for (int l = 0; l < p->n_layers; l++)
        for (int i = 0; i < p->layers[l].n_nodes; i++) cap += p->layers[l].nodes[i]->n_out;
    p->tensors = ar_calloc(&p->ar, (size_t)(cap ? cap : 1), sizeof *p->tensors);
    struct vmap *m = malloc((size_t)(cap ? cap : 1) * sizeof *m);
    if (!p->tensors || !m) {
        free(m);
        return diag_set(&p->d, NNPERF_E_NOMEM, "out of memory");
    }
    int nt = 0;
    for (int i = 0; i < g->n_inputs; i++) {
        const struct ir_value *v = g->inputs[i];
        if (v->flags & IR_V_INIT) continue;
        p->tensors[nt] = (struct pr_tensor){v, nt, -1, -1, 0, 0, 0};
        nt++;
    }
    for (int l = 0; l < p->n_layers; l++) {
        const struct pr_layer *L = &p->layers[l];
        for (int i = 0; i < L->n_nodes; i++)
            for (int k = 0; k < L->nodes[i]->n_out; k++) {
                const struct ir_value *v = L->nodes[i]->out[k];
                if (!v || (!v->n_consumers && !(v->flags & IR_V_OUTPUT))) continue;
                p->tensors[nt] = (struct pr_tensor){v, nt, l, -1, 0, 0, 0};
                nt++;
            }
    }
    p->n_tensors = nt;
    for (int t = 0; t < nt; t++) m[t] = (struct vmap){p->tensors[t].v, t};
    qsort(m, (size_t)nt, sizeof *m, cmp_vmap);
    /* sizes, views, last uses */
    for (int t = 0; t < nt; t++) {
        struct pr_tensor *T = &p->tensors[t];
        int64_t n;
        T->bytes = ir_numel(T->v, &n) ? (double)n * eb * p->batch : 0;
        if (T->producer >= 0 && p->layers[T->producer].out == T->v)
            T->bytes *= p->layers[T->producer].align_factor;
        T->bytes *= adv_wi_bytes_scale(p->wi, T->v); /* what-if: another channel count (1 without one) */
        if (T->v->flags & IR_V_OUTPUT) T->last_use = p->n_layers;
    }
    int reads[MAX_IO];
    for (int l = 0; l < p->n_layers; l++) {
        int nr = layer_reads(p, l, m, nt, reads, MAX_IO);
        for (int j = 0; j < nr; j++)
            if (p->tensors[reads[j]].last_use < l) p->tensors[reads[j]].last_use = l;
        if (is_view_layer(p, &p->layers[l]) && nr == 1)
            for (int t = 0; t < nt; t++)
                if (p->tensors[t].producer == l) p->tensors[t].storage = root(p, reads[0]);
    }
    /* a root lives until the last use of any alias */
    for (int t = 0; t < nt; t++) {
        int r = root(p, t);
        if (p->tensors[t].last_use > p->tensors[r].last_use) p->tensors[r].last_use = p->tensors[t].last_use;
    }
    /* walk the layers with the SRAM as a set of resident roots */
    char *resident = calloc((size_t)(nt ? nt : 1), 1);
    char *in_ddr = calloc((size_t)(nt ? nt : 1), 1);
    if (!resident || !in_ddr) {
        free(m), free(resident), free(in_ddr);
        return diag_set(&p->d, NNPERF_E_NOMEM, "out of memory");
    }
    double used = 0, sram = p->hw.sram_bytes;
    for (int t = 0; t < nt; t++)
        if (p->tensors[t].producer < 0) in_ddr[t] = 1; /* graph inputs arrive in DDR */
    for (int l = 0; l < p->n_layers; l++) {
        struct pr_layer *L = &p->layers[l];
        int nr = layer_reads(p, l, m, nt, reads, MAX_IO);
        int view = is_view_layer(p, L);
        for (int j = 0; j < nr; j++) {
            int r = root(p, reads[j]);
            struct pr_tensor *T = &p->tensors[r];
            if (view) continue;
            if (L->fallback) {
                /* the CPU reads it from DDR; if it was on chip, the accelerator writes it out first */
                if (!in_ddr[r]) {
                    L->store_bytes += T->bytes;
                    in_ddr[r] = 1;
                }
                L->transfer_bytes += T->bytes;
                L->quant_elems += T->bytes / eb;
            } else if (resident[r]) {
                L->sram_bytes += T->bytes;
            } else {
                if (T->spilled)
                    L->spill_load_bytes += T->bytes;
                else
                    L->load_bytes += T->bytes;
            }
        }
        /* outputs of this layer */
        for (int t = 0; t < nt; t++) {
            struct pr_tensor *T = &p->tensors[t];
            if (T->producer != l || root(p, t) != t) continue;
            if (L->fallback) {
                L->transfer_bytes += T->bytes;
                L->quant_elems += T->bytes / eb;
                in_ddr[t] = 1;
                continue;
            }
            L->sram_bytes += T->bytes;
            if (T->v->flags & IR_V_OUTPUT) {
                L->store_bytes += T->bytes;
                in_ddr[t] = 1;
            }
            if (!T->v->n_consumers) continue; /* a graph output nothing else reads */
            if (adv_wi_pinned(p->wi, T->v)) {
                /* what-if: kept on chip beside the plan, as if its shortcut were short enough (its bytes do not
                 * count against the SRAM: the upper bound of shortening it) */
                resident[t] = 1;
                T->in_sram = 1;
                continue;
            }
            if (T->bytes > sram) {
                if (!in_ddr[t]) L->store_bytes += T->bytes;
                in_ddr[t] = 1;
                continue;
            }
            /* make room: spill residents whose last use is farther than this tensor's */
            while (used + T->bytes > sram) {
                int far = -1;
                for (int r = 0; r < nt; r++) /* a pinned tensor (what-if, below) is never spilled */
                    if (resident[r] && !adv_wi_pinned(p->wi, p->tensors[r].v) &&
                        (far < 0 || p->tensors[r].last_use > p->tensors[far].last_use))
                        far = r;
                if (far < 0 || p->tensors[far].last_use <= T->last_use) break;
                resident[far] = 0;
                used -= p->tensors[far].bytes;
                if (!in_ddr[far]) {
                    L->spill_store_bytes += p->tensors[far].bytes;
                    in_ddr[far] = 1;
                }
                p->tensors[far].spilled = 1;
                p->spilled_tensors++;
            }
            if (used + T->bytes <= sram) {
                resident[t] = 1;
                T->in_sram = 1;
                used += T->bytes;
            } else if (!in_ddr[t]) {
                L->store_bytes += T->bytes;
                in_ddr[t] = 1;
            }
        }
        /* free what is no longer needed */
        for (int r = 0; r < nt; r++)
            if (resident[r] && p->tensors[r].last_use <= l) {
                resident[r] = 0;
                if (!adv_wi_pinned(p->wi, p->tensors[r].v)) used -= p->tensors[r].bytes;
            }
        if (used < 0) used = 0;
    }
    for (int t = 0; t < nt; t++)
        if (p->tensors[t].spilled) p->tensors[t].in_sram = 0;
    free(m), free(resident), free(in_ddr);
    return NNPERF_OK;
}
