/* graph.c - GraphProto -> struct ir_graph: initializers (dense and sparse), inputs, nodes (a call of a model-local
 * function is replaced by its body, function.c), outputs and value_info; then name resolution once every value
 * exists, with the outer-scope reads of subgraphs recorded on their If/Loop/Scan node. */
#include <stdio.h>
#include <string.h>

#include "load.h"

static const struct fspec graph_fields[] = {
    [1] = {WL, "node"},
    [2] = {WL, "name"},
    [5] = {WL, "initializer"},
    [10] = {WL, "doc_string"},
    [11] = {WL, "input"},
    [12] = {WL, "output"},
    [13] = {WL, "value_info"},
    [14] = {WL, "quantization_annotation"},
    [15] = {WL, "sparse_initializer"},
};
static const struct fspec node_fields[] = {
    [1] = {WL, "input"},     [2] = {WL, "output"},     [3] = {WL, "name"},   [4] = {WL, "op_type"},
    [5] = {WL, "attribute"}, [6] = {WL, "doc_string"}, [7] = {WL, "domain"}, [8] = {WL, "overload"},
};

static const struct ir_attr *find_attr(const struct ir_node *nd, const char *name)
{
    for (int i = 0; i < nd->n_attr; i++)
        if (!strcmp(nd->attrs[i].name, name)) return &nd->attrs[i];
    return NULL;
}

static int imports_domain(const struct ir_model *m, const char *domain)
{
    for (int i = 0; i < m->n_opsets; i++)
        if (!strcmp(m->opsets[i].domain, domain)) return 1;
    return 0;
}

/* the value named by input field f when g has it already (NULL: not yet, or no name) */
static struct ir_value *bound_value(const struct ir_graph *g, const struct pb_field *f)
{
    return f->len ? ir_find_n(g, (const char *)f->data, f->len) : NULL;
}

