/* analysis.c - the inference and counting driver: orders the graph, binds input shapes and symbols, runs each
 * operator's infer() and count() from the registry, falls back to declared shapes where inference could not
 * decide, fills the generic byte and parameter counts, and totals the summary. */
#include "analysis.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../onnx/onnx.h"

static void an_warn(struct an_state *an, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 2, 3)))
#endif
    ;

static void an_warn(struct an_state *an, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    if (ar_append_msg(&an->ar, &an->warn, &an->n_warn, &an->cap_warn, AN_MAX_WARNINGS, fmt, ap) < 0)
        an->dropped_warn++;
    va_end(ap);
}

/* Sorts g->nodes topologically; a cycle is an error naming a node on it. */
static enum nnperf_status an_topo_sort(struct ir_graph *g, struct arena *ar, struct diag *d)
{
    int n = g->n_nodes;
    if (n == 0) return NNPERF_OK;
    /* indegree over producer->consumer edges inside this graph; node indices via a temporary map */
    int *indeg = calloc((size_t)n, sizeof *indeg);
    int *queue = calloc((size_t)n, sizeof *queue);
    int *head = malloc((size_t)n * sizeof *head);
    struct ir_node **order = ar_calloc(ar, (size_t)n, sizeof *order);
    if (!indeg || !queue || !head || !order) {
        free(indeg), free(queue), free(head);
        return diag_set(d, NNPERF_E_NOMEM, "out of memory");
    }
    for (int i = 0; i < n; i++) g->nodes[i]->index = i, head[i] = -1;
    /* edge list: for each dependency (producer p -> consumer i) */
    size_t ne = 0, cap = 0;
    int *eto = NULL, *enext = NULL;
    enum nnperf_status st = NNPERF_OK;
    for (int i = 0; i < n && !st; i++) {
        struct ir_node *nd = g->nodes[i];
        int total = nd->n_in + nd->n_impl;
        for (int k = 0; k < total; k++) {
            struct ir_value *v = k < nd->n_in ? nd->in[k] : nd->impl[k - nd->n_in];
            if (!v || !v->producer || v->producer->graph != g) continue;
            if (v->producer == nd) {
                st = diag_set(d, NNPERF_E_INVALID, "node '%s' (%s) reads its own output '%s' (a cycle)",
                              nd->name, nd->op_type, v->name);
                break;
            }
            if (ne == cap) {
                cap = cap ? cap * 2 : 1024;
                int *a = realloc(eto, cap * sizeof *a), *b = a ? realloc(enext, cap * sizeof *b) : NULL;
                if (a) eto = a;
                if (!a || !b) {
                    st = diag_set(d, NNPERF_E_NOMEM, "out of memory");
                    break;
                }
                enext = b;
            }
            int p = v->producer->index;
            eto[ne] = i;
            enext[ne] = head[p];
            head[p] = (int)ne;
            ne++;
            indeg[i]++;
        }
    }
    int qh = 0, qt = 0, done = 0;
    if (!st) {
        for (int i = 0; i < n; i++)
            if (!indeg[i]) queue[qt++] = i;
        while (qh < qt) {
            int u = queue[qh++];
            order[done++] = g->nodes[u];
            for (int e = head[u]; e >= 0; e = enext[e])
                if (--indeg[eto[e]] == 0) queue[qt++] = eto[e];
        }
        if (done < n) {
            const struct ir_node *bad = NULL;
            for (int i = 0; i < n && !bad; i++)
                if (indeg[i]) bad = g->nodes[i];
            st = diag_set(d, NNPERF_E_INVALID, "the graph has a cycle through node '%s' (%s)", bad->name,
                          bad->op_type);
        }
    }
    if (!st && n > 0) {
        memcpy(g->nodes, order, (size_t)n * sizeof *order);
        for (int i = 0; i < n; i++) g->nodes[i]->index = i;
    }
    free(indeg), free(queue), free(head), free(eto), free(enext);
    return st;
}

/* dim 0 inferred at the batch the options bound where the model declares 1 (exported at batch 1): no conflict */
static int rebatched(const struct an_state *an, int axis, struct ir_dim inf, struct ir_dim dec)
{
    return axis == 0 && an->batch > 1 && dec.val == 1 && inf.val == an->batch;
}

