/* slice.c - tensor operators that cut and join along axes: Concat, Split, Slice and Pad, with value propagation
 * of small tensors for Concat, Split and Slice (shape computations of exported graphs).
 * Semantics: onnx/docs/Operators.md and Changelog.md for every opset version. */
#include <string.h>

#include "tvals.h"

/* ---------- Concat ---------- */

enum nnperf_status infer_concat(struct op_ctx *c)
{
    int ni = op_n_in(c), r = -1, dt = DT_UNDEFINED;
    for (int i = 0; i < ni; i++) {
        struct ir_value *v = op_in(c, i);
        if (!v) continue;
        if (dt == DT_UNDEFINED) dt = v->dtype;
        if (r < 0 && v->rank >= 0) r = v->rank;
    }
    if (r < 0) return op_set(c, 0, dt, -1, NULL);
    const struct ir_attr *aa = op_attr_typed(c, "axis", AT_INT);
    /* Concat-1: axis defaults to 1; from Concat-4 it is required */
    if (!aa && c->n->opset >= 4) return op_err(c, "axis", "is missing");
    int64_t axis = aa ? aa->i : 1;
    int ax;
    if (!ir_norm_axis(axis, r, &ax))
        return op_err(c, "axis", "is %lld, out of range for rank %d", (long long)axis, r);
    struct ir_dim d[NNPERF_MAX_RANK];
    int first = 1, all_known = 1;
    for (int i = 0; i < ni; i++) {
        struct ir_value *v = op_in(c, i);
        if (!v) continue;
        if (v->rank < 0) {
            all_known = 0;
            continue;
        }
        if (v->rank != r) return op_err(c, NULL, "input %d has rank %d, expected %d", i, v->rank, r);
        for (int k = 0; k < r; k++) {
            if (first)
                d[k] = v->dims[k];
            else if (k == ax)
                d[k] = ir_dim_add(c->ar, d[k], v->dims[k]);
            else if (!tv_merge_dim(d[k], v->dims[k], &d[k]))
                return op_err(c, NULL, "input %d has dim %lld on axis %d, expected %lld", i,
                              (long long)v->dims[k].val, k, (long long)d[k].val);
        }
        first = 0;
    }
    if (!all_known) d[ax] = IR_DIM_UNKNOWN;
    enum nnperf_status st = op_set(c, 0, dt, r, d);
    if (st || !all_known) return st;
    /* values: every input's values (integer inputs without values read as unknown elements) */
    int64_t n, outer = 1, inner = 1;
    if (!ir_dims_numel(d, r, &n) || n > NNPERF_MAX_CONST_ELEMS) return NNPERF_OK;
    for (int k = 0; k < ax; k++) outer *= d[k].val;
    for (int k = ax + 1; k < r; k++) inner *= d[k].val;
    struct tvals t[64];
    int kind = 0, nt = 0;
    for (int i = 0; i < ni && nt < 64; i++) {
        if (!op_in(c, i)) continue;
        if (!tv_get_partial(c, i, &t[nt])) return NNPERF_OK;
        if (kind && t[nt].kind != kind) return NNPERF_OK;
        kind = t[nt].kind;
        nt++;
    }
    if (nt != ni && nt == 64) return NNPERF_OK;
    struct tvals all = {kind, 0, NULL, NULL};
    /* the joined values in a buffer of the call's own (tv_take copies them) */
    struct ir_ival *iv = kind == 1 ? malloc((size_t)(n ? n : 1) * sizeof *iv) : NULL;
    double *fv = kind == 2 ? malloc((size_t)(n ? n : 1) * sizeof *fv) : NULL;
    if (!iv && !fv) return kind ? op_nomem(c) : NNPERF_OK;
    int64_t e = 0; /* (st is NNPERF_OK here) */
    for (int64_t o = 0; o < outer && e >= 0; o++)
        for (int j = 0, i = 0; i < ni && e >= 0; i++) {
            struct ir_value *v = op_in(c, i);
            if (!v) continue;
            int64_t blk = v->dims[ax].val * inner;
            if (t[j].n != outer * blk || e + blk > n) {
                e = -1; /* not propagated */
                break;
            }
            for (int64_t q = 0; q < blk; q++, e++) {
                if (iv)
                    iv[e] = t[j].iv[o * blk + q];
                else
                    fv[e] = t[j].fv[o * blk + q];
            }
            j++;
        }
    all.n = n;
    all.iv = iv;
    all.fv = fv;
    if (e >= 0) st = tv_take(c, 0, &all, NULL, n);
    free(iv);
    free(fv);
    return st;
}

