/* cmd_compare.c - `nnperf compare MODEL... --hw P1,P2,...`: the model x platform matrix of FPS and latency (the
 * data of QuTiBench's heatmap, [QUTIBENCH] in docs/sources.md), rendered by the library (nnperf_compare_render). A
 * platform without the requested dtype gives an empty cell with the reason. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"

static const char *platform_name(const struct nnperf_platform *p)
{
    struct nnperf_platform_info info;
    nnperf_platform_info(p, &info);
    return info.name;
}

int cmd_compare(const struct cli_args *a)
{
    struct cli_run r;
    if (cli_run_init(a, &r)) return 2;
    if (!r.n_hw) {
        cli_error("compare: --hw P1,P2,... is required");
        return 2;
    }
    int M = r.n_models, P = r.n_hw;
    struct nnperf_platform **plats = calloc((size_t)P, sizeof *plats);
    struct nnperf_compare_cell *cells = calloc((size_t)(M * P), sizeof *cells);
    char(*errs)[512] = calloc((size_t)(M * P), sizeof *errs);
    const char **dtypes = calloc((size_t)P, sizeof *dtypes);
    const char **pnames = calloc((size_t)P, sizeof *pnames); /* the platforms' names, below */
    double *peak = calloc((size_t)P, sizeof *peak), *bw = calloc((size_t)P, sizeof *bw);
    double *xm = calloc((size_t)P, sizeof *xm), *xp = calloc((size_t)P, sizeof *xp); /* expected error */
    int *xr = calloc((size_t)P, sizeof *xr);
    const char **pb = calloc((size_t)P, sizeof *pb); /* power basis: static strings of the library */
    struct nnperf_compare_family *xf =
        calloc((size_t)P, sizeof *xf); /* the models' family, "" when they differ */
    if (!plats || !cells || !errs || !dtypes || !pnames || !peak || !bw || !xm || !xp || !xr || !pb || !xf ||
        cli_load_platforms(&r, plats)) {
        free(plats), free(cells), free(errs), free(dtypes), free(pnames), free(peak), free(bw), free(xm),
            free(xp), free(xr), free(pb), free(xf);
        return 2;
    }
    /* html and json: accuracies for the pareto front and a batch sweep for the latency-vs-throughput lines */
    static const int sweep_batches[] = {1, 2, 4, 8, 16};
    int nb = r.fmt == NNPERF_FORMAT_HTML || r.fmt == NNPERF_FORMAT_JSON ? 5 : 0;
    double *acc = calloc((size_t)M, sizeof *acc);
    size_t ncell = (size_t)(P * M) * (size_t)(nb ? nb : 1);
    double *sw_fps = calloc(ncell, sizeof *sw_fps), *sw_lat = calloc(ncell, sizeof *sw_lat);
    double *sw_ddr = calloc(ncell, sizeof *sw_ddr), *sw_spill = calloc(ncell, sizeof *sw_spill);
    int rc = 0;
    if (!acc || !sw_fps || !sw_lat || !sw_ddr || !sw_spill || cli_parse_accuracy(&r, acc)) rc = 2;
    /* the dtype each platform runs: the one asked for, else the platform's default */
    for (int hi = 0; hi < P && !rc; hi++) {
        struct nnperf_platform_info info;
        nnperf_platform_info(plats[hi], &info);
        dtypes[hi] = r.n_dtypes ? r.dtypes[0] : info.default_dtype;
        /* a platform by its own name, not the path given; two of one name (a preset and a file of it) by the
         * paths given */
        pnames[hi] = info.name;
        for (int k = 0; k < P; k++)
            if (k != hi && !strcmp(platform_name(plats[k]), info.name)) pnames[hi] = r.hw[hi];
        peak[hi] = bw[hi] = NAN;
    }
    int steps = M * P * (1 + nb), step = 0;
    char **warns = NULL; /* the analyses' warnings, "MODEL: message", for the JSON */
    int n_warns = 0;
    cli_progress_start(r.quiet);
    for (int mi = 0; mi < M && !rc; mi++) {
        struct nnperf_model *m;
        struct nnperf_analysis *an;
        cli_progress(step, steps, cli_model_name(r.models[mi]));
        if (cli_load(&r, r.models[mi], &m, &an)) {
            rc = 2;
            break;
        }
        if (cli_require_bound(an, "compare", r.models[mi])) {
            nnperf_analysis_free(an);
            nnperf_model_free(m);
            rc = 2;
            break;
        }
        if (cli_collect_warnings(an, cli_model_name(r.models[mi]), &warns, &n_warns)) {
            nnperf_analysis_free(an);
            nnperf_model_free(m);
            rc = 2;
            break;
        }
        for (int hi = 0; hi < P; hi++) {
            struct nnperf_predict_options po = cli_predict_options(&r);
            struct nnperf_prediction *p;
            struct nnperf_compare_cell *c = &cells[mi * P + hi];
            c->fps = c->latency_ms = c->ops_per_frame = c->ddr_bytes_per_frame = c->fps_per_w = NAN;
            c->throughput_fps = NAN;
            /* the sweep for the latency-vs-throughput lines: totals only (no timeline), and the batches after the
             * first predicted share its lowering and fusion (nnperf_predict_batch, as `nnperf sweep` does) */
            struct nnperf_prediction *like = NULL;
            for (int b = 0; b < nb; b++) {
                struct nnperf_predict_options bo = po;
                struct nnperf_prediction *bp;
                size_t k = (size_t)(mi * P + hi) * (size_t)nb + (size_t)b;
                bo.batch = sweep_batches[b];
                bo.no_timeline = 1;
                sw_fps[k] = sw_lat[k] = sw_ddr[k] = sw_spill[k] = NAN;
                cli_progress(++step, steps, cli_model_name(r.models[mi]));
                if ((like ? nnperf_predict_batch(like, bo.batch, &bp, errs[mi * P + hi], sizeof errs[0])
                          : nnperf_predict(an, plats[hi], &bo, &bp, errs[mi * P + hi], sizeof errs[0])) !=
                    NNPERF_OK)
                    continue;
                struct nnperf_prediction_summary bs;
                nnperf_prediction_summary(bp, &bs);
                sw_fps[k] = bs.fps;
                sw_lat[k] = bs.latency_s * 1e3;
                sw_ddr[k] = bs.ddr_bytes_per_frame;
                sw_spill[k] = bs.spill_bytes_per_frame;
                if (!like)
                    like = bp;
                else
                    nnperf_prediction_free(bp);
            }
            nnperf_prediction_free(like);
            cli_progress(++step, steps, cli_model_name(r.models[mi]));
            if (nnperf_predict(an, plats[hi], &po, &p, errs[mi * P + hi], sizeof errs[0]) != NNPERF_OK) {
                c->error = errs[mi * P + hi];
                cli_warn(r.quiet, "%s on %s: %s", cli_model_name(r.models[mi]), r.hw[hi], c->error);
                continue;
            }
            struct nnperf_prediction_summary s;
            nnperf_prediction_summary(p, &s);
            c->fps = s.fps;
            c->throughput_fps = s.throughput_fps;
            c->latency_ms = s.latency_s * 1e3;
            c->fps_per_w = s.fps_per_w;
            c->ops_per_frame = s.ops_per_frame;
            c->ddr_bytes_per_frame = s.ddr_bytes_per_frame;
            nnperf_prediction_ceilings(p, &peak[hi], &bw[hi]);
            xr[hi] = s.expected_error_rows, xm[hi] = s.expected_error_median, xp[hi] = s.expected_error_p90;
            if (!xf[hi].family)
                xf[hi] = (struct nnperf_compare_family){s.family, s.family_test_rows, s.family_median,
                                                        s.family_p90};
            else if (strcmp(xf[hi].family, s.family))
                xf[hi].family = "";
            pb[hi] = s.power_basis;
            nnperf_prediction_free(p);
        }
        nnperf_analysis_free(an);
        nnperf_model_free(m);
    }
    cli_progress_end();
    for (int hi = 0; hi < P; hi++)
        if (xf[hi].family && !*xf[hi].family) xf[hi].family = NULL; /* the models differ in family */
    const char **names = calloc((size_t)M, sizeof *names);
    if (!rc && !names) rc = 2;
    if (!rc) {
        int any_acc = 0;
        for (int mi = 0; mi < M; mi++) {
            names[mi] = cli_model_name(r.models[mi]);
            any_acc |= !isnan(acc[mi]);
        }
        struct nnperf_compare_data d = {.n_models = M,
                                        .n_platforms = P,
                                        .models = names,
                                        .platforms = pnames,
                                        .dtypes = dtypes,
                                        .peak_ops = peak,
                                        .ddr_bandwidth = bw,
                                        .cells = cells,
                                        .accuracy = any_acc ? acc : NULL,
                                        .n_batches = nb,
                                        .batches = sweep_batches,
                                        .sweep_fps = sw_fps,
                                        .sweep_latency_ms = sw_lat,
                                        .warnings = (const char *const *)warns,
                                        .n_warnings = n_warns,
                                        .expected_error_rows = xr,
                                        .expected_error_median = xm,
                                        .expected_error_p90 = xp,
                                        .power_basis = pb,
                                        .sweep_ddr_bytes = sw_ddr,
                                        .sweep_spill_bytes = sw_spill,
                                        .streams = r.streams,
                                        .family = xf};
        struct nnperf_render_options ro = {.width = cli_table_width(a)};
        char *text = NULL, err[1024];
        size_t tlen = 0;
        if (nnperf_compare_render(&d, r.fmt, &ro, &text, &tlen, err, sizeof err) != NNPERF_OK) {
            cli_error("compare: %s", err);
            rc = 2;
        } else {
            rc = cli_write_output(a, text, tlen);
        }
        free(text);
    }
    for (int hi = 0; hi < P; hi++) nnperf_platform_free(plats[hi]);
    free(plats), free(cells), free(errs), free(dtypes), free(pnames), free(peak), free(bw), free(xm),
        free(xp), free(xr), free(pb), free(xf), free(acc), free(sw_fps), free(sw_lat), free(sw_ddr),
        free(sw_spill);
    free(names);
    for (int i = 0; i < n_warns; i++) free(warns[i]);
    free(warns);
    return rc;
}
