/* fuse.c - stage 1: groups the graph's nodes into layers. A layer is one node, or a chain matched by one of the
 * platform's fusion patterns (e.g. Conv -> BatchNormalization -> Add -> Relu) where every intermediate output has
 * exactly one consumer, so it never leaves the chip. Nodes whose outputs are all known constants (shape arithmetic
 * the compiler folds) form no layer. Unsupported operators become fallback layers. Layers are ordered by their
 * last node, which keeps producers before consumers. */
#include <stdlib.h>
#include <string.h>

#include "predict.h"

/* v's number in the index: its position among the graph's values, else n_values + its number in x->other (-1: none) */
static int cons_num(const struct pr_cons_ix *x, const struct ir_value *v)
{
    int i = ir_value_pos(x->g, v);
    if (i >= 0) return i;
    int j = pm_get(&x->other, v);
    return j < 0 ? -1 : x->g->n_values + j;
}

int pr_cons_find(const struct pr_cons_ix *x, const struct ir_value *v)
{
    int i = v ? cons_num(x, v) : -1;
    return i >= 0 && x->first[i] < x->n && x->c[x->first[i]].v == v ? x->first[i] : -1;
}

/* the single consumer node of v, or -1 (none, several, or a graph output) */
static int single_consumer(const struct pr_cons_ix *x, const struct ir_value *v)
{
    if (!v || (v->flags & IR_V_OUTPUT)) return -1;
    int i = pr_cons_find(x, v);
    if (i < 0) return -1;
    int node = x->c[i].node;
    for (int k = i + 1; k < x->n && x->c[k].v == v; k++)
        if (x->c[k].node != node) return -1;
    return node;
}

/* The counting sort's second half: num[j] is the j-th input's value number (the inputs of g's nodes in order, NULL
 * ones left out), n_num of them among n_values + n_other numbers; each number's entries counted, their ends summed,
 * and the entries placed from the last input back, so each value's readers end up in node order. x->c and x->first
 * (zeroed) hold them. */
static void cons_place(const struct ir_graph *g, struct pr_cons_ix *x, const int *num, int n_num, int n_other)
{
    for (int j = 0; j < n_num; j++) x->first[num[j]]++;
    for (int j = 1; j < g->n_values + n_other; j++) x->first[j] += x->first[j - 1];
    x->n = n_num;
    for (int k = g->n_nodes - 1, j = n_num; k >= 0; k--) {
        struct ir_value *const *in = g->nodes[k]->in;
        for (int i = g->nodes[k]->n_in - 1; i >= 0; i--)
            if (in[i]) x->c[--x->first[num[--j]]] = (struct pr_cons){in[i], k};
    }
}

/* A counting sort: each input's value numbered (num[j]: the j-th input's), then cons_place. */
int pr_cons_build(const struct ir_graph *g, struct pr_cons_ix *x)
{
    int n = 0;
    for (int k = 0; k < g->n_nodes; k++) n += g->nodes[k]->n_in;
    size_t nums = (size_t)g->n_values + (size_t)n + 1; /* every value of g, and each input of another */
    x->n = 0;
    x->g = g;
    memset(&x->other, 0, sizeof x->other);
    x->c = malloc((size_t)(n ? n : 1) * sizeof *x->c);
    x->first = calloc(nums, sizeof *x->first);
    int *num = malloc((size_t)(n ? n : 1) * sizeof *num);
    int n_other = 0, n_num = 0, ok = x->c && x->first && num;
    for (int k = 0; ok && k < g->n_nodes; k++) {
        struct ir_value *const *in = g->nodes[k]->in;
        for (int i = 0, n_in = g->nodes[k]->n_in; i < n_in; i++) {
            const struct ir_value *v = in[i];
            if (!v) continue;
            int at = ir_value_pos(g, v);
            if (at < 0) {
                int *o = x->other.slot || pm_init(&x->other, 16) ? pm_put(&x->other, v) : NULL;
                if (!o) {
                    ok = 0;
                    break;
                }
                if (*o < 0) *o = n_other++;
                at = g->n_values + *o;
            }
            num[n_num++] = at;
        }
    }
    if (ok) cons_place(g, x, num, n_num, n_other);
    free(num);
    return ok;
}

int pr_cons_build_from(const struct ir_graph *g, struct pr_cons_ix *x, const int *num, int n_num)
{
    x->n = 0;
    x->g = g;
    memset(&x->other, 0, sizeof x->other);
    x->c = malloc((size_t)(n_num ? n_num : 1) * sizeof *x->c);
    x->first = calloc((size_t)g->n_values + 1, sizeof *x->first);
    if (!x->c || !x->first) return 0;
    cons_place(g, x, num, n_num, 0);
    return 1;
}

void pr_cons_free(struct pr_cons_ix *x)
{
    free(x->c);
    free(x->first);
    pm_free(&x->other);
    x->c = NULL;
    x->first = NULL;
}

/* hw_supports for node nd, asked once per registry operator (p->op_ok) */
static int supported(struct nnperf_prediction *p, const struct ir_node *nd)
{
    if (nd->op < 0) return hw_supports(p->hw, nd->op_type);
    if (p->op_ok[nd->op] < 0) p->op_ok[nd->op] = (signed char)hw_supports(p->hw, nd->op_type);
    return p->op_ok[nd->op];
}

/* operator names equal (the first letters compared inline: most pairs differ there) */
static int same_op(const char *a, const char *b)
{
    return a[0] == b[0] && !strcmp(a, b);
}

static int folded(const struct ir_node *nd)
{
    /* every output is a constant (computed from initializers only: shape arithmetic, an Identity of a weight):
     * the compiler evaluates it ahead of time */
    int any = 0;
    for (int i = 0; i < nd->n_out; i++) {
        const struct ir_value *v = nd->out[i];
        if (!v) continue;
        if (!v->is_const) return 0;
        any = 1;
    }
    return any;
}

