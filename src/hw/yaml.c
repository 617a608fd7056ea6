/* yaml.c - the platform YAML reader (format version 1, docs/platform-format.md): libyaml's event API first checks
 * syntax, nesting depth, node count and aliases; its document API then builds the tree that a walk over the key
 * table (keys.c) turns into a struct hw_desc: each mapping key is looked up as a row, its value read by the row's type
 * and unit and checked against its range at once, so every error names the file, the line and the dotted key:
 * "zcu102.yaml:14: compute.efficiency.convv: unknown key (known: default, conv, gemm, ...)". */
#define _XOPEN_SOURCE 700 /* realpath */
#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <yaml.h>

#include "keys.h"

#define HW_YAML_MAX_BYTES  (1u << 20) /* a platform file is a few KiB; anything past 1 MiB is refused */
#define HW_YAML_MAX_DEPTH  16         /* the schema is 4 levels deep */
#define HW_YAML_MAX_EVENTS 100000

struct ld {
    const char *file;
    yaml_document_t *doc;
    struct hw_desc *hw;
    struct diag *d;
    char path[256];  /* dotted key of the node being read, for messages: "compute.alignment[1].c" */
    char spath[256]; /* the same as a table path: "compute.alignment[].c" */
    unsigned long l_root;
    unsigned long line[HW_KEY_CAP]; /* line each row's key was given on in this file (0 = not given) */
    unsigned entries[HW_KEY_CAP];   /* map rows: bit e = entry e given in this file */
    int has_base;                   /* the file starts from a base (keys not given keep the base's values) */
    int no_lines;                   /* --set: messages name the key, not a line */
};

struct mark {
    size_t path, spath;
};

static unsigned long line_of(const yaml_node_t *n)
{
    return n ? (unsigned long)n->start_mark.line + 1 : 1;
}

/* Records "file:line: path: message". */
static enum nnperf_status lerr(struct ld *c, enum nnperf_status st, unsigned long line, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 4, 5)))
#endif
    ;
static enum nnperf_status lerr(struct ld *c, enum nnperf_status st, unsigned long line, const char *fmt, ...)
{
    char msg[400];
    va_list ap;
    va_start(ap, fmt);
    c_vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    if (c->no_lines) return diag_set(c->d, st, "%s %s: %s", c->file, c->path, msg);
    if (c->path[0]) return diag_set(c->d, st, "%s:%lu: %s: %s", c->file, line, c->path, msg);
    return diag_set(c->d, st, "%s:%lu: %s", c->file, line, msg);
}

/* buf (of cap bytes) gets ".seg" (dot and buf not empty) or "seg", cut to fit as snprintf cuts it */
static void append(char *buf, size_t cap, const char *seg, int dot)
{
    size_t old = strlen(buf), n = strlen(seg);
    if (dot && old && old + 1 < cap) buf[old++] = '.';
    if (n > cap - old - 1) n = cap - old - 1;
    memcpy(buf + old, seg, n);
    buf[old + n] = 0;
}

/* Appends ".seg" (or "seg" at the top) to both paths; pop() with the returned mark. */
static struct mark push(struct ld *c, const char *seg)
{
    struct mark m = {strlen(c->path), strlen(c->spath)};
    append(c->path, sizeof c->path, seg, 1);
    append(c->spath, sizeof c->spath, seg, 1);
    return m;
}

/* Appends "[i]" to the message path and "[]" to the table path. */
static struct mark push_idx(struct ld *c, size_t i)
{
    struct mark m = {strlen(c->path), strlen(c->spath)};
    char b[32];
    size_t n = core_digits(b + 1, i);
    b[0] = '[', b[n + 1] = ']', b[n + 2] = 0;
    append(c->path, sizeof c->path, b, 0);
    append(c->spath, sizeof c->spath, "[]", 0);
    return m;
}

static void pop(struct ld *c, struct mark m)
{
    c->path[m.path] = 0;
    c->spath[m.spath] = 0;
}

static yaml_node_t *node(struct ld *c, int index)
{
    return yaml_document_get_node(c->doc, index);
}

static int is_null(const yaml_node_t *n)
{
    if (n->type != YAML_SCALAR_NODE || n->data.scalar.style != YAML_PLAIN_SCALAR_STYLE) return 0;
    const char *s = (const char *)n->data.scalar.value;
    return !*s || !strcmp(s, "~") || !strcmp(s, "null") || !strcmp(s, "Null") || !strcmp(s, "NULL");
}

static const char *kind(const yaml_node_t *n)
{
    if (n->type == YAML_MAPPING_NODE) return "a mapping";
    if (n->type == YAML_SEQUENCE_NODE) return "a list";
    if (is_null(n)) return "an empty value";
    return "a string";
}

/* Scalar text for messages, shortened. */
static const char *shown(const yaml_node_t *n, char *buf, size_t cap)
{
    snprintf(buf, cap, "%.40s%s", (const char *)n->data.scalar.value,
             n->data.scalar.length > 40 ? "..." : "");
    return buf;
}

static int want(struct ld *c, const yaml_node_t *n, yaml_node_type_t t, const char *what)
{
    if (n->type == t && !is_null(n)) return 1;
    lerr(c, NNPERF_E_INVALID, line_of(n), "expected %s, got %s", what, kind(n));
    return 0;
}

