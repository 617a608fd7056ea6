/* lower.c - stage 0, lowering: the analysed graph rewritten into what a deployment compiler executes, before fusion
 * groups it into layers. An ordered table of rules (lower_rules[]); each row names the operators it may rewrite (a
 * gate, asked once per operator), the nodes it rewrites (a cheap test, so a graph none of them touches is not even
 * copied) and the function that rewrites them. The rules work on
 * the prediction's own copy of the top graph (ir_copy_graph into the prediction's arena: node indices stay those of
 * the analysis, so what-ifs and node_in keep their meaning) and on p->node_in; the model and the analysis are never
 * written. Rules that only mark nodes (a row's `marks`: views, appends) read the analysis's graph itself when they
 * are the only ones that apply, and the lowered graph shares its records but for the few the rewiring writes
 * (lower_shared; swin_t's 24 Dropouts: 96 of 6,623 nodes and 48 values copied instead of 2.4 MB of records). What a
 * rule may do (docs/design.md section 7, "Adding a lowering rule"):
 *
 *  - make a node a view (pr_lower_view): it forms no layer and its consumers read its first input instead (the
 *    rewiring is done once, after all rules, by rewire());
 *  - rename a node to the operator its compiler runs (lower_rename): another registry row and a map of the inputs
 *    kept, so fusion patterns, classes and efficiencies see the operator as its float twin;
 *  - set the type a node computes at (x->qdt[], turned into pr_node_in.dtype by assign_dtypes()) and move work or
 *    weights between nodes' pr_node_in.
 *
 * Rules:
 *  qoperator  QLinearConv, ConvInteger, QLinearMatMul, MatMulInteger, QGemm, QLinearAdd become Conv, MatMul, Gemm,
 *             Add computing at their input's quantized type; scales and zero points are no weights. The int32
 *             result of ConvInteger / MatMulInteger brought back by Cast and a Mul by the scales (ONNX Runtime's
 *             dynamic quantization) is the layer's output stage: those two nodes are views.
 *  qdq        QuantizeLinear, DequantizeLinear and DynamicQuantizeLinear of activations become views. A MAC layer
 *             (conv, gemm, matmul, attention) whose every activation input crosses a DequantizeLinear computes at
 *             that quantized type; any other layer whose activation inputs all come from quantized layers does too
 *             (a Relu, Add, pool or Concat between quantized layers runs as the int8 model's); the rest stays float.
 *             A Q/DQ next to a layer that stays float is a real conversion: its work joins that layer (the unit
 *             that runs the layer converts). Weights behind a DequantizeLinear of 4-bit codes count 4 bits each.
 *             Arithmetic on the scales a DynamicQuantizeLinear computes (their product) is part of that output stage.
 *
 *  no_op      Identity, and Dropout at inference whose mask nobody reads, are views: the output aliases the input.
 *  kv_append, repeat_kv, attention_mask: the decoder rules, in lower_decoder.c (its opening comment).
 *  moe_block  an exported mixture-of-experts block (dense, or eager TopK -> NonZero -> Gather -> expert ->
 *             ScatterND) runs as one com.microsoft MoE: lower_moe.c.
 *
 * Float layers of a quantized graph compute at --dtype when given, else at the platform's default when it is a float
 * type, else at its best float type; a platform with no float peak runs them on its fallback unit (the float path).
 * Cost: one scan when no rule applies; otherwise a few passes over the nodes, and a copy of the top graph unless
 * only marking rules apply. */
#include <limits.h>
#include <stdlib.h>
#include <string.h>

#include "lower.h"

enum {
    QDT_FLOAT = -1, /* the graph leaves it float */
    QDT_NEUTRAL =
        -2, /* reads only graph inputs (or what they make) and no Q/DQ: the graph's quantized type */
};

/* ---- helpers for rules ---- */

void pr_lower_view(struct lower *x, int k)
{
    x->p->node_in[k].gone = 1;
    if (!x->p->node_work) return; /* none: no layer holds a view, so no stage reads its work */
    struct pr_node_work *wk = &x->p->node_work[k];
    wk->mac_ops = wk->vec_ops = wk->params = wk->packed_bytes = 0;
}

/* the factor a what-if scaled node k's weights by (pr_inputs, on the analysis's count: exactly 1 without one), which
 * a rule that recounts them keeps */
static double whatif_weight_scale(const struct nnperf_prediction *p, const struct ir_node *nd, int k)
{
    double counted = (double)nd->cost.params_read;
    return counted > 0 ? p->node_work[k].params / counted : 1;
}

/* node k becomes operator `to` reading its inputs slot[0..n-1] (-1: omitted); its weights are recounted (scales and
 * zero points dropped) and its class is the new operator's */
