/* control.c - operators with subgraphs: If, Loop, Scan and SequenceMap. Each gives its body's formal inputs a
 * type (from the node's inputs, falling back on the types the model declares for them), has the driver infer the
 * body (op_infer_subgraph, which also counts its nodes), and takes the node's outputs from the body's outputs.
 * Costs: the body's cost x trip count (Loop), x sequence length (Scan, SequenceMap), the larger branch (If).
 * Where the repeat count is unknown the cost of ONE iteration is reported and flagged unknown (cost->known = 0),
 * so the per-iteration work stays visible in the per-node report. Sequences keep their elements one by one (seq.h)
 * through the branch taken, through branches that agree, and through unrolled loop iterations. */
#include <string.h>

#include "../sequence/seq.h"

/* ---- formal inputs and shapes ---- */

/* A subgraph's formal input arrives with the type its ValueInfoProto declares (in dtype/rank/dims, with
 * declared = 1). The first time we bind it, that declaration is kept in decl_* (unused for graph inputs) and
 * declared becomes 2, so that re-running the analysis can still fall back on it. */
static int stash_declared(struct op_ctx *c, struct ir_value *v)
{
    if (v->declared == 2) return 1;
    v->declared = 2;
    return ir_set_decl(c->ar, v, v->rank, v->dtype, v->dims);
}

/* Gives formal input v the type (kind, dtype, rank, dims); where that is unknown, the declared type fills in.
 * Propagated values and sequence elements are cleared. */
static enum nnperf_status bind_formal(struct op_ctx *c, struct ir_value *v, int kind, int dtype, int rank,
                                      const struct ir_dim *dims)
{
    if (!stash_declared(c, v)) return op_nomem(c);
    v->iv = NULL;
    v->fv = NULL;
    v->nv = 0;
    ir_forget_found(v);
    int decl_rank = ir_decl_rank(v);
    const struct ir_dim *decl_dims = ir_decl_dims(v);
    if (!dtype) dtype = ir_decl_dtype(v);
    if (rank < 0 && decl_rank >= 0) {
        rank = decl_rank;
        dims = decl_dims;
    }
    if (rank > NNPERF_MAX_RANK) rank = -1;
    struct ir_dim *d = NULL;
    if (rank >= 0) {
        d = ar_calloc(c->ar, (size_t)(rank ? rank : 1), sizeof *d);
        if (!d) return op_nomem(c);
        for (int k = 0; k < rank; k++) {
            d[k] = dims ? dims[k] : IR_DIM_UNKNOWN;
            if (d[k].val < 0 && !d[k].sym && decl_rank == rank && decl_dims) d[k] = decl_dims[k];
            if (d[k].val < -1) d[k] = IR_DIM_UNKNOWN;
        }
    }
    v->dtype = dtype;
    v->rank = rank;
    v->dims = d;
    if (kind != TK_UNKNOWN)
        v->type_kind = (signed char)kind;
    else if (v->type_kind == TK_UNKNOWN)
        v->type_kind = TK_TENSOR;
    return NNPERF_OK;
}

/* A shape being merged: equal dims stay, different ones become unknown, different ranks give unknown rank. For a
 * sequence, the element list (elems NULL: not known) is kept only where both sides have the same. */
struct shp {
    int kind, dtype, rank;
    struct ir_dim dims[NNPERF_MAX_RANK];
    int n_elems;
    struct ir_value **elems;
};

static void shp_of(struct shp *s, const struct ir_value *v)
{
    s->kind = v ? v->type_kind : TK_UNKNOWN;
    s->dtype = v ? v->dtype : DT_UNDEFINED;
    s->rank = v && v->rank <= NNPERF_MAX_RANK ? v->rank : -1;
    for (int k = 0; k < s->rank; k++) s->dims[k] = v->dims ? v->dims[k] : IR_DIM_UNKNOWN;
    s->elems = seq_known(v) ? ir_elems(v) : NULL;
    s->n_elems = s->elems ? ir_n_elems(v) : -1;
}

/* A sequence with no elements, or of unknown element rank and elements not known one by one (the shape
 * SequenceEmpty had before element lists): it neither constrains nor is constrained in a merge. */
static int shp_no_elems(const struct shp *s)
{
    return s->kind == TK_SEQUENCE && s->rank < 0 && (!s->elems || s->n_elems == 0);
}

/* Merges v into s; returns 1 when s changed. A sequence without elements adds none, so the other side's element
 * shape is taken. */
