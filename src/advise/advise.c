/* advise.c - nnperf_advise: runs the design-advice rules (Horizon's efficient-model design advice, docs/sources.md [S100-ADVICE]; the
 * rule texts are in rules.c) over a base prediction. A rule that finds something builds a what-if (whatif.h), a
 * structured change to the model, and the change is predicted by nnperf_predict like everything else:
 * gain = latency per frame of the base - latency per frame with the change. Findings below the minimum gain are
 * dropped; the rest are ordered by gain. Nothing here modifies the analysis. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "advise.h"

#define ADV_MAX_CHECKS     4000   /* what-ifs predicted per advice, at most */
#define ALIGN_MIN_WASTE    0.2    /* align-channels: channel padding share of the layer's MACs */
#define GROUP_MIN_CHANNELS 256    /* grouped-conv: input channels from which a dense conv counts as wide */
#define GROUP_WIDTH        64     /* grouped-conv: channels per group suggested */
#define WEIGHTS_MIN_BYTES  524288 /* large-weights: 512 KiB per layer */
#define BATCH_MAX_SIDE     256    /* batch-small-input: [S100-ADVICE], "small models (resolution <= 256)" */
#define BATCH_SUGGESTED    4
#define BATCH_MIN_GAIN                                                                                       \
    0.1 /* batch-small-input: at least 10% less time per frame (11% more FPS) to be worth it */
#define DTYPE_MIN_RATIO 2.0 /* dtype: another dtype's peak at least this many times the current one's */
#define DTYPE_MIN_GAIN  0.1 /* dtype: and the model at least 10% faster in it ("much faster") */
#define ATTN_MIN_PAD                                                                                         \
    1.5 /* padded-attention: aligned / real elements of the scores (a third or more is padding) */

/* ---- the running advice ---- */

struct cons {
    const struct ir_value *v;
    int node;
};

struct adv_run {
    struct nnperf_advice *adv;
    const struct nnperf_analysis *a;
    const struct nnperf_platform *plat;
    struct nnperf_predict_options opts;
    struct nnperf_prediction *base;
    const struct ir_graph *g;
    struct cons *cons; /* (value, consumer node) sorted by value */
    int n_cons;
    enum nnperf_status st;
    char *
        from_input; /* per node: 1 when it depends on a graph input (else a constant the compiler could fold) */
    struct pending *pend; /* findings of the current rule, before merging and prediction */
    int n_pend, cap_pend;
};

struct pending {
    struct adv_finding *f;
    const char *ev, *ch;
    int merged; /* number of candidates merged into it */
};

static int cmp_cons(const void *x, const void *y)
{
    const struct cons *a = x, *b = y;
    if (a->v != b->v) return (uintptr_t)a->v < (uintptr_t)b->v ? -1 : 1;
    return a->node - b->node;
}

/* consumer nodes of v among the top graph's nodes (each once) */
static int consumers(const struct adv_run *r, const struct ir_value *v, int *out, int cap)
{
    int lo = 0, hi = r->n_cons;
    while (lo < hi) {
        int mid = (lo + hi) / 2;
        if ((uintptr_t)r->cons[mid].v < (uintptr_t)v)
            lo = mid + 1;
        else
            hi = mid;
    }
    int n = 0;
    for (int i = lo; i < r->n_cons && r->cons[i].v == v; i++)
        if ((!n || out[n - 1] != r->cons[i].node) && n < cap) out[n++] = r->cons[i].node;
    return n;
}

static int64_t attr_i(const struct ir_node *nd, const char *name, int64_t def)
{
    for (int i = 0; i < nd->n_attr; i++)
        if (!strcmp(nd->attrs[i].name, name)) return nd->attrs[i].i;
    return def;
}

/* a concrete dim of v, or -1 */
static int64_t dim(const struct ir_value *v, int i)
{
    if (!v || v->rank <= i || i < 0 || v->dims[i].val < 0) return -1;
    return v->dims[i].val;
}

static void fmt_time(char *buf, size_t n, double s)
{
    if (s >= 1e-3)
        c_snprintf(buf, n, "%.3f ms", s * 1e3);
    else
        c_snprintf(buf, n, "%.1f us", s * 1e6);
}

static void fmt_bytes(char *buf, size_t n, double b)
{
    if (b >= 1048576)
        c_snprintf(buf, n, "%.2f MiB", b / 1048576);
    else if (b >= 1024)
        c_snprintf(buf, n, "%.1f KiB", b / 1024);
    else
        c_snprintf(buf, n, "%.0f B", b);
}

/* a new finding (not yet kept); NULL on allocation failure (recorded in r->st) */
static struct adv_finding *start(struct adv_run *r, const char *rule)
{
    struct adv_finding *f = ar_calloc(&r->adv->ar, 1, sizeof *f);
    const char **layers = ar_calloc(&r->adv->ar, ADV_MAX_LAYERS, sizeof *layers);
    if (!f || !layers) {
        r->st = NNPERF_E_NOMEM;
        return NULL;
    }
    f->rule = rule;
    f->layers = layers;
    return f;
}

static void add_layer(struct adv_finding *f, const struct pr_layer *L)
{
    for (int i = 0; i < f->n_layers; i++)
        if (f->layers[i] == L->name) return;
    if (f->n_layers < ADV_MAX_LAYERS) f->layers[f->n_layers++] = L->name;
}

static struct pr_change *change(struct adv_run *r, struct adv_finding *f, int kind)
{
    struct pr_change *c = pr_whatif_add(&r->adv->ar, &f->wi, kind);
    if (!c) r->st = NNPERF_E_NOMEM;
    return c;
}