static enum nnperf_status lower_rename(struct lower *x, int k, int to, const signed char *slot, int n)
{
    struct ir_node *nd = x->g->nodes[k];
    int klass = x->p->node_in[k].klass, own = pr_node_class(nd); /* they differ: a what-if's (grouped) */
    struct ir_value **in = ar_calloc(&x->p->ar, (size_t)n, sizeof *in);
    if (!in) return diag_set(&x->p->d, NNPERF_E_NOMEM, "out of memory");
    int used = 0;
    for (int i = 0; i < n; i++)
        if (slot[i] >= 0 && slot[i] < nd->n_in && nd->in[slot[i]]) in[i] = nd->in[slot[i]], used = i + 1;
    nd->in = in;
    nd->n_in = used;
    nd->op = to;
    nd->op_type = op_table[to].name;
    nd->domain = "";
    struct pr_node_work *wk = &x->p->node_work[k];
    x->p->node_in[k].klass = (signed char)(klass != own ? klass : pr_node_class(nd));
    double scale = whatif_weight_scale(x->p, nd, k); /* holds for the recount */
    wk->params = 0;
    for (int i = 0; i < nd->n_in; i++) {
        int64_t e;
        const struct ir_value *v = nd->in[i];
        if (v && ((v->flags & IR_V_INIT) || v->is_const == 1) && ir_numel(v, &e)) wk->params += (double)e;
    }
    if (scale != 1) wk->params *= scale;
    return NNPERF_OK;
}

/* the enum hw_dtype a quantized ONNX type computes at: 8-bit integers int8, 4-bit ones int4; -1 otherwise (fp8
 * has no peak key: its layers stay float) */
static int hw_of_onnx(int dt)
{
    switch (dt) {
    case DT_INT8:
    case DT_UINT8: return HW_INT8;
    case DT_INT4:
    case DT_UINT4: return HW_INT4;
    default: return -1;
    }
}

static int is_mac_class(int k)
{
    return k == OC_CONV || k == OC_CONV_GROUPED || k == OC_CONV_DEPTHWISE || k == OC_GEMM || k == OC_MATMUL ||
           k == OC_ATTENTION;
}

/* ---- rule: QOperator forms ---- */

static const struct {
    int from, to;
    signed char slot[3]; /* the inputs the float twin reads: data, weight, bias */
    int rescaled;        /* an int32 output that a Cast and a Mul by the scales bring back to float */
} qop_rows[] = {
    {OPID_Q_LINEAR_CONV, OPID_CONV, {0, 3, 8}, 0},
    {OPID_CONV_INTEGER, OPID_CONV, {0, 1, -1}, 1},
    {OPID_Q_LINEAR_MAT_MUL, OPID_MAT_MUL, {0, 3, -1}, 0},
    {OPID_MAT_MUL_INTEGER, OPID_MAT_MUL, {0, 1, -1}, 1},
    {OPID_MS_Q_GEMM, OPID_GEMM, {0, 3, 6}, 0},
    {OPID_MS_Q_LINEAR_ADD, OPID_ADD, {0, 3, -1}, 0},
};

static int qop_row_of(int op)
{
    for (size_t i = 0; i < sizeof qop_rows / sizeof qop_rows[0]; i++)
        if (op == qop_rows[i].from) return (int)i;
    return -1;
}

static int qop_row(const struct ir_node *nd)
{
    return qop_row_of(nd->op);
}

static int gate_qoperator(int op)
{
    return qop_row_of(op) >= 0;
}

static int wants_qoperator(const struct ir_node *nd)
{
    return qop_row(nd) >= 0;
}

static int is_scalar(const struct ir_value *v)
{
    int64_t n;
    return v && ir_numel(v, &n) && n == 1;
}

/* The node that alone reads v (the first output of node p), else -1: one[p] from a pass over the inputs */
static int only_reader(const int *one, const struct ir_value *v)
{
    return v && v->producer && !(v->flags & IR_V_OUTPUT) && v == v->producer->out[0] ? one[v->producer->index]
                                                                                     : -1;
}

/* The rescaling epilogue of ConvInteger / MatMulInteger (ONNX Runtime's dynamic quantization): Cast of the int32
 * result to float, then Mul by the product of the scales (a scalar), each the only reader of the one before, are
 * the layer's output stage: views. The Mul's product reads first. */
static void fold_rescale(struct lower *x, const int *one, int k)
{
    const struct ir_value *v = x->g->nodes[k]->n_out ? x->g->nodes[k]->out[0] : NULL;
    for (int step = 0; step < 2; step++) {
        int c = only_reader(one, v);
        if (c < 0) return;
        struct ir_node *nd = x->g->nodes[c];
        int want = step == 0 ? OPID_CAST : OPID_MUL;
        if (nd->op != want || nd->n_in < 1 || nd->n_out < 1) return;
        if (want == OPID_MUL) {
            if (nd->n_in != 2 || !is_scalar(nd->in[nd->in[0] == v ? 1 : 0])) return;
            if (nd->in[1] == v) nd->in[1] = nd->in[0], nd->in[0] = (struct ir_value *)v;
        }
        pr_lower_view(x, c);
        v = nd->out[0];
    }
}

