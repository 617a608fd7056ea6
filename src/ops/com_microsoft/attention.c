/* attention.c - the fused attention operators of ONNX Runtime's com.microsoft domain that its transformer
 * optimizer and LLM exporters emit: Attention (input projection + attention), MultiHeadAttention (already projected
 * Q/K/V, with packed and cross-attention layouts) and GroupQueryAttention (fewer K/V heads than Q heads, KV cache).
 *
 * Source of the semantics: onnxruntime docs/ContribOperators.md and the schemas' shape inference
 * (onnxruntime/core/graph/contrib_ops/bert_defs.cc, shape_inference_functions.cc).
 *
 * Notation (used in every comment below): B batch, S query sequence length, L key/value sequence length of this
 * call, P past sequence length (KV cache), T = P + L total (attended) sequence length, N query heads, Nkv key/value
 * heads (GroupQueryAttention), H head size of Q and K, Hv head size of V.
 *
 * Costs (docs/conventions.md): MACs are the matrix products; FLOPs beyond 2 x MACs are the per-score work:
 * 1 (scale) + the Softmax fpe of op_list.def per score, + 1 per score when a mask or an attention bias is added,
 * + the projection bias additions. Causal masking is not subtracted: the dense kernels compute every S x T score. */
#include <string.h>

#include "../ops.h"

/* dim k of v, or unknown when v is absent or has no such axis */
static struct ir_dim dim_at(const struct ir_value *v, int k)
{
    if (!v || v->rank <= k || k < 0 || !v->dims) return IR_DIM_UNKNOWN;
    return v->dims[k];
}

static int known(struct ir_dim d)
{
    return d.val >= 0;
}

/* two dims that are both concrete and different */
static int clash(struct ir_dim a, struct ir_dim b)
{
    return a.val >= 0 && b.val >= 0 && a.val != b.val;
}

/* a concrete dim divided by a positive constant; an error when not divisible */
static enum nnperf_status div_heads(struct op_ctx *c, struct ir_dim hidden, int64_t heads, const char *what,
                                    const char *attr, struct ir_dim *out)
{
    *out = IR_DIM_UNKNOWN;
    if (!known(hidden) || heads <= 0) return NNPERF_OK;
    if (hidden.val % heads)
        return op_err(c, attr, "is %lld, which does not divide the %s hidden size %lld", (long long)heads,
                      what, (long long)hidden.val);
    *out = ir_dim_known(hidden.val / heads);
    return NNPERF_OK;
}

static int dtype_of(const struct ir_value *v)
{
    return v ? v->dtype : DT_UNDEFINED;
}

static enum nnperf_status want_rank(struct op_ctx *c, const struct ir_value *v, const char *name, int r1,
                                    int r2)
{
    if (!v || v->rank < 0 || v->rank == r1 || v->rank == r2) return NNPERF_OK;
    if (r1 == r2) return op_err(c, NULL, "input '%s' has rank %d, expected %d", name, v->rank, r1);
    return op_err(c, NULL, "input '%s' has rank %d, expected %d or %d", name, v->rank, r1, r2);
}

static int64_t required_heads(struct op_ctx *c, const char *name, enum nnperf_status *st)
{
    const struct ir_attr *a = op_attr_typed(c, name, AT_INT);
    *st = NNPERF_OK;
    if (!a) {
        *st = op_err(c, name, "is missing");
        return 0;
    }
    if (a->type != AT_INT || a->i <= 0) {
        *st =
            op_err(c, name, "is %lld, expected a positive number", (long long)(a->type == AT_INT ? a->i : 0));
        return 0;
    }
    return a->i;
}

/* FLOPs per score beyond the two products: scale (1) + softmax (its op_list.def fpe). */
static double score_fpe(void)
{
    int sm = op_find("", "Softmax");
    return 1.0 + (sm >= 0 ? op_table[sm].fpe : 5.0);
}

/* Product of n non-negative values, saturating; 0 when any is unknown (the caller checks known first). */
static uint64_t prod(const int64_t *v, int n)
{
    uint64_t r = 1;
    for (int i = 0; i < n; i++) r = ck_sat_mul(r, (uint64_t)(v[i] < 0 ? 0 : v[i]));
    return r;
}

