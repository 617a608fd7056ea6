/* qlinear.c - com.microsoft quantized element-wise operators of ONNX Runtime's QOperator format that ai.onnx lacks:
 * QLinearAdd (Add of two quantized tensors, requantized). Costs are their float twins'; requantization is not counted
 * (as QLinearConv). QGemm is with Gemm in math/matmul.c.
 *
 * Source of the semantics: onnxruntime docs/ContribOperators.md (com.microsoft.QLinearAdd). */
#include "../ops.h"

/* QLinearAdd (A, A_scale, A_zero_point, B, B_scale, B_zero_point, C_scale, C_zero_point): A + B broadcast, A's
 * type */
enum nnperf_status infer_ms_q_linear_add(struct op_ctx *c)
{
    struct ir_value *a = op_in(c, 0), *b = op_in(c, 3);
    if (!a || !op_in(c, 1) || !b || !op_in(c, 4) || !op_in(c, 6))
        return op_err(c, NULL, "needs inputs A, A_scale, B, B_scale and C_scale");
    const struct ir_value *vals[2] = {a, b};
    int rank, bad = -1;
    struct ir_dim *dims;
    if (a->rank < 0 || b->rank < 0) return op_set(c, 0, a->dtype, -1, NULL);
    if (!ir_broadcast(c->ar, vals, 2, &rank, &dims, &bad))
        return op_err(c, NULL, "inputs A and B cannot be broadcast together (axis %d of the broadcast shape)",
                      bad);
    return op_set(c, 0, a->dtype, rank, dims);
}
