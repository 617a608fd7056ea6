/* test_hw.c - platform descriptions: every preset loads, validates and round-trips through hw_write_yaml; the
 * number parser; each bad file in tests/bad-inputs/platforms gives its expected "file:line: key: message"; the
 * public nnperf_platform_* API. Runs from the repository root. */
#include <dirent.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "hw/keys.h"
#include "ops/ops.h"
#include "tinytest.h"

static int same_desc(const struct hw_desc *a, const struct hw_desc *b)
{
    int ok =
        !strcmp(a->name, b->name) && !strcmp(a->description, b->description) && !strcmp(a->source, b->source);
    ok = ok && a->frames_per_run == b->frames_per_run && a->cores == b->cores &&
         a->default_dtype == b->default_dtype;
    for (int i = 0; i < HW_NDT; i++) ok = ok && a->peak_ops[i] == b->peak_ops[i];
    ok = ok && a->vector_ops == b->vector_ops && a->eff_default == b->eff_default;
    for (int i = 0; i < OC_COUNT; i++) ok = ok && a->eff[i] == b->eff[i];
    ok = ok && a->n_supported == b->n_supported && a->n_unsupported == b->n_unsupported;
    for (int i = 0; ok && i < a->n_supported; i++) ok = !strcmp(a->supported[i], b->supported[i]);
    for (int i = 0; ok && i < a->n_unsupported; i++) ok = !strcmp(a->unsupported[i], b->unsupported[i]);
    ok = ok && a->n_align == b->n_align;
    for (int i = 0; ok && i < a->n_align; i++) {
        const struct hw_align *x = &a->align[i], *y = &b->align[i];
        ok = x->class_mask == y->class_mask && x->n == y->n && x->c == y->c && x->h == y->h && x->w == y->w &&
             x->pow2 == y->pow2;
    }
    ok = ok && a->n_fusion == b->n_fusion;
    for (int i = 0; ok && i < a->n_fusion; i++) {
        ok = a->fusion[i].len == b->fusion[i].len;
        for (int k = 0; ok && k < a->fusion[i].len; k++)
            ok = !strcmp(a->fusion[i].ops[k], b->fusion[i].ops[k]);
    }
    ok = ok && a->sram_bytes == b->sram_bytes && a->sram_bw == b->sram_bw && a->ddr_bw == b->ddr_bw &&
         a->ddr_eff == b->ddr_eff && a->overlap == b->overlap && a->layer_overhead_s == b->layer_overhead_s;
    const struct hw_fallback *f = &a->fb, *g = &b->fb;
    ok = ok && f->present == g->present;
    if (ok && f->present)
        ok = !strcmp(f->name, g->name) && f->peak_ops == g->peak_ops && f->bandwidth == g->bandwidth &&
             f->efficiency == g->efficiency && f->transfer_bw == g->transfer_bw &&
             f->quant_ops_per_elem == g->quant_ops_per_elem && f->overhead_s == g->overhead_s;
    return ok;
}

static void test_presets(void)
{
    CHECK(hw_preset_count() >= 20);
    for (int i = 0; i < hw_preset_count(); i++) {
        const char *name = hw_preset_name(i);
        struct hw_desc hw, back;
        struct diag d = {NNPERF_OK, {0}};
        enum nnperf_status st = hw_resolve(name, &hw, &d);
        if (st != NNPERF_OK) fprintf(stderr, "preset %s: %s\n", name, d.msg);
        CHECK(st == NNPERF_OK);
        CHECK_STR(hw.name, name);
        CHECK(hw_validate(&hw, name, &d) == NNPERF_OK);
        CHECK(hw.description[0] && hw.source[0]);
        if (i > 0) CHECK(strcmp(hw_preset_name(i - 1), name) < 0); /* sorted */
        /* a preset loads without the event pass (HW_LOAD_PRESET): its text passes it, to the same description */
        size_t tlen = 0;
        const char *text = hw_preset_yaml(name, &tlen);
        struct hw_desc checked;
        st = hw_load_text(text, tlen, "preset.yaml", NULL, HW_LOAD_NO_FILES, &checked, &d);
        if (st != NNPERF_OK) fprintf(stderr, "preset %s through the event pass: %s\n", name, d.msg);
        CHECK(st == NNPERF_OK && same_desc(&hw, &checked));
        /* round trip: load(write(x)) == x, and write is a fixed point */
        struct strbuf sb, sb2;
        sb_init(&sb, 1u << 20);
        hw_write_yaml(&hw, &sb);
        CHECK(!sb.overflow && sb.p);
        st = hw_load_yaml(sb.p, sb.len, "roundtrip.yaml", &back, &d);
        if (st != NNPERF_OK) fprintf(stderr, "round trip %s: %s\n%s", name, d.msg, sb.p);
        CHECK(st == NNPERF_OK);
        if (!same_desc(&hw, &back)) fprintf(stderr, "round trip of %s differs:\n%s", name, sb.p);
        CHECK(same_desc(&hw, &back));
        sb_init(&sb2, 1u << 20);
        hw_write_yaml(&back, &sb2);
        CHECK(sb2.p && sb.p && !strcmp(sb.p, sb2.p));
        sb_free(&sb);
        sb_free(&sb2);
    }
    size_t len = 0;
    const char *y = hw_preset_yaml("zcu102-dpu", &len);
    CHECK(y && len == strlen(y) && strstr(y, "QuTiBench"));
    CHECK(hw_preset_yaml("no-such-preset", &len) == NULL);
    CHECK(hw_preset_name(-1) == NULL && hw_preset_name(hw_preset_count()) == NULL);

    /* a few key numbers */
    struct hw_desc hw;
    struct diag d = {NNPERF_OK, {0}};
    CHECK(hw_resolve("zcu102-dpu", &hw, &d) == NNPERF_OK);
    CHECK(hw.peak_ops[HW_INT8] == 3.452e12 && hw.ddr_bw == 19.2e9 && hw.fb.present && hw.cores == 3);
    CHECK(!hw_supports(&hw, "Softmax") && hw_supports(&hw, "Conv"));
    CHECK(hw_resolve("horizon-j5", &hw, &d) == NNPERF_OK);
    CHECK(hw.n_align == 2 && hw.align[0].c == 32 && hw.align[0].h == 8 && hw.align[0].w == 16 &&
          hw.align[1].pow2);
    CHECK(hw.n_fusion >= 1 && hw.fusion[0].len == 4 && !strcmp(hw.fusion[0].ops[2], "Add"));
    CHECK(hw.sram_bytes == 8.0 * 1048576);
    CHECK(hw_eff(&hw, OC_CONV) == 0.3086 && hw_eff(&hw, OC_DATA) == hw.eff_default);
    CHECK(hw.array.reduce[HW_INT8] == 32 && hw.array.channels[HW_INT8] == 4 && hw.cores_per_inference == 1 &&
          !strcmp(hw.memory_model, "tiled") && hw.vector_ops == 71.8e9);
    CHECK(hw_resolve("h100-sxm", &hw, &d) == NNPERF_OK);
    CHECK(!hw.fb.present && hw.n_unsupported == 0 && hw_supports(&hw, "NonMaxSuppression"));
    CHECK(hw.default_dtype == HW_FP16 && hw.peak_ops[HW_FP16] == 989.4e12);
    CHECK(hw_resolve("l4", &hw, &d) == NNPERF_OK);
    CHECK(hw.ddr_bw == 300e9 && hw.sram_bytes == 48e6);
}

