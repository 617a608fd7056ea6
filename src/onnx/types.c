/* types.c - TypeProto, TensorShapeProto and ValueInfoProto: the declared kind, element type and shape of graph
 * inputs, outputs, value_info entries and type attributes. */
#include <stdio.h>

#include "load.h"

static const struct fspec value_info_fields[] = {
    [1] = {WL, "name"},
    [2] = {WL, "type"},
    [3] = {WL, "doc_string"},
};

static enum nnperf_status parse_shape(struct ld *L, const uint8_t *p, size_t n, int *rank,
                                      struct ir_dim **dims)
{
    const char *why;
    struct pb r = pb_make(p, n);
    struct pb_field f;
    int cnt = 0;
    FOR_FIELDS(r, f, "TensorShapeProto")
    {
        if (f.num == SH_DIM && f.wire == PB_LEN) cnt++;
    }
    if (cnt > NNPERF_MAX_RANK)
        return diag_set(L->d, NNPERF_E_LIMIT, "shape has %d dims, more than the limit of %d", cnt,
                        NNPERF_MAX_RANK);
    struct ir_dim *d = ar_calloc(L->ar, (size_t)(cnt ? cnt : 1), sizeof *d);
    if (!d) return ox_nomem(L);
    r = pb_make(p, n);
    int i = 0;
    FOR_FIELDS(r, f, "TensorShapeProto")
    {
        if (f.num != SH_DIM || f.wire != PB_LEN) continue;
        d[i] = IR_DIM_UNKNOWN;
        struct pb r2 = pb_make(f.data, f.len);
        struct pb_field g;
        FOR_FIELDS(r2, g, "TensorShapeProto.Dimension")
        {
            if (g.num == DM_VALUE && g.wire == PB_VARINT) {
                int64_t v = (int64_t)g.u;
                d[i].val = v >= 0 ? v : -1; /* a negative dim_value is treated as unknown */
                d[i].sym = NULL;
            } else if (g.num == DM_PARAM && g.wire == PB_LEN && g.len) {
                d[i].val = -1;
                d[i].sym = ox_str(L, &g);
                if (!d[i].sym) return ox_nomem(L);
            }
        }
        i++;
    }
    *rank = cnt;
    *dims = d;
    return NNPERF_OK;
}

/* sequence/optional types nest by recursion: bound it (a few bytes per level would otherwise exhaust the stack) */
#define MAX_TYPE_DEPTH 32

/* TypeProto -> kind, elem dtype, rank/dims (rank -1 when no shape given). depth: 0 at the outermost type. */
enum nnperf_status ox_parse_type(struct ld *L, const uint8_t *p, size_t n, int *kind, int *dtype, int *rank,
                                 struct ir_dim **dims, int depth)
{
    const char *why;
    if (depth > MAX_TYPE_DEPTH)
        return diag_set(L->d, NNPERF_E_LIMIT, "type nested deeper than %d levels (sequence/optional)",
                        MAX_TYPE_DEPTH);
    struct pb r = pb_make(p, n);
    struct pb_field f;
    FOR_FIELDS(r, f, "TypeProto")
    {
        if (f.wire != PB_LEN) continue;
        if (f.num == TY_TENSOR || f.num == TY_SPARSE) {
            *kind = f.num == TY_TENSOR ? TK_TENSOR : TK_SPARSE;
            struct pb r2 = pb_make(f.data, f.len);
            struct pb_field g;
            FOR_FIELDS(r2, g, "TypeProto.Tensor")
            {
                if (g.num == TT_ELEM && g.wire == PB_VARINT) {
                    /* 0 (UNDEFINED) is left unknown; a number that is no data type is an error */
                    if (g.u >= DT_COUNT)
                        return diag_set(L->d, NNPERF_E_INVALID,
                                        "elem_type %llu is not one this nnperf knows (1 to %d)",
                                        (unsigned long long)g.u, DT_COUNT - 1);
                    *dtype = (int)g.u;
                } else if (g.num == TT_SHAPE && g.wire == PB_LEN) {
                    enum nnperf_status st = parse_shape(L, g.data, g.len, rank, dims);
                    if (st) return st;
                }
            }
        } else if (f.num == TY_SEQUENCE || f.num == TY_OPTIONAL) {
            int k2 = TK_UNKNOWN;
            struct pb r2 = pb_make(f.data, f.len);
            struct pb_field g;
            FOR_FIELDS(r2, g, "TypeProto.Sequence")
            {
                if (g.num == 1 && g.wire == PB_LEN) {
                    enum nnperf_status st =
                        ox_parse_type(L, g.data, g.len, &k2, dtype, rank, dims, depth + 1);
                    if (st) return st;
                }
            }
            *kind = f.num == TY_SEQUENCE ? TK_SEQUENCE : TK_OPTIONAL;
            /* optional(sequence(tensor)) keeps "sequence" as what matters for shapes */
            if (f.num == TY_OPTIONAL && k2 == TK_SEQUENCE) *kind = TK_SEQUENCE;
        } else if (f.num == TY_MAP) {
            *kind = TK_MAP;
        }
    }
    if (*dtype < 0 || *dtype >= DT_COUNT) *dtype = DT_UNDEFINED;
    return NNPERF_OK;
}

