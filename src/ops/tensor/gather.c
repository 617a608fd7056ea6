/* gather.c - indexing tensor operators: Gather (with value propagation, the Shape -> Gather step of exported
 * graphs), GatherElements, GatherND, Scatter/ScatterElements, ScatterND, ReverseSequence, CenterCropPad, and the
 * operators whose output size depends on data: Compress, NonZero and Unique (exact when the input values are
 * known, a named data-dependent dim otherwise). Semantics: onnx/docs/Operators.md and Changelog.md. */
#include <string.h>

#include "tvals.h"

/* ---------- Gather ---------- */

enum nnperf_status infer_gather(struct op_ctx *c)
{
    struct ir_value *x = op_in(c, 0), *ix = op_in(c, 1);
    int dt = x ? x->dtype : DT_UNDEFINED;
    if (!x || !ix || x->rank < 0 || ix->rank < 0) return op_set(c, 0, dt, -1, NULL);
    int r = x->rank, q = ix->rank, ax;
    int64_t axis = op_attr_int(c, "axis", 0);
    if (!ir_norm_axis(axis, r, &ax))
        return op_err(c, "axis", "is %lld, out of range for rank %d", (long long)axis, r);
    /* Gather: output shape = data[:axis] + indices.shape + data[axis+1:] */
    int orank = r - 1 + q;
    if (orank > NNPERF_MAX_RANK) return op_set(c, 0, dt, orank, NULL);
    struct ir_dim d[NNPERF_MAX_RANK];
    int k = 0;
    for (int i = 0; i < ax; i++) d[k++] = x->dims[i];
    for (int i = 0; i < q; i++) d[k++] = ix->dims[i];
    for (int i = ax + 1; i < r; i++) d[k++] = x->dims[i];
    enum nnperf_status st = op_set(c, 0, dt, orank, d);
    if (st) return st;
    /* values: data values and concrete indices (negative ones count from the end) */
    struct tvals t;
    int64_t n, nix, outer = 1, inner = 1, D = x->dims[ax].val;
    if (!ir_dims_numel(d, orank, &n) || n > NNPERF_MAX_CONST_ELEMS || D < 0 || !tv_get(c, 0, &t))
        return NNPERF_OK;
    int64_t *iv = ar_calloc(c->ar, (size_t)(n ? n : 1), sizeof *iv);
    int64_t *idx = ar_calloc(c->ar, (size_t)(n ? n : 1), sizeof *idx);
    if (!iv || !idx) return op_nomem(c);
    if (!ir_numel(ix, &nix) || nix > n || op_ivals_concrete(c, 1, iv, nix ? nix : 1) != nix) return NNPERF_OK;
    for (int i = 0; i < r; i++) {
        if (x->dims[i].val < 0) return NNPERF_OK;
        if (i < ax) outer *= x->dims[i].val;
        if (i > ax) inner *= x->dims[i].val;
    }
    for (int64_t j = 0; j < nix; j++) {
        if (iv[j] < -D || iv[j] >= D)
            return op_err(c, NULL, "index %lld is out of range for axis %d of size %lld", (long long)iv[j],
                          ax, (long long)D);
        if (iv[j] < 0) iv[j] += D;
    }
    int64_t e = 0;
    for (int64_t a = 0; a < outer; a++)
        for (int64_t j = 0; j < nix; j++)
            for (int64_t b = 0; b < inner; b++) idx[e++] = (a * D + iv[j]) * inner + b;
    return tv_take(c, 0, &t, idx, n);
}

/* ---------- GatherElements, GatherND ---------- */

enum nnperf_status infer_gather_elements(struct op_ctx *c)
{
    struct ir_value *x = op_in(c, 0), *ix = op_in(c, 1);
    int dt = x ? x->dtype : DT_UNDEFINED;
    if (x && ix && x->rank >= 0 && ix->rank >= 0) {
        int ax;
        int64_t axis = op_attr_int(c, "axis", 0);
        if (!ir_norm_axis(axis, x->rank, &ax))
            return op_err(c, "axis", "is %lld, out of range for rank %d", (long long)axis, x->rank);
        if (ix->rank != x->rank)
            return op_err(c, NULL, "indices have rank %d, data has rank %d (they must be equal)", ix->rank,
                          x->rank);
    }
    /* GatherElements: the output has the shape of indices */
    return op_set_like(c, 0, ix, dt);
}

