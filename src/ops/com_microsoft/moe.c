/* moe.c - com.microsoft MoE (ONNX Runtime contrib op, the mixture-of-experts feed-forward of Mixtral, Qwen-MoE
 * and the like as ONNX Runtime GenAI's model builder exports it; docs/sources.md [ORT-CONTRIB-MOE]):
 * input [rows, hidden] (or [batch, seq, hidden]), router_probs [rows, experts], fc1_experts_weights [experts, ...],
 * optional fc1 bias, fc2_experts_weights, optional fc2 bias, optional fc3_experts_weights (the gate of a SwiGLU
 * expert), optional fc3 bias; attribute k (experts per token). The output has the input's shape. */
#include <math.h>

#include "../ops.h"

/* the checks of MoE and QMoE: fc2_experts_weights is input i2 */
static enum nnperf_status infer_moe_like(struct op_ctx *c, int i2)
{
    struct ir_value *x = op_in(c, 0), *r = op_in(c, 1), *w1 = op_in(c, 2), *w2 = op_in(c, i2);
    int64_t k = op_attr_int(c, "k", 1);
    if (!w1 || !w2)
        return op_err(c, NULL, "needs fc1_experts_weights (input 2) and fc2_experts_weights (input %d)", i2);
    if (w1->rank >= 0 && w1->rank != 3)
        return op_err(c, NULL, "input 'fc1_experts_weights' has rank %d, expected 3 (experts, ...)",
                      w1->rank);
    if (w2->rank >= 0 && w2->rank != 3)
        return op_err(c, NULL, "input 'fc2_experts_weights' has rank %d, expected 3 (experts, ...)",
                      w2->rank);
    int64_t e = w1->rank == 3 ? w1->dims[0].val : -1;
    if (k < 1 || (e > 0 && k > e))
        return op_err(c, "k", "is %lld, expected 1 to the %lld experts", (long long)k, (long long)e);
    if (r && r->rank >= 1 && e > 0 && r->dims[r->rank - 1].val > 0 && r->dims[r->rank - 1].val != e)
        return op_err(c, NULL, "input 'router_probs' has %lld experts, fc1_experts_weights %lld",
                      (long long)r->dims[r->rank - 1].val, (long long)e);
    if (x && x->rank >= 0 && x->rank != 2 && x->rank != 3)
        return op_err(c, NULL, "input 'input' has rank %d, expected 2 or 3", x->rank);
    return op_infer_same(c);
}

enum nnperf_status infer_ms_moe(struct op_ctx *c)
{
    return infer_moe_like(c, 4);
}

/* com.microsoft QMoE: MoE with quantized expert weights: input, router_probs, fc1_experts_weights (uint8 codes,
 * expert_weight_bits 4 or 8 per weight), fc1_scales, fc1_experts_bias, fc2_experts_weights, fc2_scales,
 * fc2_experts_bias, fc3_experts_weights, fc3_scales, fc3_experts_bias; the output has the input's shape */
enum nnperf_status infer_ms_q_moe(struct op_ctx *c)
{
    int64_t bits = op_attr_int(c, "expert_weight_bits", 4);
    if (bits != 4 && bits != 8)
        return op_err(c, "expert_weight_bits", "is %lld, expected 4 or 8", (long long)bits);
    return infer_moe_like(c, 5);
}

/* per expert: the elements of one expert's slice of the inputs 2..end-1 (only those listed in `only` when given) */
static int expert_params(struct op_ctx *c, int end, const int *only, int64_t *per_expert, int64_t *experts)
{
    *per_expert = 0, *experts = 0;
    for (int i = 2; i < end && i < op_n_in(c); i++) {
        const struct ir_value *w = op_in(c, i);
        int64_t n;
        if (!w || (only && !only[i])) continue;
        if (w->rank < 1 || !ir_numel(w, &n) || w->dims[0].val <= 0) return 0;
        if (!*experts) *experts = w->dims[0].val;
        *per_expert += n / w->dims[0].val;
    }
    return *experts > 0;
}

double op_moe_experts_touched(double experts, double k, double rows)
{
    if (experts <= 0 || k <= 0 || rows <= 0) return 0;
    double t = experts * (1.0 - pow(1.0 - k / experts, rows));
    return t > experts ? experts : t;
}

/* MACs = rows x k x (one expert's weight elements): each token runs its k experts.
 * FLOPs beyond: the activation and the weighted sum, 4 per row x k x hidden.
 * Weights read: only the experts some token is routed to, E x (1 - (1 - k/E)^rows) of them in expectation with
 * uniform routing (one token: k experts; many: all of them), as params_read. */
void count_ms_moe(struct op_ctx *c, struct ir_cost *cost)
{
    int64_t k = op_attr_int(c, "k", 1), per, e, n;
    const struct ir_value *x = op_in(c, 0);
    if (!x || x->rank < 1 || !ir_numel(x, &n) || x->dims[x->rank - 1].val <= 0 ||
        !expert_params(c, 8, NULL, &per, &e)) {
        cost->known = 0;
        return;
    }
    int64_t hidden = x->dims[x->rank - 1].val, rows = n / hidden;
    cost->macs = ck_sat_mul(ck_sat_mul((uint64_t)rows, (uint64_t)k), (uint64_t)per);
    cost->flops = ck_sat_mul(4, ck_sat_mul(ck_sat_mul((uint64_t)rows, (uint64_t)k), (uint64_t)hidden));
    double touched = op_moe_experts_touched((double)e, (double)k, (double)rows);
    cost->params_read = (uint64_t)llround(touched * (double)per);
}

/* QMoE: MACs = rows x k x (one expert's weights: its fc1, fc2, fc3 codes x 8 / expert_weight_bits); other FLOPs as
 * MoE's plus the dequantisation, 2 per weight of the experts read; weights read: the routed experts' codes,
 * scales and biases (E x (1 - (1 - k/E)^rows) of them), as params_read. */
void count_ms_q_moe(struct op_ctx *c, struct ir_cost *cost)
{
    static const int codes[11] = {[2] = 1, [5] = 1, [8] = 1};
    int64_t k = op_attr_int(c, "k", 1), bits = op_attr_int(c, "expert_weight_bits", 4), per, all, e, e2, n;
    const struct ir_value *x = op_in(c, 0);
    if (!x || x->rank < 1 || !ir_numel(x, &n) || x->dims[x->rank - 1].val <= 0 || (bits != 4 && bits != 8) ||
        !expert_params(c, 11, codes, &per, &e) || !expert_params(c, 11, NULL, &all, &e2)) {
        cost->known = 0;
        return;
    }
    int64_t hidden = x->dims[x->rank - 1].val, rows = n / hidden;
    uint64_t w = ck_sat_mul((uint64_t)per, (uint64_t)(8 / bits)),
             routed = ck_sat_mul((uint64_t)rows, (uint64_t)k);
    double touched = op_moe_experts_touched((double)e, (double)k, (double)rows);
    cost->macs = ck_sat_mul(routed, w);
    cost->flops = ck_sat_add(ck_sat_mul(4, ck_sat_mul(routed, (uint64_t)hidden)),
                             (uint64_t)llround(2.0 * touched * (double)w));
    cost->params_read = (uint64_t)llround(touched * (double)all);
}
