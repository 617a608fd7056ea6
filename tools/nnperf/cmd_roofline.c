/* cmd_roofline.c - `nnperf roofline MODEL --hw P`: each layer's arithmetic intensity (ops per DDR byte) and
 * attained performance against the platform's ceilings: the data of a roofline plot (Williams et al. 2009). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"

int cmd_roofline(int argc, char **argv)
{
    struct cli_run r;
    if (cli_parse_run(argc, argv, &r, "roofline", CLI_OPT_SHAPES | CLI_OPT_HW | CLI_OPT_PREDICT)) return 2;
    if (r.n_hw != 1 || r.n_dtypes > 1 || r.n_batches > 1) {
        cli_error("roofline: exactly one --hw (and at most one dtype and batch)");
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
        double peak, bw;
        nnperf_prediction_ceilings(p, &peak, &bw);
        char *buf = NULL;
        size_t len = 0;
        FILE *f = open_memstream(&buf, &len);
        if (!f)
            rc = 2;
        else {
            int n = nnperf_prediction_layer_count(p);
            if (r.fmt == NNPERF_FORMAT_JSON)
                fprintf(f,
                        "{\"schema\":\"nnperf.roofline\",\"schema_version\":1,\"peak_ops_per_s\":%.6g,\"ddr_"
                        "bytes_per_s\":%.6g,\"ridge_ops_per_byte\":%.6g,\"layers\":[",
                        peak, bw, bw > 0 ? peak / bw : 0);
            else if (r.fmt == NNPERF_FORMAT_CSV)
                fprintf(f, "layer,op,class,ops,ddr_bytes,intensity,attained_ops_per_s,time_us,bound\n");
            else
                fprintf(f,
                        "ceilings: peak %.4g ops/s, DDR %.4g B/s, ridge point %.1f ops/B\n%-36s %-16s %12s "
                        "%12s %14s %10s %-8s\n",
                        peak, bw, bw > 0 ? peak / bw : 0, "layer", "op", "ops", "ops/B", "attained ops/s",
                        "time us", "bound");
            int rows = 0;
            for (int i = 0; i < n; i++) {
                struct nnperf_layer_info li;
                nnperf_prediction_layer(p, i, &li);
                if (li.t_total <= 0) continue;
                size_t nl = strlen(li.name);
                const char *nm = nl > 36 ? li.name + nl - 36 : li.name;
                if (r.fmt == NNPERF_FORMAT_JSON) {
                    fprintf(f, "%s\n{\"layer\":", rows ? "," : "");
                    cli_json_str(f, li.name);
                    fprintf(f, ",\"op\":");
                    cli_json_str(f, li.op);
                    fprintf(f,
                            ",\"class\":\"%s\",\"ops\":%.6g,\"ddr_bytes\":%.6g,\"intensity\":%.6g,\"attained_"
                            "ops_per_s\":%.6g,\"time_us\":%.6g,\"bound\":\"%s\"}",
                            li.klass, li.aligned_ops, li.ddr_bytes, li.intensity, li.attained,
                            li.t_total * 1e6, li.bound);
                } else if (r.fmt == NNPERF_FORMAT_CSV)
                    fprintf(f, "%s,%s,%s,%.6g,%.6g,%.6g,%.6g,%.6g,%s\n", li.name, li.op, li.klass,
                            li.aligned_ops, li.ddr_bytes, li.intensity, li.attained, li.t_total * 1e6,
                            li.bound);
                else
                    fprintf(f, "%-36s %-16s %12.4g %12.2f %14.4g %10.2f %-8s\n", nm, li.op, li.aligned_ops,
                            li.intensity, li.attained, li.t_total * 1e6, li.bound);
                rows++;
            }
            if (r.fmt == NNPERF_FORMAT_JSON) fprintf(f, "\n]}\n");
            fclose(f);
            rc = cli_write_output(r.out, buf, len);
            free(buf);
        }
        nnperf_prediction_free(p);
    }
    nnperf_analysis_free(an);
    nnperf_model_free(m);
    nnperf_platform_free(plat);
    return rc;
}
