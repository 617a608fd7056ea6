/* ops.h - the operator registry and the API operator functions are written against.
 *
 * Every operator is one row of op_list.def: OP(ID, "domain", "Name", since, until, CLASS, fpe, infer, count).
 * infer() sets each output's dtype and dims (and, for small integer tensors, their values); count() sets
 * cost->macs (multiply-accumulates) and cost->flops = the FLOPs BEYOND the MACs (bias adds, activations,
 * element-wise work); the driver adds 2 x macs to flops. cost->known starts at 1: set it to 0 when a needed
 * shape is unknown. bytes_read/bytes_written/params are filled by the driver from tensor sizes, so count()
 * only says what is specific to the operator. Hardware rules never live here (they are passes).
 *
 * Rules for infer():
 *  - unknown input dims give unknown (or symbolic) output dims: partial inference is not an error;
 *  - a contradiction is an error through op_err(c, "attr", ...) naming the attribute (or NULL);
 *  - opset differences (attribute became input) are handled by looking at c->n->opset;
 *  - outputs whose size depends on data get op_data_dependent() (a named symbolic dim and a reason).
 */
#ifndef NNPERF_OPS_H
#define NNPERF_OPS_H

#include "../ir/ir.h"

enum op_class {
    OC_CONV,      /* convolution-like: Conv, ConvTranspose, ConvInteger, QLinearConv */
    OC_GEMM,      /* Gemm, fully-connected */
    OC_MATMUL,    /* MatMul and batched forms, Einsum */
    OC_ATTENTION, /* fused attention operators */
    OC_RNN,       /* LSTM, GRU, RNN */
    OC_ELTWISE,   /* element-wise arithmetic, comparison, logic */
    OC_ACT,       /* activations */
    OC_POOL,      /* pooling */
    OC_NORM,      /* normalisation */
    OC_REDUCE,    /* reductions, ArgMax, TopK */
    OC_SOFTMAX,   /* Softmax, LogSoftmax, Hardmax */
    OC_RESIZE,    /* Resize, Upsample, GridSample */
    OC_DATA,      /* data movement that touches memory: Transpose, Concat, Gather, Pad, Tile, ... */
    OC_VIEW,      /* metadata-only: Reshape, Squeeze, Flatten, Identity, Shape, ... (no bytes moved) */
    OC_QUANT,     /* QuantizeLinear, DequantizeLinear, ... */
    OC_GEN,       /* generators: Constant, Range, RandomNormal, EyeLike, ... */
    OC_CONTROL,   /* If, Loop, Scan */
    OC_SEQUENCE,  /* sequence and optional operators */
    OC_OTHER,
    OC_CONV_GROUPED, /* not an operator's class: a Conv layer with group > 1 (depthwise, grouped); platforms may give it
                      * its own efficiency (it falls back to conv's) */
    OC_CONV_DEPTHWISE, /* not an operator's class: a grouped Conv with one input channel per group; its efficiency
                        * falls back to conv_grouped's */
    OC_COUNT
};

const char *op_class_name(int klass);

struct op_ctx;
typedef enum nnperf_status (*op_infer_fn)(struct op_ctx *c);
typedef void (*op_count_fn)(struct op_ctx *c, struct ir_cost *cost);

struct op_def {
    const char *domain, *name;
    int since, until; /* first opset version of the domain; last (0 = still current) */
    int klass;        /* enum op_class */
    double fpe;       /* FLOPs per output element for count_eltwise (docs/conventions.md) */
    op_infer_fn infer;
    op_count_fn count;
};

enum op_id {
#define OP(id, dom, name, since, until, klass, fpe, infer, count) OPID_##id,
#include "op_list.def"
#undef OP
    OPID_COUNT
};

extern const struct op_def op_table[OPID_COUNT];
/* Registry index of (domain, name), -1 when absent. domain "" and "ai.onnx" are the same. */
int op_find(const char *domain, const char *name);
/* The row of an operator named name in any domain (the first domain in table order that has it), or -1. */
int op_find_name(const char *name);
/* The newest ai.onnx opset the registry knows: the newest 'since' of its ai.onnx operators. */
int64_t op_newest_opset(void);

/* What an operator may ask of the analysis running it (the analysis layer fills this in; ops never include it). */
struct op_host {
    void *ctx;
    /* records a warning (already prefixed with the node) */
    void (*warn)(void *ctx, const char *msg);
    /* infers and counts subgraph g, its nodes running repeat times per inference */
    enum nnperf_status (*infer_subgraph)(void *ctx, struct ir_graph *g, int64_t repeat);
};

/* Context handed to infer() and count(). */
struct op_ctx {
    const struct ir_model *m; /* read only: opsets, the folder of external data */
    struct ir_node *n;        /* the analysis's own copy of the node (ir_clone_graph) */
    struct arena *ar;         /* where output dims and values are allocated (the analysis arena) */
    struct diag *d;
    const struct op_host *host; /* NULL: warnings are dropped and subgraphs are not inferred */
};

/* Experts a batch of rows routed to k of E experts each touches, in expectation with uniform routing:
 * E x (1 - (1 - k/E)^rows) (one row: k; many: all E). com.microsoft MoE and the lowering of exported MoE blocks. */
double op_moe_experts_touched(double experts, double k, double rows);

