/* cmd_hw.c - `nnperf hw list` (the built-in platform presets with their peaks, DDR bandwidth and expected errors) and
 * `nnperf hw show NAME|FILE` (a preset's YAML as shipped, or a file validated and written back normalised). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"

static void put_tops(double ops)
{
    if (ops > 0)
        printf(" %9.2f", ops / 1e12);
    else
        printf(" %9s", "-");
}

/* a band of the platform (section "validation": analyze's expected error over its test rows in bench/fidelity;
 * "llm_validation": nnperf llm's over its published LLM test rows) as the reports' short form, "-" without one */
static void band(const struct nnperf_platform *p, const char *section, char *cell, size_t cap)
{
    char key[64], rows[32], median[32];
    snprintf(key, sizeof key, "%s.test_rows", section);
    int n = nnperf_platform_get(p, key, rows, sizeof rows) == NNPERF_OK ? atoi(rows) : 0;
    snprintf(key, sizeof key, "%s.median_error", section);
    if (n > 0 && nnperf_platform_get(p, key, median, sizeof median) == NNPERF_OK)
        snprintf(cell, cap, "+-%.0f%% n=%d", 100 * atof(median), n);
    else
        snprintf(cell, cap, "-");
}

/* the presets, a description wrapped in its column when the width (0 = none) is narrower than its lines; a
 * continuation line starts with blanks, so a name is the first word of a line that does not. Where the two bands
 * do not fit beside the numbers they open the preset's continuation line. */
static int hw_list(int width)
{
    char err[512];
    int n = nnperf_platform_preset_count(), nw = 18; /* the name column: 18, or the longest name */
    for (int i = 0; i < n; i++) {
        int len = (int)strlen(nnperf_platform_preset_name(i));
        nw = len > nw ? len : nw;
    }
    int bands =
        width == 0 || width >= nw + 5 * 10 + 2 * 13;  /* the name, five numbers of 10, two bands of 13 */
    int col = nw + 5 * 10 + (bands ? 2 * 13 : 0) + 2; /* where a description beside them starts */
    /* the description in a column of 24 at least, else on lines of its own under its preset */
    int beside = bands && (width == 0 || width >= col + 24);
    printf("%-*s %9s %9s %9s %9s %9s", nw, "name", "int4", "int8", "fp16", "fp32", "ddr GB/s");
    if (bands) printf(" %12s %12s", "exp. error", "LLM error");
    printf("%s\n", beside ? "  description" : "");
    for (int i = 0; i < n; i++) {
        const char *name = nnperf_platform_preset_name(i);
        struct nnperf_platform *p;
        if (nnperf_platform_load(name, &p, err, sizeof err) != NNPERF_OK) {
            cli_error("hw: preset '%s' does not load: %s", name, err);
            return 2;
        }
        struct nnperf_platform_info in;
        nnperf_platform_info(p, &in);
        char xe[32], llm[32];
        band(p, "validation", xe, sizeof xe);
        band(p, "llm_validation", llm, sizeof llm);
        printf("%-*s", nw, in.name);
        put_tops(in.peak_int4);
        put_tops(in.peak_int8);
        put_tops(in.peak_fp16);
        put_tops(in.peak_fp32);
        printf(" %9.2f", in.ddr_bandwidth / 1e9);
        if (bands) printf(" %12s %12s", xe, llm);
        if (beside) {
            printf("  ");
            cli_wrap(stdout, in.description, col, col, width);
        } else {
            char line[1024];
            int has_xe = strcmp(xe, "-") != 0, has_llm = strcmp(llm, "-") != 0;
            if (bands)
                snprintf(line, sizeof line, "%s", in.description);
            else if (!has_xe && !has_llm)
                snprintf(line, sizeof line, "not validated; %s", in.description);
            else
                snprintf(line, sizeof line, "expected error %s%s%s%s%s; %s", has_xe ? xe : "",
                         has_xe ? " (analyze)" : "", has_xe && has_llm ? ", " : "", has_llm ? llm : "",
                         has_llm ? " (llm)" : "", in.description);
            printf("\n    ");
            cli_wrap(stdout, line, 4, 4, width);
        }
        nnperf_platform_free(p);
    }
    char foot[512];
    snprintf(
        foot, sizeof foot,
        "%d presets (peaks in TOPS; expected error: the median |error| over n test rows of published "
        "measurements, bench/fidelity for analyze and bench/llm for llm, '-' not validated; a file of "
        "presets/runtimes/ carries the band of its own runtime's rows; 'nnperf hw show NAME' prints one with "
        "its sources)",
        n);
    printf("\n");
    cli_wrap(stdout, foot, 0, 0, width);
    return cli_finish_stdout();
}

/* A preset as shipped, then its assumed keys with their values as comments (a file's normal form marks them on their
 * own lines). */
static int show_preset(const struct nnperf_platform *p, const char *text, size_t len)
{
    int rc = cli_write_file(NULL, NULL, text, len);
    int n = nnperf_platform_assumption_count(p);
    if (rc || !n) return rc;
    printf("\n# assumptions (values not published, chosen or derived; see the comments above):\n");
    for (int i = 0; i < n; i++) {
        const char *key = nnperf_platform_assumption(p, i);
        char value[512];
        if (nnperf_platform_get(p, key, value, sizeof value) == NNPERF_OK)
            printf("#   %s: %s\n", key, value);
        else
            printf("#   %s\n", key);
    }
    return cli_finish_stdout();
}

static int hw_show(const struct cli_args *a, const char *what)
{
    size_t len;
    struct nnperf_platform *p;
    if (cli_load_platform(a, what, &p)) return 2;
    const char *text = a->v[OPT_SET].n ? NULL : nnperf_platform_preset_yaml(what, &len);
    if (text) {
        int rc = show_preset(p, text, len);
        nnperf_platform_free(p);
        return rc;
    }
    char *out;
    if (nnperf_platform_yaml(p, &out, &len) != NNPERF_OK) {
        nnperf_platform_free(p);
        cli_error("hw: out of memory");
        return 2;
    }
    int rc = cli_write_file(NULL, NULL, out, len);
    free(out);
    nnperf_platform_free(p);
    return rc;
}

int cmd_hw(const struct cli_args *a)
{
    const char *sub = a->operands[0];
    if (a->n_operands == 1 && !strcmp(sub, "list")) return hw_list(cli_columns());
    if (a->n_operands == 2 && !strcmp(sub, "show")) return hw_show(a, a->operands[1]);
    const char *cands[] = {"list", "show"}, *sug = cli_suggest(sub, cands, 2);
    cli_error("hw: expected 'list' or 'show NAME|FILE'%s%s%s (see 'nnperf help hw')",
              sug ? ", did you mean '" : "", sug ? sug : "", sug ? "'?" : "");
    return 2;
}