static int shp_merge(struct shp *s, const struct ir_value *v)
{
    struct shp o;
    shp_of(&o, v);
    int changed = 0;
    if (!s->dtype && o.dtype) s->dtype = o.dtype, changed = 1;
    if ((s->kind == TK_UNKNOWN || s->kind == TK_TENSOR) && (o.kind == TK_SEQUENCE || o.kind == TK_OPTIONAL))
        s->kind = o.kind, changed = 1;
    int s_none = shp_no_elems(s);
    if (s->elems && !seq_same_list(s->n_elems, s->elems, o.n_elems, o.elems)) {
        s->elems = NULL;
        s->n_elems = -1;
        changed = 1;
    }
    if (shp_no_elems(&o)) return changed;
    if (s_none && o.rank >= 0) {
        s->rank = o.rank;
        memcpy(s->dims, o.dims, (size_t)o.rank * sizeof *o.dims);
        return 1;
    }
    if (s->rank < 0) return changed;
    if (o.rank != s->rank) {
        s->rank = -1;
        return 1;
    }
    for (int k = 0; k < s->rank; k++)
        if (!ir_dim_eq(s->dims[k], o.dims[k]) && (s->dims[k].val >= 0 || s->dims[k].sym)) {
            s->dims[k] = IR_DIM_UNKNOWN;
            changed = 1;
        }
    return changed;
}

static enum nnperf_status set_out_shp(struct op_ctx *c, int i, const struct shp *s)
{
    if (s->kind == TK_SEQUENCE && s->elems) return seq_set_list(c, i, s->dtype, s->elems, s->n_elems);
    enum nnperf_status st = op_set(c, i, s->dtype, s->rank, s->rank >= 0 ? s->dims : NULL);
    if (!st && (s->kind == TK_SEQUENCE || s->kind == TK_OPTIONAL)) op_set_kind(c, i, s->kind);
    return st;
}

/* Output i gets the type of v (keeping v's sequence/optional kind). */
static enum nnperf_status set_out_like(struct op_ctx *c, int i, const struct ir_value *v)
{
    struct shp s;
    shp_of(&s, v);
    return set_out_shp(c, i, &s);
}

/* Binds formal input v to the type s (with a sequence's elements). */
static enum nnperf_status bind_formal_shp(struct op_ctx *c, struct ir_value *v, const struct shp *s)
{
    enum nnperf_status st = bind_formal(c, v, s->kind, s->dtype, s->rank, s->dims);
    if (!st && s->kind == TK_SEQUENCE && s->elems && !ir_set_elems(c->ar, v, s->n_elems, s->elems))
        return op_nomem(c);
    return st;
}

/* ---- costs ---- */

struct gcost {
    uint64_t macs, extra; /* extra = FLOPs beyond 2 x MACs */
    int known;
};

/* Sum of the costs of g's nodes (each already counted by the driver, nested control flow included). */
static struct gcost graph_cost(const struct ir_graph *g)
{
    struct gcost s = {0, 0, 1};
    if (!g) {
        s.known = 0;
        return s;
    }
    for (int k = 0; k < g->n_nodes; k++) {
        const struct ir_cost *nc = &g->nodes[k]->cost;
        if (!nc->known) s.known = 0;
        uint64_t two = ck_sat_mul(2, nc->macs);
        s.macs = ck_sat_add(s.macs, nc->macs);
        s.extra = ck_sat_add(s.extra, nc->flops > two ? nc->flops - two : 0);
    }
    return s;
}

/* cost = body x times (times < 0: unknown, one iteration reported, flagged unknown). */
static void put_cost(struct ir_cost *cost, struct gcost s, int64_t times)
{
    if (times < 0) {
        s.known = 0;
        times = 1;
    }
    cost->macs = ck_sat_mul(s.macs, (uint64_t)times);
    cost->flops = ck_sat_mul(s.extra, (uint64_t)times);
    if (!s.known) cost->known = 0;
}

static struct ir_graph *graph_attr(struct op_ctx *c, const char *name)
{
    const struct ir_attr *a = op_attr_typed(c, name, AT_GRAPH);
    return a ? a->g : NULL;
}

/* repeat count for the body's nodes: this node's own repeat x times (1 when unknown) */
static int64_t body_repeat(struct op_ctx *c, int64_t times)
{
    int64_t r;
    if (times < 1) times = 1;
    if (!ck_mul_i64(c->n->repeat > 0 ? c->n->repeat : 1, times, &r)) r = INT64_MAX;
    return r;
}

/* ---- If ---- */

