/* elementwise.c - element-wise operators of ai.onnx: unary math, binary arithmetic with numpy broadcasting (and
 * the legacy opset<7 'broadcast'/'axis' form), bitwise ops, comparisons and logic, variadic Sum/Mean/Max/Min,
 * Where, Clip, PRelu and parameterised activations, Softmax/LogSoftmax/Hardmax, IsNaN/IsInf.
 *
 * Value propagation: exported models compute shapes with these operators (Shape -> Gather -> Mul -> Concat ->
 * Reshape, Where(Equal(shape, -1), ...), Div(Cast(size), Cast(size)) for Resize scales), so when the inputs'
 * values are known and the output is small, the output's values are computed: integers as ir_ival (symbolic dims
 * such as "batch" flow through ir_dim_* arithmetic where the values are non-negative, else become unknown) and
 * floating tensors as doubles (rounded to float32 for 32-bit and narrower float outputs). A symbolic value stands
 * for a dimension, so it is taken as >= 0 (|d| = d, max(d, 0) = d, d == -1 is false). */
#include <math.h>
#include <string.h>

#include "../ops.h"

/* ---------------------------------------------------------------- integer values, concrete or symbolic */

static struct ir_ival iv_unknown(void)
{
    struct ir_ival x = {0, NULL, 0};
    return x;
}

/* a dim (concrete or symbolic) as a value; an unknown dim gives an unknown value */
static struct ir_ival iv_of_dim(struct ir_dim d)
{
    if (d.val >= 0) return ir_ival_known(d.val);
    struct ir_ival x = {0, d.sym, 0};
    return x;
}

/* the value can stand for a dimension: concrete and >= 0, or symbolic (symbols are dims, hence >= 0) */
static int iv_dimlike(struct ir_ival x)
{
    return x.known ? x.v >= 0 : x.sym != NULL;
}

static struct ir_dim iv_as_dim(struct ir_ival x)
{
    if (x.known) return ir_dim_known(x.v);
    struct ir_dim d = {-1, x.sym};
    return d;
}

static int iv_same_sym(struct ir_ival a, struct ir_ival b)
{
    return !a.known && !b.known && a.sym && b.sym && !strcmp(a.sym, b.sym);
}

/* integer power with overflow check; 0 when not representable */
static int ipow(int64_t a, int64_t e, int64_t *r)
{
    if (e < 0) {
        if (a == 1 || a == -1) {
            *r = (e % 2 && a == -1) ? -1 : 1;
            return 1;
        }
        return 0;
    }
    int64_t p = 1;
    for (int64_t k = 0; k < e; k++) {
        if (!ck_mul_i64(p, a, &p)) return 0;
        if (p == 0 || p == 1) break;
    }
    *r = p;
    return 1;
}

/* a OP b on concrete integers; 0 when undefined (division by zero) or on overflow */
static int ibin_known(struct op_ctx *c, int op, int64_t a, int64_t b, int64_t *r)
{
    switch (op) {
    case OPID_ADD:
    case OPID_SUM: return ck_add_i64(a, b, r);
    case OPID_SUB:
        if (b == INT64_MIN) return 0;
        return ck_add_i64(a, -b, r);
    case OPID_MUL: return ck_mul_i64(a, b, r);
    case OPID_DIV:
        /* ONNX Div on integers truncates toward zero (as C; onnxruntime and the reference agree) */
        if (b == 0 || (a == INT64_MIN && b == -1)) return 0;
        *r = a / b;
        return 1;
    case OPID_MOD: {
        if (b == 0 || (a == INT64_MIN && b == -1)) return 0;
        int64_t m = a % b;
        /* ONNX Mod-10: fmod=0 takes the sign of the divisor (Python %), fmod=1 that of the dividend (C fmod) */
        if (!op_attr_int(c, "fmod", 0) && m != 0 && ((m < 0) != (b < 0))) m += b;
        *r = m;
        return 1;
    }
    case OPID_POW: return ipow(a, b, r);
    case OPID_MAX: *r = a > b ? a : b; return 1;
    case OPID_MIN: *r = a < b ? a : b; return 1;
    case OPID_BIT_SHIFT: {
        if (b < 0 || b >= 64) return 0;
        const char *dir = op_attr_str(c, "direction", "");
        if (!strcmp(dir, "LEFT"))
            *r = (int64_t)((uint64_t)a << b);
        else if (!strcmp(dir, "RIGHT"))
            *r = (int64_t)((uint64_t)a >> b);
        else
            return 0;
        return 1;
    }
    case OPID_BITWISE_AND: *r = a & b; return 1;
    case OPID_BITWISE_OR: *r = a | b; return 1;
    case OPID_BITWISE_XOR: *r = a ^ b; return 1;
    case OPID_AND: *r = (a != 0) && (b != 0); return 1;
    case OPID_OR: *r = (a != 0) || (b != 0); return 1;
    case OPID_XOR: *r = (a != 0) != (b != 0); return 1;
    case OPID_EQUAL: *r = a == b; return 1;
    case OPID_GREATER: *r = a > b; return 1;
    case OPID_GREATER_OR_EQUAL: *r = a >= b; return 1;
    case OPID_LESS: *r = a < b; return 1;
    case OPID_LESS_OR_EQUAL: *r = a <= b; return 1;
    default: return 0;
    }
}