enum nnperf_status infer_gather_nd(struct op_ctx *c)
{
    struct ir_value *x = op_in(c, 0), *ix = op_in(c, 1);
    int dt = x ? x->dtype : DT_UNDEFINED;
    int64_t b = c->n->opset >= 12 ? op_attr_int(c, "batch_dims", 0) : 0;
    if (!x || !ix || x->rank < 0 || ix->rank < 0) return op_set(c, 0, dt, -1, NULL);
    int r = x->rank, q = ix->rank;
    if (r < 1 || q < 1) return op_err(c, NULL, "data and indices must have rank >= 1");
    if (b < 0 || b >= (q < r ? q : r))
        return op_err(c, "batch_dims", "is %lld, must be less than both ranks (%d, %d)", (long long)b, r, q);
    struct ir_dim last = ix->dims[q - 1];
    if (last.val < 0) return op_set(c, 0, dt, -1, NULL);
    if (last.val < 1 || last.val > r - b)
        return op_err(c, NULL, "indices' last dim %lld is out of range 1..%lld", (long long)last.val,
                      (long long)(r - b));
    /* GatherND: output shape = indices.shape[:-1] + data.shape[batch_dims + indices.shape[-1]:] */
    int orank = q - 1 + r - (int)last.val - (int)b;
    struct ir_dim d[2 * NNPERF_MAX_RANK];
    int k = 0;
    for (int i = 0; i < q - 1; i++) {
        d[k] = ix->dims[i];
        if (i < b && !tv_merge_dim(ix->dims[i], x->dims[i], &d[k]))
            return op_err(c, "batch_dims", "batch dim %d differs between data and indices", i);
        k++;
    }
    for (int i = (int)(b + last.val); i < r; i++) d[k++] = x->dims[i];
    return op_set(c, 0, dt, orank, d);
}

/* ---------- Scatter, ScatterElements, ScatterND ---------- */

enum nnperf_status infer_scatter_elements(struct op_ctx *c)
{
    struct ir_value *x = op_in(c, 0), *ix = op_in(c, 1), *u = op_in(c, 2);
    int dt = x ? x->dtype : DT_UNDEFINED;
    if (x && x->rank >= 0) {
        int ax;
        int64_t axis = op_attr_int(c, "axis", 0);
        if (!ir_norm_axis(axis, x->rank, &ax))
            return op_err(c, "axis", "is %lld, out of range for rank %d", (long long)axis, x->rank);
        if (ix && ix->rank >= 0 && ix->rank != x->rank)
            return op_err(c, NULL, "indices have rank %d, data has rank %d (they must be equal)", ix->rank,
                          x->rank);
        if (u && u->rank >= 0 && u->rank != x->rank)
            return op_err(c, NULL, "updates have rank %d, data has rank %d (they must be equal)", u->rank,
                          x->rank);
    }
    /* Scatter/ScatterElements: the output has the shape of data */
    return op_set_like(c, 0, x, dt);
}

enum nnperf_status infer_scatter_nd(struct op_ctx *c)
{
    struct ir_value *x = op_in(c, 0), *ix = op_in(c, 1), *u = op_in(c, 2);
    int dt = x ? x->dtype : DT_UNDEFINED;
    if (x && ix && u && x->rank >= 0 && ix->rank >= 1 && u->rank >= 0 && ix->dims[ix->rank - 1].val >= 0) {
        /* ScatterND: updates.shape = indices.shape[:-1] + data.shape[indices.shape[-1]:] */
        int64_t last = ix->dims[ix->rank - 1].val;
        if (last > x->rank)
            return op_err(c, NULL, "indices' last dim %lld exceeds the data rank %d", (long long)last,
                          x->rank);
        int64_t want = ix->rank - 1 + x->rank - last;
        if (u->rank != want)
            return op_err(c, NULL, "updates have rank %d, expected %lld", u->rank, (long long)want);
    }
    return op_set_like(c, 0, x, dt);
}

/* ---------- ReverseSequence, CenterCropPad ---------- */

enum nnperf_status infer_reverse_sequence(struct op_ctx *c)
{
    struct ir_value *x = op_in(c, 0);
    int64_t ba = op_attr_int(c, "batch_axis", 1), ta = op_attr_int(c, "time_axis", 0);
    /* ReverseSequence-10: batch_axis and time_axis are 0 or 1 and differ */
    if ((ba != 0 && ba != 1) || (ta != 0 && ta != 1) || ba == ta)
        return op_err(c, "batch_axis", "and time_axis must be 0 and 1 (have %lld and %lld)", (long long)ba,
                      (long long)ta);
    if (x && x->rank >= 0 && x->rank < 2)
        return op_err(c, NULL, "input has rank %d, expected at least 2", x->rank);
    return op_set_like(c, 0, x, x ? x->dtype : DT_UNDEFINED);
}