/* A scalar's text; a nul byte inside (a "\0" escape) is an error, never a shorter string. */
static const char *text_of(struct ld *c, const yaml_node_t *n)
{
    const char *s = (const char *)n->data.scalar.value;
    if (memchr(s, 0, n->data.scalar.length)) {
        lerr(c, NNPERF_E_INVALID, line_of(n), "contains a nul byte");
        return NULL;
    }
    return s;
}

static int get_str(struct ld *c, const yaml_node_t *n, char *dst, size_t cap)
{
    if (!want(c, n, YAML_SCALAR_NODE, "a string") || !text_of(c, n)) return 0;
    size_t len = n->data.scalar.length;
    if (len >= cap) {
        lerr(c, NNPERF_E_LIMIT, line_of(n), "string is %zu bytes long, at most %zu allowed", len, cap - 1);
        return 0;
    }
    memcpy(dst, n->data.scalar.value, len);
    dst[len] = 0;
    return 1;
}

/* A number of row k's unit, within its range. */
static int get_num(struct ld *c, const yaml_node_t *n, const struct hw_key *k, double *out)
{
    char b[64], why[160];
    enum hw_unit other = HW_U_COUNT;
    if (!want(c, n, YAML_SCALAR_NODE, "a number") || !text_of(c, n)) return 0;
    enum hw_unit u = k->type == HW_T_NUM ? k->unit : HW_U_NONE;
    if (n->data.scalar.length >= sizeof b ||
        !hw_parse_value((const char *)n->data.scalar.value, u, out, &other)) {
        if (other != HW_U_COUNT && n->data.scalar.length < sizeof b)
            lerr(c, NNPERF_E_INVALID, line_of(n), "'%s' is %s, expected %s", shown(n, b, sizeof b),
                 hw_unit_what(other), hw_unit_what(u));
        else
            lerr(c, NNPERF_E_INVALID, line_of(n), "expected a number, got '%s'", shown(n, b, sizeof b));
        return 0;
    }
    if (k->type == HW_T_NUM && hw_key_check_num(k, *out, why, sizeof why)) {
        lerr(c, NNPERF_E_INVALID, line_of(n), "%s, got '%s'", why, shown(n, b, sizeof b));
        return 0;
    }
    return 1;
}

static int get_int(struct ld *c, const yaml_node_t *n, const struct hw_key *k, int64_t *out)
{
    char b[64];
    double v;
    if (!get_num(c, n, k, &v)) return 0;
    if (v != floor(v)) {
        lerr(c, NNPERF_E_INVALID, line_of(n), "expected an integer, got '%s'", shown(n, b, sizeof b));
        return 0;
    }
    if (v < k->min || v > k->max) {
        lerr(c, NNPERF_E_INVALID, line_of(n), "must be between %.0f and %.0f, got '%s'", k->min, k->max,
             shown(n, b, sizeof b));
        return 0;
    }
    *out = (int64_t)v;
    return 1;
}

static int get_bool(struct ld *c, const yaml_node_t *n, int *out)
{
    char b[64];
    if (!want(c, n, YAML_SCALAR_NODE, "true or false") || !text_of(c, n)) return 0;
    const char *s = (const char *)n->data.scalar.value;
    if (!strcmp(s, "true") || !strcmp(s, "True") || !strcmp(s, "TRUE"))
        *out = 1;
    else if (!strcmp(s, "false") || !strcmp(s, "False") || !strcmp(s, "FALSE"))
        *out = 0;
    else {
        lerr(c, NNPERF_E_INVALID, line_of(n), "expected true or false, got '%s'", shown(n, b, sizeof b));
        return 0;
    }
    return 1;
}

/* Whether row k is a key of the mapping at table path sp (its parent, and not a list's element row). */
static int child_of(const struct hw_key *k, const char *sp)
{
    size_t n = strlen(sp), len = strlen(k->path);
    if (hw_key_parent_len(k) != n || strncmp(k->path, sp, n)) return 0;
    return !(len > 2 && !strcmp(k->path + len - 2, "[]"));
}

static void known_keys(const char *sp, const struct hw_key *self, char *list, size_t cap)
{
    size_t used = 0;
    list[0] = 0;
    for (int i = 0; i < hw_n_keys && used < cap; i++)
        if (child_of(&hw_keys[i], sp))
            used +=
                (size_t)snprintf(list + used, cap - used, "%s%s", used ? ", " : "", hw_key_leaf(&hw_keys[i]));
    for (int i = 0; self && i < hw_key_map_size(self) && used < cap; i++)
        used += (size_t)snprintf(list + used, cap - used, "%s%s", used ? ", " : "", hw_key_map_name(self, i));
}

static int read_value(struct ld *c, const struct hw_key *k, const yaml_node_t *v, char *base);

