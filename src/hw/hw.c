/* hw.c - platform descriptions: defaults, dtype names, the number parser (SI/IEC/time suffixes), range and
 * consistency checks, the YAML writer (round-trips through hw_load_yaml in yaml.c), the built-in presets
 * (presets/NAME.yaml embedded at build time, see cmake/embed.cmake) and resolving a name or a path. */
#define _XOPEN_SOURCE 700 /* realpath */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <math.h>
#include <stddef.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "../core/yamlw.h"
#include "keys.h"
#include "presets.h"

#define HW_FILE_MAX_BYTES (1u << 20)

static const char *const dtype_names[HW_NDT] = {"int4", "int8", "fp16", "bf16", "fp32", "fp8"};
static const int dtype_bytes_x2[HW_NDT] = {1, 2, 4, 4, 8, 2};

const char *hw_dtype_name(int dt)
{
    return dt >= 0 && dt < HW_NDT ? dtype_names[dt] : "?";
}

int hw_dtype_from_name(const char *s)
{
    for (int i = 0; s && i < HW_NDT; i++)
        if (!strcmp(s, dtype_names[i])) return i;
    /* the two fp8 encodings (OCP 8-bit floating point: E4M3 for weights and activations, E5M2 for gradients)
     * compute at the same tensor-core rate */
    static const char *const fp8[] = {"fp8_e4m3", "fp8_e5m2", "e4m3", "e5m2"};
    for (size_t i = 0; s && i < sizeof fp8 / sizeof fp8[0]; i++)
        if (!strcmp(s, fp8[i])) return HW_FP8;
    return -1;
}

int hw_dtype_bytes_x2(int dt)
{
    return dt >= 0 && dt < HW_NDT ? dtype_bytes_x2[dt] : 0;
}

void hw_init(struct hw_desc *hw)
{
    memset(hw, 0, sizeof *hw);
    for (int i = 0; i < hw_n_keys; i++) {
        const struct hw_key *k = &hw_keys[i];
        if (k->def == 0 || strstr(k->path, "[]")) continue;
        char *p = (char *)hw + k->off;
        if (k->type == HW_T_NUM)
            for (int e = 0; e < (k->map ? hw_key_map_size(k) : 1); e++) {
                double v = k->def;
                memcpy(p + (size_t)e * sizeof v, &v, sizeof v);
            }
        else if (k->type == HW_T_INT || k->type == HW_T_BOOL || k->type == HW_T_DTYPE) {
            int v = (int)k->def;
            memcpy(p, &v, sizeof v);
        }
    }
}

static const char *const memory_models[] = {
#define MEMORY_MODEL(id, name, ...) [NNPERF_MEMORY_##id] = name,
#include "memory_models.def"
#undef MEMORY_MODEL
};

int nnperf_memory_model_count(void)
{
    return (int)(sizeof memory_models / sizeof memory_models[0]);
}

const char *nnperf_memory_model_name(int m)
{
    return m >= 0 && m < nnperf_memory_model_count() ? memory_models[m] : NULL;
}

int hw_memory_model_from_name(const char *s)
{
    if (!s[0]) return 0;
    for (int i = 1; i < nnperf_memory_model_count(); i++)
        if (!strcmp(s, memory_models[i])) return i;
    return -1;
}

double hw_eff(const struct hw_desc *hw, int klass)
{
    if (klass >= 0 && klass < OC_COUNT && hw->eff[klass] >= 0) return hw->eff[klass];
    if (klass == OC_CONV_DEPTHWISE)
        return hw_eff(hw, OC_CONV_GROUPED);                   /* depthwise: grouped conv's, then conv's */
    if (klass == OC_CONV_GROUPED) return hw_eff(hw, OC_CONV); /* grouped convs default to conv's efficiency */
    return hw->eff_default;
}

void hw_drop_bands(struct hw_desc *hw, int cnn, int llm)
{
    if (cnn) {
        hw->val_rows = 0;
        hw->val_median = hw->val_p90 = hw->val_spread = 0;
        memset(hw->val_fam, 0, sizeof hw->val_fam);
    }
    if (llm) memset(&hw->val_llm, 0, sizeof hw->val_llm);
}

