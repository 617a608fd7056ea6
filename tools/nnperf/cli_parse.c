/* cli_parse.c - the one command-line parser, driven by the option table (options.def): `--opt value` and
 * `--opt=value`, short aliases, `--` before operands, comma lists and repeated options counted together against one
 * bound (CLI_MAX_LIST), numbers checked against their range, choices against their list, with "did you mean" for
 * misspelt options and choices. It neither prints nor exits (the fuzz harness tests/fuzz/fuzz_cli.c calls it). */
#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"

static int fail(char *err, size_t errlen, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 3, 4)))
#endif
    ;

static int fail(char *err, size_t errlen, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    if (err && errlen) vsnprintf(err, errlen, fmt, ap);
    va_end(ap);
    return 2;
}

const char *cli_suggest(const char *word, const char *const *cands, int n)
{
    return nnperf_suggest(word, cands, n);
}

void cli_word_list(const char *list, const char *first_note, char *out, size_t n)
{
    size_t used = 0;
    out[0] = 0;
    int count = 1, k = 0;
    for (const char *c = list; *c; c++) count += *c == ',';
    for (const char *c = list; *c && used + 1 < n; k++) {
        size_t l = strcspn(c, ",");
        int w = snprintf(out + used, n - used, "%s%.*s%s",
                         k == 0           ? ""
                         : k == count - 1 ? " or "
                                          : ", ",
                         (int)l, c, k == 0 ? first_note : "");
        if (w < 0) break;
        used += (size_t)w < n - used ? (size_t)w : n - used - 1;
        c += l + (c[l] == ',');
    }
}

/* index of word in a comma list, or -1 */
static int choice_index(const char *choices, const char *word)
{
    size_t wl = strlen(word);
    int k = 0;
    for (const char *c = choices; *c; k++) {
        size_t l = strcspn(c, ",");
        if (l == wl && !memcmp(c, word, l)) return k;
        c += l + (c[l] == ',');
    }
    return -1;
}

/* "sweep and llm": the commands of a bit set */
static void cmd_list(unsigned bits, char *out, size_t n)
{
    int count = 0, k = 0;
    for (int i = 0; i < CMD_COUNT; i++) count += ((bits >> i) & 1u) ? 1 : 0;
    size_t used = 0;
    out[0] = 0;
    for (int i = 0; i < CMD_COUNT && used + 1 < n; i++) {
        if (!((bits >> i) & 1u)) continue;
        int w = snprintf(out + used, n - used, "%s%s",
                         k == 0           ? ""
                         : k == count - 1 ? " and "
                                          : ", ",
                         cli_cmds[i].name);
        if (w < 0) break;
        used += (size_t)w < n - used ? (size_t)w : n - used - 1;
        k++;
    }
}

/* the row of option name (long form or alias) that command cmd accepts; -1 none; *elsewhere set when another
 * command accepts that name */
static int find_option(enum cli_cmd_id cmd, const char *name, size_t len, int *elsewhere)
{
    *elsewhere = -1;
    for (int i = 0; i < OPT_COUNT; i++) {
        const struct cli_option *o = &cli_options[i];
        int hit = (strlen(o->name) == len && !memcmp(o->name, name, len)) ||
                  (o->alias && strlen(o->alias) == len && !memcmp(o->alias, name, len));
        if (!hit) continue;
        if (o->cmds & (1u << cmd)) return i;
        if (*elsewhere < 0) *elsewhere = i;
    }
    return -1;
}

