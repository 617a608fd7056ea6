/* contrib.c - com.microsoft element-wise and normalisation operators that ONNX Runtime's transformer optimizer
 * emits: Gelu, FastGelu, BiasGelu, QuickGelu, RotaryEmbedding, SimplifiedLayerNormalization (RMSNorm),
 * SkipLayerNormalization and SkipSimplifiedLayerNormalization.
 *
 * Source of the semantics: onnxruntime docs/ContribOperators.md and the schemas (core/graph/contrib_ops/bert_defs.cc,
 * contrib_defs.cc). The attention operators are in attention.c; FusedConv, FusedMatMul and MatMulNBits in fused.c.
 *
 * Per-element FLOPs (the fpe column of op_list.def, one per arithmetic operation and per transcendental, as in
 * docs/conventions.md):
 *   Gelu 5        x/√2, erf, +1, ·x, ·0.5
 *   FastGelu 8    ONNX Runtime's function body: x·x, ·0.035677, +0.797885, ·x, tanh, +1, ·x, ·0.5
 *                 (0.797885 = √(2/π), 0.035677 = 0.044715·√(2/π)); + 1 for the bias addition when a bias is given
 *   BiasGelu 6    +bias, then Gelu (5)
 *   QuickGelu 5   x·sigmoid(alpha·x) = x / (1 + exp(-alpha·x)): ·alpha, neg, exp, +1, div
 *   RotaryEmbedding 3  x·cos + rotate(x)·sin: 2 multiplies and 1 add per rotated element (the non-rotated tail
 *                 beyond rotary_embedding_dim is charged too: an upper bound)
 *   per input element of the normalisations (op_count_input), with LayerNormalization = 8 as the reference:
 *   SkipLayerNormalization 10            input + skip (1), + bias (1), then LayerNormalization (8)
 *   SimplifiedLayerNormalization 5       x² (1), sum (1), ·1/rms (1), ·scale (1), + 1 for the per-row mean, eps,
 *                                        sqrt and reciprocal, as in LayerNormalization's 8 (the row had 6; corrected)
 *   SkipSimplifiedLayerNormalization 7   input + skip (1), + bias (1), then SimplifiedLayerNormalization (5)
 */
#include "../ops.h"

static struct ir_dim dim_at(const struct ir_value *v, int k)
{
    if (!v || v->rank <= k || k < 0 || !v->dims) return IR_DIM_UNKNOWN;
    return v->dims[k];
}

static struct ir_dim last_dim(const struct ir_value *v)
{
    return v && v->rank > 0 ? dim_at(v, v->rank - 1) : IR_DIM_UNKNOWN;
}

static int clash(struct ir_dim a, struct ir_dim b)
{
    return a.val >= 0 && b.val >= 0 && a.val != b.val;
}

/* a 1-D per-channel input (gamma, beta, bias) must have the hidden size */
static enum nnperf_status check_vec(struct op_ctx *c, const struct ir_value *v, const char *name,
                                    struct ir_dim hidden)
{
    if (!v || v->rank < 0) return NNPERF_OK;
    if (v->rank != 1) return op_err(c, NULL, "input '%s' has rank %d, expected 1", name, v->rank);
    if (clash(v->dims[0], hidden))
        return op_err(c, NULL, "input '%s' has %lld elements, the hidden size is %lld", name,
                      (long long)v->dims[0].val, (long long)hidden.val);
    return NNPERF_OK;
}

/* ---- Gelu family ---- */

/* Gelu (com.microsoft, since 1): Y = 0.5·X·(1 + erf(X/√2)), Y has X's shape. */
enum nnperf_status infer_ms_gelu(struct op_ctx *c)
{
    return op_infer_same(c);
}

/* QuickGelu (com.microsoft, since 1): Y = X·sigmoid(alpha·X), Y has X's shape. */
enum nnperf_status infer_ms_quick_gelu(struct op_ctx *c)
{
    return op_infer_same(c);
}

/* BiasGelu (com.microsoft, since 1): C = Gelu(A + B), B a 1-D bias over A's last axis (broadcast). */
enum nnperf_status infer_ms_bias_gelu(struct op_ctx *c)
{
    struct ir_value *a = op_in(c, 0), *b = op_in(c, 1);
    if (b && b->rank > 1) return op_err(c, NULL, "input 'B' (bias) has rank %d, expected 1", b->rank);
    if (clash(last_dim(a), last_dim(b)))
        return op_err(c, NULL, "bias has %lld elements, the last axis of 'A' has %lld",
                      (long long)last_dim(b).val, (long long)last_dim(a).val);
    return op_infer_bcast(c);
}