int hw_tf32(const struct hw_desc *hw, int dt, int klass)
{
    unsigned s = hw->tf32_classes;
    return dt == HW_FP32 && hw->tf32_ops > 0 &&
           (!s || (klass >= 0 && klass < OC_COUNT && (s & (1u << klass))));
}

double hw_dtype_peak(const struct hw_desc *hw, int dt)
{
    if (dt < 0 || dt >= HW_NDT) return 0;
    return dt == HW_FP32 && hw->tf32_ops > hw->peak_ops[dt] ? hw->tf32_ops : hw->peak_ops[dt];
}

int hw_supports(const struct hw_desc *hw, const char *op_type)
{
    int i;
    for (i = 0; i < hw->n_unsupported; i++)
        if (!strcmp(hw->unsupported[i], op_type)) return 0;
    if (!hw->n_supported) return 1;
    for (i = 0; i < hw->n_supported; i++)
        if (!strcmp(hw->supported[i], op_type)) return 1;
    return 0;
}

int hw_is_view(const struct hw_desc *hw, const char *op_type)
{
    for (int i = 0; i < hw->n_view; i++)
        if (!strcmp(hw->view[i], op_type)) return 1;
    return 0;
}

int hw_op_kernels(const struct hw_desc *hw, const char *op_type)
{
    for (int i = 0; i < hw->n_opk; i++)
        if (!strcmp(hw->opk[i].op, op_type)) return hw->opk[i].kernels;
    return 1;
}

/* ---- validation ---- */

static enum nnperf_status verr(struct diag *d, const char *file, const char *key, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 4, 5)))
#endif
    ;
static enum nnperf_status verr(struct diag *d, const char *file, const char *key, const char *fmt, ...)
{
    char msg[300];
    va_list ap;
    va_start(ap, fmt);
    c_vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    if (file) return diag_set(d, NNPERF_E_INVALID, "%s: %s: %s", file, key, msg);
    return diag_set(d, NNPERF_E_INVALID, "%s: %s", key, msg);
}

int hw_key_is_element(const struct hw_key *k)
{
    return strstr(k->path, "[]") != NULL;
}

int hw_key_empty(const struct hw_key *k, const void *base)
{
    const char *p = (const char *)base + k->off;
    if (k->type == HW_T_NUM) {
        double v;
        memcpy(&v, p, sizeof v);
        return v == 0;
    }
    if (k->type == HW_T_TEXT || k->type == HW_T_NAME) return !p[0];
    if (k->type == HW_T_CLASSES) {
        unsigned m;
        memcpy(&m, p, sizeof m);
        return !m;
    }
    return 0;
}

/* Whether a section row is present (always, unless it has HW_F_PRESENCE and its flag is 0). */
static int hw_section_present(const struct hw_desc *hw, const struct hw_key *k)
{
    if (!(k->flags & HW_F_PRESENCE)) return 1;
    int v;
    memcpy(&v, (const char *)hw + k->off, sizeof v);
    return v != 0;
}

