/* dft.c - signal operators of ai.onnx: DFT (axis attribute in opset 17, axis input from opset 20; dft_length and
 * onesided change the transformed axis) and STFT (frames of a signal); their output shapes and FLOP counts.
 *
 * Cost: a radix-2 FFT of length N takes 5 N log2(N) real FLOPs (the convention of FFTW's benchFFT "mflops"), and
 * is counted once per transform (DFT: every position of the other axes; STFT: batch x frames, plus one multiply
 * per windowed sample). No MACs are reported: an FFT is not a dense matrix product. */
#include <math.h>

#include "../ops.h"

/* value of a scalar (or 1-element) integer input: 1 known, 0 absent, -1 present but unknown */
static int scalar_in(struct op_ctx *c, int i, int64_t *v)
{
    if (!op_in(c, i)) return 0;
    int64_t buf[1];
    if (op_ivals_concrete(c, i, buf, 1) != 1) return -1;
    *v = buf[0];
    return 1;
}

static uint64_t fft_flops(int64_t n)
{
    if (n <= 1) return 0;
    double f = 5.0 * (double)n * log2((double)n);
    return f >= 1.8e19 ? UINT64_MAX : (uint64_t)(f + 0.5);
}

/* DFT axis: attribute (opset 17, default 1) or input 2 (opset 20, default -2); valid in [-r, -2] U [0, r-2].
 * Returns 1 with *ax normalised, 0 when the axis is unknown, -1 on an error (already recorded). */
static int dft_axis(struct op_ctx *c, int rank, int *ax)
{
    int64_t axis = 1;
    if (c->n->opset >= 20) {
        axis = -2;
        int k = scalar_in(c, 2, &axis);
        if (k < 0) return 0;
    } else
        axis = op_attr_int(c, "axis", 1);
    if (rank < 0) return 0;
    if (axis < -(int64_t)rank || axis > (int64_t)rank - 2 || axis == -1) {
        op_err(c, "axis",
               "is %lld, out of range for an input of rank %d (the last axis holds real/imaginary)",
               (long long)axis, rank);
        return -1;
    }
    *ax = (int)(axis < 0 ? axis + rank : axis);
    return 1;
}

/* DFT-17/20: output = input with the last dim 2 and the axis dim = dft_length (or kept), onesided: n/2 + 1 */
enum nnperf_status infer_dft(struct op_ctx *c)
{
    struct ir_value *x = op_in(c, 0);
    if (!x) return op_err(c, NULL, "needs an input");
    if (x->rank < 0) return op_set(c, 0, x->dtype, -1, NULL);
    if (x->rank < 2) return op_err(c, NULL, "input has rank %d, expected at least 2", x->rank);
    struct ir_dim last = x->dims[x->rank - 1];
    if (last.val >= 0 && last.val != 1 && last.val != 2)
        return op_err(c, NULL, "input's last dim is %lld, expected 1 (real) or 2 (complex)",
                      (long long)last.val);
    int64_t onesided = op_attr_int(c, "onesided", 0);
    struct ir_dim d[NNPERF_MAX_RANK];
    for (int k = 0; k < x->rank; k++) d[k] = x->dims[k];
    d[x->rank - 1] = ir_dim_known(2);
    int ax;
    int ka = dft_axis(c, x->rank, &ax);
    if (ka < 0) return NNPERF_E_INVALID;
    if (!ka) {
        /* the transformed axis is not known: every signal dim may change */
        for (int k = 0; k < x->rank - 1; k++) d[k].val = -2;
        return op_data_dependent(c, 0, x->dtype, x->rank, d, "dft_axis");
    }
    int64_t len;
    int kl = scalar_in(c, 1, &len);
    if (kl > 0 && len <= 0)
        return op_err(c, NULL, "input 'dft_length' is %lld, must be positive", (long long)len);
    if (kl < 0) {
        d[ax].val = -2;
        d[ax].sym = NULL;
        return op_data_dependent(c, 0, x->dtype, x->rank, d, "dft_length");
    }
    struct ir_dim n = kl > 0 ? ir_dim_known(len) : x->dims[ax];
    /* ONNX DFT: onesided keeps floor(n/2) + 1 bins */
    if (onesided) n = ir_dim_add(c->ar, ir_dim_div(c->ar, n, ir_dim_known(2)), ir_dim_known(1));
    d[ax] = n;
    return op_set(c, 0, x->dtype, x->rank, d);
}

