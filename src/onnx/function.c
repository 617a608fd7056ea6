/* function.c - model-local functions (FunctionProto): read once per model, inlined at each call site with their
 * formal inputs, outputs and attribute references mapped to the call's, and their intermediate names prefixed. */
#include <string.h>

#include "load.h"

/* Inlining multiplies: a function whose body calls another twice, nested 30 deep, is 2^30 nodes from a 2 KB file.
 * Each function may be expanded this many times, which bounds the nodes made by inlining by this many times the
 * function body nodes in the file. */
#define INLINE_MAX_CALLS 4096

enum nnperf_status ox_parse_function(struct ld *L, const uint8_t *p, size_t n, struct ir_function *fn)
{
    const char *why;
    struct pb r = pb_make(p, n);
    struct pb_field f;
    struct pvec ins = {0}, outs = {0}, nodes = {0}, lens = {0}, defs = {0};
    fn->name = "";
    fn->domain = "";
    fn->overload = "";
    FOR_FIELDS(r, f, "FunctionProto")
    {
        if (f.wire != PB_LEN) continue;
        const char *s;
        switch (f.num) {
        case FP_NAME:
            if (!(fn->name = ox_str(L, &f))) return ox_nomem(L);
            break;
        case FP_DOMAIN:
            if (!(fn->domain = ox_str(L, &f))) return ox_nomem(L);
            if (!strcmp(fn->domain, "ai.onnx")) fn->domain = "";
            break;
        case FP_OVERLOAD:
            if (!(fn->overload = ox_str(L, &f))) return ox_nomem(L);
            break;
        case FP_INPUT:
            if (!(s = ox_str(L, &f)) || !ox_pv_push(L->ar, &ins, (void *)s)) return ox_nomem(L);
            break;
        case FP_OUTPUT:
            if (!(s = ox_str(L, &f)) || !ox_pv_push(L->ar, &outs, (void *)s)) return ox_nomem(L);
            break;
        case FP_NODE: {
            size_t *len = ar_alloc(L->ar, sizeof *len);
            if (!len) return ox_nomem(L);
            *len = f.len;
            if (!ox_pv_push(L->ar, &nodes, (void *)f.data) || !ox_pv_push(L->ar, &lens, len))
                return ox_nomem(L);
            break;
        }
        case FP_ATTR_PROTO: {
            struct ir_attr *a = ar_alloc(L->ar, sizeof *a);
            if (!a) return ox_nomem(L);
            enum nnperf_status st = ox_parse_attr(L, f.data, f.len, NULL, NULL, fn->name, a);
            if (st) return st;
            if (!ox_pv_push(L->ar, &defs, a)) return ox_nomem(L);
            break;
        }
        default: break;
        }
    }
    fn->inputs = (const char **)ins.v;
    fn->n_inputs = ins.n;
    fn->outputs = (const char **)outs.v;
    fn->n_outputs = outs.n;
    fn->n_nodes = nodes.n;
    fn->nodes = (const uint8_t **)nodes.v;
    fn->node_len = ar_calloc(L->ar, (size_t)(nodes.n ? nodes.n : 1), sizeof(size_t));
    fn->n_defaults = defs.n;
    fn->defaults = ar_calloc(L->ar, (size_t)(defs.n ? defs.n : 1), sizeof(struct ir_attr));
    if (!fn->node_len || !fn->defaults) return ox_nomem(L);
    for (int i = 0; i < nodes.n; i++) fn->node_len[i] = *(size_t *)lens.v[i];
    for (int i = 0; i < defs.n; i++) fn->defaults[i] = *(struct ir_attr *)defs.v[i];
    return NNPERF_OK;
}

static int same_function(const struct ir_function *fn, const char *domain, const char *name,
                         const char *overload)
{
    return !strcmp(fn->name, name) && !strcmp(fn->domain, domain) && !strcmp(fn->overload, overload);
}

struct ir_function *ox_find_function(const struct ld *L, const char *domain, const char *name,
                                     const char *overload)
{
    for (int i = 0; i < L->m->n_functions; i++) {
        struct ir_function *fn = &L->m->functions[i];
        if (same_function(fn, domain, name, overload)) return fn;
    }
    return NULL;
}

