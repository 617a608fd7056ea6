/* resize.c - resampling and rearranging operators: Resize (opsets 10-19), Upsample (7, 9), GridSample,
 * AffineGrid, DepthToSpace and SpaceToDepth. */
#include <math.h>
#include <string.h>

#include "../ops.h"

/* floor(in x scale) in float32, as ONNX's shape inference computes it (onnx/defs/tensor/utils.cc). Symbolic
 * inputs keep a symbol for integer scales. */
static struct ir_dim scale_dim(struct op_ctx *c, struct ir_dim in, double scale)
{
    float sc = (float)scale;
    if (in.val >= 0) {
        float p = (float)in.val * sc;
        if (!(p >= 0) || p > 9.0e18f) return IR_DIM_UNKNOWN;
        return ir_dim_known((int64_t)floorf(p));
    }
    if (sc == 1.0f) return in;
    if (in.sym && sc > 1.0f && sc == floorf(sc) && sc < 1.0e6f)
        return ir_dim_mul(c->ar, in, ir_dim_known((int64_t)sc));
    return IR_DIM_UNKNOWN;
}

/* Applies scales (n values, one per axis of ax[]) to X's dims in d[]. */
static enum nnperf_status apply_scales(struct op_ctx *c, const struct ir_value *x, const double *sc,
                                       int64_t n, const int *ax, struct ir_dim *d)
{
    for (int64_t j = 0; j < n; j++) {
        if (!(sc[j] > 0)) return op_err(c, NULL, "scales has non-positive value %g", sc[j]);
        d[ax[j]] = scale_dim(c, x->dims[ax[j]], sc[j]);
    }
    return NNPERF_OK;
}

/* ONNX Upsample-7 (scales attribute) / -9 (scales input): out = floor(in x scale). */
static enum nnperf_status infer_upsample(struct op_ctx *c, struct ir_value *x)
{
    int dtype = x ? x->dtype : DT_UNDEFINED;
    const double *sc = NULL;
    int64_t n = -1;
    if (c->n->opset < 9) {
        const struct ir_attr *a = op_attr_typed(c, "scales", AT_FLOATS);
        if (!a || a->type != AT_FLOATS) return op_err(c, "scales", "is required");
        sc = a->floats;
        n = a->n;
    } else {
        n = op_fvals(c, 1, &sc);
    }
    if (!x || x->rank < 0)
        return op_set(c, 0, dtype, n >= 0 ? (int)(n < NNPERF_MAX_RANK ? n : -1) : -1, NULL);
    if (n < 0) return op_set(c, 0, dtype, x->rank, NULL);
    if (n != x->rank)
        return op_err(c, "scales", "has %lld values, expected %d (the input's rank)", (long long)n, x->rank);
    struct ir_dim d[NNPERF_MAX_RANK];
    int ax[NNPERF_MAX_RANK];
    for (int i = 0; i < x->rank; i++) ax[i] = i;
    enum nnperf_status st = apply_scales(c, x, sc, n, ax, d);
    if (st) return st;
    return op_set(c, 0, dtype, x->rank, d);
}

/* Whether optional input i is present and not an empty tensor. */
static int input_given(struct op_ctx *c, int i)
{
    struct ir_value *v = op_in(c, i);
    if (!v) return 0;
    if (v->rank == 1 && v->dims[0].val == 0) return 0;
    const double *f;
    if (op_fvals(c, i, &f) == 0) return 0;
    return 1;
}

/* ONNX Resize-10: X, scales. Resize-11/13/18/19: X, roi, scales, sizes (exactly one of scales and sizes from
 * 13); opset 18 adds the axes and keep_aspect_ratio_policy attributes. Output dims: floor(in x scale), or sizes;
 * with keep_aspect_ratio_policy not_larger/not_smaller, scale = min/max(sizes[i] / in[i]) over the axes and
 * out = round(scale x in) (onnx/defs/tensor/utils.cc, KeepAspectRatioHelper). Unlisted axes keep their size. */
