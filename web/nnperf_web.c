/* nnperf_web.c - the entry points the web page (web/app.js) calls in the WebAssembly build of libnnperf.
 *
 * A thin layer over the public API (include/nnperf.h), the one the CLI and the Python package use: each function
 * turns the out-parameters and option structs that are awkward to build from JavaScript into a returned handle or
 * a malloc'd string, and lists into newline-separated text. No prediction or report logic lives here. Every
 * fallible function writes the library's message into err (the page shows it) and returns NULL or a status.
 *
 * Handles: a model borrows the bytes it was loaded from (the caller frees them after nnperf_model_free); an analysis
 * borrows its model, a prediction its analysis: free the later ones first. Strings returned here are freed with
 * nnperf_free. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "nnperf_web.h"

#ifdef __EMSCRIPTEN__
#include <emscripten.h>
#define NW_EXPORT EMSCRIPTEN_KEEPALIVE
#else
#define NW_EXPORT
#endif

#define NW_MAX_ITEMS 256

/* Splits a copy of text at newlines into v (at most cap items; empty lines skipped). *copy must be freed. */
static int split_lines(const char *text, char **copy, const char **v, int cap)
{
    *copy = NULL;
    if (!text || !*text) return 0;
    size_t n = strlen(text);
    char *s = malloc(n + 1);
    if (!s) return -1;
    memcpy(s, text, n + 1);
    *copy = s;
    int k = 0;
    for (char *line = s; line && *line;) {
        char *nl = strchr(line, '\n');
        if (nl) *nl = 0;
        if (*line) {
            if (k == cap) return -1;
            v[k++] = line;
        }
        line = nl ? nl + 1 : NULL;
    }
    return k;
}

static void set_err(char *err, size_t errlen, const char *msg)
{
    if (!err || !errlen) return;
    size_t n = strlen(msg);
    if (n >= errlen) n = errlen - 1;
    memcpy(err, msg, n);
    err[n] = 0;
}

NW_EXPORT struct nnperf_model *nw_load(const void *buf, size_t len, const char *name, char *err,
                                       size_t errlen)
{
    struct nnperf_model *m = NULL;
    if (nnperf_model_load_buffer(buf, len, name, NULL, NULL, &m, err, errlen) != NNPERF_OK) return NULL;
    return m;
}

/* inputs: "NAME=DIMS" lines (--input), dims: "SYMBOL=N" lines (--dim). */
NW_EXPORT struct nnperf_analysis *nw_analyze(const struct nnperf_model *m, const char *inputs,
                                             const char *dims, char *err, size_t errlen)
{
    const char *in[NW_MAX_ITEMS], *dm[NW_MAX_ITEMS];
    char *c1, *c2;
    int ni = split_lines(inputs, &c1, in, NW_MAX_ITEMS), nd = split_lines(dims, &c2, dm, NW_MAX_ITEMS);
    struct nnperf_analysis *a = NULL;
    if (ni < 0 || nd < 0)
        set_err(err, errlen, "too many input shapes or dim bindings (or out of memory)");
    else {
        struct nnperf_analyze_options o = {in, ni, dm, nd};
        if (nnperf_analyze(m, &o, &a, err, errlen) != NNPERF_OK) a = NULL;
    }
    free(c1);
    free(c2);
    return a;
}

/* A built-in preset (or a YAML file in the module's file system) with "KEY=VALUE" lines applied (--set). */
NW_EXPORT struct nnperf_platform *nw_platform(const char *name, const char *sets, char *err, size_t errlen)
{
    struct nnperf_platform *p = NULL;
    if (nnperf_platform_load(name, &p, err, errlen) != NNPERF_OK) return NULL;
    const char *kv[NW_MAX_ITEMS];
    char *copy;
    int n = split_lines(sets, &copy, kv, NW_MAX_ITEMS);
    if (n < 0) set_err(err, errlen, "too many platform settings (or out of memory)");
    for (int i = 0; i < n; i++) {
        char *eq = strchr(kv[i], '=');
        if (!eq) {
            set_err(err, errlen, "a platform setting is KEY=VALUE");
            n = -1;
            break;
        }
        *eq = 0;
        if (nnperf_platform_set(p, kv[i], eq + 1, err, errlen) != NNPERF_OK) {
            n = -1;
            break;
        }
    }
    free(copy);
    if (n < 0) {
        nnperf_platform_free(p);
        return NULL;
    }
    return p;
}

/* The prediction `nnperf analyze --hw` makes (the platform's dtype, batch and memory model). */
NW_EXPORT struct nnperf_prediction *nw_predict(const struct nnperf_analysis *a,
                                               const struct nnperf_platform *p, char *err, size_t errlen)
{
    struct nnperf_prediction *out = NULL;
    if (nnperf_predict(a, p, NULL, &out, err, errlen) != NNPERF_OK) return NULL;
    return out;
}