/* Predicts f's what-if and keeps f when its gain reaches the minimum. */
static void predict_keep(struct adv_run *r, struct adv_finding *f, const char *evidence, const char *chg)
{
    if (r->st || r->adv->n_checked >= ADV_MAX_CHECKS) return;
    struct nnperf_advice *adv = r->adv;
    struct nnperf_predict_options o = r->opts;
    o.whatif = &f->wi;
    struct nnperf_prediction *p;
    adv->n_checked++;
    if (nnperf_predict(r->a, r->plat, &o, &p, NULL, 0) != NNPERF_OK)
        return; /* a change the platform cannot run */
    if (p->n_val_unmapped) {
        /* a change the lowered graph cannot hold (lower.c): its gain would be another change's */
        pr_warn(r->base,
                "advise: %s on '%s': %d value%s of its what-if not in the lowered graph, not predicted",
                f->rule, f->n_layers ? f->layers[0] : "the model", p->n_val_unmapped,
                p->n_val_unmapped > 1 ? "s" : "");
        nnperf_prediction_free(p);
        return;
    }
    f->latency_s = r->base->latency;
    f->frames = r->base->batch;
    f->new_latency_s = p->latency;
    f->new_frames = p->batch;
    nnperf_prediction_free(p);
    double b = f->latency_s / f->frames, w = f->new_latency_s / f->new_frames;
    f->gain_s = b - w;
    f->gain_fraction = b > 0 ? f->gain_s / b : 0;
    f->fps = f->latency_s > 0 ? f->frames / f->latency_s : 0;
    f->new_fps = f->new_latency_s > 0 ? f->new_frames / f->new_latency_s : 0;
    /* dtype and batching change the whole deployment: only worth it above their own floors */
    double floor = f->wi.dtype ? DTYPE_MIN_GAIN : f->wi.batch ? BATCH_MIN_GAIN : 0;
    if (floor < adv->min_gain) floor = adv->min_gain;
    if (!(f->gain_fraction >= floor) || f->gain_s <= 0) {
        adv->n_below++;
        return;
    }
    f->evidence = ar_strdup(&adv->ar, evidence);
    f->change = ar_strdup(&adv->ar, chg);
    if (adv->n == adv->cap) {
        int nc = adv->cap ? adv->cap * 2 : 16;
        struct adv_finding *nf = ar_calloc(&adv->ar, (size_t)nc, sizeof *nf);
        if (!nf) {
            r->st = NNPERF_E_NOMEM;
            return;
        }
        if (adv->n) memcpy(nf, adv->f, (size_t)adv->n * sizeof *nf);
        adv->f = nf;
        adv->cap = nc;
    }
    if (!f->evidence || !f->change) {
        r->st = NNPERF_E_NOMEM;
        return;
    }
    adv->f[adv->n++] = *f;
}

/* Records a candidate of the current rule; flush() merges the candidates with the same evidence and change (the
 * same design in several layers, e.g. the repeated blocks of a stage) into one what-if, and predicts them. */
static void propose(struct adv_run *r, struct adv_finding *f, const char *evidence, const char *chg)
{
    if (r->st) return;
    if (r->n_pend == r->cap_pend) {
        int nc = r->cap_pend ? r->cap_pend * 2 : 16;
        struct pending *np = realloc(r->pend, (size_t)nc * sizeof *np);
        if (!np) {
            r->st = NNPERF_E_NOMEM;
            return;
        }
        r->pend = np;
        r->cap_pend = nc;
    }
    const char *ev = ar_strdup(&r->adv->ar, evidence), *ch = ar_strdup(&r->adv->ar, chg);
    if (!ev || !ch) {
        r->st = NNPERF_E_NOMEM;
        return;
    }
    r->pend[r->n_pend++] = (struct pending){f, ev, ch, 1};
}

static void flush(struct adv_run *r)
{
    for (int i = 0; i < r->n_pend && !r->st; i++) {
        struct pending *a = &r->pend[i];
        if (!a->f) continue;
        for (int j = i + 1; j < r->n_pend; j++) {
            struct pending *b = &r->pend[j];
            if (!b->f || strcmp(a->ev, b->ev) || strcmp(a->ch, b->ch) || b->f->wi.batch || b->f->wi.dtype)
                continue;
            for (int k = 0; k < b->f->wi.n; k++) {
                struct pr_change *c = pr_whatif_add(&r->adv->ar, &a->f->wi, b->f->wi.c[k].kind);
                if (!c) {
                    r->st = NNPERF_E_NOMEM;
                    return;
                }
                *c = b->f->wi.c[k];
            }
            for (int k = 0; k < b->f->n_layers && a->f->n_layers < ADV_MAX_LAYERS; k++)
                a->f->layers[a->f->n_layers++] = b->f->layers[k];
            a->merged++;
            b->f = NULL;
        }
        if (a->merged > 1) {
            const char *ev = ar_printf(&r->adv->ar, "%d layers alike: %s", a->merged, a->ev);
            if (!ev) {
                r->st = NNPERF_E_NOMEM;
                return;
            }
            a->ev = ev;
        }
        predict_keep(r, a->f, a->ev, a->ch);
    }
    r->n_pend = 0;
}

static int on_accel(const struct pr_layer *L)
{
    return !L->fallback && L->cost_known;
}

static const struct pr_layer *layer_of_node(const struct nnperf_prediction *P, int node)
{
    int l = P->layer_of[node];
    return l >= 0 ? &P->layers[l] : NULL;
}

