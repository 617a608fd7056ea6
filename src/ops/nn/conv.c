/* conv.c - convolution operators: Conv, ConvInteger, QLinearConv, ConvTranspose, DeformConv and Col2Im: shape
 * inference from the window attributes (window.h) and MAC counts in the torchvision/fvcore convention
 * (docs/conventions.md: conv MACs = output elements x Cin/group x prod(kernel)). */
#include "window.h"

/* Spatial rank of a conv-like node from X (rank-2), W (rank-2) or the kernel_shape attribute; -1 if unknown. */
static enum nnperf_status conv_spatial(struct op_ctx *c, const struct ir_value *x, const struct ir_value *w,
                                       int *s)
{
    const int64_t *ks;
    int64_t kn = op_attr_ints(c, "kernel_shape", &ks);
    *s = -1;
    if (x && x->rank >= 0) {
        if (x->rank < 3)
            return op_err(c, NULL, "input has rank %d, expected at least 3 (N, C, spatial...)", x->rank);
        *s = x->rank - 2;
    } else if (w && w->rank >= 0) {
        if (w->rank < 3) return op_err(c, NULL, "weight has rank %d, expected at least 3", w->rank);
        *s = w->rank - 2;
    } else if (kn > 0) {
        *s = (int)(kn < NNPERF_MAX_RANK ? kn : NNPERF_MAX_RANK);
    }
    if (*s < 0) return NNPERF_OK;
    if (*s > NNPERF_MAX_RANK - 2) return op_err(c, NULL, "has %d spatial axes, over the limit", *s);
    if (w && w->rank >= 0 && w->rank != *s + 2)
        return op_err(c, NULL, "weight has rank %d, expected %d like the input", w->rank, *s + 2);
    if (kn > 0 && kn != *s)
        return op_err(c, "kernel_shape", "has %lld values, expected %d", (long long)kn, *s);
    return NNPERF_OK;
}

/* Kernel sizes: the kernel_shape attribute, else the weight's trailing dims (unknown stays -1). */
static enum nnperf_status conv_kernel(struct op_ctx *c, const struct ir_value *w, struct nn_win *win)
{
    const int64_t *ks;
    int64_t kn = op_attr_ints(c, "kernel_shape", &ks);
    for (int i = 0; i < win->s; i++) {
        if (kn > 0) {
            if (ks[i] <= 0)
                return op_err(c, "kernel_shape", "has value %lld, expected at least 1", (long long)ks[i]);
            win->k[i] = ks[i];
            if (w && w->rank == win->s + 2 && w->dims[i + 2].val >= 0 && w->dims[i + 2].val != ks[i])
                return op_err(c, "kernel_shape", "value %lld does not match the weight's dim %lld",
                              (long long)ks[i], (long long)w->dims[i + 2].val);
        } else {
            win->k[i] = w && w->rank == win->s + 2 ? w->dims[i + 2].val : -1;
        }
    }
    return NNPERF_OK;
}

/* Output dims shared by Conv, ConvInteger, QLinearConv and DeformConv: X at xi, W at wi, bias at bi (-1 none);
 * *rank = -1 when unknown. */
static enum nnperf_status conv_dims(struct op_ctx *c, int xi, int wi, int bi, int *rank, struct ir_dim *d)
{
    struct ir_value *x = op_in(c, xi), *w = op_in(c, wi), *b = bi >= 0 ? op_in(c, bi) : NULL;
    int s;
    enum nnperf_status st = conv_spatial(c, x, w, &s);
    *rank = -1;
    if (st || s < 0) return st;
    struct nn_win win;
    if ((st = nn_win_read(c, s, &win))) return st;
    if ((st = conv_kernel(c, w, &win))) return st;
    int64_t group = op_attr_int(c, "group", 1);
    if (group <= 0) return op_err(c, "group", "is %lld, expected at least 1", (long long)group);

