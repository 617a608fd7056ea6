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
#include "tinytest.h"

static const char *const models[] = {"models/squeezenet1_1.onnx", "models/mobilenet_v2.onnx",
                                     "models/resnet18.onnx", "models/squeezenet1_0.onnx"};
static const char *const sizes[] = {"1x3x224x224", "1x3x160x160"};

static double predict_ms(const char *model, const char *shape, const char *platform)
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
    double ms = -1;
    if (!nnperf_analyze(m, &ao, &a, err, sizeof err)) {
        if (!nnperf_platform_load(platform, &p, err, sizeof err)) {
            if (!nnperf_predict(a, p, NULL, &pr, err, sizeof err)) {
                struct nnperf_prediction_summary s;
                nnperf_prediction_summary(pr, &s);
                ms = s.latency_s * 1e3;
                nnperf_prediction_free(pr);
            }
            nnperf_platform_free(p);
        }
        nnperf_analysis_free(a);
    }
    nnperf_model_free(m);
    return ms;
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
    /* more free parameters than the rows allow */
    st = nnperf_calibrate_table("zcu102-dpu", csv,
                                "efficiency,efficiency,efficiency,efficiency,efficiency,"
                                "efficiency,efficiency,efficiency",
                                &yaml, &len, &log, err, sizeof err);
    CHECK(st == NNPERF_E_USAGE && strstr(err, "8 free parameters"));
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

int main(void)
{
    test_recovers();
    test_bad_tables();
    return tt_done();
}
