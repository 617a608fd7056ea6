/* annotate.c - the model written back with inferred types and shapes (see annotate.h). The ModelProto is walked
 * field by field with the reader (pb.h) and every field is copied as it was (pbw_copy) except, in each graph:
 * value_info (replaced by one entry per node output with its inferred type: symbols as dim_param, concrete dims as
 * dim_value, unknown dims as an empty Dimension), input and output (the same fields with the inferred type), and
 * nodes with graph attributes (If/Loop/Scan bodies, annotated the same way). An original value_info entry stays when
 * inference has nothing to say about its value. Field numbers: onnx/onnx.proto (load.h), docs/sources.md
 * [ONNX-PROTO]. */
#define _XOPEN_SOURCE 700 /* realpath, strdup */
#include "annotate.h"

#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "load.h"

struct ann {
    const struct ir_model *m;
    const struct ox_annotate_opts *o;
    struct pbw *w;
    struct diag *d;
    struct ox_annotate_stats st;
    char *name; /* scratch: a field's bytes as a C string */
    size_t name_cap;
    int depth;      /* 0: the main graph */
    char *from_dir; /* the model's folder and the output's, resolved: set when external data moves */
    char *to_dir;
};

static enum nnperf_status malformed(struct ann *A, const char *what)
{
    return diag_set(A->d, NNPERF_E_PARSE,
                    "%s: malformed %s while annotating (the file changed since it was loaded?)",
                    A->m->path ? A->m->path : "model", what);
}

/* the bytes of a length-delimited field as a NUL-terminated string (valid until the next call), NULL when out of
 * memory */
static const char *cstr(struct ann *A, const struct pb_field *f)
{
    if (f->len + 1 > A->name_cap) {
        size_t cap = f->len + 64;
        char *p = realloc(A->name, cap);
        if (!p) return NULL;
        A->name = p;
        A->name_cap = cap;
    }
    memcpy(A->name, f->data, f->len);
    A->name[f->len] = 0;
    return A->name;
}

/* The last length-delimited field num of a message, the one the loader keeps when a field is given twice (protobuf:
 * the last value of a singular field wins); earlier ones may be what the loader never read. 1 found (*out, and *at
 * its start), 0 none, -1 malformed. */
static int last_field(const uint8_t *p, size_t n, uint32_t num, struct pb_field *out, const uint8_t **at)
{
    struct pb r = pb_make(p, n);
    struct pb_field f;
    const char *why;
    int rc, found = 0;
    *out = (struct pb_field){0};
    while ((rc = pb_next(&r, &f, &why)) > 0)
        if (f.num == num && f.wire == PB_LEN) {
            *out = f;
            if (at) *at = r.field;
            found = 1;
        }
    return rc < 0 ? -1 : found;
}

/* The value a ValueInfoProto names, looked up in g (outer scopes too when outer). */
static const struct ir_value *vi_value(struct ann *A, const struct ir_graph *g, const uint8_t *p, size_t n,
                                       int outer, int *bad)
{
    struct pb_field f;
    int rc = last_field(p, n, VI_NAME, &f, NULL);
    if (rc < 0) *bad = 1;
    if (rc <= 0) return NULL;
    const char *s = cstr(A, &f);
    if (!s) return NULL;
    return outer ? ir_lookup(g, s) : ir_find(g, s);
}

/* What inference knows of v's type is worth writing: a tensor with an element type. Sequences and optionals are left
 * as the model declares them: the graph keeps an optional(sequence) as a sequence, and a sequence's element shape is
 * the merge of its elements'. */
static int writable(const struct ir_value *v)
{
    return v && v->dtype > DT_UNDEFINED && v->dtype < DT_COUNT && v->type_kind == TK_TENSOR;
}

static int partial(const struct ir_value *v)
{
    if (v->rank < 0) return ir_decl_rank(v) < 0;
    for (int i = 0; i < v->rank; i++)
        if (v->dims[i].val < 0 &&
            (ir_decl_rank(v) != v->rank || !ir_decl_dims(v) || ir_decl_dims(v)[i].val < 0))
            return 1;
    return 0;
}

/* TypeProto of v as field num: tensor_type {elem_type, shape}, the inferred dims merged with those the model declares
 * for v (value_info, outputs: ir_decl_dims); no shape when neither knows the rank. */
