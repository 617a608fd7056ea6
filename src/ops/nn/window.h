/* window.h - the sliding-window attributes shared by the convolution and pooling operators of this folder
 * (kernel_shape, strides, dilations, pads, auto_pad, ceil_mode): reading and checking them, and the output
 * size of one spatial axis. Private to src/ops/nn/ (static inline so each including file stays self-contained). */
#ifndef NNPERF_OPS_NN_WINDOW_H
#define NNPERF_OPS_NN_WINDOW_H

#include <string.h>

#include "../ops.h"

enum nn_autopad { NN_PAD_NOTSET, NN_PAD_VALID, NN_PAD_SAME_UPPER, NN_PAD_SAME_LOWER };

struct nn_win {
    int s;                             /* number of spatial axes */
    int64_t k[NNPERF_MAX_RANK];        /* kernel size per axis; -1 when unknown */
    int64_t st[NNPERF_MAX_RANK];       /* strides */
    int64_t dil[NNPERF_MAX_RANK];      /* dilations */
    int64_t pads[2 * NNPERF_MAX_RANK]; /* x1_begin, x2_begin, ..., x1_end, x2_end, ... (ONNX order) */
    int auto_pad;                      /* enum nn_autopad */
    int ceil_mode;
};

/* Reads an ints attribute of s values (or 2s for pads) into v, defaulting to def; errors on a wrong count or
 * a value below min. */
static inline enum nnperf_status nn_win_ints(struct op_ctx *c, const char *name, int want, int64_t def,
                                             int64_t min, int64_t *v)
{
    const int64_t *a;
    int64_t n = op_attr_ints(c, name, &a);
    if (n == 0) {
        for (int i = 0; i < want; i++) v[i] = def;
        return NNPERF_OK;
    }
    if (n != want) return op_err(c, name, "has %lld values, expected %d", (long long)n, want);
    for (int i = 0; i < want; i++) {
        if (a[i] < min)
            return op_err(c, name, "has value %lld, expected at least %lld", (long long)a[i], (long long)min);
        v[i] = a[i];
    }
    return NNPERF_OK;
}

/* Reads auto_pad/strides/dilations/pads/ceil_mode for s spatial axes. The kernel sizes (w->k) are left to the
 * caller. */
static inline enum nnperf_status nn_win_read(struct op_ctx *c, int s, struct nn_win *w)
{
    enum nnperf_status st;
    if (s < 0 || s > NNPERF_MAX_RANK)
        return op_err(c, NULL, "has %d spatial axes, over the limit of %d", s, NNPERF_MAX_RANK);
    w->s = s;
    for (int i = 0; i < s; i++) w->k[i] = -1;
    const char *ap = op_attr_str(c, "auto_pad", "NOTSET");
    if (!strcmp(ap, "NOTSET") || !ap[0])
        w->auto_pad = NN_PAD_NOTSET;
    else if (!strcmp(ap, "VALID"))
        w->auto_pad = NN_PAD_VALID;
    else if (!strcmp(ap, "SAME_UPPER"))
        w->auto_pad = NN_PAD_SAME_UPPER;
    else if (!strcmp(ap, "SAME_LOWER"))
        w->auto_pad = NN_PAD_SAME_LOWER;
    else
        return op_err(c, "auto_pad", "has unknown value '%s'", ap);
    if ((st = nn_win_ints(c, "strides", s, 1, 1, w->st))) return st;
    if ((st = nn_win_ints(c, "dilations", s, 1, 1, w->dil))) return st;
    if ((st = nn_win_ints(c, "pads", 2 * s, 0, 0, w->pads))) return st;
    if (w->auto_pad != NN_PAD_NOTSET)
        for (int i = 0; i < 2 * s; i++) w->pads[i] = 0; /* ONNX: pads are ignored unless auto_pad is NOTSET */
    w->ceil_mode = op_attr_int(c, "ceil_mode", 0) != 0;
    return NNPERF_OK;
}

/* in + delta with delta of either sign, symbolic when in is. */
static inline struct ir_dim nn_dim_offset(struct arena *ar, struct ir_dim in, int64_t delta)
{
    if (delta >= 0) return ir_dim_add(ar, in, ir_dim_known(delta));
    return ir_dim_sub(ar, in, ir_dim_known(-delta));
}

/* Output size of spatial axis i for an input size `in`. Sets *bad when the window does not fit the (padded)
 * input, a contradiction the caller reports.
 * ONNX Conv-11 / MaxPool-12: auto_pad SAME_*: out = ceil(in / stride);
 * otherwise out = floor((in + pads - dil*(k-1) - 1) / stride + 1), ceil instead of floor with ceil_mode, where
 * the last window must start inside the input or its left padding (ONNX reference / PyTorch). */
static inline struct ir_dim nn_win_out(struct op_ctx *c, const struct nn_win *w, int i, struct ir_dim in,
                                       int *bad)
{
    int64_t s = w->st[i];
    *bad = 0;
    if (w->auto_pad == NN_PAD_SAME_UPPER || w->auto_pad == NN_PAD_SAME_LOWER) {
        if (s == 1) return in;
        if (in.val >= 0) return ir_dim_known(in.val / s + (in.val % s != 0));
        return ir_dim_div(c->ar, ir_dim_add(c->ar, in, ir_dim_known(s - 1)), ir_dim_known(s));
    }
    int64_t k = w->k[i];
    if (k < 0) return IR_DIM_UNKNOWN;
    int64_t pb = w->pads[i], pt, eff;
    if (!ck_add_i64(w->pads[i], w->pads[i + w->s], &pt) || !ck_mul_i64(w->dil[i], k - 1, &eff) ||
        !ck_add_i64(eff, 1, &eff))
        return IR_DIM_UNKNOWN;
    if (in.val >= 0) {
        int64_t out = ir_window_out(in.val, k, s, w->dil[i], pb, w->pads[i + w->s], w->ceil_mode);
        if (out < 0) {
            *bad = 1;
            return IR_DIM_UNKNOWN;
        }
        return ir_dim_known(out);
    }
    if (!in.sym) return IR_DIM_UNKNOWN;
    if (s == 1) return nn_dim_offset(c->ar, in, pt - eff + 1);
    if (w->ceil_mode) return IR_DIM_UNKNOWN;
    struct ir_dim num = nn_dim_offset(c->ar, in, pt - eff);
    return ir_dim_add(c->ar, ir_dim_div(c->ar, num, ir_dim_known(s)), ir_dim_known(1));
}

/* Product of the known kernel sizes; 0 when one is unknown or on overflow. */
static inline int64_t nn_kernel_prod(const struct nn_win *w)
{
    int64_t p = 1;
    for (int i = 0; i < w->s; i++)
        if (w->k[i] < 0 || !ck_mul_i64(p, w->k[i], &p)) return 0;
    return p;
}

#endif
