/* cmd_sweep.c - `nnperf sweep MODEL --hw P --batch 1,2,4 --dtype int8,fp16 [--set KEY=V1,V2 ...]`: latency vs
 * throughput for every configuration (QuTiBench's latency-vs-throughput lines), and platform what-ifs: each --set
 * with several values is an axis, several axes a grid. The model is analysed once; per platform and dtype it is
 * lowered and fused once (nnperf_predict_batch), and per batch only the stages a batch changes run, without the
 * timeline the sweep does not report. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"

#define SWEEP_MAX_POINTS 4096 /* configurations in all */
#define SWEEP_MAX_AXES   8

struct axis {
    char key[256];
    char *vals; /* the values, NUL-separated (a copy) */
    const char *val[CLI_MAX_LIST];
    int n;
};

/* the --set options with several values: the axes of the platform grid. 0, or prints and returns 2. */
static int read_axes(const struct cli_args *a, struct axis *ax, int *nax)
{
    *nax = 0;
    for (int i = 0; i < a->v[OPT_SET].n; i++) {
        char key[256];
        const char *value;
        if (cli_split_set("sweep", a->v[OPT_SET].s[i], key, sizeof key, &value)) return 2;
        if (!cli_set_next(value)) continue;
        if (*nax == SWEEP_MAX_AXES) {
            cli_error("sweep: more than %d --set axes", SWEEP_MAX_AXES);
            return 2;
        }
        struct axis *x = &ax[(*nax)++];
        snprintf(x->key, sizeof x->key, "%s", key);
        x->vals = strdup(value);
        x->n = 0;
        if (!x->vals) {
            cli_error("sweep: out of memory");
            return 2;
        }
        for (char *v = x->vals, *next; v; v = next) {
            if (x->n == CLI_MAX_LIST) {
                cli_error("sweep: --set %s: more than %d values", key, CLI_MAX_LIST);
                return 2;
            }
            next = (char *)cli_set_next(v); /* commas inside quotes stay in the value */
            if (next) *next++ = 0;
            if (!*v) {
                cli_error("sweep: --set %s=%s: an empty value in the list", key, value);
                return 2;
            }
            x->val[x->n++] = v;
        }
    }
    return 0;
}

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
    struct axis ax[SWEEP_MAX_AXES];
    int nax = 0;
    if (!rc && read_axes(a, ax, &nax)) rc = 2;
    int nd = r.n_dtypes ? r.n_dtypes : 1, done = 0;
    double points = (double)r.n_hw * nd * r.n_batches;
    for (int k = 0; k < nax; k++) points *= ax[k].n;
    if (!rc && points > SWEEP_MAX_POINTS) {
        cli_error(
            "sweep: %.0f configurations (platforms x dtypes x batches x --set values) is more than %d; sweep "
            "fewer values",
            points, SWEEP_MAX_POINTS);
        rc = 2;
    }
    int grid = 1;
    for (int k = 0; k < nax; k++) grid *= ax[k].n;
    int total = (int)points;
    cli_progress_start(r.quiet);
    for (int hi = 0; hi < r.n_hw && !rc; hi++)
        for (int gi = 0; gi < grid && !rc; gi++) {
            /* this grid point's platform: a copy with one value of each axis */
            struct nnperf_platform *pl = plats[hi], *copy = NULL;
            char settings[2048] = "";
            size_t used = 0;
            if (nax && nnperf_platform_copy(plats[hi], &copy) != NNPERF_OK) {
                cli_error("sweep: out of memory");
                rc = 2;
                break;
            }
            for (int k = 0, g = gi; k < nax && !rc; g /= ax[k].n, k++) {
                const char *v = ax[k].val[g % ax[k].n];
                if (nnperf_platform_set(copy, ax[k].key, v, err, sizeof err) != NNPERF_OK) {
                    cli_error("sweep: %s", err);
                    rc = 2;
                }
                int w =
                    snprintf(settings + used, sizeof settings - used, "%s%s=%s", k ? ", " : "", ax[k].key, v);
                if (w > 0 && (size_t)w < sizeof settings - used) used += (size_t)w;
            }
            if (copy) pl = copy;
            for (int di = 0; di < nd && !rc; di++) {
                /* the first batch predicted; the others share its lowering and fusion */
                struct nnperf_prediction *like = NULL;
                for (int bi = 0; bi < r.n_batches && !rc; bi++) {
                    struct nnperf_predict_options po = {.dtype = r.n_dtypes ? r.dtypes[di] : NULL,
                                                        .batch = r.batches[bi],
                                                        .memory_model = r.memory_model,
                                                        .interval_s = r.interval_s,
                                                        .no_timeline = 1,
                                                        .streams = r.streams};
                    struct nnperf_prediction *p;
                    cli_progress(done++, total, r.hw[hi]);
                    if ((like ? nnperf_predict_batch(like, po.batch, &p, err, sizeof err)
                              : nnperf_predict(an, pl, &po, &p, err, sizeof err)) != NNPERF_OK) {
                        cli_warn(r.quiet, "%s, %s, batch %d%s%s: %s", r.hw[hi],
                                 po.dtype ? po.dtype : "default", po.batch, nax ? ", " : "", settings, err);
                        continue;
                    }
                    if (nnperf_sweep_add(sw, p, nax ? settings : NULL, err, sizeof err) != NNPERF_OK) {
                        cli_error("sweep: %s", err);
                        rc = 2;
                    }
                    if (!like)
                        like = p;
                    else
                        nnperf_prediction_free(p);
                }
                nnperf_prediction_free(like);
            }
            nnperf_platform_free(copy);
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
    for (int k = 0; k < nax; k++) free(ax[k].vals);
    nnperf_sweep_free(sw);
    nnperf_analysis_free(an);
    nnperf_model_free(m);
    for (int i = 0; i < r.n_hw; i++) nnperf_platform_free(plats[i]);
    free(plats);
    return rc;
}
