/* whatif.c - the pipeline's inputs: per-node work copied from the analysis, with a what-if (whatif.h) applied to
 * the copy before any stage runs. A what-if lists a few changes, so applying it is a scan per change. */
#include <stdio.h>
#include <string.h>

#include "predict.h"

int pr_node_class(const struct ir_node *nd)
{
    int klass = nd->op >= 0 ? op_table[nd->op].klass : OC_OTHER;
    if (klass == OC_CONV) /* grouped and depthwise convolutions are classes of their own */
        for (int a = 0; a < nd->n_attr; a++)
            if (!strcmp(nd->attrs[a].name, "group") && nd->attrs[a].i > 1) {
                const struct ir_value *wt = nd->n_in > 1 ? nd->in[1] : NULL;
                int dw = wt && wt->rank >= 2 && wt->dims[1].val == 1;
                klass = dw ? OC_CONV_DEPTHWISE : OC_CONV_GROUPED;
            }
    return klass;
}

int pr_global_pool(const struct ir_node *nd)
{
    return nd->op == OPID_GLOBAL_AVERAGE_POOL || nd->op == OPID_GLOBAL_MAX_POOL ||
           nd->op == OPID_GLOBAL_LP_POOL;
}

struct pr_change *pr_whatif_add(struct arena *ar, struct nnperf_whatif *w, int kind)
{
    if (w->n == w->cap) {
        int nc = w->cap ? w->cap * 2 : 8;
        struct pr_change *c = ar_calloc(ar, (size_t)nc, sizeof *c);
        if (!c) return NULL;
        if (w->n) memcpy(c, w->c, (size_t)w->n * sizeof *c);
        w->c = c;
        w->cap = nc;
    }
    struct pr_change *c = &w->c[w->n++];
    memset(c, 0, sizeof *c);
    c->kind = kind;
    c->node = -1;
    c->mac = c->vec = c->params = c->factor = 1.0;
    return c;
}

/* the platform copy runs op: drop it from the unsupported list, add it to an explicit supported list */
static void allow_op(struct hw_desc *hw, const char *op)
{
    for (int i = 0; i < hw->n_unsupported; i++)
        if (!strcmp(hw->unsupported[i], op)) {
            memmove(hw->unsupported[i], hw->unsupported[i + 1],
                    (size_t)(hw->n_unsupported - i - 1) * sizeof hw->unsupported[0]);
            hw->n_unsupported--;
            i--;
        }
    if (hw->n_supported > 0 && !hw_supports(hw, op) && hw->n_supported < HW_MAX_OPS) {
        snprintf(hw->supported[hw->n_supported], sizeof hw->supported[0], "%s", op);
        hw->n_supported++;
    }
}

static struct pr_value_in *value_slot(struct nnperf_prediction *p, const struct ir_value *v, int cap)
{
    for (int i = 0; i < p->n_val_in; i++)
        if (p->val_in[i].v == v) return &p->val_in[i];
    if (p->n_val_in == cap) return NULL;
    struct pr_value_in *s = &p->val_in[p->n_val_in++];
    *s = (struct pr_value_in){v, 0, 1.0, 0};
    return s;
}

/* a node's MAC and vector operations as the analysis counted them */
static double counted_mac(const struct ir_node *nd)
{
    return 2.0 * (double)nd->cost.macs;
}

static double counted_vec(const struct ir_node *nd)
{
    return (double)(nd->cost.flops - 2 * nd->cost.macs);
}

/* a node's work and weights as the analysis counted them */
static struct pr_node_work counted_work(const struct ir_node *nd)
{
    struct pr_node_work w = {counted_mac(nd), counted_vec(nd), (double)nd->cost.params_read, 0};
    /* packed codes in uint8 move their stored bytes at any dtype: MatMulNBits' B (4-bit, or 2/8), QMoE's expert
     * weights (as many of them as its params_read reads: the routed experts) */
    static const signed char nbits_b[] = {1, -1}, qmoe_w[] = {2, 5, 8, -1};
    const signed char *packed = nd->op == OPID_MS_MAT_MUL_N_BITS ? nbits_b
                                : nd->op == OPID_MS_Q_MOE        ? qmoe_w
                                                                 : NULL;
    if (!packed) return w;
    double share = nd->cost.params ? (double)nd->cost.params_read / (double)nd->cost.params : 1;
    for (int i = 0; packed[i] >= 0 && packed[i] < nd->n_in; i++) {
        const struct ir_value *b = nd->in[packed[i]];
        int64_t nb;
        if (!b || !((b->flags & IR_V_INIT) || b->is_const == 1) || !ir_numel(b, &nb)) continue;
        w.params -= (double)nb * share;
        w.packed_bytes += (double)nb * share * ir_dtype_bits(b->dtype) / 8.0;
    }
    return w;
}