/* SiLU written out as Mul(x, Sigmoid(x)): v feeds exactly a Sigmoid (read only by the Mul) and that Mul; both
 * unassigned and supported. *sg, *mu: their node indices. */
static int silu_pair(const struct nnperf_prediction *p, const struct pr_cons_ix *cx, const struct ir_value *v,
                     int *sg, int *mu)
{
    const struct ir_graph *g = p->g;
    if (!v || (v->flags & IR_V_OUTPUT)) return 0;
    int s = -1, m = -1;
    PR_CONS_EACH(cx, v, i)
    {
        int op = g->nodes[cx->c[i].node]->op;
        if (op == OPID_SIGMOID && s < 0)
            s = cx->c[i].node;
        else if (op == OPID_MUL && (m < 0 || m == cx->c[i].node))
            m = cx->c[i].node;
        else
            return 0;
    }
    if (s < 0 || m < 0 || p->layer_of[s] != -2 || p->layer_of[m] != -2) return 0;
    if (single_consumer(cx, g->nodes[s]->out[0]) != m || g->nodes[m]->n_in != 2) return 0;
    if (!hw_supports(p->hw, "Sigmoid") || !hw_supports(p->hw, "Mul")) return 0;
    *sg = s;
    *mu = m;
    return 1;
}

struct lspan {
    int first, last, len;
    int nodes[HW_MAX_PATTERN];
};

/* a span as pr_fuse keeps it until the layers are made: its nodes are pool[at .. at + len) (16 bytes a layer instead
 * of a struct lspan's 44: a long chain's spans live while its layers are allocated) */
struct lrec {
    int last, len, at;
};

static int cmp_span(const void *a, const void *b)
{
    const struct lrec *x = a, *y = b;
    return x->last - y->last;
}

static void keep_span(struct lrec *spans, int *ns, int *pool, int *npool, const struct lspan *sp)
{
    spans[(*ns)++] = (struct lrec){sp->last, sp->len, *npool};
    for (int i = 0; i < sp->len; i++) pool[(*npool)++] = sp->nodes[i];
}

/* a forced fused layer (a what-if input) starting at node k */
static int forced_span(struct nnperf_prediction *p, int k, int n, struct lspan *sp)
{
    for (int gi = 0; gi < p->n_groups; gi++) {
        const struct pr_group_in *gr = &p->groups[gi];
        if (gr->n < 2 || gr->n > HW_MAX_PATTERN || gr->nodes[0] != k) continue;
        for (int i = 0; i < gr->n; i++)
            if (gr->nodes[i] < 0 || gr->nodes[i] >= n || (i && p->layer_of[gr->nodes[i]] != -2)) return 0;
        *sp = (struct lspan){k, k, gr->n, {0}};
        for (int i = 0; i < gr->n; i++) {
            sp->nodes[i] = gr->nodes[i];
            p->layer_of[gr->nodes[i]] = -3;
            if (gr->nodes[i] > sp->last) sp->last = gr->nodes[i];
        }
        return 1;
    }
    return 0;
}

/* a layer's sums and names from its nodes (in execution order); layer_of points at it. Its work per run is
 * pr_work's. */
static void layer_sums(struct nnperf_prediction *p, int l)
{
    struct pr_layer *L = &p->layers[l];
    L->cost_known = 1;
    L->main = NULL;
    L->params = 0;
    if (L->x) L->x->packed_bytes = 0;
    uint64_t best = 0;
    double best_vec = -1;
    for (int i = 0; i < L->n_nodes; i++) {
        struct ir_node *nd = L->nodes[i];
        const struct pr_node_in *in = &p->node_in[nd->index];
        struct pr_node_work wk = pr_node_work(p, nd->index);
        p->layer_of[nd->index] = l;
        if (!nd->cost.known && !in->recounted) L->cost_known = 0;
        /* the costliest node leads the layer: most MACs, then most other work */
        if (!L->main || nd->cost.macs > best ||
            (nd->cost.macs == best && best == 0 && wk.vec_ops > best_vec)) {
            L->main = nd;
            best = nd->cost.macs;
            best_vec = wk.vec_ops;
        }
        L->params += wk.params;
        PR_LX_ADD(p, L, packed_bytes, wk.packed_bytes);
    }
    L->name =
        L->n_nodes > 1 ? ar_printf(&p->ar, "%s+%d", L->nodes[0]->name, L->n_nodes - 1) : L->nodes[0]->name;
    L->klass = L->attention ? OC_ATTENTION : p->node_in[L->main->index].klass;
    L->fallback = 0;
    for (int i = 0; i < L->n_nodes; i++)
        if (!supported(p, L->nodes[i])) L->fallback = 1;
    /* the type it computes at: its main node's (a quantized graph's, lower.c), else the prediction's; a float layer
     * of a quantized graph on a platform without a float peak runs on the fallback unit, in fp32 */
    const struct pr_node_in *mi = &p->node_in[L->main->index];
    L->dtype = mi->dtype >= 0 ? mi->dtype : (signed char)p->dtype;
    if (mi->float_path) L->fallback = 1, L->dtype = HW_FP32;
}

enum nnperf_status pr_work(struct nnperf_prediction *p)
{
    for (int l = 0; l < p->n_layers; l++) {
        struct pr_layer *L = &p->layers[l];
        L->mac_ops = L->vec_ops = 0;
        for (int i = 0; i < L->n_nodes; i++) {
            int k = L->nodes[i]->index;
            L->mac_ops += pr_node_mac(p, k) * p->runs;
            L->vec_ops += pr_node_vec(p, k) * p->runs;
        }
        /* a causal fused attention skips the masked part */
        double ws = pr_lx(L)->work_scale;
        L->mac_ops *= ws > 0 ? ws : 1;
        L->vec_ops *= ws > 0 ? ws : 1;
    }
    return NNPERF_OK;
}