static void test_numbers(void)
{
    double v = 0;
    CHECK(hw_parse_number("19.2e9", &v) && v == 19.2e9);
    CHECK(hw_parse_number("19.2G", &v) && v == 19.2e9);
    CHECK(hw_parse_number("19.2 GB/s", &v) && v == 19.2e9);
    CHECK(hw_parse_number("4MiB", &v) && v == 4194304.0);
    CHECK(hw_parse_number("4Mi", &v) && v == 4194304.0);
    CHECK(hw_parse_number("512KiB", &v) && v == 524288.0);
    CHECK(hw_parse_number("1Gi", &v) && v == 1073741824.0);
    CHECK(hw_parse_number("1Ti", &v) && v == 1099511627776.0);
    CHECK(hw_parse_number("2us", &v) && fabs(v - 2e-6) < 1e-21);
    CHECK(hw_parse_number("5ms", &v) && fabs(v - 5e-3) < 1e-18);
    CHECK(hw_parse_number("3ns", &v) && fabs(v - 3e-9) < 1e-24);
    CHECK(hw_parse_number("1s", &v) && v == 1);
    CHECK(hw_parse_number("4T", &v) && v == 4e12);
    CHECK(hw_parse_number("6.71TOPS", &v) && v == 6.71e12);
    CHECK(hw_parse_number("2P", &v) && v == 2e15);
    CHECK(hw_parse_number("1.5k", &v) && v == 1500);
    CHECK(hw_parse_number("1M", &v) && v == 1e6);
    CHECK(hw_parse_number("0", &v) && v == 0);
    CHECK(hw_parse_number(".5", &v) && v == 0.5);
    CHECK(hw_parse_number("-3", &v) && v == -3); /* sign is parsed; ranges are checked by the loader */
    CHECK(hw_parse_number("1e-06", &v) && v == 1e-6);
    CHECK(hw_parse_number("6.71e+12", &v) && v == 6.71e12);
    CHECK(hw_parse_number("128B", &v) && v == 128);
    const char *bad[] = {"",    "abc",    "1x",    "nan", "NaN",   "inf", "-inf",  ".inf", "1e",
                         "1e+", "e5",     "0x10",  "1,5", "1.2.3", "5K",  "5 ",    " 5",   "1m",
                         "1Gs", "2 us x", "1e999", "--1", "+",     ".",   "1_000", "1Kb"};
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        v = 42;
        int ok = hw_parse_number(bad[i], &v);
        if (ok) fprintf(stderr, "hw_parse_number accepted '%s'\n", bad[i]);
        CHECK(!ok && v == 42);
    }
    CHECK(!hw_parse_number(NULL, &v));
}

static enum nnperf_status status_named(const char *s)
{
    static const struct {
        const char *name;
        enum nnperf_status st;
    } names[] = {{"INVALID", NNPERF_E_INVALID},         {"PARSE", NNPERF_E_PARSE}, {"LIMIT", NNPERF_E_LIMIT},
                 {"UNSUPPORTED", NNPERF_E_UNSUPPORTED}, {"IO", NNPERF_E_IO},       {"USAGE", NNPERF_E_USAGE}};
    for (size_t i = 0; i < sizeof names / sizeof names[0]; i++)
        if (!strcmp(s, names[i].name)) return names[i].st;
    return NNPERF_OK;
}

/* $DIR in an expected message: the folder as given */
static void expand_dir(const char *in, const char *dir, char *out, size_t cap)
{
    size_t n = 0;
    for (const char *p = in; *p && n + 1 < cap; p++) {
        if (!strncmp(p, "$DIR", 4)) {
            n += (size_t)snprintf(out + n, cap - n, "%s", dir);
            p += 3;
        } else {
            out[n++] = *p;
        }
        if (n >= cap) n = cap - 1;
    }
    out[n] = 0;
}

/* Every file of tests/bad-inputs/platforms has a line in its expected.txt (file, status, message after the path),
 * and loading it gives exactly that, with nothing half-loaded. */
