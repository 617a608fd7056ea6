/* generator.c - operators that make tensors: Constant, ConstantOfShape, Range, EyeLike, OneHot, the Random*
 * family, Bernoulli, Multinomial, the signal windows (Hann/Hamming/Blackman) and MelWeightMatrix. Their shapes come
 * from attributes or from the values of small inputs; Constant, ConstantOfShape and Range also propagate their
 * values when small, since exported models build shapes with them. They cost no arithmetic (op_count_zero). */
#include <math.h>
#include <string.h>

#include "../../onnx/onnx.h"
#include "../ops.h"

/* The single value of input i (a scalar or one-element tensor) as an ir_ival; known=0, sym=NULL when unknown.
 * Floating values are accepted when integral (e.g. OneHot's depth). */
static struct ir_ival scalar_ival(struct op_ctx *c, int i)
{
    struct ir_ival r = {0, NULL, 0};
    const struct ir_ival *iv;
    const double *fv;
    const struct ir_value *x = op_in(c, i);
    if (!x) return r;
    if (ir_dtype_is_int(x->dtype) && op_ivals(c, i, &iv) == 1) return iv[0];
    if (ir_dtype_is_float(x->dtype) && op_fvals(c, i, &fv) == 1 && fv[0] == floor(fv[0]) &&
        fabs(fv[0]) < 9.0e15)
        return ir_ival_known((int64_t)fv[0]);
    return r;
}

/* A named data-dependent dim "<node>_<what><k>" (each unknown element of a shape gets its own symbol). */
static struct ir_dim dd_sym(struct op_ctx *c, const char *what, int k)
{
    struct ir_dim d = {-1, ar_printf(c->ar, "%s_%s%d", c->n->name[0] ? c->n->name : c->n->op_type, what, k)};
    return d;
}

/* Input i must be a scalar (or, with one_ok, a one-element 1-D tensor) when its shape is known. */
static enum nnperf_status check_scalar(struct op_ctx *c, int i, const char *what, int one_ok)
{
    const struct ir_value *x = op_in(c, i);
    if (!x || x->rank < 0 || x->rank == 0) return NNPERF_OK;
    if (one_ok && x->rank == 1 && (x->dims[0].val == 1 || x->dims[0].val < 0)) return NNPERF_OK;
    return op_err(c, NULL, "input '%s' must be a scalar, has rank %d", what, x->rank);
}

/* Output 0 gets the type and, when small, the values of tensor t (a Constant's value). */
static enum nnperf_status set_from_tensor(struct op_ctx *c, struct ir_value *t)
{
    enum nnperf_status st = op_set(c, 0, t->dtype, t->rank, t->dims);
    if (st) return st;
    if (ir_value_enc(t) != DE_NONE && !t->iv && !t->fv) {
        st = ox_decode_values(c->m, c->ar, t, c->d);
        if (st) return st;
    }
    if (t->iv) return op_set_ivals(c, 0, t->iv, t->nv);
    if (t->fv) return op_set_fvals(c, 0, t->fv, t->nv);
    return NNPERF_OK;
}

/* ONNX Constant (1, 9, 11 sparse_value, 12 value_float(s)/value_int(s)/value_string(s)): exactly one of the
 * value attributes gives the output. */
