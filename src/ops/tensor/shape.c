/* shape.c - STUB: to be implemented (operators of this family). */
#include "../ops.h"

enum nnperf_status infer_cast(struct op_ctx *c)
{
    return op_infer_unknown(c);
}

enum nnperf_status infer_cast_like(struct op_ctx *c)
{
    return op_infer_unknown(c);
}

enum nnperf_status infer_concat(struct op_ctx *c)
{
    return op_infer_unknown(c);
}

enum nnperf_status infer_expand(struct op_ctx *c)
{
    return op_infer_unknown(c);
}

enum nnperf_status infer_flatten(struct op_ctx *c)
{
    return op_infer_unknown(c);
}

enum nnperf_status infer_identity(struct op_ctx *c)
{
    return op_infer_unknown(c);
}

enum nnperf_status infer_pad(struct op_ctx *c)
{
    return op_infer_unknown(c);
}

enum nnperf_status infer_reshape(struct op_ctx *c)
{
    return op_infer_unknown(c);
}

enum nnperf_status infer_shape(struct op_ctx *c)
{
    return op_infer_unknown(c);
}

enum nnperf_status infer_size(struct op_ctx *c)
{
    return op_infer_unknown(c);
}

enum nnperf_status infer_slice(struct op_ctx *c)
{
    return op_infer_unknown(c);
}

enum nnperf_status infer_split(struct op_ctx *c)
{
    return op_infer_unknown(c);
}

enum nnperf_status infer_squeeze(struct op_ctx *c)
{
    return op_infer_unknown(c);
}

enum nnperf_status infer_tile(struct op_ctx *c)
{
    return op_infer_unknown(c);
}

enum nnperf_status infer_transpose(struct op_ctx *c)
{
    return op_infer_unknown(c);
}

enum nnperf_status infer_unsqueeze(struct op_ctx *c)
{
    return op_infer_unknown(c);
}