static int add_value(struct cli_args *a, int id, const char *piece, size_t len, const char *raw, char *err,
                     size_t errlen)
{
    const struct cli_option *o = &cli_options[id];
    const struct cli_cmd *c = &cli_cmds[a->cmd];
    const char *cn = c->name;
    struct cli_values *v = &a->v[id];
    if (!len) return fail(err, errlen, "%s: %s '%s': an empty value", cn, o->name, raw);
    if (len > CLI_MAX_VALUE)
        return fail(err, errlen, "%s: %s: a value longer than %d bytes", cn, o->name, CLI_MAX_VALUE);
    if (v->n >= 1 && !(o->lists & (1u << a->cmd))) {
        char where[256] = "";
        if (o->lists) {
            char l[200];
            cmd_list(o->lists, l, sizeof l);
            snprintf(where, sizeof where, " (%s take%s a list)", l, (o->lists & (o->lists - 1)) ? "" : "s");
        }
        return fail(err, errlen, "%s: %s takes one value%s", cn, o->name, where);
    }
    if (v->n == CLI_MAX_LIST)
        return fail(err, errlen, "%s: too many values for %s (at most %d)", cn, o->name, CLI_MAX_LIST);
    if (!v->s) {
        v->s = calloc(CLI_MAX_LIST, sizeof *v->s);
        v->i = calloc(CLI_MAX_LIST, sizeof *v->i);
        v->d = calloc(CLI_MAX_LIST, sizeof *v->d);
        if (!v->s || !v->i || !v->d) return fail(err, errlen, "%s: out of memory", cn);
    }
    char *s = malloc(len + 1);
    if (!s) return fail(err, errlen, "%s: out of memory", cn);
    memcpy(s, piece, len);
    s[len] = 0;
    v->s[v->n] = s; /* owned from here on, also when the checks below fail */
    int k = v->n++;
    if (strlen(s) != len) return fail(err, errlen, "%s: %s: a value with a NUL byte", cn, o->name);
    if (o->type == CLI_T_INT || o->type == CLI_T_NUM) {
        char *end;
        errno = 0;
        double x = o->type == CLI_T_INT ? (double)strtoll(s, &end, 10) : strtod(s, &end);
        int bad = end == s || *end || errno == ERANGE || !isfinite(x) || x > o->max ||
                  ((o->flags & CLI_F_MIN_OPEN) ? !(x > o->min) : !(x >= o->min));
        if (bad) {
            if (o->type == CLI_T_INT)
                return fail(err, errlen, "%s: %s '%s': expected a whole number from %.0f to %.0f", cn,
                            o->name, s, o->min, o->max);
            return fail(err, errlen, "%s: %s '%s': expected a number %s %g and at most %g", cn, o->name, s,
                        (o->flags & CLI_F_MIN_OPEN) ? "greater than" : "from", o->min, o->max);
        }
        v->d[k] = x;
        v->i[k] = o->type == CLI_T_INT ? (int)x : 0;
    } else if (o->type == CLI_T_CHOICE) {
        const char *choices = o->choices ? o->choices : c->formats;
        int idx = choices ? choice_index(choices, s) : -1;
        if (idx < 0) {
            char what[64], list[256], hint[160] = "";
            snprintf(what, sizeof what, "%s", o->name + 2);
            for (char *p = what; *p; p++)
                if (*p == '-') *p = ' ';
            cli_word_list(choices ? choices : "", "", list, sizeof list);
            const char *cands[32];
            char words[32][32];
            int nc = 0;
            for (const char *p = choices ? choices : ""; *p && nc < 32;) {
                size_t l = strcspn(p, ",");
                snprintf(words[nc], sizeof words[nc], "%.*s", (int)l, p);
                cands[nc] = words[nc];
                nc++;
                p += l + (p[l] == ',');
            }
            const char *sug = cli_suggest(s, cands, nc);
            if (sug) snprintf(hint, sizeof hint, "; did you mean '%s'?", sug);
            return fail(err, errlen, "%s: unknown %s '%s' (%s%s)", cn, what, s, list, hint);
        }
        v->i[k] = idx;
    }
    return 0;
}

/* Adds the value raw of option id: split at commas for numbers and CLI_F_SPLIT rows. */
static int add_raw(struct cli_args *a, int id, const char *raw, char *err, size_t errlen)
{
    const struct cli_option *o = &cli_options[id];
    int split = o->type == CLI_T_INT || o->type == CLI_T_NUM || (o->flags & CLI_F_SPLIT);
    if (!split) return add_value(a, id, raw, strlen(raw), raw, err, errlen);
    const char *p = raw;
    for (;;) {
        size_t l = strcspn(p, ",");
        int rc = add_value(a, id, p, l, raw, err, errlen);
        if (rc) return rc;
        if (!p[l]) return 0;
        p += l + 1;
    }
}

static int is_help(const char *s)
{
    return !strcmp(s, "-h") || !strcmp(s, "--help");
}

