/* load.h - what the files of the ModelProto reader share (internal to src/onnx): the ONNX field numbers, the reader
 * state, the wire-type tables and field loops, and the message readers that call each other.
 *   load.c      ModelProto: ir_version, opset_import, functions, the main graph; binds operators
 *   fields.c    errors naming message, field and byte, wire-type checks, arena strings and arrays
 *   types.c     TypeProto, TensorShapeProto, ValueInfoProto
 *   attr.c      AttributeProto
 *   tensor.c    TensorProto views, external data, decoding small values
 *   function.c  FunctionProto and inlining
 *   graph.c     GraphProto, nodes, name resolution
 * Field numbers: onnx/onnx.proto (ModelProto, GraphProto, NodeProto, AttributeProto, TensorProto, TypeProto). */
#ifndef NNPERF_ONNX_LOAD_H
#define NNPERF_ONNX_LOAD_H

#include "onnx.h"
#include "pb.h"

/* ModelProto */
enum { MP_IR_VERSION = 1, MP_PRODUCER = 2, MP_GRAPH = 7, MP_OPSET = 8, MP_METADATA = 14, MP_FUNCTIONS = 25 };
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
enum {
    NP_INPUT = 1,
    NP_OUTPUT = 2,
    NP_NAME = 3,
    NP_OP_TYPE = 4,
    NP_ATTR = 5,
    NP_DOC = 6,
    NP_DOMAIN = 7,
    NP_OVERLOAD = 8
};
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
    FP_ATTR_PROTO = 11,
    FP_OVERLOAD = 13
};

/* A model-local function: its signature, attribute defaults and body nodes (views into the file), read once. */
struct ir_function {
    const char *name, *domain, *overload; /* (domain, name, overload) identify it */
    const char **inputs, **outputs;
    int n_inputs, n_outputs;
    struct ir_attr *defaults; /* attribute_proto: defaults */
    int n_defaults;
    const uint8_t **nodes; /* NodeProto views */
    size_t *node_len;
    int n_nodes;
    int n_calls; /* times inlined so far (INLINE_MAX_CALLS) */
};

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

/* growable pointer array in the arena */
struct pvec {
    void **v;
    int n, cap;
};

#define OX_SHARED  64
#define OX_OP_MEMO 256
struct ld {
    struct ir_model *m;
    struct arena *ar;
    struct diag *d;
    int64_t n_nodes_total;
    const struct ox_registry *reg; /* the operator registry (NULL when only a tensor is parsed) */
    /* the last external data file checked (tensor.c): its location, whether it was found, its size */
    const char *ext_last;
    int ext_last_found;
    uint64_t ext_last_size;
    /* nodes whose inputs are still names, in the order ox_resolve_graph binds them (graph.c): pairs of the node and
     * its array of n_in input names; the node is NULL for a function call replaced by its body. Both live in tmp,
     * an arena of the load's own that is released when the model is loaded (unused when only a tensor is parsed) */
    struct pvec pending;
    struct arena tmp;
    /* operator types and domains, a few strings that every node repeats: each copied into the model once
     * (ox_str_shared); shared_at: 1 + the entry last found at a hash of the string's length, first and last byte */
    struct {
        const char *s;
        size_t len;
    } shared[OX_SHARED];
    int n_shared;
    unsigned char shared_at[OX_SHARED];
    /* the last binding of an operator name seen (ox_bind_op), at a hash of op_type's address: most models use a
     * few dozen operators many times, each name one string (ox_str_shared) */
    struct ox_op_memo {
        const char *domain, *op_type;
        int op, opset;
    } op_memo[OX_OP_MEMO];
    /* a model's load: short strings (names) packed end to end in chunks of the model's arena (ox_str), not each
     * rounded up to 8 bytes; str_next/str_left: the room left in the current chunk */
    int pack_strings;
    char *str_next;
    size_t str_left;
};

