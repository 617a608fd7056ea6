/* program.c - the layer program: groups the analysed ONNX graph (nodes in execution order, shapes inferred) into
 * MAX7800x accelerator layers the way ai8x-synthesis describes a network: one convolution or linear operation per
 * layer, with pooling in front of it, element-wise operations (2-16 operands) in flight before it, the activation
 * after it, and flatten in front of a linear layer. Views (Identity, Dropout, zero Pad, Reshape, Squeeze) cost
 * nothing; BatchNormalization after a convolution is folded into it (ai8x-training folds BN before synthesis).
 * What the accelerator cannot do is listed in plan->problems, every operator and parameter at once.
 *
 * Rules and limits: [AI8X-SYNTHESIS] (docs/sources.md), README "Limitations"; the numbers are in device.c. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../onnx/onnx.h"
#include "../ops/ops.h"
#include "mcu.h"

enum { VT_REAL, VT_POOLED, VT_ELT, VT_FLAT, VT_CONCAT, VT_BAD, VT_CONST };

/* What a tensor of the graph is to the accelerator: a layer's output in data memory (REAL) or a view of one that
 * the next layer computes in flight (pooled, element-wise, flattened, concatenated). */
struct vt {
    const struct ir_value *v;
    int kind;
    int layer;                 /* VT_REAL: producing layer, -1 = the model input */
    int pool, pkh, pkw, pstr;  /* VT_POOLED */
    int src;                   /* VT_POOLED, VT_FLAT: source entry */
    int elt, n_ops;            /* VT_ELT, VT_CONCAT */
    int ops[MCU_MAX_OPERANDS]; /* operand entries */
    int c, h, w;               /* shape: channels, rows, columns (1D: w = 1; flat: c = features) */
    int rank;
};

struct builder {
    struct mcu_plan *p;
    const struct ir_model *m; /* for the values of small initializers */
    struct diag *d;
    struct vt *vt;
    int n_vt, cap_vt;
};

void mcu_msg_add(struct mcu_msgs *ms, int res, int layer, const char *fmt, ...)
{
    if (!ms) return;
    if (ms->n == MCU_MAX_MSGS) {
        ms->dropped++;
        return;
    }
    struct mcu_msg *m = &ms->m[ms->n++];
    m->res = res;
    m->layer = layer;
    va_list ap;
    va_start(ap, fmt);
    c_vsnprintf(m->text, sizeof m->text, fmt, ap);
    va_end(ap);
}

static const struct ir_attr *attr(const struct ir_node *n, const char *name)
{
    for (int i = 0; i < n->n_attr; i++)
        if (!strcmp(n->attrs[i].name, name)) return &n->attrs[i];
    return NULL;
}

static int64_t attr_int(const struct ir_node *n, const char *name, int64_t def)
{
    const struct ir_attr *a = attr(n, name);
    return a && a->type == AT_INT ? a->i : def;
}

/* ints attribute: all values equal to *v (returns 1), absent (returns 1, *v = def), or differing (returns 0 and
 * *v = the first). */
static int attr_same(const struct ir_node *n, const char *name, int64_t def, int64_t *v)
{
    const struct ir_attr *a = attr(n, name);
    *v = def;
    if (!a || a->type != AT_INTS || a->n == 0) return 1;
    *v = a->ints[0];
    for (int64_t i = 1; i < a->n; i++)
        if (a->ints[i] != a->ints[0]) return 0;
    return 1;
}

static int find_vt(struct builder *b, const struct ir_value *v)
{
    for (int i = b->n_vt - 1; i >= 0; i--)
        if (b->vt[i].v == v) return i;
    return -1;
}

static int dim_of(const struct ir_value *v, int i)
{
    if (!v || i >= v->rank || v->dims[i].val < 0 || v->dims[i].val > 1000000000) return -1;
    return (int)v->dims[i].val;
}

/* New entry for v with its shape (NCHW, NCL or N x features). */
static int add_vt(struct builder *b, const struct ir_value *v, int kind)
{
    if (b->n_vt == b->cap_vt) {
        int nc = b->cap_vt ? b->cap_vt * 2 : 64;
        struct vt *n = realloc(b->vt, (size_t)nc * sizeof *n);
        if (!n) return -1;
        b->vt = n;
        b->cap_vt = nc;
    }
    struct vt *t = &b->vt[b->n_vt];
    memset(t, 0, sizeof *t);
    t->v = v;
    t->kind = kind;
    t->layer = -2;
    t->src = -1;
    t->rank = v ? v->rank : 0;
    t->c = dim_of(v, 1);
    t->h = t->rank >= 3 ? dim_of(v, 2) : 1;
    t->w = t->rank >= 4 ? dim_of(v, 3) : 1;
    if (t->rank == 2) t->c = dim_of(v, 1);
    return b->n_vt++;
}

static struct mcu_layer *new_layer(struct builder *b, const struct ir_node *n)
{
    struct mcu_plan *p = b->p;
    if (p->n_layers == MCU_MAX_LAYERS) {
        diag_set(b->d, NNPERF_E_LIMIT, "more than %d accelerator layers: not a model for a MAX7800x",
                 MCU_MAX_LAYERS);
        return NULL;
    }
    struct mcu_layer *l = &p->layers[p->n_layers++];
    memset(l, 0, sizeof *l);
    l->name = n ? n->name : "";
    l->nodes = n ? n->name : "";
    l->op = MCU_OP_NONE;
    l->kh = l->kw = 1;
    l->stride = l->groups = l->dilation = 1;
    l->pool_first = 1;
    l->bias_group = -1;
    l->output_width = 8;
    return l;
}

static void add_node_name(struct builder *b, struct mcu_layer *l, const struct ir_node *n)
{
    const char *s = ar_printf(&b->p->ar, "%s, %s", l->nodes, n->name);
    if (s) l->nodes = s;
}

static int materialize(struct builder *b, int x, const struct ir_node *n);
static int prepare(struct builder *b, int x, const struct ir_node *n);

/* Fills l's inputs (operands, pooling, element-wise, flatten) from entry x, materializing what a single layer
 * cannot read in flight. Returns 0, or -1 on error (recorded in b->d). */
