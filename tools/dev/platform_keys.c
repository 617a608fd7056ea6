/* platform_keys.c - dev tool: prints what the platform key table (src/hw/keys.c) generates.
 *   platform_keys markdown   the key table of docs/platform-format.md
 *   platform_keys dict       the libFuzzer dictionary of the platform YAML harness (tests/fuzz/fuzz_platform.dict)
 * tools/dev/gen_platform_doc.sh writes both into the repository (or, with --check, compares them). */
#include <stdio.h>
#include <string.h>

#include "hw/keys.h"

static const char *type_name(const struct hw_key *k)
{
    switch (k->type) {
    case HW_T_SECTION: return "mapping";
    case HW_T_NUM:
        return k->map == HW_MAP_DTYPE ? "number per dtype" : k->map ? "number per class" : "number";
    case HW_T_INT:
    case HW_T_I64:
    case HW_T_FORMAT: return "integer";
    case HW_T_BOOL: return "boolean";
    case HW_T_TEXT: return "string";
    case HW_T_NAME: return "name";
    case HW_T_DTYPE: return "dtype";
    case HW_T_OPS: return "list of operator names";
    case HW_T_CLASSES: return "list of operator classes";
    case HW_T_KEYS: return "list of keys";
    case HW_T_LIST: return "list";
    case HW_T_BASE: return "preset or file";
    }
    return "?";
}

static void range(const struct hw_key *k, char *b, size_t cap)
{
    char lo[40], hi[40];
    hw_fmt_num(k->min, lo, sizeof lo);
    hw_fmt_num(k->max, hi, sizeof hi);
    b[0] = 0;
    if (k->type == HW_T_NUM)
        snprintf(b, cap, "%s%s to %s", (k->flags & HW_F_ZERO_OFF) ? "0, or " : "", lo, hi);
    else if (k->type == HW_T_INT || k->type == HW_T_I64 || k->type == HW_T_FORMAT)
        snprintf(b, cap, "%s to %s", lo, hi);
    else if (k->type == HW_T_OPS || k->type == HW_T_KEYS || k->type == HW_T_LIST)
        snprintf(b, cap, "%s to %s entries", k->type == HW_T_LIST ? "0" : lo, hi);
}

static void default_text(const struct hw_key *k, char *b, size_t cap)
{
    char v[40];
    hw_fmt_num(k->def, v, sizeof v);
    if (k->flags & HW_F_REQUIRED)
        snprintf(b, cap, "*required*");
    else if (k->flags & HW_F_PRESENCE)
        snprintf(b, cap, "absent");
    else if (k->flags & HW_F_UNSET)
        snprintf(b, cap, "`default`");
    else if (k->type == HW_T_NUM || k->type == HW_T_INT || k->type == HW_T_I64 || k->type == HW_T_FORMAT)
        snprintf(b, cap, "%s", v);
    else if (k->type == HW_T_BOOL)
        snprintf(b, cap, "%s", k->def != 0 ? "true" : "false");
    else if (k->type == HW_T_TEXT || k->type == HW_T_NAME)
        snprintf(b, cap, "\"\"");
    else if (k->type == HW_T_DTYPE)
        snprintf(b, cap, "see meaning");
    else if (k->type == HW_T_SECTION)
        b[0] = 0;
    else
        snprintf(b, cap, "none");
}

static void markdown(void)
{
    printf("| key | type | unit | range | default | meaning |\n|---|---|---|---|---|---|\n");
    for (int i = 0; i < hw_n_keys; i++) {
        const struct hw_key *k = &hw_keys[i];
        char r[80], d[40], keys[400] = "";
        range(k, r, sizeof r);
        default_text(k, d, sizeof d);
        size_t used = 0;
        for (int e = 0; e < hw_key_map_size(k) && used < sizeof keys; e++)
            used += (size_t)snprintf(keys + used, sizeof keys - used, "%s`%s`",
                                     e ? ", " : "; keys: ", hw_key_map_name(k, e));
        const char *suffix = k->map == HW_MAP_DTYPE ? ".DTYPE" : k->map ? ".CLASS" : "";
        const char *unit = k->unit == HW_U_NONE ? "" : hw_unit_name(k->unit);
        printf("| `%s%s` | %s | %s | %s | %s | %s%s |\n", k->path, suffix, type_name(k), unit, r, d, k->doc,
               keys);
    }
}

static void dict(void)
{
    /* written in the dictionary's own escaping: \" a quote, \\ a backslash, \xNN a byte */
    static const char *const fixed[] = {
        "{",     "}",     "[",         "]",      "- ",    ": ",  ", ",     "\\\"",   "'",   "#",    "---",
        "...",   "~",     "null",      "true",   "false", "&a",  "*a",     "!!str",  "? ",  "|",    ">",
        "\\x00", "\\\\0", "\\\\u0000", "1e-300", "1e300", "-1",  "0",      ".5",     "nan", ".inf", "0x10",
        "k",     "M",     "G",         "T",      "P",     "Ki",  "Mi",     "Gi",     "B",   "B/s",  "GB/s",
        "MiB",   "TOPS",  "ops/s",     "FLOPS",  "Hz",    "s",   "ms",     "us",     "ns",  "W",    "mW",
        "J",     "pJ",    "nJ",        "Conv",   "Relu",  "Add", "MatMul", "Softmax"};
    for (size_t i = 0; i < sizeof fixed / sizeof fixed[0]; i++) printf("\"%s\"\n", fixed[i]);
    for (int i = 0; i < hw_n_keys; i++) {
        const struct hw_key *k = &hw_keys[i];
        if (!strchr(k->path, '[')) printf("\"%s\"\n", k->path); /* assumptions: and --set name whole paths */
        const char *leaf = hw_key_leaf(k);
        size_t n = strcspn(leaf, "[");
        if (n) printf("\"%.*s:\"\n", (int)n, leaf);
    }
    for (int e = 0; e < HW_NDT; e++) printf("\"%s\"\n", hw_dtype_name(e));
    for (int e = 0; e < OC_COUNT; e++) printf("\"%s\"\n", op_class_name(e));
}

int main(int argc, char **argv)
{
    if (argc == 2 && !strcmp(argv[1], "markdown")) {
        markdown();
        return 0;
    }
    if (argc == 2 && !strcmp(argv[1], "dict")) {
        dict();
        return 0;
    }
    fprintf(stderr, "usage: platform_keys markdown|dict\n");
    return 2;
}