/* a OP b where either may be symbolic */
static struct ir_ival ibin(struct op_ctx *c, int op, struct ir_ival a, struct ir_ival b)
{
    if (a.known && b.known) {
        int64_t r;
        return ibin_known(c, op, a.v, b.v, &r) ? ir_ival_known(r) : iv_unknown();
    }
    int da = iv_dimlike(a), db = iv_dimlike(b);
    switch (op) {
    case OPID_ADD:
    case OPID_SUM:
        if (da && db) return iv_of_dim(ir_dim_add(c->ar, iv_as_dim(a), iv_as_dim(b)));
        /* batch + (-1) = batch-1 */
        if (da && b.known && b.v < 0 && b.v != INT64_MIN)
            return iv_of_dim(ir_dim_sub(c->ar, iv_as_dim(a), ir_dim_known(-b.v)));
        if (db && a.known && a.v < 0 && a.v != INT64_MIN)
            return iv_of_dim(ir_dim_sub(c->ar, iv_as_dim(b), ir_dim_known(-a.v)));
        break;
    case OPID_SUB:
        if (iv_same_sym(a, b)) return ir_ival_known(0);
        if (da && b.known && b.v < 0 && b.v != INT64_MIN)
            return iv_of_dim(ir_dim_add(c->ar, iv_as_dim(a), ir_dim_known(-b.v)));
        /* a symbol minus a non-negative amount; a constant minus a symbol may be negative: unknown */
        if (!a.known && da && db) return iv_of_dim(ir_dim_sub(c->ar, iv_as_dim(a), iv_as_dim(b)));
        break;
    case OPID_MUL:
        if ((a.known && a.v == 0) || (b.known && b.v == 0)) return ir_ival_known(0);
        if (da && db) return iv_of_dim(ir_dim_mul(c->ar, iv_as_dim(a), iv_as_dim(b)));
        break;
    case OPID_DIV:
        if (iv_same_sym(a, b)) return ir_ival_known(1);
        /* non-negative operands: truncation equals the floor division of ir_dim_div */
        if (da && b.known && b.v > 0) return iv_of_dim(ir_dim_div(c->ar, iv_as_dim(a), iv_as_dim(b)));
        break;
    case OPID_MOD:
        if (b.known && (b.v == 1 || b.v == -1)) return ir_ival_known(0);
        if (iv_same_sym(a, b)) return ir_ival_known(0);
        break;
    case OPID_MAX:
        if (iv_same_sym(a, b)) return a;
        if (da && b.known && b.v <= 0) return a;
        if (db && a.known && a.v <= 0) return b;
        break;
    case OPID_MIN:
        if (iv_same_sym(a, b)) return a;
        if (da && b.known && b.v <= 0) return b;
        if (db && a.known && a.v <= 0) return a;
        break;
    case OPID_EQUAL:
    case OPID_GREATER_OR_EQUAL:
    case OPID_LESS_OR_EQUAL:
    case OPID_GREATER:
    case OPID_LESS: {
        int eq = op == OPID_EQUAL || op == OPID_GREATER_OR_EQUAL || op == OPID_LESS_OR_EQUAL;
        if (iv_same_sym(a, b)) return ir_ival_known(eq);
        /* a symbolic dim against a negative constant (Equal(shape, -1) in Reshape exports): dim > constant */
        if ((da && !a.known && b.known && b.v < 0) || (db && !b.known && a.known && a.v < 0)) {
            int a_big = !a.known; /* the symbolic side is the larger one */
            if (op == OPID_EQUAL) return ir_ival_known(0);
            if (op == OPID_GREATER || op == OPID_GREATER_OR_EQUAL) return ir_ival_known(a_big);
            return ir_ival_known(!a_big);
        }
        break;
    }
    default: break;
    }
    return iv_unknown();
}

