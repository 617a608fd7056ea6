/* lower_moe.c - the mixture-of-experts rule of the lowering stage (row moe_block of lower_rules[] in lower.c): an
 * exported MoE block runs as one grouped-expert kernel, as com.microsoft MoE does (src/ops/com_microsoft/moe.c).
 *
 * A block starts at a router: a GEMM with a weight of E columns whose output reaches a TopK of k < E (through a
 * Softmax, casts or element-wise steps). Its nodes are the router's consumers and everything that reads what the
 * block computes or the router's input, in execution order, up to the node where the block closes: the first node
 * after which only its own output is still to be read. Both exported forms are such blocks:
 *  - dense: every expert on every token, weighted by routing weights scattered into [.., E] (zero where a token is
 *    not routed) and summed;
 *  - eager (torch.onnx.export of Hugging Face's MixtralSparseMoeBlock): one_hot(TopK indices) -> per expert NonZero
 *    -> Gather of its tokens -> expert -> times its weights -> ScatterND (index_add_) into the output; the NonZero
 *    counts are data-dependent, so the analysis could not count the experts at all.
 * The block's last node becomes a MoE reading the router's input, with the MoE's cost: rows x k x (one expert's
 * weight elements) MACs, 4 x rows x k x hidden other FLOPs, and the weights of E x (1 - (1 - k/E)^rows) experts
 * (op_moe_experts_touched); every other node of the block is a view (no layer). The router stays a GEMM of its own,
 * as in ONNX Runtime GenAI's graphs. A block that does not close, holds no TopK of the router or fewer than E
 * weight-reading GEMMs is left as it is. */
#include <stdlib.h>
#include <string.h>

#include "lower.h"

static int klass(const struct ir_node *nd)
{
    return nd->op >= 0 ? op_table[nd->op].klass : OC_OTHER;
}

static int is_weight(const struct ir_value *v)
{
    return v && ((v->flags & IR_V_INIT) || v->is_const == 1);
}

/* TopK's k: its input 1 (opset 10+) or its attribute (opset 1); -1 when unknown */
static int64_t topk_k(const struct ir_node *t)
{
    const struct ir_value *kv = t->n_in > 1 ? t->in[1] : NULL;
    if (kv && kv->iv && kv->nv == 1 && kv->iv[0].known) return kv->iv[0].v;
    for (int a = 0; a < t->n_attr; a++)
        if (!strcmp(t->attrs[a].name, "k")) return t->attrs[a].i;
    return -1;
}

/* the router GEMM above TopK t's input (a few element-wise, softmax, cast or view steps up), with a weight of e
 * columns, or NULL */
static const struct ir_node *router_of(const struct ir_node *t, int64_t e)
{
    const struct ir_value *v = t->n_in ? t->in[0] : NULL;
    for (int depth = 0; v && v->producer && depth < 4; depth++) {
        const struct ir_node *nd = v->producer;
        int k = klass(nd);
        if (k == OC_MATMUL || k == OC_GEMM) {
            const struct ir_value *w = nd->n_in > 1 ? nd->in[1] : NULL;
            return is_weight(w) && w->rank >= 1 && w->dims[w->rank - 1].val == e && nd->in[0] ? nd : NULL;
        }
        if (k != OC_SOFTMAX && k != OC_ELTWISE && k != OC_ACT && k != OC_DATA && k != OC_VIEW) return NULL;
        v = nd->in[0];
    }
    return NULL;
}

/* the last node reading v (its largest consumer index); g->n_nodes for a graph output, -1 when none */
static int last_reader(const struct ir_graph *g, const struct pr_cons_ix *cx, const struct ir_value *v)
{
    if (v->flags & IR_V_OUTPUT) return g->n_nodes;
    int last = -1;
    PR_CONS_EACH(cx, v, i)
    if (cx->c[i].node > last) last = cx->c[i].node;
    return last;
}

struct block {
    char *in; /* per node: 1 when in the block */
    const struct ir_value **vals;
    int *last, n_vals, cap;
};

static int add_val(struct block *b, const struct ir_graph *g, const struct pr_cons_ix *cx,
                   const struct ir_value *v)
{
    if (!v || v->is_const) return 1;
    if (b->n_vals == b->cap) return 0;
    b->vals[b->n_vals] = v;
    b->last[b->n_vals++] = last_reader(g, cx, v);
    return 1;
}

static int reads_block(const struct block *b, const struct ir_node *nd)
{
    for (int i = 0; i < nd->n_in; i++)
        for (int j = 0; nd->in[i] && j < b->n_vals; j++)
            if (b->vals[j] == nd->in[i]) return 1;
    return 0;
}

/* Grows the block from router r's input in execution order (the router itself stays out, its output is the
 * block's); returns the block's last node, or -1 when it does not close after the router. */