/* (domain, name, overload) is the unique id of a model-local function (onnx.proto: FunctionProto, docs/sources.md
 * [ONNX-PROTO]): a second definition would make calls ambiguous. */
enum nnperf_status ox_check_functions(struct ld *L)
{
    const struct ir_model *m = L->m;
    for (int i = 0; i < m->n_functions; i++)
        for (int j = 0; j < i; j++) {
            const struct ir_function *fn = &m->functions[i];
            if (!same_function(&m->functions[j], fn->domain, fn->name, fn->overload)) continue;
            return diag_set(L->d, NNPERF_E_INVALID, "function '%s' of domain '%s'%s%s%s is defined twice",
                            fn->name, fn->domain[0] ? fn->domain : "ai.onnx",
                            fn->overload[0] ? " (overload '" : "", fn->overload, fn->overload[0] ? "')" : "");
        }
    return NNPERF_OK;
}

const char *ox_rename_name(struct ld *L, const struct rename *rn, const char *name)
{
    if (!rn || !name[0]) return name;
    for (int i = 0; i < rn->n; i++)
        if (!strcmp(rn->formal[i], name)) return rn->actual[i];
    return ar_printf(L->ar, "%s/%s", rn->prefix, name);
}

/* Expands a call of a model-local function: its body nodes with names mapped. */
enum nnperf_status ox_inline_call(struct ld *L, struct gstate *G, struct ir_node *call,
                                  struct ir_function *fn, const struct rename *outer)
{
    int depth = outer ? outer->depth + 1 : 1;
    if (depth > NNPERF_MAX_SUBGRAPH_DEPTH)
        return diag_set(L->d, NNPERF_E_LIMIT, "node '%s': function calls nested deeper than %d", call->name,
                        NNPERF_MAX_SUBGRAPH_DEPTH);
    if (++fn->n_calls > INLINE_MAX_CALLS)
        return diag_set(L->d, NNPERF_E_LIMIT,
                        "function '%s' is called more than %d times (nested calls multiply)", fn->name,
                        INLINE_MAX_CALLS);
    /* a call may leave out trailing inputs and outputs, not pass more than the function declares */
    if (call->n_in > fn->n_inputs || call->n_out > fn->n_outputs) {
        int in = call->n_in > fn->n_inputs;
        return diag_set(L->d, NNPERF_E_INVALID, "node '%s' (%s): has %d %s, function '%s' declares %d",
                        call->name, call->op_type, in ? call->n_in : call->n_out, in ? "inputs" : "outputs",
                        fn->name, in ? fn->n_inputs : fn->n_outputs);
    }
    struct rename rn = {0};
    rn.fn = fn;
    rn.depth = depth;
    rn.outer = outer;
    rn.call = call;
    rn.prefix = call->name[0] ? call->name : ar_printf(L->ar, "%s_%d", fn->name, G->nodes.n);
    int nmap = fn->n_inputs + fn->n_outputs;
    rn.formal = ar_calloc(L->ar, (size_t)(nmap ? nmap : 1), sizeof(char *));
    rn.actual = ar_calloc(L->ar, (size_t)(nmap ? nmap : 1), sizeof(char *));
    if (!rn.formal || !rn.actual) return ox_nomem(L);
    for (int i = 0; i < fn->n_inputs; i++) {
        rn.formal[rn.n] = fn->inputs[i];
        rn.actual[rn.n++] = (i < call->n_in && call->in[i]) ? call->in[i]->name : "";
    }
    for (int i = 0; i < fn->n_outputs; i++) {
        rn.formal[rn.n] = fn->outputs[i];
        rn.actual[rn.n++] = (i < call->n_out && call->out[i]) ? call->out[i]->name : "";
    }
    for (int i = 0; i < fn->n_nodes; i++) {
        enum nnperf_status st = ox_add_node(L, G, fn->nodes[i], fn->node_len[i], &rn);
        if (st) {
            /* outermost call only: a prefix per nesting level would push the message out (see ox_parse_attr) */
            if (!outer) diag_prefix(L->d, "in function '%s' called by node '%s': ", fn->name, call->name);
            return st;
        }
    }
    return NNPERF_OK;
}
