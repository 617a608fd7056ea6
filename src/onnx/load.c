/* load.c - ONNX ModelProto -> IR, reading the protobuf wire format in place. Names, attributes and shapes are
 * copied into the model arena (they are small); tensor bytes stay in the mapping as views. Model-local functions
 * are inlined at their call sites; If/Loop/Scan bodies become subgraphs with an outer scope.
 * Field numbers: onnx/onnx.proto (ModelProto, GraphProto, NodeProto, AttributeProto, TensorProto, TypeProto). */
#include "onnx.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../ops/ops.h"
#include "pb.h"

/* ModelProto */
enum { MP_IR_VERSION = 1, MP_PRODUCER = 2, MP_GRAPH = 7, MP_OPSET = 8, MP_FUNCTIONS = 25 };
/* OperatorSetIdProto */
enum { OS_DOMAIN = 1, OS_VERSION = 2 };
/* GraphProto */
enum {
    GP_NODE = 1,
    GP_NAME = 2,
    GP_INIT = 5,
    GP_INPUT = 11,
    GP_OUTPUT = 12,
    GP_VALUE_INFO = 13,
    GP_SPARSE_INIT = 15
};
/* NodeProto */
enum { NP_INPUT = 1, NP_OUTPUT = 2, NP_NAME = 3, NP_OP_TYPE = 4, NP_ATTR = 5, NP_DOMAIN = 7 };
/* AttributeProto */
enum {
    AP_NAME = 1,
    AP_F = 2,
    AP_I = 3,
    AP_S = 4,
    AP_T = 5,
    AP_G = 6,
    AP_FLOATS = 7,
    AP_INTS = 8,
    AP_STRINGS = 9,
    AP_TENSORS = 10,
    AP_GRAPHS = 11,
    AP_TP = 14,
    AP_TYPE = 20,
    AP_REF = 21,
    AP_SPARSE = 22
};
/* TensorProto */
enum {
    TP_DIMS = 1,
    TP_DTYPE = 2,
    TP_FLOAT = 4,
    TP_INT32 = 5,
    TP_STRING = 6,
    TP_INT64 = 7,
    TP_NAME = 8,
    TP_RAW = 9,
    TP_DOUBLE = 10,
    TP_UINT64 = 11,
    TP_EXTERNAL = 13,
    TP_LOCATION = 14
};
/* SparseTensorProto */
enum { SP_VALUES = 1, SP_INDICES = 2, SP_DIMS = 3 };
/* ValueInfoProto, TypeProto, TypeProto.Tensor, TensorShapeProto, Dimension */
enum { VI_NAME = 1, VI_TYPE = 2 };
enum { TY_TENSOR = 1, TY_SEQUENCE = 4, TY_MAP = 5, TY_SPARSE = 8, TY_OPTIONAL = 9 };
enum { TT_ELEM = 1, TT_SHAPE = 2 };
enum { SH_DIM = 1 };
enum { DM_VALUE = 1, DM_PARAM = 2 };
/* FunctionProto */
enum {
    FP_NAME = 1,
    FP_INPUT = 4,
    FP_OUTPUT = 5,
    FP_ATTR = 6,
    FP_NODE = 7,
    FP_OPSET = 9,
    FP_DOMAIN = 10,
    FP_ATTR_PROTO = 11
};

struct ir_function {
    const char *name, *domain;
    const char **inputs, **outputs;
    int n_inputs, n_outputs;
    struct ir_attr *defaults; /* attribute_proto: defaults */
    int n_defaults;
    const uint8_t **nodes; /* NodeProto views */
    size_t *node_len;
    int n_nodes;
    int n_calls; /* times inlined so far (INLINE_MAX_CALLS) */
};

/* Inlining multiplies: a function whose body calls another twice, nested 30 deep, is 2^30 nodes from a 2 KB file.
 * Each function may be expanded this many times, which bounds the nodes made by inlining by this many times the
 * function body nodes in the file. */
#define INLINE_MAX_CALLS 4096

/* While inlining a function call: formal name -> actual name, intermediates prefixed. */
struct rename {
    const struct ir_function *fn;
    const char **formal, **actual;
    int n;
    const char *prefix;
    const struct ir_node *call; /* attributes of the call, for ref_attr_name */
    int depth;
    const struct rename *outer;
};

struct ld {
    struct ir_model *m;
    struct arena *ar;
    struct diag *d;
    int64_t n_nodes_total;
};

/* growable pointer array in the arena */
struct pvec {
    void **v;
    int n, cap;
};

static int pv_push(struct arena *ar, struct pvec *p, void *x)
{
    if (p->n == p->cap) {
        int nc = p->cap ? p->cap * 2 : 8;
        void **nv = ar_calloc(ar, (size_t)nc, sizeof(void *));
        if (!nv) return 0;
        if (p->n) memcpy(nv, p->v, (size_t)p->n * sizeof(void *));
        p->v = nv;
        p->cap = nc;
    }
    p->v[p->n++] = x;
    return 1;
}

static enum nnperf_status nomem(struct ld *L)
{
    return diag_set(L->d, NNPERF_E_NOMEM, "out of memory while reading the model");
}

/* Byte offset of p in the model file, or -1 when p is in another buffer (ox_parse_tensor). */
static long long file_offset(const struct ld *L, const uint8_t *p)
{
    const uint8_t *b = L->m->buf;
    if (!b || p < b || p > b + L->m->len) return -1;
    return (long long)(p - b);
}

static enum nnperf_status malformed(struct ld *L, const char *what, const char *why, const uint8_t *at)
{
    long long off = file_offset(L, at);
    if (off < 0) return diag_set(L->d, NNPERF_E_PARSE, "malformed %s: %s", what, why);
    return diag_set(L->d, NNPERF_E_PARSE, "malformed %s at byte %lld: %s", what, off, why);
}

/* Known fields of the messages read here and the wire types they may have (repeated scalars: packed or not).
 * A known field with another wire type is an error rather than silently skipped: it means a corrupt file. */
struct fspec {
    uint32_t num;
    unsigned wires; /* bit (1 << wire) per allowed wire type */
    const char *name;
};
#define WV  (1u << PB_VARINT)
#define WL  (1u << PB_LEN)
#define W32 (1u << PB_I32)
#define W64 (1u << PB_I64)
static const struct fspec model_fields[] = {
    {1, WV, "ir_version"},     {2, WL, "producer_name"}, {3, WL, "producer_version"},
    {4, WL, "domain"},         {5, WV, "model_version"}, {6, WL, "doc_string"},
    {7, WL, "graph"},          {8, WL, "opset_import"},  {14, WL, "metadata_props"},
    {20, WL, "training_info"}, {25, WL, "functions"},    {0, 0, NULL}};
static const struct fspec opset_fields[] = {{1, WL, "domain"}, {2, WV, "version"}, {0, 0, NULL}};
static const struct fspec graph_fields[] = {{1, WL, "node"},
                                            {2, WL, "name"},
                                            {5, WL, "initializer"},
                                            {10, WL, "doc_string"},
                                            {11, WL, "input"},
                                            {12, WL, "output"},
                                            {13, WL, "value_info"},
                                            {14, WL, "quantization_annotation"},
                                            {15, WL, "sparse_initializer"},
                                            {0, 0, NULL}};