/* ---- fallback: operators the accelerator lacks ---- */
void adv_check_fallback(struct adv_run *r)
{
    const struct nnperf_prediction *P = r->base;
    const struct hw_desc *hw = P->hw;
    for (int l = 0; l < P->n_layers && !r->st; l++) {
        const struct pr_layer *L = &P->layers[l];
        if (!L->fallback) continue;
        for (int i = 0; i < L->n_nodes; i++) {
            const char *op = L->nodes[i]->op_type;
            if (hw_supports(hw, op)) continue;
            /* once per operator: at its first fallback layer */
            int seen = 0;
            for (int k = 0; k < l && !seen; k++)
                if (P->layers[k].fallback)
                    for (int j = 0; j < P->layers[k].n_nodes; j++)
                        if (!strcmp(P->layers[k].nodes[j]->op_type, op)) seen = 1;
            for (int j = 0; j < i && !seen; j++)
                if (!strcmp(L->nodes[j]->op_type, op)) seen = 1;
            if (seen) continue;
            struct adv_finding *f = start(r, "fallback");
            struct pr_change *c = f ? change(r, f, WI_SUPPORT_OP) : NULL;
            if (!c) return;
            c->op = op;
            double t = 0, tt = 0, q = 0;
            int n = 0, constant = 1;
            for (int k = l; k < P->n_layers; k++) {
                const struct pr_layer *K = &P->layers[k];
                int has = 0;
                for (int j = 0; j < K->n_nodes; j++) has |= !strcmp(K->nodes[j]->op_type, op);
                if (!K->fallback || !has) continue;
                add_layer(f, K);
                for (int j = 0; j < K->n_nodes; j++) constant &= !r->from_input[K->nodes[j]->index];
                n++;
                t += K->t_total;
                tt += pr_lx(K)->t_transfer;
                q += pr_lx(K)->quant_elems;
            }
            char ev[640], ch[512], ts[32], tts[32], os[32];
            fmt_time(ts, sizeof ts, t);
            fmt_time(tts, sizeof tts, tt);
            fmt_time(os, sizeof os, n * hw->fb.overhead_s);
            c_snprintf(ev, sizeof ev,
                       "%d layer%s with %s run%s on the fallback unit %s: %s, of which %s is the boundary "
                       "transfer and "
                       "(de)quantization of %.3g elements and %s the CPU dispatch%s",
                       n, n > 1 ? "s" : "", op, n > 1 ? "" : "s", hw->fb.name[0] ? hw->fb.name : "cpu", ts,
                       tts, q, os, constant ? "; they do not depend on the model's input" : "");
            if (constant)
                snprintf(
                    ch, sizeof ch,
                    "precompute what the %s compute (their inputs are constants: e.g. an attention mask) and "
                    "store the result as an initializer (predicted: run on the accelerator, a lower bound)",
                    op);
            else
                snprintf(ch, sizeof ch,
                         "replace %s by operators the accelerator supports, or move it into post-processing "
                         "(filter "
                         "first, dequantize only what is left)",
                         op);
            propose(r, f, ev, ch);
        }
    }
}

/* ---- fusion-blocked: an activation between a conv and the Add it would fuse with ---- */

/* whether the platform fuses exactly this op sequence */
static int has_pattern(const struct hw_desc *hw, const char *const *ops, int n)
{
    for (int i = 0; i < hw->n_fusion; i++) {
        const struct hw_pattern *pt = &hw->fusion[i];
        if (pt->len != n) continue;
        int ok = 1;
        for (int k = 0; k < n && ok; k++) ok = !strcmp(pt->ops[k], ops[k]);
        if (ok) return 1;
    }
    return 0;
}

void adv_check_fusion(struct adv_run *r)
{
    const struct nnperf_prediction *P = r->base;
    const struct ir_graph *g = r->g;
    for (int k = 0; k < g->n_nodes && !r->st; k++) {
        const struct ir_node *conv = g->nodes[k];
        if (conv->op != OPID_CONV || !conv->n_out) continue;
        const struct pr_layer *L = layer_of_node(P, k);
        if (!L || !on_accel(L)) continue;
        /* Conv [-> BatchNormalization] -> activation -> Add, every inner output read once */
        int chain[4], n = 0, cur = k, cs[4];
        chain[n++] = k;
        const struct ir_node *act = NULL, *add = NULL;
        while (n < 4) {
            const struct ir_value *v = g->nodes[cur]->out[0];
            if (!v || (v->flags & IR_V_OUTPUT) || consumers(r, v, cs, 4) != 1) break;
            const struct ir_node *nx = g->nodes[cs[0]];
            if (!act && nx->op == OPID_BATCH_NORMALIZATION && n == 1) {
                chain[n++] = cur = cs[0];
            } else if (!act && nx->op >= 0 && op_table[nx->op].klass == OC_ACT) {
                act = nx;
                chain[n++] = cur = cs[0];
            } else if (act && nx->op == OPID_ADD) {
                add = nx;
                chain[n++] = cur = cs[0];
                break;
            } else
                break;
        }
        if (!act || !add) continue;
        const struct pr_layer *A = layer_of_node(P, add->index);
        if (!A || !on_accel(A) || A->n_nodes != 1) continue;
        /* the sequence with the activation after the Add must be a platform pattern */
        const char *ops[4];
        int m = 0;
        for (int i = 0; i < n; i++)
            if (g->nodes[chain[i]] != act) ops[m++] = g->nodes[chain[i]]->op_type;
        ops[m++] = act->op_type;
        if (!has_pattern(P->hw, ops, m)) continue;
        struct adv_finding *f = start(r, "fusion-blocked");
        struct pr_change *c = f ? change(r, f, WI_FUSE) : NULL;
        int *nodes = ar_calloc(&r->adv->ar, (size_t)n, sizeof *nodes);
        if (!c || !nodes) {
            r->st = NNPERF_E_NOMEM;
            return;
        }
        for (int i = 0; i < n; i++) nodes[i] = chain[i];
        c->nodes = nodes;
        c->n_nodes = n;
        add_layer(f, L);
        const struct pr_layer *X = layer_of_node(P, act->index);
        if (X) add_layer(f, X);
        add_layer(f, A);
        char pat[160] = "", ev[640], ch[512], ts[32], bs[32];
        for (int i = 0; i < m; i++) {
            strncat(pat, ops[i], sizeof pat - strlen(pat) - 1);
            if (i + 1 < m) strncat(pat, "->", sizeof pat - strlen(pat) - 1);
        }
        int64_t ne = 0;
        ir_numel(act->out[0], &ne);
        fmt_time(ts, sizeof ts, A->t_total);
        fmt_bytes(bs, sizeof bs, (double)ne * pr_elem_bytes(P, 0) * P->runs);
        snprintf(ev, sizeof ev,
                 "%s '%s' sits between %s '%s' and Add '%s', so the %s pattern cannot fuse: the Add is a "
                 "layer of its "
                 "own (%s) and the %s activation goes through memory",
                 act->op_type, act->name, conv->op_type, conv->name, add->name, pat, ts, bs);
        snprintf(ch, sizeof ch, "apply the %s after the Add (%s fuses into one layer)", act->op_type, pat);
        propose(r, f, ev, ch);
    }
}

