/* test_profile.c - the ONNX Runtime profile reader (src/predict/profile.c): a real, trimmed profile
 * (tests/data/ort_profile_small.json: squeezenet1_1, ORT 1.30 CPU, 1 thread, 3 runs), the same read a few bytes
 * at a time, malformed inputs, a TensorRT profile, and files that are not regular. */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "predict/profile.h"
#include "tinytest.h"

#define NEAR(a, b) (fabs((a) - (b)) < 1e-6)

/* Loads a buffer and returns the status; the message goes to msg. */
static enum nnperf_status load_str(const char *text, char *msg, size_t n)
{
    struct perf_profile p;
    struct diag d = {NNPERF_OK, {0}};
    enum nnperf_status st = perf_profile_load_buffer(text, strlen(text), "bad.json", &p, &d);
    snprintf(msg, n, "%s", d.msg);
    perf_profile_free(&p);
    return st;
}

static void test_real(void)
{
    struct perf_profile p;
    struct diag d = {NNPERF_OK, {0}};
    enum nnperf_status st = perf_profile_load("tests/data/ort_profile_small.json", &p, &d);
    CHECK(st == NNPERF_OK);
    if (st != NNPERF_OK) {
        fprintf(stderr, "%s\n", d.msg);
        return;
    }
    /* expected values computed from the file with Python's json module */
    CHECK_EQ_U(p.runs, 3);
    CHECK(NEAR(p.run_median_us, 18603));
    CHECK(NEAR(p.run_min_us, 18212));
    CHECK_EQ_U(p.n_nodes, 40);
    CHECK(NEAR(p.kernel_total_us, 66964));
    CHECK(NEAR(p.kernel_us_per_run, 66964.0 / 3));
    CHECK(NEAR(p.kernel_median_us, 18185)); /* per run: 31020, 18185, 17759 */
    /* the first node ORT ran: a Conv fused with its Relu, in NCHWc layout */
    CHECK_STR(p.nodes[0].name, "/features/features.1/Relu_output_0_nchwc");
    CHECK_STR(p.nodes[0].op, "Conv");
    CHECK_STR(p.nodes[0].provider, "CPUExecutionProvider");
    CHECK_EQ_U(p.nodes[0].count, 3);
    CHECK(NEAR(p.nodes[0].total_us, 2786));
    CHECK(NEAR(p.nodes[0].min_us, 811));
    const struct perf_profile_node *n = perf_profile_find(&p, "/features/features.1/Relu_output_0_nchwc");
    CHECK(n == &p.nodes[0]);
    CHECK(perf_profile_find(&p, "/features/features.1/Relu_output_0_nchwc_kernel_time") == NULL);
    double sum = 0;
    int count = 0;
    for (int i = 0; i < p.n_nodes; i++) sum += p.nodes[i].total_us, count += p.nodes[i].count;
    CHECK(NEAR(sum, p.kernel_total_us));
    CHECK_EQ_U(count, 120);
    perf_profile_free(&p);
}

