/* attr.c - AttributeProto -> struct ir_attr: scalars, lists (packed or not), strings, tensors (dense and sparse),
 * graphs (If/Loop/Scan bodies, parsed as subgraphs with the node's graph as outer scope) and type protos. */
#include <string.h>

#include "load.h"

static const struct fspec attr_fields[] = {
    [1] = {WL, "name"},
    [2] = {W32, "f"},
    [3] = {WV, "i"},
    [4] = {WL, "s"},
    [5] = {WL, "t"},
    [6] = {WL, "g"},
    [7] = {W32 | WL, "floats"},
    [8] = {WV | WL, "ints"},
    [9] = {WL, "strings"},
    [10] = {WL, "tensors"},
    [11] = {WL, "graphs"},
    [13] = {WL, "doc_string"},
    [14] = {WL, "tp"},
    [15] = {WL, "type_protos"},
    [20] = {WV, "type"},
    [21] = {WL, "ref_attr_name"},
    [22] = {WL, "sparse_tensor"},
    [23] = {WL, "sparse_tensors"},
};

/* Every payload an AttributeProto holds, whatever its type says, and the number of values of each list (the count
 * pass): all are parsed and checked, and only the one of the attribute's type goes into struct ir_attr. */
struct attr_parts {
    int64_t ints, floats, strings, graphs; /* counts */
    const char *s;
    int slen;
    int tp_dtype;
    int64_t *iv;
    double *fv;
    const char **sv;
    struct ir_value *t;
    struct ir_graph *g;
    struct ir_graph **gv;
};

/* Count pass: the scalars (name, type, f, i, ref_attr_name) into a, s and the length of each list into c, each
 * list checked against NNPERF_MAX_ATTR_ELEMS; the name and the type are checked. */
static enum nnperf_status count_pass(struct ld *L, const uint8_t *p, size_t n, const char *node_name,
                                     struct ir_attr *a, struct attr_parts *c)
{
    const char *why;
    struct pb r = pb_make(p, n);
    struct pb_field f;
    uint64_t type = AT_UNDEFINED;
    FOR_FIELDS_CHECKED(r, f, "AttributeProto", attr_fields)
    {
        switch (f.num) {
        case AP_NAME:
            if (f.wire == PB_LEN && !(a->name = ox_str(L, &f))) return ox_nomem(L);
            break;
        case AP_REF:
            if (f.wire == PB_LEN && !(a->ref_name = ox_str(L, &f))) return ox_nomem(L);
            break;
        case AP_TYPE:
            if (f.wire == PB_VARINT) type = f.u;
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
                c->s = ox_str(L, &f);
                c->slen = (int)f.len;
                if (!c->s) return ox_nomem(L);
            }
            break;
        case AP_INTS:
            if (f.wire == PB_VARINT)
                c->ints++;
            else if (f.wire == PB_LEN) {
                int64_t k = pb_count_varints(f.data, f.len);
                if (k < 0) return ox_malformed(L, "AttributeProto", "bad packed ints", f.data);
                c->ints += k;
            }
            break;
        case AP_FLOATS:
            if (f.wire == PB_I32)
                c->floats++;
            else if (f.wire == PB_LEN) {
                if (f.len % 4)
                    return ox_malformed(L, "AttributeProto", "packed floats are not a multiple of 4 bytes",
                                        f.data);
                c->floats += (int64_t)(f.len / 4);
            }
            break;
        case AP_STRINGS:
            if (f.wire == PB_LEN) c->strings++;
            break;
        case AP_GRAPHS:
            if (f.wire == PB_LEN) c->graphs++;
            break;
        default: break;
        }
        if (c->ints > NNPERF_MAX_ATTR_ELEMS || c->floats > NNPERF_MAX_ATTR_ELEMS ||
            c->strings > NNPERF_MAX_ATTR_ELEMS)
            return diag_set(L->d, NNPERF_E_LIMIT, "node '%s': attribute '%s' has more than %d values",
                            node_name, a->name ? a->name : "?", NNPERF_MAX_ATTR_ELEMS);
    }
    if (!a->name) return diag_set(L->d, NNPERF_E_PARSE, "node '%s': an attribute has no name", node_name);
    /* AttributeProto.AttributeType: UNDEFINED (0, derived below for old files) to TYPE_PROTOS (14) */
    if (type > AT_TYPE_PROTOS)
        return diag_set(L->d, NNPERF_E_INVALID,
                        "node '%s': attribute '%s' has type %llu, not an ONNX attribute type", node_name,
                        a->name, (unsigned long long)type);
    a->type = (int)type;
    return NNPERF_OK;
}

