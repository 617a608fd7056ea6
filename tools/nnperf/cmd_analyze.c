/* cmd_analyze.c - `nnperf analyze MODEL.onnx`: load, infer, count, render. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"

#define MAX_BINDINGS 256

int cmd_analyze(int argc, char **argv)
{
    const char *model = NULL, *out = NULL;
    const char *inputs[MAX_BINDINGS], *dims[MAX_BINDINGS];
    int n_inputs = 0, n_dims = 0, strict = 0;
    enum nnperf_format fmt = NNPERF_FORMAT_TABLE;
    struct nnperf_load_options lo = {0};
    for (int i = 0; i < argc; i++) {
        const char *a = argv[i];
        int has_val = i + 1 < argc;
        if ((!strcmp(a, "--input") || !strcmp(a, "--dim")) && has_val) {
            int is_in = a[2] == 'i';
            if ((is_in ? n_inputs : n_dims) == MAX_BINDINGS) {
                cli_error("too many %s options", a);
                return 2;
            }
            if (is_in) inputs[n_inputs++] = argv[++i];
            else dims[n_dims++] = argv[++i];
        } else if (!strcmp(a, "--format") && has_val) {
            const char *f = argv[++i];
            if (!strcmp(f, "table")) fmt = NNPERF_FORMAT_TABLE;
            else if (!strcmp(f, "json")) fmt = NNPERF_FORMAT_JSON;
            else if (!strcmp(f, "csv")) fmt = NNPERF_FORMAT_CSV;
            else {
                cli_error("unknown format '%s' (table, json or csv)", f);
                return 2;
            }
        } else if ((!strcmp(a, "-o") || !strcmp(a, "--output")) && has_val) {
            out = argv[++i];
        } else if (!strcmp(a, "--strict")) {
            strict = 1;
        } else if (!strcmp(a, "--drop-value-info")) {
            lo.flags |= NNPERF_LOAD_DROP_VALUE_INFO;
        } else if (a[0] == '-' && a[1]) {
            cli_error("analyze: unknown option or missing value '%s' (see 'nnperf help analyze')", a);
            return 2;
        } else if (!model) {
            model = a;
        } else {
            cli_error("analyze: more than one model given ('%s' and '%s')", model, a);
            return 2;
        }
    }
    if (!model) {
        cli_error("analyze: no model given (see 'nnperf help analyze')");
        return 2;
    }
    char err[1024];
    struct nnperf_model *m;
    if (nnperf_model_load(model, &lo, &m, err, sizeof err) != NNPERF_OK) {
        cli_error("%s", err);
        return 2;
    }
    struct nnperf_analyze_options ao = {inputs, n_inputs, dims, n_dims};
    struct nnperf_analysis *an;
    if (nnperf_analyze(m, &ao, &an, err, sizeof err) != NNPERF_OK) {
        cli_error("%s", err);
        nnperf_model_free(m);
        return 2;
    }
    char *text;
    size_t len;
    int rc = 0;
    if (nnperf_analysis_render(an, fmt, &text, &len, err, sizeof err) != NNPERF_OK) {
        cli_error("%s", err);
        rc = 2;
    } else {
        rc = cli_write_output(out, text, len);
        free(text);
    }
    struct nnperf_summary s;
    nnperf_analysis_summary(an, &s);
    if (!rc && fmt != NNPERF_FORMAT_TABLE && s.warnings && (out || fmt == NNPERF_FORMAT_CSV)) {
        for (int i = 0; i < s.warnings; i++) fprintf(stderr, "nnperf: warning: %s\n", nnperf_analysis_warning(an, i));
    }
    if (!rc && strict && s.warnings) rc = 1;
    nnperf_analysis_free(an);
    nnperf_model_free(m);
    return rc;
}