static uint64_t dmul(uint64_t a, double f)
{
    double x = (double)a * f + 0.5;
    return x >= 1.8e19 ? UINT64_MAX : (uint64_t)x;
}

/* A value's propagated scalar as a dim (concrete or symbolic), or unknown. */
static struct ir_dim scalar_dim(struct op_ctx *c, int i)
{
    const struct ir_ival *v;
    int64_t n = op_ivals(c, i, &v);
    if (n != 1) return IR_DIM_UNKNOWN;
    return ir_dim_from_ival(v[0]);
}

/* ======================================================================================================
 * Attention (com.microsoft, since 1)
 *   input (B, S, Din), weights (Din, Dq + Dk + Dv), bias (Dq + Dk + Dv), mask_index, past (2, B, N, P, H),
 *   attention_bias (B|1, N|1, S, T), past_sequence_length (scalar, with past_present_share_buffer)
 *   -> output (B, S, Dv), present (2, B, N, P + S, H) or past's shape when past_present_share_buffer is set.
 *   qkv_hidden_sizes = (Dq, Dk, Dv) when given, else Dq = Dk = Dv = columns of weights / 3. H = Dq/N, Hv = Dv/N.
 * ====================================================================================================== */

struct attn_dims {
    struct ir_dim b, s, din, dq, dk, dv, h, hv;
};

static enum nnperf_status attention_dims(struct op_ctx *c, int64_t heads, struct attn_dims *a)
{
    struct ir_value *x = op_in(c, 0), *w = op_in(c, 1), *bias = op_in(c, 2);
    enum nnperf_status st;
    if ((st = want_rank(c, x, "input", 3, 3)) || (st = want_rank(c, w, "weights", 2, 2)) ||
        (st = want_rank(c, bias, "bias", 1, 1)))
        return st;
    a->b = dim_at(x, 0);
    a->s = dim_at(x, 1);
    a->din = dim_at(x, 2);
    if (clash(a->din, dim_at(w, 0)))
        return op_err(c, NULL, "input hidden size %lld does not match the %lld rows of 'weights'",
                      (long long)a->din.val, (long long)dim_at(w, 0).val);
    if (!known(a->din)) a->din = dim_at(w, 0);
    struct ir_dim total = dim_at(w, 1);
    if (clash(total, dim_at(bias, 0)))
        return op_err(c, NULL, "'bias' has %lld elements, 'weights' has %lld columns",
                      (long long)dim_at(bias, 0).val, (long long)total.val);
    if (!known(total)) total = dim_at(bias, 0);
    const int64_t *qkv;
    int64_t nq = op_attr_ints(c, "qkv_hidden_sizes", &qkv);
    if (nq) {
        if (nq != 3) return op_err(c, "qkv_hidden_sizes", "has %lld values, expected 3", (long long)nq);
        int64_t sum = 0;
        for (int i = 0; i < 3; i++) {
            if (qkv[i] <= 0)
                return op_err(c, "qkv_hidden_sizes", "has a non-positive value %lld", (long long)qkv[i]);
            if (!ck_add_i64(sum, qkv[i], &sum)) return op_err(c, "qkv_hidden_sizes", "overflows");
        }
        if (qkv[0] != qkv[1])
            return op_err(c, "qkv_hidden_sizes",
                          "gives Q hidden size %lld and K hidden size %lld, expected equal",
                          (long long)qkv[0], (long long)qkv[1]);
        if (known(total) && total.val != sum)
            return op_err(c, "qkv_hidden_sizes", "sums to %lld, but the projection has %lld columns",
                          (long long)sum, (long long)total.val);
        a->dq = ir_dim_known(qkv[0]);
        a->dk = ir_dim_known(qkv[1]);
        a->dv = ir_dim_known(qkv[2]);
    } else if (known(total)) {
        if (total.val % 3)
            return op_err(
                c, NULL,
                "the projection has %lld columns, not divisible into Q, K and V (give qkv_hidden_sizes)",
                (long long)total.val);
        a->dq = a->dk = a->dv = ir_dim_known(total.val / 3);
    } else {
        a->dq = a->dk = a->dv = IR_DIM_UNKNOWN;
    }
    if ((st = div_heads(c, a->dq, heads, "Q", "num_heads", &a->h))) return st;
    if ((st = div_heads(c, a->dv, heads, "V", "num_heads", &a->hv))) return st;
    return NNPERF_OK;
}

