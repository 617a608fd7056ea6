/* cmd_hw.c - `nnperf hw list` (the built-in platform presets with their peaks and DDR bandwidth) and
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

/* the presets, a description wrapped in its column when the width (0 = none) is narrower than its lines; a
 * continuation line starts with blanks, so a name is the first word of a line that does not */
static int hw_list(int width)
{
    char err[512];
    int n = nnperf_platform_preset_count(), nw = 18; /* the name column: 18, or the longest name */
    for (int i = 0; i < n; i++) {
        int len = (int)strlen(nnperf_platform_preset_name(i));
        nw = len > nw ? len : nw;
    }
    int col = nw + 5 * 10 + 2; /* where the description starts: the name, five numbers of 10, two blanks */
    /* the description in a column of 24 at least, else on lines of its own under its preset */
    int beside = width == 0 || width >= col + 24;
    printf("%-*s %9s %9s %9s %9s %9s%s\n", nw, "name", "int4", "int8", "fp16", "fp32", "ddr GB/s",
           beside ? "  description" : "");
    for (int i = 0; i < n; i++) {
        const char *name = nnperf_platform_preset_name(i);
        struct nnperf_platform *p;
        if (nnperf_platform_load(name, &p, err, sizeof err) != NNPERF_OK) {
            cli_error("hw: preset '%s' does not load: %s", name, err);
            return 2;
        }
        struct nnperf_platform_info in;
        nnperf_platform_info(p, &in);
        printf("%-*s", nw, in.name);
        put_tops(in.peak_int4);
        put_tops(in.peak_int8);
        put_tops(in.peak_fp16);
        put_tops(in.peak_fp32);
        printf(" %9.2f", in.ddr_bandwidth / 1e9);
        if (beside) {
            printf("  ");
            cli_wrap(stdout, in.description, col, col, width);
        } else {
            printf("\n    ");
            cli_wrap(stdout, in.description, 4, 4, width);
        }
        nnperf_platform_free(p);
    }
    char foot[128];
    snprintf(foot, sizeof foot,
             "%d presets (peaks in TOPS; 'nnperf hw show NAME' prints one with its sources)", n);
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