/* Where inference left dims unknown, the model's own declaration (value_info, outputs) fills them in. */
static enum nnperf_status apply_declared(struct an_state *an, struct ir_node *nd, struct ir_value *v)
{
    if (ir_decl_rank(v) < 0 && !ir_decl_dtype(v)) return NNPERF_OK;
    if (!v->dtype && ir_decl_dtype(v)) v->dtype = ir_decl_dtype(v);
    if (ir_decl_rank(v) < 0) return NNPERF_OK;
    if (v->rank < 0) {
        /* a copy: the declared dims belong to the model */
        struct ir_dim *d = ar_calloc(&an->ar, (size_t)(ir_decl_rank(v) ? ir_decl_rank(v) : 1), sizeof *d);
        if (!d) return diag_set(&an->d, NNPERF_E_NOMEM, "out of memory");
        if (ir_decl_rank(v)) memcpy(d, ir_decl_dims(v), (size_t)ir_decl_rank(v) * sizeof *d);
        v->rank = ir_decl_rank(v);
        v->dims = d;
        return NNPERF_OK;
    }
    if (v->rank != ir_decl_rank(v)) {
        an_warn(an, "node '%s' (%s): output '%s' inferred with rank %d but declared with rank %d", nd->name,
                nd->op_type, v->name, v->rank, ir_decl_rank(v));
        return NNPERF_OK;
    }
    struct ir_dim *own = NULL; /* v's dims, copied before the first change: op_set may share an input's */
    for (int i = 0; i < v->rank; i++) {
        struct ir_dim inf = v->dims[i], dec = ir_decl_dims(v)[i];
        if (inf.val < 0 && !inf.sym && (dec.val >= 0 || dec.sym)) {
            if (!own) {
                if (!(own = ar_calloc(&an->ar, (size_t)v->rank, sizeof *own)))
                    return diag_set(&an->d, NNPERF_E_NOMEM, "out of memory");
                memcpy(own, v->dims, (size_t)v->rank * sizeof *own);
                v->dims = own;
            }
            own[i] = dec;
        } else if (rebatched(an, i, inf, dec))
            continue; /* the batch the options set, where the model was exported at batch 1 */
        else if (inf.val >= 0 && dec.val >= 0 && inf.val != dec.val) {
            an_warn(an, "node '%s' (%s): output '%s' dim %d inferred as %lld but declared as %lld", nd->name,
                    nd->op_type, v->name, i, (long long)inf.val, (long long)dec.val);
            return NNPERF_OK;
        }
    }
    return NNPERF_OK;
}

static uint64_t value_bytes(const struct ir_value *v, int *ok)
{
    int64_t n;
    if (!v) return 0;
    if (!ir_numel(v, &n) || (!v->dtype && n)) {
        *ok = 0;
        return 0;
    }
    int bits = ir_dtype_bits(v->dtype);
    if (v->dtype == DT_STRING) bits = 8 * 16;             /* strings: a nominal 16 bytes each */
    uint64_t b = ck_sat_mul((uint64_t)n, (uint64_t)bits); /* 2^59 float32 elements are 2^64 bits */
    return b == UINT64_MAX ? UINT64_MAX : (b + 7) / 8;
}

/* Whether every element of v is known after binding the dims (a propagated value with no symbol or unknown). */
static int value_known(const struct ir_value *v)
{
    if (v->fv) return 1;
    if (!v->iv) return 0;
    for (int64_t k = 0; k < v->nv; k++)
        if (!v->iv[k].known) return 0;
    return 1;
}

/* Outputs of a node are constant (is_const 1) when all its inputs are initializers or constants of that kind (and
 * it is not a random generator): a compiler folds them and their elements are parameters. They are known after
 * binding (is_const 2) when every input is constant of either kind, or every output's value is fully known (shape
 * arithmetic on runtime tensors: Shape -> Gather -> Unsqueeze -> Concat once the dims are bound): a runtime
 * evaluates them once, they are no layer and no parameters. */
static void mark_const(struct ir_node *nd)
{
    int op = nd->op;
    int gen = op >= 0 && op_table[op].klass != OC_CONTROL && op != OPID_RANDOM_NORMAL &&
              op != OPID_RANDOM_NORMAL_LIKE && op != OPID_RANDOM_UNIFORM && op != OPID_RANDOM_UNIFORM_LIKE &&
              op != OPID_BERNOULLI && op != OPID_MULTINOMIAL;
    int level = gen ? 1 : 0;
    for (int i = 0; i < nd->n_in && level; i++) {
        const struct ir_value *v = nd->in[i];
        if (!v || (v->flags & IR_V_INIT)) continue;
        if (!v->is_const)
            level = 0;
        else if (v->is_const == 2)
            level = 2;
    }
    if (!level && gen) {
        int any = 0, all = 1;
        for (int i = 0; i < nd->n_out; i++)
            if (nd->out[i]) any = 1, all &= value_known(nd->out[i]);
        if (any && all) level = 2;
    }
    for (int i = 0; i < nd->n_out; i++)
        if (nd->out[i]) nd->out[i]->is_const = (signed char)level; /* 0, 1 or 2 */
}

