/* lower_decoder.c - the decoder rules of the lowering stage (rows of lower_rules[] in lower.c): what a deployment
 * compiler (TensorRT-LLM, ONNX Runtime GenAI's builder) makes of an eager decoder export (torch.onnx.export,
 * Optimum), so that the torch-style graph costs what its GroupQueryAttention twin costs:
 *
 *  kv_append       Concat(past, new) -> present, a graph output that extends the graph input past along one axis,
 *                  is an append in place (pr_node_in.kv_append): the memory stage neither reads the past nor stores
 *                  it again, in whatever kernel fusion puts the Concat.
 *  repeat_kv       Unsqueeze -> Expand (or Tile) -> Reshape of K or V over the head groups, read only by GEMMs, is a
 *                  view (pr_lower_view): the attention kernel maps each query head to its KV head and reads the
 *                  cache once. So is a Transpose of the last two axes of a KV cache (or of its repeat) read only by
 *                  GEMMs: the scores' GEMM reads K transposed.
 *  attention_mask  where the platform fuses attention (compute.fused_attention), the [batch, 1, S, T] mask built
 *                  from attention_mask and shapes and added to the scores is computed inside the kernel from the
 *                  padding mask: its nodes are views (no layer materialises S x T values, and the peak-memory walk
 *                  does not count them; the Add reads what the mask's first input chain starts from, a graph input
 *                  or a constant).
 *
 * Rotary embedding (Mul/Slice/Neg/Concat/Add on the projection's output) joins its projection where the platform
 * fuses element-wise work (compute.fuse_pointwise, fuse.c), as GroupQueryAttention's do_rotary does. */
#include <stdlib.h>
#include <string.h>

#include "lower.h"

static int klass(const struct ir_node *nd)
{
    return nd->op >= 0 ? op_table[nd->op].klass : OC_OTHER;
}

static int gemm_class(const struct ir_node *nd)
{
    int k = klass(nd);
    return k == OC_MATMUL || k == OC_GEMM || k == OC_ATTENTION;
}

/* every consumer of v is a GEMM (at least one), and v is not a graph output */
static int read_by_gemms(const struct lower *x, const struct pr_cons_ix *cx, const struct ir_value *v)
{
    if (!v || (v->flags & IR_V_OUTPUT)) return 0;
    int n = 0;
    PR_CONS_EACH(cx, v, i)
    {
        if (!gemm_class(x->g->nodes[cx->c[i].node])) return 0;
        n++;
    }
    return n > 0;
}

/* the single consumer node of v (v not a graph output), else NULL */
static struct ir_node *only_consumer(const struct lower *x, const struct pr_cons_ix *cx,
                                     const struct ir_value *v)
{
    if (!v || (v->flags & IR_V_OUTPUT)) return NULL;
    int node = -1;
    PR_CONS_EACH(cx, v, i)
    {
        if (node >= 0 && node != cx->c[i].node) return NULL;
        node = cx->c[i].node;
    }
    return node >= 0 ? x->g->nodes[node] : NULL;
}

static int dims_known(const struct ir_value *v)
{
    if (!v || v->rank < 1) return 0;
    for (int d = 0; d < v->rank; d++)
        if (v->dims[d].val < 0) return 0;
    return 1;
}

/* out repeats base along one axis: same rank, every dim equal but one, which is a multiple (> 1) of base's */
static int repeats_one_axis(const struct ir_value *base, const struct ir_value *out)
{
    if (!dims_known(base) || !dims_known(out) || base->rank != out->rank) return 0;
    int grown = 0;
    for (int d = 0; d < out->rank; d++) {
        int64_t a = base->dims[d].val, b = out->dims[d].val;
        if (a == b) continue;
        if (a <= 0 || b % a || b / a < 2) return 0;
        grown++;
    }
    return grown == 1;
}