/* A known integer result stored in a tensor of this dtype wraps around like C unsigned / two's-complement
 * arithmetic (uint8 200 << 1 = 144; BitwiseNot of uint8 1 = 254). */
static struct ir_ival iv_wrap(int dtype, struct ir_ival x)
{
    if (!x.known) return x;
    int bits = 0, is_signed = 0;
    switch (dtype) {
    case DT_UINT8: bits = 8; break;
    case DT_UINT16: bits = 16; break;
    case DT_UINT32: bits = 32; break;
    case DT_INT8: bits = 8, is_signed = 1; break;
    case DT_INT16: bits = 16, is_signed = 1; break;
    case DT_INT32: bits = 32, is_signed = 1; break;
    default: return x;
    }
    uint64_t mask = (UINT64_C(1) << bits) - 1, u = (uint64_t)x.v & mask;
    if (is_signed && (u >> (bits - 1)))
        x.v = (int64_t)u - (int64_t)(mask + 1);
    else
        x.v = (int64_t)u;
    return x;
}

/* ---------------------------------------------------------------- floating values */

/* a OP b in double; 0 for operators that have no floating form */
static int fbin(struct op_ctx *c, int op, double a, double b, double *r)
{
    switch (op) {
    case OPID_ADD:
    case OPID_SUM:
    case OPID_MEAN: *r = a + b; return 1;
    case OPID_SUB: *r = a - b; return 1;
    case OPID_MUL: *r = a * b; return 1;
    case OPID_DIV: *r = a / b; return 1;
    case OPID_POW: *r = pow(a, b); return 1;
    case OPID_MOD: {
        double m = fmod(a, b);
        if (!op_attr_int(c, "fmod", 0) && m != 0 && ((m < 0) != (b < 0))) m += b;
        *r = m;
        return 1;
    }
    /* ONNX Max/Min-12: NaN propagates */
    case OPID_MAX: *r = (isnan(a) || isnan(b)) ? NAN : (a > b ? a : b); return 1;
    case OPID_MIN: *r = (isnan(a) || isnan(b)) ? NAN : (a < b ? a : b); return 1;
    case OPID_EQUAL: *r = a == b; return 1;
    case OPID_GREATER: *r = a > b; return 1;
    case OPID_GREATER_OR_EQUAL: *r = a >= b; return 1;
    case OPID_LESS: *r = a < b; return 1;
    case OPID_LESS_OR_EQUAL: *r = a <= b; return 1;
    default: return 0;
    }
}

/* values stored for an output of this dtype: float32 and narrower are rounded through float */
static double fround(int dtype, double x)
{
    if (dtype == DT_FLOAT || dtype == DT_FLOAT16 || dtype == DT_BFLOAT16) return (double)(float)x;
    return x;
}

/* ---------------------------------------------------------------- broadcasting of value arrays */

/* Index into input x of element 'flat' of output o, x's last axis aligned with output axis off+rank(x)-1
 * (numpy: off = rank(o) - rank(x); legacy opset<7 broadcast: off = axis). Dims are concrete. */
static int64_t bidx(const struct ir_value *x, const struct ir_value *o, int64_t flat, int off)
{
    int64_t idx = 0, stride = 1;
    for (int ax = o->rank - 1; ax >= 0; ax--) {
        int64_t od = o->dims[ax].val;
        int64_t coord = od > 0 ? flat % od : 0;
        flat = od > 0 ? flat / od : 0;
        int k = ax - off;
        if (k < 0 || k >= x->rank) continue;
        int64_t xd = x->dims[k].val;
        if (xd != 1) idx += coord * stride;
        stride *= xd;
    }
    return idx;
}

#define MAX_VIN 64 /* values are propagated through at most this many inputs */

struct vin {
    const struct ir_value *v;
    const struct ir_ival *iv;
    const double *fv;
    int off; /* alignment offset for bidx */
};

/* Output 0's element count when it is small enough to carry values, else -1. */
static int64_t out_small(struct op_ctx *c)
{
    struct ir_value *o = op_out(c, 0);
    int64_t n;
    if (!o || !ir_numel(o, &n) || n > NNPERF_MAX_CONST_ELEMS) return -1;
    return n;
}