/* ---------- Split ---------- */

/* Output values of one part: [off, off+len) along axis ax of input 0 with concrete dims. */
static enum nnperf_status split_values(struct op_ctx *c, int o, const struct ir_value *x, int ax, int64_t off,
                                       int64_t len)
{
    struct tvals t;
    int64_t outer = 1, inner = 1, n;
    for (int k = 0; k < x->rank; k++) {
        if (x->dims[k].val < 0) return NNPERF_OK;
        if (k < ax) outer *= x->dims[k].val;
        if (k > ax) inner *= x->dims[k].val;
    }
    if (!ck_mul_i64(outer * inner, len, &n) || n > NNPERF_MAX_CONST_ELEMS || !tv_get(c, 0, &t))
        return NNPERF_OK;
    int64_t *idx = ar_calloc(c->ar, (size_t)(n ? n : 1), sizeof *idx), e = 0, D = x->dims[ax].val;
    if (!idx) return op_nomem(c);
    for (int64_t a = 0; a < outer; a++)
        for (int64_t b = 0; b < len; b++)
            for (int64_t q = 0; q < inner; q++) idx[e++] = (a * D + off + b) * inner + q;
    return tv_take(c, o, &t, idx, n);
}

enum nnperf_status infer_split(struct op_ctx *c)
{
    struct ir_value *x = op_in(c, 0);
    int dt = x ? x->dtype : DT_UNDEFINED, nout = c->n->n_out;
    enum nnperf_status st;
    if (!x || x->rank < 0) {
        for (int i = 0; i < nout; i++)
            if ((st = op_set(c, i, dt, -1, NULL))) return st;
        return NNPERF_OK;
    }
    int r = x->rank, ax;
    int64_t axis = op_attr_int(c, "axis", 0);
    if (!ir_norm_axis(axis, r, &ax))
        return op_err(c, "axis", "is %lld, out of range for rank %d", (long long)axis, r);
    if (nout < 1) return op_err(c, NULL, "has no outputs");
    struct ir_dim D = x->dims[ax];
    int64_t sp[256];
    /* Split-2..12: 'split' attribute; Split-1 also took it as an optional second input; Split-13: input 1 */
    int64_t ns = ints_arg(c, "split", 1, 13, sp, 256);
    if (ns == -2 && c->n->opset < 2 && op_in(c, 1)) ns = op_ivals_concrete(c, 1, sp, 256);
    struct ir_dim part[256];
    if (nout > 256) return op_err(c, NULL, "has %d outputs, over the limit of 256", nout);
    if (ns >= 0) {
        if (ns != nout) return op_err(c, "split", "has %lld values for %d outputs", (long long)ns, nout);
        int64_t sum = 0;
        for (int i = 0; i < nout; i++) {
            if (sp[i] < 0) return op_err(c, "split", "has the negative value %lld", (long long)sp[i]);
            if (!ck_add_i64(sum, sp[i], &sum)) return op_err(c, "split", "overflows");
            part[i] = ir_dim_known(sp[i]);
        }
        if (D.val >= 0 && sum != D.val)
            return op_err(c, "split", "sums to %lld, the axis has %lld", (long long)sum, (long long)D.val);
    } else if (ns == -1) {
        for (int i = 0; i < nout; i++) part[i] = IR_DIM_UNKNOWN;
    } else {
        int64_t parts = nout;
        const struct ir_attr *no = c->n->opset >= 18 ? op_attr_typed(c, "num_outputs", AT_INT) : NULL;
        if (no) {
            if (no->i != nout)
                return op_err(c, "num_outputs", "is %lld, the node has %d outputs", (long long)no->i, nout);
            /* Split-18: parts of ceil(dim / num_outputs), the last one smaller */
            if (D.val >= 0) {
                int64_t each = (D.val + parts - 1) / parts;
                int64_t left = D.val;
                for (int i = 0; i < nout; i++) {
                    int64_t s = left < each ? left : each;
                    part[i] = ir_dim_known(s);
                    left -= s;
                }
            } else {
                for (int i = 0; i < nout; i++) part[i] = nout == 1 ? D : IR_DIM_UNKNOWN;
            }
        } else {
            if (D.val >= 0 && D.val % parts)
                return op_err(c, NULL, "axis %d of size %lld cannot be split into %d equal parts", ax,
                              (long long)D.val, nout);
            for (int i = 0; i < nout; i++) part[i] = ir_dim_div(c->ar, D, ir_dim_known(parts));
        }
    }
    struct ir_dim d[NNPERF_MAX_RANK];
    memcpy(d, x->dims, (size_t)r * sizeof *d);
    int64_t off = 0;
    for (int i = 0; i < nout; i++) {
        d[ax] = part[i];
        if ((st = op_set(c, i, dt, r, d))) return st;
        if (off >= 0 && part[i].val >= 0) {
            if ((st = split_values(c, i, x, ax, off, part[i].val))) return st;
            off += part[i].val;
        } else
            off = -1;
    }
    return NNPERF_OK;
}

