/* test_bind.c - input shapes and dim bindings as the library checks them (issue 18): a dim is a positive integer or
 * a symbol name, 'x' or ',' separate dims, and every refusal names the input with the dims the model gives it and
 * what the model has ("did you mean"); frames per run come from the bound batch (equal to the same batch asked for
 * as the prediction's batch); unbound symbols refuse to predict unless allowed; warnings carry their kind; a text
 * file is "not an ONNX model" (issue 21), also through the buffer loader. Models: tests/data/analysis/batch.onnx
 * (x [batch, 3, 32, 32]) and models/resnet18.onnx (input [1, 3, 224, 224]). */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "nnperf.h"
#include "tinytest.h"

#define BATCH_MODEL "tests/data/analysis/batch.onnx"

static char err[1024];

static struct nnperf_analysis *bind(const struct nnperf_model *m, const char *input, const char *dim)
{
    const char *in[1] = {input}, *dm[1] = {dim};
    struct nnperf_analyze_options o = {in, input ? 1 : 0, dm, dim ? 1 : 0};
    struct nnperf_analysis *a = NULL;
    err[0] = 0;
    if (nnperf_analyze(m, &o, &a, err, sizeof err) != NNPERF_OK) return NULL;
    return a;
}

/* the analysis is refused and its message holds every one of the NULL-terminated fragments */
static void refused(const struct nnperf_model *m, const char *input, const char *dim, ...)
{
    struct nnperf_analysis *a = bind(m, input, dim);
    CHECK(a == NULL);
    nnperf_analysis_free(a);
    va_list ap;
    va_start(ap, dim);
    for (const char *s; (s = va_arg(ap, const char *));)
        if (!strstr(err, s)) {
            fprintf(stderr, "message '%s' lacks '%s'\n", err, s);
            CHECK(0);
        }
    va_end(ap);
    CHECK(!strstr(err, "--")); /* the library names things, not the CLI's flags */
}

static double fps(const struct nnperf_analysis *a, const struct nnperf_platform *p, int batch, int *frames,
                  enum nnperf_status *st)
{
    struct nnperf_predict_options o = {.batch = batch};
    struct nnperf_prediction *pr = NULL;
    *st = nnperf_predict(a, p, &o, &pr, err, sizeof err);
    if (*st) return -1;
    struct nnperf_prediction_summary s;
    nnperf_prediction_summary(pr, &s);
    *frames = s.frames_per_run;
    nnperf_prediction_free(pr);
    return s.fps;
}

static void dims_checked(const struct nnperf_model *rn, const struct nnperf_model *bm)
{
    const char *real = "input 'input' [1, 3, 224, 224]";
    refused(rn, "input=1.5x3x224x224", NULL, real, "dim 0 is '1.5'", NULL);
    refused(rn, "input=-224x3x224x224", NULL, real, "'-224'", NULL);
    refused(rn, "input=0x3x224x224", NULL, real, "dim 0 is '0'", "batch", NULL);
    refused(rn, "input=1x0x224x224", NULL, real, "dim 1 is '0'", NULL);
    refused(rn, "input=1x3x224", NULL, real, "has 4 dims", "gives 3", NULL);
    refused(rn, "input=1x3x224x224x", NULL, real, "empty dim", NULL);
    refused(rn, "inptu=1x3x224x224", NULL, "no input named 'inptu'", "did you mean 'input'?",
            "its inputs: "
            "input [1, 3, 224, 224]",
            NULL);
    refused(rn, NULL, "N=8", "no input has a dim named 'N'", "input [1, 3, 224, 224]", NULL);
    refused(bm, NULL, "bacth=8", "no input has a dim named 'bacth'", "did you mean 'batch'?",
            "batch (input 'x' dim 0)", NULL);
    refused(bm, NULL, "batch=1.5", "not a dim", "input 'x' [batch, 3, 32, 32]", NULL);
    refused(bm, NULL, "batch=0", "0 frames", "input 'x' [batch, 3, 32, 32]", NULL);
    refused(bm, NULL, "batch=-1", "not a dim", NULL);
    /* ',' separates dims as 'x' does; a symbol is an identifier */
    struct nnperf_analysis *a = bind(rn, "input=2,3,224,224", NULL), *b = bind(rn, "input=2x3x224x224", NULL);
    struct nnperf_summary sa, sb;
    CHECK(a && b);
    if (a && b) {
        nnperf_analysis_summary(a, &sa), nnperf_analysis_summary(b, &sb);
        CHECK_EQ_U(sa.macs, sb.macs);
        CHECK_EQ_U(nnperf_analysis_batch(a), 2);
        /* exported at batch 1, analysed at 2: the declared output [1, 1000] is no conflict */
        CHECK_EQ_U(sa.warnings, 0);
    }
    nnperf_analysis_free(a), nnperf_analysis_free(b);
    a = bind(bm, "x=Bx3x32x32", "B=4");
    CHECK(a && nnperf_analysis_batch(a) == 4);
    nnperf_analysis_free(a);
}

