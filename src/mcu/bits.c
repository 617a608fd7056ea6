/* bits.c - the weight-bits file of `nnperf map --weight-bits-file`: per-layer weight bits for networks trained with
 * mixed precision. Two forms, both YAML subsets:
 *
 *   conv1: 8            NAME: BITS, one layer a line
 *   default: 2          every layer not named
 *
 *   weight_bits: 2      an ai8x-training QAT policy file as it is ([AI8X-TRAINING] in docs/sources.md): the default
 *   overrides:
 *     conv1:
 *       weight_bits: 8  ... and one block per layer (other keys of the policy are read and ignored)
 *
 * NAME is an ONNX node name, or a module name that torch.onnx.export puts between slashes ("conv1" matches
 * "/conv1/Conv"). Bits are 8, 4, 2 or 1. Errors name the file, the line and the key. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "mcu.h"

#define BITS_MAX_FILE (1 << 20)

/* keys of an ai8x-training QAT policy that say nothing about weight bits */
static int policy_key(const char *k)
{
    static const char *const keys[] = {"start_epoch", "shift_quantile", "outlier_removal_z_score",
                                       "bias_bits", "overrides"};
    for (size_t i = 0; i < sizeof keys / sizeof keys[0]; i++)
        if (!strcmp(k, keys[i])) return 1;
    return 0;
}

static int parse_bits(const char *v)
{
    if (!strcmp(v, "8") || !strcmp(v, "4") || !strcmp(v, "2") || !strcmp(v, "1")) return v[0] - '0';
    return 0;
}

static char *trim(char *s)
{
    while (*s == ' ' || *s == '\t') s++;
    size_t n = strlen(s);
    while (n && (s[n - 1] == ' ' || s[n - 1] == '\t' || s[n - 1] == '\r')) s[--n] = 0;
    if (n >= 2 && ((s[0] == '"' && s[n - 1] == '"') || (s[0] == '\'' && s[n - 1] == '\''))) {
        s[n - 1] = 0;
        s++;
    }
    return s;
}

static enum nnperf_status add_rule(struct mcu_bits *b, const char *name, const char *val, int line,
                                   struct diag *d)
{
    int bits = parse_bits(val);
    if (!bits)
        return diag_set(d, NNPERF_E_PARSE, "%s:%d: key '%s': weight bits '%s', expected 8, 4, 2 or 1",
                        b->path, line, name, val);
    for (int i = 0; i < b->n; i++)
        if (!strcmp(b->r[i].name, name))
            return diag_set(d, NNPERF_E_PARSE, "%s:%d: key '%s': given twice (first on line %d)", b->path,
                            line, name, b->r[i].line);
    if (b->n == MCU_MAX_LAYERS)
        return diag_set(d, NNPERF_E_LIMIT, "%s:%d: more than %d layers", b->path, line, MCU_MAX_LAYERS);
    b->r[b->n++] = (struct mcu_bits_rule){name, bits, line};
    return NNPERF_OK;
}

enum nnperf_status mcu_bits_parse(char *text, struct mcu_bits *b, struct diag *d)
{
    int line = 0, in_over = 0, over_indent = -1, default_line = 0;
    const char *cur = NULL; /* the override block being read */
    int cur_line = 0;
    for (char *s = text, *next; s && *s; s = next) {
        line++;
        next = strchr(s, '\n');
        if (next) *next++ = 0;
        char *hash = strchr(s, '#');
        if (hash) *hash = 0;
        int indent = 0;
        while (s[indent] == ' ') indent++;
        if (s[indent] == '\t')
            return diag_set(d, NNPERF_E_PARSE, "%s:%d: a tab in the indentation (use spaces)", b->path, line);
        char *body = trim(s);
        if (!*body || !strcmp(body, "---") || !strcmp(body, "...")) continue;
        char *colon = strchr(body, ':');
        if (!colon)
            return diag_set(d, NNPERF_E_PARSE, "%s:%d: '%s': expected 'NAME: BITS'", b->path, line, body);
        *colon = 0;
        char *key = trim(body), *val = trim(colon + 1);
        if (!*key) return diag_set(d, NNPERF_E_PARSE, "%s:%d: empty key", b->path, line);
        if (indent == 0) {
            in_over = !strcmp(key, "overrides") && !*val;
            cur = NULL;
            if (in_over) continue;
            if (!strcmp(key, "weight_bits") || !strcmp(key, "default")) {
                if (default_line)
                    return diag_set(d, NNPERF_E_PARSE,
                                    "%s:%d: key '%s': the default is already given on line %d", b->path, line,
                                    key, default_line);
                default_line = line;
                if (!(b->default_bits = parse_bits(val)))
                    return diag_set(d, NNPERF_E_PARSE,
                                    "%s:%d: key '%s': weight bits '%s', expected 8, 4, 2 or 1", b->path, line,
                                    key, val);
            } else if (!policy_key(key)) {
                enum nnperf_status st = add_rule(b, key, val, line, d);
                if (st) return st;
            }
            continue;
        }
        if (!in_over)
            return diag_set(d, NNPERF_E_PARSE, "%s:%d: key '%s': indented, but not inside 'overrides:'",
                            b->path, line, key);
        if (over_indent < 0) over_indent = indent;
        if (indent == over_indent) {
            if (*val) { /* "  conv1: 8" inside overrides */
                enum nnperf_status st = add_rule(b, key, val, line, d);
                if (st) return st;
                cur = NULL;
            } else
                cur = key, cur_line = line;
        } else if (indent > over_indent && cur) {
            if (!strcmp(key, "weight_bits")) {
                enum nnperf_status st = add_rule(b, cur, val, cur_line, d);
                if (st) return st;
            }
        } else
            return diag_set(d, NNPERF_E_PARSE, "%s:%d: key '%s': indentation does not match its block",
                            b->path, line, key);
    }
    return NNPERF_OK;
}

enum nnperf_status mcu_bits_read(const char *path, struct mcu_bits *b, struct diag *d)
{
    memset(b, 0, sizeof *b);
    b->path = path;
    /* a regular file of at most 1 MiB; errors name the file and the cause */
    char *text;
    size_t n;
    enum nnperf_status rs = core_read_file(path, BITS_MAX_FILE, &text, &n, d);
    if (rs) return rs;
    if (memchr(text, 0, n)) {
        free(text);
        return diag_set(d, NNPERF_E_PARSE, "weight-bits file '%s': not a text file", path);
    }
    b->text = text;
    enum nnperf_status st = mcu_bits_parse(text, b, d);
    if (st) {
        free(text);
        b->text = NULL;
        b->n = 0;
    }
    return st;
}

void mcu_bits_free(struct mcu_bits *b)
{
    if (!b) return;
    free(b->text);
    free(b->used);
    b->text = NULL;
    b->used = NULL;
}