/* ---- align-channels: channel padding ---- */

/* Adds to f the changes for layer L's output getting nc channels (scale s = nc / old): the layer's nodes and their
 * outputs scale by s; channel-preserving consumers (depthwise conv, activation, norm, pool layers) follow; dense
 * conv / Gemm / MatMul consumers scale their MACs and weights by s and stop the walk. Returns 0 when the change
 * cannot be expressed (another consumer, a graph output, too deep). */
static int channel_change(struct adv_run *r, struct adv_finding *f, const struct pr_layer *L, int64_t nc,
                          double s, int depth)
{
    const struct nnperf_prediction *P = r->base;
    const struct ir_value *out = pr_layer_out(L);
    if (depth > 8 || !out || (out->flags & IR_V_OUTPUT)) return 0;
    for (int i = 0; i < L->n_nodes; i++) {
        struct pr_change *c = change(r, f, WI_SCALE_NODE);
        if (!c) return 0;
        c->node = L->nodes[i]->index;
        c->mac = c->vec = c->params = s;
        for (int o = 0; o < L->nodes[i]->n_out; o++) {
            const struct ir_value *v = L->nodes[i]->out[o];
            if (!v || (v != out && (v->flags & IR_V_OUTPUT))) continue;
            struct pr_change *cv = change(r, f, WI_CHANNELS);
            if (!cv) return 0;
            cv->v = v;
            cv->n = nc;
            cv->factor = s;
        }
    }
    int cs[64];
    int n = consumers(r, out, cs, 64);
    if (n == 0 || n == 64) return 0;
    for (int i = 0; i < n; i++) {
        const struct ir_node *nd = r->g->nodes[cs[i]];
        const struct pr_layer *M = layer_of_node(P, cs[i]);
        if (!M || nd->op < 0) return 0;
        int klass = op_table[nd->op].klass;
        int64_t groups = attr_i(nd, "group", 1), cin = dim(nd->in[0], 1);
        if ((klass == OC_CONV && groups == 1) || klass == OC_GEMM || klass == OC_MATMUL) {
            if (nd->in[0] != out) return 0; /* e.g. the weights side of a MatMul */
            struct pr_change *c = change(r, f, WI_SCALE_NODE);
            if (!c) return 0;
            c->node = cs[i];
            c->mac = c->params = s;
            add_layer(f, M);
            continue;
        }
        int passthrough = (klass == OC_CONV && groups > 1 && groups == cin) || klass == OC_ACT ||
                          klass == OC_NORM || klass == OC_POOL;
        if (!passthrough || M->nodes[0] != nd) return 0;
        for (int j = 1; j < M->n_nodes; j++) {
            if (M->nodes[j]->op < 0) return 0;
            int kj = op_table[M->nodes[j]->op].klass;
            if (kj != OC_ACT && kj != OC_NORM) return 0;
        }
        if (!channel_change(r, f, M, nc, s, depth + 1)) return 0;
        add_layer(f, M);
    }
    return 1;
}

/* align-channels looks at L: a conv / Gemm / MatMul on the accelerator whose output channels (c, padded to ca by
 * *rule) are at least ALIGN_MIN_WASTE padding */
static int align_applies(const struct nnperf_prediction *P, const struct pr_layer *L, int64_t *c, int64_t *ca,
                         const struct hw_align **rule)
{
    int rank = pr_out_rank(L);
    if (!on_accel(L) || !pr_layer_out(L) || rank < 2 || L->mac_ops <= 0) return 0;
    if (L->klass != OC_CONV && L->klass != OC_GEMM && L->klass != OC_MATMUL) return 0;
    *rule = pr_align_rule(P->hw, L);
    if (!*rule || (*rule)->pow2 || (*rule)->c <= 1) return 0;
    int ax = rank == 4 ? 1 : rank - 1;
    *c = dim(pr_layer_out(L), ax), *ca = pr_aligned_dims(L)[ax];
    return *c > 0 && *ca > *c && 1.0 - (double)*c / (double)*ca >= ALIGN_MIN_WASTE;
}

void adv_check_align(struct adv_run *r)
{
    const struct nnperf_prediction *P = r->base;
    for (int l = 0; l < P->n_layers && !r->st; l++) {
        const struct pr_layer *L = &P->layers[l];
        const struct hw_align *rule;
        int64_t c, ca;
        if (!align_applies(P, L, &c, &ca, &rule)) continue;
        double waste = 1.0 - (double)c / (double)ca;
        int64_t lo = c / rule->c * rule->c, hi = ca;
        int64_t nc = lo > 0 && c - lo <= hi - c ? lo : hi;
        struct adv_finding *f = start(r, "align-channels");
        if (!f) return;
        add_layer(f, L);
        if (!channel_change(r, f, L, nc, (double)nc / (double)c, 0)) continue;
        char ev[512], ch[512], tot[96] = "";
        double all = 1.0 - 1.0 / pr_align_factor(L);
        if (all > waste + 0.01) c_snprintf(tot, sizeof tot, " (%.0f%% with the H/W padding)", all * 100);
        c_snprintf(ev, sizeof ev, "C=%lld padded to %lld: %.0f%% of this layer's MACs are padding%s",
                   (long long)c, (long long)ca, waste * 100, tot);
        if (lo > 0)
            snprintf(ch, sizeof ch, "use %lld or %lld channels (predicted with %lld%s)", (long long)lo,
                     (long long)hi, (long long)nc,
                     f->n_layers > 1 ? ", the layers that follow it scaled alike" : "");
        else
            snprintf(ch, sizeof ch, "use %lld channels%s", (long long)hi,
                     f->n_layers > 1 ? " (the layers that follow it scaled alike)" : "");
        propose(r, f, ev, ch);
    }
}

