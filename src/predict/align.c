/* align.c - stage 2: pads each layer's output shape by the platform's alignment rule for its operator class
 * (e.g. a BPU pads H to 8, W to 16, C to 32: docs/sources.md [S100-ADVICE]; the HBDK report's "aligned output
 * shape", [HBDK-REPORT]) and scales the layer's ops by aligned / original elements: the padding is computed too. */
#include <stdlib.h>
#include <string.h>

#include "predict.h"

static int64_t round_up(int64_t x, int64_t m)
{
    if (m <= 1 || x <= 0) return x;
    int64_t r = (x + m - 1) / m * m;
    return r < x ? x : r;
}

static int64_t next_pow2(int64_t x)
{
    int64_t r = 1;
    while (r < x && r < ((int64_t)1 << 62)) r <<= 1;
    return r;
}

/* Layers' aligned outputs (struct pr_layer.aligned: rank, factor and dims in 2 + rank words), each distinct one
 * stored once (most layers of a network share a few shapes: a long chain would otherwise hold one per layer): they go
 * into buf (grown as needed) and are looked up by a hash of their dims in a small table of the ones seen
 * last; then the part of buf used is copied to the arena. A record's factor is a function of its dims, the output's
 * elements n and a what-if's channel scale, so the table keeps those two beside it and computes the factor (a
 * division) only for a new record. */
#define PR_DIMS_SEEN 64
struct dims_set {
    int64_t *buf;
    size_t used, cap;
    size_t at[PR_DIMS_SEEN]; /* 1 + offset in buf of a record with that hash, 0: none */
    int rank[PR_DIMS_SEEN];
    int64_t n[PR_DIMS_SEEN];
    double chan_scale[PR_DIMS_SEEN];
};

/* offset in s->buf of the record of aligned dims ad[0..rank) of an output of n elements whose channels a what-if
 * scaled by chan_scale (added when none): PR_DIMS_PROBES slots from the hash's, the first empty one taking a new
 * record (else the hash's own slot); (size_t)-1 when out of memory */
#define PR_DIMS_PROBES 4
static size_t dims_offset(struct dims_set *s, const int64_t *ad, int rank, int64_t n, double chan_scale)
{
    uint64_t h = (uint64_t)rank;
    for (int i = 0; i < rank; i++) {
        h = (h ^ (uint64_t)ad[i]) * 0x9E3779B97F4A7C15ull;
        h ^= h >> 29;
    }
    size_t home = (size_t)(h >> 40) % PR_DIMS_SEEN, slot = home;
    for (int k = 0; k < PR_DIMS_PROBES; k++) {
        size_t i = (home + (size_t)k) % PR_DIMS_SEEN;
        if (!s->at[i]) {
            slot = i;
            break;
        }
        if (s->rank[i] == rank && s->n[i] == n && s->chan_scale[i] == chan_scale &&
            !memcmp(s->buf + s->at[i] - 1 + 2, ad, (size_t)rank * sizeof *ad))
            return s->at[i] - 1;
    }
    if (s->used + 2 + (size_t)rank > s->cap) {
        size_t cap = 2 * s->cap + 2 + NNPERF_MAX_RANK;
        int64_t *b = realloc(s->buf, cap * sizeof *b);
        if (!b) return (size_t)-1;
        s->buf = b, s->cap = cap;
    }
    double an = 1.0;
    for (int i = 0; i < rank; i++) an *= (double)ad[i];
    double factor = n > 0 ? an / ((double)n * chan_scale) : 1.0;
    if (factor < 1.0) factor = 1.0;
    size_t off = s->used;
    s->buf[off] = rank;
    memcpy(s->buf + off + 1, &factor, sizeof factor);
    memcpy(s->buf + off + 2, ad, (size_t)rank * sizeof *ad);
    s->used += 2 + (size_t)rank;
    s->at[slot] = off + 1;
    s->rank[slot] = rank;
    s->n[slot] = n;
    s->chan_scale[slot] = chan_scale;
    return off;
}

/* Whether each node's output derives from a product of two activations (prod, indexed by ir_node.index): a MatMul
 * whose two operands are activations (attention's scores, their product with the values), or an element-wise,
 * activation, normalisation, reduction, softmax, data or view node whose activation inputs all so derive. A node
 * lowered away passes its first input's on. A graph input or a constant derives from none. Producers are found as
 * pr_producer finds them (a value the lowering rewired still names the analysis's node). */
static void mark_products(const struct nnperf_prediction *p, unsigned char *prod)
{
    const unsigned follow = 1u << OC_ELTWISE | 1u << OC_ACT | 1u << OC_NORM | 1u << OC_REDUCE |
                            1u << OC_SOFTMAX | 1u << OC_DATA | 1u << OC_VIEW | 1u << OC_QUANT;
    for (int k = 0; k < p->g->n_nodes; k++) {
        const struct ir_node *nd = p->g->nodes[k];
        int acts = 0, derived = 0;
        for (int i = 0; i < nd->n_in; i++) {
            const struct ir_value *v = nd->in[i];
            if (!pr_is_act(v)) continue;
            int pi = pr_producer_index(p, v);
            acts++;
            derived += pi >= 0 && pi < k && prod[pi];
            if (p->node_in[k].gone) break; /* its consumers read its first input */
        }
        int klass = p->node_in[k].klass;
        if (p->node_in[k].gone)
            prod[k] = acts == 1 && derived == 1;
        else if (klass == OC_MATMUL)
            prod[k] = acts >= 2;
        else
            prod[k] = klass >= 0 && klass < 32 && (follow & (1u << klass)) && acts > 0 && derived == acts;
    }
}