static enum nnperf_status run_qoperator(struct lower *x)
{
    struct ir_graph *g = x->g;
    /* one[p]: the node reading node p's first output, -1 none, -2 several */
    int *one = ar_calloc(&x->p->ar, (size_t)(g->n_nodes ? g->n_nodes : 1), sizeof *one);
    if (!one) return diag_set(&x->p->d, NNPERF_E_NOMEM, "out of memory");
    for (int k = 0; k < g->n_nodes; k++) one[k] = -1;
    for (int k = 0; k < g->n_nodes; k++)
        for (int i = 0; i < g->nodes[k]->n_in; i++) {
            const struct ir_value *v = g->nodes[k]->in[i];
            if (!v || !v->producer || v != v->producer->out[0]) continue;
            int *o = &one[v->producer->index];
            *o = *o == -1 || *o == k ? k : -2;
        }
    for (int k = 0; k < g->n_nodes; k++) {
        struct ir_node *nd = g->nodes[k];
        int r = qop_row(nd);
        if (r < 0) continue;
        int q = nd->n_in > 0 && nd->in[0] ? hw_of_onnx(nd->in[0]->dtype) : -1;
        enum nnperf_status st = lower_rename(x, k, qop_rows[r].to, qop_rows[r].slot, 3);
        if (st) return st;
        x->qdt[k] = (signed char)(q >= 0 ? q : HW_INT8);
        if (qop_rows[r].rescaled) fold_rescale(x, one, k);
    }
    return NNPERF_OK;
}

/* ---- rule: QDQ ---- */

static int gate_qdq(int op)
{
    return op == OPID_QUANTIZE_LINEAR || op == OPID_DEQUANTIZE_LINEAR || op == OPID_DYNAMIC_QUANTIZE_LINEAR;
}

static int is_qdq(const struct ir_node *nd)
{
    return gate_qdq(nd->op);
}

static int wants_qdq(const struct ir_node *nd)
{
    return is_qdq(nd) && nd->n_in > 0 && nd->n_out > 0 && pr_is_act(nd->out[0]);
}

/* the quantized ONNX type a Q/DQ node converts to or from */
static int qdq_type(const struct ir_node *nd)
{
    if (nd->op == OPID_DEQUANTIZE_LINEAR) return nd->in[0] ? nd->in[0]->dtype : 0;
    return nd->out[0] ? nd->out[0]->dtype : 0;
}

/* The value v stands for once views are rewired; *q (when not NULL and 0) gets the quantized type of the first
 * Q/DQ crossed; absorb (not NULL): the DequantizeLinear nodes crossed add their work to it (a float consumer
 * dequantizes). NULL for a view's other outputs. */
static struct ir_value *resolve(struct lower *x, struct ir_value *v, int *q, struct pr_node_work *absorb)
{
    for (int guard = 0; v && v->producer && x->p->node_in[v->producer->index].gone; guard++) {
        const struct ir_node *nd = v->producer;
        if (guard > x->g->n_nodes || nd->n_out < 1 || v != nd->out[0] || nd->n_in < 1) return NULL;
        if (q && !*q && is_qdq(nd)) *q = qdq_type(nd);
        if (absorb && nd->op == OPID_DEQUANTIZE_LINEAR)
            absorb->vec_ops += (double)(nd->cost.flops - 2 * nd->cost.macs);
        v = nd->in[0];
    }
    return v;
}

