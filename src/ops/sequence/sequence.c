/* sequence.c - sequence and optional operators: SequenceConstruct/Empty/At/Insert/Erase/Length,
 * SplitToSequence, ConcatFromSequence, Optional, OptionalGetElement, OptionalHasElement. A sequence value carries
 * its ELEMENT dtype and dims (dims unknown where elements differ; element rank unknown for an empty sequence,
 * which then takes the shape of what is inserted). Sequence lengths are not tracked. (SequenceMap, which has a
 * subgraph, is in controlflow/control.c.) */
#include <string.h>

#include "../ops.h"

/* An element shape being merged (equal dims kept, others unknown). */
struct elem {
    int dtype, rank;
    struct ir_dim dims[NNPERF_MAX_RANK];
};

static void elem_of(struct elem *e, const struct ir_value *v)
{
    e->dtype = v ? v->dtype : DT_UNDEFINED;
    e->rank = v && v->rank <= NNPERF_MAX_RANK ? v->rank : -1;
    for (int k = 0; k < e->rank; k++) e->dims[k] = v->dims[k];
}

/* Merges a new element v into e. first: e holds nothing yet (an empty sequence: its unknown rank does not
 * constrain). Different concrete dtypes are an error. */
static enum nnperf_status elem_merge(struct op_ctx *c, struct elem *e, const struct ir_value *v, int first)
{
    if (first) {
        elem_of(e, v);
        return NNPERF_OK;
    }
    if (e->dtype && v->dtype && e->dtype != v->dtype)
        return op_err(c, NULL, "sequence elements have different types (%s and %s)", ir_dtype_name(e->dtype),
                      ir_dtype_name(v->dtype));
    if (!e->dtype) e->dtype = v->dtype;
    if (e->rank < 0) return NNPERF_OK;
    if (v->rank != e->rank) {
        e->rank = -1;
        return NNPERF_OK;
    }
    for (int k = 0; k < e->rank; k++)
        if (!ir_dim_eq(e->dims[k], v->dims[k])) e->dims[k] = IR_DIM_UNKNOWN;
    return NNPERF_OK;
}

static enum nnperf_status set_seq(struct op_ctx *c, int i, const struct elem *e)
{
    enum nnperf_status st = op_set(c, i, e->dtype, e->rank, e->rank >= 0 ? e->dims : NULL);
    op_set_kind(c, i, TK_SEQUENCE);
    return st;
}

/* The input must be a sequence (or of not yet known kind). */
static enum nnperf_status need_seq(struct op_ctx *c, int i, const char *what)
{
    const struct ir_value *s = op_in(c, i);
    if (!s) return op_err(c, NULL, "input '%s' is missing", what);
    if (s->type_kind != TK_SEQUENCE && s->type_kind != TK_UNKNOWN)
        return op_err(c, NULL, "input '%s' is not a sequence", what);
    return NNPERF_OK;
}

/* Optional 'position' input: a scalar when known. */
static enum nnperf_status check_position(struct op_ctx *c, int i)
{
    const struct ir_value *p = op_in(c, i);
    if (p && p->rank > 0 && !(p->rank == 1 && p->dims[0].val == 1))
        return op_err(c, NULL, "input 'position' must be a scalar, has rank %d", p->rank);
    return NNPERF_OK;
}

/* ONNX SequenceConstruct-11: a sequence of the inputs (all of one dtype). */
enum nnperf_status infer_sequence_construct(struct op_ctx *c)
{
    struct elem e;
    if (c->n->n_in < 1) return op_err(c, NULL, "has no inputs");
    for (int i = 0; i < c->n->n_in; i++) {
        const struct ir_value *x = op_in(c, i);
        if (!x) return op_err(c, NULL, "input %d is empty", i);
        enum nnperf_status st = elem_merge(c, &e, x, i == 0);
        if (st) return st;
    }
    return set_seq(c, 0, &e);
}

/* ONNX SequenceEmpty-11: an empty sequence of 'dtype' (default float). */
enum nnperf_status infer_sequence_empty(struct op_ctx *c)
{
    int64_t dt = op_attr_int(c, "dtype", DT_FLOAT);
    if (dt <= 0 || dt >= DT_COUNT)
        return op_err(c, "dtype", "is not a valid data type (%lld)", (long long)dt);
    struct elem e = {(int)dt, -1, {{0, NULL}}};
    return set_seq(c, 0, &e);
}

