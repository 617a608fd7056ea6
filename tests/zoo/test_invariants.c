/* test_invariants.c - properties every prediction must have, over the model zoo (models/) and every built-in
 * preset: more DDR bandwidth or more peak never predicts slower; latency per run never falls as the batch grows;
 * FPS x latency = frames per run; utilization stays in [0, 1].
 * usage: test_invariants MODELS_DIR */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "predict/predict.h"
#include "tinytest.h"

static double latency(const struct nnperf_analysis *a, const struct nnperf_platform *p, int batch,
                      double *fps, double *util)
{
    struct nnperf_predict_options o = {.dtype = NULL, .batch = batch, .memory_model = 0, .interval_s = 0};
    struct nnperf_prediction *pr;
    char err[512];
    if (nnperf_predict(a, p, &o, &pr, err, sizeof err) != NNPERF_OK) {
        fprintf(stderr, "%s: %s\n", p->hw.name, err);
        return -1;
    }
    struct nnperf_prediction_summary s;
    nnperf_prediction_summary(pr, &s);
    if (fps) *fps = s.fps;
    if (util) *util = s.avg_utilization;
    nnperf_prediction_free(pr);
    return s.latency_s;
}

int main(int argc, char **argv)
{
    const char *dir = argc > 1 ? argv[1] : "models";
    const char *models[] = {"resnet50",           "mobilenet_v2", "efficientnet_b0", "googlenet",
                            "shufflenet_v2_x1_0", "vit_b_16",     "squeezenet1_0",   "densenet121",
                            "convnext_tiny",      "swin_t"};
    int checked = 0, bad_bw = 0, bad_peak = 0, bad_batch = 0, bad_fps = 0, bad_util = 0;
    for (size_t mi = 0; mi < sizeof models / sizeof models[0]; mi++) {
        char path[4096], err[1024];
        snprintf(path, sizeof path, "%s/%s.onnx", dir, models[mi]);
        struct nnperf_model *m;
        struct nnperf_analysis *a;
        if (nnperf_model_load(path, NULL, &m, err, sizeof err) != NNPERF_OK) {
            fprintf(stderr, "%s\n", err);
            CHECK(0);
            continue;
        }
        if (nnperf_analyze(m, NULL, &a, err, sizeof err) != NNPERF_OK) {
            fprintf(stderr, "%s\n", err);
            CHECK(0);
            nnperf_model_free(m);
            continue;
        }
        for (int pi = 0; pi < hw_preset_count(); pi++) {
            struct nnperf_platform base, more;
            struct diag d = {0};
            hw_init(&base.hw);
            if (hw_resolve(hw_preset_name(pi), &base.hw, &d) != NNPERF_OK) {
                fprintf(stderr, "%s\n", d.msg);
                CHECK(0);
                continue;
            }
            double fps, util;
            double t0 = latency(a, &base, 1, &fps, &util);
            if (t0 < 0) continue;
            checked++;
            if (fabs(fps * t0 - 1) > 1e-9) bad_fps++;
            if (util < 0 || util > 1) bad_util++;
            more = base;
            more.hw.ddr_bw *= 2;
            more.hw.sram_bw *= 2;
            more.hw.fb.bandwidth *= 2;
            more.hw.fb.transfer_bw *= 2;
            if (latency(a, &more, 1, NULL, NULL) > t0 * (1 + 1e-12)) {
                fprintf(stderr, "%s on %s: more bandwidth is slower\n", models[mi], base.hw.name);
                bad_bw++;
            }
            more = base;
            for (int k = 0; k < HW_NDT; k++) more.hw.peak_ops[k] *= 2;
            more.hw.vector_ops *= 2;
            more.hw.fb.peak_ops *= 2;
            if (latency(a, &more, 1, NULL, NULL) > t0 * (1 + 1e-12)) {
                fprintf(stderr, "%s on %s: more peak is slower\n", models[mi], base.hw.name);
                bad_peak++;
            }
            double prev = t0;
            for (int b = 2; b <= 16; b *= 2) {
                double t = latency(a, &base, b, &fps, NULL);
                if (t < prev * (1 - 1e-12)) {
                    fprintf(stderr, "%s on %s: batch %d is faster per run than batch %d\n", models[mi],
                            base.hw.name, b, b / 2);
                    bad_batch++;
                }
                if (fabs(fps * t - b) > 1e-9 * b) bad_fps++;
                prev = t;
            }
        }
        nnperf_analysis_free(a);
        nnperf_model_free(m);
    }
    printf("invariants: %d model x platform predictions checked\n", checked);
    CHECK(checked > 100);
    CHECK_EQ_U(bad_bw, 0);
    CHECK_EQ_U(bad_peak, 0);
    CHECK_EQ_U(bad_batch, 0);
    CHECK_EQ_U(bad_fps, 0);
    CHECK_EQ_U(bad_util, 0);
    return tt_done();
}