static enum nnperf_status run_qdq(struct lower *x)
{
    struct ir_graph *g = x->g;
    struct nnperf_prediction *p = x->p;
    for (int k = 0; k < g->n_nodes; k++)
        if (wants_qdq(g->nodes[k])) pr_lower_view(x, k);
    /* scale arithmetic: a node whose activation inputs are all the scales or zero points a DynamicQuantizeLinear
     * computed (the product of the scales its consumers rescale with) is part of their output stage */
    for (int k = 0; k < g->n_nodes; k++) {
        struct ir_node *nd = g->nodes[k];
        int n_act = 0, n_scale = 0;
        if (p->node_in[k].gone || nd->n_out < 1 || !is_scalar(nd->out[0])) continue;
        for (int i = 0; i < nd->n_in; i++) {
            if (!pr_is_act(nd->in[i])) continue;
            n_act++;
            n_scale += resolve(x, nd->in[i], NULL, NULL) == NULL;
        }
        if (n_act && n_scale == n_act) pr_lower_view(x, k);
    }
    /* which layers compute quantized, in execution order (producers first): an input is quantized (it crossed a
     * Q/DQ, or a quantized layer made it), neutral (a graph input, or made from graph inputs only) or float */
    for (int k = 0; k < g->n_nodes; k++) {
        struct ir_node *nd = g->nodes[k];
        struct pr_node_in *in = &p->node_in[k];
        if (in->gone || x->qdt[k] != QDT_FLOAT) continue;
        int n_act = 0, n_marked = 0, n_float = 0, dt = -1;
        for (int i = 0; i < nd->n_in; i++) {
            if (!pr_is_act(nd->in[i])) continue;
            int q = 0;
            struct ir_value *v = resolve(x, nd->in[i], &q, NULL);
            if (!v) continue;
            n_act++;
            int h = q ? hw_of_onnx(q) : v->producer ? x->qdt[v->producer->index] : QDT_NEUTRAL;
            n_marked += q && h >= 0;
            n_float += h == QDT_FLOAT;
            if (h >= 0 && dt < 0) dt = h;
        }
        if (!n_act) continue;
        if (is_mac_class(in->klass))
            x->qdt[k] = (signed char)(n_marked == n_act ? dt : QDT_FLOAT);
        else
            x->qdt[k] = (signed char)(n_float ? QDT_FLOAT : dt >= 0 ? dt : QDT_NEUTRAL);
    }
    /* conversions next to float layers: a float consumer dequantizes, a float producer quantizes */
    for (int k = 0; k < g->n_nodes; k++) {
        struct ir_node *nd = g->nodes[k];
        if (p->node_in[k].gone || x->qdt[k] != QDT_FLOAT) continue;
        for (int i = 0; i < nd->n_in; i++)
            if (pr_is_act(nd->in[i])) resolve(x, nd->in[i], NULL, &p->node_work[k]);
    }
    for (int k = 0; k < g->n_nodes; k++) {
        struct ir_node *nd = g->nodes[k];
        if (!p->node_in[k].gone || nd->op == OPID_DEQUANTIZE_LINEAR) continue;
        struct ir_value *v = resolve(x, nd->in[0], NULL, NULL);
        if (!v || !v->producer || p->node_in[v->producer->index].gone ||
            x->qdt[v->producer->index] != QDT_FLOAT)
            continue;
        p->node_work[v->producer->index].vec_ops += (double)(nd->cost.flops - 2 * nd->cost.macs);
    }
    /* weights of 4-bit codes behind a DequantizeLinear are stored at their width */
    for (int k = 0; k < g->n_nodes; k++) {
        struct ir_node *nd = g->nodes[k];
        if (p->node_in[k].gone || x->qdt[k] < 0) continue;
        double scale = whatif_weight_scale(p, nd, k);
        for (int i = 0; i < nd->n_in; i++) {
            const struct ir_value *w = nd->in[i];
            const struct ir_node *dq = w && w->is_const == 1 ? w->producer : NULL;
            if (!dq || dq->op != OPID_DEQUANTIZE_LINEAR || dq->n_in < 1 || !dq->in[0]) continue;
            int bits = ir_dtype_bits(dq->in[0]->dtype);
            int64_t e;
            if (bits <= 0 || bits >= 8 || !ir_numel(w, &e)) continue;
            p->node_work[k].params -= (double)e * scale;
            p->node_work[k].packed_bytes += (double)e * scale * bits / 8.0;
        }
    }
    return NNPERF_OK;
}

/* ---- the table ---- */

struct lower_rule {
    const char *name;
    int (*gate)(
        int op); /* a registry operator whose nodes the rule may rewrite (every node it wants passes) */
    int (*wants)(
        const struct ir_node *nd); /* a node the rule rewrites (decides whether the graph is copied) */
    enum nnperf_status (*run)(struct lower *x);
    /* 1: it only marks nodes in p->node_in (views, appends), writing no record of the graph and no node's work but a
     * view's (pr_lower_view): it may run on the analysis's graph itself (lower_shared) */
    int marks;
};

/* A Dropout that copies its input: training_mode absent or a known false, or a ratio known to be 0 (opset 12 on;
 * earlier, training is an attribute-free inference no-op) */
static int dropout_copies(const struct ir_node *nd)
{
    const struct ir_value *t = nd->n_in > 2 ? nd->in[2] : NULL, *r = nd->n_in > 1 ? nd->in[1] : NULL;
    if (!t || (t->nv == 1 && t->iv && t->iv[0].known && t->iv[0].v == 0)) return 1;
    return r && r->nv == 1 && r->fv && r->fv[0] == 0;
}

/* no_op: Identity, and Dropout at inference (opset 7 on, training_mode absent or false or ratio 0, its mask unread), copy their
 * input: a compiler aliases the tensor, no kernel runs (ONNX Dropout: "If training_mode is false, the output is
 * the same as the input"). */
static int gate_no_op(int op)
{
    return op == OPID_IDENTITY || op == OPID_DROPOUT;
}

static int wants_no_op(const struct ir_node *nd)
{
    if (!gate_no_op(nd->op) || nd->n_in < 1 || !nd->in[0] || nd->n_out < 1 || !pr_is_act(nd->out[0]))
        return 0;
    if (nd->op == OPID_IDENTITY) return 1;
    return nd->op == OPID_DROPOUT && nd->opset >= 7 && dropout_copies(nd) &&
           (nd->n_out < 2 || !nd->out[1] || (!nd->out[1]->n_consumers && !(nd->out[1]->flags & IR_V_OUTPUT)));
}