static int grow_block(struct block *b, const struct ir_graph *g, const struct pr_cons_ix *cx,
                      const struct nnperf_prediction *p, const struct ir_node *r)
{
    b->n_vals = 0;
    int start = r->index;
    PR_CONS_EACH(cx, r->in[0], i)
    if (cx->c[i].node < start) start = cx->c[i].node;
    if (!add_val(b, g, cx, r->in[0])) return -1;
    for (int k = start; k < g->n_nodes; k++) {
        const struct ir_node *nd = g->nodes[k];
        if (p->node_in[k].gone || !reads_block(b, nd)) continue;
        if (k != r->index) b->in[k] = 1;
        for (int o = 0; o < nd->n_out; o++)
            if (!add_val(b, g, cx, nd->out[o])) return -1;
        int pending = 0, own = 0;
        for (int j = 0; j < b->n_vals; j++)
            if (b->last[j] > k) {
                pending++;
                own |= b->vals[j] == nd->out[0];
            }
        if (k > r->index && pending == 1 && own) return k;
        if (!pending) return -1;
    }
    return -1;
}

/* one block from TopK t: returns 1 when lowered */
static enum nnperf_status lower_block(struct lower *x, const struct pr_cons_ix *cx, struct block *b,
                                      const struct ir_node *t)
{
    const struct ir_graph *g = x->g;
    struct nnperf_prediction *p = x->p;
    const struct ir_value *scores = t->n_in ? t->in[0] : NULL;
    int64_t k = topk_k(t), e = scores && scores->rank >= 1 ? scores->dims[scores->rank - 1].val : -1, rows_n;
    if (k < 1 || e <= k) return NNPERF_OK;
    const struct ir_node *r = router_of(t, e);
    if (!r || !ir_numel(r->out[0], &rows_n) || r->in[0]->rank < 1 ||
        r->in[0]->dims[r->in[0]->rank - 1].val <= 0)
        return NNPERF_OK;
    memset(b->in, 0, (size_t)g->n_nodes);
    int last = grow_block(b, g, cx, p, r);
    if (last < 0 || !b->in[t->index]) return NNPERF_OK;
    /* the experts' weights: the weights the block's GEMMs read (elementwise biases too), E experts of them */
    double weights = 0;
    int gemms = 0;
    for (int j = 0; j <= last; j++) {
        if (!b->in[j]) continue;
        const struct ir_node *nd = g->nodes[j];
        int kl = klass(nd), has = 0;
        if (kl != OC_MATMUL && kl != OC_GEMM && kl != OC_ELTWISE) continue;
        for (int i = 0; i < nd->n_in; i++) {
            int64_t c;
            const struct ir_value *w = nd->in[i];
            if (is_weight(w) && ir_dtype_is_float(w->dtype) && ir_numel(w, &c) && c > 1) {
                weights += (double)c;
                has = 1;
            }
        }
        gemms += has && kl != OC_ELTWISE;
    }
    if (gemms < e || weights <= 0) return NNPERF_OK;
    double rows = (double)rows_n / (double)e, hidden = (double)r->in[0]->dims[r->in[0]->rank - 1].val;
    double per = weights / (double)e;
    for (int j = 0; j < last; j++)
        if (b->in[j]) pr_lower_view(x, j);
    struct ir_node *moe = g->nodes[last];
    struct ir_value **in = ar_calloc(&p->ar, 1, sizeof *in);
    if (!in) return diag_set(&p->d, NNPERF_E_NOMEM, "out of memory");
    in[0] = r->in[0];
    moe->in = in;
    moe->n_in = 1;
    moe->op = OPID_MS_MOE;
    moe->op_type = op_table[OPID_MS_MOE].name;
    moe->domain = op_table[OPID_MS_MOE].domain;
    struct pr_node_in *ni = &p->node_in[last];
    struct pr_node_work *wk = &p->node_work[last];
    ni->klass = (signed char)pr_node_class(moe);
    wk->mac_ops = 2.0 * rows * (double)k * per;
    wk->vec_ops = 4.0 * rows * (double)k * hidden;
    wk->params = per * op_moe_experts_touched((double)e, (double)k, rows);
    wk->packed_bytes = 0;
    ni->recounted = 1;
    return NNPERF_OK;
}

int pr_gate_moe_block(int op)
{
    return op == OPID_TOP_K;
}

int pr_wants_moe_block(const struct ir_node *nd)
{
    return pr_gate_moe_block(nd->op);
}

enum nnperf_status pr_run_moe_block(struct lower *x)
{
    const struct ir_graph *g = x->g;
    struct pr_cons_ix cx = {0};
    struct block b = {calloc((size_t)(g->n_nodes ? g->n_nodes : 1), 1), NULL, NULL, 0, 0};
    b.cap = 0;
    for (int k = 0; k < g->n_nodes; k++) b.cap += g->nodes[k]->n_out;
    b.cap += 2;
    b.vals = malloc((size_t)b.cap * sizeof *b.vals);
    b.last = malloc((size_t)b.cap * sizeof *b.last);
    enum nnperf_status st = NNPERF_OK;
    if (!b.in || !b.vals || !b.last || !pr_cons_build(g, &cx))
        st = diag_set(&x->p->d, NNPERF_E_NOMEM, "out of memory");
    for (int k = 0; !st && k < g->n_nodes; k++)
        if (g->nodes[k]->op == OPID_TOP_K && !x->p->node_in[k].gone)
            st = lower_block(x, &cx, &b, g->nodes[k]);
    pr_cons_free(&cx), free(b.in), free(b.vals), free(b.last);
    return st;
}