enum nnperf_status infer_constant(struct op_ctx *c)
{
    static const char *const names[] = {"value",     "sparse_value", "value_float",  "value_floats",
                                        "value_int", "value_ints",   "value_string", "value_strings"};
    static const int types[] = {AT_TENSOR, AT_SPARSE_TENSOR, AT_FLOAT,  AT_FLOATS,
                                AT_INT,    AT_INTS,          AT_STRING, AT_STRINGS};
    /* one pass over the node's attributes (a Constant has one): the first of each value name, as op_attr finds it */
    const struct ir_attr *found[8] = {NULL}, *a = NULL;
    int which = -1, count = 0;
    for (int i = 0; i < c->n->n_attr; i++)
        for (int k = 0; k < 8; k++)
            if (!found[k] && !strcmp(c->n->attrs[i].name, names[k])) {
                found[k] = &c->n->attrs[i], count++;
                if (k > which) a = found[k], which = k;
                break;
            }
    if (count != 1)
        return op_err(c, NULL, "has %d value attributes, expected exactly one (value, sparse_value, value_*)",
                      count);
    if (!op_attr_typed(c, names[which], types[which])) return c->d->status;
    struct ir_dim one = ir_dim_known(a->n);
    enum nnperf_status st;
    switch (which) {
    case 0:
    case 1:
        if (!a->t) return op_err(c, names[which], "has no tensor");
        if (which == 1) return op_set(c, 0, a->t->dtype, a->t->rank, a->t->dims); /* sparse: shape only */
        return set_from_tensor(c, a->t);
    case 2: st = op_set(c, 0, DT_FLOAT, 0, NULL); return st ? st : op_set_fvals(c, 0, &a->f, 1);
    case 3: st = op_set(c, 0, DT_FLOAT, 1, &one); return st ? st : op_set_fvals(c, 0, a->floats, a->n);
    case 4: {
        struct ir_ival v = ir_ival_known(a->i);
        st = op_set(c, 0, DT_INT64, 0, NULL);
        return st ? st : op_set_ivals(c, 0, &v, 1);
    }
    case 5: {
        st = op_set(c, 0, DT_INT64, 1, &one);
        if (st || a->n > NNPERF_MAX_CONST_ELEMS) return st;
        struct ir_ival *v = ar_calloc(c->ar, (size_t)(a->n ? a->n : 1), sizeof *v);
        if (!v) return op_nomem(c);
        for (int64_t k = 0; k < a->n; k++) v[k] = ir_ival_known(a->ints[k]);
        return op_set_ivals(c, 0, v, a->n);
    }
    case 6: return op_set(c, 0, DT_STRING, 0, NULL);
    default: return op_set(c, 0, DT_STRING, 1, &one);
    }
}

/* ONNX ConstantOfShape-9: the 1-D int64 input gives the output shape; the one-element tensor attribute 'value'
 * (default float32 0) its dtype and fill value. */
enum nnperf_status infer_constant_of_shape(struct op_ctx *c)
{
    const struct ir_value *s = op_in(c, 0);
    const struct ir_attr *va = op_attr_typed(c, "value", AT_TENSOR);
    int dtype = DT_FLOAT;
    struct ir_value *t = va && va->t ? va->t : NULL;
    if (t) {
        int64_t n;
        if (ir_numel(t, &n) && n != 1)
            return op_err(c, "value", "has %lld elements, expected one", (long long)n);
        dtype = t->dtype;
    }
    if (!s) return op_err(c, NULL, "has no shape input");
    if (s->rank > 1) return op_err(c, NULL, "input 'input' must be 1-D, has rank %d", s->rank);
    enum nnperf_status st = op_check_input_dtype(c, 0, "input", DT_INT64);
    if (st) return st;
    const struct ir_ival *iv;
    int64_t n = op_ivals(c, 0, &iv);
    if (n < 0) {
        if (s->rank == 1 && s->dims[0].val >= 0 && s->dims[0].val <= NNPERF_MAX_RANK) {
            struct ir_dim d[NNPERF_MAX_RANK];
            for (int k = 0; k < s->dims[0].val; k++) d[k] = dd_sym(c, "shape", k);
            for (int k = 0; k < s->dims[0].val; k++)
                if (!d[k].sym) return op_nomem(c);
            return op_data_dependent(c, 0, dtype, (int)s->dims[0].val, d, "shape");
        }
        return op_set(c, 0, dtype, -1, NULL);
    }
    if (n > NNPERF_MAX_RANK)
        return op_err(c, NULL, "input 'input' has %lld values, over the rank limit", (long long)n);
    struct ir_dim d[NNPERF_MAX_RANK];
    int dd = 0;
    for (int64_t k = 0; k < n; k++) {
        if (iv[k].known && iv[k].v < 0)
            return op_err(c, NULL, "shape value %lld is negative", (long long)iv[k].v);
        d[k] = ir_dim_from_ival(iv[k]);
        if (!iv[k].known && !iv[k].sym) {
            d[k] = dd_sym(c, "shape", (int)k);
            if (!d[k].sym) return op_nomem(c);
            dd = 1;
        }
    }
    st = dd ? op_data_dependent(c, 0, dtype, (int)n, d, "shape") : op_set(c, 0, dtype, (int)n, d);
    if (st) return st;
    int64_t total;
    struct ir_value *o = op_out(c, 0);
    if (!o || !ir_numel(o, &total) || total > NNPERF_MAX_CONST_ELEMS) return NNPERF_OK;
    if (t && ir_value_enc(t) != DE_NONE && !t->iv && !t->fv && (st = ox_decode_values(c->m, c->ar, t, c->d)))
        return st;
    if (ir_dtype_is_int(dtype)) {
        if (t && !t->iv) return NNPERF_OK;
        struct ir_ival fill = ir_ival_known(t && t->nv == 1 ? t->iv[0].v : 0);
        struct ir_ival *v = ar_calloc(c->ar, (size_t)(total ? total : 1), sizeof *v);
        if (!v) return op_nomem(c);
        for (int64_t k = 0; k < total; k++) v[k] = fill;
        return op_set_ivals(c, 0, v, total);
    }
    if (dtype == DT_STRING || (t && !t->fv)) return NNPERF_OK;
    double fill = t && t->nv == 1 ? t->fv[0] : 0.0;
    double *v = ar_calloc(c->ar, (size_t)(total ? total : 1), sizeof *v);
    if (!v) return op_nomem(c);
    for (int64_t k = 0; k < total; k++) v[k] = fill;
    return op_set_fvals(c, 0, v, total);
}

