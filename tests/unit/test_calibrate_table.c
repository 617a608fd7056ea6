/* test_calibrate_table.c - `nnperf calibrate --table` (src/predict/calibrate_table.c): latencies predicted on a
 * known platform (zcu102-dpu with its DDR efficiency and per-layer overhead changed) are written as a measured table
 * of the zoo's small models at several input sizes; calibrating the unchanged preset on that table must recover the
 * two changed values, and bad tables are refused with the file and line. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "nnperf.h"
#include "common/testfiles.h"
#include "tinytest.h"

static const char *const models[] = {"models/squeezenet1_1.onnx", "models/mobilenet_v2.onnx",
                                     "models/resnet18.onnx", "models/squeezenet1_0.onnx"};
static const char *const sizes[] = {"1x3x224x224", "1x3x160x160"};

/* the summary of a model's prediction at an input shape on a platform with options o; 0, or -1 on failure */
static int predict_summary(const char *model, const char *shape, const char *platform,
                           const struct nnperf_predict_options *o, struct nnperf_prediction_summary *s)
{
    char err[512], in[128];
    struct nnperf_model *m;
    struct nnperf_analysis *a;
    struct nnperf_platform *p;
    struct nnperf_prediction *pr;
    snprintf(in, sizeof in, "input=%s", shape);
    const char *shapes[1] = {in};
    struct nnperf_analyze_options ao = {.input_shapes = shapes, .n_input_shapes = 1};
    if (nnperf_model_load(model, NULL, &m, err, sizeof err)) return -1;
    int rc = -1;
    if (!nnperf_analyze(m, &ao, &a, err, sizeof err)) {
        if (!nnperf_platform_load(platform, &p, err, sizeof err)) {
            if (!nnperf_predict(a, p, o, &pr, err, sizeof err)) {
                nnperf_prediction_summary(pr, s);
                rc = 0;
                nnperf_prediction_free(pr);
            }
            nnperf_platform_free(p);
        }
        nnperf_analysis_free(a);
    }
    nnperf_model_free(m);
    return rc;
}

/* the predicted latency (ms) of one run of batch frames */
static double predict_batch_ms(const char *model, const char *shape, const char *platform, int batch)
{
    struct nnperf_predict_options o = {.batch = batch};
    struct nnperf_prediction_summary s;
    return predict_summary(model, shape, platform, &o, &s) ? -1 : s.latency_s * 1e3;
}

static double predict_ms(const char *model, const char *shape, const char *platform)
{
    return predict_batch_ms(model, shape, platform, 1);
}

/* the value of "key: number" in YAML text, or -1 */
static double yaml_num(const char *y, const char *key)
{
    const char *at = strstr(y, key);
    return at ? strtod(at + strlen(key), NULL) : -1;
}

