/* yaml.c - the platform YAML reader (format version 1, described in hw.h and docs/platform-format.md): libyaml's
 * event API first checks syntax, nesting depth, node count and aliases; its document API then builds the tree that a
 * strict schema walk turns into a struct hw_desc. Every error names the file, the line and the dotted key:
 * "zcu102.yaml:14: compute.efficiency.convv: unknown key (known: default, conv, gemm, ...)". */
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include <yaml.h>

#include "hw.h"

#define HW_YAML_MAX_BYTES  (1u << 20) /* a platform file is a few KiB; anything past 1 MiB is refused */
#define HW_YAML_MAX_DEPTH  16         /* the schema is 4 levels deep */
#define HW_YAML_MAX_EVENTS 100000

enum rng { R_ANY, R_NONNEG, R_POS, R_EFF };

struct ld {
    const char *file;
    yaml_document_t *doc;
    struct hw_desc *hw;
    struct diag *d;
    char path[256]; /* dotted key of the node being read */
    /* lines of keys the final checks point at (0 = absent) */
    unsigned long l_root, l_name, l_compute, l_peak, l_dtype, l_memory, l_ddr, l_fb, l_fb_name, l_fb_peak,
        l_fb_bw;
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

/* Appends ".seg" (or "seg" at the top) to the path; returns the old length for pop(). */
static size_t push(struct ld *c, const char *seg)
{
    size_t old = strlen(c->path);
    snprintf(c->path + old, sizeof c->path - old, "%s%s", old ? "." : "", seg);
    return old;
}

static size_t push_idx(struct ld *c, size_t i)
{
    size_t old = strlen(c->path);
    snprintf(c->path + old, sizeof c->path - old, "[%zu]", i);
    return old;
}

static void pop(struct ld *c, size_t old)
{
    c->path[old] = 0;
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

static int get_str(struct ld *c, const yaml_node_t *n, char *dst, size_t cap)
{
    if (!want(c, n, YAML_SCALAR_NODE, "a string")) return 0;
    size_t len = n->data.scalar.length;
    if (memchr(n->data.scalar.value, 0, len)) {
        lerr(c, NNPERF_E_INVALID, line_of(n), "string contains a nul byte");
        return 0;
    }
    if (len >= cap) {
        lerr(c, NNPERF_E_LIMIT, line_of(n), "string is %zu bytes long, at most %zu allowed", len, cap - 1);
        return 0;
    }
    memcpy(dst, n->data.scalar.value, len);
    dst[len] = 0;
    return 1;
}

static int check_range(struct ld *c, const yaml_node_t *n, enum rng r, double v)
{
    char b[64];
    const char *why = NULL;
    if (r == R_NONNEG && v < 0)
        why = "must not be negative";
    else if (r == R_POS && !(v > 0))
        why = "must be positive";
    else if (r == R_EFF && !(v > 0 && v <= 1))
        why = "must be in (0, 1]";
    if (!why) return 1;
    lerr(c, NNPERF_E_INVALID, line_of(n), "%s, got '%s'", why, shown(n, b, sizeof b));
    return 0;
}

static int get_num(struct ld *c, const yaml_node_t *n, enum rng r, double *out)
{
    char b[64];
    if (!want(c, n, YAML_SCALAR_NODE, "a number")) return 0;
    if (n->data.scalar.length >= sizeof b || !hw_parse_number((const char *)n->data.scalar.value, out)) {
        lerr(c, NNPERF_E_INVALID, line_of(n), "expected a number, got '%s'", shown(n, b, sizeof b));
        return 0;
    }
    return check_range(c, n, r, *out);
}

static int get_int(struct ld *c, const yaml_node_t *n, int64_t lo, int64_t hi, int64_t *out)
{
    char b[64];
    double v;
    if (!get_num(c, n, R_ANY, &v)) return 0;
    if (v != floor(v)) {
        lerr(c, NNPERF_E_INVALID, line_of(n), "expected an integer, got '%s'", shown(n, b, sizeof b));
        return 0;
    }
    if (v < (double)lo || v > (double)hi) {
        lerr(c, NNPERF_E_INVALID, line_of(n), "must be between %lld and %lld, got '%s'", (long long)lo,
             (long long)hi, shown(n, b, sizeof b));
        return 0;
    }
    *out = (int64_t)v;
    return 1;
}

static int get_bool(struct ld *c, const yaml_node_t *n, int *out)
{
    char b[64];
    if (!want(c, n, YAML_SCALAR_NODE, "true or false")) return 0;
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

/* Looks the pair's key up in known[0..n); first[] holds the line each key was first seen on (0 = not yet). On
 * success pushes the key onto the path (pop with *mark) and returns its index; -1 on error. */
static int key_of(struct ld *c, const yaml_node_pair_t *p, const char *const *known, int n,
                  unsigned long *first, size_t *mark)
{
    yaml_node_t *k = node(c, p->key);
    if (!k || k->type != YAML_SCALAR_NODE) {
        lerr(c, NNPERF_E_INVALID, line_of(k), "keys must be strings, got %s", k ? kind(k) : "nothing");
        return -1;
    }
    const char *s = (const char *)k->data.scalar.value;
    char seg[80];
    snprintf(seg, sizeof seg, "%.64s%s", s, k->data.scalar.length > 64 ? "..." : "");
    *mark = push(c, seg);
    for (int i = 0; i < n; i++) {
        if (strcmp(s, known[i])) continue;
        if (first[i]) {
            lerr(c, NNPERF_E_INVALID, line_of(k), "duplicate key (first given at line %lu)", first[i]);
            return -1;
        }
        first[i] = line_of(k);
        return i;
    }
    char list[300] = "";
    size_t used = 0;
    for (int i = 0; i < n && used < sizeof list; i++)
        used += (size_t)snprintf(list + used, sizeof list - used, "%s%s", i ? ", " : "", known[i]);
    lerr(c, NNPERF_E_INVALID, line_of(k), "unknown key (known: %s)", list);
    return -1;
}

static int op_known(const char *name)
{
    for (int i = 0; i < OPID_COUNT; i++)
        if (!strcmp(op_table[i].name, name)) return 1;
    return 0;
}

/* An operator name inside a list: a string naming a registered operator. */
static int get_op(struct ld *c, const yaml_node_t *n, char *dst)
{
    if (!get_str(c, n, dst, HW_MAX_NAME)) return 0;
    if (!op_known(dst)) {
        lerr(c, NNPERF_E_INVALID, line_of(n), "unknown operator '%s' (names as in 'nnperf ops')", dst);
        return 0;
    }
    return 1;
}

static int get_oplist(struct ld *c, const yaml_node_t *n, char (*ops)[HW_MAX_NAME], int *count)
{
    if (!want(c, n, YAML_SEQUENCE_NODE, "a list of operator names")) return 0;
    yaml_node_item_t *it = n->data.sequence.items.start;
    size_t cnt = (size_t)(n->data.sequence.items.top - it);
    if (!cnt) {
        lerr(c, NNPERF_E_INVALID, line_of(n), "empty list (leave the key out instead)");
        return 0;
    }
    if (cnt > HW_MAX_OPS) {
        lerr(c, NNPERF_E_LIMIT, line_of(n), "%zu operators listed, at most %d allowed", cnt, HW_MAX_OPS);
        return 0;
    }
    for (size_t i = 0; i < cnt; i++) {
        yaml_node_t *v = node(c, it[i]);
        size_t m = push_idx(c, i);
        if (!get_op(c, v, ops[i])) return 0;
        for (size_t j = 0; j < i; j++)
            if (!strcmp(ops[j], ops[i])) {
                lerr(c, NNPERF_E_INVALID, line_of(v), "'%s' is listed twice", ops[i]);
                return 0;
            }
        pop(c, m);
    }
    *count = (int)cnt;
    return 1;
}

static const char *const dtype_keys[HW_NDT] = {"int4", "int8", "fp16", "bf16", "fp32"};

static int read_peaks(struct ld *c, const yaml_node_t *n, double *peaks)
{
    if (!want(c, n, YAML_MAPPING_NODE, "a mapping of dtype to ops/s")) return 0;
    unsigned long first[HW_NDT] = {0};
    for (yaml_node_pair_t *p = n->data.mapping.pairs.start; p < n->data.mapping.pairs.top; p++) {
        size_t m;
        int k = key_of(c, p, dtype_keys, HW_NDT, first, &m);
        if (k < 0 || !get_num(c, node(c, p->value), R_NONNEG, &peaks[k])) return 0;
        pop(c, m);
    }
    return 1;
}

static int read_efficiency(struct ld *c, const yaml_node_t *n)
{
    const char *keys[OC_COUNT + 1];
    unsigned long first[OC_COUNT + 1] = {0};
    keys[0] = "default";
    for (int i = 0; i < OC_COUNT; i++) keys[i + 1] = op_class_name(i);
    if (!want(c, n, YAML_MAPPING_NODE, "a mapping of operator class to efficiency")) return 0;
    for (yaml_node_pair_t *p = n->data.mapping.pairs.start; p < n->data.mapping.pairs.top; p++) {
        size_t m;
        int k = key_of(c, p, keys, OC_COUNT + 1, first, &m);
        if (k < 0 || !get_num(c, node(c, p->value), R_EFF, k ? &c->hw->eff[k - 1] : &c->hw->eff_default))
            return 0;
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
    for (size_t i = 0; i < cnt; i++) {
        yaml_node_t *v = node(c, it[i]);
        char name[HW_MAX_NAME];
        size_t m = push_idx(c, i);
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

static int read_alignment(struct ld *c, const yaml_node_t *n)
{
    static const char *const keys[] = {"classes", "n", "c", "h", "w", "pow2"};
    if (!want(c, n, YAML_SEQUENCE_NODE, "a list of alignment rules")) return 0;
    yaml_node_item_t *it = n->data.sequence.items.start;
    size_t cnt = (size_t)(n->data.sequence.items.top - it);
    if (cnt > HW_MAX_ALIGN) {
        lerr(c, NNPERF_E_LIMIT, line_of(n), "%zu rules, at most %d allowed", cnt, HW_MAX_ALIGN);
        return 0;
    }
    for (size_t i = 0; i < cnt; i++) {
        yaml_node_t *e = node(c, it[i]);
        struct hw_align *a = &c->hw->align[i];
        size_t m = push_idx(c, i);
        if (!want(c, e, YAML_MAPPING_NODE, "a mapping {classes: [...], n, c, h, w, pow2}")) return 0;
        unsigned long first[6] = {0};
        for (yaml_node_pair_t *p = e->data.mapping.pairs.start; p < e->data.mapping.pairs.top; p++) {
            size_t m2;
            int k = key_of(c, p, keys, 6, first, &m2);
            if (k < 0) return 0;
            yaml_node_t *v = node(c, p->value);
            int64_t *dim[] = {NULL, &a->n, &a->c, &a->h, &a->w};
            if (k == 0 && !read_classes(c, v, &a->class_mask)) return 0;
            if (k >= 1 && k <= 4 && !get_int(c, v, 0, 1 << 20, dim[k])) return 0;
            if (k == 5 && !get_bool(c, v, &a->pow2)) return 0;
            pop(c, m2);
        }
        if (!first[0]) {
            push(c, "classes");
            lerr(c, NNPERF_E_INVALID, line_of(e), "required key missing");
            return 0;
        }
        if (!first[1] && !first[2] && !first[3] && !first[4] && !first[5]) {
            lerr(c, NNPERF_E_INVALID, line_of(e), "rule sets nothing (give n, c, h, w or pow2)");
            return 0;
        }
        pop(c, m);
    }
    c->hw->n_align = (int)cnt;
    return 1;
}

static int read_fusion(struct ld *c, const yaml_node_t *n)
{
    if (!want(c, n, YAML_SEQUENCE_NODE, "a list of operator sequences")) return 0;
    yaml_node_item_t *it = n->data.sequence.items.start;
    size_t cnt = (size_t)(n->data.sequence.items.top - it);
    if (cnt > HW_MAX_FUSION) {
        lerr(c, NNPERF_E_LIMIT, line_of(n), "%zu patterns, at most %d allowed", cnt, HW_MAX_FUSION);
        return 0;
    }
    for (size_t i = 0; i < cnt; i++) {
        yaml_node_t *e = node(c, it[i]);
        struct hw_pattern *pat = &c->hw->fusion[i];
        size_t m = push_idx(c, i);
        if (!want(c, e, YAML_SEQUENCE_NODE, "a list of operator names")) return 0;
        yaml_node_item_t *jt = e->data.sequence.items.start;
        size_t len = (size_t)(e->data.sequence.items.top - jt);
        if (len < 2 || len > HW_MAX_PATTERN) {
            lerr(c, NNPERF_E_INVALID, line_of(e), "a pattern needs 2 to %d operators, got %zu",
                 HW_MAX_PATTERN, len);
            return 0;
        }
        for (size_t j = 0; j < len; j++) {
            size_t m2 = push_idx(c, j);
            if (!get_op(c, node(c, jt[j]), pat->ops[j])) return 0;
            pop(c, m2);
        }
        pat->len = (int)len;
        pop(c, m);
    }
    c->hw->n_fusion = (int)cnt;
    return 1;
}

static int read_compute(struct ld *c, const yaml_node_t *n)
{
    static const char *const keys[] = {"cores",       "peak_ops",   "default_dtype",
                                       "vector_ops",  "efficiency", "supported",
                                       "unsupported", "alignment",  "fusion"};
    enum { K_N = (int)(sizeof keys / sizeof keys[0]) };
    struct hw_desc *hw = c->hw;
    unsigned long first[K_N] = {0};
    if (!want(c, n, YAML_MAPPING_NODE, "a mapping")) return 0;
    for (yaml_node_pair_t *p = n->data.mapping.pairs.start; p < n->data.mapping.pairs.top; p++) {
        size_t m;
        int k = key_of(c, p, keys, K_N, first, &m);
        if (k < 0) return 0;
        yaml_node_t *v = node(c, p->value);
        int64_t iv;
        char dt[HW_MAX_NAME];
        int ok = 1;
        switch (k) {
        case 0:
            if ((ok = get_int(c, v, 1, 4096, &iv))) hw->cores = (int)iv;
            break;
        case 1:
            c->l_peak = line_of(node(c, p->key));
            ok = read_peaks(c, v, hw->peak_ops);
            break;
        case 2:
            c->l_dtype = line_of(v);
            ok = get_str(c, v, dt, sizeof dt);
            if (ok && (hw->default_dtype = hw_dtype_from_name(dt)) < 0) {
                lerr(c, NNPERF_E_INVALID, line_of(v),
                     "unknown dtype '%s' (known: int4, int8, fp16, bf16, fp32)", dt);
                ok = 0;
            }
            break;
        case 3: ok = get_num(c, v, R_NONNEG, &hw->vector_ops); break;
        case 4: ok = read_efficiency(c, v); break;
        case 5: ok = get_oplist(c, v, hw->supported, &hw->n_supported); break;
        case 6: ok = get_oplist(c, v, hw->unsupported, &hw->n_unsupported); break;
        case 7: ok = read_alignment(c, v); break;
        default: ok = read_fusion(c, v); break;
        }
        if (!ok) return 0;
        pop(c, m);
    }
    return 1;
}

static int read_memory(struct ld *c, const yaml_node_t *n)
{
    static const char *const keys[] = {"sram_bytes",     "sram_bandwidth", "ddr_bandwidth",
                                       "ddr_efficiency", "overlap",        "ddr_bytes"};
    struct hw_desc *hw = c->hw;
    unsigned long first[6] = {0};
    if (!want(c, n, YAML_MAPPING_NODE, "a mapping")) return 0;
    for (yaml_node_pair_t *p = n->data.mapping.pairs.start; p < n->data.mapping.pairs.top; p++) {
        size_t m;
        int k = key_of(c, p, keys, 6, first, &m);
        if (k < 0) return 0;
        yaml_node_t *v = node(c, p->value);
        int ok;
        switch (k) {
        case 0: ok = get_num(c, v, R_NONNEG, &hw->sram_bytes); break;
        case 1: ok = get_num(c, v, R_NONNEG, &hw->sram_bw); break;
        case 2:
            c->l_ddr = line_of(v);
            ok = get_num(c, v, R_POS, &hw->ddr_bw);
            break;
        case 3: ok = get_num(c, v, R_EFF, &hw->ddr_eff); break;
        case 5: ok = get_num(c, v, R_NONNEG, &hw->ddr_bytes); break;
        default: ok = get_bool(c, v, &hw->overlap); break;
        }
        if (!ok) return 0;
        pop(c, m);
    }
    return 1;
}

static int read_fallback(struct ld *c, const yaml_node_t *n)
{
    static const char *const keys[] = {"name",       "peak_ops",           "bandwidth",
                                       "efficiency", "transfer_bandwidth", "quantize_ops_per_element",
                                       "overhead_s"};
    struct hw_fallback *fb = &c->hw->fb;
    unsigned long first[7] = {0};
    if (!want(c, n, YAML_MAPPING_NODE, "a mapping")) return 0;
    fb->present = 1;
    for (yaml_node_pair_t *p = n->data.mapping.pairs.start; p < n->data.mapping.pairs.top; p++) {
        size_t m;
        int k = key_of(c, p, keys, 7, first, &m);
        if (k < 0) return 0;
        yaml_node_t *v = node(c, p->value);
        int ok;
        switch (k) {
        case 0:
            c->l_fb_name = line_of(v);
            ok = get_str(c, v, fb->name, sizeof fb->name);
            break;
        case 1:
            c->l_fb_peak = line_of(v);
            ok = get_num(c, v, R_POS, &fb->peak_ops);
            break;
        case 2:
            c->l_fb_bw = line_of(v);
            ok = get_num(c, v, R_POS, &fb->bandwidth);
            break;
        case 3: ok = get_num(c, v, R_EFF, &fb->efficiency); break;
        case 4: ok = get_num(c, v, R_NONNEG, &fb->transfer_bw); break;
        case 5: ok = get_num(c, v, R_NONNEG, &fb->quant_ops_per_elem); break;
        default: ok = get_num(c, v, R_NONNEG, &fb->overhead_s); break;
        }
        if (!ok) return 0;
        pop(c, m);
    }
    return 1;
}

static int read_overhead(struct ld *c, const yaml_node_t *n)
{
    static const char *const keys[] = {"per_layer_s"};
    unsigned long first[1] = {0};
    if (!want(c, n, YAML_MAPPING_NODE, "a mapping")) return 0;
    for (yaml_node_pair_t *p = n->data.mapping.pairs.start; p < n->data.mapping.pairs.top; p++) {
        size_t m;
        if (key_of(c, p, keys, 1, first, &m) < 0) return 0;
        if (!get_num(c, node(c, p->value), R_NONNEG, &c->hw->layer_overhead_s)) return 0;
        pop(c, m);
    }
    return 1;
}

static int read_root(struct ld *c, const yaml_node_t *n)
{
    static const char *const keys[] = {"format",  "name",   "description", "source",  "frames_per_run",
                                       "compute", "memory", "fallback",    "overhead"};
    enum { K_N = (int)(sizeof keys / sizeof keys[0]) };
    struct hw_desc *hw = c->hw;
    unsigned long first[K_N] = {0};
    if (n->type != YAML_MAPPING_NODE) {
        lerr(c, NNPERF_E_INVALID, line_of(n), "expected a mapping at the top level, got %s", kind(n));
        return 0;
    }
    for (yaml_node_pair_t *p = n->data.mapping.pairs.start; p < n->data.mapping.pairs.top; p++) {
        size_t m;
        int k = key_of(c, p, keys, K_N, first, &m);
        if (k < 0) return 0;
        yaml_node_t *v = node(c, p->value);
        unsigned long kl = line_of(node(c, p->key)); /* a block mapping's value starts on the next line */
        int64_t iv = 0;
        int ok;
        switch (k) {
        case 0:
            ok = get_int(c, v, 0, 1000000, &iv);
            if (ok && iv != 1) {
                lerr(c, NNPERF_E_UNSUPPORTED, line_of(v),
                     "version %lld is not supported (this build reads 1)", (long long)iv);
                ok = 0;
            }
            break;
        case 1:
            c->l_name = line_of(v);
            ok = get_str(c, v, hw->name, sizeof hw->name);
            break;
        case 2: ok = get_str(c, v, hw->description, sizeof hw->description); break;
        case 3: ok = get_str(c, v, hw->source, sizeof hw->source); break;
        case 4:
            if ((ok = get_int(c, v, 1, 1 << 20, &iv))) hw->frames_per_run = (int)iv;
            break;
        case 5:
            c->l_compute = kl;
            ok = read_compute(c, v);
            break;
        case 6:
            c->l_memory = kl;
            ok = read_memory(c, v);
            break;
        case 7:
            c->l_fb = kl;
            ok = read_fallback(c, v);
            break;
        default: ok = read_overhead(c, v); break;
        }
        if (!ok) return 0;
        pop(c, m);
    }
    return 1;
}

/* Required keys and the checks across keys, each pointing at the most useful line. */
static int check_loaded(struct ld *c)
{
    struct hw_desc *hw = c->hw;
    c->path[0] = 0;
    if (!c->l_name) {
        push(c, "name");
        return !lerr(c, NNPERF_E_INVALID, c->l_root, "required key missing");
    }
    if (!c->l_ddr) {
        push(c, "memory.ddr_bandwidth");
        return !lerr(c, NNPERF_E_INVALID, c->l_memory ? c->l_memory : c->l_root, "required key missing");
    }
    if (c->l_fb) {
        const char *miss = !c->l_fb_name   ? "name"
                           : !c->l_fb_peak ? "peak_ops"
                           : !c->l_fb_bw   ? "bandwidth"
                                           : NULL;
        if (miss) {
            push(c, "fallback");
            push(c, miss);
            return !lerr(c, NNPERF_E_INVALID, c->l_fb, "required key missing");
        }
    }
    int any = 0;
    for (int i = 0; i < HW_NDT; i++) any |= hw->peak_ops[i] > 0;
    if (!any) {
        push(c, "compute.peak_ops");
        unsigned long l = c->l_peak ? c->l_peak : c->l_compute ? c->l_compute : c->l_root;
        return !lerr(c, NNPERF_E_INVALID, l, "no dtype has a positive peak (e.g. peak_ops: {int8: 4T})");
    }
    if (!c->l_dtype) { /* not given: the first of int8, fp16, bf16, fp32, int4 with a peak */
        hw->default_dtype = -1;
        static const int order[] = {HW_INT8, HW_FP16, HW_BF16, HW_FP32, HW_INT4};
        for (int i = 0; i < HW_NDT && hw->default_dtype < 0; i++)
            if (hw->peak_ops[order[i]] > 0) hw->default_dtype = order[i];
    } else if (!(hw->peak_ops[hw->default_dtype] > 0)) {
        push(c, "compute.default_dtype");
        return !lerr(c, NNPERF_E_INVALID, c->l_dtype, "'%s' has no peak in compute.peak_ops",
                     hw_dtype_name(hw->default_dtype));
    }
    return 1;
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
        if (!read_root(&c, root) || !check_loaded(&c)) st = d && d->status ? d->status : NNPERF_E_INVALID;
    }
    yaml_document_delete(&doc);
    yaml_parser_delete(&p);
    if (st == NNPERF_OK) st = hw_validate(hw, file, d);
    if (st != NNPERF_OK) hw_init(hw); /* no half-filled description on error */
    return st;
}