/* A mapping at the current table path: each key a row (or an entry of self's map), each value read into base. */
static int read_map(struct ld *c, const yaml_node_t *n, const struct hw_key *self, char *base)
{
    char what[80] = "a mapping"; /* for the message */
    if (self && self->map && (n->type != YAML_MAPPING_NODE || is_null(n)))
        snprintf(what, sizeof what, "a mapping of %s to %s",
                 self->map == HW_MAP_DTYPE ? "dtype" : "operator class",
                 self->unit == HW_U_FRACTION ? "efficiency" : hw_unit_name(self->unit));
    if (!want(c, n, YAML_MAPPING_NODE, what)) return 0;
    for (yaml_node_pair_t *p = n->data.mapping.pairs.start; p < n->data.mapping.pairs.top; p++) {
        yaml_node_t *kn = node(c, p->key);
        if (!kn || kn->type != YAML_SCALAR_NODE) {
            lerr(c, NNPERF_E_INVALID, line_of(kn), "keys must be strings, got %s", kn ? kind(kn) : "nothing");
            return 0;
        }
        const char *s = text_of(c, kn);
        if (!s) return 0;
        char seg[80]; /* the key, its first 64 bytes and "..." when longer */
        size_t sl = strnlen(s, 64);
        memcpy(seg, s, sl);
        memcpy(seg + sl, kn->data.scalar.length > 64 ? "..." : "", kn->data.scalar.length > 64 ? 4 : 1);
        struct mark m = push(c, seg);
        const struct hw_key *k = strpbrk(s, ".[]") ? NULL : hw_key_find(c->spath);
        int entry = -1;
        for (int i = 0; !k && self && i < hw_key_map_size(self); i++)
            if (!strcmp(s, hw_key_map_name(self, i))) entry = i;
        if (!k && entry < 0) {
            char list[300];
            pop(c, m);
            known_keys(c->spath, self, list, sizeof list);
            push(c, seg);
            lerr(c, NNPERF_E_INVALID, line_of(kn), "unknown key (known: %s)", list);
            return 0;
        }
        for (yaml_node_pair_t *q = n->data.mapping.pairs.start; q < p; q++) {
            yaml_node_t *qn = node(c, q->key);
            if (qn && qn->type == YAML_SCALAR_NODE && !strcmp((const char *)qn->data.scalar.value, s)) {
                lerr(c, NNPERF_E_INVALID, line_of(kn), "duplicate key (first given at line %lu)",
                     line_of(qn));
                return 0;
            }
        }
        yaml_node_t *v = node(c, p->value);
        if (k) {
            if (!hw_key_is_element(k)) c->line[k - hw_keys] = line_of(kn);
            if (!read_value(c, k, v, base)) return 0;
        } else {
            double x;
            if (!get_num(c, v, self, &x)) return 0;
            memcpy(base + self->off + (size_t)entry * sizeof x, &x, sizeof x);
            c->entries[self - hw_keys] |= 1u << entry;
        }
        pop(c, m);
    }
    return 1;
}

static int read_classes(struct ld *c, const yaml_node_t *n, unsigned *mask)
{
    if (!want(c, n, YAML_SEQUENCE_NODE, "a list of operator classes")) return 0;
    yaml_node_item_t *it = n->data.sequence.items.start;
    size_t cnt = (size_t)(n->data.sequence.items.top - it);
    if (!cnt) {
        lerr(c, NNPERF_E_INVALID, line_of(n), "empty list");
        return 0;
    }
    *mask = 0;
    for (size_t i = 0; i < cnt; i++) {
        yaml_node_t *v = node(c, it[i]);
        char name[HW_MAX_NAME];
        struct mark m = push_idx(c, i);
        if (!get_str(c, v, name, sizeof name)) return 0;
        int k = -1;
        for (int j = 0; j < OC_COUNT; j++)
            if (!strcmp(name, op_class_name(j))) k = j;
        if (k < 0) {
            char list[300] = "";
            size_t used = 0;
            for (int j = 0; j < OC_COUNT && used < sizeof list; j++)
                used += (size_t)snprintf(list + used, sizeof list - used, "%s%s", j ? ", " : "",
                                         op_class_name(j));
            lerr(c, NNPERF_E_INVALID, line_of(v), "unknown operator class '%s' (known: %s)", name, list);
            return 0;
        }
        if (*mask & (1u << k)) {
            lerr(c, NNPERF_E_INVALID, line_of(v), "class '%s' is listed twice", name);
            return 0;
        }
        *mask |= 1u << k;
        pop(c, m);
    }
    return 1;
}

/* A list of names (OPS: operators, KEYS: key paths) into base + k->off, its length at base + k->count_off. */
static int read_names(struct ld *c, const struct hw_key *k, const yaml_node_t *n, char *base)
{
    int element = hw_key_is_element(k);
    if (!want(c, n, YAML_SEQUENCE_NODE, k->type == HW_T_OPS ? "a list of operator names" : "a list of keys"))
        return 0;
    yaml_node_item_t *it = n->data.sequence.items.start;
    size_t cnt = (size_t)(n->data.sequence.items.top - it);
    if (!cnt && !element) {
        lerr(c, NNPERF_E_INVALID, line_of(n), "empty list (leave the key out instead)");
        return 0;
    }
    if ((double)cnt > k->max && !element) {
        lerr(c, NNPERF_E_LIMIT, line_of(n), "%zu entries, at most %.0f allowed", cnt, k->max);
        return 0;
    }
    if ((double)cnt < k->min || (double)cnt > k->max) {
        lerr(c, NNPERF_E_INVALID, line_of(n), "needs %.0f to %.0f entries, got %zu", k->min, k->max, cnt);
        return 0;
    }
    char *dst = base + k->off;
    memset(dst, 0, (size_t)k->max * k->size);
    for (size_t i = 0; i < cnt; i++) {
        yaml_node_t *v = node(c, it[i]);
        char *item = dst + i * k->size, why[200];
        struct mark m = push_idx(c, i);
        if (!get_str(c, v, item, k->size)) return 0;
        if (hw_key_check_item(k, item, why, sizeof why)) {
            lerr(c, NNPERF_E_INVALID, line_of(v), "%s", why);
            return 0;
        }
        for (size_t j = 0; (k->flags & HW_F_UNIQUE) && j < i; j++)
            if (!strcmp(dst + j * k->size, item)) {
                lerr(c, NNPERF_E_INVALID, line_of(v), "'%s' is listed twice", item);
                return 0;
            }
        pop(c, m);
    }
    int n_items = (int)cnt;
    memcpy(base + k->count_off, &n_items, sizeof n_items);
    return 1;
}

