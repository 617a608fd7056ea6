/* calibrate_api.c - the public calibration and validation entry points (nnperf_calibrate, nnperf_validate). */
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

enum nnperf_status nnperf_validate(const struct nnperf_prediction *p, const char *profile,
                                   enum nnperf_format fmt, char **out, size_t *len, double *predicted_s,
                                   double *measured_s, char *err, size_t errlen)
{
    *out = NULL;
    *len = 0;
    if (fmt == NNPERF_FORMAT_HTML || fmt == NNPERF_FORMAT_TRACE) {
        put_err(err, errlen,
                fmt == NNPERF_FORMAT_HTML ? "validate: format html is not available (table, json or csv)"
                                          : "validate: a trace is written by nnperf_validate_trace");
        return NNPERF_E_USAGE;
    }
    struct diag d = {0};
    struct perf_profile prof;
    enum nnperf_status st = perf_profile_load(profile, &prof, &d);
    if (st) {
        perf_profile_free(&prof);
        put_err(err, errlen, d.msg);
        return st;
    }
    double *lus = calloc((size_t)(p->n_layers + 1), sizeof *lus), unmatched = 0;
    if (!lus) {
        perf_profile_free(&prof);
        put_err(err, errlen, "out of memory");
        return NNPERF_E_NOMEM;
    }
    perf_match(p, &prof, lus, &unmatched);
    double meas = prof.run_median_us * 1e-6, pred = p->latency;
    if (predicted_s) *predicted_s = pred;
    if (measured_s) *measured_s = meas;
    struct strbuf sb;
    sb_init(&sb, (size_t)1 << 30);
    double err_pct = meas > 0 ? 100.0 * (pred - meas) / meas : 0;
    if (fmt == NNPERF_FORMAT_JSON) {
        sb_puts(&sb, "{\"schema\":\"nnperf.validate\",\"schema_version\":1,\"platform\":");
        sb_json_str(&sb, p->hw->name);
        char x[4][40];
        core_exact(x[0], sizeof x[0], pred * 1e3);
        core_exact(x[1], sizeof x[1], prof.run_median_us / 1e3);
        core_exact(x[2], sizeof x[2], err_pct);
        core_exact(x[3], sizeof x[3], unmatched * 1e-3);
        sb_printf(&sb,
                  ",\"predicted_ms\":%s,\"measured_ms\":%s,\"error_pct\":%s,\"unmatched_measured_ms\":%s,"
                  "\"layers\":[",
                  x[0], x[1], x[2], x[3]);
        for (int l = 0; l < p->n_layers; l++) {
            sb_puts(&sb, l ? ",\n{\"layer\":" : "\n{\"layer\":");
            sb_json_str(&sb, p->layers[l].name);
            core_exact(x[0], sizeof x[0], p->layers[l].t_total * 1e6);
            core_exact(x[1], sizeof x[1], lus[l]);
            sb_printf(&sb, ",\"predicted_us\":%s,\"measured_us\":%s}", x[0], x[1]);
        }
        /* the library's warnings: the analysis's, then the prediction's */
        sb_puts(&sb, "\n],\"warnings\":[");
        const struct nnperf_analysis *a = nnperf_prediction_analysis(p);
        struct nnperf_summary as;
        nnperf_analysis_summary(a, &as);
        for (int i = 0; i < as.warnings + p->n_warn; i++) {
            sb_puts(&sb, i ? ",\n" : "\n");
            sb_json_str(&sb, i < as.warnings ? nnperf_analysis_warning(a, i) : p->warn[i - as.warnings]);
        }
        sb_puts(&sb, "\n]}\n");
    } else if (fmt == NNPERF_FORMAT_CSV) {
        sb_puts(&sb, "layer,op,predicted_us,measured_us\n");
        for (int l = 0; l < p->n_layers; l++) {
            const char *nm = p->layers[l].name;
            sb_putc(&sb, '"');
            for (const char *c = nm; *c; c++) {
                if (*c == '"') sb_putc(&sb, '"');
                sb_putc(&sb, *c);
            }
            char x[2][40];
            core_exact(x[0], sizeof x[0], p->layers[l].t_total * 1e6);
            core_exact(x[1], sizeof x[1], lus[l]);
            sb_printf(&sb, "\",%s,%s,%s\n", p->layers[l].main->op_type, x[0], x[1]);
        }
        char x[2][40];
        core_exact(x[0], sizeof x[0], pred * 1e6);
        core_exact(x[1], sizeof x[1], prof.run_median_us);
        sb_printf(&sb, "\"(total)\",,%s,%s\n", x[0], x[1]);
    } else {
        sb_printf(&sb, "%-44s %-14s %12s %12s %8s\n", "layer", "op", "predicted us", "measured us", "error");
        for (int l = 0; l < p->n_layers; l++) {
            const struct pr_layer *L = &p->layers[l];
            if (L->t_total <= 0 && lus[l] <= 0) continue;
            size_t nl = strlen(L->name);
            char e[32] = "";
            if (lus[l] > 0) c_snprintf(e, sizeof e, "%+.0f%%", 100.0 * (L->t_total * 1e6 - lus[l]) / lus[l]);
            sb_printf(&sb, "%-44s %-14s %12.1f %12.1f %8s\n", nl > 44 ? L->name + nl - 44 : L->name,
                      L->main->op_type, L->t_total * 1e6, lus[l], e);
        }
        sb_printf(&sb, "\nkernels ORT added or nnperf could not match: %.1f us per run\n", unmatched);
        sb_printf(
            &sb,
            "whole run: predicted %.3f ms, measured %.3f ms (median of %d profiled runs): error %+.1f%%\n",
            pred * 1e3, meas * 1e3, prof.runs, err_pct);
    }
    free(lus);
    perf_profile_free(&prof);
    if (sb.overflow || !sb.p) {
        sb_free(&sb);
        put_err(err, errlen, "report too large");
        return NNPERF_E_LIMIT;
    }
    *out = sb.p;
    *len = sb.len;
    return NNPERF_OK;
}

enum nnperf_status nnperf_profile_layer_times(const struct nnperf_prediction *p, const char *profile,
                                              double *layer_us, int cap, double *unmatched_us, double *run_us,
                                              char *err, size_t errlen)
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
