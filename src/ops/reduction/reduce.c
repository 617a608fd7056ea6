/* reduce.c - STUB: to be implemented (operators of this family). */
#include "../ops.h"

void count_reduce(struct op_ctx *c, struct ir_cost *cost)
{
    (void)c;
    cost->known = 0;
}

enum nnperf_status infer_arg_reduce(struct op_ctx *c)
{
    return op_infer_unknown(c);
}

enum nnperf_status infer_reduce(struct op_ctx *c)
{
    return op_infer_unknown(c);
}

enum nnperf_status infer_top_k(struct op_ctx *c)
{
    return op_infer_unknown(c);
}

