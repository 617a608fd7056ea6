/* norm.c - normalisation, dropout and loss operators: BatchNormalization (every opset, with its optional
 * statistics outputs), InstanceNormalization, LayerNormalization, GroupNormalization, Dropout,
 * NegativeLogLikelihoodLoss, SoftmaxCrossEntropyLoss, and LRN's cost.
 *
 * Per-element costs (the fpe column of op_list.def, counted per input element by op_count_input unless noted):
 *  - BatchNormalization 2 per output element: inference folds mean/var/scale/bias into one multiply and one add.
 *  - InstanceNormalization, LayerNormalization, GroupNormalization 8: mean (1 add), variance (subtract, square,
 *    add = 3), normalise (subtract, multiply by 1/std = 2), scale and bias (2); the per-group sqrt/reciprocal is
 *    negligible.
 *  - LpNormalization 3: square (or abs), accumulate, divide. MeanVarianceNormalization 7: as above without the
 *    affine part but with a divide by std (mean 1, variance 3, normalise 3).
 *  - LRN: (size + 3) per output element: size squares-and-adds over the channel window, then scale, add bias,
 *    pow and divide counted as 3 (count_lrn below).
 */
#include <string.h>

#include "../ops.h"

/* LRN: output elements x (size + 3) FLOPs (see the header comment). */
void count_lrn(struct op_ctx *c, struct ir_cost *cost)
{
    int64_t n, size = op_attr_int(c, "size", -1), f;
    if (size <= 0 || !ir_numel(op_out(c, 0), &n) || !ck_mul_i64(n, size + 3, &f)) {
        cost->known = 0;
        return;
    }
    cost->macs = 0;
    cost->flops = (uint64_t)f;
}

/* Checks that a per-channel input (scale, bias, mean, var) has rank 1 and C values when both are known. */
static enum nnperf_status check_channel_vec(struct op_ctx *c, int i, const char *what, struct ir_dim ch)
{
    struct ir_value *v = op_in(c, i);
    if (!v || v->rank < 0) return NNPERF_OK;
    if (v->rank != 1) return NNPERF_OK; /* spatial=0 (opset < 9) gives [C, D1, ...]; not checked */
    if (ch.val >= 0 && v->dims[0].val >= 0 && v->dims[0].val != ch.val)
        return op_err(c, NULL, "%s has %lld values, expected %lld (the input's channels)", what,
                      (long long)v->dims[0].val, (long long)ch.val);
    return NNPERF_OK;
}

/* ONNX BatchNormalization: inputs X, scale, B, mean, var; Y has X's shape. Optional outputs: opset 1-13 mean,
 * var, saved_mean, saved_var (training); opset 14+ running_mean, running_var (training_mode=1). All statistics
 * have the shape of the mean input ([C], or [C, D1, ...] with spatial=0 before opset 9). */
enum nnperf_status infer_batch_normalization(struct op_ctx *c)
{
    struct ir_value *x = op_in(c, 0), *mean = op_in(c, 3);
    int dtype = x ? x->dtype : DT_UNDEFINED;
    struct ir_dim ch = x && x->rank >= 2 ? x->dims[1] : IR_DIM_UNKNOWN;
    enum nnperf_status st;
    if (x && x->rank == 0) return op_err(c, NULL, "input is a scalar, expected at least rank 1 (N, C, ...)");
    static const char *const names[] = {"scale", "B", "mean", "var"};
    for (int i = 1; i <= 4; i++)
        if ((st = check_channel_vec(c, i, names[i - 1], ch))) return st;
    if ((st = op_set_like(c, 0, x, dtype))) return st;
    int sdt = mean ? mean->dtype : dtype;
    struct ir_dim cd[1] = {ch};
    for (int i = 1; i < c->n->n_out && i <= 4; i++) {
        if (mean && mean->rank >= 0)
            st = op_set_like(c, i, mean, sdt);
        else
            st = op_set(c, i, sdt, 1, cd);
        if (st) return st;
    }
    return NNPERF_OK;
}