/* a Transpose that swaps the last two axes and keeps the others */
static int swaps_last_two(const struct ir_node *nd)
{
    if (nd->op != OPID_TRANSPOSE || nd->n_in < 1 || !nd->in[0] || nd->in[0]->rank < 2) return 0;
    int r = nd->in[0]->rank;
    for (int a = 0; a < nd->n_attr; a++)
        if (!strcmp(nd->attrs[a].name, "perm")) {
            if (nd->attrs[a].n != r) return 0;
            for (int d = 0; d < r; d++) {
                int64_t want = d == r - 2 ? r - 1 : d == r - 1 ? r - 2 : d;
                if (nd->attrs[a].ints[d] != want) return 0;
            }
            return 1;
        }
    return r == 2; /* no perm: all axes reversed */
}

/* Repeat-KV from a broadcast node (Expand or Tile): [Unsqueeze ->] Expand/Tile [-> Reshape] whose result repeats
 * its source along one axis and is read only by GEMMs (directly or through a Transpose of the last two axes, which
 * is then the GEMM's transposed operand too). Returns the number of nodes dropped. */
static int repeat_kv(struct lower *x, const struct pr_cons_ix *cx, const struct ir_node *bc)
{
    const struct ir_node *chain[4];
    int n = 0;
    const struct ir_value *base = bc->n_in ? bc->in[0] : NULL;
    if (!base) return 0;
    const struct ir_node *up = base->producer;
    if (up && klass(up) == OC_VIEW && up->n_in >= 1 && only_consumer(x, cx, base) == bc) {
        chain[n++] = up;
        base = up->in[0];
    }
    chain[n++] = bc;
    const struct ir_value *out = bc->n_out ? bc->out[0] : NULL;
    const struct ir_node *down = only_consumer(x, cx, out);
    if (down && klass(down) == OC_VIEW && down->n_out >= 1) {
        chain[n++] = down;
        out = down->out[0];
    }
    if (!repeats_one_axis(base, out)) return 0;
    const struct ir_node *tr = only_consumer(x, cx, out);
    if (tr && swaps_last_two(tr) && read_by_gemms(x, cx, tr->out[0]))
        chain[n++] = tr;
    else if (!read_by_gemms(x, cx, out))
        return 0;
    for (int i = 0; i < n; i++) pr_lower_view(x, chain[i]->index);
    return n;
}

/* the graph input among nd's inputs that its graph output out[0] extends along one axis (a KV cache past), or -1 */
static int appended_slot(const struct ir_node *nd)
{
    const struct ir_value *o = nd->n_out ? nd->out[0] : NULL;
    if (!o || !(o->flags & IR_V_OUTPUT)) return -1;
    for (int k = 0; k < nd->n_in; k++) {
        const struct ir_value *v = nd->in[k];
        if (v && (v->flags & IR_V_INPUT) && !(v->flags & IR_V_INIT) && pr_extends(v, o)) return k;
    }
    return -1;
}

/* a value that is a KV cache (a graph output extending an input) or reaches one through dropped views */
static int from_kv_cache(const struct lower *x, const struct ir_value *v)
{
    for (int depth = 0; v && depth < 8; depth++) {
        const struct ir_node *nd = v->producer;
        if (!nd) return 0;
        if ((v->flags & IR_V_OUTPUT) && appended_slot(nd) >= 0) return 1;
        if (!x->p->node_in[nd->index].gone || nd->n_in < 1) return 0;
        v = nd->in[0];
    }
    return 0;
}

/* ---- the attention mask, computed inside a fused attention kernel ---- */

/* whether some input chain of nd reaches a GEMM within depth element-wise steps (the scores' side of an Add) */
static int scores_side(const struct lower *x, const struct ir_value *v, int depth)
{
    if (!v || !v->producer || depth < 0) return 0;
    const struct ir_node *nd = v->producer;
    if (gemm_class(nd)) return 1;
    int k = x->p->node_in[nd->index].klass;
    if (k != OC_ELTWISE && k != OC_DATA && k != OC_QUANT && k != OC_VIEW) return 0;
    for (int i = 0; i < nd->n_in; i++)
        if (scores_side(x, nd->in[i], depth - 1)) return 1;
    return 0;
}

/* Marks in mark[] the element-wise nodes between a Softmax and the scores' GEMM above it (2) and the producers of
 * their other operands (the mask values) in cone[] (1); both NULL: only checks. Returns 0 when the Softmax is not
 * fed by a GEMM. */