enum nnperf_status ox_add_node(struct ld *L, struct gstate *G, const uint8_t *p, size_t n,
                               const struct rename *rn)
{
    const char *why;
    struct pb r = pb_make(p, n);
    struct pb_field f;
    struct ir_node *nd = ar_alloc(L->ar, sizeof *nd);
    if (!nd) return ox_nomem(L);
    int nin = 0, nout = 0, nattr = 0;
    nd->name = "";
    nd->domain = "";
    nd->op_type = NULL;
    const char *overload = "";
    FOR_FIELDS_CHECKED(r, f, "NodeProto", node_fields)
    {
        if (f.wire != PB_LEN) continue;
        switch (f.num) {
        case NP_INPUT: nin++; break;
        case NP_OUTPUT: nout++; break;
        case NP_ATTR: nattr++; break;
        case NP_NAME:
            if (!(nd->name = ox_str(L, &f))) return ox_nomem(L);
            break;
        case NP_OP_TYPE:
            if (!(nd->op_type = ox_str_shared(L, &f))) return ox_nomem(L);
            break;
        case NP_DOMAIN:
            if (!(nd->domain = ox_str_shared(L, &f))) return ox_nomem(L);
            break;
        case NP_OVERLOAD:
            if (!(overload = ox_str(L, &f))) return ox_nomem(L);
            break;
        default: break;
        }
    }
    if (!nd->op_type || !nd->op_type[0])
        return diag_set(L->d, NNPERF_E_PARSE, "node '%s' has no op_type", nd->name);
    if (nd->domain[0] && !strcmp(nd->domain, "ai.onnx")) nd->domain = "";
    /* an ai.onnx node binds to the model's ai.onnx opset, which must be imported (onnx.proto: ModelProto
     * opset_import, docs/sources.md [ONNX-PROTO]); nodes of a function body bind to the function's imports. Other
     * domains are not checked: ONNX Runtime's transformer optimizer writes com.microsoft nodes without importing
     * that domain ([ORT-CONTRIB-OPSET]) */
    if (!rn && !nd->domain[0] && !imports_domain(L->m, ""))
        return diag_set(L->d, NNPERF_E_INVALID, "node '%s' (%s): the model imports no ai.onnx opset",
                        nd->name, nd->op_type);
    /* nodes of an inlined function body are named after the call site */
    if (rn && nd->name[0])
        nd->name = ar_printf(L->ar, "%s/%s", rn->prefix, nd->name);
    else if (rn)
        nd->name = ar_printf(L->ar, "%s/%s_%d", rn->prefix, nd->op_type, G->nodes.n);
    if (++L->n_nodes_total > NNPERF_MAX_NODES)
        return diag_set(L->d, NNPERF_E_LIMIT, "the model has more than %d nodes", NNPERF_MAX_NODES);
    nd->in = ar_calloc(L->ar, (size_t)(nin ? nin : 1), sizeof(struct ir_value *));
    nd->out = ar_calloc(L->ar, (size_t)(nout ? nout : 1), sizeof(struct ir_value *));
    nd->attrs =
        nattr ? ar_calloc(L->ar, (size_t)nattr, sizeof(struct ir_attr)) : NULL; /* most nodes have none */
    if (!nd->in || !nd->out || (nattr && !nd->attrs)) return ox_nomem(L);
    /* a model-local function call is replaced by its body (unless the registry has the operator) */
    ox_bind_op(L, nd);
    struct ir_function *fn = ox_find_function(L, nd->domain, nd->op_type, overload);
    int is_call = fn && nd->op < 0;
    /* a node of the main graph (not a call) binds an input whose value exists already as it is read: there names
     * are unique and nothing shadows them, so it is the value ox_resolve_graph would find */
    int bind_now = !rn && !G->g->parent && !is_call;
    const char **in_names = NULL; /* the names left for ox_resolve_graph, made at the first such input */
    nd->graph = G->g;
    nd->repeat = 1;
    r = pb_make(p, n);
    const char **out_names = ar_calloc(&L->tmp, (size_t)(nout ? nout : 1), sizeof(char *));
    if (!out_names) return ox_nomem(L);
    /* the other inputs are bound once every value exists (ox_resolve_graph), in the order the nodes are read: this
     * node before the nodes of its subgraphs */
    int pending_at = L->pending.n;
    if (!ox_pv_push(&L->tmp, &L->pending, nd) || !ox_pv_push(&L->tmp, &L->pending, NULL)) return ox_nomem(L);
    FOR_FIELDS(r, f, "NodeProto")
    {
        if (f.wire != PB_LEN) continue;
        if (f.num == NP_INPUT) {
            int i = nd->n_in++;
            struct ir_value *v = bind_now ? bound_value(G->g, &f) : NULL;
            if (v) {
                nd->in[i] = v;
                v->n_consumers++;
                continue;
            }
            if (!in_names) {
                if (!(in_names = ar_calloc(&L->tmp, (size_t)nin, sizeof *in_names))) return ox_nomem(L);
                L->pending.v[pending_at + 1] = (void *)in_names;
            }
            /* in the load's arena: once bound, the value's own name serves */
            const char *s = ar_strndup(&L->tmp, (const char *)f.data, f.len);
            if (!s || !(s = ox_rename_name(L, rn, s))) return ox_nomem(L);
            in_names[i] = s;
        } else if (f.num == NP_OUTPUT) {
            const char *s = ox_str(L, &f);
            if (!s || !(s = ox_rename_name(L, rn, s))) return ox_nomem(L);
            out_names[nd->n_out++] = s;
        } else if (f.num == NP_ATTR) {
            struct ir_attr *a = &nd->attrs[nd->n_attr];
            memset(a, 0, sizeof *a); /* the slot may hold a dropped reference attribute (continue below) */
            enum nnperf_status st = ox_parse_attr(L, f.data, f.len, G->g, rn, nd->name, a);
            if (st) return st;
            if (a->ref_name) {
                /* attribute reference inside a function body: take the call's value, else the default */
                const struct ir_attr *src = NULL;
                if (rn && rn->call) src = find_attr(rn->call, a->ref_name);
                if (!src && rn && rn->fn)
                    for (int k = 0; k < rn->fn->n_defaults; k++)
                        if (!strcmp(rn->fn->defaults[k].name, a->ref_name)) src = &rn->fn->defaults[k];
                if (!src) continue; /* not given: the attribute is absent */
                const char *nm = a->name;
                *a = *src;
                a->name = nm;
                a->ref_name = NULL;
            }
            nd->n_attr++;
        }
    }
    for (int i = 0; i < nd->n_attr; i++) {
        if (nd->attrs[i].type == AT_GRAPH && nd->attrs[i].g) nd->n_sub++;
        if (nd->attrs[i].type == AT_GRAPHS) nd->n_sub += (int)nd->attrs[i].n;
    }
    if (!in_names) { /* every input bound (or none): nothing for ox_resolve_graph */
        if (L->pending.n == pending_at + 2)
            L->pending.n = pending_at;
        else
            L->pending.v[pending_at] = NULL;
    }
    /* a call's inputs and outputs are only names for the body's renaming, not values */
    if (is_call) {
        if (in_names) L->pending.v[pending_at] = NULL; /* the call's inputs are names for the renaming only */
        for (int i = 0; i < nd->n_in + nd->n_out; i++) {
            int is_in = i < nd->n_in;
            const char *nm = is_in ? ar_strdup(L->ar, in_names[i]) : out_names[i - nd->n_in];
            if (!nm) return ox_nomem(L);
            struct ir_value *tmp = ar_alloc(L->ar, sizeof *tmp);
            if (!tmp) return ox_nomem(L);
            tmp->name = nm;
            if (is_in)
                nd->in[i] = nm[0] ? tmp : NULL;
            else
                nd->out[i - nd->n_in] = nm[0] ? tmp : NULL;
        }
        return ox_inline_call(L, G, nd, fn, rn);
    }
    /* outputs become values now; inputs are resolved once every value exists */
    for (int i = 0; i < nd->n_out; i++) {
        if (!out_names[i][0]) continue;
        struct ir_value *v;
        enum nnperf_status st = ir_add_value(L->ar, G->g, out_names[i], &v, L->d);
        if (st) {
            diag_prefix(L->d, "node '%s' (%s): ", nd->name, nd->op_type);
            return st;
        }
        v->producer = nd;
        nd->out[i] = v;
    }
    if (!ox_pv_push(&L->tmp, &G->nodes, nd)) return ox_nomem(L);
    return NNPERF_OK;
}

