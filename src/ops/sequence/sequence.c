/* sequence.c - sequence and optional operators: SequenceConstruct/Empty/At/Insert/Erase/Length,
 * SplitToSequence, ConcatFromSequence, Optional, OptionalGetElement, OptionalHasElement. A sequence value carries
 * its merged ELEMENT dtype and dims (dims unknown where elements differ; element rank unknown for an empty
 * sequence) and, when its length and every element are known, the elements one by one (ir_value elems, seq.h):
 * then positions, lengths, splits and concatenations are exact. (SequenceMap, which has a subgraph, is in
 * controlflow/control.c.) */
#include <string.h>

#include "seq.h"

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

/* ---- element lists (seq.h) ---- */

int seq_known(const struct ir_value *v)
{
    return v && v->type_kind == TK_SEQUENCE && ir_elems(v) && ir_n_elems(v) >= 0;
}

struct ir_value *seq_elem(struct op_ctx *c, int dtype, int rank, const struct ir_dim *dims)
{
    struct ir_value *e = ar_calloc(c->ar, 1, sizeof *e);
    if (!e) return NULL;
    e->type_kind = TK_TENSOR;
    e->dtype = dtype;
    e->rank = rank > NNPERF_MAX_RANK ? -1 : rank;
    if (e->rank > 0) {
        e->dims = ar_calloc(c->ar, (size_t)e->rank, sizeof *e->dims);
        if (!e->dims) return NULL;
        for (int k = 0; k < e->rank; k++) e->dims[k] = dims ? dims[k] : IR_DIM_UNKNOWN;
    }
    return e;
}

/* A copy of v's type as a new element. */
static struct ir_value *elem_copy(struct op_ctx *c, const struct ir_value *v)
{
    return seq_elem(c, v->dtype, v->rank, v->dims);
}

enum nnperf_status seq_set_list(struct op_ctx *c, int i, int dtype, struct ir_value *const *el, int n)
{
    struct ir_value *o = op_out(c, i);
    if (!o) return NNPERF_OK;
    struct elem e = {dtype, -1, {{0, NULL}}};
    for (int k = 0; k < n; k++) {
        enum nnperf_status st = elem_merge(c, &e, el[k], k == 0);
        if (st) return st;
    }
    if (!e.dtype) e.dtype = dtype;
    enum nnperf_status st = set_seq(c, i, &e);
    if (st || n < 0 || n > SEQ_MAX_ELEMS) return st;
    struct ir_value **l = ar_calloc(c->ar, (size_t)(n ? n : 1), sizeof *l);
    if (!l) return op_nomem(c);
    if (n) memcpy(l, el, (size_t)n * sizeof *l);
    return ir_set_elems(c->ar, o, n, l) ? NNPERF_OK : op_nomem(c);
}

void seq_pass(struct op_ctx *c, int i, const struct ir_value *x)
{
    struct ir_value *o = op_out(c, i);
    if (!o || !x) return;
    o->type_kind = x->type_kind;
    if (seq_known(x) && !ir_set_elems(c->ar, o, ir_n_elems(x), ir_elems(x))) op_nomem(c);
}

