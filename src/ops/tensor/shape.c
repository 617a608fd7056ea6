/* shape.c - shape-manipulating tensor operators: Reshape, Squeeze, Unsqueeze, Flatten, Identity, Shape, Size,
 * Transpose, Expand, Tile, Cast and CastLike. Besides dims, each propagates the values of small tensors (integer,
 * possibly symbolic, and floating point), since exported graphs compute shapes at run time
 * (Shape -> Gather -> Unsqueeze -> Concat -> Reshape). Semantics: onnx/docs/Operators.md and Changelog.md. */
#include <math.h>
#include <string.h>

#include "../sequence/seq.h"
#include "tvals.h"

/* ---------- Cast, CastLike ---------- */

/* Cast-1..5 name the target type with a string (TensorProto.DataType names). */
static int dtype_from_name(const char *s)
{
    static const char *const names[] = {"UNDEFINED", "FLOAT",  "UINT8",     "INT8",       "UINT16",  "INT16",
                                        "INT32",     "INT64",  "STRING",    "BOOL",       "FLOAT16", "DOUBLE",
                                        "UINT32",    "UINT64", "COMPLEX64", "COMPLEX128", "BFLOAT16"};
    for (int i = 1; i < (int)(sizeof names / sizeof names[0]); i++)
        if (!strcmp(s, names[i])) return i;
    return -1;
}

/* Range of an integer dtype as int64 (uint64 is limited to the int64 range). */
static void int_range(int dt, int64_t *lo, int64_t *hi)
{
    switch (dt) {
    case DT_BOOL: *lo = 0, *hi = 1; break;
    case DT_UINT8: *lo = 0, *hi = 255; break;
    case DT_INT8: *lo = -128, *hi = 127; break;
    case DT_UINT16: *lo = 0, *hi = 65535; break;
    case DT_INT16: *lo = -32768, *hi = 32767; break;
    case DT_INT32: *lo = INT32_MIN, *hi = INT32_MAX; break;
    case DT_UINT32: *lo = 0, *hi = UINT32_MAX; break;
    case DT_UINT64: *lo = 0, *hi = INT64_MAX; break;
    default: *lo = INT64_MIN, *hi = INT64_MAX; break;
    }
}

/* Converts the values of input 0 to dtype 'to' for output 0 (integers stay symbolic where they can). */
static enum nnperf_status cast_values(struct op_ctx *c, int to)
{
    struct tvals t;
    if (!tv_get(c, 0, &t) || t.n > NNPERF_MAX_CONST_ELEMS) return NNPERF_OK;
    int64_t n = t.n;
    if (ir_dtype_is_int(to)) {
        int64_t lo, hi;
        int_range(to, &lo, &hi);
        struct ir_ival *v = ar_calloc(c->ar, (size_t)(n ? n : 1), sizeof *v);
        if (!v) return op_nomem(c);
        for (int64_t k = 0; k < n; k++) {
            struct ir_ival x = {0, NULL, 0};
            if (t.kind == 1) {
                x = t.iv[k];
                if (x.known && to == DT_BOOL)
                    x.v = x.v != 0;
                else if (x.known && (x.v < lo || x.v > hi))
                    x = (struct ir_ival){0, NULL, 0};
                else if (!x.known && hi < INT32_MAX)
                    x = (struct ir_ival){0, NULL, 0};
            } else {
                double f = t.fv[k];
                if (to == DT_BOOL)
                    x = ir_ival_known(f != 0.0);
                else if (isfinite(f) && trunc(f) >= (double)lo && trunc(f) <= (double)hi &&
                         fabs(f) < 9.0e18) /* ONNX Cast: float to int truncates toward zero */
                    x = ir_ival_known((int64_t)trunc(f));
            }
            v[k] = x;
        }
        if (!tv_informative(v, n)) return NNPERF_OK;
        return op_set_ivals(c, 0, v, n);
    }
    if (!ir_dtype_is_float(to)) return NNPERF_OK;
    double *f = ar_calloc(c->ar, (size_t)(n ? n : 1), sizeof *f);
    if (!f) return op_nomem(c);
    for (int64_t k = 0; k < n; k++) {
        if (t.kind == 1) {
            if (!t.iv[k].known) return NNPERF_OK;
            f[k] = (double)t.iv[k].v;
        } else
            f[k] = t.fv[k];
        if (to == DT_FLOAT) f[k] = (double)(float)f[k];
    }
    return op_set_fvals(c, 0, f, n);
}

