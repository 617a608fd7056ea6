/* elementwise.c - STUB: to be implemented (operators of this family). */
#include "../ops.h"

void count_variadic(struct op_ctx *c, struct ir_cost *cost)
{
    (void)c;
    cost->known = 0;
}

enum nnperf_status infer_arith(struct op_ctx *c)
{
    return op_infer_unknown(c);
}

enum nnperf_status infer_clip(struct op_ctx *c)
{
    return op_infer_unknown(c);
}

enum nnperf_status infer_is_nan_inf(struct op_ctx *c)
{
    return op_infer_unknown(c);
}

enum nnperf_status infer_leaky_relu(struct op_ctx *c)
{
    return op_infer_unknown(c);
}

enum nnperf_status infer_p_relu(struct op_ctx *c)
{
    return op_infer_unknown(c);
}

enum nnperf_status infer_pow(struct op_ctx *c)
{
    return op_infer_unknown(c);
}

enum nnperf_status infer_softmax(struct op_ctx *c)
{
    return op_infer_unknown(c);
}

enum nnperf_status infer_thresholded_relu(struct op_ctx *c)
{
    return op_infer_unknown(c);
}

enum nnperf_status infer_variadic(struct op_ctx *c)
{
    return op_infer_unknown(c);
}

enum nnperf_status infer_where(struct op_ctx *c)
{
    return op_infer_unknown(c);
}