enum nnperf_status infer_resize(struct op_ctx *c)
{
    struct ir_value *x = op_in(c, 0);
    if (c->n->op == OPID_UPSAMPLE) return infer_upsample(c, x);
    int dtype = x ? x->dtype : DT_UNDEFINED;
    int si = c->n->opset >= 11 ? 2 : 1, zi = c->n->opset >= 11 ? 3 : -1;
    int has_scales = input_given(c, si), has_sizes = zi >= 0 && input_given(c, zi);
    if (has_scales && has_sizes && c->n->opset >= 13)
        return op_err(c, NULL, "has both 'scales' and 'sizes' inputs, expected only one");
    if (!has_scales && !has_sizes) return op_err(c, NULL, "has neither a 'scales' nor a 'sizes' input");
    if (has_sizes) has_scales = 0; /* opset 11: sizes is used when given */
    const char *pol = op_attr_str(c, "keep_aspect_ratio_policy", "stretch");
    int policy = 0;
    if (!strcmp(pol, "not_larger"))
        policy = 1;
    else if (!strcmp(pol, "not_smaller"))
        policy = 2;
    else if (strcmp(pol, "stretch"))
        return op_err(c, "keep_aspect_ratio_policy", "has unknown value '%s'", pol);
    if (policy && has_scales)
        return op_err(c, "keep_aspect_ratio_policy", "'%s' cannot be used with 'scales'", pol);

    const double *sc = NULL;
    const struct ir_ival *sz = NULL;
    int64_t n = has_scales ? op_fvals(c, si, &sc) : op_ivals(c, zi, &sz);
    const int64_t *axes;
    int64_t na = op_attr_ints(c, "axes", &axes);
    if (!x || x->rank < 0) {
        int r = na == 0 && n >= 0 && n <= NNPERF_MAX_RANK ? (int)n : -1;
        struct ir_dim sd[NNPERF_MAX_RANK];
        /* sizes alone (no axes, no aspect-ratio policy) give the output's dims */
        for (int i = 0; i < r; i++) sd[i] = has_sizes && !policy ? ir_dim_from_ival(sz[i]) : IR_DIM_UNKNOWN;
        return op_set(c, 0, dtype, r, r > 0 ? sd : NULL);
    }
    int ax[NNPERF_MAX_RANK], nax = x->rank;
    if (na > 0) {
        if (na > x->rank)
            return op_err(c, "axes", "has %lld values, more than the rank %d", (long long)na, x->rank);
        int seen[NNPERF_MAX_RANK] = {0};
        for (int64_t j = 0; j < na; j++) {
            if (!ir_norm_axis(axes[j], x->rank, &ax[j]))
                return op_err(c, "axes", "has %lld, out of range for rank %d", (long long)axes[j], x->rank);
            if (seen[ax[j]]++) return op_err(c, "axes", "repeats axis %lld", (long long)axes[j]);
        }
        nax = (int)na;
    } else {
        for (int i = 0; i < x->rank; i++) ax[i] = i;
    }
    struct ir_dim d[NNPERF_MAX_RANK];
    for (int i = 0; i < x->rank; i++) d[i] = x->dims[i];
    if (n < 0) {
        for (int j = 0; j < nax; j++) d[ax[j]] = IR_DIM_UNKNOWN;
        return op_set(c, 0, dtype, x->rank, d);
    }
    if (n != nax)
        return op_err(c, NULL, "'%s' has %lld values, expected %d", has_scales ? "scales" : "sizes",
                      (long long)n, nax);
    enum nnperf_status st;
    if (has_scales) {
        if ((st = apply_scales(c, x, sc, n, ax, d))) return st;
        return op_set(c, 0, dtype, x->rank, d);
    }
    for (int j = 0; j < nax; j++) {
        if (sz[j].known && sz[j].v < 0)
            return op_err(c, NULL, "sizes has negative value %lld", (long long)sz[j].v);
        d[ax[j]] = ir_dim_from_ival(sz[j]);
    }
    if (policy) {
        float scale = policy == 1 ? 3.4e38f : 0.0f;
        int known = 1;
        for (int j = 0; j < nax && known; j++) {
            struct ir_dim in = x->dims[ax[j]];
            if (in.val <= 0 || !sz[j].known) {
                known = 0;
                break;
            }
            float s = (float)sz[j].v / (float)in.val;
            scale = policy == 1 ? (s < scale ? s : scale) : (s > scale ? s : scale);
        }
        for (int j = 0; j < nax; j++)
            d[ax[j]] =
                known ? ir_dim_known((int64_t)roundf(scale * (float)x->dims[ax[j]].val)) : IR_DIM_UNKNOWN;
    }
    return op_set(c, 0, dtype, x->rank, d);
}