static void write_type(struct ann *A, uint32_t num, const struct ir_value *v)
{
    struct pbw *w = A->w;
    size_t ty = pbw_begin(w, num);
    size_t tt = pbw_begin(w, TY_TENSOR);
    pbw_uint(w, TT_ELEM, (uint64_t)v->dtype);
    int rank = v->rank;
    const struct ir_dim *dims = v->dims, *decl = NULL;
    if (rank < 0 && ir_decl_rank(v) >= 0)
        rank = ir_decl_rank(v), dims = ir_decl_dims(v);
    else if (ir_decl_rank(v) == rank && ir_decl_dims(v))
        decl = ir_decl_dims(v);
    if (rank >= 0) {
        size_t sh = pbw_begin(w, TT_SHAPE);
        for (int i = 0; i < rank; i++) {
            size_t dm = pbw_begin(w, SH_DIM);
            struct ir_dim d = dims[i];
            /* a concrete declared dim says more than an inferred symbol (a data-dependent size, a trip count) */
            if (decl && d.val < 0 && (decl[i].val >= 0 || !d.sym)) d = decl[i];
            if (d.val >= 0)
                pbw_uint(w, DM_VALUE, (uint64_t)d.val);
            else if (d.sym && d.sym[0])
                pbw_str(w, DM_PARAM, d.sym);
            pbw_end(w, dm);
        }
        pbw_end(w, sh);
    }
    pbw_end(w, tt);
    pbw_end(w, ty);
}

/* Whether a ValueInfoProto declares a tensor or nothing (what rewrite_io may replace), not a sequence, map, optional
 * or sparse tensor. -1 when malformed. */
static int declares_tensor(const uint8_t *p, size_t n)
{
    struct pb_field f, g;
    const char *why;
    int rc = last_field(p, n, VI_TYPE, &f, NULL), tensor = 1;
    if (rc <= 0) return rc < 0 ? -1 : 1;
    struct pb t = pb_make(f.data, f.len);
    while ((rc = pb_next(&t, &g, &why)) > 0)
        if (g.wire == PB_LEN &&
            (g.num == TY_SEQUENCE || g.num == TY_MAP || g.num == TY_SPARSE || g.num == TY_OPTIONAL))
            tensor = 0;
    return rc < 0 ? -1 : tensor;
}

/* A ValueInfoProto (graph input or output) as field num: its fields as they were, the type (every type field)
 * replaced by v's, written once after them. */
static enum nnperf_status rewrite_io(struct ann *A, uint32_t num, const uint8_t *p, size_t n,
                                     const struct ir_value *v)
{
    struct pb r = pb_make(p, n);
    struct pb_field f;
    const char *why;
    int rc;
    size_t mark = pbw_begin(A->w, num);
    while ((rc = pb_next(&r, &f, &why)) > 0)
        if (f.num != VI_TYPE) pbw_copy(A->w, &r);
    if (rc < 0) return malformed(A, "ValueInfoProto");
    write_type(A, VI_TYPE, v);
    pbw_end(A->w, mark);
    A->st.io++;
    return NNPERF_OK;
}

static enum nnperf_status rewrite_graph(struct ann *A, uint32_t num, const uint8_t *p, size_t n,
                                        const struct ir_graph *g);

/* An external data location (relative to the model's folder) relative to the output's folder: *out points into
 * the resolved path (valid until the next call through A->name) or is loc itself when its file does not exist. */
static enum nnperf_status relocate(struct ann *A, const char *loc, const char **out)
{
    *out = loc;
    size_t n = strlen(A->from_dir) + strlen(loc) + 2;
    char *joined = malloc(n);
    if (!joined) return diag_set(A->d, NNPERF_E_NOMEM, "out of memory while annotating");
    snprintf(joined, n, "%s/%s", A->from_dir, loc);
    char *rp = realpath(joined, NULL);
    free(joined);
    if (!rp) return NNPERF_OK; /* weights stripped: nothing to reach either way */
    size_t k = strcmp(A->to_dir, "/") ? strlen(A->to_dir) : 0;
    if (strncmp(rp, A->to_dir, k) || rp[k] != '/') {
        enum nnperf_status st = diag_set(A->d, NNPERF_E_USAGE,
                                         "its external data '%s' (%s) is outside the output's folder %s, and "
                                         "ONNX reads external data only "
                                         "inside a model's folder: write the annotated model into %s or a "
                                         "folder above it, or copy the data "
                                         "file beside it and annotate that copy",
                                         loc, rp, A->to_dir, A->from_dir);
        free(rp);
        return st;
    }
    struct pb_field f = {.data = (const uint8_t *)rp + k + 1, .len = strlen(rp + k + 1)};
    const char *c = cstr(A, &f);
    free(rp);
    if (!c) return diag_set(A->d, NNPERF_E_NOMEM, "out of memory while annotating");
    *out = c;
    return NNPERF_OK;
}