/* ---- padded-attention: attention scores padded by the alignment ---- */

/* padded-attention looks at L: the scores of an attention on the accelerator (a fused attention, a Softmax, or a
 * MatMul of two activations: Q x K^T, scores x V) whose output the alignment pads to ATTN_MIN_PAD or more */
static int attention_padded(const struct pr_layer *L)
{
    if (!on_accel(L) || !pr_layer_out(L) || pr_out_rank(L) < 2 || pr_align_factor(L) < ATTN_MIN_PAD) return 0;
    if (L->klass == OC_ATTENTION || L->klass == OC_SOFTMAX) return 1;
    if (L->klass != OC_MATMUL || L->main->n_in < 2) return 0;
    for (int i = 0; i < 2; i++) {
        const struct ir_value *v = L->main->in[i];
        if (!v || (v->flags & IR_V_INIT) || v->is_const == 1) return 0;
    }
    return 1;
}

static void shape_text(char *b, size_t n, const int64_t *d, int rank)
{
    size_t o = 0;
    b[0] = 0;
    for (int i = 0; i < rank && o + 24 < n; i++)
        o += (size_t)snprintf(b + o, n - o, "%s%lld", i ? "x" : "", (long long)d[i]);
}

void adv_check_attention(struct adv_run *r)
{
    const struct nnperf_prediction *P = r->base;
    for (int l = 0; l < P->n_layers && !r->st; l++) {
        const struct pr_layer *L = &P->layers[l];
        if (!attention_padded(L)) continue;
        struct adv_finding *f = start(r, "padded-attention");
        struct pr_change *c = f ? change(r, f, WI_UNPAD) : NULL;
        if (!c) return;
        const struct ir_value *out = pr_layer_out(L);
        if (!out->producer) continue;
        c->node = out->producer->index;
        add_layer(f, L);
        int64_t d[NNPERF_MAX_RANK];
        int rank = pr_out_rank(L);
        const int64_t *ad = pr_aligned_dims(L);
        for (int i = 0; i < rank; i++) d[i] = dim(out, i);
        char ev[512], ch[640], real[128], pad[128], axes[160] = "";
        shape_text(real, sizeof real, d, rank);
        shape_text(pad, sizeof pad, ad, rank);
        size_t o = 0;
        for (int i = 0; i < rank && o + 48 < sizeof axes; i++)
            if (ad[i] > d[i] && d[i] > 0)
                o += (size_t)snprintf(axes + o, sizeof axes - o, "%s%lld to %lld", o ? ", " : "",
                                      (long long)d[i], (long long)ad[i]);
        c_snprintf(ev, sizeof ev,
                   "%s of an attention: its output %s is padded to %s by the alignment, %.1fx the elements "
                   "(%.0f%% padding)",
                   L->main->op_type, real, pad, pr_align_factor(L), 100 * (1 - 1 / pr_align_factor(L)));
        snprintf(ch, sizeof ch,
                 "give the attention a head count and sequence length (tokens per window) that the alignment "
                 "does not pad (it pads %s), or fold heads and windows into one axis (predicted: the padding "
                 "removed, an upper bound)",
                 axes);
        propose(r, f, ev, ch);
    }
}

/* ---- grouped-conv: wide dense convs that are memory-bound ---- */
/* grouped-conv looks at L: a memory-bound dense conv with a kernel over 1x1 and GROUP_MIN_CHANNELS or more input
 * channels that divide into *gr >= 2 groups */
static int grouped_applies(const struct pr_layer *L, int64_t *gr)
{
    const struct ir_node *nd = L->main;
    if (!on_accel(L) || L->klass != OC_CONV || L->bound != PB_MEMORY || nd->op != OPID_CONV) return 0;
    const struct ir_value *w = nd->n_in > 1 ? nd->in[1] : NULL;
    int64_t cout = dim(w, 0), cin = dim(w, 1), kh = dim(w, 2), kw = dim(w, 3);
    if (cin < GROUP_MIN_CHANNELS || cout <= 0 || kh * kw <= 1) return 0;
    *gr = cin / GROUP_WIDTH;
    while (*gr >= 2 && (cin % *gr || cout % *gr)) (*gr)--;
    return *gr >= 2;
}

void adv_check_grouped(struct adv_run *r)
{
    const struct nnperf_prediction *P = r->base;
    for (int l = 0; l < P->n_layers && !r->st; l++) {
        const struct pr_layer *L = &P->layers[l];
        const struct ir_node *nd = L->main;
        int64_t gr;
        if (!grouped_applies(L, &gr)) continue;
        const struct ir_value *w = nd->in[1];
        int64_t cin = dim(w, 1), kh = dim(w, 2), kw = dim(w, 3);
        struct adv_finding *f = start(r, "grouped-conv");
        struct pr_change *c = f ? change(r, f, WI_SCALE_NODE) : NULL;
        struct pr_change *cg = c ? change(r, f, WI_GROUPED) : NULL;
        if (!cg) return;
        c->node = cg->node = nd->index;
        c->mac = c->params = 1.0 / (double)gr;
        add_layer(f, L);
        char ev[512], ch[512], tm[32], tc[32], wb[32];
        fmt_time(tm, sizeof tm, L->t_memory);
        fmt_time(tc, sizeof tc, L->t_compute);
        fmt_bytes(wb, sizeof wb, L->w_bytes);
        snprintf(
            ev, sizeof ev,
            "dense %lldx%lld conv with %lld input channels is memory-bound: memory %s vs compute %s, %s of "
            "weights",
            (long long)kh, (long long)kw, (long long)cin, tm, tc, wb);
        snprintf(ch, sizeof ch,
                 "make it a grouped conv with %lld groups of %lld channels (MACs and weights / %lld)",
                 (long long)gr, (long long)(cin / gr), (long long)gr);
        propose(r, f, ev, ch);
    }
}