    d[0] = x && x->rank >= 0 ? x->dims[0] : IR_DIM_UNKNOWN;
    d[1] = w && w->rank >= 0 ? w->dims[0] : IR_DIM_UNKNOWN;
    if (x && x->rank >= 0 && w && w->rank >= 0 && x->dims[1].val >= 0 && w->dims[1].val >= 0) {
        int64_t cin;
        if (!ck_mul_i64(w->dims[1].val, group, &cin) || cin != x->dims[1].val)
            return op_err(c, "group", "input channels %lld do not equal weight channels %lld x group %lld",
                          (long long)x->dims[1].val, (long long)w->dims[1].val, (long long)group);
    }
    if (d[1].val >= 0 && d[1].val % group)
        return op_err(c, "group", "output channels %lld are not divisible by group %lld", (long long)d[1].val,
                      (long long)group);
    if (b && b->rank >= 0) {
        if (b->rank != 1) return op_err(c, NULL, "bias has rank %d, expected 1", b->rank);
        if (b->dims[0].val >= 0 && d[1].val >= 0 && b->dims[0].val != d[1].val)
            return op_err(c, NULL, "bias has %lld values, expected %lld (output channels)",
                          (long long)b->dims[0].val, (long long)d[1].val);
        if (d[1].val < 0 && b->dims[0].val >= 0) d[1] = b->dims[0];
    }
    for (int i = 0; i < s; i++) {
        int bad;
        struct ir_dim in = x && x->rank >= 0 ? x->dims[i + 2] : IR_DIM_UNKNOWN;
        d[i + 2] = nn_win_out(c, &win, i, in, &bad);
        if (bad)
            return op_err(c, NULL,
                          "kernel (%lld, dilation %lld) is larger than the padded input (%lld) on axis %d",
                          (long long)win.k[i], (long long)win.dil[i], (long long)in.val, i + 2);
    }
    *rank = s + 2;
    return NNPERF_OK;
}

static enum nnperf_status conv_infer(struct op_ctx *c, int xi, int wi, int bi, int dtype)
{
    struct ir_dim d[NNPERF_MAX_RANK];
    int rank;
    enum nnperf_status st = conv_dims(c, xi, wi, bi, &rank, d);
    if (st) return st;
    return op_set(c, 0, dtype, rank, d);
}

enum nnperf_status infer_conv(struct op_ctx *c)
{
    struct ir_value *x = op_in(c, 0);
    return conv_infer(c, 0, 1, 2, x ? x->dtype : DT_UNDEFINED);
}

/* ONNX ConvInteger-10: inputs x, w, x_zero_point, w_zero_point; output int32. */
enum nnperf_status infer_conv_integer(struct op_ctx *c)
{
    return conv_infer(c, 0, 1, -1, DT_INT32);
}

/* ONNX QLinearConv-10: x, x_scale, x_zero_point, w, w_scale, w_zero_point, y_scale, y_zero_point, B; the output
 * has y_zero_point's type. */
enum nnperf_status infer_q_linear_conv(struct op_ctx *c)
{
    struct ir_value *yz = op_in(c, 7), *x = op_in(c, 0);
    int dt = yz ? yz->dtype : (x ? x->dtype : DT_UNDEFINED);
    return conv_infer(c, 0, 3, 8, dt);
}

/* ONNX DeformConv-19: X, W, offset, B, mask; the output is Conv's (no auto_pad). */
enum nnperf_status infer_deform_conv(struct op_ctx *c)
{
    struct ir_value *x = op_in(c, 0), *off = op_in(c, 2);
    struct ir_dim d[NNPERF_MAX_RANK];
    int rank;
    enum nnperf_status st = conv_dims(c, 0, 1, 3, &rank, d);
    if (st) return st;
    int64_t og = op_attr_int(c, "offset_group", 1);
    if (og <= 0) return op_err(c, "offset_group", "is %lld, expected at least 1", (long long)og);
    /* the offset tensor [N, offset_group*2*prod(k), out spatial...] also carries the output's spatial size */
    if (off && off->rank >= 0 && rank >= 0) {
        if (off->rank != rank) return op_err(c, NULL, "offset has rank %d, expected %d", off->rank, rank);
        for (int i = 2; i < rank; i++) {
            if (d[i].val < 0 && off->dims[i].val >= 0)
                d[i] = off->dims[i];
            else if (d[i].val >= 0 && off->dims[i].val >= 0 && d[i].val != off->dims[i].val)
                return op_err(c, NULL, "offset has spatial dim %lld on axis %d, expected %lld",
                              (long long)off->dims[i].val, i, (long long)d[i].val);
        }
    }
    return op_set(c, 0, x ? x->dtype : DT_UNDEFINED, rank, d);
}

