/* generator.c - STUB: to be implemented (operators of this family). */
#include "../ops.h"

enum nnperf_status infer_bernoulli(struct op_ctx *c)
{
    return op_infer_unknown(c);
}

enum nnperf_status infer_constant(struct op_ctx *c)
{
    return op_infer_unknown(c);
}

enum nnperf_status infer_constant_of_shape(struct op_ctx *c)
{
    return op_infer_unknown(c);
}

enum nnperf_status infer_eye_like(struct op_ctx *c)
{
    return op_infer_unknown(c);
}

enum nnperf_status infer_mel_weight_matrix(struct op_ctx *c)
{
    return op_infer_unknown(c);
}

enum nnperf_status infer_multinomial(struct op_ctx *c)
{
    return op_infer_unknown(c);
}

enum nnperf_status infer_one_hot(struct op_ctx *c)
{
    return op_infer_unknown(c);
}

enum nnperf_status infer_random_normal(struct op_ctx *c)
{
    return op_infer_unknown(c);
}

enum nnperf_status infer_random_normal_like(struct op_ctx *c)
{
    return op_infer_unknown(c);
}

enum nnperf_status infer_random_uniform(struct op_ctx *c)
{
    return op_infer_unknown(c);
}

enum nnperf_status infer_random_uniform_like(struct op_ctx *c)
{
    return op_infer_unknown(c);
}

enum nnperf_status infer_range(struct op_ctx *c)
{
    return op_infer_unknown(c);
}

enum nnperf_status infer_window(struct op_ctx *c)
{
    return op_infer_unknown(c);
}