static int set_decl(struct ld *L, struct ir_value *v, int kind, int dtype, int rank, struct ir_dim *dims)
{
    if (kind != TK_UNKNOWN) v->type_kind = (signed char)kind;
    return ir_set_decl(L->ar, v, rank, dtype, dims);
}

enum nnperf_status ox_parse_graph(struct ld *L, const uint8_t *p, size_t n, struct ir_graph *parent,
                                  const struct rename *rn, struct ir_graph **out)
{
    const char *why;
    struct ir_graph *g = ar_alloc(L->ar, sizeof *g);
    if (!g) return ox_nomem(L);
    g->parent = parent;
    g->depth = parent ? parent->depth + 1 : 0;
    g->name = "";
    struct gstate G = {g, {0}, rn};
    struct pvec inputs = {0}, outputs = {0}, inits = {0};
    int drop_vi = (L->m->load_flags & NNPERF_LOAD_DROP_VALUE_INFO) != 0;
    struct pb r = pb_make(p, n);
    struct pb_field f;
    enum nnperf_status st;
    /* One walk over the fields up to the first bad one (reported after pass 1, as a walk checking each field in
     * turn would): the values to expect, about one per initializer, input and node, so that the name table is made
     * once at its size; and the fields other than nodes and inputs, which passes 1 and 3 take from this list rather
     * than from another walk over the graph's bytes (a cache miss a field on a big graph). */
    size_t n_expect = 0, n_nodes = 0, node_bytes = 0;
    struct pvec kept = {0}; /* struct pb_field, in the load's arena */
    int rc;
    while ((rc = pb_next(&r, &f, &why)) > 0) {
        if (!ox_wire_allowed(graph_fields, FSPEC_N(graph_fields), &f)) break;
        if (f.wire != PB_LEN) continue;
        if (f.num == GP_NODE || f.num == GP_INPUT || f.num == GP_INIT) n_expect++;
        if (f.num == GP_NODE)
            n_nodes++, node_bytes += f.len < 4096 ? f.len : 4096; /* a big Constant: not copied */
        if (f.num == GP_NODE || f.num == GP_INPUT) continue;
        struct pb_field *k = ar_alloc(&L->tmp, sizeof *k);
        if (!k || !ox_pv_push(&L->tmp, &kept, k)) return ox_nomem(L);
        *k = f;
    }
    const uint8_t *stop = r.field; /* the bad field (rc != 0), what pb_next said of it */
    const struct pb_field bad = f;
    const char *bad_why = why;
    /* what the model's records will take, from below (swin_t: 3.3 MB for 3.6 MB, a 100k-node chain 31 MB for 36 MB): a
     * block of huge pages for them (core.h's ar_expect), a third of swin_t's page faults fewer */
    if (!parent) ar_expect(L->ar, n_nodes * 250 + node_bytes / 4 * 5);
    if (!ir_reserve_values(L->ar, g, n_expect) || !ox_pv_reserve(&L->tmp, &G.nodes, n_nodes))
        return ox_nomem(L);
    /* pass 1: initializers (they may also be listed as inputs, IR < 4) */
    for (int i = 0; i < kept.n; i++) {
        f = *(const struct pb_field *)kept.v[i];
        if (f.num == GP_NAME) {
            if (!(g->name = ox_str(L, &f))) return ox_nomem(L);
        } else if (f.num == GP_INIT || f.num == GP_SPARSE_INIT) {
            struct ir_value tmp = {0};
            const char *name = NULL;
            if (f.num == GP_INIT) {
                st = ox_parse_tensor_proto(L, f.data, f.len, &tmp, &name, "initializer", NULL);
            } else {
                /* SparseTensorProto: the name is on its values tensor */
                struct pb q = pb_make(f.data, f.len);
                struct pb_field h;
                st = NNPERF_OK;
                int nd = 0;
                struct ir_dim *dd = ar_calloc(L->ar, NNPERF_MAX_RANK, sizeof *dd);
                if (!dd) return ox_nomem(L);
                FOR_FIELDS(q, h, "SparseTensorProto")
                {
                    if (h.num == SP_VALUES && h.wire == PB_LEN) {
                        struct ir_value vv = {0};
                        st = ox_parse_tensor_proto(L, h.data, h.len, &vv, &name, "sparse initializer", NULL);
                        if (st) return st;
                        tmp.dtype = vv.dtype;
                    } else if (h.num == SP_DIMS && h.wire == PB_VARINT && nd < NNPERF_MAX_RANK) {
                        dd[nd++] = ir_dim_known((int64_t)h.u >= 0 ? (int64_t)h.u : 0);
                    } else if (h.num == SP_DIMS && h.wire == PB_LEN) {
                        struct pb q2 = pb_make(h.data, h.len);
                        uint64_t x;
                        while (nd < NNPERF_MAX_RANK && pb_varint(&q2, &x) == 1)
                            dd[nd++] = ir_dim_known((int64_t)x >= 0 ? (int64_t)x : 0);
                    }
                }
                tmp.rank = nd;
                tmp.dims = dd;
                tmp.type_kind = TK_TENSOR;
                tmp.declared = 1;
            }
            if (st) return st;
            if (!name || !name[0]) return diag_set(L->d, NNPERF_E_PARSE, "an initializer has no name");
            if ((st = ox_check_size(L, "initializer", name, tmp.rank, tmp.dims, tmp.dtype))) return st;
            if (rn && !(name = ox_rename_name(L, rn, name))) return ox_nomem(L);
            struct ir_value *v;
            if ((st = ir_add_value(L->ar, g, name, &v, L->d))) return st;
            const char *nm = v->name;
            *v = tmp;
            v->name = nm;
            v->flags |= IR_V_INIT;
            if (!ox_pv_push(L->ar, &inits, v)) return ox_nomem(L);
        }
    }
    if (rc < 0)
        return ox_bad_field(L, "GraphProto", bad_why, stop, &bad, graph_fields, FSPEC_N(graph_fields));
    if (rc > 0 && !ox_wire_ok(L, "GraphProto", graph_fields, FSPEC_N(graph_fields), &bad, stop))
        return L->d->status;
    /* pass 2: inputs, then nodes, outputs, value_info in file order */
    r = pb_make(p, n);
    FOR_FIELDS(r, f, "GraphProto")
    {
        if (f.wire != PB_LEN) continue;
        if (f.num == GP_INPUT) {
            const char *name;
            int kind, dt, rk;
            struct ir_dim *dd;
            if ((st = ox_parse_value_info(L, f.data, f.len, &name, &kind, &dt, &rk, &dd))) return st;
            if ((st = ox_check_size(L, "graph input", name, rk, dd, dt))) return st;
            if (rn && !(name = ox_rename_name(L, rn, name))) return ox_nomem(L);
            struct ir_value *v = ir_find(g, name);
            if (v && (v->flags & IR_V_INIT)) {
                if (dt && v->dtype && dt != v->dtype) /* the declared type must be the data's */
                    return diag_set(L->d, NNPERF_E_INVALID,
                                    "graph input '%s' is declared %s, but its initializer holds %s", name,
                                    ir_dtype_name(dt) ? ir_dtype_name(dt) : "an unknown type",
                                    ir_dtype_name(v->dtype) ? ir_dtype_name(v->dtype) : "an unknown type");
                v->flags |= IR_V_INPUT; /* an input with a default value: treated as the constant */
            } else {
                if (v) return diag_set(L->d, NNPERF_E_INVALID, "graph input '%s' is listed twice", name);
                if ((st = ir_add_value(L->ar, g, name, &v, L->d))) return st;
                v->flags |= IR_V_INPUT;
                v->type_kind = (signed char)(kind == TK_UNKNOWN ? TK_TENSOR : kind);
                v->dtype = dt;
                v->rank = rk;
                v->dims = dd;
                v->declared = 1;
            }
            if (!ox_pv_push(L->ar, &inputs, v)) return ox_nomem(L);
        } else if (f.num == GP_NODE) {
            if ((st = ox_add_node(L, &G, f.data, f.len, rn))) return st;
        }
    }
    for (int i = 0; i < kept.n; i++) {
        f = *(const struct pb_field *)kept.v[i];
        if (f.num != GP_OUTPUT && f.num != GP_VALUE_INFO) continue;
        const char *name;
        int kind, dt, rk;
        struct ir_dim *dd;
        if ((st = ox_parse_value_info(L, f.data, f.len, &name, &kind, &dt, &rk, &dd))) return st;
        if ((st = ox_check_size(L, f.num == GP_OUTPUT ? "graph output" : "value_info", name, rk, dd, dt)))
            return st;
        if (rn && !(name = ox_rename_name(L, rn, name))) return ox_nomem(L);
        struct ir_value *v = ir_find(g, name);
        if (f.num == GP_OUTPUT) {
            if (!v) v = ir_lookup(g, name); /* an output may pass an outer or input value through */
            if (!v)
                return diag_set(L->d, NNPERF_E_INVALID, "graph output '%s' is not produced by any node",
                                name);
            v->flags |= IR_V_OUTPUT;
            if (!ox_pv_push(L->ar, &outputs, v)) return ox_nomem(L);
            if (v->producer && !drop_vi) {
                if (!set_decl(L, v, kind, dt, rk, dd)) return ox_nomem(L);
            } else if (v->producer && kind != TK_UNKNOWN)
                v->type_kind = (signed char)kind;
        } else if (v && v->producer && !drop_vi) {
            if (!set_decl(L, v, kind, dt, rk, dd)) return ox_nomem(L);
        }
    }
    /* the node list grew in the load's own arena: the graph keeps an exact copy */
    if (G.nodes.n) {
        if (!(g->nodes = ar_calloc(L->ar, (size_t)G.nodes.n, sizeof *g->nodes))) return ox_nomem(L);
        memcpy(g->nodes, G.nodes.v, (size_t)G.nodes.n * sizeof *g->nodes);
    }
    g->n_nodes = G.nodes.n;
    g->inputs = (struct ir_value **)inputs.v;
    g->n_inputs = inputs.n;
    g->outputs = (struct ir_value **)outputs.v;
    g->n_outputs = outputs.n;
    g->inits = (struct ir_value **)inits.v;
    g->n_inits = inits.n;
    *out = g;
    return NNPERF_OK;
}

