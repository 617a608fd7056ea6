/* matmul.c - matrix products of ai.onnx: MatMul (numpy matmul: 1-D operands, batch broadcasting), MatMulInteger,
 * QLinearMatMul, Gemm (transA/transB, C unidirectionally broadcast to M x N), Einsum (equation parsing with
 * ellipsis and implicit output) and Det; their shape inference and multiply-accumulate counts.
 *
 * Costs (docs/conventions.md): MatMul = prod(output batch dims) x M x N x K MACs (MatMulInteger and QLinearMatMul
 * alike); Gemm = M x N x K MACs plus M x N FLOPs for the bias add when C is given (alpha/beta scaling ignored);
 * Einsum = product of the sizes of all distinct labels (and broadcast ellipsis dims) x (inputs - 1) MACs, i.e. one
 * multiply per input beyond the first at each point of the iteration space; a single-input Einsum has no MACs and
 * costs one addition per point when it sums a label away (trace, reduction), nothing when it only permutes or
 * takes a diagonal; Det = n^3 / 3 MACs per matrix (LU factorisation). */
#include <string.h>

#include "../ops.h"

static struct ir_value tmp_value(int rank, struct ir_dim *dims)
{
    struct ir_value v;
    memset(&v, 0, sizeof v);
    v.type_kind = TK_TENSOR;
    v.rank = rank;
    v.dims = dims;
    return v;
}

/* Two dims that must be equal: a known mismatch is 0; otherwise *r is the better-known one. */
static int dim_unify(struct ir_dim a, struct ir_dim b, struct ir_dim *r)
{
    if (a.val >= 0 && b.val >= 0) {
        *r = a;
        return a.val == b.val;
    }
    *r = a.val >= 0 ? a : b.val >= 0 ? b : a.sym ? a : b;
    return 1;
}

/* ---------------------------------------------------------------- MatMul */

/* numpy matmul of a and b into output 0 (ONNX MatMul-1/9/13 "behaves like numpy.matmul") */
static enum nnperf_status matmul_shape(struct op_ctx *c, const struct ir_value *a, const struct ir_value *b,
                                       int dtype)
{
    if (!a || !b) return op_err(c, NULL, "needs two matrix inputs");
    if (a->rank < 0 || b->rank < 0) return op_set(c, 0, dtype, -1, NULL);
    if (a->rank == 0 || b->rank == 0) return op_err(c, NULL, "inputs must have rank >= 1, not a scalar");
    struct ir_dim ad[NNPERF_MAX_RANK + 1], bd[NNPERF_MAX_RANK + 1];
    int ar = a->rank, br = b->rank;
    if (ar > NNPERF_MAX_RANK || br > NNPERF_MAX_RANK) return op_set(c, 0, dtype, -1, NULL);
    /* a 1-D A is promoted to 1 x K, a 1-D B to K x 1; the added dims are removed from the result */
    if (ar == 1) {
        ad[0] = ir_dim_known(1);
        ad[1] = a->dims[0];
        ar = 2;
    } else
        memcpy(ad, a->dims, (size_t)ar * sizeof *ad);
    if (br == 1) {
        bd[0] = b->dims[0];
        bd[1] = ir_dim_known(1);
        br = 2;
    } else
        memcpy(bd, b->dims, (size_t)br * sizeof *bd);
    struct ir_dim k;
    if (!dim_unify(ad[ar - 1], bd[br - 2], &k))
        return op_err(c, NULL, "inner dimensions differ: A has K=%lld, B has K=%lld",
                      (long long)ad[ar - 1].val, (long long)bd[br - 2].val);
    struct ir_value ab = tmp_value(ar - 2, ad), bb = tmp_value(br - 2, bd);
    const struct ir_value *vals[2] = {&ab, &bb};
    int rank = -1, bad = -1;
    struct ir_dim *bdims = NULL;
    if (!ir_broadcast(c->ar, vals, 2, &rank, &bdims, &bad))
        return op_err(c, NULL, "batch dimensions cannot be broadcast (axis %d)", bad);
    if (!bdims) return op_nomem(c);
    struct ir_dim out[NNPERF_MAX_RANK + 2];
    int r = 0;
    for (int i = 0; i < rank; i++) out[r++] = bdims[i];
    if (a->rank != 1) out[r++] = ad[ar - 2];
    if (b->rank != 1) out[r++] = bd[br - 1];
    return op_set(c, 0, dtype, r, out);
}

enum nnperf_status infer_mat_mul(struct op_ctx *c)
{
    struct ir_value *a = op_in(c, 0);
    return matmul_shape(c, a, op_in(c, 1), a ? a->dtype : DT_UNDEFINED);
}

