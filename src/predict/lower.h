/* lower.h - what the lowering stage's rules share (lower.c holds the stage and its table lower_rules[]; rules may
 * live in files of their own: lower_decoder.c). docs/design.md "Adding a lowering rule". */
#ifndef NNPERF_LOWER_H
#define NNPERF_LOWER_H

#include "predict.h"

struct lower {
    struct nnperf_prediction *p;
    struct ir_graph *g; /* the prediction's own copy, rewritten */
    signed char *qdt;   /* per node: the enum hw_dtype of the graph's quantization it computes at, or QDT_* */
};

/* node k becomes a view of its first input: no layer, no work; its consumers read in[0] (outputs past the first,
 * a DynamicQuantizeLinear's scale and zero point, read as omitted) */
void pr_lower_view(struct lower *x, int k);

/* decoder rules (lower_decoder.c) */
int pr_gate_kv_append(int op);
int pr_wants_kv_append(const struct ir_node *nd);
enum nnperf_status pr_run_kv_append(struct lower *x);
int pr_gate_repeat_kv(int op);
int pr_wants_repeat_kv(const struct ir_node *nd);
enum nnperf_status pr_run_repeat_kv(struct lower *x);
int pr_gate_attention_mask(int op);
int pr_wants_attention_mask(const struct ir_node *nd);
enum nnperf_status pr_run_attention_mask(struct lower *x);

/* mixture of experts (lower_moe.c) */
int pr_gate_moe_block(int op);
int pr_wants_moe_block(const struct ir_node *nd);
enum nnperf_status pr_run_moe_block(struct lower *x);

#endif