static enum nnperf_status cast_to(struct op_ctx *c, int to)
{
    struct ir_value *x = op_in(c, 0);
    enum nnperf_status st = op_set_like(c, 0, x, to);
    if (st) return st;
    return cast_values(c, to);
}

enum nnperf_status infer_cast(struct op_ctx *c)
{
    const struct ir_attr *a = op_attr(c, "to");
    if (!a) return op_err(c, "to", "is missing");
    int to;
    if (a->type == AT_STRING) {
        to = dtype_from_name(a->s ? a->s : "");
        if (to < 0) return op_err(c, "to", "names an unknown type '%s'", a->s ? a->s : "");
    } else {
        if (a->i <= 0 || a->i >= DT_COUNT)
            return op_err(c, "to", "is %lld, not a tensor element type", (long long)a->i);
        to = (int)a->i;
    }
    return cast_to(c, to);
}

enum nnperf_status infer_cast_like(struct op_ctx *c)
{
    struct ir_value *t = op_in(c, 1);
    return cast_to(c, t ? t->dtype : DT_UNDEFINED);
}

/* ---------- Identity ---------- */

enum nnperf_status infer_identity(struct op_ctx *c)
{
    struct ir_value *x = op_in(c, 0);
    enum nnperf_status st = op_set_like(c, 0, x, x ? x->dtype : DT_UNDEFINED);
    if (st || !x) return st;
    /* Identity-14/16 also passes sequences and optionals through */
    if (x->type_kind == TK_SEQUENCE || x->type_kind == TK_OPTIONAL) {
        seq_pass(c, 0, x); /* the kind, and a sequence's elements */
        return NNPERF_OK;
    }
    struct tvals t;
    if (tv_get(c, 0, &t)) return tv_take(c, 0, &t, NULL, t.n);
    return NNPERF_OK;
}

/* ---------- Reshape ---------- */

#define MAXF 64

struct factors {
    int64_t konst; /* product of the concrete factors */
    const char *sym[MAXF];
    int n;
    int unknown; /* an unknown factor, or too many */
};

static struct ir_dim factor_div(struct arena *ar, struct factors *num, struct factors *den, int *bad);
static void add_sym_factors(struct arena *ar, struct factors *f, const char *s, size_t len);

static void add_atom(struct arena *ar, struct factors *f, const char *s, size_t len)
{
    if (f->n == MAXF) {
        f->unknown = 1;
        return;
    }
    const char *a = ar_strndup(ar, s, len);
    if (!a)
        f->unknown = 1;
    else
        f->sym[f->n++] = a;
}

/* "A/B" whose divisor cancels exactly against the dividend's factors adds the quotient's factors (floor division
 * is then exact); anything else is one atom. */
static void add_quotient(struct arena *ar, struct factors *f, const char *s, size_t len, size_t slash)
{
    struct factors num = {1, {0}, 0, 0}, den = {1, {0}, 0, 0};
    add_sym_factors(ar, &num, s, slash);
    add_sym_factors(ar, &den, s + slash + 1, len - slash - 1);
    int bad;
    struct ir_dim q = factor_div(ar, &num, &den, &bad);
    if (q.val >= 0 || q.sym) {
        if (q.val >= 0) {
            if (!ck_mul_i64(f->konst, q.val, &f->konst)) f->unknown = 1;
            return;
        }
        /* q is a plain product: its factors again (no recursion into '/' since it has none left) */
        if (!strchr(q.sym, '/')) {
            add_sym_factors(ar, f, q.sym, strlen(q.sym));
            return;
        }
    }
    add_atom(ar, f, s, len);
}

/* Adds the factors of a symbolic dim: "a*b" and "(a*b)*c" split into atoms, exact quotients cancel; anything else
 * (sums, differences, inexact quotients) is one atom. */