static void test_recovers(void)
{
    /* the "device": zcu102-dpu with another DDR efficiency and per-layer overhead */
    size_t len;
    const char *base = nnperf_platform_preset_yaml("zcu102-dpu", &len);
    CHECK(base != NULL);
    if (!base) return;
    char dev[] = "/tmp/nnperf-cal-devXXXXXX", csv[] = "/tmp/nnperf-cal-tableXXXXXX";
    int fd = mkstemp(dev);
    CHECK(fd >= 0);
    FILE *f = fdopen(fd, "w");
    const char *p = base;
    for (const char *line = p; *line;) {
        const char *nl = strchr(line, '\n');
        size_t n = nl ? (size_t)(nl - line) + 1 : strlen(line);
        if (!strncmp(line, "  ddr_efficiency:", 17))
            fputs("  ddr_efficiency: 0.45\n", f);
        else if (!strncmp(line, "  per_layer_s:", 14))
            fputs("  per_layer_s: 7e-6\n", f);
        else
            fwrite(line, 1, n, f);
        line += n;
    }
    fclose(f);
    fd = mkstemp(csv);
    CHECK(fd >= 0);
    f = fdopen(fd, "w");
    fprintf(f, "# measured on the changed platform\nmodel,input,latency_ms\n");
    char cwd[1024];
    CHECK(getcwd(cwd, sizeof cwd) != NULL);
    int rows = 0;
    for (size_t i = 0; i < sizeof models / sizeof models[0]; i++)
        for (size_t j = 0; j < sizeof sizes / sizeof sizes[0]; j++) {
            double ms = predict_ms(models[i], sizes[j], dev);
            CHECK(ms > 0);
            fprintf(f, "%s/%s,%s,%.9g\n", cwd, models[i], sizes[j], ms);
            rows++;
        }
    fclose(f);
    char *yaml = NULL, *log = NULL, err[1024];
    enum nnperf_status st = nnperf_calibrate_table(
        "zcu102-dpu", csv, "memory.ddr_efficiency,overhead.per_layer_s", &yaml, &len, &log, err, sizeof err);
    CHECK(st == NNPERF_OK);
    if (st) fprintf(stderr, "%s\n", err);
    if (yaml) {
        double eff = yaml_num(yaml, "ddr_efficiency: "), ovh = yaml_num(yaml, "per_layer_s: ");
        CHECK(fabs(eff - 0.45) < 0.01);
        CHECK(fabs(ovh - 7e-6) < 0.2e-6);
        if (fabs(eff - 0.45) >= 0.01 || fabs(ovh - 7e-6) >= 0.2e-6) fprintf(stderr, "%s", log ? log : "");
    }
    CHECK(log && strstr(log, "left out") && strstr(log, "median |error|"));
    free(yaml);
    free(log);
    st = nnperf_calibrate_table("zcu102-dpu", csv, "memory.no_such_key", &yaml, &len, &log, err, sizeof err);
    CHECK(st == NNPERF_E_USAGE && strstr(err, "'memory.no_such_key' is not a numeric platform key"));
    unlink(dev);
    unlink(csv);
    CHECK(rows == 8);
}