static void test_bad_files(void)
{
    const char *dir = "tests/bad-inputs/platforms";
    FILE *f = fopen("tests/bad-inputs/platforms/expected.txt", "r");
    CHECK(f != NULL);
    if (!f) return;
    char line[2048], listed[64][64];
    int n_listed = 0;
    while (fgets(line, sizeof line, f)) {
        line[strcspn(line, "\n")] = 0;
        if (line[0] == '#' || !line[0]) continue;
        char *t1 = strchr(line, '\t'), *t2 = t1 ? strchr(t1 + 1, '\t') : NULL;
        CHECK(t1 && t2);
        if (!t1 || !t2) continue;
        *t1 = *t2 = 0;
        if (n_listed < 64) snprintf(listed[n_listed++], sizeof listed[0], "%s", line);
        char path[256], want[1200], msg[1100];
        snprintf(path, sizeof path, "%s/%s", dir, line);
        expand_dir(t2 + 1, dir, msg, sizeof msg);
        snprintf(want, sizeof want, "%s%s", path, msg);
        enum nnperf_status expect = status_named(t1 + 1);
        struct hw_desc hw;
        struct diag d = {NNPERF_OK, {0}};
        enum nnperf_status st = hw_load_file(path, &hw, &d);
        if (st != expect || strncmp(d.msg, want, strlen(want)))
            fprintf(stderr, "%s: status %d, message\n  %s\nexpected %d,\n  %s\n", line, (int)st, d.msg,
                    (int)expect, want);
        CHECK(expect != NNPERF_OK && st == expect);
        CHECK(!strncmp(d.msg, want, strlen(want)));
        CHECK(hw.name[0] == 0); /* nothing half-loaded */
    }
    fclose(f);
    DIR *dp = opendir(dir);
    CHECK(dp != NULL);
    for (struct dirent *e; dp && (e = readdir(dp));) {
        size_t len = strlen(e->d_name);
        if (len < 5 || strcmp(e->d_name + len - 5, ".yaml")) continue;
        int found = 0;
        for (int i = 0; i < n_listed; i++) found |= !strcmp(listed[i], e->d_name);
        if (!found) fprintf(stderr, "%s/%s has no line in expected.txt\n", dir, e->d_name);
        CHECK(found);
    }
    if (dp) closedir(dp);

    struct hw_desc hw;
    struct diag d = {NNPERF_OK, {0}};
    CHECK(hw_load_file("tests/bad-inputs/platforms/no_such_file.yaml", &hw, &d) == NNPERF_E_IO);
    CHECK(strstr(d.msg, "no_such_file.yaml: cannot read: no such file") != NULL);
    d.status = NNPERF_OK;
    CHECK(hw_resolve("no-such-platform", &hw, &d) == NNPERF_E_USAGE);
    CHECK(strstr(d.msg, "unknown platform 'no-such-platform'") != NULL);
}

static void test_text_limits(void)
{
    struct hw_desc hw;
    struct diag d = {NNPERF_OK, {0}};
    /* over 1 MiB */
    size_t n = (1u << 20) + 10;
    char *big = malloc(n);
    CHECK(big != NULL);
    if (big) {
        memset(big, '#', n);
        CHECK(hw_load_yaml(big, n, "big.yaml", &hw, &d) == NNPERF_E_LIMIT);
        free(big);
    }
    /* NUL bytes inside the text, strings too long, minimal valid file, defaults */
    d.status = NNPERF_OK;
    const char nul[] = "name: a\0b\nmemory: {ddr_bandwidth: 1G}\ncompute: {peak_ops: {int8: 1T}}\n";
    CHECK(hw_load_yaml(nul, sizeof nul - 1, "nul.yaml", &hw, &d) != NNPERF_OK);
    d.status = NNPERF_OK;
    char longname[200];
    snprintf(longname, sizeof longname,
             "name: %080d\nmemory: {ddr_bandwidth: 1G}\ncompute: {peak_ops: {int8: 1T}}\n", 7);
    CHECK(hw_load_yaml(longname, strlen(longname), "long.yaml", &hw, &d) == NNPERF_E_LIMIT);
    CHECK(strstr(d.msg, "long.yaml:1: name: string is 80 bytes long") != NULL);
    d.status = NNPERF_OK;
    const char *min = "name: tiny\nmemory: {ddr_bandwidth: 1G}\ncompute: {peak_ops: {fp32: 1T}}\n";
    CHECK(hw_load_yaml(min, strlen(min), "min.yaml", &hw, &d) == NNPERF_OK);
    CHECK(hw.default_dtype == HW_FP32 && hw.frames_per_run == 1 && hw.cores == 1 && hw.ddr_eff == 1);
    CHECK(hw.overlap == 1 && !hw.fb.present && hw_eff(&hw, OC_CONV) == 1 && hw_supports(&hw, "Conv"));
    /* a struct built in code is validated without a file or line */
    hw_init(&hw);
    snprintf(hw.name, sizeof hw.name, "x");
    hw.peak_ops[HW_INT8] = 1e12;
    hw.ddr_bw = 1e9;
    d.status = NNPERF_OK;
    CHECK(hw_validate(&hw, NULL, &d) == NNPERF_OK);
    hw.ddr_eff = 1.5;
    CHECK(hw_validate(&hw, "code", &d) == NNPERF_E_INVALID);
    CHECK_STR(d.msg, "code: memory.ddr_efficiency: must be between 0.0001 and 1, got 1.5");
    /* strings that need quoting survive the round trip */
    hw.ddr_eff = 1;
    snprintf(hw.description, sizeof hw.description,
             "a \"quoted\" #text: with\\ escapes\nand\ttabs, caf\xc3\xa9");
    snprintf(hw.source, sizeof hw.source, "yes");
    struct strbuf sb;
    sb_init(&sb, 0);
    hw_write_yaml(&hw, &sb);
    struct hw_desc back;
    d.status = NNPERF_OK;
    CHECK(hw_load_yaml(sb.p, sb.len, "q.yaml", &back, &d) == NNPERF_OK);
    CHECK(same_desc(&hw, &back));
    sb_free(&sb);
    CHECK_EQ_U(hw_dtype_bytes_x2(HW_INT4), 1);
    CHECK_EQ_U(hw_dtype_bytes_x2(HW_FP32), 8);
    CHECK(hw_dtype_from_name("bf16") == HW_BF16 && hw_dtype_from_name("int9") == -1);
    CHECK_STR(hw_dtype_name(HW_FP16), "fp16");
}