static void add_sym_factors(struct arena *ar, struct factors *f, const char *s, size_t len)
{
    while (len >= 2 && s[0] == '(' && s[len - 1] == ')') {
        int depth = 0, wraps = 1;
        for (size_t i = 0; i < len; i++) {
            depth += s[i] == '(' ? 1 : s[i] == ')' ? -1 : 0;
            if (depth == 0 && i < len - 1) wraps = 0;
        }
        if (!wraps) break;
        s++, len -= 2;
    }
    int depth = 0, other = 0, star = 0, slashes = 0;
    size_t slash = 0;
    for (size_t i = 0; i < len; i++) {
        if (s[i] == '(')
            depth++;
        else if (s[i] == ')')
            depth--;
        else if (!depth && s[i] == '*')
            star = 1;
        else if (!depth && s[i] == '/')
            slashes++, slash = i;
        else if (!depth && (s[i] == '+' || s[i] == '-'))
            other = 1;
    }
    if (star && !other && !slashes) {
        size_t start = 0;
        depth = 0;
        for (size_t i = 0; i <= len; i++) {
            if (i < len && s[i] == '(')
                depth++;
            else if (i < len && s[i] == ')')
                depth--;
            else if (i == len || (!depth && s[i] == '*')) {
                add_sym_factors(ar, f, s + start, i - start);
                start = i + 1;
            }
        }
        return;
    }
    if (slashes == 1 && !star && !other) {
        add_quotient(ar, f, s, len, slash);
        return;
    }
    int digits = len > 0 && len < 16;
    for (size_t i = 0; i < len && digits; i++)
        if (s[i] < '0' || s[i] > '9') digits = 0;
    if (digits) {
        int64_t v = 0;
        for (size_t i = 0; i < len; i++) v = v * 10 + (s[i] - '0');
        if (!ck_mul_i64(f->konst, v, &f->konst)) f->unknown = 1;
        return;
    }
    add_atom(ar, f, s, len);
}

static void add_factor(struct arena *ar, struct factors *f, struct ir_dim d)
{
    if (d.val >= 0) {
        if (!ck_mul_i64(f->konst, d.val, &f->konst)) f->unknown = 1;
    } else if (d.sym)
        add_sym_factors(ar, f, d.sym, strlen(d.sym));
    else
        f->unknown = 1;
}

/* num / den with symbols cancelled; unknown when it does not simplify to a product. *bad = 1 when both are
 * concrete and den does not divide num. */
static struct ir_dim factor_div(struct arena *ar, struct factors *num, struct factors *den, int *bad)
{
    *bad = 0;
    if (num->unknown || den->unknown) return IR_DIM_UNKNOWN;
    for (int i = 0; i < den->n; i++) {
        int hit = -1;
        for (int j = 0; j < num->n && hit < 0; j++)
            if (num->sym[j] && !strcmp(num->sym[j], den->sym[i])) hit = j;
        if (hit < 0) return IR_DIM_UNKNOWN;
        num->sym[hit] = NULL;
    }
    if (den->konst == 0) return IR_DIM_UNKNOWN;
    int nsym = 0;
    for (int j = 0; j < num->n; j++) nsym += num->sym[j] != NULL;
    if (num->konst % den->konst) {
        if (!nsym) *bad = 1;
        return IR_DIM_UNKNOWN;
    }
    /* symbols first, then the constant: "batch*seq*12" */
    struct ir_dim r = ir_dim_known(1);
    for (int j = 0; j < num->n; j++)
        if (num->sym[j]) r = ir_dim_mul(ar, r, (struct ir_dim){-1, num->sym[j]});
    return ir_dim_mul(ar, r, ir_dim_known(num->konst / den->konst));
}

/* A symbolic dim with exact quotients simplified ("(N*64)/64" is N); others unchanged. */
static struct ir_dim simplify_dim(struct arena *ar, struct ir_dim d)
{
    if (d.val >= 0 || !d.sym || !strchr(d.sym, '/')) return d;
    struct factors num = {1, {0}, 0, 0}, den = {1, {0}, 0, 0};
    int bad;
    add_factor(ar, &num, d);
    struct ir_dim r = factor_div(ar, &num, &den, &bad);
    return r.val >= 0 || r.sym ? r : d;
}

