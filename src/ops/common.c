/* common.c - the operator API of ops.h: attribute access, setting outputs and propagated values, errors and
 * warnings, and the shared inference and counting rules used by many rows of op_list.def. */
#include <stdio.h>
#include <string.h>

#include "../onnx/onnx.h"
#include "ops.h"

struct ir_value *op_in(struct op_ctx *c, int i)
{
    return (i >= 0 && i < c->n->n_in) ? c->n->in[i] : NULL;
}

struct ir_value *op_out(struct op_ctx *c, int i)
{
    return (i >= 0 && i < c->n->n_out) ? c->n->out[i] : NULL;
}

int op_n_in(struct op_ctx *c)
{
    return c->n->n_in;
}

const struct ir_attr *op_attr(struct op_ctx *c, const char *name)
{
    for (int i = 0; i < c->n->n_attr; i++)
        if (!strcmp(c->n->attrs[i].name, name)) return &c->n->attrs[i];
    return NULL;
}

/* ONNX's AttributeProto.AttributeType names, for messages */
static const char *attr_type_name(int t)
{
    static const char *const names[] = {"UNDEFINED",      "FLOAT",      "INT",        "STRING",
                                        "TENSOR",         "GRAPH",      "FLOATS",     "INTS",
                                        "STRINGS",        "TENSORS",    "GRAPHS",     "SPARSE_TENSOR",
                                        "SPARSE_TENSORS", "TYPE_PROTO", "TYPE_PROTOS"};
    return t >= 0 && t < (int)(sizeof names / sizeof names[0]) ? names[t] : "?";
}

/* The attribute when it is absent (NULL) or has type want (or also, when also >= 0). Any other type fails the node:
 * the error is recorded in c->d, which the driver checks after infer(), and NULL comes back, so that a wrong-typed
 * attribute never passes for its default. */
static const struct ir_attr *typed_attr(struct op_ctx *c, const char *name, int want, int also)
{
    const struct ir_attr *a = op_attr(c, name);
    if (!a || a->type == want || (also >= 0 && a->type == also)) return a;
    op_err(c, name, "has type %s, expected %s", attr_type_name(a->type), attr_type_name(want));
    return NULL;
}

const struct ir_attr *op_attr_typed(struct op_ctx *c, const char *name, int type)
{
    return typed_attr(c, name, type, -1);
}

int64_t op_attr_int(struct op_ctx *c, const char *name, int64_t def)
{
    const struct ir_attr *a = typed_attr(c, name, AT_INT, -1);
    return a ? a->i : def;
}

double op_attr_float(struct op_ctx *c, const char *name, double def)
{
    /* an INT where a FLOAT is expected is taken as its value (no default is used silently) */
    const struct ir_attr *a = typed_attr(c, name, AT_FLOAT, AT_INT);
    if (!a) return def;
    return a->type == AT_FLOAT ? a->f : (double)a->i;
}

const char *op_attr_str(struct op_ctx *c, const char *name, const char *def)
{
    const struct ir_attr *a = typed_attr(c, name, AT_STRING, -1);
    return a && a->s ? a->s : def;
}

int64_t op_attr_ints(struct op_ctx *c, const char *name, const int64_t **v)
{
    const struct ir_attr *a = typed_attr(c, name, AT_INTS, -1);
    if (!a) {
        *v = NULL;
        return 0;
    }
    *v = a->ints;
    return a->n;
}

enum nnperf_status op_err(struct op_ctx *c, const char *attr, const char *fmt, ...)
{
    char msg[400];
    va_list ap;
    va_start(ap, fmt);
    c_vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    if (attr)
        return diag_set(c->d, NNPERF_E_INVALID, "node '%s' (%s): attribute '%s' %s", c->n->name,
                        c->n->op_type, attr, msg);
    return diag_set(c->d, NNPERF_E_INVALID, "node '%s' (%s): %s", c->n->name, c->n->op_type, msg);
}

enum nnperf_status op_check_input_dtype(struct op_ctx *c, int i, const char *what, int dtype)
{
    const struct ir_value *v = op_in(c, i);
    if (!v || v->dtype == DT_UNDEFINED || v->dtype == dtype) return NNPERF_OK;
    return op_err(c, NULL, "input '%s' ('%s') has type %s, expected %s", what, v->name,
                  ir_dtype_name(v->dtype), ir_dtype_name(dtype));
}

enum nnperf_status op_nomem(struct op_ctx *c)
{
    return diag_set(c->d, NNPERF_E_NOMEM, "out of memory while inferring node '%s'", c->n->name);
}

void op_warn(struct op_ctx *c, const char *fmt, ...)
{
    char msg[400];
    va_list ap;
    va_start(ap, fmt);
    c_vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    if (!c->host || !c->host->warn) return;
    char line[600];
    snprintf(line, sizeof line, "node '%s' (%s): %s", c->n->name, c->n->op_type, msg);
    c->host->warn(c->host->ctx, line);
}