static int resolve(struct builder *b, int x, struct mcu_layer *l, const struct ir_node *n)
{
    struct vt *t = &b->vt[x];
    switch (t->kind) {
    case VT_REAL:
        l->n_in = 1;
        l->in_seq[0] = t->layer;
        l->in_ch = t->c, l->in_h = t->h, l->in_w = t->w;
        l->pooled_h = t->h, l->pooled_w = t->w;
        return 0;
    case VT_FLAT: {
        int s = t->src;
        if (b->vt[s].kind == VT_FLAT) s = b->vt[s].src;
        /* flatten cannot pool: pooling to more than 1x1 runs in a pass-through layer in front */
        if (b->vt[s].kind == VT_POOLED && (b->vt[s].h > 1 || b->vt[s].w > 1) && materialize(b, s, n) < -1)
            return -1;
        if (resolve(b, s, l, n)) return -1;
        l->flatten = l->pooled_h * l->pooled_w > 1; /* a flatten of 1x1 is no flatten */
        return 0;
    }
    case VT_POOLED: {
        int s = t->src;
        struct vt *st = &b->vt[s];
        if (st->kind == VT_ELT) {
            int ok = 1;
            for (int i = 0; i < st->n_ops; i++) ok &= b->vt[st->ops[i]].kind == VT_REAL;
            if (!ok || resolve(b, s, l, n)) {
                int r = materialize(b, s, n);
                if (r < -1) return -1;
                l->elt = MCU_ELT_NONE;
                l->n_in = 1;
                l->in_seq[0] = r;
                st = &b->vt[s];
                l->in_ch = st->c, l->in_h = st->h, l->in_w = st->w;
            } else
                l->pool_first = 0;
        } else {
            if (st->kind != VT_REAL && materialize(b, s, n) < -1) return -1;
            st = &b->vt[s];
            l->n_in = 1;
            l->in_seq[0] = st->layer;
            l->in_ch = st->c, l->in_h = st->h, l->in_w = st->w;
        }
        t = &b->vt[x];
        l->pool = t->pool, l->pool_kh = t->pkh, l->pool_kw = t->pkw, l->pool_stride = t->pstr;
        l->pooled_h = t->h, l->pooled_w = t->w;
        return 0;
    }
    case VT_ELT:
    case VT_CONCAT: {
        int pool = 0, pkh = 0, pkw = 0, pstr = 0, pooled = 0;
        /* pooled operands are pooled in flight when they all pool alike (pool_first) */
        for (int i = 0; i < t->n_ops; i++) {
            struct vt *o = &b->vt[t->ops[i]];
            if (o->kind == VT_POOLED && b->vt[o->src].kind == VT_REAL) {
                if (!pooled) pool = o->pool, pkh = o->pkh, pkw = o->pkw, pstr = o->pstr;
                pooled++;
            }
        }
        int alike = t->kind == VT_ELT && pooled == t->n_ops;
        for (int i = 0; i < t->n_ops; i++) {
            struct vt *o = &b->vt[t->ops[i]];
            if (alike && (o->pool != pool || o->pkh != pkh || o->pkw != pkw || o->pstr != pstr)) alike = 0;
        }
        int c = 0;
        for (int i = 0; i < t->n_ops; i++) {
            int oi = t->ops[i];
            struct vt *o = &b->vt[oi];
            int li;
            if (alike) {
                li = b->vt[o->src].layer;
                o = &b->vt[o->src];
            } else {
                li = materialize(b, oi, n);
                if (li < -1) return -1;
                o = &b->vt[oi];
            }
            l->in_seq[i] = li;
            if (i == 0) l->in_h = o->h, l->in_w = o->w;
            c = t->kind == VT_CONCAT ? c + o->c : o->c;
        }
        t = &b->vt[x];
        l->n_in = t->n_ops;
        l->elt = t->kind == VT_ELT ? t->elt : MCU_ELT_NONE;
        l->in_ch = c;
        l->pooled_h = t->h, l->pooled_w = t->w;
        if (alike) l->pool = pool, l->pool_kh = pkh, l->pool_kw = pkw, l->pool_stride = pstr;
        return 0;
    }
    default: return -1;
    }
}

/* Materializes what reading entry x needs (layers that must run before the reader), so that the reader's own
 * layer, allocated next, comes after them in execution order. */
static int prepare(struct builder *b, int x, const struct ir_node *n)
{
    struct mcu_layer tmp;
    memset(&tmp, 0, sizeof tmp);
    return resolve(b, x, &tmp, n);
}

/* The layer of node n that reads entry x: what reading x needs runs first (prepare), then the layer is allocated
 * and its inputs filled (resolve). Returns its index, or -1 on error (recorded in b->d). */
static int reader_layer(struct builder *b, int x, const struct ir_node *n)
{
    if (prepare(b, x, n)) return -1;
    struct mcu_layer *l = new_layer(b, n);
    if (!l || resolve(b, x, l, n)) return -1;
    return (int)(l - b->p->layers);
}

/* Makes entry x a layer output: a pass-through layer (operation none) doing its pooling / element-wise work.
 * Returns the producing layer, or -2 on error. */
static int materialize(struct builder *b, int x, const struct ir_node *n)
{
    if (b->vt[x].kind == VT_REAL) return b->vt[x].layer;
    int li = reader_layer(b, x, n);
    if (li < 0) return -2;
    struct mcu_layer *l = &b->p->layers[li];
    l->op = MCU_OP_NONE;
    struct vt *t = &b->vt[x];
    l->out_ch = l->in_ch;
    l->out_h = t->kind == VT_FLAT ? 1 : l->pooled_h;
    l->out_w = t->kind == VT_FLAT ? 1 : l->pooled_w;
    t->kind = VT_REAL;
    t->layer = li;
    t->c = l->out_ch, t->h = l->out_h, t->w = l->out_w;
    return li;
}

static void unsupported(struct builder *b, const struct ir_node *n, const char *fmt, const char *detail)
{
    char buf[300];
    snprintf(buf, sizeof buf, fmt, detail ? detail : "");
    mcu_msg_add(b->p->problems, MCU_R_OPERATOR, -1, "node '%s' (%s): %s", n->name, n->op_type, buf);
}

static int is_graph_output(const struct ir_value *v)
{
    return (v->flags & IR_V_OUTPUT) != 0;
}

/* a value that does not depend on the model input: an initializer, a Constant, or computed from those only */
static int is_constant(struct builder *b, const struct ir_value *v)
{
    if (!v) return 0;
    if ((v->flags & IR_V_INIT) || v->is_const == 1 || (v->producer && v->producer->op == OPID_CONSTANT))
        return 1;
    int e = find_vt(b, v);
    return e >= 0 && b->vt[e].kind == VT_CONST;
}

/* The value of a one-element constant: propagated by the analysis, or read from a small initializer (into a copy of
 * its value, so the analysed graph is not changed). Returns 0 when it is not known. */
