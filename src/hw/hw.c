/* hw.c - platform descriptions: defaults, dtype names, the number parser (SI/IEC/time suffixes), range and
 * consistency checks, the YAML writer (round-trips through hw_load_yaml in yaml.c), the built-in presets
 * (presets/NAME.yaml embedded at build time, see cmake/embed.cmake) and resolving a name or a path. */
#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "hw.h"
#include "presets.h"

#define HW_FILE_MAX_BYTES (1u << 20)

static const char *const dtype_names[HW_NDT] = {"int4", "int8", "fp16", "bf16", "fp32"};
static const int dtype_bytes_x2[HW_NDT] = {1, 2, 4, 4, 8};

const char *hw_dtype_name(int dt)
{
    return dt >= 0 && dt < HW_NDT ? dtype_names[dt] : "?";
}

int hw_dtype_from_name(const char *s)
{
    for (int i = 0; s && i < HW_NDT; i++)
        if (!strcmp(s, dtype_names[i])) return i;
    return -1;
}

int hw_dtype_bytes_x2(int dt)
{
    return dt >= 0 && dt < HW_NDT ? dtype_bytes_x2[dt] : 0;
}

void hw_init(struct hw_desc *hw)
{
    memset(hw, 0, sizeof *hw);
    hw->frames_per_run = 1;
    hw->cores = 1;
    hw->default_dtype = HW_INT8;
    hw->eff_default = 1;
    for (int i = 0; i < OC_COUNT; i++) hw->eff[i] = -1;
    hw->ddr_eff = 1;
    hw->overlap = 1;
    hw->fb.efficiency = 1;
}

