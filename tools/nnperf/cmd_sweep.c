/* cmd_sweep.c - `nnperf sweep MODEL --hw P --batch 1,2,4 --dtype int8,fp16`: latency vs throughput for every
 * configuration (QuTiBench's latency-vs-throughput lines). The model is analysed once; only the passes re-run. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"

int cmd_sweep(int argc, char **argv)
{
    struct cli_run r;
    if (cli_parse_run(argc, argv, &r, "sweep", CLI_OPT_SHAPES | CLI_OPT_HW | CLI_OPT_PREDICT)) return 2;
    if (!r.n_hw) {
        cli_error("sweep: --hw is required");
        return 2;
    }
    if (!r.n_batches) r.batches[r.n_batches++] = 0; /* the platform's frames per run */
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
    char *buf = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&buf, &len);
    int rc = f ? 0 : 2, rows = 0;
    if (f) {
        if (r.fmt == NNPERF_FORMAT_JSON) {
            fprintf(f, "{\"schema\":\"nnperf.sweep\",\"schema_version\":1,\"model\":");
            cli_json_str(f, cli_model_name(r.models[0]));
            fprintf(f, ",\"rows\":[");
        } else if (r.fmt == NNPERF_FORMAT_CSV)
            fprintf(f, "platform,dtype,batch,latency_ms,fps,ddr_bytes_per_frame,bound_layers_memory\n");
        else
            fprintf(f, "%-20s %-6s %6s %14s %12s %16s\n", "platform", "dtype", "batch", "latency (ms)", "FPS",
                    "DDR B/frame");
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
                    char err[1024];
                    cli_progress(done++, total, r.hw[hi]);
                    if (nnperf_predict(an, plats[hi], &po, &p, err, sizeof err) != NNPERF_OK) {
                        if (!r.quiet)
                            fprintf(stderr, "nnperf: warning: %s, %s, batch %d: %s\n", r.hw[hi],
                                    po.dtype ? po.dtype : "default", po.batch, err);
                        continue;
                    }
                    struct nnperf_prediction_summary s;
                    nnperf_prediction_summary(p, &s);
                    int mem = 0;
                    for (int l = 0; l < nnperf_prediction_layer_count(p); l++) {
                        struct nnperf_layer_info li;
                        nnperf_prediction_layer(p, l, &li);
                        mem += !strcmp(li.bound, "memory");
                    }
                    if (r.fmt == NNPERF_FORMAT_JSON) {
                        fprintf(f, "%s\n{\"platform\":", rows ? "," : "");
                        cli_json_str(f, s.platform);
                        fprintf(f,
                                ",\"dtype\":\"%s\",\"batch\":%d,\"latency_ms\":%.6g,\"fps\":%.6g,\"ddr_bytes_"
                                "per_frame\":%.6g}",
                                s.dtype, s.frames_per_run, s.latency_s * 1e3, s.fps, s.ddr_bytes_per_frame);
                    } else if (r.fmt == NNPERF_FORMAT_CSV)
                        fprintf(f, "%s,%s,%d,%.6g,%.6g,%.6g,%d\n", s.platform, s.dtype, s.frames_per_run,
                                s.latency_s * 1e3, s.fps, s.ddr_bytes_per_frame, mem);
                    else
                        fprintf(f, "%-20s %-6s %6d %14.4f %12.2f %16.0f\n", s.platform, s.dtype,
                                s.frames_per_run, s.latency_s * 1e3, s.fps, s.ddr_bytes_per_frame);
                    rows++;
                    nnperf_prediction_free(p);
                }
        cli_progress_end();
        if (r.fmt == NNPERF_FORMAT_JSON) fprintf(f, "\n]}\n");
        fclose(f);
        if (!rows) {
            cli_error("sweep: no configuration could be predicted");
            rc = 2;
        }
        if (!rc) rc = cli_write_output(r.out, buf, len);
        free(buf);
    }
    nnperf_analysis_free(an);
    nnperf_model_free(m);
    for (int i = 0; i < r.n_hw; i++) nnperf_platform_free(plats[i]);
    free(plats);
    return rc;
}
