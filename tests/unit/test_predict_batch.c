/* test_predict_batch.c - nnperf_predict_batch (a prediction for another batch sharing lowering and fusion with an
 * earlier one) gives what nnperf_predict gives: the same JSON document, byte for byte, over CNNs, quantized graphs
 * and a decoder with a KV cache, every built-in preset, every memory model and several batches; derived from a
 * derived prediction and with the first one freed first; and the option no_timeline drops the series and nothing
 * else. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/testpredict.h"
#include "nnperf.h"
#include "tinytest.h"

static char *render(const struct nnperf_prediction *p)
{
    char *out = NULL, err[256];
    size_t len;
    if (nnperf_prediction_render(p, NNPERF_FORMAT_JSON, &out, &len, err, sizeof err) != NNPERF_OK) {
        fprintf(stderr, "render: %s\n", err);
        return NULL;
    }
    return out;
}

static int differs, compared;

/* the JSON of p equals that of nnperf_predict at the same options */
static void same(const char *what, const struct nnperf_prediction *p, const struct nnperf_analysis *a,
                 const struct nnperf_platform *pl, struct nnperf_predict_options o)
{
    struct nnperf_prediction *full;
    char err[512];
    if (nnperf_predict(a, pl, &o, &full, err, sizeof err) != NNPERF_OK) {
        fprintf(stderr, "%s: %s\n", what, err);
        CHECK(0);
        return;
    }
    char *x = render(full), *y = render(p);
    compared++;
    if (!x || !y || strcmp(x, y)) {
        differs++;
        fprintf(stderr, "%s: nnperf_predict_batch differs from nnperf_predict\n", what);
    }
    free(x), free(y);
    nnperf_prediction_free(full);
}

static void check_model(const char *path, const char *const *dims, int n_dims, int causal)
{
    char err[1024];
    struct nnperf_analyze_options ao = {NULL, 0, dims, n_dims};
    struct tp_run r;
    if (!tp_run(&r, path, &ao, NULL, NULL)) {
        CHECK(0);
        tp_free(&r);
        return;
    }
    const struct nnperf_analysis *a = r.a;
    static const int batches[] = {1, 8};
    for (int pi = 0; pi < nnperf_platform_preset_count(); pi++) {
        struct nnperf_platform *pl;
        if (nnperf_platform_load(nnperf_platform_preset_name(pi), &pl, err, sizeof err) != NNPERF_OK) {
            fprintf(stderr, "%s\n", err);
            CHECK(0);
            continue;
        }
        for (int mm = 0; mm < nnperf_memory_model_count(); mm++) {
            struct nnperf_predict_options o = {.batch = 2, .memory_model = mm, .causal = causal};
            struct nnperf_prediction *first, *p, *q;
            if (nnperf_predict(a, pl, &o, &first, err, sizeof err) != NNPERF_OK)
                continue; /* no default peak */
            char what[512];
            for (size_t bi = 0; bi < sizeof batches / sizeof batches[0]; bi++) {
                snprintf(what, sizeof what, "%s on %s, memory model %d, batch %d", path,
                         nnperf_platform_preset_name(pi), mm, batches[bi]);
                if (nnperf_predict_batch(first, batches[bi], &p, err, sizeof err) != NNPERF_OK) {
                    fprintf(stderr, "%s: %s\n", what, err);
                    CHECK(0);
                    continue;
                }
                o.batch = batches[bi];
                same(what, p, a, pl, o);
                /* derived from a derived one, outliving the first */
                if (bi == 0) {
                    nnperf_prediction_free(first);
                    if (nnperf_predict_batch(p, 5, &q, err, sizeof err) == NNPERF_OK) {
                        o.batch = 5;
                        snprintf(what, sizeof what, "%s on %s, memory model %d, batch 5 via batch %d", path,
                                 nnperf_platform_preset_name(pi), mm, batches[bi]);
                        same(what, q, a, pl, o);
                        first = q;
                    } else {
                        CHECK(0);
                        first = NULL;
                    }
                }
                nnperf_prediction_free(p);
            }
            nnperf_prediction_free(first);
        }
        nnperf_platform_free(pl);
    }
    tp_free(&r);
}

/* no_timeline: no series, the same summary and layers; the batch errors are nnperf_predict's */
static void check_no_timeline(void)
{
    char err[512], err2[512];
    struct tp_run run;
    struct nnperf_platform *pl;
    if (!tp_run(&run, "models/resnet18.onnx", NULL, NULL, NULL) ||
        nnperf_platform_load("horizon-j5", &pl, err, sizeof err) != NNPERF_OK) {
        CHECK(0);
        tp_free(&run);
        return;
    }
    const struct nnperf_analysis *a = run.a;
    struct nnperf_predict_options o = {.batch = 4}, on = {.batch = 4, .no_timeline = 1};
    struct nnperf_prediction *p, *q, *r;
    CHECK(nnperf_predict(a, pl, &o, &p, err, sizeof err) == NNPERF_OK);
    CHECK(nnperf_predict(a, pl, &on, &q, err, sizeof err) == NNPERF_OK);
    struct nnperf_prediction_summary s, t;
    nnperf_prediction_summary(p, &s);
    nnperf_prediction_summary(q, &t);
    CHECK(nnperf_prediction_interval_count(p) > 0);
    CHECK(nnperf_prediction_interval_count(q) == 0);
    CHECK(s.latency_s == t.latency_s && s.avg_utilization == t.avg_utilization && s.avg_utilization > 0);
    CHECK(nnperf_predict_batch(q, 8, &r, err, sizeof err) == NNPERF_OK &&
          nnperf_prediction_interval_count(r) == 0);
    nnperf_prediction_free(r);
    /* a batch out of range: the same message both ways */
    o.batch = -1;
    CHECK(nnperf_predict(a, pl, &o, &r, err, sizeof err) == NNPERF_E_USAGE && !r);
    CHECK(nnperf_predict_batch(p, -1, &r, err2, sizeof err2) == NNPERF_E_USAGE && !r);
    CHECK_STR(err2, err);
    CHECK(nnperf_predict_batch(NULL, 1, &r, err, sizeof err) == NNPERF_E_USAGE);
    nnperf_prediction_free(p);
    nnperf_prediction_free(q);
    nnperf_platform_free(pl);
    tp_free(&run);
}

int main(void)
{
    static const char *const llm_dims[] = {"batch_size=1", "sequence_length=4", "past_sequence_length=2",
                                           "past_sequence_length + sequence_length=6"};
    check_model("models/resnet18.onnx", NULL, 0, 0);
    check_model("tests/data/quant/resnet18_qdq.onnx", NULL, 0, 0);
    check_model("tests/data/llm/tiny-llama-hf.onnx", llm_dims, 4, 1);
    CHECK(compared > 500);
    CHECK(differs == 0);
    printf("%d predictions compared, %d differ\n", compared, differs);
    check_no_timeline();
    return tt_done();
}