static enum nnperf_status run_no_op(struct lower *x)
{
    for (int k = 0; k < x->g->n_nodes; k++)
        if (wants_no_op(x->g->nodes[k])) pr_lower_view(x, k);
    return NNPERF_OK;
}

static const struct lower_rule lower_rules[] = {
    {"no_op", gate_no_op, wants_no_op, run_no_op, 1},
    {"qoperator", gate_qoperator, wants_qoperator, run_qoperator, 0},
    {"qdq", gate_qdq, wants_qdq, run_qdq, 0},
    {"kv_append", pr_gate_kv_append, pr_wants_kv_append, pr_run_kv_append, 1},
    {"repeat_kv", pr_gate_repeat_kv, pr_wants_repeat_kv, pr_run_repeat_kv, 1},
    {"attention_mask", pr_gate_attention_mask, pr_wants_attention_mask, pr_run_attention_mask, 1},
    {"moe_block", pr_gate_moe_block, pr_wants_moe_block, pr_run_moe_block, 0},
};
_Static_assert(sizeof lower_rules / sizeof lower_rules[0] < 15, "pr_lower's masks hold 15 rules");

/* ---- after the rules ---- */

/* every input (and graph output) that a view produced reads the view's source; consumer counts follow */
static void rewire(struct lower *x)
{
    struct ir_graph *g = x->g;
    for (int k = 0; k < g->n_nodes; k++) {
        struct ir_node *nd = g->nodes[k];
        if (x->p->node_in[k].gone) continue;
        for (int i = 0; i < nd->n_in; i++)
            if (nd->in[i] && nd->in[i]->producer && x->p->node_in[nd->in[i]->producer->index].gone)
                nd->in[i] = resolve(x, nd->in[i], NULL, NULL);
    }
    for (int i = 0; i < g->n_outputs; i++) {
        struct ir_value *v = g->outputs[i], *s = resolve(x, v, NULL, NULL);
        if (s && s != v) {
            s->flags |= IR_V_OUTPUT;
            g->outputs[i] = s;
        }
    }
    for (int i = 0; i < g->n_values; i++) g->values[i]->n_consumers = 0;
    for (int k = 0; k < g->n_nodes; k++) {
        struct ir_node *nd = g->nodes[k];
        if (x->p->node_in[k].gone) {
            nd->n_in = nd->n_out = 0; /* a view reads and writes nothing any more */
            continue;
        }
        for (int i = 0; i < nd->n_in; i++)
            if (nd->in[i]) nd->in[i]->n_consumers++;
    }
}

/* What rewire() makes of a copy of the graph, without the copy, after rules that only marked nodes ran on the
 * analysis's graph g itself (x->g): x->g becomes a graph record of its own whose records are g's but for those
 * rewire() writes, copied: the views (no inputs and outputs any more), the nodes that read a view's output (the
 * view's source instead), and a value only views read (n_consumers 0 now: the stages ask whether it is 0) with the
 * node that makes it. The other values stay g's, their producers g's nodes (pr_producer finds a copy). *shared = 0
 * when rewire() would change more (a graph output that is a view's, a value that no one read and now one does):
 * nothing is then written. */