/* ONNX Range-11: a 1-D tensor of max(ceil((limit - start) / delta), 0) elements of start's dtype. */
enum nnperf_status infer_range(struct op_ctx *c)
{
    const struct ir_value *s = op_in(c, 0), *l = op_in(c, 1), *dl = op_in(c, 2);
    if (!s || !l || !dl) return op_err(c, NULL, "needs the inputs start, limit and delta");
    enum nnperf_status st;
    if ((st = check_scalar(c, 0, "start", 0)) || (st = check_scalar(c, 1, "limit", 0)) ||
        (st = check_scalar(c, 2, "delta", 0)))
        return st;
    int dtype = s->dtype;
    struct ir_dim d;
    if (ir_dtype_is_int(dtype)) {
        struct ir_ival a = scalar_ival(c, 0), b = scalar_ival(c, 1), e = scalar_ival(c, 2);
        if (e.known && e.v == 0) return op_err(c, NULL, "input 'delta' is zero");
        if (a.known && b.known && e.known) {
            int64_t diff, n;
            if (a.v == INT64_MIN || !ck_add_i64(b.v, -a.v, &diff))
                return op_err(c, NULL, "range is too large");
            /* ceil division with the sign of delta */
            n = diff / e.v;
            if (n * e.v != diff && ((diff > 0) == (e.v > 0))) n++;
            if (n < 0) n = 0;
            d = ir_dim_known(n);
            if ((st = op_set(c, 0, dtype, 1, &d))) return st;
            if (n > NNPERF_MAX_CONST_ELEMS) return NNPERF_OK;
            struct ir_ival *v = ar_calloc(c->ar, (size_t)(n ? n : 1), sizeof *v);
            if (!v) return op_nomem(c);
            for (int64_t k = 0; k < n; k++) v[k] = ir_ival_known(a.v + k * e.v);
            return op_set_ivals(c, 0, v, n);
        }
        if (e.known && e.v == 1 && (a.known || a.sym) && !b.known && b.sym && (!a.known || a.v >= 0)) {
            /* Range(start, seq, 1): seq - start elements (the usual position-id pattern), assuming limit >= start */
            d = ir_dim_sub(c->ar, ir_dim_from_ival(b), ir_dim_from_ival(a));
            if (d.val >= 0 || d.sym) return op_set(c, 0, dtype, 1, &d);
        }
    } else {
        const double *a, *b, *e;
        if (op_fvals(c, 0, &a) == 1 && op_fvals(c, 1, &b) == 1 && op_fvals(c, 2, &e) == 1) {
            if (e[0] == 0.0) return op_err(c, NULL, "input 'delta' is zero");
            if (!isfinite(a[0]) || !isfinite(b[0]) || !isfinite(e[0])) /* Range(0, inf, nan): no length */
                return op_err(c, NULL, "start %g, limit %g and delta %g must be finite", a[0], b[0], e[0]);
            double n = ceil((b[0] - a[0]) / e[0]);
            if (!(n >= 0)) n = 0;
            if (n > 9.0e15) return op_err(c, NULL, "range is too large");
            d = ir_dim_known((int64_t)n);
            if ((st = op_set(c, 0, dtype, 1, &d))) return st;
            if (d.val > NNPERF_MAX_CONST_ELEMS) return NNPERF_OK;
            double *v = ar_calloc(c->ar, (size_t)(d.val ? d.val : 1), sizeof *v);
            if (!v) return op_nomem(c);
            for (int64_t k = 0; k < d.val; k++) v[k] = a[0] + (double)k * e[0];
            return op_set_fvals(c, 0, v, d.val);
        }
    }
    d.val = -2;
    d.sym = NULL;
    return op_data_dependent(c, 0, dtype, 1, &d, "range");
}