/* A TensorProto as field num with its external data location relocated (relocate). */
static enum nnperf_status write_tensor(struct ann *A, uint32_t num, const uint8_t *p, size_t n)
{
    struct pb r = pb_make(p, n);
    struct pb_field f;
    const char *why;
    int rc;
    size_t mark = pbw_begin(A->w, num);
    while ((rc = pb_next(&r, &f, &why)) > 0) {
        struct pb_field key, val;
        if (f.num != TP_EXTERNAL || f.wire != PB_LEN || last_field(f.data, f.len, 1, &key, NULL) <= 0 ||
            key.len != 8 || memcmp(key.data, "location", 8) ||
            last_field(f.data, f.len, 2, &val, NULL) <= 0) {
            pbw_copy(A->w, &r);
            continue;
        }
        const char *loc = cstr(A, &val), *to;
        if (!loc) return diag_set(A->d, NNPERF_E_NOMEM, "out of memory while annotating");
        char *old = strdup(loc);
        if (!old) return diag_set(A->d, NNPERF_E_NOMEM, "out of memory while annotating");
        enum nnperf_status st = relocate(A, old, &to);
        if (st) {
            free(old);
            return st;
        }
        if (to != old) A->st.relocated++;
        size_t e = pbw_begin(A->w, TP_EXTERNAL);
        pbw_str(A->w, 1, "location");
        pbw_str(A->w, 2, to);
        pbw_end(A->w, e);
        free(old);
    }
    if (rc < 0) return malformed(A, "TensorProto");
    pbw_end(A->w, mark);
    return NNPERF_OK;
}

/* A message as field num whose fields t1 and t2 are TensorProtos, relocated: an AttributeProto (t, tensors), a
 * SparseTensorProto (values, indices). */
static enum nnperf_status write_tensors(struct ann *A, uint32_t num, const uint8_t *p, size_t n, uint32_t t1,
                                        uint32_t t2, const char *what)
{
    struct pb r = pb_make(p, n);
    struct pb_field f;
    const char *why;
    int rc;
    enum nnperf_status st;
    size_t mark = pbw_begin(A->w, num);
    while ((rc = pb_next(&r, &f, &why)) > 0) {
        if (f.wire == PB_LEN && (f.num == t1 || f.num == t2)) {
            if ((st = write_tensor(A, f.num, f.data, f.len))) return st;
        } else {
            pbw_copy(A->w, &r);
        }
    }
    if (rc < 0) return malformed(A, what);
    pbw_end(A->w, mark);
    return NNPERF_OK;
}

/* The ir node a NodeProto became: the producer of its first named output, when it has the same operator (a call of
 * a model-local function was replaced by its body: no node of its own). */
static const struct ir_node *node_of(struct ann *A, const struct ir_graph *g, const uint8_t *p, size_t n,
                                     int *bad)
{
    struct pb r = pb_make(p, n);
    struct pb_field f;
    const char *why;
    int rc;
    const struct ir_node *nd = NULL;
    const uint8_t *op = NULL;
    size_t op_len = 0;
    while ((rc = pb_next(&r, &f, &why)) > 0) {
        if (f.wire != PB_LEN) continue;
        if (f.num == NP_OUTPUT && !nd && f.len) {
            const char *s = cstr(A, &f);
            const struct ir_value *v = s ? ir_find(g, s) : NULL;
            if (v) nd = v->producer;
        } else if (f.num == NP_OP_TYPE) {
            op = f.data;
            op_len = f.len;
        }
    }
    if (rc < 0) *bad = 1;
    if (!nd || !op || strlen(nd->op_type) != op_len || memcmp(nd->op_type, op, op_len)) return NULL;
    return nd;
}

static const struct ir_attr *attr_of(const struct ir_node *nd, const struct pb_field *af)
{
    struct pb_field f;
    if (last_field(af->data, af->len, AP_NAME, &f, NULL) <= 0) return NULL;
    for (int i = 0; i < nd->n_attr; i++)
        if (nd->attrs[i].name && strlen(nd->attrs[i].name) == f.len &&
            !memcmp(nd->attrs[i].name, f.data, f.len))
            return &nd->attrs[i];
    return NULL;
}