struct pr_node_work pr_node_work(const struct nnperf_prediction *p, int k)
{
    return p->node_work ? p->node_work[k] : counted_work(p->g->nodes[k]);
}

double pr_node_mac(const struct nnperf_prediction *p, int k)
{
    return p->node_work ? p->node_work[k].mac_ops : counted_mac(p->g->nodes[k]);
}

double pr_node_vec(const struct nnperf_prediction *p, int k)
{
    return p->node_work ? p->node_work[k].vec_ops : counted_vec(p->g->nodes[k]);
}

enum nnperf_status pr_node_work_own(struct nnperf_prediction *p)
{
    int n = p->g->n_nodes;
    if (p->node_work) return NNPERF_OK;
    struct pr_node_work *wk = ar_calloc(&p->ar, (size_t)(n ? n : 1), sizeof *wk);
    if (!wk) return diag_set(&p->d, NNPERF_E_NOMEM, "out of memory");
    for (int k = 0; k < n; k++) wk[k] = counted_work(p->g->nodes[k]);
    p->node_work = wk;
    return NNPERF_OK;
}

enum nnperf_status pr_inputs(struct nnperf_prediction *p, const struct nnperf_whatif *w)
{
    const struct ir_graph *g = p->g;
    int n = g->n_nodes;
    p->node_in = ar_calloc(&p->ar, (size_t)(n ? n : 1), sizeof *p->node_in);
    if (!p->node_in) return diag_set(&p->d, NNPERF_E_NOMEM, "out of memory");
    for (int k = 0; k < n; k++) {
        p->node_in[k].klass = (signed char)pr_node_class(g->nodes[k]);
        p->node_in[k].dtype = -1;
    }
    if (!w) return NNPERF_OK;
    for (int i = 0; i < w->n; i++)
        if ((w->c[i].kind == WI_SCALE_NODE || w->c[i].kind == WI_DROP) && pr_node_work_own(p))
            return NNPERF_E_NOMEM;
    p->val_in = ar_calloc(&p->ar, (size_t)(w->n ? w->n : 1), sizeof *p->val_in);
    p->groups = ar_calloc(&p->ar, (size_t)(w->n ? w->n : 1), sizeof *p->groups);
    if (!p->val_in || !p->groups) return diag_set(&p->d, NNPERF_E_NOMEM, "out of memory");
    for (int i = 0; i < w->n; i++) {
        const struct pr_change *c = &w->c[i];
        struct pr_node_in *in = c->node >= 0 && c->node < n ? &p->node_in[c->node] : NULL;
        struct pr_node_work *wk = in && p->node_work ? &p->node_work[c->node] : NULL;
        struct pr_value_in *vi;
        switch (c->kind) {
        case WI_SUPPORT_OP:
            if (c->op) allow_op(p->hw_own, c->op);
            break;
        case WI_FUSE: p->groups[p->n_groups++] = (struct pr_group_in){c->nodes, c->n_nodes}; break;
        case WI_CHANNELS:
            if ((vi = value_slot(p, c->v, w->n)) != NULL) {
                vi->channels = c->n;
                vi->bytes_scale = c->factor;
            }
            break;
        case WI_PIN:
            if ((vi = value_slot(p, c->v, w->n)) != NULL) vi->pinned = 1;
            break;
        case WI_UNPAD:
            if (in) in->unpadded = 1;
            break;
        case WI_SCALE_NODE:
            if (wk) {
                wk->mac_ops *= c->mac;
                wk->vec_ops *= c->vec;
                wk->params *= c->params;
                wk->packed_bytes *= c->params;
            }
            break;
        case WI_GROUPED:
            if (in) in->klass = OC_CONV_GROUPED;
            break;
        case WI_DROP:
            if (wk) wk->mac_ops = wk->vec_ops = wk->params = wk->packed_bytes = 0;
            if (in) in->dropped = 1;
            break;
        default: break;
        }
    }
    return NNPERF_OK;
}

const struct pr_value_in *pr_value(const struct nnperf_prediction *p, const struct ir_value *v)
{
    for (int i = 0; i < p->n_val_in; i++)
        if (p->val_in[i].v == v) return &p->val_in[i];
    return NULL;
}
