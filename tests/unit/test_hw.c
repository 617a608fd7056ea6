/* test_hw.c - platform descriptions: every preset loads, validates and round-trips through hw_write_yaml; the
 * number parser; each bad file in tests/bad-inputs/platforms gives its expected "file:line: key: message"; the
 * public nnperf_platform_* API. Runs from the repository root. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "hw/keys.h"
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

struct bad_case {
    const char *file;
    enum nnperf_status st;
    const char *expect; /* the message after "tests/bad-inputs/platforms/<file>" */
};

static const struct bad_case bad_cases[] = {
    {"unknown_key.yaml", NNPERF_E_INVALID,
     ":8: compute.efficiency.convv: unknown key (known: default, conv, gemm, matmul, attention, rnn, "
     "eltwise, "
     "activation, pool, norm, reduce, softmax, resize, data, view, quant, generator, control, sequence, "
     "other, conv_grouped)"},
    {"wrong_type.yaml", NNPERF_E_INVALID, ":4: compute.cores: expected a number, got a list"},
    {"wrong_type_number.yaml", NNPERF_E_INVALID, ":6: memory.ddr_bandwidth: expected a number, got 'fast'"},
    {"duplicate_key.yaml", NNPERF_E_INVALID,
     ":8: memory.ddr_bandwidth: duplicate key (first given at line 6)"},
    {"negative_bandwidth.yaml", NNPERF_E_INVALID,
     ":6: memory.ddr_bandwidth: must be between 1e6 and 1e17 bytes/s, got '-19.2e9'"},
    {"efficiency_above_one.yaml", NNPERF_E_INVALID,
     ":5: compute.efficiency.conv: must be between 0.0001 and 1, got '1.2'"},
    {"unknown_dtype.yaml", NNPERF_E_INVALID,
     ":6: compute.peak_ops.int9: unknown key (known: int4, int8, fp16, bf16, fp32)"},
    {"unknown_default_dtype.yaml", NNPERF_E_INVALID,
     ":5: compute.default_dtype: unknown dtype 'fp64' (known: int4, int8, fp16, bf16, fp32)"},
    {"default_dtype_no_peak.yaml", NNPERF_E_INVALID,
     ":5: compute.default_dtype: 'fp16' has no peak in compute.peak_ops"},
    {"unknown_class.yaml", NNPERF_E_INVALID,
     ":7: compute.alignment[1].classes[0]: unknown operator class 'convolution' (known: conv, gemm,"},
    {"unknown_operator.yaml", NNPERF_E_INVALID,
     ":5: compute.unsupported[1]: unknown operator 'Sofmax' (names as in 'nnperf ops')"},
    {"malformed.yaml", NNPERF_E_PARSE, ":5: malformed yaml: did not find expected ',' or '}'"},
    {"empty.yaml", NNPERF_E_INVALID,
     ":1: empty file (a platform needs at least 'name' and 'memory.ddr_bandwidth')"},
    {"comments_only.yaml", NNPERF_E_INVALID, ":1: empty file"},
    {"missing_ddr.yaml", NNPERF_E_INVALID, ":5: memory.ddr_bandwidth: required key missing"},
    {"missing_name.yaml", NNPERF_E_INVALID, ":2: name: required key missing"},
    {"fallback_missing_peak.yaml", NNPERF_E_INVALID, ":7: fallback.peak_ops: required key missing"},
    {"not_mapping.yaml", NNPERF_E_INVALID, ":1: expected a mapping at the top level, got a list"},
    {"format_version.yaml", NNPERF_E_UNSUPPORTED,
     ":1: format: version 2 is not supported (this build reads 1)"},
    {"alias.yaml", NNPERF_E_INVALID, ":4: yaml aliases (*name) are not supported"},
    {"no_peak.yaml", NNPERF_E_INVALID, ":4: compute.peak_ops: no dtype has a positive peak"},
    {"nan_number.yaml", NNPERF_E_INVALID, ":3: compute.peak_ops.int8: expected a number, got '.nan'"},
    {"deep_nesting.yaml", NNPERF_E_LIMIT, ":2: nested deeper than 16 levels"},
    {"bad_utf8.yaml", NNPERF_E_PARSE, ":1: malformed yaml: incomplete UTF-8 octet sequence"},
};

static void test_bad_files(void)
{
    for (size_t i = 0; i < sizeof bad_cases / sizeof bad_cases[0]; i++) {
        const struct bad_case *b = &bad_cases[i];
        char path[256], want[700];
        snprintf(path, sizeof path, "tests/bad-inputs/platforms/%s", b->file);
        snprintf(want, sizeof want, "%s%s", path, b->expect);
        struct hw_desc hw;
        struct diag d = {NNPERF_OK, {0}};
        enum nnperf_status st = hw_load_file(path, &hw, &d);
        if (st != b->st || strncmp(d.msg, want, strlen(want)))
            fprintf(stderr, "%s: status %d, message\n  %s\nexpected %d,\n  %s\n", b->file, (int)st, d.msg,
                    (int)b->st, want);
        CHECK(st == b->st);
        CHECK(!strncmp(d.msg, want, strlen(want)));
        CHECK(hw.name[0] == 0); /* nothing half-loaded */
    }
    /* every file in the folder is listed above (a new bad file needs its expectation) */
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

int main(void)
{
    test_presets();
    test_numbers();
    test_bad_files();
    test_text_limits();
    test_public_api();
    test_key_table();
    test_assumptions();
    return tt_done();
}