static enum nnperf_status add_impl(struct ld *L, struct ir_node *nd, struct ir_value *v)
{
    for (int i = 0; i < nd->n_impl; i++)
        if (nd->impl[i] == v) return NNPERF_OK;
    struct ir_value **nv = ar_calloc(L->ar, (size_t)nd->n_impl + 1, sizeof *nv);
    if (!nv) return ox_nomem(L);
    if (nd->n_impl) memcpy(nv, nd->impl, (size_t)nd->n_impl * sizeof *nv);
    nv[nd->n_impl++] = v;
    nd->impl = nv;
    return NNPERF_OK;
}

/* Is value v defined in graph g or a graph nested in g? */
static int defined_within(const struct ir_value *v, const struct ir_graph *g)
{
    if (!v->producer) {
        /* graph inputs/initializers: find the graph they belong to */
        for (const struct ir_graph *s = g; s; s = NULL)
            if (ir_find(s, v->name) == v) return 1;
        return 0;
    }
    for (const struct ir_graph *s = v->producer->graph; s; s = s->parent)
        if (s == g) return 1;
    return 0;
}

static enum nnperf_status collect_outer_reads(struct ld *L, struct ir_node *owner, struct ir_graph *sub);

/* records on each control-flow node of g's tree the outer-scope values its subgraphs read, innermost first */
static enum nnperf_status note_outer_reads(struct ld *L, struct ir_graph *g)
{
    enum nnperf_status st;
    for (int k = 0; k < g->n_nodes; k++) {
        struct ir_node *nd = g->nodes[k];
        for (int a = 0; nd->n_sub && a < nd->n_attr; a++) {
            struct ir_attr *at = &nd->attrs[a];
            if (at->type == AT_GRAPH && at->g) {
                if ((st = note_outer_reads(L, at->g))) return st;
            } else if (at->type == AT_GRAPHS) {
                for (int j = 0; j < at->n; j++)
                    if (at->graphs[j] && (st = note_outer_reads(L, at->graphs[j]))) return st;
            }
        }
    }
    for (int k = 0; k < g->n_nodes; k++) {
        struct ir_node *nd = g->nodes[k];
        for (int a = 0; nd->n_sub && a < nd->n_attr; a++) {
            struct ir_attr *at = &nd->attrs[a];
            if (at->type == AT_GRAPH && at->g && (st = collect_outer_reads(L, nd, at->g))) return st;
            if (at->type == AT_GRAPHS)
                for (int j = 0; j < at->n; j++)
                    if (at->graphs[j] && (st = collect_outer_reads(L, nd, at->graphs[j]))) return st;
        }
    }
    return NNPERF_OK;
}