static void test_public_api(void)
{
    char err[512] = "";
    struct nnperf_platform *p = NULL;
    CHECK(nnperf_platform_preset_count() == hw_preset_count());
    CHECK_STR(nnperf_platform_preset_name(0), hw_preset_name(0));
    CHECK(nnperf_platform_load("zcu102-dpu", &p, err, sizeof err) == NNPERF_OK && p);
    struct nnperf_platform_info in;
    nnperf_platform_info(p, &in);
    CHECK_STR(in.name, "zcu102-dpu");
    CHECK(in.peak_int8 == 3.452e12 && in.ddr_bandwidth == 19.2e9 && in.has_fallback);
    CHECK_STR(in.default_dtype, "int8");
    char *y = NULL;
    size_t len = 0;
    CHECK(nnperf_platform_yaml(p, &y, &len) == NNPERF_OK && y && len == strlen(y));
    CHECK(y && strstr(y, "name: zcu102-dpu\n") != NULL);
    free(y);
    /* a name ending in "..." (a plain scalar, not the document-end marker) is written whole (fuzz_set found the
     * writer cutting it to "Null", which then read back as a null) */
    CHECK(nnperf_platform_set(p, "name", "Null...", err, sizeof err) == NNPERF_OK);
    y = NULL;
    CHECK(nnperf_platform_yaml(p, &y, &len) == NNPERF_OK && y && strstr(y, "\nname: Null...\n") != NULL);
    free(y);
    nnperf_platform_free(p);
    p = NULL;
    CHECK(nnperf_platform_load("tests/bad-inputs/platforms/unknown_key.yaml", &p, err, sizeof err) ==
          NNPERF_E_INVALID);
    CHECK(p == NULL && strstr(err, "unknown_key.yaml:8: compute.efficiency.convv: unknown key") != NULL);
}

/* The key table checks itself: paths unique and well formed, every row under an existing parent of a kind that holds
 * keys, values inside the structs they describe, defaults inside their ranges, a doc line each. */
static void test_key_table(void)
{
    CHECK(hw_n_keys > 30 && hw_n_keys <= HW_KEY_CAP);
    for (int i = 0; i < hw_n_keys; i++) {
        const struct hw_key *k = &hw_keys[i];
        int ok = k->path && k->doc && k->doc[0];
        for (const char *p = k->path; ok && *p; p++)
            ok = (*p >= 'a' && *p <= 'z') || (*p >= '0' && *p <= '9') || *p == '_' || *p == '.' ||
                 *p == '[' || *p == ']';
        for (int j = 0; ok && j < i; j++) ok = strcmp(hw_keys[j].path, k->path) != 0;
        const struct hw_key *up = hw_key_parent(k);
        if (hw_key_parent_len(
                k)) /* the parent is a section, a list (its elements) or a map (explicit entries) */
            ok = ok && up &&
                 (up->type == HW_T_SECTION || up->type == HW_T_LIST ||
                  (up->map && k->type == HW_T_NUM && !k->map));
        size_t whole = sizeof(struct hw_desc);
        if (hw_key_is_element(k)) { /* inside an element: the list row's element size bounds the offsets */
            const struct hw_key *list = up;
            while (list && list->type != HW_T_LIST) list = hw_key_parent(list);
            ok = ok && list;
            whole = list ? list->size : 0;
        }
        size_t width = k->type == HW_T_NUM   ? sizeof(double) * (size_t)(k->map ? hw_key_map_size(k) : 1)
                       : k->type == HW_T_I64 ? sizeof(int64_t)
                       : k->type == HW_T_TEXT || k->type == HW_T_NAME           ? k->size
                       : k->type == HW_T_OPS || k->type == HW_T_KEYS            ? (size_t)k->max * k->size
                       : k->type == HW_T_LIST                                   ? (size_t)k->max * k->size
                       : k->type == HW_T_SECTION && !(k->flags & HW_F_PRESENCE) ? 0
                       : k->type == HW_T_FORMAT || k->type == HW_T_BASE         ? 0
                                                                                : sizeof(int);
        ok = ok && k->off + width <= whole;
        if (k->type == HW_T_OPS || k->type == HW_T_KEYS || k->type == HW_T_LIST)
            ok = ok && k->count_off + sizeof(int) <= whole && k->size > 0 && k->max >= k->min && k->max >= 1;
        if (k->type == HW_T_NUM) {
            int in = (k->def >= k->min && k->def <= k->max) || ((k->flags & HW_F_ZERO_OFF) && k->def == 0) ||
                     ((k->flags & HW_F_UNSET) && (k->def < k->min || k->def > k->max)) ||
                     (k->flags & HW_F_REQUIRED);
            ok = ok && in && k->min <= k->max && (k->unit != HW_U_FRACTION || k->max <= 1);
        }
        /* a band's rows are flagged as its band (a file on a base that gives only them changes nothing it
         * predicts: drop_base_band), and identity is the six keys that name and describe the platform */
        int band = !strncmp(k->path, "validation", 10) && (!k->path[10] || k->path[10] == '.');
        int llm = !strncmp(k->path, "llm_validation", 14) && (!k->path[14] || k->path[14] == '.');
        int id = !strcmp(k->path, "format") || !strcmp(k->path, "base") || !strcmp(k->path, "name") ||
                 !strcmp(k->path, "description") || !strcmp(k->path, "source") ||
                 !strcmp(k->path, "assumptions");
        ok = ok && !!(k->flags & HW_F_BAND) == band && !!(k->flags & HW_F_LLM_BAND) == llm &&
             !!(k->flags & HW_F_IDENTITY) == id;
        if (!ok) fprintf(stderr, "key table row %d '%s' is inconsistent\n", i, k->path);
        CHECK(ok);
        CHECK(hw_key_find(k->path) == k);
    }
    /* lookups of settable paths */
    int e = -2;
    CHECK(hw_key_resolve("memory.sram_bytes", &e) == hw_key_find("memory.sram_bytes") && e == -1);
    CHECK(hw_key_resolve("compute.peak_ops.fp16", &e) == hw_key_find("compute.peak_ops") && e == HW_FP16);
    CHECK(hw_key_resolve("compute.efficiency.conv", &e) && e == OC_CONV);
    CHECK(hw_key_resolve("compute.efficiency.default", &e) == hw_key_find("compute.efficiency.default") &&
          e == -1);
    CHECK(!hw_key_resolve("compute.peak_ops.int9", &e) && !hw_key_resolve("compute.alignment[].c", &e));
    CHECK(!hw_key_resolve("format", &e) && !hw_key_resolve("assumptions", &e) && !hw_key_resolve("", &e));
    CHECK(!hw_key_resolve("memory.sram_bytes.x", &e) && !hw_key_resolve("memory.", &e));
}