static void frames_from_the_input(const struct nnperf_model *rn, const struct nnperf_model *bm)
{
    struct nnperf_platform *plat;
    if (nnperf_platform_load("rdk-s100", &plat, err, sizeof err)) {
        fprintf(stderr, "%s\n", err);
        CHECK(0);
        return;
    }
    struct nnperf_analysis *a1 = bind(rn, NULL, NULL), *a8 = bind(rn, "input=8x3x224x224", NULL);
    CHECK(a1 && a8);
    if (a1 && a8) {
        enum nnperf_status st;
        int f1 = 0, f8 = 0, f16 = 0;
        double by_batch = fps(a1, plat, 8, &f1, &st);
        double by_input = fps(a8, plat, 0, &f8, &st);
        CHECK_EQ_U(f1, 8);
        CHECK_EQ_U(f8, 8);
        CHECK(by_batch > 0 && by_batch == by_input); /* the same double */
        /* asked for 8 too: the same; 16 runs the graph twice; 12 is no multiple of 8 */
        CHECK(fps(a8, plat, 8, &f8, &st) == by_input);
        CHECK(fps(a8, plat, 16, &f16, &st) > 0 && f16 == 16);
        CHECK(fps(a1, plat, 16, &f1, &st) == fps(a8, plat, 16, &f16, &st));
        CHECK(fps(a8, plat, 12, &f8, &st) < 0 && st == NNPERF_E_USAGE);
        CHECK(strstr(err, "batch 12 is not a multiple of the 8 frames") != NULL);
    }
    nnperf_analysis_free(a1), nnperf_analysis_free(a8);
    /* the batch of a dims binding counts the same */
    struct nnperf_analysis *d8 = bind(bm, NULL, "batch=8"), *i8 = bind(bm, "x=8x3x32x32", NULL);
    CHECK(d8 && i8);
    if (d8 && i8) {
        enum nnperf_status st;
        int fa = 0, fb = 0;
        CHECK(fps(d8, plat, 0, &fa, &st) == fps(i8, plat, 0, &fb, &st));
        CHECK(fa == 8 && fb == 8);
    }
    nnperf_analysis_free(d8), nnperf_analysis_free(i8);
    nnperf_platform_free(plat);
}

static void unbound_refused(const struct nnperf_model *bm)
{
    struct nnperf_platform *plat;
    if (nnperf_platform_load("rdk-s100", &plat, err, sizeof err)) {
        CHECK(0);
        return;
    }
    struct nnperf_analysis *a = bind(bm, NULL, NULL);
    CHECK(a != NULL);
    if (!a) return;
    CHECK(nnperf_analysis_check_bound(a, err, sizeof err) == NNPERF_E_USAGE);
    CHECK(strstr(err, "'batch' (input 'x' dim 0)") && strstr(err, "batch=1") && !strstr(err, "--"));
    struct nnperf_prediction *p = NULL;
    struct nnperf_predict_options o = {0};
    CHECK(nnperf_predict(a, plat, &o, &p, err, sizeof err) == NNPERF_E_USAGE && !p);
    CHECK(strstr(err, "unbound symbolic input dim 'batch'") != NULL);
    CHECK(nnperf_predict(a, plat, NULL, &p, err, sizeof err) == NNPERF_E_USAGE && !p);
    o.allow_unbound = 1;
    CHECK(nnperf_predict(a, plat, &o, &p, err, sizeof err) == NNPERF_OK && p);
    nnperf_prediction_free(p);
    /* the warning's kind */
    struct nnperf_summary s;
    nnperf_analysis_summary(a, &s);
    int unbound = 0;
    for (int i = 0; i < s.warnings; i++)
        unbound += !strcmp(nnperf_analysis_warning_kind(a, i), "unbound-dim");
    CHECK_EQ_U(unbound, 1);
    CHECK(nnperf_analysis_warning_kind(a, s.warnings) == NULL);
    nnperf_analysis_free(a);
    a = bind(bm, NULL, "batch=1");
    CHECK(a && nnperf_analysis_check_bound(a, err, sizeof err) == NNPERF_OK);
    nnperf_analysis_free(a);
    nnperf_platform_free(plat);
}

static void not_onnx(void)
{
    struct nnperf_model *m = NULL;
    CHECK(nnperf_model_load("README.md", NULL, &m, err, sizeof err) != NNPERF_OK && !m);
    CHECK_STR(err, "README.md: not an ONNX model (a text file)");
    static const char text[] = "# a heading\nsome words, not a model\n";
    CHECK(nnperf_model_load_buffer(text, sizeof text - 1, "<bytes>", NULL, NULL, &m, err, sizeof err) !=
          NNPERF_OK);
    CHECK_STR(err, "<bytes>: not an ONNX model (a text file)");
    CHECK(nnperf_platform_load("rdk-s10", (struct nnperf_platform **)&m, err, sizeof err) == NNPERF_E_USAGE);
    CHECK(strstr(err, "did you mean 'rdk-s100'?") && !strstr(err, "nnperf hw"));
    const char *cands[] = {"list", "show", "rdk-s100"};
    CHECK_STR(nnperf_suggest("shwo", cands, 3), "show");
    CHECK(nnperf_suggest("zzzzzz", cands, 3) == NULL);
}

int main(void)
{
    struct nnperf_model *rn = NULL, *bm = NULL;
    if (nnperf_model_load("models/resnet18.onnx", NULL, &rn, err, sizeof err) ||
        nnperf_model_load(BATCH_MODEL, NULL, &bm, err, sizeof err)) {
        fprintf(stderr, "%s\n", err);
        return 1;
    }
    dims_checked(rn, bm);
    frames_from_the_input(rn, bm);
    unbound_refused(bm);
    not_onnx();
    nnperf_model_free(rn), nnperf_model_free(bm);
    return tt_done();
}