/* FastGelu (com.microsoft, since 1): Y = 0.5·x·(1 + tanh(√(2/π)·(x + 0.044715·x³))), x = X (+ bias over the last
 * axis); Y has X's shape. */
enum nnperf_status infer_ms_fast_gelu(struct op_ctx *c)
{
    struct ir_value *x = op_in(c, 0), *b = op_in(c, 1);
    if (b && b->rank > 1) return op_err(c, NULL, "input 'bias' has rank %d, expected 1", b->rank);
    if (clash(last_dim(x), last_dim(b)))
        return op_err(c, NULL, "bias has %lld elements, the last axis of 'X' has %lld",
                      (long long)last_dim(b).val, (long long)last_dim(x).val);
    return op_infer_same(c);
}

/* FastGelu: 8 FLOPs per output element (row fpe), + 1 per element for the bias addition when a bias is given. */
void count_ms_fast_gelu(struct op_ctx *c, struct ir_cost *cost)
{
    int64_t n;
    if (!ir_numel(op_out(c, 0), &n)) {
        cost->known = 0;
        return;
    }
    int id = c->n->op;
    double fpe = (id >= 0 ? op_table[id].fpe : 8.0) + (op_in(c, 1) ? 1.0 : 0.0);
    cost->macs = 0;
    cost->flops = (uint64_t)((double)n * fpe + 0.5);
}

/* ---- RotaryEmbedding (com.microsoft, since 1) ----
 * input (B, S, N·H) or (B, N, S, H); position_ids (B, S) or (1); cos_cache, sin_cache (max_seq, R/2) or
 * (B, S, R/2), R = rotary_embedding_dim (default H). Output has the input's shape. */
enum nnperf_status infer_ms_rotary_embedding(struct op_ctx *c)
{
    struct ir_value *x = op_in(c, 0), *cs = op_in(c, 2), *sn = op_in(c, 3);
    if (x && x->rank >= 0 && x->rank != 3 && x->rank != 4)
        return op_err(c, NULL, "input 'input' has rank %d, expected 3 or 4", x->rank);
    if (cs && sn && cs->rank >= 0 && sn->rank >= 0) {
        if (cs->rank != sn->rank)
            return op_err(c, NULL, "'cos_cache' has rank %d, 'sin_cache' has rank %d", cs->rank, sn->rank);
        for (int k = 0; k < cs->rank; k++)
            if (clash(cs->dims[k], sn->dims[k]))
                return op_err(c, NULL, "'cos_cache' and 'sin_cache' differ at axis %d (%lld vs %lld)", k,
                              (long long)cs->dims[k].val, (long long)sn->dims[k].val);
    }
    if (cs && cs->rank >= 0 && cs->rank != 2 && cs->rank != 3)
        return op_err(c, NULL, "input 'cos_cache' has rank %d, expected 2 or 3", cs->rank);
    int64_t heads = op_attr_int(c, "num_heads", 0);
    if (heads < 0) return op_err(c, "num_heads", "is %lld, expected a positive number", (long long)heads);
    struct ir_dim hidden = x && x->rank == 3 ? x->dims[2] : IR_DIM_UNKNOWN;
    if (heads > 0 && hidden.val >= 0 && hidden.val % heads)
        return op_err(c, "num_heads", "is %lld, which does not divide the hidden size %lld", (long long)heads,
                      (long long)hidden.val);
    /* the rotated width (2 × the caches' last dim) cannot exceed a head */
    struct ir_dim half = last_dim(cs), head = IR_DIM_UNKNOWN;
    if (x && x->rank == 4)
        head = x->dims[3];
    else if (heads > 0 && hidden.val >= 0)
        head = ir_dim_known(hidden.val / heads);
    if (half.val >= 0 && head.val >= 0 && 2 * half.val > head.val)
        return op_err(c, NULL, "'cos_cache' rotates %lld values per head, the head size is %lld",
                      (long long)(2 * half.val), (long long)head.val);
    return op_infer_same(c);
}

/* ---- normalisations ---- */

/* SimplifiedLayerNormalization (RMSNorm; ONNX Runtime registers it in the ONNX domain, since 1):
 *   X, scale -> Y (X's shape), inv_std_var (X's shape with axes axis..rank-1 set to 1; dtype from stash_type,
 *   default float). Y has scale's dtype (type V of the schema) when given, else X's. */