enum nnperf_status op_infer_subgraph(struct op_ctx *c, struct ir_graph *g, int64_t repeat)
{
    if (!c->host || !c->host->infer_subgraph)
        return diag_set(c->d, NNPERF_E_UNSUPPORTED, "node '%s' (%s): no analysis to infer its subgraph",
                        c->n->name, c->n->op_type);
    return c->host->infer_subgraph(c->host->ctx, g, repeat);
}

enum nnperf_status op_set(struct op_ctx *c, int i, int dtype, int rank, const struct ir_dim *dims)
{
    struct ir_value *v = op_out(c, i);
    if (!v) return NNPERF_OK;
    if (rank > NNPERF_MAX_RANK)
        return diag_set(c->d, NNPERF_E_LIMIT,
                        "node '%s' (%s): output %d would have rank %d, over the limit of %d", c->n->name,
                        c->n->op_type, i, rank, NNPERF_MAX_RANK);
    v->dtype = dtype;
    if (v->type_kind != TK_SEQUENCE && v->type_kind != TK_OPTIONAL) v->type_kind = TK_TENSOR;
    if (rank < 0 || !dims) {
        v->rank = rank < 0 ? -1 : rank;
        v->dims = rank > 0 ? ar_calloc(c->ar, (size_t)rank, sizeof *v->dims) : NULL;
        if (rank > 0) {
            if (!v->dims) return op_nomem(c);
            for (int k = 0; k < rank; k++) v->dims[k] = IR_DIM_UNKNOWN;
        }
        return NNPERF_OK;
    }
    struct ir_dim nd[NNPERF_MAX_RANK];
    if (rank) memcpy(nd, dims, (size_t)rank * sizeof *nd);
    for (int k = 0; k < rank; k++)
        if (nd[k].val < 0 && nd[k].val != -1) nd[k] = IR_DIM_UNKNOWN;
    v->rank = rank;
    /* an input of the node with these very dims lends its array (a value's dims are never written once it has
     * them; a change makes a new array): an element-wise chain holds one */
    for (int j = 0; j < c->n->n_in && rank > 0; j++) {
        const struct ir_value *x = c->n->in[j];
        if (x && x->rank == rank && x->dims && !memcmp(x->dims, nd, (size_t)rank * sizeof *nd)) {
            v->dims = x->dims;
            return NNPERF_OK;
        }
    }
    struct ir_dim *d = ar_calloc(c->ar, (size_t)(rank ? rank : 1), sizeof *d);
    if (!d) return op_nomem(c);
    if (rank) memcpy(d, nd, (size_t)rank * sizeof *d);
    v->dims = d;
    return NNPERF_OK;
}

enum nnperf_status op_set_like(struct op_ctx *c, int i, const struct ir_value *v, int dtype)
{
    if (!v) return op_set(c, i, dtype, -1, NULL);
    return op_set(c, i, dtype, v->rank, v->dims);
}

enum nnperf_status op_data_dependent(struct op_ctx *c, int i, int dtype, int rank, const struct ir_dim *dims,
                                     const char *what)
{
    struct ir_value *v = op_out(c, i);
    if (!v) return NNPERF_OK;
    struct ir_dim d[NNPERF_MAX_RANK];
    if (rank > NNPERF_MAX_RANK) return op_set(c, i, dtype, rank, NULL);
    const char *base = c->n->name[0] ? c->n->name : c->n->op_type;
    for (int k = 0; k < rank; k++) {
        d[k] = dims ? dims[k] : IR_DIM_UNKNOWN;
        if (!dims || d[k].val == -2) {
            d[k].val = -1;
            d[k].sym = ar_printf(c->ar, "%s_%s", base, what);
            if (!d[k].sym) return op_nomem(c);
        }
    }
    enum nnperf_status st = op_set(c, i, dtype, rank, d);
    if (st) return st;
    const char *why = ar_printf(c->ar, "'%s' of %s depends on the input data", what, c->n->op_type);
    if (!why || !ir_set_unknown_reason(c->ar, v, why)) return op_nomem(c);
    op_warn(c, "output '%s' has a data-dependent size ('%s_%s')", v->name, base, what);
    return NNPERF_OK;
}

void op_set_kind(struct op_ctx *c, int i, int type_kind)
{
    struct ir_value *v = op_out(c, i);
    if (v) v->type_kind = (signed char)type_kind;
}

static int load_values(struct op_ctx *c, struct ir_value *v)
{
    if (v->iv || v->fv) return 1;
    if (ir_value_enc(v) == DE_NONE) return 0;
    if (ir_value_enc(v) == DE_EXTERNAL && !ir_dtype_is_int(v->dtype)) {
        /* Floating-point values are propagated opportunistically (a bias through Identity, Resize scales): when
         * their external file cannot be read (weight-stripped models) they are just unknown. Integer values are
         * shape data a node needs: failing to read them is an error (a missing external file is only an error
         * when a value from it is needed). */
        struct diag quiet = {0};
        if (ox_decode_values(c->m, c->ar, v, &quiet) != NNPERF_OK) {
            v->init = NULL; /* do not try again (this copy only; the model's record is shared) */
            return 0;
        }
        return v->iv || v->fv;
    }
    if (ox_decode_values(c->m, c->ar, v, c->d) != NNPERF_OK) return 0;
    return v->iv || v->fv;
}

