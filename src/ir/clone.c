/* clone.c - an analysis's own copy of the records of a graph tree that inference writes: every graph, every value
 * and every node, nested subgraphs included, made in the analysis arena. Everything the loader made that inference
 * only reads stays shared with the model: names, declared dims, initializer data views, attribute payloads (ints,
 * floats, strings) and the name tables. An attribute holding a tensor or a subgraph is copied with its node, since
 * inference decodes the tensor's values into it and infers the subgraph.
 *
 * Pointers between records (a node's inputs and outputs, a value's producer, outer-scope reads, a graph's parent)
 * are redirected to the copies through the records' ids (ir_number_graph: the k-th value of the tree is copied to
 * slot k), each checked against the record it names, so a copy never points back into the model's mutable records.
 * A copy's name table is the model's, read only: ir_find maps the value it finds to its copy (ir_vtab.view). */
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include "../core/ptrmap.h"
#include "ir.h"

/* Calls fn on g and every subgraph held by its nodes' attributes, nested, depth first (the order ids follow). */
static void walk_tree(const struct ir_graph *g, void (*fn)(const struct ir_graph *g, void *arg), void *arg)
{
    fn(g, arg);
    for (int k = 0; k < g->n_nodes; k++) {
        const struct ir_node *nd = g->nodes[k];
        if (!nd->n_sub) continue; /* no subgraph: its attributes are not read (a cache miss each) */
        for (int a = 0; a < nd->n_attr; a++) {
            const struct ir_attr *at = &nd->attrs[a];
            if (at->type == AT_GRAPH && at->g) walk_tree(at->g, fn, arg);
            if (at->type == AT_GRAPHS)
                for (int j = 0; j < at->n; j++)
                    if (at->graphs[j]) walk_tree(at->graphs[j], fn, arg);
        }
    }
}

struct counts {
    size_t ng, nv, nn;
};

static void number_one(const struct ir_graph *cg, void *arg)
{
    struct counts *c = arg;
    struct ir_graph *g = (struct ir_graph *)cg; /* the loader's own graph, still being built */
    g->id = (int)c->ng++;
    for (int i = 0; i < g->n_values; i++) g->values[i]->id = (int)c->nv++;
    for (int k = 0; k < g->n_nodes; k++) g->nodes[k]->id = (int)c->nn++;
}

void ir_number_graph(struct ir_graph *g)
{
    struct counts c = {0, 0, 0};
    walk_tree(g, number_one, &c);
}

static void count_one(const struct ir_graph *g, void *arg)
{
    struct counts *c = arg;
    c->ng++;
    c->nv += (size_t)g->n_values;
    c->nn += (size_t)g->n_nodes;
}

/* The copies of one kind of record: copy k of the record whose id is k, and the model's record for each k. */
struct kind {
    char *copy;
    const void **orig;
    size_t n, size, id_off;
};

struct clone {
    struct arena *ar;
    struct diag *d;
    struct kind graphs, values, nodes;
    size_t ng, nv, nn;     /* copied so far */
    size_t *vbase, *nbase; /* by graph id: the copy of the graph's first value, first node */
    int misnumbered;
};

static int id_of(const struct kind *k, const void *p)
{
    return *(const int *)((const char *)p + k->id_off);
}

/* The copy of model record p (NULL for NULL; NULL and *bad set when p is not a record of the tree). */
static void *map_one(const struct kind *k, const void *p, int *bad)
{
    if (!p) return NULL;
    int id = id_of(k, p);
    if (id < 0 || (size_t)id >= k->n || k->orig[id] != p) {
        *bad = 1;
        return NULL;
    }
    return k->copy + (size_t)id * k->size;
}