/* assumptions: validated against the table, kept, written back with marks, reachable through the public API */
static void test_assumptions(void)
{
    const char *y =
        "name: a\n"
        "assumptions: [compute.efficiency.conv, memory.sram_bandwidth, fallback, compute.peak_ops]\n"
        "compute: {peak_ops: {int8: 4T}, efficiency: {default: 0.5, conv: 0.8}}\n"
        "memory: {ddr_bandwidth: 10G, sram_bandwidth: 100G}\n"
        "fallback: {name: cpu, peak_ops: 10G, bandwidth: 5G}\n";
    struct hw_desc hw, back;
    struct diag d = {NNPERF_OK, {0}};
    CHECK(hw_load_yaml(y, strlen(y), "a.yaml", &hw, &d) == NNPERF_OK);
    CHECK(hw.n_assume == 4 && !strcmp(hw.assume[0], "compute.efficiency.conv") &&
          !strcmp(hw.assume[2], "fallback"));
    struct strbuf sb;
    sb_init(&sb, 1u << 20);
    hw_write_yaml(&hw, &sb);
    CHECK(sb.p && strstr(sb.p, "  efficiency: {default: 0.5, conv: 0.8}  # assumption: conv\n"));
    CHECK(sb.p && strstr(sb.p, "  sram_bandwidth: 1e11  # assumption\n"));
    CHECK(sb.p && strstr(sb.p, "\nfallback:  # assumption\n"));
    CHECK(sb.p && strstr(sb.p, "  peak_ops: {int8: 4e12}  # assumption\n"));
    CHECK(sb.p && hw_load_yaml(sb.p, sb.len, "back.yaml", &back, &d) == NNPERF_OK && same_desc(&hw, &back));
    CHECK(back.n_assume == 4 && !strcmp(back.assume[3], "compute.peak_ops"));
    sb_free(&sb);

    static const struct {
        const char *yaml, *expect;
    } bad[] = {
        {"assumptions: [memory.sram_byte]",
         "x.yaml:1: assumptions[0]: unknown key 'memory.sram_byte' (keys as in "
         "docs/platform-format.md)"},
        {"assumptions: [memory.sram_bytes, memory.sram_bytes]",
         "x.yaml:1: assumptions[1]: 'memory.sram_bytes' is "
         "listed twice"},
        {"assumptions: [\"compute.alignment[].c\"]",
         "x.yaml:1: assumptions[0]: unknown key 'compute.alignment[].c'"},
        {"assumptions: [format]", "x.yaml:1: assumptions[0]: unknown key 'format'"},
        {"assumptions: []", "x.yaml:1: assumptions: empty list (leave the key out instead)"},
        {"assumptions: memory", "x.yaml:1: assumptions: expected a list of keys, got a string"},
    };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        char text[512];
        snprintf(text, sizeof text,
                 "%s\nname: a\ncompute: {peak_ops: {int8: 1T}}\nmemory: {ddr_bandwidth: 1G}\n", bad[i].yaml);
        d.status = NNPERF_OK;
        CHECK(hw_load_yaml(text, strlen(text), "x.yaml", &hw, &d) == NNPERF_E_INVALID);
        if (strncmp(d.msg, bad[i].expect, strlen(bad[i].expect))) fprintf(stderr, "got: %s\n", d.msg);
        CHECK(!strncmp(d.msg, bad[i].expect, strlen(bad[i].expect)));
    }

    char err[512];
    struct nnperf_platform *p = NULL;
    char path[] = "/tmp/nnperf-test-hw-XXXXXX";
    int fd = mkstemp(path);
    FILE *f = fd >= 0 ? fdopen(fd, "w") : NULL;
    CHECK(f != NULL);
    if (!f) return;
    fputs(y, f);
    fclose(f);
    CHECK(nnperf_platform_load(path, &p, err, sizeof err) == NNPERF_OK);
    remove(path);
    CHECK(nnperf_platform_assumption_count(p) == 4);
    CHECK_STR(nnperf_platform_assumption(p, 1), "memory.sram_bandwidth");
    CHECK(nnperf_platform_assumption(p, 4) == NULL && nnperf_platform_assumption(p, -1) == NULL);
    char v[64];
    CHECK(nnperf_platform_get(p, "memory.sram_bandwidth", v, sizeof v) == NNPERF_OK);
    CHECK_STR(v, "1e11");
    CHECK(nnperf_platform_get(p, "compute.efficiency.conv", v, sizeof v) == NNPERF_OK);
    CHECK_STR(v, "0.8");
    CHECK(nnperf_platform_get(p, "compute.efficiency.pool", v, sizeof v) == NNPERF_OK);
    CHECK_STR(v, "0.5"); /* not given: the default applies */
    CHECK(nnperf_platform_get(p, "compute.efficiency", v, sizeof v) == NNPERF_OK);
    CHECK_STR(v, "{default: 0.5, conv: 0.8}");
    CHECK(nnperf_platform_get(p, "fallback.name", v, sizeof v) == NNPERF_OK);
    CHECK_STR(v, "cpu");
    CHECK(nnperf_platform_get(p, "fallback", v, sizeof v) == NNPERF_E_USAGE);
    CHECK(nnperf_platform_get(p, "memory.sram_byte", v, sizeof v) == NNPERF_E_USAGE);
    CHECK(nnperf_platform_get(p, "compute.efficiency", v, 5) == NNPERF_E_LIMIT && v[0] == 0);
    nnperf_platform_free(p);
}

static void write_text(const char *path, const char *text)
{
    FILE *f = fopen(path, "w");
    CHECK(f != NULL);
    if (!f) return;
    fputs(text, f);
    fclose(f);
}

/* base: a preset or a file, then this file's keys on top; lists replaced; assumptions of the base kept for the keys
 * not overridden; the default dtype follows the peaks */
