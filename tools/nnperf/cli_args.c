/* cli_args.c - what the commands share once the command line is parsed: the input checks (regular files before
 * anything reads them), the model commands' run options, loading models and platforms with helpful messages ("not
 * an ONNX model", "did you mean" for presets), and --accuracy. */
#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cli.h"

static const char *file_kind(mode_t m)
{
    if (S_ISDIR(m)) return "a directory";
    if (S_ISFIFO(m)) return "a FIFO";
    if (S_ISCHR(m)) return "a character device";
    if (S_ISBLK(m)) return "a block device";
    if (S_ISSOCK(m)) return "a socket";
    return "not a plain file";
}

/* 0 when path is missing (the reader says so, with the cause) or a regular file; else prints and returns 2 */
static int check_regular(const char *path)
{
    struct stat st;
    if (stat(path, &st) != 0 || S_ISREG(st.st_mode)) return 0;
    cli_error("%s: cannot read: not a regular file (%s)", path, file_kind(st.st_mode));
    return 2;
}

static int is_preset(const char *name)
{
    for (int i = 0; i < nnperf_platform_preset_count(); i++)
        if (!strcmp(nnperf_platform_preset_name(i), name)) return 1;
    return 0;
}

int cli_input_files(const struct cli_args *a, int (*fn)(void *ctx, const char *path), void *ctx)
{
    const struct cli_cmd *c = &cli_cmds[a->cmd];
    int rc = 0;
    for (int i = 0; i < a->n_operands && !rc; i++) {
        const char *op = a->operands[i];
        if (c->operand == CLI_OPERAND_MODEL && !(a->cmd == CMD_ADVISE && cli_flag(a, OPT_EXPLAIN))) {
            rc = fn(ctx, op);
        } else if (c->operand == CLI_OPERAND_PAIR) {
            const char *eq = strrchr(op, '=');
            if (!eq) continue;
            char *model = strndup(op, (size_t)(eq - op));
            if (!model) return 2;
            rc = fn(ctx, model);
            free(model);
            if (!rc) rc = fn(ctx, eq + 1);
        } else if (a->cmd == CMD_HW && i == 1) {
            if (!is_preset(op)) rc = fn(ctx, op); /* hw show FILE */
        }
    }
    for (int k = 0; k < OPT_COUNT && !rc; k++) {
        const struct cli_option *o = &cli_options[k];
        if (o->type == CLI_T_FLAG) continue;
        for (int i = 0; i < a->v[k].n && !rc; i++) {
            const char *s = a->v[k].s[i];
            if (o->type == CLI_T_FILE || (o->type == CLI_T_PLATFORM && !is_preset(s)) ||
                (k == OPT_ACCURACY && !strchr(s, '=')))
                rc = fn(ctx, s);
        }
    }
    return rc;
}

static int check_one(void *ctx, const char *path)
{
    (void)ctx;
    return check_regular(path);
}

int cli_check_inputs(const struct cli_args *a)
{
    return cli_input_files(a, check_one, NULL);
}