/* Loads input i's values (integer form when as_int, else floating); 0 when not known or size mismatch. */
static int load_vin(struct op_ctx *c, int i, int as_int, int off, struct vin *x)
{
    x->v = op_in(c, i);
    x->iv = NULL;
    x->fv = NULL;
    int64_t numel, n;
    if (!x->v || !ir_numel(x->v, &numel)) return 0;
    n = as_int ? op_ivals(c, i, &x->iv) : op_fvals(c, i, &x->fv);
    if (n < 0 && as_int && numel <= NNPERF_MAX_CONST_ELEMS) {
        /* integer tensor whose values were propagated as doubles: use them when they are whole numbers */
        const double *f;
        if (op_fvals(c, i, &f) != numel) return 0;
        struct ir_ival *iv = ar_calloc(c->ar, (size_t)(numel ? numel : 1), sizeof *iv);
        if (!iv) return 0;
        for (int64_t k = 0; k < numel; k++) {
            if (!(fabs(f[k]) < 9.2e18) || f[k] != floor(f[k])) return 0;
            iv[k] = ir_ival_known((int64_t)f[k]);
        }
        x->iv = iv;
        n = numel;
    }
    if (n < 0 || n != numel) return 0;
    x->off = off < 0 ? op_out(c, 0)->rank - x->v->rank : off;
    return 1;
}

/* Folds op over the inputs idx[0..n) element by element (broadcast to output 0) and sets output 0's values.
 * offs[k] is the legacy alignment of input k (-1 = numpy). Mean divides the sum by n at the end. */
static enum nnperf_status prop_fold(struct op_ctx *c, int op, const int *idx, const int *offs, int n)
{
    int64_t cnt = out_small(c);
    if (cnt < 0 || n < 1 || n > MAX_VIN) return NNPERF_OK;
    struct ir_value *o = op_out(c, 0);
    struct vin x[MAX_VIN];
    int as_int = 1;
    for (int k = 0; k < n; k++) {
        const struct ir_value *v = op_in(c, idx[k]);
        if (!v || !ir_dtype_is_int(v->dtype)) as_int = 0;
    }
    if (op == OPID_MEAN) as_int = 0;
    for (int k = 0; k < n; k++)
        if (!load_vin(c, idx[k], as_int, offs ? offs[k] : -1, &x[k])) return NNPERF_OK;
    int out_int = ir_dtype_is_int(o->dtype);
    if (as_int) {
        struct ir_ival *r = ar_calloc(c->ar, (size_t)(cnt ? cnt : 1), sizeof *r);
        if (!r) return op_nomem(c);
        for (int64_t e = 0; e < cnt; e++) {
            struct ir_ival acc = x[0].iv[bidx(x[0].v, o, e, x[0].off)];
            for (int k = 1; k < n; k++) acc = ibin(c, op, acc, x[k].iv[bidx(x[k].v, o, e, x[k].off)]);
            r[e] = iv_wrap(o->dtype, acc);
        }
        return op_set_ivals(c, 0, r, cnt);
    }
    double *r = ar_calloc(c->ar, (size_t)(cnt ? cnt : 1), sizeof *r);
    if (!r) return op_nomem(c);
    for (int64_t e = 0; e < cnt; e++) {
        double acc = x[0].fv[bidx(x[0].v, o, e, x[0].off)];
        for (int k = 1; k < n; k++)
            if (!fbin(c, op, acc, x[k].fv[bidx(x[k].v, o, e, x[k].off)], &acc)) return NNPERF_OK;
        if (op == OPID_MEAN) acc /= n;
        r[e] = acc;
    }
    if (out_int) {
        /* comparisons of floats give bools */
        struct ir_ival *iv = ar_calloc(c->ar, (size_t)(cnt ? cnt : 1), sizeof *iv);
        if (!iv) return op_nomem(c);
        for (int64_t e = 0; e < cnt; e++) {
            if (!(fabs(r[e]) < 9.2e18)) return NNPERF_OK;
            iv[e] = ir_ival_known((int64_t)r[e]);
        }
        return op_set_ivals(c, 0, iv, cnt);
    }
    for (int64_t e = 0; e < cnt; e++) r[e] = fround(o->dtype, r[e]);
    return op_set_fvals(c, 0, r, cnt);
}

/* ---------------------------------------------------------------- shape rules */

static int first_dtype(struct op_ctx *c)
{
    for (int i = 0; i < op_n_in(c); i++)
        if (op_in(c, i) && op_in(c, i)->dtype) return op_in(c, i)->dtype;
    return DT_UNDEFINED;
}

