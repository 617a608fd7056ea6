/* cmd_map.c - `nnperf map`: plans a model on a MAX78000 / MAX78002 CNN accelerator (layer program, processor masks,
 * data-memory offsets, kernel map, bias, usage, latency) and writes it as a table, JSON or ai8x-synthesis YAML.
 * Exit 0 when it fits, 1 when it does not (the problems go to standard error), 2 on bad input or usage. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"

int cmd_map(const struct cli_args *a)
{
    const char *model = a->operands[0];
    const char *target = cli_str(a, OPT_TARGET) ? cli_str(a, OPT_TARGET) : nnperf_mcu_target_name(0);
    const char *fmt = cli_str(a, OPT_FORMAT) ? cli_str(a, OPT_FORMAT) : "table";
    int bits = a->v[OPT_WEIGHT_BITS].n ? cli_str(a, OPT_WEIGHT_BITS)[0] - '0' : 8;
    char err[1024];
    struct nnperf_model *m;
    if (cli_load_model(model, NULL, &m)) return 2;
    struct nnperf_analyze_options ao = {a->v[OPT_INPUT].s, a->v[OPT_INPUT].n, NULL, 0};
    struct nnperf_analysis *an;
    if (nnperf_analyze(m, &ao, &an, err, sizeof err) != NNPERF_OK) {
        cli_error("%s", err);
        nnperf_model_free(m);
        return 2;
    }
    struct nnperf_mcu_plan *plan;
    struct nnperf_map_options mo = {target, bits, cli_str(a, OPT_WEIGHT_BITS_FILE),
                                    a->v[OPT_CLOCK].n ? a->v[OPT_CLOCK].d[0] * 1e6 : 0};
    if (nnperf_map_ex(an, &mo, &plan, err, sizeof err) != NNPERF_OK) {
        cli_error("map: %s", err);
        nnperf_analysis_free(an);
        nnperf_model_free(m);
        return 2;
    }
    char *text = NULL;
    size_t len = 0;
    int rc = 0;
    if (nnperf_mcu_plan_render(plan, fmt, &text, &len, err, sizeof err) != NNPERF_OK) {
        cli_error("map: %s", err);
        rc = 2;
    } else
        rc = cli_write_output(a, text, len);
    for (int i = 0; !rc && i < nnperf_mcu_plan_warning_count(plan); i++)
        cli_warn(0, "%s", nnperf_mcu_plan_warning(plan, i));
    if (!rc && !nnperf_mcu_plan_fits(plan)) {
        int n = nnperf_mcu_plan_problem_count(plan);
        cli_error("%s does not fit the %s (%d problem%s):", model, target, n, n == 1 ? "" : "s");
        for (int i = 0; i < n; i++) {
            fputs("  - ", stderr);
            cli_put_text(stderr, nnperf_mcu_plan_problem(plan, i), 0);
            fputc('\n', stderr);
        }
        rc = 1;
    }
    free(text);
    nnperf_mcu_plan_free(plan);
    nnperf_analysis_free(an);
    nnperf_model_free(m);
    return rc;
}