/* STFT-17: signal [batch, length, 1|2], frame_step, window [frame_length], frame_length
 *   -> [batch, (length - frame_length) / frame_step + 1, onesided ? frame_length/2 + 1 : frame_length, 2] */
enum nnperf_status infer_stft(struct op_ctx *c)
{
    struct ir_value *x = op_in(c, 0), *w = op_in(c, 2);
    if (!x || !op_in(c, 1)) return op_err(c, NULL, "needs inputs signal and frame_step");
    if (x->rank >= 0 && x->rank != 3)
        return op_err(c, NULL, "signal has rank %d, expected 3 [batch, length, 1 or 2]", x->rank);
    if (w && w->rank >= 0 && w->rank != 1) return op_err(c, NULL, "window has rank %d, expected 1", w->rank);
    int64_t step, flen = -1;
    int ks = scalar_in(c, 1, &step);
    if (ks > 0 && step <= 0)
        return op_err(c, NULL, "input 'frame_step' is %lld, must be positive", (long long)step);
    int kf = scalar_in(c, 3, &flen);
    if (kf > 0 && flen <= 0)
        return op_err(c, NULL, "input 'frame_length' is %lld, must be positive", (long long)flen);
    if (w && w->rank == 1 && w->dims[0].val >= 0) {
        if (kf > 0 && w->dims[0].val != flen)
            return op_err(c, NULL, "window has %lld values, frame_length is %lld", (long long)w->dims[0].val,
                          (long long)flen);
        if (kf <= 0) {
            flen = w->dims[0].val;
            kf = 1;
        }
    }
    struct ir_dim d[4] = {IR_DIM_UNKNOWN, {-2, NULL}, {-2, NULL}, {2, NULL}};
    struct ir_dim len = IR_DIM_UNKNOWN;
    if (x->rank == 3) {
        d[0] = x->dims[0];
        len = x->dims[1];
    }
    if (kf > 0) {
        /* ONNX STFT: onesided (default 1) keeps floor(frame_length/2) + 1 bins */
        d[2] = ir_dim_known(op_attr_int(c, "onesided", 1) ? flen / 2 + 1 : flen);
        if (ks > 0) {
            if (len.val >= 0 && flen > len.val)
                return op_err(c, NULL, "frame_length %lld is longer than the signal (%lld)", (long long)flen,
                              (long long)len.val);
            /* frames = (length - frame_length) / frame_step + 1 (symbolic when the length is) */
            struct ir_dim f = ir_dim_sub(c->ar, len, ir_dim_known(flen));
            d[1] = ir_dim_add(c->ar, ir_dim_div(c->ar, f, ir_dim_known(step)), ir_dim_known(1));
        }
    }
    if (d[1].val == -2 || d[2].val == -2)
        return op_data_dependent(c, 0, x->dtype, 4, d, d[2].val == -2 ? "frame_length" : "frames");
    return op_set(c, 0, x->dtype, 4, d);
}

void count_dft(struct op_ctx *c, struct ir_cost *cost)
{
    struct ir_value *x = op_in(c, 0), *y = op_out(c, 0);
    cost->macs = 0;
    if (c->n->op == OPID_STFT) {
        /* y: [batch, frames, bins, 2]; the transform length is the frame length */
        int64_t flen = -1;
        struct ir_value *w = op_in(c, 2);
        if (scalar_in(c, 3, &flen) <= 0) flen = (w && w->rank == 1) ? w->dims[0].val : -1;
        if (!y || y->rank != 4 || y->dims[0].val < 0 || y->dims[1].val < 0 || flen < 0) {
            cost->known = 0;
            return;
        }
        uint64_t frames = ck_sat_mul((uint64_t)y->dims[0].val, (uint64_t)y->dims[1].val);
        uint64_t per = ck_sat_add(fft_flops(flen), w ? (uint64_t)flen : 0);
        cost->flops = ck_sat_mul(frames, per);
        return;
    }
    int ax;
    if (!x || !y || x->rank < 2 || dft_axis(c, x->rank, &ax) <= 0) {
        cost->known = 0;
        return;
    }
    int64_t n;
    if (scalar_in(c, 1, &n) <= 0) n = x->dims[ax].val;
    int64_t others = 1;
    for (int k = 0; k < x->rank - 1; k++) {
        if (k == ax) continue;
        if (x->dims[k].val < 0 || !ck_mul_i64(others, x->dims[k].val, &others)) {
            cost->known = 0;
            return;
        }
    }
    if (n < 0) {
        cost->known = 0;
        return;
    }
    cost->flops = ck_sat_mul((uint64_t)others, fft_flops(n));
}