const char *hw_check_rules(const struct hw_desc *hw, const char **key, char *buf, size_t cap)
{
    int any = 0;
    for (int i = 0; i < HW_NDT; i++) any |= hw->peak_ops[i] > 0;
    if (!any) {
        *key = "compute.peak_ops";
        return "no dtype has a positive peak (e.g. peak_ops: {int8: 4T})";
    }
    if (hw->default_dtype >= 0 && hw->default_dtype < HW_NDT && !(hw->peak_ops[hw->default_dtype] > 0)) {
        *key = "compute.default_dtype";
        snprintf(buf, cap, "'%s' has no peak in compute.peak_ops", hw_dtype_name(hw->default_dtype));
        return buf;
    }
    if (hw_memory_model_from_name(hw->memory_model) < 0) {
        *key = "memory.model";
        int k = snprintf(buf, cap, "unknown memory model '%.*s' (", HW_MAX_NAME, hw->memory_model);
        for (int i = 1; i < nnperf_memory_model_count() && k >= 0 && (size_t)k < cap; i++)
            k += snprintf(buf + k, cap - (size_t)k, "%s%s",
                          i == 1                                 ? ""
                          : i + 1 == nnperf_memory_model_count() ? " or "
                                                                 : ", ",
                          memory_models[i]);
        if (k >= 0 && (size_t)k < cap) snprintf(buf + k, cap - (size_t)k, ")");
        return buf;
    }
    if (hw->cores_per_inference > hw->cores) {
        *key = "compute.cores_per_inference";
        snprintf(buf, cap, "%d cores per inference, but the platform has %d (compute.cores)",
                 hw->cores_per_inference, hw->cores);
        return buf;
    }
    for (int d = 0; d < HW_NDT; d++)
        if (!(hw->array.reduce[d] > 0) &&
            ((hw->array.channels[d] > 0 && hw->array.n_modes <= 0) || hw->array.pixels[d] > 0)) {
            *key = "compute.array.reduce";
            snprintf(buf, cap,
                     "%s: channels or pixels lanes given without reduce lanes (or channels without modes)",
                     hw_dtype_name(d));
            return buf;
        }
    int any_reduce = 0;
    for (int d = 0; d < HW_NDT; d++) any_reduce |= hw->array.reduce[d] > 0;
    if (hw->array.n_tiles > 0 && (!any_reduce || hw->array.n_modes > 0)) {
        *key = "compute.array.tiles";
        snprintf(buf, cap,
                 "tile shapes given without reduce lanes, or with modes (they describe the lanes apart)");
        return buf;
    }
    return NULL;
}

/* The message key of row k at map entry or list index 'bad' ("compute.efficiency.conv", "compute.fusion[2]"). */
static void key_name(const struct hw_key *k, int bad, const char *elem_key, char *out, size_t cap)
{
    const char *path = elem_key ? elem_key : k->path;
    if (bad >= 0 && k->map)
        snprintf(out, cap, "%s.%s", path, hw_key_map_name(k, bad));
    else if (bad >= 0)
        snprintf(out, cap, "%s[%d]", path, bad);
    else
        snprintf(out, cap, "%s", path);
}

/* The rows of one list element: each value, the required ones, then the list row's rule across them. */
static enum nnperf_status check_element(const struct hw_key *list, const void *elem, int index,
                                        const char *file, struct diag *d)
{
    char at[HW_MAX_KEY + 16], key[HW_MAX_KEY + 40], buf[200];
    size_t plen = strlen(list->path);
    snprintf(at, sizeof at, "%s[%d]", list->path, index);
    for (int i = 0; i < hw_n_keys; i++) {
        const struct hw_key *r = &hw_keys[i];
        if (strncmp(r->path, list->path, plen) || strncmp(r->path + plen, "[]", 2)) continue;
        const char *rest = r->path + plen + 2; /* "" or ".key" */
        if (strchr(rest + (*rest == '.'), '.') || strchr(rest, '[')) continue;
        snprintf(key, sizeof key, "%s%s", at, rest);
        int bad;
        const char *why = hw_key_check(r, elem, &bad, buf, sizeof buf);
        if (why) {
            char full[HW_MAX_KEY + 60];
            key_name(r, bad, key, full, sizeof full);
            return verr(d, file, full, "%s", why);
        }
        if ((r->flags & HW_F_REQUIRED) && hw_key_empty(r, elem))
            return verr(d, file, key, "required key missing");
    }
    const char *why = list->check ? list->check(elem) : NULL;
    return why ? verr(d, file, at, "%s", why) : NNPERF_OK;
}