enum nnperf_status infer_ms_attention(struct op_ctx *c)
{
    enum nnperf_status st;
    int64_t heads = required_heads(c, "num_heads", &st);
    if (st) return st;
    struct attn_dims a;
    if ((st = attention_dims(c, heads, &a))) return st;
    struct ir_value *x = op_in(c, 0), *past = op_in(c, 4);
    int dt = dtype_of(x) ? dtype_of(x) : dtype_of(op_in(c, 1));
    struct ir_dim out[5] = {a.b, a.s, a.dv};
    if ((st = op_set(c, 0, dt, 3, out))) return st;
    if (!op_out(c, 1)) return NNPERF_OK;
    /* present: (2, B, N, P + S, H) */
    struct ir_dim p = ir_dim_known(0);
    if (past) {
        if ((st = want_rank(c, past, "past", 5, 5))) return st;
        struct ir_dim two = dim_at(past, 0);
        if (known(two) && two.val != 2)
            return op_err(c, NULL, "input 'past' has %lld as its first dim, expected 2 (key and value)",
                          (long long)two.val);
        if (clash(dim_at(past, 1), a.b))
            return op_err(c, NULL, "input 'past' has batch %lld, the input has %lld",
                          (long long)dim_at(past, 1).val, (long long)a.b.val);
        if (clash(dim_at(past, 2), ir_dim_known(heads)))
            return op_err(c, "num_heads", "is %lld, but 'past' has %lld heads", (long long)heads,
                          (long long)dim_at(past, 2).val);
        if (clash(dim_at(past, 4), a.h))
            return op_err(c, NULL, "input 'past' has head size %lld, expected %lld",
                          (long long)dim_at(past, 4).val, (long long)a.h.val);
        if (op_attr_int(c, "past_present_share_buffer", 0)) return op_set_like(c, 1, past, dt);
        p = dim_at(past, 3);
        if (!known(a.b)) a.b = dim_at(past, 1);
        if (!known(a.h)) a.h = dim_at(past, 4);
    }
    struct ir_dim pr[5] = {ir_dim_known(2), a.b, ir_dim_known(heads), ir_dim_add(c->ar, p, a.s), a.h};
    return op_set(c, 1, dt, 5, pr);
}

/* MACs = B·S·Din·(Dq + Dk + Dv)   (QKV projection)
 *      + B·N·S·T·H  = B·S·T·Dk    (Q·Kᵀ)
 *      + B·N·S·T·Hv = B·S·T·Dv    (softmax·V),  T = P + S
 * FLOPs beyond 2·MACs = B·S·(Dq + Dk + Dv) if bias (bias add) + B·N·S·T·(1 + softmax fpe)
 *                      + B·N·S·T if a mask_index or attention_bias is added.
 * With past_present_share_buffer the past length is the value of input past_sequence_length (unknown: no cost). */
void count_ms_attention(struct op_ctx *c, struct ir_cost *cost)
{
    enum nnperf_status st;
    int64_t heads = op_attr_int(c, "num_heads", 0);
    struct attn_dims a;
    if (heads <= 0 || (st = attention_dims(c, heads, &a)) != NNPERF_OK) {
        cost->known = 0;
        return;
    }
    struct ir_value *past = op_in(c, 4);
    struct ir_dim p = ir_dim_known(0);
    if (past) p = op_attr_int(c, "past_present_share_buffer", 0) ? scalar_dim(c, 6) : dim_at(past, 3);
    struct ir_dim t = ir_dim_add(NULL, p, a.s);
    if (!known(a.b) || !known(a.s) || !known(a.din) || !known(a.dq) || !known(a.dk) || !known(a.dv) ||
        !known(t)) {
        cost->known = 0;
        return;
    }
    int64_t sum = a.dq.val + a.dk.val + a.dv.val;
    int64_t proj[4] = {a.b.val, a.s.val, a.din.val, sum};
    int64_t qk[4] = {a.b.val, a.s.val, t.val, a.dk.val};
    int64_t av[4] = {a.b.val, a.s.val, t.val, a.dv.val};
    int64_t sc[4] = {a.b.val, heads, a.s.val, t.val};
    uint64_t scores = prod(sc, 4);
    cost->macs = ck_sat_add(ck_sat_add(prod(proj, 4), prod(qk, 4)), prod(av, 4));
    uint64_t fl = dmul(scores, score_fpe());
    if (op_in(c, 2)) {
        int64_t bb[3] = {a.b.val, a.s.val, sum};
        fl = ck_sat_add(fl, prod(bb, 3));
    }
    if (op_in(c, 3) || op_in(c, 5)) fl = ck_sat_add(fl, scores);
    cost->flops = fl;
}

