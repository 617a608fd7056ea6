/* cli_args.c - the options shared by analyze, compare, sweep and roofline, parsed once, and the common
 * load-and-analyze step. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"

/* The copies of comma lists the options point into: kept for the life of the process (the command's options are
 * used until it exits), listed here so that they stay reachable and are never reported as leaks. */
static char *kept[64];
static int n_kept;

static char *keep_copy(const char *s)
{
    if (n_kept == (int)(sizeof kept / sizeof kept[0])) {
        cli_error("too many list options");
        return NULL;
    }
    char *c = strdup(s);
    if (c) kept[n_kept++] = c;
    return c;
}

/* splits a comma list into r->list (pointers into a kept copy) */
static int split_list(char *s, const char **list, int *n, int cap, const char *what)
{
    for (char *tok = strtok(s, ","); tok; tok = strtok(NULL, ",")) {
        if (!*tok) continue;
        if (*n == cap) {
            cli_error("too many values for %s (at most %d)", what, cap);
            return 2;
        }
        list[(*n)++] = tok;
    }
    return 0;
}

int cli_parse_run(int argc, char **argv, struct cli_run *r, const char *cmd, unsigned allowed)
{
    memset(r, 0, sizeof *r);
    r->fmt = NNPERF_FORMAT_TABLE;
    for (int i = 0; i < argc; i++) {
        const char *a = argv[i];
        int has = i + 1 < argc;
        unsigned need = 0;
        if (!strcmp(a, "--input") || !strcmp(a, "--dim"))
            need = CLI_OPT_SHAPES;
        else if (!strcmp(a, "--hw"))
            need = CLI_OPT_HW;
        else if (!strcmp(a, "--dtype") || !strcmp(a, "--batch"))
            need = CLI_OPT_PREDICT;
        else if (!strcmp(a, "--memory-model") || !strcmp(a, "--interval"))
            need = CLI_OPT_PREDICT;
        else if (!strcmp(a, "--plot"))
            need = CLI_OPT_PLOT;
        else if (!strcmp(a, "--accuracy"))
            need = CLI_OPT_ACCURACY;
        if (need && !(allowed & need)) {
            cli_error("%s: option '%s' does not apply (see 'nnperf help %s')", cmd, a, cmd);
            return 2;
        }
        if ((!strcmp(a, "--input") || !strcmp(a, "--dim")) && has) {
            int is_in = a[2] == 'i';
            if ((is_in ? r->n_inputs : r->n_dims) == CLI_MAX_LIST) {
                cli_error("too many %s options", a);
                return 2;
            }
            if (is_in)
                r->inputs[r->n_inputs++] = argv[++i];
            else
                r->dims[r->n_dims++] = argv[++i];
        } else if (!strcmp(a, "--hw") && has) {
            char *s = keep_copy(argv[++i]);
            if (!s || split_list(s, r->hw, &r->n_hw, CLI_MAX_LIST, "--hw")) return 2;
        } else if (!strcmp(a, "--dtype") && has) {
            char *s = keep_copy(argv[++i]);
            if (!s || split_list(s, r->dtypes, &r->n_dtypes, 16, "--dtype")) return 2;
        } else if (!strcmp(a, "--batch") && has) {
            char *s = keep_copy(argv[++i]);
            const char *list[CLI_MAX_LIST];
            int n = 0;
            if (!s || split_list(s, list, &n, CLI_MAX_LIST, "--batch")) return 2;
            for (int k = 0; k < n; k++) {
                char *end;
                long b = strtol(list[k], &end, 10);
                if (*end || b < 1 || b > 1000000) {
                    cli_error("%s: --batch '%s' is not a number of frames (1 to 1000000)", cmd, list[k]);
                    return 2;
                }
                r->batches[r->n_batches++] = (int)b;
            }
        } else if (!strcmp(a, "--memory-model") && has) {
            const char *m = argv[++i];
            if (!strcmp(m, "planned"))
                r->memory_model = NNPERF_MEMORY_PLANNED;
            else if (!strcmp(m, "weights-only"))
                r->memory_model = NNPERF_MEMORY_WEIGHTS_ONLY;
            else {
                cli_error("%s: unknown memory model '%s' (planned or weights-only)", cmd, m);
                return 2;
            }
        } else if (!strcmp(a, "--interval") && has) {
            char *end;
            double ms = strtod(argv[++i], &end);
            if (*end || !(ms > 0) || ms > 1e6) {
                cli_error("%s: --interval '%s' is not a positive number of milliseconds", cmd, argv[i]);
                return 2;
            }
            r->interval_s = ms / 1e3;
        } else if (!strcmp(a, "--format") && has) {
            const char *f = argv[++i];
            if (!strcmp(f, "table"))
                r->fmt = NNPERF_FORMAT_TABLE;
            else if (!strcmp(f, "json"))
                r->fmt = NNPERF_FORMAT_JSON;
            else if (!strcmp(f, "csv"))
                r->fmt = NNPERF_FORMAT_CSV;
            else if (!strcmp(f, "html"))
                r->fmt = NNPERF_FORMAT_HTML;
            else {
                cli_error("%s: unknown format '%s' (table, json, csv or html)", cmd, f);
                return 2;
            }
        } else if ((!strcmp(a, "-o") || !strcmp(a, "--output")) && has) {
            r->out = argv[++i];
        } else if (!strcmp(a, "--plot") && has) {
            r->plot = argv[++i];
            if (strcmp(r->plot, "roofline") && strcmp(r->plot, "timeline") && strcmp(r->plot, "memory")) {
                cli_error("%s: unknown plot '%s' (roofline, timeline or memory)", cmd, r->plot);
                return 2;
            }
        } else if (!strcmp(a, "--accuracy") && has) {
            if (r->n_accuracy == CLI_MAX_LIST) {
                cli_error("%s: too many --accuracy options", cmd);
                return 2;
            }
            r->accuracy[r->n_accuracy++] = argv[++i];
        } else if (!strcmp(a, "-q") || !strcmp(a, "--quiet")) {
            r->quiet = 1;
        } else if (!strcmp(a, "--strict")) {
            r->strict = 1;
        } else if (!strcmp(a, "--drop-value-info")) {
            r->load_flags |= NNPERF_LOAD_DROP_VALUE_INFO;
        } else if (a[0] == '-' && a[1]) {
            cli_error("%s: unknown option or missing value '%s' (see 'nnperf help %s')", cmd, a, cmd);
            return 2;
        } else {
            if (r->n_models == CLI_MAX_LIST) {
                cli_error("%s: too many models", cmd);
                return 2;
            }
            r->models[r->n_models++] = a;
        }
    }
    if (r->fmt == NNPERF_FORMAT_HTML && strcmp(cmd, "analyze") && strcmp(cmd, "compare")) {
        cli_error("%s: --format html is for analyze and compare (table, json or csv here)", cmd);
        return 2;
    }
    if (r->plot && r->fmt != NNPERF_FORMAT_TABLE) {
        cli_error("%s: --plot writes an SVG; leave out --format", cmd);
        return 2;
    }
    if (!r->n_models) {
        cli_error("%s: no model given (see 'nnperf help %s')", cmd, cmd);
        return 2;
    }
    if (r->n_models > 1 && !(allowed & CLI_OPT_MANY_MODELS)) {
        cli_error("%s: more than one model given ('%s' and '%s')", cmd, r->models[0], r->models[1]);
        return 2;
    }
    return 0;
}