/* ---- spilled-shortcut: tensors written to DDR and read back ---- */
void adv_check_spill(struct adv_run *r)
{
    const struct nnperf_prediction *P = r->base;
    for (int t = 0; t < P->n_tensors && !r->st; t++) {
        const struct pr_tensor *T = &P->tensors[t];
        if (!T->spilled || T->producer < 0) continue;
        struct adv_finding *f = start(r, "spilled-shortcut");
        struct pr_change *c = f ? change(r, f, WI_PIN) : NULL;
        if (!c) return;
        c->v = T->v;
        const struct pr_layer *A = &P->layers[T->producer];
        add_layer(f, A);
        int last = T->last_use < P->n_layers ? T->last_use : P->n_layers - 1;
        add_layer(f, &P->layers[last]);
        char ev[640], ch[512], bs[32], ss[32];
        fmt_bytes(bs, sizeof bs, T->bytes / P->batch);
        fmt_bytes(ss, sizeof ss, P->hw->sram_bytes);
        snprintf(
            ev, sizeof ev,
            "'%s' (%s per frame) from layer '%s' is read again by '%s', %d layers later; it does not stay in "
            "the %s SRAM: it is stored to DDR and read back",
            T->v->name, bs, A->name, P->layers[last].name, last - T->producer, ss);
        snprintf(ch, sizeof ch,
                 "shorten the shortcut or shrink the feature map it carries so that it stays on chip "
                 "(predicted: kept "
                 "in SRAM)");
        propose(r, f, ev, ch);
    }
}

/* ---- large-weights: layers whose weight loads dominate ---- */
static int named_by(const struct nnperf_advice *adv, const char *rule, const char *layer)
{
    for (int i = 0; i < adv->n; i++)
        if (!strcmp(adv->f[i].rule, rule))
            for (int k = 0; k < adv->f[i].n_layers; k++)
                if (!strcmp(adv->f[i].layers[k], layer)) return 1;
    return 0;
}

/* The weight bytes L moves per run through the memory that bounds it (*of: all the bytes it moves there; *where:
 * "DDR", or "link" where the weights stream over the host link) */
static double weights_moved(const struct nnperf_prediction *P, const struct pr_layer *L, double *of,
                            const char **where)
{
    double bw;
    *where = "DDR";
    if (pr_memory_bound(P, L, of, &bw) != PM_LINK) return L->w_bytes;
    *where = "link";
    return L->params > 0 || pr_lx(L)->packed_bytes > 0 ? pr_lx(L)->link_bytes
                                                       : 0; /* the weights, with any graph input */
}

/* large-weights looks at L: memory-bound on the accelerator, WEIGHTS_MIN_BYTES or more weights, at least half the
 * bytes it moves through the memory that bounds it */
static int weights_apply(const struct nnperf_prediction *P, const struct pr_layer *L)
{
    double of;
    const char *where;
    double w = weights_moved(P, L, &of, &where);
    return on_accel(L) && L->bound == PB_MEMORY && w >= WEIGHTS_MIN_BYTES && w >= 0.5 * of;
}

void adv_check_weights(struct adv_run *r)
{
    const struct nnperf_prediction *P = r->base;
    for (int l = 0; l < P->n_layers && !r->st; l++) {
        const struct pr_layer *L = &P->layers[l];
        double of;
        const char *where;
        double wbytes = weights_moved(P, L, &of, &where);
        if (!weights_apply(P, L)) continue;
        if (named_by(r->adv, "grouped-conv", L->name))
            continue; /* that finding's change also cuts the weights */
        struct adv_finding *f = start(r, "large-weights");
        if (!f) return;
        for (int i = 0; i < L->n_nodes; i++) {
            if (!L->nodes[i]->cost.params) continue;
            struct pr_change *c = change(r, f, WI_SCALE_NODE);
            if (!c) return;
            c->node = L->nodes[i]->index;
            c->params = 0.5;
        }
        add_layer(f, L);
        char ev[512], ch[512], wb[32], tm[32], tc[32];
        fmt_bytes(wb, sizeof wb, wbytes);
        fmt_time(tm, sizeof tm, L->t_memory);
        fmt_time(tc, sizeof tc, L->t_compute);
        const struct ir_value *w = L->main->n_in > 1 ? L->main->in[1] : NULL;
        int big_kernel = L->klass == OC_CONV && dim(w, 2) * dim(w, 3) > 1;
        c_snprintf(ev, sizeof ev, "%s of weights (%.0f%% of the layer's %s bytes): memory %s vs compute %s",
                   wb, 100 * wbytes / of, where, tm, tc);
        snprintf(
            ch, sizeof ch,
            "halve the weights: fewer channels%s, 50%% structured pruning, or 4-bit weights where supported "
            "(predicted: weight bytes x 0.5)",
            big_kernel ? " or a smaller kernel" : "");
        propose(r, f, ev, ch);
    }
}

/* ---- data-transform: Transpose and friends on the accelerator ---- */
/* the operators it looks at, by registry row (a Reshape only where it copies: never, its class is a view) */
static const int transform_ops[] = {OPID_TRANSPOSE, OPID_DEPTH_TO_SPACE, OPID_SPACE_TO_DEPTH, OPID_RESHAPE};

static int is_transform(const struct ir_node *nd)
{
    for (size_t i = 0; i < sizeof transform_ops / sizeof transform_ops[0]; i++)
        if (nd->op == transform_ops[i]) return op_table[nd->op].klass != OC_VIEW;
    return 0;
}

/* data-transform looks at L: a lone transform on the accelerator that takes time */
static int transform_applies(const struct pr_layer *L)
{
    return on_accel(L) && L->n_nodes == 1 && is_transform(L->main) && L->t_total > 0;
}

