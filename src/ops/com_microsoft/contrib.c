/* contrib.c - STUB: to be implemented (operators of this family). */
#include "../ops.h"

void count_ms_attention(struct op_ctx *c, struct ir_cost *cost)
{
    (void)c;
    cost->known = 0;
}

void count_ms_fused_conv(struct op_ctx *c, struct ir_cost *cost)
{
    (void)c;
    cost->known = 0;
}

void count_ms_fused_mat_mul(struct op_ctx *c, struct ir_cost *cost)
{
    (void)c;
    cost->known = 0;
}

void count_ms_group_query_attention(struct op_ctx *c, struct ir_cost *cost)
{
    (void)c;
    cost->known = 0;
}

void count_ms_mat_mul_n_bits(struct op_ctx *c, struct ir_cost *cost)
{
    (void)c;
    cost->known = 0;
}

void count_ms_multi_head_attention(struct op_ctx *c, struct ir_cost *cost)
{
    (void)c;
    cost->known = 0;
}

enum nnperf_status infer_ms_attention(struct op_ctx *c)
{
    return op_infer_unknown(c);
}

enum nnperf_status infer_ms_bias_gelu(struct op_ctx *c)
{
    return op_infer_unknown(c);
}

enum nnperf_status infer_ms_fast_gelu(struct op_ctx *c)
{
    return op_infer_unknown(c);
}

enum nnperf_status infer_ms_fused_conv(struct op_ctx *c)
{
    return op_infer_unknown(c);
}

enum nnperf_status infer_ms_fused_mat_mul(struct op_ctx *c)
{
    return op_infer_unknown(c);
}

enum nnperf_status infer_ms_gelu(struct op_ctx *c)
{
    return op_infer_unknown(c);
}

enum nnperf_status infer_ms_group_query_attention(struct op_ctx *c)
{
    return op_infer_unknown(c);
}

enum nnperf_status infer_ms_mat_mul_n_bits(struct op_ctx *c)
{
    return op_infer_unknown(c);
}

enum nnperf_status infer_ms_multi_head_attention(struct op_ctx *c)
{
    return op_infer_unknown(c);
}

enum nnperf_status infer_ms_quick_gelu(struct op_ctx *c)
{
    return op_infer_unknown(c);
}

enum nnperf_status infer_ms_rotary_embedding(struct op_ctx *c)
{
    return op_infer_unknown(c);
}

enum nnperf_status infer_ms_simplified_layer_normalization(struct op_ctx *c)
{
    return op_infer_unknown(c);
}

enum nnperf_status infer_ms_skip_layer_normalization(struct op_ctx *c)
{
    return op_infer_unknown(c);
}

enum nnperf_status infer_ms_skip_simplified_layer_normalization(struct op_ctx *c)
{
    return op_infer_unknown(c);
}

