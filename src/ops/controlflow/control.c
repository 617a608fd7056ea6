/* control.c - STUB: to be implemented (operators of this family). */
#include "../ops.h"

enum nnperf_status infer_if(struct op_ctx *c)
{
    return op_infer_unknown(c);
}

enum nnperf_status infer_loop(struct op_ctx *c)
{
    return op_infer_unknown(c);
}

enum nnperf_status infer_scan(struct op_ctx *c)
{
    return op_infer_unknown(c);
}