/* The condition's value: 1 true, 0 false, -1 unknown. */
static int bool_value(struct op_ctx *c, int i)
{
    const struct ir_ival *v;
    if (op_ivals(c, i, &v) == 1 && v[0].known) return v[0].v != 0;
    const double *f;
    if (op_fvals(c, i, &f) == 1) return f[0] != 0.0;
    return -1;
}

/* ONNX If-1..21: outputs come from the branch taken; when the condition is not known both branches are inferred
 * and merged (dims where they agree are kept, others become unknown). */
enum nnperf_status infer_if(struct op_ctx *c)
{
    struct ir_graph *tg = graph_attr(c, "then_branch"), *eg = graph_attr(c, "else_branch");
    if (!tg) return op_err(c, "then_branch", "is missing");
    if (!eg) return op_err(c, "else_branch", "is missing");
    if (tg->n_outputs != eg->n_outputs)
        return op_err(c, NULL, "branches have %d and %d outputs, expected the same number", tg->n_outputs,
                      eg->n_outputs);
    if (c->n->n_out > tg->n_outputs)
        return op_err(c, NULL, "has %d outputs, its branches give %d", c->n->n_out, tg->n_outputs);
    const struct ir_value *cv = op_in(c, 0);
    int64_t n;
    if (cv && cv->rank >= 0 && ir_numel(cv, &n) && n != 1)
        return op_err(c, NULL, "condition must have a single element, has %lld", (long long)n);
    int cond = bool_value(c, 0);
    enum nnperf_status st;
    if (cond != 0 && (st = op_infer_subgraph(c, tg, body_repeat(c, 1)))) return st;
    if (cond != 1 && (st = op_infer_subgraph(c, eg, body_repeat(c, 1)))) return st;
    for (int i = 0; i < c->n->n_out; i++) {
        const struct ir_value *tv = tg->outputs[i], *ev = eg->outputs[i];
        struct shp s;
        shp_of(&s, cond == 0 ? ev : tv);
        if (cond < 0) shp_merge(&s, ev);
        if ((st = set_out_shp(c, i, &s))) return st;
        /* values of the branch taken flow through (e.g. a shape computed in a branch) */
        const struct ir_value *src = cond == 0 ? ev : cond == 1 ? tv : NULL;
        if (src && src->iv)
            st = op_set_ivals(c, i, src->iv, src->nv);
        else if (src && src->fv)
            st = op_set_fvals(c, i, src->fv, src->nv);
        if (st) return st;
    }
    return NNPERF_OK;
}

/* If: the branch taken when the condition is known, else the larger of the two (by FLOPs). */
void count_if(struct op_ctx *c, struct ir_cost *cost)
{
    int cond = bool_value(c, 0);
    struct gcost t = graph_cost(graph_attr(c, "then_branch")), e = graph_cost(graph_attr(c, "else_branch"));
    struct gcost s;
    if (cond == 1)
        s = t;
    else if (cond == 0)
        s = e;
    else {
        uint64_t ft = ck_sat_add(ck_sat_mul(2, t.macs), t.extra),
                 fe = ck_sat_add(ck_sat_mul(2, e.macs), e.extra);
        s = ft >= fe ? t : e;
        s.known = t.known && e.known;
    }
    put_cost(cost, s, 1);
}

/* ---- Loop ---- */

/* ONNX Loop: the number of iterations, or -1 when it depends on data. M (input 0) bounds it; when the condition
 * input is given, the loop stops once the body's condition output is false (it runs M times only when both the
 * initial condition and the body's condition are known to be true); an empty condition input is ignored. */
static int64_t loop_trips(struct op_ctx *c, const struct ir_graph *g, int assume_body_true)
{
    int64_t m = -1;
    const struct ir_ival *iv;
    if (op_in(c, 0) && op_ivals(c, 0, &iv) == 1 && iv[0].known) m = iv[0].v < 0 ? 0 : iv[0].v;
    if (m == 0) return 0;
    if (!op_in(c, 1)) return m;
    int cond = bool_value(c, 1);
    if (cond == 0) return 0;
    if (cond < 0) return -1;
    const struct ir_value *co = g && g->n_outputs > 0 ? g->outputs[0] : NULL;
    int body = -1;
    if (co && co->iv && co->nv == 1 && co->iv[0].known) body = co->iv[0].v != 0;
    if (body == 0) return 1; /* runs once, then stops */
    return body == 1 || assume_body_true ? m : -1;
}