int cli_parse(enum cli_cmd_id cmd, int argc, char *const *argv, struct cli_args *a, char *err, size_t errlen)
{
    memset(a, 0, sizeof *a);
    a->cmd = cmd;
    if (err && errlen) err[0] = 0;
    if ((int)cmd < 0 || cmd >= CMD_COUNT) return fail(err, errlen, "no such command");
    const struct cli_cmd *c = &cli_cmds[cmd];
    const char *cn = c->name;
    for (int i = 0; i < argc && strcmp(argv[i], "--"); i++)
        if (is_help(argv[i])) {
            a->help = 1;
            a->v[OPT_HELP].n = 1;
            return 0;
        }
    a->operands = calloc((size_t)(c->max_operands > 0 ? c->max_operands : 1), sizeof *a->operands);
    if (!a->operands) return fail(err, errlen, "%s: out of memory", cn);
    int only_operands = 0;
    for (int i = 0; i < argc; i++) {
        const char *arg = argv[i];
        if (!only_operands && !strcmp(arg, "--")) {
            only_operands = 1;
            continue;
        }
        if (only_operands || arg[0] != '-' || !arg[1]) {
            if (a->n_operands == c->max_operands) {
                if (c->max_operands == 0)
                    return fail(err, errlen, "%s: unexpected argument '%s' (see 'nnperf help %s')", cn, arg,
                                cn);
                if (c->max_operands == 1)
                    return fail(err, errlen, "%s: more than one %s given ('%s' and '%s')", cn,
                                c->operand_name, a->operands[0], arg);
                return fail(err, errlen, "%s: too many %ss (at most %d)", cn, c->operand_name,
                            c->max_operands);
            }
            a->operands[a->n_operands++] = arg;
            continue;
        }
        const char *eq = strchr(arg, '=');
        size_t nl = eq ? (size_t)(eq - arg) : strlen(arg);
        int elsewhere, id = find_option(cmd, arg, nl, &elsewhere);
        if (id < 0 && elsewhere >= 0) {
            char l[200];
            cmd_list(cli_options[elsewhere].cmds, l, sizeof l);
            return fail(err, errlen, "%s: option '%.*s' does not apply to %s (it is an option of %s)", cn,
                        (int)nl, arg, cn, l);
        }
        if (id < 0) {
            const char *cands[2 * OPT_COUNT];
            int nc = 0;
            for (int k = 0; k < OPT_COUNT; k++)
                if (cli_options[k].cmds & (1u << cmd)) {
                    cands[nc++] = cli_options[k].name;
                    cands[nc++] = cli_options[k].alias;
                }
            char word[128];
            snprintf(word, sizeof word, "%.*s", (int)(nl < 100 ? nl : 100), arg);
            const char *sug = cli_suggest(word, cands, nc);
            if (sug) return fail(err, errlen, "%s: unknown option '%s' (did you mean '%s'?)", cn, word, sug);
            return fail(err, errlen, "%s: unknown option '%s' (see 'nnperf help %s')", cn, word, cn);
        }
        const struct cli_option *o = &cli_options[id];
        if (o->type == CLI_T_FLAG) {
            if (eq) return fail(err, errlen, "%s: option '%s' takes no value", cn, o->name);
            if (a->v[id].n < CLI_MAX_LIST) a->v[id].n++;
            continue;
        }
        const char *val = eq ? eq + 1 : i + 1 < argc ? argv[++i] : NULL;
        int other = -1;
        if (val && !eq && val[0] == '-' && val[1])
            if (find_option(cmd, val, strcspn(val, "="), &other) >= 0 || other >= 0) val = NULL;
        if (!val)
            return fail(err, errlen, "%s: option '%s' needs a value (%s)", cn, o->name,
                        o->metavar ? o->metavar : "a value");
        int rc = add_raw(a, id, val, err, errlen);
        if (rc) return rc;
    }
    if (a->n_operands < c->min_operands)
        return fail(err, errlen, "%s: no %s given (see 'nnperf help %s')", cn, c->operand_name, cn);
    return 0;
}

void cli_args_free(struct cli_args *a)
{
    if (!a) return;
    for (int i = 0; i < OPT_COUNT; i++) {
        struct cli_values *v = &a->v[i];
        if (v->s)
            for (int k = 0; k < v->n; k++) free((char *)v->s[k]);
        free(v->s);
        free(v->i);
        free(v->d);
        v->s = NULL, v->i = NULL, v->d = NULL, v->n = 0;
    }
    free(a->operands);
    a->operands = NULL;
    a->n_operands = 0;
}

const char *cli_str(const struct cli_args *a, enum cli_opt_id id)
{
    return a->v[id].n && a->v[id].s ? a->v[id].s[0] : NULL;
}

int cli_flag(const struct cli_args *a, enum cli_opt_id id)
{
    return a->v[id].n > 0;
}

const char *cli_set_next(const char *v)
{
    if (*v == '[' || *v == '{') return NULL; /* a flow collection is one value */
    for (char q = 0; *v; v++) {
        if (q) {
            if (*v == q && q == '\'' && v[1] == '\'')
                v++; /* '' inside single quotes */
            else if (*v == '\\' && q == '"' && v[1])
                v++;
            else if (*v == q)
                q = 0;
        } else if (*v == '"' || *v == '\'') {
            q = *v;
        } else if (*v == ',') {
            return v;
        }
    }
    return NULL;
}