static void test_bad_tables(void)
{
    char csv[] = "/tmp/nnperf-cal-badXXXXXX", *yaml, *log, err[1024];
    size_t len;
    static const char *const cases[][2] = {
        {"model,latency_ms,fps\nm.onnx,1,2\n", ":1: the header needs 'model' and exactly one of"},
        {"model,speed\nm.onnx,1\n", ":1: unknown column 'speed'"},
        {"model,fps\n# c\nm.onnx,-3\n", ":3: a row needs a model and a positive fps"},
        {"model,fps,batch\nm.onnx,3,0.5\n", ":2: batch '0.5' is not a whole number"},
        {"model,fps\n", ": no rows"},
        {"model,fps\nno-such-model.onnx,30\n", "no-such-model.onnx"},
        {"model,fps,throughput_fps,threads\nm.onnx,3,30,two\n",
         ":2: threads 'two' is not a whole number from 1 to 4096"},
        {"model,fps,throughput_fps,threads\nm.onnx,3,30,0\n",
         ":2: threads '0' is not a whole number from 1 to 4096"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        int fd = mkstemp(csv);
        CHECK(fd >= 0);
        CHECK(write(fd, cases[i][0], strlen(cases[i][0])) == (ssize_t)strlen(cases[i][0]));
        close(fd);
        enum nnperf_status st =
            nnperf_calibrate_table("zcu102-dpu", csv, NULL, &yaml, &len, &log, err, sizeof err);
        CHECK(st != NNPERF_OK && strstr(err, cases[i][1]) != NULL);
        if (st == NNPERF_OK || !strstr(err, cases[i][1])) fprintf(stderr, "case %zu: %s\n", i, err);
        unlink(csv);
        memcpy(csv + strlen(csv) - 6, "XXXXXX", 6);
    }
    CHECK(nnperf_calibrate_table("zcu102-dpu", "/", NULL, &yaml, &len, &log, err, sizeof err) == NNPERF_E_IO);
    CHECK(strstr(err, "not a regular file") != NULL);
}

/* writes text into a new temporary file named by tmpl (mkstemp) */
static void write_tmp(char *tmpl, const char *text)
{
    CHECK(tf_write_tmp(tmpl, text));
}

/* a user's few rows: one row frees one scale on every time; a row 100x off is named and left out; a key the fit
 * pushes past its bound is reported with the value written; the YAML keeps the preset's comments and records the
 * fit; a table of the fidelity dataset's format gives only its fit rows, and one of test rows only is refused */
/* A time scale r fitted on n measurements that agree on it (their own spread nil), shrunk by the spread sp of the
 * platform's N test rows (calibrate_table.c, shrink_scale): the two spreads pooled, s^2 = N sp^2 / (N - 1 + n - 1)
 * (the rows' own sum of squares is 0), se^2 = s^2 / n, ln k = ln r x max(0, 1 - se^2 / ln^2 r) past the bar */
static double shrunk(double r, int n, double sp, int N)
{
    double m = log(r), se2 = N * sp * sp / (N - 1 + n - 1) / n;
    return exp(m * fmax(0, 1 - se2 / (m * m)));
}

/* the time scale zcu102-dpu's calibration writes from two latency rows (models/NAME.onnx at 1x3x224x224, ms), or
 * from the first alone when m2 is NULL, its log into *log (-1 when it fails) */
static double rows_scale(const char *cwd, const char *m1, double ms1, const char *m2, double ms2, char **log)
{
    char csv[] = "/tmp/nnperf-cal-twoXXXXXX", text[2048], err[512], *yaml = NULL;
    size_t len;
    int n = snprintf(text, sizeof text, "model,input,latency_ms\n%s/models/%s.onnx,1x3x224x224,%.9g\n", cwd,
                     m1, ms1);
    if (m2 && n > 0 && (size_t)n < sizeof text)
        snprintf(text + n, sizeof text - (size_t)n, "%s/models/%s.onnx,1x3x224x224,%.9g\n", cwd, m2, ms2);
    write_tmp(csv, text);
    *log = NULL;
    enum nnperf_status st =
        nnperf_calibrate_table("zcu102-dpu", csv, NULL, &yaml, &len, log, err, sizeof err);
    double k = st == NNPERF_OK && yaml ? yaml_num(yaml, "\n  time_scale: ") : -1;
    free(yaml);
    unlink(csv);
    return k;
}

static void test_few_rows(void)
{
    char cwd[1024], text[4096], csv[] = "/tmp/nnperf-cal-fewXXXXXX", *yaml = NULL, *log = NULL, err[1024];
    size_t len;
    CHECK(getcwd(cwd, sizeof cwd) != NULL);
    double r18 = predict_ms("models/resnet18.onnx", "1x3x224x224", "zcu102-dpu");
    double r50 = predict_ms("models/resnet50.onnx", "1x3x224x224", "zcu102-dpu");
    double mv2 = predict_ms("models/mobilenet_v2.onnx", "1x3x224x224", "zcu102-dpu");
    double gn = predict_ms("models/googlenet.onnx", "1x3x224x224", "zcu102-dpu");
    /* the time scale alone is shrunk toward 1 by the spread of the preset's test rows: ln k = ln r x max(0, 1 -
     * s^2 / (n ln^2 r)) for n measurements r times the prediction */
    static char preset[1 << 16];
    FILE *pf = fopen("presets/zcu102-dpu.yaml", "r");
    size_t pn = pf ? fread(preset, 1, sizeof preset - 1, pf) : 0;
    if (pf) fclose(pf);
    preset[pn] = 0;
    double sp = yaml_num(preset, "\n  log_spread: ");
    int N = (int)yaml_num(preset, "\n  test_rows: ");
    CHECK(sp > 0 && sp < 1 && N > 1);
    /* one row, measured 2x the prediction */
    snprintf(text, sizeof text, "model,input,latency_ms\n%s/models/resnet18.onnx,1x3x224x224,%.9g\n", cwd,
             2 * r18);
    write_tmp(csv, text);
    enum nnperf_status st =
        nnperf_calibrate_table("zcu102-dpu", csv, NULL, &yaml, &len, &log, err, sizeof err);
    CHECK(st == NNPERF_OK);
    if (st) fprintf(stderr, "%s\n", err);
    double k = yaml ? yaml_num(yaml, "\n  time_scale: ") : -1;
    CHECK(fabs(k - shrunk(2, 1, sp, N)) < 1e-3 && k < 2);
    CHECK(log && strstr(log, "shrunk toward the platform: the rows say time_scale 2;"));
    CHECK(yaml && strstr(yaml, "name: zcu102-dpu-cal\n") && strstr(yaml, "\n  rows: 1\n"));
    CHECK(yaml &&
          strstr(yaml, "# one inference (one VART runner thread) runs on one DPU core")); /* a comment */
    CHECK(yaml && !strstr(yaml, "\nvalidation:")); /* it described the platform before calibration */
    CHECK(log && strstr(log, "left out: not available"));
    free(yaml), free(log);
    /* the same row measured twice (one configuration: two sources measuring one model at one batch) shares that
     * model's deviation: it moves the scale as far as one row, while two models measured 2x move it further */
    char *l1 = NULL;
    k = rows_scale(cwd, "resnet18", 2 * r18, "resnet18", 2 * r18, &l1);
    CHECK(fabs(k - shrunk(2, 1, sp, N)) < 1e-3 && fabs(k - shrunk(2, 2, sp, N)) > 1e-2);
    CHECK(l1 && strstr(l1, "se = s / sqrt(1)"));
    free(l1);
    k = rows_scale(cwd, "resnet18", 2 * r18, "resnet50", 2 * r50, &l1);
    CHECK(fabs(k - shrunk(2, 2, sp, N)) < 1e-3);
    free(l1);
    /* one row within the preset's spread (1.1x): the scale stays 1 */
    unlink(csv);
    memcpy(csv + strlen(csv) - 6, "XXXXXX", 6);
    snprintf(text, sizeof text, "model,input,latency_ms\n%s/models/resnet18.onnx,1x3x224x224,%.9g\n", cwd,
             1.1 * r18);
    write_tmp(csv, text);
    char *y2 = NULL, *l2 = NULL;
    st = nnperf_calibrate_table("zcu102-dpu", csv, NULL, &y2, &len, &l2, err, sizeof err);
    CHECK(st == NNPERF_OK && y2 && fabs(yaml_num(y2, "\n  time_scale: ") - 1) < 1e-9);
    CHECK(l2 && strstr(l2, "the rows say time_scale 1.1; 1 is written"));
    free(y2), free(l2);
    /* one row or two, the keys left to the rows: a row more than 10x off the platform is no board's bias (a model
     * run mostly off the accelerator: the S100's R3D-18 is 35x) and is left out, named; a 2x row beside it counts */
    char *l1x = NULL;
    k = rows_scale(cwd, "resnet18", 35 * r18, "resnet50", 2 * r50, &l1x);
    CHECK(fabs(k - shrunk(2, 1, sp, N)) < 1e-3);
    CHECK(l1x &&
          strstr(l1x, "(resnet18.onnx 1x3x224x224) is 35x slower than the platform predicts: left out"));
    free(l1x);
    k = rows_scale(cwd, "resnet18", 35 * r18, NULL, 0, &l1x); /* alone: nothing is left to fit */
    CHECK(fabs(k - 1) < 1e-9);
    CHECK(l1x && strstr(l1x, "is 35x slower than the platform predicts") &&
          strstr(l1x, "no measurement is left: the platform is written as it is"));
    if (!l1x || !strstr(l1x, "no measurement is left")) fprintf(stderr, "%s\n", l1x ? l1x : "");
    free(l1x);
    /* more free parameters than rows: refused, suggesting fewer */
    st = nnperf_calibrate_table("zcu102-dpu", csv, "efficiency,memory.ddr_efficiency", &yaml, &len, &log, err,
                                sizeof err);
    CHECK(st == NNPERF_E_USAGE &&
          strstr(err, "2 free parameters need at least 2 measurements (the table has 1)") &&
          strstr(err, "leave --fit out"));
    unlink(csv);
    /* four rows at 1.5x, one of them recorded 100x too slow */
    memcpy(csv + strlen(csv) - 6, "XXXXXX", 6);
    snprintf(
        text, sizeof text,
        "model,input,latency_ms\n%s/models/resnet18.onnx,1x3x224x224,%.9g\n%s/models/"
        "resnet50.onnx,1x3x224x224,"
        "%.9g\n%s/models/mobilenet_v2.onnx,1x3x224x224,%.9g\n%s/models/googlenet.onnx,1x3x224x224,%.9g\n",
        cwd, 1.5 * r18, cwd, 1.5 * r50, cwd, 1.5 * mv2, cwd, 150 * gn);
    write_tmp(csv, text);
    st = nnperf_calibrate_table("zcu102-dpu", csv, NULL, &yaml, &len, &log, err, sizeof err);
    CHECK(st == NNPERF_OK && log &&
          strstr(log, "outlier: line 5 (googlenet.onnx 1x3x224x224) is 100x slower"));
    k = yaml ? yaml_num(yaml, "\n  time_scale: ") : -1;
    /* the three rows agree on 1.5x (their own spread is nil): most of it, shrunk by the platform's spread alone
     * (pooled with theirs; 1.3x was within the spread of zcu102-dpu's 47 test rows, log_spread 0.235, and held) */
    CHECK(fabs(k - shrunk(1.5, 3, sp, N)) < 1e-3 && k > 1.35);
    CHECK(yaml && strstr(yaml, "googlenet.onnx 1x3x224x224 latency: outlier, left out"));
    if (fabs(k - shrunk(1.5, 3, sp, N)) >= 1e-3) fprintf(stderr, "%s", log ? log : "");
    free(yaml), free(log);
    unlink(csv);
    /* three rows that disagree around the platform (1.25x, 0.8x, 1.1x): no bias to tell, the scale stays 1 */
    memcpy(csv + strlen(csv) - 6, "XXXXXX", 6);
    snprintf(text, sizeof text,
             "model,input,latency_ms\n%s/models/resnet18.onnx,1x3x224x224,%.9g\n%s/models/"
             "resnet50.onnx,1x3x224x224,%.9g\n%s/models/mobilenet_v2.onnx,1x3x224x224,%.9g\n",
             cwd, 1.25 * r18, cwd, 0.8 * r50, cwd, 1.1 * mv2);
    write_tmp(csv, text);
    st = nnperf_calibrate_table("zcu102-dpu", csv, NULL, &yaml, &len, &log, err, sizeof err);
    CHECK(st == NNPERF_OK && yaml && fabs(yaml_num(yaml, "\n  time_scale: ") - 1) < 1e-9);
    CHECK(log && (strstr(log, "held at 1: the rows say time_scale") || strstr(log, "; 1 is written")));
    if (!log || !yaml || fabs(yaml_num(yaml, "\n  time_scale: ") - 1) >= 1e-9)
        fprintf(stderr, "%s", log ? log : "");
    free(yaml), free(log);
    /* bounds: a DDR efficiency the fit wants above 1 is written as 1, and the log says so */
    st = nnperf_calibrate_table("zcu102-dpu", csv, "memory.ddr_efficiency,overhead.per_run_s", &yaml, &len,
                                &log, err, sizeof err);
    CHECK(st == NNPERF_OK);
    free(yaml), free(log);
    unlink(csv);
    memcpy(csv + strlen(csv) - 6, "XXXXXX", 6);
    snprintf(text, sizeof text,
             "model,input,latency_ms\n%s/models/resnet18.onnx,1x3x224x224,0.01\n"
             "%s/models/resnet50.onnx,1x3x224x224,0.02\n",
             cwd, cwd);
    write_tmp(csv, text);
    st = nnperf_calibrate_table("zcu102-dpu", csv, "memory.ddr_efficiency", &yaml, &len, &log, err,
                                sizeof err);
    CHECK(st == NNPERF_OK && log && strstr(log, "0.539 -> 1  (at its bound: the fit wanted "));
    CHECK(yaml && strstr(yaml, "  ddr_efficiency: 1 ") && strstr(yaml, "CALIBRATED (was 0.539"));
    CHECK(yaml && strstr(yaml, "assumptions: [compute.fusion, fallback, overhead.per_layer_s]"));
    free(yaml), free(log);
    /* a long value (a flow map of every class) is recorded whole in the CALIBRATED comment, its own comment kept */
    char plat[] = "/tmp/nnperf-cal-platXXXXXX";
    const char *eff =
        "{default: 0.805, conv: 0.805, gemm: 0.805, matmul: 0.805, eltwise: 0.805, activation: 0.805}";
    snprintf(text, sizeof text,
             "base: zcu102-dpu\nname: long-efficiency\ncompute:\n  efficiency: %s  # mine\n", eff);
    write_tmp(plat, text);
    st = nnperf_calibrate_table(plat, csv, "efficiency", &yaml, &len, &log, err, sizeof err);
    char want[256];
    snprintf(want, sizeof want, "# CALIBRATED (was %s; calibration: below) mine\n", eff);
    CHECK(st == NNPERF_OK && yaml && strstr(yaml, want));
    if (!yaml || !strstr(yaml, want)) fprintf(stderr, "%s\n%s", err, yaml ? yaml : "");
    free(yaml), free(log);
    unlink(plat);
    unlink(csv);
    /* the fidelity dataset's format: rows of other presets skipped, test rows never fitted */
    memcpy(csv + strlen(csv) - 6, "XXXXXX", 6);
    snprintf(
        text, sizeof text,
        "# a dataset "
        "table\npreset,model,input,dtype,batch,threads,quantity,value,unit,includes,board,software,"
        "source,split\nzcu102-dpu,%s/models/resnet18.onnx,1x3x224x224,int8,1,1,latency,%.9g,ms,x,b,s,u,fit\n"
        "zcu102-dpu,%s/models/resnet50.onnx,1x3x224x224,int8,1,1,latency,99,ms,x,b,s,u,test\n"
        "zcu104-dpu,%s/models/resnet50.onnx,1x3x224x224,int8,1,1,latency,5,ms,x,b,s,u,fit\n",
        cwd, 2 * r18, cwd, cwd);
    write_tmp(csv, text);
    st = nnperf_calibrate_table("zcu102-dpu", csv, NULL, &yaml, &len, &log, err, sizeof err);
    CHECK(st == NNPERF_OK && log && strstr(log, "on 1 rows") && strstr(log, "1 test rows never fitted"));
    k = yaml ? yaml_num(yaml, "\n  time_scale: ") : -1;
    CHECK(fabs(k - shrunk(2, 1, sp, N)) < 1e-3); /* the test row (99 ms) took no part */
    free(yaml), free(log);
    unlink(csv);
    memcpy(csv + strlen(csv) - 6, "XXXXXX", 6);
    snprintf(text, sizeof text,
             "preset,model,input,quantity,value,unit,split\nzcu102-dpu,%s/models/"
             "resnet18.onnx,1x3x224x224,latency,"
             "9,ms,test\n",
             cwd);
    write_tmp(csv, text);
    st = nnperf_calibrate_table("zcu102-dpu", csv, NULL, &yaml, &len, &log, err, sizeof err);
    CHECK(st == NNPERF_E_USAGE && strstr(err, "no fit rows for zcu102-dpu: its 1 rows are test rows"));
    unlink(csv);
}

/* Three rows of one model at batch 1, 4 and 16 measured on an L4 with a per-run cost of 0.5 ms and a 1.25x slower
 * accelerator: the per-run cost joins the scale (leave-one-out says so) and both are recovered. The same rows
 * measured as a plain 1.25x of the prediction, on l4 with no test rows: the scale alone (a per-run cost predicts no
 * better), 1.25 recovered. Three models at
 * one batch size: the per-run cost is not tried (nothing tells it from the work of a frame). */
static void test_per_run(void)
{
    char cwd[1024], text[4096], plat[] = "/tmp/nnperf-cal-runXXXXXX", csv[] = "/tmp/nnperf-cal-runtXXXXXX";
    char bare[] = "/tmp/nnperf-cal-bareXXXXXX";
    char *yaml = NULL, *log = NULL, err[1024];
    size_t len;
    CHECK(getcwd(cwd, sizeof cwd) != NULL);
    /* l4: a batch runs in one call (compute.frames_per_call 0), its per-run cost paid once */
    write_tmp(plat, "base: l4\nname: board\noverhead:\n  per_run_s: 0.0005\ncalibration:\n"
                    "  time_scale: 1.25\n");
    /* l4 with no test rows of its own (its validation emptied): a lone scale is then held or shrunk by the rows' own
     * spread alone (nil here), not by l4's test rows, which move as the dataset grows (test_few_rows checks the
     * pooled bar on zcu102-dpu) */
    write_tmp(bare, "base: l4\nname: bare\nvalidation:\n  test_rows: 0\n");
    static const int batch[3] = {1, 4, 16};
    for (int pass = 0; pass < 3; pass++) {
        int n = snprintf(text, sizeof text, "model,input,batch,latency_ms\n");
        for (int i = 0; i < 3; i++) {
            const char *model = pass == 2 ? models[i] : "models/squeezenet1_1.onnx";
            int b = pass == 2 ? 1 : batch[i];
            double ms = pass == 0 ? predict_batch_ms(model, "1x3x224x224", plat, b)
                                  : 1.25 * predict_batch_ms(model, "1x3x224x224", "l4", b);
            CHECK(ms > 0);
            n +=
                snprintf(text + n, sizeof text - (size_t)n, "%s/%s,1x3x224x224,%d,%.9g\n", cwd, model, b, ms);
        }
        memcpy(csv + strlen(csv) - 6, "XXXXXX", 6);
        write_tmp(csv, text);
        enum nnperf_status st =
            nnperf_calibrate_table(pass == 1 ? bare : "l4", csv, NULL, &yaml, &len, &log, err, sizeof err);
        CHECK(st == NNPERF_OK && yaml && log);
        if (st || !yaml || !log) {
            fprintf(stderr, "%s\n", err);
            unlink(csv);
            continue;
        }
        int joined = strstr(log, "overhead.per_run_s joins the scale") != NULL;
        double k = yaml_num(yaml, "\n  time_scale: "), run = yaml_num(yaml, "\n  per_run_s: ");
        if (pass == 0) {
            CHECK(joined && fabs(k - 1.25) < 0.01 && fabs(run - 0.0005) < 0.00002);
        } else if (pass == 1) {
            CHECK(!joined && strstr(log, "one model at two batch sizes") && strstr(log, ": the scale alone"));
            CHECK(fabs(k - 1.25) < 1e-3);
        } else {
            CHECK(!joined && !strstr(log, "one model at two batch sizes"));
        }
        if ((pass == 0) != joined) fprintf(stderr, "pass %d:\n%s", pass, log);
        free(yaml), free(log);
        unlink(csv);
    }
    unlink(plat);
    unlink(bare);
}

/* calibrates `platform` on a table of one row of squeezenet1_1 (1x3x224x224, dtype, batch 1) with the threads column
 * `threads` and the measured quantity (value in unit); checks that the log's line of the row holds `want` (the
 * measured and the predicted value before the fit) and returns the time scale written (-1: none, held at 1) */
static double threads_row(const char *platform, const char *dtype, const char *threads, const char *quantity,
                          double value, const char *unit, const char *want)
{
    char cwd[1024], text[2048], *yaml = NULL, *log = NULL, err[1024], csv[] = "/tmp/nnperf-cal-thrXXXXXX";
    size_t len;
    CHECK(getcwd(cwd, sizeof cwd) != NULL);
    snprintf(text, sizeof text,
             "model,input,dtype,batch,threads,quantity,value,unit\n%s/models/"
             "squeezenet1_1.onnx,1x3x224x224,%s,1,%s,"
             "%s,%.9g,%s\n",
             cwd, dtype, threads, quantity, value, unit);
    write_tmp(csv, text);
    enum nnperf_status st = nnperf_calibrate_table(platform, csv, NULL, &yaml, &len, &log, err, sizeof err);
    CHECK(st == NNPERF_OK);
    if (st) fprintf(stderr, "%s\n", err);
    CHECK(log && strstr(log, want));
    if (log && !strstr(log, want)) fprintf(stderr, "want '%s' in:\n%s", want, log);
    double k = yaml ? yaml_num(yaml, "\n  time_scale: ") : -1;
    free(yaml);
    free(log);
    unlink(csv);
    return k;
}

/* The threads column. A throughput row's: a number N is the throughput of N application threads (predicted with
 * streams N), empty or multi the saturated one. One row on zcu102-dpu measured at exactly what 2 streams predict:
 * with threads 2 its error before the fit is 0 and the time scale stays 1; with multi (or none) it is compared with
 * the saturated throughput, above it (three cores), and the scale moves. A latency row's on raspberry-pi-5 (its
 * cores a CPU runtime's threads): one inference on N threads, as bench/fidelity/fidelity.py predicts it; with none,
 * on all four. */
static void test_threads_column(void)
{
    struct nnperf_predict_options o2 = {.streams = 2}, o0 = {0}, t1 = {.dtype = "fp16", .threads = 1},
                                  t4 = {.dtype = "fp16"};
    struct nnperf_prediction_summary s2, s0, l1, l4;
    const char *model = "models/squeezenet1_1.onnx", *in = "1x3x224x224";
    CHECK(!predict_summary(model, in, "zcu102-dpu", &o2, &s2) &&
          !predict_summary(model, in, "zcu102-dpu", &o0, &s0));
    CHECK(!strcmp(s2.throughput_limit, "application threads") && s0.throughput_fps > 1.2 * s2.throughput_fps);
    static const char *const threads[3] = {"2", "multi", ""};
    char want[64];
    for (int i = 0; i < 3; i++) {
        snprintf(want, sizeof want, "%9.3f/s %9.3f/s", s2.throughput_fps,
                 i ? s0.throughput_fps : s2.throughput_fps);
        double k =
            threads_row("zcu102-dpu", "int8", threads[i], "throughput", s2.throughput_fps, "fps", want);
        CHECK(i ? k > 1.01 || k < 0
                : fabs(k - 1) < 1e-3 || k < 0); /* k < 0: no time_scale line (held at 1) */
    }
    CHECK(!predict_summary(model, in, "raspberry-pi-5", &t1, &l1) &&
          !predict_summary(model, in, "raspberry-pi-5", &t4, &l4));
    CHECK(l1.latency_s > 1.5 * l4.latency_s);
    for (int i = 0; i < 2; i++) {
        snprintf(want, sizeof want, "%9.3fms %9.3fms", l1.latency_s * 1e3, (i ? l4 : l1).latency_s * 1e3);
        threads_row("raspberry-pi-5", "fp16", i ? "" : "1", "latency", l1.latency_s * 1e3, "ms", want);
    }
}

int main(void)
{
    test_recovers();
    test_bad_tables();
    test_few_rows();
    test_per_run();
    test_threads_column();
    return tt_done();
}
