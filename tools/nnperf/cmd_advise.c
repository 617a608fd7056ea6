/* cmd_advise.c - `nnperf advise MODEL --hw P`: which layers break Horizon's efficient-model design rules, what to
 * change and the predicted gain of each change (a what-if re-run of the prediction); `nnperf advise --explain RULE`
 * prints a rule's rationale and source (docs/advise.md). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"

const char advise_usage[] =
    "usage: nnperf advise MODEL.onnx --hw P [--format table|json|html] [-o FILE] [--min-gain PCT]\n"
    "       nnperf advise --explain RULE\n"
    "\n"
    "Checks the model on the platform against Horizon's efficient-model design advice: CPU fallback, "
    "unfused\n"
    "patterns, alignment padding, memory-bound wide convs, spilled shortcuts, large weights, Transpose on "
    "the\n"
    "accelerator, batching of small inputs, dtype. Each finding names the layers, the evidence, the change "
    "and its\n"
    "predicted gain: the prediction re-run with the change applied to a copy of the model (docs/advise.md).\n"
    "\n"
    "options:\n"
    "  --hw NAME|FILE        the platform (a preset, nnperf hw list, or a YAML file); required\n"
    "  --format FMT          table (default), json, or html (the prediction's report with an Advice tab)\n"
    "  --min-gain PCT        report findings whose gain is at least PCT %% of the latency per frame (default "
    "0.5)\n"
    "  --explain RULE        print a rule's rationale, check, what-if and source; without RULE, list the "
    "rules\n"
    "  -o, --output FILE     write to FILE instead of standard output\n"
    "Options --input, --dim, --dtype, --batch, --memory-model and --interval are as for analyze.\n";

static int explain(const char *rule)
{
    if (!rule) {
        for (int i = 0; i < nnperf_advice_rule_count(); i++) {
            const char *t = nnperf_advice_explain(nnperf_advice_rule_id(i));
            const char *nl = strchr(t, '\n');
            printf("%.*s\n", nl ? (int)(nl - t) : (int)strlen(t), t);
        }
        return 0;
    }
    const char *t = nnperf_advice_explain(rule);
    if (!t) {
        cli_error("advise: no rule '%s' (nnperf advise --explain lists them)", rule);
        return 2;
    }
    fputs(t, stdout);
    return 0;
}

int cmd_advise(int argc, char **argv)
{
    /* --explain, --min-gain and --format html are ours; the rest goes to the shared parser */
    char **rest = calloc((size_t)argc + 1, sizeof *rest);
    if (!rest) return 2;
    int n = 0, html = 0;
    double min_gain = 0;
    for (int i = 0; i < argc; i++) {
        if (!strcmp(argv[i], "--explain")) {
            const char *rule = i + 1 < argc && argv[i + 1][0] != '-' ? argv[i + 1] : NULL;
            free(rest);
            return explain(rule);
        } else if (!strcmp(argv[i], "--format") && i + 1 < argc && !strcmp(argv[i + 1], "html")) {
            html = 1;
            i++;
        } else if (!strcmp(argv[i], "--min-gain") && i + 1 < argc) {
            char *end;
            min_gain = strtod(argv[++i], &end);
            if (*end || !(min_gain > 0) || min_gain > 100) {
                cli_error("advise: --min-gain '%s' is not a percentage in (0, 100]", argv[i]);
                free(rest);
                return 2;
            }
        } else
            rest[n++] = argv[i];
    }
    struct cli_run r;
    int rc = cli_parse_run(n, rest, &r, "advise", CLI_OPT_SHAPES | CLI_OPT_HW | CLI_OPT_PREDICT);
    free(rest);
    if (rc) return 2;
    if (html) r.fmt = NNPERF_FORMAT_HTML;
    if (r.fmt == NNPERF_FORMAT_CSV) {
        cli_error("advise: --format csv is not available (table, json or html)");
        return 2;
    }
    if (r.n_hw != 1 || r.n_dtypes > 1 || r.n_batches > 1) {
        cli_error("advise: exactly one --hw (and at most one dtype and batch)");
        return 2;
    }
    struct nnperf_platform *plat;
    struct nnperf_model *m;
    struct nnperf_analysis *an;
    if (cli_load_one(&r, &plat, &m, &an)) return 2;
    struct nnperf_advise_options ao = {
        .predict = cli_predict_options(&r),
        .min_gain = min_gain / 100,
    };
    struct nnperf_advice *adv;
    char err[1024];
    if (nnperf_advise(an, plat, &ao, &adv, err, sizeof err) != NNPERF_OK) {
        cli_error("%s: %s", r.hw[0], err);
        rc = 2;
    } else {
        char *out;
        size_t len;
        if (nnperf_advice_render(adv, r.fmt, &out, &len, err, sizeof err) != NNPERF_OK) {
            cli_error("%s", err);
            rc = 2;
        } else {
            rc = cli_write_output(r.out, out, len);
            free(out);
        }
        nnperf_advice_free(adv);
    }
    nnperf_analysis_free(an);
    nnperf_model_free(m);
    nnperf_platform_free(plat);
    return rc;
}