/* ONNX Loop: scan outputs stack the body's per-iteration values along a new first axis of trips elements. */
static enum nnperf_status set_scan_out(struct op_ctx *c, int i, const struct shp *s, int64_t trips)
{
    if (s->rank < 0 || s->rank >= NNPERF_MAX_RANK) return op_set(c, i, s->dtype, -1, NULL);
    struct ir_dim d[NNPERF_MAX_RANK];
    for (int j = 0; j < s->rank; j++) d[j + 1] = s->dims[j];
    if (trips >= 0) {
        d[0] = ir_dim_known(trips);
        return op_set(c, i, s->dtype, s->rank + 1, d);
    }
    d[0].val = -2;
    d[0].sym = NULL;
    return op_data_dependent(c, i, s->dtype, s->rank + 1, d, "trip_count");
}

/* Small loops with a known trip count (and no nested loops: If branches are fine) are unrolled: the body is
 * inferred once per iteration with the iteration
 * number's value and the previous iteration's loop-carried values (shapes and propagated values), which gives
 * exact shapes where a slice or a shape depends on the iteration (ONNX's own inference leaves those unknown).
 * Sets *done = 0 (and the caller falls back to the general rule) if the body's condition becomes unknown. */
#define LOOP_UNROLL_TRIPS 64
#define LOOP_UNROLL_NODES 4096 /* body nodes x trips */

/* Nodes of g and of its subgraphs; *loops is set when one of them repeats a subgraph (Loop, Scan, SequenceMap),
 * which unrolling would multiply. */
static int64_t graph_nodes(const struct ir_graph *g, int *loops)
{
    int64_t n = g->n_nodes;
    for (int k = 0; k < g->n_nodes; k++) {
        const struct ir_node *nd = g->nodes[k];
        if (nd->op == OPID_LOOP || nd->op == OPID_SCAN || nd->op == OPID_SEQUENCE_MAP) *loops = 1;
        for (int a = 0; a < nd->n_attr; a++) {
            const struct ir_attr *at = &nd->attrs[a];
            if (at->type == AT_GRAPH && at->g) n += graph_nodes(at->g, loops);
            if (at->type == AT_GRAPHS)
                for (int64_t j = 0; j < at->n; j++)
                    if (at->graphs[j]) n += graph_nodes(at->graphs[j], loops);
        }
    }
    return n;
}

/* 1 when the body g may be inferred once per iteration, times times. */
static int may_unroll(const struct ir_graph *g, int64_t times)
{
    int loops = 0;
    int64_t n = graph_nodes(g, &loops);
    return !loops && times >= 0 && times <= LOOP_UNROLL_TRIPS && times * n <= LOOP_UNROLL_NODES;
}

struct carried_val {
    struct shp s;
    const struct ir_ival *iv;
    const double *fv;
    int nv;
};

static void carried_of(struct carried_val *cv, const struct ir_value *v)
{
    shp_of(&cv->s, v);
    cv->iv = v ? v->iv : NULL;
    cv->fv = v ? v->fv : NULL;
    cv->nv = v ? v->nv : 0;
}

static enum nnperf_status bind_scalar(struct op_ctx *c, struct ir_value *f, int dtype, int64_t val)
{
    enum nnperf_status st = bind_formal(c, f, TK_TENSOR, dtype, 0, NULL);
    if (st) return st;
    struct ir_ival *tv = ar_calloc(c->ar, 1, sizeof *tv);
    if (!tv) return op_nomem(c);
    *tv = ir_ival_known(val);
    f->iv = tv;
    f->nv = 1;
    return NNPERF_OK;
}

static enum nnperf_status loop_unroll(struct op_ctx *c, struct ir_graph *g, int N, int K, int64_t trips,
                                      int *done)
{
    struct carried_val cur[64];
    struct shp scan[64];
    enum nnperf_status st;
    *done = 0;
    if (N > 64 || K > 64) return NNPERF_OK;
    for (int i = 0; i < N; i++) carried_of(&cur[i], op_in(c, 2 + i));
    int64_t k;
    for (k = 0; k < trips; k++) {
        if ((st = bind_scalar(c, g->inputs[0], DT_INT64, k)) ||
            (st = bind_scalar(c, g->inputs[1], DT_BOOL, 1)))
            return st;
        for (int i = 0; i < N; i++) {
            struct ir_value *f = g->inputs[2 + i];
            if ((st = bind_formal_shp(c, f, &cur[i].s))) return st;
            f->iv = (struct ir_ival *)cur[i].iv;
            f->fv = (double *)cur[i].fv;
            f->nv = cur[i].nv;
        }
        if ((st = op_infer_subgraph(c, g, body_repeat(c, trips)))) return st;
        for (int j = 0; j < K; j++) {
            if (k == 0)
                shp_of(&scan[j], g->outputs[1 + N + j]);
            else
                shp_merge(&scan[j], g->outputs[1 + N + j]);
        }
        for (int i = 0; i < N; i++) carried_of(&cur[i], g->outputs[1 + i]);
        if (op_in(c, 1)) {
            const struct ir_value *co = g->outputs[0];
            if (!co->iv || co->nv != 1 || !co->iv[0].known)
                return NNPERF_OK; /* may stop early: not unrolled */
            if (!co->iv[0].v) {
                k++;
                break;
            }
        }
    }
    for (int i = 0; i < N && i < c->n->n_out; i++) {
        if ((st = set_out_shp(c, i, &cur[i].s))) return st;
        if (cur[i].iv)
            st = op_set_ivals(c, i, cur[i].iv, cur[i].nv);
        else if (cur[i].fv)
            st = op_set_fvals(c, i, cur[i].fv, cur[i].nv);
        if (st) return st;
    }
    for (int j = 0; j < K && N + j < c->n->n_out; j++)
        if ((st = set_scan_out(c, N + j, &scan[j], k))) return st;
    *done = 1;
    return NNPERF_OK;
}

