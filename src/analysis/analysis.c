/* analysis.c - the inference and counting driver: orders the graph, binds input shapes and symbols, runs each
 * operator's infer() and count() from the registry, falls back to declared shapes where inference could not
 * decide, fills the generic byte and parameter counts, and totals the summary. */
#include "analysis.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../onnx/onnx.h"

void an_warn(struct an_state *an, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    if (ar_append_msg(&an->ar, &an->warn, &an->n_warn, &an->cap_warn, AN_MAX_WARNINGS, fmt, ap) < 0)
        an->dropped_warn++;
    va_end(ap);
}

enum nnperf_status an_topo_sort(struct ir_graph *g, struct arena *ar, struct diag *d)
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

/* Where inference left dims unknown, the model's own declaration (value_info, outputs) fills them in. */
static enum nnperf_status apply_declared(struct an_state *an, struct ir_node *nd, struct ir_value *v)
{
    if (v->decl_rank < 0 && !v->decl_dtype) return NNPERF_OK;
    if (!v->dtype && v->decl_dtype) v->dtype = v->decl_dtype;
    if (v->decl_rank < 0) return NNPERF_OK;
    if (v->rank < 0) {
        /* a copy: the declared dims belong to the model */
        struct ir_dim *d = ar_calloc(&an->ar, (size_t)(v->decl_rank ? v->decl_rank : 1), sizeof *d);
        if (!d) return diag_set(&an->d, NNPERF_E_NOMEM, "out of memory");
        if (v->decl_rank) memcpy(d, v->decl_dims, (size_t)v->decl_rank * sizeof *d);
        v->rank = v->decl_rank;
        v->dims = d;
        return NNPERF_OK;
    }
    if (v->rank != v->decl_rank) {
        an_warn(an, "node '%s' (%s): output '%s' inferred with rank %d but declared with rank %d", nd->name,
                nd->op_type, v->name, v->rank, v->decl_rank);
        return NNPERF_OK;
    }
    for (int i = 0; i < v->rank; i++) {
        struct ir_dim inf = v->dims[i], dec = v->decl_dims[i];
        if (inf.val < 0 && !inf.sym && (dec.val >= 0 || dec.sym))
            v->dims[i] = dec;
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
    if (v->dtype == DT_STRING) bits = 8 * 16; /* strings: a nominal 16 bytes each */
    return ((uint64_t)n * (uint64_t)bits + 7) / 8;
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
    int gen = nd->op >= 0 && op_table[nd->op].klass != OC_CONTROL && strncmp(nd->op_type, "Random", 6) &&
              strcmp(nd->op_type, "Bernoulli") && strcmp(nd->op_type, "Multinomial");
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
        if (nd->out[i]) nd->out[i]->is_const = level;
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
    cost->params_read = cost->params;
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
}

static void reset_value(struct ir_value *v)
{
    v->rank = -1;
    v->dims = NULL;
    v->iv = NULL;
    v->fv = NULL;
    v->nv = 0;
    v->n_elems = -1;
    v->elems = NULL;
    v->unknown_reason = NULL;
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

/* ---- binding input shapes and symbols ---- */

static enum nnperf_status parse_dim_token(struct an_state *an, const char *tok, size_t len,
                                          struct ir_dim *out, const char *what)
{
    if (!len) return diag_set(&an->d, NNPERF_E_USAGE, "empty dimension in '%s'", what);
    int digits = 1;
    for (size_t i = 0; i < len; i++)
        if (tok[i] < '0' || tok[i] > '9') digits = 0;
    if (digits) {
        if (len > 15) return diag_set(&an->d, NNPERF_E_USAGE, "dimension in '%s' is too large", what);
        *out = ir_dim_known(strtoll(tok, NULL, 10));
        return NNPERF_OK;
    }
    if (len == 1 && tok[0] == '?') {
        *out = IR_DIM_UNKNOWN;
        return NNPERF_OK;
    }
    out->val = -1;
    out->sym = ar_strndup(&an->ar, tok, len);
    return out->sym ? NNPERF_OK : diag_set(&an->d, NNPERF_E_NOMEM, "out of memory");
}

static enum nnperf_status bind_input(struct an_state *an, const char *spec)
{
    const char *eq = strrchr(spec, '=');
    if (!eq || eq == spec)
        return diag_set(&an->d, NNPERF_E_USAGE, "--input '%s': expected NAME=DIMS such as input=1x3x224x224",
                        spec);
    char name[512];
    size_t nl = (size_t)(eq - spec);
    if (nl >= sizeof name) return diag_set(&an->d, NNPERF_E_USAGE, "--input '%s': name too long", spec);
    memcpy(name, spec, nl);
    name[nl] = 0;
    struct ir_graph *g = an->g;
    struct ir_value *v = NULL;
    for (int i = 0; i < g->n_inputs; i++)
        if (!strcmp(g->inputs[i]->name, name)) v = g->inputs[i];
    if (!v)
        return diag_set(&an->d, NNPERF_E_USAGE, "--input '%s': the model has no input named '%s'", spec,
                        name);
    struct ir_dim dims[NNPERF_MAX_RANK];
    int rank = 0;
    const char *p = eq + 1;
    if (!strcmp(p, "scalar")) p = "";
    while (*p) {
        const char *x = strchr(p, 'x');
        size_t len = x ? (size_t)(x - p) : strlen(p);
        if (rank == NNPERF_MAX_RANK)
            return diag_set(&an->d, NNPERF_E_LIMIT, "--input '%s': more than %d dims", spec, NNPERF_MAX_RANK);
        enum nnperf_status st = parse_dim_token(an, p, len, &dims[rank++], spec);
        if (st) return st;
        p += len;
        if (*p == 'x') {
            p++;
            if (!*p) return diag_set(&an->d, NNPERF_E_USAGE, "--input '%s': trailing 'x'", spec);
        }
    }
    struct ir_dim *nd = ar_calloc(&an->ar, (size_t)(rank ? rank : 1), sizeof *nd);
    if (!nd) return diag_set(&an->d, NNPERF_E_NOMEM, "out of memory");
    memcpy(nd, dims, (size_t)rank * sizeof *nd);
    v->rank = rank;
    v->dims = nd;
    if (v->flags & IR_V_INIT) v->iv = NULL, v->fv = NULL;
    return NNPERF_OK;
}

static enum nnperf_status bind_symbol(struct an_state *an, const char *spec)
{
    const char *eq = strchr(spec, '=');
    if (!eq || eq == spec || !eq[1])
        return diag_set(&an->d, NNPERF_E_USAGE, "--dim '%s': expected SYMBOL=N such as batch=1", spec);
    char *end;
    long long val = strtoll(eq + 1, &end, 10);
    if (*end || val < 0 || val > ((long long)1 << 40))
        return diag_set(&an->d, NNPERF_E_USAGE, "--dim '%s': '%s' is not a dimension (0 to 2^40)", spec,
                        eq + 1);
    size_t nl = (size_t)(eq - spec);
    int used = 0;
    struct ir_graph *g = an->g;
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
                used = 1;
            }
        if (dims) v->dims = dims;
    }
    if (!used) an_warn(an, "--dim '%s': no model input has a dimension named '%.*s'", spec, (int)nl, spec);
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
        for (int a = 0; a < nd->n_attr; a++) {
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

/* Symbolic dims of the model's inputs that no --input/--dim bound: recorded (an->unbound) and warned about with the
 * share of nodes they leave uncounted, since every prediction of those nodes would be 0 s. */
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
            an->unbound[an->n_unbound++] = sym;
            sb_printf(&sb, "%s'%s'", an->n_unbound > 1 ? ", " : "", sym);
        }
    }
    if (an->n_unbound) {
        int uncounted = 0;
        for (int k = 0; k < g->n_nodes; k++) uncounted += !g->nodes[k]->cost.known;
        an_warn(
            an,
            "unbound symbolic input dims %s: %d of %d nodes (%.1f%%) cannot be counted and predict as 0 s; "
            "bind them with --dim NAME=N or --input NAME=SHAPE",
            sb.p ? sb.p : "", uncounted, g->n_nodes, 100.0 * uncounted / (g->n_nodes ? g->n_nodes : 1));
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
            else
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
        an_warn(an,
                "%d of %d nodes (%.1f%%) use operators nnperf does not support: %s; their outputs are "
                "unknown and "
                "their cost is not counted",
                unsupported, g->n_nodes, 100.0 * unsupported / (g->n_nodes ? g->n_nodes : 1),
                sb.p ? sb.p : "");
        sb_free(&sb);
    }
    if (shape_unknown) {
        const struct ir_node *first = NULL;
        for (int k = 0; k < g->n_nodes && !first; k++)
            if (!g->nodes[k]->cost.known && g->nodes[k]->op >= 0) first = g->nodes[k];
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
    ar_init(&an->ar, 0);
    enum nnperf_status st = ir_clone_graph(&an->ar, m->graph, &an->g, &an->d);
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