static const struct fspec node_fields[] = {{1, WL, "input"},   {2, WL, "output"},    {3, WL, "name"},
                                           {4, WL, "op_type"}, {5, WL, "attribute"}, {6, WL, "doc_string"},
                                           {7, WL, "domain"},  {0, 0, NULL}};
static const struct fspec attr_fields[] = {{1, WL, "name"},
                                           {2, W32, "f"},
                                           {3, WV, "i"},
                                           {4, WL, "s"},
                                           {5, WL, "t"},
                                           {6, WL, "g"},
                                           {7, W32 | WL, "floats"},
                                           {8, WV | WL, "ints"},
                                           {9, WL, "strings"},
                                           {10, WL, "tensors"},
                                           {11, WL, "graphs"},
                                           {13, WL, "doc_string"},
                                           {14, WL, "tp"},
                                           {15, WL, "type_protos"},
                                           {20, WV, "type"},
                                           {21, WL, "ref_attr_name"},
                                           {22, WL, "sparse_tensor"},
                                           {23, WL, "sparse_tensors"},
                                           {0, 0, NULL}};
static const struct fspec tensor_fields[] = {{1, WV | WL, "dims"},
                                             {2, WV, "data_type"},
                                             {3, WL, "segment"},
                                             {4, W32 | WL, "float_data"},
                                             {5, WV | WL, "int32_data"},
                                             {6, WL, "string_data"},
                                             {7, WV | WL, "int64_data"},
                                             {8, WL, "name"},
                                             {9, WL, "raw_data"},
                                             {10, W64 | WL, "double_data"},
                                             {11, WV | WL, "uint64_data"},
                                             {12, WL, "doc_string"},
                                             {13, WL, "external_data"},
                                             {14, WV, "data_location"},
                                             {0, 0, NULL}};
static const struct fspec value_info_fields[] = {
    {1, WL, "name"}, {2, WL, "type"}, {3, WL, "doc_string"}, {0, 0, NULL}};

/* The error for a field pb_next refused; names the field when it is known in tab (may be NULL). */
static enum nnperf_status bad_field(struct ld *L, const char *what, const char *why, const uint8_t *at,
                                    const struct pb_field *f, const struct fspec *tab)
{
    if (why != pb_why_past_end) return malformed(L, what, why, at);
    const char *fname = "?";
    for (; tab && tab->name; tab++)
        if (tab->num == f->num) fname = tab->name;
    char why2[160];
    snprintf(why2, sizeof why2, "field '%s' (%u) claims %llu bytes, the message has %zu left", fname, f->num,
             (unsigned long long)f->u, f->len);
    return malformed(L, what, why2, at);
}

/* 1 when f is unknown in tab or has an allowed wire type; else an error naming the field. */
static int wire_ok(struct ld *L, const char *what, const struct fspec *tab, const struct pb_field *f,
                   const uint8_t *at)
{
    for (; tab->name; tab++) {
        if (tab->num != f->num) continue;
        if (tab->wires & (1u << f->wire)) return 1;
        int want = 0;
        while (!(tab->wires & (1u << want))) want++;
        char why[160];
        snprintf(why, sizeof why, "field '%s' (%u) has wire type %d, expected %d", tab->name, f->num, f->wire,
                 want);
        malformed(L, what, why, at);
        return 0;
    }
    return 1;
}

static const char *str(struct ld *L, const struct pb_field *f)
{
    return ar_strndup(L->ar, (const char *)f->data, f->len);
}

/* Walks a message calling nothing; used to validate nested fields in one place: returns -1 on error. */
#define FF_CAT2(a, b) a##b
#define FF_CAT(a, b)  FF_CAT2(a, b)
#define FOR_FIELDS(r, f, what)                                                                               \
    for (int FF_CAT(rc_, __LINE__); (FF_CAT(rc_, __LINE__) = pb_next(&(r), &(f), &why)) != 0;)               \
        if (FF_CAT(rc_, __LINE__) < 0)                                                                       \
            return bad_field(L, what, why, (r).field, &(f), NULL);                                           \
        else
/* The same, also checking the wire types of the known fields listed in tab (struct fspec). */
#define FOR_FIELDS_CHECKED(r, f, what, tab)                                                                  \
    for (int FF_CAT(rc_, __LINE__); (FF_CAT(rc_, __LINE__) = pb_next(&(r), &(f), &why)) != 0;)               \
        if (FF_CAT(rc_, __LINE__) < 0)                                                                       \
            return bad_field(L, what, why, (r).field, &(f), tab);                                            \
        else if (!wire_ok(L, what, tab, &(f), (r).field))                                                    \
            return L->d->status;                                                                             \
        else

/* ---- types and shapes ---- */

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
    if (!d) return nomem(L);
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
                d[i].sym = str(L, &g);
                if (!d[i].sym) return nomem(L);
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
static enum nnperf_status parse_type(struct ld *L, const uint8_t *p, size_t n, int *kind, int *dtype,
                                     int *rank, struct ir_dim **dims, int depth)
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
                if (g.num == TT_ELEM && g.wire == PB_VARINT)
                    *dtype = (int)g.u;
                else if (g.num == TT_SHAPE && g.wire == PB_LEN) {
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
                    enum nnperf_status st = parse_type(L, g.data, g.len, &k2, dtype, rank, dims, depth + 1);
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
static enum nnperf_status parse_value_info(struct ld *L, const uint8_t *p, size_t n, const char **name,
                                           int *kind, int *dtype, int *rank, struct ir_dim **dims)
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
            *name = str(L, &f);
            if (!*name) return nomem(L);
        } else if (f.num == VI_TYPE && f.wire == PB_LEN) {
            type = f.data;
            type_len = f.len;
        }
    }
    if (!*name) return diag_set(L->d, NNPERF_E_PARSE, "a value_info/input/output entry has no name");
    /* the type after the name, so that its errors can say which value */
    if (type) {
        enum nnperf_status st = parse_type(L, type, type_len, kind, dtype, rank, dims, 0);
        if (st) {
            diag_prefix(L->d, "value '%s': ", *name);
            return st;
        }
    }
    return NNPERF_OK;
}

/* ---- tensors ---- */