static void count_node(struct op_ctx *c)
{
    struct ir_node *nd = c->n;
    struct ir_cost *cost = &nd->cost;
    memset(cost, 0, sizeof *cost);
    cost->known = 1;
    if (nd->op < 0) {
        cost->known = 0;
        return;
    }
    const struct op_def *od = &op_table[nd->op];
    od->count(c, cost);
    /* count() gives MACs and the FLOPs beyond them; every MAC is 2 FLOPs (docs/conventions.md) */
    cost->flops = ck_sat_add(ck_sat_mul(2, cost->macs), cost->flops);
    int ok = 1;
    for (int i = 0; i < nd->n_in; i++) {
        const struct ir_value *v = nd->in[i];
        if (!v) continue;
        if (v->type_kind == TK_SEQUENCE || v->type_kind == TK_MAP) continue;
        uint64_t b = value_bytes(v, &ok);
        if (od->klass != OC_VIEW) cost->bytes_read = ck_sat_add(cost->bytes_read, b);
        int64_t n;
        if (((v->flags & IR_V_INIT) || v->is_const == 1) && ir_numel(v, &n))
            cost->params = ck_sat_add(cost->params, (uint64_t)n);
    }
    for (int i = 0; i < nd->n_out; i++) {
        const struct ir_value *v = nd->out[i];
        if (!v || v->type_kind == TK_SEQUENCE || v->type_kind == TK_MAP) continue;
        uint64_t b = value_bytes(v, &ok);
        if (od->klass != OC_VIEW) cost->bytes_written = ck_sat_add(cost->bytes_written, b);
    }
    /* count() may say which parameters are read (a mixture of experts reads only the routed experts) */
    cost->params_read =
        cost->params_read && cost->params_read < cost->params ? cost->params_read : cost->params;
    /* a Gather from a constant table (an embedding) reads only the rows it gathers */
    const struct ir_value *tab = nd->n_in > 0 ? nd->in[0] : NULL, *rows = nd->n_out > 0 ? nd->out[0] : NULL;
    int64_t nt, nr;
    if (nd->op == OPID_GATHER && tab && rows && ((tab->flags & IR_V_INIT) || tab->is_const == 1) &&
        ir_numel(tab, &nt) && ir_numel(rows, &nr) && nr < nt) {
        int ok2 = 1;
        cost->bytes_read = ck_sat_add(cost->bytes_read - value_bytes(tab, &ok2), value_bytes(rows, &ok2));
        cost->params_read = cost->params - (uint64_t)nt + (uint64_t)nr;
    }
    if (!ok) cost->known = 0;
    if (cost->macs == UINT64_MAX || cost->flops == UINT64_MAX || cost->params == UINT64_MAX ||
        cost->bytes_read == UINT64_MAX || cost->bytes_written == UINT64_MAX) {
        cost->saturated = 1;
        cost->known = 0;
        op_warn(c, "its FLOPs or bytes pass 2^64 - 1: the counts saturated and its cost is not known");
    }
}

static void reset_value(struct ir_value *v)
{
    v->rank = -1;
    v->dims = NULL;
    v->iv = NULL;
    v->fv = NULL;
    v->nv = 0;
    ir_forget_found(v);
    v->is_const = 0;
    if (v->type_kind != TK_SEQUENCE && v->type_kind != TK_OPTIONAL && v->type_kind != TK_MAP)
        v->type_kind = TK_TENSOR;
}

static void host_warn(void *ctx, const char *msg)
{
    an_warn(ctx, "%s", msg);
}

static enum nnperf_status host_infer_subgraph(void *ctx, struct ir_graph *g, int64_t repeat)
{
    struct an_state *an = ctx;
    an->sub_depth++;
    enum nnperf_status st = an_run_graph(an, g, repeat < 1 ? 1 : repeat);
    an->sub_depth--;
    return st;
}

enum nnperf_status an_run_graph(struct an_state *an, struct ir_graph *g, int64_t repeat)
{
    const struct op_host host = {an, host_warn, host_infer_subgraph};
    enum nnperf_status st = an_topo_sort(g, &an->ar, &an->d);
    if (st) return st;
    for (int k = 0; k < g->n_nodes; k++) {
        struct ir_node *nd = g->nodes[k];
        nd->repeat = repeat;
        for (int i = 0; i < nd->n_out; i++)
            if (nd->out[i]) reset_value(nd->out[i]), nd->out[i]->dtype = DT_UNDEFINED;
        struct op_ctx c = {an->m, nd, &an->ar, &an->d, &host};
        if (nd->op >= 0) {
            const struct op_def *od = &op_table[nd->op];
            st = od->infer(&c);
            if (st) {
                if (an->d.status == NNPERF_OK)
                    diag_set(&an->d, st, "node '%s' (%s): inference failed", nd->name, nd->op_type);
                return an->d.status;
            }
            /* values of small initializers feeding this node are decoded lazily; an error there is fatal */
            if (an->d.status) return an->d.status;
        } else {
            op_infer_unknown(&c);
        }
        for (int i = 0; i < nd->n_out; i++)
            if (nd->out[i] && (st = apply_declared(an, nd, nd->out[i]))) return st;
        nd->inferred = 1;
        mark_const(nd);
        count_node(&c);
    }
    return NNPERF_OK;
}

/* ---- binding input shapes and symbols ----
 * A dim is a positive integer or a symbol name (a letter or '_', then letters, digits and '_'; or any symbol the
 * model's inputs use); '?' leaves it unknown. 0 is taken only where an empty tensor makes sense: not for the batch
 * (dim 0) and not where the model declares a positive size (an empty past of a KV cache is fine). Every message
 * names the input with the dims the model gives it, and lists what the model has, with "did you mean". */

/* "[batch, 3, 224, 224]" (the model's declaration: the analysis's copy before any binding changed it) */
static void put_dims(struct strbuf *sb, const struct ir_value *v)
{
    if (v && v->rank < 0) {
        sb_puts(sb, "(shape not declared)");
        return;
    }
    sb_putc(sb, '[');
    if (v && v->rank > 0) ir_format_shape(sb, v, ", ");
    sb_putc(sb, ']');
}

/* the model's declaration of the graph input at index i (as it was before any input shape was bound) */
static const struct ir_value *model_input(const struct an_state *an, int i)
{
    return i < an->n_decl_in ? &an->decl_in[i] : an->g->inputs[i];
}