static void test_malformed(void)
{
    struct perf_profile p;
    struct diag d = {NNPERF_OK, {0}};
    /* a truncated real profile: a JSON syntax error naming the file and position */
    CHECK(perf_profile_load("tests/data/ort_profile_malformed.json", &p, &d) == NNPERF_E_PARSE);
    CHECK(strstr(d.msg, "ort_profile_malformed.json") != NULL);
    CHECK(strstr(d.msg, "line") != NULL);
    perf_profile_free(&p);
    struct diag d2 = {NNPERF_OK, {0}};
    CHECK(perf_profile_load("tests/data/no_such_profile.json", &p, &d2) == NNPERF_E_IO);
    CHECK(strstr(d2.msg, "no_such_profile.json") != NULL);
    perf_profile_free(&p);

    char msg[512];
    CHECK(load_str("", msg, sizeof msg) == NNPERF_E_PARSE);
    CHECK(load_str("{\"a\": 1}", msg, sizeof msg) == NNPERF_E_PARSE);
    CHECK(strstr(msg, "bad.json") != NULL);
    CHECK(load_str("[]", msg, sizeof msg) == NNPERF_E_INVALID);
    CHECK(strstr(msg, "model_run") != NULL);
    CHECK(load_str("[1]", msg, sizeof msg) == NNPERF_E_INVALID);
    CHECK(strstr(msg, "event 0") != NULL);
    CHECK(load_str("[{\"cat\":\"Session\",\"name\":\"model_run\",\"ts\":0}]", msg, sizeof msg) ==
          NNPERF_E_INVALID);
    CHECK(strstr(msg, "'dur'") != NULL);
    CHECK(load_str("[{\"cat\":\"Session\",\"name\":\"model_run\",\"ts\":0,\"dur\":-5}]", msg, sizeof msg) ==
          NNPERF_E_INVALID);
    CHECK(load_str("[{\"cat\":\"Session\",\"name\":\"model_run\",\"ts\":0,\"dur\":\"10\"}]", msg,
                   sizeof msg) == NNPERF_E_INVALID);
    CHECK(load_str("[{\"cat\":\"Session\",\"name\":\"model_run\",\"ts\":0,\"dur\":1e300}]", msg,
                   sizeof msg) == NNPERF_E_INVALID);
    CHECK(load_str("[{\"cat\":\"Node\",\"name\":\"x_kernel_time\",\"ts\":0,\"dur\":5,\"args\":[]}]", msg,
                   sizeof msg) == NNPERF_E_INVALID);
    CHECK(load_str(
              "[{\"cat\":\"Node\",\"name\":\"x_kernel_time\",\"ts\":0,\"dur\":5,\"args\":{\"op_name\":7}}]",
              msg, sizeof msg) == NNPERF_E_INVALID);
    CHECK(load_str("[{\"cat\":5,\"name\":\"x\"}]", msg, sizeof msg) == NNPERF_E_INVALID);
    CHECK(load_str("[{\"cat\":\"Node\",\"name\":\"x\\u0000y_kernel_time\",\"ts\":0,\"dur\":5}]", msg,
                   sizeof msg) != NNPERF_OK);
    CHECK(load_str("[{\"name\":\"model_run\",\"ts\":0,\"dur\":1,\"name\":\"x\"}]", msg, sizeof msg) ==
          NNPERF_E_PARSE); /* duplicate key */

    /* the object form {"traceEvents": [...]}, events outside any run, a node without args */
    const char *ok = "{\"traceEvents\": [{\"cat\":\"Session\",\"name\":\"model_run\",\"ts\":100,\"dur\":50},"
                     "{\"cat\":\"Node\",\"name\":\"a_kernel_time\",\"ts\":110,\"dur\":20},"
                     "{\"cat\":\"Node\",\"name\":\"a_kernel_time\",\"ts\":500,\"dur\":30},"
                     "{\"cat\":\"Node\",\"name\":\"a_fence_before\",\"ts\":120,\"dur\":1},"
                     "{\"cat\":\"Node\",\"name\":\"_kernel_time\",\"ts\":120,\"dur\":1}]}";
    struct diag d3 = {NNPERF_OK, {0}};
    CHECK(perf_profile_load_buffer(ok, strlen(ok), "obj.json", &p, &d3) == NNPERF_OK);
    CHECK_EQ_U(p.runs, 1);
    CHECK_EQ_U(p.n_nodes, 1);
    CHECK(p.n_nodes == 1 && NEAR(p.nodes[0].total_us, 50) && p.nodes[0].count == 2);
    CHECK(p.n_nodes == 1 && !strcmp(p.nodes[0].op, ""));
    CHECK(NEAR(p.kernel_median_us, 20)); /* the event at ts 500 is outside the run */
    CHECK(NEAR(p.run_median_us, 50));
    perf_profile_free(&p);
}

