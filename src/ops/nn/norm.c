/* norm.c - STUB: to be implemented (operators of this family). */
#include "../ops.h"

void count_lrn(struct op_ctx *c, struct ir_cost *cost)
{
    (void)c;
    cost->known = 0;
}

enum nnperf_status infer_batch_normalization(struct op_ctx *c)
{
    return op_infer_unknown(c);
}

enum nnperf_status infer_dropout(struct op_ctx *c)
{
    return op_infer_unknown(c);
}

enum nnperf_status infer_group_normalization(struct op_ctx *c)
{
    return op_infer_unknown(c);
}

enum nnperf_status infer_instance_normalization(struct op_ctx *c)
{
    return op_infer_unknown(c);
}

enum nnperf_status infer_layer_normalization(struct op_ctx *c)
{
    return op_infer_unknown(c);
}

enum nnperf_status infer_negative_log_likelihood_loss(struct op_ctx *c)
{
    return op_infer_unknown(c);
}

enum nnperf_status infer_softmax_cross_entropy_loss(struct op_ctx *c)
{
    return op_infer_unknown(c);
}