/* ONNX EyeLike-9: a 2-D tensor shaped like the input; 'dtype' (default: the input's). */
enum nnperf_status infer_eye_like(struct op_ctx *c)
{
    const struct ir_value *x = op_in(c, 0);
    if (!x) return op_err(c, NULL, "has no input");
    if (x->rank >= 0 && x->rank != 2) return op_err(c, NULL, "input must be 2-D, has rank %d", x->rank);
    int dtype = (int)op_attr_int(c, "dtype", x->dtype);
    if (dtype <= 0 || dtype >= DT_COUNT) return op_err(c, "dtype", "is not a valid data type (%d)", dtype);
    return op_set(c, 0, dtype, 2, x->rank == 2 ? x->dims : NULL);
}

/* ONNX OneHot-9/11: indices' shape with a new axis of size 'depth' inserted at 'axis' (default -1, range
 * [-r-1, r]); the dtype of 'values'. */
enum nnperf_status infer_one_hot(struct op_ctx *c)
{
    const struct ir_value *x = op_in(c, 0), *vals = op_in(c, 2);
    if (!x || !op_in(c, 1) || !vals) return op_err(c, NULL, "needs the inputs indices, depth and values");
    enum nnperf_status st = check_scalar(c, 1, "depth", 1);
    if (st) return st;
    int64_t nv;
    if (vals->rank >= 0 && (vals->rank != 1 || (ir_numel(vals, &nv) && nv != 2)))
        return op_err(c, NULL, "input 'values' must have two elements");
    int dtype = vals->dtype;
    if (x->rank < 0) return op_set(c, 0, dtype, -1, NULL);
    int r = x->rank + 1, axis;
    int64_t a = op_attr_int(c, "axis", -1);
    if (!ir_norm_axis(a, r, &axis))
        return op_err(c, "axis", "value %lld is out of range for rank %d", (long long)a, r);
    struct ir_ival depth = scalar_ival(c, 1);
    if (depth.known && depth.v < 1)
        return op_err(c, NULL, "input 'depth' must be positive, is %lld", (long long)depth.v);
    struct ir_dim d[NNPERF_MAX_RANK + 1];
    for (int k = 0, j = 0; k < r; k++) d[k] = k == axis ? ir_dim_from_ival(depth) : x->dims[j++];
    if (!depth.known && !depth.sym) {
        d[axis].val = -2;
        return op_data_dependent(c, 0, dtype, r, d, "depth");
    }
    return op_set(c, 0, dtype, r, d);
}

/* 'dtype' attribute, or def when absent; 0 when invalid. */
static int dtype_attr(struct op_ctx *c, const char *name, int def)
{
    int64_t dt = op_attr_int(c, name, def);
    return dt > 0 && dt < DT_COUNT ? (int)dt : 0;
}

/* ONNX RandomNormal/RandomUniform-1: shape from the 'shape' attribute, 'dtype' default float. */
static enum nnperf_status random_from_attr(struct op_ctx *c)
{
    const int64_t *s;
    const struct ir_attr *sa = op_attr_typed(c, "shape", AT_INTS);
    if (!sa || sa->type != AT_INTS) return op_err(c, "shape", "is missing");
    int64_t n = op_attr_ints(c, "shape", &s);
    if (n > NNPERF_MAX_RANK) return op_err(c, "shape", "has %lld values, over the rank limit", (long long)n);
    struct ir_dim d[NNPERF_MAX_RANK];
    for (int64_t k = 0; k < n; k++) {
        if (s[k] < 0) return op_err(c, "shape", "has a negative value (%lld)", (long long)s[k]);
        d[k] = ir_dim_known(s[k]);
    }
    int dt = dtype_attr(c, "dtype", DT_FLOAT);
    if (!dt) return op_err(c, "dtype", "is not a valid data type");
    return op_set(c, 0, dt, (int)n, d);
}