static void test_base(void)
{
    char dir[] = "/tmp/nnperf-test-base-XXXXXX", path[300], child[300];
    CHECK(mkdtemp(dir) != NULL);
    snprintf(path, sizeof path, "%s/base.yaml", dir);
    write_text(path, "name: base\n"
                     "assumptions: [memory.sram_bytes, compute.efficiency.conv, overhead.per_layer_s]\n"
                     "compute:\n  peak_ops: {int8: 8T, fp16: 2T}\n  efficiency: {default: 0.4, conv: 0.7}\n"
                     "  fusion: [[Conv, Relu], [Conv, Add, Relu]]\n"
                     "memory: {ddr_bandwidth: 20G, sram_bytes: 4MiB, ddr_efficiency: 0.8}\n"
                     "overhead: {per_layer_s: 2us}\n");
    snprintf(child, sizeof child, "%s/child.yaml", dir);
    write_text(child, "base: base.yaml   # next to this file\nname: child\nmemory: {sram_bytes: 16MiB}\n"
                      "compute: {efficiency: {conv: 0.5}, fusion: [[Conv, BatchNormalization]]}\n"
                      "assumptions: [memory.ddr_efficiency]\n");
    struct hw_desc hw;
    struct diag d = {NNPERF_OK, {0}};
    CHECK(hw_load_file(child, &hw, &d) == NNPERF_OK);
    CHECK_STR(hw.name, "child");
    CHECK(hw.sram_bytes == 16.0 * 1048576 && hw.ddr_bw == 20e9 && hw.ddr_eff == 0.8);
    CHECK(hw.peak_ops[HW_INT8] == 8e12 && hw.eff_default == 0.4 && hw.eff[OC_CONV] == 0.5);
    CHECK(hw.n_fusion == 1 && hw.fusion[0].len == 2 && !strcmp(hw.fusion[0].ops[1], "BatchNormalization"));
    CHECK(hw.n_assume == 2 && !strcmp(hw.assume[0], "memory.ddr_efficiency") &&
          !strcmp(hw.assume[1], "overhead.per_layer_s"));
    /* without its own list the base's stays, minus what the file overrides */
    write_text(child,
               "base: base.yaml\nname: child\ncompute: {peak_ops: {int8: 0}}\nmemory: {sram_bytes: 1MiB}\n");
    CHECK(hw_load_file(child, &hw, &d) == NNPERF_OK);
    CHECK(hw.n_assume == 2 && !strcmp(hw.assume[0], "compute.efficiency.conv") &&
          !strcmp(hw.assume[1], "overhead.per_layer_s"));
    CHECK(hw.default_dtype == HW_FP16); /* int8 lost its peak: the next with one */
    /* a preset as base, and a base's own base */
    write_text(path, "base: rdk-s100\nname: rdk-16m\nmemory: {sram_bytes: 16MiB}\n");
    write_text(child, "base: base.yaml\nname: rdk-16m-fast\nmemory: {ddr_bandwidth: 100G}\n");
    CHECK(hw_load_file(child, &hw, &d) == NNPERF_OK);
    struct hw_desc rdk;
    CHECK(hw_resolve("rdk-s100", &rdk, &d) == NNPERF_OK);
    CHECK(hw.sram_bytes == 16.0 * 1048576 && hw.ddr_bw == 100e9 &&
          hw.peak_ops[HW_INT8] == rdk.peak_ops[HW_INT8]);
    CHECK(hw.fb.present && hw.n_fusion == rdk.n_fusion && hw.n_unsupported == rdk.n_unsupported);
    CHECK(hw.default_dtype == HW_INT8 && hw.eff[OC_CONV] == rdk.eff[OC_CONV]);
    /* the written form stands alone (no base) and loads back the same */
    struct strbuf sb;
    sb_init(&sb, 1u << 20);
    hw_write_yaml(&hw, &sb);
    struct hw_desc back;
    CHECK(sb.p && !strstr(sb.p, "base:") && hw_load_yaml(sb.p, sb.len, "w.yaml", &back, &d) == NNPERF_OK);
    CHECK(same_desc(&hw, &back));
    sb_free(&sb);
    /* the base's validation band (rdk-s100 has test rows): kept by a file that only renames it, or that gives
     * its own; dropped by one that changes what it predicts without its own (the base's rows did not validate it) */
    CHECK(rdk.val_rows > 0 && rdk.val_median > 0);
    write_text(child, "base: rdk-s100\nname: my-s100\ndescription: \"the same board\"\n");
    CHECK(hw_load_file(child, &hw, &d) == NNPERF_OK);
    CHECK(hw.val_rows == rdk.val_rows && hw.val_median == rdk.val_median && hw.val_p90 == rdk.val_p90);
    write_text(child, "base: rdk-s100\nname: my-s100\nmemory: {ddr_bandwidth: 100G}\n");
    CHECK(hw_load_file(child, &hw, &d) == NNPERF_OK);
    CHECK(hw.val_rows == 0 && hw.val_median == 0 && hw.val_p90 == 0 && hw.val_spread == 0 &&
          hw.val_fam[HW_FAM_CNN].rows == 0 && hw.val_fam[HW_FAM_TRANSFORMER].rows == 0);
    write_text(child, "base: rdk-s100\nname: my-s100\noverhead: {per_run_s: 1ms}\n"
                      "validation: {test_rows: 7, median_error: 0.05, p90_error: 0.1}\n");
    CHECK(hw_load_file(child, &hw, &d) == NNPERF_OK);
    CHECK(hw.val_rows == 7 && hw.val_median == 0.05 && hw.val_p90 == 0.1);
    /* the LLM band (llm_validation: `nnperf llm`) the same way, by the file's own llm_validation alone: a file with
     * its own validation of CNN rows and none for decoders drops the base's LLM band */
    struct hw_desc agx;
    CHECK(hw_resolve("jetson-agx-orin", &agx, &d) == NNPERF_OK);
    CHECK(agx.val_llm.rows > 0 && agx.val_llm.median > 0 && agx.val_llm.p90 >= agx.val_llm.median);
    write_text(child, "base: jetson-agx-orin\nname: my-orin\n");
    CHECK(hw_load_file(child, &hw, &d) == NNPERF_OK);
    CHECK(hw.val_llm.rows == agx.val_llm.rows && hw.val_llm.median == agx.val_llm.median);
    write_text(child, "base: jetson-agx-orin\nname: my-orin\noverhead: {per_run_s: 1ms}\n"
                      "validation: {test_rows: 7, median_error: 0.05, p90_error: 0.1}\n");
    CHECK(hw_load_file(child, &hw, &d) == NNPERF_OK);
    CHECK(hw.val_rows == 7 && hw.val_llm.rows == 0 && hw.val_llm.median == 0 && hw.val_llm.p90 == 0);
    write_text(child, "base: jetson-agx-orin\nname: my-orin\nmemory: {ddr_efficiency: 0.8}\n"
                      "llm_validation: {test_rows: 3, median_error: 0.02, p90_error: 0.04}\n");
    CHECK(hw_load_file(child, &hw, &d) == NNPERF_OK);
    CHECK(hw.val_rows == 0 && hw.val_llm.rows == 3 && hw.val_llm.median == 0.02 && hw.val_llm.p90 == 0.04);
    /* a preset names presets only; depth is bounded */
    d.status = NNPERF_OK;
    const char *pre = "base: /etc/hostname\nname: x\n";
    CHECK(hw_load_text(pre, strlen(pre), "presets/x.yaml", "preset:x", HW_LOAD_NO_FILES, &hw, &d) ==
          NNPERF_E_INVALID);
    CHECK_STR(d.msg,
              "presets/x.yaml:1: base: '/etc/hostname' is not a built-in preset (here a base must be one)");
    for (int i = 0; i <= HW_MAX_BASE + 1; i++) {
        char f[320], text[400];
        snprintf(f, sizeof f, "%s/chain%d.yaml", dir, i);
        if (i <= HW_MAX_BASE)
            snprintf(text, sizeof text, "base: chain%d.yaml\nname: c%d\n", i + 1, i);
        else
            snprintf(text, sizeof text,
                     "name: last\ncompute: {peak_ops: {int8: 1T}}\nmemory: {ddr_bandwidth: 1G}\n");
        write_text(f, text);
    }
    snprintf(path, sizeof path, "%s/chain1.yaml", dir); /* 8 bases below it: fine */
    d.status = NNPERF_OK;
    CHECK(hw_load_file(path, &hw, &d) == NNPERF_OK && !strcmp(hw.name, "c1"));
    snprintf(path, sizeof path, "%s/chain0.yaml", dir); /* 9: refused */
    CHECK(hw_load_file(path, &hw, &d) == NNPERF_E_LIMIT &&
          strstr(d.msg, "bases nested deeper than 8 levels"));
    char cmd[400];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
    CHECK(system(cmd) == 0);
}

