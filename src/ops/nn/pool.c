/* pool.c - pooling operators: AveragePool, MaxPool (with its optional int64 Indices), LpPool, the global pools,
 * MaxRoiPool, RoiAlign and MaxUnpool. Window sizes come from window.h; pools cost output elements x
 * prod(kernel) FLOPs (one compare or add per window tap, no MACs). */
#include "window.h"

/* The required kernel_shape of a pooling node (one value per spatial axis of x) and its window attributes. */
static enum nnperf_status read_kernel(struct op_ctx *c, const struct ir_value *x, const int64_t **ks, int *s,
                                      struct nn_win *win)
{
    int64_t kn = op_attr_ints(c, "kernel_shape", ks);
    if (kn <= 0) return op_err(c, "kernel_shape", "is required");
    if (kn > NNPERF_MAX_RANK - 2)
        return op_err(c, "kernel_shape", "has %lld values, over the limit", (long long)kn);
    *s = (int)kn;
    if (x && x->rank >= 0 && x->rank != *s + 2)
        return op_err(c, "kernel_shape", "has %d values but the input has rank %d (expected %d)", *s, x->rank,
                      *s + 2);
    return nn_win_read(c, *s, win);
}

/* AveragePool / MaxPool / LpPool: [N, C, D1..Dn] -> [N, C, out1..outn] with kernel_shape (required). */
enum nnperf_status infer_pool(struct op_ctx *c)
{
    struct ir_value *x = op_in(c, 0);
    int dtype = x ? x->dtype : DT_UNDEFINED;
    const int64_t *ks;
    int s;
    struct nn_win win;
    enum nnperf_status st = read_kernel(c, x, &ks, &s, &win);
    if (st) return st;
    for (int i = 0; i < s; i++) {
        if (ks[i] <= 0)
            return op_err(c, "kernel_shape", "has value %lld, expected at least 1", (long long)ks[i]);
        win.k[i] = ks[i];
    }
    if (!strcmp(c->n->op_type, "LpPool") && op_attr_float(c, "p", 2) <= 0)
        return op_err(c, "p", "is %g, expected a positive value", op_attr_float(c, "p", 2));
    struct ir_dim d[NNPERF_MAX_RANK];
    d[0] = x && x->rank >= 0 ? x->dims[0] : IR_DIM_UNKNOWN;
    d[1] = x && x->rank >= 0 ? x->dims[1] : IR_DIM_UNKNOWN;
    for (int i = 0; i < s; i++) {
        int bad;
        struct ir_dim in = x && x->rank >= 0 ? x->dims[i + 2] : IR_DIM_UNKNOWN;
        d[i + 2] = nn_win_out(c, &win, i, in, &bad);
        if (bad)
            return op_err(c, "kernel_shape",
                          "window (%lld, dilation %lld) is larger than the padded input (%lld) on "
                          "axis %d",
                          (long long)win.k[i], (long long)win.dil[i], (long long)in.val, i + 2);
    }
    if ((st = op_set(c, 0, dtype, s + 2, d))) return st;
    /* MaxPool-8+: optional Indices output, int64, same shape as Y */
    return op_set(c, 1, DT_INT64, s + 2, d);
}

/* GlobalAveragePool / GlobalMaxPool / GlobalLpPool: [N, C, D...] -> [N, C, 1...]. */
enum nnperf_status infer_global_pool(struct op_ctx *c)
{
    struct ir_value *x = op_in(c, 0);
    int dtype = x ? x->dtype : DT_UNDEFINED;
    if (!x || x->rank < 0) return op_set(c, 0, dtype, -1, NULL);
    if (x->rank < 2) return op_err(c, NULL, "input has rank %d, expected at least 2 (N, C, ...)", x->rank);
    struct ir_dim d[NNPERF_MAX_RANK];
    for (int i = 0; i < x->rank; i++) d[i] = i < 2 ? x->dims[i] : ir_dim_known(1);
    return op_set(c, 0, dtype, x->rank, d);
}

/* ONNX MaxRoiPool-1: X [N, C, H, W], rois [num_rois, 5] -> [num_rois, C, pooled_h, pooled_w]. */
enum nnperf_status infer_max_roi_pool(struct op_ctx *c)
{
    struct ir_value *x = op_in(c, 0), *r = op_in(c, 1);
    int dtype = x ? x->dtype : DT_UNDEFINED;
    const int64_t *ps;
    int64_t n = op_attr_ints(c, "pooled_shape", &ps);
    if (n != 2) return op_err(c, "pooled_shape", "has %lld values, expected 2", (long long)n);
    if (ps[0] <= 0 || ps[1] <= 0) return op_err(c, "pooled_shape", "has a value below 1");
    if (x && x->rank >= 0 && x->rank != 4) return op_err(c, NULL, "input has rank %d, expected 4", x->rank);
    if (r && r->rank >= 0 && r->rank != 2) return op_err(c, NULL, "rois has rank %d, expected 2", r->rank);
    if (r && r->rank == 2 && r->dims[1].val >= 0 && r->dims[1].val != 5)
        return op_err(c, NULL, "rois has %lld columns, expected 5", (long long)r->dims[1].val);
    struct ir_dim d[4] = {r && r->rank == 2 ? r->dims[0] : IR_DIM_UNKNOWN,
                          x && x->rank == 4 ? x->dims[1] : IR_DIM_UNKNOWN, ir_dim_known(ps[0]),
                          ir_dim_known(ps[1])};
    return op_set(c, 0, dtype, 4, d);
}

