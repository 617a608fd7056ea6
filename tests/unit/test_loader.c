/* test_loader.c - the ONNX reader's promises: weights never read (a 16 GiB external weight loads), model-local
 * functions inlined, external data read only when a value is needed and refused when it escapes the model's folder,
 * the zoo's stripped weights never touched, and an empty initializer with huge other dims accepted. Models:
 * tests/data/loader/make_models.py. */
#include <stdio.h>
#include <string.h>

#include "analysis/analysis.h"
#include "tinytest.h"

static struct nnperf_analysis *run(const char *path, struct nnperf_model **m, char *err, size_t n)
{
    *m = NULL;
    if (nnperf_model_load(path, NULL, m, err, n) != NNPERF_OK) return NULL;
    struct nnperf_analysis *a;
    if (nnperf_analyze(*m, NULL, &a, err, n) != NNPERF_OK) return NULL;
    return a;
}

int main(void)
{
    char err[1024];
    struct nnperf_model *m;
    struct nnperf_analysis *a = run("tests/data/loader/big_external.onnx", &m, err, sizeof err);
    CHECK(a != NULL);
    if (a) {
        struct nnperf_summary s;
        nnperf_analysis_summary(a, &s);
        CHECK_EQ_U(s.params, (uint64_t)1 << 32);
        CHECK_EQ_U(s.weight_bytes, (uint64_t)1 << 34); /* 16 GiB, never read */
        CHECK_EQ_U(s.macs, (uint64_t)1 << 32);
        nnperf_analysis_free(a);
    }
    nnperf_model_free(m);

    a = run("tests/data/loader/local_function.onnx", &m, err, sizeof err);
    if (!a) fprintf(stderr, "%s\n", err);
    CHECK(a != NULL);
    if (a) {
        const struct ir_graph *g = an_graph(&a->st);
        CHECK_EQ_U(g->n_nodes, 4); /* two calls of Conv+Relu */
        int convs = 0;
        for (int i = 0; i < g->n_nodes; i++) convs += !strcmp(g->nodes[i]->op_type, "Conv");
        CHECK_EQ_U(convs, 2);
        const struct ir_value *y = ir_find(g, "y");
        CHECK(y && y->rank == 4 && y->dims[1].val == 8 && y->dims[3].val == 16);
        struct nnperf_summary s;
        nnperf_analysis_summary(a, &s);
        CHECK_EQ_U(s.macs, 2ull * 8 * 16 * 16 * 8 * 9);
        nnperf_analysis_free(a);
    }
    nnperf_model_free(m);

    a = run("tests/data/loader/external_shape.onnx", &m, err, sizeof err);
    CHECK(a != NULL);
    if (a) {
        const struct ir_value *y = ir_find(an_graph(&a->st), "y");
        CHECK(y && y->rank == 3 && y->dims[1].val == 64 && y->dims[2].val == 4);
        nnperf_analysis_free(a);
    }
    nnperf_model_free(m);

    a = run("tests/data/loader/subdir/escape.onnx", &m, err, sizeof err);
    CHECK(a == NULL);
    CHECK(strstr(err, "escapes the model's directory") != NULL);
    nnperf_model_free(m);

    /* dims 2^40 x 2^40 x 0: empty, valid without data; the data check must not multiply 2^40 x 2^40 (UBSan) */
    a = run("tests/data/loader/empty_huge_dims.onnx", &m, err, sizeof err);
    if (!a) fprintf(stderr, "%s\n", err);
    CHECK(a != NULL);
    if (a) {
        struct nnperf_summary s;
        nnperf_analysis_summary(a, &s);
        CHECK_EQ_U(s.params, 0);
        CHECK_EQ_U(s.weight_bytes, 0);
        nnperf_analysis_free(a);
    }
    nnperf_model_free(m);
    return tt_done();
}
