/* text.c - STUB: to be implemented (operators of this family). */
#include "../ops.h"

enum nnperf_status infer_image_decoder(struct op_ctx *c)
{
    return op_infer_unknown(c);
}

enum nnperf_status infer_regex_full_match(struct op_ctx *c)
{
    return op_infer_unknown(c);
}

enum nnperf_status infer_string_concat(struct op_ctx *c)
{
    return op_infer_unknown(c);
}

enum nnperf_status infer_string_normalizer(struct op_ctx *c)
{
    return op_infer_unknown(c);
}

enum nnperf_status infer_string_split(struct op_ctx *c)
{
    return op_infer_unknown(c);
}

enum nnperf_status infer_tf_idf_vectorizer(struct op_ctx *c)
{
    return op_infer_unknown(c);
}

