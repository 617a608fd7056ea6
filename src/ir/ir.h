/* ir.h - the in-memory graph: values (tensors with dtype and dims that are concrete, symbolic or unknown),
 * nodes (operator, attributes, inputs, outputs), graphs (with an outer scope for If/Loop/Scan bodies), and the
 * model that owns them. Everything lives in the model's arena; weights stay in the file mapping as views. */
#ifndef NNPERF_IR_H
#define NNPERF_IR_H

#include <stddef.h>
#include <stdint.h>

#include "../core/core.h"

/* ONNX TensorProto.DataType numbering (onnx/onnx.proto). */
enum ir_dtype {
    DT_UNDEFINED = 0,
    DT_FLOAT = 1,
    DT_UINT8 = 2,
    DT_INT8 = 3,
    DT_UINT16 = 4,
    DT_INT16 = 5,
    DT_INT32 = 6,
    DT_INT64 = 7,
    DT_STRING = 8,
    DT_BOOL = 9,
    DT_FLOAT16 = 10,
    DT_DOUBLE = 11,
    DT_UINT32 = 12,
    DT_UINT64 = 13,
    DT_COMPLEX64 = 14,
    DT_COMPLEX128 = 15,
    DT_BFLOAT16 = 16,
    DT_FLOAT8E4M3FN = 17,
    DT_FLOAT8E4M3FNUZ = 18,
    DT_FLOAT8E5M2 = 19,
    DT_FLOAT8E5M2FNUZ = 20,
    DT_UINT4 = 21,
    DT_INT4 = 22,
    DT_FLOAT4E2M1 = 23,
    DT_COUNT
};

const char *ir_dtype_name(int dt); /* "float32", "int64", ...; "undefined" for 0, NULL when out of range */
int ir_dtype_bits(int dt);         /* bits per element; 0 for undefined/string */
int ir_dtype_is_int(int dt);       /* integer or bool */
int ir_dtype_is_float(int dt);

/* A dimension: val >= 0 is concrete; otherwise sym names it (a symbol such as "batch", or an expression such as
 * "batch*seq"), or sym is NULL and it is unknown. */
struct ir_dim {
    int64_t val;
    const char *sym;
};

#define IR_DIM_UNKNOWN ((struct ir_dim){-1, NULL})
static inline struct ir_dim ir_dim_known(int64_t v)
{
    struct ir_dim d = {v, NULL};
    return d;
}
static inline int ir_dim_is_known(struct ir_dim d)
{
    return d.val >= 0;
}

/* A propagated integer element: known (any sign, v), symbolic (sym, e.g. the "batch" of a Shape), or unknown. */
struct ir_ival {
    int64_t v;
    const char *sym;
    int known;
};

static inline struct ir_ival ir_ival_known(int64_t v)
{
    struct ir_ival x = {v, NULL, 1};
    return x;
}
/* A dim as a value (Shape); and a value as a dim (Reshape): a negative value becomes an unknown dim. */
static inline struct ir_ival ir_ival_from_dim(struct ir_dim d)
{
    struct ir_ival x = {d.val, d.sym, d.val >= 0};
    return x;
}
static inline struct ir_dim ir_dim_from_ival(struct ir_ival x)
{
    struct ir_dim d = {-1, NULL};
    if (x.known && x.v >= 0)
        d.val = x.v;
    else if (!x.known)
        d.sym = x.sym;
    return d;
}

enum ir_type_kind { TK_UNKNOWN = 0, TK_TENSOR, TK_SEQUENCE, TK_OPTIONAL, TK_MAP, TK_SPARSE };

/* Where initializer bytes are. */
enum ir_data_enc {
    DE_NONE = 0, /* no data (graph input, intermediate) */
    DE_RAW,      /* raw_data: little-endian packed elements */
    DE_VARINT,   /* int32_data / int64_data / uint64_data: packed or repeated varints */
    DE_FIXED32,  /* float_data: packed fixed32 */
    DE_FIXED64,  /* double_data: packed fixed64 */
    DE_EXTERNAL, /* external file: ext_location, ext_offset, ext_length */
    DE_REPEATED, /* typed field given as unpacked repeated entries: decode from the TensorProto bytes */
};