enum nnperf_status infer_loop(struct op_ctx *c)
{
    struct ir_graph *g = graph_attr(c, "body");
    if (!g) return op_err(c, "body", "is missing");
    int nin = c->n->n_in;
    if (nin < 2)
        return op_err(c, NULL, "has %d inputs, expected at least 2 (M and cond, possibly empty)", nin);
    int N = nin - 2;
    if (g->n_inputs != N + 2)
        return op_err(c, "body", "has %d inputs, expected %d (iteration number, condition, %d loop-carried)",
                      g->n_inputs, N + 2, N);
    int K = g->n_outputs - 1 - N;
    if (K < 0) return op_err(c, "body", "has %d outputs, expected at least %d", g->n_outputs, N + 1);
    if (c->n->n_out > N + K)
        return op_err(c, NULL, "has %d outputs, the body gives %d (%d loop-carried, %d scan)", c->n->n_out,
                      N + K, N, K);
    if (N > 64) return op_err(c, NULL, "has %d loop-carried values, more than 64", N);
    enum nnperf_status st;
    /* iteration_num: int64 scalar; cond: bool scalar, true in every iteration that runs */
    if ((st = bind_formal(c, g->inputs[0], TK_TENSOR, DT_INT64, 0, NULL))) return st;
    if ((st = bind_scalar(c, g->inputs[1], DT_BOOL, 1))) return st;
    /* loop-carried values start with the initial values' types; where the body changes a dim from one iteration
     * to the next, the dim becomes unknown and the body is inferred again (at most a few rounds) */
    struct shp carried[64];
    for (int i = 0; i < N; i++) {
        shp_of(&carried[i], op_in(c, 2 + i));
        if (!op_in(c, 2 + i)) return op_err(c, NULL, "loop-carried input %d is empty", i);
    }
    int64_t trips = loop_trips(c, NULL, 1);
    if (trips >= 1 && may_unroll(g, trips)) {
        int done;
        if ((st = loop_unroll(c, g, N, K, trips, &done))) return st;
        if (done) return NNPERF_OK;
        /* the iteration number is not one value */
        if ((st = bind_formal(c, g->inputs[0], TK_TENSOR, DT_INT64, 0, NULL))) return st;
    }
    for (int round = 0; round < 4; round++) {
        for (int i = 0; i < N; i++)
            if ((st = bind_formal_shp(c, g->inputs[2 + i], &carried[i]))) return st;
        trips = loop_trips(c, NULL, 1); /* provisional: the body's condition is not inferred yet */
        if ((st = op_infer_subgraph(c, g, body_repeat(c, trips)))) return st;
        int changed = 0;
        for (int i = 0; i < N; i++) changed |= shp_merge(&carried[i], g->outputs[1 + i]);
        if (!changed) break;
    }
    int64_t final_trips = loop_trips(c, g, 0);
    if (final_trips != trips)
        for (int k = 0; k < g->n_nodes; k++) g->nodes[k]->repeat = body_repeat(c, final_trips);
    trips = final_trips;
    for (int i = 0; i < N && i < c->n->n_out; i++) {
        const struct ir_value *init = op_in(c, 2 + i), *bo = g->outputs[1 + i];
        struct shp s;
        shp_of(&s, trips == 0 ? init : bo);
        if (trips < 0) shp_merge(&s, init);
        if ((st = set_out_shp(c, i, &s))) return st;
        if (trips == 0 && init->iv) st = op_set_ivals(c, i, init->iv, init->nv);
        if (st) return st;
    }
    for (int k = 0; k < K && N + k < c->n->n_out; k++) {
        struct shp s;
        shp_of(&s, g->outputs[1 + N + k]);
        if ((st = set_scan_out(c, N + k, &s, trips))) return st;
    }
    return NNPERF_OK;
}