/* --set: one key through the table, the whole description checked again, nothing changed on error */
static void test_set(void)
{
    struct hw_desc hw, before;
    struct diag d = {NNPERF_OK, {0}};
    CHECK(hw_resolve("horizon-j5", &hw, &d) == NNPERF_OK);
    hw.n_assume = 1;
    snprintf(hw.assume[0], HW_MAX_KEY, "memory.sram_bytes");
    CHECK(hw_set(&hw, "memory.sram_bytes", "16MiB", &d) == NNPERF_OK && hw.sram_bytes == 16.0 * 1048576);
    CHECK(hw.n_assume == 0); /* the user's value, no longer the description's assumption */
    CHECK(hw_set(&hw, "compute.peak_ops.fp16", "64T", &d) == NNPERF_OK && hw.peak_ops[HW_FP16] == 64e12);
    double gemm = hw.eff[OC_GEMM], dflt = hw.eff_default;
    CHECK(hw_set(&hw, "compute.efficiency", "{conv: 0.4, pool: 0.2}", &d) == NNPERF_OK);
    CHECK(hw.eff[OC_CONV] == 0.4 && hw.eff[OC_POOL] == 0.2); /* merged: the others keep their values */
    CHECK(hw.eff[OC_GEMM] == gemm && hw.eff_default == dflt);
    CHECK(hw_set(&hw, "compute.unsupported", "[Softmax, TopK]", &d) == NNPERF_OK && hw.n_unsupported == 2);
    CHECK(hw_set(&hw, "memory.overlap", "false", &d) == NNPERF_OK && hw.overlap == 0);
    CHECK(hw_set(&hw, "fallback.overhead_s", "20us", &d) == NNPERF_OK &&
          fabs(hw.fb.overhead_s - 2e-5) < 1e-18);
    struct hw_desc gpu;
    CHECK(hw_resolve("h100-sxm", &gpu, &d) == NNPERF_OK && !gpu.fb.present);
    CHECK(hw_set(&gpu, "fallback.peak_ops", "1G", &d) == NNPERF_E_USAGE);
    CHECK_STR(
        d.msg,
        "--set fallback.peak_ops: the platform has no 'fallback' (set the whole section: fallback={...})");
    d.status = NNPERF_OK;
    CHECK(hw_set(&gpu, "fallback", "{name: host-cpu, peak_ops: 1T, bandwidth: 50G}", &d) == NNPERF_OK);
    CHECK(gpu.fb.present && gpu.fb.peak_ops == 1e12 && gpu.fb.efficiency == 1);
    static const struct {
        const char *key, *value;
        enum nnperf_status st;
        const char *msg;
    } bad[] = {
        {"memory.sram_bytes", "1e-300", NNPERF_E_INVALID,
         "--set memory.sram_bytes: must be 0 or between 1 and 1e15 bytes, got '1e-300'"},
        {"memory.ddr_bandwidth", "25.6ms", NNPERF_E_INVALID,
         "--set memory.ddr_bandwidth: '25.6ms' is a time in seconds, expected a bandwidth in bytes/s"},
        {"memory.sram_byte", "1", NNPERF_E_USAGE,
         "--set memory.sram_byte: not a platform key (docs/platform-format.md lists them)"},
        {"compute.peak_ops.int8", "0", NNPERF_E_INVALID,
         "--set: compute.default_dtype: 'int8' has no peak in compute.peak_ops"},
        {"compute.unsupported", "[Sofmax]", NNPERF_E_INVALID,
         "--set compute.unsupported[0]: unknown operator 'Sofmax' (names as in 'nnperf ops')"},
        {"compute.efficiency", "{convv: 1}", NNPERF_E_INVALID, "--set compute.efficiency.convv: unknown key"},
        {"memory.ddr_bandwidth", "", NNPERF_E_USAGE, "--set memory.ddr_bandwidth: no value"},
        {"memory.ddr_bandwidth", "~", NNPERF_E_INVALID,
         "--set memory.ddr_bandwidth: expected a number, got an empty"},
        {"memory.ddr_bandwidth", "[1", NNPERF_E_PARSE, "--set:"},
        {"assumptions", "[memory]", NNPERF_E_USAGE, "--set assumptions: not a platform key"},
        {"compute.alignment[0].c", "8", NNPERF_E_USAGE, "--set compute.alignment[0].c: not a platform key"},
    };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        before = hw;
        d.status = NNPERF_OK;
        enum nnperf_status st = hw_set(&hw, bad[i].key, bad[i].value, &d);
        if (st != bad[i].st || strncmp(d.msg, bad[i].msg, strlen(bad[i].msg)))
            fprintf(stderr, "--set %s=%s: %d %s\n", bad[i].key, bad[i].value, (int)st, d.msg);
        CHECK(st == bad[i].st && !strncmp(d.msg, bad[i].msg, strlen(bad[i].msg)));
        CHECK(!memcmp(&hw, &before, sizeof hw)); /* unchanged */
    }
    char err[256];
    struct nnperf_platform *p = NULL, *q = NULL;
    CHECK(nnperf_platform_load("zcu102-dpu", &p, err, sizeof err) == NNPERF_OK);
    CHECK(nnperf_platform_copy(p, &q) == NNPERF_OK && q);
    CHECK(nnperf_platform_set(q, "memory.ddr_bandwidth", "38.4 GB/s", err, sizeof err) == NNPERF_OK);
    struct nnperf_platform_info a, b;
    nnperf_platform_info(p, &a);
    nnperf_platform_info(q, &b);
    CHECK(a.ddr_bandwidth == 19.2e9 && b.ddr_bandwidth == 38.4e9);
    CHECK(nnperf_platform_set(q, "memory.ddr_bandwidth", "0", err, sizeof err) == NNPERF_E_INVALID);
    CHECK_STR(err, "--set memory.ddr_bandwidth: must be between 1e6 and 1e17 bytes/s, got '0'");
    nnperf_platform_free(p);
    nnperf_platform_free(q);
}

