/* cmd_calibrate.c - `nnperf calibrate --hw host.yaml -o host-cal.yaml MODEL.onnx=PROFILE.json...` and
 * `nnperf validate MODEL.onnx --hw host-cal.yaml --measured PROFILE.json`: fit a platform to ONNX Runtime profiles
 * (bench/validate/measure.js) and compare predictions with measurements. Both first check that each profile belongs
 * to its model (the share of its kernels that match nodes of the model) and refuse one below half unless --force. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"

/* ORT profiles are of fp32 models, one frame per run, unless --dtype says otherwise */
static struct nnperf_predict_options profile_options(const char *dtype)
{
    struct nnperf_predict_options po = {.dtype = dtype ? dtype : "fp32", .batch = 1};
    return po;
}

/* 0 when the profile matches enough of the model (or --force), else prints why and returns 2 */
static int check_profile(const struct cli_args *a, const struct nnperf_prediction *p, const char *model,
                         const char *profile)
{
    const char *cmd = cli_cmds[a->cmd].name;
    int matched, kernels;
    char err[1024];
    if (nnperf_profile_match(p, profile, &matched, &kernels, err, sizeof err) != NNPERF_OK) {
        cli_error("%s: %s", cmd, err);
        return 2;
    }
    if (kernels > 0 && 2 * matched >= kernels) return 0;
    double pct = kernels ? 100.0 * matched / kernels : 0;
    if (cli_flag(a, OPT_FORCE)) {
        cli_warn(0, "%s: '%s': only %d of its %d kernels (%.1f%%) match nodes of '%s'; used anyway (--force)",
                 cmd, profile, matched, kernels, pct, model);
        return 0;
    }
    cli_error(
        "%s: '%s' is not a profile of '%s': %d of its %d kernels (%.1f%%) match nodes of the model, less "
        "than half (--force to use it anyway)",
        cmd, profile, model, matched, kernels, pct);
    return 2;
}

/* every MODEL=PROFILE pair checked against the platform */
static int check_pairs(const struct cli_args *a, const char *hw, const char *dtype, const char *const *models,
                       const char *const *profiles, int n)
{
    struct nnperf_platform *plat;
    if (cli_load_platform(a, hw, &plat)) return 2;
    struct cli_run r = {.cmd = "calibrate"};
    int rc = 0;
    for (int i = 0; i < n && !rc; i++) {
        struct nnperf_model *m;
        struct nnperf_analysis *an;
        if (cli_load(&r, models[i], &m, &an)) {
            rc = 2;
            break;
        }
        struct nnperf_predict_options po = profile_options(dtype);
        struct nnperf_prediction *p;
        char err[1024];
        if (nnperf_predict(an, plat, &po, &p, err, sizeof err) != NNPERF_OK) {
            cli_error("calibrate: %s on %s: %s", models[i], hw, err);
            rc = 2;
        } else {
            rc = check_profile(a, p, models[i], profiles[i]);
            nnperf_prediction_free(p);
        }
        nnperf_analysis_free(an);
        nnperf_model_free(m);
    }
    nnperf_platform_free(plat);
    return rc;
}

/* --table: fit numeric platform keys to measured whole-model latencies or FPS */
static int calibrate_table(const struct cli_args *a, const char *hw)
{
    char *yaml, *log, err[1024];
    size_t len;
    if (nnperf_calibrate_table(hw, cli_str(a, OPT_TABLE), cli_str(a, OPT_FIT), &yaml, &len, &log, err,
                               sizeof err) != NNPERF_OK) {
        cli_error("calibrate: %s", err);
        return 2;
    }
    if (log) cli_put_text(stderr, log, 1);
    free(log);
    int rc = cli_write_output(a, yaml, len);
    free(yaml);
    return rc;
}

int cmd_calibrate(const struct cli_args *a)
{
    const char *hw = cli_str(a, OPT_HW), *dtype = cli_str(a, OPT_DTYPE);
    int n = a->n_operands, table = cli_flag(a, OPT_TABLE) || cli_flag(a, OPT_FIT);
    if (!hw) {
        cli_error("calibrate: --hw is required (see 'nnperf help calibrate')");
        return 2;
    }
    if (table && n) {
        cli_error("calibrate: --table and --fit go without MODEL.onnx=PROFILE.json pairs");
        return 2;
    }
    if (table && cli_str(a, OPT_TABLE)) return calibrate_table(a, hw);
    if (table || !n) {
        cli_error("calibrate: %s (see 'nnperf help calibrate')",
                  table ? "--fit goes with --table" : "no MODEL.onnx=PROFILE.json pair and no --table given");
        return 2;
    }
    const char **models = calloc((size_t)n, sizeof *models), **profiles = calloc((size_t)n, sizeof *profiles);
    int rc = models && profiles ? 0 : 2;
    for (int i = 0; i < n && !rc; i++) {
        const char *op = a->operands[i], *eq = strrchr(op, '=');
        if (!eq || eq == op || !eq[1]) {
            cli_error("calibrate: '%s' is not MODEL.onnx=PROFILE.json", op);
            rc = 2;
        } else if (!(models[i] = strndup(op, (size_t)(eq - op))))
            rc = 2;
        else
            profiles[i] = eq + 1;
    }
    if (!rc) rc = check_pairs(a, hw, dtype, models, profiles, n);
    if (!rc) {
        char *yaml, *log, err[1024];
        size_t len;
        if (nnperf_calibrate(hw, models, profiles, n, dtype, &yaml, &len, &log, err, sizeof err) !=
            NNPERF_OK) {
            cli_error("calibrate: %s", err);
            rc = 2;
        } else {
            if (log) cli_put_text(stderr, log, 1);
            rc = cli_write_output(a, yaml, len);
            free(yaml);
            free(log);
        }
    }
    for (int i = 0; models && i < n; i++) free((char *)models[i]);
    free(models);
    free(profiles);
    return rc;
}

int cmd_validate(const struct cli_args *a)
{
    struct cli_run r;
    if (cli_run_init(a, &r)) return 2;
    const char *measured = cli_str(a, OPT_MEASURED);
    if (r.n_hw != 1 || !measured) {
        cli_error("validate: --hw and --measured PROFILE.json are required");
        return 2;
    }
    struct nnperf_platform *plat;
    struct nnperf_model *m;
    struct nnperf_analysis *an;
    if (cli_load_one(&r, &plat, &m, &an)) return 2;
    struct nnperf_predict_options po = profile_options(r.n_dtypes ? r.dtypes[0] : NULL);
    if (r.n_batches) po.batch = r.batches[0];
    po.memory_model = r.memory_model;
    po.interval_s = r.interval_s;
    struct nnperf_prediction *p;
    char err[1024];
    int rc = 0;
    if (nnperf_predict(an, plat, &po, &p, err, sizeof err) != NNPERF_OK) {
        cli_error("%s: %s", r.hw[0], err);
        rc = 2;
    } else {
        char *text;
        size_t len;
        double pr, me;
        if (check_profile(a, p, r.models[0], measured))
            rc = 2;
        else if ((r.fmt == NNPERF_FORMAT_TRACE
                      ? nnperf_validate_trace(p, measured, &text, &len, err, sizeof err)
                      : nnperf_validate(p, measured, r.fmt, &text, &len, &pr, &me, err, sizeof err)) !=
                 NNPERF_OK) {
            cli_error("validate: %s", err);
            rc = 2;
        } else {
            rc = cli_write_output(a, text, len);
            free(text);
        }
        nnperf_prediction_free(p);
    }
    nnperf_analysis_free(an);
    nnperf_model_free(m);
    nnperf_platform_free(plat);
    return rc;
}
