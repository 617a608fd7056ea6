/* text.c - string and image-decoding operators: StringNormalizer, TfIdfVectorizer, RegexFullMatch, StringConcat,
 * StringSplit, ImageDecoder. String values are not propagated, so sizes that depend on the text (stop words
 * removed, number of substrings, image height/width) are data-dependent. */
#include <string.h>

#include "../ops.h"

/* ONNX StringNormalizer-10: input [C] or [1, C]; without stop words the shape is kept, with them the C axis depends
 * on the text. */
enum nnperf_status infer_string_normalizer(struct op_ctx *c)
{
    const struct ir_value *x = op_in(c, 0);
    if (!x) return op_err(c, NULL, "input 'X' is missing");
    if (x->rank >= 0 && x->rank != 1 && !(x->rank == 2 && (x->dims[0].val == 1 || x->dims[0].val < 0)))
        return op_err(c, NULL, "input 'X' must be [C] or [1, C], has rank %d", x->rank);
    const char *cc = op_attr_str(c, "case_change_action", "NONE");
    if (strcmp(cc, "NONE") && strcmp(cc, "LOWER") && strcmp(cc, "UPPER"))
        return op_err(c, "case_change_action", "is '%s', expected NONE, LOWER or UPPER", cc);
    const struct ir_attr *sw = op_attr_typed(c, "stopwords", AT_STRINGS);
    if (!sw || sw->n == 0 || x->rank < 0) return op_set_like(c, 0, x, DT_STRING);
    struct ir_dim d[2] = {ir_dim_known(1), ir_dim_known(1)};
    d[x->rank - 1].val = -2; /* stop words are removed (an all-removed input gives one empty string) */
    return op_data_dependent(c, 0, DT_STRING, x->rank, d, "strings");
}

/* ONNX TfIdfVectorizer-9: input [C] -> [max(ngram_indexes) + 1], [N, C] -> [N, max(ngram_indexes) + 1], float. */
enum nnperf_status infer_tf_idf_vectorizer(struct op_ctx *c)
{
    const struct ir_value *x = op_in(c, 0);
    if (!x) return op_err(c, NULL, "input 'X' is missing");
    const int64_t *idx;
    int64_t n = op_attr_ints(c, "ngram_indexes", &idx);
    if (n == 0) return op_err(c, "ngram_indexes", "is missing or empty");
    int64_t mx = -1;
    for (int64_t k = 0; k < n; k++) {
        if (idx[k] < 0) return op_err(c, "ngram_indexes", "has a negative value (%lld)", (long long)idx[k]);
        if (idx[k] > mx) mx = idx[k];
    }
    const char *mode = op_attr_str(c, "mode", "");
    if (strcmp(mode, "TF") && strcmp(mode, "IDF") && strcmp(mode, "TFIDF"))
        return op_err(c, "mode", "is '%s', expected TF, IDF or TFIDF", mode);
    struct ir_dim d[2];
    if (x->rank < 0) return op_set(c, 0, DT_FLOAT, -1, NULL);
    if (x->rank == 1) {
        d[0] = ir_dim_known(mx + 1);
        return op_set(c, 0, DT_FLOAT, 1, d);
    }
    if (x->rank != 2) return op_err(c, NULL, "input 'X' must be 1-D or 2-D, has rank %d", x->rank);
    d[0] = x->dims[0];
    d[1] = ir_dim_known(mx + 1);
    return op_set(c, 0, DT_FLOAT, 2, d);
}

/* ONNX RegexFullMatch-20: a bool per string. */
enum nnperf_status infer_regex_full_match(struct op_ctx *c)
{
    const struct ir_value *x = op_in(c, 0);
    if (!x) return op_err(c, NULL, "input 'X' is missing");
    if (x->dtype && x->dtype != DT_STRING) return op_err(c, NULL, "input 'X' must be strings");
    return op_set_like(c, 0, x, DT_BOOL);
}

/* ONNX StringConcat-20: element-wise concatenation of two broadcast string tensors. */
enum nnperf_status infer_string_concat(struct op_ctx *c)
{
    const struct ir_value *v[2] = {op_in(c, 0), op_in(c, 1)};
    if (!v[0] || !v[1]) return op_err(c, NULL, "needs the inputs X and Y");
    int rank, bad = -1;
    struct ir_dim *d;
    if (!ir_broadcast(c->ar, v, 2, &rank, &d, &bad))
        return op_err(c, NULL, "inputs cannot be broadcast together (axis %d of the broadcast shape)", bad);
    return op_set(c, 0, DT_STRING, rank, d);
}

/* ONNX StringSplit-20: Y = X's shape + [the largest number of substrings] (data-dependent), Z = X's shape
 * (int64 counts). */
enum nnperf_status infer_string_split(struct op_ctx *c)
{
    const struct ir_value *x = op_in(c, 0);
    if (!x) return op_err(c, NULL, "input 'X' is missing");
    if (op_attr_int(c, "maxsplit", 0) < 0 && op_attr(c, "maxsplit"))
        return op_err(c, "maxsplit", "is negative");
    enum nnperf_status st = op_set_like(c, 1, x, DT_INT64);
    if (st || x->rank < 0 || x->rank >= NNPERF_MAX_RANK) return st ? st : op_set(c, 0, DT_STRING, -1, NULL);
    struct ir_dim d[NNPERF_MAX_RANK];
    memcpy(d, x->dims, (size_t)x->rank * sizeof *d);
    d[x->rank].val = -2;
    d[x->rank].sym = NULL;
    return op_data_dependent(c, 0, DT_STRING, x->rank + 1, d, "substrings");
}

/* ONNX ImageDecoder-20: a 1-D uint8 encoded image -> [H, W, C] uint8, C = 3 for RGB/BGR and 1 for Grayscale;
 * H and W are in the encoded data. */
enum nnperf_status infer_image_decoder(struct op_ctx *c)
{
    const struct ir_value *x = op_in(c, 0);
    if (!x) return op_err(c, NULL, "input 'encoded_stream' is missing");
    if (x->rank >= 0 && x->rank != 1)
        return op_err(c, NULL, "input 'encoded_stream' must be 1-D, has rank %d", x->rank);
    const char *pf = op_attr_str(c, "pixel_format", "RGB");
    int64_t ch;
    if (!strcmp(pf, "RGB") || !strcmp(pf, "BGR"))
        ch = 3;
    else if (!strcmp(pf, "Grayscale"))
        ch = 1;
    else
        return op_err(c, "pixel_format", "is '%s', expected RGB, BGR or Grayscale", pf);
    /* two distinct symbols: op_data_dependent names its -2 dims alike */
    struct ir_dim d[3] = {{-2, NULL},
                          {-1, ar_printf(c->ar, "%s_width", c->n->name[0] ? c->n->name : "ImageDecoder")},
                          {ch, NULL}};
    if (!d[1].sym) return op_nomem(c);
    return op_data_dependent(c, 0, DT_UINT8, 3, d, "height");
}