/* numpy broadcast of the inputs idx[0..n) into output 0 with the given dtype */
static enum nnperf_status bcast_inputs(struct op_ctx *c, const int *idx, int n, int dtype)
{
    const struct ir_value **vals = ar_calloc(c->ar, (size_t)(n ? n : 1), sizeof *vals);
    if (!vals) return op_nomem(c);
    int m = 0;
    for (int k = 0; k < n; k++)
        if (op_in(c, idx[k])) vals[m++] = op_in(c, idx[k]);
    if (!m) return op_set(c, 0, dtype, -1, NULL);
    int rank = -1, bad = -1;
    struct ir_dim *dims = NULL;
    if (!ir_broadcast(c->ar, vals, m, &rank, &dims, &bad))
        return op_err(c, NULL, "inputs cannot be broadcast together (axis %d of the broadcast shape)", bad);
    if (rank >= 0 && !dims) return op_nomem(c);
    return op_set(c, 0, dtype, rank, dims);
}

/* Binary operator with broadcasting: opset>=7 numpy rules; opset<7 (Add/Sub/Mul/Div/Pow/And/Or/Xor/Equal/Greater/
 * Less -1..6) the 'broadcast' attribute: B is broadcast to A's shape, aligned at 'axis' or at the end. */
static enum nnperf_status infer_binary(struct op_ctx *c, int dtype)
{
    int op = c->n->op;
    static const int idx[2] = {0, 1};
    struct ir_value *a = op_in(c, 0), *b = op_in(c, 1);
    if (!a || !b) return op_err(c, NULL, "needs 2 inputs, has %d", op_n_in(c));
    int legacy = c->n->opset < 7 && op != OPID_MOD && op != OPID_BIT_SHIFT && op != OPID_BITWISE_AND &&
                 op != OPID_BITWISE_OR && op != OPID_BITWISE_XOR && op != OPID_GREATER_OR_EQUAL &&
                 op != OPID_LESS_OR_EQUAL;
    /* ONNX Add-6 and earlier: "broadcast" (default 0: shapes equal), "axis" (start of B inside A). With
     * broadcast=0 numpy rules are used: they accept every pair of equal shapes, and old exporters were lax. */
    if (!legacy || !op_attr_int(c, "broadcast", 0)) {
        enum nnperf_status st = bcast_inputs(c, idx, 2, dtype);
        if (st) return st;
        return prop_fold(c, op, idx, NULL, 2);
    }
    enum nnperf_status st = op_set_like(c, 0, a, dtype);
    if (st || a->rank < 0 || b->rank < 0) return st;
    int off = a->rank - b->rank;
    const struct ir_attr *ax = op_attr_typed(c, "axis", AT_INT);
    if (ax) {
        int axn;
        if (!ir_norm_axis(ax->i, a->rank, &axn))
            return op_err(c, "axis", "is out of range for rank %d", a->rank);
        off = axn;
    }
    if (off < 0 || off + b->rank > a->rank)
        return op_err(c, "broadcast", "input B of rank %d does not fit input A of rank %d", b->rank, a->rank);
    for (int k = 0; k < b->rank; k++) {
        struct ir_dim x = a->dims[off + k], y = b->dims[k];
        if (x.val >= 0 && y.val >= 0 && y.val != 1 && x.val != y.val)
            return op_err(c, NULL, "input B dim %d is %lld, input A has %lld", k, (long long)y.val,
                          (long long)x.val);
    }
    int offs[2] = {0, off};
    return prop_fold(c, op, idx, offs, 2);
}

/* Add, Sub, Mul, Div, Mod, BitShift, BitwiseAnd/Or/Xor: broadcast, dtype of A, values propagated */
enum nnperf_status infer_arith(struct op_ctx *c)
{
    return infer_binary(c, first_dtype(c));
}

/* Pow: ONNX Pow-7+: the output has X's type (the exponent may be another numeric type) */
enum nnperf_status infer_pow(struct op_ctx *c)
{
    struct ir_value *x = op_in(c, 0);
    return infer_binary(c, x ? x->dtype : DT_UNDEFINED);
}

/* Equal, Greater, Less, GreaterOrEqual, LessOrEqual, And, Or, Xor: bool output, values propagated */
enum nnperf_status infer_compare(struct op_ctx *c)
{
    return infer_binary(c, DT_BOOL);
}