/* ONNX InstanceNormalization: Y has X's shape ([N, C, D...]); scale and B are [C]. */
enum nnperf_status infer_instance_normalization(struct op_ctx *c)
{
    struct ir_value *x = op_in(c, 0);
    enum nnperf_status st;
    if (x && x->rank >= 0 && x->rank < 2)
        return op_err(c, NULL, "input has rank %d, expected at least 2 (N, C, ...)", x->rank);
    struct ir_dim ch = x && x->rank >= 2 ? x->dims[1] : IR_DIM_UNKNOWN;
    if ((st = check_channel_vec(c, 1, "scale", ch)) || (st = check_channel_vec(c, 2, "B", ch))) return st;
    return op_infer_same(c);
}

/* ONNX LayerNormalization-17: Y has X's shape; Mean and InvStdDev have X's dims before axis and 1 from axis on
 * (same rank), element type stash_type (default 1 = float). */
enum nnperf_status infer_layer_normalization(struct op_ctx *c)
{
    struct ir_value *x = op_in(c, 0);
    int dtype = x ? x->dtype : DT_UNDEFINED;
    int64_t axis = op_attr_int(c, "axis", -1);
    int64_t stash = op_attr_int(c, "stash_type", DT_FLOAT);
    enum nnperf_status st;
    if (stash <= DT_UNDEFINED || stash >= DT_COUNT || !ir_dtype_is_float((int)stash))
        return op_err(c, "stash_type", "is %lld, expected a floating-point type", (long long)stash);
    if ((st = op_set_like(c, 0, x, dtype))) return st;
    if (!x || x->rank < 0) {
        if ((st = op_set(c, 1, (int)stash, -1, NULL))) return st;
        return op_set(c, 2, (int)stash, -1, NULL);
    }
    int ax;
    if (!ir_norm_axis(axis, x->rank, &ax))
        return op_err(c, "axis", "is %lld, out of range for rank %d", (long long)axis, x->rank);
    struct ir_dim d[NNPERF_MAX_RANK];
    for (int i = 0; i < x->rank; i++) d[i] = i < ax ? x->dims[i] : ir_dim_known(1);
    if ((st = op_set(c, 1, (int)stash, x->rank, d))) return st;
    return op_set(c, 2, (int)stash, x->rank, d);
}

/* ONNX GroupNormalization-18/21: Y has X's shape [N, C, D...]; C must be a multiple of num_groups. Scale and
 * bias are [num_groups] in opset 18 and [C] from opset 21. */
enum nnperf_status infer_group_normalization(struct op_ctx *c)
{
    struct ir_value *x = op_in(c, 0);
    const struct ir_attr *ng = op_attr_typed(c, "num_groups", AT_INT);
    if (!ng || ng->type != AT_INT) return op_err(c, "num_groups", "is required");
    if (ng->i <= 0) return op_err(c, "num_groups", "is %lld, expected at least 1", (long long)ng->i);
    if (x && x->rank >= 0 && x->rank < 2)
        return op_err(c, NULL, "input has rank %d, expected at least 2 (N, C, ...)", x->rank);
    if (x && x->rank >= 2 && x->dims[1].val >= 0 && x->dims[1].val % ng->i)
        return op_err(c, "num_groups", "(%lld) does not divide the %lld channels", (long long)ng->i,
                      (long long)x->dims[1].val);
    struct ir_dim want =
        c->n->opset >= 21 ? (x && x->rank >= 2 ? x->dims[1] : IR_DIM_UNKNOWN) : ir_dim_known(ng->i);
    enum nnperf_status st;
    if ((st = check_channel_vec(c, 1, "scale", want)) || (st = check_channel_vec(c, 2, "bias", want)))
        return st;
    return op_infer_same(c);
}

/* ONNX Dropout: output has X's shape; the optional mask too, with X's type before opset 10 and bool from 10.
 * Opset 12+: ratio (scalar, in [0, 1)) and training_mode are inputs. */