/* RandomNormalLike/RandomUniformLike-1, Bernoulli-15: the input's shape; 'dtype' default the input's. */
static enum nnperf_status random_like(struct op_ctx *c)
{
    const struct ir_value *x = op_in(c, 0);
    if (!x) return op_err(c, NULL, "has no input");
    int dt = dtype_attr(c, "dtype", x->dtype ? x->dtype : DT_FLOAT);
    if (!dt) return op_err(c, "dtype", "is not a valid data type");
    return op_set_like(c, 0, x, dt);
}

enum nnperf_status infer_random_normal(struct op_ctx *c)
{
    return random_from_attr(c);
}

enum nnperf_status infer_random_uniform(struct op_ctx *c)
{
    return random_from_attr(c);
}

enum nnperf_status infer_random_normal_like(struct op_ctx *c)
{
    return random_like(c);
}

enum nnperf_status infer_random_uniform_like(struct op_ctx *c)
{
    return random_like(c);
}

enum nnperf_status infer_bernoulli(struct op_ctx *c)
{
    return random_like(c);
}

/* ONNX Multinomial-7: input [batch_size, class_size] -> [batch_size, sample_size], 'dtype' default int32. */
enum nnperf_status infer_multinomial(struct op_ctx *c)
{
    const struct ir_value *x = op_in(c, 0);
    if (!x) return op_err(c, NULL, "has no input");
    if (x->rank >= 0 && x->rank != 2) return op_err(c, NULL, "input must be 2-D, has rank %d", x->rank);
    int64_t ss = op_attr_int(c, "sample_size", 1);
    if (ss < 1) return op_err(c, "sample_size", "must be positive, is %lld", (long long)ss);
    int dt = dtype_attr(c, "dtype", DT_INT32);
    if (dt != DT_INT32 && dt != DT_INT64) return op_err(c, "dtype", "must be int32 or int64");
    struct ir_dim d[2] = {x->rank == 2 ? x->dims[0] : IR_DIM_UNKNOWN, ir_dim_known(ss)};
    return op_set(c, 0, dt, 2, d);
}

/* ONNX HannWindow/HammingWindow/BlackmanWindow-17: a 1-D window of 'size' (scalar input) elements of
 * output_datatype (default float). */
enum nnperf_status infer_window(struct op_ctx *c)
{
    enum nnperf_status st = check_scalar(c, 0, "size", 0);
    if (st) return st;
    int dt = dtype_attr(c, "output_datatype", DT_FLOAT);
    if (!dt) return op_err(c, "output_datatype", "is not a valid data type");
    struct ir_ival n = scalar_ival(c, 0);
    if (n.known && n.v < 0) return op_err(c, NULL, "input 'size' is negative (%lld)", (long long)n.v);
    struct ir_dim d = ir_dim_from_ival(n);
    if (!n.known && !n.sym) {
        d.val = -2;
        return op_data_dependent(c, 0, dt, 1, &d, "size");
    }
    return op_set(c, 0, dt, 1, &d);
}

/* ONNX MelWeightMatrix-17: [floor(dft_length / 2) + 1, num_mel_bins] of output_datatype (default float). */
enum nnperf_status infer_mel_weight_matrix(struct op_ctx *c)
{
    enum nnperf_status st;
    if ((st = check_scalar(c, 0, "num_mel_bins", 0)) || (st = check_scalar(c, 1, "dft_length", 0))) return st;
    int dt = dtype_attr(c, "output_datatype", DT_FLOAT);
    if (!dt) return op_err(c, "output_datatype", "is not a valid data type");
    struct ir_ival bins = scalar_ival(c, 0), len = scalar_ival(c, 1);
    if (bins.known && bins.v < 0) return op_err(c, NULL, "input 'num_mel_bins' is negative");
    if (len.known && len.v < 0) return op_err(c, NULL, "input 'dft_length' is negative");
    struct ir_dim d[2];
    d[0] = len.known ? ir_dim_known(len.v / 2 + 1) : dd_sym(c, "dft_bins", 0);
    d[1] = bins.known || bins.sym ? ir_dim_from_ival(bins) : dd_sym(c, "mel_bins", 0);
    if (!d[0].sym && d[0].val < 0) return op_nomem(c);
    if (!d[1].sym && d[1].val < 0) return op_nomem(c);
    if (!len.known || (!bins.known && !bins.sym)) return op_data_dependent(c, 0, dt, 2, d, "mel");
    return op_set(c, 0, dt, 2, d);
}