/* ---------- Slice ---------- */

#define BIG                                                                                                  \
    ((int64_t)2147483647) /* ends at or past INT32_MAX mean "to the end" (exporters use INT32/64_MAX) */

/* Length of a slice of a concrete dim (ONNX Slice-13 clamping rules). */
static int64_t slice_len(int64_t dim, int64_t s, int64_t e, int64_t step, int64_t *start_out)
{
    /* negative positions count from the end (no overflow: dim >= 0) */
    if (s < 0) s += dim;
    if (e < 0) e += dim;
    if (step > 0) {
        s = s < 0 ? 0 : s > dim ? dim : s;
        e = e < 0 ? 0 : e > dim ? dim : e;
        *start_out = s;
        return e > s ? (e - s - 1) / step + 1 : 0;
    }
    s = s < 0 ? 0 : s > dim - 1 ? dim - 1 : s;
    e = e < -1 ? -1 : e > dim - 1 ? dim - 1 : e;
    *start_out = s;
    if (step == INT64_MIN) return s > e ? 1 : 0; /* -step would overflow; one element at most */
    return s > e ? (s - e - 1) / (-step) + 1 : 0;
}

/* Length of a slice of a symbolic dim, where it does not depend on the dim's value (assuming the dim is at least
 * as large as the offsets taken from its end); unknown otherwise. */
static struct ir_dim slice_sym(struct op_ctx *c, struct ir_dim dim, struct ir_ival s, struct ir_ival e,
                               int64_t step)
{
    int e_is_dim = !e.known && e.sym && dim.sym && !strcmp(e.sym, dim.sym);
    if (!s.known || (!e.known && !e_is_dim)) return IR_DIM_UNKNOWN;
    if (step == -1) {
        /* full reverse: from the last element to before the first */
        if ((s.v >= BIG || s.v == -1) && e.v <= -BIG) return dim;
        return IR_DIM_UNKNOWN;
    }
    if (step != 1) return IR_DIM_UNKNOWN;
    /* positions as (from the front, f) or (from the back, b) */
    int s_back = 0, e_back = 0;
    int64_t sv = s.v, ev = e_is_dim ? 0 : e.v;
    if (sv <= -BIG)
        sv = 0;
    else if (sv < 0)
        s_back = 1, sv = -sv;
    if (e_is_dim || ev >= BIG)
        e_back = 1, ev = 0;
    else if (ev < 0)
        e_back = 1, ev = -ev;
    if (!s_back && e_back) {
        int64_t cut;
        if (!ck_add_i64(sv, ev, &cut)) return IR_DIM_UNKNOWN;
        return ir_dim_sub(c->ar, dim, ir_dim_known(cut));
    }
    if (s_back && e_back) return ir_dim_known(sv > ev ? sv - ev : 0);
    if (!s_back && !e_back && dim.val < 0 && sv >= ev) return ir_dim_known(0);
    return IR_DIM_UNKNOWN;
}

/* Starts/ends as values: attributes before Slice-10, inputs from it on. Returns the count or -1 when unknown. */
static int64_t slice_bounds(struct op_ctx *c, const char *attr, int in, struct ir_ival *out)
{
    if (c->n->opset < 10) {
        const int64_t *a;
        int64_t n = op_attr_ints(c, attr, &a);
        if (!op_attr(c, attr)) return -2;
        if (n > NNPERF_MAX_RANK) return -1;
        for (int64_t k = 0; k < n; k++) out[k] = ir_ival_known(a[k]);
        return n;
    }
    const struct ir_ival *iv;
    int64_t n = op_ivals(c, in, &iv);
    if (n < 0 || n > NNPERF_MAX_RANK) return -1;
    memcpy(out, iv, (size_t)n * sizeof *out);
    return n;
}