/* ---- inputs, outputs, attributes ---- */
struct ir_value *op_in(struct op_ctx *c, int i);  /* NULL when absent or omitted */
struct ir_value *op_out(struct op_ctx *c, int i); /* NULL when absent or omitted */
int op_n_in(struct op_ctx *c);
const struct ir_attr *op_attr(struct op_ctx *c, const char *name);
int64_t op_attr_int(struct op_ctx *c, const char *name, int64_t def);
double op_attr_float(struct op_ctx *c, const char *name, double def);
const char *op_attr_str(struct op_ctx *c, const char *name, const char *def);
/* ints attribute: returns its count (0 when absent) and sets *v. */
int64_t op_attr_ints(struct op_ctx *c, const char *name, const int64_t **v);
/* The attribute name when it has the ONNX attribute type (AT_INT, AT_INTS, ...), NULL when it is absent; when it is
 * there with another type the node fails ("attribute 'axis' has type STRING, expected INT", recorded in c->d, which
 * the driver checks after infer()) and NULL comes back. Use it rather than op_attr() to read a typed field. */
const struct ir_attr *op_attr_typed(struct op_ctx *c, const char *name, int type);
/* The getters above fail the node the same way when the attribute has another type; op_attr_float also takes an
 * INT. */
/* Input i must have dtype when its dtype is known: else an error "input 'what' ('name') has type string, expected
 * int64" (a shape, repeats or size input that is not int64). An absent input or an unknown dtype passes. */
enum nnperf_status op_check_input_dtype(struct op_ctx *c, int i, const char *what, int dtype);

/* ---- errors and warnings ---- */
/* Records "node 'NAME' (OP): attribute 'ATTR' ..." (attr may be NULL) and returns NNPERF_E_INVALID. */
enum nnperf_status op_err(struct op_ctx *c, const char *attr, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 3, 4)))
#endif
    ;
enum nnperf_status op_nomem(struct op_ctx *c);
void op_warn(struct op_ctx *c, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 2, 3)))
#endif
    ;

/* ---- setting outputs ---- */
/* Sets output i to a tensor of dtype with rank dims (copied; rank -1 = unknown rank). No-op if output i absent. */
enum nnperf_status op_set(struct op_ctx *c, int i, int dtype, int rank, const struct ir_dim *dims);
/* Output i gets the dtype and dims of value v (NULL: unknown). */
enum nnperf_status op_set_like(struct op_ctx *c, int i, const struct ir_value *v, int dtype);
/* Output i: a tensor of dtype whose size depends on data: dims are concrete except those listed with -2 in
 * dims[].val, which get a fresh named symbol "<node>_<what>" and the reason is recorded for the report. */
enum nnperf_status op_data_dependent(struct op_ctx *c, int i, int dtype, int rank, const struct ir_dim *dims,
                                     const char *what);
/* Sets output i's type kind (sequence/optional) keeping dtype/dims as the element's. */
void op_set_kind(struct op_ctx *c, int i, int type_kind);

/* ---- propagated values ---- */
/* Integer (or bool) values of input i: returns element count and sets *v, or -1 when not known. */
int64_t op_ivals(struct op_ctx *c, int i, const struct ir_ival **v);
/* Same, only when every element is concrete: copies into v (at most cap elements). */
int64_t op_ivals_concrete(struct op_ctx *c, int i, int64_t *v, int64_t cap);
/* Floating (or integer, converted) values of input i, concrete only; -1 when not known. */
int64_t op_fvals(struct op_ctx *c, int i, const double **v);
/* Sets output i's propagated values (n must equal its numel). */
enum nnperf_status op_set_ivals(struct op_ctx *c, int i, const struct ir_ival *v, int64_t n);
enum nnperf_status op_set_fvals(struct op_ctx *c, int i, const double *v, int64_t n);

/* ---- shared inference rules (ops/common.c) ---- */
enum nnperf_status op_infer_same(struct op_ctx *c);    /* out0 = in0 (dtype, dims) */
enum nnperf_status op_infer_bcast(struct op_ctx *c);   /* broadcast all inputs, dtype of in0 */
enum nnperf_status op_infer_unknown(struct op_ctx *c); /* every output unknown */

/* ---- shared counting rules ---- */
void op_count_eltwise(struct op_ctx *c, struct ir_cost *cost); /* fpe x numel(out0) */
void op_count_zero(struct op_ctx *c, struct ir_cost *cost);    /* no arithmetic (data movement) */
void op_count_input(struct op_ctx *c, struct ir_cost *cost);   /* fpe x numel(in0) (reductions) */

/* ---- every function named in op_list.def, declared once ---- */
#define OP(id, dom, name, since, until, klass, fpe, infer, count)                                            \
    enum nnperf_status infer(struct op_ctx *c);                                                              \
    void count(struct op_ctx *c, struct ir_cost *cost);
#include "op_list.def"
#undef OP

/* ---- subgraphs, for control-flow operators ---- */
/* Infers a subgraph whose formal inputs have been given dtype/dims by the caller; its nodes' costs are added
 * to the report with the given repeat count (trip count, or 1 when unknown and flagged). Through c->host. */
enum nnperf_status op_infer_subgraph(struct op_ctx *c, struct ir_graph *g, int64_t repeat);

#endif
