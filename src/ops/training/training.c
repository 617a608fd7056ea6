/* training.c - operators of the ai.onnx.preview.training domain: the optimizers Adagrad, Momentum and Adam
 * (one update per optimized tensor; outputs have their inputs' shapes) and Gradient (one output per 'xs' name,
 * shaped like that tensor). Optimizer cost: fpe (op_list.def) FLOPs per element of the optimized tensors. */
#include <string.h>

#include "../ops.h"

/* Inputs: R, T, then 'groups' groups of n tensors (X, G[, V][, H]); outputs: groups-1 groups of n tensors:
 * group 0 is the new X (shaped like input group 0) and group j >= 1 the new state of input group j+1. */
static enum nnperf_status infer_optimizer(struct op_ctx *c, int groups, const char *layout)
{
    int nin = op_n_in(c) - 2;
    if (nin <= 0 || nin % groups)
        return op_err(c, NULL, "has %d inputs, expected R, T and %d groups of tensors (%s)", op_n_in(c),
                      groups, layout);
    int n = nin / groups;
    if (c->n->n_out != n * (groups - 1))
        return op_err(c, NULL, "has %d outputs, expected %d for %d optimized tensors", c->n->n_out,
                      n * (groups - 1), n);
    for (int i = 0; i < n; i++) {
        struct ir_value *x = op_in(c, 2 + i);
        for (int g = 1; g < groups && x && x->rank >= 0; g++) {
            struct ir_value *y = op_in(c, 2 + g * n + i);
            if (!y || y->rank < 0) continue;
            int same = y->rank == x->rank;
            for (int k = 0; same && k < x->rank; k++)
                if (x->dims[k].val >= 0 && y->dims[k].val >= 0 && x->dims[k].val != y->dims[k].val) same = 0;
            if (!same)
                return op_err(c, NULL, "input %d has a shape different from the tensor it updates",
                              2 + g * n + i);
        }
    }
    for (int j = 0; j < groups - 1; j++)
        for (int i = 0; i < n; i++) {
            struct ir_value *src = op_in(c, 2 + (j ? j + 1 : 0) * n + i);
            enum nnperf_status st = op_set_like(c, j * n + i, src, src ? src->dtype : DT_UNDEFINED);
            if (st) return st;
        }
    return NNPERF_OK;
}

/* ai.onnx.preview.training Adagrad-1: R, T, X1..n, G1..n, H1..n -> X1..n_new, H1..n_new */
enum nnperf_status infer_adagrad(struct op_ctx *c)
{
    return infer_optimizer(c, 3, "X, G, H");
}

/* Momentum-1: R, T, X1..n, G1..n, V1..n -> X_new, V_new */
enum nnperf_status infer_momentum(struct op_ctx *c)
{
    return infer_optimizer(c, 3, "X, G, V");
}

/* Adam-1: R, T, X1..n, G1..n, V1..n, H1..n -> X_new, V_new, H_new */
enum nnperf_status infer_adam(struct op_ctx *c)
{
    return infer_optimizer(c, 4, "X, G, V, H");
}

/* fpe FLOPs per element of the optimized tensors X1..n */
void count_optimizer(struct op_ctx *c, struct ir_cost *cost)
{
    int groups = c->n->op == OPID_TR_ADAM ? 4 : 3;
    int n = (op_n_in(c) - 2) / groups;
    double fpe = c->n->op >= 0 ? op_table[c->n->op].fpe : 0.0;
    uint64_t total = 0;
    for (int i = 0; i < n; i++) {
        int64_t e;
        if (!ir_numel(op_in(c, 2 + i), &e)) {
            cost->known = 0;
            return;
        }
        total = ck_sat_add(total, (uint64_t)e);
    }
    cost->macs = 0;
    cost->flops = (uint64_t)((double)total * fpe + 0.5);
}

/* Gradient-1: output i is the gradient of 'y' with respect to the tensor named xs[i], shaped like it */
enum nnperf_status infer_gradient(struct op_ctx *c)
{
    const struct ir_attr *xs = op_attr_typed(c, "xs", AT_STRINGS);
    if (!xs || xs->type != AT_STRINGS) return op_err(c, "xs", "is missing");
    if (!op_attr(c, "y")) return op_err(c, "y", "is missing");
    if (xs->n != c->n->n_out)
        return op_err(c, "xs", "has %lld names for %d outputs", (long long)xs->n, c->n->n_out);
    for (int i = 0; i < c->n->n_out; i++) {
        const struct ir_value *v = NULL;
        for (int k = 0; k < op_n_in(c) && !v; k++)
            if (op_in(c, k) && op_in(c, k)->name && !strcmp(op_in(c, k)->name, xs->strings[i]))
                v = op_in(c, k);
        if (!v) v = ir_lookup(c->n->graph, xs->strings[i]);
        enum nnperf_status st = op_set_like(c, i, v, v ? v->dtype : DT_UNDEFINED);
        if (st) return st;
    }
    return NNPERF_OK;
}