/* an->g: a copy of the model's graph records, or the records themselves for a model loaded to be analysed once */
static enum nnperf_status take_graph(struct an_state *an, struct ir_model *m)
{
    const struct ir_graph *mg = m->graph;
    struct ir_value *in = ar_calloc(&an->ar, (size_t)(mg->n_inputs ? mg->n_inputs : 1), sizeof *in);
    if (!in) return diag_set(&an->d, NNPERF_E_NOMEM, "out of memory");
    for (int i = 0; i < mg->n_inputs; i++) in[i] = *mg->inputs[i];
    an->decl_in = in;
    an->n_decl_in = mg->n_inputs;
    if (!(m->load_flags & NNPERF_LOAD_ANALYZE_ONCE)) return ir_clone_graph(&an->ar, mg, &an->g, &an->d);
    if (m->analyzed)
        return diag_set(&an->d, NNPERF_E_USAGE,
                        "the model was loaded to be analysed once (NNPERF_LOAD_ANALYZE_ONCE) and has been");
    m->analyzed = 1;
    an->g = m->graph;
    return NNPERF_OK;
}

/* "x [batch, 3, 224, 224], mask [batch, 128]": the model's runtime inputs (not initializers), at most 6 */
static void put_inputs(struct strbuf *sb, const struct an_state *an)
{
    int shown = 0, total = 0;
    for (int i = 0; i < an->g->n_inputs; i++) {
        const struct ir_value *v = model_input(an, i);
        if (v->flags & IR_V_INIT) continue;
        if (total++ >= 6) continue;
        sb_printf(sb, "%s%s ", shown++ ? ", " : "", v->name);
        put_dims(sb, v);
    }
    if (!total) sb_puts(sb, "none");
    if (total > shown) sb_printf(sb, " and %d more", total - shown);
}

static int is_identifier(const char *s, size_t n)
{
    if (!n || !((s[0] >= 'A' && s[0] <= 'Z') || (s[0] >= 'a' && s[0] <= 'z') || s[0] == '_')) return 0;
    for (size_t i = 1; i < n; i++)
        if (!((s[i] >= 'A' && s[i] <= 'Z') || (s[i] >= 'a' && s[i] <= 'z') || (s[i] >= '0' && s[i] <= '9') ||
              s[i] == '_'))
            return 0;
    return 1;
}

/* The symbols the model's runtime inputs use, each once (at most max), with where the first one sits. */
static int model_symbols(const struct an_state *an, const char **sym, int *input, int *axis, int max)
{
    int n = 0;
    for (int i = 0; i < an->g->n_inputs; i++) {
        const struct ir_value *v = model_input(an, i);
        if (v->flags & IR_V_INIT) continue;
        for (int k = 0; k < v->rank; k++) {
            const char *s = v->dims[k].val < 0 ? v->dims[k].sym : NULL;
            int seen = 0;
            for (int j = 0; s && j < n; j++) seen |= !strcmp(sym[j], s);
            if (!s || seen || n == max) continue;
            sym[n] = s, input[n] = i, axis[n] = k;
            n++;
        }
    }
    return n;
}

static int model_has_symbol(const struct an_state *an, const char *s, size_t len)
{
    const char *sym[AN_MAX_UNBOUND];
    int in[AN_MAX_UNBOUND], ax[AN_MAX_UNBOUND];
    int n = model_symbols(an, sym, in, ax, AN_MAX_UNBOUND);
    for (int j = 0; j < n; j++)
        if (strlen(sym[j]) == len && !strncmp(sym[j], s, len)) return 1;
    return 0;
}

/* 0 for the batch or a dim the model declares positive: refused (why, else NULL) */
static const char *zero_refused(const struct ir_value *decl, int axis)
{
    if (axis == 0) return "0 frames: dim 0 is the batch, and a run of 0 frames computes nothing";
    if (decl && axis < decl->rank && decl->dims[axis].val > 0)
        return "0 where the model declares a positive size";
    return NULL;
}

/* the frames one run computes, from the batch (dim 0) of an input bound here: an input of rank 2 or more whose
 * batch the model leaves open (a symbol, unknown, or 1: an export at batch 1) */
static void note_batch(struct an_state *an, int input, int64_t val)
{
    const struct ir_value *decl = model_input(an, input);
    if (val < 1 || (decl->flags & IR_V_INIT) || an->g->inputs[input]->rank < 2) return;
    if (decl->rank >= 1 && decl->dims[0].val > 1) return; /* a fixed leading dim, not a batch */
    if (!an->batch) {
        an->batch = val;
        an->batch_input = decl->name;
    } else if (an->batch != val) {
        an_warn(
            an,
            "inputs '%s' and '%s' have different batches (%lld and %lld): frames per run are taken from '%s'",
            an->batch_input, decl->name, (long long)an->batch, (long long)val, an->batch_input);
    }
}

static enum nnperf_status bind_error(struct an_state *an, enum nnperf_status st, struct strbuf *sb)
{
    st = diag_set(&an->d, st, "%s", sb->p ? sb->p : "out of memory");
    sb_free(sb);
    return st;
}