/* The summary's numbers, in this order (web/app.js names them): latency_s, fps, throughput_fps, fps_per_w,
 * power_w, energy_j_per_frame, ddr_bytes_per_frame, avg_utilization, spilled_tensors, fallback_layers, layers,
 * frames_per_run, warnings. Returns how many it wrote (at most cap). */
NW_EXPORT int nw_summary(const struct nnperf_prediction *p, double *out, int cap)
{
    struct nnperf_prediction_summary s;
    nnperf_prediction_summary(p, &s);
    const double v[] = {s.latency_s, s.fps, s.throughput_fps, s.fps_per_w, s.power_w, s.energy_j_per_frame,
                        s.ddr_bytes_per_frame, s.avg_utilization, s.spilled_tensors, s.fallback_layers,
                        s.layers, s.frames_per_run, s.warnings,
                        /* what FPS/W holds: 1 static and dynamic power, 0 dynamic only, NaN no power */
                        !s.power_basis                          ? NAN
                        : strcmp(s.power_basis, "dynamic only") ? 1
                                                                : 0};
    int n = (int)(sizeof v / sizeof v[0]);
    if (n > cap) n = cap;
    memcpy(out, v, (size_t)n * sizeof v[0]);
    return n;
}

/* fmt: enum nnperf_format. NULL on error. */
NW_EXPORT char *nw_analysis_render(const struct nnperf_analysis *a, int fmt, char *err, size_t errlen)
{
    char *out = NULL;
    size_t len;
    if (nnperf_analysis_render(a, (enum nnperf_format)fmt, &out, &len, err, errlen) != NNPERF_OK) return NULL;
    return out;
}

NW_EXPORT char *nw_prediction_render(const struct nnperf_prediction *p, int fmt, char *err, size_t errlen)
{
    char *out = NULL;
    size_t len;
    if (nnperf_prediction_render(p, (enum nnperf_format)fmt, &out, &len, err, errlen) != NNPERF_OK)
        return NULL;
    return out;
}

/* kind: "timeline", "roofline" or "memory" (nnperf_plot_svg). */
NW_EXPORT char *nw_plot(const struct nnperf_prediction *p, const char *kind, char *err, size_t errlen)
{
    char *out = NULL;
    size_t len;
    if (nnperf_plot_svg(p, kind, &out, &len, err, errlen) != NNPERF_OK) return NULL;
    return out;
}

/* The advice of `nnperf advise` on the platform's defaults, rendered (fmt: enum nnperf_format). */
NW_EXPORT char *nw_advise(const struct nnperf_analysis *a, const struct nnperf_platform *p, int fmt,
                          char *err, size_t errlen)
{
    struct nnperf_advice *adv = NULL;
    if (nnperf_advise(a, p, NULL, &adv, err, errlen) != NNPERF_OK) return NULL;
    char *out = NULL;
    size_t len;
    if (nnperf_advice_render(adv, (enum nnperf_format)fmt, &out, &len, err, errlen) != NNPERF_OK) out = NULL;
    nnperf_advice_free(adv);
    return out;
}

NW_EXPORT char *nw_platform_yaml(const struct nnperf_platform *p)
{
    char *out = NULL;
    size_t len;
    if (nnperf_platform_yaml(p, &out, &len) != NNPERF_OK) return NULL;
    return out;
}

/* n strings, one a line: get(ctx, i) for i < n; malloc'd. */
static char *join_lines(int n, const char *(*get)(const void *ctx, int i), const void *ctx)
{
    size_t len = 1;
    for (int i = 0; i < n; i++) len += strlen(get(ctx, i)) + 1;
    char *out = malloc(len), *w = out;
    if (!out) return NULL;
    for (int i = 0; i < n; i++) {
        size_t l = strlen(get(ctx, i));
        memcpy(w, get(ctx, i), l);
        w[l] = '\n';
        w += l + 1;
    }
    *w = 0;
    return out;
}

static const char *preset_name(const void *ctx, int i)
{
    (void)ctx;
    return nnperf_platform_preset_name(i);
}

/* The built-in presets' names, one a line. */
NW_EXPORT char *nw_presets(void)
{
    return join_lines(nnperf_platform_preset_count(), preset_name, NULL);
}

static const char *unbound_dim(const void *a, int i)
{
    return nnperf_analysis_unbound_dim(a, i);
}

/* The symbolic input dims the analysis left unbound, one a line (the page asks for their values). */
NW_EXPORT char *nw_unbound_dims(const struct nnperf_analysis *a)
{
    struct nnperf_summary s;
    nnperf_analysis_summary(a, &s);
    return join_lines(s.unbound_dims, unbound_dim, a);
}