/* A list of elements: values of the row "path[]", or mappings of the rows "path[].key". */
static int read_list(struct ld *c, const struct hw_key *k, const yaml_node_t *n, char *base)
{
    if (!want(c, n, YAML_SEQUENCE_NODE, "a list")) return 0;
    yaml_node_item_t *it = n->data.sequence.items.start;
    size_t cnt = (size_t)(n->data.sequence.items.top - it);
    if ((double)cnt > k->max) {
        lerr(c, NNPERF_E_LIMIT, line_of(n), "%zu entries, at most %.0f allowed", cnt, k->max);
        return 0;
    }
    memset(base + k->off, 0, (size_t)k->max * k->size);
    int zero = 0;
    memcpy(base + k->count_off, &zero, sizeof zero);
    char self_path[HW_MAX_KEY + 4];
    snprintf(self_path, sizeof self_path, "%s[]", k->path);
    const struct hw_key *self = hw_key_find(self_path);
    for (size_t i = 0; i < cnt; i++) {
        yaml_node_t *e = node(c, it[i]);
        char *elem = base + k->off + i * k->size;
        struct mark m = push_idx(c, i);
        if (self) {
            if (!read_value(c, self, e, elem)) return 0;
        } else {
            if (!read_map(c, e, NULL, elem)) return 0;
            for (int j = 0; j < hw_n_keys; j++) {
                const struct hw_key *r = &hw_keys[j];
                if (!child_of(r, c->spath) || !(r->flags & HW_F_REQUIRED) || !hw_key_empty(r, elem)) continue;
                push(c, hw_key_leaf(r));
                lerr(c, NNPERF_E_INVALID, line_of(e), "required key missing");
                return 0;
            }
        }
        const char *why = k->check ? k->check(elem) : NULL;
        if (why) {
            lerr(c, NNPERF_E_INVALID, line_of(e), "%s", why);
            return 0;
        }
        pop(c, m);
    }
    int n_items = (int)cnt;
    memcpy(base + k->count_off, &n_items, sizeof n_items);
    return 1;
}

static int read_value(struct ld *c, const struct hw_key *k, const yaml_node_t *v, char *base)
{
    char *p = base + k->off, why[200];
    int64_t iv = 0;
    int bad;
    switch (k->type) {
    case HW_T_FORMAT:
        if (!get_int(c, v, &(struct hw_key){.min = 0, .max = 1000000}, &iv)) return 0;
        if (iv != 1) {
            lerr(c, NNPERF_E_UNSUPPORTED, line_of(v), "version %lld is not supported (this build reads 1)",
                 (long long)iv);
            return 0;
        }
        return 1;
    case HW_T_SECTION:
        if (k->flags & HW_F_PRESENCE) {
            int one = 1;
            memcpy(p, &one, sizeof one);
        }
        return read_map(c, v, k, base);
    case HW_T_NUM: {
        if (k->map) return read_map(c, v, k, base);
        double x;
        if (!get_num(c, v, k, &x)) return 0;
        memcpy(p, &x, sizeof x);
        return 1;
    }
    case HW_T_INT:
    case HW_T_I64:
        if (!get_int(c, v, k, &iv)) return 0;
        if (k->type == HW_T_I64) {
            memcpy(p, &iv, sizeof iv);
        } else {
            int x = (int)iv;
            memcpy(p, &x, sizeof x);
        }
        return 1;
    case HW_T_BOOL: {
        int x;
        if (!get_bool(c, v, &x)) return 0;
        memcpy(p, &x, sizeof x);
        return 1;
    }
    case HW_T_TEXT:
    case HW_T_NAME:
        memset(p, 0, k->size); /* over a base's longer text: nothing of it stays behind the NUL */
        if (!get_str(c, v, p, k->size)) return 0;
        if (hw_key_check(k, base, &bad, why, sizeof why)) {
            lerr(c, NNPERF_E_INVALID, line_of(v), "%s", why);
            return 0;
        }
        return 1;
    case HW_T_DTYPE: {
        char dt[HW_MAX_NAME];
        if (!get_str(c, v, dt, sizeof dt)) return 0;
        int x = hw_dtype_from_name(dt);
        if (x < 0) {
            lerr(c, NNPERF_E_INVALID, line_of(v),
                 "unknown dtype '%s' (known: int4, int8, fp16, bf16, fp32, fp8)", dt);
            return 0;
        }
        memcpy(p, &x, sizeof x);
        return 1;
    }
    case HW_T_CLASSES: {
        unsigned m;
        if (!read_classes(c, v, &m)) return 0;
        memcpy(p, &m, sizeof m);
        return 1;
    }
    case HW_T_OPS:
    case HW_T_KEYS: return read_names(c, k, v, base);
    case HW_T_LIST: return read_list(c, k, v, base);
    case HW_T_BASE: return want(c, v, YAML_SCALAR_NODE, "a preset name or a file"); /* read by load_doc */
    default: lerr(c, NNPERF_E_INVALID, line_of(v), "not supported here"); return 0;
    }
}

