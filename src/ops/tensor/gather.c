/* gather.c - STUB: to be implemented (operators of this family). */
#include "../ops.h"

enum nnperf_status infer_center_crop_pad(struct op_ctx *c)
{
    return op_infer_unknown(c);
}

enum nnperf_status infer_compress(struct op_ctx *c)
{
    return op_infer_unknown(c);
}

enum nnperf_status infer_gather(struct op_ctx *c)
{
    return op_infer_unknown(c);
}

enum nnperf_status infer_gather_elements(struct op_ctx *c)
{
    return op_infer_unknown(c);
}

enum nnperf_status infer_gather_nd(struct op_ctx *c)
{
    return op_infer_unknown(c);
}

enum nnperf_status infer_non_zero(struct op_ctx *c)
{
    return op_infer_unknown(c);
}

enum nnperf_status infer_reverse_sequence(struct op_ctx *c)
{
    return op_infer_unknown(c);
}

enum nnperf_status infer_scatter_elements(struct op_ctx *c)
{
    return op_infer_unknown(c);
}

enum nnperf_status infer_scatter_nd(struct op_ctx *c)
{
    return op_infer_unknown(c);
}

enum nnperf_status infer_unique(struct op_ctx *c)
{
    return op_infer_unknown(c);
}