void count_loop(struct op_ctx *c, struct ir_cost *cost)
{
    struct ir_graph *g = graph_attr(c, "body");
    put_cost(cost, graph_cost(g), loop_trips(c, g, 0));
}

/* ---- Scan ---- */

/* ONNX Scan-8: inputs (sequence_lens, N states, M scan inputs), all with a leading batch axis; scan inputs are
 * [batch, sequence, ...]. Scan-9..21: no sequence_lens and no batch axis; scan_input_axes / scan_output_axes
 * (default 0) say where the sequence axis is. The body sees one state and one slice of each scan input; its
 * outputs are N states and K per-iteration values stacked along the sequence axis. */
struct scan_info {
    int v8, first, N, M, K;
    struct ir_dim len, batch;
};

static enum nnperf_status scan_setup(struct op_ctx *c, struct ir_graph *g, struct scan_info *si)
{
    si->v8 = c->n->opset < 9;
    si->first = si->v8 ? 1 : 0;
    int64_t M = op_attr_int(c, "num_scan_inputs", -1);
    int nin = c->n->n_in - si->first;
    if (M < 1 || M > nin) return op_err(c, "num_scan_inputs", "is %lld, expected 1 to %d", (long long)M, nin);
    si->M = (int)M;
    si->N = nin - si->M;
    if (g->n_inputs != si->N + si->M)
        return op_err(c, "body", "has %d inputs, expected %d (%d states, %d scan inputs)", g->n_inputs,
                      si->N + si->M, si->N, si->M);
    si->K = g->n_outputs - si->N;
    if (si->K < 0) return op_err(c, "body", "has %d outputs, expected at least %d", g->n_outputs, si->N);
    if (c->n->n_out > si->N + si->K)
        return op_err(c, NULL, "has %d outputs, the body gives %d", c->n->n_out, si->N + si->K);
    si->len = IR_DIM_UNKNOWN;
    si->batch = IR_DIM_UNKNOWN;
    return NNPERF_OK;
}

/* Normalised axis i of the ints attribute name (default 0) for a rank. */
static enum nnperf_status scan_axis(struct op_ctx *c, const char *name, int i, int count, int rank, int *axis)
{
    const int64_t *v;
    int64_t n = op_attr_ints(c, name, &v);
    if (n && n != count) return op_err(c, name, "has %lld values, expected %d", (long long)n, count);
    int64_t a = n ? v[i] : 0;
    if (!ir_norm_axis(a, rank, axis))
        return op_err(c, name, "value %lld is out of range for rank %d", (long long)a, rank);
    return NNPERF_OK;
}

static int dim_known_or_sym(struct ir_dim d)
{
    return d.val >= 0 || d.sym;
}

/* Merges a sequence length or batch dim seen on an input; contradicting concrete values are an error. */
static enum nnperf_status scan_dim(struct op_ctx *c, struct ir_dim *have, struct ir_dim d, const char *what)
{
    if (!dim_known_or_sym(d)) return NNPERF_OK;
    if (!dim_known_or_sym(*have)) {
        *have = d;
        return NNPERF_OK;
    }
    if (have->val >= 0 && d.val >= 0 && have->val != d.val)
        return op_err(c, NULL, "scan inputs have different %s sizes (%lld and %lld)", what,
                      (long long)have->val, (long long)d.val);
    if (!ir_dim_eq(*have, d) && have->val < 0 && d.val >= 0) *have = d;
    return NNPERF_OK;
}