static enum nnperf_status parse_dim_token(struct an_state *an, const char *tok, size_t len, int axis,
                                          const struct ir_value *decl, const char *spec, struct ir_dim *out)
{
    int digits = len > 0;
    for (size_t i = 0; i < len; i++)
        if (tok[i] < '0' || tok[i] > '9') digits = 0;
    const char *why = NULL;
    if (digits) {
        long long val = len > 13 ? -1 : strtoll(tok, NULL, 10);
        if (val < 0 || val > ((long long)1 << 40))
            why = "too large (at most 2^40)";
        else if (val == 0 && zero_refused(decl, axis))
            why = zero_refused(decl, axis);
        else {
            *out = ir_dim_known(val);
            return NNPERF_OK;
        }
    } else if (len == 1 && tok[0] == '?') {
        *out = IR_DIM_UNKNOWN;
        return NNPERF_OK;
    } else if (is_identifier(tok, len) || model_has_symbol(an, tok, len)) {
        out->val = -1;
        out->sym = ar_strndup(&an->ar, tok, len);
        return out->sym ? NNPERF_OK : diag_set(&an->d, NNPERF_E_NOMEM, "out of memory");
    }
    struct strbuf sb;
    sb_init(&sb, 480);
    sb_printf(&sb, "input '%s' ", decl->name);
    put_dims(&sb, decl);
    if (!len)
        sb_printf(&sb, ": shape '%s' has an empty dim", spec);
    else
        sb_printf(&sb, ": dim %d is '%.*s': %s", axis, (int)(len > 40 ? 40 : len), tok,
                  why ? why : "not a dim");
    sb_puts(&sb,
            "; a dim is a positive integer or a symbol name (letters, digits and '_', not starting with a "
            "digit)");
    return bind_error(an, NNPERF_E_USAGE, &sb);
}

static enum nnperf_status bind_input(struct an_state *an, const char *spec)
{
    const char *eq = strrchr(spec, '=');
    if (!eq || eq == spec)
        return diag_set(&an->d, NNPERF_E_USAGE,
                        "input shape '%.200s': expected NAME=DIMS such as input=1x3x224x224", spec);
    size_t nl = (size_t)(eq - spec);
    struct ir_graph *g = an->g;
    int idx = -1;
    for (int i = 0; i < g->n_inputs; i++)
        if (strlen(g->inputs[i]->name) == nl && !strncmp(g->inputs[i]->name, spec, nl)) idx = i;
    if (idx < 0) {
        char name[256];
        snprintf(name, sizeof name, "%.*s", (int)(nl < 200 ? nl : 200), spec);
        const char *cands[64];
        int nc = 0;
        for (int i = 0; i < g->n_inputs && nc < 64; i++)
            if (!(g->inputs[i]->flags & IR_V_INIT)) cands[nc++] = g->inputs[i]->name;
        const char *sug = nnperf_suggest(name, cands, nc);
        struct strbuf sb;
        sb_init(&sb, 480);
        sb_printf(&sb, "the model has no input named '%s'", name);
        if (sug) sb_printf(&sb, " (did you mean '%s'?)", sug);
        sb_puts(&sb, "; its inputs: ");
        put_inputs(&sb, an);
        return bind_error(an, NNPERF_E_USAGE, &sb);
    }
    struct ir_value *v = g->inputs[idx];
    const struct ir_value *decl = model_input(an, idx);
    struct ir_dim dims[NNPERF_MAX_RANK];
    int rank = 0;
    const char *p = eq + 1;
    if (!strcmp(p, "scalar")) p = "";
    while (*p) {
        size_t len = strcspn(p, "x,");
        if (rank == NNPERF_MAX_RANK)
            return diag_set(&an->d, NNPERF_E_LIMIT, "input '%s': more than %d dims in '%.100s'", decl->name,
                            NNPERF_MAX_RANK, eq + 1);
        enum nnperf_status st = parse_dim_token(an, p, len, rank, decl, eq + 1, &dims[rank]);
        if (st) return st;
        rank++;
        p += len;
        if (*p == 'x' || *p == ',') {
            p++;
            if (!*p) return parse_dim_token(an, p, 0, rank, decl, eq + 1, &dims[rank - 1]);
        }
    }
    if (decl->rank >= 0 && rank != decl->rank) {
        struct strbuf sb;
        sb_init(&sb, 480);
        sb_printf(&sb, "input '%s' ", decl->name);
        put_dims(&sb, decl);
        sb_printf(&sb,
                  " has %d dim%s; shape '%.100s' gives %d (dims are separated by 'x' or ',': 1x3x224x224)",
                  decl->rank, decl->rank == 1 ? "" : "s", eq + 1, rank);
        return bind_error(an, NNPERF_E_USAGE, &sb);
    }
    struct ir_dim *nd = ar_calloc(&an->ar, (size_t)(rank ? rank : 1), sizeof *nd);
    if (!nd) return diag_set(&an->d, NNPERF_E_NOMEM, "out of memory");
    memcpy(nd, dims, (size_t)rank * sizeof *nd);
    v->rank = rank;
    v->dims = nd;
    if (v->flags & IR_V_INIT) v->iv = NULL, v->fv = NULL;
    if (rank > 0) note_batch(an, idx, nd[0].val);
    return NNPERF_OK;
}