/* SparseTensorProto into t: its dims (field 3) give the dense shape, its values' dtype the type; the values are
 * not propagated */
static enum nnperf_status parse_sparse(struct ld *L, const struct pb_field *f, const char *node_name,
                                       const char *attr_name, struct ir_value *t)
{
    const char *why;
    struct pb q = pb_make(f->data, f->len);
    struct pb_field h;
    int nd = 0;
    t->dims = ar_calloc(L->ar, NNPERF_MAX_RANK, sizeof(struct ir_dim));
    if (!t->dims) return ox_nomem(L);
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
            enum nnperf_status st =
                ox_parse_tensor_proto(L, h.data, h.len, &tmp, NULL, "attribute", attr_name);
            if (st) {
                diag_prefix(L->d, "node '%s': ", node_name);
                return st;
            }
            t->dtype = tmp.dtype;
        }
    }
    t->rank = nd;
    t->type_kind = TK_TENSOR;
    t->declared = 1;
    return NNPERF_OK;
}

/* a tensor (t) or sparse tensor (sparse_tensor) attribute into c->t */
static enum nnperf_status parse_tensor_attr(struct ld *L, const struct pb_field *f, const char *node_name,
                                            const struct ir_attr *a, struct attr_parts *c)
{
    struct ir_value *t = ar_alloc(L->ar, sizeof *t);
    if (!t) return ox_nomem(L);
    t->producer = NULL;
    t->name = a->name;
    if (f->num == AP_T) {
        enum nnperf_status st = ox_parse_tensor_proto(L, f->data, f->len, t, NULL, "attribute", a->name);
        if (st) {
            diag_prefix(L->d, "node '%s': ", node_name);
            return st;
        }
    } else {
        enum nnperf_status st = parse_sparse(L, f, node_name, a->name, t);
        if (st) return st;
    }
    c->t = t;
    return NNPERF_OK;
}

/* a graph attribute (g, or one of graphs) parsed as a subgraph of g */
static enum nnperf_status parse_graph_attr(struct ld *L, const struct pb_field *f, struct ir_graph *g,
                                           const struct rename *rn, const char *node_name,
                                           const struct ir_attr *a, struct attr_parts *c, int64_t *kg)
{
    struct ir_graph *sub;
    if (g->depth + 1 > NNPERF_MAX_SUBGRAPH_DEPTH)
        return diag_set(L->d, NNPERF_E_LIMIT, "node '%s': subgraphs nested deeper than %d", node_name,
                        NNPERF_MAX_SUBGRAPH_DEPTH);
    enum nnperf_status st = ox_parse_graph(L, f->data, f->len, g, rn, &sub);
    if (st) {
        /* context from the outermost node only: one prefix per level would push the message itself out of the
         * (capped) diagnostic when subgraphs nest deeply */
        if (!g->parent) diag_prefix(L->d, "node '%s' attribute '%s': ", node_name, a->name);
        return st;
    }
    if (f->num == AP_G)
        c->g = sub;
    else
        c->gv[(*kg)++] = sub;
    return NNPERF_OK;
}