enum nnperf_status infer_scan(struct op_ctx *c)
{
    struct ir_graph *g = graph_attr(c, "body");
    if (!g) return op_err(c, "body", "is missing");
    struct scan_info si;
    enum nnperf_status st = scan_setup(c, g, &si);
    if (st) return st;
    if (si.N > 64) return op_err(c, NULL, "has %d states, more than 64", si.N);
    int skip = si.v8 ? 1 : 0; /* leading batch axis of Scan-8 */
    /* scan inputs: the body sees a slice without the sequence axis (and without the batch axis for Scan-8) */
    for (int j = 0; j < si.M; j++) {
        const struct ir_value *x = op_in(c, si.first + si.N + j);
        struct ir_value *f = g->inputs[si.N + j];
        if (!x) return op_err(c, NULL, "scan input %d is empty", j);
        if (x->rank < 0) {
            if ((st = bind_formal(c, f, TK_TENSOR, x->dtype, -1, NULL))) return st;
            continue;
        }
        int axis = 1;
        if (si.v8) {
            if (x->rank < 2)
                return op_err(c, NULL, "scan input %d has rank %d, expected at least 2", j, x->rank);
            if ((st = scan_dim(c, &si.batch, x->dims[0], "batch"))) return st;
        } else if ((st = scan_axis(c, "scan_input_axes", j, si.M, x->rank, &axis))) {
            return st;
        }
        if ((st = scan_dim(c, &si.len, x->dims[axis], "sequence"))) return st;
        struct ir_dim d[NNPERF_MAX_RANK];
        int r = 0;
        for (int k = skip; k < x->rank; k++)
            if (k != axis) d[r++] = x->dims[k];
        if ((st = bind_formal(c, f, TK_TENSOR, x->dtype, r, d))) return st;
    }
    struct shp states[64];
    for (int i = 0; i < si.N; i++) {
        const struct ir_value *x = op_in(c, si.first + i);
        if (!x) return op_err(c, NULL, "state input %d is empty", i);
        shp_of(&states[i], x);
        if (si.v8 && states[i].rank >= 0) {
            if (states[i].rank < 1) return op_err(c, NULL, "state input %d has no batch axis", i);
            if ((st = scan_dim(c, &si.batch, x->dims[0], "batch"))) return st;
            memmove(states[i].dims, states[i].dims + 1,
                    (size_t)(states[i].rank - 1) * sizeof *states[i].dims);
            states[i].rank--;
        }
    }
    int64_t times = -1;
    if (si.len.val >= 0 && (!si.v8 || si.batch.val >= 0) &&
        !ck_mul_i64(si.len.val, si.v8 ? si.batch.val : 1, &times))
        times = -1;
    for (int round = 0; round < 4; round++) {
        for (int i = 0; i < si.N; i++)
            if ((st = bind_formal_shp(c, g->inputs[i], &states[i]))) return st;
        if ((st = op_infer_subgraph(c, g, body_repeat(c, times)))) return st;
        int changed = 0;
        for (int i = 0; i < si.N; i++) changed |= shp_merge(&states[i], g->outputs[i]);
        if (!changed) break;
    }
    for (int i = 0; i < si.N && i < c->n->n_out; i++) {
        struct shp s = states[i];
        if (si.v8 && s.rank >= 0 && s.rank < NNPERF_MAX_RANK) {
            memmove(s.dims + 1, s.dims, (size_t)s.rank * sizeof *s.dims);
            s.dims[0] = si.batch;
            s.rank++;
        }
        if ((st = set_out_shp(c, i, &s))) return st;
    }
    for (int k = 0; k < si.K && si.N + k < c->n->n_out; k++) {
        const struct ir_value *bo = g->outputs[si.N + k];
        if (bo->rank < 0 || bo->rank + 1 + skip > NNPERF_MAX_RANK) {
            if ((st = op_set(c, si.N + k, bo->dtype, -1, NULL))) return st;
            continue;
        }
        int rank = bo->rank + 1 + skip, axis = 1;
        if (!si.v8 && (st = scan_axis(c, "scan_output_axes", k, si.K, bo->rank + 1, &axis))) return st;
        struct ir_dim d[NNPERF_MAX_RANK];
        for (int r = 0, j = 0; r < rank; r++) {
            if (si.v8 && r == 0)
                d[r] = si.batch;
            else if (r == axis)
                d[r] = si.len;
            else
                d[r] = bo->dims[j++];
        }
        if ((st = op_set(c, si.N + k, bo->dtype, rank, d))) return st;
    }
    return NNPERF_OK;
}

void count_scan(struct op_ctx *c, struct ir_cost *cost)
{
    struct ir_graph *g = graph_attr(c, "body");
    int v8 = c->n->opset < 9;
    int64_t times = -1;
    /* the sequence length (x batch for Scan-8) is read from the first scan input */
    const struct ir_value *x = op_in(c, c->n->n_in - (int)op_attr_int(c, "num_scan_inputs", 1));
    if (x && x->rank >= 2 - !v8) {
        const int64_t *v;
        int64_t a = v8 ? 1 : (op_attr_ints(c, "scan_input_axes", &v) > 0 ? v[0] : 0);
        int axis;
        if (ir_norm_axis(a, x->rank, &axis) && x->dims[axis].val >= 0) {
            times = x->dims[axis].val;
            if (v8 && !(x->dims[0].val >= 0 && ck_mul_i64(times, x->dims[0].val, &times))) times = -1;
        }
    }
    put_cost(cost, graph_cost(g), times);
}