enum nnperf_status infer_slice(struct op_ctx *c)
{
    struct ir_value *x = op_in(c, 0);
    int dt = x ? x->dtype : DT_UNDEFINED;
    if (!x || x->rank < 0) return op_set(c, 0, dt, -1, NULL);
    int r = x->rank;
    struct ir_ival sv[NNPERF_MAX_RANK], ev[NNPERF_MAX_RANK];
    int64_t axes[NNPERF_MAX_RANK], steps[NNPERF_MAX_RANK];
    int64_t ns = slice_bounds(c, "starts", 1, sv), ne = slice_bounds(c, "ends", 2, ev);
    if (ns == -2 || ne == -2) return op_err(c, ns == -2 ? "starts" : "ends", "is missing");
    int64_t na = ints_arg(c, "axes", 3, 10, axes, NNPERF_MAX_RANK);
    int64_t nst = c->n->opset >= 10 && op_in(c, 4) ? op_ivals_concrete(c, 4, steps, NNPERF_MAX_RANK) : -2;
    struct ir_dim d[NNPERF_MAX_RANK];
    memcpy(d, x->dims, (size_t)r * sizeof *d);
    int64_t n = ns >= 0 ? ns : ne >= 0 ? ne : na >= 0 ? na : nst;
    if ((ns >= 0 && ne >= 0 && ns != ne) || (n >= 0 && na >= 0 && na != n) ||
        (n >= 0 && nst >= 0 && nst != n))
        return op_err(c, "starts", "starts, ends, axes and steps have different lengths");
    if (n > r) return op_err(c, "starts", "has %lld values for rank %d", (long long)n, r);
    if (na == -1 || (na == -2 && n < 0)) {
        /* which axes are sliced is not known */
        return op_set(c, 0, dt, r, NULL);
    }
    if (na == -2) {
        for (int64_t k = 0; k < n; k++) axes[k] = k;
        na = n;
    }
    int seen[NNPERF_MAX_RANK] = {0}, axk[NNPERF_MAX_RANK];
    int64_t start[NNPERF_MAX_RANK] = {0}, step_of[NNPERF_MAX_RANK];
    for (int k = 0; k < r; k++) step_of[k] = 1;
    for (int64_t k = 0; k < na && k < NNPERF_MAX_RANK; k++) {
        if (!ir_norm_axis(axes[k], r, &axk[k]))
            return op_err(c, "axes", "value %lld is out of range for rank %d", (long long)axes[k], r);
        if (seen[axk[k]]) return op_err(c, "axes", "repeats axis %d", axk[k]);
        seen[axk[k]] = 1;
    }
    for (int64_t k = 0; k < na; k++) {
        int ax = axk[k];
        int64_t step = nst >= 0 ? steps[k] : 1;
        if (nst >= 0 && step == 0) return op_err(c, "steps", "has a zero step");
        step_of[ax] = step;
        if (ns < 0 || ne < 0 || nst == -1) {
            d[ax] = IR_DIM_UNKNOWN;
            continue;
        }
        struct ir_dim D = x->dims[ax];
        if (D.val >= 0 && sv[k].known && ev[k].known) {
            d[ax] = ir_dim_known(slice_len(D.val, sv[k].v, ev[k].v, step, &start[ax]));
        } else {
            d[ax] = slice_sym(c, D, sv[k], ev[k], step);
        }
    }
    enum nnperf_status st = op_set(c, 0, dt, r, d);
    if (st) return st;
    /* values: pick elements with per-axis start and step */
    struct tvals t;
    int64_t ist[NNPERF_MAX_RANK], cnt[NNPERF_MAX_RANK] = {0}, total;
    if (!ir_dims_numel(d, r, &total) || total > NNPERF_MAX_CONST_ELEMS || !tv_strides(x->dims, r, ist) ||
        !tv_get(c, 0, &t))
        return NNPERF_OK;
    int64_t *idx = ar_calloc(c->ar, (size_t)(total ? total : 1), sizeof *idx);
    if (!idx) return op_nomem(c);
    for (int64_t e = 0; e < total; e++) {
        int64_t o = 0;
        for (int k = 0; k < r; k++) o += (start[k] + cnt[k] * step_of[k]) * ist[k];
        idx[e] = o;
        for (int k = r - 1; k >= 0; k--) {
            if (++cnt[k] < d[k].val) break;
            cnt[k] = 0;
        }
    }
    return tv_take(c, 0, &t, idx, total);
}