enum nnperf_status infer_dropout(struct op_ctx *c)
{
    struct ir_value *x = op_in(c, 0);
    int dtype = x ? x->dtype : DT_UNDEFINED;
    enum nnperf_status st;
    const double *r;
    double ratio = op_attr_float(c, "ratio", 0.5);
    if (c->n->opset >= 12 && op_fvals(c, 1, &r) == 1) ratio = r[0];
    if (ratio < 0 || ratio > 1) return op_err(c, "ratio", "is %g, expected a value in [0, 1]", ratio);
    struct ir_value *rv = op_in(c, 1);
    if (c->n->opset >= 12 && rv && rv->rank > 0) {
        int64_t n;
        if (ir_numel(rv, &n) && n != 1) return op_err(c, NULL, "ratio input is not a scalar");
    }
    if ((st = op_set_like(c, 0, x, dtype))) return st;
    return op_set_like(c, 1, x, c->n->opset >= 10 ? DT_BOOL : dtype);
}

/* Shared by the two losses: input [N, C, d1..dk], target [N, d1..dk]; the loss is [N, d1..dk] with
 * reduction "none", else a scalar. */
static enum nnperf_status loss_infer(struct op_ctx *c)
{
    struct ir_value *x = op_in(c, 0), *t = op_in(c, 1), *w = op_in(c, 2);
    int dtype = x ? x->dtype : DT_UNDEFINED;
    const char *red = op_attr_str(c, "reduction", "mean");
    int none = !strcmp(red, "none");
    if (!none && strcmp(red, "mean") && strcmp(red, "sum"))
        return op_err(c, "reduction", "has unknown value '%s' (expected none, mean or sum)", red);
    if (x && x->rank >= 0 && x->rank < 2)
        return op_err(c, NULL, "input has rank %d, expected at least 2", x->rank);
    if (x && x->rank >= 0 && t && t->rank >= 0) {
        if (t->rank != x->rank - 1)
            return op_err(c, NULL, "target has rank %d, expected %d (input rank - 1)", t->rank, x->rank - 1);
        for (int i = 0; i < t->rank; i++) {
            struct ir_dim a = x->dims[i ? i + 1 : 0], b = t->dims[i];
            if (a.val >= 0 && b.val >= 0 && a.val != b.val)
                return op_err(c, NULL, "target dim %d is %lld, expected %lld", i, (long long)b.val,
                              (long long)a.val);
        }
    }
    if (w && w->rank >= 0 && x && x->rank >= 2) {
        if (w->rank != 1) return op_err(c, NULL, "weight has rank %d, expected 1", w->rank);
        if (w->dims[0].val >= 0 && x->dims[1].val >= 0 && w->dims[0].val != x->dims[1].val)
            return op_err(c, NULL, "weight has %lld values, expected %lld (classes)",
                          (long long)w->dims[0].val, (long long)x->dims[1].val);
    }
    if (!none) return op_set(c, 0, dtype, 0, NULL);
    if (t && t->rank >= 0) return op_set(c, 0, dtype, t->rank, t->dims);
    if (!x || x->rank < 0) return op_set(c, 0, dtype, -1, NULL);
    struct ir_dim d[NNPERF_MAX_RANK];
    for (int i = 0; i + 1 < x->rank; i++) d[i] = x->dims[i ? i + 1 : 0];
    return op_set(c, 0, dtype, x->rank - 1, d);
}

/* ONNX NegativeLogLikelihoodLoss-12/13. */
enum nnperf_status infer_negative_log_likelihood_loss(struct op_ctx *c)
{
    return loss_infer(c);
}

/* ONNX SoftmaxCrossEntropyLoss-12/13: the loss as NLLLoss; optional log_prob output has the scores' shape. */
enum nnperf_status infer_softmax_cross_entropy_loss(struct op_ctx *c)
{
    struct ir_value *x = op_in(c, 0);
    enum nnperf_status st = loss_infer(c);
    if (st) return st;
    return op_set_like(c, 1, x, x ? x->dtype : DT_UNDEFINED);
}
