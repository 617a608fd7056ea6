/* test_ptrmap.c - the pointer map (core/ptrmap.h) and the consumer index built on it (pr_cons_build), each against
 * a plain search. */
#include <stdio.h>
#include <stdlib.h>

#include "core/ptrmap.h"
#include "predict/predict.h"
#include "tinytest.h"

#define N_KEYS 5000

/* keys are the addresses of a record array, as the maps hold (records at a stride, not single bytes): every one is
 * found with its value, addresses never put are absent, a second put returns the value already there; a map sized
 * for one key grows to hold them all */
static void test_map(size_t hint)
{
    enum { N = N_KEYS };
    struct rec {
        int pad[5];
    } *r = malloc(2 * N * sizeof *r);
    struct ptrmap m;
    CHECK(r && pm_init(&m, hint));
    if (!r || !m.slot) {
        free(r), pm_free(&m);
        return;
    }
    int bad = 0;
    for (int i = 0; i < N; i++) {
        int *v = pm_put(&m, &r[2 * i]);
        bad += !v || *v != -1;
        if (v) *v = i;
    }
    for (int i = 0; i < N; i++) {
        bad += pm_get(&m, &r[2 * i]) != i;
        bad += pm_get(&m, &r[2 * i + 1]) != -1;
        int *v = pm_put(&m, &r[2 * i]);
        bad += !v || *v != i;
    }
    CHECK(bad == 0);
    CHECK(m.n == N && 2 * m.n <= m.mask + 1);
    pm_free(&m);
    CHECK(m.slot == NULL && pm_get(&m, r) == -1);
    pm_free(&m); /* twice is safe */
    free(r);
}

/* every value of the graph: its entries in the index are the (value, node) pairs of the node inputs that read it, in
 * node order (a node reading it twice twice); values nobody reads have none */
static void check_index(const struct ir_graph *g)
{
    struct pr_cons_ix cx = {0};
    CHECK(pr_cons_build(g, &cx));
    int bad = 0, total = 0;
    for (int j = 0; j < g->n_values; j++) {
        const struct ir_value *v = g->values[j];
        int at = pr_cons_find(&cx, v), next = 0;
        for (int k = 0; k < g->n_nodes; k++)
            for (int i = 0; i < g->nodes[k]->n_in; i++) {
                if (g->nodes[k]->in[i] != v) continue;
                bad += at < 0 || at + next >= cx.n || cx.c[at + next].v != v || cx.c[at + next].node != k;
                next++;
            }
        bad += next ? at + next < cx.n && cx.c[at + next].v == v : at != -1;
        total += next;
    }
    CHECK(bad == 0);
    CHECK(total == cx.n);
    pr_cons_free(&cx);
}

/* the index of each value among the contiguous copies of a graph copy (ir_copy_graph makes them one array) */
static long index_in(const struct ir_graph *g, const struct ir_value *v)
{
    return g->n_values && v >= g->values[0] && v < g->values[0] + g->n_values ? (long)(v - g->values[0]) : -1;
}

/* the index of a model's analysed graph; then of graphs whose values' ids do not give their positions (a graph not
 * numbered): the index and the copy fall back on the pointer map, with the same results */
static void test_graph(const char *path)
{
    struct nnperf_model *m = NULL;
    struct nnperf_analysis *a = NULL;
    char err[512];
    CHECK(nnperf_model_load(path, NULL, &m, err, sizeof err) == NNPERF_OK);
    CHECK(m && nnperf_analyze(m, NULL, &a, err, sizeof err) == NNPERF_OK);
    if (!a) {
        nnperf_model_free(m);
        return;
    }
    check_index(an_graph(&a->st));
    struct arena ar;
    ar_init(&ar, 0);
    struct diag d = {NNPERF_OK, {0}};
    struct ir_graph *c1 = NULL, *c2 = NULL;
    CHECK(ir_copy_graph(&ar, an_graph(&a->st), &c1, &d) == NNPERF_OK);
    if (c1) {
        check_index(c1); /* numbered: positions from the ids */
        for (int i = 0; i < c1->n_values; i++) c1->values[i]->id = 5;
        check_index(c1);
        CHECK(ir_copy_graph(&ar, c1, &c2, &d) == NNPERF_OK);
    }
    if (c2) {
        int bad = c2->n_nodes != c1->n_nodes;
        for (int k = 0; !bad && k < c2->n_nodes; k++)
            for (int i = 0; i < c2->nodes[k]->n_in; i++) {
                const struct ir_value *v1 = c1->nodes[k]->in[i], *v2 = c2->nodes[k]->in[i];
                bad += v1 ? index_in(c2, v2) < 0 || index_in(c2, v2) != index_in(c1, v1) : v2 != NULL;
            }
        CHECK(bad == 0);
        check_index(c2);
    }
    ar_free(&ar);
    nnperf_analysis_free(a);
    nnperf_model_free(m);
}

int main(void)
{
    test_map(N_KEYS);
    test_map(1);
    test_graph("tests/data/predict/attention.onnx");
    test_graph("models/squeezenet1_1.onnx");
    return tt_done();
}
