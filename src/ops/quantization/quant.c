/* quant.c - STUB: to be implemented (operators of this family). */
#include "../ops.h"

enum nnperf_status infer_dequantize_linear(struct op_ctx *c)
{
    return op_infer_unknown(c);
}

enum nnperf_status infer_dynamic_quantize_linear(struct op_ctx *c)
{
    return op_infer_unknown(c);
}

enum nnperf_status infer_quantize_linear(struct op_ctx *c)
{
    return op_infer_unknown(c);
}