static int mask_operands(const struct lower *x, const struct ir_node *sm, unsigned char *mark,
                         unsigned char *cone)
{
    const struct ir_value *v = sm->n_in ? sm->in[0] : NULL;
    for (int depth = 0; v && v->producer && depth < 8; depth++) {
        const struct ir_node *nd = v->producer;
        if (gemm_class(nd)) return 1;
        int k = x->p->node_in[nd->index].klass;
        if (k != OC_ELTWISE && k != OC_DATA && k != OC_QUANT && k != OC_VIEW) return 0;
        const struct ir_value *next = NULL;
        for (int i = 0; i < nd->n_in; i++) {
            const struct ir_value *u = nd->in[i];
            if (!u || u->is_const) continue;
            if (!next && scores_side(x, u, 8))
                next = u;
            else if (u->producer && cone)
                cone[u->producer->index] = 1;
        }
        if (mark) mark[nd->index] = 2;
        v = next;
    }
    return 0;
}

/* Grows cone[] (1) to every producer above it that is not a GEMM and not constant; the cone stops at graph inputs.
 * Returns 0 when the cone would hold a GEMM (the operand is model compute, not a mask). */
static int grow_cone(const struct lower *x, unsigned char *cone)
{
    const struct ir_graph *g = x->g;
    for (int k = g->n_nodes - 1; k >= 0; k--) {
        if (cone[k] != 1) continue;
        const struct ir_node *nd = g->nodes[k];
        if (gemm_class(nd) || klass(nd) == OC_SOFTMAX) return 0;
        for (int i = 0; i < nd->n_in; i++) {
            const struct ir_value *u = nd->in[i];
            if (u && !u->is_const && u->producer) cone[u->producer->index] = 1;
        }
    }
    return 1;
}

/* every output of a cone node is read only by cone nodes, by the marked element-wise nodes of attention, or by
 * folded shape arithmetic; none is a graph output */
static int cone_closed(const struct lower *x, const struct pr_cons_ix *cx, const unsigned char *cone,
                       const unsigned char *mark)
{
    const struct ir_graph *g = x->g;
    for (int k = 0; k < g->n_nodes; k++) {
        if (cone[k] != 1) continue;
        const struct ir_node *nd = g->nodes[k];
        for (int o = 0; o < nd->n_out; o++) {
            const struct ir_value *v = nd->out[o];
            if (!v) continue;
            if (v->flags & IR_V_OUTPUT) return 0;
            PR_CONS_EACH(cx, v, i)
            {
                const struct ir_node *c = g->nodes[cx->c[i].node];
                int folded = 1;
                for (int q = 0; q < c->n_out; q++)
                    if (c->out[q] && !c->out[q]->is_const) folded = 0;
                if (cone[c->index] != 1 && mark[c->index] != 2 && !folded) return 0;
            }
        }
    }
    return 1;
}

/* the masks of every fused attention: dropped when their whole cone serves only the attention's scores */
static int attention_masks(struct lower *x, const struct pr_cons_ix *cx)
{
    const struct ir_graph *g = x->g;
    size_t n = (size_t)(g->n_nodes ? g->n_nodes : 1);
    unsigned char *mark = calloc(n, 1), *cone = calloc(n, 1);
    int dropped = -1;
    if (!mark || !cone) goto out;
    dropped = 0;
    int any = 0;
    for (int k = 0; k < g->n_nodes; k++)
        if (klass(g->nodes[k]) == OC_SOFTMAX && mask_operands(x, g->nodes[k], NULL, NULL))
            any |= mask_operands(x, g->nodes[k], mark, cone);
    if (!any || !grow_cone(x, cone) || !cone_closed(x, cx, cone, mark)) goto out;
    for (int k = 0; k < g->n_nodes; k++)
        if (cone[k] == 1) {
            pr_lower_view(x, k);
            dropped++;
        }
out:
    free(mark), free(cone);
    return dropped;
}

/* ---- the rules' entry points (lower_rules[] in lower.c) ---- */

int pr_gate_kv_append(int op)
{
    return op == OPID_CONCAT;
}

int pr_wants_kv_append(const struct ir_node *nd)
{
    return pr_gate_kv_append(nd->op) && appended_slot(nd) >= 0;
}