void adv_check_transform(struct adv_run *r)
{
    const struct nnperf_prediction *P = r->base;
    for (size_t o = 0; o < sizeof transform_ops / sizeof transform_ops[0] && !r->st; o++) {
        const char *op = op_table[transform_ops[o]].name;
        struct adv_finding *f = NULL;
        int n = 0;
        double t = 0, bytes = 0;
        for (int l = 0; l < P->n_layers; l++) {
            const struct pr_layer *L = &P->layers[l];
            if (!transform_applies(L) || L->main->op != transform_ops[o]) continue;
            if (!f && !(f = start(r, "data-transform"))) return;
            struct pr_change *c = change(r, f, WI_DROP);
            if (!c) return;
            c->node = L->main->index;
            add_layer(f, L);
            n++;
            t += L->t_total;
            bytes += L->load_bytes + L->store_bytes + L->sram_bytes;
        }
        if (!f) continue;
        char ev[512], ch[512], ts[32], bs[32];
        fmt_time(ts, sizeof ts, t);
        fmt_bytes(bs, sizeof bs, bytes / P->batch);
        snprintf(ev, sizeof ev, "%d %s layer%s on the accelerator take%s %s and move %s per frame", n, op,
                 n > 1 ? "s" : "", n > 1 ? "" : "s", ts, bs);
        snprintf(ch, sizeof ch,
                 "avoid the %s: keep one layout between blocks, fold it into the neighbouring layers, or "
                 "change as "
                 "few dimensions as possible (predicted: folded away)",
                 op);
        propose(r, f, ev, ch);
    }
}

/* ---- batch-small-input ---- */
void adv_check_batch(struct adv_run *r)
{
    const struct nnperf_prediction *P = r->base;
    if (P->batch != 1 || r->st) return;
    const struct ir_value *in = NULL;
    for (int i = 0; i < r->g->n_inputs; i++) {
        const struct ir_value *v = r->g->inputs[i];
        if (!(v->flags & IR_V_INIT) && v->rank == 4) {
            in = v;
            break;
        }
    }
    int64_t h = dim(in, 2), w = dim(in, 3);
    if (!in || h <= 0 || w <= 0 || h > BATCH_MAX_SIDE || w > BATCH_MAX_SIDE) return;
    struct adv_finding *f = start(r, "batch-small-input");
    if (!f) return;
    f->wi.batch = BATCH_SUGGESTED;
    char ev[512], ch[512], wb[32];
    double streamed =
        0; /* weights loaded per run: from DDR, or over the host link (with the graph's input) */
    for (int l = 0; l < P->n_layers; l++)
        streamed += P->layers[l].w_bytes + (P->layers[l].params > 0 || pr_lx(&P->layers[l])->packed_bytes > 0
                                                ? pr_lx(&P->layers[l])->link_bytes
                                                : 0);
    fmt_bytes(wb, sizeof wb, streamed);
    snprintf(ev, sizeof ev,
             "input '%s' is %lldx%lld (<= %d): the %s of weights are loaded for every single frame", in->name,
             (long long)h, (long long)w, BATCH_MAX_SIDE, wb);
    snprintf(ch, sizeof ch,
             "run %d frames per run when the application can wait for them (weights loaded once per run)",
             BATCH_SUGGESTED);
    propose(r, f, ev, ch);
}

/* ---- dtype: a much faster dtype on this platform ---- */
/* dtype d has DTYPE_MIN_RATIO x the peak of the prediction's */
static int faster_dtype(const struct nnperf_prediction *P, int d)
{
    return d != P->dtype && hw_dtype_peak(P->hw, d) >= DTYPE_MIN_RATIO * hw_dtype_peak(P->hw, P->dtype);
}

void adv_check_dtype(struct adv_run *r)
{
    const struct nnperf_prediction *P = r->base;
    double cur = hw_dtype_peak(P->hw, P->dtype);
    for (int d = 0; d < HW_NDT && !r->st; d++) {
        double pk = hw_dtype_peak(P->hw, d);
        if (!faster_dtype(P, d)) continue;
        struct adv_finding *f = start(r, "dtype");
        if (!f) return;
        f->wi.dtype = hw_dtype_name(d);
        char ev[512], ch[512];
        c_snprintf(ev, sizeof ev, "the platform's %s peak (%.3g ops/s) is %.1fx its %s peak (%.3g ops/s)",
                   hw_dtype_name(d), pk, pk / cur, hw_dtype_name(P->dtype), cur);
        snprintf(ch, sizeof ch, "run in %s (quantize or convert the model; check the accuracy)",
                 hw_dtype_name(d));
        propose(r, f, ev, ch);
    }
}

/* ---- the API ---- */

static int cmp_finding(const void *x, const void *y)
{
    const struct adv_finding *a = x, *b = y;
    if (a->gain_s != b->gain_s) return a->gain_s > b->gain_s ? -1 : 1;
    int c = strcmp(a->rule, b->rule);
    if (c) return c;
    return strcmp(a->n_layers ? a->layers[0] : "", b->n_layers ? b->layers[0] : "");
}

