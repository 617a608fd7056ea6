/* fuse.c - stage 1: groups the graph's nodes into layers. A layer is one node, or a chain matched by one of the
 * platform's fusion patterns (e.g. Conv -> BatchNormalization -> Add -> Relu) where every intermediate output has
 * exactly one consumer, so it never leaves the chip. Nodes whose outputs are all known constants (shape arithmetic
 * the compiler folds) form no layer. Unsupported operators become fallback layers. Layers are ordered by their
 * last node, which keeps producers before consumers. */
#include <stdlib.h>
#include <string.h>

#include "predict.h"

/* consumers of each value among the top graph's nodes: pairs sorted by value address */
struct cons {
    const struct ir_value *v;
    int node;
};

static int cmp_cons(const void *a, const void *b)
{
    const struct cons *x = a, *y = b;
    if (x->v != y->v) return (uintptr_t)x->v < (uintptr_t)y->v ? -1 : 1;
    return x->node - y->node;
}

static int find_first(const struct cons *c, int n, const struct ir_value *v)
{
    int lo = 0, hi = n;
    while (lo < hi) {
        int mid = (lo + hi) / 2;
        if ((uintptr_t)c[mid].v < (uintptr_t)v)
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo < n && c[lo].v == v ? lo : -1;
}

/* the single consumer node of v, or -1 (none, several, or a graph output) */
static int single_consumer(const struct cons *c, int n, const struct ir_value *v)
{
    if (!v || (v->flags & IR_V_OUTPUT)) return -1;
    int i = find_first(c, n, v);
    if (i < 0) return -1;
    int node = c[i].node;
    for (int k = i + 1; k < n && c[k].v == v; k++)
        if (c[k].node != node) return -1;
    return node;
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
static int silu_pair(const struct nnperf_prediction *p, const struct cons *c, int n, const struct ir_value *v,
                     int *sg, int *mu)
{
    const struct ir_graph *g = p->g;
    if (!v || (v->flags & IR_V_OUTPUT)) return 0;
    int i = find_first(c, n, v), s = -1, m = -1;
    if (i < 0) return 0;
    for (; i < n && c[i].v == v; i++) {
        const char *op = g->nodes[c[i].node]->op_type;
        if (!strcmp(op, "Sigmoid") && s < 0)
            s = c[i].node;
        else if (!strcmp(op, "Mul") && (m < 0 || m == c[i].node))
            m = c[i].node;
        else
            return 0;
    }
    if (s < 0 || m < 0 || p->layer_of[s] != -2 || p->layer_of[m] != -2) return 0;
    if (single_consumer(c, n, g->nodes[s]->out[0]) != m || g->nodes[m]->n_in != 2) return 0;
    if (!hw_supports(&p->hw, "Sigmoid") || !hw_supports(&p->hw, "Mul")) return 0;
    *sg = s;
    *mu = m;
    return 1;
}

struct lspan {
    int first, last, len;
    int nodes[HW_MAX_PATTERN];
};

static int cmp_span(const void *a, const void *b)
{
    const struct lspan *x = a, *y = b;
    return x->last - y->last;
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

enum nnperf_status pr_fuse(struct nnperf_prediction *p)
{
    const struct ir_graph *g = p->g;
    int n = g->n_nodes;
    const struct hw_desc *hw = &p->hw;
    p->layer_of = ar_calloc(&p->ar, (size_t)(n ? n : 1), sizeof *p->layer_of);
    int ncons = 0;
    for (int k = 0; k < n; k++) ncons += g->nodes[k]->n_in;
    struct cons *c = malloc((size_t)(ncons ? ncons : 1) * sizeof *c);
    struct lspan *spans = malloc((size_t)(n ? n : 1) * sizeof *spans);
    if (!p->layer_of || !c || !spans) {
        free(c), free(spans);
        return diag_set(&p->d, NNPERF_E_NOMEM, "out of memory");
    }
    ncons = 0;
    for (int k = 0; k < n; k++)
        for (int i = 0; i < g->nodes[k]->n_in; i++)
            if (g->nodes[k]->in[i]) c[ncons++] = (struct cons){g->nodes[k]->in[i], k};
    qsort(c, (size_t)ncons, sizeof *c, cmp_cons);
    for (int k = 0; k < n; k++) p->layer_of[k] = -2; /* unassigned */
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
        if (folded(nd)) {
            p->layer_of[k] = -1;
            continue;
        }
        struct lspan sp = {k, k, 1, {k}};
        if (forced_span(p, k, n, &sp)) {
            spans[ns++] = sp;
            continue;
        }
        if (hw_supports(hw, nd->op_type)) {
            for (int pi = 0; pi < hw->n_fusion; pi++) {
                const struct hw_pattern *pat = &hw->fusion[order[pi]];
                if (pat->len < 2 || strcmp(pat->ops[0], nd->op_type)) continue;
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
                        if (len + 2 > HW_MAX_PATTERN ||
                            !silu_pair(p, c, ncons, g->nodes[cur]->out[0], &sg, &mu))
                            break;
                        chain[len++] = sg;
                        chain[len++] = mu;
                        cur = mu;
                        e++;
                        continue;
                    }
                    int nx = single_consumer(c, ncons, g->nodes[cur]->out[0]);
                    if (nx < 0 || p->layer_of[nx] != -2 || strcmp(g->nodes[nx]->op_type, pat->ops[e]) ||
                        !hw_supports(hw, g->nodes[nx]->op_type))
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
        spans[ns++] = sp;
    }
    qsort(spans, (size_t)ns, sizeof *spans, cmp_span);
    p->layers = ar_calloc(&p->ar, (size_t)(ns ? ns : 1), sizeof *p->layers);
    if (!p->layers) {
        free(c), free(spans);
        return diag_set(&p->d, NNPERF_E_NOMEM, "out of memory");
    }
    p->n_layers = ns;
    for (int l = 0; l < ns; l++) {
        struct pr_layer *L = &p->layers[l];
        L->n_nodes = spans[l].len;
        L->nodes = ar_calloc(&p->ar, (size_t)L->n_nodes, sizeof *L->nodes);
        if (!L->nodes) {
            free(c), free(spans);
            return diag_set(&p->d, NNPERF_E_NOMEM, "out of memory");
        }
        L->cost_known = 1;
        uint64_t best = 0;
        for (int i = 0; i < L->n_nodes; i++) {
            struct ir_node *nd = g->nodes[spans[l].nodes[i]];
            L->nodes[i] = nd;
            p->layer_of[nd->index] = l;
            if (!nd->cost.known) L->cost_known = 0;
            if (!L->main || nd->cost.macs > best) {
                L->main = nd;
                best = nd->cost.macs;
            }
            const struct pr_node_in *in = &p->node_in[nd->index];
            L->mac_ops += in->mac_ops * p->batch;
            L->vec_ops += in->vec_ops * p->batch;
            L->params += in->params;
            L->packed_bytes += in->packed_bytes;
        }
        L->name = L->n_nodes > 1 ? ar_printf(&p->ar, "%s+%d", L->nodes[0]->name, L->n_nodes - 1)
                                 : L->nodes[0]->name;
        L->klass = p->node_in[L->main->index].klass;
        L->fallback = !hw_supports(hw, L->main->op_type);
        for (int i = 0; i < L->n_nodes; i++)
            if (!hw_supports(hw, L->nodes[i]->op_type)) L->fallback = 1;
        if (L->fallback && !hw->fb.present) {
            pr_warn(p,
                    "layer '%s' (%s) is not supported by %s and the platform has no fallback unit: counted "
                    "on the "
                    "accelerator",
                    L->name, L->main->op_type, hw->name);
            L->fallback = 0;
        }
        if (L->fallback) p->fallback_layers++;
        if (!L->cost_known) p->unknown_layers++;
        const struct ir_node *last = L->nodes[L->n_nodes - 1];
        L->out = last->n_out ? last->out[0] : NULL;
    }
    free(c);
    free(spans);
    return NNPERF_OK;
}
