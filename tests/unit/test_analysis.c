/* test_analysis.c - analyses own their results: one model analysed several times with other --input shapes and
 * --dim bindings keeps every analysis as it was made (shapes, costs, the rendered JSON), the model is never written
 * (its arena's bytes are the same after every analysis), and the same holds with analyses running at once in two
 * threads; a model loaded to be analysed once (NNPERF_LOAD_ANALYZE_ONCE) gives the same analysis. Models: tests/data/analysis/make_models.py (batch.onnx: symbolic batch, shape values computed in the
 * graph, a Loop body reading the outer scope) and models/resnet50.onnx. */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/analysis.h"
#include "tinytest.h"

#define BATCH_MODEL "tests/data/analysis/batch.onnx"
/* batch.onnx at batch 1: Conv 3->8 3x3 over 32x32 and Gemm 8->10; the Loop adds [batch, 8] three times */
#define CONV_MACS_B1 (8ull * 32 * 32 * 3 * 3 * 3)
#define GEMM_MACS_B1 (10ull * 8)

static struct nnperf_analysis *analyze(const struct nnperf_model *m, const char *input, const char *dim)
{
    const char *in[1] = {input}, *dm[1] = {dim};
    struct nnperf_analyze_options o = {in, input ? 1 : 0, dm, dim ? 1 : 0};
    struct nnperf_analysis *a = NULL;
    char err[512];
    if (nnperf_analyze(m, &o, &a, err, sizeof err) != NNPERF_OK) {
        fprintf(stderr, "analyze: %s\n", err);
        return NULL;
    }
    return a;
}

static const struct ir_node *node(const struct nnperf_analysis *a, const char *name)
{
    const struct ir_graph *g = an_graph(&a->st);
    for (int k = 0; k < g->n_nodes; k++)
        if (!strcmp(g->nodes[k]->name, name)) return g->nodes[k];
    return NULL;
}

/* "8x10", "batchx10", "?" */
static void shape_of(const struct nnperf_analysis *a, const char *value, char *out, size_t n)
{
    const struct ir_value *v = ir_find(an_graph(&a->st), value);
    struct strbuf sb;
    sb_init(&sb, 256);
    if (v) ir_format_shape(&sb, v, "x");
    snprintf(out, n, "%s", v && sb.p ? sb.p : "(none)");
    sb_free(&sb);
}

static void check_shape(const struct nnperf_analysis *a, const char *value, const char *want)
{
    char s[64];
    shape_of(a, value, s, sizeof s);
    CHECK_STR(s, want);
}

static uint64_t macs_of(const struct nnperf_analysis *a)
{
    struct nnperf_summary s;
    nnperf_analysis_summary(a, &s);
    return s.macs;
}

/* Everything an analysis says about itself, as text: its JSON rendering (every node's shapes and costs). */
static char *json_of(const struct nnperf_analysis *a)
{
    char *out = NULL, err[256];
    size_t len;
    if (nnperf_analysis_render(a, NNPERF_FORMAT_JSON, &out, &len, err, sizeof err) != NNPERF_OK) return NULL;
    return out;
}

static void check_batch(const struct nnperf_analysis *a, unsigned long long batch, const char *y_shape)
{
    check_shape(a, "y", y_shape);
    const struct ir_node *conv = node(a, "conv"), *loop = node(a, "loop");
    CHECK(conv && conv->cost.known && loop && loop->cost.known);
    if (conv) CHECK_EQ_U(conv->cost.macs, batch * CONV_MACS_B1);
    if (loop) CHECK_EQ_U(loop->cost.flops, batch * 8 * 3); /* one add per element, 3 trips */
    CHECK_EQ_U(macs_of(a), batch * (CONV_MACS_B1 + GEMM_MACS_B1));
}