static int const_scalar(struct builder *b, const struct ir_value *v, double *out)
{
    if (!v) return 0;
    if (v->fv && v->nv == 1) return *out = v->fv[0], 1;
    if (v->iv && v->nv == 1 && v->iv[0].known) return *out = (double)v->iv[0].v, 1;
    int64_t numel;
    if (!(v->flags & IR_V_INIT) || !b->m || !ir_numel(v, &numel) || numel != 1) return 0;
    struct ir_value t = *v;
    struct diag quiet = {0};
    t.iv = NULL, t.fv = NULL;
    if (ox_decode_values(b->m, &b->p->ar, &t, &quiet) != NNPERF_OK || t.nv != 1) return 0;
    if (t.fv) return *out = t.fv[0], 1;
    if (t.iv && t.iv[0].known) return *out = (double)t.iv[0].v, 1;
    return 0;
}

/* ai8x-training's QAT export computes each layer's weights in the graph and rounds them to the layer's bits b:
 * x * 2^(b-1), Round, / 2^(b-1), and in the plain export the clamp (two Clips) after it ([AI8X-TRAINING]:
 * QuantizeONNX, quantize_clamp_parameters). Returns b (8, 4, 2 or 1) when weight w is computed so, else 0. */
static int qat_weight_bits(struct builder *b, const struct ir_value *w)
{
    const struct ir_node *n = w ? w->producer : NULL;
    for (int k = 0; k < 2 && n && n->op == OPID_CLIP; k++)
        n = n->n_in > 0 && n->in[0] ? n->in[0]->producer : NULL;
    double f, g;
    if (!n || n->op != OPID_DIV || n->n_in < 2 || !n->in[0] || !const_scalar(b, n->in[1], &f)) return 0;
    const struct ir_node *r = n->in[0]->producer;
    if (!r || r->op != OPID_ROUND || r->n_in < 1 || !r->in[0]) return 0;
    const struct ir_node *m = r->in[0]->producer;
    if (!m || m->op != OPID_MUL || m->n_in < 2 ||
        !(const_scalar(b, m->in[1], &g) || const_scalar(b, m->in[0], &g)) || g != f)
        return 0;
    for (int bits = 1; bits <= 8; bits *= 2)
        if (f == ldexp(1.0, bits - 1)) return bits;
    return 0;
}

