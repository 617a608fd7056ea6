/* reduce.c - reductions: ReduceL1/L2/LogSum/LogSumExp/Max/Mean/Min/Prod/Sum/SumSquare (axes as an attribute or,
 * from opset 18 (ReduceSum: 13), as an input; keepdims; noop_with_empty_axes), ArgMax/ArgMin and TopK. Small
 * integer tensors reduced by ReduceSum/Prod/Max/Min (e.g. ReduceProd of a Shape slice) get propagated values,
 * symbolic ones included ("batch" x "seq" -> "batch*seq"). */
#include <string.h>

#include "../ops.h"

static struct ir_ival ival_unknown(void)
{
    struct ir_ival x = {0, NULL, 0};
    return x;
}

/* A non-negative or symbolic value can go through the symbolic dim arithmetic. */
static int dim_like(struct ir_ival x)
{
    return (x.known && x.v >= 0) || (!x.known && x.sym);
}

enum red_kind { RK_SUM, RK_PROD, RK_MAX, RK_MIN };

static struct ir_ival combine(struct op_ctx *c, int kind, struct ir_ival a, struct ir_ival b)
{
    int64_t r;
    if (a.known && b.known) {
        switch (kind) {
        case RK_SUM: return ck_add_i64(a.v, b.v, &r) ? ir_ival_known(r) : ival_unknown();
        case RK_PROD: return ck_mul_i64(a.v, b.v, &r) ? ir_ival_known(r) : ival_unknown();
        case RK_MAX: return a.v >= b.v ? a : b;
        default: return a.v <= b.v ? a : b;
        }
    }
    if (kind == RK_PROD && ((a.known && a.v == 0) || (b.known && b.v == 0))) return ir_ival_known(0);
    if (kind == RK_MAX || kind == RK_MIN) {
        if (!a.known && !b.known && a.sym && b.sym && !strcmp(a.sym, b.sym)) return a;
        return ival_unknown();
    }
    if (!dim_like(a) || !dim_like(b)) return ival_unknown();
    struct ir_dim d = kind == RK_SUM ? ir_dim_add(c->ar, ir_dim_from_ival(a), ir_dim_from_ival(b))
                                     : ir_dim_mul(c->ar, ir_dim_from_ival(a), ir_dim_from_ival(b));
    return ir_ival_from_dim(d);
}

/* Propagates the values of a reduction of input 0 (concrete dims, known values) over the axes marked in red. */
static enum nnperf_status reduce_values(struct op_ctx *c, int kind, const unsigned char *red)
{
    const struct ir_value *x = op_in(c, 0);
    const struct ir_ival *v;
    int64_t n = op_ivals(c, 0, &v), total, out_n = 1;
    if (n < 0 || !ir_numel(x, &total) || total != n || n == 0) return NNPERF_OK;
    int rank = x->rank;
    int64_t ostride[NNPERF_MAX_RANK];
    for (int k = rank - 1; k >= 0; k--) {
        ostride[k] = red[k] ? 0 : out_n;
        if (!red[k]) out_n *= x->dims[k].val; /* bounded by n: no overflow */
    }
    struct ir_ival *o = ar_calloc(c->ar, (size_t)out_n, sizeof *o);
    unsigned char *seen = ar_calloc(c->ar, (size_t)out_n, 1);
    if (!o || !seen) return op_nomem(c);
    /* Sum/Prod: concrete and symbolic terms are accumulated apart, so [batch, 3, 4] gives "batch*12" */
    struct ir_ival *symacc = ar_calloc(c->ar, (size_t)out_n, sizeof *symacc);
    unsigned char *symseen = ar_calloc(c->ar, (size_t)out_n, 1);
    if (!symacc || !symseen) return op_nomem(c);
    int split = kind == RK_SUM || kind == RK_PROD;
    int64_t idx[NNPERF_MAX_RANK] = {0};
    for (int64_t e = 0; e < n; e++) {
        int64_t oi = 0;
        for (int k = 0; k < rank; k++) oi += idx[k] * ostride[k];
        if (split && !v[e].known) {
            symacc[oi] = symseen[oi] ? combine(c, kind, symacc[oi], v[e]) : v[e];
            symseen[oi] = 1;
        } else {
            o[oi] = seen[oi] ? combine(c, kind, o[oi], v[e]) : v[e];
            seen[oi] = 1;
        }
        for (int k = rank - 1; k >= 0; k--) {
            if (++idx[k] < x->dims[k].val) break;
            idx[k] = 0;
        }
    }
    for (int64_t k = 0; k < out_n; k++)
        if (symseen[k]) o[k] = seen[k] ? combine(c, kind, symacc[k], o[k]) : symacc[k];
    return op_set_ivals(c, 0, o, out_n);
}

