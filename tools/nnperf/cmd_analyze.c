/* cmd_analyze.c - `nnperf analyze MODEL.onnx [--hw P]`: load, infer, count, and with a platform predict; render. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"

int cmd_analyze(const struct cli_args *a)
{
    struct cli_run r;
    if (cli_run_init(a, &r)) return 2;
    if (!r.n_hw &&
        (r.n_dtypes || r.n_batches || r.memory_model || r.interval_s > 0 || r.threads || r.streams)) {
        cli_error("analyze: --dtype, --batch, --threads, --streams, --memory-model and --interval need --hw");
        return 2;
    }
    if ((a->v[OPT_TOP].n || cli_flag(a, OPT_SUMMARY) || cli_flag(a, OPT_ALL)) &&
        (r.fmt != NNPERF_FORMAT_TABLE || r.plot)) {
        cli_error(
            "analyze: --top, --summary and --all shape the table (JSON and CSV always hold everything)");
        return 2;
    }
    if (r.plot && !r.n_hw) {
        cli_error("analyze: --plot %s needs --hw", r.plot);
        return 2;
    }
    struct nnperf_model *m;
    struct nnperf_analysis *an;
    cli_progress_start(r.quiet);
    cli_progress(0, 3, "loading and analysing");
    if (cli_load(&r, r.models[0], &m, &an)) {
        cli_progress_end();
        return 2;
    }
    cli_progress(1, 3, "predicting");
    struct nnperf_platform *plat = NULL;
    struct nnperf_prediction *pred = NULL;
    char err[1024];
    int rc = 0;
    struct nnperf_predict_options po = cli_predict_options(&r);
    if (r.n_hw) {
        if (cli_load_platforms(&r, &plat))
            rc = 2;
        else {
            if (nnperf_predict(an, plat, &po, &pred, err, sizeof err) != NNPERF_OK) {
                cli_error("%s: %s", r.hw[0], err);
                rc = 2;
            }
        }
    }
    char *text = NULL;
    size_t len = 0;
    if (!rc) {
        cli_progress(2, 3, "writing the report");
        enum nnperf_status st;
        struct nnperf_advice *adv = NULL;
        struct nnperf_render_options ro = {.width = cli_table_width(a),
                                           .top = a->v[OPT_TOP].n ? a->v[OPT_TOP].i[a->v[OPT_TOP].n - 1] : 0,
                                           .summary_only = cli_flag(a, OPT_SUMMARY),
                                           .all = cli_flag(a, OPT_ALL)};
        if (pred && !r.plot && r.fmt == NNPERF_FORMAT_HTML) {
            /* the HTML report of a prediction carries an Advice tab: the advice page is the prediction page plus
             * that tab */
            struct nnperf_advise_options ao = {.predict = po};
            if (nnperf_advise(an, plat, &ao, &adv, err, sizeof err) != NNPERF_OK) adv = NULL;
        }
        if (adv)
            st = nnperf_advice_render(adv, NNPERF_FORMAT_HTML, &text, &len, err, sizeof err);
        else if (r.plot)
            st = nnperf_plot_svg(pred, r.plot, &text, &len, err, sizeof err);
        else if (pred)
            st = nnperf_prediction_render_opts(pred, r.fmt, &ro, &text, &len, err, sizeof err);
        else
            st = nnperf_analysis_render_opts(an, r.fmt, &ro, &text, &len, err, sizeof err);
        nnperf_advice_free(adv);
        cli_progress_end();
        if (st != NNPERF_OK) {
            cli_error("%s", err);
            rc = 2;
        } else {
            rc = cli_write_output(a, text, len);
        }
        free(text);
    }
    struct nnperf_summary s;
    nnperf_analysis_summary(an, &s);
    int nwarn = s.warnings;
    if (pred) {
        struct nnperf_prediction_summary ps;
        nnperf_prediction_summary(pred, &ps);
        nwarn += ps.warnings;
    }
    cli_progress_end();
    /* a report on the terminal shows its warnings; one written elsewhere gets them on standard error */
    if (!rc && (r.out || r.fmt == NNPERF_FORMAT_CSV || r.fmt == NNPERF_FORMAT_TRACE || r.plot)) {
        for (int i = 0; i < s.warnings; i++) cli_warn(r.quiet, "%s", nnperf_analysis_warning(an, i));
        for (int i = 0; pred && i < nwarn - s.warnings; i++)
            cli_warn(r.quiet, "%s", nnperf_prediction_warning(pred, i));
    }
    if (!rc && r.strict && nwarn) rc = 1;
    nnperf_prediction_free(pred);
    nnperf_platform_free(plat);
    nnperf_analysis_free(an);
    nnperf_model_free(m);
    return rc;
}
