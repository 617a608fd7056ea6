/* fuzz_capi.c - libFuzzer harness for the C entry points the Python binding calls (python/nnperf/_capi.py), with
 * the arguments Python passes through: an 8-byte header (model, preset, format, memory model, then a batch as a raw
 * 32-bit int: negative and huge values too) and NUL-separated strings "i:NAME=DIMS" (input shapes), "d:NAME=N" (dim
 * bindings), "t:DTYPE", "p:PLOT" and "n:PLATFORM" (a name of lower-case letters, digits and '-', so no file is
 * read). The sequence is the binding's: load, analyze, summary/warnings/unbound dims, render, platform, predict,
 * render, plot, annotate (and load what it wrote), free. Every call returns a known status with a message when it
 * fails, every text has the length it reports, and everything is freed (LeakSanitizer; a finding: abort).
 * The four models and the presets are loaded once (LLVMFuzzerInitialize) and each input works on a copy of its
 * platform: loading a file is fuzzed by fuzz_onnx and fuzz_platform, and it was most of this harness's time. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "nnperf.h"

#ifndef NNPERF_SOURCE_DIR
#define NNPERF_SOURCE_DIR "."
#endif

int LLVMFuzzerInitialize(int *argc, char ***argv);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static const char *const models[] = {"tests/data/predict/fuse_block.onnx", "tests/data/predict/shortcut.onnx",
                                     "tests/data/predict/attention.onnx", "tests/data/text/dims.onnx"};
static struct nnperf_model *model[4];
static struct nnperf_platform **preset;
static int preset_n;

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
    (void)argc, (void)argv;
    char path[512], err[1024];
    for (int i = 0; i < 4; i++) {
        snprintf(path, sizeof path, "%s/%s", NNPERF_SOURCE_DIR, models[i]);
        if (nnperf_model_load(path, NULL, &model[i], err, sizeof err) !=
            NNPERF_OK) { /* the test models load */
            fprintf(stderr, "fuzz_capi: %s\n", err);
            abort();
        }
    }
    preset_n = nnperf_platform_preset_count();
    if (preset_n <= 0 || !nnperf_version() || !(preset = calloc((size_t)preset_n, sizeof *preset))) abort();
    for (int i = 0; i < preset_n; i++)
        if (nnperf_platform_load(nnperf_platform_preset_name(i), &preset[i], err, sizeof err) != NNPERF_OK) {
            fprintf(stderr, "fuzz_capi: %s\n", err);
            abort();
        }
    return 0;
}

static void status_ok(enum nnperf_status st, const char *err)
{
    if ((int)st < 0 || (int)st > NNPERF_E_UNSUPPORTED || !nnperf_status_name(st)) abort();
    if (st != NNPERF_OK && !err[0]) abort(); /* a refusal says why */
}

static void text_ok(enum nnperf_status st, const char *out, size_t len)
{
    if (st == NNPERF_OK && (!out || strlen(out) != len)) abort();
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size < 8 || size > 4096) return 0;
    char *text = malloc(size - 7);
    if (!text) abort();
    memcpy(text, data + 8, size - 8);
    text[size - 8] = 0;
    const char *shapes[8], *dims[8], *dtype = NULL, *plot = "roofline", *plat_name = NULL;
    int ns = 0, nd = 0;
    for (size_t i = 0; i < size - 8; i += strlen(text + i) + 1) {
        const char *s = text + i;
        if (!strncmp(s, "i:", 2) && ns < 8) shapes[ns++] = s + 2;
        if (!strncmp(s, "d:", 2) && nd < 8) dims[nd++] = s + 2;
        if (!strncmp(s, "t:", 2)) dtype = s + 2;
        if (!strncmp(s, "p:", 2)) plot = s + 2;
        if (!strncmp(s, "n:", 2) && s[2] &&
            strspn(s + 2, "abcdefghijklmnopqrstuvwxyz0123456789-") == strlen(s + 2))
            plat_name = s + 2;
    }
    int preset_i = plat_name ? -1 : data[1] % preset_n;
    enum nnperf_format fmt = (enum nnperf_format)(data[2] % 6); /* 4 and 5: not a format */
    int memory_model =
        (int)(data[3] % (unsigned)(nnperf_memory_model_count() + 1)) - 1; /* -1: out of range */
    int32_t batch;
    memcpy(&batch, data + 4, sizeof batch);

    char err[1024];
    struct nnperf_model *m = model[data[0] % 4];
    struct nnperf_analysis *a = NULL;
    struct nnperf_platform *pl = NULL;
    struct nnperf_prediction *p = NULL;
    char *out = NULL;
    size_t len = 0;
    struct nnperf_analyze_options ao = {shapes, ns, dims, nd};
    err[0] = 0;
    enum nnperf_status st = nnperf_analyze(m, &ao, &a, err, sizeof err);
    status_ok(st, err);
    if (st == NNPERF_OK) {
        struct nnperf_summary s;
        nnperf_analysis_summary(a, &s);
        for (int i = 0; i < s.warnings; i++)
            if (!nnperf_analysis_warning(a, i)) abort();
        for (int i = 0; i < s.unbound_dims; i++)
            if (!nnperf_analysis_unbound_dim(a, i)) abort();
        if (nnperf_analysis_warning(a, s.warnings) || nnperf_analysis_unbound_dim(a, s.unbound_dims)) abort();
        err[0] = 0;
        st = nnperf_analysis_render(a, fmt, &out, &len, err, sizeof err);
        status_ok(st, err);
        text_ok(st, out, len);
        nnperf_free(out);
        out = NULL;
        err[0] = 0;
        st = preset_i >= 0 ? nnperf_platform_copy(preset[preset_i], &pl)
                           : nnperf_platform_load(plat_name, &pl, err, sizeof err);
        status_ok(st, err);
        if (st == NNPERF_OK && !s.unbound_dims) {
            struct nnperf_predict_options po = {.dtype = dtype, .batch = batch, .memory_model = memory_model};
            err[0] = 0;
            st = nnperf_predict(a, pl, &po, &p, err, sizeof err);
            status_ok(st, err);
            if (st == NNPERF_OK) {
                err[0] = 0;
                st = nnperf_prediction_render(p, fmt, &out, &len, err, sizeof err);
                status_ok(st, err);
                text_ok(st, out, len);
                nnperf_free(out);
                out = NULL;
                err[0] = 0;
                st = nnperf_plot_svg(p, plot, &out, &len, err, sizeof err);
                status_ok(st, err);
                text_ok(st, out, len);
                nnperf_free(out);
                out = NULL;
            }
        }
        /* the annotated model loads and analyses again */
        void *ann = NULL;
        size_t alen = 0;
        err[0] = 0;
        st = nnperf_annotate(a, &ann, &alen, err, sizeof err);
        status_ok(st, err);
        if (st == NNPERF_OK) {
            struct nnperf_model *m2 = NULL;
            struct nnperf_analysis *a2 = NULL;
            err[0] = 0;
            st = nnperf_model_load_buffer(ann, alen, "annotated.onnx", NULL, NULL, &m2, err, sizeof err);
            if (st != NNPERF_OK) {
                fprintf(stderr, "fuzz_capi: the annotated model does not load: %s\n", err);
                abort();
            }
            st = nnperf_analyze(m2, &ao, &a2, err, sizeof err);
            status_ok(st, err);
            nnperf_analysis_free(a2);
            nnperf_model_free(m2);
        }
        nnperf_free(ann);
    }
    nnperf_prediction_free(p);
    nnperf_platform_free(pl);
    nnperf_analysis_free(a);
    free(text);
    return 0;
}