static enum nnperf_status bind_symbol(struct an_state *an, const char *spec)
{
    const char *eq = strchr(spec, '=');
    if (!eq || eq == spec || !eq[1])
        return diag_set(&an->d, NNPERF_E_USAGE, "dim binding '%.200s': expected SYMBOL=N such as batch=1",
                        spec);
    size_t nl = (size_t)(eq - spec);
    const char *sym[AN_MAX_UNBOUND];
    int sin[AN_MAX_UNBOUND], sax[AN_MAX_UNBOUND];
    int ns = model_symbols(an, sym, sin, sax, AN_MAX_UNBOUND);
    int known = 0;
    for (int j = 0; j < ns; j++) known |= strlen(sym[j]) == nl && !strncmp(sym[j], spec, nl);
    /* also a symbol an input shape of these options brought in */
    struct ir_graph *g = an->g;
    for (int i = 0; i < g->n_inputs && !known; i++)
        for (int k = 0; k < g->inputs[i]->rank; k++) {
            const char *s = g->inputs[i]->dims[k].sym;
            known |= g->inputs[i]->dims[k].val < 0 && s && strlen(s) == nl && !strncmp(s, spec, nl);
        }
    if (!known) {
        char name[128];
        snprintf(name, sizeof name, "%.*s", (int)(nl < 100 ? nl : 100), spec);
        struct strbuf sb;
        sb_init(&sb, 480);
        sb_printf(&sb, "no input has a dim named '%s'", name);
        const char *sug = nnperf_suggest(name, sym, ns);
        if (sug) sb_printf(&sb, " (did you mean '%s'?)", sug);
        if (ns) {
            sb_puts(&sb, "; the inputs' symbolic dims: ");
            for (int j = 0; j < ns && j < 8; j++)
                sb_printf(&sb, "%s%s (input '%s' dim %d)", j ? ", " : "", sym[j],
                          model_input(an, sin[j])->name, sax[j]);
            if (ns > 8) sb_printf(&sb, " and %d more", ns - 8);
        } else {
            sb_puts(&sb, "; the model's inputs have no symbolic dims: ");
            put_inputs(&sb, an);
        }
        return bind_error(an, NNPERF_E_USAGE, &sb);
    }
    char *end;
    long long val = strtoll(eq + 1, &end, 10);
    int digits = 1;
    for (const char *c = eq + 1; *c; c++) digits &= *c >= '0' && *c <= '9';
    int at_batch = 0;
    for (int i = 0; i < g->n_inputs; i++)
        if (g->inputs[i]->rank > 0 && g->inputs[i]->dims[0].val < 0 && g->inputs[i]->dims[0].sym &&
            strlen(g->inputs[i]->dims[0].sym) == nl && !strncmp(g->inputs[i]->dims[0].sym, spec, nl))
            at_batch = 1;
    if (!digits || *end || val < 0 || val > ((long long)1 << 40) || (val == 0 && at_batch)) {
        struct strbuf sb;
        sb_init(&sb, 480);
        sb_printf(&sb, "dim '%.*s' = '%.40s': %s", (int)(nl < 100 ? nl : 100), spec, eq + 1,
                  !digits || *end ? "not a dim; a dim is a positive integer"
                  : val != 0      ? "too large (at most 2^40)"
                                  : "0 frames: a batch, and a run of 0 frames computes nothing");
        for (int j = 0; j < ns; j++)
            if (strlen(sym[j]) == nl && !strncmp(sym[j], spec, nl)) {
                sb_printf(&sb, " (dim %d of input '%s' ", sax[j], model_input(an, sin[j])->name);
                put_dims(&sb, model_input(an, sin[j]));
                sb_putc(&sb, ')');
                break;
            }
        return bind_error(an, NNPERF_E_USAGE, &sb);
    }
    for (int i = 0; i < g->n_inputs; i++) {
        struct ir_value *v = g->inputs[i];
        struct ir_dim *dims = NULL; /* the input's dims, copied before the first change: the model's stay */
        for (int k = 0; k < v->rank; k++)
            if (v->dims[k].sym && strlen(v->dims[k].sym) == nl && !strncmp(v->dims[k].sym, spec, nl)) {
                if (!dims) {
                    if (!(dims = ar_calloc(&an->ar, (size_t)v->rank, sizeof *dims)))
                        return diag_set(&an->d, NNPERF_E_NOMEM, "out of memory");
                    memcpy(dims, v->dims, (size_t)v->rank * sizeof *dims);
                }
                dims[k] = ir_dim_known(val);
                if (k == 0) note_batch(an, i, val);
            }
        if (dims) v->dims = dims;
    }
    return NNPERF_OK;
}

static void copy_err(char *err, size_t errlen, const struct diag *d)
{
    if (err && errlen) snprintf(err, errlen, "%s", d->msg[0] ? d->msg : nnperf_status_name(d->status));
}

static uint64_t init_bytes(const struct ir_value *v)
{
    int ok = 1;
    return value_bytes(v, &ok);
}

static void add_inits(struct an_state *an, const struct ir_graph *g)
{
    for (int i = 0; i < g->n_inits; i++) {
        const struct ir_value *v = g->inits[i];
        int64_t n;
        if (!v->n_consumers && !(v->flags & IR_V_OUTPUT)) continue;
        if (ir_numel(v, &n)) {
            an->sum.params = ck_sat_add(an->sum.params, (uint64_t)n);
            an->sum.weight_bytes = ck_sat_add(an->sum.weight_bytes, init_bytes(v));
        }
    }
    for (int k = 0; k < g->n_nodes; k++) {
        const struct ir_node *nd = g->nodes[k];
        for (int a = 0; nd->n_sub && a < nd->n_attr; a++) {
            if (nd->attrs[a].type == AT_GRAPH && nd->attrs[a].g) add_inits(an, nd->attrs[a].g);
            if (nd->attrs[a].type == AT_GRAPHS)
                for (int j = 0; j < nd->attrs[a].n; j++) add_inits(an, nd->attrs[a].graphs[j]);
        }
    }
}

