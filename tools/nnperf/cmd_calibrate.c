/* cmd_calibrate.c - `nnperf calibrate --hw host.yaml -o host-cal.yaml MODEL.onnx=PROFILE.json...` and
 * `nnperf validate MODEL.onnx --hw host-cal.yaml --measured PROFILE.json`: fit a platform to ONNX Runtime profiles
 * (bench/validate/measure.js) and compare predictions with measurements. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"

const char calibrate_usage[] =
    "usage: nnperf calibrate --hw PLATFORM -o OUT.yaml [--dtype DT] MODEL.onnx=PROFILE.json...\n"
    "       nnperf calibrate --hw PLATFORM -o OUT.yaml --table MEASURED.csv [--fit KEY,KEY...]\n"
    "\n"
    "With --table: fits the platform's free parameters (numeric platform keys, or 'efficiency' to scale "
    "every\n"
    "class; default efficiency,memory.ddr_efficiency,overhead.per_layer_s) to measured whole-model "
    "latencies\n"
    "or FPS (CSV: model,input,dtype,batch,latency_ms|fps) and prints each row's error before, after, and "
    "when\n"
    "the row is left out of the fit.\n"
    "\n"
    "Fits the platform's per-operator-class efficiencies and per-layer overhead to ONNX Runtime profiles\n"
    "(per-node kernel times and whole-run times; bench/validate/measure.js writes them) and writes the\n"
    "calibrated platform as YAML. PLATFORM is typically the output of 'nnperf probe'. The fit is printed on "
    "stderr.\n";

const char validate_usage[] =
    "usage: nnperf validate MODEL.onnx --hw PLATFORM --measured PROFILE.json [--format table|csv|json] [-o "
    "FILE]\n"
    "\n"
    "Predicted vs measured time per layer (ORT's fused nodes matched to nnperf's layers by name) and in "
    "total.\n"
    "Exit code 0 whatever the error; the error is printed (and in JSON, error_pct).\n";

#define MAX_PAIRS 256

int cmd_calibrate(int argc, char **argv)
{
    const char *hw = NULL, *out = NULL, *dtype = NULL, *table = NULL, *fit = NULL;
    const char *models[MAX_PAIRS], *profiles[MAX_PAIRS];
    int n = 0;
    for (int i = 0; i < argc; i++) {
        const char *a = argv[i];
        if (!strcmp(a, "--hw") && i + 1 < argc)
            hw = argv[++i];
        else if ((!strcmp(a, "-o") || !strcmp(a, "--output")) && i + 1 < argc)
            out = argv[++i];
        else if (!strcmp(a, "--dtype") && i + 1 < argc)
            dtype = argv[++i];
        else if (!strcmp(a, "--table") && i + 1 < argc)
            table = argv[++i];
        else if (!strcmp(a, "--fit") && i + 1 < argc)
            fit = argv[++i];
        else if (a[0] == '-') {
            cli_error("calibrate: unknown option or missing value '%s'", a);
            return 2;
        } else {
            const char *eq = strrchr(a, '=');
            if (!eq || eq == a || !eq[1]) {
                cli_error("calibrate: '%s' is not MODEL.onnx=PROFILE.json", a);
                return 2;
            }
            if (n == MAX_PAIRS) {
                cli_error("calibrate: too many models (at most %d)", MAX_PAIRS);
                return 2;
            }
            char *m = strndup(a, (size_t)(eq - a));
            if (!m) return 2;
            models[n] = m;
            profiles[n++] = eq + 1;
        }
    }
    if (hw && table && !n) {
        char *yaml, *log, err[1024];
        size_t len;
        if (nnperf_calibrate_table(hw, table, fit, &yaml, &len, &log, err, sizeof err) != NNPERF_OK) {
            cli_error("calibrate: %s", err);
            return 2;
        }
        if (log) fputs(log, stderr);
        free(log);
        int rc = cli_write_output(out, yaml, len);
        free(yaml);
        return rc;
    }
    if (table || fit) {
        cli_error("calibrate: --table and --fit go without MODEL.onnx=PROFILE.json pairs");
        for (int i = 0; i < n; i++) free((char *)models[i]);
        return 2;
    }
    if (!hw || !n) {
        cli_error("calibrate: --hw and at least one MODEL.onnx=PROFILE.json are required (see 'nnperf help "
                  "calibrate')");
        for (int i = 0; i < n; i++) free((char *)models[i]);
        return 2;
    }
    char *yaml, *log, err[1024];
    size_t len;
    int rc = 0;
    if (nnperf_calibrate(hw, models, profiles, n, dtype, &yaml, &len, &log, err, sizeof err) != NNPERF_OK) {
        cli_error("calibrate: %s", err);
        rc = 2;
    } else {
        if (log) fputs(log, stderr);
        rc = cli_write_output(out, yaml, len);
        free(yaml);
        free(log);
    }
    for (int i = 0; i < n; i++) free((char *)models[i]);
    return rc;
}

int cmd_validate(int argc, char **argv)
{
    const char *measured = NULL;
    char *rest[CLI_MAX_LIST];
    int nr = 0;
    for (int i = 0; i < argc && nr < CLI_MAX_LIST; i++) {
        if (!strcmp(argv[i], "--measured") && i + 1 < argc)
            measured = argv[++i];
        else
            rest[nr++] = argv[i];
    }
    struct cli_run r;
    if (cli_parse_run(nr, rest, &r, "validate", CLI_OPT_SHAPES | CLI_OPT_HW | CLI_OPT_PREDICT)) return 2;
    if (r.n_hw != 1 || !measured) {
        cli_error("validate: one --hw and --measured PROFILE.json are required");
        return 2;
    }
    struct nnperf_platform *plat;
    struct nnperf_model *m;
    struct nnperf_analysis *an;
    if (cli_load_one(&r, &plat, &m, &an)) return 2;
    struct nnperf_predict_options po = cli_predict_options(&r);
    if (!po.dtype) po.dtype = "fp32"; /* ORT profiles are of fp32 models, one frame per run */
    if (!po.batch) po.batch = 1;
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
        if (nnperf_validate(p, measured, r.fmt, &text, &len, &pr, &me, err, sizeof err) != NNPERF_OK) {
            cli_error("validate: %s", err);
            rc = 2;
        } else {
            rc = cli_write_output(r.out, text, len);
            free(text);
        }
        nnperf_prediction_free(p);
    }
    nnperf_analysis_free(an);
    nnperf_model_free(m);
    nnperf_platform_free(plat);
    return rc;
}