enum nnperf_status infer_reshape(struct op_ctx *c)
{
    struct ir_value *x = op_in(c, 0);
    int dt = x ? x->dtype : DT_UNDEFINED;
    struct ir_ival sv[NNPERF_MAX_RANK + 1];
    int64_t n;
    if (c->n->opset < 5) {
        /* Reshape-1: the target shape is the 'shape' attribute */
        const int64_t *a;
        n = op_attr_ints(c, "shape", &a);
        if (n > NNPERF_MAX_RANK)
            return op_err(c, "shape", "has %lld values, over the rank limit", (long long)n);
        for (int64_t k = 0; k < n; k++) sv[k] = ir_ival_known(a[k]);
    } else {
        const struct ir_ival *iv;
        enum nnperf_status st = op_check_input_dtype(c, 1, "shape", DT_INT64);
        if (st) return st;
        n = op_ivals(c, 1, &iv);
        if (n < 0) {
            /* values unknown: the rank is the length of the shape tensor when that is known */
            struct ir_value *s = op_in(c, 1);
            if (s && s->rank == 1 && s->dims[0].val >= 0 && s->dims[0].val <= NNPERF_MAX_RANK)
                return op_set(c, 0, dt, (int)s->dims[0].val, NULL);
            return op_set(c, 0, dt, -1, NULL);
        }
        if (n > NNPERF_MAX_RANK) return op_set(c, 0, dt, (int)n, NULL); /* op_set reports the limit */
        memcpy(sv, iv, (size_t)n * sizeof *sv);
    }
    int allowzero = c->n->opset >= 14 ? (int)op_attr_int(c, "allowzero", 0) : 0;
    int rank = (int)n, infer_at = -1, has_zero = 0;
    struct ir_dim d[NNPERF_MAX_RANK];
    for (int k = 0; k < rank; k++) {
        struct ir_ival v = sv[k];
        d[k] = IR_DIM_UNKNOWN;
        if (!v.known) {
            d[k] = simplify_dim(c->ar, ir_dim_from_ival(v));
            continue;
        }
        if (v.v == -1) {
            if (infer_at >= 0) return op_err(c, "shape", "has more than one -1");
            infer_at = k;
        } else if (v.v < -1) {
            return op_err(c, "shape", "has the invalid value %lld", (long long)v.v);
        } else if (v.v == 0 && !allowzero) {
            /* ONNX Reshape: 0 copies the input dim at the same index */
            if (x && x->rank >= 0) {
                if (k >= x->rank)
                    return op_err(c, "shape", "has 0 at index %d, beyond the input rank %d", k, x->rank);
                d[k] = x->dims[k];
            }
        } else {
            if (v.v == 0) has_zero = 1;
            d[k] = ir_dim_known(v.v);
        }
    }
    if (allowzero && has_zero && infer_at >= 0)
        return op_err(c, "shape", "has both 0 and -1 while allowzero is set");
    /* concrete values whose product overflows int64 give more elements than any tensor has; the element count check
     * below cannot see it (an overflowing product of factors is unknown) */
    int64_t prod = 1;
    int over = 0, zero = 0;
    for (int k = 0; k < rank; k++) {
        if (k == infer_at || d[k].val < 0) continue;
        if (d[k].val == 0)
            zero = 1;
        else if (!ck_mul_i64(prod, d[k].val, &prod))
            over = 1;
    }
    if (over && !zero) {
        if (c->n->opset < 5) return op_err(c, "shape", "has values whose product overflows int64");
        return op_err(c, NULL, "input 'shape' has values whose product overflows int64");
    }
    if (x && x->rank >= 0) {
        struct factors num = {1, {0}, 0, 0}, den = {1, {0}, 0, 0};
        for (int k = 0; k < x->rank; k++) add_factor(c->ar, &num, x->dims[k]);
        for (int k = 0; k < rank; k++)
            if (k != infer_at) add_factor(c->ar, &den, d[k]);
        if (infer_at >= 0) {
            int bad;
            d[infer_at] = factor_div(c->ar, &num, &den, &bad);
            if (bad)
                return op_err(c, "shape", "cannot be inferred: %lld elements are not a multiple of %lld",
                              (long long)num.konst, (long long)den.konst);
        } else if (!num.unknown && !den.unknown && !num.n && !den.n && num.konst != den.konst) {
            return op_err(c, "shape", "gives %lld elements, the input has %lld", (long long)den.konst,
                          (long long)num.konst);
        }
    }
    enum nnperf_status st = op_set(c, 0, dt, rank, d);
    if (st) return st;
    struct tvals t;
    if (tv_get(c, 0, &t)) return tv_take(c, 0, &t, NULL, t.n);
    return NNPERF_OK;
}