enum nnperf_status infer_center_crop_pad(struct op_ctx *c)
{
    struct ir_value *x = op_in(c, 0);
    int dt = x ? x->dtype : DT_UNDEFINED;
    if (!x || x->rank < 0) return op_set(c, 0, dt, -1, NULL);
    int r = x->rank;
    const int64_t *axes;
    int64_t na = op_attr_ints(c, "axes", &axes);
    int all[NNPERF_MAX_RANK];
    int n = na ? (int)na : r;
    if (na > r) return op_err(c, "axes", "has %lld values for rank %d", (long long)na, r);
    int seen[NNPERF_MAX_RANK] = {0};
    for (int k = 0; k < n; k++) {
        if (!na)
            all[k] = k;
        else if (!ir_norm_axis(axes[k], r, &all[k]))
            return op_err(c, "axes", "value %lld is out of range for rank %d", (long long)axes[k], r);
        if (seen[all[k]]) return op_err(c, "axes", "repeats axis %d", all[k]);
        seen[all[k]] = 1;
    }
    struct ir_dim d[NNPERF_MAX_RANK];
    memcpy(d, x->dims, (size_t)r * sizeof *d);
    const struct ir_ival *sv;
    int64_t ns = op_ivals(c, 1, &sv);
    if (ns >= 0 && ns != n) return op_err(c, "shape", "has %lld values for %d axes", (long long)ns, n);
    /* CenterCropPad-18: each listed axis is cropped or padded to the given size */
    for (int k = 0; k < n; k++) {
        if (ns >= 0 && sv[k].known && sv[k].v < 0)
            return op_err(c, "shape", "has the negative value %lld", (long long)sv[k].v);
        d[all[k]] = ns >= 0 ? ir_dim_from_ival(sv[k]) : IR_DIM_UNKNOWN;
    }
    return op_set(c, 0, dt, r, d);
}

/* ---------- Compress, NonZero, Unique: sizes that depend on data ---------- */

enum nnperf_status infer_compress(struct op_ctx *c)
{
    struct ir_value *x = op_in(c, 0), *cond = op_in(c, 1);
    int dt = x ? x->dtype : DT_UNDEFINED;
    const struct ir_attr *aa = op_attr_typed(c, "axis", AT_INT);
    if (cond && cond->rank >= 0 && cond->rank != 1)
        return op_err(c, NULL, "condition has rank %d, expected 1", cond->rank);
    int ax = -1;
    if (aa) {
        if (!x || x->rank < 0) return op_set(c, 0, dt, -1, NULL);
        if (!ir_norm_axis(aa->i, x->rank, &ax))
            return op_err(c, "axis", "is %lld, out of range for rank %d", (long long)aa->i, x->rank);
    }
    /* Compress: the selected length is the number of true conditions (within the axis length) */
    const struct ir_ival *cv;
    int64_t nc = op_ivals(c, 1, &cv), limit = -1, cnt = 0;
    if (ax >= 0)
        limit = x->dims[ax].val;
    else if (x) {
        int64_t t;
        if (ir_numel(x, &t)) limit = t;
    }
    for (int64_t k = 0; nc >= 0 && k < nc && (limit < 0 || k < limit); k++) {
        if (!cv[k].known)
            nc = -1;
        else
            cnt += cv[k].v != 0;
    }
    struct ir_dim d[NNPERF_MAX_RANK];
    int r = 1;
    if (ax >= 0) {
        r = x->rank;
        memcpy(d, x->dims, (size_t)r * sizeof *d);
    }
    int at = ax >= 0 ? ax : 0;
    if (nc >= 0) {
        d[at] = ir_dim_known(cnt);
        return op_set(c, 0, dt, r, d);
    }
    d[at].val = -2;
    d[at].sym = NULL;
    return op_data_dependent(c, 0, dt, r, d, "count");
}

enum nnperf_status infer_non_zero(struct op_ctx *c)
{
    struct ir_value *x = op_in(c, 0);
    struct ir_dim d[2] = {IR_DIM_UNKNOWN, {-2, NULL}};
    if (x && x->rank >= 0) d[0] = ir_dim_known(x->rank);
    struct tvals t;
    int64_t n, nz = 0;
    if (!x || !tv_get(c, 0, &t) || !ir_numel(x, &n) || n != t.n)
        return op_data_dependent(c, 0, DT_INT64, 2, d, "nonzero");
    for (int64_t k = 0; k < n; k++) {
        if (t.kind == 1 && !t.iv[k].known) return op_data_dependent(c, 0, DT_INT64, 2, d, "nonzero");
        nz += t.kind == 1 ? t.iv[k].v != 0 : t.fv[k] != 0.0;
    }
    d[1] = ir_dim_known(nz);
    /* NonZero: output [rank, count] of int64 indices, row-major order of the nonzero elements */
    enum nnperf_status st = op_set(c, 0, DT_INT64, 2, d);
    int r = x->rank;
    int64_t total;
    if (st || !ck_mul_i64(r, nz, &total) || total > NNPERF_MAX_CONST_ELEMS) return st;
    struct ir_ival *v = ar_calloc(c->ar, (size_t)(total ? total : 1), sizeof *v);
    int64_t cnt[NNPERF_MAX_RANK] = {0}, j = 0;
    if (!v) return op_nomem(c);
    for (int64_t k = 0; k < n; k++) {
        int nzk = t.kind == 1 ? t.iv[k].v != 0 : t.fv[k] != 0.0;
        if (nzk) {
            for (int a = 0; a < r; a++) v[a * nz + j] = ir_ival_known(cnt[a]);
            j++;
        }
        for (int a = r - 1; a >= 0; a--) {
            if (++cnt[a] < x->dims[a].val) break;
            cnt[a] = 0;
        }
    }
    return op_set_ivals(c, 0, v, total);
}