static void sequential(const struct nnperf_model *m)
{
    const struct ir_model *im = (const struct ir_model *)m;
    uint64_t digest = ar_digest(&im->ar);

    struct nnperf_analysis *a1 = analyze(m, NULL, "batch=1");
    CHECK(a1 != NULL);
    if (!a1) return;
    check_batch(a1, 1, "1x10");
    char *json1 = json_of(a1);
    CHECK(json1 != NULL);
    CHECK(ar_digest(&im->ar) == digest);

    /* the second analysis binds the same symbol to another number */
    struct nnperf_analysis *a8 = analyze(m, NULL, "batch=8");
    CHECK(a8 != NULL);
    if (a8) check_batch(a8, 8, "8x10");

    /* another input size: 2 x 64 x 64 is 8 times the conv work of 1 x 32 x 32, the Gemm twice its */
    struct nnperf_analysis *big = analyze(m, "x=2x3x64x64", NULL);
    CHECK(big != NULL);
    if (big) {
        check_shape(big, "y", "2x10");
        check_shape(big, "c", "2x8x64x64");
        CHECK_EQ_U(macs_of(big), 8 * CONV_MACS_B1 + 2 * GEMM_MACS_B1);
    }

    /* a symbol set by --input, then bound by --dim */
    struct nnperf_analysis *a4 = analyze(m, "x=batchx3x32x32", "batch=4");
    CHECK(a4 != NULL);
    if (a4) check_batch(a4, 4, "4x10");

    /* nothing bound: the symbol is still the model's, nothing the earlier analyses bound leaked into it */
    struct nnperf_analysis *free_ = analyze(m, NULL, NULL);
    CHECK(free_ != NULL);
    if (free_) {
        check_shape(free_, "y", "batchx10");
        check_shape(free_, "flat", "batchx8");
        struct nnperf_summary su;
        nnperf_analysis_summary(free_, &su);
        CHECK(su.unknown_nodes > 0);
        CHECK_EQ_U(su.macs, 0);
    }

    /* the first analysis is as it was */
    check_batch(a1, 1, "1x10");
    char *again = json_of(a1);
    CHECK(json1 && again && !strcmp(json1, again));
    /* and the model was never written */
    CHECK(ar_digest(&im->ar) == digest);

    free(json1), free(again);
    nnperf_analysis_free(a1);
    nnperf_analysis_free(a8);
    nnperf_analysis_free(big);
    nnperf_analysis_free(a4);
    nnperf_analysis_free(free_);
}

/* ---- two threads analysing one model at once ---- */

struct job {
    const struct nnperf_model *m;
    const char *input, *dim;
    const char *value, *shape; /* expected shape of one value */
    uint64_t macs;             /* expected total */
    const char *json;          /* expected rendering (from an analysis made before the threads started) */
    int iterations;
    int bad; /* analyses that differed from what was expected */
};

static void *worker(void *arg)
{
    struct job *j = arg;
    for (int it = 0; it < j->iterations; it++) {
        struct nnperf_analysis *a = analyze(j->m, j->input, j->dim);
        if (!a) {
            j->bad++;
            continue;
        }
        char s[64];
        shape_of(a, j->value, s, sizeof s);
        char *js = json_of(a);
        if (strcmp(s, j->shape) || macs_of(a) != j->macs || !js || strcmp(js, j->json)) j->bad++;
        free(js);
        nnperf_analysis_free(a);
    }
    return NULL;
}

static void threads(const char *path, const char *in1, const char *dim1, const char *in2, const char *dim2,
                    const char *value, const char *shape1, const char *shape2, uint64_t macs1, uint64_t macs2,
                    int iterations)
{
    struct nnperf_model *m;
    char err[512];
    if (nnperf_model_load(path, NULL, &m, err, sizeof err) != NNPERF_OK) {
        fprintf(stderr, "%s\n", err);
        CHECK(0);
        return;
    }
    const struct ir_model *im = (const struct ir_model *)m;
    uint64_t digest = ar_digest(&im->ar);
    /* the expected renderings, and one analysis kept alive while the threads run */
    struct nnperf_analysis *r1 = analyze(m, in1, dim1), *r2 = analyze(m, in2, dim2);
    CHECK(r1 && r2);
    if (!r1 || !r2) {
        nnperf_analysis_free(r1), nnperf_analysis_free(r2), nnperf_model_free(m);
        return;
    }
    CHECK_EQ_U(macs_of(r1), macs1);
    CHECK_EQ_U(macs_of(r2), macs2);
    char *j1 = json_of(r1), *j2 = json_of(r2);
    CHECK(j1 && j2);
    struct job jobs[2] = {{m, in1, dim1, value, shape1, macs1, j1 ? j1 : "", iterations, 0},
                          {m, in2, dim2, value, shape2, macs2, j2 ? j2 : "", iterations, 0}};
    pthread_t t[2];
    int started[2] = {0, 0};
    for (int i = 0; i < 2; i++) started[i] = pthread_create(&t[i], NULL, worker, &jobs[i]) == 0;
    CHECK(started[0] && started[1]);
    for (int i = 0; i < 2; i++)
        if (started[i]) pthread_join(t[i], NULL);
    CHECK_EQ_U(jobs[0].bad, 0);
    CHECK_EQ_U(jobs[1].bad, 0);
    char *k1 = json_of(r1);
    CHECK(j1 && k1 && !strcmp(j1, k1));
    CHECK(ar_digest(&im->ar) == digest);
    free(j1), free(j2), free(k1);
    nnperf_analysis_free(r1);
    nnperf_analysis_free(r2);
    nnperf_model_free(m);
}