enum nnperf_status hw_validate(const struct hw_desc *hw, const char *file, struct diag *d)
{
    char buf[200], key[HW_MAX_KEY + 40];
    for (int i = 0; i < hw_n_keys; i++) {
        const struct hw_key *k = &hw_keys[i];
        if (hw_key_is_element(k) || !hw_key_live(hw, k)) continue;
        int bad;
        const char *why = hw_key_check(k, hw, &bad, buf, sizeof buf);
        if (why) {
            key_name(k, bad, NULL, key, sizeof key);
            return verr(d, file, key, "%s", why);
        }
        if ((k->flags & HW_F_REQUIRED) && hw_key_empty(k, hw))
            return verr(d, file, k->path, "required key missing");
        if (k->type != HW_T_LIST) continue;
        int n;
        memcpy(&n, (const char *)hw + k->count_off, sizeof n);
        for (int e = 0; e < n; e++) {
            enum nnperf_status st =
                check_element(k, (const char *)hw + k->off + (size_t)e * k->size, e, file, d);
            if (st != NNPERF_OK) return st;
        }
    }
    const char *rkey = NULL;
    const char *why = hw_check_rules(hw, &rkey, buf, sizeof buf);
    return why ? verr(d, file, rkey, "%s", why) : NNPERF_OK;
}

/* ---- writer ---- */

/* Values are written through libyaml's emitter (core/yamlw.h), each as a one-line fragment (flow style, no line
 * width): a string is plain when it reads back unchanged, else double-quoted with the emitter's escapes, so no name
 * or description can change the structure. The keys come from the key table. */
static void put_num(struct yamlw *w, double v)
{
    char b[40];
    hw_fmt_num(v, b, sizeof b);
    yw_plain(w, b);
}

/* One value of a scalar or list row stored at base (not a map, section or LIST). */
static void put_value(struct yamlw *w, const struct hw_key *k, const void *base)
{
    const char *p = (const char *)base + k->off;
    int iv;
    switch (k->type) {
    case HW_T_NUM: {
        double v;
        memcpy(&v, p, sizeof v);
        put_num(w, v);
        break;
    }
    case HW_T_INT:
        memcpy(&iv, p, sizeof iv);
        yw_printf(w, "%d", iv);
        break;
    case HW_T_I64: {
        int64_t v;
        memcpy(&v, p, sizeof v);
        yw_printf(w, "%lld", (long long)v);
        break;
    }
    case HW_T_BOOL:
        memcpy(&iv, p, sizeof iv);
        yw_plain(w, iv ? "true" : "false");
        break;
    case HW_T_DTYPE:
        memcpy(&iv, p, sizeof iv);
        yw_plain(w, hw_dtype_name(iv));
        break;
    case HW_T_TEXT:
    case HW_T_NAME: yw_str(w, p); break;
    case HW_T_CLASSES: {
        unsigned m;
        memcpy(&m, p, sizeof m);
        yw_seq(w, 1);
        for (int c = 0; c < OC_COUNT; c++)
            if (m & (1u << c)) yw_plain(w, op_class_name(c));
        yw_end_seq(w);
        break;
    }
    case HW_T_OPS:
    case HW_T_KEYS: {
        int n;
        memcpy(&n, (const char *)base + k->count_off, sizeof n);
        yw_seq(w, 1);
        for (int i = 0; i < n; i++) yw_str(w, p + (size_t)i * k->size);
        yw_end_seq(w);
        break;
    }
    default: yw_plain(w, "~"); break;
    }
}

/* Whether a stored scalar equals the row's default (list element fields at their default are left out). */
static int at_default(const struct hw_key *k, const void *base)
{
    const char *p = (const char *)base + k->off;
    if (k->type == HW_T_NUM) {
        double v;
        memcpy(&v, p, sizeof v);
        return v == k->def;
    }
    if (k->type == HW_T_I64) {
        int64_t v;
        memcpy(&v, p, sizeof v);
        return (double)v == k->def;
    }
    if (k->type == HW_T_INT || k->type == HW_T_BOOL) {
        int v;
        memcpy(&v, p, sizeof v);
        return (double)v == k->def;
    }
    return 0;
}

