/* dft.c - STUB: to be implemented (operators of this family). */
#include "../ops.h"

void count_dft(struct op_ctx *c, struct ir_cost *cost)
{
    (void)c;
    cost->known = 0;
}

enum nnperf_status infer_dft(struct op_ctx *c)
{
    return op_infer_unknown(c);
}

enum nnperf_status infer_stft(struct op_ctx *c)
{
    return op_infer_unknown(c);
}

