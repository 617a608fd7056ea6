/* cmd_roofline.c - `nnperf roofline MODEL --hw P`: each layer's arithmetic intensity (ops per DDR byte) and
 * attained performance against the platform's ceilings: the data of a roofline plot (Williams et al. 2009),
 * rendered by the library (nnperf_roofline_render). */
#include <stdio.h>
#include <stdlib.h>

#include "cli.h"

int cmd_roofline(const struct cli_args *a)
{
    struct cli_run r;
    if (cli_run_init(a, &r)) return 2;
    if (r.n_hw != 1) {
        cli_error("roofline: --hw is required");
        return 2;
    }
    struct nnperf_platform *plat;
    struct nnperf_model *m;
    struct nnperf_analysis *an;
    if (cli_load_one(&r, &plat, &m, &an)) return 2;
    struct nnperf_predict_options po = cli_predict_options(&r);
    struct nnperf_prediction *p;
    char err[1024];
    int rc = 0;
    if (nnperf_predict(an, plat, &po, &p, err, sizeof err) != NNPERF_OK) {
        cli_error("%s: %s", r.hw[0], err);
        rc = 2;
    } else {
        struct nnperf_render_options ro = {.width = cli_table_width(a)};
        char *text = NULL;
        size_t len = 0;
        if (nnperf_roofline_render(p, r.fmt, &ro, &text, &len, err, sizeof err) != NNPERF_OK) {
            cli_error("roofline: %s", err);
            rc = 2;
        } else {
            rc = cli_write_output(a, text, len);
        }
        free(text);
        nnperf_prediction_free(p);
    }
    nnperf_analysis_free(an);
    nnperf_model_free(m);
    nnperf_platform_free(plat);
    return rc;
}