static int red_kind_of(struct op_ctx *c)
{
    switch (c->n->op) {
    case OPID_REDUCE_SUM: return RK_SUM;
    case OPID_REDUCE_PROD: return RK_PROD;
    case OPID_REDUCE_MAX: return RK_MAX;
    case OPID_REDUCE_MIN: return RK_MIN;
    default: return -1;
    }
}

/* Does the node read its axes from input 1 (rather than the 'axes' attribute)? */
static int axes_from_input(struct op_ctx *c)
{
    /* ONNX ReduceSum-13 and the other Reduce*-18 moved 'axes' from an attribute to input 1 */
    return c->n->opset >= (c->n->op == OPID_REDUCE_SUM ? 13 : 18);
}

enum nnperf_status infer_reduce(struct op_ctx *c)
{
    struct ir_value *x = op_in(c, 0);
    if (!x) return op_err(c, NULL, "has no data input");
    int dtype = x->dtype;
    int keep = op_attr_int(c, "keepdims", 1) != 0;
    int64_t ax[NNPERF_MAX_RANK];
    int64_t nax = 0;
    int axes_known = 1;
    if (axes_from_input(c)) {
        const struct ir_value *a = op_in(c, 1);
        if (a) {
            const struct ir_ival *av;
            int64_t n = op_ivals(c, 1, &av);
            if (n > NNPERF_MAX_RANK)
                return op_err(c, "axes", "has %lld values, more than the rank limit", (long long)n);
            for (int64_t k = 0; k < n && axes_known; k++) {
                if (!av[k].known)
                    axes_known = 0;
                else
                    ax[k] = av[k].v;
            }
            if (n < 0)
                axes_known = 0;
            else
                nax = n;
            if (!axes_known) {
                /* the number of axes is still known from the input's shape */
                nax = (a->rank == 1 && a->dims[0].val >= 0) ? a->dims[0].val : -1;
                if (nax == 0) axes_known = 1;
            }
        }
        /* ONNX Reduce*-18: noop_with_empty_axes=1 with empty axes makes the operator an identity */
        if (axes_known && nax == 0 && op_attr_int(c, "noop_with_empty_axes", 0)) {
            enum nnperf_status st = op_set_like(c, 0, x, dtype);
            if (!st && x->iv && x->nv >= 0) st = op_set_ivals(c, 0, x->iv, x->nv);
            return st;
        }
    } else {
        const int64_t *av;
        nax = op_attr_ints(c, "axes", &av);
        if (nax > NNPERF_MAX_RANK)
            return op_err(c, "axes", "has %lld values, more than the rank limit", (long long)nax);
        for (int64_t k = 0; k < nax; k++) ax[k] = av[k];
    }
    if (x->rank < 0) return op_set(c, 0, dtype, -1, NULL);
    int rank = x->rank;
    if (!axes_known) {
        struct ir_dim d[NNPERF_MAX_RANK];
        if (!keep) {
            if (nax < 0 || nax > rank) return op_set(c, 0, dtype, -1, NULL);
            /* which axes go is unknown: only the rank is */
            for (int k = 0; k < rank - nax; k++) d[k] = IR_DIM_UNKNOWN;
            return op_set(c, 0, dtype, (int)(rank - nax), d);
        }
        /* a dim of 1 stays 1 whether it is reduced or not */
        for (int k = 0; k < rank; k++) d[k] = x->dims[k].val == 1 ? x->dims[k] : IR_DIM_UNKNOWN;
        return op_set(c, 0, dtype, rank, d);
    }
    unsigned char red[NNPERF_MAX_RANK] = {0};
    for (int64_t k = 0; k < nax; k++) {
        int a;
        if (!ir_norm_axis(ax[k], rank, &a))
            return op_err(c, "axes", "value %lld is out of range for rank %d", (long long)ax[k], rank);
        red[a] = 1;
    }
    if (nax == 0)
        for (int k = 0; k < rank; k++) red[k] = 1;
    struct ir_dim d[NNPERF_MAX_RANK];
    int orank = 0;
    for (int k = 0; k < rank; k++) {
        if (!red[k])
            d[orank++] = x->dims[k];
        else if (keep)
            d[orank++] = ir_dim_known(1);
    }
    enum nnperf_status st = op_set(c, 0, dtype, orank, d);
    if (st) return st;
    int kind = red_kind_of(c);
    if (kind >= 0 && ir_dtype_is_int(dtype)) return reduce_values(c, kind, red);
    return NNPERF_OK;
}

/* ONNX reductions: fpe per input element (the accumulation, plus |x| or x^2 or exp(x) where the operator applies
 * one first), plus one operation per output element for the final sqrt (L2), log (LogSum, LogSumExp) or division
 * (Mean). A no-op reduction (noop_with_empty_axes) costs nothing. */