/* The line to blame for a key given or missing: its own, else its nearest section's, else the top. */
static unsigned long line_for(const struct ld *c, const char *path)
{
    for (const struct hw_key *k = hw_key_find(path); k; k = hw_key_parent(k))
        if (c->line[k - hw_keys]) return c->line[k - hw_keys];
    return c->l_root;
}

/* Required keys and the rules across keys, each pointing at the most useful line. */
static int check_loaded(struct ld *c)
{
    struct hw_desc *hw = c->hw;
    c->path[0] = 0;
    for (int i = 0; i < hw_n_keys; i++) {
        const struct hw_key *k = &hw_keys[i];
        if (!(k->flags & HW_F_REQUIRED) || hw_key_is_element(k) || !hw_key_live(hw, k)) continue;
        int own = (k->flags & HW_F_OWN) && c->has_base;
        if (!hw_key_empty(k, hw) && !(own && !c->line[i])) continue;
        snprintf(c->path, sizeof c->path, "%s", k->path);
        const struct hw_key *up = hw_key_parent(k);
        return !lerr(c, NNPERF_E_INVALID, up ? line_for(c, up->path) : c->l_root, "required key missing%s",
                     own ? " (a platform on a base names itself)" : "");
    }
    const struct hw_key *dk = hw_key_find("compute.default_dtype");
    /* not given: the base's if it still has a peak, else the first of int8, fp16, bf16, fp32, int4, fp8 with one */
    if (!c->line[dk - hw_keys] && (!c->has_base || !(hw->peak_ops[hw->default_dtype] > 0))) {
        static const int order[] = {HW_INT8, HW_FP16, HW_BF16, HW_FP32, HW_INT4, HW_FP8};
        for (int i = (int)(sizeof order / sizeof order[0]) - 1; i >= 0; i--)
            if (hw->peak_ops[order[i]] > 0) hw->default_dtype = order[i];
    }
    char buf[200];
    const char *key = NULL, *why = hw_check_rules(hw, &key, buf, sizeof buf);
    if (!why) return 1;
    snprintf(c->path, sizeof c->path, "%s", key);
    return !lerr(c, NNPERF_E_INVALID, line_for(c, key), "%s", why);
}

/* libyaml's own message with its line. */
static enum nnperf_status yaml_fail(const yaml_parser_t *p, const char *file, const char *text,
                                    struct diag *d)
{
    if (p->error == YAML_MEMORY_ERROR)
        return diag_set(d, NNPERF_E_NOMEM, "%s: out of memory reading yaml", file);
    unsigned long line = (unsigned long)p->problem_mark.line + 1;
    if (p->error == YAML_READER_ERROR) {
        line = 1;
        for (size_t i = 0; i < p->problem_offset && text[i]; i++) line += text[i] == '\n';
    }
    const char *prob = p->problem ? p->problem : "unknown error";
    if (p->context)
        return diag_set(d, NNPERF_E_PARSE, "%s:%lu: malformed yaml: %s (%s at line %lu)", file, line, prob,
                        p->context, (unsigned long)p->context_mark.line + 1);
    return diag_set(d, NNPERF_E_PARSE, "%s:%lu: malformed yaml: %s", file, line, prob);
}