int cli_load(const struct cli_run *r, const char *model, struct nnperf_model **m, struct nnperf_analysis **a)
{
    char err[1024];
    struct nnperf_load_options lo = {r->load_flags};
    if (nnperf_model_load(model, &lo, m, err, sizeof err) != NNPERF_OK) {
        cli_error("%s", err);
        return 2;
    }
    struct nnperf_analyze_options ao = {r->inputs, r->n_inputs, r->dims, r->n_dims};
    if (nnperf_analyze(*m, &ao, a, err, sizeof err) != NNPERF_OK) {
        cli_error("%s", err);
        nnperf_model_free(*m);
        *m = NULL;
        return 2;
    }
    return 0;
}

int cli_require_bound(const struct nnperf_analysis *an, const char *cmd, const char *model)
{
    struct nnperf_summary s;
    nnperf_analysis_summary(an, &s);
    if (!s.unbound_dims) return 0;
    char names[512] = "";
    size_t used = 0;
    for (int i = 0; i < s.unbound_dims && used + 1 < sizeof names; i++) {
        int n = snprintf(names + used, sizeof names - used, "%s'%s'", i ? ", " : "",
                         nnperf_analysis_unbound_dim(an, i));
        if (n < 0) break;
        used += (size_t)n;
    }
    cli_error(
        "%s: %s: unbound symbolic input dims %s (%d of %d nodes cannot be counted); bind them with --dim "
        "NAME=N or --input NAME=SHAPE",
        cmd, model, names, s.unknown_nodes, s.nodes);
    return 2;
}