double hw_eff(const struct hw_desc *hw, int klass)
{
    if (klass >= 0 && klass < OC_COUNT && hw->eff[klass] >= 0) return hw->eff[klass];
    if (klass == OC_CONV_GROUPED) return hw_eff(hw, OC_CONV); /* grouped convs default to conv's efficiency */
    return hw->eff_default;
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

/* ---- numbers ---- */

struct suffix {
    const char *s;
    double mul;
};

/* Multipliers; an SI or IEC prefix may be followed by a unit (B, B/s, ops, ...), time units stand alone. */
static const struct suffix prefixes[] = {
    {"Ki", 1024.0},
    {"Mi", 1048576.0},
    {"Gi", 1073741824.0},
    {"Ti", 1099511627776.0},
    {"Pi", 1125899906842624.0},
    {"k", 1e3},
    {"M", 1e6},
    {"G", 1e9},
    {"T", 1e12},
    {"P", 1e15},
};
static const char *const units[] = {"B/s", "B", "ops/s", "ops", "OPS", "FLOPS", "Hz"};
static const struct suffix times[] = {{"s", 1}, {"ms", 1e-3}, {"us", 1e-6}, {"ns", 1e-9}};

static int is_digit(char ch)
{
    return ch >= '0' && ch <= '9';
}

static int unit_ok(const char *u)
{
    if (!*u) return 1;
    for (size_t i = 0; i < sizeof units / sizeof units[0]; i++)
        if (!strcmp(u, units[i])) return 1;
    return 0;
}

int hw_parse_number(const char *s, double *out)
{
    if (!s || !out) return 0;
    const char *p = s;
    if (*p == '+' || *p == '-') p++;
    size_t ndig = 0;
    while (is_digit(*p)) p++, ndig++;
    if (*p == '.') {
        p++;
        while (is_digit(*p)) p++, ndig++;
    }
    if (!ndig) return 0;
    if (*p == 'e' || *p == 'E') {
        const char *q = p + 1;
        if (*q == '+' || *q == '-') q++;
        if (!is_digit(*q)) return 0;
        while (is_digit(*q)) q++;
        p = q;
    }
    char num[64];
    size_t nlen = (size_t)(p - s);
    if (nlen >= sizeof num) return 0;
    memcpy(num, s, nlen);
    num[nlen] = 0;
    if (*p == ' ' && p[1]) p++; /* "19.2 GB/s" */
    double mul = 1;
    int found = !*p;
    for (size_t i = 0; !found && i < sizeof times / sizeof times[0]; i++)
        if (!strcmp(p, times[i].s)) mul = times[i].mul, found = 1;
    for (size_t i = 0; !found && i < sizeof prefixes / sizeof prefixes[0]; i++) {
        size_t l = strlen(prefixes[i].s);
        if (!strncmp(p, prefixes[i].s, l) && unit_ok(p + l)) mul = prefixes[i].mul, found = 1;
    }
    if (!found && !unit_ok(p)) return 0;
    char *end;
    double v = strtod(num, &end);
    if (*end || !isfinite(v)) return 0;
    v *= mul;
    if (!isfinite(v)) return 0;
    *out = v;
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
    char msg[200];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    if (file) return diag_set(d, NNPERF_E_INVALID, "%s: %s: %s", file, key, msg);
    return diag_set(d, NNPERF_E_INVALID, "%s: %s", key, msg);
}

static int bad_nonneg(double v)
{
    return !isfinite(v) || v < 0;
}

static int bad_pos(double v)
{
    return !isfinite(v) || !(v > 0);
}

static int bad_eff(double v)
{
    return !isfinite(v) || !(v > 0 && v <= 1);
}

static int bad_string(const char *s, size_t cap, int allow_space)
{
    size_t n = strnlen(s, cap);
    if (n == cap) return 1;
    for (size_t i = 0; i < n; i++) {
        unsigned char ch = (unsigned char)s[i];
        if (ch < 0x20 && !(allow_space && (ch == '\n' || ch == '\t'))) return 1;
        if (ch == 0x7f || (!allow_space && ch == ' ')) return 1;
    }
    return 0;
}

static enum nnperf_status check_ops(struct diag *d, const char *file, const char *key, int n,
                                    const char (*ops)[HW_MAX_NAME])
{
    if (n < 0 || n > HW_MAX_OPS) return verr(d, file, key, "%d entries, out of range", n);
    for (int i = 0; i < n; i++)
        if (!ops[i][0] || bad_string(ops[i], HW_MAX_NAME, 0))
            return verr(d, file, key, "entry %d is empty or not a plain name", i);
    return NNPERF_OK;
}

enum nnperf_status hw_validate(const struct hw_desc *hw, const char *file, struct diag *d)
{
    enum nnperf_status st;
    if (!hw->name[0] || bad_string(hw->name, sizeof hw->name, 0))
        return verr(d, file, "name", "must be a non-empty name without spaces");
    if (bad_string(hw->description, sizeof hw->description, 1))
        return verr(d, file, "description", "contains control characters");
    if (bad_string(hw->source, sizeof hw->source, 1))
        return verr(d, file, "source", "contains control characters");
    if (hw->frames_per_run < 1 || hw->frames_per_run > (1 << 20))
        return verr(d, file, "frames_per_run", "must be between 1 and 1048576, got %d", hw->frames_per_run);
    if (hw->cores < 1 || hw->cores > 4096)
        return verr(d, file, "compute.cores", "must be between 1 and 4096, got %d", hw->cores);
    int any = 0;
    for (int i = 0; i < HW_NDT; i++) {
        char key[64];
        snprintf(key, sizeof key, "compute.peak_ops.%s", dtype_names[i]);
        if (bad_nonneg(hw->peak_ops[i]))
            return verr(d, file, key, "must not be negative, got %g", hw->peak_ops[i]);
        any |= hw->peak_ops[i] > 0;
    }
    if (!any) return verr(d, file, "compute.peak_ops", "no dtype has a positive peak");
    if (hw->default_dtype < 0 || hw->default_dtype >= HW_NDT || !(hw->peak_ops[hw->default_dtype] > 0))
        return verr(d, file, "compute.default_dtype", "'%s' has no peak in compute.peak_ops",
                    hw_dtype_name(hw->default_dtype));
    if (bad_nonneg(hw->vector_ops))
        return verr(d, file, "compute.vector_ops", "must not be negative, got %g", hw->vector_ops);
    if (bad_eff(hw->eff_default))
        return verr(d, file, "compute.efficiency.default", "must be in (0, 1], got %g", hw->eff_default);
    for (int i = 0; i < OC_COUNT; i++) {
        char key[64];
        snprintf(key, sizeof key, "compute.efficiency.%s", op_class_name(i));
        if (hw->eff[i] >= 0 && bad_eff(hw->eff[i]))
            return verr(d, file, key, "must be in (0, 1], got %g", hw->eff[i]);
        if (isnan(hw->eff[i])) return verr(d, file, key, "must be in (0, 1], got %g", hw->eff[i]);
    }
    if ((st = check_ops(d, file, "compute.supported", hw->n_supported, hw->supported))) return st;
    if ((st = check_ops(d, file, "compute.unsupported", hw->n_unsupported, hw->unsupported))) return st;
    if (hw->n_align < 0 || hw->n_align > HW_MAX_ALIGN)
        return verr(d, file, "compute.alignment", "%d rules, out of range", hw->n_align);
    for (int i = 0; i < hw->n_align; i++) {
        const struct hw_align *a = &hw->align[i];
        char key[64];
        snprintf(key, sizeof key, "compute.alignment[%d]", i);
        if (!a->class_mask || (a->class_mask >> OC_COUNT)) return verr(d, file, key, "bad class set");
        if (a->n < 0 || a->c < 0 || a->h < 0 || a->w < 0 || a->n > (1 << 20) || a->c > (1 << 20) ||
            a->h > (1 << 20) || a->w > (1 << 20))
            return verr(d, file, key, "multiples must be between 0 and 1048576");
        if (a->pow2 != 0 && a->pow2 != 1) return verr(d, file, key, "pow2 must be 0 or 1, got %d", a->pow2);
    }
    if (hw->n_fusion < 0 || hw->n_fusion > HW_MAX_FUSION)
        return verr(d, file, "compute.fusion", "%d patterns, out of range", hw->n_fusion);
    for (int i = 0; i < hw->n_fusion; i++) {
        const struct hw_pattern *p = &hw->fusion[i];
        char key[64];
        snprintf(key, sizeof key, "compute.fusion[%d]", i);
        if (p->len < 2 || p->len > HW_MAX_PATTERN)
            return verr(d, file, key, "%d operators, need 2 to 8", p->len);
        if ((st = check_ops(d, file, key, p->len, p->ops))) return st;
    }
    if (bad_nonneg(hw->sram_bytes))
        return verr(d, file, "memory.sram_bytes", "must not be negative, got %g", hw->sram_bytes);
    if (bad_nonneg(hw->sram_bw))
        return verr(d, file, "memory.sram_bandwidth", "must not be negative, got %g", hw->sram_bw);
    if (bad_pos(hw->ddr_bw))
        return verr(d, file, "memory.ddr_bandwidth", "must be positive, got %g", hw->ddr_bw);
    if (bad_eff(hw->ddr_eff))
        return verr(d, file, "memory.ddr_efficiency", "must be in (0, 1], got %g", hw->ddr_eff);
    if (bad_nonneg(hw->ddr_bytes))
        return verr(d, file, "memory.ddr_bytes", "must not be negative, got %g", hw->ddr_bytes);
    if (hw->overlap != 0 && hw->overlap != 1)
        return verr(d, file, "memory.overlap", "must be 0 or 1, got %d", hw->overlap);
    if (bad_nonneg(hw->layer_overhead_s))
        return verr(d, file, "overhead.per_layer_s", "must not be negative, got %g", hw->layer_overhead_s);
    const struct hw_fallback *fb = &hw->fb;
    if (fb->present) {
        if (!fb->name[0] || bad_string(fb->name, sizeof fb->name, 1))
            return verr(d, file, "fallback.name", "must be a non-empty name");
        if (bad_pos(fb->peak_ops))
            return verr(d, file, "fallback.peak_ops", "must be positive, got %g", fb->peak_ops);
        if (bad_pos(fb->bandwidth))
            return verr(d, file, "fallback.bandwidth", "must be positive, got %g", fb->bandwidth);
        if (bad_eff(fb->efficiency))
            return verr(d, file, "fallback.efficiency", "must be in (0, 1], got %g", fb->efficiency);
        if (bad_nonneg(fb->transfer_bw))
            return verr(d, file, "fallback.transfer_bandwidth", "must not be negative, got %g",
                        fb->transfer_bw);
        if (bad_nonneg(fb->quant_ops_per_elem))
            return verr(d, file, "fallback.quantize_ops_per_element", "must not be negative, got %g",
                        fb->quant_ops_per_elem);
        if (bad_nonneg(fb->overhead_s))
            return verr(d, file, "fallback.overhead_s", "must not be negative, got %g", fb->overhead_s);
    }
    return NNPERF_OK;
}

/* ---- writer ---- */

/* Shortest "%.Ng" that reads back as exactly v. */
static void put_num(struct strbuf *sb, double v)
{
    char b[40];
    for (int prec = 6; prec <= 17; prec++) {
        snprintf(b, sizeof b, "%.*g", prec, v);
        if (strtod(b, NULL) == v) break;
    }
    char *e = strchr(b, 'e'); /* 1.28e+14 -> 1.28e14, 5e-05 -> 5e-5 */
    if (e) {
        char *q = e + 1, *r = e + 1;
        if (*r == '+')
            r++;
        else if (*r == '-')
            *q++ = *r++;
        while (*r == '0' && r[1]) r++;
        memmove(q, r, strlen(r) + 1);
    }
    sb_puts(sb, b);
}

static int plain_ok(const char *s)
{
    static const char *const words[] = {"y", "n", "yes", "no", "on", "off", "true", "false", "null", "~"};
    if (!((*s >= 'a' && *s <= 'z') || (*s >= 'A' && *s <= 'Z') || *s == '_')) return 0;
    for (const char *p = s; *p; p++)
        if (!((*p >= 'a' && *p <= 'z') || (*p >= 'A' && *p <= 'Z') || is_digit(*p) || *p == '_' ||
              *p == '-' || *p == '.'))
            return 0;
    for (size_t i = 0; i < sizeof words / sizeof words[0]; i++) {
        size_t k = 0;
        while (s[k] && words[i][k] && (s[k] | 0x20) == words[i][k]) k++;
        if (!s[k] && !words[i][k]) return 0;
    }
    return 1;
}

/* A string as a plain scalar when that reads back unchanged, else double-quoted with escapes. */
static void put_str(struct strbuf *sb, const char *s)
{
    if (plain_ok(s)) {
        sb_puts(sb, s);
        return;
    }
    sb_putc(sb, '"');
    for (const unsigned char *p = (const unsigned char *)s; *p; p++) {
        if (*p == '"' || *p == '\\') {
            sb_putc(sb, '\\');
            sb_putc(sb, (char)*p);
        } else if (*p == '\n')
            sb_puts(sb, "\\n");
        else if (*p == '\t')
            sb_puts(sb, "\\t");
        else if (*p < 0x20 || *p == 0x7f)
            sb_printf(sb, "\\x%02x", *p);
        else
            sb_putc(sb, (char)*p);
    }
    sb_putc(sb, '"');
}

static void put_oplist(struct strbuf *sb, const char *key, int n, const char (*ops)[HW_MAX_NAME])
{
    sb_printf(sb, "  %s: [", key);
    for (int i = 0; i < n; i++) {
        if (i) sb_puts(sb, ", ");
        put_str(sb, ops[i]);
    }
    sb_puts(sb, "]\n");
}

static void put_kv(struct strbuf *sb, const char *indent_key, double v)
{
    sb_puts(sb, indent_key);
    put_num(sb, v);
    sb_putc(sb, '\n');
}

void hw_write_yaml(const struct hw_desc *hw, struct strbuf *sb)
{
    sb_puts(sb,
            "# nnperf platform description, format version 1 (docs/platform-format.md)\nformat: 1\nname: ");
    put_str(sb, hw->name);
    sb_puts(sb, "\ndescription: ");
    put_str(sb, hw->description);
    sb_puts(sb, "\nsource: ");
    put_str(sb, hw->source);
    sb_printf(sb, "\nframes_per_run: %d\ncompute:\n  cores: %d\n  peak_ops: {", hw->frames_per_run,
              hw->cores);
    int first = 1;
    for (int i = 0; i < HW_NDT; i++) {
        if (!(hw->peak_ops[i] != 0)) continue;
        sb_printf(sb, "%s%s: ", first ? "" : ", ", dtype_names[i]);
        put_num(sb, hw->peak_ops[i]);
        first = 0;
    }
    sb_printf(sb, "}\n  default_dtype: %s\n", hw_dtype_name(hw->default_dtype));
    put_kv(sb, "  vector_ops: ", hw->vector_ops);
    sb_puts(sb, "  efficiency: {default: ");
    put_num(sb, hw->eff_default);
    for (int i = 0; i < OC_COUNT; i++) {
        if (hw->eff[i] < 0) continue;
        sb_printf(sb, ", %s: ", op_class_name(i));
        put_num(sb, hw->eff[i]);
    }
    sb_puts(sb, "}\n");
    if (hw->n_supported) put_oplist(sb, "supported", hw->n_supported, hw->supported);
    if (hw->n_unsupported) put_oplist(sb, "unsupported", hw->n_unsupported, hw->unsupported);
    if (hw->n_align) sb_puts(sb, "  alignment:\n");
    for (int i = 0; i < hw->n_align; i++) {
        const struct hw_align *a = &hw->align[i];
        sb_puts(sb, "    - {classes: [");
        first = 1;
        for (int k = 0; k < OC_COUNT; k++) {
            if (!(a->class_mask & (1u << k))) continue;
            sb_printf(sb, "%s%s", first ? "" : ", ", op_class_name(k));
            first = 0;
        }
        sb_putc(sb, ']');
        const int64_t dims[4] = {a->n, a->c, a->h, a->w};
        const char *dn = "nchw";
        int any = 0;
        for (int k = 0; k < 4; k++)
            if (dims[k]) sb_printf(sb, ", %c: %lld", dn[k], (long long)dims[k]), any = 1;
        if (a->pow2 || !any) sb_printf(sb, ", pow2: %s", a->pow2 ? "true" : "false");
        sb_puts(sb, "}\n");
    }
    if (hw->n_fusion) sb_puts(sb, "  fusion:\n");
    for (int i = 0; i < hw->n_fusion; i++) {
        sb_puts(sb, "    - [");
        for (int k = 0; k < hw->fusion[i].len; k++) {
            if (k) sb_puts(sb, ", ");
            put_str(sb, hw->fusion[i].ops[k]);
        }
        sb_puts(sb, "]\n");
    }
    sb_puts(sb, "memory:\n");
    put_kv(sb, "  sram_bytes: ", hw->sram_bytes);
    put_kv(sb, "  sram_bandwidth: ", hw->sram_bw);
    put_kv(sb, "  ddr_bandwidth: ", hw->ddr_bw);
    put_kv(sb, "  ddr_efficiency: ", hw->ddr_eff);
    if (hw->ddr_bytes > 0) put_kv(sb, "  ddr_bytes: ", hw->ddr_bytes);
    sb_printf(sb, "  overlap: %s\n", hw->overlap ? "true" : "false");
    if (hw->fb.present) {
        const struct hw_fallback *fb = &hw->fb;
        sb_puts(sb, "fallback:\n  name: ");
        put_str(sb, fb->name);
        sb_putc(sb, '\n');
        put_kv(sb, "  peak_ops: ", fb->peak_ops);
        put_kv(sb, "  bandwidth: ", fb->bandwidth);
        put_kv(sb, "  efficiency: ", fb->efficiency);
        put_kv(sb, "  transfer_bandwidth: ", fb->transfer_bw);
        put_kv(sb, "  quantize_ops_per_element: ", fb->quant_ops_per_elem);
        put_kv(sb, "  overhead_s: ", fb->overhead_s);
    }
    sb_puts(sb, "overhead:\n");
    put_kv(sb, "  per_layer_s: ", hw->layer_overhead_s);
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

static enum nnperf_status open_err(struct diag *d, const char *path, int err)
{
    char msg[128];
    snprintf(msg, sizeof msg, "%s", strerror(err));
    if (msg[0] >= 'A' && msg[0] <= 'Z') msg[0] = (char)(msg[0] - 'A' + 'a');
    return diag_set(d, NNPERF_E_IO, "%s: cannot read: %s", path, msg);
}

enum nnperf_status hw_load_file(const char *path, struct hw_desc *hw, struct diag *d)
{
    hw_init(hw);
    if (!path) return diag_set(d, NNPERF_E_USAGE, "no platform file given");
    FILE *f = fopen(path, "rb");
    if (!f) return open_err(d, path, errno);
    char *buf = malloc(HW_FILE_MAX_BYTES + 1);
    if (!buf) {
        fclose(f);
        return diag_set(d, NNPERF_E_NOMEM, "%s: out of memory", path);
    }
    size_t n = fread(buf, 1, HW_FILE_MAX_BYTES + 1, f);
    int rerr = ferror(f);
    fclose(f);
    enum nnperf_status st;
    if (rerr)
        st = diag_set(d, NNPERF_E_IO, "%s: read error", path);
    else if (n > HW_FILE_MAX_BYTES)
        st = diag_set(d, NNPERF_E_LIMIT, "%s: file is larger than %u bytes", path, HW_FILE_MAX_BYTES);
    else
        st = hw_load_yaml(buf, n, path, hw, d);
    free(buf);
    return st;
}

enum nnperf_status hw_resolve(const char *name_or_path, struct hw_desc *hw, struct diag *d)
{
    hw_init(hw);
    if (!name_or_path || !*name_or_path) return diag_set(d, NNPERF_E_USAGE, "no platform given");
    size_t len;
    const char *text = hw_preset_yaml(name_or_path, &len);
    if (text) {
        char file[HW_MAX_NAME + 32];
        snprintf(file, sizeof file, "presets/%s.yaml", name_or_path);
        return hw_load_yaml(text, len, file, hw, d);
    }
    FILE *f = fopen(name_or_path, "rb");
    if (!f && errno == ENOENT && !strchr(name_or_path, '/') && !strstr(name_or_path, ".y"))
        return diag_set(
            d, NNPERF_E_USAGE,
            "unknown platform '%s': not a built-in preset (see 'nnperf hw list') and no such file",
            name_or_path);
    if (f) fclose(f);
    return hw_load_file(name_or_path, hw, d);
}