/* ONNX SequenceAt-11: the element at 'position'. */
enum nnperf_status infer_sequence_at(struct op_ctx *c)
{
    enum nnperf_status st = need_seq(c, 0, "input_sequence");
    if (st || (st = check_position(c, 1))) return st;
    if (!op_in(c, 1)) return op_err(c, NULL, "input 'position' is missing");
    const struct ir_value *s = op_in(c, 0);
    st = op_set_like(c, 0, s, s->dtype);
    op_set_kind(c, 0, TK_TENSOR);
    return st;
}

/* ONNX SequenceInsert-11: the sequence with one more tensor (of the same dtype). */
enum nnperf_status infer_sequence_insert(struct op_ctx *c)
{
    enum nnperf_status st = need_seq(c, 0, "input_sequence");
    if (st || (st = check_position(c, 2))) return st;
    const struct ir_value *s = op_in(c, 0), *t = op_in(c, 1);
    if (!t) return op_err(c, NULL, "input 'tensor' is missing");
    struct elem e;
    elem_of(&e, s);
    if (e.rank < 0) { /* empty (or unknown) sequence: the inserted tensor's shape */
        int dt = e.dtype;
        elem_of(&e, t);
        if (dt && t->dtype && dt != t->dtype)
            return op_err(c, NULL, "tensor of type %s inserted into a sequence of %s",
                          ir_dtype_name(t->dtype), ir_dtype_name(dt));
    } else if ((st = elem_merge(c, &e, t, 0))) {
        return st;
    }
    return set_seq(c, 0, &e);
}

/* ONNX SequenceErase-11: the sequence without one element. */
enum nnperf_status infer_sequence_erase(struct op_ctx *c)
{
    enum nnperf_status st = need_seq(c, 0, "input_sequence");
    if (st || (st = check_position(c, 1))) return st;
    struct elem e;
    elem_of(&e, op_in(c, 0));
    return set_seq(c, 0, &e);
}

/* ONNX SequenceLength-11: an int64 scalar. */
enum nnperf_status infer_sequence_length(struct op_ctx *c)
{
    enum nnperf_status st = need_seq(c, 0, "input_sequence");
    return st ? st : op_set(c, 0, DT_INT64, 0, NULL);
}

/* ONNX SplitToSequence-11: 'split' absent: pieces of 1 along 'axis' (removed when keepdims=0); a scalar: pieces
 * of that size (the last one smaller when it does not divide); 1-D: the given sizes, which must add up. */
enum nnperf_status infer_split_to_sequence(struct op_ctx *c)
{
    const struct ir_value *x = op_in(c, 0), *sp = op_in(c, 1);
    if (!x) return op_err(c, NULL, "input 'input' is missing");
    struct elem e;
    elem_of(&e, x);
    if (x->rank < 0) return set_seq(c, 0, &e);
    int axis;
    int64_t a = op_attr_int(c, "axis", 0);
    if (!ir_norm_axis(a, x->rank, &axis))
        return op_err(c, "axis", "value %lld is out of range for rank %d", (long long)a, x->rank);
    struct ir_dim len = x->dims[axis];
    if (!sp) {
        if (op_attr_int(c, "keepdims", 1)) {
            e.dims[axis] = ir_dim_known(1);
        } else {
            memmove(e.dims + axis, e.dims + axis + 1, (size_t)(e.rank - axis - 1) * sizeof *e.dims);
            e.rank--;
        }
        return set_seq(c, 0, &e);
    }
    if (sp->rank > 1) return op_err(c, NULL, "input 'split' must be a scalar or 1-D, has rank %d", sp->rank);
    const struct ir_ival *v;
    int64_t n = op_ivals(c, 1, &v);
    struct ir_dim piece = IR_DIM_UNKNOWN;
    if (n >= 0) {
        int all = 1;
        int64_t sum = 0;
        for (int64_t k = 0; k < n; k++) {
            if (!v[k].known) {
                all = 0;
                continue;
            }
            if (v[k].v < 0 || (sp->rank == 0 && v[k].v == 0))
                return op_err(c, NULL, "input 'split' has an invalid value (%lld)", (long long)v[k].v);
            if (!ck_add_i64(sum, v[k].v, &sum)) return op_err(c, NULL, "input 'split' values overflow");
        }
        if (sp->rank == 0 && n == 1 && v[0].known) {
            /* equal pieces: one size when it divides the axis */
            if (len.val >= 0 && len.val % v[0].v == 0) piece = ir_dim_known(v[0].v);
        } else if (all) {
            if (len.val >= 0 && sum != len.val)
                return op_err(c, NULL, "input 'split' adds up to %lld, the axis has %lld", (long long)sum,
                              (long long)len.val);
            int same = 1;
            for (int64_t k = 1; k < n; k++) same &= v[k].v == v[0].v;
            if (n > 0 && same) piece = ir_dim_known(v[0].v);
        }
    }
    e.dims[axis] = piece;
    return set_seq(c, 0, &e);
}