/* ---------- Pad ---------- */

enum nnperf_status infer_pad(struct op_ctx *c)
{
    struct ir_value *x = op_in(c, 0);
    int dt = x ? x->dtype : DT_UNDEFINED;
    const char *mode = op_attr_str(c, "mode", "constant");
    if (strcmp(mode, "constant") && strcmp(mode, "reflect") && strcmp(mode, "edge") &&
        !(c->n->opset >= 19 && !strcmp(mode, "wrap")))
        return op_err(c, "mode", "is '%s', expected constant, reflect or edge%s", mode,
                      c->n->opset >= 19 ? " or wrap" : "");
    if (!x || x->rank < 0) return op_set(c, 0, dt, -1, NULL);
    int r = x->rank;
    struct ir_ival pads[2 * NNPERF_MAX_RANK];
    int64_t np;
    if (c->n->opset < 11) {
        /* Pad-1: 'paddings'; Pad-2: 'pads' attribute */
        const char *an = c->n->opset < 2 ? "paddings" : "pads";
        const int64_t *a;
        np = op_attr_ints(c, an, &a);
        if (!op_attr(c, an)) return op_err(c, an, "is missing");
        if (np != 2 * r) return op_err(c, an, "has %lld values, expected %d", (long long)np, 2 * r);
        for (int64_t k = 0; k < np; k++) pads[k] = ir_ival_known(a[k]);
    } else {
        /* Pad-11: pads is input 1; Pad-18: optional axes input 3 */
        const struct ir_ival *iv;
        np = op_ivals(c, 1, &iv);
        if (np < 0 || np > 2 * NNPERF_MAX_RANK) return op_set(c, 0, dt, r, NULL);
        memcpy(pads, iv, (size_t)np * sizeof *pads);
    }
    int64_t axes[NNPERF_MAX_RANK];
    int64_t na = c->n->opset >= 18 && op_in(c, 3) ? op_ivals_concrete(c, 3, axes, NNPERF_MAX_RANK) : -2;
    if (na == -1) return op_set(c, 0, dt, r, NULL);
    if (na == -2) {
        na = r;
        for (int k = 0; k < r; k++) axes[k] = k;
    }
    if (np != 2 * na)
        return op_err(c, "pads", "has %lld values, expected %lld", (long long)np, (long long)(2 * na));
    struct ir_dim d[NNPERF_MAX_RANK];
    int seen[NNPERF_MAX_RANK] = {0};
    memcpy(d, x->dims, (size_t)r * sizeof *d);
    for (int64_t k = 0; k < na; k++) {
        int ax;
        if (!ir_norm_axis(axes[k], r, &ax))
            return op_err(c, "axes", "value %lld is out of range for rank %d", (long long)axes[k], r);
        if (seen[ax]) return op_err(c, "axes", "repeats axis %d", ax);
        seen[ax] = 1;
        struct ir_ival b = pads[k], e = pads[k + na];
        struct ir_dim D = x->dims[ax];
        if (!b.known || !e.known) {
            d[ax] = IR_DIM_UNKNOWN;
            continue;
        }
        /* ONNX Pad: out = in + pad_begin + pad_end (negative pads remove) */
        int64_t add;
        if (!ck_add_i64(b.v, e.v, &add)) return op_err(c, "pads", "overflows");
        if (D.val >= 0) {
            int64_t o;
            if (!ck_add_i64(D.val, add, &o)) return op_err(c, "pads", "overflows");
            if (o < 0) return op_err(c, "pads", "removes more than axis %d has (%lld)", ax, (long long)D.val);
            d[ax] = ir_dim_known(o);
        } else if (add >= 0)
            d[ax] = ir_dim_add(c->ar, D, ir_dim_known(add));
        else
            d[ax] = add == INT64_MIN ? IR_DIM_UNKNOWN : ir_dim_sub(c->ar, D, ir_dim_known(-add));
    }
    return op_set(c, 0, dt, r, d);
}