/* units: each key takes its own unit's suffixes and no other's; files that are not regular are refused unread */
static void test_units_and_files(void)
{
    double v = 0;
    enum hw_unit other;
    CHECK(hw_parse_value("25.6GB/s", HW_U_BYTES_S, &v, &other) && v == 25.6e9);
    CHECK(!hw_parse_value("25.6ms", HW_U_BYTES_S, &v, &other) && other == HW_U_SECONDS);
    CHECK(!hw_parse_value("4MiB", HW_U_BYTES_S, &v, &other) && other == HW_U_BYTES);
    CHECK(hw_parse_value("4MiB/s", HW_U_BYTES_S, &v, &other) && v == 4194304.0);
    CHECK(!hw_parse_value("4MiB/h", HW_U_BYTES_S, &v, &other) && other == HW_U_COUNT);
    CHECK(hw_parse_value("4MiB", HW_U_BYTES, &v, &other) && v == 4194304.0);
    CHECK(!hw_parse_value("4TOPS", HW_U_BYTES, &v, &other) && other == HW_U_OPS_S);
    CHECK(hw_parse_value("50us", HW_U_SECONDS, &v, &other) && fabs(v - 5e-5) < 1e-19);
    CHECK(!hw_parse_value("5Gs", HW_U_SECONDS, &v, &other) && other == HW_U_COUNT);
    CHECK(!hw_parse_value("0.5B", HW_U_FRACTION, &v, &other) && other == HW_U_BYTES);
    CHECK(!hw_parse_value("5k", HW_U_FRACTION, &v, &other));
    CHECK(hw_parse_value("2.5pJ", HW_U_JOULES, &v, &other) && fabs(v - 2.5e-12) < 1e-26);
    CHECK(hw_parse_value("15W", HW_U_WATTS, &v, &other) && v == 15);
    CHECK(hw_parse_value("800mW", HW_U_WATTS, &v, &other) && fabs(v - 0.8) < 1e-15);
    CHECK(hw_parse_value("1.5k", HW_U_NONE, &v, &other) && v == 1500);
    CHECK(!hw_parse_value("1.5kB", HW_U_NONE, &v, &other) && other == HW_U_BYTES);

    struct hw_desc hw;
    struct diag d = {NNPERF_OK, {0}};
    char dir[] = "/tmp/nnperf-test-fifo-XXXXXX", fifo[300];
    CHECK(mkdtemp(dir) != NULL);
    snprintf(fifo, sizeof fifo, "%s/p.yaml", dir);
    CHECK(mkfifo(fifo, 0600) == 0);
    CHECK(hw_load_file(fifo, &hw, &d) == NNPERF_E_IO); /* no writer: a read would block forever */
    CHECK(strstr(d.msg, "p.yaml: cannot read: not a regular file (a FIFO)") != NULL);
    d.status = NNPERF_OK;
    CHECK(hw_resolve(dir, &hw, &d) == NNPERF_E_IO && strstr(d.msg, "not a regular file (a directory)"));
    d.status = NNPERF_OK;
    CHECK(hw_load_file("/dev/zero", &hw, &d) == NNPERF_E_IO &&
          !strcmp(d.msg, "/dev/zero: cannot read: not a regular file (a character device)"));
    remove(fifo);
    rmdir(dir);
    /* a NUL escape in a value is refused, not a shorter string */
    const char *esc = "name: \"ab\\0cd\"\ncompute: {peak_ops: {int8: 1T}}\nmemory: {ddr_bandwidth: 1G}\n";
    d.status = NNPERF_OK;
    CHECK(hw_load_yaml(esc, strlen(esc), "e.yaml", &hw, &d) == NNPERF_E_INVALID);
    CHECK_STR(d.msg, "e.yaml:1: name: contains a nul byte");
}

/* op_find_name (the operator lists' check): every row's name is found, as a row of that name; others are not */
static void test_op_find_name(void)
{
    int bad = 0;
    for (int i = 0; i < OPID_COUNT; i++) {
        int j = op_find_name(op_table[i].name);
        if (j < 0 || strcmp(op_table[j].name, op_table[i].name)) bad++;
    }
    CHECK_EQ_U(bad, 0);
    CHECK(op_find_name("Conv") >= 0 && op_find_name("QLinearConv") >= 0);
    CHECK(op_find_name("NotAnOperator") < 0 && op_find_name("") < 0 && op_find_name("conv") < 0);
}

int main(void)
{
    test_op_find_name();
    test_presets();
    test_numbers();
    test_bad_files();
    test_text_limits();
    test_public_api();
    test_key_table();
    test_assumptions();
    test_base();
    test_set();
    test_units_and_files();
    return tt_done();
}