/* ======================================================================================================
 * MultiHeadAttention (com.microsoft, since 1): Q, K, V already projected. Layouts of (query, key, value):
 *   (B, S, D),            (B, L, D),           (B, L, Dv)            separate Q, K, V
 *   (B, S, D),            (B, N, L, H),        (B, N, L, Hv)         cross attention with K/V in BNSH (no past)
 *   (B, S, D),            (B, L, N, 2, H),     absent                packed KV
 *   (B, S, N, 3, H),      absent,              absent                packed QKV (L = S)
 *   bias (D + D + Dv), key_padding_mask, attention_bias, past_key (B, N, P, H), past_value (B, N, P, Hv),
 *   past_sequence_length (buffer sharing: present has past's shape), cache_indirection
 *   -> output (B, S, N·Hv), present_key (B, N, P + L, H), present_value (B, N, P + L, Hv), qk (B, N, S, P + L).
 * ====================================================================================================== */

struct mha_dims {
    struct ir_dim b, s, l, h, hv, p, t;
    int bnsh_kv; /* K/V given as (B, N, L, H): no concatenation with a past */
    int shared;  /* past/present share one buffer (past_sequence_length given) */
};

static enum nnperf_status mha_dims(struct op_ctx *c, int64_t heads, struct mha_dims *m)
{
    struct ir_value *q = op_in(c, 0), *k = op_in(c, 1), *v = op_in(c, 2), *pk = op_in(c, 6),
                    *pv = op_in(c, 7);
    enum nnperf_status st;
    struct ir_dim n = ir_dim_known(heads);
    memset(m, 0, sizeof *m);
    m->h = m->hv = m->l = m->p = m->t = IR_DIM_UNKNOWN;
    if ((st = want_rank(c, q, "query", 3, 5))) return st;
    if (k && k->rank >= 0 && k->rank != 3 && k->rank != 4 && k->rank != 5)
        return op_err(c, NULL, "input 'key' has rank %d, expected 3, 4 or 5", k->rank);
    if ((st = want_rank(c, v, "value", 3, 4))) return st;
    m->b = dim_at(q, 0);
    m->s = dim_at(q, 1);
    if (q && q->rank == 5) {
        /* packed QKV (B, S, N, 3, H) */
        if (k || v)
            return op_err(c, NULL, "query is packed QKV (rank 5), so 'key' and 'value' must be omitted");
        if (clash(dim_at(q, 2), n))
            return op_err(c, "num_heads", "is %lld, but packed QKV has %lld heads", (long long)heads,
                          (long long)dim_at(q, 2).val);
        if (known(dim_at(q, 3)) && dim_at(q, 3).val != 3)
            return op_err(c, NULL, "packed QKV has %lld at axis 3, expected 3", (long long)dim_at(q, 3).val);
        m->h = m->hv = dim_at(q, 4);
        m->l = m->s;
    } else {
        struct ir_dim d = dim_at(q, 2), hq;
        if ((st = div_heads(c, d, heads, "query", "num_heads", &hq))) return st;
        if (k && k->rank == 5) {
            /* packed KV (B, L, N, 2, H) */
            if (v) return op_err(c, NULL, "key is packed KV (rank 5), so 'value' must be omitted");
            if (clash(dim_at(k, 2), n))
                return op_err(c, "num_heads", "is %lld, but packed KV has %lld heads", (long long)heads,
                              (long long)dim_at(k, 2).val);
            if (known(dim_at(k, 3)) && dim_at(k, 3).val != 2)
                return op_err(c, NULL, "packed KV has %lld at axis 3, expected 2",
                              (long long)dim_at(k, 3).val);
            m->h = m->hv = known(dim_at(k, 4)) ? dim_at(k, 4) : hq;
            if (clash(m->h, hq))
                return op_err(c, NULL, "packed KV has head size %lld, query has %lld", (long long)m->h.val,
                              (long long)hq.val);
            m->l = dim_at(k, 1);
        } else if (k && k->rank == 4) {
            /* cross attention: K and V in BNSH */
            if (v && v->rank == 3) return op_err(c, NULL, "'key' has rank 4 (BNSH), so 'value' must too");
            if (clash(dim_at(k, 1), n) || clash(dim_at(v, 1), n))
                return op_err(c, "num_heads", "is %lld, but 'key'/'value' have another head count",
                              (long long)heads);
            m->h = known(dim_at(k, 3)) ? dim_at(k, 3) : hq;
            if (clash(m->h, hq))
                return op_err(c, NULL, "'key' has head size %lld, query has %lld", (long long)m->h.val,
                              (long long)hq.val);
            m->hv = dim_at(v, 3);
            m->l = dim_at(k, 2);
            if (clash(m->l, dim_at(v, 2)))
                return op_err(c, NULL, "'key' and 'value' have sequence lengths %lld and %lld",
                              (long long)m->l.val, (long long)dim_at(v, 2).val);
            m->bnsh_kv = 1;
        } else {
            /* separate K (B, L, D) and V (B, L, Dv) */
            if (k && v && v->rank == 4)
                return op_err(c, NULL, "'value' has rank 4 (BNSH), so 'key' must too");
            if (clash(dim_at(k, 2), d))
                return op_err(c, NULL, "'key' hidden size %lld differs from the query's %lld",
                              (long long)dim_at(k, 2).val, (long long)d.val);
            m->h = hq;
            if ((st = div_heads(c, dim_at(v, 2), heads, "value", "num_heads", &m->hv))) return st;
            m->l = known(dim_at(k, 1)) ? dim_at(k, 1) : dim_at(v, 1);
            if (clash(dim_at(k, 1), dim_at(v, 1)))
                return op_err(c, NULL, "'key' and 'value' have sequence lengths %lld and %lld",
                              (long long)dim_at(k, 1).val, (long long)dim_at(v, 1).val);
            if (!k && !v) m->l = IR_DIM_UNKNOWN;
        }
    }
    /* past */
    if ((st = want_rank(c, pk, "past_key", 4, 4)) || (st = want_rank(c, pv, "past_value", 4, 4))) return st;
    if (pk) {
        if (m->bnsh_kv && !op_in(c, 8))
            return op_err(c, NULL, "'past_key' cannot be combined with a BNSH 'key' (cross attention)");
        if (clash(dim_at(pk, 1), n))
            return op_err(c, "num_heads", "is %lld, but 'past_key' has %lld heads", (long long)heads,
                          (long long)dim_at(pk, 1).val);
        if (clash(dim_at(pk, 3), m->h))
            return op_err(c, NULL, "'past_key' has head size %lld, expected %lld",
                          (long long)dim_at(pk, 3).val, (long long)m->h.val);
        if (clash(dim_at(pk, 2), dim_at(pv, 2)))
            return op_err(c, NULL, "'past_key' and 'past_value' have lengths %lld and %lld",
                          (long long)dim_at(pk, 2).val, (long long)dim_at(pv, 2).val);
        if (!known(m->h)) m->h = dim_at(pk, 3);
        if (!known(m->hv)) m->hv = dim_at(pv, 3);
        if (!known(m->b)) m->b = dim_at(pk, 0);
        m->shared = op_in(c, 8) != NULL;
        m->p = m->shared ? scalar_dim(c, 8) : dim_at(pk, 2);
    } else {
        m->p = ir_dim_known(0);
    }
    m->t = ir_dim_add(c->ar, m->p, m->l);
    return NNPERF_OK;
}

