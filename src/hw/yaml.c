/* yaml.c - the platform YAML reader (format version 1, docs/platform-format.md): libyaml's event API first checks
 * syntax, nesting depth, node count and aliases; its document API then builds the tree that a walk over the key
 * table (keys.c) turns into a struct hw_desc: each mapping key is looked up as a row, its value read by the row's type
 * and unit and checked against its range at once, so every error names the file, the line and the dotted key:
 * "zcu102.yaml:14: compute.efficiency.convv: unknown key (known: default, conv, gemm, ...)". */
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
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
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    if (c->path[0]) return diag_set(c->d, st, "%s:%lu: %s: %s", c->file, line, c->path, msg);
    return diag_set(c->d, st, "%s:%lu: %s", c->file, line, msg);
}

static void append(char *buf, size_t cap, const char *seg, int dot)
{
    size_t old = strlen(buf);
    snprintf(buf + old, cap - old, "%s%s", dot && old ? "." : "", seg);
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
    snprintf(b, sizeof b, "[%zu]", i);
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
    char what[80];
    if (self && self->map)
        snprintf(what, sizeof what, "a mapping of %s to %s",
                 self->map == HW_MAP_DTYPE ? "dtype" : "operator class",
                 self->unit == HW_U_FRACTION ? "efficiency" : hw_unit_name(self->unit));
    else
        snprintf(what, sizeof what, "a mapping");
    if (!want(c, n, YAML_MAPPING_NODE, what)) return 0;
    for (yaml_node_pair_t *p = n->data.mapping.pairs.start; p < n->data.mapping.pairs.top; p++) {
        yaml_node_t *kn = node(c, p->key);
        if (!kn || kn->type != YAML_SCALAR_NODE) {
            lerr(c, NNPERF_E_INVALID, line_of(kn), "keys must be strings, got %s", kn ? kind(kn) : "nothing");
            return 0;
        }
        const char *s = text_of(c, kn);
        if (!s) return 0;
        char seg[80];
        snprintf(seg, sizeof seg, "%.64s%s", s, kn->data.scalar.length > 64 ? "..." : "");
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
            lerr(c, NNPERF_E_INVALID, line_of(v), "unknown dtype '%s' (known: int4, int8, fp16, bf16, fp32)",
                 dt);
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
        if (!(k->flags & HW_F_REQUIRED) || hw_key_is_element(k) || !hw_key_live(hw, k) ||
            !hw_key_empty(k, hw))
            continue;
        snprintf(c->path, sizeof c->path, "%s", k->path);
        const struct hw_key *up = hw_key_parent(k);
        return !lerr(c, NNPERF_E_INVALID, up ? line_for(c, up->path) : c->l_root, "required key missing");
    }
    const struct hw_key *dk = hw_key_find("compute.default_dtype");
    if (!c->line[dk - hw_keys]) { /* not given: the first of int8, fp16, bf16, fp32, int4 with a peak */
        static const int order[] = {HW_INT8, HW_FP16, HW_BF16, HW_FP32, HW_INT4};
        for (int i = HW_NDT - 1; i >= 0; i--)
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

enum nnperf_status hw_load_yaml(const char *text, size_t len, const char *file, struct hw_desc *hw,
                                struct diag *d)
{
    if (!file) file = "<platform>";
    hw_init(hw);
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
    enum nnperf_status st = prescan(text, len, file, d);
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
    struct ld c;
    memset(&c, 0, sizeof c);
    c.file = file;
    c.doc = &doc;
    c.hw = hw;
    c.d = d;
    yaml_node_t *root = yaml_document_get_root_node(&doc);
    if (!root) {
        st = diag_set(d, NNPERF_E_INVALID,
                      "%s:1: empty file (a platform needs at least 'name' and "
                      "'memory.ddr_bandwidth')",
                      file);
    } else {
        c.l_root = line_of(root);
        int ok = root->type == YAML_MAPPING_NODE;
        if (!ok)
            lerr(&c, NNPERF_E_INVALID, line_of(root), "expected a mapping at the top level, got %s",
                 kind(root));
        if (!ok || !read_map(&c, root, NULL, (char *)hw) || !check_loaded(&c))
            st = d && d->status ? d->status : NNPERF_E_INVALID;
    }
    yaml_document_delete(&doc);
    yaml_parser_delete(&p);
    if (st == NNPERF_OK) st = hw_validate(hw, file, d);
    if (st != NNPERF_OK) hw_init(hw); /* no half-filled description on error */
    return st;
}