/* An AttributeProto whose graph(s) get annotated with the subgraph(s) inference ran on: the last g (the one the
 * loader keeps), each of graphs in order. */
static enum nnperf_status rewrite_attr(struct ann *A, const struct pb_field *af, const struct ir_attr *at)
{
    struct pb r = pb_make(af->data, af->len);
    struct pb_field f;
    const char *why;
    int rc, k = 0;
    enum nnperf_status st;
    const uint8_t *last_g = NULL;
    if (last_field(af->data, af->len, AP_G, &f, &last_g) < 0) return malformed(A, "AttributeProto");
    size_t mark = pbw_begin(A->w, NP_ATTR);
    while ((rc = pb_next(&r, &f, &why)) > 0) {
        const struct ir_graph *sub = NULL;
        if (f.wire == PB_LEN && f.num == AP_G && at->type == AT_GRAPH && r.field == last_g)
            sub = at->g;
        else if (f.wire == PB_LEN && f.num == AP_GRAPHS && at->type == AT_GRAPHS && k < at->n)
            sub = at->graphs[k++];
        if (!sub) {
            pbw_copy(A->w, &r);
            continue;
        }
        A->depth++;
        st = rewrite_graph(A, f.num, f.data, f.len, sub);
        A->depth--;
        if (st) return st;
    }
    if (rc < 0) return malformed(A, "AttributeProto");
    pbw_end(A->w, mark);
    return NNPERF_OK;
}

/* The first named output and the name of a NodeProto, as C strings (*out NULL when none; free both). */
static int node_names(const uint8_t *p, size_t n, char **out, char **name)
{
    struct pb r = pb_make(p, n);
    struct pb_field f;
    const char *why;
    int rc;
    *out = *name = NULL;
    while ((rc = pb_next(&r, &f, &why)) > 0) {
        if (f.wire != PB_LEN) continue;
        char **to = f.num == NP_OUTPUT && f.len && !*out ? out : f.num == NP_NAME ? name : NULL;
        if (!to) continue;
        free(*to);
        if (!(*to = malloc(f.len + 1))) return -1;
        memcpy(*to, f.data, f.len);
        (*to)[f.len] = 0;
    }
    return rc < 0 ? -1 : 0;
}

/* Whether an attribute holds a tensor (relocated when external data moves). */
static int tensor_attr(const struct pb_field *af)
{
    struct pb r = pb_make(af->data, af->len);
    struct pb_field f;
    const char *why;
    while (pb_next(&r, &f, &why) > 0)
        if (f.wire == PB_LEN && (f.num == AP_T || f.num == AP_TENSORS)) return 1;
    return 0;
}

/* A NodeProto: copied as it was unless it has graph attributes (whose graphs are annotated), tensor attributes
 * while external data moves, or a doc_string to add (o->node_doc, main graph only). */
static enum nnperf_status write_node(struct ann *A, const struct pb *gr, const struct pb_field *nf,
                                     const struct ir_graph *g, int has_sub)
{
    struct pb r = pb_make(nf->data, nf->len);
    struct pb_field f;
    const char *why;
    int rc, bad = 0;
    const struct ir_node *nd = has_sub ? node_of(A, g, nf->data, nf->len, &bad) : NULL;
    if (bad) return malformed(A, "NodeProto");
    const char *doc = NULL;
    if (A->o && A->o->node_doc && !A->depth) {
        char *out, *name;
        if (node_names(nf->data, nf->len, &out, &name)) {
            free(out);
            free(name);
            return malformed(A, "NodeProto");
        }
        if (out) doc = A->o->node_doc(A->o->ctx, out, name ? name : "");
        free(out);
        free(name);
    }
    if ((!nd || !nd->n_sub) && !doc && !A->from_dir) {
        pbw_copy(A->w, gr);
        return NNPERF_OK;
    }
    size_t mark = pbw_begin(A->w, GP_NODE);
    enum nnperf_status st;
    const uint8_t *own = NULL; /* the node's doc_string, kept before the new one */
    size_t own_len = 0;
    while ((rc = pb_next(&r, &f, &why)) > 0) {
        const struct ir_attr *at = nd && f.num == NP_ATTR && f.wire == PB_LEN ? attr_of(nd, &f) : NULL;
        if (at && (at->type == AT_GRAPH || at->type == AT_GRAPHS)) {
            if ((st = rewrite_attr(A, &f, at))) return st;
        } else if (A->from_dir && f.num == NP_ATTR && f.wire == PB_LEN && tensor_attr(&f)) {
            if ((st = write_tensors(A, NP_ATTR, f.data, f.len, AP_T, AP_TENSORS, "AttributeProto")))
                return st;
        } else if (doc && f.num == NP_DOC && f.wire == PB_LEN) {
            own = f.data, own_len = f.len;
        } else {
            pbw_copy(A->w, &r);
        }
    }
    if (rc < 0) return malformed(A, "NodeProto");
    if (doc) {
        /* an earlier annotation's paragraph goes: annotating an annotated model does not stack them */
        static const char mark_s[] = "nnperf: ";
        size_t keep = own_len;
        for (size_t i = 0; own && i + sizeof mark_s - 1 <= own_len; i++)
            if ((i == 0 || (i >= 2 && own[i - 1] == '\n' && own[i - 2] == '\n')) &&
                !memcmp(own + i, mark_s, sizeof mark_s - 1)) {
                keep = i >= 2 ? i - 2 : 0;
                break;
            }
        size_t dl = strlen(doc), total = keep + (keep ? 2 : 0) + dl;
        char *text = malloc(total + 1);
        if (!text) return diag_set(A->d, NNPERF_E_NOMEM, "out of memory while annotating");
        if (keep) memcpy(text, own, keep), memcpy(text + keep, "\n\n", 2);
        memcpy(text + total - dl, doc, dl);
        pbw_len(A->w, NP_DOC, text, total);
        free(text);
    }
    pbw_end(A->w, mark);
    return NNPERF_OK;
}