enum nnperf_status infer_ms_multi_head_attention(struct op_ctx *c)
{
    enum nnperf_status st;
    int64_t heads = required_heads(c, "num_heads", &st);
    if (st) return st;
    struct mha_dims m;
    if ((st = mha_dims(c, heads, &m))) return st;
    struct ir_value *q = op_in(c, 0), *v = op_in(c, 2), *pk = op_in(c, 6), *pv = op_in(c, 7);
    int dt = dtype_of(q);
    struct ir_dim n = ir_dim_known(heads);
    struct ir_dim out[3] = {m.b, m.s, ir_dim_mul(c->ar, n, m.hv)};
    if (q && q->rank == 3 && v && v->rank == 3) out[2] = dim_at(v, 2);
    if ((st = op_set(c, 0, dt, 3, out))) return st;
    if (m.shared) {
        if ((st = op_set_like(c, 1, pk, dt)) || (st = op_set_like(c, 2, pv, dt))) return st;
    } else {
        struct ir_dim pkd[4] = {m.b, n, m.t, m.h}, pvd[4] = {m.b, n, m.t, m.hv};
        if ((st = op_set(c, 1, dt, 4, pkd)) || (st = op_set(c, 2, dt, 4, pvd))) return st;
    }
    struct ir_dim qk[4] = {m.b, n, m.s, m.t};
    return op_set(c, 3, dt, 4, qk);
}