int cli_run_init(const struct cli_args *a, struct cli_run *r)
{
    memset(r, 0, sizeof *r);
    const char *cmd = cli_cmds[a->cmd].name;
    r->cmd = cmd;
    r->args = a;
    r->models = a->operands;
    r->n_models = a->n_operands;
#define LIST(field, id) r->field = a->v[OPT_##id].s, r->n_##field = a->v[OPT_##id].n
    LIST(hw, HW);
    LIST(inputs, INPUT);
    LIST(dims, DIM);
    LIST(dtypes, DTYPE);
    LIST(accuracy, ACCURACY);
#undef LIST
    r->batches = a->v[OPT_BATCH].i;
    r->n_batches = a->v[OPT_BATCH].n;
    /* the option's choices are the library's names after "default" (test_cli_table checks it) */
    r->memory_model = a->v[OPT_MEMORY_MODEL].n ? a->v[OPT_MEMORY_MODEL].i[0] + 1 : NNPERF_MEMORY_DEFAULT;
    r->interval_s = a->v[OPT_INTERVAL].n ? a->v[OPT_INTERVAL].d[0] / 1e3 : 0;
    r->out = cli_str(a, OPT_OUTPUT);
    r->strict = cli_flag(a, OPT_STRICT);
    r->quiet = cli_flag(a, OPT_QUIET);
    r->allow_unbound = cli_flag(a, OPT_ALLOW_UNBOUND);
    r->threads = a->v[OPT_THREADS].n ? a->v[OPT_THREADS].i[0] : 0;
    r->streams = a->v[OPT_STREAMS].n ? a->v[OPT_STREAMS].i[0] : 0;
    r->plot = cli_str(a, OPT_PLOT);
    if (cli_flag(a, OPT_DROP_VALUE_INFO)) r->load_flags |= NNPERF_LOAD_DROP_VALUE_INFO;
    const char *f = cli_str(a, OPT_FORMAT);
    r->fmt = NNPERF_FORMAT_TABLE; /* and for map's yaml, which map reads as text */
    for (int i = 0; f && i < nnperf_format_count(); i++)
        if (!strcmp(f, nnperf_format_name(i))) r->fmt = (enum nnperf_format)i;
    if (r->plot && f) {
        cli_error("%s: --plot writes an SVG; leave out --format", cmd);
        return 2;
    }
    if (a->v[OPT_SET].n && !r->n_hw && a->cmd != CMD_HW) {
        cli_error("%s: --set changes the platform: give one with --hw", cmd);
        return 2;
    }
    return 0;
}

int cli_load_model(const char *path, const struct nnperf_load_options *lo, struct nnperf_model **m)
{
    char err[1024];
    if (nnperf_model_load(path, lo, m, err, sizeof err) == NNPERF_OK) {
        cli_note_model_files(*m);
        return 0;
    }
    cli_error("%s", err); /* "not an ONNX model (a text file)" and the like come from the library */
    *m = NULL;
    return 2;
}

int cli_collect_warnings(const struct nnperf_analysis *a, const char *name, char ***list, int *n)
{
    struct nnperf_summary s;
    nnperf_analysis_summary(a, &s);
    for (int i = 0; i < s.warnings; i++) {
        char **l = realloc(*list, (size_t)(*n + 1) * sizeof *l);
        if (!l) return 2;
        *list = l;
        const char *w = nnperf_analysis_warning(a, i);
        size_t len = strlen(name) + strlen(w) + 3;
        if (!(l[*n] = malloc(len))) return 2;
        snprintf(l[(*n)++], len, "%s: %s", name, w);
    }
    return 0;
}

int cli_load(const struct cli_run *r, const char *model, struct nnperf_model **m, struct nnperf_analysis **a)
{
    char err[1024];
    struct nnperf_load_options lo = {r->load_flags | NNPERF_LOAD_ANALYZE_ONCE}; /* one analysis per model */
    if (cli_load_model(model, &lo, m)) return 2;
    struct nnperf_analyze_options ao = {r->inputs, r->n_inputs, r->dims, r->n_dims};
    if (nnperf_analyze(*m, &ao, a, err, sizeof err) != NNPERF_OK) {
        cli_error("%s", err);
        nnperf_model_free(*m);
        *m = NULL;
        return 2;
    }
    /* a prediction of unbound dims counts their nodes as 0 s: refused unless --allow-unbound */
    if (r->n_hw && !r->allow_unbound && cli_require_bound(*a, r->cmd, model)) {
        nnperf_analysis_free(*a);
        nnperf_model_free(*m);
        *a = NULL;
        *m = NULL;
        return 2;
    }
    return 0;
}

int cli_require_bound(const struct nnperf_analysis *an, const char *cmd, const char *model)
{
    (void)model; /* the library's message names it */
    char err[1024];
    if (nnperf_analysis_check_bound(an, err, sizeof err) == NNPERF_OK) return 0;
    const char *sym = nnperf_analysis_unbound_dim(an, 0);
    cli_error("%s: %s (--dim %s=1 or --input NAME=SHAPE%s)", cmd, err, sym ? sym : "NAME",
              strcmp(cmd, "compare") && strcmp(cmd, "sweep") ? "; --allow-unbound predicts them as 0 s" : "");
    return 2;
}