int cli_load_platforms(const struct cli_run *r, struct nnperf_platform **plats)
{
    char err[1024];
    for (int i = 0; i < r->n_hw; i++) {
        if (nnperf_platform_load(r->hw[i], &plats[i], err, sizeof err) != NNPERF_OK) {
            cli_error("%s", err);
            for (int k = 0; k < i; k++) nnperf_platform_free(plats[k]);
            return 2;
        }
    }
    return 0;
}

int cli_load_one(const struct cli_run *r, struct nnperf_platform **plat, struct nnperf_model **m,
                 struct nnperf_analysis **an)
{
    if (cli_load_platforms(r, plat)) return 2;
    if (cli_load(r, r->models[0], m, an)) {
        nnperf_platform_free(*plat);
        *plat = NULL;
        return 2;
    }
    return 0;
}

struct nnperf_predict_options cli_predict_options(const struct cli_run *r)
{
    struct nnperf_predict_options po = {.dtype = r->n_dtypes ? r->dtypes[0] : NULL,
                                        .batch = r->n_batches ? r->batches[0] : 0,
                                        .memory_model = r->memory_model,
                                        .interval_s = r->interval_s};
    return po;
}

const char *cli_model_name(const char *path)
{
    const char *s = strrchr(path, '/');
    return s ? s + 1 : path;
}

void cli_json_str(FILE *f, const char *s)
{
    fputc('"', f);
    for (const unsigned char *c = (const unsigned char *)s; *c; c++) {
        if (*c == '"' || *c == '\\')
            fprintf(f, "\\%c", *c);
        else if (*c < 0x20)
            fprintf(f, "\\u%04x", *c);
        else
            fputc(*c, f);
    }
    fputc('"', f);
}

/* model display name for matching --accuracy: file name without directory and ".onnx" */
static void bare_name(const char *path, char *b, size_t n)
{
    snprintf(b, n, "%s", cli_model_name(path));
    size_t l = strlen(b);
    if (l > 5 && !strcmp(b + l - 5, ".onnx")) b[l - 5] = 0;
}

static int set_accuracy(const struct cli_run *r, double *acc, const char *model, const char *value,
                        const char *where)
{
    char *end;
    double v = strtod(value, &end);
    while (*end == ' ' || *end == '%' || *end == '\r') end++;
    if (end == value || *end || !(v >= 0 && v <= 100)) {
        cli_error("compare: %s: accuracy '%s' of '%s' is not a percentage (0 to 100)", where, value, model);
        return 2;
    }
    char want[512], b[512];
    snprintf(want, sizeof want, "%s", model);
    size_t l = strlen(want);
    if (l > 5 && !strcmp(want + l - 5, ".onnx")) want[l - 5] = 0;
    int found = 0;
    for (int i = 0; i < r->n_models; i++) {
        bare_name(r->models[i], b, sizeof b);
        if (!strcmp(b, want)) acc[i] = v, found = 1;
    }
    if (!found && !r->quiet)
        fprintf(stderr, "nnperf: warning: %s: no model named '%s' is compared\n", where, model);
    return 0;
}

int cli_parse_accuracy(const struct cli_run *r, double *acc)
{
    for (int i = 0; i < r->n_models; i++) acc[i] = NAN;
    for (int k = 0; k < r->n_accuracy; k++) {
        const char *a = r->accuracy[k];
        const char *eq = strchr(a, '=');
        if (eq) {
            char model[512];
            snprintf(model, sizeof model, "%.*s", (int)(eq - a), a);
            if (set_accuracy(r, acc, model, eq + 1, "--accuracy")) return 2;
            continue;
        }
        FILE *f = fopen(a, "r");
        if (!f) {
            cli_error("compare: --accuracy '%s' is neither MODEL=PCT nor a readable CSV file", a);
            return 2;
        }
        char line[1024];
        int ln = 0;
        while (fgets(line, sizeof line, f)) {
            ln++;
            line[strcspn(line, "\r\n")] = 0;
            if (!line[0] || line[0] == '#') continue;
            char *c = strchr(line, ',');
            if (!c) {
                cli_error("compare: %s:%d: expected 'model,accuracy'", a, ln);
                fclose(f);
                return 2;
            }
            *c = 0;
            char *val = c + 1;
            while (*val == ' ') val++;
            char *e;
            strtod(val, &e);
            if (ln == 1 && e == val) continue; /* a header line */
            char where[600];
            snprintf(where, sizeof where, "%s:%d", a, ln);
            if (set_accuracy(r, acc, line, val, where)) {
                fclose(f);
                return 2;
            }
        }
        fclose(f);
    }
    return 0;
}