static void put_element(struct yamlw *w, const struct hw_key *list, const void *elem)
{
    char self[HW_MAX_KEY + 4];
    snprintf(self, sizeof self, "%s[]", list->path);
    const struct hw_key *r = hw_key_find(self);
    if (r) {
        put_value(w, r, elem);
        return;
    }
    size_t plen = strlen(self);
    yw_map(w, 1);
    for (int i = 0; i < hw_n_keys; i++) {
        r = &hw_keys[i];
        if (strncmp(r->path, self, plen) || r->path[plen] != '.' || strchr(r->path + plen + 1, '.')) continue;
        if (!(r->flags & HW_F_REQUIRED) && at_default(r, elem)) continue;
        yw_plain(w, r->path + plen + 1);
        put_value(w, r, elem);
    }
    yw_end_map(w);
}

/* A map row as a flow mapping: its explicit entries first ("default"), then the entries given (not at 'def'). */
static void put_map(struct yamlw *w, const struct hw_key *k, const struct hw_desc *hw)
{
    size_t plen = strlen(k->path);
    yw_map(w, 1);
    for (int j = 0; j < hw_n_keys; j++) {
        const struct hw_key *c = &hw_keys[j];
        if (strncmp(c->path, k->path, plen) || c->path[plen] != '.') continue;
        yw_plain(w, hw_key_leaf(c));
        put_value(w, c, hw);
    }
    for (int e = 0; e < hw_key_map_size(k); e++) {
        double v;
        memcpy(&v, (const char *)hw + k->off + (size_t)e * sizeof v, sizeof v);
        if (v == k->def) continue;
        yw_plain(w, hw_key_map_name(k, e));
        put_num(w, v);
    }
    yw_end_map(w);
}

enum nnperf_status hw_key_get(const struct hw_desc *hw, const char *path, struct strbuf *sb)
{
    int entry;
    const struct hw_key *k = hw_key_resolve(path, &entry);
    if (!k || k->type == HW_T_SECTION) return NNPERF_E_USAGE;
    struct yamlw w;
    yw_begin(&w, sb);
    if (entry >= 0) {
        double v;
        memcpy(&v, (const char *)hw + k->off + (size_t)entry * sizeof v, sizeof v);
        if (k->off == offsetof(struct hw_desc, eff)) v = hw_eff(hw, entry); /* not given: what applies */
        put_num(&w, v);
    } else if (k->map) {
        put_map(&w, k, hw);
    } else if (k->type == HW_T_LIST) {
        int n;
        memcpy(&n, (const char *)hw + k->count_off, sizeof n);
        yw_seq(&w, 1);
        for (int e = 0; e < n; e++) put_element(&w, k, (const char *)hw + k->off + (size_t)e * k->size);
        yw_end_seq(&w);
    } else {
        put_value(&w, k, hw);
    }
    yw_end_line(&w);
    return NNPERF_OK;
}

/* "  # assumption" after the line of row k when the platform lists it (or, for a map, some of its entries). */
static void put_marks(struct strbuf *sb, const struct hw_desc *hw, const struct hw_key *k)
{
    size_t plen = strlen(k->path);
    int whole = 0, n = 0;
    for (int i = 0; i < hw->n_assume; i++) {
        const char *a = hw->assume[i];
        if (!strcmp(a, k->path))
            whole = 1;
        else if (k->map && !strncmp(a, k->path, plen) && a[plen] == '.')
            n++;
    }
    if (whole) {
        sb_puts(sb, "  # assumption");
        return;
    }
    for (int i = 0, first = 1; n && i < hw->n_assume; i++) {
        const char *a = hw->assume[i];
        if (strncmp(a, k->path, plen) || a[plen] != '.') continue;
        sb_printf(sb, "%s%s", first ? "  # assumption: " : ", ", a + plen + 1);
        first = 0;
    }
}

/* The keys of the mapping at table path 'parent' ("" = the top), in table order, sections recursively: each key
 * from the table, each value a one-line fragment of the emitter. */