/* MACs = B·N·S·T·H (Q·Kᵀ) + B·N·S·T·Hv (softmax·V), T = P + L (no projection: inputs are already projected).
 * FLOPs beyond 2·MACs = B·N·S·T·(1 + softmax fpe) + B·N·S·T if key_padding_mask or attention_bias
 *                      + bias add B·(S·N·H + L·N·H + L·N·Hv) when 'bias' is given. */
void count_ms_multi_head_attention(struct op_ctx *c, struct ir_cost *cost)
{
    int64_t heads = op_attr_int(c, "num_heads", 0);
    struct mha_dims m;
    if (heads <= 0 || mha_dims(c, heads, &m) != NNPERF_OK) {
        cost->known = 0;
        return;
    }
    struct ir_dim t = ir_dim_add(NULL, m.p, m.l);
    if (!known(m.b) || !known(m.s) || !known(m.l) || !known(t) || !known(m.h) || !known(m.hv)) {
        cost->known = 0;
        return;
    }
    int64_t sc[4] = {m.b.val, heads, m.s.val, t.val};
    uint64_t scores = prod(sc, 4);
    cost->macs = ck_sat_add(ck_sat_mul(scores, (uint64_t)m.h.val), ck_sat_mul(scores, (uint64_t)m.hv.val));
    uint64_t fl = dmul(scores, score_fpe());
    if (op_in(c, 4) || op_in(c, 5)) fl = ck_sat_add(fl, scores);
    if (op_in(c, 3)) {
        int64_t bq[4] = {m.b.val, m.s.val, heads, m.h.val}, bk[4] = {m.b.val, m.l.val, heads, m.h.val},
                bv[4] = {m.b.val, m.l.val, heads, m.hv.val};
        fl = ck_sat_add(fl, ck_sat_add(prod(bq, 4), ck_sat_add(prod(bk, 4), prod(bv, 4))));
    }
    cost->flops = fl;
}

/* ======================================================================================================
 * GroupQueryAttention (com.microsoft, since 1)
 *   query (B, S, N·H) or packed QKV (B, S, (N + 2·Nkv)·H); key, value (B, L, Nkv·H) (absent when packed, L = S);
 *   past_key, past_value (B, Nkv, P, H) (P = the cache buffer length); seqlens_k (B); total_sequence_length
 *   (scalar: P + L in the usual, non-shared case; the maximum over the batch); cos_cache, sin_cache, position_ids,
 *   attention_bias, head_sink, k_scale, v_scale, ...
 *   -> output (B, S, N·H), present_key/present_value (B, Nkv, Tp, H), output_qk (B, N, S, T).
 * ONNX Runtime's shape rule for the present length (bert_defs.cc): Tp = max(P, total_sequence_length) when both
 * are known (this covers a shared past/present buffer, P = max length); P with sliding_window_cache = 1. When
 * total_sequence_length is not known we use T = P + L (the cache grows by this call's tokens), and T = L without
 * a past; a symbolic total_sequence_length (from Shape) is used as it is.
 * ====================================================================================================== */

struct gqa_dims {
    struct ir_dim b, s, l, h, t, tp;
    int64_t n, nkv;
};