int64_t op_ivals(struct op_ctx *c, int i, const struct ir_ival **v)
{
    struct ir_value *x = op_in(c, i);
    if (!x || !load_values(c, x) || !x->iv) return -1;
    *v = x->iv;
    return x->nv;
}

int64_t op_ivals_concrete(struct op_ctx *c, int i, int64_t *v, int64_t cap)
{
    const struct ir_ival *d;
    int64_t n = op_ivals(c, i, &d);
    if (n < 0 || n > cap) return -1;
    for (int64_t k = 0; k < n; k++) {
        if (!d[k].known) return -1;
        v[k] = d[k].v;
    }
    return n;
}

int64_t op_fvals(struct op_ctx *c, int i, const double **v)
{
    struct ir_value *x = op_in(c, i);
    if (!x || !load_values(c, x)) return -1;
    if (x->fv) {
        *v = x->fv;
        return x->nv;
    }
    if (!x->iv) return -1;
    double *f = ar_calloc(c->ar, (size_t)(x->nv ? x->nv : 1), sizeof *f);
    if (!f) return -1;
    for (int64_t k = 0; k < x->nv; k++) {
        if (!x->iv[k].known) return -1;
        f[k] = (double)x->iv[k].v;
    }
    *v = f;
    return x->nv;
}

enum nnperf_status op_set_ivals(struct op_ctx *c, int i, const struct ir_ival *v, int64_t n)
{
    struct ir_value *o = op_out(c, i);
    if (!o || n < 0 || n > NNPERF_MAX_CONST_ELEMS) return NNPERF_OK;
    struct ir_ival *d = ar_calloc(c->ar, (size_t)(n ? n : 1), sizeof *d);
    if (!d) return op_nomem(c);
    if (n) memcpy(d, v, (size_t)n * sizeof *d);
    o->iv = d;
    o->fv = NULL;
    o->nv = (int)n;
    return NNPERF_OK;
}

enum nnperf_status op_set_fvals(struct op_ctx *c, int i, const double *v, int64_t n)
{
    struct ir_value *o = op_out(c, i);
    if (!o || n < 0 || n > NNPERF_MAX_CONST_ELEMS) return NNPERF_OK;
    double *d = ar_calloc(c->ar, (size_t)(n ? n : 1), sizeof *d);
    if (!d) return op_nomem(c);
    if (n) memcpy(d, v, (size_t)n * sizeof *d);
    o->fv = d;
    o->iv = NULL;
    o->nv = (int)n;
    return NNPERF_OK;
}

enum nnperf_status op_infer_same(struct op_ctx *c)
{
    struct ir_value *x = op_in(c, 0);
    return op_set_like(c, 0, x, x ? x->dtype : DT_UNDEFINED);
}

static enum nnperf_status bcast(struct op_ctx *c, int dtype)
{
    const struct ir_value *vals[64];
    int n = 0;
    for (int i = 0; i < c->n->n_in && n < 64; i++)
        if (c->n->in[i]) vals[n++] = c->n->in[i];
    int rank, bad = -1;
    struct ir_dim *dims;
    if (!ir_broadcast(c->ar, vals, n, &rank, &dims, &bad))
        return op_err(c, NULL, "inputs cannot be broadcast together (axis %d of the broadcast shape)", bad);
    return op_set(c, 0, dtype, rank, dims);
}

enum nnperf_status op_infer_bcast(struct op_ctx *c)
{
    struct ir_value *x = op_in(c, 0);
    return bcast(c, x ? x->dtype : DT_UNDEFINED);
}

enum nnperf_status op_infer_unknown(struct op_ctx *c)
{
    for (int i = 0; i < c->n->n_out; i++) {
        enum nnperf_status st = op_set(c, i, DT_UNDEFINED, -1, NULL);
        if (st) return st;
    }
    return NNPERF_OK;
}

static double fpe_of(struct op_ctx *c)
{
    return c->n->op >= 0 ? op_table[c->n->op].fpe : 0.0;
}

static void count_elems(struct op_ctx *c, struct ir_cost *cost, const struct ir_value *v)
{
    int64_t n;
    if (!ir_numel(v, &n)) {
        cost->known = 0;
        return;
    }
    cost->macs = 0;
    cost->flops = (uint64_t)((double)n * fpe_of(c) + 0.5);
}

void op_count_eltwise(struct op_ctx *c, struct ir_cost *cost)
{
    count_elems(c, cost, op_out(c, 0));
}

void op_count_input(struct op_ctx *c, struct ir_cost *cost)
{
    count_elems(c, cost, op_in(c, 0));
}

void op_count_zero(struct op_ctx *c, struct ir_cost *cost)
{
    (void)c;
    cost->macs = 0;
    cost->flops = 0;
}