/* ONNX RoiAlign-10/16: X [N, C, H, W], rois [num_rois, 4], batch_indices [num_rois] ->
 * [num_rois, C, output_height (1), output_width (1)]. */
enum nnperf_status infer_roi_align(struct op_ctx *c)
{
    struct ir_value *x = op_in(c, 0), *r = op_in(c, 1), *bi = op_in(c, 2);
    int dtype = x ? x->dtype : DT_UNDEFINED;
    int64_t oh = op_attr_int(c, "output_height", 1), ow = op_attr_int(c, "output_width", 1);
    if (oh <= 0) return op_err(c, "output_height", "is %lld, expected at least 1", (long long)oh);
    if (ow <= 0) return op_err(c, "output_width", "is %lld, expected at least 1", (long long)ow);
    if (x && x->rank >= 0 && x->rank != 4) return op_err(c, NULL, "input has rank %d, expected 4", x->rank);
    if (r && r->rank >= 0 && r->rank != 2) return op_err(c, NULL, "rois has rank %d, expected 2", r->rank);
    if (r && r->rank == 2 && r->dims[1].val >= 0 && r->dims[1].val != 4)
        return op_err(c, NULL, "rois has %lld columns, expected 4", (long long)r->dims[1].val);
    struct ir_dim nr = r && r->rank == 2 ? r->dims[0] : IR_DIM_UNKNOWN;
    if (bi && bi->rank == 1) {
        if (nr.val >= 0 && bi->dims[0].val >= 0 && nr.val != bi->dims[0].val)
            return op_err(c, NULL, "batch_indices has %lld values but rois has %lld rows",
                          (long long)bi->dims[0].val, (long long)nr.val);
        if (nr.val < 0 && !nr.sym) nr = bi->dims[0];
    }
    struct ir_dim d[4] = {nr, x && x->rank == 4 ? x->dims[1] : IR_DIM_UNKNOWN, ir_dim_known(oh),
                          ir_dim_known(ow)};
    return op_set(c, 0, dtype, 4, d);
}

/* ONNX MaxUnpool-9/11: X [N, C, D...], I, optional output_shape input; without it
 * out[i] = (in[i] - 1) * strides[i] + kernel_shape[i] - pads_begin[i] - pads_end[i]. */
enum nnperf_status infer_max_unpool(struct op_ctx *c)
{
    struct ir_value *x = op_in(c, 0), *os = op_in(c, 2);
    int dtype = x ? x->dtype : DT_UNDEFINED;
    const int64_t *ks;
    int s;
    struct nn_win win;
    enum nnperf_status st = read_kernel(c, x, &ks, &s, &win);
    if (st) return st;
    struct ir_dim d[NNPERF_MAX_RANK];
    if (os) {
        const struct ir_ival *v;
        int64_t n = op_ivals(c, 2, &v);
        if (n >= 0) {
            if (n != s + 2)
                return op_err(c, NULL, "output_shape has %lld values, expected %d", (long long)n, s + 2);
            for (int i = 0; i < s + 2; i++) {
                if (v[i].known && v[i].v < 0)
                    return op_err(c, NULL, "output_shape has negative value %lld", (long long)v[i].v);
                d[i] = ir_dim_from_ival(v[i]);
            }
            return op_set(c, 0, dtype, s + 2, d);
        }
        return op_set(c, 0, dtype, s + 2, NULL);
    }
    d[0] = x && x->rank >= 0 ? x->dims[0] : IR_DIM_UNKNOWN;
    d[1] = x && x->rank >= 0 ? x->dims[1] : IR_DIM_UNKNOWN;
    for (int i = 0; i < s; i++) {
        if (ks[i] <= 0)
            return op_err(c, "kernel_shape", "has value %lld, expected at least 1", (long long)ks[i]);
        struct ir_dim in = x && x->rank >= 0 ? x->dims[i + 2] : IR_DIM_UNKNOWN;
        int64_t delta = ks[i] - win.st[i] - win.pads[i] - win.pads[i + s];
        if (in.val >= 0) {
            int64_t sz;
            if (!ck_mul_i64(in.val, win.st[i], &sz) || !ck_add_i64(sz, delta, &sz))
                return op_err(c, NULL, "output size overflows on axis %d", i + 2);
            if (sz < 0) return op_err(c, "pads", "make the output size negative on axis %d", i + 2);
            d[i + 2] = ir_dim_known(sz);
        } else if (in.sym) {
            d[i + 2] = nn_dim_offset(c->ar, ir_dim_mul(c->ar, in, ir_dim_known(win.st[i])), delta);
        } else {
            d[i + 2] = IR_DIM_UNKNOWN;
        }
    }
    return op_set(c, 0, dtype, s + 2, d);
}

/* AveragePool / MaxPool / LpPool: output elements x prod(kernel_shape) FLOPs (one add or compare per tap;
 * the average's divide and Lp's powers are within the same order and not counted separately), no MACs. */
void count_pool(struct op_ctx *c, struct ir_cost *cost)
{
    const int64_t *ks;
    int64_t kn = op_attr_ints(c, "kernel_shape", &ks), n, f;
    if (kn <= 0 || !ir_numel(op_out(c, 0), &n)) {
        cost->known = 0;
        return;
    }
    f = n;
    for (int64_t i = 0; i < kn; i++)
        if (ks[i] < 0 || !ck_mul_i64(f, ks[i], &f)) {
            cost->known = 0;
            return;
        }
    cost->macs = 0;
    cost->flops = (uint64_t)f;
}