static enum nnperf_status parse_tensor(struct ld *L, const uint8_t *p, size_t n, struct ir_value *v,
                                       const char **name_out)
{
    const char *why;
    struct pb r = pb_make(p, n);
    struct pb_field f;
    int ndims = 0;
    int has_data = 0, external = 0, repeated = 0;
    const char *tname = NULL; /* for messages: the name may come after the dims */
    FOR_FIELDS_CHECKED(r, f, "TensorProto", tensor_fields)
    {
        if (f.num == TP_DIMS) {
            if (f.wire == PB_VARINT)
                ndims++;
            else if (f.wire == PB_LEN) {
                int64_t c = pb_count_varints(f.data, f.len);
                if (c < 0) return malformed(L, "TensorProto", "bad packed dims", f.data);
                ndims += (int)(c > NNPERF_MAX_RANK ? NNPERF_MAX_RANK + 1 : c);
            }
            if (ndims > NNPERF_MAX_RANK) ndims = NNPERF_MAX_RANK + 1; /* reported below; no int overflow */
        } else if (f.num == TP_NAME && f.wire == PB_LEN && !(tname = str(L, &f))) {
            return nomem(L);
        }
    }
    if (!tname) tname = v->name ? v->name : "";
    if (ndims > NNPERF_MAX_RANK)
        return diag_set(L->d, NNPERF_E_LIMIT, "tensor '%s' has more than %d dims", tname, NNPERF_MAX_RANK);
    v->type_kind = TK_TENSOR;
    v->rank = ndims;
    v->dims = ar_calloc(L->ar, (size_t)(ndims ? ndims : 1), sizeof(struct ir_dim));
    if (!v->dims) return nomem(L);
    v->declared = 1;
    r = pb_make(p, n);
    int di = 0;
    FOR_FIELDS(r, f, "TensorProto")
    {
        switch (f.num) {
        case TP_DIMS:
            if (f.wire == PB_VARINT) {
                if ((int64_t)f.u < 0)
                    return diag_set(L->d, NNPERF_E_INVALID, "tensor '%s' has a negative dim (%lld)", tname,
                                    (long long)(int64_t)f.u);
                v->dims[di++] = ir_dim_known((int64_t)f.u);
            } else if (f.wire == PB_LEN) {
                struct pb q = pb_make(f.data, f.len);
                uint64_t x;
                int rc;
                while ((rc = pb_varint(&q, &x)) == 1) {
                    if ((int64_t)x < 0)
                        return diag_set(L->d, NNPERF_E_INVALID, "tensor '%s' has a negative dim (%lld)",
                                        tname, (long long)(int64_t)x);
                    v->dims[di++] = ir_dim_known((int64_t)x);
                }
                if (rc < 0) return malformed(L, "TensorProto", "bad packed dims", f.data);
            }
            break;
        case TP_DTYPE:
            if (f.wire == PB_VARINT) v->dtype = f.u < DT_COUNT ? (int)f.u : DT_UNDEFINED;
            break;
        case TP_NAME:
            if (f.wire == PB_LEN && name_out) *name_out = tname;
            break;
        case TP_RAW:
            if (f.wire == PB_LEN) {
                v->enc = DE_RAW;
                v->data = f.data;
                v->data_len = f.len;
                has_data = 1;
            }
            break;
        case TP_FLOAT:
        case TP_INT32:
        case TP_INT64:
        case TP_DOUBLE:
        case TP_UINT64:
            if (f.wire == PB_LEN) {
                if (has_data && v->data_len && f.len) break; /* keep the first non-empty field */
                v->enc = (f.num == TP_FLOAT) ? DE_FIXED32 : (f.num == TP_DOUBLE) ? DE_FIXED64 : DE_VARINT;
                v->data = f.data;
                v->data_len = f.len;
                has_data = 1;
            } else {
                repeated = 1; /* unpacked repeated scalars */
            }
            break;
        case TP_STRING: has_data = 1; break;
        case TP_LOCATION:
            if (f.wire == PB_VARINT && f.u == 1) external = 1;
            break;
        case TP_EXTERNAL:
            if (f.wire == PB_LEN) {
                struct pb q = pb_make(f.data, f.len);
                struct pb_field g;
                const char *key = NULL, *val = NULL;
                FOR_FIELDS(q, g, "StringStringEntryProto")
                {
                    if (g.wire != PB_LEN) continue;
                    if (g.num == 1)
                        key = str(L, &g);
                    else if (g.num == 2)
                        val = str(L, &g);
                }
                if (!key || !val) break;
                if (!strcmp(key, "location"))
                    v->ext_location = val;
                else if (!strcmp(key, "offset") || !strcmp(key, "length")) {
                    char *end;
                    unsigned long long x = strtoull(val, &end, 10);
                    if (!*val || *end || val[0] == '-')
                        return diag_set(L->d, NNPERF_E_PARSE,
                                        "tensor '%s': external data %s '%s' is not a number", tname, key,
                                        val);
                    if (!strcmp(key, "offset"))
                        v->ext_offset = x;
                    else {
                        v->ext_length = x;
                        v->ext_has_length = 1;
                    }
                }
            }
            break;
        default: break;
        }
    }
    if (external) {
        if (!v->ext_location)
            return diag_set(L->d, NNPERF_E_PARSE, "external tensor '%s' has no 'location'", tname);
        v->enc = DE_EXTERNAL;
        const char *loc = v->ext_location;
        /* refuse paths that escape the model's directory: absolute, or with a ".." component */
        int escapes = loc[0] == '/' || loc[0] == '\\' || (loc[0] && loc[1] == ':');
        for (const char *s = loc; *s && !escapes; s++)
            if (s[0] == '.' && s[1] == '.' && (s == loc || s[-1] == '/' || s[-1] == '\\') &&
                (s[2] == 0 || s[2] == '/' || s[2] == '\\'))
                escapes = 1;
        if (escapes)
            return diag_set(L->d, NNPERF_E_INVALID,
                            "tensor '%s': external data location '%s' escapes the model's directory", tname,
                            loc);
    } else if (repeated && !has_data) {
        v->enc = DE_REPEATED;
        v->tensor_pb = p;
        v->tensor_pb_len = n;
    }
    v->flags |= 0;
    return NNPERF_OK;
}

enum nnperf_status ox_parse_tensor(struct ir_model *m, const uint8_t *buf, size_t len, struct ir_value *v,
                                   struct diag *d)
{
    struct ld L0 = {m, &m->ar, d, 0};
    const char *name = NULL;
    enum nnperf_status st = parse_tensor(&L0, buf, len, v, &name);
    if (!st && name && !v->name) v->name = name;
    return st;
}

/* ---- graphs ---- */

static enum nnperf_status parse_graph(struct ld *L, const uint8_t *p, size_t n, struct ir_graph *parent,
                                      const struct rename *rn, struct ir_graph **out);

static const char *rename_name(struct ld *L, const struct rename *rn, const char *name)
{
    if (!rn || !name[0]) return name;
    for (int i = 0; i < rn->n; i++)
        if (!strcmp(rn->formal[i], name)) return rn->actual[i];
    return ar_printf(L->ar, "%s/%s", rn->prefix, name);
}

static const struct ir_attr *find_attr(const struct ir_node *nd, const char *name)
{
    for (int i = 0; i < nd->n_attr; i++)
        if (!strcmp(nd->attrs[i].name, name)) return &nd->attrs[i];
    return NULL;
}