/* Known fields of the messages read here and the wire types they may have (repeated scalars: packed or not).
 * A known field with another wire type is an error rather than silently skipped: it means a corrupt file.
 * A message's table is indexed by field number ({[NP_INPUT] = {WL, "input"}, ...}); unknown numbers have no
 * wires and no name. */
struct fspec {
    unsigned wires; /* bit (1 << wire) per allowed wire type; 0: not a known field */
    const char *name;
};
#define FSPEC_N(tab) ((uint32_t)(sizeof(tab) / sizeof((tab)[0])))
#define WV           (1u << PB_VARINT)
#define WL           (1u << PB_LEN)
#define W32          (1u << PB_I32)
#define W64          (1u << PB_I64)

/* Walks a message calling nothing; used to validate nested fields in one place: returns -1 on error. */
#define FF_CAT2(a, b) a##b
#define FF_CAT(a, b)  FF_CAT2(a, b)
#define FOR_FIELDS(r, f, what)                                                                               \
    for (int FF_CAT(rc_, __LINE__); (FF_CAT(rc_, __LINE__) = pb_next(&(r), &(f), &why)) != 0;)               \
        if (FF_CAT(rc_, __LINE__) < 0)                                                                       \
            return ox_bad_field(L, what, why, (r).field, &(f), NULL, 0);                                     \
        else
/* The same, also checking the wire types of the known fields in tab (an array of struct fspec). */
#define FOR_FIELDS_CHECKED(r, f, what, tab)                                                                  \
    for (int FF_CAT(rc_, __LINE__); (FF_CAT(rc_, __LINE__) = pb_next(&(r), &(f), &why)) != 0;)               \
        if (FF_CAT(rc_, __LINE__) < 0)                                                                       \
            return ox_bad_field(L, what, why, (r).field, &(f), tab, FSPEC_N(tab));                           \
        else if (!ox_wire_ok(L, what, tab, FSPEC_N(tab), &(f), (r).field))                                   \
            return L->d->status;                                                                             \
        else

/* One graph being built: its nodes so far and the renaming of the function call being inlined (or NULL). */
struct gstate {
    struct ir_graph *g;
    struct pvec nodes;
    const struct rename *rn;
};

/* fields.c */
int ox_pv_push(struct arena *ar, struct pvec *p, void *x);
/* Room for more entries after p's last (a count known ahead: growing leaves the smaller arrays in the arena); 0
 * when out of memory. */
int ox_pv_reserve(struct arena *ar, struct pvec *p, size_t more);
enum nnperf_status ox_nomem(struct ld *L);
/* "malformed WHAT at byte N: WHY" (N: at's offset in the model file, left out when at is in another buffer). */
enum nnperf_status ox_malformed(struct ld *L, const char *what, const char *why, const uint8_t *at);
/* The error for a field pb_next refused; names the field when it is known in tab[0..n) (tab may be NULL). */
enum nnperf_status ox_bad_field(struct ld *L, const char *what, const char *why, const uint8_t *at,
                                const struct pb_field *f, const struct fspec *tab, uint32_t n);
/* The error for a known field whose wire type tab does not allow (ox_wire_ok); returns 0. */
int ox_wire_error(struct ld *L, const char *what, const struct fspec *spec, const struct pb_field *f,
                  const uint8_t *at);
/* 1 when f is unknown in tab[0..n) or has an allowed wire type, else 0. */
static inline int ox_wire_allowed(const struct fspec *tab, uint32_t n, const struct pb_field *f)
{
    return f->num >= n || !tab[f->num].wires || (tab[f->num].wires >> f->wire) & 1u;
}
/* ox_wire_allowed, and when not, an error naming the field. */
static inline int ox_wire_ok(struct ld *L, const char *what, const struct fspec *tab, uint32_t n,
                             const struct pb_field *f, const uint8_t *at)
{
    return ox_wire_allowed(tab, n, f) || ox_wire_error(L, what, &tab[f->num], f, at);
}
/* f's bytes as a NUL-terminated string in the model arena; NULL when out of memory. */
const char *ox_str(struct ld *L, const struct pb_field *f);
const char *ox_str_shared(struct ld *L,
                          const struct pb_field *f); /* one copy per distinct string (L->shared) */