#define IR_V_INPUT  1u
#define IR_V_OUTPUT 2u
#define IR_V_INIT   4u

struct ir_node;
struct ir_graph;

/* Where a tensor's data is (views into the model's arena or file; never copied by an analysis) */
struct ir_data {
    int enc; /* enum ir_data_enc */
    int ext_has_length;
    const uint8_t *data; /* DE_RAW/VARINT/FIXED*: the bytes of the field */
    size_t data_len;
    const uint8_t *tensor_pb; /* DE_REPEATED: the whole TensorProto, decoded on demand */
    size_t tensor_pb_len;
    const char *ext_location;
    uint64_t ext_offset, ext_length;
};

/* What few values have: a declared shape (value_info, graph outputs) and what inference finds for some (a sequence's
 * elements, why a shape is data-dependent). Never written once made: a change makes a new record (ir_set_decl,
 * ir_set_elems, ir_set_unknown_reason), so a copy of a value (an analysis's, ir_clone_graph) shares its record. */
struct ir_value_more {
    /* declared shape from value_info/outputs when inference left it unknown (used as a fallback): rank -1 = none */
    struct ir_dim *decl_dims;
    int decl_rank;
    int decl_dtype;
    /* a sequence's elements one by one (type_kind TK_SEQUENCE, also an optional holding a sequence), known when
     * elems is not NULL: then n_elems >= 0 (0 = an empty sequence) and elems[0..n_elems) are tensor values (dtype,
     * rank, dims; allocated in the model arena, shared between values and never changed once made). The value's
     * dtype/rank/dims still hold the MERGED element shape (dims that agree across the elements stay, others are
     * unknown; rank unknown when ranks differ or there are no elements), so code that reads only those keeps
     * working. elems NULL: the length or an element is not known, only the merged shape is. */
    struct ir_value **elems;
    int n_elems;
    /* data-dependent dims: why this value's shape is unknown (a reason shown in warnings) */
    const char *unknown_reason;
    /* the record with the same declared shape and no elements and no reason (NULL when none is declared) */
    const struct ir_value_more *base;
};

struct ir_value {
    const char *name;
    int dtype; /* element dtype (of the tensor, or of the sequence's tensors) */
    int rank;  /* -1 = unknown rank */
    int n_consumers;
    /* propagated value of a small tensor (numel <= NNPERF_MAX_CONST_ELEMS): integers and bools as ir_ival (concrete
     * or symbolic), floating point as doubles (iv, fv below). nv = number of elements; iv/fv NULL when not known. */
    int nv;
    struct ir_dim *dims;
    struct ir_node *producer;
    unsigned char flags;   /* IR_V_* */
    signed char type_kind; /* enum ir_type_kind */
    signed char declared;  /* shape came from the model (graph input, initializer, value_info) */
    /* 1 when the value does not depend on any graph input: an initializer, or computed only from constants (a
     * compiler folds it; its elements count as parameters of the nodes reading it). 2 when it is known once the
     * dims are bound (shape arithmetic on runtime tensors, and what is computed only from such values): folded too,
     * but not a parameter. 0 otherwise. */
    signed char is_const;
    int id; /* number in its model's graph tree (ir_number_graph), for an analysis's copy of the graph */
    /* (fields are ordered so that little padding sits between them, small ones in bytes: a model holds one per
     * tensor, 80 bytes) */

    /* initializer data: a record of its own, which most values (activations) have none of; NULL = DE_NONE.
     * Shared by an analysis's copy of the value (never written once loaded: a copy that gives up on its data sets
     * its own pointer to NULL) */
    const struct ir_data *init;

    struct ir_ival *iv; /* propagated values (nv above) */
    double *fv;

    /* declared shape, sequence elements, unknown-shape reason: NULL when none (read through ir_decl_rank,
     * ir_decl_dtype, ir_decl_dims, ir_elems, ir_n_elems, ir_unknown_reason) */
    const struct ir_value_more *more;
};