static enum nnperf_status parse_attr(struct ld *L, const uint8_t *p, size_t n, struct ir_graph *g,
                                     const struct rename *rn, const char *node_name, struct ir_attr *a)
{
    const char *why;
    struct pb r = pb_make(p, n);
    struct pb_field f;
    int64_t nints = 0, nfloats = 0, nstrings = 0, ngraphs = 0;
    FOR_FIELDS_CHECKED(r, f, "AttributeProto", attr_fields)
    {
        switch (f.num) {
        case AP_NAME:
            if (f.wire == PB_LEN && !(a->name = str(L, &f))) return nomem(L);
            break;
        case AP_REF:
            if (f.wire == PB_LEN && !(a->ref_name = str(L, &f))) return nomem(L);
            break;
        case AP_TYPE:
            if (f.wire == PB_VARINT) a->type = (int)f.u;
            break;
        case AP_F:
            if (f.wire == PB_I32) {
                float x;
                uint32_t u = (uint32_t)f.u;
                memcpy(&x, &u, 4);
                a->f = x;
            }
            break;
        case AP_I:
            if (f.wire == PB_VARINT) a->i = (int64_t)f.u;
            break;
        case AP_S:
            if (f.wire == PB_LEN) {
                if (f.len > NNPERF_MAX_ATTR_ELEMS)
                    return diag_set(L->d, NNPERF_E_LIMIT, "node '%s': a string attribute has %zu bytes",
                                    node_name, f.len);
                a->s = str(L, &f);
                a->slen = f.len;
                if (!a->s) return nomem(L);
            }
            break;
        case AP_INTS:
            if (f.wire == PB_VARINT)
                nints++;
            else if (f.wire == PB_LEN) {
                int64_t c = pb_count_varints(f.data, f.len);
                if (c < 0) return malformed(L, "AttributeProto", "bad packed ints", f.data);
                nints += c;
            }
            break;
        case AP_FLOATS:
            if (f.wire == PB_I32)
                nfloats++;
            else if (f.wire == PB_LEN) {
                if (f.len % 4)
                    return malformed(L, "AttributeProto", "packed floats are not a multiple of 4 bytes",
                                     f.data);
                nfloats += (int64_t)(f.len / 4);
            }
            break;
        case AP_STRINGS:
            if (f.wire == PB_LEN) nstrings++;
            break;
        case AP_GRAPHS:
            if (f.wire == PB_LEN) ngraphs++;
            break;
        default: break;
        }
        if (nints > NNPERF_MAX_ATTR_ELEMS || nfloats > NNPERF_MAX_ATTR_ELEMS ||
            nstrings > NNPERF_MAX_ATTR_ELEMS)
            return diag_set(L->d, NNPERF_E_LIMIT, "node '%s': attribute '%s' has more than %d values",
                            node_name, a->name ? a->name : "?", NNPERF_MAX_ATTR_ELEMS);
    }
    if (!a->name) return diag_set(L->d, NNPERF_E_PARSE, "node '%s': an attribute has no name", node_name);
    if (nints && !(a->ints = ar_calloc(L->ar, (size_t)nints, sizeof(int64_t)))) return nomem(L);
    if (nfloats && !(a->floats = ar_calloc(L->ar, (size_t)nfloats, sizeof(double)))) return nomem(L);
    if (nstrings && !(a->strings = ar_calloc(L->ar, (size_t)nstrings, sizeof(char *)))) return nomem(L);
    if (ngraphs && !(a->graphs = ar_calloc(L->ar, (size_t)ngraphs, sizeof(struct ir_graph *))))
        return nomem(L);
    int64_t ki = 0, kf = 0, ks = 0, kg = 0;
    r = pb_make(p, n);
    FOR_FIELDS(r, f, "AttributeProto")
    {
        switch (f.num) {
        case AP_INTS:
            if (f.wire == PB_VARINT)
                a->ints[ki++] = (int64_t)f.u;
            else if (f.wire == PB_LEN) {
                struct pb q = pb_make(f.data, f.len);
                uint64_t x;
                int rc;
                while ((rc = pb_varint(&q, &x)) == 1) a->ints[ki++] = (int64_t)x;
                if (rc < 0) return malformed(L, "AttributeProto", "bad packed ints", f.data);
            }
            break;
        case AP_FLOATS:
            if (f.wire == PB_I32) {
                float x;
                uint32_t u = (uint32_t)f.u;
                memcpy(&x, &u, 4);
                a->floats[kf++] = x;
            } else if (f.wire == PB_LEN) {
                for (size_t o = 0; o + 4 <= f.len; o += 4) {
                    float x;
                    memcpy(&x, f.data + o, 4);
                    a->floats[kf++] = x;
                }
            }
            break;
        case AP_STRINGS:
            if (f.wire == PB_LEN && !(a->strings[ks++] = str(L, &f))) return nomem(L);
            break;
        case AP_T:
        case AP_SPARSE:
            if (f.wire == PB_LEN) {
                struct ir_value *t = ar_alloc(L->ar, sizeof *t);
                if (!t) return nomem(L);
                t->producer = NULL;
                t->name = a->name;
                if (f.num == AP_T) {
                    enum nnperf_status st = parse_tensor(L, f.data, f.len, t, NULL);
                    if (st) return st;
                } else {
                    /* SparseTensorProto: dims (field 3) give the dense shape; values are not propagated */
                    struct pb q = pb_make(f.data, f.len);
                    struct pb_field h;
                    int nd = 0;
                    t->dims = ar_calloc(L->ar, NNPERF_MAX_RANK, sizeof(struct ir_dim));
                    if (!t->dims) return nomem(L);
                    FOR_FIELDS(q, h, "SparseTensorProto")
                    {
                        if (h.num == SP_DIMS && h.wire == PB_VARINT && nd < NNPERF_MAX_RANK)
                            t->dims[nd++] = ir_dim_known((int64_t)h.u >= 0 ? (int64_t)h.u : 0);
                        else if (h.num == SP_DIMS && h.wire == PB_LEN) {
                            struct pb q2 = pb_make(h.data, h.len);
                            uint64_t x;
                            while (nd < NNPERF_MAX_RANK && pb_varint(&q2, &x) == 1)
                                t->dims[nd++] = ir_dim_known((int64_t)x >= 0 ? (int64_t)x : 0);
                        } else if (h.num == SP_VALUES && h.wire == PB_LEN) {
                            struct ir_value tmp = {0};
                            enum nnperf_status st = parse_tensor(L, h.data, h.len, &tmp, NULL);
                            if (st) return st;
                            t->dtype = tmp.dtype;
                        }
                    }
                    t->rank = nd;
                    t->type_kind = TK_TENSOR;
                    t->declared = 1;
                }
                a->t = t;
            }
            break;
        case AP_G:
        case AP_GRAPHS:
            if (f.wire == PB_LEN) {
                if (!g) break;
                struct ir_graph *sub;
                if (g->depth + 1 > NNPERF_MAX_SUBGRAPH_DEPTH)
                    return diag_set(L->d, NNPERF_E_LIMIT, "node '%s': subgraphs nested deeper than %d",
                                    node_name, NNPERF_MAX_SUBGRAPH_DEPTH);
                enum nnperf_status st = parse_graph(L, f.data, f.len, g, rn, &sub);
                if (st) {
                    /* context from the outermost node only: one prefix per level would push the message
                     * itself out of the (capped) diagnostic when subgraphs nest deeply */
                    if (!g->parent) diag_prefix(L->d, "node '%s' attribute '%s': ", node_name, a->name);
                    return st;
                }
                if (f.num == AP_G)
                    a->g = sub;
                else
                    a->graphs[kg++] = sub;
            }
            break;
        case AP_TP:
            if (f.wire == PB_LEN) {
                int kind = 0, dt = 0, rk = -1;
                struct ir_dim *dd = NULL;
                enum nnperf_status st = parse_type(L, f.data, f.len, &kind, &dt, &rk, &dd, 0);
                if (st) return st;
                a->tp_dtype = dt;
            }
            break;
        default: break;
        }
    }
    a->n = a->type == AT_INTS      ? nints
           : a->type == AT_FLOATS  ? nfloats
           : a->type == AT_STRINGS ? nstrings
           : a->type == AT_GRAPHS  ? ngraphs
                                   : 0;
    /* IR version 1/2 models may leave 'type' unset: derive it from what is there */
    if (a->type == AT_UNDEFINED) {
        if (a->g)
            a->type = AT_GRAPH;
        else if (a->t)
            a->type = AT_TENSOR;
        else if (a->s)
            a->type = AT_STRING;
        else if (nints)
            a->type = AT_INTS, a->n = nints;
        else if (nfloats)
            a->type = AT_FLOATS, a->n = nfloats;
        else if (nstrings)
            a->type = AT_STRINGS, a->n = nstrings;
    }
    return NNPERF_OK;
}

