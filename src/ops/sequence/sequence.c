/* sequence.c - STUB: to be implemented (operators of this family). */
#include "../ops.h"

enum nnperf_status infer_concat_from_sequence(struct op_ctx *c)
{
    return op_infer_unknown(c);
}

enum nnperf_status infer_optional(struct op_ctx *c)
{
    return op_infer_unknown(c);
}

enum nnperf_status infer_optional_get_element(struct op_ctx *c)
{
    return op_infer_unknown(c);
}

enum nnperf_status infer_optional_has_element(struct op_ctx *c)
{
    return op_infer_unknown(c);
}

enum nnperf_status infer_sequence_at(struct op_ctx *c)
{
    return op_infer_unknown(c);
}

enum nnperf_status infer_sequence_construct(struct op_ctx *c)
{
    return op_infer_unknown(c);
}

enum nnperf_status infer_sequence_empty(struct op_ctx *c)
{
    return op_infer_unknown(c);
}

enum nnperf_status infer_sequence_erase(struct op_ctx *c)
{
    return op_infer_unknown(c);
}

enum nnperf_status infer_sequence_insert(struct op_ctx *c)
{
    return op_infer_unknown(c);
}

enum nnperf_status infer_sequence_length(struct op_ctx *c)
{
    return op_infer_unknown(c);
}

enum nnperf_status infer_sequence_map(struct op_ctx *c)
{
    return op_infer_unknown(c);
}

enum nnperf_status infer_split_to_sequence(struct op_ctx *c)
{
    return op_infer_unknown(c);
}