static inline int ir_decl_rank(const struct ir_value *v)
{
    return v->more ? v->more->decl_rank : -1;
}
static inline int ir_decl_dtype(const struct ir_value *v)
{
    return v->more ? v->more->decl_dtype : 0;
}
static inline struct ir_dim *ir_decl_dims(const struct ir_value *v)
{
    return v->more ? v->more->decl_dims : NULL;
}
/* a sequence's elements (NULL when not known one by one) and their number (-1 when not known) */
static inline struct ir_value **ir_elems(const struct ir_value *v)
{
    return v->more ? v->more->elems : NULL;
}
static inline int ir_n_elems(const struct ir_value *v)
{
    return v->more && v->more->elems ? v->more->n_elems : -1;
}
static inline const char *ir_unknown_reason(const struct ir_value *v)
{
    return v->more ? v->more->unknown_reason : NULL;
}
/* forgets what inference found (elements, reason); the declared shape stays */
static inline void ir_forget_found(struct ir_value *v)
{
    v->more = v->more ? v->more->base : NULL;
}

/* enum ir_data_enc of a value's data (DE_NONE when it has none) */
static inline int ir_value_enc(const struct ir_value *v)
{
    return v->init ? v->init->enc : DE_NONE;
}

enum ir_attr_type {
    AT_UNDEFINED = 0,
    AT_FLOAT = 1,
    AT_INT = 2,
    AT_STRING = 3,
    AT_TENSOR = 4,
    AT_GRAPH = 5,
    AT_FLOATS = 6,
    AT_INTS = 7,
    AT_STRINGS = 8,
    AT_TENSORS = 9,
    AT_GRAPHS = 10,
    AT_SPARSE_TENSOR = 11,
    AT_SPARSE_TENSORS = 12,
    AT_TYPE_PROTO = 13,
    AT_TYPE_PROTOS = 14,
};

/* An attribute: its payload by type (a model holds one per attribute, 56 bytes). Scalars i (AT_INT) and f
 * (AT_FLOAT) have fields of their own; the pointers share one: s for AT_STRING, ints/floats/strings/graphs for the
 * lists (n elements), t for AT_TENSOR and AT_SPARSE_TENSOR, g for AT_GRAPH. Read a pointer only for its type: the
 * loader keeps only the payload of the attribute's type (fields of other types in the AttributeProto are parsed,
 * checked and dropped), so a list's n is 0 for every other type. */
struct ir_attr {
    const char *name;
    const char *ref_name; /* ref_attr_name inside functions, else NULL */
    int type;             /* enum ir_attr_type */
    union {
        int tp_dtype; /* AT_TYPE_PROTO: tensor elem type, if any */
        int slen; /* AT_STRING: the string's length (it may hold NUL bytes; s is NUL-terminated after them) */
    };
    int64_t i;
    double f;
    int64_t n; /* element count for ints/floats/strings/graphs */
    union {
        const char *s;
        int64_t *ints;
        double *floats;
        const char **strings;
        struct ir_value *t; /* AT_TENSOR, AT_SPARSE_TENSOR */
        struct ir_graph *g; /* AT_GRAPH */
        struct ir_graph **graphs;
    };
};

/* Cost of one node. MACs and FLOPs are separate: flops = 2*macs + per-element work. */
struct ir_cost {
    uint64_t macs, flops, params, bytes_read, bytes_written;
    uint64_t params_read; /* parameter elements read per run: params, but a Gather from a constant table (an
                           * embedding) reads only the rows it gathers */
    int known;            /* 0: could not be counted (unknown op or unknown shapes, or saturated) */
    int saturated;        /* 1: a count passed 2^64 - 1 (the tensors' bytes or the FLOPs): known is 0 */
};

struct ir_node {
    const char *name;
    const char *op_type;
    const char *domain; /* "" for ai.onnx */
    int op;             /* registry index, -1 = not in the registry */
    int opset;          /* opset version of the node's domain in effect */
    int n_in, n_out;
    struct ir_value **in; /* NULL entries for omitted optional inputs */
    struct ir_value **out;
    int n_attr;
    int n_sub; /* number of subgraphs (attributes of type graph/graphs) */
    struct ir_attr *attrs;
    int index; /* position in execution order */
    int id;    /* number in its model's graph tree (ir_number_graph) */
    struct ir_graph *graph;
    struct ir_cost cost;
    int inferred; /* 1 once shape inference ran on it */
    /* values from enclosing scopes that this node's subgraphs read (dependencies for ordering) */
    int n_impl;
    struct ir_value **impl;
    int64_t repeat; /* times it runs per inference (Loop trip counts); 1 at top level */
};