/* the streamed reader gives the same result whatever the size of its reads */
static void test_chunked(void)
{
    FILE *f = fopen("tests/data/ort_profile_small.json", "rb");
    CHECK(f != NULL);
    if (!f) return;
    static char buf[1 << 16];
    size_t len = fread(buf, 1, sizeof buf, f);
    fclose(f);
    static const size_t chunks[] = {1, 2, 7, 64, 4096, 65536};
    for (size_t c = 0; c < sizeof chunks / sizeof chunks[0]; c++) {
        struct perf_profile p;
        struct diag d = {NNPERF_OK, {0}};
        CHECK(perf_profile_load_chunked(buf, len, "small.json", chunks[c], &p, &d) == NNPERF_OK);
        CHECK_EQ_U(p.runs, 3);
        CHECK_EQ_U(p.n_nodes, 40);
        CHECK(NEAR(p.kernel_total_us, 66964) && NEAR(p.kernel_median_us, 18185) &&
              NEAR(p.run_median_us, 18603));
        CHECK(p.n_nodes == 40 && !strcmp(p.nodes[39].name, "/Flatten"));
        perf_profile_free(&p);
    }
    /* a syntax error is placed by line and column across reads */
    struct perf_profile p;
    struct diag d = {NNPERF_OK, {0}};
    const char *bad = "[\n{\"cat\":\"Session\",\n \"name\":\"model_run\",\"ts\":0,\"dur\":5,}]";
    CHECK(perf_profile_load_chunked(bad, strlen(bad), "bad.json", 3, &p, &d) == NNPERF_E_PARSE);
    CHECK(strstr(d.msg, "'bad.json': line 3, column") != NULL);
    perf_profile_free(&p);
}

static void test_not_ort(void)
{
    struct perf_profile p;
    struct diag d = {NNPERF_OK, {0}};
    CHECK(perf_profile_load("tests/data/profiles/trtexec_profile.json", &p, &d) == NNPERF_E_INVALID);
    CHECK_STR(
        d.msg,
        "'tests/data/profiles/trtexec_profile.json': not an ONNX Runtime profile: event 0 looks like a "
        "TensorRT profile (trtexec --exportProfile); expected the JSON trace of ONNX Runtime's profiler "
        "(SessionOptions.enable_profiling)");
    perf_profile_free(&p);
    /* a directory and a FIFO are refused before anything is read (a FIFO would wait for a writer) */
    struct diag d2 = {NNPERF_OK, {0}};
    CHECK(perf_profile_load("tests", &p, &d2) == NNPERF_E_IO);
    CHECK_STR(d2.msg, "'tests': not a regular file (a directory)");
    perf_profile_free(&p);
    char fifo[] = "/tmp/nnperf-test-fifo-XXXXXX";
    int fd = mkstemp(fifo);
    if (fd >= 0) {
        close(fd);
        unlink(fifo);
        if (mkfifo(fifo, 0600) == 0) {
            struct diag d3 = {NNPERF_OK, {0}};
            CHECK(perf_profile_load(fifo, &p, &d3) == NNPERF_E_IO);
            CHECK(strstr(d3.msg, "not a regular file") != NULL);
            perf_profile_free(&p);
            unlink(fifo);
        }
    }
    /* one event larger than the limit */
    size_t n = PERF_PROFILE_MAX_EVENT_BYTES + 100;
    char *big = malloc(n + 32);
    CHECK(big != NULL);
    if (big) {
        memcpy(big, "[{\"name\":\"", 10);
        memset(big + 10, 'a', n);
        memcpy(big + 10 + n, "\"}]", 4);
        struct diag d4 = {NNPERF_OK, {0}};
        CHECK(perf_profile_load_buffer(big, n + 13, "big.json", &p, &d4) == NNPERF_E_LIMIT);
        CHECK(strstr(d4.msg, "an event larger than 1048576 bytes") != NULL);
        perf_profile_free(&p);
        free(big);
    }
}

int main(void)
{
    test_chunked();
    test_not_ort();
    test_real();
    test_malformed();
    return tt_done();
}