/* Pass 1: copies the records of one graph as they are; the tree is walked in the numbering order. */
static void copy_one(const struct ir_graph *g, void *arg)
{
    struct clone *C = arg;
    struct ir_graph *ng = (struct ir_graph *)(void *)C->graphs.copy + C->ng;
    *ng = *g;
    C->misnumbered |= g->id != (int)C->ng;
    C->vbase[C->ng] = C->nv;
    C->nbase[C->ng] = C->nn;
    C->graphs.orig[C->ng++] = g;
    struct ir_value *vals = (struct ir_value *)(void *)C->values.copy;
    for (int i = 0; i < g->n_values; i++) {
        vals[C->nv] = *g->values[i];
        C->misnumbered |= g->values[i]->id != (int)C->nv;
        C->values.orig[C->nv++] = g->values[i];
    }
    struct ir_node *nodes = (struct ir_node *)(void *)C->nodes.copy;
    for (int k = 0; k < g->n_nodes; k++) {
        nodes[C->nn] = *g->nodes[k];
        C->misnumbered |= g->nodes[k]->id != (int)C->nn;
        C->nodes.orig[C->nn++] = g->nodes[k];
    }
}

static enum nnperf_status nomem(struct clone *C)
{
    return diag_set(C->d, NNPERF_E_NOMEM, "out of memory");
}

static enum nnperf_status outside(struct clone *C, const char *what)
{
    return diag_set(C->d, NNPERF_E_INVALID, "graph refers to a %s outside it", what);
}

/* arr becomes a new array of n consecutive copies from first on (a graph's own values or nodes) */
#define OWN_ARRAY(C, T, arr, first, n)                                                                       \
    do {                                                                                                     \
        if (arr) {                                                                                           \
            T **a_ = ar_calloc((C)->ar, (n) > 0 ? (size_t)(n) : 1, sizeof *a_);                              \
            if (!a_) return nomem(C);                                                                        \
            for (int i_ = 0; i_ < (n); i_++) a_[i_] = (first) + i_;                                          \
            (arr) = a_;                                                                                      \
        }                                                                                                    \
    } while (0)

/* arr (an array of n model records of kind k, element type T) becomes a new array of their copies. */
#define MAP_ARRAY(C, k, T, arr, n, what)                                                                     \
    do {                                                                                                     \
        if (arr) {                                                                                           \
            size_t n_ = (size_t)(n);                                                                         \
            T **a_ = ar_calloc((C)->ar, n_ ? n_ : 1, sizeof *a_);                                            \
            if (!a_) return nomem(C);                                                                        \
            int bad_ = 0;                                                                                    \
            for (size_t i_ = 0; i_ < n_; i_++) a_[i_] = map_one((k), (arr)[i_], &bad_);                      \
            if (bad_) return outside((C), (what));                                                           \
            (arr) = a_;                                                                                      \
        }                                                                                                    \
    } while (0)

static enum nnperf_status fix_graph(struct clone *C, struct ir_graph *g)
{
    int bad = 0;
    g->parent = map_one(&C->graphs, g->parent, &bad);
    if (bad) return outside(C, "graph");
    struct ir_value *vals = (struct ir_value *)(void *)C->values.copy;
    struct ir_node *nodes = (struct ir_node *)(void *)C->nodes.copy;
    /* copy_one copied the graph's own values and nodes in order from these slots on */
    OWN_ARRAY(C, struct ir_node, g->nodes, nodes + C->nbase[g->id], g->n_nodes);
    OWN_ARRAY(C, struct ir_value, g->values, vals + C->vbase[g->id], g->n_values);
    MAP_ARRAY(C, &C->values, struct ir_value, g->inputs, g->n_inputs, "value");
    MAP_ARRAY(C, &C->values, struct ir_value, g->outputs, g->n_outputs, "value");
    MAP_ARRAY(C, &C->values, struct ir_value, g->inits, g->n_inits, "value");
    g->vt.view = vals; /* the name table's slots stay the model's: a value found there is mapped by its id */
    return NNPERF_OK;
}

/* an attribute whose payload an analysis writes (a tensor it decodes values into) or points into the tree (a
 * subgraph): copied with its node */
static int attr_owned(const struct ir_attr *at)
{
    switch (at->type) {
    case AT_TENSOR:
    case AT_SPARSE_TENSOR: return at->t != NULL;
    case AT_GRAPH: return at->g != NULL;
    case AT_GRAPHS: return at->graphs != NULL;
    default: return 0;
    }
}