static int cmp_node_op(const void *a, const void *b)
{
    const struct ir_node *x = *(const struct ir_node *const *)a, *y = *(const struct ir_node *const *)b;
    int c = strcmp(x->domain, y->domain);
    return c ? c : strcmp(x->op_type, y->op_type);
}

/* Symbolic dims of the model's inputs that no input shape or dim binding bound: recorded (an->unbound) and warned
 * about with the share of nodes they leave uncounted, since every prediction of those nodes would be 0 s. */
static void unbound_dims(struct an_state *an)
{
    const struct ir_graph *g = an->g;
    struct strbuf sb;
    sb_init(&sb, 2000);
    for (int i = 0; i < g->n_inputs; i++) {
        const struct ir_value *v = g->inputs[i];
        if (v->flags & IR_V_INIT) continue;
        for (int k = 0; k < v->rank; k++) {
            const char *sym = v->dims[k].val < 0 ? v->dims[k].sym : NULL;
            int seen = 0;
            for (int j = 0; sym && j < an->n_unbound; j++) seen |= !strcmp(an->unbound[j], sym);
            if (!sym || seen || an->n_unbound == AN_MAX_UNBOUND) continue;
            an->unbound_input[an->n_unbound] = i;
            an->unbound_axis[an->n_unbound] = k;
            an->unbound[an->n_unbound++] = sym;
            sb_printf(&sb, "%s'%s'", an->n_unbound > 1 ? ", " : "", sym);
        }
    }
    if (an->n_unbound) {
        int uncounted = 0;
        for (int k = 0; k < g->n_nodes; k++) uncounted += !g->nodes[k]->cost.known;
        an->warn_unbound = an->n_warn;
        an_warn(an,
                "unbound symbolic input dims %s: %d of %d nodes (%.1f%%) cannot be counted (a prediction "
                "would take them as 0 s); "
                "bind each symbol to a number (%s=1) or give the inputs' shapes",
                sb.p ? sb.p : "", uncounted, g->n_nodes, 100.0 * uncounted / (g->n_nodes ? g->n_nodes : 1),
                an->unbound[0]);
        if (an->warn_unbound >= an->n_warn) an->warn_unbound = -1;
    }
    sb_free(&sb);
}

static void summarize(struct an_state *an)
{
    struct nnperf_summary *s = &an->sum;
    const struct ir_graph *g = an->g;
    int unsupported = 0, shape_unknown = 0;
    s->nodes = g->n_nodes;
    for (int k = 0; k < g->n_nodes; k++) {
        const struct ir_node *nd = g->nodes[k];
        if (!nd->cost.known) {
            s->unknown_nodes++;
            if (nd->op < 0)
                unsupported++;
            else if (!nd->cost.saturated) /* a saturated node has its own warning */
                shape_unknown++;
            continue;
        }
        s->macs = ck_sat_add(s->macs, nd->cost.macs);
        s->flops = ck_sat_add(s->flops, nd->cost.flops);
        int kl = op_table[nd->op].klass;
        if (kl == OC_CONV || kl == OC_GEMM || kl == OC_MATMUL)
            s->conv_gemm_matmul_macs = ck_sat_add(s->conv_gemm_matmul_macs, nd->cost.macs);
    }
    add_inits(an, g);
    for (int i = 0; i < g->n_values; i++) {
        const struct ir_value *v = g->values[i];
        if (v->flags & IR_V_INIT) continue;
        int64_t n;
        if (v->type_kind == TK_TENSOR && !ir_numel(v, &n)) s->unknown_tensors++;
        int ok = 1;
        uint64_t b = value_bytes(v, &ok);
        if (ok) s->activation_bytes = ck_sat_add(s->activation_bytes, b);
    }
    if (unsupported) {
        /* one warning listing the unknown operators with their counts and share of nodes: the unsupported
         * nodes sorted by (domain, op type), counted run by run (n log n: a graph of 100k unknown nodes is fine) */
        struct strbuf sb;
        sb_init(&sb, 4000);
        const struct ir_node **un = malloc((size_t)unsupported * sizeof *un);
        int nu = 0;
        for (int k = 0; un && k < g->n_nodes; k++)
            if (g->nodes[k]->op < 0) un[nu++] = g->nodes[k];
        if (un) qsort(un, (size_t)nu, sizeof *un, cmp_node_op);
        int listed = 0;
        for (int i = 0; i < nu && listed < 20;) {
            int j = i + 1;
            while (j < nu && !cmp_node_op(&un[i], &un[j])) j++;
            sb_printf(&sb, "%s%s%s%s (%d)", listed ? ", " : "", un[i]->domain, un[i]->domain[0] ? "." : "",
                      un[i]->op_type, j - i);
            listed++;
            i = j;
        }
        free(un);
        an->warn_unknown_op = an->n_warn;
        an_warn(an,
                "%d of %d nodes (%.1f%%) use operators nnperf does not support: %s; their outputs are "
                "unknown and "
                "their cost is not counted",
                unsupported, g->n_nodes, 100.0 * unsupported / (g->n_nodes ? g->n_nodes : 1),
                sb.p ? sb.p : "");
        if (an->warn_unknown_op >= an->n_warn) an->warn_unknown_op = -1;
        sb_free(&sb);
    }
    if (shape_unknown) {
        const struct ir_node *first = NULL;
        for (int k = 0; k < g->n_nodes && !first; k++)
            if (!g->nodes[k]->cost.known && g->nodes[k]->op >= 0 && !g->nodes[k]->cost.saturated)
                first = g->nodes[k];
        an_warn(an,
                "%d of %d nodes (%.1f%%) could not be counted because shapes are unknown (first: '%s' (%s))",
                shape_unknown, g->n_nodes, 100.0 * shape_unknown / (g->n_nodes ? g->n_nodes : 1), first->name,
                first->op_type);
    }
    unbound_dims(an);
    if (an->dropped_warn) an_warn(an, "%d more warnings were dropped", an->dropped_warn);
    s->warnings = an->n_warn;
}