/* ---- SequenceMap ---- */

/* SequenceMap: binds the body's inputs, element k of each sequence (k < 0: the merged element shape; a sequence
 * without elements known one by one also gives its merged shape), each tensor whole. */
static enum nnperf_status map_bind(struct op_ctx *c, struct ir_graph *g, int k)
{
    for (int i = 0; i < c->n->n_in; i++) {
        const struct ir_value *x = op_in(c, i);
        if (k >= 0 && seq_known(x)) x = ir_elems(x)[k];
        enum nnperf_status st = bind_formal(c, g->inputs[i], TK_TENSOR, x->dtype, x->rank, x->dims);
        if (st) return st;
    }
    return NNPERF_OK;
}

/* ONNX SequenceMap-17: the body runs once per element of input 0; each further input is a sequence (the body
 * sees its element) or a tensor (seen whole); each body output is collected into an output sequence. When every
 * input sequence's elements are known (the same number), small bodies are inferred once per element and the
 * outputs list their elements; otherwise the body sees the merged element shapes. */
enum nnperf_status infer_sequence_map(struct op_ctx *c)
{
    struct ir_graph *g = graph_attr(c, "body");
    if (!g) return op_err(c, "body", "is missing");
    if (g->n_inputs != c->n->n_in)
        return op_err(c, "body", "has %d inputs, expected %d", g->n_inputs, c->n->n_in);
    if (c->n->n_out > g->n_outputs)
        return op_err(c, NULL, "has %d outputs, the body gives %d", c->n->n_out, g->n_outputs);
    enum nnperf_status st;
    int n = -1, per_elem = 1;
    for (int i = 0; i < c->n->n_in; i++) {
        const struct ir_value *x = op_in(c, i);
        if (!x) return op_err(c, NULL, "input %d is empty", i);
        if (i == 0 && x->type_kind != TK_SEQUENCE && x->type_kind != TK_UNKNOWN)
            return op_err(c, NULL, "input 'input_sequence' is not a sequence");
        if (x->type_kind != TK_SEQUENCE && i > 0) continue;
        if (!seq_known(x))
            per_elem = 0;
        else if (n < 0)
            n = ir_n_elems(x);
        else if (ir_n_elems(x) != n)
            return op_err(c, NULL, "input sequences have %d and %d elements, expected the same number", n,
                          ir_n_elems(x));
    }
    if (per_elem && n >= 0 && may_unroll(g, n) && c->n->n_out <= 64) {
        struct ir_value **el[64];
        for (int i = 0; i < c->n->n_out; i++)
            if (!(el[i] = ar_calloc(c->ar, (size_t)(n ? n : 1), sizeof *el[i]))) return op_nomem(c);
        for (int k = 0; k < n; k++) {
            if ((st = map_bind(c, g, k)) || (st = op_infer_subgraph(c, g, body_repeat(c, 1)))) return st;
            for (int i = 0; i < c->n->n_out; i++) {
                const struct ir_value *bo = g->outputs[i];
                if (!(el[i][k] = seq_elem(c, bo->dtype, bo->rank, bo->dims))) return op_nomem(c);
            }
        }
        /* the body is left inferred with the merged element shapes (for the per-node report) */
        if ((st = map_bind(c, g, -1)) || (st = op_infer_subgraph(c, g, body_repeat(c, 1)))) return st;
        for (int i = 0; i < c->n->n_out; i++) {
            int dt = g->outputs[i]->dtype;
            for (int k = 0; k < n && !dt; k++) dt = el[i][k]->dtype;
            if ((st = seq_set_list(c, i, dt, el[i], n))) return st;
        }
        return NNPERF_OK;
    }
    if ((st = map_bind(c, g, -1)) || (st = op_infer_subgraph(c, g, body_repeat(c, 1)))) return st;
    for (int i = 0; i < c->n->n_out; i++) {
        if ((st = set_out_like(c, i, g->outputs[i]))) return st;
        op_set_kind(c, i, TK_SEQUENCE);
    }
    return NNPERF_OK;
}

/* SequenceMap: the body (inferred with the merged element shapes) x the number of elements; when that number is
 * not known, one iteration is reported and flagged unknown. */
void count_sequence_map(struct op_ctx *c, struct ir_cost *cost)
{
    const struct ir_value *s = op_in(c, 0);
    put_cost(cost, graph_cost(graph_attr(c, "body")), seq_known(s) ? ir_n_elems(s) : -1);
}
