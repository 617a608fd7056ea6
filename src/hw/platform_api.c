/* platform_api.c - the public platform API of nnperf.h (nnperf_platform_*): a handle around struct hw_desc, the
 * preset list and the YAML text of a preset or a loaded platform. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "keys.h"

enum nnperf_status nnperf_platform_load(const char *name_or_path, struct nnperf_platform **out, char *err,
                                        size_t errlen)
{
    if (out) *out = NULL;
    if (!out || !name_or_path) {
        if (err && errlen) snprintf(err, errlen, "nnperf_platform_load: missing argument");
        return NNPERF_E_USAGE;
    }
    struct nnperf_platform *p = malloc(sizeof *p);
    if (!p) {
        if (err && errlen) snprintf(err, errlen, "out of memory");
        return NNPERF_E_NOMEM;
    }
    struct diag d = {NNPERF_OK, {0}};
    enum nnperf_status st = hw_resolve(name_or_path, &p->hw, &d);
    if (st != NNPERF_OK) {
        if (err && errlen) snprintf(err, errlen, "%s", d.msg);
        free(p);
        return st;
    }
    *out = p;
    return NNPERF_OK;
}

void nnperf_platform_free(struct nnperf_platform *p)
{
    free(p);
}

enum nnperf_status nnperf_platform_set(struct nnperf_platform *p, const char *key, const char *value,
                                       char *err, size_t errlen)
{
    if (err && errlen) err[0] = 0;
    if (!p || !key || !value) {
        if (err && errlen) snprintf(err, errlen, "nnperf_platform_set: missing argument");
        return NNPERF_E_USAGE;
    }
    /* remembered for the reports (a key set again replaces its entry): one more than they hold is refused, not
     * applied without a trace */
    size_t kl = strlen(key);
    int i = 0;
    while (i < p->hw.n_set && !(strncmp(p->hw.set[i], key, kl) == 0 && p->hw.set[i][kl] == '=')) i++;
    if (i == HW_MAX_SET) {
        if (err && errlen)
            snprintf(err, errlen, "%s: more than %d platform keys set (the reports list each one)", key,
                     HW_MAX_SET);
        return NNPERF_E_LIMIT;
    }
    struct diag d = {NNPERF_OK, {0}};
    enum nnperf_status st = hw_set(&p->hw, key, value, &d);
    if (st != NNPERF_OK && err && errlen) snprintf(err, errlen, "%s", d.msg);
    if (st == NNPERF_OK) {
        snprintf(p->hw.set[i], sizeof p->hw.set[i], "%s=%s", key, value);
        if (i == p->hw.n_set) p->hw.n_set++;
    }
    return st;
}

int nnperf_platform_key_count(void)
{
    return hw_n_keys;
}

const char *nnperf_platform_key_name(int i)
{
    return i >= 0 && i < hw_n_keys ? hw_keys[i].path : NULL;
}

enum nnperf_status nnperf_platform_copy(const struct nnperf_platform *p, struct nnperf_platform **out)
{
    if (out) *out = NULL;
    if (!p || !out) return NNPERF_E_USAGE;
    struct nnperf_platform *c = malloc(sizeof *c);
    if (!c) return NNPERF_E_NOMEM;
    *c = *p;
    *out = c;
    return NNPERF_OK;
}

int nnperf_platform_preset_count(void)
{
    return hw_preset_count();
}

const char *nnperf_platform_preset_name(int i)
{
    return hw_preset_name(i);
}

const char *nnperf_platform_preset_yaml(const char *name, size_t *len)
{
    return hw_preset_yaml(name, len);
}

enum nnperf_status nnperf_platform_yaml(const struct nnperf_platform *p, char **out, size_t *len)
{
    if (out) *out = NULL;
    if (len) *len = 0;
    if (!p || !out) return NNPERF_E_USAGE;
    struct strbuf sb;
    sb_init(&sb, 1u << 20);
    hw_write_yaml(&p->hw, &sb);
    if (sb.overflow || !sb.p) {
        sb_free(&sb);
        return NNPERF_E_NOMEM;
    }
    *out = sb.p; /* sb's buffer is malloc'd: the caller frees it */
    if (len) *len = sb.len;
    return NNPERF_OK;
}

void nnperf_platform_info(const struct nnperf_platform *p, struct nnperf_platform_info *info)
{
    if (!info) return;
    memset(info, 0, sizeof *info);
    if (!p) return;
    const struct hw_desc *hw = &p->hw;
    info->name = hw->name;
    info->description = hw->description;
    info->source = hw->source;
    info->peak_int4 = hw->peak_ops[HW_INT4];
    info->peak_int8 = hw->peak_ops[HW_INT8];
    info->peak_fp16 = hw->peak_ops[HW_FP16];
    info->peak_bf16 = hw->peak_ops[HW_BF16];
    info->peak_fp32 = hw_dtype_peak(hw, HW_FP32);
    info->default_dtype = hw_dtype_name(hw->default_dtype);
    info->ddr_bandwidth = hw->ddr_bw;
    info->sram_bytes = hw->sram_bytes;
    info->ddr_bytes = hw->ddr_bytes;
    info->cores = hw->cores;
    info->has_fallback = hw->fb.present;
    info->fallback_name = hw->fb.present ? hw->fb.name : NULL;
}

int nnperf_platform_assumption_count(const struct nnperf_platform *p)
{
    return p ? p->hw.n_assume : 0;
}

const char *nnperf_platform_assumption(const struct nnperf_platform *p, int i)
{
    return p && i >= 0 && i < p->hw.n_assume ? p->hw.assume[i] : NULL;
}

enum nnperf_status nnperf_platform_get(const struct nnperf_platform *p, const char *key, char *out,
                                       size_t cap)
{
    if (out && cap) out[0] = 0;
    if (!p || !key || !out || !cap) return NNPERF_E_USAGE;
    struct strbuf sb;
    sb_init(&sb, 1u << 16);
    enum nnperf_status st = hw_key_get(&p->hw, key, &sb);
    if (st == NNPERF_OK && (sb.overflow || !sb.p)) st = NNPERF_E_NOMEM;
    if (st == NNPERF_OK && sb.len >= cap) st = NNPERF_E_LIMIT;
    if (st == NNPERF_OK) memcpy(out, sb.p, sb.len + 1);
    sb_free(&sb);
    return st;
}