static enum nnperf_status lower_shared(struct lower *x, int *shared)
{
    struct nnperf_prediction *p = x->p;
    const struct ir_graph *g = x->g;
    const struct pr_node_in *ni = p->node_in;
    int nv = g->n_values, nn = g->n_nodes;
    *shared = 0;
    for (int i = 0; i < g->n_outputs; i++)
        if (g->outputs[i] && g->outputs[i]->producer && ni[g->outputs[i]->producer->index].gone)
            return NNPERF_OK;
    /* read[i] for g->values[i]: 4 made by a view; 1 read once views are rewired; 2 read by views only (copied).
     * Positions, not producers, say which input is a view's (a pass over every input reads no producer); the
     * positions of the rewired inputs in order (num) make the lowered graph's consumer index on the way (p->cons,
     * which fusion takes instead of a pass of its own). */
    unsigned char *read = calloc((size_t)(nv ? nv : 1), 1), *copy = calloc((size_t)(nn ? nn : 1), 1);
    int cap = 2 * nn + 1, n_num = 0, *num = malloc((size_t)cap * sizeof *num);
    int ok = read && copy && num, n_nodes = 0, n_vals = 0;
    for (int k = 0; ok && k < nn; k++)
        for (int i = 0; ni[k].gone && i < g->nodes[k]->n_out; i++) {
            const struct ir_value *v = g->nodes[k]->out[i];
            int at = v ? ir_value_pos(g, v) : 0;
            if (at < 0 || (v && v->producer != g->nodes[k])) ok = 0;
            if (v && at >= 0) read[at] = 4;
        }
    for (int k = 0; ok && k < nn; k++) {
        const struct ir_node *nd = g->nodes[k];
        copy[k] = ni[k].gone;
        for (int i = 0; ok && !ni[k].gone && i < nd->n_in; i++) {
            struct ir_value *v = nd->in[i];
            int at = v ? ir_value_pos(g, v) : 0;
            if (at >= 0 && v && read[at] == 4) {
                v = resolve(x, v, NULL, NULL), copy[k] = 1;
                at = v ? ir_value_pos(g, v) : 0;
            }
            if (at < 0) ok = 0;
            if (!v || at < 0) continue;
            read[at] = 1;
            if (n_num == cap) {
                int *more = cap < INT_MAX / 2 ? realloc(num, (size_t)cap * 2 * sizeof *num) : NULL;
                if (!more) break;
                num = more, cap *= 2;
            }
            num[n_num++] = at;
        }
        if (n_num == cap) ok = 0; /* out of memory growing num: the copy serves */
    }
    for (int i = 0; ok && i < nv; i++) {
        if (read[i] == 4) continue; /* a view's: nothing reads it any more */
        const struct ir_value *v = g->values[i];
        if (!v->n_consumers && read[i]) ok = 0;
        if (!v->n_consumers || read[i]) continue;
        read[i] = 2, n_vals++;
        if (v->producer) copy[v->producer->index] = 1;
    }
    for (int k = 0; ok && k < nn; k++) n_nodes += copy[k];
    struct ir_graph *c = ok ? ar_alloc(&p->ar, sizeof *c) : NULL;
    struct ir_node **na = ok ? ar_calloc(&p->ar, (size_t)(nn ? nn : 1), sizeof *na) : NULL;
    struct ir_node *nrec = ok ? ar_calloc(&p->ar, (size_t)(n_nodes ? n_nodes : 1), sizeof *nrec) : NULL;
    struct ir_value **va = ok && n_vals ? ar_calloc(&p->ar, (size_t)nv, sizeof *va) : NULL;
    struct ir_value *vrec = ok && n_vals ? ar_calloc(&p->ar, (size_t)n_vals, sizeof *vrec) : NULL;
    enum nnperf_status st =
        !read || !copy || !num || (ok && (!c || !na || !nrec || (n_vals && (!va || !vrec))))
            ? diag_set(&p->d, NNPERF_E_NOMEM, "out of memory")
            : NNPERF_OK;
    if (st || !ok) goto out;
    *c = *g;
    for (int i = 0, j = 0; n_vals && i < nv; i++) {
        va[i] = g->values[i];
        if (read[i] != 2) continue;
        vrec[j] = *g->values[i];
        vrec[j].n_consumers = 0;
        va[i] = &vrec[j++];
    }
    for (int k = 0, j = 0; k < nn && !st; k++) {
        struct ir_node *nd = g->nodes[k];
        na[k] = nd;
        if (!copy[k]) continue;
        nrec[j] = *nd;
        na[k] = &nrec[j++];
        if (ni[k].gone) {
            na[k]->n_in = na[k]->n_out = 0; /* a view reads and writes nothing any more */
            continue;
        }
        struct ir_value **io = ar_calloc(&p->ar, (size_t)(nd->n_in + nd->n_out + 1), sizeof *io);
        if (!io) {
            st = diag_set(&p->d, NNPERF_E_NOMEM, "out of memory");
            break;
        }
        for (int i = 0; i < nd->n_in; i++) {
            int at = nd->in[i] ? ir_value_pos(g, nd->in[i]) : -1;
            io[i] = at >= 0 && read[at] == 4 ? resolve(x, nd->in[i], NULL, NULL) : nd->in[i];
        }
        for (int i = 0; i < nd->n_out; i++) {
            int at = nd->out[i] ? ir_value_pos(g, nd->out[i]) : -1;
            io[nd->n_in + i] = at >= 0 && read[at] == 2 ? va[at] : nd->out[i];
            if (at >= 0 && read[at] == 2 && va[at]->producer == nd) va[at]->producer = na[k];
        }
        na[k]->in = io;
        na[k]->out = io + nd->n_in;
    }
    /* the graph's lists name the copies of the values copied */
    struct ir_value ***lists[3] = {&c->inputs, &c->outputs, &c->inits};
    int counts[3] = {g->n_inputs, g->n_outputs, g->n_inits};
    for (int l = 0; l < 3 && n_vals && !st; l++) {
        struct ir_value **a = ar_calloc(&p->ar, (size_t)(counts[l] ? counts[l] : 1), sizeof *a);
        if (!a) st = diag_set(&p->d, NNPERF_E_NOMEM, "out of memory");
        for (int i = 0; a && i < counts[l]; i++) {
            struct ir_value *v = (*lists[l])[i];
            int at = v ? ir_value_pos(g, v) : -1;
            a[i] = at >= 0 ? va[at] : v;
        }
        *lists[l] = a;
    }
    if (st) goto out;
    if (n_vals) c->values = va;
    c->nodes = na;
    x->g = c;
    *shared = 1;
    if (!pr_cons_build_from(c, &p->cons, num, n_num)) pr_cons_free(&p->cons); /* fusion builds it then */
out:
    free(read);
    free(copy);
    free(num);
    return st;
}