/* Conv / ConvTranspose / Gemm / MatMul: a new layer reading input 0. */
static int build_compute(struct builder *b, const struct ir_node *n, int x)
{
    const struct mcu_device *dev = b->p->dev;
    /* a Conv1d cannot run an element-wise operation in front: it runs in a pass-through layer first */
    const struct ir_value *w1 = n->n_in > 1 ? n->in[1] : NULL;
    int kind = b->vt[x].kind;
    if (w1 && w1->rank == 3 && n->op == OPID_CONV &&
        (kind == VT_ELT || (kind == VT_POOLED && b->vt[b->vt[x].src].kind == VT_ELT)) &&
        materialize(b, kind == VT_ELT ? x : b->vt[x].src, n) < -1)
        return -1;
    int li = reader_layer(b, x, n);
    if (li < 0) return -1;
    struct mcu_layer *l = &b->p->layers[li];
    const struct ir_value *w = n->n_in > 1 ? n->in[1] : NULL;
    const struct ir_value *bias = n->n_in > 2 ? n->in[2] : NULL;
    const struct ir_value *y = n->out[0];
    int64_t nw = 0, nb = 0;
    if (w) ir_numel(w, &nw);
    if (bias) ir_numel(bias, &nb);
    l->weights = nw;
    l->bias = nb;
    /* a quantized weight (QDQ: DequantizeLinear of an integer initializer) says its own bits */
    const struct ir_node *dq = w ? w->producer : NULL;
    if (dq && dq->op == OPID_DEQUANTIZE_LINEAR && dq->n_in > 0 && dq->in[0] &&
        (dq->in[0]->flags & IR_V_INIT) && ir_dtype_is_int(dq->in[0]->dtype)) {
        int gb = ir_dtype_bits(dq->in[0]->dtype);
        if (gb == 8 || gb == 4 || gb == 2 || gb == 1) l->graph_bits = gb;
    } else
        l->graph_bits = qat_weight_bits(b, w); /* or ai8x-training's QAT export rounds it to its bits */
    l->macs = n->cost.known ? n->cost.macs : 0;
    int conv = n->op == OPID_CONV || n->op == OPID_CONV_TRANSPOSE;
    char what[200];
    if (conv) {
        int rank = w ? w->rank : 0;
        int one_d = rank == 3;
        int transposed = n->op == OPID_CONV_TRANSPOSE;
        l->op = transposed ? MCU_OP_CONVT2D : one_d ? MCU_OP_CONV1D : MCU_OP_CONV2D;
        l->kh = rank >= 3 ? dim_of(w, 2) : -1;
        l->kw = rank >= 4 ? dim_of(w, 3) : 1;
        int64_t pad, stride, dil;
        int pads_same = attr_same(n, "pads", 0, &pad);
        int str_same = attr_same(n, "strides", 1, &stride);
        int dil_same = attr_same(n, "dilations", 1, &dil);
        const struct ir_attr *ap = attr(n, "auto_pad");
        if (ap && ap->type == AT_STRING && ap->s && strcmp(ap->s, "NOTSET") && strcmp(ap->s, "VALID")) {
            /* SAME_UPPER / SAME_LOWER with stride 1 and odd kernel: symmetric (k-1)/2 */
            pad = (l->kh - 1) / 2;
        }
        l->pad = (int)pad;
        l->stride = (int)stride;
        l->dilation = (int)dil;
        l->groups = (int)attr_int(n, "group", 1);
        l->out_ch = dim_of(y, 1);
        l->out_h = dim_of(y, 2);
        l->out_w = one_d ? 1 : dim_of(y, 3);
        if (rank != 3 && rank != 4) {
            snprintf(what, sizeof what, "%d-D convolution", rank - 2);
            unsupported(b, n, "%s (supported: Conv1d and Conv2d)", what);
        } else if (transposed) {
            if (one_d || l->kh != 3 || l->kw != 3 || stride != 2 || !str_same)
                unsupported(b, n, "%s", "transposed convolution supported as 3x3 stride 2 only");
        } else if (one_d) {
            if (l->kh < 1 || l->kh > dev->max_kernel_1d) {
                snprintf(what, sizeof what, "kernel %d (Conv1d supports 1 to %d)", l->kh, dev->max_kernel_1d);
                unsupported(b, n, "%s", what);
            }
        } else if (l->kh != l->kw || (l->kh != 1 && l->kh != 3)) {
            snprintf(what, sizeof what, "kernel %dx%d (Conv2d supports 1x1 and 3x3)", l->kh, l->kw);
            unsupported(b, n, "%s", what);
        }
        if (!pads_same || pad < 0 || pad > dev->max_pad) {
            snprintf(what, sizeof what,
                     !pads_same ? "asymmetric padding (the same padding 0-%d on every side is supported)"
                                : "padding %d (supported: 0-%d)",
                     !pads_same ? dev->max_pad : (int)pad, dev->max_pad);
            unsupported(b, n, "%s", what);
        }
        if (!transposed && (!str_same || stride != 1)) {
            snprintf(
                what, sizeof what,
                "stride %d (%s supports stride 1: use a stride-1 convolution with 2x2 pooling in front of "
                "the next layer)",
                (int)stride, dev->display);
            unsupported(b, n, "%s", what);
        }
        const struct mcu_device *big = mcu_device_find(dev->larger);
        if (!dil_same || dil < 1 || dil > dev->max_dilation) {
            if (dev->max_dilation > 1)
                snprintf(what, sizeof what, "dilation %d (supported: 1-%d)", (int)dil, dev->max_dilation);
            else
                snprintf(what, sizeof what, "dilation %d (the %s has no dilation%s%s%s)", (int)dil,
                         dev->display, big && big->max_dilation > 1 ? "; the " : "",
                         big && big->max_dilation > 1 ? big->display : "",
                         big && big->max_dilation > 1 ? " does" : "");
            unsupported(b, n, "%s", what);
        }
        if (l->groups != 1) {
            int dw = l->groups == l->in_ch && l->groups == l->out_ch;
            if (dw && !dev->depthwise) {
                snprintf(what, sizeof what, "depthwise convolution (groups = %d): not on the %s%s%s%s",
                         l->groups, dev->display, big && big->depthwise ? " (the " : "",
                         big && big->depthwise ? big->display : "",
                         big && big->depthwise ? " supports it)" : "");
                unsupported(b, n, "%s", what);
            } else if (!dw) {
                snprintf(what, sizeof what, "grouped convolution (groups = %d; only 1 or depthwise)",
                         l->groups);
                unsupported(b, n, "%s", what);
            }
        }
    } else {
        /* Gemm or MatMul with a constant right-hand side: a linear layer */
        l->op = MCU_OP_LINEAR;
        int trans_b = n->op == OPID_GEMM && attr_int(n, "transB", 0);
        /* constant weights: an initializer, or computed from initializers only (ai8x-training's QAT export
         * scales, rounds and clamps them in the graph) */
        int ok = is_constant(b, w) && w->rank == 2 && (n->op == OPID_MAT_MUL || !attr_int(n, "transA", 0));
        if (!ok) {
            unsupported(b, n, "%s", "only a linear layer (constant 2-D weights) is supported");
            l->out_ch = dim_of(y, y && y->rank ? y->rank - 1 : 0);
        } else
            l->out_ch = dim_of(w, trans_b ? 0 : 1);
        l->out_h = l->out_w = 1;
        l->kh = l->kw = 1;
        int features = l->flatten ? l->in_ch * l->pooled_h * l->pooled_w : l->in_ch;
        if (l->flatten && (features > dev->max_flatten || l->pooled_h * l->pooled_w > dev->max_flatten_hw)) {
            snprintf(what, sizeof what,
                     "flattened input %dx%dx%d = %d features (flatten supports C*H*W <= %d and H*W <= %d)",
                     l->in_ch, l->pooled_h, l->pooled_w, features, dev->max_flatten, dev->max_flatten_hw);
            unsupported(b, n, "%s", what);
        }
        if (!l->flatten && features > dev->max_linear) {
            snprintf(what, sizeof what, "%d input features (Linear supports <= %d)", features,
                     dev->max_linear);
            unsupported(b, n, "%s", what);
        }
        if (l->out_ch > dev->max_linear) {
            snprintf(what, sizeof what, "%d output features (Linear supports <= %d)", l->out_ch,
                     dev->max_linear);
            unsupported(b, n, "%s", what);
        }
    }
    if (l->in_ch > dev->max_channels || l->out_ch > dev->max_channels) {
        snprintf(what, sizeof what, "%d input / %d output channels (at most %d per layer)", l->in_ch,
                 l->out_ch, dev->max_channels);
        unsupported(b, n, "%s", what);
    }
    if (l->in_h > dev->max_dim || l->in_w > dev->max_dim) {
        snprintf(what, sizeof what, "input %dx%d (rows and columns at most %d)", l->in_h, l->in_w,
                 dev->max_dim);
        unsupported(b, n, "%s", what);
    }
    if (l->pool &&
        (l->pool_kh > dev->max_pool || l->pool_kw > dev->max_pool || l->pool_stride > dev->max_pool)) {
        snprintf(what, sizeof what, "pooling %dx%d stride %d in front (supported: 1-%d)", l->pool_kh,
                 l->pool_kw, l->pool_stride, dev->max_pool);
        unsupported(b, n, "%s", what);
    }
    int e = add_vt(b, y, VT_REAL);
    if (e < 0) return -1;
    b->vt[e].layer = li;
    if (l->op == MCU_OP_LINEAR) b->vt[e].c = l->out_ch, b->vt[e].h = b->vt[e].w = 1;
    return 0;
}

/* Activation: fused into the producing layer when it is that layer's only reader, else a layer of its own. */
static int build_act(struct builder *b, const struct ir_node *n, int x, int act)
{
    struct vt *t = &b->vt[x];
    const struct ir_value *y = n->out[0];
    if (t->kind == VT_REAL && t->layer >= 0) {
        struct mcu_layer *l = &b->p->layers[t->layer];
        if (l->act == MCU_ACT_NONE && t->v->n_consumers == 1 && !is_graph_output(t->v)) {
            l->act = act;
            add_node_name(b, l, n);
            int e = add_vt(b, y, VT_REAL);
            if (e < 0) return -1;
            b->vt[e].layer = (int)(l - b->p->layers);
            return 0;
        }
    }
    int li = reader_layer(b, x, n);
    if (li < 0) return -1;
    struct mcu_layer *l = &b->p->layers[li];
    l->act = act;
    l->out_ch = l->in_ch, l->out_h = l->pooled_h, l->out_w = l->pooled_w;
    int e = add_vt(b, y, VT_REAL);
    if (e < 0) return -1;
    b->vt[e].layer = li;
    return 0;
}