/* ONNX ConvTranspose-11: output_shape[i] = stride[i] * (in[i] - 1) + output_padding[i] + ((k[i] - 1) *
 * dilations[i] + 1) - pads_begin[i] - pads_end[i]; with auto_pad SAME_* (and no output_shape) out = in * stride;
 * an explicit output_shape attribute wins (the pads are then derived from it). W is [Cin, Cout/group, k...]. */
enum nnperf_status infer_conv_transpose(struct op_ctx *c)
{
    struct ir_value *x = op_in(c, 0), *w = op_in(c, 1), *b = op_in(c, 2);
    int dtype = x ? x->dtype : DT_UNDEFINED;
    int s;
    enum nnperf_status st = conv_spatial(c, x, w, &s);
    if (st) return st;
    if (s < 0) return op_set(c, 0, dtype, -1, NULL);
    struct nn_win win;
    if ((st = nn_win_read(c, s, &win))) return st;
    if ((st = conv_kernel(c, w, &win))) return st;
    int64_t group = op_attr_int(c, "group", 1);
    if (group <= 0) return op_err(c, "group", "is %lld, expected at least 1", (long long)group);
    int64_t opad[NNPERF_MAX_RANK];
    if ((st = nn_win_ints(c, "output_padding", s, 0, 0, opad))) return st;
    const int64_t *os;
    int64_t osn = op_attr_ints(c, "output_shape", &os);
    if (osn > 0) {
        if (osn == s + 2)
            os += 2; /* some exporters give the full shape */
        else if (osn != s)
            return op_err(c, "output_shape", "has %lld values, expected %d", (long long)osn, s);
    }

    struct ir_dim d[NNPERF_MAX_RANK];
    d[0] = x && x->rank >= 0 ? x->dims[0] : IR_DIM_UNKNOWN;
    d[1] = IR_DIM_UNKNOWN;
    if (w && w->rank >= 0) {
        if (x && x->rank >= 0 && x->dims[1].val >= 0 && w->dims[0].val >= 0 &&
            x->dims[1].val != w->dims[0].val)
            return op_err(c, NULL, "input channels %lld do not match the weight's first dim %lld",
                          (long long)x->dims[1].val, (long long)w->dims[0].val);
        if (w->dims[0].val >= 0 && w->dims[0].val % group)
            return op_err(c, "group", "input channels %lld are not divisible by group %lld",
                          (long long)w->dims[0].val, (long long)group);
        d[1] = ir_dim_mul(c->ar, w->dims[1], ir_dim_known(group));
    }
    if (d[1].val < 0 && b && b->rank == 1 && b->dims[0].val >= 0) d[1] = b->dims[0];
    for (int i = 0; i < s; i++) {
        struct ir_dim in = x && x->rank >= 0 ? x->dims[i + 2] : IR_DIM_UNKNOWN;
        if (osn > 0) {
            if (os[i] < 0) return op_err(c, "output_shape", "has negative value %lld", (long long)os[i]);
            d[i + 2] = ir_dim_known(os[i]);
            continue;
        }
        int64_t stv = win.st[i];
        if (win.auto_pad == NN_PAD_SAME_UPPER || win.auto_pad == NN_PAD_SAME_LOWER) {
            d[i + 2] = ir_dim_mul(c->ar, in, ir_dim_known(stv));
            continue;
        }
        if (win.k[i] < 0 || (in.val < 0 && !in.sym)) {
            d[i + 2] = IR_DIM_UNKNOWN;
            continue;
        }
        /* out = stride*in + delta, delta = output_padding + (k-1)*dil + 1 - stride - pads */
        int64_t eff, delta;
        if (!ck_mul_i64(win.k[i] - 1, win.dil[i], &eff)) return op_err(c, "dilations", "overflow");
        delta = opad[i] + eff + 1 - stv - win.pads[i] - win.pads[i + s];
        if (in.val >= 0) {
            int64_t sz;
            if (!ck_mul_i64(stv, in.val, &sz) || !ck_add_i64(sz, delta, &sz))
                return op_err(c, NULL, "output size overflows on axis %d", i + 2);
            if (sz < 0)
                return op_err(c, "pads", "make the output size negative (%lld) on axis %d", (long long)sz,
                              i + 2);
            d[i + 2] = ir_dim_known(sz);
        } else {
            d[i + 2] = nn_dim_offset(c->ar, ir_dim_mul(c->ar, in, ir_dim_known(stv)), delta);
        }
    }
    return op_set(c, 0, dtype, s + 2, d);
}