static enum nnperf_status fix_node(struct clone *C, struct ir_node *nd)
{
    int bad = 0;
    nd->graph = map_one(&C->graphs, nd->graph, &bad);
    if (bad) return outside(C, "graph");
    MAP_ARRAY(C, &C->values, struct ir_value, nd->in, nd->n_in, "value");
    MAP_ARRAY(C, &C->values, struct ir_value, nd->out, nd->n_out, "value");
    MAP_ARRAY(C, &C->values, struct ir_value, nd->impl, nd->n_impl, "value");
    int own = 0;
    for (int a = 0; a < nd->n_attr; a++) own |= attr_owned(&nd->attrs[a]);
    if (!own) return NNPERF_OK; /* plain attributes are only read: shared with the model */
    struct ir_attr *attrs = ar_calloc(C->ar, (size_t)nd->n_attr, sizeof *attrs);
    if (!attrs) return nomem(C);
    memcpy(attrs, nd->attrs, (size_t)nd->n_attr * sizeof *attrs);
    for (int a = 0; a < nd->n_attr; a++) {
        struct ir_attr *at = &attrs[a];
        if (!attr_owned(at)) continue;
        if (at->type == AT_GRAPH) {
            at->g = map_one(&C->graphs, at->g, &bad);
            if (bad) return outside(C, "graph");
        } else if (at->type == AT_GRAPHS)
            MAP_ARRAY(C, &C->graphs, struct ir_graph, at->graphs, at->n, "graph");
        else {
            struct ir_value *t = ar_alloc(C->ar, sizeof *t);
            if (!t) return nomem(C);
            *t = *at->t;
            at->t = t;
        }
    }
    nd->attrs = attrs;
    return NNPERF_OK;
}

static int make_kind(struct clone *C, struct kind *k, size_t n, size_t size, size_t id_off)
{
    k->n = n;
    k->size = size;
    k->id_off = id_off;
    k->copy = ar_calloc(C->ar, n ? n : 1, size);
    k->orig = malloc((n ? n : 1) * sizeof *k->orig);
    return k->copy && k->orig;
}

enum nnperf_status ir_clone_graph(struct arena *ar, const struct ir_graph *g, struct ir_graph **out,
                                  struct diag *d)
{
    *out = NULL;
    struct counts n = {0, 0, 0};
    walk_tree(g, count_one, &n);
    struct clone C;
    memset(&C, 0, sizeof C);
    C.ar = ar;
    C.d = d;
    enum nnperf_status st = NNPERF_OK;
    if (!make_kind(&C, &C.graphs, n.ng, sizeof(struct ir_graph), offsetof(struct ir_graph, id)) ||
        !make_kind(&C, &C.values, n.nv, sizeof(struct ir_value), offsetof(struct ir_value, id)) ||
        !make_kind(&C, &C.nodes, n.nn, sizeof(struct ir_node), offsetof(struct ir_node, id)) ||
        !(C.vbase = malloc(n.ng * sizeof *C.vbase)) || !(C.nbase = malloc(n.ng * sizeof *C.nbase)))
        st = nomem(&C);
    if (!st) walk_tree(g, copy_one, &C);
    if (!st && C.misnumbered)
        st = diag_set(d, NNPERF_E_INVALID, "the graph's records are not numbered (ir_number_graph)");
    struct ir_value *vals = (struct ir_value *)(void *)C.values.copy;
    for (size_t i = 0; i < C.nv && !st; i++) {
        int bad = 0;
        vals[i].producer = map_one(&C.nodes, vals[i].producer, &bad);
        if (bad) st = outside(&C, "node");
    }
    struct ir_node *nodes = (struct ir_node *)(void *)C.nodes.copy;
    for (size_t i = 0; i < C.nn && !st; i++) st = fix_node(&C, &nodes[i]);
    struct ir_graph *graphs = (struct ir_graph *)(void *)C.graphs.copy;
    for (size_t i = 0; i < C.ng && !st; i++) st = fix_graph(&C, &graphs[i]);
    free(C.graphs.orig);
    free(C.values.orig);
    free(C.nodes.orig);
    free(C.vbase);
    free(C.nbase);
    if (!st) *out = graphs;
    return st;
}