static int all_zero_pads(const struct ir_node *n)
{
    if (n->n_in > 1 && n->in[1]) {
        const struct ir_value *pv = n->in[1];
        if (!pv->iv || pv->nv <= 0) return 0;
        for (int64_t i = 0; i < pv->nv; i++)
            if (!pv->iv[i].known || pv->iv[i].v != 0) return 0;
        return 1;
    }
    int64_t v;
    return attr_same(n, "pads", 0, &v) && v == 0;
}

/* A view of entry x: the output is the same bytes (a flatten to N x features reads its source flattened). */
static int build_view(struct builder *b, const struct ir_node *n, int x)
{
    const struct ir_value *y = n->out[0];
    struct vt src = b->vt[x];
    int e = add_vt(b, y, src.kind);
    if (e < 0) return -1;
    struct vt *t = &b->vt[e];
    int rank = t->rank, c = t->c, h = t->h, w = t->w;
    *t = src;
    t->v = y;
    if (rank == 2 && src.rank > 2 && src.kind != VT_FLAT) {
        t->kind = VT_FLAT;
        t->src = x;
        t->c = c, t->h = t->w = 1, t->rank = 2;
    } else if (rank == src.rank) {
        t->c = c, t->h = h, t->w = w;
    }
    return 0;
}

/* Mul / Div of a layer's output (or of a pooling) by one constant number: ai8x-training's export writes each layer's
 * output shift as a multiply by 2^shift, and its quantization steps as x * 2^(bits-1), Round or Floor, / 2^(bits-1)
 * ([AI8X-TRAINING]: QuantizationAwareModule.forward, onnx_export_prep). The accelerator applies the output shift
 * in the layer and rounds what it writes; the vendor's loader reads only the Conv / Gemm weights of such a file. A
 * factor that is not a power of two, a tensor of factors, or a product of two tensors is not an output shift. */
static int build_scale(struct builder *b, const struct ir_node *n, int x)
{
    const struct ir_value *k = NULL;
    int n_data = 0, data_at = -1;
    for (int i = 0; i < n->n_in && i < 2; i++) {
        if (!n->in[i]) continue;
        if (is_constant(b, n->in[i]))
            k = n->in[i];
        else
            n_data++, data_at = i;
    }
    int64_t numel = 0;
    double f;
    int kind = b->vt[x].kind;
    char what[200] = "";
    if (n_data != 1 || !k)
        snprintf(what, sizeof what, "a product of two tensors");
    else if (n->op == OPID_DIV && data_at != 0)
        snprintf(what, sizeof what, "a number divided by a tensor");
    else if (!ir_numel(k, &numel) || numel != 1)
        snprintf(what, sizeof what,
                 "a scaling by a tensor (a layer's output is scaled by one power of two: its output shift)");
    else if (const_scalar(b, k, &f)) {
        int ex;
        if (frexp(f, &ex) != 0.5)
            c_snprintf(what, sizeof what,
                       "a scaling by %g (a layer's output is scaled by a power of two: its output shift)", f);
    }
    if (!what[0] && !((kind == VT_REAL && b->vt[x].layer >= 0) || kind == VT_POOLED))
        snprintf(what, sizeof what, "a scaling of %s (only a layer's output is scaled: its output shift)",
                 kind == VT_REAL ? "the model input" : "an element-wise result or a concatenation");
    if (what[0]) {
        unsupported(b, n, "%s", what);
        return add_vt(b, n->out[0], VT_BAD) < 0 ? -1 : 0;
    }
    return build_view(b, n, x);
}

/* ---- lowering: what each operator is to the accelerator ----
 * One row per operator the accelerator takes, by registry index (no operator-name compares): the function that
 * lowers a node, given the entry x of its first data input and the row's argument (an activation, pooling or
 * element-wise operation). An operator without a row, or a node its function refuses (not_supported), is reported
 * as not supported by the CNN accelerator. */

/* the output of node n is unusable: reported as not supported */
static int not_supported(struct builder *b, const struct ir_node *n)
{
    unsupported(b, n, "%s", "operator not supported by the CNN accelerator");
    return add_vt(b, n->out[0], VT_BAD) < 0 ? -1 : 0;
}

/* Conv, ConvTranspose, Gemm, MatMul with constant weights: a layer */
static int lower_layer(struct builder *b, const struct ir_node *n, int x, int arg)
{
    (void)arg;
    return build_compute(b, n, x);
}

/* Relu, Abs: the activation of the layer in front (arg: enum mcu_act) */
static int lower_act(struct builder *b, const struct ir_node *n, int x, int arg)
{
    return build_act(b, n, x, arg);
}

/* Clip: ReLU when its minimum is >= 0, else the 8-bit clamp every layer applies anyway */
static int lower_clip(struct builder *b, const struct ir_node *n, int x, int arg)
{
    (void)arg;
    double lo = -1;
    if (n->n_in > 1 && n->in[1]) {
        if (!const_scalar(b, n->in[1], &lo)) lo = -1;
    } else if (attr(n, "min"))
        lo = attr(n, "min")->f;
    return lo >= 0 ? build_act(b, n, x, MCU_ACT_RELU) : build_view(b, n, x);
}

/* no work: Identity, Dropout, Flatten, Reshape, Squeeze, Unsqueeze; Round, Floor (the rounding the accelerator
 * applies to what it writes) */
static int lower_view(struct builder *b, const struct ir_node *n, int x, int arg)
{
    (void)arg;
    return build_view(b, n, x);
}

/* Pad: a view when it pads nothing */
static int lower_pad(struct builder *b, const struct ir_node *n, int x, int arg)
{
    (void)arg;
    return all_zero_pads(n) ? build_view(b, n, x) : not_supported(b, n);
}

/* Mul / Div by a power-of-two number: a layer's output shift (or the export's rounding steps) */
static int lower_scale(struct builder *b, const struct ir_node *n, int x, int arg)
{
    (void)arg;
    return build_scale(b, n, x);
}