/* types.c */
/* "AxBxC" into buf ("scalar" for rank 0). */
void ox_shape_str(int rank, const struct ir_dim *dims, char *buf, size_t cap);
/* A shape whose element count or byte size does not fit in int64 is an error "<what> '<name>': the size of shape
 * ... overflows int64"; symbolic and unknown dims are skipped, a zero dim makes the tensor empty. */
enum nnperf_status ox_check_size(struct ld *L, const char *what, const char *name, int rank,
                                 const struct ir_dim *dims, int dtype);
/* TypeProto -> kind, elem dtype, rank/dims (rank -1 when no shape given). depth: 0 at the outermost type. */
enum nnperf_status ox_parse_type(struct ld *L, const uint8_t *p, size_t n, int *kind, int *dtype, int *rank,
                                 struct ir_dim **dims, int depth);
/* ValueInfoProto -> name + declared type. */
enum nnperf_status ox_parse_value_info(struct ld *L, const uint8_t *p, size_t n, const char **name, int *kind,
                                       int *dtype, int *rank, struct ir_dim **dims);

/* tensor.c */
/* TensorProto -> v's dtype, dims and a view of its data (raw, typed field, or external location), checked against
 * its dims and data_type; *name_out (when not NULL) gets the tensor's name when it has one. Errors read
 * "<what> '<label>': ..." (label NULL: the tensor's name), e.g. "initializer 'w': ...". */
enum nnperf_status ox_parse_tensor_proto(struct ld *L, const uint8_t *p, size_t n, struct ir_value *v,
                                         const char **name_out, const char *what, const char *label);

/* attr.c */
/* AttributeProto -> a. g: the graph of the node (outer scope of graph attributes; NULL in a function's
 * attribute defaults, whose graphs are not read), rn: the renaming of the call being inlined or NULL. */
enum nnperf_status ox_parse_attr(struct ld *L, const uint8_t *p, size_t n, struct ir_graph *g,
                                 const struct rename *rn, const char *node_name, struct ir_attr *a);

/* function.c */
enum nnperf_status ox_parse_function(struct ld *L, const uint8_t *p, size_t n, struct ir_function *fn);
/* The model-local function (domain, name, overload), or NULL. */
struct ir_function *ox_find_function(const struct ld *L, const char *domain, const char *name,
                                     const char *overload);
/* A function defined twice (same domain, name and overload) is an error naming it. */
enum nnperf_status ox_check_functions(struct ld *L);
/* name as seen inside the call rn: a formal input or output becomes the actual one, anything else is prefixed. */
const char *ox_rename_name(struct ld *L, const struct rename *rn, const char *name);
/* Expands a call of a model-local function: its body nodes with names mapped, added to G. */
enum nnperf_status ox_inline_call(struct ld *L, struct gstate *G, struct ir_node *call,
                                  struct ir_function *fn, const struct rename *outer);

/* load.c */
/* Sets nd's registry index and the opset of its domain in effect (as the node is read: the opsets come first). */
void ox_bind_op(struct ld *L, struct ir_node *nd);

/* graph.c */
/* NodeProto -> a node of G (or the nodes of the function it calls). */
enum nnperf_status ox_add_node(struct ld *L, struct gstate *G, const uint8_t *p, size_t n,
                               const struct rename *rn);
enum nnperf_status ox_parse_graph(struct ld *L, const uint8_t *p, size_t n, struct ir_graph *parent,
                                  const struct rename *rn, struct ir_graph **out);
/* Binds the input names of every node read (L->pending) to the values they name; collects outer-scope reads of
 * subgraphs on their node. */
enum nnperf_status ox_resolve_graph(struct ld *L, struct ir_graph *g);

#endif