/* ONNX GridSample-16 (2-D) / -20 (N-D): X [N, C, D1..Dr], grid [N, D1_out..Dr_out, r] -> [N, C, D1_out..]. */
enum nnperf_status infer_grid_sample(struct op_ctx *c)
{
    struct ir_value *x = op_in(c, 0), *g = op_in(c, 1);
    int dtype = x ? x->dtype : DT_UNDEFINED;
    if (x && x->rank >= 0 && x->rank < 3)
        return op_err(c, NULL, "input has rank %d, expected at least 3", x->rank);
    if (g && g->rank >= 0 && g->rank < 3)
        return op_err(c, NULL, "grid has rank %d, expected at least 3", g->rank);
    if (x && x->rank >= 0 && g && g->rank >= 0) {
        if (x->rank != g->rank)
            return op_err(c, NULL, "grid has rank %d, expected %d like the input", g->rank, x->rank);
        if (g->dims[g->rank - 1].val >= 0 && g->dims[g->rank - 1].val != x->rank - 2)
            return op_err(c, NULL, "grid's last dim is %lld, expected %d (spatial rank)",
                          (long long)g->dims[g->rank - 1].val, x->rank - 2);
        if (x->dims[0].val >= 0 && g->dims[0].val >= 0 && x->dims[0].val != g->dims[0].val)
            return op_err(c, NULL, "grid has batch %lld, input has %lld", (long long)g->dims[0].val,
                          (long long)x->dims[0].val);
    }
    int r = g && g->rank >= 0 ? g->rank : (x ? x->rank : -1);
    if (r < 0) return op_set(c, 0, dtype, -1, NULL);
    struct ir_dim d[NNPERF_MAX_RANK];
    d[0] = x && x->rank >= 0 ? x->dims[0] : (g && g->rank >= 0 ? g->dims[0] : IR_DIM_UNKNOWN);
    d[1] = x && x->rank >= 0 ? x->dims[1] : IR_DIM_UNKNOWN;
    for (int i = 2; i < r; i++) d[i] = g && g->rank >= 0 ? g->dims[i - 1] : IR_DIM_UNKNOWN;
    return op_set(c, 0, dtype, r, d);
}

/* ONNX AffineGrid-20: theta [N, 2, 3] (2-D) or [N, 3, 4] (3-D), size = [N, C, H, W] or [N, C, D, H, W];
 * output grid [N, H, W, 2] or [N, D, H, W, 3]. */