/* Sum, Mean, Max, Min: n inputs broadcast together (opset<8: all of one shape), dtype of the first */
enum nnperf_status infer_variadic(struct op_ctx *c)
{
    int *idx = ar_calloc(c->ar, (size_t)(op_n_in(c) ? op_n_in(c) : 1), sizeof *idx), n = 0;
    if (!idx) return op_nomem(c);
    for (int i = 0; i < op_n_in(c); i++)
        if (op_in(c, i)) idx[n++] = i;
    if (!n) return op_err(c, NULL, "needs at least one input");
    enum nnperf_status st = bcast_inputs(c, idx, n, first_dtype(c));
    if (st) return st;
    return prop_fold(c, c->n->op, idx, NULL, n);
}

/* (inputs - 1) operations per output element; Mean adds one division per element */
void count_variadic(struct op_ctx *c, struct ir_cost *cost)
{
    int64_t numel;
    int n = 0;
    for (int i = 0; i < op_n_in(c); i++)
        if (op_in(c, i)) n++;
    if (!ir_numel(op_out(c, 0), &numel)) {
        cost->known = 0;
        return;
    }
    uint64_t per = (uint64_t)(n > 1 ? n - 1 : 0) + (c->n->op == OPID_MEAN ? 1u : 0u);
    cost->macs = 0;
    cost->flops = ck_sat_mul(per, (uint64_t)numel);
}

/* ---------------------------------------------------------------- unary */

static int iun(int op, struct ir_ival a, struct ir_ival *r)
{
    if (!a.known) {
        /* a symbolic dim is >= 0: |d| = d, relu(d) = d */
        if ((op == OPID_ABS || op == OPID_RELU) && a.sym) {
            *r = a;
            return 1;
        }
        return 0;
    }
    int64_t v = a.v;
    switch (op) {
    case OPID_NEG:
        if (v == INT64_MIN) return 0;
        *r = ir_ival_known(-v);
        return 1;
    case OPID_ABS:
        if (v == INT64_MIN) return 0;
        *r = ir_ival_known(v < 0 ? -v : v);
        return 1;
    case OPID_SIGN: *r = ir_ival_known(v > 0 ? 1 : v < 0 ? -1 : 0); return 1;
    case OPID_NOT: *r = ir_ival_known(!v); return 1;
    case OPID_BITWISE_NOT: *r = ir_ival_known(~v); return 1;
    case OPID_RELU: *r = ir_ival_known(v > 0 ? v : 0); return 1;
    case OPID_FLOOR:
    case OPID_CEIL:
    case OPID_ROUND: *r = a; return 1;
    default: return 0;
    }
}

static int fun(int op, double a, double *r)
{
    switch (op) {
    case OPID_NEG: *r = -a; return 1;
    case OPID_ABS: *r = fabs(a); return 1;
    case OPID_FLOOR: *r = floor(a); return 1;
    case OPID_CEIL: *r = ceil(a); return 1;
    case OPID_ROUND: *r = nearbyint(a); return 1; /* ONNX Round-11: halves to even (default rounding mode) */
    case OPID_SQRT: *r = sqrt(a); return 1;
    case OPID_EXP: *r = exp(a); return 1;
    case OPID_LOG: *r = log(a); return 1;
    case OPID_RECIPROCAL: *r = 1.0 / a; return 1;
    case OPID_SIGN: *r = a > 0 ? 1 : a < 0 ? -1 : 0; return 1;
    case OPID_RELU: *r = a > 0 ? a : 0; return 1;
    default: return 0;
    }
}

/* Unary element-wise operators whose values matter for shape computations (Abs, Neg, Floor, Ceil, Round, Sign,
 * Sqrt, Exp, Log, Reciprocal, Relu, Not, BitwiseNot): same dtype and shape, values propagated. */