static void finish_layers(struct nnperf_prediction *p)
{
    p->fallback_layers = p->unknown_layers = 0;
    for (int l = 0; l < p->n_layers; l++) {
        struct pr_layer *L = &p->layers[l];
        layer_sums(p, l);
        if (L->fallback && !p->hw->fb.present) {
            pr_warn(p,
                    "layer '%s' (%s) is not supported by %s and the platform has no fallback unit: counted "
                    "on the "
                    "accelerator",
                    L->name, L->main->op_type, p->hw->name);
            L->fallback = 0;
            if (p->hw->peak_ops[L->dtype] <= 0) L->dtype = (signed char)p->dtype;
        }
        if (L->fallback) p->fallback_layers++;
        if (!L->cost_known) p->unknown_layers++;
    }
}

/* ---- merging layers into kernels: pointwise regions and fused attention ---- */

static int find_root(int *root, int l)
{
    while (root[l] != l) l = root[l] = root[root[l]];
    return l;
}

/* joins layer l's region and the region rooted at r (the lower root stays); returns the joined region's root */
static int join_root(int *root, int r, int l)
{
    int q = find_root(root, l);
    if (q == r) return r;
    root[q < r ? r : q] = q < r ? q : r;
    return q < r ? q : r;
}

/* Rebuilds p->layers from the union of layers given by root[] (every layer's region): a region's nodes in their
 * layers' order, regions in a topological order of their dependencies (earliest first layer first). */
static enum nnperf_status merge_regions(struct nnperf_prediction *p, int *root, const struct pr_cons_ix *cx)
{
    int n = p->n_layers;
    const struct ir_graph *g = p->g;
    int *count = calloc((size_t)n, sizeof *count), *indeg = calloc((size_t)n, sizeof *indeg);
    int *order = malloc((size_t)n * sizeof *order), *newix = malloc((size_t)n * sizeof *newix);
    struct pr_layer *nl = ar_calloc(&p->ar, (size_t)(n ? n : 1), sizeof *nl);
    enum nnperf_status st = NNPERF_OK;
    if (!count || !indeg || !order || !newix || !nl) {
        st = diag_set(&p->d, NNPERF_E_NOMEM, "out of memory");
        goto out;
    }
    for (int l = 0; l < n; l++) count[find_root(root, l)] += p->layers[l].n_nodes;
    /* region dependencies: an edge per (producer region, consumer region) pair of a value, counted into indeg */
    for (int l = 0; l < n; l++) {
        int r = find_root(root, l);
        for (int i = 0; i < p->layers[l].n_nodes; i++) {
            const struct ir_node *nd = p->layers[l].nodes[i];
            for (int k = 0; k < nd->n_in; k++) {
                const struct ir_value *v = nd->in[k];
                if (!v || !v->producer || p->layer_of[v->producer->index] < 0) continue;
                if (find_root(root, p->layer_of[v->producer->index]) != r) indeg[r]++;
            }
        }
    }
    /* Kahn's algorithm over regions, scanning layers in order: a region is emitted once all its inputs are */
    int done = 0, nreg = 0;
    for (int l = 0; l < n; l++)
        if (find_root(root, l) == l) nreg++;
    int *ready = malloc((size_t)(nreg ? nreg : 1) * sizeof *ready), head = 0, tail = 0;
    if (!ready) {
        st = diag_set(&p->d, NNPERF_E_NOMEM, "out of memory");
        goto out;
    }
    for (int l = 0; l < n; l++)
        if (find_root(root, l) == l && indeg[l] == 0) ready[tail++] = l;
    /* each region's layers, in order: a list through next[] from first[] */
    int *first = malloc((size_t)(n ? n : 1) * sizeof *first),
        *next = malloc((size_t)(n ? n : 1) * sizeof *next);
    int *last = malloc((size_t)(n ? n : 1) * sizeof *last);
    if (!first || !next || !last) {
        free(ready), free(first), free(next), free(last);
        st = diag_set(&p->d, NNPERF_E_NOMEM, "out of memory");
        goto out;
    }
    for (int l = 0; l < n; l++) first[l] = last[l] = next[l] = -1;
    for (int l = 0; l < n; l++) {
        int r = find_root(root, l);
        if (last[r] < 0)
            first[r] = l;
        else
            next[last[r]] = l;
        last[r] = l;
    }
    while (head < tail) {
        int r = ready[head++];
        order[done++] = r;
        for (int l = first[r]; l >= 0; l = next[l]) {
            for (int i = 0; i < p->layers[l].n_nodes; i++) {
                const struct ir_node *nd = p->layers[l].nodes[i];
                for (int o = 0; o < nd->n_out; o++) {
                    const struct ir_value *v = nd->out[o];
                    if (!v) continue;
                    PR_CONS_EACH(cx, v, c)
                    {
                        int cl = p->layer_of[cx->c[c].node];
                        if (cl < 0) continue;
                        int cr = find_root(root, cl);
                        if (cr != r && --indeg[cr] == 0) ready[tail++] = cr;
                    }
                }
            }
        }
    }
    free(ready), free(first), free(next), free(last);
    if (done !=
        nreg) { /* a cycle: the merge rules should make this impossible; keep the layers as they were */
        pr_warn(p, "kernel fusion skipped: merging layers would make a cycle");
        goto out;
    }
    for (int k = 0; k < nreg; k++) newix[order[k]] = k;
    for (int k = 0; k < nreg; k++) {
        nl[k].nodes = ar_calloc(&p->ar, (size_t)count[order[k]], sizeof *nl[k].nodes);
        if (!nl[k].nodes) {
            st = diag_set(&p->d, NNPERF_E_NOMEM, "out of memory");
            goto out;
        }
    }
    for (int l = 0; l < n; l++) {
        int r = find_root(root, l);
        struct pr_layer *dst = &nl[newix[r]];
        for (int i = 0; i < p->layers[l].n_nodes; i++) dst->nodes[dst->n_nodes++] = p->layers[l].nodes[i];
        double ws = pr_lx(&p->layers[l])->work_scale;
        if (ws > 0) pr_lx_make(p, dst)->work_scale = ws;
        if (p->layers[l].attention) dst->attention = 1;
    }
    (void)g;
    p->layers = nl;
    p->n_layers = nreg;
    for (int l = 0; l < nreg; l++)
        for (int i = 0; i < nl[l].n_nodes; i++) p->layer_of[nl[l].nodes[i]->index] = l;
out:
    free(count), free(indeg), free(order), free(newix);
    return st;
}