/* NNPERF_LOAD_ANALYZE_ONCE: the one analysis infers on the model's own records and gives what a copy gives (the
 * same JSON, the same message for a bad input shape, which names the shape the model declares); a second analysis
 * of that model is refused. */
static void once(const char *path, const char *input, const char *dim)
{
    struct nnperf_model *m = NULL, *m1 = NULL;
    struct nnperf_load_options lo = {NNPERF_LOAD_ANALYZE_ONCE};
    char err[512], e1[512] = "", e2[512] = "";
    if (nnperf_model_load(path, NULL, &m, err, sizeof err) ||
        nnperf_model_load(path, &lo, &m1, err, sizeof err)) {
        fprintf(stderr, "%s\n", err);
        CHECK(0);
        nnperf_model_free(m);
        return;
    }
    const char *in[1] = {input}, *dm[1] = {dim};
    struct nnperf_analyze_options o = {in, input ? 1 : 0, dm, dim ? 1 : 0};
    struct nnperf_analysis *a = NULL, *a1 = NULL, *again = NULL;
    enum nnperf_status s = nnperf_analyze(m, &o, &a, e1, sizeof e1);
    enum nnperf_status s1 = nnperf_analyze(m1, &o, &a1, e2, sizeof e2);
    CHECK_EQ_U(s, s1);
    CHECK_STR(e1, e2);
    char *j = a ? json_of(a) : NULL, *j1 = a1 ? json_of(a1) : NULL;
    CHECK((!j && !j1) || (j && j1 && !strcmp(j, j1)));
    if (s1 == NNPERF_OK) {
        CHECK_EQ_U(nnperf_analyze(m1, &o, &again, err, sizeof err), NNPERF_E_USAGE);
        CHECK(again == NULL && strstr(err, "analysed once") != NULL);
    }
    free(j), free(j1);
    nnperf_analysis_free(a);
    nnperf_analysis_free(a1);
    nnperf_model_free(m);
    nnperf_model_free(m1);
}

int main(void)
{
    once(BATCH_MODEL, NULL, NULL);
    once(BATCH_MODEL, NULL, "batch=8");
    once(BATCH_MODEL, "x=2x3x64x64", NULL);
    once(BATCH_MODEL, "x=2x3x64", NULL); /* refused: the message shows the declared [batch, 3, 32, 32] */
    once("models/resnet50.onnx", "input=4x3x224x224", NULL);
    struct nnperf_model *m;
    char err[512];
    if (nnperf_model_load(BATCH_MODEL, NULL, &m, err, sizeof err) != NNPERF_OK) {
        fprintf(stderr, "%s\n", err);
        return 1;
    }
    sequential(m);
    nnperf_model_free(m);

    threads(BATCH_MODEL, NULL, "batch=1", "x=batchx3x32x32", "batch=8", "y", "1x10", "8x10",
            CONV_MACS_B1 + GEMM_MACS_B1, 8 * (CONV_MACS_B1 + GEMM_MACS_B1), 200);
    /* a real network: 169 nodes, 4.09 G MACs at batch 1, exactly 4 times that at batch 4 */
    struct nnperf_model *rn;
    struct nnperf_analysis *r1 = NULL;
    if (nnperf_model_load("models/resnet50.onnx", NULL, &rn, err, sizeof err) == NNPERF_OK) {
        r1 = analyze(rn, NULL, NULL);
        uint64_t macs = r1 ? macs_of(r1) : 0;
        CHECK(macs > 4000000000ull);
        nnperf_analysis_free(r1);
        nnperf_model_free(rn);
        threads("models/resnet50.onnx", "input=1x3x224x224", NULL, "input=4x3x224x224", NULL, "output",
                "1x1000", "4x1000", macs, 4 * macs, 10);
    } else {
        fprintf(stderr, "%s\n", err);
        CHECK(0);
    }
    return tt_done();
}