static struct ir_function *find_function(const struct ld *L, const char *domain, const char *name)
{
    for (int i = 0; i < L->m->n_functions; i++) {
        struct ir_function *fn = &L->m->functions[i];
        if (!strcmp(fn->name, name) && !strcmp(fn->domain, domain)) return fn;
    }
    return NULL;
}

struct gstate {
    struct ir_graph *g;
    struct pvec nodes;
    const struct rename *rn;
};

static enum nnperf_status add_node_proto(struct ld *L, struct gstate *G, const uint8_t *p, size_t n,
                                         const struct rename *rn);

/* Expands a call of a model-local function: its body nodes with names mapped. */
static enum nnperf_status inline_call(struct ld *L, struct gstate *G, struct ir_node *call,
                                      struct ir_function *fn, const struct rename *outer)
{
    int depth = outer ? outer->depth + 1 : 1;
    if (depth > NNPERF_MAX_SUBGRAPH_DEPTH)
        return diag_set(L->d, NNPERF_E_LIMIT, "node '%s': function calls nested deeper than %d", call->name,
                        NNPERF_MAX_SUBGRAPH_DEPTH);
    if (++fn->n_calls > INLINE_MAX_CALLS)
        return diag_set(L->d, NNPERF_E_LIMIT,
                        "function '%s' is called more than %d times (nested calls multiply)", fn->name,
                        INLINE_MAX_CALLS);
    struct rename rn = {0};
    rn.fn = fn;
    rn.depth = depth;
    rn.outer = outer;
    rn.call = call;
    rn.prefix = call->name[0] ? call->name : ar_printf(L->ar, "%s_%d", fn->name, G->nodes.n);
    int nmap = fn->n_inputs + fn->n_outputs;
    rn.formal = ar_calloc(L->ar, (size_t)(nmap ? nmap : 1), sizeof(char *));
    rn.actual = ar_calloc(L->ar, (size_t)(nmap ? nmap : 1), sizeof(char *));
    if (!rn.formal || !rn.actual) return nomem(L);
    for (int i = 0; i < fn->n_inputs; i++) {
        rn.formal[rn.n] = fn->inputs[i];
        rn.actual[rn.n++] = (i < call->n_in && call->in[i]) ? call->in[i]->name : "";
    }
    for (int i = 0; i < fn->n_outputs; i++) {
        rn.formal[rn.n] = fn->outputs[i];
        rn.actual[rn.n++] = (i < call->n_out && call->out[i]) ? call->out[i]->name : "";
    }
    for (int i = 0; i < fn->n_nodes; i++) {
        enum nnperf_status st = add_node_proto(L, G, fn->nodes[i], fn->node_len[i], &rn);
        if (st) {
            /* outermost call only: a prefix per nesting level would push the message out (see parse_attr) */
            if (!outer) diag_prefix(L->d, "in function '%s' called by node '%s': ", fn->name, call->name);
            return st;
        }
    }
    return NNPERF_OK;
}

/* Node inputs are kept as names until every value of the model exists (resolve_graph). */
struct pending_in {
    const char **names;
};

static enum nnperf_status add_node_proto(struct ld *L, struct gstate *G, const uint8_t *p, size_t n,
                                         const struct rename *rn)
{
    const char *why;
    struct pb r = pb_make(p, n);
    struct pb_field f;
    struct ir_node *nd = ar_alloc(L->ar, sizeof *nd);
    if (!nd) return nomem(L);
    int nin = 0, nout = 0, nattr = 0;
    nd->name = "";
    nd->domain = "";
    nd->op_type = NULL;
    FOR_FIELDS_CHECKED(r, f, "NodeProto", node_fields)
    {
        if (f.wire != PB_LEN) continue;
        switch (f.num) {
        case NP_INPUT: nin++; break;
        case NP_OUTPUT: nout++; break;
        case NP_ATTR: nattr++; break;
        case NP_NAME:
            if (!(nd->name = str(L, &f))) return nomem(L);
            break;
        case NP_OP_TYPE:
            if (!(nd->op_type = str(L, &f))) return nomem(L);
            break;
        case NP_DOMAIN:
            if (!(nd->domain = str(L, &f))) return nomem(L);
            break;
        default: break;
        }
    }
    if (!nd->op_type || !nd->op_type[0])
        return diag_set(L->d, NNPERF_E_PARSE, "node '%s' has no op_type", nd->name);
    if (!strcmp(nd->domain, "ai.onnx")) nd->domain = "";
    /* nodes of an inlined function body are named after the call site */
    if (rn && nd->name[0])
        nd->name = ar_printf(L->ar, "%s/%s", rn->prefix, nd->name);
    else if (rn)
        nd->name = ar_printf(L->ar, "%s/%s_%d", rn->prefix, nd->op_type, G->nodes.n);
    if (++L->n_nodes_total > NNPERF_MAX_NODES)
        return diag_set(L->d, NNPERF_E_LIMIT, "the model has more than %d nodes", NNPERF_MAX_NODES);
    const char **in_names = ar_calloc(L->ar, (size_t)(nin ? nin : 1), sizeof(char *));
    nd->in = ar_calloc(L->ar, (size_t)(nin ? nin : 1), sizeof(struct ir_value *));
    nd->out = ar_calloc(L->ar, (size_t)(nout ? nout : 1), sizeof(struct ir_value *));
    nd->attrs = ar_calloc(L->ar, (size_t)(nattr ? nattr : 1), sizeof(struct ir_attr));
    if (!in_names || !nd->in || !nd->out || !nd->attrs) return nomem(L);
    nd->graph = G->g;
    nd->op = -1;
    nd->repeat = 1;
    r = pb_make(p, n);
    const char **out_names = ar_calloc(L->ar, (size_t)(nout ? nout : 1), sizeof(char *));
    if (!out_names) return nomem(L);
    FOR_FIELDS(r, f, "NodeProto")
    {
        if (f.wire != PB_LEN) continue;
        if (f.num == NP_INPUT) {
            const char *s = str(L, &f);
            if (!s || !(s = rename_name(L, rn, s))) return nomem(L);
            in_names[nd->n_in++] = s;
        } else if (f.num == NP_OUTPUT) {
            const char *s = str(L, &f);
            if (!s || !(s = rename_name(L, rn, s))) return nomem(L);
            out_names[nd->n_out++] = s;
        } else if (f.num == NP_ATTR) {
            struct ir_attr *a = &nd->attrs[nd->n_attr];
            memset(a, 0, sizeof *a); /* the slot may hold a dropped reference attribute (continue below) */
            enum nnperf_status st = parse_attr(L, f.data, f.len, G->g, rn, nd->name, a);
            if (st) return st;
            if (a->ref_name) {
                /* attribute reference inside a function body: take the call's value, else the default */
                const struct ir_attr *src = NULL;
                if (rn && rn->call) src = find_attr(rn->call, a->ref_name);
                if (!src && rn && rn->fn)
                    for (int k = 0; k < rn->fn->n_defaults; k++)
                        if (!strcmp(rn->fn->defaults[k].name, a->ref_name)) src = &rn->fn->defaults[k];
                if (!src) continue; /* not given: the attribute is absent */
                const char *nm = a->name;
                *a = *src;
                a->name = nm;
                a->ref_name = NULL;
            }
            nd->n_attr++;
        }
    }
    for (int i = 0; i < nd->n_attr; i++) {
        if (nd->attrs[i].type == AT_GRAPH && nd->attrs[i].g) nd->n_sub++;
        if (nd->attrs[i].type == AT_GRAPHS) nd->n_sub += (int)nd->attrs[i].n;
    }
    /* a model-local function call is replaced by its body (unless the registry has the operator): the call's
     * inputs and outputs are only names for the body's renaming, not values */
    struct ir_function *fn = find_function(L, nd->domain, nd->op_type);
    if (fn && op_find(nd->domain, nd->op_type) < 0) {
        for (int i = 0; i < nd->n_in + nd->n_out; i++) {
            int is_in = i < nd->n_in;
            const char *nm = is_in ? in_names[i] : out_names[i - nd->n_in];
            struct ir_value *tmp = ar_alloc(L->ar, sizeof *tmp);
            if (!tmp) return nomem(L);
            tmp->name = nm;
            if (is_in)
                nd->in[i] = nm[0] ? tmp : NULL;
            else
                nd->out[i - nd->n_in] = nm[0] ? tmp : NULL;
        }
        return inline_call(L, G, nd, fn, rn);
    }
    /* outputs become values now; inputs are resolved once every value exists */
    for (int i = 0; i < nd->n_out; i++) {
        if (!out_names[i][0]) continue;
        struct ir_value *v;
        enum nnperf_status st = ir_add_value(L->ar, G->g, out_names[i], &v, L->d);
        if (st) {
            diag_prefix(L->d, "node '%s' (%s): ", nd->name, nd->op_type);
            return st;
        }
        v->producer = nd;
        nd->out[i] = v;
    }
    /* stash input names in the in[] slots as name-only placeholders */
    for (int i = 0; i < nd->n_in; i++) {
        if (!in_names[i][0]) {
            nd->in[i] = NULL;
            continue;
        }
        struct ir_value *ph = ar_alloc(L->ar, sizeof *ph);
        if (!ph) return nomem(L);
        ph->name = in_names[i];
        ph->rank = -2; /* placeholder marker */
        nd->in[i] = ph;
    }
    if (!pv_push(L->ar, &G->nodes, nd)) return nomem(L);
    return NNPERF_OK;
}