/* every layer its own region (root[l] = l) and the consumer index, for a pass that joins regions */
static enum nnperf_status regions_init(struct nnperf_prediction *p, int **root, struct pr_cons_ix *cx)
{
    int n = p->n_layers;
    *root = malloc((size_t)(n ? n : 1) * sizeof **root);
    if (!*root || !pr_cons_build(p->g, cx)) {
        free(*root), *root = NULL, pr_cons_free(cx);
        return diag_set(&p->d, NNPERF_E_NOMEM, "out of memory");
    }
    for (int l = 0; l < n; l++) (*root)[l] = l;
    return NNPERF_OK;
}

/* element-wise, activation, normalisation, reduction, data-movement, view and cast nodes */
static int pointwise_class(int k)
{
    return k == OC_ELTWISE || k == OC_ACT || k == OC_NORM || k == OC_REDUCE || k == OC_DATA || k == OC_VIEW ||
           k == OC_QUANT;
}

static int pointwise_layer(struct nnperf_prediction *p, const struct pr_layer *L)
{
    for (int i = 0; i < L->n_nodes; i++) {
        if (!supported(p, L->nodes[i])) return 0;
        if (!pointwise_class(p->node_in[L->nodes[i]->index].klass)) return 0;
    }
    return L->n_nodes > 0;
}

/* Pointwise fusion (compute.fuse_pointwise): a layer of pointwise nodes joins the region of the layer producing
 * its input (the latest-starting one when several do), so a chain of element-wise work runs in one kernel with its
 * producer (a GEMM's epilogue, a normalisation with its residual Add). It joins only when every other region it
 * reads has ended before that region began: regions then never depend on each other both ways. */
static enum nnperf_status fuse_pointwise(struct nnperf_prediction *p)
{
    int n = p->n_layers;
    int *root = malloc((size_t)(n ? n : 1) * sizeof *root),
        *rmax = malloc((size_t)(n ? n : 1) * sizeof *rmax);
    if (!root || !rmax) {
        free(root), free(rmax);
        return diag_set(&p->d, NNPERF_E_NOMEM, "out of memory");
    }
    for (int l = 0; l < n; l++) root[l] = l, rmax[l] = l;
    for (int l = 0; l < n; l++) {
        const struct pr_layer *L = &p->layers[l];
        if (!pointwise_layer(p, L)) continue;
        int best = -1;
        for (int pass = 0; pass < 2; pass++)
            for (int i = 0; i < L->n_nodes; i++) {
                const struct ir_node *nd = L->nodes[i];
                for (int k = 0; k < nd->n_in; k++) {
                    const struct ir_value *v = nd->in[k];
                    if (!v || !v->producer || p->layer_of[v->producer->index] < 0) continue;
                    int q = p->layer_of[v->producer->index];
                    if (q == l) continue;
                    int r = find_root(root, q);
                    if (pass == 0) {
                        if (best < 0 || r > best)
                            best = r; /* the region that began last (roots begin regions) */
                    } else if (r != best && rmax[r] >= best) {
                        best = -2; /* another producer region still runs when this one begins */
                    }
                }
            }
        if (best < 0) continue;
        int fb = 0;
        for (int i = 0; i < p->layers[best].n_nodes; i++)
            if (!supported(p, p->layers[best].nodes[i])) fb = 1;
        if (fb) continue;
        root[l] = best;
        rmax[best] = l;
    }
    struct pr_cons_ix cx = {0};
    enum nnperf_status st = pr_cons_build(p->g, &cx) ? merge_regions(p, root, &cx)
                                                     : diag_set(&p->d, NNPERF_E_NOMEM, "out of memory");
    pr_cons_free(&cx);
    free(root), free(rmax);
    return st;
}

/* the producer node of v when it is a MatMul reached from v through at most depth pointwise nodes (by their first
 * input that leads there), else NULL */
static const struct ir_node *matmul_above(const struct nnperf_prediction *p, const struct ir_value *v,
                                          int depth)
{
    if (!v || !v->producer || depth < 0) return NULL;
    const struct ir_node *nd = pr_producer(p, v);
    if (nd->op == OPID_MAT_MUL) return nd;
    if (!pointwise_class(p->node_in[nd->index].klass)) return NULL;
    for (int k = 0; k < nd->n_in; k++) {
        const struct ir_node *m = matmul_above(p, nd->in[k], depth - 1);
        if (m) return m;
    }
    return NULL;
}

/* the MatMul consuming v through single-consumer pointwise nodes (at most depth), else NULL */
static const struct ir_node *matmul_below(const struct nnperf_prediction *p, const struct pr_cons_ix *cx,
                                          const struct ir_value *v, int depth)
{
    if (!v || (v->flags & IR_V_OUTPUT) || depth < 0) return NULL;
    int first = pr_cons_find(cx, v);
    if (first < 0 || (first + 1 < cx->n && cx->c[first + 1].v == v)) return NULL; /* one consumer */
    const struct ir_node *nd = p->g->nodes[cx->c[first].node];
    if (nd->op == OPID_MAT_MUL) return nd;
    if (!pointwise_class(p->node_in[nd->index].klass) || nd->n_out < 1) return NULL;
    return matmul_below(p, cx, nd->out[0], depth - 1);
}

/* marks on[] = 1 every node on a path of at most depth steps from a down to b (a's descendants that reach b),
 * 2 the nodes visited that do not; returns whether a reaches b */