/* ValueInfoProto -> name + declared type. */
enum nnperf_status ox_parse_value_info(struct ld *L, const uint8_t *p, size_t n, const char **name, int *kind,
                                       int *dtype, int *rank, struct ir_dim **dims)
{
    const char *why;
    struct pb r = pb_make(p, n);
    struct pb_field f;
    *name = NULL;
    *kind = TK_UNKNOWN;
    *dtype = DT_UNDEFINED;
    *rank = -1;
    *dims = NULL;
    const uint8_t *type = NULL;
    size_t type_len = 0;
    FOR_FIELDS_CHECKED(r, f, "ValueInfoProto", value_info_fields)
    {
        if (f.num == VI_NAME && f.wire == PB_LEN) {
            *name = ox_str(L, &f);
            if (!*name) return ox_nomem(L);
        } else if (f.num == VI_TYPE && f.wire == PB_LEN) {
            type = f.data;
            type_len = f.len;
        }
    }
    if (!*name) return diag_set(L->d, NNPERF_E_PARSE, "a value_info/input/output entry has no name");
    /* the type after the name, so that its errors can say which value */
    if (type) {
        enum nnperf_status st = ox_parse_type(L, type, type_len, kind, dtype, rank, dims, 0);
        if (st) {
            diag_prefix(L->d, "value '%s': ", *name);
            return st;
        }
    }
    return NNPERF_OK;
}

void ox_shape_str(int rank, const struct ir_dim *dims, char *buf, size_t cap)
{
    size_t k = 0;
    if (!cap) return;
    buf[0] = 0;
    if (!rank) snprintf(buf, cap, "scalar");
    for (int i = 0; i < rank && k < cap; i++) {
        int w = snprintf(buf + k, cap - k, i ? "x%lld" : "%lld", (long long)dims[i].val);
        if (w < 0) break;
        k += (size_t)w;
    }
}

enum nnperf_status ox_check_size(struct ld *L, const char *what, const char *name, int rank,
                                 const struct ir_dim *dims, int dtype)
{
    int64_t numel = 1;
    int overflow = 0;
    for (int i = 0; i < rank && dims; i++) {
        if (dims[i].val == 0) return NNPERF_OK;
        if (dims[i].val > 0 && !ck_mul_i64(numel, dims[i].val, &numel)) overflow = 1;
    }
    int64_t bytes = (ir_dtype_bits(dtype) + 7) / 8;
    if (!overflow && bytes > 1 && !ck_mul_i64(numel, bytes, &numel)) overflow = 1;
    if (!overflow) return NNPERF_OK;
    char shape[256];
    ox_shape_str(rank, dims, shape, sizeof shape);
    return diag_set(L->d, NNPERF_E_LIMIT, "%s '%s': the size of shape %s overflows int64", what, name, shape);
}