/* Name -> value hash table (open addressing). */
struct ir_vtab {
    uint32_t *slot; /* 1 + the value's position in vals; 0: empty */
    uint32_t *hash; /* each slot's name hash (ir.c), compared before the name */
    size_t cap, count;
    struct ir_value *const
        *vals; /* the values the slots number: the graph's own list (also in a copy of the graph) */
    /* NULL in a model's graph. In an analysis's copy (ir_clone_graph) the slots are the model's, shared and only
     * read, and a value found is returned as its copy: view[value->id]. */
    struct ir_value *view;
};

struct ir_graph {
    const char *name;
    struct ir_graph *parent; /* outer scope for subgraphs */
    int depth;
    struct ir_node **nodes; /* execution (topological) order once sorted */
    int n_nodes;
    struct ir_value **inputs, **outputs, **inits;
    int n_inputs, n_outputs, n_inits;
    struct ir_vtab vt;
    struct ir_value **values; /* every value defined in this graph, in definition order */
    int n_values, cap_values;
    int id; /* number in its model's graph tree (ir_number_graph) */
};

struct ir_opset {
    const char *domain;
    int64_t version;
};

struct ir_function; /* model-local functions, see onnx/ */

struct ir_model {
    struct arena ar;
    const char *path;   /* as given, for messages */
    const char *dir;    /* directory for external data */
    const uint8_t *buf; /* the mapped file while it loads (then NULL: from_file), or the caller's buffer */
    size_t len;
    int mapped; /* 1: buf is mapped (munmap), 2: buf is malloc'd and owned (free) */
    /* loaded from a file: its bytes are mapped only while it loads (what the model needs afterwards is copied), and
     * read again for nnperf_annotate only when the file is still the one loaded (ox_model_bytes) */
    int from_file;
    uint64_t file_dev, file_ino, file_size;
    int64_t file_mtime_ns, file_ctime_ns;
    int64_t ir_version;
    const char *producer;
    struct ir_opset *opsets;
    int n_opsets;
    struct ir_graph *graph;
    unsigned load_flags;
    int analyzed; /* NNPERF_LOAD_ANALYZE_ONCE: 1 once an analysis took the graph's records */
    int n_functions;
    struct ir_function *functions;
    /* the files the model reads (nnperf_model_file): the model file, then each external-data file (the folder
     * joined with the location; a location is noted when it differs from the previous tensor's) */
    const char **files;
    int n_files, cap_files;
};

/* --- graph building and lookup (ir.c) --- */
struct ir_value *ir_find(const struct ir_graph *g, const char *name); /* this scope only */
/* ir_find for the n bytes at s (a name as the file holds it, not NUL-terminated); NULL also when they hold a NUL */
struct ir_value *ir_find_n(const struct ir_graph *g, const char *s, size_t n);
struct ir_value *ir_lookup(const struct ir_graph *g, const char *name); /* this scope, then outer ones */
/* Creates a value in g (fails with NNPERF_E_INVALID on a duplicate name). */
enum nnperf_status ir_add_value(struct arena *ar, struct ir_graph *g, const char *name, struct ir_value **out,
                                struct diag *d);
/* Sizes g's name table and value list for n values in all, before its first value is added (a loader that knows
 * about how many to expect: growing would leave the smaller arrays behind in the arena); 0 when out of memory. */
int ir_reserve_values(struct arena *ar, struct ir_graph *g, size_t n);
/* v's declared shape (rank -1: none), its sequence's elements (elems NULL: not known; n is then ignored), why its
 * shape is data-dependent: each in a new record (struct ir_value_more); 0 when out of memory */