enum nnperf_status nnperf_analyze(const struct nnperf_model *model, const struct nnperf_analyze_options *opts,
                                  struct nnperf_analysis **out, char *err, size_t errlen)
{
    const struct ir_model *m = (const struct ir_model *)model;
    *out = NULL;
    if (!m) {
        if (err && errlen) snprintf(err, errlen, "no model");
        return NNPERF_E_USAGE;
    }
    struct nnperf_analysis *a = calloc(1, sizeof *a);
    if (!a) {
        if (err && errlen) snprintf(err, errlen, "out of memory");
        return NNPERF_E_NOMEM;
    }
    struct an_state *an = &a->st;
    an->m = m;
    an->warn_unknown_op = an->warn_unbound = -1;
    ar_init(&an->ar, 0);
    /* about 200 bytes a node: swin_t 278 (1.8 MB, the shapes' propagated values), a 100k-node chain 58, the zoo's
     * CNNs 40-370; an estimate too high for a graph of thousands of nodes costs at most the rest of a huge page
     * (core.h's ar_expect), none for small graphs (under a megabyte nothing changes) */
    ar_expect(&an->ar, (size_t)m->graph->n_nodes * 200);
    /* the one place a model is written after its load: a model loaded to be analysed once gives its records */
    enum nnperf_status st = take_graph(an, (struct ir_model *)(uintptr_t)m);
    if (!st && opts) {
        for (int i = 0; i < opts->n_input_shapes && !st; i++) st = bind_input(an, opts->input_shapes[i]);
        for (int i = 0; i < opts->n_dim_bindings && !st; i++) st = bind_symbol(an, opts->dim_bindings[i]);
    }
    if (!st) st = an_run_graph(an, an->g, 1);
    if (st) {
        if (!an->d.status) diag_set(&an->d, st, "%s", nnperf_status_name(st));
        diag_prefix(&an->d, "%s: ", m->path);
        copy_err(err, errlen, &an->d);
        st = an->d.status;
        nnperf_analysis_free(a);
        return st;
    }
    summarize(an);
    *out = a;
    return NNPERF_OK;
}

void nnperf_analysis_free(struct nnperf_analysis *a)
{
    if (!a) return;
    ar_free(&a->st.ar);
    free(a);
}

void nnperf_analysis_summary(const struct nnperf_analysis *a, struct nnperf_summary *s)
{
    *s = a->st.sum;
    s->unbound_dims = a->st.n_unbound;
}

const char *nnperf_analysis_unbound_dim(const struct nnperf_analysis *a, int i)
{
    return i >= 0 && i < a->st.n_unbound ? a->st.unbound[i] : NULL;
}

const char *nnperf_analysis_warning(const struct nnperf_analysis *a, int i)
{
    return i >= 0 && i < a->st.n_warn ? a->st.warn[i] : NULL;
}

int nnperf_analysis_batch(const struct nnperf_analysis *a)
{
    return a && a->st.batch > 0 && a->st.batch <= 1000000 ? (int)a->st.batch : 1;
}

const char *nnperf_analysis_warning_kind(const struct nnperf_analysis *a, int i)
{
    if (!a || i < 0 || i >= a->st.n_warn) return NULL;
    return i == a->st.warn_unknown_op ? "unknown-operator"
           : i == a->st.warn_unbound  ? "unbound-dim"
                                      : "analysis";
}

enum nnperf_status nnperf_analysis_check_bound(const struct nnperf_analysis *a, char *err, size_t errlen)
{
    if (!a) {
        if (err && errlen) snprintf(err, errlen, "no analysis");
        return NNPERF_E_USAGE;
    }
    const struct an_state *an = &a->st;
    if (!an->n_unbound) return NNPERF_OK;
    struct strbuf sb;
    sb_init(&sb, 1500);
    sb_printf(&sb, "%s: unbound symbolic input dim%s ", an->m->path, an->n_unbound > 1 ? "s" : "");
    for (int j = 0; j < an->n_unbound; j++) {
        const struct ir_value *v = model_input(an, an->unbound_input[j]);
        if (j < 8)
            sb_printf(&sb, "%s'%s' (input '%s' dim %d)", j ? ", " : "", an->unbound[j], v->name,
                      an->unbound_axis[j]);
    }
    if (an->n_unbound > 8) sb_printf(&sb, " and %d more", an->n_unbound - 8);
    sb_printf(
        &sb,
        ": %d of %d nodes cannot be counted, and a prediction would count them as 0 s; bind each symbol to a "
        "number (%s=1) or give the inputs' shapes",
        an->sum.unknown_nodes, an->sum.nodes, an->unbound[0]);
    if (err && errlen) snprintf(err, errlen, "%s", sb.p ? sb.p : "unbound symbolic input dims");
    sb_free(&sb);
    return NNPERF_E_USAGE;
}