enum nnperf_status ox_resolve_graph(struct ld *L, struct ir_graph *g)
{
    for (int k = 0; k + 1 < L->pending.n; k += 2) {
        struct ir_node *nd = L->pending.v[k];
        const char **names = L->pending.v[k + 1];
        if (!nd) continue;
        for (int i = 0; i < nd->n_in; i++) {
            if (!names[i] || !names[i][0]) continue; /* bound as it was read (ox_add_node), or omitted */
            struct ir_value *v = ir_lookup(nd->graph, names[i]);
            if (!v)
                return diag_set(
                    L->d, NNPERF_E_INVALID,
                    "node '%s' (%s): input '%s' is not a graph input, an initializer or any node's output",
                    nd->name, nd->op_type, names[i]);
            nd->in[i] = v;
            v->n_consumers++;
        }
    }
    L->pending.n = 0;
    return note_outer_reads(L, g);
}

static enum nnperf_status collect_outer_reads(struct ld *L, struct ir_node *owner, struct ir_graph *sub)
{
    enum nnperf_status st;
    for (int k = 0; k < sub->n_nodes; k++) {
        struct ir_node *nd = sub->nodes[k];
        for (int i = 0; i < nd->n_in; i++) {
            struct ir_value *v = nd->in[i];
            if (v && !defined_within(v, sub) && (st = add_impl(L, owner, v))) return st;
        }
        for (int i = 0; i < nd->n_impl; i++)
            if (!defined_within(nd->impl[i], sub) && (st = add_impl(L, owner, nd->impl[i]))) return st;
    }
    for (int i = 0; i < sub->n_outputs; i++) {
        struct ir_value *v = sub->outputs[i];
        if (v && !defined_within(v, sub) && (st = add_impl(L, owner, v))) return st;
    }
    return NNPERF_OK;
}