static int mark_path(const struct nnperf_prediction *p, const struct pr_cons_ix *cx, const struct ir_node *a,
                     const struct ir_node *b, unsigned char *on, int depth)
{
    if (on[a->index]) return on[a->index] == 1;
    if (a == b) return on[a->index] = 1;
    int any = 0;
    for (int o = 0; depth > 0 && o < a->n_out; o++) {
        const struct ir_value *v = a->out[o];
        if (!v) continue;
        PR_CONS_EACH(cx, v, c)
        {
            const struct ir_node *nx = p->g->nodes[cx->c[c].node];
            if (nx->index <= b->index && mark_path(p, cx, nx, b, on, depth - 1)) any = 1;
        }
    }
    on[a->index] = any ? 1 : 2;
    return any;
}

/* Fused attention (compute.fused_attention): MatMul(Q, K) -> pointwise (scale, mask) -> Softmax -> pointwise ->
 * MatMul(., V), whose intermediate values nothing else reads, becomes one layer (with whatever else the layers of
 * those nodes hold): the scores stay on chip. For causal attention (a decoder) with S queries over T keys, a kernel
 * that skips masked blocks does (S x (T - S) + S (S + 1) / 2) / (S x T) of the work. */
static enum nnperf_status fuse_attention(struct nnperf_prediction *p)
{
    const struct ir_graph *g = p->g;
    int n = p->n_layers;
    int *root;
    struct pr_cons_ix cx = {0};
    enum nnperf_status st = regions_init(p, &root, &cx);
    if (st) return st;
    unsigned char *on = calloc((size_t)(g->n_nodes ? g->n_nodes : 1), 1);
    if (!on) {
        free(root), pr_cons_free(&cx);
        return diag_set(&p->d, NNPERF_E_NOMEM, "out of memory");
    }
    int fused = 0;
    for (int k = 0; k < g->n_nodes; k++) {
        const struct ir_node *sm = g->nodes[k];
        if (sm->op != OPID_SOFTMAX || p->layer_of[k] < 0 || sm->n_in < 1 || sm->n_out < 1) continue;
        const struct ir_node *a = matmul_above(p, sm->in[0], 6), *b = matmul_below(p, &cx, sm->out[0], 6);
        /* an attention block is a few nodes: a span of thousands is something else (and bounds the work here) */
        if (!a || !b || p->layer_of[a->index] < 0 || p->layer_of[b->index] < 0 || b->index <= a->index ||
            b->index - a->index > 4096)
            continue;
        memset(on + a->index, 0, (size_t)(b->index - a->index + 1));
        if (!mark_path(p, &cx, a, b, on, 16)) continue;
        /* nothing outside the path reads the scores */
        int escapes = 0;
        for (int j = a->index; j < b->index && !escapes; j++) {
            if (on[j] != 1) continue;
            const struct ir_node *nd = g->nodes[j];
            for (int o = 0; o < nd->n_out; o++) {
                const struct ir_value *v = nd->out[o];
                if (!v) continue;
                if (v->flags & IR_V_OUTPUT) escapes = 1;
                PR_CONS_EACH(&cx, v, c)
                if (on[cx.c[c].node] != 1) escapes = 1;
            }
        }
        if (escapes) continue;
        int r = find_root(root, p->layer_of[a->index]);
        for (int j = a->index; j <= b->index; j++)
            if (on[j] == 1 && p->layer_of[j] >= 0) r = join_root(root, r, p->layer_of[j]);
        p->layers[p->layer_of[a->index]].attention = 1;
        /* causal: the scores' last two dims are queries x keys */
        const struct ir_value *sc = a->n_out ? a->out[0] : NULL;
        if (p->causal && sc && sc->rank >= 2 && sc->dims[sc->rank - 2].val > 0 &&
            sc->dims[sc->rank - 1].val > 0) {
            double s = (double)sc->dims[sc->rank - 2].val, t = (double)sc->dims[sc->rank - 1].val;
            if (t >= s)
                pr_lx_make(p, &p->layers[p->layer_of[a->index]])->work_scale =
                    (s * (t - s) + s * (s + 1) / 2) / (s * t);
        }
        fused++;
    }
    /* attention operators (GroupQueryAttention, MultiHeadAttention...): [batch, S, hidden] queries over a past of
     * [batch, heads, P, head size] and themselves; their kernels are causal in a decoder */
    for (int l = 0; p->causal && l < n; l++) {
        const struct ir_node *nd = NULL;
        for (int i = 0; i < p->layers[l].n_nodes; i++)
            if (p->node_in[p->layers[l].nodes[i]->index].klass == OC_ATTENTION) nd = p->layers[l].nodes[i];
        if (!nd || nd->n_in < 1 || !nd->in[0]) continue;
        const struct ir_value *q = nd->in[0], *past = nd->n_in > 3 ? nd->in[3] : NULL;
        if (q->rank != 3 || q->dims[1].val <= 0) continue;
        double s = (double)q->dims[1].val,
               pl = past && past->rank == 4 && past->dims[2].val > 0 ? (double)past->dims[2].val : 0;
        pr_lx_make(p, &p->layers[l])->work_scale = (s * pl + s * (s + 1) / 2) / (s * (pl + s));
        fused++;
    }
    st = fused ? merge_regions(p, root, &cx) : NNPERF_OK;
    free(root), free(on), pr_cons_free(&cx);
    return st;
}

/* Sibling products (compute.fuse_sibling_products): matrix products (MatMul, Gemm) that read one activation tensor
 * with constant weights run as one kernel over their weights side by side, as TensorRT fuses GEMMs sharing an input
 * and packed q/k/v and gate/up projections run: their layers join one region. */
static int weights_value(const struct ir_value *v)
{
    return v && ((v->flags & IR_V_INIT) || v->is_const == 1);
}