/* MatMulInteger-10: (A, B, a_zero_point, b_zero_point) -> int32 */
enum nnperf_status infer_matmul_integer(struct op_ctx *c)
{
    return matmul_shape(c, op_in(c, 0), op_in(c, 1), DT_INT32);
}

/* QLinearMatMul-10/21: (a, a_scale, a_zero_point, b, b_scale, b_zero_point, y_scale, y_zero_point); the output
 * has y_zero_point's type */
enum nnperf_status infer_q_linear_mat_mul(struct op_ctx *c)
{
    struct ir_value *a = op_in(c, 0), *yz = op_in(c, 7);
    int dt = yz && yz->dtype ? yz->dtype : a ? a->dtype : DT_UNDEFINED;
    return matmul_shape(c, a, op_in(c, 3), dt);
}

/* output numel x K */
static void matmul_cost(struct op_ctx *c, const struct ir_value *a, const struct ir_value *b,
                        struct ir_cost *cost)
{
    int64_t n;
    if (!a || !b || a->rank < 1 || b->rank < 1 || !ir_numel(op_out(c, 0), &n)) {
        cost->known = 0;
        return;
    }
    struct ir_dim ka = a->dims[a->rank - 1], kb = b->dims[b->rank == 1 ? 0 : b->rank - 2];
    int64_t k = ka.val >= 0 ? ka.val : kb.val;
    if (k < 0) {
        cost->known = 0;
        return;
    }
    cost->macs = ck_sat_mul((uint64_t)n, (uint64_t)k);
    cost->flops = 0;
}

void count_matmul(struct op_ctx *c, struct ir_cost *cost)
{
    matmul_cost(c, op_in(c, 0), op_in(c, 1), cost);
}

void count_qlinear_matmul(struct op_ctx *c, struct ir_cost *cost)
{
    matmul_cost(c, op_in(c, 0), op_in(c, 3), cost);
}

/* ---------------------------------------------------------------- Gemm */

/* Gemm: Y = alpha * A' * B' + beta * C with A' = transA ? A^T : A (M x K), B' = transB ? B^T : B (K x N); C is
 * unidirectionally broadcastable to M x N (Gemm-7+; Gemm-1/6 had a 'broadcast' attribute; optional from 11). */
/* A and B are inputs ia and ib (Gemm: 0 and 1; com.microsoft QGemm: 0 and 3) */
static int gemm_mnk(struct op_ctx *c, int ia, int ib, struct ir_dim *m, struct ir_dim *n, struct ir_dim *k,
                    struct ir_dim *k2)
{
    struct ir_value *a = op_in(c, ia), *b = op_in(c, ib);
    if (!a || !b || a->rank != 2 || b->rank != 2) return 0;
    int ta = op_attr_int(c, "transA", 0) != 0, tb = op_attr_int(c, "transB", 0) != 0;
    *m = a->dims[ta ? 1 : 0];
    *k = a->dims[ta ? 0 : 1];
    *k2 = b->dims[tb ? 1 : 0];
    *n = b->dims[tb ? 0 : 1];
    return 1;
}

enum nnperf_status infer_gemm(struct op_ctx *c)
{
    struct ir_value *a = op_in(c, 0), *b = op_in(c, 1), *cc = op_in(c, 2);
    if (!a || !b) return op_err(c, NULL, "needs inputs A and B");
    if (a->rank >= 0 && a->rank != 2) return op_err(c, NULL, "input A has rank %d, expected 2", a->rank);
    if (b->rank >= 0 && b->rank != 2) return op_err(c, NULL, "input B has rank %d, expected 2", b->rank);
    struct ir_dim d[2] = {IR_DIM_UNKNOWN, IR_DIM_UNKNOWN}, k, k2;
    if (a->rank == 2 && b->rank != 2) d[0] = a->dims[op_attr_int(c, "transA", 0) ? 1 : 0];
    if (b->rank == 2 && a->rank != 2) d[1] = b->dims[op_attr_int(c, "transB", 0) ? 0 : 1];
    if (gemm_mnk(c, 0, 1, &d[0], &d[1], &k, &k2) && !dim_unify(k, k2, &k))
        return op_err(c, NULL, "inner dimensions differ: A gives K=%lld, B gives K=%lld", (long long)k.val,
                      (long long)k2.val);
    if (cc && cc->rank >= 0) {
        if (cc->rank > 2) return op_err(c, NULL, "input C has rank %d, expected at most 2", cc->rank);
        for (int i = 0; i < cc->rank; i++) {
            struct ir_dim x = cc->dims[i], y = d[2 - cc->rank + i];
            if (x.val >= 0 && x.val != 1 && y.val >= 0 && x.val != y.val)
                return op_err(c, NULL, "input C dim %d is %lld, cannot broadcast to %lld", i,
                              (long long)x.val, (long long)y.val);
        }
    }
    return op_set(c, 0, a->dtype, 2, d);
}