/* value_info for every named output of the NodeProto (in its order) that is not a graph output */
static enum nnperf_status node_value_info(struct ann *A, const uint8_t *p, size_t n, const struct ir_graph *g)
{
    struct pb r = pb_make(p, n);
    struct pb_field f;
    const char *why;
    int rc;
    while ((rc = pb_next(&r, &f, &why)) > 0) {
        if (f.num != NP_OUTPUT || f.wire != PB_LEN || !f.len) continue;
        const char *s = cstr(A, &f);
        if (!s) return diag_set(A->d, NNPERF_E_NOMEM, "out of memory while annotating");
        const struct ir_value *v = ir_find(g, s);
        if (!v || !v->producer || (v->flags & IR_V_OUTPUT) || !writable(v)) continue;
        size_t mark = pbw_begin(A->w, GP_VALUE_INFO);
        pbw_len(A->w, VI_NAME, f.data, f.len);
        write_type(A, VI_TYPE, v);
        pbw_end(A->w, mark);
        A->st.values++;
        if (partial(v)) A->st.partial++;
    }
    if (rc < 0) return malformed(A, "NodeProto");
    return NNPERF_OK;
}

/* A GraphProto as field num of its parent, annotated with g, the graph inference ran on. */
static enum nnperf_status rewrite_graph(struct ann *A, uint32_t num, const uint8_t *p, size_t n,
                                        const struct ir_graph *g)
{
    struct pb r = pb_make(p, n);
    struct pb_field f;
    const char *why;
    int rc;
    enum nnperf_status st;
    int has_sub = 0; /* nodes with subgraphs are looked up, the others copied */
    for (int i = 0; i < g->n_nodes && !has_sub; i++) has_sub = g->nodes[i]->n_sub > 0;
    size_t mark = pbw_begin(A->w, num);
    while ((rc = pb_next(&r, &f, &why)) > 0) {
        int bad = 0;
        if (f.wire != PB_LEN) {
            pbw_copy(A->w, &r);
        } else if (f.num == GP_NODE) {
            if ((st = write_node(A, &r, &f, g, has_sub))) return st;
        } else if (f.num == GP_INPUT || f.num == GP_OUTPUT) {
            const struct ir_value *v = vi_value(A, g, f.data, f.len, f.num == GP_OUTPUT, &bad);
            int tensor = declares_tensor(f.data, f.len);
            if (bad || tensor < 0) return malformed(A, "ValueInfoProto");
            if (writable(v) && tensor) {
                if ((st = rewrite_io(A, f.num, f.data, f.len, v))) return st;
                if (partial(v)) A->st.partial++;
            } else {
                pbw_copy(A->w, &r);
            }
        } else if (f.num == GP_INIT && A->from_dir) {
            if ((st = write_tensor(A, GP_INIT, f.data, f.len))) return st;
        } else if (f.num == GP_SPARSE_INIT && A->from_dir) {
            if ((st = write_tensors(A, GP_SPARSE_INIT, f.data, f.len, 1, 2, "SparseTensorProto"))) return st;
        } else if (f.num == GP_VALUE_INFO) {
            /* replaced when this writer annotates the value (a node output, or an input or output) */
            const struct ir_value *v = vi_value(A, g, f.data, f.len, 0, &bad);
            if (bad) return malformed(A, "ValueInfoProto");
            if (!writable(v) || (!v->producer && !(v->flags & (IR_V_INPUT | IR_V_OUTPUT))))
                pbw_copy(A->w, &r);
        } else {
            pbw_copy(A->w, &r);
        }
    }
    if (rc < 0) return malformed(A, "GraphProto");
    /* the node outputs' value_info, in node order */
    r = pb_make(p, n);
    while ((rc = pb_next(&r, &f, &why)) > 0)
        if (f.num == GP_NODE && f.wire == PB_LEN && (st = node_value_info(A, f.data, f.len, g))) return st;
    pbw_end(A->w, mark);
    return NNPERF_OK;
}