static void put_keys(struct strbuf *sb, const struct hw_desc *hw, const char *parent, int depth)
{
    size_t plen = strlen(parent);
    for (int i = 0; i < hw_n_keys; i++) {
        const struct hw_key *k = &hw_keys[i];
        if (hw_key_parent_len(k) != plen || strncmp(k->path, parent, plen) || hw_key_is_element(k)) continue;
        if (k->type == HW_T_BASE || (k->type == HW_T_SECTION && !hw_section_present(hw, k))) continue;
        int n = 0;
        if (k->type == HW_T_OPS || k->type == HW_T_KEYS || k->type == HW_T_LIST) {
            memcpy(&n, (const char *)hw + k->count_off, sizeof n);
            if (!n) continue; /* an empty list is written as no key */
        }
        if (k->type == HW_T_CLASSES && hw_key_empty(k, hw)) continue; /* no classes: the key is absent */
        sb_printf(sb, "%*s%s:", 2 * depth, "", hw_key_leaf(k));
        struct yamlw w;
        if (k->type == HW_T_FORMAT) {
            sb_puts(sb, " 1");
        } else if (k->type != HW_T_SECTION && k->type != HW_T_LIST) {
            sb_putc(sb, ' ');
            yw_begin(&w, sb);
            if (k->type == HW_T_NUM && k->map)
                put_map(&w, k, hw);
            else
                put_value(&w, k, hw);
            yw_end_line(&w);
        }
        put_marks(sb, hw, k);
        sb_putc(sb, '\n');
        for (int e = 0; k->type == HW_T_LIST && e < n; e++) {
            sb_printf(sb, "%*s- ", 2 * depth + 2, "");
            yw_begin(&w, sb);
            put_element(&w, k, (const char *)hw + k->off + (size_t)e * k->size);
            yw_end_line(&w);
            sb_putc(sb, '\n');
        }
        if (k->type == HW_T_SECTION) put_keys(sb, hw, k->path, depth + 1);
    }
}

void hw_write_yaml(const struct hw_desc *hw, struct strbuf *sb)
{
    sb_puts(sb, "# nnperf platform description, format version 1 (docs/platform-format.md)\n");
    put_keys(sb, hw, "", 0);
}

enum nnperf_status hw_write_yaml_checked(const struct hw_desc *hw, const char *what, struct strbuf *sb,
                                         struct diag *d)
{
    hw_write_yaml(hw, sb);
    struct hw_desc *back = malloc(sizeof *back);
    if (sb->overflow || !sb->p || !back) {
        free(back);
        return diag_set(d, NNPERF_E_NOMEM, "out of memory");
    }
    struct diag rd = {NNPERF_OK, {0}};
    enum nnperf_status st = hw_load_text(sb->p, sb->len, what, NULL, HW_LOAD_NO_FILES, back, &rd);
    free(back);
    if (st != NNPERF_OK)
        return diag_set(d, NNPERF_E_INVALID,
                        "%s would not be a valid platform description, so it is not written: %s", what,
                        rd.msg);
    return NNPERF_OK;
}

/* ---- presets, files, names ---- */

int hw_preset_count(void)
{
    return hw_n_preset_files;
}

const char *hw_preset_name(int i)
{
    return i >= 0 && i < hw_n_preset_files ? hw_preset_files[i].name : NULL;
}

const char *hw_preset_yaml(const char *name, size_t *len)
{
    for (int i = 0; name && i < hw_n_preset_files; i++)
        if (!strcmp(hw_preset_files[i].name, name)) {
            if (len) *len = hw_preset_files[i].len;
            return (const char *)hw_preset_files[i].data;
        }
    return NULL;
}

void hw_errno_text(int err, char *buf, size_t cap)
{
    snprintf(buf, cap, "%s", strerror(err));
    if (buf[0] >= 'A' && buf[0] <= 'Z') buf[0] = (char)(buf[0] - 'A' + 'a');
}

static enum nnperf_status open_err(struct diag *d, const char *path, int err)
{
    char msg[128];
    hw_errno_text(err, msg, sizeof msg);
    return diag_set(d, NNPERF_E_IO, "%s: cannot read: %s", path, msg);
}

