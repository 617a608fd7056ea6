/* fuzz_set.c - libFuzzer harness for `--set KEY=VALUE` and sweep grids (`--set KEY=V1,V2,...`): the input is one
 * --set argument. It is split as the CLI splits it (cli_set_next: commas inside quotes and flow collections do not
 * split; at most CLI_MAX_LIST values), and each value is set on a copy of a preset (nnperf_platform_set: the key
 * table's units, ranges and types, then the whole description's rules). A value that is accepted must leave a
 * platform whose YAML (nnperf_platform_yaml) the reader reads back, and writing what was read back gives the same
 * text (a finding: abort). The 17th key set on one platform is refused, never applied unlisted.
 * Seeds: tests/fuzz/corpus/fuzz_set/; dictionary: fuzz_set.dict (platform keys, units, quotes, tags). */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "hw/hw.h"
#include "nnperf.h"
#include "nnperf/cli.h"

int LLVMFuzzerInitialize(int *argc, char ***argv);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static struct nnperf_platform *base;

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
    (void)argc, (void)argv;
    char err[512];
    if (nnperf_platform_load("zcu102-dpu", &base, err, sizeof err) != NNPERF_OK) {
        fprintf(stderr, "fuzz_set: %s\n", err);
        abort();
    }
    return 0;
}

/* the YAML of p read back and written again equals the YAML of p */
static void round_trip(const struct nnperf_platform *p)
{
    char *y1 = NULL, *y2 = NULL;
    size_t n1 = 0, n2 = 0;
    if (nnperf_platform_yaml(p, &y1, &n1) != NNPERF_OK || !y1) abort();
    struct hw_desc *hw = malloc(sizeof *hw);
    struct diag d = {NNPERF_OK, {0}};
    if (!hw) abort();
    if (hw_load_text(y1, n1, "written", NULL, HW_LOAD_NO_FILES, hw, &d) != NNPERF_OK) {
        fprintf(stderr, "fuzz_set: the written platform is refused: %s\n%s\n", d.msg, y1);
        abort();
    }
    struct strbuf sb;
    sb_init(&sb, (size_t)1 << 24);
    hw_write_yaml(hw, &sb);
    y2 = sb.p, n2 = sb.len;
    if (!y2 || n1 != n2 || memcmp(y1, y2, n1)) {
        fprintf(stderr, "fuzz_set: written, read and written again differs:\n%s\n----\n%s\n", y1,
                y2 ? y2 : "");
        abort();
    }
    sb_free(&sb);
    free(hw);
    free(y1);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    char *arg = malloc(size + 1);
    if (!arg) abort();
    memcpy(arg, data, size);
    arg[size] = 0;
    char *eq = strchr(arg, '=');
    if (!eq || eq == arg) {
        free(arg);
        return 0;
    }
    *eq = 0;
    const char *key = arg;
    char *value = eq + 1;
    /* the values of the list, as the CLI splits them */
    const char *vals[CLI_MAX_LIST + 1];
    int n = 0;
    for (char *v = value, *next; v && n <= CLI_MAX_LIST; v = next) {
        next = (char *)cli_set_next(v);
        if (next) *next++ = 0;
        vals[n++] = v;
    }
    for (int i = 0; i < n && i < 8; i++) {
        struct nnperf_platform *p = NULL;
        char err[1024];
        if (nnperf_platform_copy(base, &p) != NNPERF_OK) abort();
        enum nnperf_status st = nnperf_platform_set(p, key, vals[i], err, sizeof err);
        if (st != NNPERF_OK && !err[0]) abort(); /* a refusal says why */
        if (st == NNPERF_OK) round_trip(p);
        if (st == NNPERF_OK && i == 0) {
            /* the override list holds at most 16 keys: a 17th distinct key is refused, not applied unlisted
             * (checked on the first value only: 17 more sets per value were most of the harness's time) */
            static const char *const cls[] = {
                "conv",   "gemm",    "matmul", "attention", "rnn",  "eltwise", "activation", "pool",   "norm",
                "reduce", "softmax", "resize", "data",      "view", "quant",   "generator",  "control"};
            int set = 1;
            for (int j = 0; j < 17; j++) {
                char k[48];
                snprintf(k, sizeof k, "compute.efficiency.%s", cls[j]);
                if (!strcmp(k, key)) continue;
                if (nnperf_platform_set(p, k, "0.5", err, sizeof err) == NNPERF_OK) set++;
            }
            if (set > 16) abort();
        }
        nnperf_platform_free(p);
    }
    free(arg);
    return 0;
}