static enum nnperf_status fuse_siblings(struct nnperf_prediction *p)
{
    const struct ir_graph *g = p->g;
    int *root;
    struct pr_cons_ix cx = {0};
    enum nnperf_status st = regions_init(p, &root, &cx);
    if (st) return st;
    int fused = 0;
    for (int k = 0; k < g->n_nodes; k++) {
        const struct ir_node *a = g->nodes[k];
        int ka = p->node_in[k].klass;
        if ((ka != OC_MATMUL && ka != OC_GEMM) || p->layer_of[k] < 0 || a->n_in < 2 || !a->in[0] ||
            a->in[0]->is_const || !weights_value(a->in[1]) || !supported(p, a))
            continue;
        int r = find_root(root, p->layer_of[k]);
        /* the first such reader of the tensor leads; later ones join it */
        PR_CONS_EACH(&cx, a->in[0], c)
        {
            int j = cx.c[c].node;
            const struct ir_node *b = g->nodes[j];
            if (j <= k || p->layer_of[j] < 0 || p->node_in[j].klass != ka || b->op != a->op || b->n_in < 2 ||
                b->in[0] != a->in[0] || !weights_value(b->in[1]) || !supported(p, b))
                continue;
            if (find_root(root, p->layer_of[j]) != r) r = join_root(root, r, p->layer_of[j]), fused++;
        }
    }
    st = fused ? merge_regions(p, root, &cx) : NNPERF_OK;
    free(root), pr_cons_free(&cx);
    return st;
}

/* ---- composite operators written as several nodes (compute.composite_kernels) ---- */

/* a matched group: the nodes of one composite operator */
struct comp {
    int n;
    const struct ir_node *nd[12];
};

static int comp_add(struct comp *m, const struct ir_node *nd)
{
    if (!nd || m->n >= (int)(sizeof m->nd / sizeof m->nd[0])) return 0;
    m->nd[m->n++] = nd;
    return 1;
}

/* the one node reading v (nothing else, not a graph output), else NULL */
static const struct ir_node *sole_reader(const struct nnperf_prediction *p, const struct pr_cons_ix *cx,
                                         const struct ir_value *v)
{
    int k = single_consumer(cx, v);
    return k >= 0 ? p->g->nodes[k] : NULL;
}

/* the other input of a two-input node reading v, else NULL */
static const struct ir_value *other_in(const struct ir_node *nd, const struct ir_value *v)
{
    if (!nd || nd->n_in != 2) return NULL;
    return nd->in[0] == v ? nd->in[1] : nd->in[1] == v ? nd->in[0] : NULL;
}

/* nd is operator op reading v and, as its other input, a constant */
static int op_with_const(const struct ir_node *nd, int op, const struct ir_value *v)
{
    return nd && nd->op == op && pr_const_like(other_in(nd, v));
}

/* LayerNormalization from the Sub node d = x - ReduceMean(x): d^2 (Pow or Mul) -> ReduceMean -> Add(eps) -> Sqrt
 * -> Div(d, .), then Mul and Add by constants (the scale and bias) when they follow */
static int match_layernorm(const struct nnperf_prediction *p, const struct pr_cons_ix *cx,
                           const struct ir_node *s, struct comp *m)
{
    if (s->op != OPID_SUB || s->n_in != 2 || s->n_out < 1 || !s->in[0] || !s->in[1]) return 0;
    const struct ir_value *x = s->in[0], *d = s->out[0];
    const struct ir_node *rm = pr_producer(p, s->in[1]);
    if (!rm || rm->op != OPID_REDUCE_MEAN || rm->in[0] != x || sole_reader(p, cx, s->in[1]) != s || !d ||
        (d->flags & IR_V_OUTPUT))
        return 0;
    const struct ir_node *sq = NULL, *dv = NULL;
    int readers = 0;
    PR_CONS_EACH(cx, d, c)
    {
        const struct ir_node *nd = p->g->nodes[cx->c[c].node];
        if (nd == sq || nd == dv) continue;
        readers++;
        if ((nd->op == OPID_POW && nd->in[0] == d && op_with_const(nd, OPID_POW, d)) ||
            (nd->op == OPID_MUL && nd->n_in == 2 && nd->in[0] == d && nd->in[1] == d))
            sq = nd;
        else if (nd->op == OPID_DIV && nd->n_in == 2 && nd->in[0] == d)
            dv = nd;
    }
    if (readers != 2 || !sq || !dv) return 0;
    const struct ir_node *rv = sole_reader(p, cx, sq->out[0]);
    if (!rv || rv->op != OPID_REDUCE_MEAN) return 0;
    const struct ir_node *ad = sole_reader(p, cx, rv->out[0]);
    if (!op_with_const(ad, OPID_ADD, rv->out[0])) return 0;
    const struct ir_node *sr = sole_reader(p, cx, ad->out[0]);
    if (!sr || sr->op != OPID_SQRT || sole_reader(p, cx, sr->out[0]) != dv || dv->in[1] != sr->out[0])
        return 0;
    comp_add(m, rm), comp_add(m, s), comp_add(m, sq), comp_add(m, rv), comp_add(m, ad), comp_add(m, sr);
    comp_add(m, dv);
    const struct ir_node *cur = dv, *nx = sole_reader(p, cx, cur->out[0]);
    if (op_with_const(nx, OPID_MUL, cur->out[0]))
        comp_add(m, nx), cur = nx, nx = sole_reader(p, cx, cur->out[0]);
    if (op_with_const(nx, OPID_ADD, cur->out[0])) comp_add(m, nx);
    return 1;
}

/* Gelu from its Erf: x / sqrt(2) (Div or Mul by a constant) -> Erf -> Add(1) -> Mul(x, .) and Mul(0.5) in either
 * order (x * 0.5 as a node of its own included) */