void count_reduce(struct op_ctx *c, struct ir_cost *cost)
{
    const struct ir_value *x = op_in(c, 0), *y = op_out(c, 0);
    int64_t nin, nout;
    cost->macs = 0;
    cost->flops = 0;
    if (axes_from_input(c) && op_attr_int(c, "noop_with_empty_axes", 0)) {
        const struct ir_value *a = op_in(c, 1);
        if (!a || (a->rank == 1 && a->dims[0].val == 0)) return;
    }
    if (!x || !y || !ir_numel(x, &nin) || !ir_numel(y, &nout)) {
        cost->known = 0;
        return;
    }
    double fpe = op_table[c->n->op].fpe;
    int post = 0;
    switch (c->n->op) {
    case OPID_REDUCE_L2:
    case OPID_REDUCE_LOG_SUM:
    case OPID_REDUCE_LOG_SUM_EXP:
    case OPID_REDUCE_MEAN: post = 1; break;
    default: break;
    }
    cost->flops = ck_sat_add((uint64_t)((double)nin * fpe + 0.5), (uint64_t)post * (uint64_t)nout);
}

/* ArgMax/ArgMin: int64 indices; 'axis' (default 0) is removed or kept as 1 (keepdims). select_last_index (12)
 * changes which index, not the shape. */
enum nnperf_status infer_arg_reduce(struct op_ctx *c)
{
    struct ir_value *x = op_in(c, 0);
    if (!x) return op_err(c, NULL, "has no data input");
    if (x->rank < 0) return op_set(c, 0, DT_INT64, -1, NULL);
    int keep = op_attr_int(c, "keepdims", 1) != 0, axis;
    int64_t a = op_attr_int(c, "axis", 0);
    if (!ir_norm_axis(a, x->rank, &axis))
        return op_err(c, "axis", "value %lld is out of range for rank %d", (long long)a, x->rank);
    struct ir_dim d[NNPERF_MAX_RANK];
    int orank = 0;
    for (int k = 0; k < x->rank; k++) {
        if (k != axis)
            d[orank++] = x->dims[k];
        else if (keep)
            d[orank++] = ir_dim_known(1);
    }
    return op_set(c, 0, DT_INT64, orank, d);
}

/* TopK: values (input dtype) and int64 indices, the input's shape with 'axis' (default -1) of size K. K is the
 * attribute 'k' before opset 10, the one-element input 1 from then. */
enum nnperf_status infer_top_k(struct op_ctx *c)
{
    struct ir_value *x = op_in(c, 0);
    if (!x) return op_err(c, NULL, "has no data input");
    struct ir_dim kd = IR_DIM_UNKNOWN;
    if (c->n->opset < 10) {
        const struct ir_attr *ka = op_attr_typed(c, "k", AT_INT);
        if (!ka || ka->type != AT_INT) return op_err(c, "k", "is missing");
        if (ka->i < 0) return op_err(c, "k", "is negative (%lld)", (long long)ka->i);
        kd = ir_dim_known(ka->i);
    } else {
        const struct ir_value *kv = op_in(c, 1);
        if (!kv) return op_err(c, NULL, "has no input 'K'");
        if (kv->rank >= 0) {
            int64_t kn;
            if (kv->rank != 1 || (ir_numel(kv, &kn) && kn != 1))
                return op_err(c, NULL, "input 'K' must be a 1-D tensor with one element");
        }
        const struct ir_ival *iv;
        if (op_ivals(c, 1, &iv) == 1) {
            if (iv[0].known && iv[0].v < 0)
                return op_err(c, NULL, "input 'K' is negative (%lld)", (long long)iv[0].v);
            kd = ir_dim_from_ival(iv[0]);
        }
    }
    if (x->rank < 0) {
        enum nnperf_status st = op_set(c, 0, x->dtype, -1, NULL);
        return st ? st : op_set(c, 1, DT_INT64, -1, NULL);
    }
    int axis;
    int64_t a = op_attr_int(c, "axis", -1);
    if (!ir_norm_axis(a, x->rank, &axis))
        return op_err(c, "axis", "value %lld is out of range for rank %d", (long long)a, x->rank);
    if (kd.val >= 0 && x->dims[axis].val >= 0 && kd.val > x->dims[axis].val)
        return op_err(c, NULL, "k (%lld) is larger than the axis size (%lld)", (long long)kd.val,
                      (long long)x->dims[axis].val);
    struct ir_dim d[NNPERF_MAX_RANK];
    memcpy(d, x->dims, (size_t)x->rank * sizeof *d);
    enum nnperf_status st;
    if (kd.val < 0 && !kd.sym) {
        d[axis].val = -2; /* K is not known: the size along axis depends on it */
        st = op_data_dependent(c, 0, x->dtype, x->rank, d, "k");
        if (!st) st = op_data_dependent(c, 1, DT_INT64, x->rank, d, "k");
        return st;
    }
    d[axis] = kd;
    st = op_set(c, 0, x->dtype, x->rank, d);
    return st ? st : op_set(c, 1, DT_INT64, x->rank, d);
}