enum nnperf_status pr_run_kv_append(struct lower *x)
{
    for (int k = 0; k < x->g->n_nodes; k++)
        if (pr_wants_kv_append(x->g->nodes[k])) x->p->node_in[k].kv_append = 1;
    return NNPERF_OK;
}

/* a broadcast that may repeat K/V over the head groups, or a cache append whose K a GEMM may read transposed */
int pr_gate_repeat_kv(int op)
{
    return op == OPID_EXPAND || op == OPID_TILE || pr_gate_kv_append(op);
}

int pr_wants_repeat_kv(const struct ir_node *nd)
{
    return nd->op == OPID_EXPAND || nd->op == OPID_TILE || pr_wants_kv_append(nd);
}

/* whether v's producer, or one up to depth - 1 steps above it through views and Transposes of the last two axes (any
 * of their inputs), is an Expand or a Tile */
static int broadcast_above(const struct ir_value *v, int depth)
{
    const struct ir_node *nd = v ? v->producer : NULL;
    if (!nd || depth < 1) return 0;
    if (nd->op == OPID_EXPAND || nd->op == OPID_TILE) return 1;
    if (depth < 2 || (klass(nd) != OC_VIEW && !swaps_last_two(nd))) return 0;
    for (int i = 0; i < nd->n_in; i++)
        if (broadcast_above(nd->in[i], depth - 1)) return 1;
    return 0;
}

/* Whether the rule may find anything, asked before the consumer index is built: a repeat's GEMM reads the
 * broadcast's output, or the output of the view after it, or of the Transpose after either (3 steps up from a
 * GEMM's input, through a view and a Transpose); the cache's Transpose is found without the index. */
static int repeat_kv_candidates(const struct lower *x)
{
    const struct ir_graph *g = x->g;
    for (int k = 0; k < g->n_nodes; k++) {
        const struct ir_node *nd = g->nodes[k];
        if (nd->op == OPID_TRANSPOSE && !x->p->node_in[k].gone && swaps_last_two(nd) &&
            from_kv_cache(x, nd->in[0]))
            return 1;
        if (!gemm_class(nd)) continue;
        for (int i = 0; i < nd->n_in; i++)
            if (broadcast_above(nd->in[i], 3)) return 1;
    }
    return 0;
}

enum nnperf_status pr_run_repeat_kv(struct lower *x)
{
    const struct ir_graph *g = x->g;
    if (!repeat_kv_candidates(x)) return NNPERF_OK;
    struct pr_cons_ix cx = {0};
    if (!pr_cons_build(g, &cx)) return diag_set(&x->p->d, NNPERF_E_NOMEM, "out of memory");
    for (int k = 0; k < g->n_nodes; k++) {
        const struct ir_node *nd = g->nodes[k];
        if ((nd->op == OPID_EXPAND || nd->op == OPID_TILE) && !x->p->node_in[k].gone) repeat_kv(x, &cx, nd);
    }
    /* K transposed for the scores' GEMM, straight from the cache (multi-head attention has no repeat) */
    for (int k = 0; k < g->n_nodes; k++) {
        const struct ir_node *nd = g->nodes[k];
        if (!x->p->node_in[k].gone && swaps_last_two(nd) && from_kv_cache(x, nd->in[0]) &&
            read_by_gemms(x, &cx, nd->out[0]))
            pr_lower_view(x, k);
    }
    pr_cons_free(&cx);
    return NNPERF_OK;
}

int pr_gate_attention_mask(int op)
{
    return op >= 0 && op_table[op].klass == OC_SOFTMAX;
}

int pr_wants_attention_mask(const struct ir_node *nd)
{
    return pr_gate_attention_mask(nd->op);
}

enum nnperf_status pr_run_attention_mask(struct lower *x)
{
    if (!x->p->hw->fused_attention) return NNPERF_OK;
    struct pr_cons_ix cx = {0};
    if (!pr_cons_build(x->g, &cx)) return diag_set(&x->p->d, NNPERF_E_NOMEM, "out of memory");
    int n = attention_masks(x, &cx);
    pr_cons_free(&cx);
    return n < 0 ? diag_set(&x->p->d, NNPERF_E_NOMEM, "out of memory") : NNPERF_OK;
}