/* M x N x K MACs of A (input ia) and B (input ib); M x N FLOPs for a bias at input ic */
static void gemm_cost(struct op_ctx *c, int ia, int ib, int ic, struct ir_cost *cost)
{
    struct ir_dim m, n, k, k2;
    if (!gemm_mnk(c, ia, ib, &m, &n, &k, &k2)) {
        cost->known = 0;
        return;
    }
    if (k.val < 0) k = k2;
    if (m.val < 0 || n.val < 0 || k.val < 0) {
        cost->known = 0;
        return;
    }
    uint64_t mn = ck_sat_mul((uint64_t)m.val, (uint64_t)n.val);
    cost->macs = ck_sat_mul(mn, (uint64_t)k.val);
    cost->flops = op_in(c, ic) ? mn : 0; /* the bias add */
}

void count_gemm(struct op_ctx *c, struct ir_cost *cost)
{
    gemm_cost(c, 0, 1, 2, cost);
}

/* com.microsoft QGemm (a, a_scale, a_zero_point, b, b_scale, b_zero_point, C, y_scale, y_zero_point), ONNX Runtime's
 * QOperator Gemm (onnxruntime docs/ContribOperators.md): Y = alpha A'B' + C as Gemm (transA, transB) of 8-bit A and
 * B with an int32 bias C; Y is y_zero_point's type (uint8 without one) when y_scale is given, else float. Costs are
 * Gemm's; requantization is not counted (as QLinearConv). */
enum nnperf_status infer_ms_q_gemm(struct op_ctx *c)
{
    struct ir_value *a = op_in(c, 0), *b = op_in(c, 3), *ys = op_in(c, 7), *yz = op_in(c, 8);
    if (!a || !op_in(c, 1) || !b || !op_in(c, 4))
        return op_err(c, NULL, "needs inputs A, a_scale, B and b_scale");
    if (a->rank >= 0 && a->rank != 2) return op_err(c, NULL, "input A has rank %d, expected 2", a->rank);
    if (b->rank >= 0 && b->rank != 2) return op_err(c, NULL, "input B has rank %d, expected 2", b->rank);
    struct ir_dim d[2] = {IR_DIM_UNKNOWN, IR_DIM_UNKNOWN}, k, k2;
    if (gemm_mnk(c, 0, 3, &d[0], &d[1], &k, &k2) && !dim_unify(k, k2, &k))
        return op_err(c, NULL, "inner dimensions differ: A gives K=%lld, B gives K=%lld", (long long)k.val,
                      (long long)k2.val);
    int dt = ys ? (yz && yz->dtype ? yz->dtype : DT_UINT8) : DT_FLOAT;
    return op_set(c, 0, dt, 2, d);
}

void count_ms_q_gemm(struct op_ctx *c, struct ir_cost *cost)
{
    gemm_cost(c, 0, 3, 6, cost);
}

/* ---------------------------------------------------------------- Einsum */

#define ES_MAX_IN  32
#define ES_MAX_LAB 52

struct es_term {
    char lab[ES_MAX_LAB * 2]; /* labels in order, without the ellipsis */
    int n;                    /* number of labels */
    int ell;                  /* position of the ellipsis among the labels, -1 if none */
};

struct einsum {
    int n_in;
    struct es_term in[ES_MAX_IN], out;
    int explicit_out;
    struct ir_dim dim[128]; /* per label (ASCII) */
    int seen[128];          /* occurrences across the inputs */
    int ell_rank;           /* rank of the broadcast ellipsis dims; -1 unknown */
    struct ir_dim *ell_dims;
    int any_ell;
};

static int is_label(char ch)
{
    return (ch >= 'a' && ch <= 'z') || (ch >= 'A' && ch <= 'Z');
}

/* parses one term of length len; 0 on a syntax error */
static int es_parse_term(const char *s, size_t len, struct es_term *t)
{
    t->n = 0;
    t->ell = -1;
    for (size_t i = 0; i < len;) {
        if (s[i] == '.') {
            if (i + 3 > len || s[i + 1] != '.' || s[i + 2] != '.' || t->ell >= 0) return 0;
            t->ell = t->n;
            i += 3;
        } else if (is_label(s[i])) {
            if (t->n >= (int)sizeof t->lab) return 0;
            t->lab[t->n++] = s[i++];
        } else
            return 0;
    }
    return 1;
}

