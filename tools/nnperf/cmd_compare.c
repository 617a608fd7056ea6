/* cmd_compare.c - `nnperf compare MODEL... --hw P1,P2,...`: the model x platform matrix of FPS and latency (the
 * data of QuTiBench's heatmap, seed 001). A platform without the requested dtype gives an empty cell. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"

int cmd_compare(int argc, char **argv)
{
    struct cli_run r;
    if (cli_parse_run(argc, argv, &r, "compare",
                      CLI_OPT_SHAPES | CLI_OPT_HW | CLI_OPT_PREDICT | CLI_OPT_MANY_MODELS | CLI_OPT_ACCURACY))
        return 2;
    if (!r.n_hw) {
        cli_error("compare: --hw P1,P2,... is required");
        return 2;
    }
    if (r.n_dtypes > 1 || r.n_batches > 1) {
        cli_error("compare: one dtype and batch (use sweep for lists)");
        return 2;
    }
    struct nnperf_platform **plats = calloc((size_t)r.n_hw, sizeof *plats);
    double *fps = calloc((size_t)(r.n_hw * r.n_models), sizeof *fps);
    double *lat = calloc((size_t)(r.n_hw * r.n_models), sizeof *lat);
    if (!plats || !fps || !lat || cli_load_platforms(&r, plats)) {
        free(plats), free(fps), free(lat);
        return 2;
    }
    /* html: accuracies for the pareto front and a batch sweep for the latency-vs-throughput lines */
    static const int sweep_batches[] = {1, 2, 4, 8, 16};
    int html = r.fmt == NNPERF_FORMAT_HTML, nb = html ? 5 : 0;
    double *acc = calloc((size_t)r.n_models, sizeof *acc);
    size_t ncell = (size_t)(r.n_hw * r.n_models) * (size_t)(nb ? nb : 1);
    double *sw_fps = calloc(ncell, sizeof *sw_fps), *sw_lat = calloc(ncell, sizeof *sw_lat);
    if (!acc || !sw_fps || !sw_lat || (r.n_accuracy && !html) || cli_parse_accuracy(&r, acc)) {
        if (r.n_accuracy && !html)
            cli_error("compare: --accuracy is drawn in the html report (--format html)");
        for (int hi = 0; hi < r.n_hw; hi++) nnperf_platform_free(plats[hi]);
        free(plats), free(fps), free(lat), free(acc), free(sw_fps), free(sw_lat);
        return 2;
    }
    int rc = 0, steps = r.n_models * r.n_hw * (1 + nb), step = 0;
    cli_progress_start(r.quiet);
    for (int mi = 0; mi < r.n_models && !rc; mi++) {
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
        for (int hi = 0; hi < r.n_hw; hi++) {
            struct nnperf_predict_options po = cli_predict_options(&r);
            struct nnperf_prediction *p;
            char err[1024];
            fps[mi * r.n_hw + hi] = NAN;
            lat[mi * r.n_hw + hi] = NAN;
            for (int b = 0; b < nb; b++) { /* the sweep for the html report's latency-vs-throughput lines */
                struct nnperf_predict_options bo = po;
                struct nnperf_prediction *bp;
                size_t k = (size_t)(mi * r.n_hw + hi) * (size_t)nb + (size_t)b;
                bo.batch = sweep_batches[b];
                sw_fps[k] = sw_lat[k] = NAN;
                cli_progress(++step, steps, cli_model_name(r.models[mi]));
                if (nnperf_predict(an, plats[hi], &bo, &bp, err, sizeof err) != NNPERF_OK) continue;
                struct nnperf_prediction_summary bs;
                nnperf_prediction_summary(bp, &bs);
                sw_fps[k] = bs.fps;
                sw_lat[k] = bs.latency_s * 1e3;
                nnperf_prediction_free(bp);
            }
            cli_progress(++step, steps, cli_model_name(r.models[mi]));
            if (nnperf_predict(an, plats[hi], &po, &p, err, sizeof err) != NNPERF_OK) {
                if (!r.quiet)
                    fprintf(stderr, "%snnperf: warning:%s %s on %s: %s\n", cli_sgr(2, "33"), cli_sgr(2, "0"),
                            cli_model_name(r.models[mi]), r.hw[hi], err);
                continue;
            }
            struct nnperf_prediction_summary s;
            nnperf_prediction_summary(p, &s);
            fps[mi * r.n_hw + hi] = s.fps;
            lat[mi * r.n_hw + hi] = s.latency_s * 1e3;
            nnperf_prediction_free(p);
        }
        nnperf_analysis_free(an);
        nnperf_model_free(m);
    }
    cli_progress_end();
    if (!rc && html) {
        const char **names = calloc((size_t)r.n_models, sizeof *names);
        char(*nb_names)[256] = calloc((size_t)r.n_models, sizeof *nb_names);
        char *text = NULL, err[1024];
        size_t tlen = 0;
        rc = 2;
        if (names && nb_names) {
            for (int mi = 0; mi < r.n_models; mi++) {
                snprintf(nb_names[mi], sizeof nb_names[mi], "%s", cli_model_name(r.models[mi]));
                size_t l = strlen(nb_names[mi]);
                if (l > 5 && !strcmp(nb_names[mi] + l - 5, ".onnx")) nb_names[mi][l - 5] = 0;
                names[mi] = nb_names[mi];
            }
            int any_acc = 0;
            for (int mi = 0; mi < r.n_models; mi++) any_acc |= !isnan(acc[mi]);
            struct nnperf_compare_data d = {.n_models = r.n_models,
                                            .n_platforms = r.n_hw,
                                            .models = names,
                                            .platforms = r.hw,
                                            .dtype = r.n_dtypes ? r.dtypes[0] : NULL,
                                            .fps = fps,
                                            .latency_ms = lat,
                                            .accuracy = any_acc ? acc : NULL,
                                            .n_batches = nb,
                                            .batches = sweep_batches,
                                            .sweep_fps = sw_fps,
                                            .sweep_latency_ms = sw_lat};
            if (nnperf_compare_render(&d, NNPERF_FORMAT_HTML, &text, &tlen, err, sizeof err) != NNPERF_OK)
                cli_error("compare: %s", err);
            else
                rc = cli_write_output(r.out, text, tlen);
        }
        free(text), free(names), free(nb_names);
    } else if (!rc) {
        char *buf = NULL;
        size_t len = 0;
        FILE *f = open_memstream(&buf, &len);
        if (!f)
            rc = 2;
        else {
            if (r.fmt == NNPERF_FORMAT_JSON) {
                fprintf(f, "{\"schema\":\"nnperf.compare\",\"schema_version\":1,\"platforms\":[");
                for (int hi = 0; hi < r.n_hw; hi++) {
                    if (hi) fputc(',', f);
                    cli_json_str(f, r.hw[hi]);
                }
                fprintf(f, "],\"dtype\":\"%s\",\"cells\":[", r.n_dtypes ? r.dtypes[0] : "default");
                for (int mi = 0; mi < r.n_models; mi++)
                    for (int hi = 0; hi < r.n_hw; hi++) {
                        double F = fps[mi * r.n_hw + hi], L = lat[mi * r.n_hw + hi];
                        fprintf(f, "%s\n{\"model\":", mi || hi ? "," : "");
                        cli_json_str(f, cli_model_name(r.models[mi]));
                        fprintf(f, ",\"platform\":");
                        cli_json_str(f, r.hw[hi]);
                        fputc(',', f);
                        if (isnan(F))
                            fprintf(f, "\"fps\":null,\"latency_ms\":null}");
                        else
                            fprintf(f, "\"fps\":%.6g,\"latency_ms\":%.6g}", F, L);
                    }
                fprintf(f, "\n]}\n");
            } else if (r.fmt == NNPERF_FORMAT_CSV) {
                fprintf(f, "model,platform,fps,latency_ms\n");
                for (int mi = 0; mi < r.n_models; mi++)
                    for (int hi = 0; hi < r.n_hw; hi++) {
                        double F = fps[mi * r.n_hw + hi], L = lat[mi * r.n_hw + hi];
                        if (isnan(F))
                            fprintf(f, "%s,%s,,\n", cli_model_name(r.models[mi]), r.hw[hi]);
                        else
                            fprintf(f, "%s,%s,%.6g,%.6g\n", cli_model_name(r.models[mi]), r.hw[hi], F, L);
                    }
            } else {
                /* on a terminal, platforms are split into blocks of columns that fit its width */
                int tw = r.out ? 0 : cli_term_width(1), per = r.n_hw;
                if (tw > 0) per = (tw - 24) / 17 > 0 ? (tw - 24) / 17 : 1;
                for (int h0 = 0; h0 < r.n_hw; h0 += per)
                    for (int pass = 0; pass < 2; pass++) {
                        int h1 = h0 + per < r.n_hw ? h0 + per : r.n_hw;
                        fprintf(f, "%s\n%-24s",
                                pass ? "\nlatency (ms per run)"
                                : h0 ? "\nFPS"
                                     : "FPS",
                                "model");
                        for (int hi = h0; hi < h1; hi++) fprintf(f, " %16.16s", r.hw[hi]);
                        fputc('\n', f);
                        for (int mi = 0; mi < r.n_models; mi++) {
                            fprintf(f, "%-24.24s", cli_model_name(r.models[mi]));
                            for (int hi = h0; hi < h1; hi++) {
                                double x = pass ? lat[mi * r.n_hw + hi] : fps[mi * r.n_hw + hi];
                                if (isnan(x))
                                    fprintf(f, " %16s", "n/a");
                                else
                                    fprintf(f, " %16.2f", x);
                            }
                            fputc('\n', f);
                        }
                    }
            }
            fclose(f);
            rc = cli_write_output(r.out, buf, len);
            free(buf);
        }
    }
    for (int hi = 0; hi < r.n_hw; hi++) nnperf_platform_free(plats[hi]);
    free(plats), free(fps), free(lat), free(acc), free(sw_fps), free(sw_lat);
    return rc;
}