/* ---------- Shape, Size ---------- */

enum nnperf_status infer_shape(struct op_ctx *c)
{
    struct ir_value *x = op_in(c, 0);
    if (!x || x->rank < 0) {
        struct ir_dim one = IR_DIM_UNKNOWN;
        return op_set(c, 0, DT_INT64, 1, &one);
    }
    int64_t r = x->rank, start = 0, end = r;
    if (c->n->opset >= 15) {
        /* Shape-15: start/end slice the shape; negative counts from the back; clamped to [0, rank] */
        start = op_attr_int(c, "start", 0);
        end = op_attr_int(c, "end", r);
        if (start < 0) start += r;
        if (end < 0) end += r;
        start = start < 0 ? 0 : start > r ? r : start;
        end = end < 0 ? 0 : end > r ? r : end;
        if (end < start) end = start;
    }
    struct ir_dim len = ir_dim_known(end - start);
    enum nnperf_status st = op_set(c, 0, DT_INT64, 1, &len);
    if (st) return st;
    struct ir_ival v[NNPERF_MAX_RANK];
    for (int64_t k = start; k < end; k++) v[k - start] = ir_ival_from_dim(x->dims[k]);
    if (!tv_informative(v, end - start)) return NNPERF_OK;
    return op_set_ivals(c, 0, v, end - start);
}

enum nnperf_status infer_size(struct op_ctx *c)
{
    struct ir_value *x = op_in(c, 0);
    enum nnperf_status st = op_set(c, 0, DT_INT64, 0, NULL);
    if (st || !x || x->rank < 0) return st;
    struct ir_dim p = ir_dim_known(1);
    for (int k = 0; k < x->rank; k++) p = ir_dim_mul(c->ar, p, x->dims[k]);
    struct ir_ival v = ir_ival_from_dim(p);
    if (!v.known && !v.sym) return NNPERF_OK;
    return op_set_ivals(c, 0, &v, 1);
}

/* ---------- Squeeze, Unsqueeze, Flatten ---------- */

static enum nnperf_status copy_values(struct op_ctx *c)
{
    struct tvals t;
    if (tv_get(c, 0, &t)) return tv_take(c, 0, &t, NULL, t.n);
    return NNPERF_OK;
}

enum nnperf_status infer_squeeze(struct op_ctx *c)
{
    struct ir_value *x = op_in(c, 0);
    int dt = x ? x->dtype : DT_UNDEFINED;
    int64_t axes[NNPERF_MAX_RANK + 1];
    /* Squeeze-13: axes moved from an attribute to an optional input */
    int64_t na = ints_arg(c, "axes", 1, 13, axes, NNPERF_MAX_RANK + 1);
    if (!x || x->rank < 0) return op_set(c, 0, dt, -1, NULL);
    int r = x->rank;
    struct ir_dim d[NNPERF_MAX_RANK];
    int drop[NNPERF_MAX_RANK] = {0}, nr = 0;
    if (na == -1) {
        struct ir_value *a = op_in(c, 1);
        if (c->n->opset >= 13 && a && a->rank == 1 && a->dims[0].val >= 0 && a->dims[0].val <= r)
            return op_set(c, 0, dt, r - (int)a->dims[0].val, NULL);
        return op_set(c, 0, dt, -1, NULL);
    }
    if (na == -2 || na == 0) {
        /* no axes: every dim of size 1 goes; a dim that is not concrete might be 1 */
        for (int k = 0; k < r; k++) {
            if (x->dims[k].val < 0) return op_set(c, 0, dt, -1, NULL);
            drop[k] = x->dims[k].val == 1;
        }
    } else {
        if (na > r) return op_err(c, "axes", "has %lld values for rank %d", (long long)na, r);
        for (int64_t i = 0; i < na; i++) {
            int ax;
            if (!ir_norm_axis(axes[i], r, &ax))
                return op_err(c, "axes", "value %lld is out of range for rank %d", (long long)axes[i], r);
            if (drop[ax]) return op_err(c, "axes", "repeats axis %d", ax);
            if (x->dims[ax].val >= 0 && x->dims[ax].val != 1)
                return op_err(c, "axes", "selects axis %d of size %lld, not 1", ax,
                              (long long)x->dims[ax].val);
            drop[ax] = 1;
        }
    }
    for (int k = 0; k < r; k++)
        if (!drop[k]) d[nr++] = x->dims[k];
    enum nnperf_status st = op_set(c, 0, dt, nr, d);
    return st ? st : copy_values(c);
}