/* ONNX Col2Im-18: input [N, C*prod(block_shape), L], image_shape and block_shape inputs; output
 * [N, C, image_shape...]; L must equal the number of block positions prod((image + pads - dil*(block-1) - 1) /
 * stride + 1). */
enum nnperf_status infer_col2_im(struct op_ctx *c)
{
    struct ir_value *x = op_in(c, 0), *img = op_in(c, 1), *blk = op_in(c, 2);
    int dtype = x ? x->dtype : DT_UNDEFINED;
    const struct ir_ival *iv = NULL, *bv = NULL;
    int64_t ni = op_ivals(c, 1, &iv), nb = op_ivals(c, 2, &bv);
    int s = -1;
    if (ni >= 0)
        s = (int)(ni < NNPERF_MAX_RANK ? ni : NNPERF_MAX_RANK);
    else if (nb >= 0)
        s = (int)(nb < NNPERF_MAX_RANK ? nb : NNPERF_MAX_RANK);
    else if (img && img->rank == 1 && img->dims[0].val >= 0)
        s = (int)img->dims[0].val;
    else if (blk && blk->rank == 1 && blk->dims[0].val >= 0)
        s = (int)blk->dims[0].val;
    if (x && x->rank >= 0 && x->rank != 3) return op_err(c, NULL, "input has rank %d, expected 3", x->rank);
    if (s < 0) return op_set(c, 0, dtype, -1, NULL);
    if (s < 1 || s > NNPERF_MAX_RANK - 2) return op_err(c, NULL, "image_shape has %d values", s);
    if (ni >= 0 && nb >= 0 && ni != nb)
        return op_err(c, NULL, "image_shape has %lld values but block_shape has %lld", (long long)ni,
                      (long long)nb);
    struct nn_win win;
    enum nnperf_status st = nn_win_read(c, s, &win);
    if (st) return st;
    struct ir_dim d[NNPERF_MAX_RANK];
    d[0] = x && x->rank >= 0 ? x->dims[0] : IR_DIM_UNKNOWN;
    d[1] = IR_DIM_UNKNOWN;
    int64_t bprod = 1, blocks = 1;
    int bknown = nb >= 0, lknown = 1;
    for (int i = 0; i < s; i++) {
        d[i + 2] = ni >= 0 ? ir_dim_from_ival(iv[i]) : IR_DIM_UNKNOWN;
        if (nb >= 0 && bv[i].known) {
            if (bv[i].v <= 0)
                return op_err(c, NULL, "block_shape has value %lld, expected at least 1", (long long)bv[i].v);
            win.k[i] = bv[i].v;
            if (!ck_mul_i64(bprod, bv[i].v, &bprod)) bknown = 0;
        } else {
            bknown = 0;
        }
        int bad;
        struct ir_dim n = nn_win_out(c, &win, i, d[i + 2], &bad);
        if (bad) return op_err(c, NULL, "block does not fit the padded image on axis %d", i);
        if (n.val < 0 || !ck_mul_i64(blocks, n.val, &blocks)) lknown = 0;
    }
    if (x && x->rank == 3) {
        if (bknown && x->dims[1].val >= 0) {
            if (x->dims[1].val % bprod)
                return op_err(c, NULL, "input dim 1 (%lld) is not a multiple of prod(block_shape) = %lld",
                              (long long)x->dims[1].val, (long long)bprod);
            d[1] = ir_dim_known(x->dims[1].val / bprod);
        } else if (bknown) {
            d[1] = ir_dim_div(c->ar, x->dims[1], ir_dim_known(bprod));
        }
        if (bknown && lknown && x->dims[2].val >= 0 && x->dims[2].val != blocks)
            return op_err(c, NULL, "input has %lld blocks (dim 2), expected %lld", (long long)x->dims[2].val,
                          (long long)blocks);
    }
    return op_set(c, 0, dtype, s + 2, d);
}

/* ---- counting ---- */