enum nnperf_status nnperf_advise(const struct nnperf_analysis *a, const struct nnperf_platform *plat,
                                 const struct nnperf_advise_options *opts, struct nnperf_advice **out,
                                 char *err, size_t errlen)
{
    *out = NULL;
    if (!a || !plat || (opts && opts->predict.whatif) || (opts && opts->min_gain < 0)) {
        if (err && errlen) snprintf(err, errlen, "nnperf_advise: no analysis or platform, or bad options");
        return NNPERF_E_USAGE;
    }
    struct adv_run r = {0};
    r.a = a;
    r.plat = plat;
    if (opts) r.opts = opts->predict;
    enum nnperf_status st = nnperf_predict(a, plat, &r.opts, &r.base, err, errlen);
    if (st) return st;
    /* the rules read the graph the prediction reads: the lowered one (a QDQ model's Q/DQ pairs and a Dropout are
     * views there, so a conv's output is read by the next conv), whose values the what-ifs then name */
    r.g = r.base->g;
    struct nnperf_advice *adv = calloc(1, sizeof *adv);
    int ncons = 0;
    for (int k = 0; k < r.g->n_nodes; k++) ncons += r.g->nodes[k]->n_in;
    r.cons = malloc((size_t)(ncons ? ncons : 1) * sizeof *r.cons);
    if (!adv || !r.cons) {
        free(adv), free(r.cons);
        nnperf_prediction_free(r.base);
        if (err && errlen) snprintf(err, errlen, "out of memory");
        return NNPERF_E_NOMEM;
    }
    for (int k = 0; k < r.g->n_nodes; k++)
        for (int i = 0; i < r.g->nodes[k]->n_in; i++)
            if (r.g->nodes[k]->in[i]) r.cons[r.n_cons++] = (struct cons){r.g->nodes[k]->in[i], k};
    qsort(r.cons, (size_t)r.n_cons, sizeof *r.cons, cmp_cons);
    /* which nodes depend on a graph input: in execution order, a node does when one of its inputs is a graph input
     * or made by such a node */
    r.from_input = calloc((size_t)(r.g->n_nodes ? r.g->n_nodes : 1), 1);
    if (!r.from_input) {
        free(adv), free(r.cons);
        nnperf_prediction_free(r.base);
        if (err && errlen) snprintf(err, errlen, "out of memory");
        return NNPERF_E_NOMEM;
    }
    for (int k = 0; k < r.g->n_nodes; k++) {
        const struct ir_node *nd = r.g->nodes[k];
        for (int i = 0; i < nd->n_in && !r.from_input[k]; i++) {
            const struct ir_value *v = nd->in[i];
            if (!v) continue;
            if (v->producer ? r.from_input[v->producer->index] : !(v->flags & IR_V_INIT)) r.from_input[k] = 1;
        }
        for (int i = 0; i < nd->n_impl && !r.from_input[k]; i++)
            r.from_input[k] = 1; /* subgraph reads: assume */
        /* Shape and Size read only the (static) shape, not the values */
        if (nd->op == OPID_SHAPE || nd->op == OPID_SIZE) r.from_input[k] = 0;
    }
    ar_init(&adv->ar, 0);
    r.adv = adv;
    adv->a = a;
    adv->min_gain = opts && opts->min_gain > 0 ? opts->min_gain : 0.005;
    adv->model = ar_strdup(&adv->ar, a->st.m->path ? a->st.m->path : "model");
    adv->platform = ar_strdup(&adv->ar, r.base->hw->name);
    adv->dtype = hw_dtype_name(r.base->dtype);
    adv->frames = r.base->batch;
    adv->latency_s = r.base->latency;
    adv->fps = r.base->latency > 0 ? r.base->batch / r.base->latency : 0;
    adv->warn_from = r.base->n_warn;
    for (int i = 0; i < adv_n_rules && !r.st; i++) {
        adv_rules[i].check(&r);
        flush(&r);
    }
    free(r.cons);
    free(r.pend);
    free(r.from_input);
    adv->base = r.base;
    if (r.st) {
        if (err && errlen) snprintf(err, errlen, "out of memory");
        nnperf_advice_free(adv);
        return r.st;
    }
    if (adv->n > 1) qsort(adv->f, (size_t)adv->n, sizeof *adv->f, cmp_finding);
    *out = adv;
    return NNPERF_OK;
}

int nnperf_advice_count(const struct nnperf_advice *adv)
{
    return adv ? adv->n : 0;
}

void nnperf_advice_finding(const struct nnperf_advice *adv, int i, struct nnperf_finding *f)
{
    memset(f, 0, sizeof *f);
    if (!adv || i < 0 || i >= adv->n) return;
    const struct adv_finding *x = &adv->f[i];
    f->rule = x->rule;
    f->layers = x->layers;
    f->n_layers = x->n_layers;
    f->evidence = x->evidence;
    f->change = x->change;
    f->gain_s = x->gain_s;
    f->gain_fraction = x->gain_fraction;
    f->latency_s = x->latency_s;
    f->new_latency_s = x->new_latency_s;
    f->frames = x->frames;
    f->new_frames = x->new_frames;
    f->fps = x->fps;
    f->new_fps = x->new_fps;
    f->whatif = &x->wi;
}

void nnperf_advice_free(struct nnperf_advice *adv)
{
    if (!adv) return;
    nnperf_prediction_free(adv->base);
    ar_free(&adv->ar);
    free(adv);
}

int nnperf_advice_rule_count(void)
{
    return adv_n_rules;
}

const char *nnperf_advice_rule_id(int i)
{
    return i >= 0 && i < adv_n_rules ? adv_rules[i].id : NULL;
}

const char *nnperf_advice_rule_for_layer(const struct nnperf_prediction *p, int i)
{
    if (!p || i < 0 || i >= p->n_layers) return NULL;
    const struct pr_layer *L = &p->layers[i];
    const struct hw_align *rule;
    int64_t c, ca, gr;
    if (L->t_total <= 0 || !L->cost_known) return NULL;
    if (L->fallback) return "fallback";
    if (L->bound != PB_COMPUTE && L->bound != PB_MEMORY) return NULL; /* a fixed per-layer cost: no rule's */
    if (attention_padded(L)) return "padded-attention";
    if (align_applies(p, L, &c, &ca, &rule)) return "align-channels";
    if (L->bound == PB_MEMORY && (pr_lx(L)->spill_load_bytes > 0 || pr_lx(L)->spill_store_bytes > 0))
        return "spilled-shortcut";
    if (grouped_applies(L, &gr)) return "grouped-conv";
    if (weights_apply(p, L)) return "large-weights";
    if (transform_applies(L)) return "data-transform";
    if (L->bound == PB_COMPUTE)
        for (int d = 0; d < HW_NDT; d++)
            if (faster_dtype(p, d)) return "dtype";
    return NULL;
}
