/* cmd_map.c - `nnperf map`: plans a model on a MAX78000 / MAX78002 CNN accelerator (layer program, processor masks,
 * data-memory offsets, kernel map, bias, usage, latency) and writes it as a table, JSON or ai8x-synthesis YAML.
 * Exit 0 when it fits, 1 when it does not (the problems go to standard error), 2 on bad input or usage. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"

const char map_usage[] =
    "usage: nnperf map MODEL.onnx --target max78000|max78002 [--weight-bits 8|4|2|1] [--format "
    "table|json|yaml]\n"
    "                  [--weight-bits-file FILE] [-o FILE] [--input NAME=DIMS]\n"
    "\n"
    "Plans the model on a MAX78000 or MAX78002 CNN accelerator: ONNX nodes grouped into accelerator layers "
    "(pooling\n"
    "in front of a convolution, element-wise operations and activation in flight, flatten + linear), "
    "processor masks,\n"
    "data-memory offsets from tensor lifetimes, streaming (FIFO) mode when the first layers' data does not "
    "fit, "
    "kernel-\n"
    "memory placement (a kernel map), bias placement, pass-through layers with write_gap for residual "
    "connections,\n"
    "memory usage and a latency estimate. The plan is checked against every device rule before it is "
    "written; "
    "the\n"
    "yaml format is a network description the vendor's ai8xize.py reads as written (docs/map.md).\n"
    "\n"
    "options:\n"
    "  --target T            max78000 (default) or max78002\n"
    "  --weight-bits N       8 (default), 4, 2 or 1 bits per weight\n"
    "  --weight-bits-file F  per-layer weight bits: 'NAME: BITS' lines (NAME an ONNX node, or a module as "
    "in\n"
    "                        '/NAME/Conv') or an ai8x-training QAT policy file (docs/map.md)\n"
    "  --format FMT          table (default), json, or yaml (an ai8x-synthesis network description)\n"
    "  -o, --output FILE     write to FILE (written completely or not at all) instead of standard output\n"
    "  --input NAME=DIMS     set the input's shape, e.g. --input input=1x3x32x32\n"
    "\n"
    "exit codes: 0 it fits, 1 it does not fit (the problems are printed on standard error), 2 bad input or "
    "usage\n";

int cmd_map(int argc, char **argv)
{
    const char *model = NULL, *target = "max78000", *fmt = "table", *out = NULL, *bits_file = NULL;
    const char *inputs[CLI_MAX_LIST];
    int n_inputs = 0, bits = 8;
    for (int i = 0; i < argc; i++) {
        const char *a = argv[i];
        int has = i + 1 < argc;
        if (!strcmp(a, "--target") && has)
            target = argv[++i];
        else if (!strcmp(a, "--format") && has) {
            fmt = argv[++i];
            if (strcmp(fmt, "table") && strcmp(fmt, "json") && strcmp(fmt, "yaml")) {
                cli_error("map: unknown format '%s' (table, json or yaml)", fmt);
                return 2;
            }
        } else if (!strcmp(a, "--weight-bits") && has) {
            const char *s = argv[++i];
            if (!strcmp(s, "8") || !strcmp(s, "4") || !strcmp(s, "2") || !strcmp(s, "1"))
                bits = s[0] - '0';
            else {
                cli_error("map: --weight-bits '%s': expected 8, 4, 2 or 1", s);
                return 2;
            }
        } else if (!strcmp(a, "--weight-bits-file") && has)
            bits_file = argv[++i];
        else if ((!strcmp(a, "-o") || !strcmp(a, "--output")) && has)
            out = argv[++i];
        else if (!strcmp(a, "--input") && has) {
            if (n_inputs == CLI_MAX_LIST) {
                cli_error("map: too many --input options");
                return 2;
            }
            inputs[n_inputs++] = argv[++i];
        } else if (a[0] == '-' && a[1]) {
            cli_error("map: unknown option or missing value '%s' (see 'nnperf help map')", a);
            return 2;
        } else if (model) {
            cli_error("map: more than one model given ('%s' and '%s')", model, a);
            return 2;
        } else
            model = a;
    }
    if (!model) {
        cli_error("map: no model given (see 'nnperf help map')");
        return 2;
    }
    if (strcmp(target, "max78000") && strcmp(target, "max78002")) {
        cli_error("map: unknown target '%s' (max78000 or max78002)", target);
        return 2;
    }
    char err[1024];
    struct nnperf_model *m;
    if (nnperf_model_load(model, NULL, &m, err, sizeof err) != NNPERF_OK) {
        cli_error("%s", err);
        return 2;
    }
    struct nnperf_analyze_options ao = {inputs, n_inputs, NULL, 0};
    struct nnperf_analysis *an;
    if (nnperf_analyze(m, &ao, &an, err, sizeof err) != NNPERF_OK) {
        cli_error("%s", err);
        nnperf_model_free(m);
        return 2;
    }
    struct nnperf_mcu_plan *plan;
    struct nnperf_map_options mo = {target, bits, bits_file};
    if (nnperf_map_ex(an, &mo, &plan, err, sizeof err) != NNPERF_OK) {
        cli_error("map: %s", err);
        nnperf_analysis_free(an);
        nnperf_model_free(m);
        return 2;
    }
    char *text = NULL;
    size_t len = 0;
    int rc = 0;
    if (nnperf_mcu_plan_render(plan, fmt, &text, &len, err, sizeof err) != NNPERF_OK) {
        cli_error("map: %s", err);
        rc = 2;
    } else
        rc = cli_write_output(out, text, len);
    if (!rc && !nnperf_mcu_plan_fits(plan)) {
        int n = nnperf_mcu_plan_problem_count(plan);
        cli_error("%s does not fit the %s (%d problem%s):", model, target, n, n == 1 ? "" : "s");
        for (int i = 0; i < n; i++) fprintf(stderr, "  - %s\n", nnperf_mcu_plan_problem(plan, i));
        rc = 1;
    }
    free(text);
    nnperf_mcu_plan_free(plan);
    nnperf_analysis_free(an);
    nnperf_model_free(m);
    return rc;
}