int ir_set_decl(struct arena *ar, struct ir_value *v, int rank, int dtype, struct ir_dim *dims);
int ir_set_elems(struct arena *ar, struct ir_value *v, int n, struct ir_value **elems);
int ir_set_unknown_reason(struct arena *ar, struct ir_value *v, const char *why);
int64_t ir_opset_of(const struct ir_model *m, const char *domain);

/* --- dims and shapes (dims.c); every product is overflow-checked --- */
/* numel of a value with concrete dims: 1 on success with *n set, 0 if a dim is not concrete or on overflow. */
int ir_numel(const struct ir_value *v, int64_t *n);
int ir_dims_numel(const struct ir_dim *d, int rank, int64_t *n);
int ir_dim_eq(struct ir_dim a, struct ir_dim b); /* same concrete value or same symbol */
/* Symbolic arithmetic: concrete when both are; an expression symbol when possible; else unknown. */
struct ir_dim ir_dim_mul(struct arena *ar, struct ir_dim a, struct ir_dim b);
struct ir_dim ir_dim_add(struct arena *ar, struct ir_dim a, struct ir_dim b);
struct ir_dim ir_dim_sub(struct arena *ar, struct ir_dim a, struct ir_dim b);
struct ir_dim ir_dim_div(struct arena *ar, struct ir_dim a, struct ir_dim b); /* floor division */
/* Multidirectional (numpy) broadcasting of n shapes; returns 0 and *bad_axis on a mismatch. */
int ir_broadcast(struct arena *ar, const struct ir_value *const *vals, int n, int *rank, struct ir_dim **dims,
                 int *bad_axis);
/* Output size of a conv/pool window along one axis with explicit begin/end pads (ONNX: floor or ceil mode);
 * -1 when the window does not fit or on overflow. */
int64_t ir_window_out(int64_t in, int64_t k, int64_t stride, int64_t dilation, int64_t pad_begin,
                      int64_t pad_end, int ceil_mode);
/* Normalises a possibly negative axis into [0, rank); returns 0 when out of range. */
int ir_norm_axis(int64_t axis, int rank, int *out);
/* Formats dims as "1x3x224x224" (symbols by name, '?' unknown, "?" for unknown rank). */
void ir_format_shape(struct strbuf *sb, const struct ir_value *v, const char *sep);

/* --- an analysis's own copy of a graph tree (clone.c) --- */
/* Numbers the graphs, values and nodes of g's tree (ids 0.. of each kind, in the order ir_clone_graph copies them).
 * The loader calls it once the graph is complete; a graph built by hand must call it before being cloned. */
void ir_number_graph(struct ir_graph *g);
/* The position of v among g's own values, from its id (a graph's values are numbered consecutively, and a copy of
 * the graph keeps them), checked against g->values; -1 for a value of an outer scope, or of a graph not numbered. */
static inline int ir_value_pos(const struct ir_graph *g, const struct ir_value *v)
{
    int i = g->n_values ? v->id - g->values[0]->id : -1;
    return i >= 0 && i < g->n_values && g->values[i] == v ? i : -1;
}
/* Copies into ar every graph, value and node of g's tree (subgraphs included, with their name tables), with all
 * pointers between them redirected to the copies; names, declared dims, initializer data and plain attribute
 * payloads stay shared with g, which is never written. Inference runs on the copy, so any number of analyses of one
 * model can live side by side. Errors: NNPERF_E_NOMEM; NNPERF_E_INVALID when a record points outside the tree or the
 * tree is not numbered (ir_number_graph). */
enum nnperf_status ir_clone_graph(struct arena *ar, const struct ir_graph *g, struct ir_graph **out,
                                  struct diag *d);
/* A copy into ar of g's own records only (its nodes and the values it defines, with the pointers between them
 * redirected; node arrays of inputs and outputs are new), for a pass that rewires one graph (the prediction's
 * lowering): subgraphs, outer-scope values, names, dims and the name table stay g's. Errors: NNPERF_E_NOMEM. */
enum nnperf_status ir_copy_graph(struct arena *ar, const struct ir_graph *g, struct ir_graph **out,
                                 struct diag *d);

#endif