static void set_decl(struct ir_value *v, int kind, int dtype, int rank, struct ir_dim *dims)
{
    v->decl_rank = rank;
    v->decl_dims = dims;
    v->decl_dtype = dtype;
    if (kind != TK_UNKNOWN) v->type_kind = kind;
}

/* A declared shape whose element count or byte size does not fit in int64 is refused here, so that nothing
 * downstream multiplies such dims. Symbolic and unknown dims are skipped; a zero dim makes the tensor empty. */
static enum nnperf_status check_size(struct ld *L, const char *what, const char *name, int rank,
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
    size_t k = 0;
    shape[0] = 0;
    for (int i = 0; i < rank && k < sizeof shape; i++) {
        int w = snprintf(shape + k, sizeof shape - k, i ? "x%lld" : "%lld", (long long)dims[i].val);
        if (w < 0) break;
        k += (size_t)w;
    }
    return diag_set(L->d, NNPERF_E_LIMIT, "%s '%s': the size of shape %s overflows int64", what, name, shape);
}

static enum nnperf_status parse_graph(struct ld *L, const uint8_t *p, size_t n, struct ir_graph *parent,
                                      const struct rename *rn, struct ir_graph **out)
{
    const char *why;
    struct ir_graph *g = ar_alloc(L->ar, sizeof *g);
    if (!g) return nomem(L);
    g->parent = parent;
    g->depth = parent ? parent->depth + 1 : 0;
    g->name = "";
    struct gstate G = {g, {0}, rn};
    struct pvec inputs = {0}, outputs = {0}, inits = {0};
    int drop_vi = (L->m->load_flags & NNPERF_LOAD_DROP_VALUE_INFO) != 0;
    struct pb r = pb_make(p, n);
    struct pb_field f;
    enum nnperf_status st;
    /* pass 1: initializers (they may also be listed as inputs, IR < 4) */
    FOR_FIELDS_CHECKED(r, f, "GraphProto", graph_fields)
    {
        if (f.wire != PB_LEN) continue;
        if (f.num == GP_NAME) {
            if (!(g->name = str(L, &f))) return nomem(L);
        } else if (f.num == GP_INIT || f.num == GP_SPARSE_INIT) {
            struct ir_value tmp = {0};
            const char *name = NULL;
            if (f.num == GP_INIT) {
                st = parse_tensor(L, f.data, f.len, &tmp, &name);
            } else {
                /* SparseTensorProto: the name is on its values tensor */
                struct pb q = pb_make(f.data, f.len);
                struct pb_field h;
                st = NNPERF_OK;
                int nd = 0;
                struct ir_dim *dd = ar_calloc(L->ar, NNPERF_MAX_RANK, sizeof *dd);
                if (!dd) return nomem(L);
                FOR_FIELDS(q, h, "SparseTensorProto")
                {
                    if (h.num == SP_VALUES && h.wire == PB_LEN) {
                        struct ir_value vv = {0};
                        st = parse_tensor(L, h.data, h.len, &vv, &name);
                        if (st) return st;
                        tmp.dtype = vv.dtype;
                    } else if (h.num == SP_DIMS && h.wire == PB_VARINT && nd < NNPERF_MAX_RANK) {
                        dd[nd++] = ir_dim_known((int64_t)h.u >= 0 ? (int64_t)h.u : 0);
                    } else if (h.num == SP_DIMS && h.wire == PB_LEN) {
                        struct pb q2 = pb_make(h.data, h.len);
                        uint64_t x;
                        while (nd < NNPERF_MAX_RANK && pb_varint(&q2, &x) == 1)
                            dd[nd++] = ir_dim_known((int64_t)x >= 0 ? (int64_t)x : 0);
                    }
                }
                tmp.rank = nd;
                tmp.dims = dd;
                tmp.type_kind = TK_TENSOR;
                tmp.declared = 1;
            }
            if (st) return st;
            if (!name || !name[0]) return diag_set(L->d, NNPERF_E_PARSE, "an initializer has no name");
            if ((st = check_size(L, "initializer", name, tmp.rank, tmp.dims, tmp.dtype))) return st;
            if (rn && !(name = rename_name(L, rn, name))) return nomem(L);
            struct ir_value *v;
            if ((st = ir_add_value(L->ar, g, name, &v, L->d))) return st;
            const char *nm = v->name;
            *v = tmp;
            v->name = nm;
            v->flags |= IR_V_INIT;
            v->decl_rank = -1;
            if (!pv_push(L->ar, &inits, v)) return nomem(L);
        }
    }
    /* pass 2: inputs, then nodes, outputs, value_info in file order */
    r = pb_make(p, n);
    FOR_FIELDS(r, f, "GraphProto")
    {
        if (f.wire != PB_LEN) continue;
        if (f.num == GP_INPUT) {
            const char *name;
            int kind, dt, rk;
            struct ir_dim *dd;
            if ((st = parse_value_info(L, f.data, f.len, &name, &kind, &dt, &rk, &dd))) return st;
            if ((st = check_size(L, "graph input", name, rk, dd, dt))) return st;
            if (rn && !(name = rename_name(L, rn, name))) return nomem(L);
            struct ir_value *v = ir_find(g, name);
            if (v && (v->flags & IR_V_INIT)) {
                v->flags |= IR_V_INPUT; /* an input with a default value: treated as the constant */
            } else {
                if (v) return diag_set(L->d, NNPERF_E_INVALID, "graph input '%s' is listed twice", name);
                if ((st = ir_add_value(L->ar, g, name, &v, L->d))) return st;
                v->flags |= IR_V_INPUT;
                v->type_kind = kind == TK_UNKNOWN ? TK_TENSOR : kind;
                v->dtype = dt;
                v->rank = rk;
                v->dims = dd;
                v->declared = 1;
                v->decl_rank = -1;
            }
            if (!pv_push(L->ar, &inputs, v)) return nomem(L);
        } else if (f.num == GP_NODE) {
            if ((st = add_node_proto(L, &G, f.data, f.len, rn))) return st;
        }
    }
    r = pb_make(p, n);
    FOR_FIELDS(r, f, "GraphProto")
    {
        if (f.wire != PB_LEN || (f.num != GP_OUTPUT && f.num != GP_VALUE_INFO)) continue;
        const char *name;
        int kind, dt, rk;
        struct ir_dim *dd;
        if ((st = parse_value_info(L, f.data, f.len, &name, &kind, &dt, &rk, &dd))) return st;
        if ((st = check_size(L, f.num == GP_OUTPUT ? "graph output" : "value_info", name, rk, dd, dt)))
            return st;
        if (rn && !(name = rename_name(L, rn, name))) return nomem(L);
        struct ir_value *v = ir_find(g, name);
        if (f.num == GP_OUTPUT) {
            if (!v) v = ir_lookup(g, name); /* an output may pass an outer or input value through */
            if (!v)
                return diag_set(L->d, NNPERF_E_INVALID, "graph output '%s' is not produced by any node",
                                name);
            v->flags |= IR_V_OUTPUT;
            if (!pv_push(L->ar, &outputs, v)) return nomem(L);
            if (v->producer && !drop_vi)
                set_decl(v, kind, dt, rk, dd);
            else if (v->producer && kind != TK_UNKNOWN)
                v->type_kind = kind;
        } else if (v && v->producer && !drop_vi) {
            set_decl(v, kind, dt, rk, dd);
        }
    }
    g->nodes = (struct ir_node **)G.nodes.v;
    g->n_nodes = G.nodes.n;
    g->inputs = (struct ir_value **)inputs.v;
    g->n_inputs = inputs.n;
    g->outputs = (struct ir_value **)outputs.v;
    g->n_outputs = outputs.n;
    g->inits = (struct ir_value **)inits.v;
    g->n_inits = inits.n;
    *out = g;
    return NNPERF_OK;
}

