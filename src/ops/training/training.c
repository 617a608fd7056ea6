/* training.c - STUB: to be implemented (operators of this family). */
#include "../ops.h"

enum nnperf_status infer_adagrad(struct op_ctx *c)
{
    return op_infer_unknown(c);
}

enum nnperf_status infer_adam(struct op_ctx *c)
{
    return op_infer_unknown(c);
}

enum nnperf_status infer_gradient(struct op_ctx *c)
{
    return op_infer_unknown(c);
}

enum nnperf_status infer_momentum(struct op_ctx *c)
{
    return op_infer_unknown(c);
}