enum nnperf_status infer_unsqueeze(struct op_ctx *c)
{
    struct ir_value *x = op_in(c, 0);
    int dt = x ? x->dtype : DT_UNDEFINED;
    int64_t axes[NNPERF_MAX_RANK + 1];
    /* Unsqueeze-13: axes moved from an attribute to a required input */
    int64_t na = ints_arg(c, "axes", 1, 13, axes, NNPERF_MAX_RANK + 1);
    if (na == -2) return op_err(c, "axes", "is missing");
    if (na < 0 || !x || x->rank < 0) {
        struct ir_value *a = op_in(c, 1);
        if (x && x->rank >= 0 && c->n->opset >= 13 && a && a->rank == 1 && a->dims[0].val >= 0)
            return op_set(
                c, 0, dt,
                x->rank + (int)(a->dims[0].val > NNPERF_MAX_RANK ? NNPERF_MAX_RANK : a->dims[0].val), NULL);
        if (x && x->rank >= 0 && na >= 0) return op_set(c, 0, dt, x->rank + (int)na, NULL);
        return op_set(c, 0, dt, -1, NULL);
    }
    int r = x->rank + (int)na;
    if (r > NNPERF_MAX_RANK) return op_set(c, 0, dt, r, NULL);
    int ins[NNPERF_MAX_RANK] = {0};
    for (int64_t i = 0; i < na; i++) {
        int ax;
        /* axes index the output: [-r, r-1] with r = rank(input) + len(axes) */
        if (!ir_norm_axis(axes[i], r, &ax))
            return op_err(c, "axes", "value %lld is out of range for output rank %d", (long long)axes[i], r);
        if (ins[ax]) return op_err(c, "axes", "repeats axis %d", ax);
        ins[ax] = 1;
    }
    struct ir_dim d[NNPERF_MAX_RANK];
    for (int k = 0, j = 0; k < r; k++) d[k] = ins[k] ? ir_dim_known(1) : x->dims[j++];
    enum nnperf_status st = op_set(c, 0, dt, r, d);
    return st ? st : copy_values(c);
}

enum nnperf_status infer_flatten(struct op_ctx *c)
{
    struct ir_value *x = op_in(c, 0);
    int dt = x ? x->dtype : DT_UNDEFINED;
    if (!x || x->rank < 0) return op_set(c, 0, dt, 2, NULL);
    int r = x->rank;
    int64_t axis = op_attr_int(c, "axis", 1);
    /* Flatten: axis in [-r, r]; output (d0*...*d(axis-1), d(axis)*...*d(r-1)) */
    if (axis < -r || axis > r)
        return op_err(c, "axis", "is %lld, out of range for rank %d", (long long)axis, r);
    if (axis < 0) axis += r;
    struct ir_dim d[2] = {ir_dim_known(1), ir_dim_known(1)};
    for (int k = 0; k < r; k++) d[k >= axis] = ir_dim_mul(c->ar, d[k >= axis], x->dims[k]);
    enum nnperf_status st = op_set(c, 0, dt, 2, d);
    return st ? st : copy_values(c);
}

/* ---------- Transpose ---------- */

