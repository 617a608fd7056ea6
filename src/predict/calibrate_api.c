/* calibrate_api.c - the public calibration and validation entry points (nnperf_calibrate; nnperf_validate renders in
 * src/report/render_validate.c from nnperf_profile_layer_times). */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "calibrate.h"

static void put_err(char *err, size_t errlen, const char *msg)
{
    if (err && errlen) snprintf(err, errlen, "%s", msg);
}

enum nnperf_status nnperf_calibrate(const char *platform, const char *const *models,
                                    const char *const *profiles, int n, const char *dtype, char **yaml,
                                    size_t *yaml_len, char **log, char *err, size_t errlen)
{
    *yaml = NULL;
    *yaml_len = 0;
    if (log) *log = NULL;
    struct diag d = {0};
    struct hw_desc hw;
    hw_init(&hw);
    enum nnperf_status st = hw_resolve(platform, &hw, &d);
    int dt = dtype ? hw_dtype_from_name(dtype) : HW_FP32;
    if (!st && dt < 0) st = diag_set(&d, NNPERF_E_USAGE, "unknown dtype '%s'", dtype);
    struct nnperf_model **ms = calloc((size_t)(n > 0 ? n : 1), sizeof *ms);
    struct nnperf_analysis **as = calloc((size_t)(n > 0 ? n : 1), sizeof *as);
    struct perf_profile *ps = calloc((size_t)(n > 0 ? n : 1), sizeof *ps);
    struct perf_cal_input *in = calloc((size_t)(n > 0 ? n : 1), sizeof *in);
    if (!ms || !as || !ps || !in) st = diag_set(&d, NNPERF_E_NOMEM, "out of memory");
    char e[1024];
    for (int i = 0; i < n && !st; i++) {
        if ((st = nnperf_model_load(models[i], NULL, &ms[i], e, sizeof e)) != NNPERF_OK) {
            diag_set(&d, st, "%s", e);
            break;
        }
        if ((st = nnperf_analyze(ms[i], NULL, &as[i], e, sizeof e)) != NNPERF_OK) {
            diag_set(&d, st, "%s", e);
            break;
        }
        if ((st = perf_profile_load(profiles[i], &ps[i], &d)) != NNPERF_OK) break;
        in[i] = (struct perf_cal_input){models[i], as[i], &ps[i]};
    }
    struct strbuf lg;
    sb_init(&lg, 1 << 20);
    if (!st) st = perf_calibrate(&hw, dt, in, n, &lg, &d);
    if (!st) {
        struct strbuf y;
        sb_init(&y, 1 << 20);
        char name[HW_MAX_NAME];
        snprintf(name, sizeof name, "%.50s-cal", hw.name);
        memcpy(hw.name, name, sizeof name);
        st = hw_write_yaml_checked(&hw, "the calibrated platform", &y, &d);
        if (st)
            sb_free(&y);
        else {
            *yaml = y.p;
            *yaml_len = y.len;
        }
    }
    if (log && !st)
        *log = lg.p;
    else
        sb_free(&lg);
    for (int i = 0; i < n && as && ms && ps; i++) {
        nnperf_analysis_free(as[i]);
        nnperf_model_free(ms[i]);
        perf_profile_free(&ps[i]);
    }
    free(ms), free(as), free(ps), free(in);
    if (st) put_err(err, errlen, d.msg);
    return st;
}

enum nnperf_status nnperf_profile_layer_times(const struct nnperf_prediction *p, const char *profile,
                                              double *layer_us, int cap, double *unmatched_us, double *run_us,
                                              int *runs, char *err, size_t errlen)
{
    if (!p || !profile || (!layer_us && cap > 0)) {
        put_err(err, errlen, "no prediction or profile given");
        return NNPERF_E_USAGE;
    }
    struct diag d = {0};
    struct perf_profile prof;
    enum nnperf_status st = perf_profile_load(profile, &prof, &d);
    double *lus = st ? NULL : calloc((size_t)(p->n_layers + 1), sizeof *lus), unmatched = 0;
    if (!st && !lus) st = diag_set(&d, NNPERF_E_NOMEM, "out of memory");
    if (!st) {
        perf_match(p, &prof, lus, &unmatched);
        for (int i = 0; i < cap && i < p->n_layers; i++) layer_us[i] = lus[i];
        if (unmatched_us) *unmatched_us = unmatched;
        if (run_us) *run_us = prof.run_median_us;
        if (runs) *runs = prof.runs;
    }
    free(lus);
    perf_profile_free(&prof);
    if (st) put_err(err, errlen, d.msg);
    return st;
}

enum nnperf_status nnperf_profile_match(const struct nnperf_prediction *p, const char *profile, int *matched,
                                        int *kernels, char *err, size_t errlen)
{
    *matched = *kernels = 0;
    struct diag d = {0};
    struct perf_profile prof;
    enum nnperf_status st = perf_profile_load(profile, &prof, &d);
    if (st)
        put_err(err, errlen, d.msg);
    else {
        *kernels = prof.n_nodes;
        *matched = perf_match_count(p, &prof);
    }
    perf_profile_free(&prof);
    return st;
}