static enum nnperf_status gqa_dims(struct op_ctx *c, struct gqa_dims *g)
{
    enum nnperf_status st;
    memset(g, 0, sizeof *g);
    g->n = required_heads(c, "num_heads", &st);
    if (st) return st;
    g->nkv = required_heads(c, "kv_num_heads", &st);
    if (st) return st;
    if (g->n % g->nkv)
        return op_err(c, "num_heads", "is %lld, not a multiple of kv_num_heads %lld", (long long)g->n,
                      (long long)g->nkv);
    struct ir_value *q = op_in(c, 0), *k = op_in(c, 1), *v = op_in(c, 2), *pk = op_in(c, 3),
                    *pv = op_in(c, 4);
    if ((st = want_rank(c, q, "query", 3, 3)) || (st = want_rank(c, k, "key", 3, 3)) ||
        (st = want_rank(c, v, "value", 3, 3)) || (st = want_rank(c, pk, "past_key", 4, 4)) ||
        (st = want_rank(c, pv, "past_value", 4, 4)))
        return st;
    if (!k != !v)
        return op_err(c, NULL, "'key' and 'value' must both be given or both be omitted (packed QKV)");
    g->b = dim_at(q, 0);
    g->s = dim_at(q, 1);
    struct ir_dim d = dim_at(q, 2);
    if (!k) {
        int64_t parts = g->n + 2 * g->nkv;
        if (known(d) && d.val % parts)
            return op_err(c, NULL,
                          "packed QKV size %lld is not divisible by num_heads + 2 x kv_num_heads = %lld",
                          (long long)d.val, (long long)parts);
        g->h = known(d) ? ir_dim_known(d.val / parts) : IR_DIM_UNKNOWN;
        g->l = g->s;
    } else {
        if ((st = div_heads(c, d, g->n, "query", "num_heads", &g->h))) return st;
        struct ir_dim dk = dim_at(k, 2), hk;
        if (clash(dk, dim_at(v, 2)))
            return op_err(c, NULL, "'key' hidden size %lld differs from the value's %lld", (long long)dk.val,
                          (long long)dim_at(v, 2).val);
        if ((st = div_heads(c, dk, g->nkv, "key", "kv_num_heads", &hk))) return st;
        if (clash(hk, g->h))
            return op_err(c, "kv_num_heads", "gives key head size %lld, the query's is %lld",
                          (long long)hk.val, (long long)g->h.val);
        if (!known(g->h)) g->h = hk;
        g->l = dim_at(k, 1);
        if (clash(g->l, dim_at(v, 1)))
            return op_err(c, NULL, "'key' and 'value' have sequence lengths %lld and %lld",
                          (long long)g->l.val, (long long)dim_at(v, 1).val);
    }
    struct ir_dim p = ir_dim_known(0);
    if (pk) {
        if (clash(dim_at(pk, 1), ir_dim_known(g->nkv)))
            return op_err(c, "kv_num_heads", "is %lld, but 'past_key' has %lld heads", (long long)g->nkv,
                          (long long)dim_at(pk, 1).val);
        if (clash(dim_at(pk, 2), dim_at(pv, 2)))
            return op_err(c, NULL, "'past_key' and 'past_value' have lengths %lld and %lld",
                          (long long)dim_at(pk, 2).val, (long long)dim_at(pv, 2).val);
        /* a quantized cache (int8/uint8, 4 bits packed two per byte) has another last dim: checked for floats only */
        if (ir_dtype_is_float(pk->dtype) && clash(dim_at(pk, 3), g->h))
            return op_err(c, NULL, "'past_key' has head size %lld, expected %lld",
                          (long long)dim_at(pk, 3).val, (long long)g->h.val);
        if (!known(g->b)) g->b = dim_at(pk, 0);
        p = dim_at(pk, 2);
    }
    struct ir_dim total = scalar_dim(c, 6);
    g->t = (known(total) || total.sym) ? total : ir_dim_add(c->ar, p, g->l);
    g->tp = g->t;
    if (pk && op_attr_int(c, "sliding_window_cache", 0) == 1)
        g->tp = p;
    else if (pk && known(total) && known(p) && p.val > total.val)
        g->tp = p;
    return NNPERF_OK;
}