enum nnperf_status infer_ms_simplified_layer_normalization(struct op_ctx *c)
{
    struct ir_value *x = op_in(c, 0), *scale = op_in(c, 1);
    int dt = scale && scale->dtype ? scale->dtype : (x ? x->dtype : DT_UNDEFINED);
    enum nnperf_status st = op_set_like(c, 0, x, dt);
    if (st) return st;
    int stash = (int)op_attr_int(c, "stash_type", DT_FLOAT);
    if (!x || x->rank < 0) return op_set(c, 1, stash, -1, NULL);
    int axis;
    if (!ir_norm_axis(op_attr_int(c, "axis", -1), x->rank, &axis))
        return op_err(c, "axis", "is %lld, out of range for rank %d", (long long)op_attr_int(c, "axis", -1),
                      x->rank);
    /* scale covers the normalised axes: its trailing dims must match them */
    if (scale && scale->rank > x->rank - axis)
        return op_err(c, NULL, "'scale' has rank %d, more than the %d normalised axes", scale->rank,
                      x->rank - axis);
    if (scale && scale->rank > 0)
        for (int k = 1; k <= scale->rank; k++) {
            struct ir_dim a = x->dims[x->rank - k], b = scale->dims[scale->rank - k];
            if (clash(a, b) && b.val != 1)
                return op_err(c, NULL, "'scale' has %lld at its axis %d, the input has %lld",
                              (long long)b.val, scale->rank - k, (long long)a.val);
        }
    struct ir_dim d[NNPERF_MAX_RANK];
    for (int k = 0; k < x->rank; k++) d[k] = k >= axis ? ir_dim_known(1) : x->dims[k];
    return op_set(c, 1, stash, x->rank, d);
}

/* SkipLayerNormalization / SkipSimplifiedLayerNormalization (com.microsoft, since 1):
 *   input (B, S, H) or (tokens, H), skip (same, or (1, S, H) or (S, H)), gamma (H), [beta (H)], [bias (H)]
 *   -> output (input's shape), mean and inv_std_var (input's shape with the last axis 1, float),
 *      input_skip_bias_sum (input's shape). */
static enum nnperf_status skip_norm(struct op_ctx *c, int beta_idx, int bias_idx)
{
    struct ir_value *x = op_in(c, 0), *skip = op_in(c, 1);
    if (x && x->rank >= 0 && x->rank != 2 && x->rank != 3)
        return op_err(c, NULL, "input 'input' has rank %d, expected 3 (or 2)", x->rank);
    if (skip && skip->rank >= 0 && (skip->rank < 2 || skip->rank > 3))
        return op_err(c, NULL, "input 'skip' has rank %d, expected 3 (or 2)", skip->rank);
    struct ir_dim hidden = last_dim(x);
    if (hidden.val < 0) hidden = last_dim(skip);
    if (clash(last_dim(x), last_dim(skip)))
        return op_err(c, NULL, "'skip' has hidden size %lld, the input has %lld",
                      (long long)last_dim(skip).val, (long long)last_dim(x).val);
    /* skip broadcasts over the batch: its other dims are equal to the input's or 1 (aligned from the right) */
    if (x && skip && x->rank >= 0 && skip->rank >= 0 && skip->rank <= x->rank)
        for (int k = 2; k <= skip->rank; k++) {
            struct ir_dim a = x->dims[x->rank - k], b = skip->dims[skip->rank - k];
            if (clash(a, b) && b.val != 1)
                return op_err(c, NULL, "'skip' has %lld at axis %d, the input has %lld", (long long)b.val,
                              skip->rank - k, (long long)a.val);
        }
    enum nnperf_status st;
    if ((st = check_vec(c, op_in(c, 2), "gamma", hidden))) return st;
    if (beta_idx >= 0 && (st = check_vec(c, op_in(c, beta_idx), "beta", hidden))) return st;
    if ((st = check_vec(c, op_in(c, bias_idx), "bias", hidden))) return st;
    const struct ir_value *shape = x && x->rank >= 0 ? x : skip;
    int dt = x ? x->dtype : DT_UNDEFINED;
    if ((st = op_set_like(c, 0, shape, dt))) return st;
    if ((st = op_set_like(c, 3, shape, dt))) return st;
    if (!shape || shape->rank < 1) {
        if ((st = op_set(c, 1, DT_FLOAT, -1, NULL))) return st;
        return op_set(c, 2, DT_FLOAT, -1, NULL);
    }
    struct ir_dim d[NNPERF_MAX_RANK];
    for (int k = 0; k < shape->rank; k++) d[k] = shape->dims[k];
    d[shape->rank - 1] = ir_dim_known(1);
    if ((st = op_set(c, 1, DT_FLOAT, shape->rank, d))) return st;
    return op_set(c, 2, DT_FLOAT, shape->rank, d);
}

enum nnperf_status infer_ms_skip_layer_normalization(struct op_ctx *c)
{
    return skip_norm(c, 3, 4); /* input, skip, gamma, beta, bias */
}

enum nnperf_status infer_ms_skip_simplified_layer_normalization(struct op_ctx *c)
{
    return skip_norm(c, -1, 3); /* input, skip, gamma, bias */
}