/* the float type the layers a quantized graph leaves float compute at (see the top); -1: the fallback unit */
static int float_dtype(const struct nnperf_prediction *p)
{
    if (p->dtype_given) return p->dtype;
    int d = p->hw->default_dtype;
    if ((d == HW_FP16 || d == HW_BF16 || d == HW_FP32) && p->hw->peak_ops[d] > 0) return d;
    static const int order[] = {HW_FP16, HW_BF16, HW_FP32};
    for (int i = 0; i < 3; i++)
        if (p->hw->peak_ops[order[i]] > 0) return order[i];
    return -1;
}

/* x->qdt into node_in.dtype: a quantized type the platform has no peak for computes at int8 when it has that
 * (4-bit weights, 8-bit compute), else stays float. p->dtype becomes the type most MAC work is quantized to. */
static void assign_dtypes(struct lower *x)
{
    struct nnperf_prediction *p = x->p;
    int fdt = float_dtype(p), n = x->g->n_nodes;
    double work[HW_NDT] = {0};
    int warned = 0;
    for (int k = 0; k < n; k++) {
        int q = x->qdt[k];
        if (q < 0 || p->hw->peak_ops[q] > 0) continue;
        int to = q == HW_INT4 && p->hw->peak_ops[HW_INT8] > 0 ? HW_INT8 : QDT_FLOAT;
        if (!warned)
            pr_warn(p, "the graph's %s layers: %s has no %s peak, they compute at %s", hw_dtype_name(q),
                    p->hw->name, hw_dtype_name(q), to >= 0 ? hw_dtype_name(to) : "the float type");
        warned = 1;
        x->qdt[k] = (signed char)to;
    }
    for (int k = 0; k < n; k++)
        if (x->qdt[k] >= 0) work[x->qdt[k]] += p->node_work[k].mac_ops + 1e-9 * p->node_work[k].vec_ops;
    int best = -1;
    for (int d = 0; d < HW_NDT; d++)
        if (work[d] > 0 && (best < 0 || work[d] > work[best])) best = d;
    for (int k = 0; k < n; k++) {
        struct pr_node_in *in = &p->node_in[k];
        int q = x->qdt[k] == QDT_NEUTRAL ? best : x->qdt[k];
        if (in->gone) continue;
        if (q >= 0)
            in->dtype = (signed char)q;
        else if (fdt >= 0)
            in->dtype = (signed char)fdt;
        else
            in->float_path = 1;
    }
    if (best < 0) return;
    p->graph_dtype = best;
    p->dtype = best;
    p->compute_model = pr_compute_model_of(p->hw, best);
    /* the float MAC layers beside the quantized ones are worth a word: they usually dominate the time */
    int nf = 0;
    const char *first = NULL;
    for (int k = 0; k < n; k++) {
        const struct pr_node_in *in = &p->node_in[k];
        if (in->gone || p->node_work[k].mac_ops <= 0 || (!in->float_path && in->dtype == best)) continue;
        if (!nf++) first = x->g->nodes[k]->name;
    }
    if (nf)
        pr_warn(p,
                "%d MAC layer%s the graph leaves float (no QuantizeLinear/DequantizeLinear around: '%s'%s) "
                "compute%s at %s; the others at %s",
                nf, nf == 1 ? "" : "s", first, nf > 1 ? ", ..." : "", nf == 1 ? "s" : "",
                fdt >= 0 ? hw_dtype_name(fdt) : "fp32 on the fallback unit", hw_dtype_name(best));
}

/* ---- the what-if's values ---- */

/* The position among g's values of the value that v names: v itself, or the value with its id and name (the same
 * tensor: the analysis's graph and every lowering of it keep the values' ids and share their names). -1: none. */
static int named_pos(const struct ir_graph *g, const struct ir_value *v)
{
    int at = ir_value_pos(g, v);
    if (at >= 0 || !g->n_values) return at;
    long long i = (long long)v->id - g->values[0]->id;
    return i >= 0 && i < g->n_values && g->values[i]->id == v->id && g->values[i]->name == v->name ? (int)i
                                                                                                   : -1;
}

/* A what-if names values of the analysis's graph, or of a lowering of it (advice names the base prediction's); the
 * stages read x->g's. Before rewire(), while the views still read their inputs: pos[i] for p->val_in[i], the
 * position of the tensor that holds it, through the views the rules made (resolve: a Q/DQ pair's or a Dropout's
 * output is its input's tensor); -1 where x->g holds none, said in a warning that names the value. */