enum nnperf_status infer_ms_group_query_attention(struct op_ctx *c)
{
    enum nnperf_status st;
    struct gqa_dims g;
    if ((st = gqa_dims(c, &g))) return st;
    struct ir_value *q = op_in(c, 0), *pk = op_in(c, 3), *pv = op_in(c, 4);
    int dt = dtype_of(q);
    struct ir_dim out[3] = {g.b, g.s, ir_dim_mul(c->ar, ir_dim_known(g.n), g.h)};
    if (op_in(c, 1)) out[2] = dim_at(q, 2);
    if ((st = op_set(c, 0, dt, 3, out))) return st;
    /* the cache keeps the past's dtype and last dim (a quantized cache packs 4-bit values two per byte) */
    struct ir_dim pkd[4] = {g.b, ir_dim_known(g.nkv), g.tp, pk && known(dim_at(pk, 3)) ? dim_at(pk, 3) : g.h};
    struct ir_dim pvd[4] = {g.b, ir_dim_known(g.nkv), g.tp, pv && known(dim_at(pv, 3)) ? dim_at(pv, 3) : g.h};
    if ((st = op_set(c, 1, pk && pk->dtype ? pk->dtype : dt, 4, pkd))) return st;
    if ((st = op_set(c, 2, pv && pv->dtype ? pv->dtype : dt, 4, pvd))) return st;
    struct ir_dim qk[4] = {g.b, ir_dim_known(g.n), g.s, g.t};
    return op_set(c, 3, dt, 4, qk);
}

/* MACs = B·N·S·T'·H (Q·Kᵀ) + B·N·S·T'·H (softmax·V), T' = min(T, local_window_size + 1) when a window is set.
 * FLOPs beyond 2·MACs = B·N·S·T'·(1 + softmax fpe) + B·N·S·T' if attention_bias
 *                      + rotary (do_rotary = 1): RotaryEmbedding fpe × (B·S·N·H + B·L·Nkv·H) rotated Q and K values. */
void count_ms_group_query_attention(struct op_ctx *c, struct ir_cost *cost)
{
    struct gqa_dims g;
    if (gqa_dims(c, &g) != NNPERF_OK || !known(g.b) || !known(g.s) || !known(g.t) || !known(g.h) ||
        !known(g.l)) {
        cost->known = 0;
        return;
    }
    int64_t t = g.t.val, w = op_attr_int(c, "local_window_size", -1);
    if (w >= 0 && w + 1 < t) t = w + 1;
    int64_t sc[4] = {g.b.val, g.n, g.s.val, t};
    uint64_t scores = prod(sc, 4);
    cost->macs = ck_sat_mul(ck_sat_mul(scores, (uint64_t)g.h.val), 2);
    uint64_t fl = dmul(scores, score_fpe());
    if (op_in(c, 10)) fl = ck_sat_add(fl, scores);
    if (op_attr_int(c, "do_rotary", 0)) {
        int rot = op_find("com.microsoft", "RotaryEmbedding");
        int64_t rq[4] = {g.b.val, g.s.val, g.n, g.h.val}, rk[4] = {g.b.val, g.l.val, g.nkv, g.h.val};
        fl = ck_sat_add(fl, dmul(ck_sat_add(prod(rq, 4), prod(rk, 4)), rot >= 0 ? op_table[rot].fpe : 3.0));
        /* the cos/sin caches [max positions, rotary dim / 2]: only the rows of this call's positions are read
         * (params_read: the constant inputs' elements less the rows not read) */
        uint64_t all = 0, skip = 0;
        for (int i = 0; i < op_n_in(c); i++) {
            const struct ir_value *cs = op_in(c, i);
            int64_t n;
            if (!cs || !((cs->flags & IR_V_INIT) || cs->is_const == 1) || !ir_numel(cs, &n)) continue;
            all = ck_sat_add(all, (uint64_t)n);
            if ((i == 7 || i == 8) && cs->rank == 2 && cs->dims[0].val > 0) {
                int64_t rows = g.b.val * g.s.val < cs->dims[0].val ? g.b.val * g.s.val : cs->dims[0].val;
                skip += (uint64_t)(n - rows * (n / cs->dims[0].val));
            }
        }
        if (skip && skip < all) cost->params_read = all - skip;
    }
    cost->flops = fl;
}