/* Replaces name placeholders by the values they name; collects outer-scope reads of subgraphs on their node. */
static enum nnperf_status resolve_graph(struct ld *L, struct ir_graph *g);

static enum nnperf_status add_impl(struct ld *L, struct ir_node *nd, struct ir_value *v)
{
    for (int i = 0; i < nd->n_impl; i++)
        if (nd->impl[i] == v) return NNPERF_OK;
    struct ir_value **nv = ar_calloc(L->ar, (size_t)nd->n_impl + 1, sizeof *nv);
    if (!nv) return nomem(L);
    if (nd->n_impl) memcpy(nv, nd->impl, (size_t)nd->n_impl * sizeof *nv);
    nv[nd->n_impl++] = v;
    nd->impl = nv;
    return NNPERF_OK;
}

/* Is value v defined in graph g or a graph nested in g? */
static int defined_within(const struct ir_value *v, const struct ir_graph *g)
{
    if (!v->producer) {
        /* graph inputs/initializers: find the graph they belong to */
        for (const struct ir_graph *s = g; s; s = NULL)
            if (ir_find(s, v->name) == v) return 1;
        return 0;
    }
    for (const struct ir_graph *s = v->producer->graph; s; s = s->parent)
        if (s == g) return 1;
    return 0;
}

static enum nnperf_status collect_outer_reads(struct ld *L, struct ir_node *owner, struct ir_graph *sub);

static enum nnperf_status resolve_graph(struct ld *L, struct ir_graph *g)
{
    enum nnperf_status st;
    for (int k = 0; k < g->n_nodes; k++) {
        struct ir_node *nd = g->nodes[k];
        for (int i = 0; i < nd->n_in; i++) {
            struct ir_value *ph = nd->in[i];
            if (!ph || ph->rank != -2) continue;
            struct ir_value *v = ir_lookup(g, ph->name);
            if (!v)
                return diag_set(
                    L->d, NNPERF_E_INVALID,
                    "node '%s' (%s): input '%s' is not a graph input, an initializer or any node's output",
                    nd->name, nd->op_type, ph->name);
            nd->in[i] = v;
            v->n_consumers++;
        }
        for (int a = 0; a < nd->n_attr; a++) {
            struct ir_attr *at = &nd->attrs[a];
            if (at->type == AT_GRAPH && at->g) {
                if ((st = resolve_graph(L, at->g))) return st;
            } else if (at->type == AT_GRAPHS) {
                for (int j = 0; j < at->n; j++)
                    if (at->graphs[j] && (st = resolve_graph(L, at->graphs[j]))) return st;
            }
        }
    }
    /* after the whole subtree is resolved, record outer reads on each control-flow node */
    for (int k = 0; k < g->n_nodes; k++) {
        struct ir_node *nd = g->nodes[k];
        for (int a = 0; a < nd->n_attr; a++) {
            struct ir_attr *at = &nd->attrs[a];
            if (at->type == AT_GRAPH && at->g && (st = collect_outer_reads(L, nd, at->g))) return st;
            if (at->type == AT_GRAPHS)
                for (int j = 0; j < at->n; j++)
                    if (at->graphs[j] && (st = collect_outer_reads(L, nd, at->graphs[j]))) return st;
        }
    }
    return NNPERF_OK;
}

static enum nnperf_status collect_outer_reads(struct ld *L, struct ir_node *owner, struct ir_graph *sub)
{
    enum nnperf_status st;
    for (int k = 0; k < sub->n_nodes; k++) {
        struct ir_node *nd = sub->nodes[k];
        for (int i = 0; i < nd->n_in; i++) {
            struct ir_value *v = nd->in[i];
            if (v && !defined_within(v, sub) && (st = add_impl(L, owner, v))) return st;
        }
        for (int i = 0; i < nd->n_impl; i++)
            if (!defined_within(nd->impl[i], sub) && (st = add_impl(L, owner, nd->impl[i]))) return st;
    }
    for (int i = 0; i < sub->n_outputs; i++) {
        struct ir_value *v = sub->outputs[i];
        if (v && !defined_within(v, sub) && (st = add_impl(L, owner, v))) return st;
    }
    return NNPERF_OK;
}