/* Whether a StringStringEntryProto's key starts "nnperf." (an earlier annotation's metadata). */
static int nnperf_key(const struct pb_field *e)
{
    struct pb_field k;
    return last_field(e->data, e->len, 1, &k, NULL) > 0 && k.len >= 7 && !memcmp(k.data, "nnperf.", 7);
}

/* Sets A->from_dir and A->to_dir when external data moves: the output's folder is not the model's. */
static enum nnperf_status moving(struct ann *A)
{
    if (!A->o || !A->o->out_dir || !A->m->dir) return NNPERF_OK;
    char *from = realpath(A->m->dir, NULL), *to = realpath(A->o->out_dir, NULL);
    if (!from || !to || !strcmp(from, to)) {
        int missing = !to;
        free(from);
        free(to);
        if (missing)
            return diag_set(A->d, NNPERF_E_IO, "cannot write into %s: no such folder", A->o->out_dir);
        return NNPERF_OK;
    }
    A->from_dir = from;
    A->to_dir = to;
    return NNPERF_OK;
}

enum nnperf_status ox_annotate(const struct ir_model *m, const struct ir_graph *g,
                               const struct ox_annotate_opts *o, struct pbw *w,
                               struct ox_annotate_stats *stats, struct diag *d)
{
    struct ann A = {m, o, w, d, {0, 0, 0, 0}, NULL, 0, 0, NULL, NULL};
    const uint8_t *buf;
    size_t len;
    uint8_t *owned;
    enum nnperf_status st = moving(&A);
    if (st) return st;
    st = ox_model_bytes(m, &buf, &len, &owned, d);
    if (st) {
        free(A.from_dir);
        free(A.to_dir);
        return st;
    }
    /* the loader reads the last graph field (protobuf: the last one wins for its scalars): that one is annotated */
    struct pb r = pb_make(buf, len);
    struct pb_field f;
    const char *why;
    int rc;
    const uint8_t *last = NULL;
    while ((rc = pb_next(&r, &f, &why)) > 0)
        if (f.num == MP_GRAPH && f.wire == PB_LEN) last = r.field;
    st = rc < 0 ? malformed(&A, "ModelProto") : NNPERF_OK;
    r = pb_make(buf, len);
    while (!st && (rc = pb_next(&r, &f, &why)) > 0) {
        if (r.field == last)
            st = rewrite_graph(&A, MP_GRAPH, f.data, f.len, g);
        else if (!(o && o->n_meta && f.num == MP_METADATA && f.wire == PB_LEN && nnperf_key(&f)))
            pbw_copy(w, &r);
    }
    for (int i = 0; !st && o && i < o->n_meta; i++) {
        size_t e = pbw_begin(w, MP_METADATA);
        pbw_str(w, 1, o->meta[2 * i]);
        pbw_str(w, 2, o->meta[2 * i + 1]);
        pbw_end(w, e);
    }
    free(A.name);
    free(A.from_dir);
    free(A.to_dir);
    free(owned);
    if (!st && w->err)
        st = w->err == NNPERF_E_NOMEM
                 ? diag_set(d, NNPERF_E_NOMEM, "out of memory while writing the annotated model")
                 : diag_set(d, NNPERF_E_LIMIT, "the annotated model would be larger than %zu bytes", w->cap);
    if (!st && stats) *stats = A.st;
    return st;
}