static int match_gelu(const struct nnperf_prediction *p, const struct pr_cons_ix *cx, const struct ir_node *e,
                      struct comp *m)
{
    if (e->op != OPID_ERF || e->n_in < 1 || !e->in[0] || e->n_out < 1) return 0;
    const struct ir_node *sc = pr_producer(p, e->in[0]);
    if (!sc || (sc->op != OPID_DIV && sc->op != OPID_MUL) || sc->n_in != 2 || !pr_const_like(sc->in[1]) ||
        sole_reader(p, cx, e->in[0]) != e)
        return 0;
    const struct ir_value *x = sc->in[0];
    const struct ir_node *a = sole_reader(p, cx, e->out[0]);
    if (!op_with_const(a, OPID_ADD, e->out[0])) return 0;
    comp_add(m, sc), comp_add(m, e), comp_add(m, a);
    int saw_x = 0, muls = 0;
    const struct ir_node *cur = a;
    while (muls < 2) {
        const struct ir_node *nx = sole_reader(p, cx, cur->out[0]);
        const struct ir_value *o = other_in(nx, cur->out[0]);
        if (!nx || nx->op != OPID_MUL || !o) break;
        const struct ir_node *half = pr_producer(p, o);
        if (o == x)
            saw_x = 1;
        else if (half && half->op == OPID_MUL && half->n_in == 2 && sole_reader(p, cx, o) == nx &&
                 (half->in[0] == x || half->in[1] == x) && pr_const_like(other_in(half, x)))
            saw_x = 1, comp_add(m, half);
        else if (!pr_const_like(o))
            break;
        comp_add(m, nx);
        cur = nx, muls++;
    }
    return saw_x;
}

/* SiLU or HardSwish from its gate g (Sigmoid or HardSigmoid of x): Mul(x, g(x)) */
static int match_gated(const struct nnperf_prediction *p, const struct pr_cons_ix *cx,
                       const struct ir_node *g, int gate, struct comp *m)
{
    if (g->op != gate || g->n_in < 1 || !g->in[0] || g->n_out < 1) return 0;
    const struct ir_node *mu = sole_reader(p, cx, g->out[0]);
    if (!mu || mu->op != OPID_MUL || other_in(mu, g->out[0]) != g->in[0]) return 0;
    comp_add(m, g), comp_add(m, mu);
    return 1;
}

/* Composite operators (compute.composite_kernels): the nodes an exporter wrote for one LayerNormalization, Gelu,
 * HardSwish or SiLU become one layer (with whatever else their layers hold), as a runtime that runs each as one
 * kernel (PyTorch's eager modules) does. Their intermediate values stay inside the group by construction. */
static enum nnperf_status fuse_composites(struct nnperf_prediction *p)
{
    const struct hw_desc *hw = p->hw;
    int want_ln = 0, want_gelu = 0, want_hs = 0, want_silu = 0;
    for (int i = 0; i < hw->n_composite; i++) {
        const char *c = hw->composite[i];
        want_ln |= !strcmp(c, "LayerNormalization"), want_gelu |= !strcmp(c, "Gelu");
        want_hs |= !strcmp(c, "HardSwish"), want_silu |= !strcmp(c, HW_SILU);
    }
    const struct ir_graph *g = p->g;
    int *root;
    struct pr_cons_ix cx = {0};
    enum nnperf_status st = regions_init(p, &root, &cx);
    if (st) return st;
    int merged = 0;
    for (int k = 0; k < g->n_nodes; k++) {
        const struct ir_node *nd = g->nodes[k];
        struct comp m = {0, {NULL}};
        if (p->layer_of[k] < 0 ||
            !((want_ln && match_layernorm(p, &cx, nd, &m)) || (want_gelu && match_gelu(p, &cx, nd, &m)) ||
              (want_hs && match_gated(p, &cx, nd, OPID_HARD_SIGMOID, &m)) ||
              (want_silu && match_gated(p, &cx, nd, OPID_SIGMOID, &m))))
            continue;
        int ok = 1;
        for (int i = 0; i < m.n; i++)
            if (p->layer_of[m.nd[i]->index] < 0 || !supported(p, m.nd[i])) ok = 0;
        if (!ok) continue;
        int r = find_root(root, p->layer_of[m.nd[0]->index]);
        for (int i = 1; i < m.n; i++) r = join_root(root, r, p->layer_of[m.nd[i]->index]);
        merged++;
    }
    st = merged ? merge_regions(p, root, &cx) : NNPERF_OK;
    free(root), pr_cons_free(&cx);
    return st;
}

/* ---- the model's family (docs/prediction.md, "Expected error") ---- */

/* a node of attention: a fused attention operator, or a product of two activations (MatMul, Einsum: neither input a
 * weight nor computed from weights or dims only), as Q x K^T and the scores x V are */
static int attention_node(const struct nnperf_prediction *p, const struct ir_node *nd)
{
    int k = p->node_in[nd->index].klass;
    if (k == OC_ATTENTION) return 1;
    if (k != OC_MATMUL) return 0;
    int act = 0;
    for (int i = 0; i < nd->n_in; i++) act += nd->in[i] && !pr_const_like(nd->in[i]);
    return act >= 2;
}

/* "transformer-style" when the graph has attention, a LayerNormalization (an operator of that name, the contrib
 * Skip/Simplified forms included, or the exported pattern compute.composite_kernels fuses) or a GELU (a Gelu
 * operator, the contrib BiasGelu/FastGelu/QuickGelu included, or the exported Erf pattern); "cnn" otherwise */
static const char *model_family(const struct nnperf_prediction *p, const struct pr_cons_ix *cx)
{
    for (int k = 0; k < p->g->n_nodes; k++) {
        const struct ir_node *nd = p->g->nodes[k];
        struct comp m = {0, {NULL}};
        if (attention_node(p, nd) ||
            (nd->op_type && (strstr(nd->op_type, "LayerNormalization") || strstr(nd->op_type, "Gelu"))) ||
            match_layernorm(p, cx, nd, &m) || match_gelu(p, cx, nd, &m))
            return NNPERF_FAMILY_TRANSFORMER;
    }
    return NNPERF_FAMILY_CNN;
}