enum nnperf_status infer_unary(struct op_ctx *c)
{
    struct ir_value *x = op_in(c, 0);
    if (!x) return op_err(c, NULL, "needs 1 input");
    enum nnperf_status st = op_set_like(c, 0, x, x->dtype);
    if (st) return st;
    int64_t cnt = out_small(c);
    if (cnt < 0) return NNPERF_OK;
    int op = c->n->op;
    struct vin v;
    if (ir_dtype_is_int(x->dtype)) {
        if (!load_vin(c, 0, 1, -1, &v)) return NNPERF_OK;
        struct ir_ival *r = ar_calloc(c->ar, (size_t)(cnt ? cnt : 1), sizeof *r);
        if (!r) return op_nomem(c);
        for (int64_t e = 0; e < cnt; e++)
            r[e] = iun(op, v.iv[e], &r[e]) ? iv_wrap(x->dtype, r[e]) : iv_unknown();
        return op_set_ivals(c, 0, r, cnt);
    }
    if (!load_vin(c, 0, 0, -1, &v)) return NNPERF_OK;
    double *r = ar_calloc(c->ar, (size_t)(cnt ? cnt : 1), sizeof *r);
    if (!r) return op_nomem(c);
    for (int64_t e = 0; e < cnt; e++) {
        if (!fun(op, v.fv[e], &r[e])) return NNPERF_OK;
        r[e] = fround(x->dtype, r[e]);
    }
    return op_set_fvals(c, 0, r, cnt);
}

/* IsNaN-9/20, IsInf-10/20: bool tensor of the input's shape */
enum nnperf_status infer_is_nan_inf(struct op_ctx *c)
{
    struct ir_value *x = op_in(c, 0);
    if (!x) return op_err(c, NULL, "needs 1 input");
    return op_set_like(c, 0, x, DT_BOOL);
}

/* LeakyRelu, ThresholdedRelu: same shape and dtype (alpha is a scalar attribute) */
enum nnperf_status infer_leaky_relu(struct op_ctx *c)
{
    return op_infer_same(c);
}

enum nnperf_status infer_thresholded_relu(struct op_ctx *c)
{
    return op_infer_same(c);
}

/* PRelu: ONNX PRelu-7+: slope is unidirectionally broadcastable to X; the output has X's shape.
 * PRelu-1/6 required the same shape or a 1-D slope of the channels. */
enum nnperf_status infer_p_relu(struct op_ctx *c)
{
    struct ir_value *x = op_in(c, 0), *s = op_in(c, 1);
    if (!x || !s) return op_err(c, NULL, "needs 2 inputs (X, slope)");
    if (c->n->opset >= 7 && x->rank >= 0 && s->rank >= 0) {
        if (s->rank > x->rank)
            return op_err(c, NULL, "slope of rank %d cannot broadcast to X of rank %d", s->rank, x->rank);
        for (int k = 0; k < s->rank; k++) {
            struct ir_dim xd = x->dims[x->rank - s->rank + k], sd = s->dims[k];
            if (sd.val >= 0 && sd.val != 1 && xd.val >= 0 && xd.val != sd.val)
                return op_err(c, NULL, "slope dim %d is %lld, X has %lld there", k, (long long)sd.val,
                              (long long)xd.val);
        }
    }
    return op_set_like(c, 0, x, x->dtype);
}

/* Clip: output like X. Clip-1/6: 'min'/'max' float attributes; Clip-11+: optional scalar inputs min, max. */
enum nnperf_status infer_clip(struct op_ctx *c)
{
    struct ir_value *x = op_in(c, 0);
    if (!x) return op_err(c, NULL, "needs an input");
    enum nnperf_status st = op_set_like(c, 0, x, x->dtype);
    if (st) return st;
    for (int i = 1; i <= 2 && c->n->opset >= 11; i++) {
        struct ir_value *b = op_in(c, i);
        int64_t n;
        if (b && ir_numel(b, &n) && n != 1)
            return op_err(c, NULL, "input '%s' must be a scalar, has %lld elements", i == 1 ? "min" : "max",
                          (long long)n);
    }
    int64_t cnt = out_small(c);
    if (cnt < 0) return NNPERF_OK;
    /* bounds: has_lo/has_hi with their values (as double; integers compared exactly below) */
    int has[2] = {0, 0};
    double fb[2] = {0, 0};
    struct ir_ival ib[2];
    int is_int = ir_dtype_is_int(x->dtype);
    for (int k = 0; k < 2; k++) {
        if (c->n->opset < 11) {
            const struct ir_attr *a = op_attr(c, k ? "max" : "min");
            if (a) {
                has[k] = 1;
                fb[k] = op_attr_float(c, k ? "max" : "min", 0);
                if (is_int) {
                    if (!(fabs(fb[k]) < 9.2e18)) return NNPERF_OK;
                    ib[k] = ir_ival_known((int64_t)fb[k]);
                }
            }
        } else if (op_in(c, k + 1)) {
            struct vin b;
            if (!load_vin(c, k + 1, is_int, 0, &b)) return NNPERF_OK;
            has[k] = 1;
            if (is_int)
                ib[k] = b.iv[0];
            else
                fb[k] = b.fv[0];
        }
    }
    struct vin v;
    if (!load_vin(c, 0, is_int, -1, &v)) return NNPERF_OK;
    if (is_int) {
        struct ir_ival *r = ar_calloc(c->ar, (size_t)(cnt ? cnt : 1), sizeof *r);
        if (!r) return op_nomem(c);
        for (int64_t e = 0; e < cnt; e++) {
            struct ir_ival y = v.iv[e];
            if (has[0]) y = ibin(c, OPID_MAX, y, ib[0]);
            if (has[1]) y = ibin(c, OPID_MIN, y, ib[1]);
            r[e] = y;
        }
        return op_set_ivals(c, 0, r, cnt);
    }
    double *r = ar_calloc(c->ar, (size_t)(cnt ? cnt : 1), sizeof *r);
    if (!r) return op_nomem(c);
    for (int64_t e = 0; e < cnt; e++) {
        double y = v.fv[e];
        if (has[0] && y < fb[0]) y = fb[0];
        if (has[1] && y > fb[1]) y = fb[1];
        r[e] = fround(x->dtype, y);
    }
    return op_set_fvals(c, 0, r, cnt);
}

