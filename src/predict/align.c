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

/* Layers' aligned dims, each distinct array stored once (most layers of a network share a few shapes: a long chain
 * would otherwise hold one array per layer): the arrays go into buf (room for every layer's) and are looked up by a
 * hash of their dims in a small table of the arrays seen last; then the part of buf used is copied to the arena. */
#define PR_DIMS_SEEN 64
struct dims_set {
    int64_t *buf;
    size_t used;
    size_t at[PR_DIMS_SEEN]; /* 1 + offset in buf of an array with that hash, 0: none */
    int rank[PR_DIMS_SEEN];
};

/* offset in s->buf of an array equal to d[0..rank) (added when none): PR_DIMS_PROBES slots from the hash's, the
 * first empty one taking a new array (else the hash's own slot) */
#define PR_DIMS_PROBES 4
static size_t dims_offset(struct dims_set *s, const int64_t *d, int rank)
{
    uint64_t h = (uint64_t)rank;
    for (int i = 0; i < rank; i++) {
        h = (h ^ (uint64_t)d[i]) * 0x9E3779B97F4A7C15ull;
        h ^= h >> 29;
    }
    size_t home = (size_t)(h >> 40) % PR_DIMS_SEEN, slot = home;
    for (int k = 0; k < PR_DIMS_PROBES; k++) {
        size_t i = (home + (size_t)k) % PR_DIMS_SEEN;
        if (!s->at[i]) {
            slot = i;
            break;
        }
        if (s->rank[i] == rank && !memcmp(s->buf + s->at[i] - 1, d, (size_t)rank * sizeof *d))
            return s->at[i] - 1;
    }
    size_t off = s->used;
    memcpy(s->buf + off, d, (size_t)rank * sizeof *d);
    s->used += (size_t)rank;
    s->at[slot] = off + 1;
    s->rank[slot] = rank;
    return off;
}

enum nnperf_status pr_align(struct nnperf_prediction *p)
{
    /* room for the layers' aligned dims, one array for all (most outputs have 4 dims, not NNPERF_MAX_RANK) */
    size_t total = 0;
    for (int l = 0; l < p->n_layers; l++) {
        const struct ir_value *v = p->layers[l].out;
        if (v && v->rank > 0 && v->rank <= NNPERF_MAX_RANK) total += (size_t)v->rank;
    }
    struct dims_set set = {malloc((total ? total : 1) * sizeof *set.buf), 0, {0}, {0}};
    size_t *off = malloc((size_t)(p->n_layers ? p->n_layers : 1) * sizeof *off);
    if (!set.buf || !off) {
        free(set.buf), free(off);
        return diag_set(&p->d, NNPERF_E_NOMEM, "out of memory");
    }
    for (int l = 0; l < p->n_layers; l++) {
        struct pr_layer *L = &p->layers[l];
        L->align_factor = 1.0;
        L->aligned_dims = NULL;
        off[l] = (size_t)-1; /* none */
        const struct ir_value *v = L->out;
        int64_t n, ad[NNPERF_MAX_RANK];
        if (!v || !ir_numel(v, &n) || v->rank > NNPERF_MAX_RANK) continue;
        L->out_rank = (signed char)v->rank; /* <= NNPERF_MAX_RANK */
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
        if (!L->fallback && !unpad)
            for (int r = 0; r < p->hw->n_align && !rule; r++)
                if (p->hw->align[r].class_mask & (1u << L->klass)) rule = &p->hw->align[r];
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
        double an = 1.0;
        for (int i = 0; i < v->rank; i++) an *= (double)ad[i];
        off[l] = dims_offset(&set, ad, v->rank);
        L->align_factor = n > 0 ? an / ((double)n * chan_scale) : 1.0;
        if (L->align_factor < 1.0) L->align_factor = 1.0;
    }
    int64_t *dims = ar_calloc(&p->ar, set.used ? set.used : 1, sizeof *dims);
    if (dims) {
        if (set.used) memcpy(dims, set.buf, set.used * sizeof *dims);
        for (int l = 0; l < p->n_layers; l++)
            if (off[l] != (size_t)-1) p->layers[l].aligned_dims = dims + off[l];
    }
    free(set.buf), free(off);
    return dims ? NNPERF_OK : diag_set(&p->d, NNPERF_E_NOMEM, "out of memory");
}

double pr_mac_aligned(const struct pr_layer *L)
{
    return L->mac_ops * L->align_factor;
}

double pr_vec_aligned(const struct pr_layer *L)
{
    /* a reduction (global pool, Reduce*) works per input element: padding its small output adds no work */
    int reduction = L->klass == OC_REDUCE || pr_global_pool(L->main);
    return L->vec_ops * (reduction ? 1.0 : L->align_factor);
}