/* BatchNormalization: folded into the convolution in front */
static int lower_bn(struct builder *b, const struct ir_node *n, int x, int arg)
{
    (void)arg;
    const struct ir_value *y = n->out[0];
    struct vt *t = &b->vt[x];
    if (t->kind == VT_REAL && t->layer >= 0 && b->p->layers[t->layer].op != MCU_OP_NONE &&
        b->p->layers[t->layer].act == MCU_ACT_NONE && t->v->n_consumers == 1) {
        struct mcu_layer *l = &b->p->layers[t->layer];
        add_node_name(b, l, n);
        if (!l->bias) l->bias = l->out_ch;
        mcu_msg_add(b->p->notes, MCU_R_OPERATOR, t->layer,
                    "node '%s' (BatchNormalization) folded into layer %d (ai8x-training folds BN before "
                    "synthesis)",
                    n->name, t->layer);
        int e = add_vt(b, y, VT_REAL);
        if (e < 0) return -1;
        b->vt[e].layer = (int)(l - b->p->layers);
        return 0;
    }
    unsupported(b, n, "%s", "batch normalization not directly after a convolution cannot be folded");
    return add_vt(b, y, VT_BAD) < 0 ? -1 : 0;
}

/* MaxPool, AveragePool (arg: enum mcu_pool): pooling of the layer that reads it */
static int lower_pool(struct builder *b, const struct ir_node *n, int x, int arg)
{
    const struct ir_attr *ks = attr(n, "kernel_shape");
    int64_t stride, pad, dil;
    int st_ok = attr_same(n, "strides", 1, &stride), pad_ok = attr_same(n, "pads", 0, &pad);
    int dil_ok = attr_same(n, "dilations", 1, &dil);
    int kh = ks && ks->n >= 1 ? (int)ks->ints[0] : 1, kw = ks && ks->n >= 2 ? (int)ks->ints[1] : 1;
    if (!st_ok || !pad_ok || pad != 0 || !dil_ok || dil != 1) {
        unsupported(b, n, "%s",
                    "pooling with padding, dilation or different strides per axis (supported: no padding, "
                    "one stride 1-16)");
    }
    int e = add_vt(b, n->out[0], VT_POOLED);
    if (e < 0) return -1;
    struct vt *t = &b->vt[e];
    t->pool = arg;
    t->pkh = kh, t->pkw = kw, t->pstr = (int)stride;
    t->src = x;
    if (b->vt[x].kind == VT_POOLED || b->vt[x].kind == VT_FLAT) {
        if (materialize(b, x, n) < -1) return -1;
    }
    return 0;
}

/* GlobalMaxPool, GlobalAveragePool (arg: enum mcu_pool): a pooling over the whole map */
static int lower_global_pool(struct builder *b, const struct ir_node *n, int x, int arg)
{
    struct vt *s = &b->vt[x];
    int e = add_vt(b, n->out[0], VT_POOLED);
    if (e < 0) return -1;
    struct vt *t = &b->vt[e];
    t->pool = arg;
    t->pkh = s->h, t->pkw = s->w, t->pstr = s->h > s->w ? s->h : s->w;
    t->src = x;
    if (b->vt[x].kind != VT_REAL && materialize(b, x, n) < -1) return -1;
    return 0;
}

/* the operands of an element-wise operation or a concatenation: layer outputs (materialized where they are not
 * yet), into ops[]; returns how many, or -1 when refused (reported: the output is unusable), -2 out of memory */
static int join_operands(struct builder *b, const struct ir_node *n, int x, int concat, int *ops)
{
    int k = 0;
    for (int i = 0; i < n->n_in; i++) {
        const struct ir_value *v = n->in[i];
        if (!v) continue;
        int e = find_vt(b, v);
        if (e < 0 || (v->flags & IR_V_INIT) || b->vt[e].kind == VT_CONST || k == MCU_MAX_OPERANDS) {
            unsupported(b, n, "%s",
                        k == MCU_MAX_OPERANDS
                            ? "more than 16 operands"
                            : "an operand that is a constant (operands must be layer outputs)");
            return -1;
        }
        ops[k++] = e;
    }
    for (int i = 0; i < k && !concat; i++)
        if (b->vt[ops[i]].c != b->vt[x].c || b->vt[ops[i]].h != b->vt[x].h || b->vt[ops[i]].w != b->vt[x].w) {
            unsupported(b, n, "%s", "broadcasting operands (element-wise operands must have one shape)");
            return -1;
        }
    for (int i = 0; i < k; i++) {
        int kind = b->vt[ops[i]].kind;
        if (kind == VT_ELT || kind == VT_CONCAT || kind == VT_FLAT ||
            (kind == VT_POOLED && b->vt[b->vt[ops[i]].src].kind != VT_REAL))
            if (materialize(b, ops[i], n) < -1) return -2;
    }
    return k;
}

/* Add, Sub, Sum, Xor, Or (arg: enum mcu_elt), Concat along channels (arg: MCU_ELT_NONE): the operation of the layer
 * that reads it, over its operands */
static int lower_join(struct builder *b, const struct ir_node *n, int x, int arg)
{
    const struct ir_value *y = n->out[0];
    int concat = n->op == OPID_CONCAT;
    if (concat) {
        int64_t axis = attr_int(n, "axis", 1);
        if (axis < 0) axis += y->rank;
        if (axis != 1) {
            unsupported(b, n, "%s", "concatenation along another axis than channels");
            return add_vt(b, y, VT_BAD) < 0 ? -1 : 0;
        }
    }
    int ops[MCU_MAX_OPERANDS], k = join_operands(b, n, x, concat, ops);
    if (k == -2) return -1;
    if (k < 0) return add_vt(b, y, VT_BAD) < 0 ? -1 : 0;
    int e = add_vt(b, y, concat ? VT_CONCAT : VT_ELT);
    if (e < 0) return -1;
    struct vt *t = &b->vt[e];
    t->elt = arg;
    t->n_ops = k;
    memcpy(t->ops, ops, (size_t)k * sizeof ops[0]);
    return 0;
}

/* Softmax, LogSoftmax: on the Arm core, at the output only (the CNN has no softmax) */
static int lower_softmax(struct builder *b, const struct ir_node *n, int x, int arg)
{
    (void)x, (void)arg;
    if (!is_graph_output(n->out[0])) return not_supported(b, n);
    mcu_msg_add(b->p->notes, MCU_R_OPERATOR, -1,
                "node '%s' (%s) at the output runs on the Arm core (the CNN has no softmax)", n->name,
                n->op_type);
    return add_vt(b, n->out[0], VT_BAD) < 0 ? -1 : 0;
}

