/* cmd_sweep.c - `nnperf sweep MODEL --hw P --batch 1,2,4 --dtype int8,fp16`: latency vs throughput for every
 * configuration (QuTiBench's latency-vs-throughput lines). The model is analysed once; only the passes re-run. */
#include <stdio.h>
#include <stdlib.h>

#include "cli.h"

int cmd_sweep(const struct cli_args *a)
{
    struct cli_run r;
    if (cli_run_init(a, &r)) return 2;
    if (!r.n_hw) {
        cli_error("sweep: --hw is required");
        return 2;
    }
    static const int platform_batch = 0; /* the platform's frames per run */
    if (!r.n_batches) r.batches = &platform_batch, r.n_batches = 1;
    struct nnperf_platform **plats = calloc((size_t)r.n_hw, sizeof *plats);
    if (!plats || cli_load_platforms(&r, plats)) {
        free(plats);
        return 2;
    }
    struct nnperf_model *m = NULL;
    struct nnperf_analysis *an = NULL;
    if (cli_load(&r, r.models[0], &m, &an) || cli_require_bound(an, "sweep", r.models[0])) {
        nnperf_analysis_free(an);
        nnperf_model_free(m);
        for (int i = 0; i < r.n_hw; i++) nnperf_platform_free(plats[i]);
        free(plats);
        return 2;
    }
    struct nnperf_sweep *sw = NULL;
    char err[1024];
    int rc = 0;
    if (nnperf_sweep_new(cli_model_name(r.models[0]), &sw, err, sizeof err) != NNPERF_OK) {
        cli_error("sweep: %s", err);
        rc = 2;
    }
    int nd = r.n_dtypes ? r.n_dtypes : 1, total = r.n_hw * nd * r.n_batches, done = 0;
    cli_progress_start(r.quiet);
    for (int hi = 0; hi < r.n_hw && !rc; hi++)
        for (int di = 0; di < nd && !rc; di++)
            for (int bi = 0; bi < r.n_batches && !rc; bi++) {
                struct nnperf_predict_options po = {.dtype = r.n_dtypes ? r.dtypes[di] : NULL,
                                                    .batch = r.batches[bi],
                                                    .memory_model = r.memory_model,
                                                    .interval_s = r.interval_s};
                struct nnperf_prediction *p;
                cli_progress(done++, total, r.hw[hi]);
                if (nnperf_predict(an, plats[hi], &po, &p, err, sizeof err) != NNPERF_OK) {
                    cli_warn(r.quiet, "%s, %s, batch %d: %s", r.hw[hi], po.dtype ? po.dtype : "default",
                             po.batch, err);
                    continue;
                }
                if (nnperf_sweep_add(sw, p, NULL, err, sizeof err) != NNPERF_OK) {
                    cli_error("sweep: %s", err);
                    rc = 2;
                }
                nnperf_prediction_free(p);
            }
    cli_progress_end();
    if (!rc && !nnperf_sweep_count(sw)) {
        cli_error("sweep: no configuration could be predicted");
        rc = 2;
    }
    if (!rc) {
        struct nnperf_render_options ro = {.width = cli_table_width(a)};
        char *text = NULL;
        size_t len = 0;
        if (nnperf_sweep_render(sw, r.fmt, &ro, &text, &len, err, sizeof err) != NNPERF_OK) {
            cli_error("sweep: %s", err);
            rc = 2;
        } else {
            rc = cli_write_output(a, text, len);
        }
        free(text);
    }
    nnperf_sweep_free(sw);
    nnperf_analysis_free(an);
    nnperf_model_free(m);
    for (int i = 0; i < r.n_hw; i++) nnperf_platform_free(plats[i]);
    free(plats);
    return rc;
}