int seq_same_list(int na, struct ir_value *const *a, int nb, struct ir_value *const *b)
{
    if (!a || !b || na != nb) return 0;
    for (int k = 0; k < na; k++) {
        if (a[k] == b[k]) continue;
        if (a[k]->dtype != b[k]->dtype || a[k]->rank != b[k]->rank) return 0;
        for (int j = 0; j < a[k]->rank; j++) {
            struct ir_dim x = a[k]->dims[j], y = b[k]->dims[j];
            if (!ir_dim_eq(x, y) && (x.val >= 0 || x.sym || y.val >= 0 || y.sym)) return 0;
        }
    }
    return 1;
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

/* The concrete value of the 'position' input i: 1 and *pos when known, else 0. */
static int position_of(struct op_ctx *c, int i, int64_t *pos)
{
    int64_t v[1];
    if (!op_in(c, i) || op_ivals_concrete(c, i, v, 1) != 1) return 0;
    *pos = v[0];
    return 1;
}

/* A position in [-n, n - 1] (hi = n - 1), or [-n, n] for an insertion (hi = n), made non-negative. */
static enum nnperf_status norm_position(struct op_ctx *c, int64_t *pos, int n, int hi)
{
    if (*pos < -(int64_t)n || *pos > hi)
        return op_err(c, NULL, "position %lld is out of range for a sequence of %d elements", (long long)*pos,
                      n);
    if (*pos < 0) *pos += n;
    return NNPERF_OK;
}

/* ONNX SequenceConstruct-11: a sequence of the inputs (all of one dtype). */
enum nnperf_status infer_sequence_construct(struct op_ctx *c)
{
    struct elem e;
    if (c->n->n_in < 1) return op_err(c, NULL, "has no inputs");
    struct ir_value **el =
        c->n->n_in <= SEQ_MAX_ELEMS ? ar_calloc(c->ar, (size_t)c->n->n_in, sizeof *el) : NULL;
    for (int i = 0; i < c->n->n_in; i++) {
        const struct ir_value *x = op_in(c, i);
        if (!x) return op_err(c, NULL, "input %d is empty", i);
        enum nnperf_status st = elem_merge(c, &e, x, i == 0);
        if (st) return st;
        if (el && !(el[i] = elem_copy(c, x))) return op_nomem(c);
    }
    if (el) return seq_set_list(c, 0, e.dtype, el, c->n->n_in);
    return set_seq(c, 0, &e);
}

/* ONNX SequenceEmpty-11: an empty sequence of 'dtype' (default float). */
enum nnperf_status infer_sequence_empty(struct op_ctx *c)
{
    int64_t dt = op_attr_int(c, "dtype", DT_FLOAT);
    if (dt <= 0 || dt >= DT_COUNT)
        return op_err(c, "dtype", "is not a valid data type (%lld)", (long long)dt);
    return seq_set_list(c, 0, (int)dt, NULL, 0);
}

/* ONNX SequenceAt-11: the element at 'position' (that element's shape when the elements and the position are
 * known; the merged element shape otherwise). */
enum nnperf_status infer_sequence_at(struct op_ctx *c)
{
    enum nnperf_status st = need_seq(c, 0, "input_sequence");
    if (st || (st = check_position(c, 1))) return st;
    if (!op_in(c, 1)) return op_err(c, NULL, "input 'position' is missing");
    const struct ir_value *s = op_in(c, 0);
    int64_t pos;
    if (seq_known(s) && position_of(c, 1, &pos)) {
        if ((st = norm_position(c, &pos, ir_n_elems(s), ir_n_elems(s) - 1))) return st;
        s = ir_elems(s)[pos];
    }
    st = op_set_like(c, 0, s, s->dtype);
    op_set_kind(c, 0, TK_TENSOR);
    return st;
}

/* ONNX SequenceInsert-11: the sequence with one more tensor (of the same dtype) at 'position' (default: at the
 * end). Into a sequence whose elements are not known, only the merged element shape is kept. */
enum nnperf_status infer_sequence_insert(struct op_ctx *c)
{
    enum nnperf_status st = need_seq(c, 0, "input_sequence");
    if (st || (st = check_position(c, 2))) return st;
    const struct ir_value *s = op_in(c, 0), *t = op_in(c, 1);
    if (!t) return op_err(c, NULL, "input 'tensor' is missing");
    if (s->dtype && t->dtype && s->dtype != t->dtype)
        return op_err(c, NULL, "tensor of type %s inserted into a sequence of %s", ir_dtype_name(t->dtype),
                      ir_dtype_name(s->dtype));
    if (seq_known(s) && ir_n_elems(s) < SEQ_MAX_ELEMS) {
        int n = ir_n_elems(s);
        int64_t pos = n;
        int have = !op_in(c, 2) || position_of(c, 2, &pos);
        if (have && (st = norm_position(c, &pos, n, n))) return st;
        if (!have && n == 0) { /* the only valid position */
            have = 1;
            pos = 0;
        }
        if (have) {
            struct ir_value **el = ar_calloc(c->ar, (size_t)n + 1, sizeof *el);
            if (!el) return op_nomem(c);
            for (int k = 0, j = 0; k <= n; k++) el[k] = k == pos ? elem_copy(c, t) : ir_elems(s)[j++];
            if (!el[pos]) return op_nomem(c);
            return seq_set_list(c, 0, s->dtype ? s->dtype : t->dtype, el, n + 1);
        }
    }
    struct elem e;
    if (seq_known(s) && ir_n_elems(s) == 0) {
        elem_of(&e, t);
    } else {
        elem_of(&e, s);
        if ((st = elem_merge(c, &e, t, 0))) return st;
    }
    return set_seq(c, 0, &e);
}

/* ONNX SequenceErase-11: the sequence without the element at 'position' (default: the last). */
enum nnperf_status infer_sequence_erase(struct op_ctx *c)
{
    enum nnperf_status st = need_seq(c, 0, "input_sequence");
    if (st || (st = check_position(c, 1))) return st;
    const struct ir_value *s = op_in(c, 0);
    int64_t pos = -1;
    if (seq_known(s) && (!op_in(c, 1) || position_of(c, 1, &pos))) {
        int n = ir_n_elems(s);
        if (!n) return op_err(c, NULL, "erases from an empty sequence");
        if ((st = norm_position(c, &pos, n, n - 1))) return st;
        struct ir_value **el = ar_calloc(c->ar, (size_t)n, sizeof *el);
        if (!el) return op_nomem(c);
        for (int k = 0, j = 0; k < n; k++)
            if (k != pos) el[j++] = ir_elems(s)[k];
        return seq_set_list(c, 0, s->dtype, el, n - 1);
    }
    struct elem e;
    elem_of(&e, s);
    return set_seq(c, 0, &e);
}

/* ONNX SequenceLength-11: an int64 scalar (its value when the elements are known). */
enum nnperf_status infer_sequence_length(struct op_ctx *c)
{
    enum nnperf_status st = need_seq(c, 0, "input_sequence");
    if (st || (st = op_set(c, 0, DT_INT64, 0, NULL))) return st;
    const struct ir_value *s = op_in(c, 0);
    if (!seq_known(s)) return NNPERF_OK;
    struct ir_ival n = ir_ival_known(ir_n_elems(s));
    return op_set_ivals(c, 0, &n, 1);
}

/* SplitToSequence: output 0 as the pieces of x along axis with the given sizes (keep: keep the axis). */
static enum nnperf_status split_list(struct op_ctx *c, const struct ir_value *x, int axis,
                                     const int64_t *sizes, int64_t n, int keep)
{
    struct ir_value **el = ar_calloc(c->ar, (size_t)(n ? n : 1), sizeof *el);
    if (!el) return op_nomem(c);
    struct ir_dim d[NNPERF_MAX_RANK];
    for (int64_t k = 0; k < n; k++) {
        int r = 0;
        for (int j = 0; j < x->rank; j++) {
            if (j != axis)
                d[r++] = x->dims[j];
            else if (keep)
                d[r++] = ir_dim_known(sizes[k]);
        }
        if (!(el[k] = seq_elem(c, x->dtype, r, d))) return op_nomem(c);
    }
    return seq_set_list(c, 0, x->dtype, el, (int)n);
}

/* ONNX SplitToSequence-11: 'split' absent: pieces of 1 along 'axis' (removed when keepdims=0); a scalar: pieces
 * of that size (the last one smaller when it does not divide); 1-D: the given sizes, which must add up. With a
 * concrete axis and known split, the pieces are listed one by one. */
enum nnperf_status infer_split_to_sequence(struct op_ctx *c)
{
    const struct ir_value *x = op_in(c, 0), *sp = op_in(c, 1);
    if (!x) return op_err(c, NULL, "input 'input' is missing");
    struct elem e;
    elem_of(&e, x);
    if (x->rank < 0 || x->rank > NNPERF_MAX_RANK) return set_seq(c, 0, &e);
    int axis;
    int64_t a = op_attr_int(c, "axis", 0);
    if (!ir_norm_axis(a, x->rank, &axis))
        return op_err(c, "axis", "value %lld is out of range for rank %d", (long long)a, x->rank);
    struct ir_dim len = x->dims[axis];
    int64_t sizes[SEQ_MAX_ELEMS];
    if (!sp) {
        int keep = op_attr_int(c, "keepdims", 1) != 0;
        if (len.val >= 0 && len.val <= SEQ_MAX_ELEMS) {
            for (int64_t k = 0; k < len.val; k++) sizes[k] = 1;
            return split_list(c, x, axis, sizes, len.val, keep);
        }
        if (keep) {
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
            /* equal pieces: one size when it divides the axis; the last one smaller otherwise */
            if (len.val >= 0 && len.val % v[0].v == 0) piece = ir_dim_known(v[0].v);
            if (len.val >= 0 && (len.val + v[0].v - 1) / v[0].v <= SEQ_MAX_ELEMS) {
                int64_t m = 0;
                for (int64_t rest = len.val; rest > 0; rest -= v[0].v)
                    sizes[m++] = rest < v[0].v ? rest : v[0].v;
                return split_list(c, x, axis, sizes, m, 1);
            }
        } else if (all) {
            if (len.val >= 0 && sum != len.val)
                return op_err(c, NULL, "input 'split' adds up to %lld, the axis has %lld", (long long)sum,
                              (long long)len.val);
            int same = 1;
            for (int64_t k = 1; k < n; k++) same &= v[k].v == v[0].v;
            if (n > 0 && same) piece = ir_dim_known(v[0].v);
            if (n <= SEQ_MAX_ELEMS) {
                for (int64_t k = 0; k < n; k++) sizes[k] = v[k].v;
                return split_list(c, x, axis, sizes, n, 1);
            }
        }
    }
    e.dims[axis] = piece;
    return set_seq(c, 0, &e);
}

/* ONNX ConcatFromSequence-11: the elements concatenated along 'axis' (or stacked along a new axis when
 * new_axis=1). That axis is the sum of the elements' (their number when stacking) when the elements are known;
 * otherwise it depends on the data. */
enum nnperf_status infer_concat_from_sequence(struct op_ctx *c)
{
    enum nnperf_status st = need_seq(c, 0, "input_sequence");
    if (st) return st;
    const struct ir_value *s = op_in(c, 0);
    const struct ir_attr *aa = op_attr_typed(c, "axis", AT_INT);
    if (!aa || aa->type != AT_INT) return op_err(c, "axis", "is missing");
    int newax = op_attr_int(c, "new_axis", 0) != 0;
    if (s->rank < 0) return op_set(c, 0, s->dtype, -1, NULL);
    int r = s->rank + newax, axis;
    if (r > NNPERF_MAX_RANK) return op_set(c, 0, s->dtype, -1, NULL);
    if (!ir_norm_axis(aa->i, r, &axis))
        return op_err(c, "axis", "value %lld is out of range for rank %d", (long long)aa->i, r);
    struct ir_dim d[NNPERF_MAX_RANK];
    for (int k = 0, j = 0; k < r; k++) d[k] = (newax && k == axis) ? IR_DIM_UNKNOWN : s->dims[j++];
    int same_rank = seq_known(s) && ir_n_elems(s) > 0;
    for (int k = 0; same_rank && k < ir_n_elems(s); k++) same_rank = ir_elems(s)[k]->rank == s->rank;
    if (same_rank) {
        struct ir_dim sum = ir_dim_known(newax ? ir_n_elems(s) : 0);
        for (int k = 0; k < ir_n_elems(s) && !newax; k++)
            sum = ir_dim_add(c->ar, sum, ir_elems(s)[k]->dims[axis]);
        if (sum.val >= 0 || sum.sym) {
            d[axis] = sum;
            return op_set(c, 0, s->dtype, r, d);
        }
    }
    d[axis].val = -2;
    d[axis].sym = NULL;
    return op_data_dependent(c, 0, s->dtype, r, d, "concat");
}

/* ONNX Optional-15: an optional holding the input, or an empty one of attribute 'type'. An optional sequence is
 * kept as a sequence (the loader's convention), with its elements. */
enum nnperf_status infer_optional(struct op_ctx *c)
{
    const struct ir_value *x = op_in(c, 0);
    if (!x) {
        const struct ir_attr *ta = op_attr_typed(c, "type", AT_TYPE_PROTO);
        if (!ta) return op_err(c, "type", "is required when there is no input");
        enum nnperf_status st = op_set(c, 0, ta->tp_dtype, -1, NULL);
        op_set_kind(c, 0, TK_OPTIONAL);
        return st;
    }
    enum nnperf_status st = op_set_like(c, 0, x, x->dtype);
    op_set_kind(c, 0, x->type_kind == TK_SEQUENCE ? TK_SEQUENCE : TK_OPTIONAL);
    if (x->type_kind == TK_SEQUENCE) seq_pass(c, 0, x);
    return st;
}

/* ONNX OptionalGetElement-15/18: the element of the optional (from 18 a tensor or sequence passes through). */
enum nnperf_status infer_optional_get_element(struct op_ctx *c)
{
    const struct ir_value *x = op_in(c, 0);
    if (!x) return op_err(c, NULL, "input 'input' is missing");
    enum nnperf_status st = op_set_like(c, 0, x, x->dtype);
    op_set_kind(c, 0, x->type_kind == TK_SEQUENCE ? TK_SEQUENCE : TK_TENSOR);
    if (x->type_kind == TK_SEQUENCE) seq_pass(c, 0, x);
    if (!st && x->type_kind != TK_SEQUENCE && x->iv) st = op_set_ivals(c, 0, x->iv, x->nv);
    return st;
}

/* ONNX OptionalHasElement-15/18: a bool scalar; false when the (optional, from 18) input is absent, true for a
 * sequence with known elements (an optional sequence is typed a sequence). */
enum nnperf_status infer_optional_has_element(struct op_ctx *c)
{
    enum nnperf_status st = op_set(c, 0, DT_BOOL, 0, NULL);
    if (st) return st;
    const struct ir_value *x = op_in(c, 0);
    if (!x) {
        struct ir_ival f = ir_ival_known(0);
        return op_set_ivals(c, 0, &f, 1);
    }
    if (seq_known(x) && ir_n_elems(x) > 0) { /* an optional sequence with elements is not empty */
        struct ir_ival t = ir_ival_known(1);
        return op_set_ivals(c, 0, &t, 1);
    }
    return NNPERF_OK;
}