/* Parses the equation and sizes every label; op_err on a contradiction. Returns NNPERF_OK with e filled. */
static enum nnperf_status es_setup(struct op_ctx *c, struct einsum *e)
{
    const char *eq = op_attr_str(c, "equation", NULL);
    if (!eq) return op_err(c, "equation", "is missing");
    char buf[512];
    size_t L = 0;
    for (const char *p = eq; *p; p++) {
        if (*p == ' ' || *p == '\t') continue;
        if (L + 1 >= sizeof buf) return op_err(c, "equation", "is too long");
        buf[L++] = *p;
    }
    buf[L] = 0;
    memset(e, 0, sizeof *e);
    e->n_in = op_n_in(c);
    if (e->n_in < 1 || e->n_in > ES_MAX_IN) return op_err(c, NULL, "has %d inputs", e->n_in);
    const char *arrow = strstr(buf, "->");
    size_t lhs_len = arrow ? (size_t)(arrow - buf) : L;
    int t = 0;
    size_t start = 0;
    for (size_t i = 0; i <= lhs_len; i++) {
        if (i == lhs_len || buf[i] == ',') {
            if (t >= e->n_in)
                return op_err(c, "equation", "'%s' has more terms than the %d inputs", eq, e->n_in);
            if (!es_parse_term(buf + start, i - start, &e->in[t]))
                return op_err(c, "equation", "'%s' has a malformed term", eq);
            t++;
            start = i + 1;
        }
    }
    if (t != e->n_in) return op_err(c, "equation", "'%s' has %d terms for %d inputs", eq, t, e->n_in);
    e->explicit_out = arrow != NULL;
    if (arrow) {
        if (!es_parse_term(arrow + 2, strlen(arrow + 2), &e->out))
            return op_err(c, "equation", "'%s' has a malformed output term", eq);
    }
    for (int i = 0; i < 128; i++) e->dim[i] = IR_DIM_UNKNOWN;
    int ell_known = 1;
    struct ir_value ev[ES_MAX_IN];
    const struct ir_value *evp[ES_MAX_IN];
    int n_ev = 0;
    for (int i = 0; i < e->n_in; i++) {
        struct es_term *tm = &e->in[i];
        struct ir_value *x = op_in(c, i);
        int has_ell = tm->ell >= 0;
        e->any_ell |= has_ell;
        for (int j = 0; j < tm->n; j++) e->seen[(unsigned char)tm->lab[j]]++;
        if (!x || x->rank < 0) {
            if (has_ell) ell_known = 0;
            continue;
        }
        int er = x->rank - tm->n;
        if (has_ell ? er < 0 : er != 0)
            return op_err(c, "equation", "term %d has %d labels for an input of rank %d", i, tm->n, x->rank);
        for (int j = 0; j < tm->n; j++) {
            int pos = (has_ell && j >= tm->ell) ? j + er : j;
            unsigned char ch = (unsigned char)tm->lab[j];
            struct ir_dim cur = e->dim[ch], d = x->dims[pos], r;
            if (cur.val == 1 && d.val >= 0)
                r = d; /* numpy broadcasts size-1 labels */
            else if (d.val == 1 && cur.val >= 0)
                r = cur;
            else if (!dim_unify(cur, d, &r))
                return op_err(c, "equation", "label '%c' has sizes %lld and %lld", ch, (long long)cur.val,
                              (long long)d.val);
            e->dim[ch] = r;
        }
        if (has_ell) {
            ev[n_ev] = tmp_value(er, x->dims + tm->ell);
            evp[n_ev] = &ev[n_ev];
            n_ev++;
        }
    }
    e->ell_rank = 0;
    if (!ell_known)
        e->ell_rank = -1;
    else if (n_ev) {
        int bad = -1;
        if (!ir_broadcast(c->ar, evp, n_ev, &e->ell_rank, &e->ell_dims, &bad))
            return op_err(c, "equation", "ellipsis dims cannot be broadcast (axis %d)", bad);
        if (!e->ell_dims) return op_nomem(c);
    }
    if (e->explicit_out) {
        for (int j = 0; j < e->out.n; j++) {
            unsigned char ch = (unsigned char)e->out.lab[j];
            if (!e->seen[ch]) return op_err(c, "equation", "output label '%c' is not in any input", ch);
            for (int k = 0; k < j; k++)
                if (e->out.lab[k] == e->out.lab[j])
                    return op_err(c, "equation", "output label '%c' repeats", ch);
        }
    } else {
        /* implicit output (numpy): the ellipsis dims, then the labels seen exactly once, in alphabetical order */
        e->out.n = 0;
        e->out.ell = e->any_ell ? 0 : -1;
        for (int ch = 0; ch < 128; ch++)
            if (e->seen[ch] == 1) e->out.lab[e->out.n++] = (char)ch;
    }
    return NNPERF_OK;
}