/* ---- a copy of one graph's own records (ir_copy_graph) ---- */

/* the copy of v when it is one of g's values, else v itself (a value of an outer scope); ix: the values' positions
 * when g is not numbered (its slots NULL when it is: ir_value_pos finds them) */
static struct ir_value *copy_of(const struct ir_graph *g, const struct ptrmap *ix, struct ir_value *copies,
                                struct ir_value *v)
{
    int i = !v ? -1 : ix->slot ? pm_get(ix, v) : ir_value_pos(g, v);
    return i >= 0 ? &copies[i] : v;
}

enum nnperf_status ir_copy_graph(struct arena *ar, const struct ir_graph *g, struct ir_graph **out,
                                 struct diag *d)
{
    int nv = g->n_values, nn = g->n_nodes;
    struct ir_graph *c = ar_alloc(ar, sizeof *c);
    struct ir_value *vals = ar_calloc(ar, (size_t)(nv ? nv : 1), sizeof *vals);
    struct ir_node *nodes = ar_calloc(ar, (size_t)(nn ? nn : 1), sizeof *nodes);
    struct ir_value **va = ar_calloc(ar, (size_t)(nv ? nv : 1), sizeof *va);
    struct ir_node **na = ar_calloc(ar, (size_t)(nn ? nn : 1), sizeof *na);
    struct ptrmap ix = {0};
    int ok = c && vals && nodes && va && na, numbered = 1;
    for (int i = 0; ok && i < nv; i++) {
        vals[i] = *g->values[i];
        va[i] = &vals[i];
        numbered &= ir_value_pos(g, g->values[i]) == i;
    }
    for (int i = 0; ok && !numbered && i < nv; i++) {
        int *at = ix.slot || pm_init(&ix, (size_t)nv) ? pm_put(&ix, g->values[i]) : NULL;
        if ((ok = at != NULL)) *at = i;
    }
    if (!ok) {
        pm_free(&ix);
        return diag_set(d, NNPERF_E_NOMEM, "out of memory");
    }
    *c = *g;
    enum nnperf_status st = NNPERF_OK;
    for (int k = 0; k < nn && !st; k++) {
        nodes[k] = *g->nodes[k];
        na[k] = &nodes[k];
        struct ir_node *nd = &nodes[k];
        struct ir_value **in = ar_calloc(ar, (size_t)(nd->n_in + nd->n_out + 1), sizeof *in);
        if (!in) {
            st = diag_set(d, NNPERF_E_NOMEM, "out of memory");
            break;
        }
        for (int i = 0; i < nd->n_in; i++) in[i] = copy_of(g, &ix, vals, nd->in[i]);
        for (int i = 0; i < nd->n_out; i++) in[nd->n_in + i] = copy_of(g, &ix, vals, nd->out[i]);
        nd->in = in;
        nd->out = in + nd->n_in;
    }
    /* producers: the copy of the node at the producer's position, when it is one of g's nodes */
    for (int i = 0; i < nv && !st; i++) {
        const struct ir_node *pn = vals[i].producer;
        if (pn && pn->index >= 0 && pn->index < nn && g->nodes[pn->index] == pn)
            vals[i].producer = &nodes[pn->index];
    }
    struct ir_value ***lists[3] = {&c->inputs, &c->outputs, &c->inits};
    int counts[3] = {g->n_inputs, g->n_outputs, g->n_inits};
    for (int l = 0; l < 3 && !st; l++) {
        struct ir_value **a = ar_calloc(ar, (size_t)(counts[l] ? counts[l] : 1), sizeof *a);
        if (!a) {
            st = diag_set(d, NNPERF_E_NOMEM, "out of memory");
            break;
        }
        for (int i = 0; i < counts[l]; i++) a[i] = copy_of(g, &ix, vals, (*lists[l])[i]);
        *lists[l] = a;
    }
    pm_free(&ix);
    if (st) return st;
    c->values = va;
    c->cap_values = nv;
    c->nodes = na;
    *out = c;
    return NNPERF_OK;
}