enum nnperf_status infer_transpose(struct op_ctx *c)
{
    struct ir_value *x = op_in(c, 0);
    int dt = x ? x->dtype : DT_UNDEFINED;
    const int64_t *perm;
    int64_t np = op_attr_ints(c, "perm", &perm);
    if (!x || x->rank < 0) return op_set(c, 0, dt, np > 0 && np <= NNPERF_MAX_RANK ? (int)np : -1, NULL);
    int r = x->rank;
    int p[NNPERF_MAX_RANK], seen[NNPERF_MAX_RANK] = {0};
    if (np && np != r) return op_err(c, "perm", "has %lld values for rank %d", (long long)np, r);
    for (int k = 0; k < r; k++) {
        /* Transpose: perm defaults to reversing the axes */
        int64_t a = np ? perm[k] : r - 1 - k;
        int ax;
        if (!ir_norm_axis(a, r, &ax)) return op_err(c, "perm", "value %lld is out of range", (long long)a);
        if (seen[ax]) return op_err(c, "perm", "is not a permutation (repeats %d)", ax);
        seen[ax] = 1;
        p[k] = ax;
    }
    struct ir_dim d[NNPERF_MAX_RANK];
    for (int k = 0; k < r; k++) d[k] = x->dims[p[k]];
    enum nnperf_status st = op_set(c, 0, dt, r, d);
    if (st) return st;
    struct tvals t;
    int64_t ist[NNPERF_MAX_RANK], od[NNPERF_MAX_RANK], n;
    if (!tv_get(c, 0, &t) || !tv_strides(x->dims, r, ist) || !ir_dims_numel(d, r, &n) ||
        n > NNPERF_MAX_CONST_ELEMS || n != t.n)
        return NNPERF_OK;
    int64_t *idx = ar_calloc(c->ar, (size_t)(n ? n : 1), sizeof *idx), cnt[NNPERF_MAX_RANK] = {0};
    if (!idx) return op_nomem(c);
    for (int k = 0; k < r; k++) od[k] = d[k].val;
    for (int64_t e = 0; e < n; e++) {
        int64_t off = 0;
        for (int k = 0; k < r; k++) off += cnt[k] * ist[p[k]];
        idx[e] = off;
        for (int k = r - 1; k >= 0; k--) {
            if (++cnt[k] < od[k]) break;
            cnt[k] = 0;
        }
    }
    return tv_take(c, 0, &t, idx, n);
}

/* ---------- Expand, Tile ---------- */

/* Output values by broadcasting (Expand) or tiling (Tile) input 0 of concrete dims into concrete dims d. */
static enum nnperf_status repeat_values(struct op_ctx *c, const struct ir_value *x, const struct ir_dim *d,
                                        int r, int tile)
{
    struct tvals t;
    int64_t ist[NNPERF_MAX_RANK], in[NNPERF_MAX_RANK], n, cnt[NNPERF_MAX_RANK] = {0};
    if (x->rank > r || !tv_get(c, 0, &t) || !tv_strides(x->dims, x->rank, ist) || !tv_concrete(x, in) ||
        !ir_dims_numel(d, r, &n) || n > NNPERF_MAX_CONST_ELEMS)
        return NNPERF_OK;
    int off = r - x->rank;
    int64_t *idx = ar_calloc(c->ar, (size_t)(n ? n : 1), sizeof *idx);
    if (!idx) return op_nomem(c);
    for (int64_t e = 0; e < n; e++) {
        int64_t o = 0;
        for (int k = off; k < r; k++) {
            int64_t dk = in[k - off];
            int64_t i = tile ? (dk ? cnt[k] % dk : 0) : (dk == 1 ? 0 : cnt[k]);
            o += i * ist[k - off];
        }
        idx[e] = o;
        for (int k = r - 1; k >= 0; k--) {
            if (++cnt[k] < d[k].val) break;
            cnt[k] = 0;
        }
    }
    return tv_take(c, 0, &t, idx, n);
}

