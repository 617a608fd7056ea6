/* matmul.c - STUB: to be implemented (operators of this family). */
#include "../ops.h"

void count_det(struct op_ctx *c, struct ir_cost *cost)
{
    (void)c;
    cost->known = 0;
}

void count_einsum(struct op_ctx *c, struct ir_cost *cost)
{
    (void)c;
    cost->known = 0;
}

void count_gemm(struct op_ctx *c, struct ir_cost *cost)
{
    (void)c;
    cost->known = 0;
}

void count_matmul(struct op_ctx *c, struct ir_cost *cost)
{
    (void)c;
    cost->known = 0;
}

void count_qlinear_matmul(struct op_ctx *c, struct ir_cost *cost)
{
    (void)c;
    cost->known = 0;
}

enum nnperf_status infer_det(struct op_ctx *c)
{
    return op_infer_unknown(c);
}

enum nnperf_status infer_einsum(struct op_ctx *c)
{
    return op_infer_unknown(c);
}

enum nnperf_status infer_gemm(struct op_ctx *c)
{
    return op_infer_unknown(c);
}

enum nnperf_status infer_mat_mul(struct op_ctx *c)
{
    return op_infer_unknown(c);
}

enum nnperf_status infer_matmul_integer(struct op_ctx *c)
{
    return op_infer_unknown(c);
}

enum nnperf_status infer_q_linear_mat_mul(struct op_ctx *c)
{
    return op_infer_unknown(c);
}

