/* fuzz_predict.c - libFuzzer harness for the prediction and report path fed by a fuzzed platform: the input is a
 * platform file (as for fuzz_platform.c; bases name presets only); when it loads, three small models
 * (tests/data/predict/: a fused block, a shortcut, a model with operators for the CPU fallback) are predicted on it
 * (the planned memory model, and QuTiBench's weights-only for the last) and rendered in every format: table, JSON,
 * CSV, HTML and the three SVG plots. Any description the reader accepts must give finite figures: the summary's
 * latency, FPS and utilization are finite (latency > 0), and the JSON holds no bare inf or nan (a finding: abort).
 * Seeds: the presets (fuzz_predict.seeds); dictionary: the platform one (fuzz_predict.dict is a copy). */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "hw/hw.h"
#include "nnperf.h"

#ifndef NNPERF_SOURCE_DIR
#define NNPERF_SOURCE_DIR "."
#endif

int LLVMFuzzerInitialize(int *argc, char ***argv);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

#define N_MODELS 3
static struct nnperf_model *models[N_MODELS];
static struct nnperf_analysis *analyses[N_MODELS];

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
    (void)argc, (void)argv;
    static const char *const names[N_MODELS] = {"fuse_block", "shortcut", "fallback"};
    char path[1024], err[512];
    for (int i = 0; i < N_MODELS; i++) {
        snprintf(path, sizeof path, "%s/tests/data/predict/%s.onnx", NNPERF_SOURCE_DIR, names[i]);
        if (nnperf_model_load(path, NULL, &models[i], err, sizeof err) != NNPERF_OK ||
            nnperf_analyze(models[i], NULL, &analyses[i], err, sizeof err) != NNPERF_OK) {
            fprintf(stderr, "fuzz_predict: %s\n", err);
            abort();
        }
    }
    return 0;
}

/* JSON outside its strings holds only numbers, punctuation and true/false/null: no inf, nan or Infinity */
static void check_json(const char *s)
{
    for (const char *p = s; *p; p++) {
        if (*p == '"') {
            for (p++; *p && *p != '"'; p++)
                if (*p == '\\' && p[1]) p++;
            if (!*p) abort();
            continue;
        }
        if ((*p >= 'a' && *p <= 'z') || (*p >= 'A' && *p <= 'Z')) {
            size_t n = 0;
            while ((p[n] >= 'a' && p[n] <= 'z') || (p[n] >= 'A' && p[n] <= 'Z')) n++;
            int exp = n == 1 && (*p == 'e' || *p == 'E') && p > s && p[-1] >= '0' && p[-1] <= '9';
            if (!exp && !(n == 4 && (!strncmp(p, "true", 4) || !strncmp(p, "null", 4))) &&
                !(n == 5 && !strncmp(p, "false", 5)))
                abort();
            p += n - 1;
        }
    }
}

static void render_all(const struct nnperf_prediction *pr)
{
    static const enum nnperf_format fmts[] = {NNPERF_FORMAT_TABLE, NNPERF_FORMAT_JSON, NNPERF_FORMAT_CSV,
                                              NNPERF_FORMAT_HTML};
    static const char *const plots[] = {"roofline", "timeline", "memory"};
    char err[512];
    for (size_t f = 0; f < sizeof fmts / sizeof fmts[0]; f++) {
        char *out = NULL;
        size_t len = 0;
        if (nnperf_prediction_render(pr, fmts[f], &out, &len, err, sizeof err) == NNPERF_OK) {
            if (!out || strlen(out) != len) abort();
            if (fmts[f] == NNPERF_FORMAT_JSON) check_json(out);
        }
        free(out);
    }
    for (size_t k = 0; k < sizeof plots / sizeof plots[0]; k++) {
        char *out = NULL;
        size_t len = 0;
        if (nnperf_plot_svg(pr, plots[k], &out, &len, err, sizeof err) == NNPERF_OK && (!out || !len))
            abort();
        free(out);
    }
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    struct nnperf_platform *p = malloc(sizeof *p);
    if (!p) abort();
    struct diag d = {NNPERF_OK, {0}};
    if (hw_load_text((const char *)data, size, "fuzz.yaml", NULL, HW_LOAD_NO_FILES, &p->hw, &d) ==
        NNPERF_OK) {
        for (int i = 0; i < N_MODELS; i++) {
            struct nnperf_predict_options o = {0};
            o.memory_model = i == N_MODELS - 1 ? NNPERF_MEMORY_WEIGHTS_ONLY : NNPERF_MEMORY_PLANNED;
            struct nnperf_prediction *pr = NULL;
            char err[512];
            if (nnperf_predict(analyses[i], p, &o, &pr, err, sizeof err) != NNPERF_OK) continue;
            struct nnperf_prediction_summary s;
            nnperf_prediction_summary(pr, &s);
            if (!isfinite(s.latency_s) || !(s.latency_s > 0) || !isfinite(s.fps) ||
                !isfinite(s.avg_utilization) || !isfinite(s.ddr_bytes_per_second))
                abort();
            render_all(pr);
            nnperf_prediction_free(pr);
        }
    }
    free(p);
    return 0;
}