/* MACs of a forward convolution whose output is out0: out elements x (Cin/group = W[1]) x prod(kernel). */
static int conv_macs(struct op_ctx *c, int wi, uint64_t *macs, int64_t *out_n)
{
    struct ir_value *w = op_in(c, wi);
    int64_t n, per = 1;
    if (!ir_numel(op_out(c, 0), &n) || !w || w->rank < 3) return 0;
    for (int i = 1; i < w->rank; i++)
        if (w->dims[i].val < 0 || !ck_mul_i64(per, w->dims[i].val, &per)) return 0;
    int64_t m;
    if (!ck_mul_i64(n, per, &m)) return 0;
    *macs = (uint64_t)m;
    *out_n = n;
    return 1;
}

/* Conv and ConvInteger (fvcore/torchvision): MACs = out elements x Cin/group x prod(kernel); the bias B of Conv
 * adds one FLOP per output element. ConvInteger has no bias (its inputs 2-3 are zero points). */
void count_conv(struct op_ctx *c, struct ir_cost *cost)
{
    uint64_t macs;
    int64_t n;
    if (!conv_macs(c, 1, &macs, &n)) {
        cost->known = 0;
        return;
    }
    cost->macs = macs;
    cost->flops = (c->n->op == OPID_CONV && op_in(c, 2)) ? (uint64_t)n : 0;
}

/* QLinearConv: Conv's MACs (W at input 3), bias B at input 8. Requantisation is not counted (as Conv). */
void count_qlinear_conv(struct op_ctx *c, struct ir_cost *cost)
{
    uint64_t macs;
    int64_t n;
    if (!conv_macs(c, 3, &macs, &n)) {
        cost->known = 0;
        return;
    }
    cost->macs = macs;
    cost->flops = op_in(c, 8) ? (uint64_t)n : 0;
}

/* DeformConv: Conv's MACs plus the bilinear sampling of every (output position, input channel, kernel tap):
 * 4 corner values weighted and summed = 4 multiplies + 3 adds, plus 4 for the corner weights from the fractional
 * offsets (1-dy, 1-dx and two products, shared by nothing else) = 11 FLOPs per sample; a mask multiplies each
 * sample once more (+1). Samples = N x out spatial x Cin x prod(kernel) = (out elements / Cout) x Cin x prod(k).
 * Bias: one FLOP per output element. */
void count_deform_conv(struct op_ctx *c, struct ir_cost *cost)
{
    uint64_t macs;
    int64_t n;
    struct ir_value *x = op_in(c, 0), *w = op_in(c, 1), *y = op_out(c, 0);
    if (!conv_macs(c, 1, &macs, &n) || !x || x->rank < 3 || x->dims[1].val < 0 || !y || y->dims[1].val <= 0) {
        cost->known = 0;
        return;
    }
    /* samples = (out elements / Cout) x Cin x prod(kernel) */
    int64_t per_pos = n / y->dims[1].val, samples = 1;
    if (!ck_mul_i64(per_pos, x->dims[1].val, &samples)) {
        cost->known = 0;
        return;
    }
    for (int i = 2; i < w->rank; i++)
        if (!ck_mul_i64(samples, w->dims[i].val, &samples)) {
            cost->known = 0;
            return;
        }
    int64_t per = 11 + (op_in(c, 4) ? 1 : 0), f;
    if (!ck_mul_i64(samples, per, &f) || !ck_add_i64(f, op_in(c, 3) ? n : 0, &f)) {
        cost->known = 0;
        return;
    }
    cost->macs = macs;
    cost->flops = (uint64_t)f;
}

/* ConvTranspose (fvcore): MACs = input elements (N x Cin x spatial) x (Cout/group = W[1]) x prod(kernel); the
 * bias adds one FLOP per output element. */
void count_conv_transpose(struct op_ctx *c, struct ir_cost *cost)
{
    struct ir_value *x = op_in(c, 0), *w = op_in(c, 1);
    int64_t n, m, on = 0;
    if (!ir_numel(x, &n) || !w || w->rank < 3 || (op_in(c, 2) && !ir_numel(op_out(c, 0), &on))) {
        cost->known = 0;
        return;
    }
    m = n;
    for (int i = 1; i < w->rank; i++)
        if (w->dims[i].val < 0 || !ck_mul_i64(m, w->dims[i].val, &m)) {
            cost->known = 0;
            return;
        }
    cost->macs = (uint64_t)m;
    cost->flops = op_in(c, 2) ? (uint64_t)on : 0;
}
