/* conv.c - STUB: to be implemented (operators of this family). */
#include "../ops.h"

void count_conv(struct op_ctx *c, struct ir_cost *cost)
{
    (void)c;
    cost->known = 0;
}

void count_conv_transpose(struct op_ctx *c, struct ir_cost *cost)
{
    (void)c;
    cost->known = 0;
}

void count_deform_conv(struct op_ctx *c, struct ir_cost *cost)
{
    (void)c;
    cost->known = 0;
}

void count_qlinear_conv(struct op_ctx *c, struct ir_cost *cost)
{
    (void)c;
    cost->known = 0;
}

enum nnperf_status infer_col2_im(struct op_ctx *c)
{
    return op_infer_unknown(c);
}

enum nnperf_status infer_conv(struct op_ctx *c)
{
    return op_infer_unknown(c);
}

enum nnperf_status infer_conv_integer(struct op_ctx *c)
{
    return op_infer_unknown(c);
}

enum nnperf_status infer_conv_transpose(struct op_ctx *c)
{
    return op_infer_unknown(c);
}

enum nnperf_status infer_deform_conv(struct op_ctx *c)
{
    return op_infer_unknown(c);
}

enum nnperf_status infer_q_linear_conv(struct op_ctx *c)
{
    return op_infer_unknown(c);
}