enum nnperf_status infer_affine_grid(struct op_ctx *c)
{
    struct ir_value *th = op_in(c, 0), *sz = op_in(c, 1);
    int dtype = th ? th->dtype : DT_UNDEFINED;
    const struct ir_ival *v;
    int64_t n = op_ivals(c, 1, &v);
    int len = -1;
    if (n >= 0)
        len = (int)(n < 100 ? n : 100);
    else if (sz && sz->rank == 1 && sz->dims[0].val >= 0)
        len = (int)(sz->dims[0].val < 100 ? sz->dims[0].val : 100);
    else if (th && th->rank == 3 && th->dims[1].val >= 0)
        len = (int)th->dims[1].val + 2;
    if (len < 0) return op_set(c, 0, dtype, -1, NULL);
    if (len != 4 && len != 5) return op_err(c, NULL, "size has %d values, expected 4 or 5", len);
    if (th && th->rank >= 0) {
        if (th->rank != 3) return op_err(c, NULL, "theta has rank %d, expected 3", th->rank);
        if (th->dims[1].val >= 0 && th->dims[1].val != len - 2)
            return op_err(c, NULL, "theta is %lldx%lld per batch, expected %dx%d", (long long)th->dims[1].val,
                          (long long)th->dims[2].val, len - 2, len - 1);
    }
    struct ir_dim d[5];
    d[0] = n >= 0 ? ir_dim_from_ival(v[0]) : (th && th->rank == 3 ? th->dims[0] : IR_DIM_UNKNOWN);
    for (int i = 2; i < len; i++) d[i - 1] = n >= 0 ? ir_dim_from_ival(v[i]) : IR_DIM_UNKNOWN;
    d[len - 1] = ir_dim_known(len - 2);
    return op_set(c, 0, dtype, len, d);
}

/* DepthToSpace (dir = 1) and SpaceToDepth (dir = 0) on [N, C, H, W] with blocksize b:
 * ONNX DepthToSpace-1/11/13: [N, C/(b*b), H*b, W*b]; SpaceToDepth-1/13: [N, C*b*b, H/b, W/b]. */
static enum nnperf_status depth_space(struct op_ctx *c, int to_space)
{
    struct ir_value *x = op_in(c, 0);
    int dtype = x ? x->dtype : DT_UNDEFINED;
    const struct ir_attr *a = op_attr_typed(c, "blocksize", AT_INT);
    if (!a || a->type != AT_INT) return op_err(c, "blocksize", "is required");
    int64_t b = a->i, bb;
    if (b <= 0 || !ck_mul_i64(b, b, &bb))
        return op_err(c, "blocksize", "is %lld, expected at least 1", (long long)b);
    if (to_space) {
        const char *mode = op_attr_str(c, "mode", "DCR");
        if (strcmp(mode, "DCR") && strcmp(mode, "CRD"))
            return op_err(c, "mode", "has unknown value '%s'", mode);
    }
    if (!x || x->rank < 0) return op_set(c, 0, dtype, 4, NULL);
    if (x->rank != 4) return op_err(c, NULL, "input has rank %d, expected 4", x->rank);
    struct ir_dim d[4] = {x->dims[0], x->dims[1], x->dims[2], x->dims[3]};
    if (to_space) {
        if (d[1].val >= 0 && d[1].val % bb)
            return op_err(c, "blocksize", "squared (%lld) does not divide the %lld channels", (long long)bb,
                          (long long)d[1].val);
        d[1] = ir_dim_div(c->ar, d[1], ir_dim_known(bb));
        d[2] = ir_dim_mul(c->ar, d[2], ir_dim_known(b));
        d[3] = ir_dim_mul(c->ar, d[3], ir_dim_known(b));
    } else {
        for (int i = 2; i < 4; i++)
            if (d[i].val >= 0 && d[i].val % b)
                return op_err(c, "blocksize", "(%lld) does not divide spatial dim %lld", (long long)b,
                              (long long)d[i].val);
        d[1] = ir_dim_mul(c->ar, d[1], ir_dim_known(bb));
        d[2] = ir_dim_div(c->ar, d[2], ir_dim_known(b));
        d[3] = ir_dim_div(c->ar, d[3], ir_dim_known(b));
    }
    return op_set(c, 0, dtype, 4, d);
}

enum nnperf_status infer_depth_to_space(struct op_ctx *c)
{
    return depth_space(c, 1);
}

enum nnperf_status infer_space_to_depth(struct op_ctx *c)
{
    return depth_space(c, 0);
}