enum nnperf_status pr_fuse(struct nnperf_prediction *p)
{
    const struct ir_graph *g = p->g;
    int n = g->n_nodes;
    size_t n1 = n > 0 ? (size_t)n : 1; /* entries to allocate */
    const struct hw_desc *hw = p->hw;
    p->layer_of = ar_calloc(&p->ar, n1, sizeof *p->layer_of);
    p->op_ok = ar_alloc(&p->ar, OPID_COUNT);
    struct pr_cons_ix cx = {0};
    struct lrec *spans = malloc(n1 * sizeof *spans);
    /* each node is in one span at most, but a forced group may list one twice */
    size_t pool_cap = n1;
    for (int gi = 0; gi < p->n_groups; gi++) pool_cap += (size_t)(p->groups[gi].n > 0 ? p->groups[gi].n : 0);
    int *pool = malloc(pool_cap * sizeof *pool), npool = 0;
    if (p->cons.c) cx = p->cons, memset(&p->cons, 0, sizeof p->cons); /* the lowering's (lower_shared) */
    if (!p->layer_of || !p->op_ok || !spans || !pool || (!cx.c && !pr_cons_build(g, &cx))) {
        pr_cons_free(&cx), free(spans), free(pool);
        return diag_set(&p->d, NNPERF_E_NOMEM, "out of memory");
    }
    for (int k = 0; k < n; k++) p->layer_of[k] = -2; /* unassigned */
    memset(p->op_ok, -1, OPID_COUNT);
    /* patterns longest first */
    int order[HW_MAX_FUSION];
    for (int i = 0; i < hw->n_fusion; i++) order[i] = i;
    for (int i = 1; i < hw->n_fusion; i++)
        for (int j = i; j > 0 && hw->fusion[order[j]].len > hw->fusion[order[j - 1]].len; j--) {
            int t = order[j];
            order[j] = order[j - 1];
            order[j - 1] = t;
        }
    int ns = 0;
    for (int k = 0; k < n; k++) {
        const struct ir_node *nd = g->nodes[k];
        if (p->layer_of[k] != -2) continue;
        if (folded(nd) || p->node_in[k].gone) {
            p->layer_of[k] = -1;
            continue;
        }
        struct lspan sp = {k, k, 1, {k}};
        if (forced_span(p, k, n, &sp)) {
            keep_span(spans, &ns, pool, &npool, &sp);
            continue;
        }
        if (supported(p, nd)) {
            for (int pi = 0; pi < hw->n_fusion; pi++) {
                const struct hw_pattern *pat = &hw->fusion[order[pi]];
                if (pat->len < 2 || !same_op(pat->ops[0], nd->op_type)) continue;
                int chain[HW_MAX_PATTERN], len = 1, cur = k, e = 1;
                chain[0] = k;
                while (e < pat->len) {
                    /* the other outputs of an inner node must not escape the layer */
                    int escapes = 0;
                    for (int o = 1; o < g->nodes[cur]->n_out; o++) {
                        const struct ir_value *v = g->nodes[cur]->out[o];
                        if (v && (v->n_consumers || (v->flags & IR_V_OUTPUT))) escapes = 1;
                    }
                    if (escapes) break;
                    if (!strcmp(pat->ops[e], HW_SILU)) {
                        int sg, mu;
                        if (len + 2 > HW_MAX_PATTERN || !silu_pair(p, &cx, g->nodes[cur]->out[0], &sg, &mu))
                            break;
                        chain[len++] = sg;
                        chain[len++] = mu;
                        cur = mu;
                        e++;
                        continue;
                    }
                    int nx = single_consumer(&cx, g->nodes[cur]->out[0]);
                    if (nx < 0 || p->layer_of[nx] != -2 || !same_op(g->nodes[nx]->op_type, pat->ops[e]) ||
                        !supported(p, g->nodes[nx]))
                        break;
                    chain[len++] = nx;
                    cur = nx;
                    e++;
                }
                if (e == pat->len) {
                    sp.len = len;
                    for (int i = 0; i < len; i++) sp.nodes[i] = chain[i], p->layer_of[chain[i]] = -3;
                    sp.last = chain[len - 1];
                    break;
                }
            }
        }
        p->layer_of[k] = -3;
        keep_span(spans, &ns, pool, &npool, &sp);
    }
    p->family = model_family(p, &cx);
    pr_cons_free(&cx); /* before the layers are made: the peak of a long chain (bench/RESULTS.md) */
    qsort(spans, (size_t)ns, sizeof *spans, cmp_span);
    p->layers = ar_calloc(&p->ar, (size_t)(ns ? ns : 1), sizeof *p->layers);
    if (!p->layers) {
        free(spans), free(pool);
        return diag_set(&p->d, NNPERF_E_NOMEM, "out of memory");
    }
    p->n_layers = ns;
    for (int l = 0; l < ns; l++) {
        struct pr_layer *L = &p->layers[l];
        L->n_nodes = spans[l].len;
        L->nodes = ar_calloc(&p->ar, (size_t)L->n_nodes, sizeof *L->nodes);
        if (!L->nodes) {
            free(spans), free(pool);
            return diag_set(&p->d, NNPERF_E_NOMEM, "out of memory");
        }
        for (int i = 0; i < L->n_nodes; i++) {
            L->nodes[i] = g->nodes[pool[spans[l].at + i]];
            p->layer_of[L->nodes[i]->index] = l;
        }
    }
    free(spans), free(pool);
    enum nnperf_status st = NNPERF_OK;
    if (hw->n_composite) st = fuse_composites(p);
    if (!st && hw->fuse_sibling_products) st = fuse_siblings(p);
    if (!st && hw->fuse_pointwise) st = fuse_pointwise(p);
    if (!st && hw->fused_attention) st = fuse_attention(p);
    if (!st) finish_layers(p);
    return st;
}