enum {
    LW_CONSTANT = 1, /* Constant: no data */
    LW_LAYER = 2,    /* makes a layer of weights: never shape arithmetic, whatever its outputs */
};
static const struct lowering {
    int (*lower)(struct builder *b, const struct ir_node *n, int x, int arg);
    int arg;
    unsigned flags;
} lowerings[OPID_COUNT] = {
    [OPID_CONSTANT] = {NULL, 0, LW_CONSTANT},
    [OPID_CONV] = {lower_layer, 0, LW_LAYER},
    [OPID_CONV_TRANSPOSE] = {lower_layer, 0, LW_LAYER},
    [OPID_GEMM] = {lower_layer, 0, LW_LAYER},
    [OPID_MAT_MUL] = {lower_layer, 0, LW_LAYER},
    [OPID_RELU] = {lower_act, MCU_ACT_RELU, 0},
    [OPID_ABS] = {lower_act, MCU_ACT_ABS, 0},
    [OPID_CLIP] = {lower_clip, 0, 0},
    [OPID_IDENTITY] = {lower_view, 0, 0},
    [OPID_DROPOUT] = {lower_view, 0, 0},
    [OPID_FLATTEN] = {lower_view, 0, 0},
    [OPID_RESHAPE] = {lower_view, 0, 0},
    [OPID_SQUEEZE] = {lower_view, 0, 0},
    [OPID_UNSQUEEZE] = {lower_view, 0, 0},
    [OPID_PAD] = {lower_pad, 0, 0},
    [OPID_ROUND] = {lower_view, 0, 0},
    [OPID_FLOOR] = {lower_view, 0, 0},
    [OPID_MUL] = {lower_scale, 0, 0},
    [OPID_DIV] = {lower_scale, 0, 0},
    [OPID_BATCH_NORMALIZATION] = {lower_bn, 0, 0},
    [OPID_MAX_POOL] = {lower_pool, MCU_POOL_MAX, 0},
    [OPID_AVERAGE_POOL] = {lower_pool, MCU_POOL_AVG, 0},
    [OPID_GLOBAL_MAX_POOL] = {lower_global_pool, MCU_POOL_MAX, 0},
    [OPID_GLOBAL_AVERAGE_POOL] = {lower_global_pool, MCU_POOL_AVG, 0},
    [OPID_ADD] = {lower_join, MCU_ELT_ADD, 0},
    [OPID_SUM] = {lower_join, MCU_ELT_ADD, 0},
    [OPID_SUB] = {lower_join, MCU_ELT_SUB, 0},
    [OPID_XOR] = {lower_join, MCU_ELT_XOR, 0},
    [OPID_BITWISE_XOR] = {lower_join, MCU_ELT_XOR, 0},
    [OPID_OR] = {lower_join, MCU_ELT_OR, 0},
    [OPID_BITWISE_OR] = {lower_join, MCU_ELT_OR, 0},
    [OPID_CONCAT] = {lower_join, MCU_ELT_NONE, 0},
    [OPID_SOFTMAX] = {lower_softmax, 0, 0},
    [OPID_LOG_SOFTMAX] = {lower_softmax, 0, 0},
};

/* the entry of node n's first data input (constants and initializers are not data) into *x: 0, or 1 when it reads
 * the output of an unsupported node (already reported) */
static int data_input(struct builder *b, const struct ir_node *n, int *x)
{
    int bad = 0;
    *x = -1;
    for (int i = 0; i < n->n_in; i++) {
        const struct ir_value *v = n->in[i];
        if (!v || (v->flags & IR_V_INIT) || (v->producer && v->producer->op == OPID_CONSTANT)) continue;
        int e = find_vt(b, v);
        if (e >= 0 && b->vt[e].kind == VT_CONST) continue; /* computed from constants only */
        if (e < 0 || b->vt[e].kind == VT_BAD)
            bad = 1;
        else if (*x < 0)
            *x = e;
    }
    return bad;
}

/* every output of n, as kind */
static int outputs_as(struct builder *b, const struct ir_node *n, int kind)
{
    for (int i = 0; i < n->n_out; i++)
        if (n->out[i] && add_vt(b, n->out[i], kind) < 0) return -1;
    return 0;
}

static int build_node(struct builder *b, const struct ir_node *n)
{
    static const struct lowering none = {NULL, 0, 0};
    const struct lowering *lw = n->op >= 0 && n->op < OPID_COUNT ? &lowerings[n->op] : &none;
    if ((lw->flags & LW_CONSTANT) || n->n_out < 1 || !n->out[0]) return 0;
    /* shape arithmetic on a runtime tensor (torch's x.view(x.size(0), -1): Shape, Gather, Unsqueeze, Concat), known
     * once the dims are bound, is no data either */
    int shape_only = !(lw->flags & LW_LAYER);
    for (int i = 0; i < n->n_out && shape_only; i++) shape_only = !n->out[i] || n->out[i]->is_const;
    if (shape_only) return outputs_as(b, n, VT_CONST);
    int x, bad = data_input(b, n, &x);
    /* downstream of an unsupported node (already reported), or a node of constants only */
    if (bad || x < 0) return outputs_as(b, n, bad ? VT_BAD : VT_CONST);
    return lw->lower ? lw->lower(b, n, x, lw->arg) : not_supported(b, n);
}

static const char *guess_dataset(int c, int h, int w)
{
    if (c == 1 && h == 28 && w == 28) return "MNIST";
    if (c == 3 && h == 32 && w == 32) return "CIFAR10";
    if (c == 128 && h == 128 && w == 1) return "KWS_20";
    if (c == 3 && h == 128 && w == 128) return "FACEID";
    return "unknown";
}

/* A device that cannot combine an element-wise operation with a convolution that has a bias in one layer (the
 * MAX78002: the vendor's tool refuses that layer) runs the operation, with the pooling in front of it, in a
 * pass-through layer of its own just before the convolution, as one writes it for the vendor's tool. */
