/* cmd_advise.c - `nnperf advise MODEL --hw P`: which layers break Horizon's efficient-model design rules, what to
 * change and the predicted gain of each change (a what-if re-run of the prediction); `nnperf advise --explain RULE`
 * prints a rule's rationale and source (docs/advise.md). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"

static int explain(const char *rule)
{
    if (!rule) {
        for (int i = 0; i < nnperf_advice_rule_count(); i++) {
            const char *t = nnperf_advice_explain(nnperf_advice_rule_id(i));
            const char *nl = strchr(t, '\n');
            printf("%.*s\n", nl ? (int)(nl - t) : (int)strlen(t), t);
        }
        return cli_finish_stdout();
    }
    const char *t = nnperf_advice_explain(rule);
    if (!t) {
        cli_error("advise: no rule '%s' (nnperf advise --explain lists them)", rule);
        return 2;
    }
    return cli_write_file(NULL, NULL, t, strlen(t));
}

int cmd_advise(const struct cli_args *a)
{
    if (cli_flag(a, OPT_EXPLAIN)) return explain(a->n_operands ? a->operands[0] : NULL);
    struct cli_run r;
    if (cli_run_init(a, &r)) return 2;
    if (!r.n_models) {
        cli_error("advise: no model given (see 'nnperf help advise')");
        return 2;
    }
    if (r.n_hw != 1) {
        cli_error("advise: --hw is required");
        return 2;
    }
    struct nnperf_platform *plat;
    struct nnperf_model *m;
    struct nnperf_analysis *an;
    if (cli_load_one(&r, &plat, &m, &an)) return 2;
    struct nnperf_advise_options ao = {
        .predict = cli_predict_options(&r),
        .min_gain = a->v[OPT_MIN_GAIN].n ? a->v[OPT_MIN_GAIN].d[0] / 100 : 0,
    };
    struct nnperf_advice *adv;
    char err[1024];
    int rc;
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
            rc = cli_write_output(a, out, len);
            free(out);
        }
        nnperf_advice_free(adv);
    }
    nnperf_analysis_free(an);
    nnperf_model_free(m);
    nnperf_platform_free(plat);
    return rc;
}
