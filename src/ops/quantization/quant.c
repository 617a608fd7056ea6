/* quant.c - linear quantization operators of ai.onnx: QuantizeLinear, DequantizeLinear (per-tensor, per-axis
 * from opset 13, blocked from opset 21) and DynamicQuantizeLinear: output types and the check that the scale
 * fits the input along 'axis'. Costs are per element (op_list.def fpe). */
#include "../ops.h"

/* Checks y_scale / zero point against x: a scalar (or 1-element) scale is per-tensor; with block_size > 0
 * (opset 21) the scale has x's rank and ceil(x[axis] / block_size) along axis; otherwise it is 1-D of x[axis]. */
static enum nnperf_status check_scale(struct op_ctx *c, const struct ir_value *x, const struct ir_value *s,
                                      const char *what)
{
    if (!x || !s || s->rank < 0 || x->rank < 0) return NNPERF_OK;
    int64_t n;
    int64_t block = c->n->opset >= 21 ? op_attr_int(c, "block_size", 0) : 0;
    if (block < 0) return op_err(c, "block_size", "is %lld, must be >= 0", (long long)block);
    if (!block && (s->rank == 0 || (ir_numel(s, &n) && n == 1 && s->rank <= 1))) return NNPERF_OK;
    if (c->n->opset < 13) return op_err(c, NULL, "input '%s' must be a scalar before opset 13", what);
    int64_t axis = op_attr_int(c, "axis", 1);
    int ax;
    if (!ir_norm_axis(axis, x->rank, &ax))
        return op_err(c, "axis", "is %lld, out of range for rank %d", (long long)axis, x->rank);
    if (!block) {
        if (s->rank != 1)
            return op_err(c, NULL, "input '%s' has rank %d, expected 1 (per-axis)", what, s->rank);
        struct ir_dim a = x->dims[ax], b = s->dims[0];
        if (a.val >= 0 && b.val >= 0 && a.val != b.val)
            return op_err(c, NULL, "input '%s' has %lld values, the input has %lld along axis %d", what,
                          (long long)b.val, (long long)a.val, ax);
        return NNPERF_OK;
    }
    if (s->rank != x->rank)
        return op_err(c, NULL, "input '%s' has rank %d, expected %d (blocked)", what, s->rank, x->rank);
    for (int k = 0; k < x->rank; k++) {
        struct ir_dim a = x->dims[k], b = s->dims[k];
        if (a.val < 0 || b.val < 0) continue;
        /* ONNX QuantizeLinear-21: scale dim along axis = ceil(x dim / block_size) */
        int64_t want = k == ax ? (a.val + block - 1) / block : a.val;
        if (b.val != want)
            return op_err(c, NULL, "input '%s' dim %d is %lld, expected %lld", what, k, (long long)b.val,
                          (long long)want);
    }
    return NNPERF_OK;
}

/* QuantizeLinear: y has x's shape; its type is y_zero_point's, else output_dtype (21), else uint8 */
enum nnperf_status infer_quantize_linear(struct op_ctx *c)
{
    struct ir_value *x = op_in(c, 0), *s = op_in(c, 1), *zp = op_in(c, 2);
    if (!x || !s) return op_err(c, NULL, "needs inputs x and y_scale");
    enum nnperf_status st = check_scale(c, x, s, "y_scale");
    if (st) return st;
    int64_t odt = c->n->opset >= 21 ? op_attr_int(c, "output_dtype", 0) : 0;
    if (odt < 0 || odt >= DT_COUNT)
        return op_err(c, "output_dtype", "is %lld, not a data type", (long long)odt);
    int dt = DT_UINT8;
    if (zp && zp->dtype) {
        if (odt && odt != zp->dtype)
            return op_err(c, "output_dtype", "is %lld but y_zero_point has type %d", (long long)odt,
                          zp->dtype);
        dt = zp->dtype;
    } else if (odt)
        dt = (int)odt;
    return op_set_like(c, 0, x, dt);
}

/* DequantizeLinear: y has x's shape; float before opset 19, then x_scale's type */
enum nnperf_status infer_dequantize_linear(struct op_ctx *c)
{
    struct ir_value *x = op_in(c, 0), *s = op_in(c, 1);
    if (!x || !s) return op_err(c, NULL, "needs inputs x and x_scale");
    enum nnperf_status st = check_scale(c, x, s, "x_scale");
    if (st) return st;
    int dt = DT_FLOAT;
    if (c->n->opset >= 19 && s->dtype) dt = s->dtype;
    return op_set_like(c, 0, x, dt);
}

/* DynamicQuantizeLinear-11: x (float) -> y (uint8, x's shape), y_scale (float scalar), y_zero_point (uint8 scalar) */
enum nnperf_status infer_dynamic_quantize_linear(struct op_ctx *c)
{
    struct ir_value *x = op_in(c, 0);
    if (!x) return op_err(c, NULL, "needs an input");
    enum nnperf_status st = op_set_like(c, 0, x, DT_UINT8);
    if (!st) st = op_set(c, 1, DT_FLOAT, 0, NULL);
    if (!st) st = op_set(c, 2, DT_UINT8, 0, NULL);
    return st;
}
