/* test_locale.c - numbers in and out of the library do not depend on the host program's locale: everything the
 * library writes (analysis JSON, table, CSV, HTML; prediction JSON, table, CSV, HTML, SVG; roofline and sweep JSON;
 * advice; MAX78000 plan YAML/JSON; platform YAML; validation against a profile) and everything it parses (platform YAML numbers,
 * --input/--dim text, a profile's JSON) is the same under a comma-decimal LC_ALL (de_DE.UTF-8, as a Python host may
 * set) as under "C". Skipped, with a message, where de_DE.UTF-8 is not installed (.ci/install-deps.sh makes it). */
#include <locale.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "nnperf.h"
#include "tinytest.h"

struct text {
    char *p;
    size_t len;
};

static void put(struct text *t, const char *what, const char *s, size_t n)
{
    size_t w = strlen(what);
    char *q = realloc(t->p, t->len + w + n + 3);
    if (!q) return;
    t->p = q;
    memcpy(t->p + t->len, "\n#", 2);
    memcpy(t->p + t->len + 2, what, w);
    memcpy(t->p + t->len + 2 + w, s, n);
    t->len += 2 + w + n;
    t->p[t->len] = 0;
}

/* takes a malloc'd output */
static void put_out(struct text *t, const char *what, enum nnperf_status st, char *out, size_t len)
{
    CHECK(st == NNPERF_OK);
    if (st == NNPERF_OK && out) put(t, what, out, len);
    free(out);
}

/* Doubles are kept bit for bit beside the text (printing them here would itself depend on the locale). */
struct nums {
    double v[64];
    int n;
};

static void num(struct nums *ns, double v)
{
    if (ns->n < 64) ns->v[ns->n++] = v;
}

/* The analysis of the model at path (*m its model; both NULL on an error, which is a failed check). */
static struct nnperf_analysis *load(const char *path, const char *input, const char *dim,
                                    struct nnperf_model **m)
{
    char err[512];
    const char *in[1] = {input}, *dm[1] = {dim};
    struct nnperf_analyze_options o = {in, input ? 1 : 0, dm, dim ? 1 : 0};
    struct nnperf_analysis *a = NULL;
    if (nnperf_model_load(path, NULL, m, err, sizeof err) == NNPERF_OK &&
        nnperf_analyze(*m, &o, &a, err, sizeof err) == NNPERF_OK)
        return a;
    fprintf(stderr, "%s\n", err);
    CHECK(0);
    nnperf_model_free(*m);
    *m = NULL;
    return NULL;
}

static void analysis_outputs(struct text *t, const char *path, const char *input, const char *dim)
{
    char err[512];
    struct nnperf_model *m;
    struct nnperf_analysis *a = load(path, input, dim, &m);
    if (!a) return;
    const enum nnperf_format f[] = {NNPERF_FORMAT_JSON, NNPERF_FORMAT_TABLE, NNPERF_FORMAT_CSV,
                                    NNPERF_FORMAT_HTML};
    for (int i = 0; i < 4; i++) {
        char *out = NULL;
        size_t len = 0;
        enum nnperf_status st = nnperf_analysis_render(a, f[i], &out, &len, err, sizeof err);
        put_out(t, "analysis", st, out, len);
    }
    nnperf_analysis_free(a);
    nnperf_model_free(m);
}

static void prediction_outputs(struct text *t, struct nums *ns, const char *platform)
{
    char err[512];
    struct nnperf_model *m;
    struct nnperf_analysis *a = load("models/squeezenet1_1.onnx", NULL, NULL, &m);
    struct nnperf_platform *p = NULL;
    if (!a || nnperf_platform_load(platform, &p, err, sizeof err) != NNPERF_OK) {
        if (a) fprintf(stderr, "%s\n", err);
        CHECK(0);
        nnperf_analysis_free(a);
        nnperf_model_free(m);
        return;
    }
    struct nnperf_platform_info pi;
    nnperf_platform_info(p, &pi);
    num(ns, pi.peak_int8), num(ns, pi.peak_fp32), num(ns, pi.ddr_bandwidth), num(ns, pi.sram_bytes);
    char *out = NULL;
    size_t len = 0;
    put_out(t, "platform yaml", nnperf_platform_yaml(p, &out, &len), out, len);

    struct nnperf_predict_options po = {0};
    struct nnperf_prediction *pr;
    if (nnperf_predict(a, p, &po, &pr, err, sizeof err) == NNPERF_OK) {
        struct nnperf_prediction_summary s;
        nnperf_prediction_summary(pr, &s);
        num(ns, s.latency_s), num(ns, s.fps), num(ns, s.ddr_bytes_per_frame);
        const enum nnperf_format f[] = {NNPERF_FORMAT_JSON, NNPERF_FORMAT_TABLE, NNPERF_FORMAT_CSV,
                                        NNPERF_FORMAT_HTML};
        for (int i = 0; i < 4; i++) {
            out = NULL;
            put_out(t, "prediction", nnperf_prediction_render(pr, f[i], &out, &len, err, sizeof err), out,
                    len);
        }
        out = NULL;
        put_out(t, "roofline", nnperf_plot_svg(pr, "roofline", &out, &len, err, sizeof err), out, len);
        out = NULL;
        put_out(t, "roofline",
                nnperf_roofline_render(pr, NNPERF_FORMAT_JSON, NULL, &out, &len, err, sizeof err), out, len);
        struct nnperf_sweep *sw = NULL;
        CHECK(nnperf_sweep_new("squeezenet1_1", &sw, err, sizeof err) == NNPERF_OK &&
              nnperf_sweep_add(sw, pr, "memory.sram_bytes=1.5MiB", err, sizeof err) == NNPERF_OK);
        out = NULL;
        if (sw)
            put_out(t, "sweep",
                    nnperf_sweep_render(sw, NNPERF_FORMAT_JSON, NULL, &out, &len, err, sizeof err), out, len);
        nnperf_sweep_free(sw);
        /* a measured profile (JSON numbers parsed) against the prediction */
        double pred = 0, meas = 0;
        out = NULL;
        put_out(t, "validate",
                nnperf_validate(pr, "tests/data/ort_profile_small.json", NNPERF_FORMAT_JSON, &out, &len,
                                &pred, &meas, err, sizeof err),
                out, len);
        num(ns, pred), num(ns, meas);
        nnperf_prediction_free(pr);
    } else {
        fprintf(stderr, "%s\n", err);
        CHECK(0);
    }

    struct nnperf_advise_options ao = {0};
    struct nnperf_advice *adv;
    if (nnperf_advise(a, p, &ao, &adv, err, sizeof err) == NNPERF_OK) {
        out = NULL;
        put_out(t, "advice", nnperf_advice_render(adv, NNPERF_FORMAT_JSON, &out, &len, err, sizeof err), out,
                len);
        out = NULL;
        put_out(t, "advice", nnperf_advice_render(adv, NNPERF_FORMAT_TABLE, &out, &len, err, sizeof err), out,
                len);
        nnperf_advice_free(adv);
    } else {
        fprintf(stderr, "%s\n", err);
        CHECK(0);
    }
    nnperf_platform_free(p);
    nnperf_analysis_free(a);
    nnperf_model_free(m);
}