int cli_split_set(const char *cmd, const char *s, char *key, size_t keycap, const char **value)
{
    const char *eq = strchr(s, '=');
    if (!eq || eq == s || (size_t)(eq - s) >= keycap) {
        cli_error("%s: --set '%s': expected KEY=VALUE (a platform key, docs/platform-format.md)", cmd, s);
        return 2;
    }
    memcpy(key, s, (size_t)(eq - s));
    key[eq - s] = 0;
    *value = eq + 1;
    return 0;
}

/* Applies the command line's --set KEY=VALUE options to p (a sweep skips the ones with several values: its axes).
 * 0, or prints the error (with a "did you mean" for a misspelt key) and returns 2. */
static int cli_apply_sets(const struct cli_args *a, struct nnperf_platform *p)
{
    const char *cmd = cli_cmds[a->cmd].name;
    for (int i = 0; i < a->v[OPT_SET].n; i++) { /* a key given twice: which one counts would be a guess */
        char key[256], other[256];
        const char *value;
        if (cli_split_set(cmd, a->v[OPT_SET].s[i], key, sizeof key, &value)) return 2;
        for (int j = 0; j < i; j++)
            if (!cli_split_set(cmd, a->v[OPT_SET].s[j], other, sizeof other, &value) && !strcmp(key, other)) {
                cli_error("%s: --set %s is given twice ('%s' and '%s'); give each key once%s", cmd, key,
                          a->v[OPT_SET].s[j], a->v[OPT_SET].s[i],
                          a->cmd == CMD_SWEEP ? " with all its values (KEY=V1,V2,...)" : "");
                return 2;
            }
    }
    for (int i = 0; i < a->v[OPT_SET].n; i++) {
        char key[256], err[1024];
        const char *value;
        if (cli_split_set(cmd, a->v[OPT_SET].s[i], key, sizeof key, &value)) return 2;
        int list = cli_set_next(value) != NULL;
        if (list && a->cmd == CMD_SWEEP) continue; /* an axis of the sweep */
        if (list) {
            cli_error("%s: --set %s=%s: several values make a sweep axis (nnperf sweep); %s takes one", cmd,
                      key, value, cmd);
            return 2;
        }
        if (nnperf_platform_set(p, key, value, err, sizeof err) == NNPERF_OK) continue;
        const char *cands[512];
        int n = nnperf_platform_key_count();
        if (n > 512) n = 512;
        for (int k = 0; k < n; k++) cands[k] = nnperf_platform_key_name(k);
        const char *sug = strstr(err, "not a platform key") ? cli_suggest(key, cands, n) : NULL;
        if (sug)
            cli_error("%s: %s (did you mean '%s'?)", cmd, err, sug);
        else
            cli_error("%s: %s", cmd, err);
        return 2;
    }
    return 0;
}

int cli_load_platform(const struct cli_args *a, const char *name, struct nnperf_platform **p)
{
    char err[1024];
    *p = NULL;
    if (!is_preset(name) && check_regular(name)) return 2;
    if (nnperf_platform_load(name, p, err, sizeof err) == NNPERF_OK) {
        if (a && cli_apply_sets(a, *p)) {
            nnperf_platform_free(*p);
            *p = NULL;
            return 2;
        }
        return 0;
    }
    cli_error("%s", err); /* with "did you mean" for a misspelt preset, from the library */
    return 2;
}

int cli_load_platforms(const struct cli_run *r, struct nnperf_platform **plats)
{
    for (int i = 0; i < r->n_hw; i++) {
        if (cli_load_platform(r->args, r->hw[i], &plats[i])) {
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
                                        .interval_s = r->interval_s,
                                        .allow_unbound = r->allow_unbound,
                                        .threads = r->threads,
                                        .streams = r->streams};
    return po;
}

const char *cli_model_name(const char *path)
{
    const char *s = strrchr(path, '/');
    return s ? s + 1 : path;
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
    if (!found) cli_warn(r->quiet, "%s: no model named '%s' is compared", where, model);
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
        if (check_regular(a)) return 2;
        FILE *f = fopen(a, "r");
        if (!f) {
            cli_error("compare: --accuracy '%s' is neither MODEL=PCT nor a readable CSV file: %s", a,
                      strerror(errno));
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
        int bad = ferror(f);
        fclose(f);
        if (bad) {
            cli_error("compare: %s: read error: %s", a, strerror(errno));
            return 2;
        }
    }
    return 0;
}