static void whatif_positions(struct lower *x, int *pos)
{
    struct nnperf_prediction *p = x->p;
    for (int i = 0; i < p->n_val_in; i++) {
        const struct ir_value *v = p->val_in[i].v;
        int at = v ? named_pos(x->g, v) : -1;
        struct ir_value *s = at >= 0 ? resolve(x, x->g->values[at], NULL, NULL) : NULL;
        pos[i] = s ? ir_value_pos(x->g, s) : -1;
        if (pos[i] >= 0) continue;
        p->n_val_unmapped++;
        pr_warn(
            p, "what-if: value '%s' %s: its change (%s) is not applied", v && v->name ? v->name : "?",
            at < 0 ? "is not a value of this model's graph"
                   : "is made by a lowering view that holds no tensor of its own (e.g. a quantization scale)",
            p->val_in[i].pinned ? "kept in SRAM" : "channel count");
    }
}

/* p->val_in as values of the graph the stages read (g: x->g after the rewiring), merging two that name one tensor;
 * those without a position are dropped (warned) */
static void whatif_values(struct nnperf_prediction *p, const struct ir_graph *g, const int *pos)
{
    int n = 0;
    for (int i = 0; i < p->n_val_in; i++) {
        if (pos[i] < 0) continue;
        struct pr_value_in vi = p->val_in[i];
        vi.v = g->values[pos[i]];
        int k = 0;
        while (k < n && p->val_in[k].v != vi.v) k++;
        if (k == n) {
            p->val_in[n++] = vi;
            continue;
        }
        struct pr_value_in *m = &p->val_in[k];
        m->pinned |= vi.pinned;
        if (!m->channels) m->channels = vi.channels, m->bytes_scale = vi.bytes_scale;
    }
    p->n_val_in = n;
}

enum nnperf_status pr_lower(struct nnperf_prediction *p)
{
    const struct ir_graph *g = p->g;
    size_t nr = sizeof lower_rules / sizeof lower_rules[0];
    /* bit r of need: rule r wants a node; of may[op]: rule r's gate passes op (bit 15: asked), so a node is shown
     * only to the rules that may want its operator (no rule wants an operator outside the registry) */
    unsigned need = 0;
    unsigned short may[OPID_COUNT] = {0};
    for (int k = 0; k < g->n_nodes; k++) {
        const struct ir_node *nd = g->nodes[k];
        if (nd->op < 0 || nd->op >= OPID_COUNT) continue;
        if (!may[nd->op]) {
            may[nd->op] = 1u << 15;
            for (size_t r = 0; r < nr; r++)
                if (lower_rules[r].gate(nd->op)) may[nd->op] |= (unsigned short)(1u << r);
        }
        unsigned m = may[nd->op] & ~need & ((1u << nr) - 1);
        for (size_t r = 0; m; r++, m >>= 1)
            if ((m & 1u) && lower_rules[r].wants(nd)) need |= 1u << r;
    }
    int *pos = p->n_val_in ? ar_calloc(&p->ar, (size_t)p->n_val_in, sizeof *pos) : NULL;
    if (p->n_val_in && !pos) return diag_set(&p->d, NNPERF_E_NOMEM, "out of memory");
    if (!need) {
        struct lower x = {p, (struct ir_graph *)g, NULL}; /* no view: each value is its own tensor */
        whatif_positions(&x, pos);
        whatif_values(p, g, pos);
        return NNPERF_OK;
    }
    /* rules that only mark nodes run on the analysis's graph */
    int marks = 1;
    for (size_t r = 0; r < nr; r++)
        if ((need & 1u << r) && !lower_rules[r].marks) marks = 0;
    struct ir_graph *copy = (struct ir_graph *)g; /* with marks: written by none of the rules */
    enum nnperf_status st = NNPERF_OK;
    /* the rules move and recount work; marking rules only zero a view's, which then forms no layer and is read by
     * no stage (pr_node_work), but where a what-if forces a group, which may hold it */
    if (!marks || p->n_groups) st = pr_node_work_own(p);
    if (!marks && !st) st = ir_copy_graph(&p->ar, g, &copy, &p->d);
    if (st) return st;
    struct lower x = {p, copy, ar_alloc(&p->ar, (size_t)(g->n_nodes ? g->n_nodes : 1))};
    if (!x.qdt) return diag_set(&p->d, NNPERF_E_NOMEM, "out of memory");
    memset(x.qdt, QDT_FLOAT, (size_t)(g->n_nodes ? g->n_nodes : 1));
    for (size_t r = 0; r < nr && !st; r++)
        if (need & 1u << r) st = lower_rules[r].run(&x);
    if (!st) whatif_positions(&x, pos);
    int shared = 0;
    if (!st && marks) st = lower_shared(&x, &shared);
    if (!st && marks && !shared) st = ir_copy_graph(&p->ar, g, &x.g, &p->d);
    if (st) return st;
    if (!shared) rewire(&x);
    whatif_values(p, x.g, pos);
    /* types are assigned when a rule set one (a quantized graph); a float graph keeps the prediction's dtype, as it
     * does when no rule applies (the views of no_op and the decoder rules change no layer's type) */
    int typed = 0;
    for (int k = 0; k < g->n_nodes && !typed; k++) typed = x.qdt[k] != (signed char)QDT_FLOAT;
    if (typed) assign_dtypes(&x);
    p->g = x.g;
    return NNPERF_OK;
}