enum nnperf_status infer_einsum(struct op_ctx *c)
{
    struct einsum *e = ar_calloc(c->ar, 1, sizeof *e);
    if (!e) return op_nomem(c);
    enum nnperf_status st = es_setup(c, e);
    if (st) return st;
    struct ir_value *x = op_in(c, 0);
    int dtype = x ? x->dtype : DT_UNDEFINED;
    int with_ell = e->out.ell >= 0 && e->any_ell;
    if (with_ell && e->ell_rank < 0) return op_set(c, 0, dtype, -1, NULL);
    int er = with_ell ? e->ell_rank : 0;
    int rank = e->out.n + er;
    if (rank > NNPERF_MAX_RANK) return op_set(c, 0, dtype, rank, NULL);
    struct ir_dim out[NNPERF_MAX_RANK];
    int r = 0;
    for (int j = 0; j <= e->out.n; j++) {
        if (with_ell && j == e->out.ell)
            for (int k = 0; k < er; k++) out[r++] = e->ell_dims[k];
        if (j < e->out.n) out[r++] = e->dim[(unsigned char)e->out.lab[j]];
    }
    return op_set(c, 0, dtype, r, out);
}

void count_einsum(struct op_ctx *c, struct ir_cost *cost)
{
    struct einsum *e = ar_calloc(c->ar, 1, sizeof *e);
    if (!e || es_setup(c, e) != NNPERF_OK || e->ell_rank < 0) {
        cost->known = 0;
        return;
    }
    uint64_t total = 1;
    int reduces = 0;
    for (int ch = 0; ch < 128; ch++) {
        if (!e->seen[ch]) continue;
        if (e->dim[ch].val < 0) {
            cost->known = 0;
            return;
        }
        total = ck_sat_mul(total, (uint64_t)e->dim[ch].val);
        if (!memchr(e->out.lab, ch, (size_t)e->out.n)) reduces = 1;
    }
    for (int k = 0; k < e->ell_rank; k++) {
        if (e->ell_dims[k].val < 0) {
            cost->known = 0;
            return;
        }
        total = ck_sat_mul(total, (uint64_t)e->ell_dims[k].val);
    }
    if (e->any_ell && e->out.ell < 0 && e->ell_rank > 0) reduces = 1; /* explicit output without '...' */
    if (e->n_in >= 2) {
        cost->macs = ck_sat_mul(total, (uint64_t)(e->n_in - 1));
        cost->flops = 0;
    } else {
        cost->macs = 0;
        cost->flops = reduces ? total : 0;
    }
}

/* ---------------------------------------------------------------- Det */

/* Det-11/22: input [*, M, M] -> output [*] */
enum nnperf_status infer_det(struct op_ctx *c)
{
    struct ir_value *x = op_in(c, 0);
    if (!x) return op_err(c, NULL, "needs an input");
    if (x->rank < 0) return op_set(c, 0, x->dtype, -1, NULL);
    if (x->rank < 2) return op_err(c, NULL, "input has rank %d, expected at least 2", x->rank);
    struct ir_dim m = x->dims[x->rank - 2], n = x->dims[x->rank - 1];
    if (m.val >= 0 && n.val >= 0 && m.val != n.val)
        return op_err(c, NULL, "input matrices are %lldx%lld, not square", (long long)m.val,
                      (long long)n.val);
    return op_set(c, 0, x->dtype, x->rank - 2, x->dims);
}

void count_det(struct op_ctx *c, struct ir_cost *cost)
{
    struct ir_value *x = op_in(c, 0);
    int64_t batch;
    if (!x || x->rank < 2 || !ir_dims_numel(x->dims, x->rank - 2, &batch)) {
        cost->known = 0;
        return;
    }
    int64_t n = x->dims[x->rank - 1].val >= 0 ? x->dims[x->rank - 1].val : x->dims[x->rank - 2].val;
    if (n < 0) {
        cost->known = 0;
        return;
    }
    /* LU factorisation: about n^3/3 multiply-adds per matrix (Golub & Van Loan, Matrix Computations, 3.2) */
    uint64_t n3 = ck_sat_mul(ck_sat_mul((uint64_t)n, (uint64_t)n), (uint64_t)n);
    cost->macs = ck_sat_mul((uint64_t)batch, n3 / 3);
    cost->flops = 0;
}