enum nnperf_status hw_read_file(const char *path, char **buf, size_t *len, struct diag *d)
{
    *buf = NULL;
    *len = 0;
    if (!path) return diag_set(d, NNPERF_E_USAGE, "no platform file given");
    /* O_NONBLOCK: opening a FIFO does not wait for a writer; it is refused below, before any read */
    int fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC | O_NOCTTY);
    if (fd < 0) return open_err(d, path, errno);
    struct stat st;
    if (fstat(fd, &st) != 0) {
        int e = errno;
        close(fd);
        return open_err(d, path, e);
    }
    if (!S_ISREG(st.st_mode)) {
        close(fd);
        return diag_set(d, NNPERF_E_IO, "%s: cannot read: not a regular file (%s)", path,
                        core_file_kind(st.st_mode));
    }
    if (st.st_size > (off_t)HW_FILE_MAX_BYTES) {
        close(fd);
        return diag_set(d, NNPERF_E_LIMIT, "%s: file is larger than %u bytes", path, HW_FILE_MAX_BYTES);
    }
    char *b = malloc(HW_FILE_MAX_BYTES + 2);
    if (!b) {
        close(fd);
        return diag_set(d, NNPERF_E_NOMEM, "%s: out of memory", path);
    }
    size_t n = 0;
    while (n <=
           HW_FILE_MAX_BYTES) { /* the size may change while reading: read to the end, at most the cap + 1 */
        ssize_t r = read(fd, b + n, HW_FILE_MAX_BYTES + 1 - n);
        if (r < 0 && errno == EINTR) continue;
        if (r < 0) {
            int e = errno;
            close(fd);
            free(b);
            char msg[128];
            hw_errno_text(e, msg, sizeof msg);
            return diag_set(d, NNPERF_E_IO, "%s: read error: %s", path, msg);
        }
        if (r == 0) break;
        n += (size_t)r;
    }
    close(fd);
    if (n > HW_FILE_MAX_BYTES) {
        free(b);
        return diag_set(d, NNPERF_E_LIMIT, "%s: file is larger than %u bytes", path, HW_FILE_MAX_BYTES);
    }
    b[n] = 0;
    *buf = b;
    *len = n;
    return NNPERF_OK;
}

enum nnperf_status hw_load_file(const char *path, struct hw_desc *hw, struct diag *d)
{
    hw_init(hw);
    char *buf;
    size_t n;
    enum nnperf_status st = hw_read_file(path, &buf, &n, d);
    if (st != NNPERF_OK) return st;
    char id[PATH_MAX];
    st = hw_load_text(buf, n, path, realpath(path, id) ? id : NULL, 0, hw, d);
    free(buf);
    return st;
}

enum nnperf_status hw_resolve(const char *name_or_path, struct hw_desc *hw, struct diag *d)
{
    size_t len;
    const char *text = hw_preset_yaml(name_or_path, &len);
    if (!text) hw_init(hw); /* a preset's load starts from hw_init */
    if (!name_or_path || !*name_or_path) return diag_set(d, NNPERF_E_USAGE, "no platform given");
    if (text) {
        char file[HW_MAX_NAME + 32], id[HW_MAX_NAME + 32];
        snprintf(file, sizeof file, "presets/%s.yaml", name_or_path);
        snprintf(id, sizeof id, "preset:%s", name_or_path);
        return hw_load_text(text, len, file, id, HW_LOAD_NO_FILES | HW_LOAD_PRESET, hw, d);
    }
    struct stat sb;
    if (stat(name_or_path, &sb) != 0 && errno == ENOENT && !strchr(name_or_path, '/') &&
        !strstr(name_or_path, ".y")) {
        const char *cands[256];
        int n = hw_preset_count() < 256 ? hw_preset_count() : 256;
        for (int i = 0; i < n; i++) cands[i] = hw_preset_name(i);
        const char *sug = nnperf_suggest(name_or_path, cands, n);
        return diag_set(d, NNPERF_E_USAGE,
                        "unknown platform '%.200s': not a built-in preset and no such file%s%s%s",
                        name_or_path, sug ? " (did you mean '" : "", sug ? sug : "", sug ? "'?)" : "");
    }
    return hw_load_file(name_or_path, hw, d);
}
