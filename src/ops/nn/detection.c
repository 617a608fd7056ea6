/* detection.c - STUB: to be implemented (operators of this family). */
#include "../ops.h"

enum nnperf_status infer_non_max_suppression(struct op_ctx *c)
{
    return op_infer_unknown(c);
}