/* Event pass: syntax, depth, size and alias checks before any tree is built. */
static enum nnperf_status prescan(const char *text, size_t len, const char *file, struct diag *d)
{
    yaml_parser_t p;
    if (!yaml_parser_initialize(&p)) return diag_set(d, NNPERF_E_NOMEM, "%s: out of memory", file);
    yaml_parser_set_input_string(&p, (const unsigned char *)text, len);
    enum nnperf_status st = NNPERF_OK;
    int depth = 0, docs = 0;
    long events = 0;
    for (;;) {
        yaml_event_t e;
        if (!yaml_parser_parse(&p, &e)) {
            st = yaml_fail(&p, file, text, d);
            break;
        }
        unsigned long line = (unsigned long)e.start_mark.line + 1;
        yaml_event_type_t t = e.type;
        const yaml_char_t *tag = t == YAML_SCALAR_EVENT           ? e.data.scalar.tag
                                 : t == YAML_SEQUENCE_START_EVENT ? e.data.sequence_start.tag
                                 : t == YAML_MAPPING_START_EVENT  ? e.data.mapping_start.tag
                                                                  : NULL;
        if (tag) { /* "!!str 16T": a tag would change what a value means; the reader reads values by key */
            char shown[64];
            snprintf(shown, sizeof shown, "%s", (const char *)tag);
            yaml_event_delete(&e);
            st = diag_set(d, NNPERF_E_INVALID,
                          "%s:%lu: yaml tags (%s) are not supported: write the value without one", file, line,
                          shown);
            break;
        }
        yaml_event_delete(&e);
        if (++events > HW_YAML_MAX_EVENTS) {
            st = diag_set(d, NNPERF_E_LIMIT, "%s:%lu: more than %d yaml nodes", file, line,
                          HW_YAML_MAX_EVENTS);
            break;
        }
        if (t == YAML_SEQUENCE_START_EVENT || t == YAML_MAPPING_START_EVENT) {
            if (++depth > HW_YAML_MAX_DEPTH) {
                st = diag_set(d, NNPERF_E_LIMIT, "%s:%lu: nested deeper than %d levels", file, line,
                              HW_YAML_MAX_DEPTH);
                break;
            }
        } else if (t == YAML_SEQUENCE_END_EVENT || t == YAML_MAPPING_END_EVENT) {
            depth--;
        } else if (t == YAML_ALIAS_EVENT) {
            st = diag_set(d, NNPERF_E_INVALID, "%s:%lu: yaml aliases (*name) are not supported", file, line);
            break;
        } else if (t == YAML_DOCUMENT_START_EVENT) {
            if (++docs > 1) {
                st = diag_set(d, NNPERF_E_INVALID, "%s:%lu: more than one yaml document", file, line);
                break;
            }
        } else if (t == YAML_STREAM_END_EVENT) {
            break;
        }
    }
    yaml_parser_delete(&p);
    return st;
}

/* The chain of descriptions being loaded (a file, its base, the base's base ...): identities (a real path or
 * "preset:NAME") to refuse cycles, and file names for the message. */
struct chain {
    int n;
    char id[HW_MAX_BASE + 1][PATH_MAX];
    char shown[HW_MAX_BASE + 1][256];
};

static enum nnperf_status load_doc(const char *text, size_t len, const char *file, const char *id,
                                   unsigned flags, struct hw_desc *hw, struct chain *ch, struct diag *d);

/* The description `base:` names (a preset, or a file relative to this file's folder) loaded into c->hw. */
static int load_base(struct ld *c, const yaml_node_t *v, unsigned flags, struct chain *ch)
{
    char name[1024], id[PATH_MAX], file[PATH_MAX + 32];
    if (!get_str(c, v, name, sizeof name)) return 0;
    size_t plen = 0;
    const char *preset = hw_preset_yaml(name, &plen);
    if (preset) {
        snprintf(id, sizeof id, "preset:%s", name);
        snprintf(file, sizeof file, "presets/%s.yaml", name);
    } else if (flags & HW_LOAD_NO_FILES) {
        lerr(c, NNPERF_E_INVALID, line_of(v), "'%s' is not a built-in preset (here a base must be one)",
             name);
        return 0;
    } else {
        const char *slash = strrchr(c->file, '/');
        if (name[0] == '/' || !slash)
            snprintf(file, sizeof file, "%s", name);
        else
            snprintf(file, sizeof file, "%.*s/%s", (int)(slash - c->file), c->file, name);
        if (!realpath(file, id)) {
            char why[128];
            hw_errno_text(errno, why, sizeof why);
            lerr(c, NNPERF_E_IO, line_of(v),
                 "cannot read '%s': %s (not a preset either: see 'nnperf hw list')", file, why);
            return 0;
        }
    }
    for (int i = 0; i < ch->n; i++) {
        if (strcmp(ch->id[i], id)) continue;
        char cycle[700] = "";
        size_t used = 0;
        for (int j = i; j < ch->n && used < sizeof cycle; j++)
            used += (size_t)snprintf(cycle + used, sizeof cycle - used, "%s -> ", ch->shown[j]);
        lerr(c, NNPERF_E_INVALID, line_of(v), "bases form a cycle: %s%s", cycle, file);
        return 0;
    }
    if (ch->n > HW_MAX_BASE) {
        lerr(c, NNPERF_E_LIMIT, line_of(v), "bases nested deeper than %d levels", HW_MAX_BASE);
        return 0;
    }
    enum nnperf_status st;
    if (preset) {
        st = load_doc(preset, plen, file, id, flags | HW_LOAD_NO_FILES | HW_LOAD_PRESET, c->hw, ch, c->d);
    } else {
        char *buf = NULL;
        size_t n = 0;
        st = hw_read_file(file, &buf, &n, c->d);
        if (st == NNPERF_OK) st = load_doc(buf, n, file, id, flags & ~HW_LOAD_PRESET, c->hw, ch, c->d);
        free(buf);
    }
    if (st != NNPERF_OK) diag_prefix(c->d, "%s:%lu: base: ", c->file, line_of(v));
    return st == NNPERF_OK;
}

/* Whether this file gave exactly this key (a value, a list, a map entry: not a section or a whole map). */
static int set_here(const struct ld *c, const char *path)
{
    int entry;
    const struct hw_key *k = hw_key_resolve(path, &entry);
    if (!k) return 0;
    if (entry >= 0) return (c->entries[k - hw_keys] >> entry) & 1u;
    return k->type != HW_T_SECTION && !k->map && c->line[k - hw_keys] != 0;
}