/* Where-9/16: condition, X, Y broadcast together; dtype of X; values chosen element by element */
enum nnperf_status infer_where(struct op_ctx *c)
{
    static const int idx[3] = {0, 1, 2};
    struct ir_value *x = op_in(c, 1), *y = op_in(c, 2);
    if (!op_in(c, 0) || !x || !y) return op_err(c, NULL, "needs 3 inputs (condition, X, Y)");
    enum nnperf_status st = bcast_inputs(c, idx, 3, x->dtype ? x->dtype : y->dtype);
    if (st) return st;
    int64_t cnt = out_small(c);
    if (cnt < 0) return NNPERF_OK;
    struct ir_value *o = op_out(c, 0);
    struct vin cv, xv, yv;
    int is_int = ir_dtype_is_int(o->dtype);
    if (!load_vin(c, 0, 1, -1, &cv) || !load_vin(c, 1, is_int, -1, &xv) || !load_vin(c, 2, is_int, -1, &yv))
        return NNPERF_OK;
    if (is_int) {
        struct ir_ival *r = ar_calloc(c->ar, (size_t)(cnt ? cnt : 1), sizeof *r);
        if (!r) return op_nomem(c);
        for (int64_t e = 0; e < cnt; e++) {
            struct ir_ival k = cv.iv[bidx(cv.v, o, e, cv.off)];
            if (!k.known)
                r[e] = iv_unknown();
            else
                r[e] = k.v ? xv.iv[bidx(xv.v, o, e, xv.off)] : yv.iv[bidx(yv.v, o, e, yv.off)];
        }
        return op_set_ivals(c, 0, r, cnt);
    }
    double *r = ar_calloc(c->ar, (size_t)(cnt ? cnt : 1), sizeof *r);
    if (!r) return op_nomem(c);
    for (int64_t e = 0; e < cnt; e++) {
        struct ir_ival k = cv.iv[bidx(cv.v, o, e, cv.off)];
        if (!k.known) return NNPERF_OK;
        r[e] = k.v ? xv.fv[bidx(xv.v, o, e, xv.off)] : yv.fv[bidx(yv.v, o, e, yv.off)];
    }
    return op_set_fvals(c, 0, r, cnt);
}

/* Softmax, LogSoftmax, Hardmax: output has the input's shape and dtype. The axis must be valid: default 1 before
 * opset 13 (where the input is coerced to 2-D around it, but the output keeps the input's shape), -1 from 13. */
enum nnperf_status infer_softmax(struct op_ctx *c)
{
    struct ir_value *x = op_in(c, 0);
    if (!x) return op_err(c, NULL, "needs an input");
    int64_t axis = op_attr_int(c, "axis", c->n->opset >= 13 ? -1 : 1);
    int ax;
    if (x->rank >= 0) {
        /* opset < 13 coerces to 2-D: axis may equal rank (the second factor is then 1) */
        int rank = x->rank;
        int ok = ir_norm_axis(axis, rank, &ax) || (c->n->opset < 13 && axis == rank);
        if (!ok && !(rank == 0 && (axis == 0 || axis == -1)))
            return op_err(c, "axis", "is %lld, out of range for rank %d", (long long)axis, rank);
    }
    return op_set_like(c, 0, x, x->dtype);
}