static enum nnperf_status parse_function(struct ld *L, const uint8_t *p, size_t n, struct ir_function *fn)
{
    const char *why;
    struct pb r = pb_make(p, n);
    struct pb_field f;
    struct pvec ins = {0}, outs = {0}, nodes = {0}, lens = {0}, defs = {0};
    fn->name = "";
    fn->domain = "";
    FOR_FIELDS(r, f, "FunctionProto")
    {
        if (f.wire != PB_LEN) continue;
        const char *s;
        switch (f.num) {
        case FP_NAME:
            if (!(fn->name = str(L, &f))) return nomem(L);
            break;
        case FP_DOMAIN:
            if (!(fn->domain = str(L, &f))) return nomem(L);
            if (!strcmp(fn->domain, "ai.onnx")) fn->domain = "";
            break;
        case FP_INPUT:
            if (!(s = str(L, &f)) || !pv_push(L->ar, &ins, (void *)s)) return nomem(L);
            break;
        case FP_OUTPUT:
            if (!(s = str(L, &f)) || !pv_push(L->ar, &outs, (void *)s)) return nomem(L);
            break;
        case FP_NODE: {
            size_t *len = ar_alloc(L->ar, sizeof *len);
            if (!len) return nomem(L);
            *len = f.len;
            if (!pv_push(L->ar, &nodes, (void *)f.data) || !pv_push(L->ar, &lens, len)) return nomem(L);
            break;
        }
        case FP_ATTR_PROTO: {
            struct ir_attr *a = ar_alloc(L->ar, sizeof *a);
            if (!a) return nomem(L);
            enum nnperf_status st = parse_attr(L, f.data, f.len, NULL, NULL, fn->name, a);
            if (st) return st;
            if (!pv_push(L->ar, &defs, a)) return nomem(L);
            break;
        }
        default: break;
        }
    }
    fn->inputs = (const char **)ins.v;
    fn->n_inputs = ins.n;
    fn->outputs = (const char **)outs.v;
    fn->n_outputs = outs.n;
    fn->n_nodes = nodes.n;
    fn->nodes = (const uint8_t **)nodes.v;
    fn->node_len = ar_calloc(L->ar, (size_t)(nodes.n ? nodes.n : 1), sizeof(size_t));
    fn->n_defaults = defs.n;
    fn->defaults = ar_calloc(L->ar, (size_t)(defs.n ? defs.n : 1), sizeof(struct ir_attr));
    if (!fn->node_len || !fn->defaults) return nomem(L);
    for (int i = 0; i < nodes.n; i++) fn->node_len[i] = *(size_t *)lens.v[i];
    for (int i = 0; i < defs.n; i++) fn->defaults[i] = *(struct ir_attr *)defs.v[i];
    return NNPERF_OK;
}

/* Sets each node's opset and registry index. */
static void bind_ops(struct ir_model *m, struct ir_graph *g)
{
    for (int k = 0; k < g->n_nodes; k++) {
        struct ir_node *nd = g->nodes[k];
        nd->opset = (int)ir_opset_of(m, nd->domain);
        nd->op = op_find(nd->domain, nd->op_type);
        for (int a = 0; a < nd->n_attr; a++) {
            if (nd->attrs[a].type == AT_GRAPH && nd->attrs[a].g) bind_ops(m, nd->attrs[a].g);
            if (nd->attrs[a].type == AT_GRAPHS)
                for (int j = 0; j < nd->attrs[a].n; j++)
                    if (nd->attrs[a].graphs[j]) bind_ops(m, nd->attrs[a].graphs[j]);
        }
    }
}

enum nnperf_status ox_load_model(struct ir_model *m, struct diag *d)
{
    struct ld L0 = {m, &m->ar, d, 0};
    struct ld *L = &L0;
    const char *why;
    struct pb r = pb_make(m->buf, m->len);
    struct pb_field f;
    const uint8_t *gp = NULL;
    size_t glen = 0;
    int nfun = 0, nops = 0, saw_ir = 0, rc;
    while ((rc = pb_next(&r, &f, &why)) != 0) {
        /* at the top level a field running past its message runs past the end of the file */
        if (rc < 0 && why == pb_why_past_end)
            return diag_set(
                d, NNPERF_E_PARSE,
                "truncated file: ModelProto field %u at byte %zu claims %llu bytes, the file has %zu", f.num,
                pb_offset(&r), (unsigned long long)f.u, m->len);
        if (rc < 0) return bad_field(L, "ModelProto", why, r.field, &f, model_fields);
        if (!wire_ok(L, "ModelProto", model_fields, &f, r.field)) return d->status;
        switch (f.num) {
        case MP_IR_VERSION:
            if (f.wire == PB_VARINT) {
                m->ir_version = (int64_t)f.u;
                saw_ir = 1;
            }
            break;
        case MP_PRODUCER:
            if (f.wire == PB_LEN && !(m->producer = str(L, &f))) return nomem(L);
            break;
        case MP_GRAPH:
            if (f.wire == PB_LEN) {
                gp = f.data;
                glen = f.len;
            }
            break;
        case MP_OPSET:
            if (f.wire == PB_LEN) nops++;
            break;
        case MP_FUNCTIONS:
            if (f.wire == PB_LEN) nfun++;
            break;
        default: break;
        }
    }
    if (!saw_ir && !gp)
        return diag_set(d, NNPERF_E_PARSE, "not an ONNX model: no ir_version and no graph field");
    if (!gp) return diag_set(d, NNPERF_E_PARSE, "the model has no graph");
    if (!saw_ir) return diag_set(d, NNPERF_E_PARSE, "the model has no ir_version");
    if (m->ir_version < 3)
        return diag_set(d, NNPERF_E_UNSUPPORTED, "IR version %lld is not supported (3 and later are)",
                        (long long)m->ir_version);
    m->opsets = ar_calloc(&m->ar, (size_t)(nops ? nops : 1), sizeof *m->opsets);
    m->functions = ar_calloc(&m->ar, (size_t)(nfun ? nfun : 1), sizeof *m->functions);
    if (!m->opsets || !m->functions) return nomem(L);
    r = pb_make(m->buf, m->len);
    FOR_FIELDS(r, f, "ModelProto")
    {
        if (f.wire != PB_LEN) continue;
        if (f.num == MP_OPSET) {
            struct pb q = pb_make(f.data, f.len);
            struct pb_field g;
            struct ir_opset *os = &m->opsets[m->n_opsets++];
            os->domain = "";
            FOR_FIELDS_CHECKED(q, g, "OperatorSetIdProto", opset_fields)
            {
                if (g.num == OS_DOMAIN && g.wire == PB_LEN && !(os->domain = str(L, &g))) return nomem(L);
                if (g.num == OS_VERSION && g.wire == PB_VARINT) os->version = (int64_t)g.u;
            }
            if (!strcmp(os->domain, "ai.onnx")) os->domain = "";
        } else if (f.num == MP_FUNCTIONS) {
            enum nnperf_status st = parse_function(L, f.data, f.len, &m->functions[m->n_functions++]);
            if (st) return st;
        }
    }
    if (!m->n_opsets) {
        /* IR 3+ requires opset_import; be lenient and assume opset 1 of ai.onnx */
        m->opsets[0].domain = "";
        m->opsets[0].version = 1;
        m->n_opsets = 1;
    }
    enum nnperf_status st = parse_graph(L, gp, glen, NULL, NULL, &m->graph);
    if (st) return st;
    if ((st = resolve_graph(L, m->graph))) return st;
    bind_ops(m, m->graph);
    return NNPERF_OK;
}