/* Number of distinct slices along axis ax (whole elements when ax < 0) of known values; -1 when not known. */
static int64_t count_unique(const struct ir_value *x, const struct tvals *t, int ax)
{
    int64_t outer = 1, D = t->n, inner = 1;
    if (ax >= 0) {
        D = x->dims[ax].val;
        for (int k = 0; k < x->rank; k++) {
            if (x->dims[k].val < 0) return -1;
            if (k < ax) outer *= x->dims[k].val;
            if (k > ax) inner *= x->dims[k].val;
        }
    }
    if (t->kind == 1)
        for (int64_t k = 0; k < t->n; k++)
            if (!t->iv[k].known) return -1;
    int64_t u = 0;
    for (int64_t i = 0; i < D; i++) {
        int dup = 0;
        for (int64_t j = 0; j < i && !dup; j++) {
            int same = 1;
            for (int64_t a = 0; a < outer && same; a++)
                for (int64_t b = 0; b < inner && same; b++) {
                    int64_t p = (a * D + i) * inner + b, q = (a * D + j) * inner + b;
                    same = t->kind == 1 ? t->iv[p].v == t->iv[q].v : t->fv[p] == t->fv[q];
                }
            dup = same;
        }
        u += !dup;
    }
    return u;
}

enum nnperf_status infer_unique(struct op_ctx *c)
{
    struct ir_value *x = op_in(c, 0);
    int dt = x ? x->dtype : DT_UNDEFINED;
    const struct ir_attr *aa = op_attr_typed(c, "axis", AT_INT);
    int ax = -1;
    if (aa) {
        if (!x || x->rank < 0) {
            enum nnperf_status st = op_set(c, 0, dt, -1, NULL);
            for (int i = 1; !st && i < 4; i++) st = op_data_dependent(c, i, DT_INT64, 1, NULL, "unique");
            return st;
        }
        if (!ir_norm_axis(aa->i, x->rank, &ax))
            return op_err(c, "axis", "is %lld, out of range for rank %d", (long long)aa->i, x->rank);
    }
    struct tvals t;
    int64_t u = -1, n;
    if (x && tv_get(c, 0, &t) && ir_numel(x, &n) && n == t.n) u = count_unique(x, &t, ax);
    /* Unique: Y has U elements (or U slices along axis); indices and counts have U; inverse_indices has one
     * entry per input element (or per slice along axis) */
    struct ir_dim U = u >= 0 ? ir_dim_known(u) : (struct ir_dim){-2, NULL};
    struct ir_dim d[NNPERF_MAX_RANK], inv = IR_DIM_UNKNOWN;
    int r = 1;
    if (ax >= 0) {
        r = x->rank;
        memcpy(d, x->dims, (size_t)r * sizeof *d);
        d[ax] = U;
        inv = x->dims[ax];
    } else {
        d[0] = U;
        int64_t t2;
        if (x && ir_numel(x, &t2))
            inv = ir_dim_known(t2);
        else if (x && x->rank >= 0) {
            inv = ir_dim_known(1);
            for (int k = 0; k < x->rank; k++) inv = ir_dim_mul(c->ar, inv, x->dims[k]);
        }
    }
    enum nnperf_status st;
    if (u >= 0) {
        st = op_set(c, 0, dt, r, d);
        for (int i = 1; !st && i < 4; i += 2) st = op_set(c, i, DT_INT64, 1, &U);
    } else {
        st = op_data_dependent(c, 0, dt, r, d, "unique");
        for (int i = 1; !st && i < 4; i += 2) st = op_data_dependent(c, i, DT_INT64, 1, &U, "unique");
    }
    if (!st) st = op_set(c, 2, DT_INT64, 1, &inv);
    return st;
}
