/* pool.c - STUB: to be implemented (operators of this family). */
#include "../ops.h"

void count_pool(struct op_ctx *c, struct ir_cost *cost)
{
    (void)c;
    cost->known = 0;
}

enum nnperf_status infer_global_pool(struct op_ctx *c)
{
    return op_infer_unknown(c);
}

enum nnperf_status infer_max_roi_pool(struct op_ctx *c)
{
    return op_infer_unknown(c);
}

enum nnperf_status infer_max_unpool(struct op_ctx *c)
{
    return op_infer_unknown(c);
}

enum nnperf_status infer_pool(struct op_ctx *c)
{
    return op_infer_unknown(c);
}

enum nnperf_status infer_roi_align(struct op_ctx *c)
{
    return op_infer_unknown(c);
}