enum nnperf_status infer_expand(struct op_ctx *c)
{
    struct ir_value *x = op_in(c, 0), *s = op_in(c, 1);
    int dt = x ? x->dtype : DT_UNDEFINED;
    const struct ir_ival *iv;
    enum nnperf_status st = op_check_input_dtype(c, 1, "shape", DT_INT64);
    if (st) return st;
    int64_t n = op_ivals(c, 1, &iv);
    struct ir_dim sd[NNPERF_MAX_RANK];
    int sr;
    if (n >= 0) {
        if (n > NNPERF_MAX_RANK) return op_set(c, 0, dt, (int)n, NULL);
        sr = (int)n;
        for (int k = 0; k < sr; k++) {
            if (iv[k].known && iv[k].v < 0 && iv[k].v != -1)
                return op_err(c, "shape", "has the negative value %lld", (long long)iv[k].v);
            sd[k] = ir_dim_from_ival(iv[k]);
        }
    } else if (s && s->rank == 1 && s->dims[0].val >= 0 && s->dims[0].val <= NNPERF_MAX_RANK) {
        sr = (int)s->dims[0].val;
        for (int k = 0; k < sr; k++) sd[k] = IR_DIM_UNKNOWN;
    } else {
        return op_set(c, 0, dt, -1, NULL);
    }
    if (!x || x->rank < 0) return op_set(c, 0, dt, -1, NULL);
    /* Expand: numpy broadcasting of the input shape with the given shape */
    struct ir_value sv;
    memset(&sv, 0, sizeof sv);
    sv.rank = sr;
    sv.dims = sd;
    sv.type_kind = TK_TENSOR;
    const struct ir_value *vals[2] = {x, &sv};
    int rank, bad = -1;
    struct ir_dim *d;
    if (!ir_broadcast(c->ar, vals, 2, &rank, &d, &bad))
        return op_err(c, "shape", "cannot be broadcast with the input (axis %d)", bad);
    if (!d) return op_nomem(c);
    /* ir_broadcast keeps a symbol against an unknown dim; with an unknown target the result is unknown */
    for (int k = 0; k < rank; k++) {
        int xs = k - (rank - x->rank), ss = k - (rank - sr);
        struct ir_dim a = xs >= 0 ? x->dims[xs] : ir_dim_known(1), b = ss >= 0 ? sd[ss] : ir_dim_known(1);
        if (a.val < 0 && b.val < 0 && !(a.sym && b.sym && !strcmp(a.sym, b.sym))) {
            if (b.val == -1 && !b.sym)
                d[k] = IR_DIM_UNKNOWN;
            else if (a.val == -1 && !a.sym)
                d[k] = IR_DIM_UNKNOWN;
        }
    }
    st = op_set(c, 0, dt, rank, d);
    return st ? st : repeat_values(c, x, d, rank, 0);
}

enum nnperf_status infer_tile(struct op_ctx *c)
{
    struct ir_value *x = op_in(c, 0);
    int dt = x ? x->dtype : DT_UNDEFINED;
    if (!x || x->rank < 0) return op_set(c, 0, dt, -1, NULL);
    int r = x->rank;
    struct ir_dim d[NNPERF_MAX_RANK];
    memcpy(d, x->dims, (size_t)r * sizeof *d);
    if (c->n->opset < 6) {
        /* Tile-1: inputs 'tiles' (scalar count) and 'axis' (scalar) */
        int64_t tiles, axis;
        int ax;
        if (op_ivals_concrete(c, 1, &tiles, 1) != 1 || op_ivals_concrete(c, 2, &axis, 1) != 1)
            return op_set(c, 0, dt, r, NULL);
        if (!ir_norm_axis(axis, r, &ax)) return op_err(c, "axis", "is out of range for rank %d", r);
        if (tiles < 0) return op_err(c, "tiles", "is negative");
        d[ax] = ir_dim_mul(c->ar, d[ax], ir_dim_known(tiles));
        return op_set(c, 0, dt, r, d);
    }
    const struct ir_ival *rep;
    enum nnperf_status st = op_check_input_dtype(c, 1, "repeats", DT_INT64);
    if (st) return st;
    int64_t n = op_ivals(c, 1, &rep);
    if (n < 0) return op_set(c, 0, dt, r, NULL);
    if (n != r) return op_err(c, "repeats", "has %lld values for rank %d", (long long)n, r);
    for (int k = 0; k < r; k++) {
        if (rep[k].known && rep[k].v < 0)
            return op_err(c, "repeats", "has the negative value %lld", (long long)rep[k].v);
        /* Tile: output dim i = input dim i * repeats[i] */
        d[k] = ir_dim_mul(c->ar, d[k], ir_dim_from_ival(rep[k]));
    }
    st = op_set(c, 0, dt, r, d);
    return st ? st : repeat_values(c, x, d, r, 1);
}