/* ONNX ConcatFromSequence-11: the elements concatenated along 'axis' (or stacked along a new axis when
 * new_axis=1). The number of elements is not tracked, so that axis depends on the data. */
enum nnperf_status infer_concat_from_sequence(struct op_ctx *c)
{
    enum nnperf_status st = need_seq(c, 0, "input_sequence");
    if (st) return st;
    const struct ir_value *s = op_in(c, 0);
    const struct ir_attr *aa = op_attr(c, "axis");
    if (!aa || aa->type != AT_INT) return op_err(c, "axis", "is missing");
    int newax = op_attr_int(c, "new_axis", 0) != 0;
    if (s->rank < 0) return op_set(c, 0, s->dtype, -1, NULL);
    int r = s->rank + newax, axis;
    if (r > NNPERF_MAX_RANK) return op_set(c, 0, s->dtype, -1, NULL);
    if (!ir_norm_axis(aa->i, r, &axis))
        return op_err(c, "axis", "value %lld is out of range for rank %d", (long long)aa->i, r);
    struct ir_dim d[NNPERF_MAX_RANK];
    for (int k = 0, j = 0; k < r; k++) d[k] = (newax && k == axis) ? IR_DIM_UNKNOWN : s->dims[j++];
    d[axis].val = -2;
    d[axis].sym = NULL;
    return op_data_dependent(c, 0, s->dtype, r, d, "concat");
}

/* ONNX Optional-15: an optional holding the input, or an empty one of attribute 'type'. An optional sequence is
 * kept as a sequence (the loader's convention). */
enum nnperf_status infer_optional(struct op_ctx *c)
{
    const struct ir_value *x = op_in(c, 0);
    if (!x) {
        const struct ir_attr *ta = op_attr(c, "type");
        if (!ta) return op_err(c, "type", "is required when there is no input");
        enum nnperf_status st = op_set(c, 0, ta->tp_dtype, -1, NULL);
        op_set_kind(c, 0, TK_OPTIONAL);
        return st;
    }
    enum nnperf_status st = op_set_like(c, 0, x, x->dtype);
    op_set_kind(c, 0, x->type_kind == TK_SEQUENCE ? TK_SEQUENCE : TK_OPTIONAL);
    return st;
}

/* ONNX OptionalGetElement-15/18: the element of the optional (from 18 a tensor or sequence passes through). */
enum nnperf_status infer_optional_get_element(struct op_ctx *c)
{
    const struct ir_value *x = op_in(c, 0);
    if (!x) return op_err(c, NULL, "input 'input' is missing");
    enum nnperf_status st = op_set_like(c, 0, x, x->dtype);
    op_set_kind(c, 0, x->type_kind == TK_SEQUENCE ? TK_SEQUENCE : TK_TENSOR);
    if (!st && x->type_kind != TK_SEQUENCE && x->iv) st = op_set_ivals(c, 0, x->iv, x->nv);
    return st;
}

/* ONNX OptionalHasElement-15/18: a bool scalar; false when the (optional, from 18) input is absent. */
enum nnperf_status infer_optional_has_element(struct op_ctx *c)
{
    enum nnperf_status st = op_set(c, 0, DT_BOOL, 0, NULL);
    if (st) return st;
    const struct ir_value *x = op_in(c, 0);
    if (!x) {
        struct ir_ival f = ir_ival_known(0);
        return op_set_ivals(c, 0, &f, 1);
    }
    return NNPERF_OK;
}
