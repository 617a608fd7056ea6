/* cmd_annotate.c - `nnperf annotate MODEL.onnx -o OUT.onnx`: the model written back with every inferred tensor
 * type and shape as value_info (nnperf_annotate), so that Netron shows a shape on every edge. */
#include <stdio.h>

#include "cli.h"

int cmd_annotate(const struct cli_args *a)
{
    struct cli_run r;
    if (cli_run_init(a, &r)) return 2;
    if (!r.out) {
        cli_error("annotate: no output given: -o OUT.onnx (or -o - for standard output)");
        return 2;
    }
    int costs = cli_flag(a, OPT_COSTS);
    if (costs != (r.n_hw > 0)) {
        cli_error(costs
                      ? "annotate: --costs needs --hw (the platform the costs are predicted on)"
                      : "annotate: --hw is for --costs (each node's predicted cost written into the model)");
        return 2;
    }
    struct nnperf_model *m;
    struct nnperf_analysis *an;
    if (cli_load(&r, r.models[0], &m, &an)) return 2;
    void *buf = NULL;
    size_t len = 0;
    char err[1024];
    int rc = 0;
    struct nnperf_platform *plat = NULL;
    struct nnperf_prediction *pred = NULL;
    struct nnperf_predict_options po = cli_predict_options(&r);
    if (costs) {
        if (cli_load_platforms(&r, &plat)) {
            rc = 2;
        } else if (nnperf_predict(an, plat, &po, &pred, err, sizeof err) != NNPERF_OK) {
            cli_error("%s: %s", r.hw[0], err);
            rc = 2;
        }
    }
    struct nnperf_annotate_options ao = {.costs = pred, .dest = r.out};
    if (!rc && nnperf_annotate_opts(an, &ao, &buf, &len, err, sizeof err) != NNPERF_OK) {
        cli_error("annotate: %s", err);
        rc = 2;
    } else if (!rc) {
        rc = cli_write_output(a, buf, len);
    }
    nnperf_free(buf);
    struct nnperf_summary s;
    nnperf_analysis_summary(an, &s);
    int nwarn = s.warnings;
    if (!rc) {
        for (int i = 0; i < s.warnings; i++) cli_warn(r.quiet, "%s", nnperf_analysis_warning(an, i));
        struct nnperf_prediction_summary ps;
        if (pred) nnperf_prediction_summary(pred, &ps);
        for (int i = 0; pred && i < ps.warnings; i++)
            cli_warn(r.quiet, "%s", nnperf_prediction_warning(pred, i));
        if (pred) nwarn += ps.warnings;
        if (s.unknown_tensors && !r.quiet)
            fprintf(stderr, "nnperf: %d tensors keep unknown dims (bind symbols with --dim or --input)\n",
                    s.unknown_tensors);
    }
    if (!rc && r.strict && nwarn) rc = 1;
    nnperf_prediction_free(pred);
    nnperf_platform_free(plat);
    nnperf_analysis_free(an);
    nnperf_model_free(m);
    return rc;
}