/* The assumption list cut to its first n entries: the slots past it hold nothing, so no entry dropped from it is
 * left behind there (a description written and read again is the same struct). */
static void keep_assumptions(struct hw_desc *hw, int n)
{
    if (n < HW_MAX_ASSUME) memset(hw->assume[n], 0, (size_t)(HW_MAX_ASSUME - n) * HW_MAX_KEY);
    hw->n_assume = n;
}

/* A file on a base that sets a key the prediction reads (anything but the keys of the table flagged
 * HW_F_IDENTITY: format, base, name, description, source, assumptions) and gives no validation of its own describes
 * a platform the base's test rows did not validate: the base's band is dropped (reports say "not validated"), as
 * --set drops it. A file that only renames its base, or gives its own validation (presets/runtimes/), keeps what it
 * has. The LLM band (llm_validation, `nnperf llm`) is dropped or kept the same way, by the file's own
 * llm_validation. */
static void drop_base_band(struct ld *c)
{
    int changed = 0, own = 0, own_llm = 0;
    for (int i = 0; i < hw_n_keys && i < HW_KEY_CAP; i++) {
        if (!c->line[i]) continue;
        unsigned f = hw_keys[i].flags;
        own |= !!(f & HW_F_BAND);
        own_llm |= !!(f & HW_F_LLM_BAND);
        changed |= !(f & (HW_F_IDENTITY | HW_F_BAND | HW_F_LLM_BAND));
    }
    if (changed) hw_drop_bands(c->hw, !own, !own_llm);
}

/* A file on a base: the base's assumptions hold for the keys this file does not set, plus the file's own. */
static int merge_assumptions(struct ld *c, const struct hw_desc *base)
{
    struct hw_desc *hw = c->hw;
    int n =
        c->line[hw_key_find("assumptions") - hw_keys] ? hw->n_assume : 0; /* the file's own list, if given */
    for (int i = 0; i < base->n_assume; i++) {
        const char *a = base->assume[i];
        int dup = set_here(c, a);
        for (int j = 0; !dup && j < n; j++) dup = !strcmp(hw->assume[j], a);
        if (dup) continue;
        if (n == HW_MAX_ASSUME) {
            snprintf(c->path, sizeof c->path, "assumptions");
            lerr(c, NNPERF_E_LIMIT, c->l_root, "more than %d with the base's", HW_MAX_ASSUME);
            return 0;
        }
        memcpy(hw->assume[n++], a, HW_MAX_KEY);
    }
    keep_assumptions(hw, n);
    return 1;
}

static enum nnperf_status load_doc(const char *text, size_t len, const char *file, const char *id,
                                   unsigned flags, struct hw_desc *hw, struct chain *ch, struct diag *d)
{
    if (!text) return diag_set(d, NNPERF_E_USAGE, "%s: no text", file);
    if (len > HW_YAML_MAX_BYTES)
        return diag_set(d, NNPERF_E_LIMIT, "%s: file is %zu bytes, at most %u allowed", file, len,
                        HW_YAML_MAX_BYTES);
    const char *nul = memchr(text, 0, len);
    if (nul) {
        unsigned long line = 1;
        for (const char *q = text; q < nul; q++) line += *q == '\n';
        return diag_set(d, NNPERF_E_INVALID, "%s:%lu: the file contains a nul byte", file, line);
    }
    enum nnperf_status st = flags & HW_LOAD_PRESET ? NNPERF_OK : prescan(text, len, file, d);
    if (st != NNPERF_OK) return st;

    yaml_parser_t p;
    yaml_document_t doc;
    if (!yaml_parser_initialize(&p)) return diag_set(d, NNPERF_E_NOMEM, "%s: out of memory", file);
    yaml_parser_set_input_string(&p, (const unsigned char *)text, len);
    if (!yaml_parser_load(&p, &doc)) {
        st = yaml_fail(&p, file, text, d);
        yaml_parser_delete(&p);
        return st;
    }
    struct ld *c = calloc(1, sizeof *c);
    struct hw_desc *base = NULL;
    yaml_node_t *root = yaml_document_get_root_node(&doc);
    if (!c) {
        st = diag_set(d, NNPERF_E_NOMEM, "%s: out of memory", file);
    } else if (!root) {
        st = diag_set(d, NNPERF_E_INVALID,
                      "%s:1: empty file (a platform needs at least 'name' and 'memory.ddr_bandwidth')", file);
    } else {
        c->file = file;
        c->doc = &doc;
        c->hw = hw;
        c->d = d;
        c->l_root = line_of(root);
        int ok = root->type == YAML_MAPPING_NODE;
        if (!ok)
            lerr(c, NNPERF_E_INVALID, line_of(root), "expected a mapping at the top level, got %s",
                 kind(root));
        const yaml_node_t *bv = NULL;
        for (yaml_node_pair_t *q = ok ? root->data.mapping.pairs.start : NULL;
             q && q < root->data.mapping.pairs.top; q++) {
            yaml_node_t *kn = node(c, q->key);
            if (kn && kn->type == YAML_SCALAR_NODE && !strcmp((const char *)kn->data.scalar.value, "base"))
                bv = node(c, q->value);
        }
        if (id) {
            snprintf(ch->id[ch->n], sizeof ch->id[0], "%s", id);
            snprintf(ch->shown[ch->n], sizeof ch->shown[0], "%s", file);
            ch->n++;
        }
        if (ok && bv) {
            struct mark m = push(c, "base");
            ok = load_base(c, bv, flags, ch) && (base = malloc(sizeof *base)) != NULL;
            if (ok) *base = *hw;
            if (!ok && !d->status) diag_set(d, NNPERF_E_NOMEM, "%s: out of memory", file);
            pop(c, m);
            c->has_base = 1;
        } else {
            hw_init(hw);
        }
        ok = ok && read_map(c, root, NULL, (char *)hw) && check_loaded(c) &&
             (!base || merge_assumptions(c, base));
        if (ok && base) drop_base_band(c);
        if (id) ch->n--;
        if (!ok) st = d && d->status ? d->status : NNPERF_E_INVALID;
    }
    free(base);
    free(c);
    yaml_document_delete(&doc);
    yaml_parser_delete(&p);
    return st;
}

