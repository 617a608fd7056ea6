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
                      CLI_OPT_SHAPES | CLI_OPT_HW | CLI_OPT_PREDICT | CLI_OPT_MANY_MODELS))
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
    int rc = 0;
    for (int mi = 0; mi < r.n_models && !rc; mi++) {
        struct nnperf_model *m;
        struct nnperf_analysis *an;
        if (cli_load(&r, r.models[mi], &m, &an)) {
            rc = 2;
            break;
        }
        for (int hi = 0; hi < r.n_hw; hi++) {
            struct nnperf_predict_options po = {.dtype = r.n_dtypes ? r.dtypes[0] : NULL,
                                                .batch = r.n_batches ? r.batches[0] : 0,
                                                .memory_model = r.memory_model,
                                                .interval_s = r.interval_s};
            struct nnperf_prediction *p;
            char err[1024];
            fps[mi * r.n_hw + hi] = NAN;
            lat[mi * r.n_hw + hi] = NAN;
            if (nnperf_predict(an, plats[hi], &po, &p, err, sizeof err) != NNPERF_OK) {
                fprintf(stderr, "nnperf: warning: %s on %s: %s\n", cli_model_name(r.models[mi]), r.hw[hi],
                        err);
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
    if (!rc) {
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
                for (int pass = 0; pass < 2; pass++) {
                    fprintf(f, "%s\n%-24s", pass ? "\nlatency (ms per run)" : "FPS", "model");
                    for (int hi = 0; hi < r.n_hw; hi++) fprintf(f, " %16.16s", r.hw[hi]);
                    fputc('\n', f);
                    for (int mi = 0; mi < r.n_models; mi++) {
                        fprintf(f, "%-24.24s", cli_model_name(r.models[mi]));
                        for (int hi = 0; hi < r.n_hw; hi++) {
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
    free(plats), free(fps), free(lat);
    return rc;
}
