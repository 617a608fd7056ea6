/* tvals.h - private helpers of the tensor operators (shape.c, slice.c, gather.c): reading the propagated values
 * of an input whatever their kind (integers, possibly symbolic, or floats), writing an output's values by picking
 * input elements through an index map, reading "ints" arguments that moved from attributes to inputs across
 * opsets, and row-major index arithmetic over concrete dims. All functions are static inline (not registry rows). */
#ifndef NNPERF_OPS_TENSOR_TVALS_H
#define NNPERF_OPS_TENSOR_TVALS_H

#include <stdlib.h>
#include <string.h>

#include "../ops.h"

/* Values of one input: kind 0 = not known, 1 = integers (iv), 2 = floats (fv). */
struct tvals {
    int kind;
    int64_t n;
    const struct ir_ival *iv;
    const double *fv;
};

static inline int tv_get(struct op_ctx *c, int i, struct tvals *t)
{
    const struct ir_ival *iv;
    const double *fv;
    int64_t n;
    const struct ir_value *x = op_in(c, i);
    memset(t, 0, sizeof *t);
    if (!x) return 0;
    /* floating weights stored outside the model are not shape data: reading them would need the weights file
     * (absent for weight-stripped models, and a failed read is fatal) */
    if (ir_value_enc(x) == DE_EXTERNAL && !x->iv && !x->fv && !ir_dtype_is_int(x->dtype)) return 0;
    n = op_ivals(c, i, &iv);
    if (n >= 0) {
        t->kind = 1;
        t->n = n;
        t->iv = iv;
        return 1;
    }
    n = op_fvals(c, i, &fv);
    if (n >= 0) {
        t->kind = 2;
        t->n = n;
        t->fv = fv;
        return 1;
    }
    return 0;
}

/* Like tv_get, but an integer input of known small size without values reads as that many unknown elements
 * (so that Concat of a known and an unknown part keeps the known part). */
static inline int tv_get_partial(struct op_ctx *c, int i, struct tvals *t)
{
    if (tv_get(c, i, t)) return 1;
    const struct ir_value *x = op_in(c, i);
    int64_t n;
    if (!x || !ir_dtype_is_int(x->dtype) || !ir_numel(x, &n) || n > NNPERF_MAX_CONST_ELEMS) return 0;
    struct ir_ival *iv = ar_calloc(c->ar, (size_t)(n ? n : 1), sizeof *iv);
    if (!iv) return 0;
    for (int64_t k = 0; k < n; k++) iv[k] = (struct ir_ival){0, NULL, 0};
    t->kind = 1;
    t->n = n;
    t->iv = iv;
    return 1;
}

/* 1 when some element carries information (known or symbolic). */
static inline int tv_informative(const struct ir_ival *iv, int64_t n)
{
    for (int64_t k = 0; k < n; k++)
        if (iv[k].known || iv[k].sym) return 1;
    return n == 0;
}

/* Output o gets the values t[idx[k]] for k < n (idx NULL: the identity map). Values out of range or too many
 * elements are silently not propagated (the shape is still set by the caller). */
static inline enum nnperf_status tv_take(struct op_ctx *c, int o, const struct tvals *t, const int64_t *idx,
                                         int64_t n)
{
    if (!t->kind || n < 0 || n > NNPERF_MAX_CONST_ELEMS) return NNPERF_OK;
    for (int64_t k = 0; idx && k < n; k++)
        if (idx[k] < 0 || idx[k] >= t->n) return NNPERF_OK;
    if (!idx && n > t->n) return NNPERF_OK;
    /* the values gathered in a buffer of the call's own: op_set_ivals/fvals copy them into the arena */
    enum nnperf_status st = NNPERF_OK;
    if (t->kind == 1) {
        struct ir_ival *v = malloc((size_t)(n ? n : 1) * sizeof *v);
        if (!v) return op_nomem(c);
        for (int64_t k = 0; k < n; k++) v[k] = t->iv[idx ? idx[k] : k];
        if (tv_informative(v, n)) st = op_set_ivals(c, o, v, n);
        free(v);
        return st;
    }
    double *v = malloc((size_t)(n ? n : 1) * sizeof *v);
    if (!v) return op_nomem(c);
    for (int64_t k = 0; k < n; k++) v[k] = t->fv[idx ? idx[k] : k];
    st = op_set_fvals(c, o, v, n);
    free(v);
    return st;
}

/* An "ints" argument that is attribute attr before opset 'since_input' and input in_idx from it on.
 * Returns the count (values copied into buf, at most cap), -1 when present but its values are not known
 * (or not concrete, or more than cap), -2 when absent. */
static inline int64_t ints_arg(struct op_ctx *c, const char *attr, int in_idx, int since_input, int64_t *buf,
                               int64_t cap)
{
    if (c->n->opset < since_input || !attr) {
        if (!attr) return -2;
        const int64_t *v;
        const struct ir_attr *a = op_attr(c, attr);
        if (!a) return -2;
        int64_t n = op_attr_ints(c, attr, &v);
        if (a->type == AT_INT) {
            buf[0] = a->i;
            return 1;
        }
        if (n > cap) return -1;
        if (n) memcpy(buf, v, (size_t)n * sizeof *buf);
        return n;
    }
    if (!op_in(c, in_idx)) return -2;
    return op_ivals_concrete(c, in_idx, buf, cap);
}

/* Row-major strides of concrete dims; returns 0 when a dim is not concrete. */
static inline int tv_strides(const struct ir_dim *d, int rank, int64_t *st)
{
    int64_t s = 1;
    for (int k = rank - 1; k >= 0; k--) {
        if (d[k].val < 0) return 0;
        st[k] = s;
        if (!ck_mul_i64(s, d[k].val, &s)) return 0;
    }
    return 1;
}

/* Concrete dims of v into out (returns 0 when rank unknown or a dim not concrete). */
static inline int tv_concrete(const struct ir_value *v, int64_t *out)
{
    if (!v || v->rank < 0) return 0;
    for (int k = 0; k < v->rank; k++) {
        if (v->dims[k].val < 0) return 0;
        out[k] = v->dims[k].val;
    }
    return 1;
}

/* Merges two dims that must be equal: the concrete one wins; returns 0 on a concrete mismatch. */
static inline int tv_merge_dim(struct ir_dim a, struct ir_dim b, struct ir_dim *out)
{
    if (a.val >= 0 && b.val >= 0) {
        *out = a;
        return a.val == b.val;
    }
    if (a.val >= 0)
        *out = a;
    else if (b.val >= 0)
        *out = b;
    else
        *out = a.sym ? a : b;
    return 1;
}

#endif