/* Fill pass: the lists (allocated from the count pass), tensors, graphs and the type proto's dtype. */
static enum nnperf_status fill_pass(struct ld *L, const uint8_t *p, size_t n, struct ir_graph *g,
                                    const struct rename *rn, const char *node_name, const struct ir_attr *a,
                                    struct attr_parts *c)
{
    const char *why;
    int64_t ki = 0, kf = 0, ks = 0, kg = 0;
    struct pb r = pb_make(p, n);
    struct pb_field f;
    enum nnperf_status st = NNPERF_OK;
    FOR_FIELDS(r, f, "AttributeProto")
    {
        switch (f.num) {
        case AP_INTS:
            if (f.wire == PB_VARINT)
                c->iv[ki++] = (int64_t)f.u;
            else if (f.wire == PB_LEN) {
                struct pb q = pb_make(f.data, f.len);
                uint64_t x;
                int rc;
                while ((rc = pb_varint(&q, &x)) == 1) c->iv[ki++] = (int64_t)x;
                if (rc < 0) return ox_malformed(L, "AttributeProto", "bad packed ints", f.data);
            }
            break;
        case AP_FLOATS:
            if (f.wire == PB_I32) {
                float x;
                uint32_t u = (uint32_t)f.u;
                memcpy(&x, &u, 4);
                c->fv[kf++] = x;
            } else if (f.wire == PB_LEN) {
                for (size_t o = 0; o + 4 <= f.len; o += 4) {
                    float x;
                    memcpy(&x, f.data + o, 4);
                    c->fv[kf++] = x;
                }
            }
            break;
        case AP_STRINGS:
            if (f.wire == PB_LEN && !(c->sv[ks++] = ox_str(L, &f))) return ox_nomem(L);
            break;
        case AP_T:
        case AP_SPARSE:
            if (f.wire == PB_LEN) st = parse_tensor_attr(L, &f, node_name, a, c);
            break;
        case AP_G:
        case AP_GRAPHS:
            if (f.wire == PB_LEN && g) st = parse_graph_attr(L, &f, g, rn, node_name, a, c, &kg);
            break;
        case AP_TP:
            if (f.wire == PB_LEN) {
                int kind = 0, dt = 0, rk = -1;
                struct ir_dim *dd = NULL;
                st = ox_parse_type(L, f.data, f.len, &kind, &dt, &rk, &dd, 0);
                if (st)
                    diag_prefix(L->d, "node '%s': attribute '%s': ", node_name, a->name ? a->name : "?");
                else
                    c->tp_dtype = dt;
            }
            break;
        default: break;
        }
        if (st) return st;
    }
    return NNPERF_OK;
}

enum nnperf_status ox_parse_attr(struct ld *L, const uint8_t *p, size_t n, struct ir_graph *g,
                                 const struct rename *rn, const char *node_name, struct ir_attr *a)
{
    struct attr_parts c;
    memset(&c, 0, sizeof c);
    enum nnperf_status st = count_pass(L, p, n, node_name, a, &c);
    if (st) return st;
    if (c.ints && !(c.iv = ar_calloc(L->ar, (size_t)c.ints, sizeof(int64_t)))) return ox_nomem(L);
    if (c.floats && !(c.fv = ar_calloc(L->ar, (size_t)c.floats, sizeof(double)))) return ox_nomem(L);
    if (c.strings && !(c.sv = ar_calloc(L->ar, (size_t)c.strings, sizeof(char *)))) return ox_nomem(L);
    if (c.graphs && !(c.gv = ar_calloc(L->ar, (size_t)c.graphs, sizeof(struct ir_graph *))))
        return ox_nomem(L);
    if ((st = fill_pass(L, p, n, g, rn, node_name, a, &c))) return st;
    /* IR version 1/2 models may leave 'type' unset: derive it from what is there */
    if (a->type == AT_UNDEFINED)
        a->type = c.g         ? AT_GRAPH
                  : c.t       ? AT_TENSOR
                  : c.s       ? AT_STRING
                  : c.ints    ? AT_INTS
                  : c.floats  ? AT_FLOATS
                  : c.strings ? AT_STRINGS
                              : AT_UNDEFINED;
    switch (a->type) {
    case AT_STRING: a->s = c.s, a->slen = c.slen; break;
    case AT_TENSOR:
    case AT_SPARSE_TENSOR: a->t = c.t; break;
    case AT_GRAPH: a->g = c.g; break;
    case AT_INTS: a->ints = c.iv, a->n = c.ints; break;
    case AT_FLOATS: a->floats = c.fv, a->n = c.floats; break;
    case AT_STRINGS: a->strings = c.sv, a->n = c.strings; break;
    case AT_GRAPHS: a->graphs = c.gv, a->n = c.graphs; break;
    case AT_TYPE_PROTO: a->tp_dtype = c.tp_dtype; break;
    default: break;
    }
    return NNPERF_OK;
}