const struct hw_align *pr_align_rule(const struct hw_desc *hw, const struct pr_layer *L)
{
    for (int r = 0; r < hw->n_align; r++)
        if ((hw->align[r].class_mask & (1u << L->klass)) && (!hw->align[r].products || L->product))
            return &hw->align[r];
    return NULL;
}

enum nnperf_status pr_align(struct nnperf_prediction *p)
{
    /* the aligned outputs do not depend on the batch: a prediction for another batch (nnperf_predict_batch) shares
     * its base's, which stays alive while it does */
    if (p->base) {
        for (int l = 0; l < p->n_layers; l++) {
            p->layers[l].aligned = p->base->layers[l].aligned;
            p->layers[l].product = p->base->layers[l].product;
        }
        return NNPERF_OK;
    }
    int by_product = 0;
    for (int r = 0; r < p->hw->n_align; r++) by_product |= p->hw->align[r].products;
    if (by_product && p->g->n_nodes > 0) {
        unsigned char *prod = calloc((size_t)p->g->n_nodes, 1);
        if (!prod) return diag_set(&p->d, NNPERF_E_NOMEM, "out of memory");
        mark_products(p, prod);
        for (int l = 0; l < p->n_layers; l++) {
            int pi = pr_producer_index(p, pr_layer_out(&p->layers[l]));
            p->layers[l].product = pi >= 0 && prod[pi];
        }
        free(prod);
    }
    struct dims_set set = {NULL, 0, 0, {0}, {0}, {0}, {0}};
    size_t *off = malloc((size_t)(p->n_layers ? p->n_layers : 1) * sizeof *off);
    if (!off) return diag_set(&p->d, NNPERF_E_NOMEM, "out of memory");
    for (int l = 0; l < p->n_layers; l++) {
        struct pr_layer *L = &p->layers[l];
        L->aligned = NULL;
        off[l] = (size_t)-1; /* none */
        const struct ir_value *v = pr_layer_out(L);
        int64_t n, ad[NNPERF_MAX_RANK];
        if (!v || !ir_numel(v, &n) || v->rank < 0 || v->rank > NNPERF_MAX_RANK) continue;
        for (int i = 0; i < v->rank; i++) ad[i] = v->dims[i].val;
        /* a what-if input: another channel count for this output (axis 1 of NCHW, else the last, as below);
         * its node's ops are already scaled by new/old, so the factor is over the new size */
        double chan_scale = 1.0;
        const struct pr_value_in *vi = pr_value(p, v);
        int64_t nc = vi ? vi->channels : 0;
        if (nc > 0 && v->rank > 0) {
            int ax = v->rank == 4 ? 1 : v->rank - 1;
            chan_scale = (double)nc / (double)ad[ax];
            ad[ax] = nc;
        }
        const struct hw_align *rule = NULL;
        const struct ir_node *pn = v->producer; /* a what-if may leave its layer unpadded */
        int unpad = pn && pn->index >= 0 && pn->index < p->g->n_nodes && p->node_in[pn->index].unpadded;
        if (!L->fallback && !unpad) rule = pr_align_rule(p->hw, L);
        if (rule && v->rank > 0) {
            int64_t *d = ad;
            if (rule->pow2) {
                for (int i = 0; i < v->rank; i++) d[i] = next_pow2(d[i]);
            } else if (v->rank == 4) { /* N, C, H, W */
                d[0] = round_up(d[0], rule->n);
                d[1] = round_up(d[1], rule->c);
                d[2] = round_up(d[2], rule->h);
                d[3] = round_up(d[3], rule->w);
            } else { /* channels last for matrices and sequences */
                d[v->rank - 1] = round_up(d[v->rank - 1], rule->c);
            }
        }
        off[l] = dims_offset(&set, ad, v->rank, n, chan_scale);
        if (off[l] == (size_t)-1) {
            free(set.buf), free(off);
            return diag_set(&p->d, NNPERF_E_NOMEM, "out of memory");
        }
    }
    int64_t *dims = ar_calloc(&p->ar, set.used ? set.used : 1, sizeof *dims);
    if (dims) {
        if (set.used) memcpy(dims, set.buf, set.used * sizeof *dims);
        for (int l = 0; l < p->n_layers; l++)
            if (off[l] != (size_t)-1) p->layers[l].aligned = dims + off[l];
    }
    free(set.buf), free(off);
    return dims ? NNPERF_OK : diag_set(&p->d, NNPERF_E_NOMEM, "out of memory");
}

double pr_mac_aligned(const struct pr_layer *L)
{
    return L->mac_ops * pr_align_factor(L);
}

double pr_vec_aligned(const struct pr_layer *L)
{
    /* a reduction (global pool, Reduce*) works per input element: padding its small output adds no work */
    int reduction = L->klass == OC_REDUCE || pr_global_pool(L->main);
    return L->vec_ops * (reduction ? 1.0 : pr_align_factor(L));
}