enum nnperf_status hw_load_text(const char *text, size_t len, const char *file, const char *id,
                                unsigned flags, struct hw_desc *hw, struct diag *d)
{
    if (!file) file = "<platform>";
    struct chain *ch = malloc(sizeof *ch); /* its entries are written as the chain grows */
    if (ch) ch->n = 0;
    enum nnperf_status st =
        ch ? load_doc(text, len, file, id, flags, hw, ch, d) /* from hw_init or its base */
           : diag_set(d, NNPERF_E_NOMEM, "%s: out of memory", file);
    free(ch);
    if (st == NNPERF_OK && !(flags & HW_LOAD_PRESET)) st = hw_validate(hw, file, d);
    if (st != NNPERF_OK) hw_init(hw); /* no half-filled description on error */
    return st;
}

enum nnperf_status hw_load_yaml(const char *text, size_t len, const char *file, struct hw_desc *hw,
                                struct diag *d)
{
    return hw_load_text(text, len, file, NULL, 0, hw, d);
}

enum nnperf_status hw_set(struct hw_desc *hw, const char *key, const char *value, struct diag *d)
{
    int entry;
    const struct hw_key *k = hw_key_resolve(key, &entry);
    if (!k)
        return diag_set(d, NNPERF_E_USAGE,
                        "--set %.100s: not a platform key (docs/platform-format.md lists them)",
                        key ? key : "");
    if (!value) return diag_set(d, NNPERF_E_USAGE, "--set %s: no value", key);
    if (!hw_key_live(hw, k)) {
        const struct hw_key *up = hw_key_parent(k);
        while (up && !(up->flags & HW_F_PRESENCE)) up = hw_key_parent(up);
        return diag_set(d, NNPERF_E_USAGE,
                        "--set %s: the platform has no '%s' (set the whole section: %s={...})", key,
                        up ? up->path : "?", up ? up->path : "?");
    }
    yaml_parser_t p;
    yaml_document_t doc;
    if (!yaml_parser_initialize(&p)) return diag_set(d, NNPERF_E_NOMEM, "out of memory");
    size_t vlen = strlen(value);
    yaml_parser_set_input_string(&p, (const unsigned char *)value, vlen);
    enum nnperf_status st = vlen > 4096
                                ? diag_set(d, NNPERF_E_LIMIT, "--set %s: value longer than 4096 bytes", key)
                                : prescan(value, vlen, "--set", d);
    if (st != NNPERF_OK) {
        yaml_parser_delete(&p);
        return st;
    }
    if (!yaml_parser_load(&p, &doc)) {
        st = yaml_fail(&p, "--set", value, d);
        yaml_parser_delete(&p);
        return st;
    }
    struct ld *c = calloc(1, sizeof *c);
    struct hw_desc *keep = malloc(sizeof *keep);
    yaml_node_t *root = yaml_document_get_root_node(&doc);
    if (!c || !keep) {
        st = diag_set(d, NNPERF_E_NOMEM, "out of memory");
    } else if (!root) {
        st = diag_set(d, NNPERF_E_USAGE, "--set %s: no value", key);
    } else {
        *keep = *hw;
        c->file = "--set";
        c->no_lines = 1;
        c->doc = &doc;
        c->hw = hw;
        c->d = d;
        snprintf(c->path, sizeof c->path, "%s", key);
        snprintf(c->spath, sizeof c->spath, "%s", k->path);
        int ok;
        double x;
        if (entry >= 0) {
            ok = get_num(c, root, k, &x);
            if (ok) memcpy((char *)hw + k->off + (size_t)entry * sizeof x, &x, sizeof x);
        } else {
            ok = read_value(c, k, root, (char *)hw);
        }
        st = ok ? hw_validate(hw, "--set", d) : d->status ? d->status : NNPERF_E_INVALID;
        if (st ==
            NNPERF_OK) { /* a value given on the command line is the user's, not the description's guess */
            int n = 0;
            for (int i = 0; i < hw->n_assume; i++)
                if (strcmp(hw->assume[i], key)) memmove(hw->assume[n++], hw->assume[i], HW_MAX_KEY);
            keep_assumptions(hw, n);
        } else {
            *hw = *keep;
        }
    }
    free(keep);
    free(c);
    yaml_document_delete(&doc);
    yaml_parser_delete(&p);
    return st;
}