static enum nnperf_status split_eltwise_bias(struct mcu_plan *p, struct diag *d)
{
    if (p->dev->eltwise_conv_bias) return NNPERF_OK;
    int n = p->n_layers, extra = 0;
    for (int i = 0; i < n; i++) {
        const struct mcu_layer *l = &p->layers[i];
        extra += l->elt != MCU_ELT_NONE && l->n_in > 1 && l->op != MCU_OP_NONE && l->bias > 0;
    }
    if (!extra) return NNPERF_OK;
    if (n + extra > p->cap_layers)
        return diag_set(d, NNPERF_E_LIMIT, "more than %d accelerator layers: not a model for a MAX7800x",
                        p->cap_layers);
    struct mcu_layer *out = ar_calloc(&p->ar, (size_t)p->cap_layers, sizeof *out);
    int *map = malloc((size_t)n * sizeof *map);
    if (!out || !map) {
        free(map);
        return diag_set(d, NNPERF_E_NOMEM, "out of memory");
    }
    int m = 0;
    for (int i = 0; i < n; i++) {
        const struct mcu_layer *l = &p->layers[i];
        if (l->elt != MCU_ELT_NONE && l->n_in > 1 && l->op != MCU_OP_NONE && l->bias > 0) {
            struct mcu_layer *e = &out[m];
            *e = *l; /* operands, element-wise operation and pooling */
            e->name = ar_printf(&p->ar, "%s for '%s'", mcu_elt_name(l->elt), l->name);
            e->nodes = "";
            e->op = MCU_OP_NONE;
            e->kh = e->kw = 1;
            e->pad = 0;
            e->stride = e->groups = e->dilation = 1;
            e->act = MCU_ACT_NONE;
            e->flatten = 0;
            e->out_ch = l->in_ch, e->out_h = l->pooled_h, e->out_w = l->pooled_w;
            e->weights = e->bias = 0;
            e->macs = 0;
            e->is_output = 0;
            e->weight_bits = e->graph_bits = 0;
            mcu_msg_add(
                p->notes, MCU_R_RULE, m,
                "layer %d: the element-wise %s in front of '%s' runs in a layer of its own: the %s cannot "
                "combine it with a convolution that has a bias",
                m, mcu_elt_name(l->elt), l->name, p->dev->display);
            struct mcu_layer *c = &out[m + 1];
            *c = *l;
            c->elt = MCU_ELT_NONE;
            c->n_in = 1;
            c->in_seq[0] = -2 - m; /* the new layer m (not an old index: see below) */
            c->pool = MCU_POOL_NONE;
            c->pool_kh = c->pool_kw = c->pool_stride = 0;
            c->pool_first = 1;
            c->in_h = l->pooled_h, c->in_w = l->pooled_w;
            map[i] = m + 1;
            m += 2;
        } else {
            out[m] = *l;
            map[i] = m++;
        }
    }
    for (int i = 0; i < m; i++)
        for (int k = 0; k < out[i].n_in; k++) {
            int q = out[i].in_seq[k];
            out[i].in_seq[k] = q <= -2 ? -2 - q : q >= 0 ? map[q] : q;
        }
    free(map);
    p->layers = out;
    p->n_layers = m;
    return NNPERF_OK;
}

enum nnperf_status mcu_build_program(struct mcu_plan *p, const struct ir_graph *g, const struct ir_model *m,
                                     struct diag *d)
{
    if (g->n_nodes > MCU_MAX_NODES)
        return diag_set(d, NNPERF_E_LIMIT, "%d nodes: more than %d, not a model for a MAX7800x", g->n_nodes,
                        MCU_MAX_NODES);
    struct builder b = {p, m, d, NULL, 0, 0};
    p->cap_layers = MCU_MAX_LAYERS;
    p->layers = ar_calloc(&p->ar, (size_t)p->cap_layers, sizeof *p->layers);
    if (!p->layers) return diag_set(d, NNPERF_E_NOMEM, "out of memory");
    int n_data_inputs = 0;
    for (int i = 0; i < g->n_inputs; i++) {
        const struct ir_value *v = g->inputs[i];
        if (v->flags & IR_V_INIT) continue;
        n_data_inputs++;
        int e = add_vt(&b, v, VT_REAL);
        if (e < 0) goto nomem;
        b.vt[e].layer = -1;
        int64_t numel;
        if (!ir_numel(v, &numel)) {
            free(b.vt);
            return diag_set(d, NNPERF_E_UNSUPPORTED,
                            "input '%s' has unknown dimensions: give its shape (%s=1xCxHxW)", v->name,
                            v->name);
        }
        if ((v->rank != 3 && v->rank != 4) || v->dims[0].val != 1) {
            mcu_msg_add(p->problems, MCU_R_OPERATOR, -1,
                        "input '%s': shape must be 1xCxL (1-D) or 1xCxHxW (2-D) with batch 1", v->name);
            b.vt[e].kind = VT_BAD;
        } else
            p->dataset = guess_dataset(b.vt[e].c, b.vt[e].h, b.vt[e].w);
    }
    if (n_data_inputs != 1)
        mcu_msg_add(p->problems, MCU_R_OPERATOR, -1, "the model has %d inputs; the accelerator takes one",
                    n_data_inputs);
    for (int i = 0; i < g->n_nodes; i++) {
        if (build_node(&b, g->nodes[i])) {
            free(b.vt);
            if (!d->status) diag_set(d, NNPERF_E_NOMEM, "out of memory");
            return d->status;
        }
    }
    /* model outputs must be layer outputs */
    for (int i = 0; i < g->n_outputs; i++) {
        int e = find_vt(&b, g->outputs[i]);
        if (e < 0 || b.vt[e].kind == VT_BAD) continue;
        /* x.view(N, -1) of a C x 1 x 1 layer output is the same bytes: no layer of its own (a flatten layer
         * would have to be a pass-through, which the vendor's loader refuses) */
        while (b.vt[e].kind == VT_FLAT && b.vt[e].src >= 0 && b.vt[b.vt[e].src].h == 1 &&
               b.vt[b.vt[e].src].w == 1)
            e = b.vt[e].src;
        int li = materialize(&b, e, g->nodes[g->n_nodes ? g->n_nodes - 1 : 0]);
        if (li < -1) {
            free(b.vt);
            return d->status ? d->status : diag_set(d, NNPERF_E_NOMEM, "out of memory");
        }
        if (li >= 0) p->layers[li].is_output = 1;
    }
    free(b.vt);
    enum nnperf_status st = split_eltwise_bias(p, d);
    if (st) return st;
    /* passes and dims for every layer */
    for (int i = 0; i < p->n_layers; i++) {
        struct mcu_layer *l = &p->layers[i];
        if (l->in_ch <= 0 || l->out_ch <= 0 || l->in_h <= 0 || l->in_w <= 0 || l->out_h <= 0 || l->out_w <= 0)
            return diag_set(d, NNPERF_E_UNSUPPORTED, "layer %d ('%s'): shapes are not all known", i, l->name);
        mcu_procs_per_pass(l->in_ch, &l->passes);
        if (i == 0 && l->n_in == 1 && l->in_seq[0] == -1 && l->in_ch == 1) l->chw = 1;
        if (l->is_output && l->op != MCU_OP_NONE) l->output_width = 32;
    }
    if (!p->dataset) p->dataset = "unknown";
    return NNPERF_OK;
nomem:
    free(b.vt);
    return diag_set(d, NNPERF_E_NOMEM, "out of memory");
}
