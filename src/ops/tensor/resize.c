/* resize.c - STUB: to be implemented (operators of this family). */
#include "../ops.h"

enum nnperf_status infer_affine_grid(struct op_ctx *c)
{
    return op_infer_unknown(c);
}

enum nnperf_status infer_depth_to_space(struct op_ctx *c)
{
    return op_infer_unknown(c);
}

enum nnperf_status infer_grid_sample(struct op_ctx *c)
{
    return op_infer_unknown(c);
}

enum nnperf_status infer_resize(struct op_ctx *c)
{
    return op_infer_unknown(c);
}

enum nnperf_status infer_space_to_depth(struct op_ctx *c)
{
    return op_infer_unknown(c);
}