static void mcu_outputs(struct text *t)
{
    char err[512];
    struct nnperf_model *m;
    struct nnperf_analysis *a = load("models/mcu/mnist_ai85net5.onnx", NULL, NULL, &m);
    struct nnperf_mcu_plan *plan;
    if (!a || nnperf_map(a, "max78000", 8, &plan, err, sizeof err) != NNPERF_OK) {
        if (a) fprintf(stderr, "%s\n", err);
        CHECK(0);
        nnperf_analysis_free(a);
        nnperf_model_free(m);
        return;
    }
    const char *fmts[] = {"yaml", "json", "table"};
    for (int i = 0; i < 3; i++) {
        char *out = NULL;
        size_t len = 0;
        put_out(t, "map", nnperf_mcu_plan_render(plan, fmts[i], &out, &len, err, sizeof err), out, len);
    }
    nnperf_mcu_plan_free(plan);
    nnperf_analysis_free(a);
    nnperf_model_free(m);
}

/* Presets are YAML text parsed like a file (fractional efficiencies, bandwidths, clocks). */
static void everything(struct text *t, struct nums *ns)
{
    analysis_outputs(t, "models/resnet50.onnx", NULL, NULL);
    analysis_outputs(t, "tests/data/analysis/batch.onnx", "x=batchx3x48x40", "batch=3");
    prediction_outputs(t, ns, "horizon-j5");
    prediction_outputs(t, ns, "zcu102-dpu");
    mcu_outputs(t);
}

static void report_difference(const char *a, const char *b)
{
    size_t i = 0;
    while (a[i] && a[i] == b[i]) i++;
    size_t from = i > 60 ? i - 60 : 0;
    fprintf(stderr, "first difference at byte %zu:\n  C:     %.120s\n  de_DE: %.120s\n", i, a + from,
            b + from);
}

int main(void)
{
    struct text c = {0}, de = {0};
    struct nums nc = {{0}, 0}, nde = {{0}, 0};
    everything(&c, &nc);
    CHECK(c.p && c.len > 100000);

    if (!setlocale(LC_ALL, "de_DE.UTF-8")) {
        printf("de_DE.UTF-8 is not installed (.ci/install-deps.sh generates it): locale test skipped\n");
        free(c.p);
        return 77;
    }
    /* the locale is in force: the C library itself now writes and reads a decimal comma */
    char probe[16];
    snprintf(probe, sizeof probe, "%.1f", 1.5);
    CHECK_STR(probe, "1,5");
    CHECK(strtod("0,25", NULL) == 0.25);

    everything(&de, &nde);
    CHECK(de.p != NULL);
    if (c.p && de.p) {
        CHECK_EQ_U(de.len, c.len);
        int same = !strcmp(c.p, de.p);
        CHECK(same);
        if (!same) report_difference(c.p, de.p);
    }
    CHECK_EQ_U(nde.n, nc.n);
    CHECK(nc.n > 0 && !memcmp(nc.v, nde.v, (size_t)nc.n * sizeof nc.v[0]));
    /* the library left the host's locale as it was */
    const char *now = setlocale(LC_NUMERIC, NULL);
    CHECK(now && !strncmp(now, "de_DE", 5));
    snprintf(probe, sizeof probe, "%.1f", 1.5);
    CHECK_STR(probe, "1,5");

    free(c.p), free(de.p);
    return tt_done();
}
